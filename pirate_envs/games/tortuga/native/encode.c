/* Tortuga 1667's compiled observation encoder (part of pirate_envs._native, optional).
 *
 * tor_counts(buf, state, seat, spec): the observation of ``seat`` as stored bytes, written into ``buf`` (a
 *     copy of the encoder's template), the twin of pirate_envs.games.tortuga.observation.ObservationEncoder
 *     ._encode before the bias. ``spec`` is ObservationEncoder.native_spec.
 *
 * tests/test_native.py checks it against the Python encoder on every seat of the states of many random
 * games. A value it does not expect (or a count outside a byte) raises (ValueError, TypeError, IndexError)
 * and the caller runs the Python encoder. The sections are written in the order of the Python encoder,
 * one function each.
 */
#include "core/native/common.h"

/* Order of tortuga.observation.ObservationEncoder.native_spec (keep the two in step). */
enum {
    T_N, T_WILD_COOLDOWN, T_PUBLIC_STEAL, T_NUM_CARD_TYPES, T_NUM_LOG_TYPES, T_BIAS, T_PLAYER_BLOCK, T_LOG_ENTRY,
    T_PHASE, T_ROUND, T_ACTIVE, T_START, T_COUNTS, T_PLAYERS, T_OWN, T_YES_BY, T_CV_TYPE, T_CV_INIT,
    T_CV_TARGET, T_CV_PART, T_CV_OWN, T_CV_CARDS, T_CV_DECL, T_LV_TYPE, T_LOOT, T_EVENT, T_LOG,
    T_COUNT
};

/* The state's attributes (TortugaState) and the keys of its vote, last vote, loot and event dicts. */
#define NAMES(X) X(phase) X(current_player) X(round) X(active) X(start) X(galleon) X(supply) X(deck) X(drawn) \
    X(pos) X(role) X(exiled) X(nation) X(pub_treasure) X(steals_made) X(pub_maps) X(revealed) X(steal_delta) \
    X(map_delta) X(spied) X(game_over) X(hoard) X(maps) X(wild_lock) X(votes_initiated) X(votes_targeting) \
    X(yes_by) X(yes_vs) X(vote) X(last_vote) X(loot) X(event) X(log) \
    X(type) X(initiator) X(target) X(participants) X(cards) X(decl) X(final) X(passed) X(die) X(left) X(dice) \
    X(successes) X(assigned) X(card)
NAME_TABLE(NAMES)

/* One call: the bytes, the state and seat, the spec. */
typedef struct {
    Counts c;
    PyObject *state;
    long seat, n;
    long t[T_COUNT];
} Enc;

/* mapping[key] for the vote, last vote, loot and event dicts (a new reference). */
static PyObject *key_of(PyObject *mapping, PyObject *key) {
    return PyObject_GetItem(mapping, key);
}

static long key_long(PyObject *mapping, PyObject *key) {
    return steal_long(key_of(mapping, key));
}

/* piece[i] = value for a piece of ``len`` bytes at ``base``, with Python's negative indices (the Python
 * encoder builds these fields as separate bytearrays). */
static int piece_set(Counts *c, long base, long len, long i, long value) {
    if (i < 0) i += len;
    if (i < 0 || i >= len) {
        PyErr_SetString(PyExc_IndexError, "index outside a field piece");
        return -1;
    }
    return set_count(c, base + i, value, 0);
}

/* 0 where ``x`` indexes a one-hot of ``width`` entries, else -1 with a ValueError. */
static int one_hot_range(long x, long width) {
    if (x >= 0 && x < width) return 0;
    PyErr_Format(PyExc_ValueError, "tor_counts: a one-hot index %ld outside 0..%ld", x, width - 1);
    return -1;
}

/* buf[at + a] = value[(seat + a) % n] for each offset a: a per-seat list of counts in the viewer's order. */
static int seat_counts(Enc *e, PyObject *values, long at) {
    for (long a = 0; a < e->n; a++) {
        long value = item_long(values, (e->seat + a) % e->n);
        if ((value == -1 && PyErr_Occurred()) || set_count(&e->c, at + a, value, 0) < 0) return -1;
    }
    return 0;
}

/* write(e, d) with the state's attribute ``key``, a dict or None (nothing to write). */
static int dict_section(Enc *e, PyObject *key, int (*write)(Enc *, PyObject *)) {
    PyObject *d = attr(e->state, key);
    if (d == NULL) return -1;
    int r = d == Py_None ? 0 : write(e, d);
    Py_DECREF(d);
    return r;
}

/* The phase (for the seat to act only), the round, the active and the starting seats. */
static int write_turn(Enc *e) {
    PyObject *state = e->state;
    const long *t = e->t, seat = e->seat, n = e->n;
    long value, phase;
    CHECK_LONG(phase, int_attr(state, NAME(phase)));
    CHECK_LONG(value, steal_long(PyObject_CallMethodNoArgs(state, NAME(current_player))));
    if (value == seat) {
        CHECK(one_hot_range(phase, t[T_ROUND] - t[T_PHASE]));
        CHECK(set_count(&e->c, t[T_PHASE] + phase, 1, 0));
    }
    CHECK_LONG(value, int_attr(state, NAME(round)));
    CHECK(set_count(&e->c, t[T_ROUND], value, 0));
    CHECK_LONG(value, int_attr(state, NAME(active)));
    CHECK(set_count(&e->c, t[T_ACTIVE] + mod(value - seat, n), 1, 0));
    CHECK_LONG(value, int_attr(state, NAME(start)));
    CHECK(set_count(&e->c, t[T_START] + mod(value - seat, n), 1, 0));
    return 0;
fail:
    return -1;
}

/* counts: galleon, supply, deck size, then the cards drawn by type */
static int write_counts(Enc *e) {
    PyObject *state = e->state;
    const long at = e->t[T_COUNTS];
    long value;
    CHECK_LONG(value, int_attr(state, NAME(galleon)));
    CHECK(set_count(&e->c, at, value, 0));
    CHECK_LONG(value, int_attr(state, NAME(supply)));
    CHECK(set_count(&e->c, at + 1, value, 0));
    Py_ssize_t len = attr_length(state, NAME(deck));
    if (len < 0) goto fail;
    CHECK(set_count(&e->c, at + 2, (long)len, 0));
    CHECK(attr_counts(&e->c, state, NAME(drawn), at + 3, e->t[T_NUM_CARD_TYPES]));
    return 0;
fail:
    return -1;
}

/* the player blocks in the viewer's order: position, role, exiled, nation (where the viewer knows it),
 * then the public counts and the viewer's own deltas */
static int write_players(Enc *e) {
    PyObject *keys[11] = {NAME(pos), NAME(role), NAME(exiled), NAME(nation), NAME(pub_treasure), NAME(steals_made),
                          NAME(pub_maps), NAME(revealed), NAME(steal_delta), NAME(map_delta), NAME(spied)};
    PyObject *lists[11] = {NULL};
    const long *t = e->t, n = e->n, seat = e->seat, BIAS = t[T_BIAS];
    Counts *c = &e->c;
    for (int i = 0; i < 11; i++) {
        lists[i] = attr(e->state, keys[i]);
        if (lists[i] == NULL) {
            for (int j = 0; j < i; j++) Py_DECREF(lists[j]);
            return -1;
        }
    }
    PyObject *pos = lists[0], *role = lists[1], *exiled = lists[2], *nation = lists[3];
    PyObject *treasure = lists[4], *steals = lists[5], *maps = lists[6], *revealed = lists[7];
    /* each read only while no exception is pending (a property like game_over runs Python code) */
    PyObject *my_steal = item_at(lists[8], seat);
    PyObject *my_maps = my_steal == NULL ? NULL : item_at(lists[9], seat);
    PyObject *spied = my_maps == NULL ? NULL : item_at(lists[10], seat);
    int over = spied == NULL ? -1 : true_attr(e->state, NAME(game_over));
    int ok = over >= 0;
    long base = t[T_PLAYERS];
    for (long k = 0; k < n && ok; k++, base += t[T_PLAYER_BLOCK]) {
        long p = (seat + k) % n, x;
        ok = 0;
        /* a one-hot index outside its field would land in another field, which a later section of the
         * Python encoder may overwrite: refused (the Python encoder then runs) */
        if ((x = item_long(pos, p)) == -1 && PyErr_Occurred()) break;
        if (one_hot_range(x, 8) < 0 || set_count(c, base + x, 1, 0) < 0) break;
        if ((x = item_long(role, p)) == -1 && PyErr_Occurred()) break;
        if (one_hot_range(x, 8) < 0 || set_count(c, base + 8 + x, 1, 0) < 0) break;
        int flag = item_true(exiled, p);
        if (flag < 0 || (flag && set_count(c, base + 16, 1, 0) < 0)) break;
        int known = p == seat; /* in the Python encoder's order: seat, revealed, game over, spied */
        if (!known) {
            if ((flag = item_true(revealed, p)) < 0) break;
            known = flag || over;
        }
        if (!known) {
            if ((flag = item_true(spied, p)) < 0) break;
            known = flag;
        }
        if (known) {
            if ((x = item_long(nation, p)) == -1 && PyErr_Occurred()) break;
            if (one_hot_range(x, 3) < 0 || set_count(c, base + 18 + x, 1, 0) < 0) break;
        } else if (set_count(c, base + 17, 1, 0) < 0) {
            break;
        }
        PyObject *counted[5] = {treasure, steals, my_steal, maps, my_maps};
        long shift[5] = {BIAS, 0, BIAS, BIAS, BIAS}; /* public counts and deltas can be < 0 */
        int j = 0;
        for (; j < 5; j++) {
            if ((x = item_long(counted[j], p)) == -1 && PyErr_Occurred()) break;
            if (set_count(c, base + 21 + j, x + shift[j], 0) < 0) break;
        }
        ok = j == 5;
    }
    Py_XDECREF(my_steal); Py_XDECREF(my_maps); Py_XDECREF(spied);
    for (int i = 0; i < 11; i++) Py_DECREF(lists[i]);
    return ok ? 0 : -1;
}

/* own: hoard, maps, the wild-card cooldown */
static int write_own(Enc *e) {
    PyObject *o = NULL;
    const long at = e->t[T_OWN];
    long value;
    o = attr(e->state, NAME(hoard));
    if (o == NULL) goto fail;
    CHECK_LONG(value, item_long(o, e->seat));
    Py_CLEAR(o);
    CHECK(set_count(&e->c, at, value, 0));
    o = attr(e->state, NAME(maps));
    if (o == NULL) goto fail;
    CHECK_LONG(value, item_long(o, e->seat));
    Py_CLEAR(o);
    CHECK(set_count(&e->c, at + 1, value, 0));
    if (e->t[T_WILD_COOLDOWN]) {
        o = attr(e->state, NAME(wild_lock));
        if (o == NULL) goto fail;
        int locked = item_true(o, e->seat);
        Py_CLEAR(o);
        if (locked < 0) goto fail;
        if (locked) CHECK(set_count(&e->c, at + 2, 1, 0));
    }
    return 0;
fail:
    Py_XDECREF(o);
    return -1;
}

/* vote statistics, once any vote was called: yes_by rows, yes_vs rows (viewer's order both ways), then
 * votes initiated and votes targeting */
static int write_vote_stats(Enc *e) {
    PyObject *state = e->state, *seq = NULL, *o = NULL, *item = NULL;
    const long n = e->n, seat = e->seat;
    o = attr(state, NAME(votes_initiated));
    if (o == NULL) goto fail;
    if (!PyList_CheckExact(o)) { /* the Python encoder compares it with a list of zeros */
        PyErr_SetString(PyExc_TypeError, "tor_counts: votes_initiated is not a list");
        goto fail;
    }
    seq = snapshot(o);
    Py_CLEAR(o);
    if (seq == NULL) goto fail;
    int any = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long count;
        CHECK_LONG(count, as_long(PySequence_Fast_GET_ITEM(seq, i)));
        any |= count != 0;
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) any = -1;
    if (any) {
        if (any < 0) {
            PyErr_SetString(PyExc_ValueError, "tor_counts: votes_initiated of the wrong length");
            goto fail;
        }
        long at = e->t[T_YES_BY];
        PyObject *matrices[2] = {NAME(yes_by), NAME(yes_vs)};
        for (int mtx = 0; mtx < 2; mtx++) {
            o = attr(state, matrices[mtx]);
            if (o == NULL) goto fail;
            for (long a = 0; a < n; a++, at += n) {
                item = item_at(o, (seat + a) % n);
                if (item == NULL) goto fail;
                CHECK(seat_counts(e, item, at));
                Py_CLEAR(item);
            }
            Py_CLEAR(o);
        }
        CHECK(seat_counts(e, seq, at));
        at += n;
        o = attr(state, NAME(votes_targeting));
        if (o == NULL) goto fail;
        CHECK(seat_counts(e, o, at));
        Py_CLEAR(o);
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_XDECREF(seq); Py_XDECREF(o); Py_XDECREF(item);
    return -1;
}

/* the vote in progress (the dict ``d``), as the viewer may see it */
static int write_current_vote(Enc *e, PyObject *d) {
    PyObject *o = NULL, *seq = NULL, *cards = NULL, *decl = NULL;
    const long *t = e->t, n = e->n, seat = e->seat;
    Counts *c = &e->c;
    long value;
    CHECK_LONG(value, key_long(d, NAME(type)));
    CHECK(one_hot_range(value, t[T_CV_INIT] - t[T_CV_TYPE]));
    CHECK(set_count(c, t[T_CV_TYPE] + value, 1, 0));
    CHECK_LONG(value, key_long(d, NAME(initiator)));
    CHECK(set_count(c, t[T_CV_INIT] + mod(value - seat, n), 1, 0));
    CHECK_LONG(value, key_long(d, NAME(target)));
    if (value >= 0) CHECK(set_count(c, t[T_CV_TARGET] + mod(value - seat, n), 1, 0));
    o = key_of(d, NAME(participants));
    if (o == NULL) goto fail;
    seq = fast(o);
    Py_CLEAR(o);
    if (seq == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        CHECK_LONG(value, as_long(PySequence_Fast_GET_ITEM(seq, i)));
        CHECK(set_count(c, t[T_CV_PART] + mod(value - seat, n), 1, 0));
    }
    Py_CLEAR(seq);
    cards = key_of(d, NAME(cards));
    if (cards == NULL) goto fail;
    long own = item_long(cards, seat);
    if (own == -1 && PyErr_Occurred()) goto fail;
    if (own >= 0 && (one_hot_range(own, t[T_CV_CARDS] - t[T_CV_OWN]) < 0 || set_count(c, t[T_CV_OWN] + own, 1, 0) < 0))
        goto fail;
    int shown = steal_true(key_of(d, NAME(revealed)));
    if (shown < 0) goto fail;
    if (shown) {
        decl = key_of(d, NAME(decl));
        if (decl == NULL) goto fail;
        for (long k = 0; k < n; k++) {
            long p = (seat + k) % n, card, said;
            CHECK_LONG(card, item_long(cards, p));
            CHECK(one_hot_range(card, 3));
            CHECK(set_count(c, t[T_CV_CARDS] + 3 * k + card, 1, 0));
            CHECK_LONG(said, item_long(decl, p));
            if (said >= 0) {
                CHECK(one_hot_range(said, 2));
                CHECK(set_count(c, t[T_CV_DECL] + 2 * k + said, 1, 0));
            }
        }
        Py_CLEAR(decl);
    }
    Py_DECREF(cards);
    return 0;
fail:
    Py_XDECREF(o); Py_XDECREF(seq); Py_XDECREF(cards); Py_XDECREF(decl);
    return -1;
}

/* the last vote (the dict ``d``; a piece of 7 + 7n entries) */
static int write_last_vote(Enc *e, PyObject *d) {
    PyObject *o = NULL;
    const long *t = e->t, n = e->n, seat = e->seat;
    const long base = t[T_LV_TYPE], plen = 7 + 7 * n;
    Counts *c = &e->c;
    long value;
    CHECK_LONG(value, key_long(d, NAME(type)));
    CHECK(piece_set(c, base, plen, value, 1));
    CHECK_LONG(value, key_long(d, NAME(initiator)));
    CHECK(piece_set(c, base, plen, 4 + mod(value - seat, n), 1));
    CHECK_LONG(value, key_long(d, NAME(target)));
    if (value >= 0) CHECK(piece_set(c, base, plen, 4 + n + mod(value - seat, n), 1));
    PyObject *rows[2] = {NAME(cards), NAME(final)};
    const long width[2] = {3, 2}, start[2] = {4 + 2 * n, 4 + 5 * n};
    for (int r = 0; r < 2; r++) {
        o = key_of(d, rows[r]);
        if (o == NULL) goto fail;
        if (PyObject_Length(o) != n) {
            PyErr_SetString(PyExc_ValueError, "tor_counts: last-vote cards of the wrong length");
            goto fail;
        }
        for (long k = 0; k < n; k++) {
            CHECK_LONG(value, item_long(o, (seat + k) % n));
            if (value < 0) value += width[r]; /* ONE_HOT_3[c], ONE_HOT_2[f]: Python's negative indices */
            if (value < 0 || value >= width[r]) {
                PyErr_SetString(PyExc_IndexError, "tor_counts: a vote card outside its one-hot");
                goto fail;
            }
            CHECK(set_count(c, base + start[r] + width[r] * k + value, 1, 0));
        }
        Py_CLEAR(o);
    }
    int passed = steal_true(key_of(d, NAME(passed)));
    if (passed < 0) goto fail;
    if (passed) CHECK(piece_set(c, base, plen, 4 + 7 * n, 1));
    CHECK_LONG(value, key_long(d, NAME(die)));
    if (value >= 0) CHECK(piece_set(c, base, plen, 5 + 7 * n + value, 1));
    return 0;
fail:
    Py_XDECREF(o);
    return -1;
}

/* loot (the dict ``d``): dice left, dice, successes, then what each seat was assigned */
static int write_loot(Enc *e, PyObject *d) {
    PyObject *o = NULL, *seq = NULL;
    const long at = e->t[T_LOOT], n = e->n;
    PyObject *keys[3] = {NAME(left), NAME(dice), NAME(successes)};
    long value;
    for (int i = 0; i < 3; i++) {
        CHECK_LONG(value, key_long(d, keys[i]));
        CHECK(set_count(&e->c, at + i, value, 0));
    }
    o = key_of(d, NAME(assigned));
    if (o == NULL) goto fail;
    seq = fast(o);
    Py_CLEAR(o);
    if (seq == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_SetString(PyExc_ValueError, "tor_counts: loot assignments of the wrong length");
        goto fail;
    }
    for (long k = 0; k < n; k++) {
        CHECK_LONG(value, as_long(PySequence_Fast_GET_ITEM(seq, (e->seat + k) % n)));
        CHECK(set_count(&e->c, at + 3 + k, value, 0));
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_XDECREF(o); Py_XDECREF(seq);
    return -1;
}

/* the event (the dict ``d``): its card and its target */
static int write_event(Enc *e, PyObject *d) {
    long value;
    CHECK_LONG(value, key_long(d, NAME(card)));
    CHECK(one_hot_range(value, 12)); /* the event's card one-hot (field_slices: 12 + n) */
    CHECK(set_count(&e->c, e->t[T_EVENT] + value, 1, 0));
    CHECK_LONG(value, key_long(d, NAME(target)));
    if (value >= 0) CHECK(set_count(&e->c, e->t[T_EVENT] + 12 + mod(value - e->seat, e->n), 1, 0));
    return 0;
fail:
    return -1;
}

/* the log, newest entry first; each entry a piece of log_entry bytes as the viewer sees it */
static int write_log(Enc *e) {
    PyObject *state = e->state, *seq = NULL, *item = NULL;
    const long *t = e->t, n = e->n, seat = e->seat;
    const long L = t[T_LOG_ENTRY], NL = t[T_NUM_LOG_TYPES];
    Counts *c = &e->c;
    GET_SNAPSHOT(seq, log); /* reading an entry that is not a list or tuple runs Python code */
    Py_ssize_t entries = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < entries; i++) {
        long base = t[T_LOG] + L * (long)i, f[7];
        item = fast(PySequence_Fast_GET_ITEM(seq, entries - 1 - i));
        if (item == NULL) goto fail;
        if (PySequence_Fast_GET_SIZE(item) != 7) {
            PyErr_SetString(PyExc_ValueError, "tor_counts: a log entry is not 7 values");
            goto fail;
        }
        for (int j = 0; j < 7; j++) CHECK_LONG(f[j], as_long(PySequence_Fast_GET_ITEM(item, j)));
        Py_CLEAR(item);
        long kind = f[0], actor = f[1], target = f[2], node = f[3], card = f[4], v = f[5], secret = f[6];
        if (base + L > c->size) {
            PyErr_SetString(PyExc_IndexError, "tor_counts: a log longer than its field");
            goto fail;
        }
        int visible = secret < 0 || t[T_PUBLIC_STEAL] || seat == actor || seat == target;
        CHECK(piece_set(c, base, L, kind, 1));
        CHECK(piece_set(c, base, L, NL + mod(actor - seat, n), 1));
        if (target >= 0 && visible) CHECK(piece_set(c, base, L, NL + n + mod(target - seat, n), 1));
        if (node >= 0) CHECK(piece_set(c, base, L, NL + 2 * n + node, 1));
        if (card >= 0) CHECK(piece_set(c, base, L, NL + 2 * n + 8 + card, 1));
        if (visible) CHECK(piece_set(c, base, L, L - 1, v + t[T_BIAS]));
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_XDECREF(seq); Py_XDECREF(item);
    return -1;
}

PyObject *tor_counts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *buf_obj, *spec;
    Enc e;
    if (intern_names(name_strings, interned, N_COUNT) < 0) return NULL;
    if (parse_call(args, "tor_counts", T_COUNT, &buf_obj, &e.state, &e.seat, &spec) < 0) return NULL;
    if (!PyByteArray_Check(buf_obj)) {
        PyErr_SetString(PyExc_TypeError, "tor_counts: the buffer must be a bytearray");
        return NULL;
    }
    for (int i = 0; i < T_COUNT; i++) {
        e.t[i] = as_long(PyTuple_GET_ITEM(spec, i));
        if (e.t[i] == -1 && PyErr_Occurred()) return NULL;
    }
    e.n = e.t[T_N];
    if (e.n < 2 || e.seat < 0 || e.seat >= e.n) {
        PyErr_SetString(PyExc_ValueError, "tor_counts: bad seat or player count");
        return NULL;
    }
    /* held as an export while the state's Python code runs: the bytearray cannot be resized under us */
    Py_buffer view;
    if (PyObject_GetBuffer(buf_obj, &view, PyBUF_WRITABLE) < 0) return NULL;
    e.c = (Counts){(unsigned char *)view.buf, view.len};
    int failed = write_turn(&e) < 0 || write_counts(&e) < 0 || write_players(&e) < 0 || write_own(&e) < 0 ||
                 write_vote_stats(&e) < 0 || dict_section(&e, NAME(vote), write_current_vote) < 0 ||
                 dict_section(&e, NAME(last_vote), write_last_vote) < 0 ||
                 dict_section(&e, NAME(loot), write_loot) < 0 || dict_section(&e, NAME(event), write_event) < 0 ||
                 write_log(&e) < 0;
    PyBuffer_Release(&view);
    if (failed) return NULL;
    Py_RETURN_NONE;
}
