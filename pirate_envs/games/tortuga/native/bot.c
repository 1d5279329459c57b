/* Tortuga 1667's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * tor_act(obs, mask, spec): the twin of pirate_envs.games.tortuga.heuristic.HeuristicPolicy.act, read from
 *     the seat's observation vector and action mask alone: the action, or None where the Python bot picks
 *     at random (its rule names an action the mask forbids).
 *
 * ``spec`` is the tuple HeuristicPolicy.native_spec builds once per game (the order of the T_* enum).
 * As for Dead Man's Draw's bot, the Python code stays the reference: tests/test_native_bots.py compares the two
 * decision for decision, and an input the twin does not expect (a field outside its one-hot range, a
 * float64 vector) raises ValueError or TypeError so that the caller runs the Python bot, which then does
 * whatever it does with it. The friend estimate is computed with the same operations in the same order
 * (libm's log and exp, as Python's math module calls them), so the doubles agree bit for bit; every
 * ``max``/``min`` keeps the first of equal values, as Python's do.
 */
#include "core/native/common.h"
#include <math.h>

/* The largest observation entry the twin reads (the encoder's entries are small counts and fractions). */
#define OBS_LIMIT 1.0e6f

enum {
    T_SIZE, T_N, T_PHASE, T_COUNTS, T_PLAYERS, T_OWN, T_VOTE_STATS, T_CURRENT_VOTE, T_NUM_ACTIONS,
    /* actions */
    T_PASS, T_ATTACK, T_MUTINY, T_STEAL_GALLEON, T_STEAL, T_DISPUTE, T_VOTE, T_DECLARE, T_DRAW, T_SELECT, T_SHIP,
    /* constants */
    T_ARMADA_ZONE, T_GAL, T_TOR, T_GOVERNOR, T_SAILOR, T_V_ATTACK, T_V_MUTINY,
    /* phases */
    T_MOVE, T_ACTION, T_VOTE_PHASE, T_DECLARE_PHASE, T_LOOT, T_DRAW_PHASE, T_MAP_RECIPIENT, T_EXTRA_MOVE,
    T_CURRENT_TARGET, T_CURRENT_DEST, T_MUTINY_SHIP, T_BRAWL_TARGET, T_SPY_TARGET, T_MAP_GIVE,
    T_INTS, /* the ints end here */
    T_COMPOSITION = T_INTS, T_SHIP_NODE, T_DISTANCE,
    T_COUNT
};

#define NODES 8
#define PHASES 14
#define BLOCK 26 /* observation.PLAYER_BLOCK */
#define MAX_PLAYERS 9
#define MAX_ACTIONS 64

typedef struct {
    long sp[T_INTS];
    unsigned char composition[3], ship_node[3], distance[NODES][NODES];
    long n, phase;
    int n_legal, legal[MAX_ACTIONS];
    const char *mask;
    /* HeuristicPolicy._read */
    double pos[MAX_PLAYERS], role[MAX_PLAYERS], nation[MAX_PLAYERS], wealth[MAX_PLAYERS], friend[MAX_PLAYERS];
    double galleon, deck, own_hoard, vote[4 + 3 * MAX_PLAYERS];
} Tor;

static int tor_error(const char *what) {
    return twin_error("tortuga bot twin", what);
}

static int read_spec(Tor *t, PyObject *spec) {
    if (twin_spec_ints(spec, T_COUNT, T_INTS, t->sp, "tortuga bot twin") < 0) return -1;
    PyObject *tables[3] = {PyTuple_GET_ITEM(spec, T_COMPOSITION), PyTuple_GET_ITEM(spec, T_SHIP_NODE),
                           PyTuple_GET_ITEM(spec, T_DISTANCE)};
    unsigned char *into[3] = {t->composition, t->ship_node, &t->distance[0][0]};
    const Py_ssize_t sizes[3] = {3, 3, NODES * NODES};
    for (int i = 0; i < 3; i++)
        if (twin_bytes(tables[i], into[i], sizes[i], "tortuga bot twin") < 0) return -1;
    const long *sp = t->sp, n = sp[T_N], na = sp[T_NUM_ACTIONS];
    t->n = n;
    if (n < 2 || n > MAX_PLAYERS || na < 1 || na > MAX_ACTIONS) return tor_error("too many players or actions");
    for (int i = 0; i < 3; i++)
        if (t->ship_node[i] >= NODES) return tor_error("a ship's berth outside the map");
    if (sp[T_GAL] < 0 || sp[T_GAL] >= NODES || sp[T_TOR] < 0 || sp[T_TOR] >= NODES)
        return tor_error("a node outside the map");
    for (int i = T_PASS; i <= T_SHIP; i++)
        if (sp[i] < 0 || sp[i] >= na) return tor_error("an action outside the actions");
    const long fields[][2] = {
        {T_PHASE, PHASES}, {T_COUNTS, 3}, {T_PLAYERS, BLOCK * n}, {T_OWN, 1}, {T_VOTE_STATS, 2 * n * n + 2 * n},
        {T_CURRENT_VOTE, 4 + 3 * n},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        long start = sp[fields[i][0]];
        if (start < 0 || start + fields[i][1] > sp[T_SIZE]) return tor_error("a field outside the observation");
    }
    return 0;
}

/* index of the first largest of ``values`` (heuristic._argmax) */
static long first_max(const double *values, long size) {
    long best = 0;
    for (long i = 1; i < size; i++)
        if (values[i] > values[best]) best = i;
    return best;
}

/* HeuristicPolicy._friend: per seat offset, the chance of sharing my nation. */
static int friends(Tor *t, const float *obs) {
    const long *sp = t->sp, n = t->n, vs = sp[T_VOTE_STATS];
    const double *nations = t->nation;
    if (!(nations[0] >= 0.0 && nations[0] < 3.0)) return tor_error("my own nation is unknown");
    const long mine = (long)nations[0];
    long unknown = 0, same = 0;
    for (long k = 0; k < n; k++) {
        if (k >= 1 && nations[k] < 0) unknown++;
        if (nations[k] == (double)mine) same++;
    }
    const long left = (long)t->composition[mine] - same;
    const double prior = unknown ? (double)left / (double)unknown : 0.0;
    const double initiated_by_me = (double)obs[vs + 2 * n * n];
    for (long k = 0; k < n; k++) {
        if (k == 0) {
            t->friend[k] = 1.0;
        } else if (nations[k] >= 0) {
            t->friend[k] = nations[k] == (double)mine ? 1.0 : 0.0;
        } else if (prior <= 0.0 || prior >= 1.0) {
            t->friend[k] = prior;
        } else {
            const double yes_on_mine = (double)obs[vs + k * n], yes_against_me = (double)obs[vs + n * n + k * n];
            const double stolen_from_me = (double)obs[sp[T_PLAYERS] + k * BLOCK + 23];
            double logit = log(prior / (1 - prior));
            logit += 0.5 * (2 * yes_on_mine - initiated_by_me) - 0.7 * yes_against_me;
            logit += 0.8 * (stolen_from_me < 0.0 ? stolen_from_me : 0.0);
            t->friend[k] = 1 / (1 + exp(-logit));
        }
    }
    return 0;
}

/* HeuristicPolicy._read, with the legal actions; 0, or -1 on an error (the buffers are released). */
static int read_obs(Tor *t, PyObject *obs_obj, PyObject *mask_obj, Py_buffer *buf, Py_buffer *mbuf) {
    const long *sp = t->sp, n = t->n;
    if (twin_obs_and_mask(obs_obj, mask_obj, sp[T_SIZE], sp[T_NUM_ACTIONS], buf, mbuf, "tortuga bot twin") < 0)
        return -1;
    t->mask = (const char *)mbuf->buf;
    t->n_legal = legal_actions(t->mask, sp[T_NUM_ACTIONS], t->legal);
    if (t->n_legal < 2) return 0; /* nothing to read: no choice, or the error the Python bot raises */
    const float *obs = (const float *)buf->buf;
    /* the bot casts sums of entries to integers: a NaN, an infinity or a huge entry would make that cast
     * undefined, so such an observation is left to the Python bot */
    for (long i = 0; i < sp[T_SIZE]; i++) {
        if (!isfinite(obs[i]) || fabsf(obs[i]) > OBS_LIMIT) {
            PyBuffer_Release(buf);
            PyBuffer_Release(mbuf);
            return tor_error("an observation entry that is not a finite number of a sensible size");
        }
    }
    /* each player block's position, role and nation (-1: unknown) from their one-hots, and its visible
     * wealth (HeuristicPolicy.player_columns); the entries are small integers, so the sums are exact */
    for (long k = 0; k < n; k++) {
        const float *b = obs + sp[T_PLAYERS] + k * BLOCK;
        float pos = 0.0f, role = 0.0f, nation = -b[17];
        for (int i = 0; i < 8; i++) {
            pos += b[i] * (float)i;
            role += b[8 + i] * (float)i;
        }
        for (int i = 0; i < 3; i++) nation += b[18 + i] * (float)i;
        t->pos[k] = pos;
        t->role[k] = role;
        t->nation[k] = nation;
        t->wealth[k] = (double)(b[21] + b[23] + 2.0f * b[24] + b[25]);
    }
    double phase[PHASES];
    for (int i = 0; i < PHASES; i++) phase[i] = (double)obs[sp[T_PHASE] + i];
    t->phase = first_max(phase, PHASES);
    t->galleon = (double)obs[sp[T_COUNTS]];
    t->deck = (double)obs[sp[T_COUNTS] + 2];
    t->own_hoard = (double)obs[sp[T_OWN]];
    for (long i = 0; i < 4 + 3 * n; i++) t->vote[i] = (double)obs[sp[T_CURRENT_VOTE] + i];
    if (friends(t, obs) < 0) {
        PyBuffer_Release(buf);
        PyBuffer_Release(mbuf);
        return -1;
    }
    return 0;
}

static int legal(const Tor *t, long a) {
    return a >= 0 && a < t->sp[T_NUM_ACTIONS] && t->mask[a] != 0;
}

/* a seat offset read from the observation as an index of the seats, or -1 */
static long seat_of(const Tor *t, long k) {
    return k >= 0 && k < t->n ? k : -1;
}

static long node_of(double value) {
    return value >= 0.0 && value < NODES ? (long)value : -1;
}

/* the ship whose berth is ``node``, or -1 (SHIP_NODE.index) */
static long ship_at(const Tor *t, long node) {
    for (long s = 0; s < 3; s++)
        if (t->ship_node[s] == node) return s;
    return -1;
}

/* the first seat whose role is Captain of ``ship``, or -1 */
static long captain_of(const Tor *t, long ship) {
    for (long k = 0; k < t->n; k++)
        if ((long)t->role[k] == ship) return k;
    return -1;
}

static long tor_move(const Tor *t) {
    const long *sp = t->sp;
    const long role = (long)t->role[0], here = node_of(t->pos[0]);
    if (here < 0) return -2;
    long goal;
    if (role == sp[T_GOVERNOR]) {
        goal = sp[T_TOR];
    } else if (3 <= role && role <= 5) { /* a First Mate */
        const long ship_here = ship_at(t, here);
        goal = sp[T_GAL];
        for (long k = 1; k < t->n; k++) {
            const long captain = (long)t->role[k];
            if (captain <= 2 && t->friend[k] < 0.5) {
                if (captain < 0) return -2;
                goal = t->ship_node[captain];
                if (ship_here == captain) break;
            }
        }
    } else if (role == sp[T_SAILOR] && t->galleon < 1) {
        goal = sp[T_TOR];
    } else {
        goal = sp[T_GAL];
    }
    long best = -1, best_distance = 0, best_moves = 0;
    for (int i = 0; i < t->n_legal; i++) {
        const long m = t->legal[i];
        if (m >= NODES) return -2;
        const long distance = t->distance[m][goal], moves = m != here;
        if (best < 0 || distance < best_distance || (distance == best_distance && moves < best_moves)) {
            best = m;
            best_distance = distance;
            best_moves = moves;
        }
    }
    return best;
}

/* HeuristicPolicy._richest_enemy over the seat offsets ``candidates``: the offset, or -1 */
static long richest_enemy(const Tor *t, const long *candidates, int count) {
    long best = -1;
    double best_value = 0.0;
    for (int i = 0; i < count; i++) {
        const long k = candidates[i];
        const double enemy = 1 - t->friend[k];
        if (enemy < 0.5) continue;
        const double value = enemy * (1 + t->wealth[k]);
        if (best < 0 || value > best_value || (value == best_value && k < best)) {
            best = k;
            best_value = value;
        }
    }
    return best;
}

/* the seat offsets of the legal actions in [base, base + n) */
static int offsets_in(const Tor *t, long base, long *out) {
    int count = 0;
    for (int i = 0; i < t->n_legal; i++)
        if (base <= t->legal[i] && t->legal[i] < base + t->n) out[count++] = t->legal[i] - base;
    return count;
}

static long tor_action(const Tor *t) {
    const long *sp = t->sp;
    if (legal(t, sp[T_ATTACK])) return sp[T_ATTACK];
    if (legal(t, sp[T_MUTINY])) {
        const long here = node_of(t->pos[0]), ship = here < 0 ? -1 : ship_at(t, here);
        const long captain = ship < 0 ? -1 : captain_of(t, ship);
        if (captain < 0) return -2;
        if (t->friend[captain] < 0.5) return sp[T_MUTINY];
    }
    if (legal(t, sp[T_STEAL_GALLEON])) return sp[T_STEAL_GALLEON];
    long options[MAX_PLAYERS];
    int count = offsets_in(t, sp[T_STEAL], options);
    if (count) {
        const long target = richest_enemy(t, options, count);
        if (target >= 0) return sp[T_STEAL] + target;
    }
    count = offsets_in(t, sp[T_DISPUTE], options);
    if (count) {
        const long target = richest_enemy(t, options, count);
        if (target >= 0) return sp[T_DISPUTE] + target;
    }
    return sp[T_PASS];
}

/* HeuristicPolicy._want: does the vote in progress help my nation if it passes? 1, 0, or -1 (no twin) */
static int tor_want(const Tor *t) {
    const long *sp = t->sp, n = t->n;
    const double *cv = t->vote, *friend = t->friend;
    const long kind = first_max(cv, 4), initiator = first_max(cv + 4, n);
    int any_target = 0; /* Python's any(target_vec) */
    for (long k = 0; k < n; k++) any_target |= cv[4 + n + k] != 0.0;
    const long target = any_target ? first_max(cv + 4 + n, n) : -1;
    if (kind == sp[T_V_ATTACK])
        return friend[initiator] >= 0.5 || (cv[4 + 2 * n] != 0.0 && friend[initiator] >= 0.34);
    if (kind == sp[T_V_MUTINY]) /* friend[-1] is the last seat's, as in Python */
        return friend[target >= 0 ? target : n - 1] < 0.5 && target != 0;
    return target >= 0 ? friend[initiator] - friend[target] > 0 : friend[initiator] >= 0.5;
}

static long tor_give(const Tor *t) {
    const long *sp = t->sp;
    long best = -1;
    for (int i = 0; i < t->n_legal; i++) {
        if (t->legal[i] < sp[T_SELECT]) continue;
        const long k = seat_of(t, t->legal[i] - sp[T_SELECT]);
        if (k < 0) return -2;
        if (t->phase == sp[T_MAP_GIVE]) {
            if (t->friend[k] == 1.0) return sp[T_SELECT] + k;
        } else if (k == 0) {
            return sp[T_SELECT];
        } else if (best < 0 || t->friend[k] > t->friend[best]) {
            best = k;
        }
    }
    if (t->phase == sp[T_MAP_GIVE]) return sp[T_PASS];
    return best < 0 ? -2 : sp[T_SELECT] + best;
}

static int tor_leading(const Tor *t) {
    double ours = 0.0, theirs = 0.0;
    for (long k = 0; k < t->n; k++) ours += t->friend[k] * t->wealth[k];
    ours = ours + t->own_hoard - t->wealth[0];
    for (long k = 0; k < t->n; k++) theirs += (1 - t->friend[k]) * t->wealth[k];
    long rivals = -1;
    for (int i = 0; i < 3; i++) rivals += t->composition[i] > 0;
    return ours >= theirs / (double)(rivals > 1 ? rivals : 1);
}

static long tor_target(const Tor *t) {
    const long *sp = t->sp;
    long options[MAX_ACTIONS];
    for (int i = 0; i < t->n_legal; i++) {
        options[i] = seat_of(t, t->legal[i] - sp[T_SELECT]);
        if (options[i] < 0) return -2;
    }
    if (t->phase == sp[T_SPY_TARGET]) {
        for (int i = 0; i < t->n_legal; i++)
            if (0.0 < t->friend[options[i]] && t->friend[options[i]] < 1.0) return sp[T_SELECT] + options[i];
        return sp[T_SELECT] + options[0];
    }
    if (t->phase == sp[T_CURRENT_TARGET]) {
        for (int i = 0; i < t->n_legal; i++)
            if ((long)t->pos[options[i]] == sp[T_GAL] && t->friend[options[i]] < 0.5) return sp[T_SELECT] + options[i];
    }
    long target = richest_enemy(t, options, t->n_legal);
    if (target < 0) {
        target = options[0];
        for (int i = 1; i < t->n_legal; i++)
            if (t->friend[options[i]] < t->friend[target]) target = options[i];
    }
    return sp[T_SELECT] + target;
}

static long tor_current_dest(const Tor *t) {
    const long gal = t->sp[T_GAL];
    long best = -1;
    for (int i = 0; i < t->n_legal; i++) {
        const long m = t->legal[i];
        if (m >= NODES) return -2;
        if (best < 0 || t->distance[gal][m] > t->distance[gal][best]) best = m; /* ties: the smaller m */
    }
    return best;
}

static long tor_mutiny_ship(const Tor *t) {
    long best = -1;
    double best_score = 0.0;
    for (int i = 0; i < t->n_legal; i++) {
        const long captain = captain_of(t, t->legal[i] - t->sp[T_SHIP]);
        if (captain < 0) return -2;
        const double score = 1 - t->friend[captain];
        if (best < 0 || score > best_score) {
            best = t->legal[i];
            best_score = score;
        }
    }
    return best_score >= 0.5 ? best : t->legal[0];
}

/* The bot's choice: an action, -1 (no rule: the random pick) or -2 (an input the twin does not take). */
static long tor_choose(const Tor *t) {
    const long *sp = t->sp, phase = t->phase;
    if (phase == sp[T_MOVE] || phase == sp[T_EXTRA_MOVE]) return tor_move(t);
    if (phase == sp[T_ACTION]) return tor_action(t);
    if (phase == sp[T_VOTE_PHASE] || phase == sp[T_DECLARE_PHASE]) {
        const int want = tor_want(t);
        if (phase == sp[T_DECLARE_PHASE]) return sp[T_DECLARE] + (want ? 0 : 1);
        if (legal(t, sp[T_VOTE] + 2)) return sp[T_VOTE] + 2;
        return sp[T_VOTE] + (want ? 0 : 1);
    }
    if (phase == sp[T_LOOT] || phase == sp[T_MAP_RECIPIENT] || phase == sp[T_MAP_GIVE]) return tor_give(t);
    if (phase == sp[T_DRAW_PHASE])
        return t->deck > (double)sp[T_ARMADA_ZONE] || tor_leading(t) ? sp[T_DRAW] : sp[T_PASS];
    if (phase == sp[T_CURRENT_TARGET] || phase == sp[T_BRAWL_TARGET] || phase == sp[T_SPY_TARGET]) return tor_target(t);
    if (phase == sp[T_CURRENT_DEST]) return tor_current_dest(t);
    if (phase == sp[T_MUTINY_SHIP]) return tor_mutiny_ship(t);
    return -1;
}

PyObject *tor_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec;
    if (!PyArg_ParseTuple(args, "OOO", &obs_obj, &mask_obj, &spec)) return NULL;
    Tor t;
    Py_buffer buf, mbuf;
    if (read_spec(&t, spec) < 0 || read_obs(&t, obs_obj, mask_obj, &buf, &mbuf) < 0) return NULL;
    long action;
    if (t.n_legal == 0) {
        tor_error("no legal action");
        action = -3;
    } else if (t.n_legal == 1) {
        action = t.legal[0];
    } else {
        action = tor_choose(&t);
        if (action >= 0 && !legal(&t, action)) action = -1; /* Python checks the mask and picks at random */
        if (action == -2) {
            tor_error("an observation entry outside the range the bot reads");
            action = -3;
        }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    if (action == -3) return NULL;
    if (action == -1) Py_RETURN_NONE;
    return PyLong_FromLong(action);
}
