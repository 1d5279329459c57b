/* The core of Tortuga 1667's heuristic bot, HeuristicPolicy.act on one observation and mask (pure C, no Python
 * API): the compiled twin (bot.c, which reads its spec, observation and mask from Python) and the engine's
 * heuristic (observe.c, which builds the spec from the game) both call it, so the bot is written once.
 *
 * The friend estimate is computed with the same operations in the same order as the Python bot (libm's log and
 * exp, as Python's math module calls them), so the doubles agree bit for bit; every ``max``/``min`` keeps the
 * first of equal values, as Python's do. tor_bot_decide answers an action, -1 where the Python bot picks at
 * random (its rule names an action the mask forbids, or none applies) or -2 for an input it does not take.
 */
#ifndef PIRATE_ENVS_TORTUGA_BOT_CORE_H
#define PIRATE_ENVS_TORTUGA_BOT_CORE_H

#include <math.h>
#include <stdint.h>
#include <stddef.h>

/* The largest observation entry the core reads (the encoder's entries are small counts and fractions). */
#define TOR_BOT_OBS_LIMIT 1.0e6f

/* The spec's entries: HeuristicPolicy.native_spec's order. */
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

#define TOR_BOT_NODES 8
#define TOR_BOT_PHASES 14
#define TOR_BOT_BLOCK 26 /* observation.PLAYER_BLOCK */
#define TOR_BOT_MAX_PLAYERS 9
#define TOR_BOT_MAX_ACTIONS 64

typedef struct {
    long sp[T_INTS];
    unsigned char composition[3], ship_node[3], distance[TOR_BOT_NODES][TOR_BOT_NODES];
    long n, phase;
    int n_legal, legal[TOR_BOT_MAX_ACTIONS];
    const int8_t *mask;
    /* HeuristicPolicy._read */
    double pos[TOR_BOT_MAX_PLAYERS], role[TOR_BOT_MAX_PLAYERS], nation[TOR_BOT_MAX_PLAYERS];
    double wealth[TOR_BOT_MAX_PLAYERS], friend[TOR_BOT_MAX_PLAYERS];
    double galleon, deck, own_hoard, vote[4 + 3 * TOR_BOT_MAX_PLAYERS];
} TorBot;

/* The spec's sizes, offsets and actions in range (its ints and tables already in ``t``): NULL, or what is wrong. */
static inline const char *tor_bot_check_spec(TorBot *t) {
    const long *sp = t->sp, n = sp[T_N], na = sp[T_NUM_ACTIONS];
    t->n = n;
    if (n < 2 || n > TOR_BOT_MAX_PLAYERS || na < 1 || na > TOR_BOT_MAX_ACTIONS) return "too many players or actions";
    for (int i = 0; i < 3; i++)
        if (t->ship_node[i] >= TOR_BOT_NODES) return "a ship's berth outside the map";
    if (sp[T_GAL] < 0 || sp[T_GAL] >= TOR_BOT_NODES || sp[T_TOR] < 0 || sp[T_TOR] >= TOR_BOT_NODES)
        return "a node outside the map";
    for (int i = T_PASS; i <= T_SHIP; i++)
        if (sp[i] < 0 || sp[i] >= na) return "an action outside the actions";
    const long fields[][2] = {
        {T_PHASE, TOR_BOT_PHASES}, {T_COUNTS, 3}, {T_PLAYERS, TOR_BOT_BLOCK * n}, {T_OWN, 1},
        {T_VOTE_STATS, 2 * n * n + 2 * n}, {T_CURRENT_VOTE, 4 + 3 * n},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        long start = sp[fields[i][0]];
        if (start < 0 || start + fields[i][1] > sp[T_SIZE]) return "a field outside the observation";
    }
    return NULL;
}

/* index of the first largest of ``values`` (heuristic._argmax) */
static inline long first_max(const double *values, long size) {
    long best = 0;
    for (long i = 1; i < size; i++)
        if (values[i] > values[best]) best = i;
    return best;
}

/* HeuristicPolicy._friend: per seat offset, the chance of sharing my nation. */
static inline const char *tor_bot_friends(TorBot *t, const float *obs) {
    const long *sp = t->sp, n = t->n, vs = sp[T_VOTE_STATS];
    const double *nations = t->nation;
    if (!(nations[0] >= 0.0 && nations[0] < 3.0)) return "my own nation is unknown";
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
            const double stolen_from_me = (double)obs[sp[T_PLAYERS] + k * TOR_BOT_BLOCK + 23];
            double logit = log(prior / (1 - prior));
            logit += 0.5 * (2 * yes_on_mine - initiated_by_me) - 0.7 * yes_against_me;
            logit += 0.8 * (stolen_from_me < 0.0 ? stolen_from_me : 0.0);
            t->friend[k] = 1 / (1 + exp(-logit));
        }
    }
    return NULL;
}

/* HeuristicPolicy._read, with the legal actions of ``mask`` (one byte per action): NULL, or what the core
 * does not take. With fewer than two legal actions nothing is read (no choice, or the Python bot's error). */
static inline const char *tor_bot_read(TorBot *t, const float *obs, const int8_t *mask) {
    const long *sp = t->sp, n = t->n;
    t->mask = mask;
    t->n_legal = 0;
    for (long a = 0; a < sp[T_NUM_ACTIONS]; a++)
        if (mask[a] != 0) t->legal[t->n_legal++] = (int)a;
    if (t->n_legal < 2) return NULL;
    /* the bot casts sums of entries to integers: a NaN, an infinity or a huge entry would make that cast
     * undefined, so such an observation is left to the Python bot */
    for (long i = 0; i < sp[T_SIZE]; i++)
        if (!isfinite(obs[i]) || fabsf(obs[i]) > TOR_BOT_OBS_LIMIT)
            return "an observation entry that is not a finite number of a sensible size";
    /* each player block's position, role and nation (-1: unknown) from their one-hots, and its visible
     * wealth (HeuristicPolicy.player_columns); the entries are small integers, so the sums are exact */
    for (long k = 0; k < n; k++) {
        const float *b = obs + sp[T_PLAYERS] + k * TOR_BOT_BLOCK;
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
    double phase[TOR_BOT_PHASES];
    for (int i = 0; i < TOR_BOT_PHASES; i++) phase[i] = (double)obs[sp[T_PHASE] + i];
    t->phase = first_max(phase, TOR_BOT_PHASES);
    t->galleon = (double)obs[sp[T_COUNTS]];
    t->deck = (double)obs[sp[T_COUNTS] + 2];
    t->own_hoard = (double)obs[sp[T_OWN]];
    for (long i = 0; i < 4 + 3 * n; i++) t->vote[i] = (double)obs[sp[T_CURRENT_VOTE] + i];
    return tor_bot_friends(t, obs);
}

static inline int bot_legal(const TorBot *t, long a) {
    return a >= 0 && a < t->sp[T_NUM_ACTIONS] && t->mask[a] != 0;
}

/* a seat offset read from the observation as an index of the seats, or -1 */
static inline long seat_of(const TorBot *t, long k) {
    return k >= 0 && k < t->n ? k : -1;
}

static inline long node_of(double value) {
    return value >= 0.0 && value < TOR_BOT_NODES ? (long)value : -1;
}

/* the ship whose berth is ``node``, or -1 (SHIP_NODE.index) */
static inline long ship_at(const TorBot *t, long node) {
    for (long s = 0; s < 3; s++)
        if (t->ship_node[s] == node) return s;
    return -1;
}

/* the first seat whose role is Captain of ``ship``, or -1 */
static inline long captain_of(const TorBot *t, long ship) {
    for (long k = 0; k < t->n; k++)
        if ((long)t->role[k] == ship) return k;
    return -1;
}

static inline long tor_move(const TorBot *t) {
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
        if (m >= TOR_BOT_NODES) return -2;
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
static inline long richest_enemy(const TorBot *t, const long *candidates, int count) {
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
static inline int offsets_in(const TorBot *t, long base, long *out) {
    int count = 0;
    for (int i = 0; i < t->n_legal; i++)
        if (base <= t->legal[i] && t->legal[i] < base + t->n) out[count++] = t->legal[i] - base;
    return count;
}

static inline long tor_action(const TorBot *t) {
    const long *sp = t->sp;
    if (bot_legal(t, sp[T_ATTACK])) return sp[T_ATTACK];
    if (bot_legal(t, sp[T_MUTINY])) {
        const long here = node_of(t->pos[0]), ship = here < 0 ? -1 : ship_at(t, here);
        const long captain = ship < 0 ? -1 : captain_of(t, ship);
        if (captain < 0) return -2;
        if (t->friend[captain] < 0.5) return sp[T_MUTINY];
    }
    if (bot_legal(t, sp[T_STEAL_GALLEON])) return sp[T_STEAL_GALLEON];
    long options[TOR_BOT_MAX_PLAYERS];
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
static inline int tor_want(const TorBot *t) {
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

static inline long tor_give(const TorBot *t) {
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

static inline int tor_leading(const TorBot *t) {
    double ours = 0.0, theirs = 0.0;
    for (long k = 0; k < t->n; k++) ours += t->friend[k] * t->wealth[k];
    ours = ours + t->own_hoard - t->wealth[0];
    for (long k = 0; k < t->n; k++) theirs += (1 - t->friend[k]) * t->wealth[k];
    long rivals = -1;
    for (int i = 0; i < 3; i++) rivals += t->composition[i] > 0;
    return ours >= theirs / (double)(rivals > 1 ? rivals : 1);
}

static inline long tor_target(const TorBot *t) {
    const long *sp = t->sp;
    long options[TOR_BOT_MAX_ACTIONS];
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

static inline long tor_current_dest(const TorBot *t) {
    const long gal = t->sp[T_GAL];
    long best = -1;
    for (int i = 0; i < t->n_legal; i++) {
        const long m = t->legal[i];
        if (m >= TOR_BOT_NODES) return -2;
        if (best < 0 || t->distance[gal][m] > t->distance[gal][best]) best = m; /* ties: the smaller m */
    }
    return best;
}

static inline long tor_mutiny_ship(const TorBot *t) {
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
static inline long tor_choose(const TorBot *t) {
    const long *sp = t->sp, phase = t->phase;
    if (phase == sp[T_MOVE] || phase == sp[T_EXTRA_MOVE]) return tor_move(t);
    if (phase == sp[T_ACTION]) return tor_action(t);
    if (phase == sp[T_VOTE_PHASE] || phase == sp[T_DECLARE_PHASE]) {
        const int want = tor_want(t);
        if (phase == sp[T_DECLARE_PHASE]) return sp[T_DECLARE] + (want ? 0 : 1);
        if (bot_legal(t, sp[T_VOTE] + 2)) return sp[T_VOTE] + 2;
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

/* The bot's action from what tor_bot_read read: an action, -1 (the Python bot's random pick) or -2 (an input
 * the core does not take). */
static inline long tor_bot_decide(const TorBot *t) {
    if (t->n_legal == 0) return -2;
    if (t->n_legal == 1) return t->legal[0];
    long action = tor_choose(t);
    if (action >= 0 && !bot_legal(t, action)) action = -1; /* Python checks the mask and picks at random */
    return action;
}

#endif
