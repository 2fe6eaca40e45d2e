/* Four of the tokenizer's patterns, compiled: a tag (tokenizer.TAG), copies but for their numbers
 * (tokenizer.numbered_run), the start of markup (tokenizer.MARKUP_START) and a word written or
 * spelt in numeric references (charrefs.lowered_word); "<meta" in bytes (change._META_BYTES); and the
 * script data states' transitions
 * (tokenizer.script_data_end's steps). The patterns and steps are the plain twins and the
 * definitions: each function here reads what its pattern reads, in its order
 * (tests/sniffing/test_compiled_tokens.py holds each equal to its pattern). A text is read in its
 * own kind (one, two or four bytes a character).
 *
 * tag_groups: TAG's match at a "<" (tag open state .. data state, §13.2.5.6-42): "/" or not, the
 * name (an ASCII letter, then to whitespace, "/" or ">"), the attributes as TAG's steps read them
 * (whitespace and "/"; a character other than those and ">"; then to "/", "=" or ">"; after "=",
 * whitespace, then a quoted value to its quote, an unquoted one to whitespace or ">", or none
 * before ">"), then whitespace and "/" (the tail) and ">". The steps are possessive: a step that
 * fails leaves a character that is not ">" where the tail would have to end, so no match.
 *
 * numbered_end: where copies of a unit but for its numbers end (numbered_run's "(?:one)*"): its
 * literals in turn with a run of 1 to 8 ASCII digits between each two. The caller gives literals
 * where each run is followed by a character other than a digit (the next literal's first, or the
 * next copy's), so each run is its longest (at most 8) and each copy reads one way, as the
 * pattern's backtracking finds it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define IS_SPACE(c) ((c) == '\t' || (c) == '\n' || (c) == '\x0c' || (c) == '\r' || (c) == ' ')
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
/* NAME##_1, _2 or _4 (one per kind of str: one, two or four bytes a character) on text's characters,
 * with the arguments after. */
#define BY_KIND(NAME, text, ...)                                                                     \
    (PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND   ? NAME##_1(PyUnicode_1BYTE_DATA(text), __VA_ARGS__) \
     : PyUnicode_KIND(text) == PyUnicode_2BYTE_KIND ? NAME##_2(PyUnicode_2BYTE_DATA(text), __VA_ARGS__) \
                                                    : NAME##_4(PyUnicode_4BYTE_DATA(text), __VA_ARGS__))

/* TAG's spans in t[:end] from pos: returns the match's end (-1: none), and the name's start, its
 * end (the attributes' start), and the attributes' end (the tail's start). */
#define DEFINE_TAG(NAME, TYPE)                                                                       \
static Py_ssize_t                                                                                    \
NAME(const TYPE *t, Py_ssize_t pos, Py_ssize_t end, Py_ssize_t *name, Py_ssize_t *attributes,        \
     Py_ssize_t *tail)                                                                               \
{                                                                                                    \
    Py_ssize_t p = pos + 1;                                                                          \
    if (pos >= end || t[pos] != '<') {                                                               \
        return -1;                                                                                   \
    }                                                                                                \
    if (p < end && t[p] == '/') {                                                                    \
        p++;                                                                                         \
    }                                                                                                \
    if (p >= end || !((t[p] >= 'A' && t[p] <= 'Z') || (t[p] >= 'a' && t[p] <= 'z'))) {              \
        return -1;                                                                                   \
    }                                                                                                \
    *name = p;                                                                                       \
    while (p < end && !IS_SPACE(t[p]) && t[p] != '/' && t[p] != '>') {                              \
        p++;                                                                                         \
    }                                                                                                \
    if (p >= end) {                                                                                  \
        return -1;  /* the lookahead after the name */                                               \
    }                                                                                                \
    *attributes = p;                                                                                 \
    for (;;) {  /* a step */                                                                         \
        Py_ssize_t q = p;                                                                            \
        while (q < end && (IS_SPACE(t[q]) || t[q] == '/')) {                                         \
            q++;                                                                                     \
        }                                                                                            \
        if (q >= end || t[q] == '>') {                                                               \
            break;  /* no step: the tail from p */                                                   \
        }                                                                                            \
        q++;                                                                                         \
        while (q < end && t[q] != '/' && t[q] != '=' && t[q] != '>') {                               \
            q++;                                                                                     \
        }                                                                                            \
        if (q >= end) {                                                                              \
            return -1;                                                                               \
        }                                                                                            \
        if (t[q] == '=') {                                                                           \
            q++;                                                                                     \
            while (q < end && IS_SPACE(t[q])) {                                                      \
                q++;                                                                                 \
            }                                                                                        \
            if (q >= end) {                                                                          \
                return -1;                                                                           \
            }                                                                                        \
            TYPE c = t[q];                                                                           \
            if (c == '"' || c == '\'') {                                                             \
                q++;                                                                                 \
                while (q < end && t[q] != c) {                                                       \
                    q++;                                                                             \
                }                                                                                    \
                if (q >= end) {                                                                      \
                    return -1;                                                                       \
                }                                                                                    \
                q++;                                                                                 \
            }                                                                                        \
            else if (c != '>') {                                                                     \
                while (q < end && !IS_SPACE(t[q]) && t[q] != '>') {                                  \
                    q++;                                                                             \
                }                                                                                    \
            }                                                                                        \
        }                                                                                            \
        p = q;                                                                                       \
    }                                                                                                \
    *tail = p;                                                                                       \
    while (p < end && (IS_SPACE(t[p]) || t[p] == '/')) {                                             \
        p++;                                                                                         \
    }                                                                                                \
    return p < end && t[p] == '>' ? p + 1 : -1;                                                      \
}

DEFINE_TAG(tag_1, Py_UCS1)
DEFINE_TAG(tag_2, Py_UCS2)
DEFINE_TAG(tag_4, Py_UCS4)

static PyObject *
tag_groups(PyObject *module, PyObject *args)
{
    PyObject *text;
    Py_ssize_t pos, end = PY_SSIZE_T_MAX, name, attributes, tail, stop;
    if (!PyArg_ParseTuple(args, "Un|n", &text, &pos, &end)) {
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (end > length) {
        end = length;
    }
    if (pos < 0 || pos >= end) {
        Py_RETURN_NONE;
    }
    stop = BY_KIND(tag, text, pos, end, &name, &attributes, &tail);
    if (stop < 0) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(nNNNN)", stop, PyUnicode_Substring(text, pos + 1, name),
                         PyUnicode_Substring(text, name, attributes), PyUnicode_Substring(text, attributes, tail),
                         PyUnicode_Substring(text, tail, stop - 1));
}

/* Where copies from pos of the unit of literals (the text's kind of characters, literal k from
 * starts[k] to starts[k + 1]) with a run of digits between each two end, within t[:end]. */
#define DEFINE_NUMBERED(NAME, TYPE)                                                                  \
static Py_ssize_t                                                                                    \
NAME(const TYPE *t, Py_ssize_t pos, Py_ssize_t end, const Py_UCS4 *chars, const Py_ssize_t *starts,  \
     Py_ssize_t count)                                                                               \
{                                                                                                    \
    TYPE *own = PyMem_New(TYPE, starts[count] + 1);  /* the literals as the text's characters */     \
    if (own == NULL) {                                                                               \
        return -1;                                                                                   \
    }                                                                                                \
    for (Py_ssize_t i = 0; i < starts[count]; i++) {                                                 \
        own[i] = (TYPE)chars[i];                                                                     \
        if (own[i] != chars[i]) {  /* none of the text's kind: no copy */                            \
            PyMem_Free(own);                                                                         \
            return pos;                                                                              \
        }                                                                                            \
    }                                                                                                \
    for (;;) {                                                                                       \
        Py_ssize_t q = pos;                                                                          \
        for (Py_ssize_t k = 0; k < count; k++) {                                                     \
            if (k > 0) {  /* a run of 1 to 8 digits, its longest */                                  \
                Py_ssize_t digits = 0;                                                               \
                while (digits < 8 && q < end && IS_DIGIT(t[q])) {                                    \
                    digits++;                                                                        \
                    q++;                                                                             \
                }                                                                                    \
                if (digits == 0) {                                                                   \
                    goto done;                                                                       \
                }                                                                                    \
            }                                                                                        \
            Py_ssize_t n = starts[k + 1] - starts[k];                                                \
            if (n > end - q || memcmp(t + q, own + starts[k], n * sizeof(TYPE)) != 0) {              \
                goto done;                                                                           \
            }                                                                                        \
            q += n;                                                                                  \
        }                                                                                            \
        if (q == pos) {                                                                              \
            goto done;  /* an empty unit */                                                          \
        }                                                                                            \
        pos = q;                                                                                     \
    }                                                                                                \
done:                                                                                                \
    PyMem_Free(own);                                                                                 \
    return pos;                                                                                      \
}

DEFINE_NUMBERED(numbered_1, Py_UCS1)
DEFINE_NUMBERED(numbered_2, Py_UCS2)
DEFINE_NUMBERED(numbered_4, Py_UCS4)

static PyObject *
numbered_end(PyObject *module, PyObject *args)
{
    PyObject *text, *literals;
    Py_ssize_t pos, end;
    if (!PyArg_ParseTuple(args, "UnnO!", &text, &pos, &end, &PyTuple_Type, &literals)) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(literals), total = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *literal = PyTuple_GET_ITEM(literals, k);
        if (!PyUnicode_Check(literal)) {
            PyErr_SetString(PyExc_TypeError, "literals: a tuple of str");
            return NULL;
        }
        total += PyUnicode_GET_LENGTH(literal);
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (end > length) {
        end = length;
    }
    if (count == 0 || pos < 0 || pos >= end) {
        return PyLong_FromSsize_t(pos);
    }
    Py_UCS4 *chars = PyMem_New(Py_UCS4, total + 1);
    Py_ssize_t *starts = PyMem_New(Py_ssize_t, count + 1);
    if (chars == NULL || starts == NULL) {
        PyMem_Free(chars);
        PyMem_Free(starts);
        return PyErr_NoMemory();
    }
    starts[0] = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *literal = PyTuple_GET_ITEM(literals, k);
        Py_ssize_t n = PyUnicode_GET_LENGTH(literal);
        if (n > 0 && PyUnicode_AsUCS4(literal, chars + starts[k], n, 0) == NULL) {
            PyMem_Free(chars);
            PyMem_Free(starts);
            return NULL;
        }
        starts[k + 1] = starts[k] + n;
    }
    Py_ssize_t stop = BY_KIND(numbered, text, pos, end, chars, starts, count);
    PyMem_Free(chars);
    PyMem_Free(starts);
    if (stop < 0) {
        return PyErr_NoMemory();
    }
    return PyLong_FromSsize_t(stop);
}

/* tokenizer.MARKUP_START's first match in t[pos:end]: a "<" then "!", "/", "?" or an ASCII letter. */
#define DEFINE_MARKUP(NAME, TYPE)                                                                    \
static Py_ssize_t                                                                                    \
NAME(const TYPE *t, Py_ssize_t pos, Py_ssize_t end)                                                  \
{                                                                                                    \
    for (Py_ssize_t i = pos; i + 1 < end; i++) {                                                     \
        if (t[i] == '<') {                                                                           \
            TYPE c = t[i + 1];                                                                       \
            if (c == '!' || c == '/' || c == '?' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) { \
                return i;                                                                            \
            }                                                                                        \
        }                                                                                            \
    }                                                                                                \
    return -1;                                                                                       \
}

DEFINE_MARKUP(markup_1, Py_UCS1)
DEFINE_MARKUP(markup_2, Py_UCS2)
DEFINE_MARKUP(markup_4, Py_UCS4)

static PyObject *
markup_start(PyObject *module, PyObject *args)
{
    PyObject *text;
    Py_ssize_t pos, end;
    if (!PyArg_ParseTuple(args, "Unn", &text, &pos, &end)) {
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (end > length) {
        end = length;
    }
    if (pos < 0) {
        pos = 0;
    }
    return PyLong_FromSsize_t(BY_KIND(markup, text, pos, end));
}

/* charrefs.lowered_word's first match in t[start:end] (a text's ASCII-lowercased bytes): each letter
 * of the word written (lowercase), or a numeric reference to it, either case ("&#", zeros, then its
 * code point's digits, whole; or "x", zeros, then its hexadecimal digits, whole), its ";" if one
 * follows. Each reads one way: the zeros, digits and ";" are taken whole (no other unit starts with
 * a digit or ";"). */
static Py_ssize_t
reference_end(const unsigned char *t, Py_ssize_t q, Py_ssize_t end, unsigned char letter)
{
    if (q + 2 >= end || t[q] != '&' || t[q + 1] != '#') {
        return -1;
    }
    q += 2;
    int hex = t[q] == 'x';
    q += hex;
    while (q < end && t[q] == '0') {
        q++;
    }
    unsigned long value = 0;
    Py_ssize_t digits = 0;
    for (; q < end; q++, digits++) {
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
        if (digits < 8) {
            value = value * (hex ? 16 : 10) + digit;
        }
    }
    if (digits == 0 || digits > 3 || (value != letter && value != (unsigned long)(letter - 32))) {
        return -1;
    }
    return q < end && t[q] == ';' ? q + 1 : q;
}

static PyObject *
word_start(PyObject *module, PyObject *args)
{
    Py_buffer text, word;
    Py_ssize_t start, end, found = -1;
    if (!PyArg_ParseTuple(args, "y*nny*", &text, &start, &end, &word)) {
        return NULL;
    }
    const unsigned char *t = text.buf, *w = word.buf;
    if (end > text.len) {
        end = text.len;
    }
    if (start < 0) {
        start = 0;
    }
    for (Py_ssize_t k = 0; k < word.len; k++) {
        if (w[k] < 'a' || w[k] > 'z') {
            PyBuffer_Release(&text);
            PyBuffer_Release(&word);
            PyErr_SetString(PyExc_ValueError, "word: lowercase ASCII letters");
            return NULL;
        }
    }
    for (Py_ssize_t p = start; p < end && word.len > 0 && found < 0; p++) {
        if (t[p] != w[0] && t[p] != '&') {
            continue;
        }
        Py_ssize_t q = p, k = 0;
        for (; k < word.len; k++) {
            if (q < end && t[q] == w[k]) {
                q++;
            }
            else if ((q = reference_end(t, q, end, w[k])) < 0) {
                break;
            }
        }
        if (k == word.len) {
            found = p;
        }
    }
    PyBuffer_Release(&text);
    PyBuffer_Release(&word);
    return PyLong_FromSsize_t(found);
}

/* change._META_BYTES's first match in t[start:end]: "<meta", ASCII case-insensitively (a byte | 0x20
 * is the lowercase letter only for that letter and its uppercase), from one "<" to the next. */
static PyObject *
meta_start(PyObject *module, PyObject *args)
{
    Py_buffer data;
    Py_ssize_t start, end, found = -1;
    if (!PyArg_ParseTuple(args, "y*nn", &data, &start, &end)) {
        return NULL;
    }
    const unsigned char *t = data.buf;
    if (end > data.len) {
        end = data.len;
    }
    Py_ssize_t p = start < 0 ? 0 : start, last = end - 5;  /* (the last place "<meta" can start) */
    while (p <= last) {
        if (t[p] == '<') {
            if ((t[p + 1] | 0x20) == 'm' && (t[p + 2] | 0x20) == 'e' && (t[p + 3] | 0x20) == 't' && (t[p + 4] | 0x20) == 'a') {
                found = p;
                break;
            }
            p++;
            continue;
        }
        /* the next few bytes one by one (a page dense with "<": no call for each), then memchr */
        Py_ssize_t stop = p + 8 <= last ? p + 8 : last + 1;
        while (p < stop && t[p] != '<') {
            p++;
        }
        if (p < stop || p > last) {
            continue;
        }
        const unsigned char *lt = memchr(t + p, '<', (size_t)(last + 1 - p));
        if (lt == NULL) {
            break;
        }
        p = lt - t;
    }
    PyBuffer_Release(&data);
    return PyLong_FromSsize_t(found);
}

/* tokenizer.script_data_end's steps (its plain twin, each transition a search, §13.2.5.4 and
 * 15-32) from pos in t[:n]: script data to "<!--" (then escaped, from its "--": "<!-->" closes) or
 * "</script" + a character that ends a tag name (the end: its "<"); escaped to "-->" (script data),
 * "</script"+ (the end) or "<script"+ (double-escaped, after it); double-escaped to "-->" (script
 * data) or "</script"+ (escaped, after it). "script" ASCII case-insensitively. -1: no end. */
#define SCRIPT_DATA 0
#define SCRIPT_ESCAPED 1
#define SCRIPT_DOUBLE 2
#define DEFINE_SCRIPT(NAME, TYPE)                                                                    \
static int                                                                                           \
NAME##_named(const TYPE *t, Py_ssize_t j, Py_ssize_t n)                                              \
{                                                                                                    \
    static const char script[] = "script";                                                          \
    if (j + 6 >= n) {                                                                                \
        return 0;                                                                                    \
    }                                                                                                \
    for (int k = 0; k < 6; k++) {                                                                    \
        TYPE c = t[j + k];                                                                           \
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (TYPE)script[k]) {                                \
            return 0;                                                                                \
        }                                                                                            \
    }                                                                                                \
    TYPE c = t[j + 6];                                                                               \
    return IS_SPACE(c) || c == '/' || c == '>';                                                      \
}                                                                                                    \
static Py_ssize_t                                                                                    \
NAME(const TYPE *t, Py_ssize_t i, Py_ssize_t n)                                                      \
{                                                                                                    \
    int state = SCRIPT_DATA;                                                                         \
    while (i < n) {                                                                                  \
        TYPE c = t[i];                                                                               \
        if (c == '<') {                                                                              \
            if (i + 1 < n && t[i + 1] == '/' && NAME##_named(t, i + 2, n)) {                         \
                if (state != SCRIPT_DOUBLE) {                                                        \
                    return i;                                                                        \
                }                                                                                    \
                state = SCRIPT_ESCAPED;                                                              \
                i += 9;                                                                              \
                continue;                                                                            \
            }                                                                                        \
            if (state == SCRIPT_DATA && i + 3 < n && t[i + 1] == '!' && t[i + 2] == '-' && t[i + 3] == '-') { \
                state = SCRIPT_ESCAPED;                                                              \
                i += 2;                                                                              \
                continue;                                                                            \
            }                                                                                        \
            if (state == SCRIPT_ESCAPED && NAME##_named(t, i + 1, n)) {                              \
                state = SCRIPT_DOUBLE;                                                               \
                i += 8;                                                                              \
                continue;                                                                            \
            }                                                                                        \
        }                                                                                            \
        else if (c == '-' && state != SCRIPT_DATA && i + 2 < n && t[i + 1] == '-' && t[i + 2] == '>') { \
            state = SCRIPT_DATA;                                                                     \
            i += 3;                                                                                  \
            continue;                                                                                \
        }                                                                                            \
        i++;                                                                                         \
    }                                                                                                \
    return -1;                                                                                       \
}

DEFINE_SCRIPT(script_1, Py_UCS1)
DEFINE_SCRIPT(script_2, Py_UCS2)
DEFINE_SCRIPT(script_4, Py_UCS4)

static PyObject *
script_data_end(PyObject *module, PyObject *args)
{
    PyObject *text;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "Un", &text, &pos)) {
        return NULL;
    }
    if (pos < 0) {
        pos = 0;
    }
    return PyLong_FromSsize_t(BY_KIND(script, text, pos, PyUnicode_GET_LENGTH(text)));
}

static PyMethodDef methods[] = {
    {"tag_groups", tag_groups, METH_VARARGS,
     "tag_groups(text, pos, end=maxsize) -> (end, slash, name, attributes, tail) | None: tokenizer.TAG's match "
     "at pos in text[:end], its end and groups 1, 2, 3 and tail."},
    {"numbered_end", numbered_end, METH_VARARGS,
     "numbered_end(text, pos, end, literals) -> int: where copies from pos (within text[:end]) of the literals with "
     "a run of 1 to 8 ASCII digits between each two end; each run must be followed by a character other than a "
     "digit (the caller's check)."},
    {"markup_start", markup_start, METH_VARARGS,
     "markup_start(text, pos, end) -> int: where tokenizer.MARKUP_START first matches in text[pos:end] (a \"<\" then "
     "\"!\", \"/\", \"?\" or an ASCII letter), or -1."},
    {"word_start", word_start, METH_VARARGS,
     "word_start(lowered, start, end, word) -> int: where charrefs.lowered_word(word) first matches in "
     "lowered[start:end] (word: lowercase ASCII letters), or -1."},
    {"meta_start", meta_start, METH_VARARGS,
     "meta_start(data, start, end) -> int: where change._META_BYTES (\"<meta\", ASCII case-insensitively) first "
     "matches in data[start:end] (bytes), or -1."},
    {"script_data_end", script_data_end, METH_VARARGS,
     "script_data_end(text, pos) -> int: where tokenizer.script_data_end's steps from pos end (the \"<\" of the "
     "\"</script\" that closes script data begun there), or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "c_tokens", "Four of the tokenizer's patterns and the script data states, compiled (see c_tokens.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit_c_tokens(void)
{
    return PyModule_Create(&module);
}
