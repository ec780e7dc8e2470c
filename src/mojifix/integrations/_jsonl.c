/* mojifix.integrations._jsonl: one JSON line of a `mojifix warc` row, as UTF-8 bytes, in one call.
 *
 * The reference is Python's own `json.dumps(dict(zip(keys, values)), ensure_ascii=False) + "\n"`, encoded
 * as UTF-8 (what `write_rows` wrote through a text file before): the same separators (", " and ": "), the
 * same string escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other code points below U+0020 as
 * `\u00xx` in lower-case hex, everything else as is), `null`, `true`, `false`, and int's repr. Why C:
 * with ensure_ascii=False, json's C encoder writes a row's text a code point at a time into a str that
 * the output file then encodes to UTF-8 again; here CPython's UTF-8 encoder runs once and the bytes are
 * escaped eight at a time (the two steps took about a tenth of `mojifix warc`'s time on benchmarks/warc.py's
 * web-like archive; the line now costs about a third of what json's did, measured there).
 *
 * Only the values a row holds are written: str, None, bool, int, and tuples or lists of str. For any
 * other value, for a row too long for the bound (MAX_BOUND_BYTES), and for a str holding a lone surrogate
 * (which UTF-8 cannot encode), `line` returns None and the caller writes that row the reference way (so
 * the reference's error is raised, not another). tests/native/test_warc_jsonl.py compares the two on
 * generated rows.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The most bytes one code point can take here: `\u00xx` (6) for a control character; UTF-8 takes <= 4. */
#define MAX_BYTES_PER_CODE_POINT 6

/* The largest buffer a line is written into (its bound: six bytes per code point). A longer row (a page
 * of several million characters) is left to the reference, so the bound never asks for more memory than
 * a few times the largest page a crawl normally holds; a choice, not tuned on any data set. */
#define MAX_BOUND_BYTES ((Py_ssize_t)64 << 20)

static const char HEX[] = "0123456789abcdef";

/* An upper bound on the bytes `write_str` writes for `s` (quotes included). */
static Py_ssize_t
str_bound(PyObject *s)
{
    return PyUnicode_GET_LENGTH(s) * MAX_BYTES_PER_CODE_POINT + 2;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The high bit of each of the eight bytes of `w` (little-endian order: the first byte lowest) that is
 * below 0x20, a quote or a backslash, as the bit tricks "has a byte less than n" and "has a zero byte"
 * find them (on `w`, and on `w` XORed with each character). Above the first such byte a borrow can flag
 * others too, so only the lowest set bit is exact; that is the one used. */
static inline uint64_t
escape_mask(uint64_t w)
{
    uint64_t quote = w ^ (ONES * '"'), backslash = w ^ (ONES * '\\');
    return (((w - ONES * 0x20) & ~w) | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)) & HIGHS;
}

/* The escape of the byte `c` (a quote, a backslash or below 0x20) at `out`; returns the end. */
static inline char *
write_escape(char *out, unsigned char c)
{
    *out++ = '\\';
    switch (c) {
    case '"': *out++ = '"'; break;
    case '\\': *out++ = '\\'; break;
    case '\n': *out++ = 'n'; break;
    case '\r': *out++ = 'r'; break;
    case '\t': *out++ = 't'; break;
    case '\b': *out++ = 'b'; break;
    case '\f': *out++ = 'f'; break;
    default:
        *out++ = 'u';
        *out++ = '0';
        *out++ = '0';
        *out++ = HEX[c >> 4];
        *out++ = HEX[c & 0xF];
    }
    return out;
}

static inline int
needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* `s` as a JSON string in UTF-8 at `out`; returns the end, or NULL (no exception set) for a lone
 * surrogate. The text is taken as UTF-8 from CPython's own encoder (kept with the str; an ASCII str is
 * its own UTF-8), then escaped: every byte JSON escapes is ASCII, and no byte of a multi-byte UTF-8
 * sequence is, so escaping the UTF-8 is escaping the text. Eight bytes are copied at a time up to the
 * next byte to escape (the room for them is in the bound: six bytes per code point). */
static char *
write_str(char *out, PyObject *s)
{
    Py_ssize_t n;
    const char *utf8 = PyUnicode_AsUTF8AndSize(s, &n);
    if (utf8 == NULL) {
        PyErr_Clear(); /* UnicodeEncodeError: a lone surrogate */
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)utf8;
    Py_ssize_t i = 0;
    *out++ = '"';
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        memcpy(out, &w, sizeof w); /* the bytes before the first escape are kept, the rest rewritten */
        uint64_t mask = escape_mask(w);
        if (mask == 0) {
            out += 8;
            i += 8;
            continue;
        }
#if PY_LITTLE_ENDIAN && (defined(__GNUC__) || defined(__clang__))
        int first = __builtin_ctzll(mask) >> 3; /* the lowest flagged byte */
#else
        int first = 0;
        while (!needs_escape(p[i + first])) {
            first++;
        }
#endif
        out += first;
        i += first;
        out = write_escape(out, p[i]);
        i++;
    }
    for (; i < n; i++) {
        if (needs_escape(p[i])) {
            out = write_escape(out, p[i]);
        }
        else {
            *out++ = (char)p[i];
        }
    }
    *out++ = '"';
    return out;
}

/* Bytes needed by one value, or -1 when it is not a value this encoder writes. */
static Py_ssize_t
value_bound(PyObject *v)
{
    if (v == Py_None || v == Py_True || v == Py_False) {
        return 5;
    }
    if (PyUnicode_CheckExact(v)) {
        return str_bound(v);
    }
    if (PyLong_CheckExact(v)) {
        return 0; /* written from its repr, sized then */
    }
    if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        Py_ssize_t total = 2 + (n > 0 ? 2 * (n - 1) : 0);
        PyObject **items = PySequence_Fast_ITEMS(v);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!PyUnicode_CheckExact(items[i])) {
                return -1;
            }
            total += str_bound(items[i]);
        }
        return total;
    }
    return -1;
}

/* line(prefixes, values, end) -> bytes | None
 *
 * prefixes[i] (bytes) is written before values[i]: `{"key": ` for the first, `, "key": ` after; `end`
 * (bytes) closes the line. None when a value is not one this encoder writes (see the file's comment).
 */
static PyObject *
line(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyTuple_CheckExact(args[0]) || !PyTuple_CheckExact(args[1]) || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "line(prefixes: tuple[bytes], values: tuple, end: bytes)");
        return NULL;
    }
    PyObject *prefixes = args[0], *values = args[1], *end = args[2];
    Py_ssize_t n = PyTuple_GET_SIZE(values);
    if (PyTuple_GET_SIZE(prefixes) != n) {
        PyErr_SetString(PyExc_ValueError, "one prefix per value");
        return NULL;
    }
    Py_ssize_t bound = PyBytes_GET_SIZE(end);
    PyObject *reprs[64]; /* the repr of each int value (rows have 15 fields) */
    if (n > 64) {
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        reprs[i] = NULL;
    }
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *prefix = PyTuple_GET_ITEM(prefixes, i), *v = PyTuple_GET_ITEM(values, i);
        if (!PyBytes_Check(prefix)) {
            PyErr_SetString(PyExc_TypeError, "prefixes must be bytes");
            goto done;
        }
        Py_ssize_t size = value_bound(v);
        if (size < 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        if (PyLong_CheckExact(v)) {
            reprs[i] = PyObject_Repr(v);
            if (reprs[i] == NULL) {
                goto done;
            }
            size = PyUnicode_GET_LENGTH(reprs[i]);
        }
        bound += PyBytes_GET_SIZE(prefix) + size;
        if (bound > MAX_BOUND_BYTES) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, bound);
    if (out == NULL) {
        goto done;
    }
    char *p = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *prefix = PyTuple_GET_ITEM(prefixes, i), *v = PyTuple_GET_ITEM(values, i);
        memcpy(p, PyBytes_AS_STRING(prefix), (size_t)PyBytes_GET_SIZE(prefix));
        p += PyBytes_GET_SIZE(prefix);
        if (v == Py_None) {
            memcpy(p, "null", 4);
            p += 4;
        }
        else if (v == Py_True) {
            memcpy(p, "true", 4);
            p += 4;
        }
        else if (v == Py_False) {
            memcpy(p, "false", 5);
            p += 5;
        }
        else if (reprs[i] != NULL) {
            /* int's repr is ASCII digits and a sign */
            memcpy(p, PyUnicode_DATA(reprs[i]), (size_t)PyUnicode_GET_LENGTH(reprs[i]));
            p += PyUnicode_GET_LENGTH(reprs[i]);
        }
        else if (PyUnicode_CheckExact(v)) {
            p = write_str(p, v);
        }
        else {
            Py_ssize_t count = PySequence_Fast_GET_SIZE(v);
            PyObject **items = PySequence_Fast_ITEMS(v);
            *p++ = '[';
            for (Py_ssize_t k = 0; k < count && p != NULL; k++) {
                if (k > 0) {
                    *p++ = ',';
                    *p++ = ' ';
                }
                p = write_str(p, items[k]);
            }
            if (p != NULL) {
                *p++ = ']';
            }
        }
        if (p == NULL) {
            Py_DECREF(out);
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    memcpy(p, PyBytes_AS_STRING(end), (size_t)PyBytes_GET_SIZE(end));
    p += PyBytes_GET_SIZE(end);
    if (_PyBytes_Resize(&out, p - PyBytes_AS_STRING(out)) < 0) {
        goto done;
    }
    result = out;
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(reprs[i]);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"line", (PyCFunction)(void (*)(void))line, METH_FASTCALL,
     "line(prefixes, values, end) -> bytes | None: one JSON object as UTF-8 (json.dumps(..., "
     "ensure_ascii=False) spelling), or None for a value it does not write."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "mojifix.integrations._jsonl",
    "One JSON line of a `mojifix warc` row in one call (reference: json.dumps, ensure_ascii=False).",
    0,
    methods,
};

PyMODINIT_FUNC
PyInit__jsonl(void)
{
    return PyModule_Create(&module);
}
