/* The parser step's hints (parser_scan._REFERENCE_HINTS and _LABEL_HINTS), compiled: where, in a text's
 * ASCII-lowercased bytes, a character reference may give a character of a label, or a character
 * a reader skips before a label that follows (docs/algorithm.rst, "Hints"). The regular
 * expression is the plain twin and the definition: each function here reads what its parts read,
 * in their order, each "&" once (tests/sniffing/test_compiled_hints.py holds the two equal).
 *
 * A hint at "&": "#" then sixteen zeros (with "x" or not); or a numeric reference (up to fifteen
 * zeros, then the digits of a code point, whole) to a character of a label; or to a character
 * read between (*between*), followed by what _LABEL_FOLLOWS reads; or a name (any prefix of the
 * text among the names) of either kind, likewise. _LABEL_FOLLOWS: an optional ";", then up to
 * fifteen items read greedily (a separator, a quote, "=", or a reference to a character read
 * between, its ";" with it), then a sixteenth item or a label whose next byte may end it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { LABEL_READ = 1, BETWEEN = 2, SIXTEEN_ZEROS = 4 };

typedef struct {
    const unsigned char *bytes;
    Py_ssize_t length;
    int kind;  /* names: LABEL_READ or BETWEEN */
} Word;

/* The tables (set_tables): each code point below 128's kind, the names, the labels (sorted by
 * their first byte, first[b] the first of those that start with b), and the objects that hold them. */
static unsigned char code_kinds[128];
static Word *names, *labels;
static Py_ssize_t name_count, label_count, first_label[257];
/* pairs[a][b / 8] & (1 << b % 8): a label starts with bytes a, b, or one is the single byte a. */
static unsigned char pairs[256][32];
static PyObject *held;

/* The digits of a numeric reference from q (after "&#"): the kind of the code point they give
 * (0: none of those), SIXTEEN_ZEROS where sixteen zeros come first; *next: past the digits. */
static int
numeric(const unsigned char *t, Py_ssize_t q, Py_ssize_t end, Py_ssize_t *next)
{
    int hex = 0;
    if (q < end && t[q] == 'x') {
        hex = 1;
        q++;
    }
    Py_ssize_t zeros = 0;
    while (q < end && t[q] == '0' && zeros < 16) {
        zeros++;
        q++;
    }
    if (zeros == 16) {
        return SIXTEEN_ZEROS;
    }
    Py_ssize_t start = q;
    unsigned long value = 0;
    for (; q < end; q++) {
        unsigned char c = t[q];
        unsigned digit;
        if (c >= '0' && c <= '9') {
            digit = c - '0';
        }
        else if (hex && c >= 'a' && c <= 'f') {
            digit = c - 'a' + 10;
        }
        else {
            break;
        }
        if (q - start < 8) {
            value = value * (hex ? 16 : 10) + digit;
        }
    }
    *next = q;
    if (q == start || q - start >= 8 || value >= 128) {
        return 0;
    }
    return code_kinds[value];
}

/* Whether a label starts at q whose next byte may end it (the end, U+0000-U+0020, a quote, ";",
 * ">" or "&"). */
static int
label_at(const unsigned char *t, Py_ssize_t q, Py_ssize_t end)
{
    if (q >= end || (q + 1 < end && !(pairs[t[q]][t[q + 1] / 8] & (1 << t[q + 1] % 8)))) {
        return 0;
    }
    for (Py_ssize_t k = first_label[t[q]]; k < first_label[t[q] + 1]; k++) {
        Py_ssize_t n = labels[k].length, after = q + n;
        if (after <= end && memcmp(t + q, labels[k].bytes, n) == 0) {
            if (after == end) {
                return 1;
            }
            unsigned char c = t[after];
            if (c <= 0x20 || c == '"' || c == '\'' || c == ';' || c == '>' || c == '&') {
                return 1;
            }
        }
    }
    return 0;
}

/* The end of the item read between at q (greedily: the longest name), or -1. */
static Py_ssize_t
item_end(const unsigned char *t, Py_ssize_t q, Py_ssize_t end)
{
    if (q >= end) {
        return -1;
    }
    unsigned char c = t[q];
    if (c <= 0x20 || c == '"' || c == '\'' || c == '=') {
        return q + 1;
    }
    if (c != '&' || q + 1 >= end) {
        return -1;
    }
    if (t[q + 1] == '#') {
        Py_ssize_t next;
        if (numeric(t, q + 2, end, &next) != BETWEEN) {
            return -1;
        }
        return next < end && t[next] == ';' ? next + 1 : next;
    }
    Py_ssize_t longest = -1;
    for (Py_ssize_t k = 0; k < name_count; k++) {
        Py_ssize_t n = names[k].length;
        if (names[k].kind == BETWEEN && n > longest && q + 1 + n <= end && memcmp(t + q + 1, names[k].bytes, n) == 0) {
            longest = n;
        }
    }
    return longest < 0 ? -1 : q + 1 + longest;
}

/* The items read greedily from q, at most sixteen: their number, and in *stop where they end
 * (fewer than sixteen). *memo* (or NULL) holds the same for one position (a later one): the
 * backward scan reads each run of items once, not again from each "&" in it. */
typedef struct {
    Py_ssize_t at, count, stop;
} Items;

static Py_ssize_t
items_from(const unsigned char *t, Py_ssize_t q, Py_ssize_t end, const Items *memo, Py_ssize_t *stop)
{
    Py_ssize_t items = 0;
    for (; items < 16; items++) {
        if (memo != NULL && q == memo->at) {
            if (items + memo->count >= 16) {
                return 16;
            }
            *stop = memo->stop;
            return items + memo->count;
        }
        Py_ssize_t next = item_end(t, q, end);
        if (next < 0) {
            break;
        }
        q = next;
    }
    *stop = q;
    return items;
}

/* _LABEL_FOLLOWS at q (sixteen items, or up to fifteen then a label). Where *memo* is not NULL
 * and p is the "&" of a reference read as an item, ending at q: the items from p (its own, then
 * those from q) are kept in *memo*. */
static int
label_follows(const unsigned char *t, Py_ssize_t p, Py_ssize_t q, Py_ssize_t end, Items *memo)
{
    if (q < end && t[q] == ';') {
        q++;
    }
    Py_ssize_t stop = q, count = items_from(t, q, end, memo, &stop);
    if (memo != NULL && p >= 0) {
        memo->at = p;
        memo->count = count < 16 ? count + 1 : 16;
        memo->stop = stop;
    }
    return count == 16 || label_at(t, stop, end);
}

/* Whether a hint starts at p (an "&"). */
static int
hint_at(const unsigned char *t, Py_ssize_t p, Py_ssize_t end, Items *memo)
{
    Py_ssize_t q = p + 1;
    if (q >= end) {
        return 0;
    }
    if (t[q] == '#') {
        Py_ssize_t next;
        int kind = numeric(t, q + 1, end, &next);
        if (kind & (SIXTEEN_ZEROS | LABEL_READ)) {
            return 1;
        }
        return kind == BETWEEN && label_follows(t, p, next, end, memo);
    }
    if (t[q] < 'a' || t[q] > 'z') {
        return 0;
    }
    for (Py_ssize_t k = 0; k < name_count; k++) {
        Py_ssize_t n = names[k].length;
        if (q + n <= end && memcmp(t + q, names[k].bytes, n) == 0
                && (names[k].kind == LABEL_READ || label_follows(t, -1, q + n, end, memo))) {
            return 1;
        }
    }
    return 0;
}

static PyObject *
reference_hint(PyObject *module, PyObject *args)
{
    Py_buffer text;
    Py_ssize_t start, end;
    int last;
    if (!PyArg_ParseTuple(args, "y*nnp", &text, &start, &end, &last)) {
        return NULL;
    }
    if (names == NULL) {
        PyBuffer_Release(&text);
        PyErr_SetString(PyExc_RuntimeError, "c_hints.set_tables() first");
        return NULL;
    }
    const unsigned char *t = text.buf;
    Py_ssize_t found = -1;
    if (end > text.len) {
        end = text.len;
    }
    if (start < 0) {
        start = 0;
    }
    if (last) {
        Items memo = {-1, 0, 0};  /* the items from a later "&" */
        for (Py_ssize_t p = end - 1; p >= start; p--) {
            if (t[p] == '&' && hint_at(t, p, end, &memo)) {
                found = p;
                break;
            }
        }
    }
    else {
        for (Py_ssize_t p = start; p < end; p++) {
            const unsigned char *amp = memchr(t + p, '&', end - p);
            if (amp == NULL) {
                break;
            }
            p = amp - t;
            if (hint_at(t, p, end, NULL)) {
                found = p;
                break;
            }
        }
    }
    PyBuffer_Release(&text);
    return PyLong_FromSsize_t(found);
}

/* Whether a label hint (parser_scan._LABEL_HINTS) starts at p (an "="): "charset" then up to
 * fifteen separators (U+0000-U+0020), or sixteen separators, before it; after it, sixteen
 * separators, or up to fifteen, a quote or not, then sixteen whitespace characters, or up to
 * fifteen and a label whose next byte may end it. */
static int
label_hint_at(const unsigned char *t, Py_ssize_t p, Py_ssize_t end)
{
    Py_ssize_t q = p + 1, run = 0;
    while (q < end && t[q] <= 0x20 && run < 16) {
        q++;
        run++;
    }
    if (run < 16) {
        if (q < end && (t[q] == '"' || t[q] == '\'')) {
            q++;
        }
        run = 0;
        while (q < end && (t[q] == '\t' || t[q] == '\n' || t[q] == '\x0c' || t[q] == '\r' || t[q] == ' ') && run < 16) {
            q++;
            run++;
        }
        if (run < 16 && !label_at(t, q, end)) {
            return 0;
        }
    }
    Py_ssize_t b = p;  /* separators before it */
    while (b > 0 && t[b - 1] <= 0x20 && p - b < 16) {
        b--;
    }
    return p - b == 16 || (b >= 7 && memcmp(t + b - 7, "charset", 7) == 0);
}

static PyObject *
label_hint(PyObject *module, PyObject *args)
{
    Py_buffer text;
    Py_ssize_t start, end;
    int last;
    if (!PyArg_ParseTuple(args, "y*nnp", &text, &start, &end, &last)) {
        return NULL;
    }
    if (names == NULL) {
        PyBuffer_Release(&text);
        PyErr_SetString(PyExc_RuntimeError, "c_hints.set_tables() first");
        return NULL;
    }
    const unsigned char *t = text.buf;
    Py_ssize_t found = -1;
    if (end > text.len) {
        end = text.len;
    }
    if (start < 0) {
        start = 0;
    }
    if (last) {
        for (Py_ssize_t p = end - 1; p >= start; p--) {
            if (t[p] == '=' && label_hint_at(t, p, end)) {
                found = p;
                break;
            }
        }
    }
    else {
        for (Py_ssize_t p = start; p < end; p++) {
            const unsigned char *equals = memchr(t + p, '=', end - p);
            if (equals == NULL) {
                break;
            }
            p = equals - t;
            if (label_hint_at(t, p, end)) {
                found = p;
                break;
            }
        }
    }
    PyBuffer_Release(&text);
    return PyLong_FromSsize_t(found);
}

static int
words_of(PyObject *sequence, Word **words, Py_ssize_t *count)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    Word *out = PyMem_New(Word, n > 0 ? n : 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(sequence, k), *word;
        int kind;
        if (!PyArg_ParseTuple(pair, "Si", &word, &kind)) {
            PyMem_Free(out);
            return -1;
        }
        out[k].bytes = (const unsigned char *)PyBytes_AS_STRING(word);
        out[k].length = PyBytes_GET_SIZE(word);
        out[k].kind = kind;
        if (out[k].length == 0) {
            PyMem_Free(out);
            PyErr_SetString(PyExc_ValueError, "an empty word");
            return -1;
        }
    }
    *words = out;
    *count = n;
    return 0;
}

static PyObject *
set_tables(PyObject *module, PyObject *args)
{
    Py_buffer kinds;
    PyObject *name_list, *label_list;
    if (!PyArg_ParseTuple(args, "y*OO", &kinds, &name_list, &label_list)) {
        return NULL;
    }
    PyObject *fast_names = PySequence_Fast(name_list, "names: a sequence"), *fast_labels = NULL;
    Word *new_names = NULL, *new_labels = NULL;
    Py_ssize_t new_name_count, new_label_count;
    if (kinds.len != 128 || fast_names == NULL
            || (fast_labels = PySequence_Fast(label_list, "labels: a sequence")) == NULL
            || words_of(fast_names, &new_names, &new_name_count) < 0
            || words_of(fast_labels, &new_labels, &new_label_count) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "kinds: 128 bytes");
        }
        goto failed;
    }
    for (Py_ssize_t k = 1; k < new_label_count; k++) {
        if (new_labels[k].bytes[0] < new_labels[k - 1].bytes[0]) {
            PyErr_SetString(PyExc_ValueError, "labels: sorted by their first byte");
            goto failed;
        }
    }
    memcpy(code_kinds, kinds.buf, 128);
    PyMem_Free(names);
    PyMem_Free(labels);
    names = new_names;
    labels = new_labels;
    name_count = new_name_count;
    label_count = new_label_count;
    for (int b = 0, k = 0; b <= 256; b++) {
        while (k < label_count && labels[k].bytes[0] < b) {
            k++;
        }
        first_label[b] = k;
    }
    memset(pairs, 0, sizeof(pairs));
    for (Py_ssize_t k = 0; k < label_count; k++) {
        const unsigned char *bytes = labels[k].bytes;
        if (labels[k].length == 1) {
            memset(pairs[bytes[0]], 0xFF, 32);
        }
        else {
            pairs[bytes[0]][bytes[1] / 8] |= 1 << bytes[1] % 8;
        }
    }
    Py_XSETREF(held, PyTuple_Pack(2, fast_names, fast_labels));
    Py_DECREF(fast_names);
    Py_DECREF(fast_labels);
    PyBuffer_Release(&kinds);
    Py_RETURN_NONE;
failed:
    PyMem_Free(new_names);
    PyMem_Free(new_labels);
    Py_XDECREF(fast_names);
    Py_XDECREF(fast_labels);
    PyBuffer_Release(&kinds);
    return NULL;
}

static PyMethodDef methods[] = {
    {"set_tables", set_tables, METH_VARARGS,
     "set_tables(kinds, names, labels): kinds, 128 bytes (each code point's: 1 a label's character, 2 one read "
     "between); names and labels, (bytes, kind) pairs, the labels sorted by their first byte."},
    {"reference_hint", reference_hint, METH_VARARGS,
     "reference_hint(lowered, start, end, last) -> int: the first (or, last true, the last) offset from start "
     "at which a reference hint starts in lowered[:end], or -1."},
    {"label_hint", label_hint, METH_VARARGS,
     "label_hint(lowered, start, end, last) -> int: the first (or, last true, the last) offset from start "
     "at which a label hint starts in lowered[:end], or -1 (the labels: set_tables')."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "c_hints", "The parser step's hints, compiled (see c_hints.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit_c_hints(void)
{
    return PyModule_Create(&module);
}
