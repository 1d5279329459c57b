/* What the compiled twins of pirate_envs._native share: every C file of pirate_envs/games/<game>/native/
 * includes this header, and module.c, beside it, gathers their functions into the one module.
 *
 * Each compiled function has a pure-Python twin that stays the reference. A twin that meets a value it does
 * not expect raises ValueError, TypeError, IndexError or OverflowError, which the Python callers take as
 * "run the Python code" (pirate_envs/core/native/__init__.py, FALLBACK_ERRORS). The helpers are static
 * inline: a file that uses one of them does not warn of the others.
 *
 * - reading the state's Python values (the observation encoders): as_long, steal_long, steal_true, fast,
 *   snapshot, item_at, item_long, item_true, contains_long, mod; the attribute names each encoder reads,
 *   interned on its first call
 *   (NAME_TABLE, NAME, intern_names) and read with attr, int_attr, true_attr, attr_length; the
 *   (buffer, state, seat, spec) call (parse_call) and the CHECK macros of the encoders' ``goto fail`` style;
 * - writing the observation: a float32 vector (Vec, put) or a byte buffer of counts (Counts, set_count,
 *   copy_counts, attr_counts);
 * - the bots' and action features' inputs: the int head of a spec tuple (twin_spec_ints) and its byte
 *   tables (twin_bytes), the float32 observation and one-byte-per-action mask (twin_obs_and_mask,
 *   byte_mask_format, legal_actions), and the ValueError "who: what" (twin_error).
 */
#ifndef PIRATE_ENVS_NATIVE_COMMON_H
#define PIRATE_ENVS_NATIVE_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* ---- reading Python values ------------------------------------------------------------------------------ */

/* The largest magnitude as_long accepts: any sum or product of a few such values (an index plus an offset
 * times a seat) stays far inside a long, so no arithmetic on them overflows (signed overflow is undefined). */
#define TWIN_INT_LIMIT 2147483647L

/* The int ``o``, or -1 with a TypeError (check PyErr_Occurred) when it is not an int, or an OverflowError
 * when it lies outside +-TWIN_INT_LIMIT (the Python code, which has no such limit, then runs). */
static inline long as_long(PyObject *o) {
    if (!PyLong_Check(o) && !PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected an int, got %.80s", Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v > TWIN_INT_LIMIT || v < -TWIN_INT_LIMIT) {
        PyErr_SetString(PyExc_OverflowError, "an int outside the compiled twins' range");
        return -1;
    }
    return (long)v;
}

/* ``o`` (a new reference, or NULL with an exception set) as a long, released; -1 with an exception set on
 * failure (check PyErr_Occurred). */
static inline long steal_long(PyObject *o) {
    if (o == NULL) return -1;
    long v = as_long(o);
    Py_DECREF(o);
    return v;
}

/* The truth of a new reference (which it releases); -1 with an exception set when there is none. */
static inline int steal_true(PyObject *o) {
    if (o == NULL) return -1;
    int v = PyObject_IsTrue(o);
    Py_DECREF(o);
    return v;
}

/* The list (or tuple) ``seq`` as a fast sequence: a new reference, or NULL with an exception. A list comes
 * back as itself, so its length and items hold only while no Python code runs (no attribute read, truth
 * test, len() or iteration of another object): where any does, take a snapshot() instead. */
static inline PyObject *fast(PyObject *seq) {
    return PySequence_Fast(seq, "expected a list or tuple");
}

/* ``seq`` as a sequence no Python code can change: a tuple as itself, any other iterable copied into a new list
 * that owns its items (its length and items stay valid whatever runs meanwhile); a new reference, or NULL
 * with an exception. Read it with the PySequence_Fast_* macros. */
static inline PyObject *snapshot(PyObject *seq) {
    if (PyTuple_CheckExact(seq)) {
        Py_INCREF(seq);
        return seq;
    }
    return PySequence_List(seq);
}

/* seq[i] with Python's indexing (negative counts from the end) as a new reference; NULL with an
 * exception outside the sequence. The items of per-seat and per-boat lists are read through these. */
static inline PyObject *item_at(PyObject *seq, Py_ssize_t i) {
    PyObject *f = fast(seq);
    if (f == NULL) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (i < 0) i += len;
    if (i < 0 || i >= len) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_IndexError, "index outside a per-seat or per-boat list");
        return NULL;
    }
    PyObject *found = PySequence_Fast_GET_ITEM(f, i);
    Py_INCREF(found);
    Py_DECREF(f);
    return found;
}

/* Whether the int ``value`` is among the items of the fast sequence ``f`` (Python's ``in``): 1 or 0, or -1
 * with an exception where an item is not an int (its ``==`` might run Python code or differ from a C
 * comparison) or lies outside as_long's range. */
static inline int contains_long(PyObject *f, long value) {
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t i = 0; i < len; i++) {
        long x = as_long(items[i]);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x == value) return 1;
    }
    return 0;
}

static inline long item_long(PyObject *seq, Py_ssize_t i) {
    return steal_long(item_at(seq, i));
}

static inline int item_true(PyObject *seq, Py_ssize_t i) {
    return steal_true(item_at(seq, i));
}

/* a mod n in 0..n-1 (Python's % for n > 0): a seat's offset from the viewer. */
static inline long mod(long a, long n) {
    long r = a % n;
    return r < 0 ? r + n : r;
}

/* ---- the attribute and key names an encoder reads -------------------------------------------------------- */

/* NAME_TABLE(NAMES), with NAMES(X) the X-macro list X(phase) X(round) ... of the names a file reads, declares
 * the enum N_phase, N_round, ..., N_COUNT, the names as strings and ``interned``, their interned Python
 * strings, which intern_names fills on the file's first call. NAME(phase) is then the key of ``phase``. */
#define NAME_AS_ENUM(name) N_##name,
#define NAME_AS_STRING(name) #name,
#define NAME_TABLE(NAMES)                                                                                         \
    enum { NAMES(NAME_AS_ENUM) N_COUNT };                                                                         \
    static const char *const name_strings[N_COUNT] = {NAMES(NAME_AS_STRING)};                                     \
    static PyObject *interned[N_COUNT];
#define NAME(name) interned[N_##name]

/* Interns the ``count`` strings of ``strings`` into ``keys`` where not done yet; 0, or -1 with an exception. */
static inline int intern_names(const char *const *strings, PyObject **keys, int count) {
    if (keys[count - 1] != NULL) return 0; /* filled in order: all done */
    for (int i = 0; i < count; i++) {
        if (keys[i] == NULL && (keys[i] = PyUnicode_InternFromString(strings[i])) == NULL) return -1;
    }
    return 0;
}

/* state.<key> as a new reference, or NULL with an exception. */
static inline PyObject *attr(PyObject *state, PyObject *key) {
    return PyObject_GetAttr(state, key);
}

/* An int attribute of the state. */
static inline long int_attr(PyObject *state, PyObject *key) {
    return steal_long(attr(state, key));
}

/* The truth of an attribute of the state; -1 with an exception. */
static inline int true_attr(PyObject *state, PyObject *key) {
    return steal_true(attr(state, key));
}

/* ---- the encoders' calls --------------------------------------------------------------------------------- */

/* Parses the arguments every encoder takes, ``(buffer, state, seat, spec)``, and checks the spec's length. */
static inline int parse_call(PyObject *args, const char *name, Py_ssize_t spec_length, PyObject **buffer,
                             PyObject **state, long *seat, PyObject **spec) {
    if (!PyArg_ParseTuple(args, "OOlO!", buffer, state, seat, &PyTuple_Type, spec)) return -1;
    if (PyTuple_GET_SIZE(*spec) != spec_length) {
        PyErr_Format(PyExc_ValueError, "%s: spec of the wrong length", name);
        return -1;
    }
    return 0;
}

/* The encoders' error handling: ``goto fail`` (which releases what the function holds) where ``expr`` is
 * negative, or where ``var`` = ``expr`` is -1 with an exception set; GET_FAST reads the attribute ``name``
 * of ``state`` into ``var`` as a fast sequence (GET_SNAPSHOT as a snapshot). */
#define CHECK(expr) do { if ((expr) < 0) goto fail; } while (0)
#define CHECK_LONG(var, expr) do { var = (expr); if (var == -1 && PyErr_Occurred()) goto fail; } while (0)
#define GET_FAST(var, name) do { PyObject *_o = attr(state, NAME(name)); if (_o == NULL) goto fail; \
    var = fast(_o); Py_DECREF(_o); if (var == NULL) goto fail; } while (0)
/* GET_FAST as a snapshot(): for a sequence held while Python code runs. */
#define GET_SNAPSHOT(var, name) do { PyObject *_o = attr(state, NAME(name)); if (_o == NULL) goto fail; \
    var = snapshot(_o); Py_DECREF(_o); if (var == NULL) goto fail; } while (0)

/* ---- writing the observation ----------------------------------------------------------------------------- */

/* A float32 observation vector; ``who`` heads the messages of its errors ("" or "potsm_encode: "). */
typedef struct {
    float *out;
    Py_ssize_t size;
    const char *who;
} Vec;

/* out[i] = v, with i checked against the vector's bounds. */
static inline int put(Vec *v, long i, double value) {
    if (i < 0 || i >= v->size) {
        PyErr_Format(PyExc_IndexError, "%sobservation index %ld outside [0, %zd)", v->who, i, v->size);
        return -1;
    }
    v->out[i] = (float)value;
    return 0;
}

/* An observation stored as bytes (Madame Ching's counts, Tortuga's biased entries). */
typedef struct {
    unsigned char *buf;
    Py_ssize_t size;
} Counts;

/* buf[i] = value (add: buf[i] += value), refusing an index outside the buffer or a count outside a byte
 * (the Python encoder then runs, and falls back to encode_reference for counts past 255). */
static inline int set_count(Counts *c, long i, long value, int add) {
    if (i < 0 || i >= c->size) {
        PyErr_Format(PyExc_IndexError, "observation index %ld outside [0, %zd)", i, c->size);
        return -1;
    }
    long now = add ? c->buf[i] + value : value;
    if (now < 0 || now > 255) {
        PyErr_SetString(PyExc_ValueError, "a count outside 0..255");
        return -1;
    }
    c->buf[i] = (unsigned char)now;
    return 0;
}

/* buf[base + i] = seq[i] for each i (a slice write of bytes(seq)); ``expected`` items, or -1 for any. */
static inline long copy_counts(Counts *c, PyObject *seq, long base, Py_ssize_t expected) {
    PyObject *f = fast(seq);
    if (f == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (expected >= 0 && len != expected) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "a field of the wrong length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long x = as_long(PySequence_Fast_GET_ITEM(f, i));
        if ((x == -1 && PyErr_Occurred()) || set_count(c, base + i, x, 0) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return (long)len;
}

/* copy_counts() of the state's attribute ``key``. */
static inline long attr_counts(Counts *c, PyObject *state, PyObject *key, long base, Py_ssize_t expected) {
    PyObject *o = attr(state, key);
    if (o == NULL) return -1;
    long len = copy_counts(c, o, base, expected);
    Py_DECREF(o);
    return len;
}

/* len() of the state's attribute ``key``; -1 with an exception. */
static inline Py_ssize_t attr_length(PyObject *state, PyObject *key) {
    PyObject *o = attr(state, key);
    Py_ssize_t len = o == NULL ? -1 : PyObject_Length(o);
    Py_XDECREF(o);
    return len;
}

/* ---- the bots' and action features' inputs --------------------------------------------------------------- */

/* A ValueError "who: what"; returns -1. */
static inline int twin_error(const char *who, const char *what) {
    PyErr_Format(PyExc_ValueError, "%s: %s", who, what);
    return -1;
}

/* Copies the bytes object ``table``, of exactly ``size`` bytes, into ``into`` (a spec's table of bytes). */
static inline int twin_bytes(PyObject *table, void *into, Py_ssize_t size, const char *who) {
    if (!PyBytes_Check(table) || PyBytes_GET_SIZE(table) != size)
        return twin_error(who, "a byte table of the wrong length");
    memcpy(into, PyBytes_AS_STRING(table), (size_t)size);
    return 0;
}

/* ``spec`` must be a tuple of ``count`` entries whose first ``ints`` are ints, copied into ``out``. */
static inline int twin_spec_ints(PyObject *spec, Py_ssize_t count, int ints, long *out, const char *who) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != count) {
        PyErr_Format(PyExc_ValueError, "%s: spec of the wrong length", who);
        return -1;
    }
    for (int i = 0; i < ints; i++) {
        PyObject *o = PyTuple_GET_ITEM(spec, i);
        if (!PyLong_Check(o)) {
            PyErr_Format(PyExc_TypeError, "%s: spec entries before the tables must be ints", who);
            return -1;
        }
        out[i] = PyLong_AsLong(o);
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* Whether a mask's buffer holds one byte per entry (int8, uint8 or bool; no format means bytes). */
static inline int byte_mask_format(const Py_buffer *mask) {
    const char *format = mask->format == NULL ? "B" : mask->format;
    return strcmp(format, "b") == 0 || strcmp(format, "B") == 0 || strcmp(format, "?") == 0;
}

/* Takes the float32 observation of ``size`` entries into ``buf`` and the one-byte-per-action mask into
 * ``mbuf``; 0 with both held (the caller releases them), or -1 with neither. */
static inline int twin_obs_and_mask(PyObject *obs, PyObject *mask, long size, long num_actions, Py_buffer *buf,
                                    Py_buffer *mbuf, const char *who) {
    if (PyObject_GetBuffer(obs, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (buf->format == NULL || strcmp(buf->format, "f") != 0 || buf->len != (Py_ssize_t)(size * (long)sizeof(float))) {
        PyBuffer_Release(buf);
        PyErr_Format(PyExc_TypeError, "%s: the observation must be a float32 vector of the game's size", who);
        return -1;
    }
    if (PyObject_GetBuffer(mask, mbuf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(buf);
        return -1;
    }
    if (!byte_mask_format(mbuf) || mbuf->len != num_actions) {
        PyBuffer_Release(buf);
        PyBuffer_Release(mbuf);
        PyErr_Format(PyExc_TypeError, "%s: the mask must be one byte (int8, uint8, bool) per action", who);
        return -1;
    }
    return 0;
}

/* The actions whose mask byte is set, ascending, into ``legal``; returns how many. */
static inline int legal_actions(const char *mask, long num_actions, int *legal) {
    int n = 0;
    for (long a = 0; a < num_actions; a++)
        if (mask[a] != 0) legal[n++] = (int)a;
    return n;
}

#endif
