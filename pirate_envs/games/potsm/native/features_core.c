/* The action features in plain C (features_core.h): action_features_python's blocks, action by action. */
#include "games/potsm/native/features_core.h"
#include "games/potsm/native/bot_core.h"
#include "games/potsm/native/layout.h"


/* _read: the line (argmax of every ship's one-hot, as _decode_line and _decode_line_any both give it when it
 * is a permutation), damage, fame, the current adventure and the unrevealed flags. */
static int read_fields(Features *f, const float *o, const long *lay, long n) {
    int taken[PS_SHIPS] = {0};
    for (int s = 0; s < PS_SHIPS; s++) {
        const float *row = o + lay[L_POSITION] + PS_SHIPS * s;
        int best = 0;
        for (int p = 0; p < PS_SHIPS; p++) {
            if (isnan(row[p])) goto unexpected;
            if (row[p] > row[best]) best = p;
        }
        if (taken[best]++) goto unexpected;
        f->line[best] = s;
        f->position[s] = best;
    }
    for (int s = 0; s < PS_SHIPS; s++) {
        float d = o[lay[L_DAMAGED] + s], fame = o[lay[L_FAME] + s];
        if (isnan(d) || !isfinite(fame)) goto unexpected;
        f->damaged[s] = d > 0.5f;
        f->fame[s] = (double)fame;
        const float *owner = o + lay[L_REVEALED] + n * s;
        float top = owner[0];
        for (long i = 0; i < n; i++) {
            if (isnan(owner[i])) goto unexpected;
            if (owner[i] > top) top = owner[i];
        }
        f->unrevealed[s] = top < 0.5f;
    }
    const float *current = o + lay[L_CURRENT];
    int best = 0;
    for (int t = 0; t < PS_TYPES; t++) {
        if (isnan(current[t])) goto unexpected;
        if (current[t] > current[best]) best = t;
    }
    f->card = current[best] > 0.5f ? best : -1;
    return 0;
unexpected:
    return -1;
}

/* The channels 0..6 of the block of an action that leaves ``line`` with damage ``damaged`` before the
 * adventure (_blocks); ``fog_row`` also gets channel 7, the adventure on the unchanged line, and keeps the
 * line's damage and fame as they are (Fog, PSM-637: the adventure stays ahead). */
static void write_block(const Features *f, const int *line, const int *damaged, int fog, float *row) {
    double delta[PS_SHIPS];
    int after[PS_SHIPS], position[PS_SHIPS], pattern = 0;
    if (f->card >= 0) potsm_resolve(f->r, f->card, line, damaged, f->fame, f->unrevealed, delta, after);
    else
        for (int s = 0; s < PS_SHIPS; s++) {
            delta[s] = 0.0;
            after[s] = damaged[s];
        }
    if (fog) {
        for (int s = 0; s < PS_SHIPS; s++) row[s * f->k + 7] = (float)delta[s];
        for (int s = 0; s < PS_SHIPS; s++) {
            delta[s] = 0.0;
            after[s] = damaged[s];
        }
    }
    for (int p = 0; p < PS_SHIPS; p++) position[line[p]] = p;
    for (int s = 0; s < PS_SHIPS; s++) pattern += after[s] << position[s];
    for (int s = 0; s < PS_SHIPS; s++) {
        float *ship = row + s * f->k;
        const int has_fame = f->fame[s] + delta[s] >= 1.0;
        const double *t = f->table + ((((long)pattern * PS_SHIPS + position[s]) * 3 + f->r->nation[s]) * 2 + has_fame) * 4;
        ship[0] = (float)delta[s];
        ship[1] = (float)after[s];
        for (int c = 0; c < 4; c++) ship[2 + c] = (float)t[c];
        ship[6] = (float)((double)(position[s] - f->position[s]) / 9.0);
    }
}

/* The features of one observation's legal actions, written into the zero-filled ``rows``: at the action's
 * row of the (actions, 9 * K) matrix or, with ``compact``, at the next row for each legal action in turn.
 * Returns the number of legal actions, or -1 for an observation it does not read (the Python code does). */
long potsm_write_features(Features *f, const long *lay, long n, const float *obs, const unsigned char *mask,
                           long num_actions, float *rows, int compact) {
    const long *sp = f->r->sp, width = PS_SHIPS * f->k;
    int repaired[PS_SHIPS] = {0}, new_line[PS_SHIPS], new_damaged[PS_SHIPS];
    long first = -1, last = -1, count = 0, next = 0;
    for (long a = 0; a < num_actions; a++) {
        if (!mask[a]) continue;
        if (first < 0) first = a;
        last = a;
        count++;
    }
    if (first < 0 || (first >= sp[R_ACCUSE_DISCARD] && last < sp[R_ACCUSE])) return count; /* nothing moves */
    if (read_fields(f, obs, lay, n) < 0) return -1;
    for (long a = first; a <= last; a++) {
        if (!mask[a]) continue;
        float *row = rows + (compact ? next++ : a) * width;
        if (a < sp[R_FOG]) {
            potsm_after_move(f->r, (int)a, f->line, f->damaged, new_line, new_damaged);
            write_block(f, new_line, new_damaged, 0, row);
        } else if (a == sp[R_FOG]) {
            write_block(f, f->line, f->damaged, 1, row);
        } else if (a == sp[R_REPAIR]) { /* PSM-513: the adventure meets the repaired line */
            write_block(f, f->line, repaired, 0, row);
        } else if (a < sp[R_ACCUSE_DISCARD]) { /* Pass, Pass-and-discard */
            write_block(f, f->line, f->damaged, 0, row);
        } else if (a >= sp[R_ACCUSE]) { /* PSM-515: the line stays; the accused row gets what a right guess takes */
            const long index = a - sp[R_ACCUSE], ship = index % PS_SHIPS;
            write_block(f, f->line, f->damaged, 0, row);
            row[ship * f->k + PF_BASE + index / PS_SHIPS] = (float)ceil(f->fame[ship] / 2.0);
        } /* the accusation's discard (PSM-1051) moves nothing: its row stays zero */
    }
    return count;
}


/* ---- the channel table, built in C (the native engine's features) --------------------------------------- */

static double feature_table[PF_TABLE_LEN];
static int feature_table_ready;

/* action_features._channel_table from the deck's mix (DECK_MIX of heuristic.py, the bot's tables): every entry
 * by the same float64 operations as the numpy code's. */
const double *potsm_feature_table(void) {
    if (feature_table_ready) return feature_table;
    long starts[PL_COUNT];
    Pb b;
    potsm_layout(2, starts);
    potsm_bot_default_spec(&b, 2, 0, 0, starts, starts[PL_SIZE]);
    const double *mix = b.tables + PS_TYPES * TSET; /* DECK_MIX */
    const double *gp = mix + T_GP, *gr = mix + T_GR, *dp = mix + T_DP, *df = mix + T_DF, *db = mix + T_DB;
    const double *lp = mix + T_LP;
    for (int pattern = 0; pattern < (1 << PS_SHIPS); pattern++) {
        int undamaged = 0;
        for (int p = 0; p < PS_SHIPS; p++) undamaged += !((pattern >> p) & 1);
        int ahead = 0; /* undamaged ships ahead of position p: the rank of an undamaged ship there */
        for (int p = 0; p < PS_SHIPS; p++) {
            const int hit = (pattern >> p) & 1;
            for (int nation = 0; nation < 3; nation++) {
                for (int has_fame = 0; has_fame < 2; has_fame++) {
                    double *t = feature_table + ((((long)pattern * PS_SHIPS + p) * 3 + nation) * 2 + has_fame) * 4;
                    t[0] = hit ? 0.0 : gp[p] + gr[ahead];
                    t[1] = hit ? 0.0 : dp[9 * nation + p] + df[ahead] + db[undamaged - 1 - ahead];
                    t[2] = has_fame ? lp[p] : 0.0;
                    t[3] = (double)p / 8.0;
                }
            }
            ahead += !hit;
        }
    }
    feature_table_ready = 1;
    return feature_table;
}
