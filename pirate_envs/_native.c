/* pirate_envs._native: compiled versions of per-decision hot paths (optional).
 *
 * Each function here has a pure-Python twin that stays the reference: the package works without this
 * module (it is built when a C compiler is present, see setup.py), and tests/test_native.py checks every
 * function against its twin on the states of many random games. A function that meets a value it does
 * not expect raises (ValueError, TypeError, IndexError) and the caller falls back to the Python code.
 *
 * dmd_encode(out, state, seat, spec): Dead Man's Draw's observation, the twin of
 *     pirate_envs.games.dead_mans_draw.observation.ObservationEncoder.encode_python. ``out`` is a
 *     zero-filled writable float32 buffer of the observation's size; ``spec`` the tuple of field
 *     offsets and constants that ObservationEncoder.native_spec builds once per game.
 *
 * The heuristic bots' twins live in _native_bots.c (Dead Man's Draw) and _native_bots_tortuga.c (Tortuga
 * 1667), built into this same module (setup.py), like Pirates of the Spanish Main's bot, action features and
 * observation encoder (_native_bots_potsm.c, _native_features_potsm.c, _native_encode_potsm.c).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

typedef struct {
    float *out;
    Py_ssize_t size;
} Vec;

/* out[i] = v, with i checked against the vector's bounds. */
static int put(Vec *v, long i, double value) {
    if (i < 0 || i >= v->size) {
        PyErr_Format(PyExc_IndexError, "observation index %ld outside [0, %zd)", i, v->size);
        return -1;
    }
    v->out[i] = (float)value;
    return 0;
}

static long as_long(PyObject *o) {
    if (!PyLong_Check(o) && !PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected an int, got %.80s", Py_TYPE(o)->tp_name);
        return -1;
    }
    return PyLong_AsLong(o);
}

/* The attribute and key names read, as interned strings made once (PyInit__native). */
#define NAMES(X) X(phase) X(decider) X(active) X(collections) X(discard) X(draw_pile) X(row) X(hook_protected) \
    X(known) X(dealt) X(kept) X(revealed) X(locker_target) X(eliminated) X(variant) X(offer) X(choices) \
    X(hook_s1) X(tasks) X(plunder_target) X(last_turn_player) X(last_turn_cards) X(last_turn_busted) \
    X(turns_taken) X(busts) X(plunder_remaining) X(decisions) X(over) X(truncated) X(select_seat) \
    X(active_boat) X(select_boat) X(hands) X(shown_picks) X(picks) X(acted) X(expeditions) X(positions) \
    X(display) X(skills) X(tokens) X(enc_hands) X(last_action) X(board) X(set_aside) X(stacks) X(pearl_owner) \
    X(hk_owner) X(supply) X(nav_discard) X(nav_deck) X(enc_deck) X(enc_discard) X(end_triggered) \
    X(pending_enc) X(combat_card) X(gift_queue) X(pending_target) X(claim_pool) X(owes) X(round) X(start) \
    X(galleon) X(deck) X(drawn) X(pos) X(role) X(exiled) X(nation) X(pub_treasure) X(steals_made) \
    X(steal_delta) X(map_delta) X(pub_maps) X(spied) X(game_over) X(hoard) X(maps) X(wild_lock) \
    X(votes_initiated) X(votes_targeting) X(yes_by) X(yes_vs) X(vote) X(last_vote) X(loot) X(event) X(log) \
    X(current_player) X(type) X(initiator) X(target) X(participants) X(cards) X(decl) X(final) X(passed) \
    X(die) X(left) X(dice) X(successes) X(assigned) X(card)
#define AS_ENUM(name) N_##name,
#define AS_STRING(name) #name,
enum { NAMES(AS_ENUM) N_COUNT };
static const char *names[N_COUNT] = {NAMES(AS_STRING)};
static PyObject *interned[N_COUNT];

static PyObject *attr(PyObject *state, int name) {
    return PyObject_GetAttr(state, interned[name]);
}

/* ``o`` (a new reference, or NULL with an exception set) as a long, released; -1 with an exception set on
 * failure (check PyErr_Occurred). */
static long steal_long(PyObject *o) {
    if (o == NULL) return -1;
    long v = as_long(o);
    Py_DECREF(o);
    return v;
}

/* The truth of a new reference (which it releases); -1 with an exception set when there is none. */
static int steal_true(PyObject *o) {
    if (o == NULL) return -1;
    int v = PyObject_IsTrue(o);
    Py_DECREF(o);
    return v;
}

/* An int attribute of the state. */
static long int_attr(PyObject *state, int name) {
    return steal_long(attr(state, name));
}

/* The list (or tuple) ``seq`` as a fast sequence: a new reference, or NULL with an exception. */
static PyObject *fast(PyObject *seq) {
    return PySequence_Fast(seq, "expected a list or tuple");
}

/* out[base + c] = 1 for every int c of ``seq`` (a new or borrowed reference, not consumed). */
static int ones(Vec *v, PyObject *seq, long base) {
    PyObject *f = fast(seq);
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

static int contains_long(PyObject *f, long value) {
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t i = 0; i < len; i++) {
        if (PyLong_Check(items[i]) && PyLong_AsLong(items[i]) == value) return 1;
    }
    return 0;
}

static long mod(long a, long n) {
    long r = a % n;
    return r < 0 ? r + n : r;
}

/* The item ``i`` of the fast sequence ``f`` as an int (``f`` must have more than ``i`` items). */
/* seq[i] with Python's indexing (negative counts from the end) as a new reference; NULL with an
 * exception outside the sequence. The items of per-seat and per-boat lists are read through these. */
static PyObject *item_at(PyObject *seq, Py_ssize_t i) {
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

static long item_long(PyObject *seq, Py_ssize_t i) {
    return steal_long(item_at(seq, i));
}

static int item_true(PyObject *seq, Py_ssize_t i) {
    return steal_true(item_at(seq, i));
}

/* Parses the arguments every encoder takes, ``(buffer, state, seat, spec)``, and checks the spec's length. */
static int parse_call(PyObject *args, const char *name, Py_ssize_t spec_length, PyObject **buffer, PyObject **state,
                      long *seat, PyObject **spec) {
    if (!PyArg_ParseTuple(args, "OOlO!", buffer, state, seat, &PyTuple_Type, spec)) return -1;
    if (PyTuple_GET_SIZE(*spec) != spec_length) {
        PyErr_Format(PyExc_ValueError, "%s: spec of the wrong length", name);
        return -1;
    }
    return 0;
}

#define CHECK(expr) do { if ((expr) < 0) goto fail; } while (0)
#define CHECK_LONG(var, expr) do { var = (expr); if (var == -1 && PyErr_Occurred()) goto fail; } while (0)
#define GET_FAST(var, name) do { PyObject *_o = attr(state, name); if (_o == NULL) goto fail; \
    var = fast(_o); Py_DECREF(_o); if (var == NULL) goto fail; } while (0)

static PyObject *dmd_encode(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_obj, *state, *spec_obj;
    long seat;
    if (parse_call(args, "dmd_encode", S_COUNT, &out_obj, &state, &seat, &spec_obj) < 0) return NULL;
    long sp[S_COUNT];
    double spd[S_COUNT];
    for (int i = 0; i < S_COUNT; i++) {
        PyObject *o = PyTuple_GET_ITEM(spec_obj, i);
        if (i == S_CONFIG_ONES || i == S_CARD_VALUES) continue;
        if (PyFloat_Check(o)) {
            spd[i] = PyFloat_AS_DOUBLE(o);
            sp[i] = 0;
        } else {
            sp[i] = as_long(o);
            if (sp[i] == -1 && PyErr_Occurred()) return NULL;
            spd[i] = (double)sp[i];
        }
    }
    Py_buffer buf;
    if (PyObject_GetBuffer(out_obj, &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (buf.len != (Py_ssize_t)(sp[S_SIZE] * (long)sizeof(float))) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "dmd_encode: output buffer of the wrong size");
        return NULL;
    }
    Vec v = {(float *)buf.buf, (Py_ssize_t)sp[S_SIZE]};
    const long n = sp[S_N], NC = sp[S_NUM_CARDS], NA = sp[S_NUM_ABILITIES];
    PyObject *collections = NULL, *pile = NULL, *row = NULL, *known = NULL, *kept = NULL, *tasks = NULL;
    PyObject *seq = NULL, *inner = NULL, *turns = NULL, *busts = NULL, *eliminated = NULL, *tmp = NULL;
    long phase, decider, active, value;

    if (n < 2 || seat < 0 || seat >= n) {
        PyErr_SetString(PyExc_ValueError, "dmd_encode: bad seat or player count");
        goto fail;
    }
    CHECK_LONG(phase, int_attr(state, N_phase));
    if (phase != sp[S_GAME_OVER]) {
        CHECK_LONG(decider, int_attr(state, N_decider));
        if (decider == seat) CHECK(put(&v, sp[S_PHASE] + phase, 1.0));
        CHECK_LONG(active, int_attr(state, N_active));
        CHECK(put(&v, sp[S_ACTIVE_PLAYER] + mod(active - seat, n), 1.0));
    }
    /* collections (DMD-1062, 1063): per offset k, every card of every suit stack */
    GET_FAST(collections, N_collections);
    if (PySequence_Fast_GET_SIZE(collections) != n) {
        PyErr_SetString(PyExc_ValueError, "dmd_encode: collections of the wrong length");
        goto fail;
    }
    /* and each seat's live score S (DMD-701, the twin of DmdState.live_score): every card's value under
     * Piri Reis, else each suit's top card, Grand Slam taking 5 per empty suit */
    PyObject *values = PyTuple_GET_ITEM(spec_obj, S_CARD_VALUES);
    if (!PyTuple_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "dmd_encode: card values must be a tuple");
        goto fail;
    }
    long scores[8], variant;
    CHECK_LONG(variant, int_attr(state, N_variant));
    if (n > 8) {
        PyErr_SetString(PyExc_ValueError, "dmd_encode: more than 8 players");
        goto fail;
    }
    for (long k = 0; k < n; k++) {
        inner = fast(PySequence_Fast_GET_ITEM(collections, (seat + k) % n));
        if (inner == NULL) goto fail;
        long all = 0, tops = 0, held = 0;
        for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(inner); s++) {
            PyObject *stack = fast(PySequence_Fast_GET_ITEM(inner, s));
            if (stack == NULL) goto fail;
            Py_ssize_t len = PySequence_Fast_GET_SIZE(stack);
            for (Py_ssize_t i = 0; i < len; i++) {
                long c = as_long(PySequence_Fast_GET_ITEM(stack, i));
                if ((c == -1 && PyErr_Occurred()) || put(&v, sp[S_MY_COLLECTION] + NC * k + c, 1.0) < 0) {
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
        if (variant == sp[S_PIRI_REIS])
            scores[k] = all;
        else if (variant == sp[S_GRAND_SLAM])
            scores[k] = tops - 5 * (sp[S_NUM_SUITS] - held);
        else
            scores[k] = tops;
    }
    tmp = attr(state, N_discard);
    if (tmp == NULL) goto fail;
    CHECK(ones(&v, tmp, sp[S_DISCARD_PILE]));
    Py_CLEAR(tmp);
    GET_FAST(pile, N_draw_pile);
    CHECK(ones(&v, pile, sp[S_DRAW_PILE_CARDS]));
    Py_ssize_t pile_len = PySequence_Fast_GET_SIZE(pile);
    GET_FAST(row, N_row);
    Py_ssize_t row_len = PySequence_Fast_GET_SIZE(row);
    if (row_len) {
        for (Py_ssize_t i = 0; i < row_len; i++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(row, i)));
            if (c >= 0) {
                CHECK(put(&v, sp[S_ROW_CARDS] + c, 1.0));
                CHECK(put(&v, sp[S_ROW_POSITION] + c, (double)(i + 1) / spd[S_ROW_SCALE]));
            } else {
                CHECK(put(&v, sp[S_MARKER_POSITION], (double)(i + 1) / spd[S_ROW_SCALE]));
            }
        }
        GET_FAST(seq, N_hook_protected);
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(seq, i)));
            if (contains_long(row, c)) CHECK(put(&v, sp[S_ROW_HOOK_PROTECTED] + c, 1.0));
        }
        Py_CLEAR(seq);
    }
    /* the seat's own peeks at the top of the pile (DMD-1071) */
    GET_FAST(known, N_known);
    if (seat >= PySequence_Fast_GET_SIZE(known)) {
        PyErr_SetString(PyExc_IndexError, "dmd_encode: known shorter than the player count");
        goto fail;
    }
    inner = fast(PySequence_Fast_GET_ITEM(known, seat));
    if (inner == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(inner)) {
        for (Py_ssize_t depth = 0; depth < 3 && depth < pile_len; depth++) {
            long c;
            CHECK_LONG(c, as_long(PySequence_Fast_GET_ITEM(pile, pile_len - 1 - depth)));
            if (contains_long(inner, c)) CHECK(put(&v, sp[S_KNOWN_TOP] + NC * depth + c, 1.0));
        }
    }
    Py_CLEAR(inner);
    /* abilities (DMD-1072, 1073; DMD-1012 e) */
    GET_FAST(seq, N_dealt);
    if (seat >= PySequence_Fast_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_IndexError, "dmd_encode: dealt shorter than the player count");
        goto fail;
    }
    CHECK(ones(&v, PySequence_Fast_GET_ITEM(seq, seat), sp[S_MY_DEALT_ABILITIES]));
    Py_CLEAR(seq);
    GET_FAST(kept, N_kept);
    tmp = attr(state, N_revealed);
    if (tmp == NULL) goto fail;
    int revealed = PyObject_IsTrue(tmp);
    Py_CLEAR(tmp);
    if (revealed < 0) goto fail;
    if (revealed) {
        for (long k = 0; k < n; k++) {
            long a;
            CHECK_LONG(a, item_long(kept, (seat + k) % n));
            if (a >= 0) CHECK(put(&v, sp[S_ABILITIES] + NA * k + a, 1.0));
        }
    } else {
        long a;
        CHECK_LONG(a, item_long(kept, seat));
        if (a >= 0) CHECK(put(&v, sp[S_ABILITIES] + a, 1.0));
    }
    CHECK_LONG(value, int_attr(state, N_locker_target));
    if (value >= 0) CHECK(put(&v, sp[S_LOCKER_TARGET] + mod(value - seat, n), 1.0));
    GET_FAST(eliminated, N_eliminated);
    for (long k = 0; k < n; k++) {
        if (PySequence_Fast_GET_SIZE(eliminated) != n) {
            PyErr_SetString(PyExc_IndexError, "dmd_encode: eliminated of the wrong length");
            goto fail;
        }
        int out = PyObject_IsTrue(PySequence_Fast_GET_ITEM(eliminated, (seat + k) % n));
        if (out < 0) goto fail;
        if (out) CHECK(put(&v, sp[S_ELIMINATED] + k, 1.0));
    }
    CHECK(ones(&v, PyTuple_GET_ITEM(spec_obj, S_CONFIG_ONES), sp[S_CONFIG]));
    CHECK(put(&v, sp[S_CONFIG] + variant, 1.0));
    /* the decision's offered cards (DMD-1079; DMD-1012 b, d) */
    if (phase == sp[S_MAP_PICK] || phase == sp[S_LOCKER_ACCEPT]) {
        tmp = attr(state, N_offer);
        if (tmp == NULL) goto fail;
        CHECK(ones(&v, tmp, sp[S_OFFER_CARDS]));
        Py_CLEAR(tmp);
    } else if (phase == sp[S_MERMAID_PICK] || phase == sp[S_RAKE_PICK]) {
        tmp = attr(state, N_choices);
        if (tmp == NULL) goto fail;
        CHECK(ones(&v, tmp, sp[S_OFFER_CARDS] - 12)); /* CARD actions start at 12 (DMD-1043) */
        Py_CLEAR(tmp);
    }
    /* Miser's first suit while a SECOND_HOOK is pending or asked (DMD-1080, DMD-1012 h); the pending
     * forced draws (DMD-1078) from the same task list */
    long s1;
    CHECK_LONG(s1, int_attr(state, N_hook_s1));
    GET_FAST(tasks, N_tasks);
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
        long arg = as_long(PySequence_Fast_GET_ITEM(task, 1));
        Py_DECREF(task);
        if (PyErr_Occurred()) goto fail;
        if (kind == 0) forced += arg;
        if (kind == 1 && !asked) {
            s1 = arg;
            asked = 1;
        }
    }
    if (s1 >= 0) CHECK(put(&v, sp[S_MISER_FIRST_SUIT] + s1, 1.0));
    if (PySequence_Fast_GET_SIZE(tasks) && forced)
        CHECK(put(&v, sp[S_FORCED_DRAWS], (double)forced / spd[S_FORCED_DRAW_MAX]));
    CHECK_LONG(value, int_attr(state, N_plunder_target));
    if (value >= 0) CHECK(put(&v, sp[S_PLUNDER_TARGET] + mod(value - seat, n) - 1, 1.0));
    CHECK_LONG(value, int_attr(state, N_last_turn_player));
    if (value >= 0) {
        CHECK(put(&v, sp[S_LAST_TURN_PLAYER] + mod(value - seat, n), 1.0));
        tmp = attr(state, N_last_turn_cards);
        if (tmp == NULL) goto fail;
        CHECK(ones(&v, tmp, sp[S_LAST_TURN_CARDS]));
        Py_CLEAR(tmp);
        tmp = attr(state, N_last_turn_busted);
        if (tmp == NULL) goto fail;
        int busted = PyObject_IsTrue(tmp);
        Py_CLEAR(tmp);
        if (busted < 0) goto fail;
        if (busted) CHECK(put(&v, sp[S_LAST_TURN_BUSTED], 1.0));
    }
    /* the fractional entries */
    CHECK(put(&v, sp[S_DRAW_PILE_SIZE], (double)pile_len / spd[S_DECK_SCALE]));
    GET_FAST(turns, N_turns_taken);
    GET_FAST(busts, N_busts);
    for (long k = 0; k < n; k++) {
        long t = (seat + k) % n;
        CHECK(put(&v, sp[S_SCORES] + k, (double)scores[k] / spd[S_SCORE_SCALE]));
        long turn, bust;
        CHECK_LONG(turn, item_long(turns, t));
        if (turn) {
            CHECK(put(&v, sp[S_TURNS_TAKEN_BUSTS] + k, (double)turn / spd[S_DECK_SCALE]));
            CHECK_LONG(bust, item_long(busts, t));
            if (bust) CHECK(put(&v, sp[S_TURNS_TAKEN_BUSTS] + n + k, (double)bust / spd[S_DECK_SCALE]));
        }
    }
    CHECK_LONG(value, int_attr(state, N_plunder_remaining));
    if (value) CHECK(put(&v, sp[S_PLUNDER_REMAINING], (double)value / spd[S_PLUNDER_SCALE]));
    CHECK_LONG(value, int_attr(state, N_decisions));
    CHECK(put(&v, sp[S_DECISION_PROGRESS], (double)value / spd[S_MAX_DECISIONS]));

    Py_XDECREF(collections); Py_XDECREF(pile); Py_XDECREF(row); Py_XDECREF(known); Py_XDECREF(kept);
    Py_XDECREF(tasks); Py_XDECREF(turns); Py_XDECREF(busts); Py_XDECREF(eliminated);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(collections); Py_XDECREF(pile); Py_XDECREF(row); Py_XDECREF(known); Py_XDECREF(kept);
    Py_XDECREF(tasks); Py_XDECREF(turns); Py_XDECREF(busts); Py_XDECREF(eliminated);
    Py_XDECREF(seq); Py_XDECREF(inner); Py_XDECREF(tmp);
    PyBuffer_Release(&buf);
    return NULL;
}


/* ---- Madame Ching ----------------------------------------------------------------------------------------- */

/* Order of madame_ching.observation.ObservationEncoder.native_specs (keep the two in step). */
enum {
    M_P, M_B, M_SELECT, M_SKILL_CLAIM, M_TEAM, M_PARTNER, M_BOATS_OF, M_RELATIVE, M_BOAT_OWNER, M_ICON,
    M_SELECT_BOAT, M_OWN_HAND, M_OWN_PICKS, M_REVEALED_PICKS, M_BOAT_FLAGS, M_DISPLAY, M_EXPEDITIONS, M_SKILLS,
    M_KNOWN_CARDS, M_HISTORY, M_MISSIONS, M_SUPPLY, M_PILES, M_PROGRESS, M_PENDING, M_TEAM_DEBT,
    M_COUNT
};


typedef struct {
    unsigned char *buf;
    Py_ssize_t size;
} Counts;

/* buf[i] = value (add: buf[i] += value), refusing an index outside the buffer or a count outside a byte
 * (the Python encoder then runs, and falls back to encode_reference for counts past 255). */
static int set_count(Counts *c, long i, long value, int add) {
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

static int true_attr(PyObject *state, int name) {
    return steal_true(attr(state, name));
}

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

/* buf[base + i] = seq[i] for each i (a slice write of bytes(seq)); ``expected`` items, or -1 for any. */
static long copy_counts(Counts *c, PyObject *seq, long base, Py_ssize_t expected) {
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

/* buf[base + x] = 1 for every x of the list ``seq``, each within [lo, hi] (else ``what`` is refused). */
static int ranged_ones(Counts *c, PyObject *seq, long base, long lo, long hi, const char *what) {
    PyObject *f = fast(seq);
    if (f == NULL) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        long x = as_long(PySequence_Fast_GET_ITEM(f, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (x < lo || x > hi) {
            Py_DECREF(f);
            PyErr_Format(PyExc_ValueError, "%s outside %ld..%ld", what, lo, hi);
            return -1;
        }
        if (set_count(c, base + x, 1, 0) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}

static PyObject *mch_counts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *buf_obj, *state, *spec;
    long seat;
    if (parse_call(args, "mch_counts", M_COUNT, &buf_obj, &state, &seat, &spec) < 0) return NULL;
    long m[M_COUNT];
    for (int i = 0; i < M_COUNT; i++) {
        if (i == M_BOATS_OF || i == M_RELATIVE || i == M_BOAT_OWNER || i == M_ICON) continue;
        m[i] = as_long(PyTuple_GET_ITEM(spec, i));
        if (m[i] == -1 && PyErr_Occurred()) return NULL;
    }
    PyObject *boats_of = PyTuple_GET_ITEM(spec, M_BOATS_OF), *rel = PyTuple_GET_ITEM(spec, M_RELATIVE);
    PyObject *boat_owner = PyTuple_GET_ITEM(spec, M_BOAT_OWNER), *icon = PyTuple_GET_ITEM(spec, M_ICON);
    if (!PyTuple_Check(boats_of) || !PyTuple_Check(rel) || !PyTuple_Check(boat_owner) || !PyTuple_Check(icon)) {
        PyErr_SetString(PyExc_TypeError, "mch_counts: boat tables must be tuples");
        return NULL;
    }
    if (!PyByteArray_Check(buf_obj)) {
        PyErr_SetString(PyExc_TypeError, "mch_counts: the buffer must be a bytearray");
        return NULL;
    }
    Counts c = {(unsigned char *)PyByteArray_AS_STRING(buf_obj), PyByteArray_GET_SIZE(buf_obj)};
    const long P = m[M_P];
    PyObject *o = NULL, *seq = NULL, *item = NULL, *shown = NULL, *picks = NULL, *acted = NULL;
    PyObject *expeditions = NULL, *positions = NULL, *display = NULL;
    long phase, value;
    int acting = 0;

    if (P < 2 || seat < 0 || seat >= P || PyTuple_GET_SIZE(rel) != m[M_B]) {
        PyErr_SetString(PyExc_ValueError, "mch_counts: bad seat, player count or boat table");
        return NULL;
    }
    int over = true_attr(state, N_over), truncated = true_attr(state, N_truncated);
    if (over < 0 || truncated < 0) goto fail;
    CHECK_LONG(phase, int_attr(state, N_phase));
    if (!over && !truncated) {
        long current;
        if (phase == m[M_SELECT]) {
            CHECK_LONG(current, int_attr(state, N_select_seat));
        } else {
            long boat;
            CHECK_LONG(boat, int_attr(state, N_active_boat));
            if (boat < 0 || boat >= PyTuple_GET_SIZE(boat_owner)) {
                PyErr_SetString(PyExc_ValueError, "mch_counts: no active boat outside Select");
                goto fail;
            }
            CHECK_LONG(current, as_long(PyTuple_GET_ITEM(boat_owner, boat)));
        }
        acting = current == seat;
    }
    if (acting) {
        CHECK(set_count(&c, phase, 1, 0));
        if (phase == m[M_SELECT]) {
            CHECK_LONG(value, int_attr(state, N_select_boat));
            CHECK(set_count(&c, m[M_SELECT_BOAT] + value, 1, 0));
        }
    }
    o = attr(state, N_hands);
    if (o == NULL) goto fail;
    item = item_at(o, seat);
    if (item == NULL) goto fail;
    CHECK(count_ones(&c, item, m[M_OWN_HAND] - 1));
    Py_CLEAR(item);
    Py_CLEAR(o);
    int revealed = true_attr(state, N_revealed);
    if (revealed < 0) goto fail;
    shown = attr(state, N_shown_picks);
    if (shown == NULL) goto fail;
    picks = revealed ? (Py_INCREF(shown), shown) : attr(state, N_picks);
    if (picks == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(boats_of); i++) {
        long b, pick;
        CHECK_LONG(b, as_long(PyTuple_GET_ITEM(boats_of, i)));
        CHECK_LONG(pick, item_long(picks, b));
        if (pick) CHECK(set_count(&c, m[M_OWN_PICKS] - 1 + 55 * i + pick, 1, 0));
    }
    acted = attr(state, N_acted);
    if (acted == NULL) goto fail;
    expeditions = attr(state, N_expeditions);
    positions = attr(state, N_positions);
    if (expeditions == NULL || positions == NULL) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rel); i++) {
        long b, pick, done;
        CHECK_LONG(b, as_long(PyTuple_GET_ITEM(rel, i)));
        if (revealed) {
            CHECK_LONG(pick, item_long(shown, b));
            if (pick) CHECK(set_count(&c, m[M_REVEALED_PICKS] - 1 + 55 * i + pick, 1, 0));
        }
        item = item_at(acted, b);
        if (item == NULL) goto fail;
        done = PyObject_IsTrue(item);
        Py_CLEAR(item);
        if (done < 0) goto fail;
        if (done) CHECK(set_count(&c, m[M_BOAT_FLAGS] + 2 * i, 1, 0));
        /* the boat's 77-entry expedition block (cards, column and row one-hots, last card, icon counts) */
        long blk = m[M_EXPEDITIONS] + 77 * i, last = -1;
        item = item_at(expeditions, b);
        if (item == NULL) goto fail;
        seq = fast(item);
        Py_CLEAR(item);
        if (seq == NULL) goto fail;
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
            long card, kind;
            CHECK_LONG(card, as_long(PySequence_Fast_GET_ITEM(seq, k)));
            if (card < 1 || card > 55 || card >= PyTuple_GET_SIZE(icon)) {
                PyErr_SetString(PyExc_ValueError, "mch_counts: expedition card outside 1..55");
                goto fail;
            }
            CHECK(set_count(&c, blk + card - 1, 1, 0));
            CHECK_LONG(kind, as_long(PyTuple_GET_ITEM(icon, card)));
            if (kind >= 0) {
                if (kind > 3) {
                    PyErr_SetString(PyExc_ValueError, "mch_counts: icon outside 0..3");
                    goto fail;
                }
                CHECK(set_count(&c, blk + 73 + kind, 1, 1));
            }
            last = card;
        }
        Py_CLEAR(seq);
        if (last >= 0) CHECK(set_count(&c, blk + 72, last, 0));
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
        CHECK(set_count(&c, blk + 55 + col, 1, 0));
        CHECK(set_count(&c, blk + 64 + row, 1, 0));
    }
    CHECK_LONG(value, int_attr(state, N_active_boat));
    if (value >= 0) {
        long i = -1;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(rel); k++) {
            if (PyLong_AsLong(PyTuple_GET_ITEM(rel, k)) == value) {
                i = (long)k;
                break;
            }
        }
        if (i < 0) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: the active boat is not on the table");
            goto fail;
        }
        CHECK(set_count(&c, m[M_BOAT_FLAGS] + 2 * i + 1, 1, 0));
    }
    /* display: slot 0 face down (only whether it holds a card), slots 1-3 open */
    display = attr(state, N_display);
    if (display == NULL) goto fail;
    {
        long base = m[M_DISPLAY], card;
        CHECK_LONG(card, item_long(display, 0));
        CHECK(set_count(&c, card ? base + 55 : base + 56, 1, 0));
        for (long slot = 1; slot <= 3; slot++) {
            CHECK_LONG(card, item_long(display, slot));
            CHECK(set_count(&c, base + 57 * slot + (card ? card - 1 : 56), 1, 0));
        }
    }
    /* skills (10 a seat), tokens (4 a seat), own encounters, hand sizes (2 a seat): contiguous, seats in
     * the viewer's order */
    {
        long at = m[M_SKILLS], n;
        PyObject *skills = attr(state, N_skills), *tokens = attr(state, N_tokens);
        PyObject *enc_hands = attr(state, N_enc_hands), *hands = attr(state, N_hands);
        PyObject *lists[2] = {skills, tokens};
        if (skills == NULL || tokens == NULL || enc_hands == NULL || hands == NULL) {
            Py_XDECREF(skills); Py_XDECREF(tokens); Py_XDECREF(enc_hands); Py_XDECREF(hands);
            goto fail;
        }
        int ok = 1;
        for (int field = 0; field < 2 && ok; field++) {
            for (long k = 0; k < P && ok; k++) {
                item = item_at(lists[field], (seat + k) % P);
                n = item == NULL ? -1 : copy_counts(&c, item, at, -1);
                Py_CLEAR(item);
                if (n < 0) ok = 0; else at += n;
            }
        }
        if (ok) {
            item = item_at(enc_hands, seat);
            n = item == NULL ? -1 : copy_counts(&c, item, at, -1);
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
            if (!ok || set_count(&c, at + 2 * k, total, 0) < 0) { ok = 0; break; }
            item = item_at(hands, t);
            Py_ssize_t len = item == NULL ? -1 : PyObject_Length(item);
            Py_CLEAR(item);
            if (len < 0 || set_count(&c, at + 2 * k + 1, (long)len, 0) < 0) ok = 0;
        }
        Py_DECREF(skills); Py_DECREF(tokens); Py_DECREF(enc_hands); Py_DECREF(hands);
        if (!ok) goto fail;
    }
    /* cards this seat knows in the other hands, offsets 1..P-1 */
    o = attr(state, N_known);
    if (o == NULL) goto fail;
    item = item_at(o, seat);
    Py_CLEAR(o);
    if (item == NULL) goto fail;
    for (long off = 1; off < P; off++) {
        PyObject *hand = item_at(item, (seat + off) % P);
        if (hand == NULL) goto fail;
        int r = count_ones(&c, hand, m[M_KNOWN_CARDS] - 56 + 55 * off);
        Py_DECREF(hand);
        if (r < 0) goto fail;
    }
    Py_CLEAR(item);
    /* each seat's last action: kind one-hot (9), target offset one-hot (4) */
    o = attr(state, N_last_action);
    if (o == NULL) goto fail;
    for (long k = 0; k < P; k++) {
        item = item_at(o, (seat + k) % P);
        if (item == NULL) goto fail;
        Py_ssize_t pair = PyObject_Length(item);
        long kind = pair == 2 ? item_long(item, 0) : -1, target = pair == 2 ? item_long(item, 1) : -1;
        Py_CLEAR(item);
        if (PyErr_Occurred()) goto fail;
        if (kind < 0 || kind > 8 || target < 0 || target > 3) {
            PyErr_SetString(PyExc_ValueError, "mch_counts: a last action outside the history table");
            goto fail;
        }
        CHECK(set_count(&c, m[M_HISTORY] + 13 * k + kind, 1, 0));
        CHECK(set_count(&c, m[M_HISTORY] + 13 * k + 9 + target, 1, 0));
    }
    Py_CLEAR(o);
    /* missions: tiles on the board, tiles set aside */
    o = attr(state, N_board);
    if (o == NULL || ranged_ones(&c, o, m[M_MISSIONS], 0, 22, "a mission tile") < 0) goto fail;
    Py_CLEAR(o);
    o = attr(state, N_set_aside);
    if (o == NULL || ranged_ones(&c, o, m[M_MISSIONS] + 23, 0, 22, "a mission tile") < 0) goto fail;
    Py_CLEAR(o);
    /* supply: stacks (5), the China Pearl's and Hong Kong's owners (offset + 1, 0 for none), tokens (4) */
    {
        long base = m[M_SUPPLY], owner;
        o = attr(state, N_stacks);
        if (o == NULL || copy_counts(&c, o, base, 5) < 0) goto fail;
        Py_CLEAR(o);
        base += 5;
        CHECK_LONG(owner, int_attr(state, N_pearl_owner));
        CHECK(set_count(&c, base + (owner < 0 ? 0 : 1 + mod(owner - seat, P)), 1, 0));
        base += P + 1;
        CHECK_LONG(owner, int_attr(state, N_hk_owner));
        CHECK(set_count(&c, base + (owner < 0 ? 0 : 1 + mod(owner - seat, P)), 1, 0));
        base += P + 1;
        o = attr(state, N_supply);
        if (o == NULL || copy_counts(&c, o, base, 4) < 0) goto fail;
        Py_CLEAR(o);
    }
    /* piles: the navigation discard, the two deck sizes, encounter discard counts per kind */
    {
        long base = m[M_PILES];
        o = attr(state, N_nav_discard);
        if (o == NULL || ranged_ones(&c, o, base - 1, 1, 55, "a discarded card") < 0) goto fail;
        Py_CLEAR(o);
        o = attr(state, N_nav_deck);
        Py_ssize_t len = o == NULL ? -1 : PyObject_Length(o);
        Py_CLEAR(o);
        if (len < 0) goto fail;
        CHECK(set_count(&c, base + 55, (long)len, 0));
        o = attr(state, N_enc_deck);
        len = o == NULL ? -1 : PyObject_Length(o);
        Py_CLEAR(o);
        if (len < 0) goto fail;
        CHECK(set_count(&c, base + 56, (long)len, 0));
        o = attr(state, N_enc_discard);
        if (o == NULL) goto fail;
        seq = fast(o);
        Py_CLEAR(o);
        if (seq == NULL) goto fail;
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
            long kind;
            CHECK_LONG(kind, as_long(PySequence_Fast_GET_ITEM(seq, k)));
            if (kind < 0 || kind > 9) {
                PyErr_SetString(PyExc_ValueError, "mch_counts: an encounter kind outside 0..9");
                goto fail;
            }
            CHECK(set_count(&c, base + 57 + kind, 1, 1));
        }
        Py_CLEAR(seq);
    }
    {
        long ended;
        CHECK_LONG(ended, int_attr(state, N_end_triggered));
        CHECK(set_count(&c, m[M_PROGRESS] + 1, ended, 0));
        CHECK(set_count(&c, m[M_PROGRESS] + 2, m[M_TEAM] ? 1 : 0, 0));
    }
    /* the acting seat's pending decision */
    if (acting && phase != m[M_SELECT]) {
        long base = m[M_PENDING];
        CHECK_LONG(value, int_attr(state, N_pending_enc));
        if (value >= 0) CHECK(set_count(&c, base + value - 3, 1, 0));
        CHECK_LONG(value, int_attr(state, N_combat_card));
        if (value) CHECK(set_count(&c, base + 7 + value - 1, 1, 0));
        o = attr(state, N_gift_queue);
        if (o == NULL) goto fail;
        Py_ssize_t len = PyObject_Length(o);
        if (len < 0) goto fail;
        if (len > 0) {
            CHECK_LONG(value, item_long(o, 0));
            CHECK(set_count(&c, base + 62 + value, 1, 0));
        }
        Py_CLEAR(o);
        CHECK_LONG(value, int_attr(state, N_pending_target));
        if (value >= 0) CHECK(set_count(&c, base + 72 + mod(value - seat, P) - 1, 1, 0));
        if (phase == m[M_SKILL_CLAIM]) {
            o = attr(state, N_claim_pool);
            if (o == NULL || copy_counts(&c, o, base + 75, 4) < 0) goto fail;
            Py_CLEAR(o);
        }
    }
    if (m[M_TEAM]) {
        o = attr(state, N_owes);
        if (o == NULL) goto fail;
        CHECK_LONG(value, item_long(o, seat));
        CHECK(set_count(&c, m[M_TEAM_DEBT], value, 0));
        CHECK_LONG(value, item_long(o, m[M_PARTNER]));
        CHECK(set_count(&c, m[M_TEAM_DEBT] + 1, value, 0));
        Py_CLEAR(o);
    }
    Py_XDECREF(shown); Py_XDECREF(picks); Py_XDECREF(acted); Py_XDECREF(expeditions); Py_XDECREF(positions);
    Py_XDECREF(display);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(o); Py_XDECREF(seq); Py_XDECREF(item); Py_XDECREF(shown); Py_XDECREF(picks); Py_XDECREF(acted);
    Py_XDECREF(expeditions); Py_XDECREF(positions); Py_XDECREF(display);
    return NULL;
}


/* ---- Tortuga 1667 --------------------------------------------------------------------------------------- */

/* Order of tortuga.observation.ObservationEncoder.native_spec (keep the two in step). */
enum {
    T_N, T_WILD_COOLDOWN, T_PUBLIC_STEAL, T_NUM_CARD_TYPES, T_NUM_LOG_TYPES, T_BIAS, T_PLAYER_BLOCK, T_LOG_ENTRY,
    T_PHASE, T_ROUND, T_ACTIVE, T_START, T_COUNTS, T_PLAYERS, T_OWN, T_YES_BY, T_CV_TYPE, T_CV_INIT,
    T_CV_TARGET, T_CV_PART, T_CV_OWN, T_CV_CARDS, T_CV_DECL, T_LV_TYPE, T_LOOT, T_EVENT, T_LOG,
    T_COUNT
};


/* mapping[key] for the vote, last vote, loot and event dicts (a new reference). */
static PyObject *key_of(PyObject *mapping, int name) {
    return PyObject_GetItem(mapping, interned[name]);
}

static long key_long(PyObject *mapping, int name) {
    return steal_long(key_of(mapping, name));
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

static PyObject *tor_counts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *buf_obj, *state, *spec;
    long seat;
    if (parse_call(args, "tor_counts", T_COUNT, &buf_obj, &state, &seat, &spec) < 0) return NULL;
    if (!PyByteArray_Check(buf_obj)) {
        PyErr_SetString(PyExc_TypeError, "tor_counts: the buffer must be a bytearray");
        return NULL;
    }
    long t[T_COUNT];
    for (int i = 0; i < T_COUNT; i++) {
        t[i] = as_long(PyTuple_GET_ITEM(spec, i));
        if (t[i] == -1 && PyErr_Occurred()) return NULL;
    }
    Counts c = {(unsigned char *)PyByteArray_AS_STRING(buf_obj), PyByteArray_GET_SIZE(buf_obj)};
    const long n = t[T_N], BIAS = t[T_BIAS];
    PyObject *o = NULL, *d = NULL, *seq = NULL, *item = NULL;
    PyObject *lists[11] = {NULL};
    long value, phase;
    if (n < 2 || seat < 0 || seat >= n) {
        PyErr_SetString(PyExc_ValueError, "tor_counts: bad seat or player count");
        return NULL;
    }
    CHECK_LONG(phase, int_attr(state, N_phase));
    o = PyObject_CallMethodNoArgs(state, interned[N_current_player]);
    if (o == NULL) goto fail;
    CHECK_LONG(value, as_long(o));
    Py_CLEAR(o);
    if (value == seat) CHECK(set_count(&c, t[T_PHASE] + phase, 1, 0));
    CHECK_LONG(value, int_attr(state, N_round));
    CHECK(set_count(&c, t[T_ROUND], value, 0));
    CHECK_LONG(value, int_attr(state, N_active));
    CHECK(set_count(&c, t[T_ACTIVE] + mod(value - seat, n), 1, 0));
    CHECK_LONG(value, int_attr(state, N_start));
    CHECK(set_count(&c, t[T_START] + mod(value - seat, n), 1, 0));
    /* counts: galleon, supply, deck size, then the cards drawn by type */
    CHECK_LONG(value, int_attr(state, N_galleon));
    CHECK(set_count(&c, t[T_COUNTS], value, 0));
    CHECK_LONG(value, int_attr(state, N_supply));
    CHECK(set_count(&c, t[T_COUNTS] + 1, value, 0));
    o = attr(state, N_deck);
    Py_ssize_t len = o == NULL ? -1 : PyObject_Length(o);
    Py_CLEAR(o);
    if (len < 0) goto fail;
    CHECK(set_count(&c, t[T_COUNTS] + 2, (long)len, 0));
    o = attr(state, N_drawn);
    if (o == NULL || copy_counts(&c, o, t[T_COUNTS] + 3, t[T_NUM_CARD_TYPES]) < 0) goto fail;
    Py_CLEAR(o);
    /* the player blocks in the viewer's order */
    {
        static const int names[11] = {N_pos, N_role, N_exiled, N_nation, N_pub_treasure, N_steals_made,
                                      N_pub_maps, N_revealed, N_steal_delta, N_map_delta, N_spied};
        for (int i = 0; i < 11; i++) {
            lists[i] = attr(state, names[i]);
            if (lists[i] == NULL) goto fail;
        }
        PyObject *pos = lists[0], *role = lists[1], *exiled = lists[2], *nation = lists[3];
        PyObject *treasure = lists[4], *steals = lists[5], *maps = lists[6], *revealed = lists[7];
        PyObject *my_steal = item_at(lists[8], seat), *my_maps = item_at(lists[9], seat), *spied = item_at(lists[10], seat);
        int over = -1;
        o = attr(state, N_game_over);
        if (o != NULL) over = PyObject_IsTrue(o);
        Py_CLEAR(o);
        int ok = my_steal != NULL && my_maps != NULL && spied != NULL && over >= 0;
        long base = t[T_PLAYERS];
        for (long k = 0; k < n && ok; k++, base += t[T_PLAYER_BLOCK]) {
            long p = (seat + k) % n, x;
            ok = 0;
            if ((x = item_long(pos, p)) == -1 && PyErr_Occurred()) break;
            if (set_count(&c, base + x, 1, 0) < 0) break;
            if ((x = item_long(role, p)) == -1 && PyErr_Occurred()) break;
            if (set_count(&c, base + 8 + x, 1, 0) < 0) break;
            int flag = item_true(exiled, p);
            if (flag < 0 || (flag && set_count(&c, base + 16, 1, 0) < 0)) break;
            int known = p == seat || over;
            if (!known) {
                if ((flag = item_true(revealed, p)) < 0) break;
                known = flag;
            }
            if (!known) {
                if ((flag = item_true(spied, p)) < 0) break;
                known = flag;
            }
            if (known) {
                if ((x = item_long(nation, p)) == -1 && PyErr_Occurred()) break;
                if (set_count(&c, base + 18 + x, 1, 0) < 0) break;
            } else if (set_count(&c, base + 17, 1, 0) < 0) {
                break;
            }
            PyObject *counted[5] = {treasure, steals, my_steal, maps, my_maps};
            long shift[5] = {BIAS, 0, BIAS, BIAS, BIAS}; /* public counts and deltas can be < 0 */
            int j = 0;
            for (; j < 5; j++) {
                if ((x = item_long(counted[j], p)) == -1 && PyErr_Occurred()) break;
                if (set_count(&c, base + 21 + j, x + shift[j], 0) < 0) break;
            }
            ok = j == 5;
        }
        Py_XDECREF(my_steal); Py_XDECREF(my_maps); Py_XDECREF(spied);
        for (int i = 0; i < 11; i++) Py_CLEAR(lists[i]);
        if (!ok) goto fail;
    }
    /* own: hoard, maps, the wild-card cooldown */
    o = attr(state, N_hoard);
    if (o == NULL) goto fail;
    CHECK_LONG(value, item_long(o, seat));
    Py_CLEAR(o);
    CHECK(set_count(&c, t[T_OWN], value, 0));
    o = attr(state, N_maps);
    if (o == NULL) goto fail;
    CHECK_LONG(value, item_long(o, seat));
    Py_CLEAR(o);
    CHECK(set_count(&c, t[T_OWN] + 1, value, 0));
    if (t[T_WILD_COOLDOWN]) {
        o = attr(state, N_wild_lock);
        if (o == NULL) goto fail;
        int locked = item_true(o, seat);
        Py_CLEAR(o);
        if (locked < 0) goto fail;
        if (locked) CHECK(set_count(&c, t[T_OWN] + 2, 1, 0));
    }
    /* vote statistics, once any vote was called: yes_by rows, yes_vs rows (viewer's order both ways),
     * then votes initiated and votes targeting */
    {
        PyObject *initiated = attr(state, N_votes_initiated);
        if (initiated == NULL) goto fail;
        seq = fast(initiated);
        Py_DECREF(initiated);
        if (seq == NULL) goto fail;
        int any = 0;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            int nonzero = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, i));
            if (nonzero < 0) goto fail;
            any |= nonzero;
        }
        if (PySequence_Fast_GET_SIZE(seq) != n) any = -1;
        if (any) {
            if (any < 0) {
                PyErr_SetString(PyExc_ValueError, "tor_counts: votes_initiated of the wrong length");
                goto fail;
            }
            long at = t[T_YES_BY];
            static const int matrices[2] = {N_yes_by, N_yes_vs};
            for (int mtx = 0; mtx < 2; mtx++) {
                o = attr(state, matrices[mtx]);
                if (o == NULL) goto fail;
                for (long a = 0; a < n; a++) {
                    item = item_at(o, (seat + a) % n);
                    if (item == NULL) goto fail;
                    for (long b = 0; b < n; b++) {
                        CHECK_LONG(value, item_long(item, (seat + b) % n));
                        CHECK(set_count(&c, at++, value, 0));
                    }
                    Py_CLEAR(item);
                }
                Py_CLEAR(o);
            }
            for (long a = 0; a < n; a++) {
                CHECK_LONG(value, item_long(seq, (seat + a) % n));
                CHECK(set_count(&c, at++, value, 0));
            }
            o = attr(state, N_votes_targeting);
            if (o == NULL) goto fail;
            for (long a = 0; a < n; a++) {
                CHECK_LONG(value, item_long(o, (seat + a) % n));
                CHECK(set_count(&c, at++, value, 0));
            }
            Py_CLEAR(o);
        }
        Py_CLEAR(seq);
    }
    /* the vote in progress, as the viewer may see it */
    d = attr(state, N_vote);
    if (d == NULL) goto fail;
    if (d != Py_None) {
        CHECK_LONG(value, key_long(d, N_type));
        CHECK(set_count(&c, t[T_CV_TYPE] + value, 1, 0));
        CHECK_LONG(value, key_long(d, N_initiator));
        CHECK(set_count(&c, t[T_CV_INIT] + mod(value - seat, n), 1, 0));
        CHECK_LONG(value, key_long(d, N_target));
        if (value >= 0) CHECK(set_count(&c, t[T_CV_TARGET] + mod(value - seat, n), 1, 0));
        o = key_of(d, N_participants);
        if (o == NULL) goto fail;
        seq = fast(o);
        Py_CLEAR(o);
        if (seq == NULL) goto fail;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            CHECK_LONG(value, as_long(PySequence_Fast_GET_ITEM(seq, i)));
            CHECK(set_count(&c, t[T_CV_PART] + mod(value - seat, n), 1, 0));
        }
        Py_CLEAR(seq);
        PyObject *cards = key_of(d, N_cards);
        if (cards == NULL) goto fail;
        long own = item_long(cards, seat);
        if ((own == -1 && PyErr_Occurred()) || (own >= 0 && set_count(&c, t[T_CV_OWN] + own, 1, 0) < 0)) {
            Py_DECREF(cards);
            goto fail;
        }
        o = key_of(d, N_revealed);
        int shown = o == NULL ? -1 : PyObject_IsTrue(o);
        Py_CLEAR(o);
        if (shown < 0) {
            Py_DECREF(cards);
            goto fail;
        }
        if (shown) {
            PyObject *decl = key_of(d, N_decl);
            int ok = decl != NULL;
            for (long k = 0; k < n && ok; k++) {
                long p = (seat + k) % n, card = item_long(cards, p), said;
                ok = 0;
                if (card == -1 && PyErr_Occurred()) break;
                if (set_count(&c, t[T_CV_CARDS] + 3 * k + card, 1, 0) < 0) break;
                if ((said = item_long(decl, p)) == -1 && PyErr_Occurred()) break;
                if (said >= 0 && set_count(&c, t[T_CV_DECL] + 2 * k + said, 1, 0) < 0) break;
                ok = 1;
            }
            Py_XDECREF(decl);
            if (!ok) {
                Py_DECREF(cards);
                goto fail;
            }
        }
        Py_DECREF(cards);
    }
    Py_CLEAR(d);
    /* the last vote (a piece of 7 + 7n entries) */
    d = attr(state, N_last_vote);
    if (d == NULL) goto fail;
    if (d != Py_None) {
        const long base = t[T_LV_TYPE], plen = 7 + 7 * n;
        CHECK_LONG(value, key_long(d, N_type));
        CHECK(piece_set(&c, base, plen, value, 1));
        CHECK_LONG(value, key_long(d, N_initiator));
        CHECK(piece_set(&c, base, plen, 4 + mod(value - seat, n), 1));
        CHECK_LONG(value, key_long(d, N_target));
        if (value >= 0) CHECK(piece_set(&c, base, plen, 4 + n + mod(value - seat, n), 1));
        static const int rows[2] = {N_cards, N_final};
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
                CHECK(set_count(&c, base + start[r] + width[r] * k + value, 1, 0));
            }
            Py_CLEAR(o);
        }
        o = key_of(d, N_passed);
        int passed = o == NULL ? -1 : PyObject_IsTrue(o);
        Py_CLEAR(o);
        if (passed < 0) goto fail;
        if (passed) CHECK(piece_set(&c, base, plen, 4 + 7 * n, 1));
        CHECK_LONG(value, key_long(d, N_die));
        if (value >= 0) CHECK(piece_set(&c, base, plen, 5 + 7 * n + value, 1));
    }
    Py_CLEAR(d);
    /* loot: dice left, dice, successes, then what each seat was assigned */
    d = attr(state, N_loot);
    if (d == NULL) goto fail;
    if (d != Py_None) {
        static const int keys[3] = {N_left, N_dice, N_successes};
        for (int i = 0; i < 3; i++) {
            CHECK_LONG(value, key_long(d, keys[i]));
            CHECK(set_count(&c, t[T_LOOT] + i, value, 0));
        }
        o = key_of(d, N_assigned);
        if (o == NULL) goto fail;
        seq = fast(o);
        Py_CLEAR(o);
        if (seq == NULL) goto fail;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_SetString(PyExc_ValueError, "tor_counts: loot assignments of the wrong length");
            goto fail;
        }
        for (long k = 0; k < n; k++) {
            CHECK_LONG(value, as_long(PySequence_Fast_GET_ITEM(seq, (seat + k) % n)));
            CHECK(set_count(&c, t[T_LOOT] + 3 + k, value, 0));
        }
        Py_CLEAR(seq);
    }
    Py_CLEAR(d);
    d = attr(state, N_event);
    if (d == NULL) goto fail;
    if (d != Py_None) {
        CHECK_LONG(value, key_long(d, N_card));
        CHECK(set_count(&c, t[T_EVENT] + value, 1, 0));
        CHECK_LONG(value, key_long(d, N_target));
        if (value >= 0) CHECK(set_count(&c, t[T_EVENT] + 12 + mod(value - seat, n), 1, 0));
    }
    Py_CLEAR(d);
    /* the log, newest entry first; each entry a piece of log_entry bytes as the viewer sees it */
    o = attr(state, N_log);
    if (o == NULL) goto fail;
    seq = fast(o);
    Py_CLEAR(o);
    if (seq == NULL) goto fail;
    {
        const long L = t[T_LOG_ENTRY], NL = t[T_NUM_LOG_TYPES];
        Py_ssize_t entries = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t e = 0; e < entries; e++) {
            long base = t[T_LOG] + L * (long)e, f[7];
            item = fast(PySequence_Fast_GET_ITEM(seq, entries - 1 - e));
            if (item == NULL) goto fail;
            if (PySequence_Fast_GET_SIZE(item) != 7) {
                PyErr_SetString(PyExc_ValueError, "tor_counts: a log entry is not 7 values");
                goto fail;
            }
            for (int i = 0; i < 7; i++) CHECK_LONG(f[i], as_long(PySequence_Fast_GET_ITEM(item, i)));
            Py_CLEAR(item);
            long kind = f[0], actor = f[1], target = f[2], node = f[3], card = f[4], v = f[5], secret = f[6];
            if (base + L > c.size) {
                PyErr_SetString(PyExc_IndexError, "tor_counts: a log longer than its field");
                goto fail;
            }
            int visible = secret < 0 || t[T_PUBLIC_STEAL] || seat == actor || seat == target;
            CHECK(piece_set(&c, base, L, kind, 1));
            CHECK(piece_set(&c, base, L, NL + mod(actor - seat, n), 1));
            if (target >= 0 && visible) CHECK(piece_set(&c, base, L, NL + n + mod(target - seat, n), 1));
            if (node >= 0) CHECK(piece_set(&c, base, L, NL + 2 * n + node, 1));
            if (card >= 0) CHECK(piece_set(&c, base, L, NL + 2 * n + 8 + card, 1));
            if (visible) CHECK(piece_set(&c, base, L, L - 1, v + BIAS));
        }
    }
    Py_CLEAR(seq);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(o); Py_XDECREF(d); Py_XDECREF(seq); Py_XDECREF(item);
    for (int i = 0; i < 11; i++) Py_XDECREF(lists[i]);
    return NULL;
}

/* The bots' twins (_native_bots.c, compiled into this module). */
PyObject *dmd_act(PyObject *self, PyObject *args);
PyObject *dmd_features(PyObject *self, PyObject *args);
PyObject *tor_act(PyObject *self, PyObject *args);
PyObject *potsm_act(PyObject *self, PyObject *args);
PyObject *potsm_features(PyObject *self, PyObject *args);
PyObject *potsm_legal_features(PyObject *self, PyObject *args);
PyObject *potsm_encode(PyObject *self, PyObject *args);

static PyMethodDef methods[] = {
    {"dmd_encode", dmd_encode, METH_VARARGS,
     "dmd_encode(out, state, seat, spec): Dead Man's Draw's observation of ``seat`` written into the "
     "zero-filled float32 buffer ``out`` (the twin of ObservationEncoder.encode_python)."},
    {"mch_counts", mch_counts, METH_VARARGS,
     "mch_counts(buf, state, seat, spec): Madame Ching's observation counts of ``seat`` written into the "
     "zero-filled bytearray ``buf`` (the twin of ObservationEncoder._encode before its division by the scales)."},
    {"tor_counts", tor_counts, METH_VARARGS,
     "tor_counts(buf, state, seat, spec): Tortuga's observation of ``seat`` as stored bytes, written into "
     "``buf`` (a copy of the encoder's template; the twin of ObservationEncoder._encode before the bias)."},
    {"potsm_encode", potsm_encode, METH_VARARGS,
     "potsm_encode(out, state, seat, spec): Pirates of the Spanish Main's observation of ``seat`` written into "
     "the zero-filled float32 vector ``out`` (the twin of ObservationEncoder.encode_python; _native_encode_potsm.c)."},
    {"dmd_act", dmd_act, METH_VARARGS,
     "dmd_act(obs, mask, spec, margin): Dead Man's Draw's heuristic bot's action from its observation and "
     "mask, None where it picks at random (the twin of HeuristicPolicy.act)."},
    {"dmd_features", dmd_features, METH_VARARGS,
     "dmd_features(out, obs, mask, spec, scale): Dead Man's Draw's action features written into the "
     "zero-filled float32 (actions, 8) matrix ``out`` (the twin of action_features_python)."},
    {"tor_act", tor_act, METH_VARARGS,
     "tor_act(obs, mask, spec): Tortuga 1667's heuristic bot's action from its observation and mask, None "
     "where it picks at random (the twin of HeuristicPolicy.act)."},
    {"potsm_act", potsm_act, METH_VARARGS,
     "potsm_act(obs, mask, spec, scores): Pirates of the Spanish Main's heuristic bot's action from its "
     "observation and mask: an action, the tuple of tied best actions (the caller draws one as the Python bot "
     "does), or None where a score lies too near the tie threshold to decide (the twin of HeuristicPolicy.act); "
     "``scores``, a float64 vector per action or None, receives the legal actions' scores."},
    {"potsm_features", potsm_features, METH_VARARGS,
     "potsm_features(out, obs, mask, rules_spec, n, layout): Pirates of the Spanish Main's action features "
     "written into the zero-filled float32 (actions, 9 * channels) matrix ``out``; ``layout`` is "
     "action_features._twin_layout(n) (the observation size, the starts of the fields read, the float64 table of "
     "channels 2..5) (the twin of action_features_python)."},
    {"potsm_legal_features", potsm_legal_features, METH_VARARGS,
     "potsm_legal_features(out, observations, masks, rules_spec, n, layout): potsm_features for a batch of "
     "observations and their (batch, actions) masks, the legal actions' rows alone, in the order of "
     "numpy.nonzero(masks), written into the zero-filled float32 (legal actions, 9 * channels) matrix ``out``."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pirate_envs._native",
    "Compiled twins of per-decision hot paths (optional; the Python code is the reference).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    for (int i = 0; i < N_COUNT; i++) {
        interned[i] = PyUnicode_InternFromString(names[i]);
        if (interned[i] == NULL) return NULL;
    }
    return PyModule_Create(&module);
}
