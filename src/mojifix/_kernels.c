/* mojifix._kernels: compiled twins of mojifix's pure-Python hot paths.
 *
 * Each function here has a readable pure-Python reference in the package (named in its docstring) and a
 * differential test in tests/native/ proving identical output: same text, same error positions. The
 * Python side (mojifix._native) decides which one runs; MOJIFIX_PURE_PYTHON=1 forces the reference.
 *
 * The WHATWG CJK decoders below are the Encoding Standard's byte-at-a-time decoders
 * (https://encoding.spec.whatwg.org/#legacy-multi-byte-chinese-(simplified)-encodings and the sections
 * after it), run over the standard's own indexes, passed in as the str constants of
 * mojifix/whatwg/_tables.py (one character per pointer, U+FFFF for "no entry"). So they need no
 * comparison with CPython's codecs and no plan built at first use: a new process runs at full speed.
 * Comments name the spec's steps. The GIL is released while a long input is decoded.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The index's "no entry" marker (mojifix.whatwg._tables.NO_ENTRY). */
#define NO_ENTRY 0xFFFF
#define REPLACEMENT 0xFFFD
/* Inputs at least this long are decoded with the GIL released; below, releasing and taking it again
 * (about 0.1 us) would be a noticeable share of the call. Chosen as the size CPython's own codecs decode
 * in about 10 us on the machine this was written on (CJK text, ~100 MB/s); not tuned on any data set. */
#define RELEASE_GIL_BYTES 4096

/* ---- an index: a str constant read without the GIL (the caller's reference keeps it alive) ---------- */

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t size;
} Index;

static int
index_from(PyObject *obj, Index *index)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an index must be a str (one character per pointer)");
        return -1;
    }
    index->kind = PyUnicode_KIND(obj);
    index->data = PyUnicode_DATA(obj);
    index->size = PyUnicode_GET_LENGTH(obj);
    return 0;
}

/* The index's code point at pointer, or NO_ENTRY when the pointer is past its end. */
static inline Py_UCS4
index_at(const Index *index, Py_ssize_t pointer)
{
    if (pointer < 0 || pointer >= index->size) {
        return NO_ENTRY;
    }
    return PyUnicode_READ(index->kind, index->data, pointer);
}

/* ---- the decoded text: code points into a buffer, then one str ---------------------------------------- */

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t len;
    /* every code point emitted, OR-ed: below 0x80, 0x100, 0x10000 exactly when they all are, which is
     * what choosing the str's kind needs (one OR per character instead of a compare and branch) */
    Py_UCS4 bits;
    /* strict mode: the first decoder error's byte span; start < 0 when none */
    Py_ssize_t error_start, error_end;
    int strict;
} Output;

static inline void
emit(Output *out, Py_UCS4 cp)
{
    out->buf[out->len++] = cp;
    out->bits |= cp;
}

/* A decoder error over data[start:end]: U+FFFD in replacement mode; in strict mode, remembered (the
 * decoder then stops: returns 1). */
static inline int
error(Output *out, Py_ssize_t start, Py_ssize_t end)
{
    if (out->strict) {
        out->error_start = start;
        out->error_end = end;
        return 1;
    }
    emit(out, REPLACEMENT);
    return 0;
}

static int
output_init(Output *out, Py_ssize_t n, int strict)
{
    /* every decoder here emits at most one code point per input byte (Big5's two-code-point pointers
     * take two bytes), so n code points always fit */
    out->buf = PyMem_RawMalloc(sizeof(Py_UCS4) * (size_t)(n > 0 ? n : 1));
    if (out->buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    out->len = 0;
    out->bits = 0;
    out->error_start = out->error_end = -1;
    out->strict = strict;
    return 0;
}

/* The result object: the text, or (error start, error end) for strict mode's first error. Frees buf. */
static PyObject *
output_finish(Output *out)
{
    PyObject *result;
    if (out->error_start >= 0) {
        result = Py_BuildValue("(nn)", out->error_start, out->error_end);
    }
    else {
        result = PyUnicode_New(out->len, out->bits > 0xFFFF ? 0x10FFFF : out->bits);
        if (result != NULL) {
            int kind = PyUnicode_KIND(result);
            void *dest = PyUnicode_DATA(result);
            if (kind == PyUnicode_4BYTE_KIND) {
                memcpy(dest, out->buf, sizeof(Py_UCS4) * (size_t)out->len);
            }
            else if (kind == PyUnicode_2BYTE_KIND) {
                Py_UCS2 *d = dest;
                for (Py_ssize_t k = 0; k < out->len; k++) d[k] = (Py_UCS2)out->buf[k];
            }
            else {
                Py_UCS1 *d = dest;
                for (Py_ssize_t k = 0; k < out->len; k++) d[k] = (Py_UCS1)out->buf[k];
            }
        }
    }
    PyMem_RawFree(out->buf);
    out->buf = NULL;
    return result;
}

/* ---- byte classes: a trail byte's offset within its lead byte's row, -1 where it cannot be a trail -------
 * (one look-up instead of two range tests joined by ||, a branch that mispredicts on real text, where the
 * trail bytes fall in both ranges about equally). Filled once at import (trail_tables_init). */
static int16_t BIG5_TRAIL[256];      /* spec: Big5 decoder, step 3 */
static int16_t SHIFT_JIS_TRAIL[256]; /* spec: Shift_JIS decoder, step 3 */
static int16_t GB18030_TRAIL[256];   /* spec: gb18030 decoder, step 5 (two bytes) */
static int16_t EUC_KR_TRAIL[256];    /* spec: EUC-KR decoder, step 3 */

static void
trail_tables_init(void)
{
    for (int t = 0; t < 256; t++) {
        BIG5_TRAIL[t] = (t >= 0x40 && t <= 0x7E) ? t - 0x40 : (t >= 0xA1 && t <= 0xFE) ? t - 0x62 : -1;
        SHIFT_JIS_TRAIL[t] = (t >= 0x40 && t <= 0x7E) ? t - 0x40 : (t >= 0x80 && t <= 0xFC) ? t - 0x41 : -1;
        GB18030_TRAIL[t] = (t >= 0x40 && t <= 0x7E) ? t - 0x40 : (t >= 0x80 && t <= 0xFE) ? t - 0x41 : -1;
        EUC_KR_TRAIL[t] = (t >= 0x41 && t <= 0xFE) ? t - 0x41 : -1;
    }
}

/* ---- the five stateless decoders (each back in its initial state after every item) --------------------- */

typedef struct {
    Index first, second;     /* the index (EUC-JP: jis0208, then jis0212) */
    const uint32_t *ranges;  /* gb18030: (pointer offset, code point offset) pairs */
    Py_ssize_t ranges_count;
} Tables;

typedef void (*Decoder)(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *out);

/* Spec: gb18030 decoder's four-byte pointer bounds and "index gb18030 ranges code point". */
#define GB18030_BMP_POINTER_LIMIT 39419
#define GB18030_ASTRAL_POINTER_FIRST 189000
#define GB18030_ASTRAL_POINTER_LAST 1237575
#define GB18030_POINTER_E7C7 7457
/* "no code point" from the ranges (not NO_ENTRY: the ranges do decode a pointer to U+FFFF) */
#define NOT_A_CODE_POINT 0x110000

static Py_UCS4
gb18030_ranges_code_point(const Tables *tables, Py_ssize_t pointer)
{
    if ((pointer > GB18030_BMP_POINTER_LIMIT && pointer < GB18030_ASTRAL_POINTER_FIRST)
        || pointer > GB18030_ASTRAL_POINTER_LAST) { /* step 1 */
        return NOT_A_CODE_POINT;
    }
    if (pointer == GB18030_POINTER_E7C7) { /* step 2 */
        return 0xE7C7;
    }
    /* step 3: the last range whose pointer offset is <= pointer (bisect_right - 1) */
    Py_ssize_t lo = 0, hi = tables->ranges_count;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (tables->ranges[2 * mid] <= (uint32_t)pointer) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    Py_ssize_t k = lo - 1;
    return tables->ranges[2 * k + 1] + (Py_UCS4)(pointer - tables->ranges[2 * k]); /* step 4 */
}

/* Spec: gb18030 decoder (the reference: mojifix.whatwg.gb18030.make_step). */
static void
decode_gb18030(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result)
{
    /* a local copy, so its fields stay in registers (the buffer's stores could alias them) */
    Output local = *result;
    Output *out = &local;
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte < 0x80) { /* step 6 */
            emit(out, byte);
            i += 1;
            continue;
        }
        if (byte == 0x80) { /* step 7 */
            emit(out, 0x20AC);
            i += 1;
            continue;
        }
        if (byte == 0xFF) { /* step 9 */
            if (error(out, i, i + 1)) goto done;
            i += 1;
            continue;
        }
        if (i + 1 >= n) { /* step 2: end-of-queue with first set */
            error(out, i, n);
            goto done;
        }
        unsigned char second = data[i + 1];
        if (second >= 0x30 && second <= 0x39) { /* step 5.1: four bytes */
            if (i + 2 >= n) {
                error(out, i, n);
                goto done;
            }
            unsigned char third = data[i + 2];
            if (third < 0x81 || third > 0xFE) { /* step 4.2: restore second and third */
                if (error(out, i, i + 1)) goto done;
                i += 1;
                continue;
            }
            if (i + 3 >= n) {
                error(out, i, n);
                goto done;
            }
            unsigned char fourth = data[i + 3];
            if (fourth < 0x30 || fourth > 0x39) { /* step 3.1: restore three bytes */
                if (error(out, i, i + 1)) goto done;
                i += 1;
                continue;
            }
            Py_ssize_t pointer = (Py_ssize_t)(byte - 0x81) * 12600 + (second - 0x30) * 1260
                                 + (third - 0x81) * 10 + fourth - 0x30;
            Py_UCS4 cp = gb18030_ranges_code_point(tables, pointer); /* steps 3.2-3.5 */
            if (cp == NOT_A_CODE_POINT) {
                if (error(out, i, i + 4)) goto done;
            }
            else {
                emit(out, cp);
            }
            i += 4;
            continue;
        }
        /* steps 5.2-5.10: two bytes */
        int trail_offset = GB18030_TRAIL[second];
        if (trail_offset >= 0) {
            Py_UCS4 cp = index_at(&tables->first, (Py_ssize_t)(byte - 0x81) * 190 + trail_offset);
            if (cp != NO_ENTRY) {
                emit(out, cp);
                i += 2;
                continue;
            }
        }
        Py_ssize_t next = second < 0x80 ? i + 1 : i + 2; /* an ASCII trail byte is restored */
        if (error(out, i, next)) goto done;
        i = next;
    }
done:
    *result = local;
}

/* Spec: Big5 decoder, step 3.6: the pointers that decode to two code points. */
static int
big5_two_code_points(Py_ssize_t pointer, Py_UCS4 *first, Py_UCS4 *second)
{
    switch (pointer) {
    case 1133: *first = 0x00CA; *second = 0x0304; return 1;
    case 1135: *first = 0x00CA; *second = 0x030C; return 1;
    case 1164: *first = 0x00EA; *second = 0x0304; return 1;
    case 1166: *first = 0x00EA; *second = 0x030C; return 1;
    default: return 0;
    }
}

/* Spec: the Big5 and EUC-KR decoders, which share one shape (the references: mojifix.whatwg.big5.make_step
 * and mojifix.whatwg.euc_kr.make_step): an ASCII byte is itself; a lead byte 0x81-0xFE and a trail byte
 * give a pointer (lead - 0x81) * row + the trail's offset; no entry is an error that restores an ASCII
 * trail byte. Big5 alone has pointers that decode to two code points (step 3.6). Inlined into each
 * decoder with its constants. */
static inline void
decode_lead_trail(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result,
                  Py_ssize_t row, const int16_t *trail_offsets, int big5)
{
    /* a local copy, so its fields stay in registers (the buffer's stores could alias them) */
    Output local = *result;
    Output *out = &local;
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte < 0x80) { /* Big5 step 4, EUC-KR step 4 */
            emit(out, byte);
            i += 1;
            continue;
        }
        if (byte < 0x81 || byte > 0xFE) { /* step 6 */
            if (error(out, i, i + 1)) goto done;
            i += 1;
            continue;
        }
        if (i + 1 >= n) { /* step 1 */
            error(out, i, n);
            goto done;
        }
        unsigned char trail = data[i + 1]; /* step 3 */
        int trail_offset = trail_offsets[trail];
        if (trail_offset >= 0) {
            Py_ssize_t pointer = (Py_ssize_t)(byte - 0x81) * row + trail_offset;
            Py_UCS4 first, second;
            if (big5 && (size_t)(pointer - 1133) <= 1166 - 1133
                && big5_two_code_points(pointer, &first, &second)) {
                emit(out, first);
                emit(out, second);
                i += 2;
                continue;
            }
            Py_UCS4 cp = index_at(&tables->first, pointer);
            if (cp != NO_ENTRY) {
                emit(out, cp);
                i += 2;
                continue;
            }
        }
        Py_ssize_t next = trail < 0x80 ? i + 1 : i + 2; /* Big5 step 3.9, EUC-KR 3.7: ASCII is restored */
        if (error(out, i, next)) goto done;
        i = next;
    }
done:
    *result = local;
}

static void
decode_big5(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result)
{
    decode_lead_trail(data, n, tables, result, 157, BIG5_TRAIL, 1);
}

static void
decode_euc_kr(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result)
{
    decode_lead_trail(data, n, tables, result, 190, EUC_KR_TRAIL, 0);
}

/* EUC-JP decoder step 5.4's look-up, for jis0208 and jis0212 alike. */
static inline Py_UCS4
euc_jp_lookup(const Index *index, unsigned char leading, unsigned char byte)
{
    if (leading >= 0xA1 && leading <= 0xFE && byte >= 0xA1 && byte <= 0xFE) {
        return index_at(index, (Py_ssize_t)(leading - 0xA1) * 94 + byte - 0xA1);
    }
    return NO_ENTRY;
}

/* Spec: EUC-JP decoder (the reference: mojifix.whatwg.euc_jp.make_step). */
static void
decode_euc_jp(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result)
{
    /* a local copy, so its fields stay in registers (the buffer's stores could alias them) */
    Output local = *result;
    Output *out = &local;
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte < 0x80) { /* step 6 */
            emit(out, byte);
            i += 1;
            continue;
        }
        if (!(byte == 0x8E || byte == 0x8F || (byte >= 0xA1 && byte <= 0xFE))) { /* step 8 */
            if (error(out, i, i + 1)) goto done;
            i += 1;
            continue;
        }
        if (i + 1 >= n) { /* step 1 */
            error(out, i, n);
            goto done;
        }
        unsigned char second = data[i + 1];
        if (byte == 0x8E && second >= 0xA1 && second <= 0xDF) { /* step 3: halfwidth katakana */
            emit(out, 0xFF61 - 0xA1 + second);
            i += 2;
            continue;
        }
        if (byte == 0x8F && second >= 0xA1 && second <= 0xFE) { /* step 4: jis0212 */
            if (i + 2 >= n) {
                error(out, i, n);
                goto done;
            }
            unsigned char third = data[i + 2];
            Py_UCS4 cp = euc_jp_lookup(&tables->second, second, third);
            if (cp != NO_ENTRY) {
                emit(out, cp);
                i += 3;
                continue;
            }
            Py_ssize_t next = third < 0x80 ? i + 2 : i + 3; /* step 5.7: an ASCII byte is restored */
            if (error(out, i, next)) goto done;
            i = next;
            continue;
        }
        Py_UCS4 cp = euc_jp_lookup(&tables->first, byte, second); /* step 5 */
        if (cp != NO_ENTRY) {
            emit(out, cp);
            i += 2;
            continue;
        }
        Py_ssize_t next = second < 0x80 ? i + 1 : i + 2;
        if (error(out, i, next)) goto done;
        i = next;
    }
done:
    *result = local;
}

/* Spec: Shift_JIS decoder, step 3.7: pointers 8836-10715 are Windows EUDC, U+E000-U+E757. */
#define SHIFT_JIS_EUDC_FIRST 8836
#define SHIFT_JIS_EUDC_LAST 10715

/* Spec: Shift_JIS decoder (the reference: mojifix.whatwg.shift_jis.make_step). */
static void
decode_shift_jis(const unsigned char *data, Py_ssize_t n, const Tables *tables, Output *result)
{
    /* a local copy, so its fields stay in registers (the buffer's stores could alias them) */
    Output local = *result;
    Output *out = &local;
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte <= 0x80) { /* step 4 */
            emit(out, byte);
            i += 1;
            continue;
        }
        if (byte >= 0xA1 && byte <= 0xDF) { /* step 5: halfwidth katakana */
            emit(out, 0xFF61 - 0xA1 + byte);
            i += 1;
            continue;
        }
        if (!((byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC))) { /* step 7 */
            if (error(out, i, i + 1)) goto done;
            i += 1;
            continue;
        }
        if (i + 1 >= n) { /* step 1 */
            error(out, i, n);
            goto done;
        }
        unsigned char trail = data[i + 1]; /* step 3 */
        int trail_offset = SHIFT_JIS_TRAIL[trail];
        if (trail_offset >= 0) {
            Py_ssize_t leading_offset = byte < 0xA0 ? 0x81 : 0xC1;
            Py_ssize_t pointer = (byte - leading_offset) * 188 + trail_offset;
            if (pointer >= SHIFT_JIS_EUDC_FIRST && pointer <= SHIFT_JIS_EUDC_LAST) {
                emit(out, (Py_UCS4)(0xE000 - SHIFT_JIS_EUDC_FIRST + pointer));
                i += 2;
                continue;
            }
            Py_UCS4 cp = index_at(&tables->first, pointer);
            if (cp != NO_ENTRY) {
                emit(out, cp);
                i += 2;
                continue;
            }
        }
        Py_ssize_t next = trail < 0x80 ? i + 1 : i + 2; /* step 3.10: an ASCII byte is restored */
        if (error(out, i, next)) goto done;
        i = next;
    }
done:
    *result = local;
}

/* Run one stateless decoder over a bytes-like object: the text, or (start, end) of strict's first error. */
static PyObject *
run_stateless(Decoder decoder, PyObject *data_obj, int strict, const Tables *tables)
{
    Py_buffer view;
    if (PyObject_GetBuffer(data_obj, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Output out;
    if (output_init(&out, view.len, strict) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (view.len >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        decoder(view.buf, view.len, tables, &out);
        Py_END_ALLOW_THREADS
    }
    else {
        decoder(view.buf, view.len, tables, &out);
    }
    PyBuffer_Release(&view);
    return output_finish(&out);
}

#define STATELESS_DECODER(pyname, cname)                                                      \
    static PyObject *pyname(PyObject *self, PyObject *args)                                              \
    {                                                                                                    \
        PyObject *data, *index;                                                                          \
        int strict;                                                                                      \
        Tables tables = {0};                                                                             \
        if (!PyArg_ParseTuple(args, "OpU", &data, &strict, &index)) return NULL;                        \
        if (index_from(index, &tables.first) < 0) return NULL;                                          \
        return run_stateless(cname, data, strict, &tables);                                             \
    }

STATELESS_DECODER(py_big5_decode, decode_big5)
STATELESS_DECODER(py_shift_jis_decode, decode_shift_jis)
STATELESS_DECODER(py_euc_kr_decode, decode_euc_kr)

static PyObject *
py_euc_jp_decode(PyObject *self, PyObject *args)
{
    PyObject *data, *jis0208, *jis0212;
    int strict;
    Tables tables = {0};
    if (!PyArg_ParseTuple(args, "OpUU", &data, &strict, &jis0208, &jis0212)) return NULL;
    if (index_from(jis0208, &tables.first) < 0 || index_from(jis0212, &tables.second) < 0) return NULL;
    return run_stateless(decode_euc_jp, data, strict, &tables);
}

/* gb18030's index ranges as a caller passes them: uint32 (pointer, code point) pairs. Returns 0, or -1 with
 * ValueError (an empty buffer is an error only when ``required``). */
static int
check_ranges(const Py_buffer *ranges, int required)
{
    if (ranges->len % 8 != 0 || (required && ranges->len == 0)) {
        PyErr_SetString(PyExc_ValueError, "ranges must be (pointer, code point) pairs of uint32");
        return -1;
    }
    return 0;
}

/* A copy of the checked ranges (check_ranges) in *out, their pair count in *count; NULL and 0 when
 * empty. Returns 0, or -1 with an exception. */
static int
copy_ranges(const Py_buffer *ranges, int required, uint32_t **out, Py_ssize_t *count)
{
    *out = NULL;
    *count = 0;
    if (check_ranges(ranges, required) < 0) return -1;
    if (ranges->buf == NULL || ranges->len == 0) return 0;
    *out = PyMem_Malloc((size_t)ranges->len);
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*out, ranges->buf, (size_t)ranges->len);
    *count = ranges->len / 8;
    return 0;
}

static PyObject *
py_gb18030_decode(PyObject *self, PyObject *args)
{
    PyObject *data, *index;
    Py_buffer ranges;
    int strict;
    Tables tables = {0};
    if (!PyArg_ParseTuple(args, "OpUy*", &data, &strict, &index, &ranges)) return NULL;
    if (check_ranges(&ranges, 1) < 0) {
        PyBuffer_Release(&ranges);
        return NULL;
    }
    if (index_from(index, &tables.first) < 0) {
        PyBuffer_Release(&ranges);
        return NULL;
    }
    tables.ranges = ranges.buf;
    tables.ranges_count = ranges.len / 8;
    PyObject *result = run_stateless(decode_gb18030, data, strict, &tables);
    PyBuffer_Release(&ranges);
    return result;
}

/* ---- ISO-2022-JP: a stateful decoder (mode and output flag persist between items) ---------------------- */

/* The decoder's modes in mojifix.whatwg.iso_2022_jp's order (State.mode). */
enum { ISO_ASCII = 0, ISO_ROMAN = 1, ISO_KATAKANA = 2, ISO_LEADING = 3 };
#define ESC 0x1B

/* The mode a valid escape sequence's two final bytes select, or -1 (spec: "escape", steps 3-6). */
static inline int
iso_escape_mode(unsigned char a, unsigned char b)
{
    if (a == 0x28) {
        if (b == 0x42) return ISO_ASCII;
        if (b == 0x4A) return ISO_ROMAN;
        if (b == 0x49) return ISO_KATAKANA;
    }
    else if (a == 0x24 && (b == 0x40 || b == 0x42)) {
        return ISO_LEADING;
    }
    return -1;
}

/* Spec: ISO-2022-JP decoder (the reference: mojifix.whatwg.iso_2022_jp.Iso2022Jp._exact, with the same
 * split of the state machine: "escape start"/"escape" are read ahead, "trailing byte" with its lead). */
static Py_ssize_t
decode_iso_2022_jp(const unsigned char *data, Py_ssize_t n, const Index *jis0208, int *mode, int *output,
                   int final, Output *out)
{
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte == ESC) {
            if (i + 1 >= n || ((data[i + 1] == 0x24 || data[i + 1] == 0x28) && i + 2 >= n)) {
                if (!final) break;
                *output = 0; /* escape at end-of-queue: error, back to the output state */
                if (error(out, i, i + 1)) return i;
                i += 1;
                continue;
            }
            int introducer = data[i + 1] == 0x24 || data[i + 1] == 0x28; /* so i + 2 < n */
            int new_mode = introducer ? iso_escape_mode(data[i + 1], data[i + 2]) : -1;
            if (new_mode < 0) { /* escape start step 2 or escape step 8: restore, error */
                *output = 0;
                if (error(out, i, i + 1)) return i;
                i += 1;
                continue;
            }
            *mode = new_mode; /* escape step 7 */
            if (*output) {
                if (error(out, i, i + 3)) return i;
            }
            *output = 1;
            i += 3;
            continue;
        }
        if (*mode == ISO_LEADING && byte >= 0x21 && byte <= 0x7E && i + 1 >= n && !final) {
            break; /* half a pair: wait for its second byte (the state is as before it) */
        }
        *output = 0;
        if (*mode == ISO_LEADING) {
            if (byte < 0x21 || byte > 0x7E) {
                if (error(out, i, i + 1)) return i;
                i += 1;
                continue;
            }
            if (i + 1 >= n) { /* trailing byte at end-of-queue */
                error(out, i, n);
                return n;
            }
            unsigned char trail = data[i + 1];
            if (trail == ESC) { /* trailing byte: ESC is an error, then escape start */
                if (error(out, i, i + 2)) return i;
                i += 1;
                continue;
            }
            if (trail >= 0x21 && trail <= 0x7E) {
                Py_UCS4 cp = index_at(jis0208, (Py_ssize_t)(byte - 0x21) * 94 + trail - 0x21);
                if (cp == NO_ENTRY) {
                    if (error(out, i, i + 2)) return i;
                }
                else {
                    emit(out, cp);
                }
            }
            else if (error(out, i, i + 2)) { /* "otherwise": the byte is consumed */
                return i;
            }
            i += 2;
            continue;
        }
        if (*mode == ISO_KATAKANA) {
            if (byte >= 0x21 && byte <= 0x5F) {
                emit(out, 0xFF61 - 0x21 + byte);
            }
            else if (error(out, i, i + 1)) {
                return i;
            }
        }
        else if (byte > 0x7F || byte == 0x0E || byte == 0x0F) {
            if (error(out, i, i + 1)) return i;
        }
        else if (*mode == ISO_ROMAN && byte == 0x5C) {
            emit(out, 0x00A5);
        }
        else if (*mode == ISO_ROMAN && byte == 0x7E) {
            emit(out, 0x203E);
        }
        else {
            emit(out, byte);
        }
        i += 1;
    }
    return i;
}

static PyObject *
py_iso_2022_jp_decode(PyObject *self, PyObject *args)
{
    PyObject *data_obj, *index;
    int mode, output, final, strict;
    Index jis0208;
    if (!PyArg_ParseTuple(args, "OippUp", &data_obj, &mode, &output, &final, &index, &strict)) return NULL;
    if (mode < ISO_ASCII || mode > ISO_LEADING) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0-3 (ASCII, Roman, katakana, leading byte)");
        return NULL;
    }
    if (index_from(index, &jis0208) < 0) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data_obj, &view, PyBUF_SIMPLE) < 0) return NULL;
    Output out;
    if (output_init(&out, view.len, strict) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t consumed;
    if (view.len >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        consumed = decode_iso_2022_jp(view.buf, view.len, &jis0208, &mode, &output, final, &out);
        Py_END_ALLOW_THREADS
    }
    else {
        consumed = decode_iso_2022_jp(view.buf, view.len, &jis0208, &mode, &output, final, &out);
    }
    PyBuffer_Release(&view);
    PyObject *text = output_finish(&out);
    if (text == NULL || !PyUnicode_Check(text)) {
        return text; /* NULL, or strict mode's (start, end) */
    }
    return Py_BuildValue("(Nnii)", text, consumed, mode, output);
}

/* ---- hash tables: 64-bit keys (code points, pairs of code points) to a double or packed bytes -----------
 *
 * Used by repair's language model (rows of terms) and the CJK encoders (packed bytes). Floating-point
 * arithmetic below is the references', operation for operation, so the results are the same doubles (the
 * build turns off floating-point contraction). */

/* A table's value: a row number (repair's model) or packed encoder bytes (the CJK encoders'). */
typedef union {
    double p;
    uint64_t bytes;
} TableValue;

typedef struct {
    uint64_t *keys; /* key + 1; 0 marks an empty slot */
    TableValue *values;
    uint64_t mask;
} HashTable;

static inline uint64_t
hash_key(uint64_t key)
{
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 32;
    return key;
}

static int
table_init(HashTable *table, Py_ssize_t count)
{
    uint64_t capacity = 16;
    while (capacity < (uint64_t)count * 2) capacity <<= 1;
    table->keys = PyMem_Calloc((size_t)capacity, sizeof(uint64_t));
    table->values = PyMem_Calloc((size_t)capacity, sizeof(TableValue));
    table->mask = capacity - 1;
    if (table->keys == NULL || table->values == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
table_put(HashTable *table, uint64_t key, TableValue value)
{
    uint64_t slot = hash_key(key) & table->mask;
    while (table->keys[slot] != 0 && table->keys[slot] != key + 1) slot = (slot + 1) & table->mask;
    table->keys[slot] = key + 1;
    table->values[slot] = value;
}

/* The value for key, or a zero value (and *found = 0) when it is absent. */
static inline TableValue
table_get(const HashTable *table, uint64_t key, int *found)
{
    uint64_t slot = hash_key(key) & table->mask;
    for (;;) {
        uint64_t stored = table->keys[slot];
        if (stored == key + 1) {
            *found = 1;
            return table->values[slot];
        }
        if (stored == 0) {
            *found = 0;
            return (TableValue){.bytes = 0};
        }
        slot = (slot + 1) & table->mask;
    }
}

/* A pair of code points as one key (21 bits each). */
#define PAIR_KEY(a, b) (((uint64_t)(a) << 21) | (uint64_t)(b))

/* ---- repair's letter scores: all languages at once, from arrays ---------------------------------------
 *
 * The reference is the word loop of mojifix.repair._score.score and _letter_totals / _primary_totals. Each
 * position of a word adds, in every language, log10(uni) or, when the language lists the pair,
 * log10(weighted + uni) (uni = unigram_share * P(char), weighted = bigram_weight * P(char | previous)).
 * Those terms depend on the tables alone, so they are taken once, with the reference's operations on the
 * same doubles, and kept as one row of every language's term per pair and per character: a position costs
 * one or two look-ups, whatever the number of languages, and each language's total adds the same terms in
 * the same order as _word_score. */

#define MODEL_LANGUAGES_MAX 64

typedef struct {
    PyObject_HEAD
    PyObject *names;        /* the languages, sorted (their order is the order primaries are tried in) */
    Py_ssize_t count;
    HashTable pair_rows;    /* PAIR_KEY(previous, char) -> row; U+0020 marks a word boundary */
    HashTable char_rows;    /* code point -> row */
    double *pair_terms;     /* row * count + language: the position's term when the pair is listed there */
    double *char_terms;     /* the same for a character whose pair is not listed */
    uint64_t *char_masks;   /* row -> the languages listing the character */
    double *boundary_terms; /* the word's end, no pair listed: log10(unigram_share * boundary_p) */
    double *unseen_terms;   /* a character no language lists: log10(unigram_share * unseen_p) */
    double unseen_char, switch_cost;
} ScoringModel;

static void
scoring_model_dealloc(ScoringModel *self)
{
    PyMem_Free(self->pair_rows.keys);
    PyMem_Free(self->pair_rows.values);
    PyMem_Free(self->char_rows.keys);
    PyMem_Free(self->char_rows.values);
    PyMem_Free(self->pair_terms);
    PyMem_Free(self->char_terms);
    PyMem_Free(self->char_masks);
    PyMem_Free(self->boundary_terms);
    PyMem_Free(self->unseen_terms);
    Py_XDECREF(self->names);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The probability the reference's unigram term uses for ch in one language: P(char), unseen_p, or
 * boundary_p for U+0020; -1 with an exception set on error. */
static double
unigram_p(PyObject *chars, Py_UCS4 ch, double unseen_p, double boundary_p)
{
    if (ch == ' ') return boundary_p;
    PyObject *key = PyUnicode_FromOrdinal((int)ch);
    PyObject *value = key == NULL ? NULL : PyDict_GetItemWithError(chars, key);
    Py_XDECREF(key);
    if (value == NULL) return PyErr_Occurred() ? -1.0 : unseen_p;
    return PyFloat_AsDouble(value);
}

/* The row of key in rows, a new one (its terms set to fill) if absent; -1 on error. */
static Py_ssize_t
row_of(HashTable *rows, uint64_t key, Py_ssize_t *used, double *terms, Py_ssize_t count, double fill)
{
    int found;
    TableValue row = table_get(rows, key, &found);
    if (found) return (Py_ssize_t)row.bytes;
    Py_ssize_t fresh = (*used)++;
    table_put(rows, key, (TableValue){.bytes = (uint64_t)fresh});
    for (Py_ssize_t k = 0; k < count; k++) terms[fresh * count + k] = fill;
    return fresh;
}

/* Count the distinct keys of every language's dict of strings of `length` code points. */
static Py_ssize_t
distinct_keys(PyObject *dicts, Py_ssize_t length)
{
    PyObject *all = PySet_New(NULL);
    if (all == NULL) return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(dicts); k++) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(PyTuple_GET_ITEM(dicts, k), &pos, &key, &value)) {
            if (PyUnicode_Check(key) && PyUnicode_GET_LENGTH(key) == length && PySet_Add(all, key) < 0) {
                Py_DECREF(all);
                return -1;
            }
        }
    }
    Py_ssize_t n = PySet_GET_SIZE(all);
    Py_DECREF(all);
    return n;
}

static int
scoring_model_fill(ScoringModel *self, PyObject *chars, PyObject *pairs, double unseen_p, double boundary_p,
                   double unigram_share, double bigram_weight)
{
    Py_ssize_t count = self->count;
    Py_ssize_t char_count = distinct_keys(chars, 1), pair_count = distinct_keys(pairs, 2);
    if (char_count < 0 || pair_count < 0) return -1;
    if (table_init(&self->char_rows, char_count) < 0 || table_init(&self->pair_rows, pair_count) < 0) return -1;
    self->char_terms = PyMem_Malloc(sizeof(double) * (size_t)((char_count + 1) * count));
    self->pair_terms = PyMem_Malloc(sizeof(double) * (size_t)((pair_count + 1) * count));
    self->char_masks = PyMem_Calloc((size_t)(char_count + 1), sizeof(uint64_t));
    self->boundary_terms = PyMem_Malloc(sizeof(double) * (size_t)count);
    self->unseen_terms = PyMem_Malloc(sizeof(double) * (size_t)count);
    if (!self->char_terms || !self->pair_terms || !self->char_masks || !self->boundary_terms ||
        !self->unseen_terms) {
        PyErr_NoMemory();
        return -1;
    }
    double unseen = log10(unigram_share * unseen_p), boundary = log10(unigram_share * boundary_p);
    for (Py_ssize_t lang = 0; lang < count; lang++) {
        self->unseen_terms[lang] = unseen;
        self->boundary_terms[lang] = boundary;
    }
    Py_ssize_t used = 0;
    for (Py_ssize_t lang = 0; lang < count; lang++) { /* characters: log10(uni) */
        PyObject *table = PyTuple_GET_ITEM(chars, lang), *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(table, &pos, &key, &value)) {
            if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) != 1) continue;
            Py_UCS4 ch = PyUnicode_READ_CHAR(key, 0);
            double p = unigram_p(table, ch, unseen_p, boundary_p);
            if (PyErr_Occurred()) return -1;
            Py_ssize_t row = row_of(&self->char_rows, ch, &used, self->char_terms, count, unseen);
            double uni = unigram_share * p;
            self->char_terms[row * count + lang] = log10(uni);
            self->char_masks[row] |= (uint64_t)1 << lang;
        }
    }
    used = 0;
    for (Py_ssize_t lang = 0; lang < count; lang++) { /* pairs: log10(weighted + uni) where listed */
        PyObject *table = PyTuple_GET_ITEM(pairs, lang), *key, *value;
        PyObject *own_chars = PyTuple_GET_ITEM(chars, lang);
        Py_ssize_t pos = 0;
        while (PyDict_Next(table, &pos, &key, &value)) {
            if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) != 2) continue;
            Py_UCS4 prev = PyUnicode_READ_CHAR(key, 0), ch = PyUnicode_READ_CHAR(key, 1);
            double pair = PyFloat_AsDouble(value);
            double p = unigram_p(own_chars, ch, unseen_p, boundary_p);
            if (PyErr_Occurred()) return -1;
            int existed;
            table_get(&self->pair_rows, PAIR_KEY(prev, ch), &existed);
            Py_ssize_t row = row_of(&self->pair_rows, PAIR_KEY(prev, ch), &used, self->pair_terms, count, 0.0);
            if (!existed) { /* a new row: every language's term without the pair, then the listed ones */
                for (Py_ssize_t other = 0; other < count; other++) {
                    double q = unigram_p(PyTuple_GET_ITEM(chars, other), ch, unseen_p, boundary_p);
                    if (PyErr_Occurred()) return -1;
                    double other_uni = unigram_share * q;
                    self->pair_terms[row * count + other] = log10(other_uni);
                }
            }
            double uni = unigram_share * p;
            double weighted = bigram_weight * pair;
            self->pair_terms[row * count + lang] = log10(weighted + uni);
        }
    }
    return 0;
}

static PyObject *
scoring_model_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *names, *chars, *pairs;
    double unseen_p, boundary_p, unigram_share, bigram_weight, unseen_char, switch_cost;
    static char *keywords[] = {"names", "chars", "pairs", "unseen_p", "boundary_p", "unigram_share",
                               "bigram_weight", "unseen_char", "switch_cost", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!dddddd", keywords, &PyTuple_Type, &names,
                                     &PyTuple_Type, &chars, &PyTuple_Type, &pairs, &unseen_p, &boundary_p,
                                     &unigram_share, &bigram_weight, &unseen_char, &switch_cost)) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (count > MODEL_LANGUAGES_MAX || PyTuple_GET_SIZE(chars) != count || PyTuple_GET_SIZE(pairs) != count) {
        PyErr_SetString(PyExc_ValueError, "ScoringModel takes at most 64 languages, one chars and pairs dict each");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(names, k)) || !PyDict_Check(PyTuple_GET_ITEM(chars, k)) ||
            !PyDict_Check(PyTuple_GET_ITEM(pairs, k))) {
            PyErr_SetString(PyExc_TypeError, "ScoringModel takes names (str) and dicts");
            return NULL;
        }
    }
    ScoringModel *self = (ScoringModel *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    Py_INCREF(names);
    self->names = names;
    self->count = count;
    self->unseen_char = unseen_char;
    self->switch_cost = switch_cost;
    if (scoring_model_fill(self, chars, pairs, unseen_p, boundary_p, unigram_share, bigram_weight) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyTypeObject ScoringModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mojifix._kernels.ScoringModel",
    .tp_doc = "ScoringModel(names, chars, pairs, unseen_p, boundary_p, unigram_share, bigram_weight,\n"
              "unseen_char, switch_cost): repair's language model as arrays, for letter_totals.\n\n"
              "names: the languages, sorted; chars, pairs: per language {char: P(char)} and\n"
              "{'ab': P(b | a)} (' ' marks a word boundary), as mojifix.repair._score._Language holds them;\n"
              "the numbers are mojifix.repair._score's constants.",
    .tp_basicsize = sizeof(ScoringModel),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = scoring_model_new,
    .tp_dealloc = (destructor)scoring_model_dealloc,
};

/* Spec: _word_score in every language at once (totals[language]); returns the languages listing one of the
 * word's characters (the reference's char_languages union). */
static uint64_t
word_totals(const ScoringModel *model, int kind, const void *data, Py_ssize_t n, double *totals)
{
    Py_ssize_t count = model->count;
    uint64_t mask = 0;
    for (Py_ssize_t lang = 0; lang < count; lang++) totals[lang] = 0.0;
    Py_UCS4 prev = ' ';
    for (Py_ssize_t k = 0; k <= n; k++) {
        Py_UCS4 ch = k < n ? PyUnicode_READ(kind, data, k) : ' ';
        int listed_pair, listed_char;
        const double *terms;
        TableValue row = table_get(&model->pair_rows, PAIR_KEY(prev, ch), &listed_pair);
        if (ch != ' ') {
            TableValue char_row = table_get(&model->char_rows, ch, &listed_char);
            if (listed_char) mask |= model->char_masks[char_row.bytes];
            terms = listed_char ? model->char_terms + char_row.bytes * (uint64_t)count : model->unseen_terms;
        }
        else {
            terms = model->boundary_terms;
        }
        if (listed_pair) terms = model->pair_terms + row.bytes * (uint64_t)count;
        for (Py_ssize_t lang = 0; lang < count; lang++) totals[lang] += terms[lang];
        prev = ch;
    }
    return mask;
}

/* A word's memo entry for the compiled path: its language mask, then its total in every language. */
typedef struct {
    uint64_t mask;
    double totals[MODEL_LANGUAGES_MAX];
} WordTotals;

static PyObject *
py_word_scores(PyObject *module, PyObject *args)
{
    PyObject *word;
    ScoringModel *model;
    int every = 0;
    if (!PyArg_ParseTuple(args, "UO!|p", &word, &ScoringModelType, &model, &every)) return NULL;
    WordTotals entry;
    entry.mask = word_totals(model, PyUnicode_KIND(word), PyUnicode_DATA(word), PyUnicode_GET_LENGTH(word),
                             entry.totals);
    PyObject *result = PyDict_New();
    for (Py_ssize_t lang = 0; result != NULL && lang < model->count; lang++) {
        if (!every && !(entry.mask >> lang & 1)) continue;
        PyObject *value = PyFloat_FromDouble(entry.totals[lang]);
        if (value == NULL || PyDict_SetItem(result, PyTuple_GET_ITEM(model->names, lang), value) < 0) {
            Py_CLEAR(result);
        }
        Py_XDECREF(value);
    }
    return result;
}

/* Spec: the word loop of mojifix.repair._score.score with _letter_totals and _primary_totals. */
static PyObject *
py_letter_totals(PyObject *module, PyObject *args)
{
    PyObject *words, *memo;
    ScoringModel *model;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &words, &PyDict_Type, &memo, &ScoringModelType,
                          &model)) {
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(words);
    const WordTotals **entries = PyMem_Malloc(sizeof(WordTotals *) * (size_t)(count > 0 ? count : 1));
    double *floors = PyMem_Malloc(sizeof(double) * (size_t)(count > 0 ? count : 1) * 2);
    PyObject *result = NULL;
    if (entries == NULL || floors == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t candidates = 0;
    for (Py_ssize_t w = 0; w < count; w++) {
        PyObject *word = PyList_GET_ITEM(words, w);
        if (!PyUnicode_Check(word)) {
            PyErr_SetString(PyExc_TypeError, "words must be str");
            goto done;
        }
        PyObject *known = PyDict_GetItemWithError(memo, word); /* borrowed: the memo keeps it */
        if (known == NULL) {
            if (PyErr_Occurred()) goto done;
            WordTotals entry;
            entry.mask = word_totals(model, PyUnicode_KIND(word), PyUnicode_DATA(word),
                                     PyUnicode_GET_LENGTH(word), entry.totals);
            PyObject *packed = PyBytes_FromStringAndSize((const char *)&entry, sizeof(entry));
            int failed = packed == NULL || PyDict_SetItem(memo, word, packed) < 0;
            Py_XDECREF(packed);
            if (failed) goto done;
            known = PyDict_GetItemWithError(memo, word);
            if (known == NULL) goto done;
        }
        if (!PyBytes_Check(known) || PyBytes_GET_SIZE(known) != (Py_ssize_t)sizeof(WordTotals)) {
            PyErr_SetString(PyExc_TypeError, "memo values must be letter_totals' own entries");
            goto done;
        }
        const WordTotals *entry = (const WordTotals *)PyBytes_AS_STRING(known);
        entries[w] = entry;
        double floor = model->unseen_char * (double)PyUnicode_GET_LENGTH(word) - 1.0;
        double best = floor;
        int first = 1;
        for (Py_ssize_t lang = 0; lang < model->count; lang++) {
            if (!(entry->mask >> lang & 1)) continue;
            if (first || entry->totals[lang] > best) best = entry->totals[lang];
            first = 0;
        }
        floors[2 * w] = floor;
        floors[2 * w + 1] = best - model->switch_cost;
        candidates |= entry->mask;
    }
    /* primaries in sorted order (the names are sorted), or none at all */
    double best_total = -INFINITY;
    Py_ssize_t best_lang = -1;
    for (Py_ssize_t lang = candidates ? 0 : -1; lang < (candidates ? model->count : 0); lang++) {
        if (lang >= 0 && !(candidates >> lang & 1)) continue;
        double acc = 0.0;
        for (Py_ssize_t w = 0; w < count; w++) {
            double own = floors[2 * w], foreign = floors[2 * w + 1];
            if (lang >= 0 && entries[w]->mask >> lang & 1) own = entries[w]->totals[lang];
            acc += own > foreign ? own : foreign;
        }
        if (acc > best_total) {
            best_total = acc;
            best_lang = lang;
        }
    }
    result = Py_BuildValue("(dO)", best_total, best_lang >= 0 ? PyTuple_GET_ITEM(model->names, best_lang) : Py_None);
done:
    PyMem_Free(entries);
    PyMem_Free(floors);
    return result;
}

/* ---- repair's text split: words and the cost of everything else ---------------------------------------
 *
 * The reference is mojifix.repair._score._words_and_costs (_split, then each word's case flips and script
 * mixes, then its case fold). What a character is (a word character, its symbol cost, its script...) is
 * asked of the reference's own _char_facts once per code point and kept in CharFacts, so only the
 * sequencing is written twice; the additions happen in the reference's order (the same doubles). */

/* _char_facts' packed bits (the reference names them FACT_*) */
#define FACT_WORD 0x01u
#define FACT_JOINER 0x02u
#define FACT_AFTER_LETTER_OK 0x04u
#define FACT_INWORD_PUNCT 0x08u
#define FACT_SPACE 0x10u
#define FACT_ALPHA 0x20u
#define FACT_LOWER 0x40u
#define FACT_UPPER 0x80u
#define FACT_SCRIPT(f) (((f) >> 8) & 0xFFu)
#define FACT_COST(f) (((f) >> 16) & 0xFFu)
#define FACT_KNOWN 0x80000000u
#define FACT_COSTS_MAX 32
#define FACT_BMP_SIZE 0x10000

typedef struct {
    PyObject_HEAD
    PyObject *facts_of;  /* the reference's _char_facts(ch) -> int */
    uint32_t *bmp;       /* code point -> facts | FACT_KNOWN (0: not asked yet) */
    PyObject *astral;    /* {code point: facts} for the supplementary planes */
    double costs[FACT_COSTS_MAX];
    Py_ssize_t costs_count;
    double letter_then_symbol, symbol_in_word, case_flip, script_mix;
} CharFacts;

static void
char_facts_dealloc(CharFacts *self)
{
    PyMem_Free(self->bmp);
    Py_XDECREF(self->facts_of);
    Py_XDECREF(self->astral);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
char_facts_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *facts_of, *costs;
    double letter_then_symbol, symbol_in_word, case_flip, script_mix;
    static char *keywords[] = {"facts_of", "costs", "letter_then_symbol", "symbol_in_word", "case_flip",
                               "script_mix", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!dddd", keywords, &facts_of, &PyTuple_Type, &costs,
                                     &letter_then_symbol, &symbol_in_word, &case_flip, &script_mix)) {
        return NULL;
    }
    if (!PyCallable_Check(facts_of) || PyTuple_GET_SIZE(costs) > FACT_COSTS_MAX) {
        PyErr_SetString(PyExc_TypeError, "CharFacts takes a callable and at most 32 costs");
        return NULL;
    }
    CharFacts *self = (CharFacts *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->costs_count = PyTuple_GET_SIZE(costs);
    for (Py_ssize_t k = 0; k < self->costs_count; k++) {
        self->costs[k] = PyFloat_AsDouble(PyTuple_GET_ITEM(costs, k));
    }
    self->bmp = PyMem_Calloc(FACT_BMP_SIZE, sizeof(uint32_t));
    self->astral = PyDict_New();
    Py_INCREF(facts_of);
    self->facts_of = facts_of;
    self->letter_then_symbol = letter_then_symbol;
    self->symbol_in_word = symbol_in_word;
    self->case_flip = case_flip;
    self->script_mix = script_mix;
    if (PyErr_Occurred() || self->bmp == NULL || self->astral == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyTypeObject CharFactsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mojifix._kernels.CharFacts",
    .tp_doc = "CharFacts(facts_of, costs, letter_then_symbol, symbol_in_word, case_flip, script_mix)\n\n"
              "What each character is for repair's scorer, asked of facts_of (the reference's\n"
              "mojifix.repair._score._char_facts) once per code point; costs: the symbol costs its\n"
              "FACT_COST index names; the four costs of _score's rules. With no costs, facts_of's bits are\n"
              "another reader's (mojifix.repair._codecs.multi_byte_step_facts, for multi_byte_steps_meet).",
    .tp_basicsize = sizeof(CharFacts),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = char_facts_new,
    .tp_dealloc = (destructor)char_facts_dealloc,
};

/* The facts of ch (asked of the reference the first time), or FACT_KNOWN alone on error. */
static uint32_t
char_facts_of(CharFacts *self, Py_UCS4 ch)
{
    if (ch < FACT_BMP_SIZE && self->bmp[ch]) return self->bmp[ch];
    PyObject *key = NULL, *value = NULL;
    if (ch >= FACT_BMP_SIZE) {
        key = PyLong_FromUnsignedLong(ch);
        if (key == NULL) return FACT_KNOWN;
        value = PyDict_GetItemWithError(self->astral, key);
        if (value != NULL) {
            Py_DECREF(key);
            return (uint32_t)PyLong_AsUnsignedLong(value);
        }
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            return FACT_KNOWN;
        }
    }
    PyObject *str = PyUnicode_FromOrdinal((int)ch);
    value = str == NULL ? NULL : PyObject_CallOneArg(self->facts_of, str);
    Py_XDECREF(str);
    uint32_t facts = FACT_KNOWN;
    if (value != NULL) {
        unsigned long raw = PyLong_AsUnsignedLong(value);
        if (!PyErr_Occurred() && self->costs_count && FACT_COST(raw) >= (unsigned long)self->costs_count) {
            PyErr_SetString(PyExc_ValueError, "_char_facts gave a cost index past the costs");
        }
        if (!PyErr_Occurred()) {
            facts = (uint32_t)raw | FACT_KNOWN;
            if (ch < FACT_BMP_SIZE) {
                self->bmp[ch] = facts;
            }
            else {
                PyObject *packed = PyLong_FromUnsignedLong(facts);
                if (packed == NULL || PyDict_SetItem(self->astral, key, packed) < 0) facts = FACT_KNOWN;
                Py_XDECREF(packed);
            }
        }
    }
    Py_XDECREF(value);
    Py_XDECREF(key);
    return PyErr_Occurred() ? FACT_KNOWN : facts;
}

/* casefold, then "i\u0307" -> "i" and U+2019 -> "'" (the reference's _fold). An ASCII word's casefold is
 * its lower case (no call needed, and none at all when it has no capital); a swap is only made when the
 * folded word holds its last character. */
static PyObject *
fold_word(PyObject *word)
{
    if (PyUnicode_IS_ASCII(word)) {
        const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(word);
        Py_ssize_t n = PyUnicode_GET_LENGTH(word), first = 0;
        while (first < n && !(chars[first] >= 'A' && chars[first] <= 'Z')) first++;
        if (first == n) return Py_NewRef(word);
        PyObject *lower = PyUnicode_New(n, 0x7F);
        if (lower == NULL) return NULL;
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(lower);
        for (Py_ssize_t k = 0; k < n; k++) {
            out[k] = chars[k] >= 'A' && chars[k] <= 'Z' ? (Py_UCS1)(chars[k] + ('a' - 'A')) : chars[k];
        }
        return lower;
    }
    PyObject *folded = PyObject_CallMethod(word, "casefold", NULL);
    static const Py_UCS4 dotted[2] = {'i', 0x0307}, apostrophe[1] = {0x2019};
    const struct {
        const Py_UCS4 *from;
        Py_ssize_t from_len;
        Py_UCS4 to;
    } swaps[2] = {{dotted, 2, 'i'}, {apostrophe, 1, '\''}};
    for (int k = 0; k < 2 && folded != NULL; k++) {
        Py_ssize_t at = PyUnicode_FindChar(folded, swaps[k].from[swaps[k].from_len - 1], 0,
                                           PyUnicode_GET_LENGTH(folded), 1);
        if (at == -2) {
            Py_CLEAR(folded);
            break;
        }
        if (at == -1) continue; /* nothing to swap */
        PyObject *from = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, swaps[k].from, swaps[k].from_len);
        PyObject *to = PyUnicode_FromOrdinal((int)swaps[k].to);
        PyObject *swapped = from && to ? PyUnicode_Replace(folded, from, to, -1) : NULL;
        Py_XDECREF(from);
        Py_XDECREF(to);
        Py_SETREF(folded, swapped);
    }
    return folded;
}

/* Spec: mojifix.repair._score._words_and_costs. */
static PyObject *
py_words_and_costs(PyObject *module, PyObject *args)
{
    PyObject *text;
    CharFacts *facts;
    if (!PyArg_ParseTuple(args, "UO!", &text, &CharFactsType, &facts)) return NULL;
    if (facts->costs_count == 0) { /* FACT_COST indexes costs[]: facts made without costs have none */
        PyErr_SetString(PyExc_ValueError, "words_and_costs needs a CharFacts made with costs");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t *spans = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    PyObject *words = PyList_New(0);
    PyObject *result = NULL;
    if (spans == NULL || words == NULL) {
        if (spans == NULL) PyErr_NoMemory();
        goto done;
    }
    /* _split: words as [start, end) spans, and the summed cost of everything else */
    Py_ssize_t count = 0, start = -1;
    double other = 0.0;
    int after_letter = 0, pending = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        uint32_t f = char_facts_of(facts, ch);
        if (PyErr_Occurred()) goto done;
        if ((f & FACT_WORD) || (start >= 0 && (f & FACT_JOINER))) {
            if (pending) {
                other -= facts->symbol_in_word;
                pending = 0;
            }
            if (start < 0) start = i;
            after_letter = 1;
            continue;
        }
        int symbol = ch >= 0x80 && !(f & FACT_SPACE);
        if (start >= 0) {
            spans[count++] = start;
            spans[count++] = i;
            start = -1;
            if (symbol && !(f & FACT_AFTER_LETTER_OK)) other -= facts->letter_then_symbol;
        }
        other += facts->costs[FACT_COST(f)];
        if (after_letter && symbol && !(f & FACT_INWORD_PUNCT)) {
            pending = 1;
        }
        else {
            after_letter = 0;
            pending = 0;
        }
    }
    if (start >= 0) {
        spans[count++] = start;
        spans[count++] = n;
    }
    /* per word: case flips, script mixes (letters only), then the fold */
    double total = other;
    for (Py_ssize_t w = 0; w < count; w += 2) {
        Py_ssize_t flips = 0, mixes = 0, last_script = -1;
        int ascii = 1;
        uint32_t prev = 0;
        for (Py_ssize_t i = spans[w]; i < spans[w + 1]; i++) {
            Py_UCS4 ch = PyUnicode_READ(kind, data, i);
            uint32_t f = char_facts_of(facts, ch);
            if (PyErr_Occurred()) goto done;
            if (i > spans[w] && (prev & FACT_LOWER) && (f & FACT_UPPER)) flips++;
            if (ch >= 0x80) ascii = 0;
            if (f & FACT_ALPHA) {
                Py_ssize_t script = (Py_ssize_t)FACT_SCRIPT(f);
                if (last_script >= 0 && script != last_script) mixes++;
                last_script = script;
            }
            prev = f;
        }
        total -= facts->case_flip * (double)flips;
        if (!ascii) total -= facts->script_mix * (double)mixes;
        PyObject *word = PyUnicode_Substring(text, spans[w], spans[w + 1]);
        PyObject *folded = word == NULL ? NULL : fold_word(word);
        Py_XDECREF(word);
        if (folded == NULL || PyList_Append(words, folded) < 0) {
            Py_XDECREF(folded);
            goto done;
        }
        Py_DECREF(folded);
    }
    result = Py_BuildValue("(Od)", words, total);
done:
    PyMem_Free(spans);
    Py_XDECREF(words);
    return result;
}

/* Spec: mojifix.repair._score.score with the compiled twins: words_and_costs, then (when the text has a
 * word) letter_totals; the total is the costs plus the letters' total, in that order (the same double). */
static PyObject *
py_text_score(PyObject *module, PyObject *args)
{
    PyObject *text, *facts, *memo, *model;
    if (!PyArg_ParseTuple(args, "UO!O!O!", &text, &CharFactsType, &facts, &PyDict_Type, &memo,
                          &ScoringModelType, &model)) {
        return NULL;
    }
    PyObject *split_args = PyTuple_Pack(2, text, facts);
    PyObject *split = split_args == NULL ? NULL : py_words_and_costs(module, split_args);
    Py_XDECREF(split_args);
    if (split == NULL) return NULL;
    PyObject *words = PyTuple_GET_ITEM(split, 0);
    double total = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(split, 1));
    PyObject *result = NULL;
    if (PyList_GET_SIZE(words) == 0) {
        result = Py_BuildValue("(dO)", total, Py_None);
    }
    else {
        PyObject *totals_args = PyTuple_Pack(3, words, memo, model);
        PyObject *best = totals_args == NULL ? NULL : py_letter_totals(module, totals_args);
        Py_XDECREF(totals_args);
        if (best != NULL) {
            double letters = PyFloat_AsDouble(PyTuple_GET_ITEM(best, 0));
            if (!PyErr_Occurred()) result = Py_BuildValue("(dO)", total + letters, PyTuple_GET_ITEM(best, 1));
            Py_DECREF(best);
        }
    }
    Py_DECREF(split);
    return result;
}


/* ---- the CJK encoders (gb18030/GBK, Big5, EUC-JP, Shift_JIS, EUC-KR) ----------------------------------
 *
 * The reference is mojifix.whatwg._cjk.StatelessCjkCodec.encode_char: every non-ASCII code point the
 * encoder can encode is looked up in the codec's encode table (make_encode_table, built from the standard's
 * index by the Python code, hashed here once); gb18030 computes its supplementary-plane four-byte
 * sequences from the index gb18030 ranges (encode_fallback). "html" mode writes &#N; for what cannot be
 * encoded and reads a lone surrogate as U+FFFD first (a USVString), as the Python encoder does. */

/* packed encoder bytes: the count in bits 32-39, the bytes big-endian below; count 0 = unencodable */
#define PACK_COUNT(v) ((int)((v) >> 32))
#define BMP_SIZE 0x10000

typedef struct {
    PyObject_HEAD
    /* the BMP directly (one look-up, no hashing; CPython's own encoders index their tables the same way):
     * the bytes big-endian and their count (0 = unencodable) */
    uint32_t *bmp_bytes;
    uint8_t *bmp_count;
    HashTable astral; /* supplementary code points of the table -> packed bytes */
    uint32_t *ranges; /* gb18030: (pointer offset, code point offset) pairs, or NULL */
    Py_ssize_t ranges_count;
} EncodeTable;

static void
encode_table_dealloc(EncodeTable *self)
{
    PyMem_Free(self->bmp_bytes);
    PyMem_Free(self->bmp_count);
    PyMem_Free(self->astral.keys);
    PyMem_Free(self->astral.values);
    PyMem_Free(self->ranges);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
encode_table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *table;
    Py_buffer ranges = {0};
    static char *keywords[] = {"table", "ranges", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|y*", keywords, &PyDict_Type, &table, &ranges)) {
        return NULL;
    }
    EncodeTable *self = (EncodeTable *)type->tp_alloc(type, 0);
    if (self == NULL) goto fail;
    if (copy_ranges(&ranges, 0, &self->ranges, &self->ranges_count) < 0) goto fail;
    self->bmp_bytes = PyMem_Calloc(BMP_SIZE, sizeof(uint32_t));
    self->bmp_count = PyMem_Calloc(BMP_SIZE, sizeof(uint8_t));
    if (self->bmp_bytes == NULL || self->bmp_count == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0, astral_count = 0;
    while (PyDict_Next(table, &pos, &key, &value)) { /* size the supplementary planes' table */
        long cp = PyLong_AsLong(key);
        if (cp == -1 && PyErr_Occurred()) goto fail;
        astral_count += cp >= BMP_SIZE;
    }
    if (table_init(&self->astral, astral_count) < 0) goto fail;
    pos = 0;
    while (PyDict_Next(table, &pos, &key, &value)) {
        long cp = PyLong_AsLong(key);
        if (cp == -1 && PyErr_Occurred()) goto fail;
        if (cp < 0 || cp > 0x10FFFF || !PyUnicode_Check(value) || PyUnicode_GET_LENGTH(value) > 4) {
            PyErr_SetString(PyExc_ValueError, "table: code point -> latin-1 string of 1-4 bytes");
            goto fail;
        }
        uint64_t packed = 0;
        Py_ssize_t count = PyUnicode_GET_LENGTH(value);
        int unencodable = count == 1 && PyUnicode_READ_CHAR(value, 0) == 0xFFFF; /* _cjk.UNENCODABLE */
        if (!unencodable) {
            for (Py_ssize_t k = 0; k < count; k++) {
                Py_UCS4 b = PyUnicode_READ_CHAR(value, k);
                if (b > 0xFF) {
                    PyErr_SetString(PyExc_ValueError, "table: code point -> latin-1 string of 1-4 bytes");
                    goto fail;
                }
                packed = (packed << 8) | b;
            }
            packed |= (uint64_t)count << 32;
        }
        if (cp < BMP_SIZE) {
            self->bmp_bytes[cp] = (uint32_t)packed;
            self->bmp_count[cp] = (uint8_t)PACK_COUNT(packed);
            continue;
        }
        table_put(&self->astral, (uint64_t)cp, (TableValue){.bytes = packed});
    }
    PyBuffer_Release(&ranges);
    return (PyObject *)self;
fail:
    PyBuffer_Release(&ranges);
    Py_XDECREF(self);
    return NULL;
}

static PyTypeObject EncodeTableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mojifix._kernels.EncodeTable",
    .tp_doc = "EncodeTable(table, ranges=b''): a CJK encoder's table, laid out for the compiled encoder.\n\n"
              "table: {code point: its bytes as a latin-1 str, or U+FFFF for unencodable}, as\n"
              "StatelessCjkCodec.encode_table holds it; ranges: gb18030's index ranges as uint32\n"
              "(pointer, code point) pairs, for its four-byte supplementary-plane sequences.",
    .tp_basicsize = sizeof(EncodeTable),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = encode_table_new,
    .tp_dealloc = (destructor)encode_table_dealloc,
};

/* Spec: gb18030 encoder steps 10-17 for a supplementary code point: the index gb18030 ranges pointer,
 * then four bytes (the reference: mojifix.whatwg.gb18030.ranges_pointer and four_bytes). */
static uint64_t
gb18030_four_bytes(const EncodeTable *table, Py_UCS4 cp)
{
    Py_ssize_t lo = 0, hi = table->ranges_count;
    while (lo < hi) { /* the last range whose code point offset is <= cp */
        Py_ssize_t mid = (lo + hi) / 2;
        if (table->ranges[2 * mid + 1] <= cp) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    Py_ssize_t k = lo - 1;
    uint64_t pointer = table->ranges[2 * k] + (uint64_t)(cp - table->ranges[2 * k + 1]);
    uint64_t b1 = pointer / 12600, b2 = pointer % 12600 / 1260, b3 = pointer % 1260 / 10, b4 = pointer % 10;
    return (4ULL << 32) | ((b1 + 0x81) << 24) | ((b2 + 0x30) << 16) | ((b3 + 0x81) << 8) | (b4 + 0x30);
}

/* The packed bytes of a supplementary code point (count 0: unencodable). */
static uint64_t
encode_astral(const EncodeTable *table, Py_UCS4 cp)
{
    int found;
    uint64_t packed = table_get(&table->astral, cp, &found).bytes;
    if (!found) {
        packed = table->ranges != NULL ? gb18030_four_bytes(table, cp) : 0;
    }
    return packed;
}

typedef struct {
    unsigned char *buf;
    Py_ssize_t len, capacity;
} Bytes;

/* Room for `more` bytes (0 on success). */
static int
bytes_reserve(Bytes *out, Py_ssize_t more)
{
    if (out->len + more <= out->capacity) return 0;
    Py_ssize_t capacity = out->capacity * 2 + more;
    unsigned char *buf = PyMem_RawRealloc(out->buf, (size_t)capacity);
    if (buf == NULL) return -1;
    out->buf = buf;
    out->capacity = capacity;
    return 0;
}

/* The most bytes one code point takes: four, or "&#1114111;" in html mode. */
#define MAX_ENCODED 4
#define MAX_REFERENCE 10

/* Encode (the buffer holds MAX_ENCODED bytes per code point to start with); returns -1 when done, the
 * index of strict mode's first unencodable code point, or -2 when out of memory. Inlined per string kind,
 * so the loop reads the text without a switch. */
static inline Py_ssize_t
cjk_encode(const EncodeTable *table, int kind, const void *data, Py_ssize_t n, int html, Bytes *out)
{
    unsigned char *buf = out->buf;
    Py_ssize_t len = out->len;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 cp = PyUnicode_READ(kind, data, i);
        if (cp < 0x80) {
            buf[len++] = (unsigned char)cp;
            continue;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            if (!html) return i; /* not a scalar value */
            cp = 0xFFFD;         /* a USVString has U+FFFD there */
        }
        uint32_t bytes;
        int count;
        if (cp < BMP_SIZE) {
            bytes = table->bmp_bytes[cp];
            count = table->bmp_count[cp];
        }
        else {
            uint64_t packed = encode_astral(table, cp);
            bytes = (uint32_t)packed;
            count = PACK_COUNT(packed);
        }
        switch (count) {
        case 4: buf[len++] = (unsigned char)(bytes >> 24); /* fall through */
        case 3: buf[len++] = (unsigned char)(bytes >> 16); /* fall through */
        case 2: buf[len++] = (unsigned char)(bytes >> 8);  /* fall through */
        case 1: buf[len++] = (unsigned char)bytes; continue;
        default: break;
        }
        if (!html) return i;
        out->len = len;
        if (bytes_reserve(out, MAX_REFERENCE + MAX_ENCODED * (n - i)) < 0) return -2;
        buf = out->buf;
        len += sprintf((char *)buf + len, "&#%u;", (unsigned)cp);
    }
    out->len = len;
    return -1;
}

static Py_ssize_t
cjk_encode_any_kind(const EncodeTable *table, int kind, const void *data, Py_ssize_t n, int html, Bytes *out)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND: return cjk_encode(table, PyUnicode_1BYTE_KIND, data, n, html, out);
    case PyUnicode_2BYTE_KIND: return cjk_encode(table, PyUnicode_2BYTE_KIND, data, n, html, out);
    default: return cjk_encode(table, PyUnicode_4BYTE_KIND, data, n, html, out);
    }
}

static PyObject *
py_cjk_encode(PyObject *self, PyObject *args)
{
    PyObject *text, *table;
    int html;
    if (!PyArg_ParseTuple(args, "UO!p", &text, &EncodeTableType, &table, &html)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t capacity = MAX_ENCODED * n + 16;
    Bytes out = {PyMem_RawMalloc((size_t)capacity), 0, capacity};
    if (out.buf == NULL) return PyErr_NoMemory();
    Py_ssize_t stop;
    if (n >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        stop = cjk_encode_any_kind((const EncodeTable *)table, kind, data, n, html, &out);
        Py_END_ALLOW_THREADS
    }
    else {
        stop = cjk_encode_any_kind((const EncodeTable *)table, kind, data, n, html, &out);
    }
    PyObject *result;
    if (stop == -2) {
        result = PyErr_NoMemory();
    }
    else if (stop >= 0) {
        result = PyLong_FromSsize_t(stop);
    }
    else {
        result = PyBytes_FromStringAndSize((const char *)out.buf, out.len);
    }
    PyMem_RawFree(out.buf);
    return result;
}

/* ---- repair's single-byte steps: every one of them over one text, in one call ---------------------------
 *
 * The reference is mojifix.repair._search._expand over the steps whose encode_as is a single-byte codec
 * (a prefix of STEP_PAIRS): for each step, the text encoded with the codec's exact table (the rebuilt
 * bytes, one per character), then decoded strictly as UTF-8 or a legacy CJK encoding (scope "all");
 * where that fails, each run (ASCII-whitespace-separated) holding a non-ASCII character that encodes and
 * decodes is replaced by its decoding (scope "runs"); a step whose whole-text bytes hold EF BF BD and
 * decode as legacy CJK gives nothing (heuristic 8). The reference prunes with step alphabets first; they
 * only skip steps and runs that provably fail or come back unchanged, so trying every one gives the same
 * candidates. Strict UTF-8 is Unicode's well-formed UTF-8 (table 3-7), which is what CPython's strict
 * decoder accepts; the CJK decoders are the ones above, in strict mode. In a text holding U+FFFD, a step
 * decoding UTF-8 whose whole text fails is tried in scope "lossy" (_roundtrip_lossy) before "runs". */

/* what ByteSteps decodes the rebuilt bytes as (mojifix.repair._search._BYTE_STEP_DECODERS' order) */
enum { BYTE_STEP_UTF8 = 0, BYTE_STEP_GB18030, BYTE_STEP_BIG5, BYTE_STEP_SHIFT_JIS, BYTE_STEP_EUC_KR,
       BYTE_STEP_EUC_JP, BYTE_STEP_DECODERS };
#define NO_BYTE 0xFFFF

/* One single-byte codec's encoder: code point >> 8 -> a page of 256 bytes (NO_BYTE: unencodable); the
 * codecs here only encode BMP characters, and a page exists only where a character is. */
typedef struct {
    uint16_t *pages[256];
} ByteEncoder;

typedef struct {
    PyObject_HEAD
    Py_ssize_t codec_count, step_count;
    ByteEncoder *encoders;
    int *step_codec, *step_decoder; /* per step: index into encoders, BYTE_STEP_* */
    PyObject *indexes;              /* the CJK indexes (str), kept alive for tables */
    uint32_t *ranges;               /* gb18030's index ranges, a copy */
    Tables tables[BYTE_STEP_DECODERS];
} ByteSteps;

static void
byte_steps_dealloc(ByteSteps *self)
{
    for (Py_ssize_t c = 0; c < self->codec_count && self->encoders != NULL; c++) {
        for (int p = 0; p < 256; p++) PyMem_Free(self->encoders[c].pages[p]);
    }
    PyMem_Free(self->encoders);
    PyMem_Free(self->step_codec);
    PyMem_Free(self->step_decoder);
    PyMem_Free(self->ranges);
    Py_XDECREF(self->indexes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Fill an encoder from the codec's decode table (byte -> char, U+FFFF where the byte is an error); a
 * character two bytes decode to encodes as the later one, as _codecs._table's dict does. */
static int
byte_encoder_fill(ByteEncoder *encoder, PyObject *chars)
{
    if (!PyUnicode_Check(chars) || PyUnicode_GET_LENGTH(chars) != 256) {
        PyErr_SetString(PyExc_ValueError, "a codec is a str of 256 characters (byte -> char, U+FFFF: none)");
        return -1;
    }
    for (int byte = 0; byte < 256; byte++) {
        Py_UCS4 cp = PyUnicode_READ_CHAR(chars, byte);
        if (cp == NO_ENTRY) continue;
        if (cp > 0xFFFF) {
            PyErr_SetString(PyExc_ValueError, "a single-byte codec's characters are in the BMP");
            return -1;
        }
        uint16_t **page = &encoder->pages[cp >> 8];
        if (*page == NULL) {
            *page = PyMem_Malloc(256 * sizeof(uint16_t));
            if (*page == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            for (int k = 0; k < 256; k++) (*page)[k] = NO_BYTE;
        }
        (*page)[cp & 0xFF] = (uint16_t)byte;
    }
    return 0;
}

static PyObject *
byte_steps_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *codecs, *steps, *gb18030, *big5, *jis0208, *euc_kr, *jis0212;
    Py_buffer ranges = {0};
    static char *keywords[] = {"codecs", "steps", "gb18030", "ranges", "big5", "jis0208", "euc_kr",
                               "jis0212", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!Uy*UUUU", keywords, &PyTuple_Type, &codecs,
                                     &PyTuple_Type, &steps, &gb18030, &ranges, &big5, &jis0208, &euc_kr,
                                     &jis0212)) {
        return NULL;
    }
    ByteSteps *self = (ByteSteps *)type->tp_alloc(type, 0);
    if (self == NULL) goto fail;
    Py_ssize_t ranges_count;
    if (copy_ranges(&ranges, 1, &self->ranges, &ranges_count) < 0) goto fail;
    self->codec_count = PyTuple_GET_SIZE(codecs);
    self->step_count = PyTuple_GET_SIZE(steps);
    self->encoders = PyMem_Calloc((size_t)self->codec_count + 1, sizeof(ByteEncoder));
    self->step_codec = PyMem_Calloc((size_t)self->step_count + 1, sizeof(int));
    self->step_decoder = PyMem_Calloc((size_t)self->step_count + 1, sizeof(int));
    if (self->encoders == NULL || self->step_codec == NULL || self->step_decoder == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t c = 0; c < self->codec_count; c++) {
        if (byte_encoder_fill(&self->encoders[c], PyTuple_GET_ITEM(codecs, c)) < 0) goto fail;
    }
    for (Py_ssize_t s = 0; s < self->step_count; s++) {
        int codec, decoder;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(steps, s), "ii", &codec, &decoder)) goto fail;
        if (codec < 0 || codec >= self->codec_count || decoder < 0 || decoder >= BYTE_STEP_DECODERS) {
            PyErr_SetString(PyExc_ValueError, "a step is (codec index, decoder index)");
            goto fail;
        }
        self->step_codec[s] = codec;
        self->step_decoder[s] = decoder;
    }
    self->indexes = PyTuple_Pack(5, gb18030, big5, jis0208, euc_kr, jis0212);
    if (self->indexes == NULL) goto fail;
    if (index_from(gb18030, &self->tables[BYTE_STEP_GB18030].first) < 0
        || index_from(big5, &self->tables[BYTE_STEP_BIG5].first) < 0
        || index_from(jis0208, &self->tables[BYTE_STEP_SHIFT_JIS].first) < 0
        || index_from(euc_kr, &self->tables[BYTE_STEP_EUC_KR].first) < 0
        || index_from(jis0208, &self->tables[BYTE_STEP_EUC_JP].first) < 0
        || index_from(jis0212, &self->tables[BYTE_STEP_EUC_JP].second) < 0) {
        goto fail;
    }
    self->tables[BYTE_STEP_GB18030].ranges = self->ranges;
    self->tables[BYTE_STEP_GB18030].ranges_count = ranges_count;
    PyBuffer_Release(&ranges);
    return (PyObject *)self;
fail:
    PyBuffer_Release(&ranges);
    Py_XDECREF(self);
    return NULL;
}

static PyTypeObject ByteStepsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mojifix._kernels.ByteSteps",
    .tp_doc = "ByteSteps(codecs, steps, gb18030, ranges, big5, jis0208, euc_kr, jis0212): repair's steps\n"
              "that encode with a single-byte codec, for byte_steps_expand.\n\n"
              "codecs: each single-byte codec as its 256 characters (byte -> char, U+FFFF: an error);\n"
              "steps: (codec index, decoder) pairs, decoder 0-5 = UTF-8, gb18030 (GBK's decoder), Big5,\n"
              "Shift_JIS, EUC-KR, EUC-JP; then the WHATWG indexes those decoders read.",
    .tp_basicsize = sizeof(ByteSteps),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = byte_steps_new,
    .tp_dealloc = (destructor)byte_steps_dealloc,
};

/* Well-formed UTF-8 (Unicode table 3-7): what CPython's strict decoder accepts. */
static int
utf8_well_formed(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        if (b < 0x80) {
            i += 1;
            continue;
        }
        Py_ssize_t need;
        unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        }
        else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        }
        else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        }
        else {
            return 0;
        }
        if (i + need >= n) return 0; /* cut short */
        if (s[i + 1] < lo || s[i + 1] > hi) return 0;
        for (Py_ssize_t k = 2; k <= need; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return 0;
        }
        i += need + 1;
    }
    return 1;
}

static const Decoder BYTE_STEP_DECODER[BYTE_STEP_DECODERS] = {
    NULL, decode_gb18030, decode_big5, decode_shift_jis, decode_euc_kr, decode_euc_jp,
};

/* The strict decoding of data[0:n] as decoder: a new str, or NULL with *invalid set (no exception) when
 * the bytes are not valid, or NULL with an exception (out of memory). */
static PyObject *
byte_step_decode(const ByteSteps *self, int decoder, const unsigned char *data, Py_ssize_t n, int *invalid)
{
    *invalid = 0;
    if (decoder == BYTE_STEP_UTF8) {
        if (!utf8_well_formed(data, n)) {
            *invalid = 1;
            return NULL;
        }
        return PyUnicode_DecodeUTF8((const char *)data, n, "strict");
    }
    Output out;
    if (output_init(&out, n, 1) < 0) return NULL;
    BYTE_STEP_DECODER[decoder](data, n, &self->tables[decoder], &out);
    if (out.error_start >= 0) {
        PyMem_RawFree(out.buf);
        *invalid = 1;
        return NULL;
    }
    return output_finish(&out);
}

/* Whether str decoded equals text[start:end]. */
static int
same_chars(int kind, const void *data, Py_ssize_t start, Py_ssize_t end, PyObject *decoded)
{
    if (PyUnicode_GET_LENGTH(decoded) != end - start) return 0;
    int dkind = PyUnicode_KIND(decoded);
    const void *ddata = PyUnicode_DATA(decoded);
    for (Py_ssize_t k = 0; k < end - start; k++) {
        if (PyUnicode_READ(kind, data, start + k) != PyUnicode_READ(dkind, ddata, k)) return 0;
    }
    return 1;
}

static inline int
ascii_whitespace(Py_UCS4 cp)
{
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v';
}

/* the scopes of byte_steps_expand's candidates */
enum { SCOPE_ALL = 0, SCOPE_RUNS = 1, SCOPE_LOSSY = 2 };

/* Append (step, scope, candidate) to out, taking the candidate's reference (0, or -1 with an exception). */
static int
append_candidate(PyObject *out, Py_ssize_t step, int scope, PyObject *candidate)
{
    PyObject *item = Py_BuildValue("(niN)", step, scope, candidate);
    int failed = item == NULL || PyList_Append(out, item) < 0;
    Py_XDECREF(item);
    return failed ? -1 : 0;
}

/* Where a UTF-8 sequence cut short at the end of data[0:n] starts, n if none does (_incomplete_tail). */
static Py_ssize_t
incomplete_tail(const unsigned char *data, Py_ssize_t n)
{
    for (Py_ssize_t back = 1; back <= (n < 3 ? n : 3); back++) {
        unsigned char byte = data[n - back];
        if (byte < 0x80) break;
        if (byte >= 0xC0) { /* a lead byte: does the sequence it starts fit in what is left? */
            Py_ssize_t need = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
            return back < need ? n - back : n;
        }
    }
    return n;
}

/* Where character k's rebuilt bytes start: off[k], or k where each character is one byte (off NULL). */
#define BYTE_AT(off, k) ((off) != NULL ? (off)[k] : (k))

/* Scope "lossy" (the reference: _roundtrip_lossy) on the text's rebuilt bytes (character k's at
 * BYTE_AT(off, k)), as UTF-8: the new text, or NULL with *invalid set (a piece between U+FFFDs does not
 * encode or decode), or NULL with an exception. Each U+FFFD stays one U+FFFD; the orphan continuation
 * bytes after one and a sequence cut short before one are dropped into it. */
static PyObject *
byte_step_lossy(PyObject *text, const unsigned char *bytes, const Py_ssize_t *off, const unsigned char *bad,
                int *invalid)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *pieces = PyList_New(0);
    if (pieces == NULL) return NULL;
    *invalid = 0;
    Py_ssize_t first = 0; /* the current piece: text[first:i] */
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && PyUnicode_READ(kind, data, i) != REPLACEMENT) continue;
        Py_ssize_t piece = BYTE_AT(off, first), start = piece, end = BYTE_AT(off, i);
        for (Py_ssize_t k = first; k < i; k++) {
            if (bad[k]) { /* the piece does not encode */
                *invalid = 1;
                Py_DECREF(pieces);
                return NULL;
            }
        }
        if (first > 0) { /* orphan continuation bytes right after lost bytes */
            Py_ssize_t limit = piece + 3 < end ? piece + 3 : end;
            while (start < limit && bytes[start] >= 0x80 && bytes[start] <= 0xBF) start++;
        }
        if (i < n) {
            Py_ssize_t tail = piece + incomplete_tail(bytes + piece, end - piece);
            end = tail > start ? tail : start;
        }
        PyObject *decoded = byte_step_decode(NULL, BYTE_STEP_UTF8, bytes + start, end - start, invalid);
        if (decoded == NULL || PyList_Append(pieces, decoded) < 0) {
            Py_XDECREF(decoded);
            Py_DECREF(pieces);
            return NULL;
        }
        Py_DECREF(decoded);
        first = i + 1;
    }
    PyObject *separator = PyUnicode_FromOrdinal(REPLACEMENT);
    PyObject *joined = separator == NULL ? NULL : PyUnicode_Join(separator, pieces);
    Py_XDECREF(separator);
    Py_DECREF(pieces);
    return joined;
}

/* One step over the text, decoding as decoder (bytes: its rebuilt bytes, character k's at BYTE_AT(off, k);
 * bad: per character 1 when unencodable; runs: the (start, end) of the runs holding a non-ASCII
 * character; lost: the text holds U+FFFD; drop_unchanged: give nothing when the whole text comes back as
 * it is): the candidate (step, scope, text) appended to out, or nothing. 0 on success, -1 with an
 * exception. */
static int
byte_step_run(const ByteSteps *self, int decoder, Py_ssize_t step, PyObject *text, const unsigned char *bytes,
              const Py_ssize_t *off, const unsigned char *bad, int whole_encodes, const Py_ssize_t *runs,
              Py_ssize_t run_count, int lost, int drop_unchanged, PyObject *out)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), size = BYTE_AT(off, n);
    int invalid;
    int lossy_possible = lost && decoder == BYTE_STEP_UTF8;
    if (whole_encodes) {
        if (decoder != BYTE_STEP_UTF8) {
            for (Py_ssize_t i = 0; i + 2 < size; i++) { /* heuristic 8: EF BF BD is UTF-8's U+FFFD */
                if (bytes[i] == 0xEF && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBD) return 0;
            }
        }
        PyObject *whole = byte_step_decode(self, decoder, bytes, size, &invalid);
        if (whole != NULL) {
            if (drop_unchanged && !lossy_possible && same_chars(PyUnicode_KIND(text), PyUnicode_DATA(text), 0, n, whole)) {
                /* the reference's alphabet skips such a step: a text its step gives back unchanged
                 * holds no lead byte followed by a trail byte, nor a byte read alone as another
                 * character (with U+FFFD, the reference tries a step decoding UTF-8 without it) */
                Py_DECREF(whole);
                return 0;
            }
            return append_candidate(out, step, SCOPE_ALL, whole);
        }
        if (!invalid) return -1;
    }
    if (lossy_possible) {
        PyObject *lossy = byte_step_lossy(text, bytes, off, bad, &invalid);
        if (lossy != NULL) return append_candidate(out, step, SCOPE_LOSSY, lossy);
        if (!invalid) return -1;
    }
    /* scope "runs": the text's pieces, each run that decodes replaced */
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    PyObject *pieces = NULL;
    Py_ssize_t done = 0; /* text[0:done] is in pieces */
    for (Py_ssize_t r = 0; r < run_count; r++) {
        Py_ssize_t start = runs[2 * r], end = runs[2 * r + 1];
        int encodes = 1;
        for (Py_ssize_t i = start; i < end && encodes; i++) encodes = !bad[i];
        if (!encodes) continue;
        PyObject *decoded = byte_step_decode(self, decoder, bytes + BYTE_AT(off, start),
                                             BYTE_AT(off, end) - BYTE_AT(off, start), &invalid);
        if (decoded == NULL) {
            if (invalid) continue;
            Py_XDECREF(pieces);
            return -1;
        }
        if (same_chars(kind, data, start, end, decoded)) {
            Py_DECREF(decoded);
            continue;
        }
        PyObject *before = PyUnicode_Substring(text, done, start);
        if (pieces == NULL) pieces = PyList_New(0);
        int failed = before == NULL || pieces == NULL || PyList_Append(pieces, before) < 0
                     || PyList_Append(pieces, decoded) < 0;
        Py_XDECREF(before);
        Py_DECREF(decoded);
        if (failed) {
            Py_XDECREF(pieces);
            return -1;
        }
        done = end;
    }
    if (pieces == NULL) return 0; /* no run changed: no candidate */
    PyObject *rest = PyUnicode_Substring(text, done, n);
    PyObject *empty = PyUnicode_New(0, 0);
    PyObject *joined = NULL;
    if (rest != NULL && empty != NULL && PyList_Append(pieces, rest) == 0) {
        joined = PyUnicode_Join(empty, pieces);
    }
    Py_XDECREF(rest);
    Py_XDECREF(empty);
    Py_DECREF(pieces);
    if (joined == NULL) return -1;
    return append_candidate(out, step, SCOPE_RUNS, joined);
}

/* One expand call's buffers: the rebuilt bytes, each character's offset in them (multi-byte encoders
 * only), whether it encodes, the runs, and the candidates found. */
typedef struct {
    unsigned char *bytes, *bad;
    Py_ssize_t *off, *runs;
    PyObject *out;
} StepScratch;

/* Allocate for n characters of at most bytes_per_char bytes each (with offsets when that is above 1);
 * 0, or -1 with an exception (then step_scratch_free still applies). */
static int
step_scratch_init(StepScratch *s, Py_ssize_t n, Py_ssize_t bytes_per_char)
{
    s->out = PyList_New(0);
    s->bytes = PyMem_Malloc((size_t)(bytes_per_char * n) + 1);
    s->bad = PyMem_Malloc((size_t)n + 1);
    s->off = bytes_per_char > 1 ? PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(n + 1)) : NULL;
    s->runs = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    if (s->out == NULL || s->bytes == NULL || s->bad == NULL || s->runs == NULL
        || (bytes_per_char > 1 && s->off == NULL)) {
        if (s->out != NULL) PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Free the buffers; the candidates list when failed, else it is returned (a new reference). */
static PyObject *
step_scratch_free(StepScratch *s, int failed)
{
    PyMem_Free(s->bytes);
    PyMem_Free(s->bad);
    PyMem_Free(s->off);
    PyMem_Free(s->runs);
    if (failed) Py_CLEAR(s->out);
    return s->out;
}

/* The (start, end) of the runs (between ASCII whitespace) of text holding a non-ASCII character; their
 * count. */
static Py_ssize_t
high_runs(int kind, const void *data, Py_ssize_t n, Py_ssize_t *runs)
{
    Py_ssize_t run_count = 0;
    for (Py_ssize_t i = 0; i < n;) {
        while (i < n && ascii_whitespace(PyUnicode_READ(kind, data, i))) i++;
        Py_ssize_t start = i;
        int high = 0;
        for (; i < n && !ascii_whitespace(PyUnicode_READ(kind, data, i)); i++) {
            high |= PyUnicode_READ(kind, data, i) >= 0x80;
        }
        if (high) {
            runs[2 * run_count] = start;
            runs[2 * run_count + 1] = i;
            run_count++;
        }
    }
    return run_count;
}

/* Spec: mojifix.repair._search._expand over the single-byte steps (see the section's comment). */
static PyObject *
py_byte_steps_expand(PyObject *module, PyObject *args)
{
    PyObject *text;
    ByteSteps *self;
    if (!PyArg_ParseTuple(args, "UO!", &text, &ByteStepsType, &self)) return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    StepScratch s;
    if (step_scratch_init(&s, n, 1) < 0) return step_scratch_free(&s, 1);
    unsigned char *bytes = s.bytes, *bad = s.bad;
    Py_ssize_t run_count = high_runs(kind, data, n, s.runs);
    if (run_count == 0) return step_scratch_free(&s, 0); /* ASCII: every step gives it back */
    int lost = PyUnicode_FindChar(text, REPLACEMENT, 0, n, 1) >= 0;
    int last_codec = -1, whole_encodes = 0;
    for (Py_ssize_t step = 0; step < self->step_count; step++) {
        int codec = self->step_codec[step];
        if (codec != last_codec) { /* the bytes are rebuilt when the codec changes */
            const ByteEncoder *encoder = &self->encoders[codec];
            whole_encodes = 1;
            for (Py_ssize_t i = 0; i < n; i++) {
                Py_UCS4 cp = PyUnicode_READ(kind, data, i);
                const uint16_t *page = cp <= 0xFFFF ? encoder->pages[cp >> 8] : NULL;
                uint16_t byte = page != NULL ? page[cp & 0xFF] : NO_BYTE;
                bad[i] = byte == NO_BYTE;
                bytes[i] = (unsigned char)byte;
                whole_encodes &= !bad[i];
            }
            last_codec = codec;
        }
        if (byte_step_run(self, self->step_decoder[step], step, text, bytes, NULL, bad, whole_encodes, s.runs,
                          run_count, lost, 1, s.out) < 0) {
            return step_scratch_free(&s, 1);
        }
    }
    return step_scratch_free(&s, 0);
}


/* ---- repair's multi-byte steps: which of them a text can meet, in one call -------------------------------
 *
 * The reference is mojifix.repair._codecs.StepAlphabet.meets for the steps that encode with a multi-byte
 * codec and decode UTF-8 (_CharBytes.meets with the fixed blocks' bad_start pattern). What each character
 * is for each step (4 bits a step) is asked of the reference's multi_byte_step_facts once per code point,
 * through a CharFacts without costs. A run (between ASCII whitespace) meets a step unless all its
 * characters are outside the alphabet, one is in no UTF-8, it opens with a character UTF-8 cannot start
 * with or closes with one it cannot end with, or (characters of the fixed blocks only) such a character
 * follows or precedes an ASCII one inside the run. */
#define STEP_FACT_INERT 0x1u
#define STEP_FACT_NEVER 0x2u
#define STEP_FACT_BAD_START 0x4u
#define STEP_FACT_BAD_END 0x8u
#define STEP_FACT_BITS 4
#define STEP_FACT_FIXED (1u << 24)
#define STEP_FACT_STEPS 6

/* Whether run text[start:end] (with the facts f of each character) meets the step whose bits are at shift. */
static int
run_meets_step(int kind, const void *data, const uint32_t *f, Py_ssize_t start, Py_ssize_t end, int shift)
{
    int all_inert = 1;
    for (Py_ssize_t k = start; k < end; k++) {
        uint32_t g = f[k] >> shift;
        all_inert &= (g & STEP_FACT_INERT) != 0;
        if (g & STEP_FACT_NEVER) return 0;
        if (f[k] & STEP_FACT_FIXED) {
            if ((g & STEP_FACT_BAD_START) && (k == start || PyUnicode_READ(kind, data, k - 1) < 0x80)) return 0;
            if ((g & STEP_FACT_BAD_END) && (k == end - 1 || PyUnicode_READ(kind, data, k + 1) < 0x80)) return 0;
        }
    }
    if (all_inert) return 0;
    return !((f[start] >> shift) & STEP_FACT_BAD_START) && !((f[end - 1] >> shift) & STEP_FACT_BAD_END);
}

/* Spec: StepAlphabet.meets of each multi-byte step (see the section's comment). */
static PyObject *
py_multi_byte_steps_meet(PyObject *module, PyObject *args)
{
    PyObject *text;
    CharFacts *facts;
    int count;
    if (!PyArg_ParseTuple(args, "UO!i", &text, &CharFactsType, &facts, &count)) return NULL;
    if (count < 0 || count > STEP_FACT_STEPS) {
        PyErr_SetString(PyExc_ValueError, "at most 6 multi-byte steps");
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    uint32_t *f = PyMem_Malloc(sizeof(uint32_t) * (size_t)(n + 1));
    if (f == NULL) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        f[i] = char_facts_of(facts, PyUnicode_READ(kind, data, i));
        if (PyErr_Occurred()) {
            PyMem_Free(f);
            return NULL;
        }
    }
    unsigned long mask = 0;
    for (int step = 0; step < count; step++) {
        for (Py_ssize_t i = 0; i < n;) {
            while (i < n && ascii_whitespace(PyUnicode_READ(kind, data, i))) i++;
            Py_ssize_t start = i;
            while (i < n && !ascii_whitespace(PyUnicode_READ(kind, data, i))) i++;
            if (i > start && run_meets_step(kind, data, f, start, i, STEP_FACT_BITS * step)) {
                mask |= 1ul << step;
                break;
            }
        }
    }
    PyMem_Free(f);
    return PyLong_FromUnsignedLong(mask);
}

/* ---- repair's multi-byte steps: those a text meets, in one call ------------------------------------------
 *
 * The reference is mojifix.repair._search._expand over the steps that encode with a CJK encoder and decode
 * UTF-8 (scopes "all", "lossy" in a text holding U+FFFD, else "runs"), for the steps the caller says the
 * text meets (multi_byte_steps_meet; every one in a text holding U+FFFD, as the reference tries them all
 * there). A character is rebuilt as the encoder writes it (cjk_encode's EncodeTable look-up), else as
 * the bytes only the decoder gives it (the reference's _decoder_inverse, asked through a callable), else
 * it does not encode. */

/* The text's bytes in one encoder: into bytes (4 per character at most), character k's from off[k]
 * (off[n]: the end), bad[k] set where it does not encode; 1 when every character encodes, 0 when one
 * does not, -1 with an exception. */
static int
cjk_rebuild(const EncodeTable *table, PyObject *inverse, int kind, const void *data, Py_ssize_t n,
            unsigned char *bytes, Py_ssize_t *off, unsigned char *bad)
{
    Py_ssize_t len = 0;
    int whole = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 cp = PyUnicode_READ(kind, data, i);
        off[i] = len;
        bad[i] = 0;
        if (cp < 0x80) {
            bytes[len++] = (unsigned char)cp;
            continue;
        }
        uint32_t packed = 0;
        int count = 0;
        if (cp < 0xD800 || cp > 0xDFFF) { /* a lone surrogate is no scalar value: the encoder refuses it */
            if (cp < BMP_SIZE) {
                packed = table->bmp_bytes[cp];
                count = table->bmp_count[cp];
            }
            else {
                uint64_t astral = encode_astral(table, cp);
                packed = (uint32_t)astral;
                count = PACK_COUNT(astral);
            }
        }
        if (count > 0) {
            for (int k = count - 1; k >= 0; k--) bytes[len++] = (unsigned char)(packed >> (8 * k));
            continue;
        }
        PyObject *ch = PyUnicode_FromOrdinal((int)cp);
        PyObject *only = ch == NULL ? NULL : PyObject_CallOneArg(inverse, ch);
        Py_XDECREF(ch);
        if (only == NULL) return -1;
        if (only == Py_None) {
            bad[i] = 1;
            whole = 0;
        }
        else if (!PyBytes_Check(only) || PyBytes_GET_SIZE(only) < 1 || PyBytes_GET_SIZE(only) > 4) {
            PyErr_SetString(PyExc_ValueError, "the decoder's inverse gives 1-4 bytes or None");
            Py_DECREF(only);
            return -1;
        }
        else {
            memcpy(bytes + len, PyBytes_AS_STRING(only), (size_t)PyBytes_GET_SIZE(only));
            len += PyBytes_GET_SIZE(only);
        }
        Py_DECREF(only);
    }
    off[n] = len;
    return whole;
}

/* Spec: mojifix.repair._search._expand over the multi-byte steps (see the section's comment). */
static PyObject *
py_cjk_steps_expand(PyObject *module, PyObject *args)
{
    PyObject *text, *tables, *inverses;
    unsigned long mask;
    if (!PyArg_ParseTuple(args, "UO!O!k", &text, &PyTuple_Type, &tables, &PyTuple_Type, &inverses, &mask)) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(tables);
    if (PyTuple_GET_SIZE(inverses) != count) {
        PyErr_SetString(PyExc_ValueError, "one inverse per EncodeTable");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!PyObject_TypeCheck(PyTuple_GET_ITEM(tables, k), &EncodeTableType)) {
            PyErr_SetString(PyExc_TypeError, "tables must be EncodeTable objects");
            return NULL;
        }
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    StepScratch s;
    if (step_scratch_init(&s, n, MAX_ENCODED) < 0) return step_scratch_free(&s, 1);
    Py_ssize_t run_count = high_runs(kind, data, n, s.runs);
    int lost = PyUnicode_FindChar(text, REPLACEMENT, 0, n, 1) >= 0;
    for (Py_ssize_t k = 0; k < count && run_count > 0; k++) {
        if (k >= (Py_ssize_t)(8 * sizeof mask) || !((mask >> k) & 1)) continue;
        const EncodeTable *table = (const EncodeTable *)PyTuple_GET_ITEM(tables, k);
        int whole = cjk_rebuild(table, PyTuple_GET_ITEM(inverses, k), kind, data, n, s.bytes, s.off, s.bad);
        if (whole < 0
            || byte_step_run(NULL, BYTE_STEP_UTF8, k, text, s.bytes, s.off, s.bad, whole, s.runs, run_count, lost,
                             0, s.out) < 0) {
            return step_scratch_free(&s, 1);
        }
    }
    return step_scratch_free(&s, 0);
}


/* ---- convert's mixed-file probe G (reference: mojifix.convert.mixed._balance_ends_reference) ------------- */

/* The unit ends where UTF-16 of the head's byte order most clearly gives way to the other: over the NUL
 * bytes of data[start:] in order, a running balance (+1 for a NUL at an offset of the head's parity,
 * -1 for the other parity); the NULs of the head's parity whose balance is within ``slack`` of its
 * maximum, highest balance first (then in input order), the first ``count`` of them, each as the
 * offset of the end of its code unit. Empty when there is no NUL or the maximum is not positive. */
static PyObject *
py_nul_balance_ends(PyObject *module, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t start, count;
    int parity, slack;
    if (!PyArg_ParseTuple(args, "y*npin", &view, &start, &parity, &slack, &count)) {
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t *kept = NULL, *filled = NULL;
    if (start < 0 || start > view.len || slack < 0 || slack > 64 || count < 0 || count > 4096) {
        PyErr_SetString(PyExc_ValueError, "nul_balance_ends: start, slack or count out of range");
        goto done;
    }
    const uint8_t *data = view.buf, *end = data + view.len;
    /* pass 1: the maximum balance over the NUL positions */
    int64_t run = 0, best = INT64_MIN;
    for (const uint8_t *p = data + start; (p = memchr(p, 0, (size_t)(end - p))) != NULL; p++) {
        run += ((p - data - start) % 2 == parity) ? 1 : -1;
        if (run > best) best = run;
        if (p + 1 >= end) break;
    }
    out = PyList_New(0);
    if (out == NULL || best <= 0 || count == 0) goto done;
    /* pass 2: per balance level best, best - 1, ..., best - slack, its first ``count`` unit ends */
    Py_ssize_t levels = (Py_ssize_t)slack + 1;
    kept = PyMem_Calloc((size_t)(levels * count), sizeof *kept);
    filled = PyMem_Calloc((size_t)levels, sizeof *filled);
    if (kept == NULL || filled == NULL) {
        Py_CLEAR(out);
        PyErr_NoMemory();
        goto done;
    }
    run = 0;
    for (const uint8_t *p = data + start; (p = memchr(p, 0, (size_t)(end - p))) != NULL; p++) {
        Py_ssize_t at = p - data - start;
        int head = at % 2 == parity;
        run += head ? 1 : -1;
        Py_ssize_t level = (Py_ssize_t)(best - run);
        if (head && level <= slack && filled[level] < count) {
            kept[level * count + filled[level]++] = start + at + (parity ? 1 : 2);
        }
        if (p + 1 >= end) break;
    }
    for (Py_ssize_t level = 0, n = 0; level < levels && n < count; level++) {
        for (Py_ssize_t i = 0; i < filled[level] && n < count; i++, n++) {
            PyObject *value = PyLong_FromSsize_t(kept[level * count + i]);
            if (value == NULL || PyList_Append(out, value) < 0) {
                Py_XDECREF(value);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(value);
        }
    }
done:
    PyMem_Free(kept);
    PyMem_Free(filled);
    PyBuffer_Release(&view);
    return out;
}


/* ---- module ---------------------------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"gb18030_decode", py_gb18030_decode, METH_VARARGS,
     "gb18030_decode(data, strict, index, ranges) -> str | (start, end)\n\n"
     "The gb18030 decoder; ranges: index gb18030 ranges as uint32 (pointer, code point) pairs.\n"
     "Reference: mojifix.whatwg.gb18030.make_step. In strict mode returns (start, end) of the first error."},
    {"big5_decode", py_big5_decode, METH_VARARGS,
     "big5_decode(data, strict, index) -> str | (start, end)\n\n"
     "The Big5 decoder. Reference: mojifix.whatwg.big5.make_step."},
    {"euc_jp_decode", py_euc_jp_decode, METH_VARARGS,
     "euc_jp_decode(data, strict, jis0208, jis0212) -> str | (start, end)\n\n"
     "The EUC-JP decoder. Reference: mojifix.whatwg.euc_jp.make_step."},
    {"shift_jis_decode", py_shift_jis_decode, METH_VARARGS,
     "shift_jis_decode(data, strict, jis0208) -> str | (start, end)\n\n"
     "The Shift_JIS decoder. Reference: mojifix.whatwg.shift_jis.make_step."},
    {"euc_kr_decode", py_euc_kr_decode, METH_VARARGS,
     "euc_kr_decode(data, strict, index) -> str | (start, end)\n\n"
     "The EUC-KR decoder. Reference: mojifix.whatwg.euc_kr.make_step."},
    {"iso_2022_jp_decode", py_iso_2022_jp_decode, METH_VARARGS,
     "iso_2022_jp_decode(data, mode, output, final, jis0208, strict) -> (text, consumed, mode, output)"
     " | (start, end)\n\n"
     "The ISO-2022-JP decoder from a state (mode 0-3: ASCII, Roman, katakana, leading byte). With final\n"
     "false, a trailing partial escape sequence or pair is left unconsumed.\n"
     "Reference: mojifix.whatwg.iso_2022_jp.Iso2022Jp._exact."},
    {"word_scores", py_word_scores, METH_VARARGS,
     "word_scores(word, model, every_language=False) -> dict[str, float]\n\n"
     "The log10 likelihood of a folded word in each language listing one of its characters (or in every\n"
     "language). Reference: mojifix.repair._score._word_score (same doubles)."},
    {"words_and_costs", py_words_and_costs, METH_VARARGS,
     "words_and_costs(text, facts) -> (list[str], float)\n\n"
     "The case-folded words of text and the cost of all but their letters (symbols, case flips, script\n"
     "mixes), with facts a CharFacts. Reference: mojifix.repair._score._words_and_costs (same doubles)."},
    {"letter_totals", py_letter_totals, METH_VARARGS,
     "letter_totals(words, memo, model) -> (float, str | None)\n\n"
     "The best primary language's total over the folded words (memo: word -> {language: score}, filled\n"
     "with the words it lacks) and that language. Reference: the word loop of mojifix.repair._score.score\n"
     "and _primary_totals (same doubles)."},
    {"cjk_encode", py_cjk_encode, METH_VARARGS,
     "cjk_encode(text, table, html) -> bytes | int\n\n"
     "A CJK encoder over text with its EncodeTable: the bytes, or in strict mode (html false) the index of\n"
     "the first code point it cannot encode. Reference: StatelessCjkCodec.encode_char in whatwg/_cjk.py."},
    {"text_score", py_text_score, METH_VARARGS,
     "text_score(text, facts, memo, model) -> (float, str | None)\n\n"
     "words_and_costs then letter_totals in one call: the text's log10 likelihood and its primary language.\n"
     "Reference: mojifix.repair._score.score (same doubles)."},
    {"byte_steps_expand", py_byte_steps_expand, METH_VARARGS,
     "byte_steps_expand(text, steps) -> list[tuple[int, int, str]]\n\n"
     "Every candidate of repair's single-byte steps (a ByteSteps) on a text: (step index, scope 0-2 =\n"
     "all, runs, lossy, candidate text), in step order. Reference: mojifix.repair._search._expand over\n"
     "those steps (the same candidates)."},
    {"cjk_steps_expand", py_cjk_steps_expand, METH_VARARGS,
     "cjk_steps_expand(text, tables, inverses, mask) -> list[tuple[int, int, str]]\n\n"
     "The candidates of repair's steps from a CJK encoder (tables: their EncodeTables; inverses: each\n"
     "decoder's inverse, ch -> bytes | None) to UTF-8 whose bit is set in mask: (step index, scope 0-2 =\n"
     "all, runs, lossy, candidate text). Reference: mojifix.repair._search._expand over those steps."},
    {"multi_byte_steps_meet", py_multi_byte_steps_meet, METH_VARARGS,
     "multi_byte_steps_meet(text, facts, count) -> int\n\n"
     "Bit k set when the alphabet of repair's k-th multi-byte step meets text, with facts a CharFacts over\n"
     "mojifix.repair._codecs.multi_byte_step_facts. Reference: StepAlphabet.meets of each of those steps."},
    {"nul_balance_ends", py_nul_balance_ends, METH_VARARGS,
     "nul_balance_ends(data, start, parity, slack, count) -> list[int]\n\n"
     "Probe G's boundary candidates: the unit ends after the NULs of data[start:] at offsets of the head's\n"
     "parity whose running NUL balance is within slack of its maximum, best first, at most count.\n"
     "Reference: mojifix.convert.mixed._balance_ends_reference (the same list)."},
    {NULL, NULL, 0, NULL},
};


static int
module_exec(PyObject *m)
{
    if (PyType_Ready(&EncodeTableType) < 0) return -1;
    Py_INCREF(&EncodeTableType);
    if (PyModule_AddObject(m, "EncodeTable", (PyObject *)&EncodeTableType) < 0) {
        Py_DECREF(&EncodeTableType);
        return -1;
    }
    if (PyType_Ready(&ScoringModelType) < 0) return -1;
    Py_INCREF(&ScoringModelType);
    if (PyModule_AddObject(m, "ScoringModel", (PyObject *)&ScoringModelType) < 0) {
        Py_DECREF(&ScoringModelType);
        return -1;
    }
    if (PyType_Ready(&ByteStepsType) < 0) return -1;
    Py_INCREF(&ByteStepsType);
    if (PyModule_AddObject(m, "ByteSteps", (PyObject *)&ByteStepsType) < 0) {
        Py_DECREF(&ByteStepsType);
        return -1;
    }
    if (PyType_Ready(&CharFactsType) < 0) return -1;
    Py_INCREF(&CharFactsType);
    if (PyModule_AddObject(m, "CharFacts", (PyObject *)&CharFactsType) < 0) {
        Py_DECREF(&CharFactsType);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "mojifix._kernels",
    "Compiled twins of mojifix's pure-Python hot paths (see mojifix._native).",
    0,
    methods,
    slots,
};

PyMODINIT_FUNC
PyInit__kernels(void)
{
    trail_tables_init();
    return PyModuleDef_Init(&module);
}
