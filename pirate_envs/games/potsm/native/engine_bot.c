/* The native engine's heuristic bot and action features, by the cores the Python twins share (bot_core.c,
 * features_core.c) with the Python bot's default parameters and tables built in C: the bot reads the seat to
 * act's position from the state (what its observation would say, without encoding it) and its legal
 * actions; the features read an observation (observe.c) and mask.
 */
#include "games/potsm/native/bot_core.h"
#include "games/potsm/native/engine.h"
#include "games/potsm/native/features_core.h"

/* What potsm_bot_scores reads from the observation of the seat to act (observe.c writes it), read from the
 * state instead: every value the same (the observation's floats are these small whole numbers, exactly), by
 * offset from the seat as the observation orders them. ``mine`` always; the rest unless ``discard``. */
static void read_state(Pb *b, const PotsmState *s, int n, int upcoming, int discard) {
    const int seat = s->current_seat;
    for (int j = 0; j < PS_SHIPS; j++) b->mine[j] = s->pirate_owner[j] == seat;
    if (discard) return;
    int seats[PZ_MAX_N]; /* the seat at each offset from the seat to act */
    for (int k = 0; k < n; k++) seats[k] = (seat + k) % n;
    /* PSM-1061..1063, 1067: the line, damage, fame and the current adventure (-1: none) */
    for (int p = 0; p < PS_SHIPS; p++) b->line[p] = s->line[p];
    for (int j = 0; j < PS_SHIPS; j++) {
        b->damaged[j] = s->damaged[j] != 0;
        b->fame[j] = (double)s->fame[j];
    }
    b->card = s->adventure_row_len > 0 ? s->adventure_row[0] : -1;
    /* PSM-1064: the revealed pirates; the caps of _ownership */
    b->caps[0] = (double)b->sp[P_UNUSED];
    for (int k = 1; k < MAX_PLAYERS; k++) b->caps[k] = k < n ? (double)b->sp[P_PIRATES_EACH] : 0.0;
    for (int j = 0; j < PS_SHIPS; j++) {
        const int owner = s->pirate_owner[j];
        b->unrevealed[j] = 1;
        for (int k = 0; k < 4; k++) b->prob[j][k] = 0.0;
        if (owner >= 0 && s->revealed[j]) {
            const int k = (owner - seat + n) % n;
            b->unrevealed[j] = 0;
            if (k > 0) {
                b->prob[j][k] = 1.0;
                b->caps[k] -= 1.0;
            }
        }
    }
    /* PSM-1065, 1079, 1081: the facts and tallies of the rows the belief fits */
    for (int j = 0; j < PS_SHIPS; j++) {
        if (!b->unrevealed[j] || b->mine[j]) continue;
        for (int k = 1; k < n; k++) {
            const int other = seats[k];
            const uint8_t *t = s->move_tally + other * 27 + j * 3;
            b->not_owner[j][k] = s->not_owner[j * n + other] != 0;
            b->tally[j][k][0] = (double)t[0];
            b->tally[j][k][1] = (double)t[1];
            b->tally[j][k][2] = (double)t[2];
            b->tally[j][k][3] = (double)s->accusation_tally[other * PS_SHIPS + j];
        }
    }
    /* PSM-1066 claimed fame; PSM-1069 the deck's size and PSM-1068 the upcoming adventures */
    for (int k = 0; k < n; k++) b->claimed[k] = (double)s->claimed[seats[k]];
    b->remaining = s->adventure_deck_len;
    b->next = -1;
    if (upcoming) {
        const int shown = s->adventure_row_len < 4 ? s->adventure_row_len : 4;
        if (shown > 1) {
            b->next = s->adventure_row[1];
            b->remaining += shown - 1;
        }
    }
}

/* The bot's scores of the seat to act (b's legal actions set): potsm_bot_scores on the reading of the state;
 * -1 where it would fail on the observation (no current adventure: never at a decision). */
static int engine_scores(const NeConfig *cfg, const PotsmState *s, Pb *b, double *scores) {
    const int n = cfg->num_players, upcoming = cfg->options[PZ_OPT_UPCOMING] != 0;
    const int discard = potsm_bot_is_discard(b);
    read_state(b, s, n, upcoming, discard);
    if (!discard && b->card < 0) return -1;
    return potsm_bot_scores(b, scores);
}

/* The spec of the engine's bot for cfg: potsm_bot_default_spec, with no observation to read. */
static void engine_spec(const NeConfig *cfg, Pb *b) {
    potsm_bot_default_spec(b, cfg->num_players, cfg->options[PZ_OPT_HAND] != 0, cfg->options[PZ_OPT_UPCOMING] != 0,
                           NULL, 0);
    b->o = NULL;
}

/* HeuristicPolicy(game).act for the seat to act: a single legal action as it is; else the best score, a tie
 * (scores within TIE_TOLERANCE of the best) drawn with randrange over the tied actions in ascending order. */
int potsm_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng) {
    const PotsmState *s = (const PotsmState *)st;
    Pb b;
    const int n_legal = potsm_legal_actions(cfg, st, b.legal);
    if (n_legal == 1) return b.legal[0];
    engine_spec(cfg, &b);
    b.n_legal = n_legal;
    double scores[PZ_MAX_ACTIONS];
    if (engine_scores(cfg, s, &b, scores) < 0) return b.legal[0]; /* never: the engine's states are well formed */
    const int *legal = b.legal;
    double best = scores[legal[0]];
    for (int i = 1; i < n_legal; i++)
        if (scores[legal[i]] > best) best = scores[legal[i]];
    const double threshold = best - b.q[Q_TIE];
    int top[PZ_MAX_ACTIONS], n_top = 0;
    for (int i = 0; i < n_legal; i++)
        if (scores[legal[i]] >= threshold) top[n_top++] = legal[i];
    return n_top == 1 ? top[0] : top[sm_randrange(rng, (uint64_t)n_top)];
}

/* action_features.action_features: (num_actions, 9 * (8 + n - 1)) floats, rows of illegal actions zero. An
 * observation the core does not read (no line by argmax, NaN values: never one of the engine's) gives zeros and
 * -1. */
int potsm_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out) {
    const int n = cfg->num_players;
    const long k = 8 + n - 1, num_actions = 76 + 9 * (n - 1);
    memset(out, 0, (size_t)(num_actions * PS_SHIPS * k) * sizeof(float));
    long at[PL_COUNT];
    potsm_layout(n, at);
    const long lay[L_INTS] = {at[PL_SIZE],          at[PL_SHIP_POSITION], at[PL_SHIP_DAMAGED],
                              at[PL_SHIP_FAME],     at[PL_REVEALED_OWNER], at[PL_CURRENT]};
    Features f = {.r = &POTSM_RULES, .table = potsm_feature_table(), .k = k};
    if (potsm_write_features(&f, lay, n, obs, (const unsigned char *)mask, num_actions, out, 0) < 0) {
        memset(out, 0, (size_t)(num_actions * PS_SHIPS * k) * sizeof(float));
        return -1;
    }
    return 0;
}

/* The bot's and the features' tables, filled once (configure calls this while the caller holds the GIL, so no
 * two threads that later play games without it fill them at once). */
void potsm_prepare_tables(void) {
    (void)potsm_feature_table(); /* fills the bot's tables on its way */
}
