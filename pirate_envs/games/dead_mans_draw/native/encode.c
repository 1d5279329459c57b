/* Dead Man's Draw's compiled observation encoder (part of pirate_envs._native, optional).
 *
 * dmd_encode(out, state, seat, spec): the observation of ``seat``, the twin of
 *     pirate_envs.games.dead_mans_draw.observation.ObservationEncoder.encode_python. ``out`` is a
 *     zero-filled writable float32 buffer of the observation's size; ``spec`` the tuple of field
 *     offsets and constants that ObservationEncoder.native_spec builds once per game.
 *
 * tests/test_native.py checks it against the Python encoder on every seat of the states of many random
 * games. A value it does not expect raises (ValueError, TypeError, IndexError) and the caller runs the
 * Python encoder. The sections are written in the order of the Python encoder, one function each.
 */
#include "core/native/common.h"

/* Order of ObservationEncoder.native_spec (keep the two in step). */
enum {
    S_SIZE, S_N, S_NUM_CARDS, S_NUM_ABILITIES, S_GAME_OVER, S_MAP_PICK, S_LOCKER_ACCEPT, S_MERMAID_PICK,
    S_RAKE_PICK, S_ROW_SCALE, S_DECK_SCALE, S_SCORE_SCALE, S_PLUNDER_SCALE, S_FORCED_DRAW_MAX,
    S_MAX_DECISIONS, S_NUM_SUITS, S_PIRI_REIS, S_GRAND_SLAM, S_CONFIG_ONES, S_CARD_VALUES,
    S_PHASE, S_ACTIVE_PLAYER, S_MY_COLLECTION, S_ROW_CARDS, S_ROW_POSITION, S_MARKER_POSITION,
    S_ROW_HOOK_PROTECTED, S_DISCARD_PILE, S_DRAW_PILE_CARDS, S_DRAW_PILE_SIZE, S_KNOWN_TOP,
    S_MY_DEALT_ABILITIES, S_ABILITIES, S_LOCKER_TARGET, S_SCORES, S_ELIMINATED, S_CONFIG, S_FORCED_DRAWS,
    S_OFFER_CARDS, S_MISER_FIRST_SUIT, S_PLUNDER_TARGET, S_PLUNDER_REMAINING, S_TURNS_TAKEN_BUSTS,
    S_LAST_TURN_PLAYER, S_LAST_TURN_CARDS, S_LAST_TURN_BUSTED, S_DECISION_PROGRESS,
    S_COUNT
};

#define MAX_PLAYERS 8

/* The state's attributes read (DmdState). */
#define NAMES(X) X(phase) X(decider) X(active) X(collections) X(discard) X(draw_pile) X(row) X(hook_protected) \
    X(known) X(dealt) X(kept) X(revealed) X(locker_target) X(eliminated) X(variant) X(offer) X(choices) \
    X(hook_s1) X(tasks) X(plunder_target) X(last_turn_player) X(last_turn_cards) X(last_turn_busted) \
    X(turns_taken) X(busts) X(plunder_remaining) X(decisions)
NAME_TABLE(NAMES)

/* One call: the vector, the state and seat, the spec's entries as longs (sp) and as doubles (spd). */
typedef struct {
    Vec v;
    PyObject *state, *spec;
    long seat, n;
    long sp[S_COUNT];
    double spd[S_COUNT];
} Enc;

/* out[base + c] = 1 for every int c of ``seq`` (a new or borrowed reference, not consumed). */
static int ones(Vec *v, PyObject *seq, long base) {
    PyObject *f = fast(seq); /* no Python code runs while it is read */
    if (f == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = as_long(items[i]);
        if ((c == -1 && PyErr_Occurred()) || put(v, base + c, 1.0) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}

/* ones() of the state's attribute ``key``. */
static int attr_ones(Enc *e, PyObject *key, long base) {
    PyObject *o = attr(e->state, key);
    if (o == NULL) return -1;
    int r = ones(&e->v, o, base);
    Py_DECREF(o);
    return r;
}

/* The spec's entries (the two tables aside) as longs and doubles. */
static int read_spec(Enc *e, PyObject *spec) {
    for (int i = 0; i < S_COUNT; i++) {
        PyObject *o = PyTuple_GET_ITEM(spec, i);
        if (i == S_CONFIG_ONES || i == S_CARD_VALUES) continue;
        if (PyFloat_Check(o)) {
            e->spd[i] = PyFloat_AS_DOUBLE(o);
            e->sp[i] = 0;
        } else {
            e->sp[i] = as_long(o);
            if (e->sp[i] == -1 && PyErr_Occurred()) return -1;
            e->spd[i] = (double)e->sp[i];
        }
    }
    return 0;
}

/* The phase (for the deciding seat only) and the active player; the phase into ``phase``. */
static int write_turn(Enc *e, long *phase) {
    PyObject *state = e->state;
    const long *sp = e->sp, seat = e->seat;
    long decider, active;
    CHECK_LONG(*phase, int_attr(state, NAME(phase)));
    if (*phase != sp[S_GAME_OVER]) {
        CHECK_LONG(decider, int_attr(state, NAME(decider)));
        if (decider == seat) CHECK(put(&e->v, sp[S_PHASE] + *phase, 1.0));
        CHECK_LONG(active, int_attr(state, NAME(active)));
        CHECK(put(&e->v, sp[S_ACTIVE_PLAYER] + mod(active - seat, e->n), 1.0));
    }
    return 0;
fail:
    return -1;
}

/* collections (DMD-1062, 1063): per offset k, every card of every suit stack; and each seat's live score S
 * into scores[k] (DMD-701, the twin of DmdState.live_score): every card's value under Piri Reis, else each
 * suit's top card, Grand Slam taking 5 per empty suit. The variant into ``variant``. */
static int write_collections(Enc *e, long *scores, long *variant) {
    PyObject *state = e->state, *collections = NULL, *inner = NULL;
    const long *sp = e->sp, n = e->n, seat = e->seat, NC = sp[S_NUM_CARDS];
    GET_SNAPSHOT(collections, collections);
    if (PySequence_Fast_GET_SIZE(collections) != n) {
        PyErr_SetString(PyExc_ValueError, "dmd_encode: collections of the wrong length");
        goto fail;
    }
    PyObject *values = PyTuple_GET_ITEM(e->spec, S_CARD_VALUES);
    if (!PyTuple_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "dmd_encode: card values must be a tuple");
        goto fail;
    }
    CHECK_LONG(*variant, int_attr(state, NAME(variant)));
    if (n > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "dmd_encode: more than 8 players");
        goto fail;
    }
    for (long k = 0; k < n; k++) {
        inner = snapshot(PySequence_Fast_GET_ITEM(collections, (seat + k) % n));
        if (inner == NULL) goto fail;
        long all = 0, tops = 0, held = 0;
        for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(inner); s++) {
            PyObject *stack = fast(PySequence_Fast_GET_ITEM(inner, s)); /* read without running Python */
            if (stack == NULL) goto fail;
            Py_ssize_t len = PySequence_Fast_GET_SIZE(stack);
            for (Py_ssize_t i = 0; i < len; i++) {
                long c = as_long(PySequence_Fast_GET_ITEM(stack, i));
                if ((c == -1 && PyErr_Occurred()) || put(&e->v, sp[S_MY_COLLECTION] + NC * k + c, 1.0) < 0) {
                    Py_DECREF(stack);
                    goto fail;
                }
                if (c < 0 || c >= PyTuple_GET_SIZE(values)) {
                    Py_DECREF(stack);
                    PyErr_SetString(PyExc_IndexError, "dmd_encode: card id outside the deck");
                    goto fail;
                }
                long value = as_long(PyTuple_GET_ITEM(values, c));
                if (value == -1 && PyErr_Occurred()) {
                    Py_DECREF(stack);
                    goto fail;
                }
                all += value;
                if (i == len - 1) {
                    tops += value;
                    held += 1;
                }
            }
            Py_DECREF(stack);
        }
        Py_CLEAR(inner);
        if (*variant == sp[S_PIRI_REIS])
            scores[k] = all;
        else if (*variant == sp[S_GRAND_SLAM])
            scores[k] = tops - 5 * (sp[S_NUM_SUITS] - held);
        else
            scores[k] = tops;
    }
    Py_DECREF(collections);
    return 0;
fail:
    Py_XDECREF(collections); Py_XDECREF(inner);
    return -1;
}

/* The cards in the open: the discard pile, the draw pile (its length into ``pile_len``), the row with each
 * card's position and the marker's, the hook-protected cards of the row, and the seat's own peeks at the
 * top of the pile (DMD-1071). */
static int write_cards(Enc *e, Py_ssize_t *pile_len) {
    PyObject *state = e->state, *pile = NULL, *row = NULL, *seq = NULL, *known = NULL, *inner = NULL;
    const long *sp = e->sp, seat = e->seat, NC = sp[S_NUM_CARDS];
    const double row_scale = e->spd[S_ROW_SCALE];
    Vec *v = &e->v;
    CHECK(attr_ones(e, NAME(discard), sp[S_DISCARD_PILE]));
    GET_SNAPSHOT(pile, draw_pile);
    CHECK(ones(v, pile, sp[S_DRAW_PILE_CARDS]));
    *pile_len = PySequence_Fast_GET_SIZE(pile);
    GET_SNAPSHOT(row, row);
    Py_ssize_t row_len = PySequence_Fast_GET_SIZE(row);
    if (row_len) {
        for (Py_ssize_t i = 0; i < row_len; i++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(row, i)));
            if (c >= 0) {
                CHECK(put(v, sp[S_ROW_CARDS] + c, 1.0));
                CHECK(put(v, sp[S_ROW_POSITION] + c, (double)(i + 1) / row_scale));
            } else {
                CHECK(put(v, sp[S_MARKER_POSITION], (double)(i + 1) / row_scale));
            }
        }
        GET_SNAPSHOT(seq, hook_protected);
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(seq, i)));
            int hooked = contains_long(row, c);
            CHECK(hooked);
            if (hooked) CHECK(put(v, sp[S_ROW_HOOK_PROTECTED] + c, 1.0));
        }
        Py_CLEAR(seq);
    }
    /* the seat's own peeks at the top of the pile (DMD-1071) */
    GET_SNAPSHOT(known, known);
    if (seat >= PySequence_Fast_GET_SIZE(known)) {
        PyErr_SetString(PyExc_IndexError, "dmd_encode: known shorter than the player count");
        goto fail;
    }
    inner = fast(PySequence_Fast_GET_ITEM(known, seat)); /* read without running Python */
    if (inner == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(inner)) {
        for (Py_ssize_t depth = 0; depth < 3 && depth < *pile_len; depth++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(pile, *pile_len - 1 - depth)));
            int peeked = contains_long(inner, c);
            CHECK(peeked);
            if (peeked) CHECK(put(v, sp[S_KNOWN_TOP] + NC * depth + c, 1.0));
        }
    }
    Py_DECREF(inner);
    Py_DECREF(known);
    Py_DECREF(row);
    Py_DECREF(pile);
    return 0;
fail:
    Py_XDECREF(pile); Py_XDECREF(row); Py_XDECREF(seq); Py_XDECREF(known); Py_XDECREF(inner);
    return -1;
}

/* abilities (DMD-1072, 1073; DMD-1012 e): the seat's dealt ones, the kept ones (every seat's once revealed);
 * then the Locker's target, the eliminated seats and the game's configuration. */
static int write_abilities(Enc *e, long variant) {
    PyObject *state = e->state, *seq = NULL, *kept = NULL, *eliminated = NULL;
    const long *sp = e->sp, n = e->n, seat = e->seat, NA = sp[S_NUM_ABILITIES];
    Vec *v = &e->v;
    long value;
    GET_SNAPSHOT(seq, dealt);
    if (seat >= PySequence_Fast_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_IndexError, "dmd_encode: dealt shorter than the player count");
        goto fail;
    }
    CHECK(ones(v, PySequence_Fast_GET_ITEM(seq, seat), sp[S_MY_DEALT_ABILITIES]));
    Py_CLEAR(seq);
    GET_FAST(kept, kept); /* read by item_long, which checks each index */
    int revealed = true_attr(state, NAME(revealed));
    if (revealed < 0) goto fail;
    if (revealed) {
        for (long k = 0; k < n; k++) {
            long a;
            CHECK_LONG(a, item_long(kept, (seat + k) % n));
            if (a >= 0) CHECK(put(v, sp[S_ABILITIES] + NA * k + a, 1.0));
        }
    } else {
        long a;
        CHECK_LONG(a, item_long(kept, seat));
        if (a >= 0) CHECK(put(v, sp[S_ABILITIES] + a, 1.0));
    }
    CHECK_LONG(value, int_attr(state, NAME(locker_target)));
    if (value >= 0) CHECK(put(v, sp[S_LOCKER_TARGET] + mod(value - seat, n), 1.0));
    GET_SNAPSHOT(eliminated, eliminated);
    for (long k = 0; k < n; k++) {
        if (PySequence_Fast_GET_SIZE(eliminated) != n) {
            PyErr_SetString(PyExc_IndexError, "dmd_encode: eliminated of the wrong length");
            goto fail;
        }
        int out = PyObject_IsTrue(PySequence_Fast_GET_ITEM(eliminated, (seat + k) % n));
        if (out < 0) goto fail;
        if (out) CHECK(put(v, sp[S_ELIMINATED] + k, 1.0));
    }
    CHECK(ones(v, PyTuple_GET_ITEM(e->spec, S_CONFIG_ONES), sp[S_CONFIG]));
    CHECK(put(v, sp[S_CONFIG] + variant, 1.0));
    Py_DECREF(kept);
    Py_DECREF(eliminated);
    return 0;
fail:
    Py_XDECREF(seq); Py_XDECREF(kept); Py_XDECREF(eliminated);
    return -1;
}

/* The pending decision: its offered cards (DMD-1079; DMD-1012 b, d), Miser's first suit while a SECOND_HOOK
 * is pending or asked (DMD-1080, DMD-1012 h), the pending forced draws (DMD-1078) from the same task list,
 * and the plunder's target. */
static int write_decision(Enc *e, long phase) {
    PyObject *state = e->state, *tasks = NULL;
    const long *sp = e->sp;
    Vec *v = &e->v;
    long s1, value;
    if (phase == sp[S_MAP_PICK] || phase == sp[S_LOCKER_ACCEPT]) {
        CHECK(attr_ones(e, NAME(offer), sp[S_OFFER_CARDS]));
    } else if (phase == sp[S_MERMAID_PICK] || phase == sp[S_RAKE_PICK]) {
        CHECK(attr_ones(e, NAME(choices), sp[S_OFFER_CARDS] - 12)); /* CARD actions start at 12 (DMD-1043) */
    }
    CHECK_LONG(s1, int_attr(state, NAME(hook_s1)));
    GET_SNAPSHOT(tasks, tasks);
    long forced = 0;
    int asked = s1 >= 0; /* the newest SECOND_HOOK task gives s1 when the state has none */
    for (Py_ssize_t i = PySequence_Fast_GET_SIZE(tasks) - 1; i >= 0; i--) {
        PyObject *task = fast(PySequence_Fast_GET_ITEM(tasks, i));
        if (task == NULL) goto fail;
        if (PySequence_Fast_GET_SIZE(task) != 2) {
            Py_DECREF(task);
            PyErr_SetString(PyExc_ValueError, "dmd_encode: a task is not a (kind, arg) pair");
            goto fail;
        }
        long kind = as_long(PySequence_Fast_GET_ITEM(task, 0));
        long arg = PyErr_Occurred() ? -1 : as_long(PySequence_Fast_GET_ITEM(task, 1));
        Py_DECREF(task);
        if (PyErr_Occurred()) goto fail;
        if (kind == 0) forced += arg;
        if (kind == 1 && !asked) {
            s1 = arg;
            asked = 1;
        }
    }
    if (s1 >= 0) CHECK(put(v, sp[S_MISER_FIRST_SUIT] + s1, 1.0));
    if (PySequence_Fast_GET_SIZE(tasks) && forced)
        CHECK(put(v, sp[S_FORCED_DRAWS], (double)forced / e->spd[S_FORCED_DRAW_MAX]));
    Py_CLEAR(tasks);
    CHECK_LONG(value, int_attr(state, NAME(plunder_target)));
    if (value >= 0) CHECK(put(v, sp[S_PLUNDER_TARGET] + mod(value - e->seat, e->n) - 1, 1.0));
    return 0;
fail:
    Py_XDECREF(tasks);
    return -1;
}

/* The last turn: its player, the cards it drew and whether it busted. */
static int write_last_turn(Enc *e) {
    const long *sp = e->sp;
    long value;
    CHECK_LONG(value, int_attr(e->state, NAME(last_turn_player)));
    if (value >= 0) {
        CHECK(put(&e->v, sp[S_LAST_TURN_PLAYER] + mod(value - e->seat, e->n), 1.0));
        CHECK(attr_ones(e, NAME(last_turn_cards), sp[S_LAST_TURN_CARDS]));
        int busted = true_attr(e->state, NAME(last_turn_busted));
        if (busted < 0) goto fail;
        if (busted) CHECK(put(&e->v, sp[S_LAST_TURN_BUSTED], 1.0));
    }
    return 0;
fail:
    return -1;
}

/* The fractional entries: the draw pile's size, the scores, the turns taken and busts, the plunder left and
 * the decisions made. */
static int write_fractions(Enc *e, const long *scores, Py_ssize_t pile_len) {
    PyObject *state = e->state, *turns = NULL, *busts = NULL;
    const long *sp = e->sp, n = e->n, seat = e->seat;
    const double *spd = e->spd;
    Vec *v = &e->v;
    long value;
    CHECK(put(v, sp[S_DRAW_PILE_SIZE], (double)pile_len / spd[S_DECK_SCALE]));
    GET_FAST(turns, turns_taken); /* read by item_long, which checks each index */
    GET_FAST(busts, busts);
    for (long k = 0; k < n; k++) {
        long t = (seat + k) % n;
        CHECK(put(v, sp[S_SCORES] + k, (double)scores[k] / spd[S_SCORE_SCALE]));
        long turn, bust;
        CHECK_LONG(turn, item_long(turns, t));
        if (turn) {
            CHECK(put(v, sp[S_TURNS_TAKEN_BUSTS] + k, (double)turn / spd[S_DECK_SCALE]));
            CHECK_LONG(bust, item_long(busts, t));
            if (bust) CHECK(put(v, sp[S_TURNS_TAKEN_BUSTS] + n + k, (double)bust / spd[S_DECK_SCALE]));
        }
    }
    Py_CLEAR(turns);
    Py_CLEAR(busts);
    CHECK_LONG(value, int_attr(state, NAME(plunder_remaining)));
    if (value) CHECK(put(v, sp[S_PLUNDER_REMAINING], (double)value / spd[S_PLUNDER_SCALE]));
    CHECK_LONG(value, int_attr(state, NAME(decisions)));
    CHECK(put(v, sp[S_DECISION_PROGRESS], (double)value / spd[S_MAX_DECISIONS]));
    return 0;
fail:
    Py_XDECREF(turns); Py_XDECREF(busts);
    return -1;
}

PyObject *dmd_encode(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_obj, *spec;
    Enc e;
    if (intern_names(name_strings, interned, N_COUNT) < 0) return NULL;
    if (parse_call(args, "dmd_encode", S_COUNT, &out_obj, &e.state, &e.seat, &spec) < 0) return NULL;
    if (read_spec(&e, spec) < 0) return NULL;
    Py_buffer buf;
    if (PyObject_GetBuffer(out_obj, &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (buf.len != (Py_ssize_t)(e.sp[S_SIZE] * (long)sizeof(float))) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "dmd_encode: output buffer of the wrong size");
        return NULL;
    }
    e.v = (Vec){(float *)buf.buf, (Py_ssize_t)e.sp[S_SIZE], ""};
    e.spec = spec;
    e.n = e.sp[S_N];
    long phase, variant, scores[MAX_PLAYERS];
    Py_ssize_t pile_len;
    int ok = 0;
    if (e.n < 2 || e.seat < 0 || e.seat >= e.n)
        PyErr_SetString(PyExc_ValueError, "dmd_encode: bad seat or player count");
    else
        ok = write_turn(&e, &phase) == 0 && write_collections(&e, scores, &variant) == 0 &&
             write_cards(&e, &pile_len) == 0 && write_abilities(&e, variant) == 0 && write_decision(&e, phase) == 0 &&
             write_last_turn(&e) == 0 && write_fractions(&e, scores, pile_len) == 0;
    PyBuffer_Release(&buf);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}
