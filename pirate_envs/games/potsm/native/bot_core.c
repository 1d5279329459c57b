/* The heuristic bot's scores in plain C (bot_core.h): HeuristicPolicy._scores and its parts. */
#include <patchlevel.h> /* PY_VERSION_HEX only: which ``sum`` the Python bot's floats come from */
#include <stdint.h>

#include "games/potsm/native/bot_core.h"
#include "games/potsm/native/layout.h"

#define DECK_SIZE_BOUND 1e9f /* a deck size the C code reads as an int; the Python bot reads any other */


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

/* Whether every field the bot reads, at its spec offset and with its width, lies inside the observation. */
int potsm_bot_fields_inside(const long *sp, long n) {
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

/* _keep_value: the worth of keeping move card type t (the hand variant); -1 where Python would fail. */
static int keep_value(const Pb *b, long t, double *out) {
    if (t < 0 || t >= KEEP_TYPES) return -1;
    if (t >= 4 && t <= 9) {
        long nation = t <= 6 ? t - 4 : t - 7, own = 0;
        for (int s = 0; s < PS_SHIPS; s++)
            if (b->rules->nation[s] == nation) own += b->mine[s];
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

/* The reading of the observation beyond the line (what _ownership, _ship_values and _potential read): the
 * revealed pirates, the belief rows' facts and tallies, the claims, the adventures left; -1 on a deck size
 * the C code does not read as Python does. */
static int read_rest(Pb *b) {
    const float *o = b->o;
    const long *sp = b->sp, n = b->n;
    b->caps[0] = (double)sp[P_UNUSED];
    for (long k = 1; k < MAX_PLAYERS; k++) b->caps[k] = k < n ? (double)sp[P_PIRATES_EACH] : 0.0;
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
            b->caps[k] -= 1.0;
        }
    }
    for (int j = 0; j < PS_SHIPS; j++) {
        if (!b->unrevealed[j] || b->mine[j]) continue;
        for (long k = 1; k < n; k++) {
            b->not_owner[j][k] = o[sp[P_NOT_OWNER] + n * j + k] > 0.5f;
            const long t = sp[P_MOVE_TALLY] + (k * 9 + j) * 3;
            b->tally[j][k][0] = (double)o[t];
            b->tally[j][k][1] = (double)o[t + 1];
            b->tally[j][k][2] = (double)o[t + 2];
            b->tally[j][k][3] = (double)o[sp[P_ACCUSATION_TALLY] + k * 9 + j];
        }
    }
    for (long k = 0; k < n; k++) b->claimed[k] = (double)o[sp[P_CLAIMED] + k];
    const float deck_size = o[sp[P_DECK_SIZE]];
    /* the float-to-int cast is only defined within int's range (potsm_act has refused NaN and infinities) */
    if (!(fabsf(deck_size) < DECK_SIZE_BOUND)) return -1;
    b->remaining = (int)deck_size;
    b->next = -1;
    if (sp[P_UPCOMING]) {
        int upcoming = 0;
        for (int slot = 0; slot < 3; slot++) {
            for (int t = 0; t < PS_TYPES; t++) {
                if (o[sp[P_UPCOMING_AT] + 24 * slot + t] == 1.0f) {
                    if (upcoming++ == 0) b->next = t;
                    break;
                }
            }
        }
        b->remaining += upcoming;
    }
    return 0;
}

/* sinkhorn4's iterations on the weights, column by column (wt[k][r]: offset k, row r) for the n live
 * offsets; the callers pass n as a constant so that the loops over offsets unroll. */
static inline void sinkhorn(double wt[4][PS_SHIPS], int n_rows, const double *c, long iterations, const int n) {
    for (long it = 0; it < iterations; it++) {
        double s[4];
        for (int k = 0; k < n; k++) {
            double t = py_sum(wt[k], n_rows);
            s[k] = t > 0.0 ? c[k] / t : 0.0;
        }
        for (int r = 0; r < n_rows; r++) {
            double a[4];
            for (int k = 0; k < n; k++) a[k] = wt[k][r] * s[k];
            double t = py_sum(a, n);
            for (int k = 0; k < n; k++) wt[k][r] = t > 0.0 ? a[k] / t : a[k];
        }
    }
}

/* _ownership, _prior_weights and sinkhorn4 from the reading (``mine`` is read by all_scores first). Offsets
 * k >= n have no cap and no weight: their column stays 0.0 and adds exactly nothing to a row's sum (it comes
 * last, and a sum of non-negative weights is never -0.0), so only the n live columns are computed. */
static void ownership(Pb *b) {
    const long n = b->n;
    const double *q = b->q;
    int rows[PS_SHIPS], n_rows = 0;
    double wt[4][PS_SHIPS];
    for (int j = 0; j < PS_SHIPS; j++) {
        if (!b->unrevealed[j] || b->mine[j]) continue;
        const int r = n_rows++;
        rows[r] = j;
        for (int k = 0; k < 4; k++) wt[k][r] = k < n ? 1.0 : 0.0;
        for (long k = 1; k < n; k++) {
            if (b->not_owner[j][k]) {
                wt[k][r] = 0.0;
                continue;
            }
            const double *t = b->tally[j][k];
            double e = q[Q_TALLY_FORWARD] * t[0] - q[Q_TALLY_BACKWARD] * t[1] - q[Q_TALLY_SABOTAGE] * t[2] -
                       q[Q_TALLY_ACCUSE] * t[3];
            if (e != 0.0) wt[k][r] = exp(e < -4.0 ? -4.0 : e > 4.0 ? 4.0 : e);
        }
    }
    if (n_rows == 0) return;
    double c[4];
    for (int k = 0; k < 4; k++) c[k] = b->caps[k] > 0.0 ? b->caps[k] : 0.0;
    const long iterations = b->sp[P_SINKHORN];
    if (n == 2) sinkhorn(wt, n_rows, c, iterations, 2);
    else if (n == 3) sinkhorn(wt, n_rows, c, iterations, 3);
    else sinkhorn(wt, n_rows, c, iterations, 4);
    for (int r = 0; r < n_rows; r++)
        for (int k = 0; k < 4; k++) b->prob[rows[r]][k] = wt[k][r];
}

/* _ship_values: +1 for an own ship, minus the weighted chance that an opponent owns it otherwise. */
static void ship_values(Pb *b) {
    const long n = b->n;
    double ow = n == 2 ? 1.0 : b->q[Q_OPPONENT], lw = n == 2 ? 0.0 : b->q[Q_LEADER];
    for (long k = 0; k < MAX_PLAYERS; k++) b->weight[k] = k < n ? ow : 0.0;
    if (lw > 0.0) {
        double estimate[MAX_PLAYERS];
        for (long k = 0; k < n; k++) estimate[k] = b->claimed[k];
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

/* _mix([(next, next_weight)] + [(t, deck_share * count_t) ...]): the potential tables of the next adventure
 * and the deck's share of the horizon, added type by type. */
static void next_mix(const double *q, const double *tables, const double *counts, long num_cards, int next,
                     double horizon, double *mix) {
    for (int i = 0; i < TSET; i++) mix[i] = 0.0;
    double deck_share = horizon / (double)num_cards;
    for (int m = -1; m < PS_TYPES; m++) {
        int t = m < 0 ? next : m;
        double w = m < 0 ? q[Q_NEXT] : deck_share * counts[t];
        if (w == 0.0) continue;
        const double *src = tables + t * TSET;
        for (int i = 0; i < TSET; i++) mix[i] += w * src[i];
    }
}

/* _potential then _prepare: the per-decision lookup tables of the line's potential. */
static void prepare(Pb *b) {
    const double *q = b->q;
    const int next = b->next;
    double horizon = (double)b->remaining < q[Q_HORIZON] ? (double)b->remaining : q[Q_HORIZON];
    double mix[TSET], scale;
    const double *tab;
    if (next < 0) {
        tab = b->tables + PS_TYPES * TSET; /* DECK_MIX */
        scale = horizon;
    } else {
        const PbMixes *m = b->mixes;
        if (m != NULL && horizon == m->horizon[0]) tab = m->mix[next][0];
        else if (m != NULL && horizon == m->horizon[1]) tab = m->mix[next][1];
        else {
            next_mix(q, b->tables, b->counts, b->sp[P_NUM_CARDS], next, horizon, mix);
            tab = mix;
        }
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
        return;
    }
    const double cost = q[Q_DAMAGE_COST];
    double by_nation[3][PS_SHIPS], front[PS_SHIPS], back[PS_SHIPS];
    for (int a = 0; a < 3; a++)
        for (int p = 0; p < PS_SHIPS; p++) by_nation[a][p] = tab[T_GP + p] - cost * tab[T_DP + 9 * a + p];
    for (int r = 0; r < PS_SHIPS; r++) {
        front[r] = scale * (tab[T_GR + r] - cost * tab[T_DF + r]);
        back[r] = -scale * cost * tab[T_DB + r];
    }
    for (int last = 0; last < PS_SHIPS; last++) {
        for (int r = 0; r <= last; r++) b->edge[last][r] = front[r] + back[last - r];
        for (int r = last + 1; r < PS_SHIPS; r++) b->edge[last][r] = 0.0; /* read by line_score's unused term */
    }
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
        for (int p = 0; p < PS_SHIPS; p++) b->place[s][p] = v * by_nation[b->rules->nation[s]][p];
        b->wreck[s] = wreck_unit * values[s];
    }
}

/* yes ? a : b by bits, without a branch. */
static inline double pick(int yes, double a, double b) {
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    const uint64_t mask = (uint64_t)0 - (uint64_t)(yes != 0);
    const uint64_t u = (ua & mask) | (ub & ~mask);
    double out;
    memcpy(&out, &u, sizeof out);
    return out;
}

/* _line_scorer's score, with keep = 1 or with Fog's ``keep`` != 1: the adventure's fame on the
 * line, then the potential of the line after it. */
static double line_score(const Pb *b, const int *line, const int *damaged, double keep) {
    double delta[PS_SHIPS];
    int after[PS_SHIPS];
    int has = potsm_resolve(b->rules, b->card, line, damaged, b->fame, b->unrevealed, delta, after);
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
    /* The terms are picked without a branch on the damage (which the line makes unpredictable); the sum
     * adds the same terms in the same order. */
    for (int p = 0; p < PS_SHIPS; p++) {
        const int s = line[p], up = !d[s];
        total += pick(up, b->place[s][p] + b->values[s] * edges[rank], b->wreck[s]);
        rank += up;
    }
    /* A fame it cannot lose subtracts +0.0, which leaves any total as it is (-0.0 included). */
    for (int i = 0; i < b->n_losses; i++) {
        const int s = line[b->loss_at[i]];
        total -= pick((has ? b->fame[s] + delta[s] : b->fame[s]) >= 1.0, b->values[s] * b->loss[i], 0.0);
    }
    return total;
}

/* Whether the legal actions are the accusation's discard (PSM-1051). */
int potsm_bot_is_discard(const Pb *b) {
    const long *r = b->rules->sp;
    return b->legal[0] >= r[R_ACCUSE_DISCARD] && b->legal[b->n_legal - 1] < r[R_ACCUSE];
}

/* HeuristicPolicy._scores into scores[action] for every legal action; -1 where the Python bot would fail
 * or read the observation otherwise than this code does. */
int potsm_bot_scores(Pb *b, double *scores) {
    const long *r = b->rules->sp;
    const double *q = b->q;
    const int hand = (int)b->sp[P_HAND];
    if (b->o != NULL)
        for (int s = 0; s < PS_SHIPS; s++) b->mine[s] = b->o[b->sp[P_MY_PIRATES] + s] > 0.5f;
    if (potsm_bot_is_discard(b)) { /* PSM-1051: the accusation's discard */
        for (int i = 0; i < b->n_legal; i++) {
            double v;
            if (keep_value(b, b->legal[i] - r[R_ACCUSE_DISCARD], &v) < 0) return -1;
            scores[b->legal[i]] = -v;
        }
        return 0;
    }
    if (b->o != NULL && (read_line(b) < 0 || read_rest(b) < 0)) return -1;
    ownership(b);
    ship_values(b);
    prepare(b);
    /* Equal lines score equally (the Python bot's cache of distinct lines): a move that leaves the line and
     * its damage as they are scores the line as it stands, computed once (``base``, Pass's score too). */
    double base = 0.0;
    int have_base = 0;
    int i = 0;
    for (; i < b->n_legal && b->legal[i] < r[R_FOG]; i++) { /* move cards */
        int a = b->legal[i], new_line[PS_SHIPS], new_damaged[PS_SHIPS];
        if (!potsm_after_move(b->rules, a, b->line, b->damaged, new_line, new_damaged)) {
            if (!have_base) {
                base = line_score(b, b->line, b->damaged, 1.0);
                have_base = 1;
            }
            scores[a] = base;
        } else {
            scores[a] = line_score(b, new_line, new_damaged, 1.0);
        }
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
    if (!have_base) base = line_score(b, b->line, b->damaged, 1.0); /* Pass, Pass-discard, Accuse: the line stays */
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
    double half[PS_SHIPS]; /* ceil(fame / 2) per ship, as each accusation's value reads it */
    for (int j = 0; j < PS_SHIPS; j++) half[j] = ceil(b->fame[j] / 2.0);
    for (; i < b->n_legal; i++) {
        int a = b->legal[i], index = a - (int)r[R_ACCUSE];
        long k = 1 + index / PS_SHIPS;
        int j = index % PS_SHIPS;
        if (k >= n) return -1;
        double coef = q[Q_ACCUSE_SCALE] * (1.0 + b->weight[k]);
        double value = b->mine[j] ? -1.0 : coef * b->prob[j][k] * half[j] - cost;
        scores[a] = base + value;
    }
    return 0;
}

/* Whether the ``size`` floats of ``o`` are all finite: NaN and infinities compare, clamp and cast otherwise
 * in C than in Python (the Python twin leaves such an observation to the Python bot). */
int potsm_bot_all_finite(const float *o, long size) {
    for (long i = 0; i < size; i++)
        if (!isfinite(o[i])) return 0;
    return 1;
}

/* Whether every legal action's score is finite (huge finite inputs can overflow to inf, then NaN). */
int potsm_bot_legal_scores_finite(const Pb *b, const double *scores) {
    for (int i = 0; i < b->n_legal; i++)
        if (!isfinite(scores[b->legal[i]])) return 0;
    return 1;
}

/* ---- the default spec, built in C (the native engine's bot) --------------------------------------------- */

/* heuristic._potential_tables, DECK_MIX, ADVENTURE_COUNTS and CARD_KEEP_VALUE in the order of P_TABLES, from
 * the resolvers of POTSM_RULES (filled once; every double by the same operation as the Python code's). */
static double bot_tables[TABLES_SIZE];
static int bot_tables_ready;

static const double ADVENTURE_COUNT[PS_TYPES] = {2, 2, 2, 2, 4, 6, 2, 4, 3, 2, 2, 5, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2};
static const double CARD_KEEP_VALUE[KEEP_TYPES] = {1.0, 0.55, 0.7, 0.45, 0.35, 0.35, 0.35, 0.25, 0.25, 0.25, 0.6, 0.9};

/* DEFAULT_PARAMS in Q_* order (opponent and leader weights as HeuristicPolicy sets them for n = 2 and n > 2). */
static const double PARAMS_TWO[Q_COUNT] = {1.0, 0.0, 1.5, 0.5, 0.4, 0.5, 1.5, 0.0, 3.0, 0.15, 0.8, 0.8, 2.0, 3.0, 1e-9};
static const double PARAMS_MORE[Q_COUNT] = {0.4, 0.4, 1.5, 0.5, 0.4, 0.5, 1.5, 0.0, 3.0, 0.15, 0.8, 0.8, 2.0, 3.0, 1e-9};

static PbMixes bot_mixes[2]; /* for PARAMS_TWO and PARAMS_MORE */

static void fill_bot_tables(void) {
    double *all = bot_tables;
    for (int i = 0; i < TABLES_SIZE; i++) all[i] = 0.0;
    for (int t = 0; t < PS_TYPES; t++) {
        double *tab = all + t * TSET;
        const unsigned char *d = POTSM_RULES.resolver[t];
        const int places = d[4] | (d[5] << 8);
        switch (d[0]) {
        case K_AWARD_AT:
            for (int p = 0; p < PS_SHIPS; p++)
                if ((places >> p) & 1) tab[T_GP + p] = 1.0;
            break;
        case K_AWARD_FRONT:
            for (int r = 0; r < d[1]; r++) {
                tab[T_GR + r] = (double)d[2];
                if (d[3]) tab[T_DF + r] = 1.0;
            }
            break;
        case K_DAMAGE_LAST:
            for (int r = 0; r < d[1]; r++) tab[T_DB + r] = 1.0;
            break;
        case K_VOLCANO:
            tab[T_DF] = 1.0;
            break;
        case K_GHOST_SHIP:
        case K_DAMAGE_AT:
            for (int p = 0; p < PS_SHIPS; p++) {
                if (!((places >> p) & 1)) continue;
                for (int a = 0; a < 3; a++) tab[T_DP + 9 * a + p] = 1.0;
                if (d[0] == K_GHOST_SHIP) tab[T_LP + p] = 1.0;
            }
            break;
        case K_CURSED_SHIP:
            for (int p = 0; p < PS_SHIPS; p++)
                if ((places >> p) & 1) tab[T_LP + p] = 1.0;
            break;
        case K_ATTACK: /* 1 - C(p, 3) / C(8, 3): the chance that some ship of the nation is behind p */
            for (int a = 0; a < 3; a++) {
                if (a == d[1]) continue;
                for (int p = 0; p < PS_SHIPS; p++) {
                    const int comb = p >= 3 ? p * (p - 1) * (p - 2) / 6 : 0;
                    tab[T_DP + 9 * a + p] = 1.0 - (double)comb / 56.0;
                }
            }
            break;
        default: /* Mutiny, Loot: no potential */
            break;
        }
    }
    double *mix = all + PS_TYPES * TSET; /* _mix([(t, count_t / 58) ...]), accumulated type by type */
    for (int t = 0; t < PS_TYPES; t++) {
        const double w = ADVENTURE_COUNT[t] / 58.0;
        for (int i = 0; i < TSET; i++) mix[i] += w * all[t * TSET + i];
    }
    for (int t = 0; t < PS_TYPES; t++) all[PS_TYPES * TSET + TSET + t] = ADVENTURE_COUNT[t];
    for (int t = 0; t < KEEP_TYPES; t++) all[PS_TYPES * TSET + TSET + PS_TYPES + t] = CARD_KEEP_VALUE[t];
    /* prepare's mixes with an upcoming adventure, for one adventure left and for more (the horizons as
     * prepare computes them) */
    for (int set = 0; set < 2; set++) {
        const double *q = set == 0 ? PARAMS_TWO : PARAMS_MORE;
        PbMixes *m = &bot_mixes[set];
        for (int h = 0; h < 2; h++) {
            const int remaining = 1 + h;
            m->horizon[h] = (double)remaining < q[Q_HORIZON] ? (double)remaining : q[Q_HORIZON];
            for (int next = 0; next < PS_TYPES; next++)
                next_mix(q, all, all + PS_TYPES * TSET + TSET, 58, next, m->horizon[h], m->mix[next][h]);
        }
    }
    bot_tables_ready = 1;
}

/* MOVE_TYPE_OF_ACTION for the move-card actions below Fog (PSM-1040..1046). */
static const unsigned char MOVE_TYPE_OF_ACTION[49] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10,
};

void potsm_bot_default_spec(Pb *b, long n, int hand, int upcoming, const long *starts, long size) {
    if (!bot_tables_ready) fill_bot_tables();
    const long each = n == 2 ? 3 : 2;
    long *sp = b->sp;
    sp[P_SIZE] = size;
    sp[P_N] = n;
    sp[P_NUM_ACTIONS] = 76 + 9 * (n - 1);
    sp[P_HAND] = hand;
    sp[P_UPCOMING] = upcoming;
    sp[P_SINKHORN] = 4;
    if (starts != NULL) {
        sp[P_MY_PIRATES] = starts[PL_MY_PIRATES];
        sp[P_SHIP_POSITION] = starts[PL_SHIP_POSITION];
        sp[P_SHIP_DAMAGED] = starts[PL_SHIP_DAMAGED];
        sp[P_SHIP_FAME] = starts[PL_SHIP_FAME];
        sp[P_REVEALED] = starts[PL_REVEALED_OWNER];
        sp[P_NOT_OWNER] = starts[PL_NOT_OWNER];
        sp[P_CLAIMED] = starts[PL_CLAIMED];
        sp[P_CURRENT] = starts[PL_CURRENT];
        sp[P_UPCOMING_AT] = starts[PL_UPCOMING];
        sp[P_DECK_SIZE] = starts[PL_ADVENTURE_DECK];
        sp[P_MOVE_TALLY] = starts[PL_MOVE_TALLY];
        sp[P_ACCUSATION_TALLY] = starts[PL_ACCUSATION_TALLY];
    } else {
        for (int i = P_MY_PIRATES; i <= P_ACCUSATION_TALLY; i++) sp[i] = 0;
    }
    sp[P_PIRATES_EACH] = each;
    sp[P_UNUSED] = 9 - n * each;
    sp[P_NUM_CARDS] = 58;
    sp[P_FOG_TYPE] = 11;
    b->rules = &POTSM_RULES;
    b->n = n;
    b->q = n == 2 ? PARAMS_TWO : PARAMS_MORE;
    b->tables = bot_tables;
    b->counts = bot_tables + PS_TYPES * TSET + TSET;
    b->keep = b->counts + PS_TYPES;
    b->move_type = MOVE_TYPE_OF_ACTION;
    b->mixes = &bot_mixes[n == 2 ? 0 : 1];
}
