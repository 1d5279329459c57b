/* Madame Ching's compiled observation encoder (part of pirate_envs._native, optional).
 *
 * mch_counts(buf, state, seat, spec): the observation counts of ``seat`` written into the zero-filled
 *     bytearray ``buf``, the twin of pirate_envs.games.madame_ching.observation.ObservationEncoder._encode
 *     before its division by the scales. ``spec`` is the seat's entry of ObservationEncoder.native_specs.
 *
 * tests/test_native.py checks it against the Python encoder on every seat of the states of many random
 * games. A value it does not expect (or a count past 255) raises (ValueError, TypeError, IndexError) and the
 * caller runs the Python encoder. The sections are written in the order of the Python encoder, one function
 * each.
 */
#include "core/native/common.h"

/* Order of madame_ching.observation.ObservationEncoder.native_specs (keep the two in step). */
enum {
    M_P, M_B, M_SELECT, M_SKILL_CLAIM, M_TEAM, M_PARTNER, M_BOATS_OF, M_RELATIVE, M_BOAT_OWNER, M_ICON,
    M_SELECT_BOAT, M_OWN_HAND, M_OWN_PICKS, M_REVEALED_PICKS, M_BOAT_FLAGS, M_DISPLAY, M_EXPEDITIONS, M_SKILLS,
    M_KNOWN_CARDS, M_HISTORY, M_MISSIONS, M_SUPPLY, M_PILES, M_PROGRESS, M_PENDING, M_TEAM_DEBT,
    M_COUNT
};

/* The state's attributes read (MadameChingState). */
#define NAMES(X) X(over) X(truncated) X(phase) X(select_seat) X(active_boat) X(select_boat) X(hands) X(revealed) \
    X(shown_picks) X(picks) X(acted) X(expeditions) X(positions) X(display) X(skills) X(tokens) X(enc_hands) \
    X(known) X(last_action) X(board) X(set_aside) X(stacks) X(pearl_owner) X(hk_owner) X(supply) \
    X(nav_discard) X(nav_deck) X(enc_deck) X(enc_discard) X(end_triggered) X(pending_enc) X(combat_card) \
    X(gift_queue) X(pending_target) X(claim_pool) X(owes)
NAME_TABLE(NAMES)

/* One call: the counts, the state and seat, the spec's ints (m) and its boat tables (tuples, borrowed). */
typedef struct {
    Counts c;
    PyObject *state;
    long seat, P;
    long m[M_COUNT];
    PyObject *boats_of, *rel, *boat_owner, *icon;
} Enc;

/* buf[base + item] = 1 for every item of the sequence ``seq``. */
static int count_ones(Counts *c, PyObject *seq, long base) {
    PyObject *f = fast(seq);
    if (f == NULL) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        long x = as_long(PySequence_Fast_GET_ITEM(f, i));
        if ((x == -1 && PyErr_Occurred()) || set_count(c, base + x, 1, 0) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}

/* buf[base + x] = 1 for every x of the state's attribute ``key`` (a list), each within [lo, hi] (else
 * ``what`` is refused). */
static int ranged_ones(Enc *e, PyObject *key, long base, long lo, long hi, const char *what) {
    PyObject *o = attr(e->state, key), *f = NULL;
    if (o == NULL) return -1;
    f = fast(o);
    Py_DECREF(o);
    if (f == NULL) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        long x = as_long(PySequence_Fast_GET_ITEM(f, i));
        if (x == -1 && PyErr_Occurred()) goto fail;
        if (x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "%s outside %ld..%ld", what, lo, hi);
            goto fail;
        }
        if (set_count(&e->c, base + x, 1, 0) < 0) goto fail;
    }
    Py_DECREF(f);
    return 0;
fail:
    Py_DECREF(f);
    return -1;
}

/* The phase (and the boat to select in Select) for the seat to act only: ``acting`` says whether it is. */
static int write_turn(Enc *e, long *phase, int *acting) {
    PyObject *state = e->state;
    const long *m = e->m;
    long value;
    *acting = 0;
    int over = true_attr(state, NAME(over));
    if (over < 0) goto fail;
    int truncated = true_attr(state, NAME(truncated));
    if (truncated < 0) goto fail;
    CHECK_LONG(*phase, int_attr(state, NAME(phase)));
    if (!over && !truncated) {
        long current;
        if (*phase == m[M_SELECT]) {
            CHECK_LONG(current, int_attr(state, NAME(select_seat)));
        } else {
            long boat;
            CHECK_LONG(boat, int_attr(state, NAME(active_boat)));
            if (boat < 0 || boat >= PyTuple_GET_SIZE(e->boat_owner)) {
                PyErr_SetString(PyExc_ValueError, "mch_counts: no active boat outside Select");
                goto fail;
            }
            CHECK_LONG(current, as_long(PyTuple_GET_ITEM(e->boat_owner, boat)));
        }
        *acting = current == e->seat;
    }
    if (*acting) {
        CHECK(set_count(&e->c, *phase, 1, 0));
        if (*phase == m[M_SELECT]) {
            CHECK_LONG(value, int_attr(state, NAME(select_boat)));
            CHECK(set_count(&e->c, m[M_SELECT_BOAT] + value, 1, 0));
        }
    }
    return 0;
fail:
    return -1;
}

/* Boat ``b``, the ``i``-th of the table in the viewer's order: its revealed pick (from ``shown``, NULL while
 * the picks are hidden), its acted flag, its 77-entry expedition block (cards, column and row one-hots,
 * last card, icon counts) and its position. */
static int write_boat(Enc *e, long i, long b, PyObject *shown, PyObject *acted, PyObject *expeditions,
                      PyObject *positions) {
    PyObject *item = NULL, *seq = NULL;
    const long *m = e->m;
    Counts *c = &e->c;
    if (shown != NULL) {
        long pick;
        CHECK_LONG(pick, item_long(shown, b));
        if (pick) CHECK(set_count(c, m[M_REVEALED_PICKS] - 1 + 55 * i + pick, 1, 0));
    }
    int done = item_true(acted, b);
    if (done < 0) goto fail;
    if (done) CHECK(set_count(c, m[M_BOAT_FLAGS] + 2 * i, 1, 0));
    long blk = m[M_EXPEDITIONS] + 77 * i, last = -1;
    item = item_at(expeditions, b);
    if (item == NULL) goto fail;
    seq = fast(item);
    Py_CLEAR(item);
    if (seq == NULL) goto fail;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        long card, kind;
        CHECK_LONG(card, as_long(PySequence_Fast_GET_ITEM(seq, k)));
        if (card < 1 || card > 55 || card >= PyTuple_GET_SIZE(e->icon)) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: expedition card outside 1..55");
            goto fail;
        }
        CHECK(set_count(c, blk + card - 1, 1, 0));
        CHECK_LONG(kind, as_long(PyTuple_GET_ITEM(e->icon, card)));
        if (kind >= 0) {
            if (kind > 3) {
                PyErr_SetString(PyExc_ValueError, "mch_counts: icon outside 0..3");
                goto fail;
            }
            CHECK(set_count(c, blk + 73 + kind, 1, 1));
        }
        last = card;
    }
    Py_CLEAR(seq);
    if (last >= 0) CHECK(set_count(c, blk + 72, last, 0));
    item = item_at(positions, b);
    if (item == NULL) goto fail;
    seq = fast(item);
    Py_CLEAR(item);
    if (seq == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        PyErr_SetString(PyExc_ValueError, "mch_counts: a position is not (column, row)");
        goto fail;
    }
    long col, row;
    CHECK_LONG(col, as_long(PySequence_Fast_GET_ITEM(seq, 0)));
    CHECK_LONG(row, as_long(PySequence_Fast_GET_ITEM(seq, 1)));
    Py_CLEAR(seq);
    if (col < 0 || col > 8 || row < 0 || row > 7) {
        PyErr_SetString(PyExc_ValueError, "mch_counts: a position off the grid");
        goto fail;
    }
    CHECK(set_count(c, blk + 55 + col, 1, 0));
    CHECK(set_count(c, blk + 64 + row, 1, 0));
    return 0;
fail:
    Py_XDECREF(item); Py_XDECREF(seq);
    return -1;
}

/* The seat's own hand, the picks of its own boats, then every boat on the table (write_boat). */
static int write_boats(Enc *e) {
    PyObject *state = e->state, *o = NULL, *item = NULL, *shown = NULL, *picks = NULL, *acted = NULL;
    PyObject *expeditions = NULL, *positions = NULL;
    const long *m = e->m;
    o = attr(state, NAME(hands));
    if (o == NULL) goto fail;
    item = item_at(o, e->seat);
    if (item == NULL) goto fail;
    CHECK(count_ones(&e->c, item, m[M_OWN_HAND] - 1));
    Py_CLEAR(item);
    Py_CLEAR(o);
    int revealed = true_attr(state, NAME(revealed));
    if (revealed < 0) goto fail;
    shown = attr(state, NAME(shown_picks));
    if (shown == NULL) goto fail;
    picks = revealed ? (Py_INCREF(shown), shown) : attr(state, NAME(picks));
    if (picks == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e->boats_of); i++) {
        long b, pick;
        CHECK_LONG(b, as_long(PyTuple_GET_ITEM(e->boats_of, i)));
        CHECK_LONG(pick, item_long(picks, b));
        if (pick) CHECK(set_count(&e->c, m[M_OWN_PICKS] - 1 + 55 * i + pick, 1, 0));
    }
    acted = attr(state, NAME(acted));
    if (acted == NULL) goto fail;
    expeditions = attr(state, NAME(expeditions));
    positions = attr(state, NAME(positions));
    if (expeditions == NULL || positions == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e->rel); i++) {
        long b;
        CHECK_LONG(b, as_long(PyTuple_GET_ITEM(e->rel, i)));
        CHECK(write_boat(e, (long)i, b, revealed ? shown : NULL, acted, expeditions, positions));
    }
    Py_DECREF(shown); Py_DECREF(picks); Py_DECREF(acted); Py_DECREF(expeditions); Py_DECREF(positions);
    return 0;
fail:
    Py_XDECREF(o); Py_XDECREF(item); Py_XDECREF(shown); Py_XDECREF(picks); Py_XDECREF(acted);
    Py_XDECREF(expeditions); Py_XDECREF(positions);
    return -1;
}

/* The active boat's flag. */
static int write_active_boat(Enc *e) {
    long value;
    CHECK_LONG(value, int_attr(e->state, NAME(active_boat)));
    if (value >= 0) {
        long i = -1;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(e->rel); k++) {
            long b;
            CHECK_LONG(b, as_long(PyTuple_GET_ITEM(e->rel, k)));
            if (b == value) {
                i = (long)k;
                break;
            }
        }
        if (i < 0) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: the active boat is not on the table");
            goto fail;
        }
        CHECK(set_count(&e->c, e->m[M_BOAT_FLAGS] + 2 * i + 1, 1, 0));
    }
    return 0;
fail:
    return -1;
}

/* display: slot 0 face down (only whether it holds a card), slots 1-3 open */
static int write_display(Enc *e) {
    PyObject *display = attr(e->state, NAME(display));
    if (display == NULL) return -1;
    long base = e->m[M_DISPLAY], card;
    CHECK_LONG(card, item_long(display, 0));
    CHECK(set_count(&e->c, card ? base + 55 : base + 56, 1, 0));
    for (long slot = 1; slot <= 3; slot++) {
        CHECK_LONG(card, item_long(display, slot));
        CHECK(set_count(&e->c, base + 57 * slot + (card ? card - 1 : 56), 1, 0));
    }
    Py_DECREF(display);
    return 0;
fail:
    Py_DECREF(display);
    return -1;
}

/* skills (10 a seat), tokens (4 a seat), own encounters, hand sizes (2 a seat): contiguous, seats in the
 * viewer's order */
static int write_seats(Enc *e) {
    PyObject *state = e->state, *item = NULL, *seq = NULL;
    Counts *c = &e->c;
    const long P = e->P, seat = e->seat;
    long at = e->m[M_SKILLS], n;
    PyObject *skills = attr(state, NAME(skills)), *tokens = attr(state, NAME(tokens));
    PyObject *enc_hands = attr(state, NAME(enc_hands)), *hands = attr(state, NAME(hands));
    PyObject *lists[2] = {skills, tokens};
    if (skills == NULL || tokens == NULL || enc_hands == NULL || hands == NULL) {
        Py_XDECREF(skills); Py_XDECREF(tokens); Py_XDECREF(enc_hands); Py_XDECREF(hands);
        return -1;
    }
    int ok = 1;
    for (int field = 0; field < 2 && ok; field++) {
        for (long k = 0; k < P && ok; k++) {
            item = item_at(lists[field], (seat + k) % P);
            n = item == NULL ? -1 : copy_counts(c, item, at, -1);
            Py_CLEAR(item);
            if (n < 0) ok = 0; else at += n;
        }
    }
    if (ok) {
        item = item_at(enc_hands, seat);
        n = item == NULL ? -1 : copy_counts(c, item, at, -1);
        Py_CLEAR(item);
        if (n < 0) ok = 0; else at += n;
    }
    for (long k = 0; k < P && ok; k++) {
        long t = (seat + k) % P, total = 0;
        item = item_at(enc_hands, t);
        seq = item == NULL ? NULL : fast(item);
        Py_CLEAR(item);
        if (seq == NULL) { ok = 0; break; }
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
            long x = as_long(PySequence_Fast_GET_ITEM(seq, j));
            if (x == -1 && PyErr_Occurred()) { ok = 0; break; }
            total += x;
        }
        Py_CLEAR(seq);
        if (!ok || set_count(c, at + 2 * k, total, 0) < 0) { ok = 0; break; }
        item = item_at(hands, t);
        Py_ssize_t len = item == NULL ? -1 : PyObject_Length(item);
        Py_CLEAR(item);
        if (len < 0 || set_count(c, at + 2 * k + 1, (long)len, 0) < 0) ok = 0;
    }
    Py_DECREF(skills); Py_DECREF(tokens); Py_DECREF(enc_hands); Py_DECREF(hands);
    return ok ? 0 : -1;
}

/* cards this seat knows in the other hands, offsets 1..P-1 */
static int write_known(Enc *e) {
    PyObject *o = attr(e->state, NAME(known));
    if (o == NULL) return -1;
    PyObject *item = item_at(o, e->seat);
    Py_DECREF(o);
    if (item == NULL) return -1;
    for (long off = 1; off < e->P; off++) {
        PyObject *hand = item_at(item, (e->seat + off) % e->P);
        if (hand == NULL) goto fail;
        int r = count_ones(&e->c, hand, e->m[M_KNOWN_CARDS] - 56 + 55 * off);
        Py_DECREF(hand);
        if (r < 0) goto fail;
    }
    Py_DECREF(item);
    return 0;
fail:
    Py_DECREF(item);
    return -1;
}

/* each seat's last action: kind one-hot (9), target offset one-hot (4) */
static int write_history(Enc *e) {
    PyObject *o = attr(e->state, NAME(last_action));
    if (o == NULL) return -1;
    const long base = e->m[M_HISTORY];
    for (long k = 0; k < e->P; k++) {
        PyObject *item = item_at(o, (e->seat + k) % e->P);
        if (item == NULL) goto fail;
        Py_ssize_t pair = PyObject_Length(item);
        long kind = pair == 2 ? item_long(item, 0) : -1;
        long target = pair == 2 && !PyErr_Occurred() ? item_long(item, 1) : -1;
        Py_DECREF(item);
        if (PyErr_Occurred()) goto fail;
        if (kind < 0 || kind > 8 || target < 0 || target > 3) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: a last action outside the history table");
            goto fail;
        }
        CHECK(set_count(&e->c, base + 13 * k + kind, 1, 0));
        CHECK(set_count(&e->c, base + 13 * k + 9 + target, 1, 0));
    }
    Py_DECREF(o);
    return 0;
fail:
    Py_DECREF(o);
    return -1;
}

/* missions: tiles on the board, tiles set aside */
static int write_missions(Enc *e) {
    if (ranged_ones(e, NAME(board), e->m[M_MISSIONS], 0, 22, "a mission tile") < 0) return -1;
    return ranged_ones(e, NAME(set_aside), e->m[M_MISSIONS] + 23, 0, 22, "a mission tile");
}

/* supply: stacks (5), the China Pearl's and Hong Kong's owners (offset + 1, 0 for none), tokens (4) */
static int write_supply(Enc *e) {
    PyObject *state = e->state;
    long base = e->m[M_SUPPLY], owner;
    CHECK(attr_counts(&e->c, state, NAME(stacks), base, 5));
    base += 5;
    CHECK_LONG(owner, int_attr(state, NAME(pearl_owner)));
    CHECK(set_count(&e->c, base + (owner < 0 ? 0 : 1 + mod(owner - e->seat, e->P)), 1, 0));
    base += e->P + 1;
    CHECK_LONG(owner, int_attr(state, NAME(hk_owner)));
    CHECK(set_count(&e->c, base + (owner < 0 ? 0 : 1 + mod(owner - e->seat, e->P)), 1, 0));
    base += e->P + 1;
    CHECK(attr_counts(&e->c, state, NAME(supply), base, 4));
    return 0;
fail:
    return -1;
}

/* piles: the navigation discard, the two deck sizes, encounter discard counts per kind; then the progress
 * flags (the end triggered, the team game) */
static int write_piles(Enc *e) {
    PyObject *state = e->state, *seq = NULL;
    const long base = e->m[M_PILES];
    Py_ssize_t len;
    long ended;
    CHECK(ranged_ones(e, NAME(nav_discard), base - 1, 1, 55, "a discarded card"));
    if ((len = attr_length(state, NAME(nav_deck))) < 0) goto fail;
    CHECK(set_count(&e->c, base + 55, (long)len, 0));
    if ((len = attr_length(state, NAME(enc_deck))) < 0) goto fail;
    CHECK(set_count(&e->c, base + 56, (long)len, 0));
    GET_FAST(seq, enc_discard);
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        long kind;
        CHECK_LONG(kind, as_long(PySequence_Fast_GET_ITEM(seq, k)));
        if (kind < 0 || kind > 9) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: an encounter kind outside 0..9");
            goto fail;
        }
        CHECK(set_count(&e->c, base + 57 + kind, 1, 1));
    }
    Py_CLEAR(seq);
    CHECK_LONG(ended, int_attr(state, NAME(end_triggered)));
    CHECK(set_count(&e->c, e->m[M_PROGRESS] + 1, ended, 0));
    CHECK(set_count(&e->c, e->m[M_PROGRESS] + 2, e->m[M_TEAM] ? 1 : 0, 0));
    return 0;
fail:
    Py_XDECREF(seq);
    return -1;
}

/* the acting seat's pending decision (outside Select) */
static int write_pending(Enc *e, long phase) {
    PyObject *state = e->state, *o = NULL;
    const long base = e->m[M_PENDING];
    long value;
    CHECK_LONG(value, int_attr(state, NAME(pending_enc)));
    if (value >= 0) CHECK(set_count(&e->c, base + value - 3, 1, 0));
    CHECK_LONG(value, int_attr(state, NAME(combat_card)));
    if (value) CHECK(set_count(&e->c, base + 7 + value - 1, 1, 0));
    o = attr(state, NAME(gift_queue));
    if (o == NULL) goto fail;
    Py_ssize_t len = PyObject_Length(o);
    if (len < 0) goto fail;
    if (len > 0) {
        CHECK_LONG(value, item_long(o, 0));
        CHECK(set_count(&e->c, base + 62 + value, 1, 0));
    }
    Py_CLEAR(o);
    CHECK_LONG(value, int_attr(state, NAME(pending_target)));
    if (value >= 0) CHECK(set_count(&e->c, base + 72 + mod(value - e->seat, e->P) - 1, 1, 0));
    if (phase == e->m[M_SKILL_CLAIM]) CHECK(attr_counts(&e->c, state, NAME(claim_pool), base + 75, 4));
    return 0;
fail:
    Py_XDECREF(o);
    return -1;
}

/* the team game's debts: the seat's and its partner's */
static int write_team(Enc *e) {
    PyObject *o = attr(e->state, NAME(owes));
    if (o == NULL) return -1;
    long value;
    CHECK_LONG(value, item_long(o, e->seat));
    CHECK(set_count(&e->c, e->m[M_TEAM_DEBT], value, 0));
    CHECK_LONG(value, item_long(o, e->m[M_PARTNER]));
    CHECK(set_count(&e->c, e->m[M_TEAM_DEBT] + 1, value, 0));
    Py_DECREF(o);
    return 0;
fail:
    Py_DECREF(o);
    return -1;
}

PyObject *mch_counts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *buf_obj, *spec;
    Enc e;
    long *m = e.m;
    if (intern_names(name_strings, interned, N_COUNT) < 0) return NULL;
    if (parse_call(args, "mch_counts", M_COUNT, &buf_obj, &e.state, &e.seat, &spec) < 0) return NULL;
    for (int i = 0; i < M_COUNT; i++) {
        if (i == M_BOATS_OF || i == M_RELATIVE || i == M_BOAT_OWNER || i == M_ICON) continue;
        m[i] = as_long(PyTuple_GET_ITEM(spec, i));
        if (m[i] == -1 && PyErr_Occurred()) return NULL;
    }
    e.boats_of = PyTuple_GET_ITEM(spec, M_BOATS_OF);
    e.rel = PyTuple_GET_ITEM(spec, M_RELATIVE);
    e.boat_owner = PyTuple_GET_ITEM(spec, M_BOAT_OWNER);
    e.icon = PyTuple_GET_ITEM(spec, M_ICON);
    if (!PyTuple_Check(e.boats_of) || !PyTuple_Check(e.rel) || !PyTuple_Check(e.boat_owner) || !PyTuple_Check(e.icon)) {
        PyErr_SetString(PyExc_TypeError, "mch_counts: boat tables must be tuples");
        return NULL;
    }
    if (!PyByteArray_Check(buf_obj)) {
        PyErr_SetString(PyExc_TypeError, "mch_counts: the buffer must be a bytearray");
        return NULL;
    }
    e.P = m[M_P];
    if (e.P < 2 || e.seat < 0 || e.seat >= e.P || PyTuple_GET_SIZE(e.rel) != m[M_B]) {
        PyErr_SetString(PyExc_ValueError, "mch_counts: bad seat, player count or boat table");
        return NULL;
    }
    /* held as an export while the state's Python code runs: the bytearray cannot be resized under us */
    Py_buffer view;
    if (PyObject_GetBuffer(buf_obj, &view, PyBUF_WRITABLE) < 0) return NULL;
    e.c = (Counts){(unsigned char *)view.buf, view.len};
    long phase;
    int acting;
    int failed = write_turn(&e, &phase, &acting) < 0 || write_boats(&e) < 0 || write_active_boat(&e) < 0 ||
                 write_display(&e) < 0 || write_seats(&e) < 0 || write_known(&e) < 0 || write_history(&e) < 0 ||
                 write_missions(&e) < 0 || write_supply(&e) < 0 || write_piles(&e) < 0 ||
                 (acting && phase != m[M_SELECT] && write_pending(&e, phase) < 0) ||
                 (m[M_TEAM] && write_team(&e) < 0);
    PyBuffer_Release(&view);
    if (failed) return NULL;
    Py_RETURN_NONE;
}
