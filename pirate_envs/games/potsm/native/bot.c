/* Pirates of the Spanish Main's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * potsm_act(obs, mask, spec, scores): the twin of pirate_envs.games.potsm.heuristic.HeuristicPolicy.act,
 *     read from the seat's observation vector and action mask alone. Returns the action; the tuple of the
 *     tied best actions, ascending (the Python caller draws one with the bot's rng, as act_python does);
 *     or None where some score lies within a hair of the tie threshold (below). ``scores``, a float64
 *     vector with one entry per action or None, receives every legal action's score (the twin of
 *     HeuristicPolicy.action_scores; illegal entries are left as they are).
 *
 * ``spec`` is the tuple HeuristicPolicy.native_spec builds once per bot (the order of the P_* enum): the
 * observation's offsets, the bot's parameters and potential tables, and the rules spec of
 * potsm.h. Every value is computed with the same operations in the same order as the Python
 * code, and every ``sum`` as the Python this module is built for adds (py_sum: left to right before 3.12,
 * compensated from 3.12 on), so the scores agree bit for bit. As a second line of defence, a decision
 * is left to the Python bot (None) whenever a score lies within 1e-11 (relative) of the tie threshold
 * (best score - TIE_TOLERANCE, read from the spec), the only place where a difference in the last bits
 * could change it.
 *
 * An input the twin does not read as the Python bot does raises ValueError, and the Python bot decides: a
 * spec whose fields reach outside the observation, ship positions that are no permutation (two ships on
 * one place), NaN or infinite entries, a deck size outside int's range (never cast: that is undefined
 * behaviour in C), or scores that overflow to infinities.
 */
#include "potsm.h"

enum {
    P_SIZE, P_N, P_NUM_ACTIONS, P_HAND, P_UPCOMING, P_SINKHORN,
    /* observation offsets */
    P_MY_PIRATES, P_SHIP_POSITION, P_SHIP_DAMAGED, P_SHIP_FAME, P_REVEALED, P_NOT_OWNER, P_CLAIMED, P_CURRENT,
    P_UPCOMING_AT, P_DECK_SIZE, P_MOVE_TALLY, P_ACCUSATION_TALLY,
    /* counts */
    P_PIRATES_EACH, P_UNUSED, P_NUM_CARDS, P_FOG_TYPE,
    P_INTS, /* the ints end here */
    P_RULES = P_INTS, P_PARAMS, P_TABLES, P_MOVE_TYPE,
    P_COUNT
};

/* the doubles of P_PARAMS (HeuristicPolicy._native_spec) */
enum {
    Q_OPPONENT, Q_LEADER, Q_HORIZON, Q_NEXT, Q_DAMAGE_COST, Q_FOG_KEEP, Q_ACCUSE_SCALE, Q_ACCUSE_COST,
    Q_ACCUSE_CARD_COST, Q_CARD_COST, Q_TALLY_FORWARD, Q_TALLY_BACKWARD, Q_TALLY_SABOTAGE, Q_TALLY_ACCUSE,
    Q_TIE, /* TIE_TOLERANCE: scores this close to the best are ties */
    Q_COUNT
};

/* P_TABLES: per adventure type the potential tables (heuristic._potential_tables), then the deck's mix
 * (DECK_MIX), then ADVENTURE_COUNTS and CARD_KEEP_VALUE, all doubles. A table set is (gain_pos 9, gain_rank
 * 9, damage_pos 3 x 9, damage_front 9, damage_back 9, loss_pos 9). */
#define TSET (9 * 5 + 27)
#define T_GP 0
#define T_GR 9
#define T_DP 18
#define T_DF 45
#define T_DB 54
#define T_LP 63
#define KEEP_TYPES 12
#define TABLES_SIZE (PS_TYPES * TSET + TSET + PS_TYPES + KEEP_TYPES)

#define MAX_PLAYERS 4
#define MAX_ACTIONS (76 + 9 * (MAX_PLAYERS - 1))
#define WHO "potsm bot twin"
#define DECK_SIZE_BOUND 1e9f /* a deck size the twin reads as an int; the Python bot reads any other */

typedef struct {
    long sp[P_INTS];
    PotsmRules rules;
    const double *q, *tables, *counts, *keep;
    const unsigned char *move_type;
    const float *o;
    long n;
    int n_legal, legal[MAX_ACTIONS];
    /* the decision's reading (HeuristicPolicy._scores) */
    int line[PS_SHIPS], damaged[PS_SHIPS], mine[PS_SHIPS], unrevealed[PS_SHIPS], card, remaining;
    double fame[PS_SHIPS], prob[PS_SHIPS][4], weight[MAX_PLAYERS];
    /* _prepare's parts */
    double values[PS_SHIPS], place[PS_SHIPS][PS_SHIPS], edge[PS_SHIPS][PS_SHIPS], wreck[PS_SHIPS];
    int n_losses, loss_at[PS_SHIPS];
    double loss[PS_SHIPS];
} Pb;

/* Python's ``sum`` of n >= 1 floats (the int 0 it starts from adds exactly nothing to a finite first term):
 * left to right before 3.12, compensated (Neumaier) from 3.12 on, as CPython's builtin_sum_impl adds them. */
static double py_sum(const double *x, int n) {
    double total = 0.0 + x[0];
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (int i = 1; i < n; i++) {
        double t = total + x[i];
        if (fabs(total) >= fabs(x[i])) c += (total - t) + x[i];
        else c += (x[i] - t) + total;
        total = t;
    }
    if (c != 0.0 && isfinite(c)) total += c;
#else
    for (int i = 1; i < n; i++) total += x[i];
#endif
    return total;
}

static int pb_error(const char *what) {
    return twin_error(WHO, what);
}

static const double *doubles(PyObject *spec, int at, Py_ssize_t count) {
    PyObject *b = PyTuple_GET_ITEM(spec, at);
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != count * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_TypeError, WHO ": the spec's tables must be bytes of doubles of the right sizes");
        return NULL;
    }
    return (const double *)PyBytes_AS_STRING(b);
}

/* Whether every field the twin reads, at its spec offset and with its width, lies inside the observation. */
static int fields_inside(const long *sp, long n) {
    const struct {
        int at;
        long width;
    } fields[] = {
        {P_MY_PIRATES, PS_SHIPS}, {P_SHIP_POSITION, PS_SHIPS * PS_SHIPS}, {P_SHIP_DAMAGED, PS_SHIPS},
        {P_SHIP_FAME, PS_SHIPS}, {P_REVEALED, PS_SHIPS * n}, {P_NOT_OWNER, PS_SHIPS * n}, {P_CLAIMED, n},
        {P_CURRENT, PS_TYPES}, {P_UPCOMING_AT, sp[P_UPCOMING] ? 3 * PS_TYPES : 0}, {P_DECK_SIZE, 1},
        {P_MOVE_TALLY, 27 * n}, {P_ACCUSATION_TALLY, PS_SHIPS * n},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const long start = sp[fields[i].at];
        if (start < 0 || start > sp[P_SIZE] - fields[i].width) return 0;
    }
    return 1;
}

static int read_spec(Pb *b, PyObject *spec) {
    if (twin_spec_ints(spec, P_COUNT, P_INTS, b->sp, WHO) < 0) return -1;
    if (potsm_rules(PyTuple_GET_ITEM(spec, P_RULES), &b->rules, WHO) < 0) return -1;
    b->n = b->sp[P_N];
    if (b->n < 2 || b->n > MAX_PLAYERS || b->sp[P_NUM_ACTIONS] > MAX_ACTIONS) return pb_error("a game size it was not built for");
    if (!fields_inside(b->sp, b->n)) return pb_error("a spec whose fields reach outside the observation");
    if (!potsm_blocks_as_expected(b->rules.sp)) return pb_error("a rules spec whose action blocks it does not read");
    if ((b->q = doubles(spec, P_PARAMS, Q_COUNT)) == NULL) return -1;
    if ((b->tables = doubles(spec, P_TABLES, TABLES_SIZE)) == NULL) return -1;
    b->counts = b->tables + PS_TYPES * TSET + TSET;
    b->keep = b->counts + PS_TYPES;
    PyObject *mt = PyTuple_GET_ITEM(spec, P_MOVE_TYPE);
    if (!PyBytes_Check(mt) || PyBytes_GET_SIZE(mt) != b->rules.sp[R_FOG]) {
        PyErr_SetString(PyExc_TypeError, WHO ": the move types must be bytes, one per move action");
        return -1;
    }
    b->move_type = (const unsigned char *)PyBytes_AS_STRING(mt);
    return 0;
}

/* _keep_value: the worth of keeping move card type t (the hand variant); -1 where Python would fail. */
static int keep_value(const Pb *b, long t, double *out) {
    if (t < 0 || t >= KEEP_TYPES) return -1;
    if (t >= 4 && t <= 9) {
        long nation = t <= 6 ? t - 4 : t - 7, own = 0;
        for (int s = 0; s < PS_SHIPS; s++)
            if (b->rules.nation[s] == nation) own += b->mine[s];
        *out = t <= 6 ? 0.2 + 0.3 * (double)own : 0.5 - 0.25 * (double)own;
        return 0;
    }
    *out = b->keep[t];
    return 0;
}

/* The public line, damage, fame and adventure (HeuristicPolicy._scores' first lines); -1 on a malformed one. */
static int read_line(Pb *b) {
    const float *o = b->o;
    const long *sp = b->sp;
    int i = -1;
    for (int p = 0; p < PS_SHIPS; p++) b->line[p] = -1;
    for (int j = 0; j < PS_SHIPS; j++) {
        for (i = i + 1; i < 81 && o[sp[P_SHIP_POSITION] + i] != 1.0f; i++) {}
        if (i >= 81 || i - 9 * j < 0 || i - 9 * j >= PS_SHIPS) return -1;
        b->line[i - 9 * j] = j;
    }
    /* Two ships on one place leave a place empty: Python's line keeps a 0 there, which no resolver expects */
    for (int p = 0; p < PS_SHIPS; p++)
        if (b->line[p] < 0) return -1;
    for (int s = 0; s < PS_SHIPS; s++) {
        b->damaged[s] = o[sp[P_SHIP_DAMAGED] + s] > 0.5f;
        b->fame[s] = (double)o[sp[P_SHIP_FAME] + s];
    }
    b->card = -1;
    for (int t = 0; t < PS_TYPES && b->card < 0; t++)
        if (o[sp[P_CURRENT] + t] == 1.0f) b->card = t;
    return b->card < 0 ? -1 : 0;
}

/* _ownership, _prior_weights and sinkhorn4 (``mine`` is read by all_scores first). */
static void ownership(Pb *b) {
    const float *o = b->o;
    const long *sp = b->sp, n = b->n;
    const double *q = b->q;
    double caps[4] = {(double)sp[P_UNUSED], 0.0, 0.0, 0.0};
    for (long k = 1; k < n; k++) caps[k] = (double)sp[P_PIRATES_EACH];
    for (int j = 0; j < PS_SHIPS; j++) {
        b->unrevealed[j] = 1;
        for (int k = 0; k < 4; k++) b->prob[j][k] = 0.0;
    }
    for (long i = 0; i < PS_SHIPS * n; i++) {
        if (o[sp[P_REVEALED] + i] != 1.0f) continue;
        long j = i / n, k = i % n;
        b->unrevealed[j] = 0;
        if (k > 0) {
            b->prob[j][k] = 1.0;
            caps[k] -= 1.0;
        }
    }
    int rows[PS_SHIPS], n_rows = 0;
    double w[PS_SHIPS][4];
    for (int j = 0; j < PS_SHIPS; j++) {
        if (!b->unrevealed[j] || b->mine[j]) continue;
        double *wj = w[n_rows];
        rows[n_rows++] = j;
        for (int k = 0; k < 4; k++) wj[k] = k < n ? 1.0 : 0.0;
        for (long k = 1; k < n; k++) {
            if (o[sp[P_NOT_OWNER] + n * j + k] > 0.5f) {
                wj[k] = 0.0;
                continue;
            }
            long t = sp[P_MOVE_TALLY] + (k * 9 + j) * 3;
            double e = q[Q_TALLY_FORWARD] * (double)o[t] - q[Q_TALLY_BACKWARD] * (double)o[t + 1] -
                       q[Q_TALLY_SABOTAGE] * (double)o[t + 2] -
                       q[Q_TALLY_ACCUSE] * (double)o[sp[P_ACCUSATION_TALLY] + k * 9 + j];
            if (e != 0.0) wj[k] = exp(e < -4.0 ? -4.0 : e > 4.0 ? 4.0 : e);
        }
    }
    if (n_rows == 0) return;
    double c[4];
    for (int k = 0; k < 4; k++) c[k] = caps[k] > 0.0 ? caps[k] : 0.0;
    for (long it = 0; it < b->sp[P_SINKHORN]; it++) {
        double s[4];
        for (int k = 0; k < 4; k++) {
            double column[PS_SHIPS] = {0.0};
            for (int r = 0; r < n_rows; r++) column[r] = w[r][k];
            double t = py_sum(column, n_rows);
            s[k] = t > 0.0 ? c[k] / t : 0.0;
        }
        for (int r = 0; r < n_rows; r++) {
            double a[4];
            for (int k = 0; k < 4; k++) a[k] = w[r][k] * s[k];
            double t = py_sum(a, 4);
            for (int k = 0; k < 4; k++) w[r][k] = t > 0.0 ? a[k] / t : a[k];
        }
    }
    for (int r = 0; r < n_rows; r++)
        for (int k = 0; k < 4; k++) b->prob[rows[r]][k] = w[r][k];
}

/* _ship_values: +1 for an own ship, minus the weighted chance that an opponent owns it otherwise. */
static void ship_values(Pb *b) {
    const long n = b->n;
    double ow = n == 2 ? 1.0 : b->q[Q_OPPONENT], lw = n == 2 ? 0.0 : b->q[Q_LEADER];
    for (long k = 0; k < MAX_PLAYERS; k++) b->weight[k] = k < n ? ow : 0.0;
    if (lw > 0.0) {
        double estimate[MAX_PLAYERS];
        for (long k = 0; k < n; k++) estimate[k] = (double)b->o[b->sp[P_CLAIMED] + k];
        for (int j = 0; j < PS_SHIPS; j++) {
            if (b->mine[j] || !(b->fame[j] > 0.0)) continue;
            for (long k = 1; k < n; k++) estimate[k] += b->prob[j][k] * b->fame[j];
        }
        long leader = 1;
        for (long k = 2; k < n; k++)
            if (estimate[k] > estimate[leader]) leader = k;
        b->weight[leader] += lw;
    }
    for (int j = 0; j < PS_SHIPS; j++) {
        const double *p = b->prob[j];
        b->values[j] = b->mine[j] ? 1.0 : 0.0 - p[1] * b->weight[1] - p[2] * b->weight[2] - p[3] * b->weight[3];
    }
}

/* _potential then _prepare: the per-decision lookup tables of the line's potential. */
static int prepare(Pb *b) {
    const float *o = b->o;
    const double *q = b->q;
    const float deck_size = o[b->sp[P_DECK_SIZE]];
    /* the float-to-int cast is only defined within int's range (potsm_act has refused NaN and infinities) */
    if (!(fabsf(deck_size) < DECK_SIZE_BOUND)) return -1;
    b->remaining = (int)deck_size;
    int next = -1, upcoming = 0;
    if (b->sp[P_UPCOMING]) {
        for (int slot = 0; slot < 3; slot++) {
            for (int t = 0; t < PS_TYPES; t++) {
                if (o[b->sp[P_UPCOMING_AT] + 24 * slot + t] == 1.0f) {
                    if (upcoming++ == 0) next = t;
                    break;
                }
            }
        }
        b->remaining += upcoming;
    }
    double horizon = (double)b->remaining < q[Q_HORIZON] ? (double)b->remaining : q[Q_HORIZON];
    double mix[TSET], scale;
    const double *tab;
    if (next < 0) {
        tab = b->tables + PS_TYPES * TSET; /* DECK_MIX */
        scale = horizon;
    } else { /* _mix([(next, next_weight)] + [(t, deck_share * count_t) ...]) */
        for (int i = 0; i < TSET; i++) mix[i] = 0.0;
        double deck_share = horizon / (double)b->sp[P_NUM_CARDS];
        for (int m = -1; m < PS_TYPES; m++) {
            int t = m < 0 ? next : m;
            double w = m < 0 ? q[Q_NEXT] : deck_share * b->counts[t];
            if (w == 0.0) continue;
            const double *src = b->tables + t * TSET;
            for (int i = 0; i < TSET; i++) mix[i] += w * src[i];
        }
        tab = mix;
        scale = 1.0;
    }
    const double *values = b->values;
    if (scale <= 0.0) { /* the last adventure: only the tie-break is left (PSM-703) */
        for (int s = 0; s < PS_SHIPS; s++) {
            for (int p = 0; p < PS_SHIPS; p++) {
                b->place[s][p] = values[s] > 0.0 ? 1e-3 : 0.0;
                b->edge[s][p] = 0.0;
            }
            b->wreck[s] = 0.0;
        }
        b->n_losses = 0;
        return 0;
    }
    const double cost = q[Q_DAMAGE_COST];
    double by_nation[3][PS_SHIPS], front[PS_SHIPS], back[PS_SHIPS];
    for (int a = 0; a < 3; a++)
        for (int p = 0; p < PS_SHIPS; p++) by_nation[a][p] = tab[T_GP + p] - cost * tab[T_DP + 9 * a + p];
    for (int r = 0; r < PS_SHIPS; r++) {
        front[r] = scale * (tab[T_GR + r] - cost * tab[T_DF + r]);
        back[r] = -scale * cost * tab[T_DB + r];
    }
    for (int last = 0; last < PS_SHIPS; last++)
        for (int r = 0; r <= last; r++) b->edge[last][r] = front[r] + back[last - r];
    b->n_losses = 0;
    for (int p = 0; p < PS_SHIPS; p++) {
        if (tab[T_LP + p] != 0.0) {
            b->loss_at[b->n_losses] = p;
            b->loss[b->n_losses++] = scale * tab[T_LP + p];
        }
    }
    const double wreck_unit = -scale * cost;
    for (int s = 0; s < PS_SHIPS; s++) {
        const double v = values[s] * scale;
        for (int p = 0; p < PS_SHIPS; p++) b->place[s][p] = v * by_nation[b->rules.nation[s]][p];
        b->wreck[s] = wreck_unit * values[s];
    }
    return 0;
}

/* _line_scorer's score, with keep = 1 or with Fog's ``keep`` != 1: the adventure's fame on the
 * line, then the potential of the line after it. */
static double line_score(const Pb *b, const int *line, const int *damaged, double keep) {
    double delta[PS_SHIPS];
    int after[PS_SHIPS];
    int has = potsm_resolve(&b->rules, b->card, line, damaged, b->fame, b->unrevealed, delta, after);
    double total = 0.0;
    if (has || keep != 1.0) {
        double terms[PS_SHIPS];
        for (int j = 0; j < PS_SHIPS; j++) terms[j] = b->values[j] * delta[j];
        total = py_sum(terms, PS_SHIPS);
    }
    const int *d = after;
    if (keep != 1.0) {
        total *= keep;
        d = damaged;
        has = 0;
    }
    int hit = 0;
    for (int s = 0; s < PS_SHIPS; s++) hit += d[s];
    const double *edges = b->edge[hit > 8 ? 8 : 8 - hit]; /* Python's edge[-1] when all nine are damaged */
    int rank = 0;
    for (int p = 0; p < PS_SHIPS; p++) {
        int s = line[p];
        if (d[s]) total += b->wreck[s];
        else total += b->place[s][p] + b->values[s] * edges[rank++];
    }
    for (int i = 0; i < b->n_losses; i++) {
        int s = line[b->loss_at[i]];
        if ((has ? b->fame[s] + delta[s] : b->fame[s]) >= 1.0) total -= b->values[s] * b->loss[i];
    }
    return total;
}

/* HeuristicPolicy._scores into scores[action] for every legal action; -1 where the Python bot would fail
 * or read the observation otherwise than the twin does. */
static int all_scores(Pb *b, double *scores) {
    const long *r = b->rules.sp;
    const double *q = b->q;
    const int hand = (int)b->sp[P_HAND];
    int first = b->legal[0], last = b->legal[b->n_legal - 1];
    for (int s = 0; s < PS_SHIPS; s++) b->mine[s] = b->o[b->sp[P_MY_PIRATES] + s] > 0.5f;
    if (first >= r[R_ACCUSE_DISCARD] && last < r[R_ACCUSE]) { /* PSM-1051: the accusation's discard */
        for (int i = 0; i < b->n_legal; i++) {
            double v;
            if (keep_value(b, b->legal[i] - r[R_ACCUSE_DISCARD], &v) < 0) return -1;
            scores[b->legal[i]] = -v;
        }
        return 0;
    }
    if (read_line(b) < 0) return -1;
    ownership(b);
    ship_values(b);
    if (prepare(b) < 0) return -1;
    int i = 0;
    for (; i < b->n_legal && b->legal[i] < r[R_FOG]; i++) { /* move cards */
        int a = b->legal[i], new_line[PS_SHIPS], new_damaged[PS_SHIPS];
        potsm_after_move(&b->rules, a, b->line, b->damaged, new_line, new_damaged);
        scores[a] = line_score(b, new_line, new_damaged, 1.0);
        if (hand) {
            double v;
            if (keep_value(b, b->move_type[a], &v) < 0) return -1;
            scores[a] -= q[Q_CARD_COST] * (v - 0.5);
        }
    }
    if (i < b->n_legal && b->legal[i] == r[R_FOG]) {
        double s = line_score(b, b->line, b->damaged, q[Q_FOG_KEEP]);
        if (hand) {
            double v;
            if (keep_value(b, b->sp[P_FOG_TYPE], &v) < 0) return -1;
            s -= q[Q_CARD_COST] * (v - 0.5);
        }
        scores[b->legal[i++]] = s;
    }
    if (i < b->n_legal && b->legal[i] == r[R_REPAIR]) {
        static const int repaired[PS_SHIPS] = {0};
        scores[b->legal[i++]] = line_score(b, b->line, repaired, 1.0) - 1e-6;
    }
    if (i == b->n_legal) return 0;
    const double base = line_score(b, b->line, b->damaged, 1.0); /* Pass, Pass-discard, Accuse: the line stays */
    for (; i < b->n_legal && b->legal[i] < r[R_ACCUSE]; i++) {
        int a = b->legal[i];
        if (a == r[R_PASS]) {
            scores[a] = base;
        } else if (hand) {
            double v;
            if (keep_value(b, a - r[R_PASS_DISCARD], &v) < 0) return -1;
            scores[a] = base + (0.1 * (0.5 - v) - 1e-6);
        } else {
            scores[a] = base + -1e-6;
        }
    }
    if (i == b->n_legal) return 0;
    /* _accusation_values (PSM-515) */
    const long n = b->n;
    double cost = q[Q_ACCUSE_COST];
    if (hand) cost += q[Q_ACCUSE_CARD_COST];
    double share = (double)b->remaining / (2.0 * (double)n);
    cost = cost * (share < 1.0 ? share : 1.0) + 1e-6;
    for (; i < b->n_legal; i++) {
        int a = b->legal[i], index = a - (int)r[R_ACCUSE];
        long k = 1 + index / PS_SHIPS;
        int j = index % PS_SHIPS;
        if (k >= n) return -1;
        double coef = q[Q_ACCUSE_SCALE] * (1.0 + b->weight[k]);
        double value = b->mine[j] ? -1.0 : coef * b->prob[j][k] * ceil(b->fame[j] / 2.0) - cost;
        scores[a] = base + value;
    }
    return 0;
}

/* Whether the ``size`` floats of ``o`` are all finite: NaN and infinities compare, clamp and cast otherwise
 * in C than in Python, so the twin leaves such an observation to the Python bot. */
static int all_finite(const float *o, long size) {
    for (long i = 0; i < size; i++)
        if (!isfinite(o[i])) return 0;
    return 1;
}

/* Whether every legal action's score is finite (huge finite inputs can overflow to inf, then NaN). */
static int legal_scores_finite(const Pb *b, const double *scores) {
    for (int i = 0; i < b->n_legal; i++)
        if (!isfinite(scores[b->legal[i]])) return 0;
    return 1;
}

PyObject *potsm_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec, *scores_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &obs_obj, &mask_obj, &spec, &scores_obj)) return NULL;
    Pb b;
    Py_buffer buf, mbuf, sbuf;
    if (read_spec(&b, spec) < 0) return NULL;
    if (twin_obs_and_mask(obs_obj, mask_obj, b.sp[P_SIZE], b.sp[P_NUM_ACTIONS], &buf, &mbuf, WHO) < 0) return NULL;
    int have_out = scores_obj != Py_None;
    if (have_out) {
        if (PyObject_GetBuffer(scores_obj, &sbuf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
            PyBuffer_Release(&buf);
            PyBuffer_Release(&mbuf);
            return NULL;
        }
        if (sbuf.format == NULL || strcmp(sbuf.format, "d") != 0 || sbuf.len != b.sp[P_NUM_ACTIONS] * (Py_ssize_t)sizeof(double)) {
            PyBuffer_Release(&buf);
            PyBuffer_Release(&mbuf);
            PyBuffer_Release(&sbuf);
            PyErr_SetString(PyExc_TypeError, WHO ": scores must be a float64 vector with one entry per action");
            return NULL;
        }
    }
    b.o = (const float *)buf.buf;
    const char *mask = (const char *)mbuf.buf;
    b.n_legal = legal_actions(mask, b.sp[P_NUM_ACTIONS], b.legal);
    PyObject *result = NULL;
    double scores[MAX_ACTIONS];
    if (b.n_legal == 0) {
        pb_error("no legal action");
    } else if (b.n_legal == 1 && !have_out) {
        result = PyLong_FromLong(b.legal[0]);
    } else if (!all_finite(b.o, b.sp[P_SIZE])) {
        pb_error("an observation with NaN or infinite values (the Python bot reads it)");
    } else if (all_scores(&b, scores) < 0) {
        pb_error("an observation or action the twin does not read as the Python bot does");
    } else if (!legal_scores_finite(&b, scores)) {
        pb_error("a score that is NaN or infinite (the Python bot ranks those)");
    } else {
        if (have_out)
            for (int i = 0; i < b.n_legal; i++) ((double *)sbuf.buf)[b.legal[i]] = scores[b.legal[i]];
        double best = scores[b.legal[0]];
        for (int i = 1; i < b.n_legal; i++)
            if (scores[b.legal[i]] > best) best = scores[b.legal[i]];
        const double threshold = best - b.q[Q_TIE], guard = 1e-11 * (1.0 + fabs(threshold));
        int top[MAX_ACTIONS], n_top = 0, near = 0;
        for (int i = 0; i < b.n_legal; i++) {
            double s = scores[b.legal[i]];
            if (fabs(s - threshold) <= guard) near = 1;
            if (s >= threshold) top[n_top++] = b.legal[i];
        }
        if (b.n_legal == 1) {
            result = PyLong_FromLong(b.legal[0]);
        } else if (near) {
            result = Py_NewRef(Py_None);
        } else if (n_top == 1) {
            result = PyLong_FromLong(top[0]);
        } else if ((result = PyTuple_New(n_top)) != NULL) {
            for (int i = 0; i < n_top; i++) {
                PyObject *a = PyLong_FromLong(top[i]);
                if (a == NULL) {
                    Py_CLEAR(result);
                    break;
                }
                PyTuple_SET_ITEM(result, i, a);
            }
        }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    if (have_out) PyBuffer_Release(&sbuf);
    return result;
}
