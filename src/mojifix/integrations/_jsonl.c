/* mojifix.integrations._jsonl: one JSON line of a `mojifix warc` row, as UTF-8 bytes, in one call.
 *
 * The reference is Python's own `json.dumps(dict(zip(keys, values)), ensure_ascii=False) + "\n"`, encoded
 * as UTF-8 (what `write_rows` wrote through a text file before): the same separators (", " and ": "), the
 * same string escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other code points below U+0020 as
 * `\u00xx` in lower-case hex, everything else as is), `null`, `true`, `false`, and int's repr. Why C:
 * with ensure_ascii=False, json's C encoder writes a row's text a code point at a time into a str that
 * the output file then encodes to UTF-8 again; here the UTF-8 is written from the str's own code units
 * and escaped in the same pass, runs of ASCII sixteen units at a time (json's two steps took about a tenth
 * of `mojifix warc`'s time on benchmarks/warc.py's web-like archive).
 *
 * Only the values a row holds are written: str, None, bool, int, and tuples or lists of str. For any
 * other value, for a row too long for the bound (MAX_BOUND_BYTES), and for a str holding a lone surrogate
 * (which UTF-8 cannot encode), `line` returns None and the caller writes that row the reference way (so
 * the reference's error is raised, not another). tests/native/test_warc_jsonl.py compares the two on
 * generated rows.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

/* The code point `c` at `out`, in UTF-8 or as its JSON escape; returns the end, or NULL for a surrogate
 * (U+D800..U+DFFF: in a str always a lone one, which UTF-8 cannot encode; CPython's strict encoder
 * raises there). Every byte JSON escapes is ASCII, and no byte of a multi-byte UTF-8 sequence is, so this
 * is escaping the text's UTF-8. */
static inline char *
write_code_point(char *out, Py_UCS4 c)
{
    if (c < 0x80) {
        if (needs_escape((unsigned char)c)) {
            return write_escape(out, (unsigned char)c);
        }
        *out++ = (char)c;
    }
    else if (c < 0x800) {
        *out++ = (char)(0xC0 | (c >> 6));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    else if (c >= 0xD800 && c <= 0xDFFF) {
        return NULL;
    }
    else if (c < 0x10000) {
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
    return out;
}

/* The code units of a str of one of CPython's three kinds (PEP 393: one code point per unit) at `out`
 * (see write_code_point), `units_at` reading unit `i` as a Py_UCS4. With SSE2 (every x86-64 processor),
 * sixteen units at a time are narrowed to sixteen bytes (saturating: a unit above 0x7F becomes a byte
 * that is 0x80 or more, or 0x00) and copied whole; the first byte that is not ASCII or must be escaped
 * (one compare each, ASCII bytes compared as signed) ends the copy there, and that unit is written
 * alone. The room for a whole block is in the bound (six bytes per code point). */
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>

/* Bit k set when byte k of `v` is 0x80 or more, below 0x20, a quote or a backslash. */
static inline unsigned
stop_mask(__m128i v)
{
    __m128i control_or_high = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)); /* signed: 0x80.. is negative */
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(control_or_high, _mm_or_si128(quote, backslash)));
}

static inline __m128i
narrow_ucs1(const Py_UCS1 *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

static inline __m128i
narrow_ucs2(const Py_UCS2 *p)
{
    /* signed saturation: 0x80..0x7FFF -> 0x80..0xFF, 0x8000.. (negative) -> 0x00 */
    return _mm_packus_epi16(_mm_loadu_si128((const __m128i *)p), _mm_loadu_si128((const __m128i *)(p + 8)));
}

static inline __m128i
narrow_ucs4(const Py_UCS4 *p)
{
    /* code points are below 0x110000: positive, so 32 -> 16 bits keeps 0..0x7FFF and makes the rest 0x7FFF */
    __m128i low = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)p), _mm_loadu_si128((const __m128i *)(p + 4)));
    __m128i high =
        _mm_packs_epi32(_mm_loadu_si128((const __m128i *)(p + 8)), _mm_loadu_si128((const __m128i *)(p + 12)));
    return _mm_packus_epi16(low, high);
}

#define WRITE_UNITS(NAME, UNIT, NARROW)                                                                     \
    static char *NAME(char *out, const UNIT *p, Py_ssize_t n)                                              \
    {                                                                                                       \
        Py_ssize_t i = 0;                                                                                   \
        while (i < n) {                                                                                     \
            if (i + 16 <= n) {                                                                              \
                __m128i bytes = NARROW(p + i);                                                              \
                _mm_storeu_si128((__m128i *)out, bytes);                                                    \
                unsigned stop = stop_mask(bytes);                                                           \
                if (stop == 0) {                                                                            \
                    out += 16;                                                                              \
                    i += 16;                                                                                \
                    continue;                                                                               \
                }                                                                                           \
                int first = __builtin_ctz(stop);                                                            \
                out += first;                                                                               \
                i += first;                                                                                 \
            }                                                                                               \
            do { /* then the rest of a run of non-ASCII text (CJK, Cyrillic, ...) a unit at a time */        \
                out = write_code_point(out, p[i++]);                                                        \
                if (out == NULL) {                                                                          \
                    return NULL;                                                                            \
                }                                                                                           \
            } while (i < n && p[i] > 0x7F);                                                                 \
        }                                                                                                   \
        return out;                                                                                         \
    }
#else
#define WRITE_UNITS(NAME, UNIT, NARROW)                                                                     \
    static char *NAME(char *out, const UNIT *p, Py_ssize_t n)                                              \
    {                                                                                                       \
        for (Py_ssize_t i = 0; i < n && out != NULL; i++) {                                                \
            out = write_code_point(out, p[i]);                                                              \
        }                                                                                                   \
        return out;                                                                                         \
    }
#endif

WRITE_UNITS(write_ucs1, Py_UCS1, narrow_ucs1)
WRITE_UNITS(write_ucs2, Py_UCS2, narrow_ucs2)
WRITE_UNITS(write_ucs4, Py_UCS4, narrow_ucs4)

/* `s` as a JSON string in UTF-8 at `out`; returns the end, or NULL (no exception set) for a lone
 * surrogate. Written from the str's own code units: CPython's UTF-8 encoder (kept with the str after)
 * and a second pass to escape its bytes took twice as long, measured on benchmarks/warc.py's archives. */
static char *
write_str(char *out, PyObject *s)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) { /* a str made through the legacy API, not yet in its canonical form */
        PyErr_Clear();
        return NULL;
    }
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const void *data = PyUnicode_DATA(s);
    *out++ = '"';
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        out = write_ucs1(out, (const Py_UCS1 *)data, n);
        break;
    case PyUnicode_2BYTE_KIND:
        out = write_ucs2(out, (const Py_UCS2 *)data, n);
        break;
    default:
        out = write_ucs4(out, (const Py_UCS4 *)data, n);
    }
    if (out == NULL) {
        return NULL;
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
