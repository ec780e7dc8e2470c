/* mojifix.detect._scoring: the detector's scoring kernel, the compiled twin of
 * mojifix.detect.scoring.Scorer._counts_reference (the readable NumPy reference).
 *
 * One call scores every candidate decoding of a sample in all the languages it is tried in: per text, the
 * unigram cost of its letters in every language (over the distinct characters present), the choice of
 * the languages to try (the cheapest the encoding may write, English included), the bigram + refinement
 * cost of the text in each of them with the per-word mixing of languages (into the best one alone or into
 * English), and the counts behind the pair penalties. Everything is a whole number of the model's quanta
 * (1/QUANT nat), so the results are exact and the order of summation cannot change them: this code
 * returns the same integers as the reference, and the one float formula that turns them into nats stays in
 * Python (Scorer.score_many).
 *
 * The model's arrays come in as buffers, with their shapes (languages, global ids) read from them: a
 * retrained model needs no change here. The GIL is released while the texts of a long call are scored
 * (GIL_FREE_CHARS), so threads that detect in parallel run their kernels at the same time. The tables are
 * read-only and every call keeps its own scratch memory, so one Tables object serves any number of threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define COST_NONE INT64_MAX
/* C99 restrict: the pointers of the per-character loops do not alias (MSVC spells it __restrict) */
#if defined(_MSC_VER)
#define RESTRICT __restrict
#else
#define RESTRICT restrict
#endif
/* Work from which a call releases the GIL. Releasing it hands the interpreter to a thread waiting for it,
 * and taking it back waits until that thread lets go (its next release, or the interpreter's switch
 * interval): two context switches, some microseconds, and a convoy when both threads run Python. So only
 * calls long against that release it: scoring at least GIL_FREE_CHARS characters (about 30 ns each over
 * the languages tried, on recorded calls of benchmarks/detect_speed.py's files: ~120 us), and scans of at
 * least GIL_FREE_BYTES bytes (a few ns a byte: ~100 us). Chosen by reasoning from those costs (ten times
 * a handoff), not tuned on a data set; short calls (the shortlist, ~10 us) keep the GIL. */
#define GIL_FREE_CHARS 4096
#define GIL_FREE_BYTES 65536
/* Languages in a model at most (the present one has 64): the size of a per-text stack array. */
#define MAX_LANGUAGES 1024

typedef struct {
    PyObject_HEAD
    Py_buffer lut, loc, bigram_q, ext_q, unigram_cost_t, known, is_letter, switch_script, cp_flags;
    Py_ssize_t n_langs, n_gids;
    int english, separator_gid, separator_local, non_bmp_standin, upper, lower, mark;
    /* the per-character tables packed, so that mapping a character reads two words instead of four tables:
     * per code point, lut | cp_flags << 16; per gid, is_letter | switch_script << 16 (built from them) */
    uint32_t *code_info, *gid_info;
    /* a [n_gids] count array, all zero, kept for the next call (taken and given back with the GIL held;
     * a call that finds it taken, by a thread scoring at the same time, allocates its own) */
    int32_t *spare_count;
} Tables;

/* What the reference returns per text. */
typedef struct {
    int64_t cost; /* COST_NONE: no language may read the text */
    Py_ssize_t lang, n_pair, n_switch, n_mark, n_letters, n_known;
} TextResult;

/* One text, with a reference of its own (the caller's list may change while the GIL is released). */
typedef struct {
    PyObject *text;
    int kind;
    const void *data;
    Py_ssize_t length;
    const uint8_t *allowed; /* [n_langs] */
    Py_ssize_t tried;       /* languages it is scored in (English included) */
} TextIn;

/* Per-call scratch, sized for the longest text. */
typedef struct {
    uint16_t *gid;
    int32_t *word;       /* [longest + 1] the first character of each word, then the text's length */
    int64_t *word_cost;  /* [tried + 1][words], grown as needed */
    size_t word_cost_size;
    int32_t *count;      /* [n_gids] occurrences of each gid, zero between texts */
    uint16_t *touched;   /* gids with a non-zero count */
    int64_t *uni;        /* [n_langs] */
    Py_ssize_t *top;     /* [n_langs]: the languages tried, in order */
    uint8_t *ok;         /* [n_langs]: whether each may read the text */
    int64_t *sums;       /* [n_langs]: the text's cost in each */
} Scratch;

static void
tables_release(Tables *self)
{
    Py_buffer *all[] = {&self->lut, &self->loc, &self->bigram_q, &self->ext_q, &self->unigram_cost_t,
                        &self->known, &self->is_letter, &self->switch_script, &self->cp_flags};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i]->obj != NULL) {
            PyBuffer_Release(all[i]);
        }
    }
    PyMem_Free(self->code_info);
    PyMem_Free(self->gid_info);
    self->code_info = self->gid_info = NULL;
    PyMem_RawFree(self->spare_count);
    self->spare_count = NULL;
}

static void
tables_dealloc(Tables *self)
{
    tables_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Take a C-contiguous buffer of ``ndim`` dimensions whose items are ``itemsize`` bytes. */
static int
take_buffer(PyObject *obj, Py_buffer *view, const char *name, int ndim, Py_ssize_t itemsize)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) {
        return -1;
    }
    if (view->ndim != ndim || view->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d dimensions of %zd-byte items, got %d of %zd", name,
                     ndim, itemsize, view->ndim, view->itemsize);
        return -1;
    }
    return 0;
}

static int
tables_init(Tables *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"lut", "loc", "bigram_q", "ext_q", "unigram_cost_t", "known", "is_letter",
                            "switch_script", "cp_flags", "english", "separator_gid", "separator_local",
                            "non_bmp_standin", "upper", "lower", "mark", NULL};
    PyObject *lut, *loc, *bigram_q, *ext_q, *unigram_cost_t, *known, *is_letter, *switch_script, *cp_flags;
    tables_release(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOOOOOOOOiiiiiii", names, &lut, &loc, &bigram_q, &ext_q,
                                     &unigram_cost_t, &known, &is_letter, &switch_script, &cp_flags,
                                     &self->english, &self->separator_gid, &self->separator_local,
                                     &self->non_bmp_standin, &self->upper, &self->lower, &self->mark)) {
        return -1;
    }
    if (take_buffer(lut, &self->lut, "lut", 1, 2) < 0 || take_buffer(loc, &self->loc, "loc", 2, 1) < 0 ||
        take_buffer(bigram_q, &self->bigram_q, "bigram_q", 3, 1) < 0 ||
        take_buffer(ext_q, &self->ext_q, "ext_q", 2, 1) < 0 ||
        take_buffer(unigram_cost_t, &self->unigram_cost_t, "unigram_cost_t", 2, 2) < 0 ||
        take_buffer(known, &self->known, "known", 2, 1) < 0 ||
        take_buffer(is_letter, &self->is_letter, "is_letter", 1, 1) < 0 ||
        take_buffer(switch_script, &self->switch_script, "switch_script", 1, 2) < 0 ||
        take_buffer(cp_flags, &self->cp_flags, "cp_flags", 1, 1) < 0) {
        return -1;
    }
    Py_ssize_t n_langs = self->loc.shape[0], n_gids = self->loc.shape[1];
    self->n_langs = n_langs;
    self->n_gids = n_gids;
    /* local ids are bytes: a bigram row has 256 entries whatever the model */
    int shapes_ok = self->lut.shape[0] == 0x10000 && self->cp_flags.shape[0] == 0x10000 &&
                    self->bigram_q.shape[0] == n_langs && self->bigram_q.shape[1] == 256 &&
                    self->bigram_q.shape[2] == 256 && self->ext_q.shape[0] == n_langs &&
                    self->ext_q.shape[1] == n_gids && self->unigram_cost_t.shape[0] == n_gids &&
                    self->unigram_cost_t.shape[1] == n_langs && self->known.shape[0] == n_langs &&
                    self->known.shape[1] == n_gids && self->is_letter.shape[0] == n_gids &&
                    self->switch_script.shape[0] == n_gids;
    if (!shapes_ok || n_gids > 0x10000 || self->english < 0 || self->english >= n_langs ||
        self->separator_local < 0 || self->separator_local > 255 || self->non_bmp_standin < 0 ||
        self->non_bmp_standin > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "Tables: the model's arrays do not fit together");
        return -1;
    }
    /* every gid the lookup table gives must index the per-gid tables */
    const uint16_t *lut_data = self->lut.buf;
    for (Py_ssize_t c = 0; c < 0x10000; c++) {
        if (lut_data[c] >= n_gids) {
            PyErr_SetString(PyExc_ValueError, "Tables: lut names a gid beyond the model's tables");
            return -1;
        }
    }
    self->code_info = PyMem_Malloc(0x10000 * sizeof *self->code_info);
    self->gid_info = PyMem_Malloc((size_t)(n_gids ? n_gids : 1) * sizeof *self->gid_info);
    if (self->code_info == NULL || self->gid_info == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    const uint8_t *flags_data = self->cp_flags.buf, *letter_data = self->is_letter.buf;
    const int16_t *script_data = self->switch_script.buf;
    for (Py_ssize_t c = 0; c < 0x10000; c++) {
        self->code_info[c] = (uint32_t)lut_data[c] | (uint32_t)flags_data[c] << 16;
    }
    for (Py_ssize_t g = 0; g < n_gids; g++) {
        self->gid_info[g] = (uint32_t)letter_data[g] | (uint32_t)(uint16_t)script_data[g] << 16;
    }
    return 0;
}

/* Languages tried for one text: the cheapest ``tried`` the text may be read in (ties by language index,
 * languages it may not use after all the others, in index order, as a stable sort of the costs puts
 * them), then English as the last one when they lack it and may use it (``many``: some text of the call
 * is tried in more than one language, the reference's k > 1). ok[j]: top[j] may read the text. */
static void
choose_languages(const Tables *t, const int64_t *uni, const uint8_t *allowed, Py_ssize_t tried, int many,
                 Py_ssize_t *top, uint8_t *ok)
{
    Py_ssize_t n_langs = t->n_langs;
    uint8_t used[MAX_LANGUAGES];
    memset(used, 0, (size_t)n_langs);
    for (Py_ssize_t j = 0; j < tried; j++) {
        Py_ssize_t best = -1;
        for (Py_ssize_t l = 0; l < n_langs; l++) {
            if (used[l]) {
                continue;
            }
            if (best < 0) {
                best = l;
                continue;
            }
            int l_ok = allowed[l] != 0, b_ok = allowed[best] != 0;
            if ((l_ok && !b_ok) || (l_ok && b_ok && uni[l] < uni[best])) {
                best = l;
            }
        }
        used[best] = 1;
        top[j] = best;
    }
    if (many) {
        Py_ssize_t last = tried - 1;
        int has = 0;
        for (Py_ssize_t j = 0; j < last; j++) {
            has |= top[j] == t->english;
        }
        if (!has && allowed[t->english]) {
            top[last] = t->english;
        }
    }
    for (Py_ssize_t j = 0; j < tried; j++) {
        ok[j] = allowed[top[j]] != 0;
    }
}

/* What one pass over a text's characters gives (map_text): everything that does not depend on the
 * languages it is read in. */
typedef struct {
    Py_ssize_t n_touched, n_letters, n_pair, n_switch, n_mark;
    int32_t words;
} TextMap;

/* Characters -> gids (``gid``), occurrences per gid (``count``, the gids first met listed in ``touched``),
 * the start of each word (``word_start``, with the text's length after the last), the letters, and the
 * pair penalties' counts: case flips, script switches, marks between two letters. One loop per string kind
 * (MAP_TEXT below), so that reading a character is one load, not a switch on the kind; the tables and
 * counters are locals, so that they stay in registers. */
#define MAP_TEXT(NAME, CHAR_T)                                                                              \
    static void NAME(const Tables *t, const void *data, Py_ssize_t n, uint16_t *RESTRICT gid,             \
                     int32_t *RESTRICT count, uint16_t *RESTRICT touched, int32_t *RESTRICT word_start,    \
                     TextMap *m)                                                                          \
    {                                                                                                     \
        const CHAR_T *chars = (const CHAR_T *)data;                                                       \
        const uint32_t *RESTRICT code_info = t->code_info, *RESTRICT gid_info = t->gid_info;              \
        const unsigned upper = (unsigned)t->upper, lower = (unsigned)t->lower, mark = (unsigned)t->mark;  \
        const uint16_t separator = (uint16_t)t->separator_gid;                                            \
        const Py_UCS4 standin = (Py_UCS4)t->non_bmp_standin;                                              \
        Py_ssize_t n_touched = 0, n_letters = 0, n_pair = 0, n_switch = 0, n_mark = 0;                    \
        int32_t words = 0;                                                                                \
        /* the previous two characters' flags and switch scripts (a text starts after a separator) */    \
        unsigned flags_1 = 0;                                                                             \
        int sw_1 = -1, sw_2 = -1;                                                                         \
        uint16_t g_1 = separator;                                                                         \
        for (Py_ssize_t i = 0; i < n; i++) {                                                              \
            Py_UCS4 c = chars[i];                                                                         \
            if (c > 0xFFFF) {                                                                             \
                c = standin; /* a non-BMP character is scored as a rare symbol */                         \
            }                                                                                             \
            uint32_t code = code_info[c];                                                                 \
            uint16_t g = (uint16_t)code;                                                                  \
            unsigned flags = code >> 16;                                                                  \
            uint32_t about = gid_info[g];                                                                 \
            int sw = (int16_t)(uint16_t)(about >> 16);                                                    \
            gid[i] = g;                                                                                   \
            /* (every gid counted, letters picked below: no branch on letter / not letter per character) */ \
            n_letters += about & 0xFF;                                                                    \
            if (count[g]++ == 0) {                                                                        \
                touched[n_touched++] = g;                                                                 \
            }                                                                                             \
            /* a word starts the text, and after a separator wherever a non-separator follows one */      \
            if (i == 0 || (g_1 == separator && g != separator)) {                                         \
                word_start[words++] = (int32_t)i;                                                         \
            }                                                                                             \
            if (i > 0) { /* the pair (i - 1, i), and the triple centred on i - 1 */                       \
                n_pair += (flags & upper) && (flags_1 & lower);                                           \
                n_switch += sw_1 >= 0 && sw >= 0 && sw_1 != sw;                                           \
                n_mark += i > 1 && (flags_1 & mark) && sw_2 >= 0 && sw >= 0;                              \
            }                                                                                             \
            flags_1 = flags;                                                                              \
            sw_2 = sw_1;                                                                                  \
            sw_1 = sw;                                                                                    \
            g_1 = g;                                                                                      \
        }                                                                                                 \
        word_start[words] = (int32_t)n;                                                                   \
        m->n_touched = n_touched;                                                                         \
        m->n_letters = n_letters;                                                                         \
        m->n_pair = n_pair;                                                                               \
        m->n_switch = n_switch;                                                                           \
        m->n_mark = n_mark;                                                                               \
        m->words = words;                                                                                 \
    }
MAP_TEXT(map_text_1, Py_UCS1)
MAP_TEXT(map_text_2, Py_UCS2)
MAP_TEXT(map_text_4, Py_UCS4)
#undef MAP_TEXT

/* Bigram + refinement cost of ``gid`` (``n`` characters) in one language (its rows ``loc_l``, ``ext_l``,
 * ``bigram_l``), and of each word (``ws``, when not NULL: the text's ``words`` words, from ``word_start``). */
static int64_t
language_cost(const uint16_t *RESTRICT gid, Py_ssize_t n, const int32_t *RESTRICT word_start, int32_t words,
              const uint8_t *RESTRICT loc_l, const uint8_t *RESTRICT ext_l, const uint8_t *RESTRICT bigram_l,
              unsigned separator_local, int64_t *RESTRICT ws)
{
    int64_t total = 0;
    unsigned prev = separator_local; /* the text starts after a separator */
    if (ws == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned here = loc_l[gid[i]];
            total += (int64_t)bigram_l[(prev << 8) | here] + ext_l[gid[i]];
            prev = here;
        }
        return total;
    }
    for (int32_t w = 0; w < words; w++) {
        int64_t word = 0;
        for (Py_ssize_t i = word_start[w]; i < word_start[w + 1]; i++) {
            unsigned here = loc_l[gid[i]];
            word += (int64_t)bigram_l[(prev << 8) | here] + ext_l[gid[i]];
            prev = here;
        }
        ws[w] = word;
        total += word;
    }
    (void)n;
    return total;
}

/* Score one text into ``r``; -1 when memory for its word costs cannot be had (no Python error is set: the
 * GIL is not held). */
static int
score_text(const Tables *t, const TextIn *in, int many, int64_t mix_word_cost, Scratch *s, TextResult *r)
{
    const uint8_t *is_letter = t->is_letter.buf;
    const uint16_t *unigram_cost_t = t->unigram_cost_t.buf;
    const uint8_t *loc = t->loc.buf, *bigram_q = t->bigram_q.buf, *ext_q = t->ext_q.buf, *known = t->known.buf;
    Py_ssize_t n = in->length, n_langs = t->n_langs, n_gids = t->n_gids;
    uint16_t *gid = s->gid;

    TextMap m;
    if (in->kind == PyUnicode_1BYTE_KIND) {
        map_text_1(t, in->data, n, gid, s->count, s->touched, s->word, &m);
    }
    else if (in->kind == PyUnicode_2BYTE_KIND) {
        map_text_2(t, in->data, n, gid, s->count, s->touched, s->word, &m);
    }
    else {
        map_text_4(t, in->data, n, gid, s->count, s->touched, s->word, &m);
    }
    int32_t words = m.words;

    /* 1. unigram cost of the letters in every language (the reference's per-(text, gid) histogram) */
    int64_t *uni = s->uni;
    memset(uni, 0, (size_t)n_langs * sizeof *uni);
    for (Py_ssize_t k = 0; k < m.n_touched; k++) {
        uint16_t g = s->touched[k];
        if (!is_letter[g]) {
            continue;
        }
        uint32_t w = (uint32_t)s->count[g]; /* (>= 0: a count of characters) */
        const uint16_t *row = unigram_cost_t + (Py_ssize_t)g * n_langs;
        for (Py_ssize_t l = 0; l < n_langs; l++) { /* (a 32 x 32 -> 64-bit product: the compiler's vector one) */
            uni[l] += (int64_t)((uint64_t)w * (uint32_t)row[l]);
        }
    }
    Py_ssize_t *top = s->top;
    uint8_t *ok = s->ok;
    Py_ssize_t tried = in->tried;
    choose_languages(t, uni, in->allowed, tried, many, top, ok);

    /* 2. bigram + refinement cost in each language tried, per text and per word (the word costs only
     * when languages are mixed: more than one tried) */
    size_t needed = (size_t)(tried + 1) * (size_t)words; /* (one more row: the cheapest of each word) */
    if (tried > 1 && needed > s->word_cost_size) {
        int64_t *grown = PyMem_RawRealloc(s->word_cost, needed * sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        s->word_cost = grown;
        s->word_cost_size = needed;
    }
    int64_t *sums = s->sums;
    for (Py_ssize_t j = 0; j < tried; j++) {
        sums[j] = COST_NONE;
        if (!ok[j]) {
            continue;
        }
        Py_ssize_t lang = top[j];
        sums[j] = language_cost(gid, n, s->word, words, loc + lang * n_gids, ext_q + lang * n_gids,
                                bigram_q + (lang << 16), (unsigned)t->separator_local,
                                tried > 1 ? s->word_cost + j * words : NULL);
    }
    /* the text's language: the one it reads best in alone (the first of equals; the first tried when no
     * language may read it) */
    Py_ssize_t best_j = 0;
    for (Py_ssize_t j = 1; j < tried; j++) {
        if (sums[j] < sums[best_j]) {
            best_j = j;
        }
    }
    r->lang = top[best_j];
    /* its cost: the better mix of two, with that language as the main one or with English: per word the
     * main language, or the cheapest language tried plus mix_word_cost, whichever is lower
     * (_mixed_costs) */
    r->cost = sums[best_j];
    if (tried > 1) {
        int64_t *other = s->word_cost + tried * words; /* [words]: the cheapest reading of each, mixed in */
        for (int32_t w = 0; w < words; w++) {
            int64_t best = COST_NONE;
            for (Py_ssize_t j = 0; j < tried; j++) {
                if (ok[j] && s->word_cost[j * words + w] < best) {
                    best = s->word_cost[j * words + w];
                }
            }
            other[w] = best == COST_NONE ? COST_NONE : best + mix_word_cost;
        }
        for (Py_ssize_t j = 0; j < tried; j++) {
            if (!ok[j] || (j != best_j && top[j] != t->english)) {
                continue;
            }
            const int64_t *ws = s->word_cost + j * words;
            int64_t mixed = 0;
            for (int32_t w = 0; w < words; w++) {
                mixed += ws[w] < other[w] ? ws[w] : other[w];
            }
            if (mixed < r->cost) {
                r->cost = mixed;
            }
        }
    }

    /* the letters among the best language's frequent characters, per distinct gid (the counts are then
     * zeroed for the next text) */
    Py_ssize_t n_known = 0;
    const uint8_t *known_l = known + r->lang * n_gids;
    for (Py_ssize_t k = 0; k < m.n_touched; k++) {
        uint16_t g = s->touched[k];
        n_known += (is_letter[g] && known_l[g]) ? s->count[g] : 0;
        s->count[g] = 0;
    }
    r->n_pair = m.n_pair;
    r->n_switch = m.n_switch;
    r->n_mark = m.n_mark;
    r->n_letters = m.n_letters;
    r->n_known = n_known;
    return 0;
}

PyDoc_STRVAR(tables_score_doc,
             "score(texts, allowed, tried, mix_word_cost) -> list of (language, cost, case flips, script "
             "switches, in-word marks, letters, known letters)\n\n"
             "The compiled Scorer._counts_reference: ``texts`` non-empty str, ``allowed`` uint8 [texts, "
             "languages] or a list of one int bit set of languages per text, ``tried`` the number of languages each is scored in. cost is a float (+inf when no "
             "language may read the text) holding a whole number of quanta.");

/* The sign of an int (-1, 0, 1). */
static int
long_sign(PyObject *v)
{
#if PY_VERSION_HEX >= 0x030E0000
    int sign = 0;
    return PyLong_GetSign(v, &sign) < 0 ? -1 : sign;
#else
    return _PyLong_Sign(v);
#endif
}

/* ``bits``: one non-negative int per text, bit l set when language l may read it (Scorer._language_bits)
 * -> [texts, languages] bytes, 0 or 1 (what Scorer._allowed_rows unpacks them to). */
static int
unpack_language_bits(PyObject *bits, Py_ssize_t n_texts, Py_ssize_t n_langs, uint8_t **out)
{
    if (PyList_GET_SIZE(bits) != n_texts) {
        PyErr_SetString(PyExc_ValueError, "score: one set of languages per text");
        return -1;
    }
    uint8_t *rows = PyMem_Malloc((size_t)(n_texts * n_langs > 0 ? n_texts * n_langs : 1));
    if (rows == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n_texts; i++) {
        PyObject *v = PyList_GET_ITEM(bits, i);
        if (!PyLong_Check(v) || long_sign(v) < 0) {
            PyMem_Free(rows);
            PyErr_SetString(PyExc_ValueError, "score: languages must be non-negative int bit sets");
            return -1;
        }
        Py_INCREF(v);
        for (Py_ssize_t l0 = 0; l0 < n_langs; l0 += 64) { /* 64 languages at a time, lowest first */
            unsigned long long chunk = PyLong_AsUnsignedLongLongMask(v);
            for (Py_ssize_t l = l0; l < n_langs && l < l0 + 64; l++) {
                rows[i * n_langs + l] = (uint8_t)((chunk >> (l - l0)) & 1);
            }
            if (l0 + 64 < n_langs) {
                PyObject *shift = PyLong_FromLong(64), *rest = shift ? PyNumber_Rshift(v, shift) : NULL;
                Py_XDECREF(shift);
                Py_DECREF(v);
                if (rest == NULL) {
                    PyMem_Free(rows);
                    return -1;
                }
                v = rest;
            }
        }
        Py_DECREF(v);
    }
    *out = rows;
    return 0;
}

static PyObject *
tables_score(Tables *self, PyObject *args)
{
    PyObject *texts, *allowed_obj, *tried_obj;
    long long mix_word_cost;
    if (!PyArg_ParseTuple(args, "O!OOL", &PyList_Type, &texts, &allowed_obj, &tried_obj, &mix_word_cost)) {
        return NULL;
    }
    Py_ssize_t n_texts = PyList_GET_SIZE(texts), n_langs = self->n_langs;
    if (n_langs > MAX_LANGUAGES) {
        PyErr_SetString(PyExc_ValueError, "score: more languages than the kernel supports");
        return NULL;
    }
    Py_buffer allowed = {0};
    uint8_t *allowed_bits = NULL; /* [texts, languages] unpacked from a list of bit sets */
    if (PyList_Check(allowed_obj)) {
        if (unpack_language_bits(allowed_obj, n_texts, n_langs, &allowed_bits) < 0) {
            return NULL;
        }
    } else if (PyObject_GetBuffer(allowed_obj, &allowed, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) {
        return NULL;
    }
    const uint8_t *allowed_rows = allowed_bits != NULL ? allowed_bits : allowed.buf;
    PyObject *tried_seq = NULL, *out = NULL;
    TextIn *in = NULL;
    TextResult *res = NULL;
    Scratch s = {0};
    Py_ssize_t n_held = 0; /* texts with a reference taken */
    int failed = 0;        /* a text's scoring failed: s.count may hold non-zero counts */
    if (allowed_bits == NULL && (allowed.ndim != 2 || allowed.itemsize != 1 || allowed.shape[0] != n_texts ||
                                 allowed.shape[1] != n_langs)) {
        PyErr_SetString(PyExc_ValueError, "score: allowed must be [texts, languages] of bytes");
        goto done;
    }
    tried_seq = PySequence_Fast(tried_obj, "score: tried must be a sequence of int");
    if (tried_seq == NULL) {
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(tried_seq) != n_texts) {
        PyErr_SetString(PyExc_ValueError, "score: one number of languages per text");
        goto done;
    }
    in = PyMem_Malloc((size_t)(n_texts ? n_texts : 1) * sizeof *in);
    res = PyMem_Malloc((size_t)(n_texts ? n_texts : 1) * sizeof *res);
    if (in == NULL || res == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t longest = 1;
    int many = 0;
    for (Py_ssize_t i = 0; i < n_texts; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(tried_seq, i));
        if (k == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (!PyUnicode_Check(text) || PyUnicode_GET_LENGTH(text) == 0 || k < 1 || k > n_langs) {
            PyErr_SetString(PyExc_ValueError, "score: texts must be non-empty str, tried in 1..languages");
            goto done;
        }
        Py_INCREF(text);
        in[i].text = text;
        n_held = i + 1;
        in[i].kind = PyUnicode_KIND(text);
        in[i].data = PyUnicode_DATA(text);
        in[i].length = PyUnicode_GET_LENGTH(text);
        in[i].allowed = allowed_rows + i * n_langs;
        in[i].tried = k;
        longest = in[i].length > longest ? in[i].length : longest;
        many |= k > 1;
    }
    s.gid = PyMem_RawMalloc((size_t)longest * sizeof *s.gid);
    s.word = PyMem_RawMalloc((size_t)(longest + 1) * sizeof *s.word);
    s.count = self->spare_count; /* (zero: every call leaves the counts it used at zero) */
    self->spare_count = NULL;
    if (s.count == NULL) {
        s.count = PyMem_RawCalloc((size_t)self->n_gids, sizeof *s.count);
    }
    s.touched = PyMem_RawMalloc((size_t)self->n_gids * sizeof *s.touched);
    s.uni = PyMem_RawMalloc((size_t)n_langs * sizeof *s.uni);
    s.top = PyMem_RawMalloc((size_t)n_langs * sizeof *s.top);
    s.ok = PyMem_RawMalloc((size_t)n_langs);
    s.sums = PyMem_RawMalloc((size_t)n_langs * sizeof *s.sums);
    if (!s.gid || !s.word || !s.count || !s.touched || !s.uni || !s.top || !s.ok ||
        !s.sums) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t chars = 0;
    for (Py_ssize_t i = 0; i < n_texts; i++) {
        chars += in[i].length;
    }
    PyThreadState *released = chars >= GIL_FREE_CHARS ? PyEval_SaveThread() : NULL;
    for (Py_ssize_t i = 0; i < n_texts && !failed; i++) {
        failed = score_text(self, &in[i], many, (int64_t)mix_word_cost, &s, &res[i]) < 0;
    }
    if (released != NULL) {
        PyEval_RestoreThread(released);
    }
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(n_texts);
    if (out == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_texts; i++) {
        const TextResult *r = &res[i];
        double cost = r->cost == COST_NONE ? Py_HUGE_VAL : (double)r->cost;
        PyObject *row = Py_BuildValue("(ndnnnnn)", r->lang, cost, r->n_pair, r->n_switch, r->n_mark,
                                      r->n_letters, r->n_known);
        if (row == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, row);
    }
done:
    PyMem_RawFree(s.gid);
    PyMem_RawFree(s.word);
    PyMem_RawFree(s.word_cost);
    if (s.count != NULL && self->spare_count == NULL && !failed) {
        self->spare_count = s.count; /* (given back with the GIL held, as it was taken) */
    } else {
        PyMem_RawFree(s.count);
    }
    PyMem_RawFree(s.touched);
    PyMem_RawFree(s.uni);
    PyMem_RawFree(s.top);
    PyMem_RawFree(s.ok);
    PyMem_RawFree(s.sums);
    for (Py_ssize_t i = 0; i < n_held; i++) {
        Py_DECREF(in[i].text);
    }
    PyMem_Free(in);
    PyMem_Free(res);
    Py_XDECREF(tried_seq);
    if (allowed_bits != NULL) {
        PyMem_Free(allowed_bits);
    } else {
        PyBuffer_Release(&allowed);
    }
    return out;
}

static PyMethodDef tables_methods[] = {
    {"score", (PyCFunction)tables_score, METH_VARARGS, tables_score_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(tables_doc, "Tables(*, lut, loc, bigram_q, ext_q, unigram_cost_t, known, is_letter, switch_script, "
                         "cp_flags, english, separator_gid, separator_local, non_bmp_standin, upper, lower, "
                         "mark)\n\nThe detector model's arrays (kept as buffers) and constants, for score().");

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mojifix.detect._scoring.Tables",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = tables_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tables_init,
    .tp_dealloc = (destructor)tables_dealloc,
    .tp_methods = tables_methods,
};

/* ---- CodePages: the single-byte code pages' tables, for the shortlist and the upper bounds ----------
 *
 * The compiled twins of pipeline._shortlisted_reference (with Scorer.histogram_scores) and of
 * Scorer.upper_bounds' weighted sum. The shortlist's unigram scores are float32 sums, as the NumPy
 * reference computes them: products rounded to float32, added one byte value after another in byte order
 * (what NumPy's einsum and its reduction over the non-contiguous axis do), so the floats are the same
 * bits; setup.py compiles without fused multiply-add. The bounds are exact int64 sums. */

typedef struct {
    PyObject_HEAD
    Py_buffer high_logp;      /* float32 [128, pairs]: log P of each page's high-half character, by byte */
    Py_buffer ascii_logp;     /* float32 [128, languages]: log P of each ASCII character */
    Py_buffer pair_lang;      /* int32 [pairs]: the language of each (page, language) pair */
    Py_buffer pair_start;     /* int32 [pages]: each page's first pair (pairs sorted by page) */
    Py_buffer primary_script; /* int32 [languages] */
    Py_buffer gids;           /* uint16 [pages, 256]: each page's reading of each byte, as gids */
    Py_buffer bound_cost;     /* int64 [256, bound pages]: Scorer.bound_cost */
    Py_buffer code_points;    /* uint32 [pages, 256]: each page's decoding table (U+FFFE: undefined) */
    Py_ssize_t n_pairs, n_pages, n_langs, n_bound_pages;
} CodePages;

static void
pages_release(CodePages *self)
{
    Py_buffer *all[] = {&self->high_logp, &self->ascii_logp, &self->pair_lang, &self->pair_start,
                        &self->primary_script, &self->gids, &self->bound_cost, &self->code_points};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i]->obj != NULL) {
            PyBuffer_Release(all[i]);
        }
    }
}

static void
pages_dealloc(CodePages *self)
{
    pages_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
pages_init(CodePages *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"high_logp", "ascii_logp", "pair_lang", "pair_start", "primary_script", "gids",
                            "bound_cost", "code_points", NULL};
    PyObject *high_logp, *ascii_logp, *pair_lang, *pair_start, *primary_script, *gids, *bound_cost, *code_points;
    pages_release(self);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOOOOOOO", names, &high_logp, &ascii_logp, &pair_lang,
                                     &pair_start, &primary_script, &gids, &bound_cost, &code_points)) {
        return -1;
    }
    if (take_buffer(high_logp, &self->high_logp, "high_logp", 2, 4) < 0 ||
        take_buffer(ascii_logp, &self->ascii_logp, "ascii_logp", 2, 4) < 0 ||
        take_buffer(pair_lang, &self->pair_lang, "pair_lang", 1, 4) < 0 ||
        take_buffer(pair_start, &self->pair_start, "pair_start", 1, 4) < 0 ||
        take_buffer(primary_script, &self->primary_script, "primary_script", 1, 4) < 0 ||
        take_buffer(gids, &self->gids, "gids", 2, 2) < 0 ||
        take_buffer(bound_cost, &self->bound_cost, "bound_cost", 2, 8) < 0 ||
        take_buffer(code_points, &self->code_points, "code_points", 2, 4) < 0) {
        return -1;
    }
    self->n_pairs = self->high_logp.shape[1];
    self->n_langs = self->ascii_logp.shape[1];
    self->n_pages = self->gids.shape[0];
    self->n_bound_pages = self->bound_cost.shape[1];
    int shapes_ok = self->high_logp.shape[0] == 128 && self->ascii_logp.shape[0] == 128 &&
                    self->pair_lang.shape[0] == self->n_pairs && self->pair_start.shape[0] == self->n_pages &&
                    self->primary_script.shape[0] == self->n_langs && self->gids.shape[1] == 256 &&
                    self->bound_cost.shape[0] == 256 && self->n_pages > 0 && self->n_langs <= MAX_LANGUAGES &&
                    self->code_points.shape[0] == self->n_pages && self->code_points.shape[1] == 256;
    if (shapes_ok) {
        /* pairs sorted by page, every page with at least one, every language in range */
        const int32_t *start = self->pair_start.buf, *lang = self->pair_lang.buf;
        shapes_ok = start[0] == 0;
        for (Py_ssize_t e = 0; e < self->n_pages && shapes_ok; e++) {
            int32_t end = e + 1 < self->n_pages ? start[e + 1] : (int32_t)self->n_pairs;
            shapes_ok = start[e] < end && end <= self->n_pairs;
        }
        for (Py_ssize_t p = 0; p < self->n_pairs && shapes_ok; p++) {
            shapes_ok = lang[p] >= 0 && lang[p] < self->n_langs;
        }
        const uint32_t *cps = self->code_points.buf;
        for (Py_ssize_t q = 0; q < self->n_pages * 256 && shapes_ok; q++) {
            shapes_ok = cps[q] <= 0x10FFFF;
        }
    }
    if (!shapes_ok) {
        PyErr_SetString(PyExc_ValueError, "CodePages: the tables do not fit together");
        return -1;
    }
    return 0;
}

/* Whether a buffer view is 256 items of 8 bytes in one of the struct formats ``formats`` ("lq": int64). */
static int
is_histogram(const Py_buffer *view, const char *formats)
{
    return view->ndim == 1 && view->shape[0] == 256 && view->itemsize == 8 && view->format != NULL &&
           strchr(formats, view->format[0]) != NULL && view->format[1] == '\0';
}

/* A byte histogram of 256 int64 counts copied into ``counts``; -1 (a ValueError naming ``who``) else. */
static int
read_counts(PyObject *obj, int64_t *counts, const char *who)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return -1;
    }
    int ok = is_histogram(&view, "lq");
    if (ok) {
        memcpy(counts, view.buf, 256 * sizeof *counts);
    }
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: expected a histogram of 256 int64 counts", who);
        return -1;
    }
    return 0;
}

/* The byte histogram as doubles (int64 counts, or float64 counts scaled by the caller). */
static int
read_histogram(PyObject *obj, double *hist)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return -1;
    }
    int ok = is_histogram(&view, "dlq");
    if (ok) {
        for (int b = 0; b < 256; b++) {
            hist[b] = view.format[0] == 'd' ? ((const double *)view.buf)[b]
                                            : (double)((const int64_t *)view.buf)[b];
        }
    }
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "histogram: expected 256 int64 or float64 counts");
        return -1;
    }
    return 0;
}

/* Rows (page indices) as a freshly allocated array; -1 on error (a Python error set). */
static Py_ssize_t
read_rows(PyObject *obj, Py_ssize_t limit, Py_ssize_t **rows)
{
    if (PyObject_CheckBuffer(obj)) { /* an array of intp (Scorer.code_page_rows) */
        Py_buffer view;
        if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            return -1;
        }
        Py_ssize_t n = view.ndim == 1 ? view.shape[0] : -1;
        int ok = n >= 0 && view.itemsize == (Py_ssize_t)sizeof(Py_ssize_t) && view.format != NULL &&
                 strchr("lqn", view.format[0]) != NULL && view.format[1] == '\0';
        *rows = ok ? PyMem_Malloc((size_t)(n ? n : 1) * sizeof **rows) : NULL;
        if (ok && *rows != NULL) {
            memcpy(*rows, view.buf, (size_t)n * sizeof **rows);
            for (Py_ssize_t i = 0; i < n && ok; i++) {
                ok = (*rows)[i] >= 0 && (*rows)[i] < limit;
            }
        }
        PyBuffer_Release(&view);
        if (!ok || *rows == NULL) {
            PyMem_Free(*rows);
            *rows = NULL;
            if (ok) {
                PyErr_NoMemory();
            } else {
                PyErr_SetString(PyExc_ValueError, "rows: expected page indices (intp) in range");
            }
            return -1;
        }
        return n;
    }
    PyObject *seq = PySequence_Fast(obj, "rows must be a sequence of int");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    *rows = PyMem_Malloc((size_t)(n ? n : 1) * sizeof **rows);
    if (*rows == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t r = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i));
        if (r < 0 || r >= limit) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "rows: a page index out of range");
            }
            Py_DECREF(seq);
            PyMem_Free(*rows);
            *rows = NULL;
            return -1;
        }
        (*rows)[i] = r;
    }
    Py_DECREF(seq);
    return n;
}

typedef struct {
    float score;
    int32_t script;
    Py_ssize_t index;
} Ranked;

/* Script first, then the better score, then the page's place in the list (np.lexsort((-scores,
 * scripts)), a stable sort). */
static int
ranked_order(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->script != y->script) {
        return x->script < y->script ? -1 : 1;
    }
    if (x->score != y->score) {
        return x->score > y->score ? -1 : 1;
    }
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* The shortlist of n pages (rows into the tables): keep[i] set for those within ``margin`` of their
 * script's best unigram score, or among its first ``minimum`` distinct readings of the byte values
 * present. Touches no Python object; -1 when memory cannot be had. */
static int
shortlist_pages(const CodePages *t, const double *hist, const Py_ssize_t *rows, Py_ssize_t n, float margin,
                Py_ssize_t minimum, uint8_t *keep)
{
    const float *high_logp = t->high_logp.buf, *ascii_logp = t->ascii_logp.buf;
    const int32_t *pair_lang = t->pair_lang.buf, *pair_start = t->pair_start.buf;
    const int32_t *primary_script = t->primary_script.buf;
    const uint16_t *gids = t->gids.buf;
    Py_ssize_t n_pairs = t->n_pairs, n_langs = t->n_langs, n_pages = t->n_pages;
    float *ascii = PyMem_RawMalloc((size_t)n_langs * sizeof *ascii);
    float *per_pair = PyMem_RawMalloc((size_t)n_pairs * sizeof *per_pair);
    Ranked *ranked = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof *ranked);
    Py_ssize_t *seen = PyMem_RawMalloc((size_t)(minimum > 0 ? minimum : 1) * sizeof *seen);
    if (!ascii || !per_pair || !ranked || !seen) {
        PyMem_RawFree(ascii);
        PyMem_RawFree(per_pair);
        PyMem_RawFree(ranked);
        PyMem_RawFree(seen);
        return -1;
    }
    /* ASCII reads alike in every page: one vector over languages (products, then sums, in float32) */
    int first = 1;
    for (int b = 0; b < 128; b++) {
        if (hist[b] == 0) {
            continue;
        }
        float w = (float)hist[b];
        const float *row = ascii_logp + (Py_ssize_t)b * n_langs;
        for (Py_ssize_t l = 0; l < n_langs; l++) {
            float product = row[l] * w;
            ascii[l] = first ? product : ascii[l] + product;
        }
        first = 0;
    }
    if (first) {
        memset(ascii, 0, (size_t)n_langs * sizeof *ascii);
    }
    /* the high half, per (page, language) pair, then the ASCII part of the pair's language */
    uint8_t present[128];
    int n_present = 0;
    first = 1;
    for (int b = 128; b < 256; b++) {
        if (hist[b] == 0) {
            continue;
        }
        present[n_present++] = (uint8_t)b;
        float w = (float)hist[b];
        const float *row = high_logp + (Py_ssize_t)(b - 128) * n_pairs;
        for (Py_ssize_t p = 0; p < n_pairs; p++) {
            float product = w * row[p];
            per_pair[p] = first ? product : per_pair[p] + product;
        }
        first = 0;
    }
    for (Py_ssize_t p = 0; p < n_pairs; p++) {
        per_pair[p] = (first ? 0.0f : per_pair[p]) + ascii[pair_lang[p]];
    }
    /* each page's best pair (the first of equals, in language order) */
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t e = rows[i];
        Py_ssize_t lo = pair_start[e], hi = e + 1 < n_pages ? pair_start[e + 1] : n_pairs, best = lo;
        for (Py_ssize_t p = lo + 1; p < hi; p++) {
            if (per_pair[p] > per_pair[best]) {
                best = p;
            }
        }
        ranked[i].score = per_pair[best];
        ranked[i].script = primary_script[pair_lang[best]];
        ranked[i].index = i;
        keep[i] = 0;
    }
    qsort(ranked, (size_t)n, sizeof *ranked, ranked_order);
    int32_t script = -1;
    float floor = 0.0f;
    Py_ssize_t n_seen = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        const Ranked *r = &ranked[k];
        if (k == 0 || r->script != script) { /* the first of a script is its best */
            script = r->script;
            floor = r->score - margin;
            n_seen = 0;
        }
        const uint16_t *mine = gids + rows[r->index] * 256;
        int new_reading = 1;
        for (Py_ssize_t j = 0; j < n_seen && new_reading; j++) {
            const uint16_t *other = gids + rows[seen[j]] * 256;
            int same = 1;
            for (int q = 0; q < n_present && same; q++) {
                same = mine[present[q]] == other[present[q]];
            }
            new_reading = !same;
        }
        if (r->score >= floor || (new_reading && n_seen < minimum)) {
            keep[r->index] = 1;
        }
        if (new_reading && n_seen < minimum) { /* (beyond minimum distinct readings none counts) */
            seen[n_seen++] = r->index;
        }
    }
    PyMem_RawFree(ascii);
    PyMem_RawFree(per_pair);
    PyMem_RawFree(ranked);
    PyMem_RawFree(seen);
    return 0;
}

PyDoc_STRVAR(pages_shortlist_doc,
             "shortlist(hist, rows, margin, minimum) -> bytes\n\n"
             "The compiled pipeline._shortlisted_reference: one byte per page of ``rows`` (indices into the "
             "single-byte tables), 1 for the pages shortlisted for full scoring. ``hist``: 256 int64 or "
             "float64 counts.");

static PyObject *
pages_shortlist(CodePages *self, PyObject *args)
{
    PyObject *hist_obj, *rows_obj;
    float margin;
    Py_ssize_t minimum;
    if (!PyArg_ParseTuple(args, "OOfn", &hist_obj, &rows_obj, &margin, &minimum)) {
        return NULL;
    }
    double hist[256];
    if (read_histogram(hist_obj, hist) < 0) {
        return NULL;
    }
    Py_ssize_t *rows;
    Py_ssize_t n = read_rows(rows_obj, self->n_pages, &rows);
    if (n < 0) {
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL) {
        PyMem_Free(rows);
        return NULL;
    }
    int failed;
    uint8_t *keep = (uint8_t *)PyBytes_AS_STRING(out);
    failed = shortlist_pages(self, hist, rows, n, margin, minimum, keep) < 0; /* (short: the GIL kept) */
    PyMem_Free(rows);
    if (failed) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

PyDoc_STRVAR(pages_bound_costs_doc,
             "bound_costs(hist, rows) -> list of int\n\n"
             "The compiled twin of Scorer.upper_bounds' sum: for each page of ``rows`` (columns of "
             "bound_cost), the sum over byte values of hist[b] * bound_cost[b, page]. ``hist``: 256 int64.");

static PyObject *
pages_bound_costs(CodePages *self, PyObject *args)
{
    PyObject *hist_obj, *rows_obj;
    if (!PyArg_ParseTuple(args, "OO", &hist_obj, &rows_obj)) {
        return NULL;
    }
    int64_t hist[256];
    if (read_counts(hist_obj, hist, "bound_costs") < 0) {
        return NULL;
    }
    Py_ssize_t *rows;
    Py_ssize_t n = read_rows(rows_obj, self->n_bound_pages, &rows);
    if (n < 0) {
        return NULL;
    }
    int64_t *costs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *costs);
    if (costs == NULL) {
        PyMem_Free(rows);
        return PyErr_NoMemory();
    }
    const int64_t *bound_cost = self->bound_cost.buf;
    Py_ssize_t width = self->n_bound_pages;
    for (Py_ssize_t i = 0; i < n; i++) {
        costs[i] = 0;
    }
    for (int b = 0; b < 256; b++) {
        if (hist[b] == 0) {
            continue;
        }
        const int64_t *row = bound_cost + (Py_ssize_t)b * width;
        for (Py_ssize_t i = 0; i < n; i++) {
            costs[i] += hist[b] * row[rows[i]];
        }
    }
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *v = PyLong_FromLongLong(costs[i]);
        if (v == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, v);
    }
    PyMem_Free(rows);
    PyMem_Free(costs);
    return out;
}

PyDoc_STRVAR(pages_decode_doc,
             "decode(data, rows) -> list of str\n\n"
             "``data`` read in each page of ``rows``: what codecs.charmap_decode(data, 'replace', table) "
             "gives for each page's table (an undefined byte, U+FFFE in the table, reads as U+FFFD).");

static PyObject *
pages_decode(CodePages *self, PyObject *args)
{
    Py_buffer data;
    PyObject *rows_obj;
    if (!PyArg_ParseTuple(args, "y*O", &data, &rows_obj)) {
        return NULL;
    }
    Py_ssize_t *rows;
    Py_ssize_t n = read_rows(rows_obj, self->n_pages, &rows);
    if (n < 0) {
        PyBuffer_Release(&data);
        return NULL;
    }
    const uint8_t *bytes = data.buf;
    Py_ssize_t length = data.len;
    uint8_t present[256] = {0};
    for (Py_ssize_t i = 0; i < length; i++) {
        present[bytes[i]] = 1;
    }
    int values[256], n_values = 0; /* the byte values present: only their readings are read below */
    for (int b = 0; b < 256; b++) {
        if (present[b]) {
            values[n_values++] = b;
        }
    }
    PyObject *out = PyList_New(n);
    for (Py_ssize_t j = 0; out != NULL && j < n; j++) {
        const uint32_t *table = (const uint32_t *)self->code_points.buf + rows[j] * 256;
        Py_UCS4 reading[256], maxchar = 0;
        for (int k = 0; k < n_values; k++) {
            int b = values[k];
            reading[b] = table[b] == 0xFFFE ? 0xFFFD : table[b]; /* (charmap's "replace") */
            if (reading[b] > maxchar) {
                maxchar = reading[b];
            }
        }
        PyObject *text = PyUnicode_New(length, maxchar);
        if (text == NULL) {
            Py_CLEAR(out);
            break;
        }
        int kind = PyUnicode_KIND(text);
        void *w = PyUnicode_DATA(text);
        if (kind == PyUnicode_1BYTE_KIND) {
            Py_UCS1 *o = w;
            for (Py_ssize_t i = 0; i < length; i++) {
                o[i] = (Py_UCS1)reading[bytes[i]];
            }
        } else if (kind == PyUnicode_2BYTE_KIND) {
            Py_UCS2 *o = w;
            for (Py_ssize_t i = 0; i < length; i++) {
                o[i] = (Py_UCS2)reading[bytes[i]];
            }
        } else {
            Py_UCS4 *o = w;
            for (Py_ssize_t i = 0; i < length; i++) {
                o[i] = reading[bytes[i]];
            }
        }
        PyList_SET_ITEM(out, j, text);
    }
    PyMem_Free(rows);
    PyBuffer_Release(&data);
    return out;
}

static PyMethodDef pages_methods[] = {
    {"decode", (PyCFunction)pages_decode, METH_VARARGS, pages_decode_doc},
    {"shortlist", (PyCFunction)pages_shortlist, METH_VARARGS, pages_shortlist_doc},
    {"bound_costs", (PyCFunction)pages_bound_costs, METH_VARARGS, pages_bound_costs_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(pages_doc, "CodePages(*, high_logp, ascii_logp, pair_lang, pair_start, primary_script, gids, "
                        "bound_cost, code_points)\n\nThe single-byte code pages' tables (kept as buffers), for "
                        "shortlist(), bound_costs() and decode().");

static PyTypeObject CodePagesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mojifix.detect._scoring.CodePages",
    .tp_basicsize = sizeof(CodePages),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = pages_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)pages_init,
    .tp_dealloc = (destructor)pages_dealloc,
    .tp_methods = pages_methods,
};

/* ---- segments: the sample cut down to the bytes around its non-ASCII bytes --------------------------
 *
 * The compiled twin of pipeline._segments_reference (see its docstring for what is cut and why): the same
 * spans, by the same integer steps (piece ends are kept as computed, past the end of a run, as the
 * reference's slices are, and clipped only when bytes are copied). */

typedef struct {
    const uint8_t *data;
    Py_ssize_t length;
    Py_ssize_t n_pieces;
    Py_ssize_t *starts, *ends; /* the pieces: starts clipped at 0, ends not clipped */
} Run;

typedef struct {
    Py_ssize_t run, a, b;
} Span;

typedef struct {
    Py_ssize_t k, i; /* (index among the runs with pieces, piece index) */
    Span span;
} Extra;

/* Just after the first byte below 0x30 in [at, limit) of the run (limit when there is none). */
static Py_ssize_t
safe_cut_after(const Run *run, Py_ssize_t at, Py_ssize_t limit)
{
    Py_ssize_t end = limit < run->length ? limit : run->length;
    for (Py_ssize_t i = at < 0 ? 0 : at; i < end; i++) {
        if (run->data[i] < 0x30) {
            return i + 1;
        }
    }
    return limit;
}

/* The last byte below 0x30 at or before ``at``, no further back than long_piece bytes nor below
 * ``floor`` (floor itself when the search reaches it); -1 when there is none in reach. */
static Py_ssize_t
safe_cut_before(const Run *run, Py_ssize_t at, Py_ssize_t floor, Py_ssize_t long_piece)
{
    Py_ssize_t lo = at - long_piece > floor ? at - long_piece : floor;
    Py_ssize_t i = at < run->length - 1 ? at : run->length - 1;
    while (i >= lo && run->data[i] >= 0x30) {
        i--;
    }
    if (i >= lo) {
        return i;
    }
    return lo == floor ? floor : -1;
}

static int
extra_order(const void *x, const void *y)
{
    const Extra *a = x, *b = y;
    if (a->k != b->k) {
        return a->k < b->k ? -1 : 1;
    }
    return a->i < b->i ? -1 : (a->i > b->i);
}

/* The spans of the cut sample into spans (room for every piece of every run plus 128); -1: no memory. */
static Py_ssize_t
cut_sample(Run *runs, Py_ssize_t n_runs, const int64_t *sample_hist, Py_ssize_t ctx, Py_ssize_t score_bytes,
           Py_ssize_t long_piece, Span *spans)
{
    /* pieces per run: non-ASCII positions more than 2 * ctx apart start a new piece */
    Py_ssize_t *with_pieces = PyMem_RawMalloc((size_t)(n_runs ? n_runs : 1) * sizeof *with_pieces);
    if (with_pieces == NULL) {
        return -1;
    }
    Py_ssize_t n_with = 0;
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        Run *run = &runs[r];
        Py_ssize_t last = -1;
        run->n_pieces = 0;
        for (Py_ssize_t i = 0; i < run->length; i++) {
            if (run->data[i] < 0x80) {
                continue;
            }
            if (last < 0 || i - last > 2 * ctx) {
                if (last >= 0) {
                    run->ends[run->n_pieces - 1] = last + ctx + 1;
                }
                run->starts[run->n_pieces++] = i - ctx > 0 ? i - ctx : 0;
            }
            last = i;
        }
        if (last >= 0) {
            run->ends[run->n_pieces - 1] = last + ctx + 1;
            with_pieces[n_with++] = r;
        }
    }
    /* the first pieces up to score_bytes, the one crossing the budget cut at a safe place after it */
    Py_ssize_t n_spans = 0, size = 0, last_k = -1, last_i = -1;
    for (Py_ssize_t k = 0; k < n_with && size < score_bytes; k++) {
        const Run *run = &runs[with_pieces[k]];
        for (Py_ssize_t i = 0; i < run->n_pieces && size < score_bytes; i++) {
            Py_ssize_t a = run->starts[i], b = run->ends[i];
            if (b - a > score_bytes - size + long_piece) {
                b = safe_cut_after(run, a + score_bytes - size, b);
            }
            spans[n_spans++] = (Span){with_pieces[k], a, b};
            size += b - a + 1;
            last_k = k;
            last_i = i;
        }
    }
    Py_ssize_t cut_end = n_spans ? spans[n_spans - 1].b : 0;
    /* byte values of the sample not in the spans taken: a window around the first occurrence of each */
    uint8_t covered[256] = {0};
    for (Py_ssize_t j = 0; j < n_spans; j++) {
        const Run *run = &runs[spans[j].run];
        Py_ssize_t a = spans[j].a, b = spans[j].b < run->length ? spans[j].b : run->length;
        for (Py_ssize_t q = a; q < b; q++) {
            covered[run->data[q]] = 1;
        }
    }
    Extra extra[128];
    Py_ssize_t n_extra = 0;
    for (int value = 128; value < 256; value++) {
        if (covered[value] || sample_hist[value] <= 0) {
            continue;
        }
        for (Py_ssize_t k = 0; k < n_with; k++) {
            const Run *run = &runs[with_pieces[k]];
            const uint8_t *found = memchr(run->data, value, (size_t)run->length);
            if (found == NULL) {
                continue;
            }
            Py_ssize_t at = found - run->data;
            Py_ssize_t lo_i = 0, hi_i = run->n_pieces; /* the last piece starting at or before at */
            while (lo_i < hi_i) {
                Py_ssize_t mid = (lo_i + hi_i) / 2;
                if (run->starts[mid] <= at) {
                    lo_i = mid + 1;
                } else {
                    hi_i = mid;
                }
            }
            Py_ssize_t i = lo_i - 1; /* (-1 cannot happen: the first piece starts at or before every byte) */
            Py_ssize_t a = run->starts[i], b = run->ends[i];
            if (k == last_k && i == last_i) { /* behind the cut of the last piece taken */
                a = cut_end;
            }
            Py_ssize_t slot = 0;
            while (slot < n_extra && !(extra[slot].k == k && extra[slot].i == i)) {
                slot++;
            }
            if (b - a > long_piece) {
                Py_ssize_t cut = safe_cut_before(run, at - ctx, a, long_piece);
                if (cut < 0) {
                    break; /* no safe byte near: this value goes without a window */
                }
                Py_ssize_t lo = cut, hi = safe_cut_after(run, at + ctx, b);
                hi = hi < b ? hi : b;
                if (slot < n_extra) { /* several missing values in one long piece: one span over them */
                    lo = lo < extra[slot].span.a ? lo : extra[slot].span.a;
                    hi = hi > extra[slot].span.b ? hi : extra[slot].span.b;
                }
                a = lo;
                b = hi;
            }
            extra[slot] = (Extra){k, i, {with_pieces[k], a, b}};
            n_extra += slot == n_extra;
            break;
        }
    }
    /* the windows after the pieces taken, in input order, at most as many as fit the budget */
    qsort(extra, (size_t)n_extra, sizeof *extra, extra_order);
    Py_ssize_t room = score_bytes / (2 * ctx + 1);
    for (Py_ssize_t j = 0; j < n_extra && room > 0; j++) {
        if (extra[j].k > last_k || (extra[j].k == last_k && extra[j].i >= last_i)) {
            spans[n_spans++] = extra[j].span;
            room--;
        }
    }
    PyMem_RawFree(with_pieces);
    return n_spans;
}

PyDoc_STRVAR(segments_doc,
             "segments(runs, sample_hist, context, score_bytes, long_piece) -> (bytes, last run, last end) "
             "or None\n\n"
             "The compiled pipeline._segments_reference: the spans of the runs (contiguous sample bytes) "
             "around their non-ASCII bytes, joined by newlines, and the run and (unclipped) end of the last "
             "span; None when there is no span.");

static PyObject *
segments(PyObject *module, PyObject *args)
{
    PyObject *runs_obj, *hist_obj;
    Py_ssize_t ctx, score_bytes, long_piece;
    if (!PyArg_ParseTuple(args, "O!Onnn", &PyList_Type, &runs_obj, &hist_obj, &ctx, &score_bytes,
                          &long_piece)) {
        return NULL;
    }
    if (ctx < 0 || score_bytes < 0 || long_piece < 0) {
        PyErr_SetString(PyExc_ValueError, "segments: sizes must be non-negative");
        return NULL;
    }
    int64_t hist[256];
    if (read_counts(hist_obj, hist, "segments") < 0) {
        return NULL;
    }
    Py_ssize_t n_runs = PyList_GET_SIZE(runs_obj), n_held = 0, total_pieces = 0, n_spans = 0;
    PyObject **held = PyMem_Malloc((size_t)(n_runs ? n_runs : 1) * sizeof *held);
    Run *runs = PyMem_Calloc((size_t)(n_runs ? n_runs : 1), sizeof *runs);
    Py_ssize_t *pieces = NULL;
    Span *spans = NULL;
    PyObject *out = NULL;
    if (held == NULL || runs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        PyObject *run = PyList_GET_ITEM(runs_obj, r);
        if (!PyBytes_Check(run)) {
            PyErr_SetString(PyExc_ValueError, "segments: runs must be bytes");
            goto done;
        }
        Py_INCREF(run);
        held[n_held++] = run;
        runs[r].data = (const uint8_t *)PyBytes_AS_STRING(run);
        runs[r].length = PyBytes_GET_SIZE(run);
        total_pieces += runs[r].length;
    }
    /* (a run has at most one piece per byte) */
    pieces = PyMem_Malloc((size_t)(2 * total_pieces + 1) * sizeof *pieces);
    spans = PyMem_Malloc((size_t)(total_pieces + 129) * sizeof *spans);
    if (pieces == NULL || spans == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0, used = 0; r < n_runs; r++) {
        runs[r].starts = pieces + used;
        runs[r].ends = pieces + used + runs[r].length;
        used += 2 * runs[r].length;
    }
    PyThreadState *released = total_pieces >= GIL_FREE_BYTES ? PyEval_SaveThread() : NULL;
    n_spans = cut_sample(runs, n_runs, hist, ctx, score_bytes, long_piece, spans);
    if (released != NULL) {
        PyEval_RestoreThread(released);
    }
    if (n_spans < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (n_spans == 0) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t size = n_spans - 1; /* the newlines between spans */
    for (Py_ssize_t j = 0; j < n_spans; j++) {
        Py_ssize_t length = runs[spans[j].run].length;
        Py_ssize_t a = spans[j].a < length ? spans[j].a : length, b = spans[j].b < length ? spans[j].b : length;
        size += b > a ? b - a : 0;
    }
    PyObject *joined = PyBytes_FromStringAndSize(NULL, size);
    if (joined == NULL) {
        goto done;
    }
    char *w = PyBytes_AS_STRING(joined);
    for (Py_ssize_t j = 0; j < n_spans; j++) {
        const Run *run = &runs[spans[j].run];
        Py_ssize_t a = spans[j].a < run->length ? spans[j].a : run->length;
        Py_ssize_t b = spans[j].b < run->length ? spans[j].b : run->length;
        if (j) {
            *w++ = '\n';
        }
        if (b > a) {
            memcpy(w, run->data + a, (size_t)(b - a));
            w += b - a;
        }
    }
    out = Py_BuildValue("(Nnn)", joined, spans[n_spans - 1].run, spans[n_spans - 1].b);
done:
    for (Py_ssize_t r = 0; r < n_held; r++) {
        Py_DECREF(held[r]);
    }
    PyMem_Free(held);
    PyMem_Free(runs);
    PyMem_Free(pieces);
    PyMem_Free(spans);
    return out;
}

/* ---- byte counts ---------------------------------------------------------------------------------- */

/* counts[b] += occurrences of b in data: four partial histograms, so that runs of one byte value do not
 * wait on one counter, summed at the end. */
static void
count_bytes(const uint8_t *data, Py_ssize_t n, int64_t *counts)
{
    uint32_t part[4][256];
    memset(part, 0, sizeof part);
    while (n > 0) {
        /* (at most 2^30 bytes per round, so no partial count overflows) */
        Py_ssize_t chunk = n < ((Py_ssize_t)1 << 30) ? n : ((Py_ssize_t)1 << 30), i = 0;
        for (; i + 4 <= chunk; i += 4) {
            part[0][data[i]]++;
            part[1][data[i + 1]]++;
            part[2][data[i + 2]]++;
            part[3][data[i + 3]]++;
        }
        for (; i < chunk; i++) {
            part[0][data[i]]++;
        }
        for (int b = 0; b < 256; b++) {
            counts[b] += (int64_t)part[0][b] + part[1][b] + part[2][b] + part[3][b];
            part[0][b] = part[1][b] = part[2][b] = part[3][b] = 0;
        }
        data += chunk;
        n -= chunk;
    }
}

PyDoc_STRVAR(add_byte_counts_doc,
             "add_byte_counts(data, counts)\n\n"
             "Add the number of occurrences of each byte value in ``data`` to ``counts`` (a writable int64 "
             "[256] array): what ``counts += np.bincount(np.frombuffer(data, np.uint8), minlength=256)`` "
             "does.");

static PyObject *
add_byte_counts(PyObject *module, PyObject *args)
{
    Py_buffer data, counts;
    if (!PyArg_ParseTuple(args, "y*w*", &data, &counts)) {
        return NULL;
    }
    PyObject *out = NULL;
    Py_buffer fmt;
    /* (w* gives no format: look at the array again for its item type) */
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, 1), &fmt, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        goto done;
    }
    int ok = is_histogram(&fmt, "lq");
    PyBuffer_Release(&fmt);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "add_byte_counts: counts must be 256 int64");
        goto done;
    }
    if (data.len >= GIL_FREE_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        count_bytes(data.buf, data.len, counts.buf);
        Py_END_ALLOW_THREADS
    } else {
        count_bytes(data.buf, data.len, counts.buf);
    }
    out = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&counts);
    return out;
}

/* ---- the pipeline's mark and glue priors (twins of pipeline._text_marks and pipeline._glued_bytes) ---- */

/* A letter as the pipeline's expressions read one: ``[^\W\d_]``, what the regular expression engine
 * tests with these same macros (a word character that is neither a decimal digit nor "_"). */
static int
is_word_letter(Py_UCS4 c)
{
    return Py_UNICODE_ISALNUM(c) && !Py_UNICODE_ISDECIMAL(c) && c != '_';
}

/* Han, kana, Hangul and their compatibility forms (pipeline._CJK_LETTER). */
static int
is_cjk_letter(Py_UCS4 c)
{
    return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

static int
is_ascii_digit(Py_UCS4 c)
{
    return c >= '0' && c <= '9';
}

/* pipeline._IN_WORD_ASCII_MARK's marks */
static int
is_rare_ascii_mark(Py_UCS4 c)
{
    return c == '[' || c == ']' || c == '{' || c == '}' || c == '|' || c == '\\' || c == '~' || c == '^';
}

PyDoc_STRVAR(text_marks_doc,
             "text_marks(texts, uniform, glue) -> list of (marks, glued)\n\n"
             "pipeline._text_marks of each str of ``texts``: the rare ASCII marks ``[ ] { } | \\ ~ ^`` "
             "between two letters (counted when ``uniform``), and the letters of alphabetic scripts "
             "directly before or after an ASCII digit (counted when ``glue``; not º ª µ, Han, kana or "
             "Hangul).");

static PyObject *
text_marks(PyObject *module, PyObject *args)
{
    PyObject *texts;
    int uniform, glue;
    if (!PyArg_ParseTuple(args, "O!pp", &PyList_Type, &texts, &uniform, &glue)) {
        return NULL;
    }
    Py_ssize_t n_texts = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n_texts);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n_texts; k++) {
        PyObject *text = PyList_GET_ITEM(texts, k);
        if (!PyUnicode_Check(text)) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_TypeError, "text_marks: texts must be str");
            return NULL;
        }
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t n = PyUnicode_GET_LENGTH(text), marks = 0, glued = 0;
        /* (Latin-1 text has no character beyond U+00FF: the letter tests below still read it alike) */
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c < 0x80) {
                if (uniform && is_rare_ascii_mark(c) && i > 0 && i + 1 < n &&
                    is_word_letter(PyUnicode_READ(kind, data, i - 1)) &&
                    is_word_letter(PyUnicode_READ(kind, data, i + 1))) {
                    marks++;
                }
                continue;
            }
            if (glue &&
                ((i > 0 && is_ascii_digit(PyUnicode_READ(kind, data, i - 1))) ||
                 (i + 1 < n && is_ascii_digit(PyUnicode_READ(kind, data, i + 1)))) &&
                Py_UNICODE_ISALPHA(c) && c != 0xBA && c != 0xAA && c != 0xB5 && !is_cjk_letter(c)) {
                glued++;
            }
        }
        PyObject *row = Py_BuildValue("(nn)", marks, glued);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, row);
    }
    return out;
}

PyDoc_STRVAR(glued_bytes_doc,
             "glued_bytes(data) -> bool\n\n"
             "pipeline._glued_bytes: whether ``data`` has a byte 0x80-0xFF directly before or after an "
             "ASCII digit.");

static PyObject *
glued_bytes(PyObject *module, PyObject *args)
{
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) {
        return NULL;
    }
    const uint8_t *b = data.buf;
    int found = 0;
    for (Py_ssize_t i = 1; i < data.len && !found; i++) {
        found = (b[i] >= 0x80 && b[i - 1] >= '0' && b[i - 1] <= '9') ||
                (b[i - 1] >= 0x80 && b[i] >= '0' && b[i] <= '9');
    }
    PyBuffer_Release(&data);
    return PyBool_FromLong(found);
}

/* ---- validity: a block without the interior of its ASCII runs (twin of validity.compact_ascii_reference) ---- */

/* Bytes kept at the start of each ASCII run: a multi-byte character is at most four bytes (GB18030's
 * four-byte form, whose second and fourth bytes are ASCII digits), so a decoder deciding on a sequence
 * that starts before the run reads at most its first three bytes (validity.COMPACT_LOOKAHEAD). */
#define COMPACT_LOOKAHEAD 3

PyDoc_STRVAR(compact_ascii_doc,
             "compact_ascii(block) -> (compacted, positions, dropped) or None\n\n"
             "validity.compact_ascii_reference: ``block`` without the bytes after the first three of each "
             "run of ASCII bytes, and where the dropped stretches were: for each, as int64 arrays in bytes, "
             "the position in ``compacted`` of the first byte after it and the bytes dropped up to there "
             "(a stretch that ends the block has none). None when nothing would be dropped.");

/* The first byte at or after ``i`` with its high bit ``want`` (0x80 or 0), or ``n``: eight bytes at a time
 * while they all differ from it. */
static Py_ssize_t
next_with_high_bit(const uint8_t *b, Py_ssize_t i, Py_ssize_t n, unsigned want)
{
    const uint64_t high = 0x8080808080808080u;
    while (i + 8 <= n) {
        uint64_t word;
        memcpy(&word, b + i, 8);
        if ((want ? word & high : ~word & high) != 0) {
            break;
        }
        i += 8;
    }
    while (i < n && (b[i] & 0x80) != want) {
        i++;
    }
    return i;
}

static PyObject *
compact_ascii(PyObject *module, PyObject *args)
{
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "y*", &view)) {
        return NULL;
    }
    const uint8_t *b = view.buf;
    Py_ssize_t n = view.len;
    PyObject *result = NULL, *compacted = NULL, *positions = NULL, *dropped_at = NULL;
    uint8_t *out = PyMem_Malloc((size_t)(n ? n : 1));
    /* (a stretch is dropped from a run of more than COMPACT_LOOKAHEAD bytes, then a non-ASCII byte) */
    Py_ssize_t most = n / (COMPACT_LOOKAHEAD + 2) + 1;
    int64_t *pos = PyMem_Malloc((size_t)most * sizeof *pos), *drop = PyMem_Malloc((size_t)most * sizeof *drop);
    Py_ssize_t n_out = 0, n_cuts = 0, dropped = 0, i = 0;
    if (out == NULL || pos == NULL || drop == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    while (i < n) {
        Py_ssize_t run = next_with_high_bit(b, i, n, 0); /* non-ASCII bytes [i, run): kept */
        memcpy(out + n_out, b + i, (size_t)(run - i));
        n_out += run - i;
        if (run == n) {
            break;
        }
        Py_ssize_t end = next_with_high_bit(b, run, n, 0x80); /* the ASCII run [run, end) */
        Py_ssize_t kept = end - run < COMPACT_LOOKAHEAD ? end - run : COMPACT_LOOKAHEAD;
        memcpy(out + n_out, b + run, (size_t)kept);
        n_out += kept;
        if (end - run > kept) {
            dropped += end - run - kept;
            if (end < n) { /* (a run that ends the block leaves nothing after it to map) */
                pos[n_cuts] = n_out;
                drop[n_cuts] = dropped;
                n_cuts++;
            }
        }
        i = end;
    }
    if (dropped == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    compacted = PyBytes_FromStringAndSize((const char *)out, n_out);
    positions = PyBytes_FromStringAndSize((const char *)pos, n_cuts * (Py_ssize_t)sizeof *pos);
    dropped_at = PyBytes_FromStringAndSize((const char *)drop, n_cuts * (Py_ssize_t)sizeof *drop);
    if (compacted != NULL && positions != NULL && dropped_at != NULL) {
        result = PyTuple_Pack(3, compacted, positions, dropped_at);
    }
done:
    Py_XDECREF(compacted);
    Py_XDECREF(positions);
    Py_XDECREF(dropped_at);
    PyMem_Free(out);
    PyMem_Free(pos);
    PyMem_Free(drop);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef module_methods[] = {
    {"segments", segments, METH_VARARGS, segments_doc},
    {"add_byte_counts", add_byte_counts, METH_VARARGS, add_byte_counts_doc},
    {"text_marks", text_marks, METH_VARARGS, text_marks_doc},
    {"glued_bytes", glued_bytes, METH_VARARGS, glued_bytes_doc},
    {"compact_ascii", compact_ascii, METH_VARARGS, compact_ascii_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mojifix.detect._scoring",
    .m_doc = "The detector's compiled scoring kernel (twin of mojifix.detect.scoring.Scorer._counts_reference).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__scoring(void)
{
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&CodePagesType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&CodePagesType);
    if (PyModule_AddObject(m, "CodePages", (PyObject *)&CodePagesType) < 0) {
        Py_DECREF(&CodePagesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
