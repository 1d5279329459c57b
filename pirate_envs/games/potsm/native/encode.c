/* Pirates of the Spanish Main's compiled observation encoder (part of pirate_envs._native, optional).
 *
 * potsm_encode(out, state, seat, spec): the observation of ``seat`` written into the zero-filled float32
 *     vector ``out``, entry for entry what pirate_envs.games.potsm.observation.ObservationEncoder.encode_python
 *     returns (PSM-1060..1082). ``spec`` is ObservationEncoder.native_spec: the player count, the variant
 *     flag (PSM-803), the vector's size, the number of turn kinds, the record indices of actions.py and the
 *     start of every field of field_specs, so no layout constant is written twice.
 *
 * The Python encoder goes through an absolute-seat byte buffer and a per-seat gather; here each entry is
 * written straight to its offset-ordered place, the way encode_reference reads the rules table. Every entry
 * is a small integer, so its float is exact either way. A state the twin does not expect (a field of the
 * wrong type or length, a seat, card or ship outside its range) raises ValueError, TypeError or IndexError,
 * and the caller then runs the Python encoder.
 *
 * Once the state's fields are fetched, nothing here calls back into Python code: a list or bytearray field
 * must be exactly that type (a subclass may answer len() or indexing otherwise than its storage), and a flag
 * an exact bool or int, read without __bool__, so no user code can resize a field whose length was checked
 * or whose bytes are held. Anything else is left to the Python encoder, before any of it ran.
 */
#include "core/native/common.h"

/* Order of ObservationEncoder.native_spec (keep the two in step): the constants, then the field starts in
 * the order of observation.field_specs. */
enum {
    E_N, E_HAND_VARIANT, E_SIZE, E_TURN_KINDS, E_ACTOR, E_KIND, E_ACCUSED, E_SHIPS,
    E_MY_PIRATES, E_POSITION, E_DAMAGED, E_FAME, E_REVEALED_OWNER, E_NOT_OWNER, E_CLAIMED, E_CURRENT,
    E_UPCOMING, E_ADVENTURE_DECK, E_ADVENTURE_SEEN, E_MOVE_AVAILABLE, E_HAND_SIZES, E_MOVE_DECK,
    E_MOVE_DISCARD, E_PHASE, E_PENDING, E_START_SEAT, E_TURN_INDEX, E_MOVE_TALLY, E_REPAIR_TALLY,
    E_ACCUSATION_TALLY, E_RECENT_TURNS,
    E_COUNT
};

#define PE_SHIPS 9
#define PE_ADVENTURES 24
#define PE_MOVES 12
#define PE_ROW_SLOTS 4   /* the current adventure and three upcoming ones (PSM-1067, 1068) */
#define PE_MAX_N 16      /* sanity bound on the player count */

#define FIELDS(X) X(line) X(damaged) X(fame) X(pirate_owner) X(revealed) X(not_owner) X(claimed) \
    X(adventure_deck) X(adventure_row) X(adventure_seen) X(move_row) X(hands) X(move_deck) X(move_discard) \
    X(start_seat) X(current_seat) X(phase) X(pending_accusation) X(turn_index) X(game_over) X(truncated) \
    X(move_tally) X(repair_tally) X(accusation_tally) X(recent_turns)
NAME_TABLE(FIELDS)

typedef struct {
    Vec v;
    long sp[E_COUNT];
    PyObject *f[N_COUNT]; /* the state's fields, new references */
} Enc;

/* ``x`` within [0, bound), else -1 with a ValueError naming ``what``. */
static long within(long x, long bound, const char *what) {
    if (x < 0 || x >= bound) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "potsm_encode: %s %ld outside 0..%ld", what, x, bound - 1);
        return -1;
    }
    return x;
}

/* The truth of the flag ``o`` (an exact bool or int, read without calling __bool__), or -1 with a TypeError
 * naming ``what``. */
static int plain_truth(PyObject *o, const char *what) {
    if (PyBool_Check(o) || PyLong_CheckExact(o)) return PyObject_IsTrue(o); /* int's own nb_bool: no user code */
    PyErr_Format(PyExc_TypeError, "potsm_encode: %s is a %.80s, not a bool or int", what, Py_TYPE(o)->tp_name);
    return -1;
}

/* The length of the deck ``o`` (an exact list, tuple, bytes or bytearray, read without calling __len__), or
 * -1 with a TypeError naming ``what``. */
static Py_ssize_t plain_length(PyObject *o, const char *what) {
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o) || PyBytes_CheckExact(o) || PyByteArray_CheckExact(o))
        return Py_SIZE(o);
    PyErr_Format(PyExc_TypeError, "potsm_encode: %s is a %.80s, not a list", what, Py_TYPE(o)->tp_name);
    return -1;
}

/* The field ``name`` as a list of ``len`` items (any length when ``len`` is -1). */
static PyObject *list_field(Enc *e, int name, Py_ssize_t len) {
    PyObject *o = e->f[name];
    if (!PyList_CheckExact(o) || (len >= 0 && PyList_GET_SIZE(o) != len)) {
        PyErr_Format(PyExc_TypeError, "potsm_encode: %s is not a list of the expected length", name_strings[name]);
        return NULL;
    }
    return o;
}

/* The ByteCounts field ``name``: its bytes, of exactly ``len`` entries. */
static const unsigned char *counts_field(Enc *e, int name, Py_ssize_t len) {
    PyObject *o = e->f[name];
    if (!PyByteArray_CheckExact(o) || PyByteArray_GET_SIZE(o) != len) {
        PyErr_Format(PyExc_TypeError, "potsm_encode: %s is not a bytearray of %zd counts", name_strings[name], len);
        return NULL;
    }
    return (const unsigned char *)PyByteArray_AS_STRING(o);
}

/* v[at + k] = counts[(seat + k) % n * width + i] for each offset k: a per-seat table in offset order. */
static int rotated(Enc *e, long at, const unsigned char *counts, long width, long seat) {
    long n = e->sp[E_N];
    for (long k = 0; k < n; k++) {
        const unsigned char *row = counts + ((seat + k) % n) * width;
        for (long i = 0; i < width; i++) {
            if (row[i] && put(&e->v, at + k * width + i, row[i]) < 0) return -1;
        }
    }
    return 0;
}

/* v[at + i] = counts[i] for each i. */
static int copy_bytes(Enc *e, long at, const unsigned char *counts, long len) {
    for (long i = 0; i < len; i++) {
        if (counts[i] && put(&e->v, at + i, counts[i]) < 0) return -1;
    }
    return 0;
}

/* One recent turn (PSM-1082): the actor and the accused by offset, the kind one-hot, the signed ship vector. */
static int write_turn(Enc *e, long at, PyObject *record, long seat) {
    long n = e->sp[E_N], kinds = e->sp[E_TURN_KINDS];
    long ships = e->sp[E_SHIPS];
    if (!PyList_CheckExact(record) || PyList_GET_SIZE(record) < ships + PE_SHIPS
        || PyList_GET_SIZE(record) <= e->sp[E_ACCUSED] || PyList_GET_SIZE(record) <= e->sp[E_ACTOR] || PyList_GET_SIZE(record) <= e->sp[E_KIND]) {
        PyErr_SetString(PyExc_ValueError, "potsm_encode: a recent turn is not a record list");
        return -1;
    }
    long actor = within(as_long(PyList_GET_ITEM(record, e->sp[E_ACTOR])), n, "an actor");
    long kind = within(as_long(PyList_GET_ITEM(record, e->sp[E_KIND])), kinds, "a turn kind");
    if (actor < 0 || kind < 0) return -1;
    if (put(&e->v, at + (actor - seat + n) % n, 1.0) < 0 || put(&e->v, at + n + kind, 1.0) < 0) return -1;
    for (long j = 0; j < PE_SHIPS; j++) {
        long x = as_long(PyList_GET_ITEM(record, ships + j));
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x && put(&e->v, at + n + kinds + j, (double)x) < 0) return -1;
    }
    long accused = as_long(PyList_GET_ITEM(record, e->sp[E_ACCUSED]));
    if (accused == -1 && PyErr_Occurred()) return -1;
    if (accused >= 0) {
        if (within(accused, n, "an accused seat") < 0) return -1;
        if (put(&e->v, at + n + kinds + PE_SHIPS + (accused - seat + n) % n, 1.0) < 0) return -1;
    }
    return 0;
}

/* PSM-1071, 1072: the seat's own hand and every hand's size (PSM-803), or the open move row */
static int write_moves(Enc *e, long seat) {
    const long *sp = e->sp, n = sp[E_N];
    if (sp[E_HAND_VARIANT]) {
        PyObject *hands = list_field(e, N_hands, n);
        if (!hands) return -1;
        for (long k = 0; k < n; k++) {
            PyObject *hand = PyList_GET_ITEM(hands, (seat + k) % n);
            if (!PyList_CheckExact(hand) || PyList_GET_SIZE(hand) != PE_MOVES) {
                PyErr_SetString(PyExc_TypeError, "potsm_encode: a hand is not a list of 12 counts");
                return -1;
            }
            long total = 0;
            for (long m = 0; m < PE_MOVES; m++) {
                long c = as_long(PyList_GET_ITEM(hand, m));
                if (c == -1 && PyErr_Occurred()) return -1;
                if (c < 0) {
                    PyErr_SetString(PyExc_ValueError, "potsm_encode: a negative card count in a hand");
                    return -1;
                }
                total += c;
                if (k == 0 && c && put(&e->v, sp[E_MOVE_AVAILABLE] + m, (double)c) < 0) return -1;
            }
            if (total && put(&e->v, sp[E_HAND_SIZES] + k, (double)total) < 0) return -1;
        }
    } else {
        const unsigned char *move_row = counts_field(e, N_move_row, PE_MOVES);
        if (!move_row || copy_bytes(e, sp[E_MOVE_AVAILABLE], move_row, PE_MOVES) < 0) return -1;
    }
    return 0;
}

/* PSM-1075, 1076: the phase and a pending accusation (``pending``), for the seat to act only */
static int write_decision(Enc *e, long seat, PyObject *pending) {
    const long *sp = e->sp, n = sp[E_N];
    long current = as_long(e->f[N_current_seat]);
    if (current == -1 && PyErr_Occurred()) return -1;
    int over = plain_truth(e->f[N_game_over], "game_over"), truncated = plain_truth(e->f[N_truncated], "truncated");
    if (over < 0 || truncated < 0) return -1;
    if (current == seat && !over && !truncated) {
        long phase = within(as_long(e->f[N_phase]), 2, "a phase");
        if (phase < 0 || put(&e->v, sp[E_PHASE] + phase, 1.0) < 0) return -1;
        if (PyList_GET_SIZE(pending) == 2) {
            long target = within(as_long(PyList_GET_ITEM(pending, 0)), n, "an accused seat");
            long pirate = within(as_long(PyList_GET_ITEM(pending, 1)), PE_SHIPS, "an accused pirate");
            if (target < 0 || pirate < 0) return -1;
            long k = (target - seat + n) % n; /* offsets 1..n-1; the seat itself is not shown */
            if (k > 0 && put(&e->v, sp[E_PENDING] + k - 1, 1.0) < 0) return -1;
            if (put(&e->v, sp[E_PENDING] + n - 1 + pirate, 1.0) < 0) return -1;
        } else if (PyList_GET_SIZE(pending) != 0) {
            PyErr_SetString(PyExc_ValueError, "potsm_encode: a pending accusation is not (seat, pirate)");
            return -1;
        }
    }
    return 0;
}

/* The observation of ``seat``, section by section in the order of field_specs. */
static int encode(Enc *e, long seat) {
    const long *sp = e->sp;
    long n = sp[E_N];
    PyObject *line = list_field(e, N_line, PE_SHIPS), *owner = list_field(e, N_pirate_owner, PE_SHIPS);
    PyObject *revealed = list_field(e, N_revealed, PE_SHIPS), *row = list_field(e, N_adventure_row, -1);
    PyObject *recent = list_field(e, N_recent_turns, -1), *pending = list_field(e, N_pending_accusation, -1);
    if (!line || !owner || !revealed || !row || !recent || !pending) return -1;

    /* PSM-1060 my_pirates, PSM-1064 ship_revealed_owner (ship-major, offset-minor) */
    for (long j = 0; j < PE_SHIPS; j++) {
        long t = as_long(PyList_GET_ITEM(owner, j));
        if (t == -1 && PyErr_Occurred()) return -1;
        if (t < 0) continue;
        if (within(t, n, "a pirate's owner") < 0) return -1;
        if (t == seat && put(&e->v, sp[E_MY_PIRATES] + j, 1.0) < 0) return -1;
        int shown = plain_truth(PyList_GET_ITEM(revealed, j), "a revealed flag");
        if (shown < 0) return -1;
        if (shown && put(&e->v, sp[E_REVEALED_OWNER] + j * n + (t - seat + n) % n, 1.0) < 0) return -1;
    }
    /* PSM-1061 ship_position: ship j's row holds the one-hot of its place; the line must be a permutation */
    int placed[PE_SHIPS] = {0};
    for (long p = 0; p < PE_SHIPS; p++) {
        long ship = within(as_long(PyList_GET_ITEM(line, p)), PE_SHIPS, "a ship");
        if (ship < 0) return -1;
        if (placed[ship]++) {
            PyErr_SetString(PyExc_ValueError, "potsm_encode: the line is not a permutation of the ships");
            return -1;
        }
        if (put(&e->v, sp[E_POSITION] + ship * PE_SHIPS + p, 1.0) < 0) return -1;
    }
    /* PSM-1062, 1063, 1065, 1066 */
    const unsigned char *damaged = counts_field(e, N_damaged, PE_SHIPS), *fame = counts_field(e, N_fame, PE_SHIPS);
    const unsigned char *not_owner = counts_field(e, N_not_owner, PE_SHIPS * n), *claimed = counts_field(e, N_claimed, n);
    if (!damaged || !fame || !not_owner || !claimed) return -1;
    if (copy_bytes(e, sp[E_DAMAGED], damaged, PE_SHIPS) < 0 || copy_bytes(e, sp[E_FAME], fame, PE_SHIPS) < 0) return -1;
    for (long j = 0; j < PE_SHIPS; j++) {
        if (rotated(e, sp[E_NOT_OWNER] + j * n, not_owner + j * n, 1, seat) < 0) return -1;
    }
    if (rotated(e, sp[E_CLAIMED], claimed, 1, seat) < 0) return -1;
    /* PSM-1067, 1068: the row's first card, then slots 2..4 */
    Py_ssize_t cards = PyList_GET_SIZE(row);
    if (cards > PE_ROW_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "potsm_encode: more than four adventures in the row");
        return -1;
    }
    for (Py_ssize_t slot = 0; slot < cards; slot++) {
        long card = within(as_long(PyList_GET_ITEM(row, slot)), PE_ADVENTURES, "an adventure");
        if (card < 0) return -1;
        long at = slot == 0 ? sp[E_CURRENT] : sp[E_UPCOMING] + (slot - 1) * PE_ADVENTURES;
        if (put(&e->v, at + card, 1.0) < 0) return -1;
    }
    /* PSM-1069, 1070, 1073, 1074 */
    Py_ssize_t deck = plain_length(e->f[N_adventure_deck], "adventure_deck");
    Py_ssize_t moves = deck < 0 ? -1 : plain_length(e->f[N_move_deck], "move_deck");
    if (deck < 0 || moves < 0) return -1;
    if (put(&e->v, sp[E_ADVENTURE_DECK], (double)deck) < 0 || put(&e->v, sp[E_MOVE_DECK], (double)moves) < 0) return -1;
    const unsigned char *seen = counts_field(e, N_adventure_seen, PE_ADVENTURES);
    const unsigned char *discard = counts_field(e, N_move_discard, PE_MOVES);
    if (!seen || !discard) return -1;
    if (copy_bytes(e, sp[E_ADVENTURE_SEEN], seen, PE_ADVENTURES) < 0) return -1;
    if (copy_bytes(e, sp[E_MOVE_DISCARD], discard, PE_MOVES) < 0) return -1;
    if (write_moves(e, seat) < 0 || write_decision(e, seat, pending) < 0) return -1;
    /* PSM-1077, 1078 */
    long start = within(as_long(e->f[N_start_seat]), n, "a start seat");
    if (start < 0 || put(&e->v, sp[E_START_SEAT] + (start - seat + n) % n, 1.0) < 0) return -1;
    long turn = as_long(e->f[N_turn_index]);
    if ((turn == -1 && PyErr_Occurred()) || put(&e->v, sp[E_TURN_INDEX], (double)turn) < 0) return -1;
    /* PSM-1079..1081: the tallies, per offset */
    const unsigned char *moves_by = counts_field(e, N_move_tally, 27 * n), *repairs = counts_field(e, N_repair_tally, n);
    const unsigned char *accusations = counts_field(e, N_accusation_tally, PE_SHIPS * n);
    if (!moves_by || !repairs || !accusations) return -1;
    if (rotated(e, sp[E_MOVE_TALLY], moves_by, 27, seat) < 0 || rotated(e, sp[E_REPAIR_TALLY], repairs, 1, seat) < 0
        || rotated(e, sp[E_ACCUSATION_TALLY], accusations, PE_SHIPS, seat) < 0) return -1;
    /* PSM-1082: the last n turns, newest first */
    long block = 2 * n + sp[E_TURN_KINDS] + PE_SHIPS;
    Py_ssize_t shown = PyList_GET_SIZE(recent) < n ? PyList_GET_SIZE(recent) : n;
    for (Py_ssize_t i = 0; i < shown; i++) {
        if (write_turn(e, sp[E_RECENT_TURNS] + i * block, PyList_GET_ITEM(recent, i), seat) < 0) return -1;
    }
    return 0;
}

PyObject *potsm_encode(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out, *state, *spec;
    long seat;
    if (!PyArg_ParseTuple(args, "OOlO", &out, &state, &seat, &spec)) return NULL;
    Enc e;
    if (twin_spec_ints(spec, E_COUNT, E_COUNT, e.sp, "potsm_encode") < 0) return NULL;
    if (e.sp[E_N] < 2 || e.sp[E_N] > PE_MAX_N || seat < 0 || seat >= e.sp[E_N]) {
        PyErr_SetString(PyExc_ValueError, "potsm_encode: bad seat or player count");
        return NULL;
    }
    if (intern_names(name_strings, interned, N_COUNT) < 0) return NULL;
    Py_buffer buf;
    if (PyObject_GetBuffer(out, &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (buf.format == NULL || strcmp(buf.format, "f") != 0 || buf.len != (Py_ssize_t)(e.sp[E_SIZE] * (long)sizeof(float))) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "potsm_encode: the output must be a float32 vector of the observation's size");
        return NULL;
    }
    e.v = (Vec){(float *)buf.buf, (Py_ssize_t)e.sp[E_SIZE], "potsm_encode: "};
    /* The fields are plain instance attributes (ByteCounts has no __get__): read from the instance dict,
     * with getattr for anything not found there. */
    PyObject *dict = PyObject_GenericGetDict(state, NULL);
    if (dict == NULL || !PyDict_Check(dict)) {
        Py_CLEAR(dict);
        PyErr_Clear();
    }
    int got = 0, ok = -1;
    for (; got < N_COUNT; got++) {
        PyObject *value = dict != NULL ? PyDict_GetItemWithError(dict, interned[got]) : NULL;
        if (value != NULL) {
            Py_INCREF(value);
        } else if (PyErr_Occurred() || (value = PyObject_GetAttr(state, interned[got])) == NULL) {
            break;
        }
        e.f[got] = value;
    }
    if (got == N_COUNT) ok = encode(&e, seat);
    for (int i = 0; i < got; i++) Py_DECREF(e.f[i]);
    Py_XDECREF(dict);
    PyBuffer_Release(&buf);
    if (ok < 0) return NULL;
    Py_RETURN_NONE;
}
