/* The multi-byte decoders of the Encoding Standard (§10.2.1 gb18030, §11.1.1 Big5, §12.1.1 EUC-JP,
 * §12.2.1 ISO-2022-JP, §12.3.1 Shift_JIS, §13.1.1 EUC-KR) in "replacement" error mode with
 * end-of-queue, each handler's steps in the standard's order, one byte at a time: the work is a
 * small constant per byte whatever the input.
 *
 * Each function takes the input (any contiguous buffer) and the indexes it reads as the package
 * loads them (scrapy_whatwg_encoding.encoding.indexes.index: a str whose character at a pointer is
 * its code point, U+0000 where the pointer is not in the index), and returns the text (a str): one
 * wrapper (decode) around each decoder's loop (its _run function).
 * "Restore" (§4.1) steps the read position back over the restored bytes, which are always the
 * bytes just read. The Python decoders (multi_byte.FastDecoder, iso_2022_jp.decode) are the plain
 * twin, and tests/reference.py, written from the standard's text, holds both. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t length;
} Index;

static int
index_of(PyObject *table, Index *index)
{
    if (!PyUnicode_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "an index is a str");
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(table) < 0) {
        return -1;
    }
#endif
    index->kind = PyUnicode_KIND(table);
    index->data = PyUnicode_DATA(table);
    index->length = PyUnicode_GET_LENGTH(table);
    return 0;
}

/* The index code point for pointer (§5), 0 where it is null. */
static inline Py_UCS4
code_point(const Index *index, Py_ssize_t pointer)
{
    if (pointer < 0 || pointer >= index->length) {
        return 0;
    }
    return PyUnicode_READ(index->kind, index->data, pointer);
}

/* The output: at most one code point per input byte, and one more (end-of-queue's error), but
 * Big5's four pointers of two code points, each from two bytes. */
typedef struct {
    Py_UCS4 *out;
    Py_ssize_t length;
    Py_UCS4 max;
} Output;

static int
output_new(Output *output, Py_ssize_t bytes)
{
    output->out = PyMem_New(Py_UCS4, bytes + 1);
    output->length = 0;
    output->max = 0x7F;
    if (output->out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static inline void
emit(Output *output, Py_UCS4 c)
{
    output->out[output->length++] = c;
    if (c > output->max) {
        output->max = c;
    }
}

#define ERROR 0xFFFD

static PyObject *
output_text(Output *output)
{
    PyObject *text = PyUnicode_New(output->length, output->max);
    if (text != NULL) {
        Py_ssize_t k, length = output->length;
        const Py_UCS4 *out = output->out;
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND: {
            Py_UCS1 *data = PyUnicode_1BYTE_DATA(text);
            for (k = 0; k < length; k++) {
                data[k] = (Py_UCS1)out[k];
            }
            break;
        }
        case PyUnicode_2BYTE_KIND: {
            Py_UCS2 *data = PyUnicode_2BYTE_DATA(text);
            for (k = 0; k < length; k++) {
                data[k] = (Py_UCS2)out[k];
            }
            break;
        }
        default:
            memcpy(PyUnicode_4BYTE_DATA(text), out, length * sizeof(Py_UCS4));
        }
    }
    PyMem_Free(output->out);
    return text;
}

/* Big5 (§11.1.1). */
static void
big5_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    (void)other;
    unsigned char leading = 0;
    while (i < n) {
        unsigned char byte = bytes[i++];
        if (leading) {  /* step 3 */
            Py_ssize_t pointer = -1;
            unsigned char offset = byte < 0x7F ? 0x40 : 0x62;
            if ((byte >= 0x40 && byte <= 0x7E) || (byte >= 0xA1 && byte <= 0xFE)) {
                pointer = (Py_ssize_t)(leading - 0x81) * 157 + (byte - offset);
            }
            leading = 0;
            if (pointer == 1133 || pointer == 1135 || pointer == 1164 || pointer == 1166) {
                emit(output, pointer < 1164 ? 0x00CA : 0x00EA);
                emit(output, pointer == 1133 || pointer == 1164 ? 0x0304 : 0x030C);
                continue;
            }
            Py_UCS4 c = code_point(index, pointer);
            if (c) {
                emit(output, c);
                continue;
            }
            if (byte < 0x80) {
                i--;  /* restore byte */
            }
            emit(output, ERROR);
        }
        else if (byte < 0x80) {  /* step 4 */
            emit(output, byte);
        }
        else if (byte >= 0x81 && byte <= 0xFE) {  /* step 5 */
            leading = byte;
        }
        else {  /* step 6 */
            emit(output, ERROR);
        }
    }
    if (leading) {  /* step 1 */
        emit(output, ERROR);
    }
}

/* EUC-KR (§13.1.1). */
static void
euc_kr_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    (void)other;
    unsigned char leading = 0;
    while (i < n) {
        unsigned char byte = bytes[i++];
        if (leading) {  /* step 3 */
            Py_ssize_t pointer = -1;
            if (byte >= 0x41 && byte <= 0xFE) {
                pointer = (Py_ssize_t)(leading - 0x81) * 190 + (byte - 0x41);
            }
            leading = 0;
            Py_UCS4 c = code_point(index, pointer);
            if (c) {
                emit(output, c);
                continue;
            }
            if (byte < 0x80) {
                i--;
            }
            emit(output, ERROR);
        }
        else if (byte < 0x80) {
            emit(output, byte);
        }
        else if (byte >= 0x81 && byte <= 0xFE) {
            leading = byte;
        }
        else {
            emit(output, ERROR);
        }
    }
    if (leading) {
        emit(output, ERROR);
    }
}

/* Shift_JIS (§12.3.1). */
static void
shift_jis_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    (void)other;
    unsigned char leading = 0;
    while (i < n) {
        unsigned char byte = bytes[i++];
        if (leading) {  /* step 3 */
            Py_ssize_t pointer = -1;
            unsigned char offset = byte < 0x7F ? 0x40 : 0x41;
            unsigned char leading_offset = leading < 0xA0 ? 0x81 : 0xC1;
            if ((byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFC)) {
                pointer = (Py_ssize_t)(leading - leading_offset) * 188 + byte - offset;
            }
            leading = 0;
            if (pointer >= 8836 && pointer <= 10715) {  /* EUDC */
                emit(output, 0xE000 - 8836 + (Py_UCS4)pointer);
                continue;
            }
            Py_UCS4 c = code_point(index, pointer);
            if (c) {
                emit(output, c);
                continue;
            }
            if (byte < 0x80) {
                i--;
            }
            emit(output, ERROR);
        }
        else if (byte <= 0x80) {  /* step 4: an ASCII byte or 0x80 */
            emit(output, byte);
        }
        else if (byte >= 0xA1 && byte <= 0xDF) {  /* step 5 */
            emit(output, 0xFF61 - 0xA1 + byte);
        }
        else if ((byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC)) {  /* step 6 */
            leading = byte;
        }
        else {
            emit(output, ERROR);
        }
    }
    if (leading) {
        emit(output, ERROR);
    }
}

/* EUC-JP (§12.1.1): *index* jis0208, *other* jis0212. */
static void
euc_jp_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    unsigned char leading = 0;
    int is_jis0212 = 0;
    while (i < n) {
        unsigned char byte = bytes[i++];
        if (leading == 0x8E && byte >= 0xA1 && byte <= 0xDF) {  /* step 3 */
            leading = 0;
            emit(output, 0xFF61 - 0xA1 + byte);
        }
        else if (leading == 0x8F && byte >= 0xA1 && byte <= 0xFE) {  /* step 4 */
            is_jis0212 = 1;
            leading = byte;
        }
        else if (leading) {  /* step 5 */
            unsigned char lead = leading;
            Py_UCS4 c = 0;
            leading = 0;
            if (lead >= 0xA1 && lead <= 0xFE && byte >= 0xA1 && byte <= 0xFE) {
                c = code_point(is_jis0212 ? other : index, (Py_ssize_t)(lead - 0xA1) * 94 + byte - 0xA1);
            }
            is_jis0212 = 0;
            if (c) {
                emit(output, c);
                continue;
            }
            if (byte < 0x80) {
                i--;
            }
            emit(output, ERROR);
        }
        else if (byte < 0x80) {  /* step 6 */
            emit(output, byte);
        }
        else if (byte == 0x8E || byte == 0x8F || (byte >= 0xA1 && byte <= 0xFE)) {  /* step 7 */
            leading = byte;
        }
        else {  /* step 8 */
            emit(output, ERROR);
        }
    }
    if (leading) {
        emit(output, ERROR);
    }
}

/* gb18030 (§10.2.1), also GBK's decoder (§10.1.1): *index* gb18030; *other* the index gb18030 ranges
 * code point (§5) of each pointer 0-39419, its step 2 (pointer 7457) too (compiled.py builds it from
 * the index, whose last range, from pointer 189000, maps to U+10000 on). */
static void
gb18030_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    unsigned char first = 0, second = 0, third = 0;
    while (i < n) {
        unsigned char byte = bytes[i++];
        if (third) {  /* step 3 */
            if (byte < 0x30 || byte > 0x39) {
                i -= 3;  /* restore « second, third, byte » */
                first = second = third = 0;
                emit(output, ERROR);
                continue;
            }
            uint32_t pointer = (uint32_t)(first - 0x81) * 12600 + (uint32_t)(second - 0x30) * 1260
                               + (uint32_t)(third - 0x81) * 10 + (byte - 0x30);
            first = second = third = 0;
            /* index gb18030 ranges code point (§5): *other* below 39420, the last range from 189000 */
            Py_UCS4 c = pointer <= 39419 ? code_point(other, pointer)
                        : pointer >= 189000 && pointer <= 1237575 ? 0x10000 + pointer - 189000 : 0;
            emit(output, c ? c : ERROR);
        }
        else if (second) {  /* step 4 */
            if (byte >= 0x81 && byte <= 0xFE) {
                third = byte;
                continue;
            }
            i -= 2;  /* restore « second, byte » */
            first = second = 0;
            emit(output, ERROR);
        }
        else if (first) {  /* step 5 */
            if (byte >= 0x30 && byte <= 0x39) {
                second = byte;
                continue;
            }
            Py_ssize_t pointer = -1;
            unsigned char offset = byte < 0x7F ? 0x40 : 0x41;
            if ((byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFE)) {
                pointer = (Py_ssize_t)(first - 0x81) * 190 + (byte - offset);
            }
            first = 0;
            Py_UCS4 c = code_point(index, pointer);
            if (c) {
                emit(output, c);
                continue;
            }
            if (byte < 0x80) {
                i--;
            }
            emit(output, ERROR);
        }
        else if (byte < 0x80) {  /* step 6 */
            emit(output, byte);
        }
        else if (byte == 0x80) {  /* step 7 */
            emit(output, 0x20AC);
        }
        else if (byte <= 0xFE) {  /* step 8 */
            first = byte;
        }
        else {  /* step 9 */
            emit(output, ERROR);
        }
    }
    if (first || second || third) {  /* step 2 */
        emit(output, ERROR);
    }
}

/* ISO-2022-JP (§12.2.1): *index* jis0208 (its index ISO-2022-JP katakana, §5, is the encoder's only). */
enum { ASCII, ROMAN, KATAKANA, LEADING_BYTE, TRAILING_BYTE, ESCAPE_START, ESCAPE };

static void
iso_2022_jp_run(const unsigned char *bytes, Py_ssize_t n, const Index *index, const Index *other, Output *output)
{
    Py_ssize_t i = 0;
    (void)other;
    int state = ASCII, output_state = ASCII, is_output = 0;
    unsigned char leading = 0;
    for (;;) {
        int byte = i < n ? bytes[i] : -1;  /* -1: end-of-queue */
        i++;
        switch (state) {
        case ASCII:
        case ROMAN:
        case KATAKANA:
        case LEADING_BYTE:
            if (byte == 0x1B) {
                state = ESCAPE_START;
                continue;
            }
            if (byte < 0) {
                return;
            }
            is_output = 0;
            if (state == ASCII && byte <= 0x7F && byte != 0x0E && byte != 0x0F) {
                emit(output, byte);
            }
            else if (state == ROMAN && byte <= 0x7F && byte != 0x0E && byte != 0x0F) {
                emit(output, byte == 0x5C ? 0x00A5 : byte == 0x7E ? 0x203E : (Py_UCS4)byte);
            }
            else if (state == KATAKANA && byte >= 0x21 && byte <= 0x5F) {
                emit(output, 0xFF61 - 0x21 + byte);
            }
            else if (state == LEADING_BYTE && byte >= 0x21 && byte <= 0x7E) {
                leading = (unsigned char)byte;
                state = TRAILING_BYTE;
            }
            else {
                emit(output, ERROR);
            }
            break;
        case TRAILING_BYTE:
            if (byte == 0x1B) {
                state = ESCAPE_START;
                emit(output, ERROR);
            }
            else if (byte >= 0x21 && byte <= 0x7E) {
                Py_UCS4 c = code_point(index, (Py_ssize_t)(leading - 0x21) * 94 + byte - 0x21);
                state = LEADING_BYTE;
                emit(output, c ? c : ERROR);
            }
            else {  /* end-of-queue too: an error, then end-of-queue in the leading byte state */
                state = LEADING_BYTE;
                if (byte < 0) {
                    i--;
                }
                emit(output, ERROR);
            }
            break;
        case ESCAPE_START:
            if (byte == 0x24 || byte == 0x28) {
                leading = (unsigned char)byte;
                state = ESCAPE;
                continue;
            }
            i--;  /* restore byte (end-of-queue: read again) */
            is_output = 0;
            state = output_state;
            emit(output, ERROR);
            break;
        case ESCAPE: {
            unsigned char lead = leading;
            int next = -1;
            leading = 0;
            if (lead == 0x28 && byte == 0x42) {
                next = ASCII;
            }
            else if (lead == 0x28 && byte == 0x4A) {
                next = ROMAN;
            }
            else if (lead == 0x28 && byte == 0x49) {
                next = KATAKANA;
            }
            else if (lead == 0x24 && (byte == 0x40 || byte == 0x42)) {
                next = LEADING_BYTE;
            }
            if (next >= 0) {
                state = output_state = next;
                if (is_output) {
                    emit(output, ERROR);
                }
                is_output = 1;
                continue;
            }
            i -= 2;  /* restore « leading, byte » (end-of-queue: leading, then end-of-queue) */
            is_output = 0;
            state = output_state;
            emit(output, ERROR);
            break;
        }
        }
    }
}

typedef void (*Run)(const unsigned char *, Py_ssize_t, const Index *, const Index *, Output *);

/* The text of the input (any contiguous buffer) decoded by *run* with its index and, where given,
 * the other table it reads. */
static PyObject *
decode(PyObject *args, Run run)
{
    Py_buffer input;
    PyObject *table, *other_table = NULL;
    Index index, other = {0, NULL, 0};
    Output output;
    if (!PyArg_ParseTuple(args, "y*U|U", &input, &table, &other_table)) {
        return NULL;
    }
    if (index_of(table, &index) < 0 || (other_table != NULL && index_of(other_table, &other) < 0)
            || output_new(&output, input.len) < 0) {
        PyBuffer_Release(&input);
        return NULL;
    }
    run(input.buf, input.len, &index, &other, &output);
    PyBuffer_Release(&input);
    return output_text(&output);
}

#define DECODER(name) \
    static PyObject *name(PyObject *module, PyObject *args) { return decode(args, name##_run); }
DECODER(big5)
DECODER(euc_kr)
DECODER(shift_jis)
DECODER(euc_jp)
DECODER(gb18030)
DECODER(iso_2022_jp)

static PyMethodDef methods[] = {
    {"big5", big5, METH_VARARGS, "big5(data, index_big5) -> str: the Big5 decoder (§11.1.1)."},
    {"euc_kr", euc_kr, METH_VARARGS, "euc_kr(data, index_euc_kr) -> str: the EUC-KR decoder (§13.1.1)."},
    {"shift_jis", shift_jis, METH_VARARGS, "shift_jis(data, index_jis0208) -> str: the Shift_JIS decoder (§12.3.1)."},
    {"euc_jp", euc_jp, METH_VARARGS,
     "euc_jp(data, index_jis0208, index_jis0212) -> str: the EUC-JP decoder (§12.1.1)."},
    {"gb18030", gb18030, METH_VARARGS,
     "gb18030(data, index_gb18030, ranges_code_points) -> str: the gb18030 decoder (§10.2.1)."},
    {"iso_2022_jp", iso_2022_jp, METH_VARARGS,
     "iso_2022_jp(data, index_jis0208) -> str: the ISO-2022-JP decoder (§12.2.1)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "c_decoders",
    "The multi-byte decoders of the Encoding Standard, compiled (see c_decoders.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit_c_decoders(void)
{
    return PyModule_Create(&module);
}
