/* mojifix.integrations._jsonl: one JSON line of a `mojifix warc` row, as UTF-8 bytes, in one call.
 *
 * The reference is Python's own `json.dumps(dict(zip(keys, values)), ensure_ascii=False) + "\n"`, encoded
 * as UTF-8 (what `write_rows` wrote through a text file before): the same separators (", " and ": "), the
 * same string escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other code points below U+0020 as
 * `\u00xx` in lower-case hex, everything else as is), `null`, `true`, `false`, and int's repr. Why C:
 * with ensure_ascii=False, json's C encoder writes a row's text a code point at a time into a str that
 * the output file then encodes to UTF-8 again; here the text is escaped and encoded in one pass (about a
 * tenth of `mojifix warc`'s time on benchmarks/warc.py's web-like archive went to those two steps).
 *
 * Only the values a row holds are written: str, None, bool, int, and tuples or lists of str. For any
 * other value, and for a str holding a lone surrogate (which UTF-8 cannot encode), `line` returns None
 * and the caller writes that row the reference way (so the reference's error is raised, not another).
 * tests/integrations/test_jsonl_kernel.py compares the two on generated rows.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* The most bytes one code point can take here: `\u00xx` (6) for a control character; UTF-8 takes 4. */
#define MAX_BYTES_PER_CODE_POINT 6

static const char HEX[] = "0123456789abcdef";

/* An upper bound on the bytes `write_str` writes for `s` (quotes included). */
static Py_ssize_t
str_bound(PyObject *s)
{
    return PyUnicode_GET_LENGTH(s) * MAX_BYTES_PER_CODE_POINT + 2;
}

/* `s` as a JSON string in UTF-8 at `out`; returns the end, or NULL for a lone surrogate. */
static char *
write_str(char *out, PyObject *s)
{
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    *out++ = '"';
    if (kind == PyUnicode_1BYTE_KIND && PyUnicode_IS_ASCII(s)) {
        const unsigned char *p = (const unsigned char *)data;
        Py_ssize_t start = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char c = p[i];
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            memcpy(out, p + start, (size_t)(i - start));
            out += i - start;
            start = i + 1;
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
        }
        memcpy(out, p + start, (size_t)(n - start));
        out += n - start;
        *out++ = '"';
        return out;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) {
            if (c >= 0x20 && c != '"' && c != '\\') {
                *out++ = (char)c;
                continue;
            }
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
        }
        else if (c < 0x800) {
            *out++ = (char)(0xC0 | (c >> 6));
            *out++ = (char)(0x80 | (c & 0x3F));
        }
        else if (c < 0x10000) {
            if (c >= 0xD800 && c <= 0xDFFF) {
                return NULL; /* a lone surrogate: not encodable as UTF-8 */
            }
            *out++ = (char)(0xE0 | (c >> 12));
            *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
            *out++ = (char)(0x80 | (c & 0x3F));
        }
        else {
            *out++ = (char)(0xF0 | (c >> 18));
            *out++ = (char)(0x80 | ((c >> 12) & 0x3F));
            *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
            *out++ = (char)(0x80 | (c & 0x3F));
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
