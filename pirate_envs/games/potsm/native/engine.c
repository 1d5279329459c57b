/* The rules of Pirates of the Spanish Main in native code: potsm_engine (core/native/engine.h), the twin of
 * pirate_envs.games.potsm.game.PotsmState, which stays the oracle.
 *
 * The file reads in the order of game.py: configuration, setup (Section 3), the turn (Section 4), the actions
 * (5.2), the adventures (5.3, Section 6), advancing the adventure (5.5), the move deck (5.6), scoring (Section
 * 7) and determinisation (PSM-902). Every draw comes from the state's SplitMix64 in the Python code's order
 * (shuffles, randrange), so a seeded game is the same game in both engines.
 */
#include "games/potsm/native/engine.h"

#define S(st) ((PotsmState *)(st))
#define CS(st) ((const PotsmState *)(st))

/* --- configuration -------------------------------------------------------------------------------------- */

static const char *configure(const NeConfig *cfg) {
    const int n = cfg->num_players;
    if (n < 2 || n > PZ_MAX_N) return "potsm: num_players must be 2, 3 or 4";
    if (cfg->num_options != PZ_NUM_OPTIONS) return "potsm: expected the 4 options of native_bridge.OPTIONS";
    for (int i = PZ_OPT_UPCOMING; i <= PZ_OPT_REWARD_MODE; i++)
        if (cfg->options[i] != 0 && cfg->options[i] != 1) return "potsm: a flag or reward_mode outside 0..1";
    PotsmFacts f;
    potsm_facts(cfg, &f);
    if (!(f.score_scale >= 1e-9) || f.score_scale > 1e300) return "potsm: score_scale must be a finite number >= 1e-9";
    if (cfg->num_actions != f.num_actions) return "potsm: num_actions is not 76 + 9 (n - 1)";
    if (cfg->obs_size != 265 + 85 * n + 2 * n * n) return "potsm: obs_size is not 265 + 85 n + 2 n^2";
    if (cfg->num_features != 9 * (8 + n - 1)) return "potsm: num_features is not 9 (8 + n - 1)";
    if (cfg->max_decisions < 1) return "potsm: max_decisions must be at least 1";
    potsm_prepare_tables();
    return NULL;
}

/* --- Section 3: setup ----------------------------------------------------------------------------------- */

/* CE7: the top adventure card goes face up into the first empty row slot. */
static void reveal_adventure(PotsmState *s) {
    const int8_t card = s->adventure_deck[--s->adventure_deck_len];
    s->adventure_row[s->adventure_row_len++] = card;
    s->adventure_seen[card]++;
}

static void init(const NeConfig *cfg, void *st) {
    PotsmState *s = S(st);
    SplitMix *rng = &s->h.rng;
    PotsmFacts f;
    potsm_facts(cfg, &f);
    /* PSM-301: the nine ships, shuffled (CE1) */
    for (int p = 0; p < PS_SHIPS; p++) s->line[p] = p;
    sm_shuffle_i32(rng, (int32_t *)s->line, PS_SHIPS);
    /* PSM-302 / PSM-802: the adventure deck (CE2) and the current adventure (or the row) */
    int k = 0;
    for (int card = 0; card < PS_TYPES; card++)
        for (int c = 0; c < PZ_ADVENTURE_COUNTS[card]; c++) s->adventure_deck[k++] = (int8_t)card;
    s->adventure_deck_len = (uint8_t)k;
    sm_shuffle_i8(rng, s->adventure_deck, k);
    for (int i = 0; i < f.row_size; i++) reveal_adventure(s);
    /* PSM-303: the pirates, dealt face down (CE3); the rest set aside */
    int8_t pirates[PS_SHIPS];
    for (int j = 0; j < PS_SHIPS; j++) pirates[j] = (int8_t)j;
    sm_shuffle_i8(rng, pirates, PS_SHIPS);
    for (int j = 0; j < PS_SHIPS; j++) s->pirate_owner[j] = PZ_UNUSED;
    for (int i = 0; i < f.n * f.pirates_each; i++) s->pirate_owner[pirates[i]] = (int8_t)(i / f.pirates_each);
    /* PSM-304 / PSM-803: the move deck, then the row or the hands */
    k = 0;
    for (int card = 0; card < PZ_MOVE_TYPES; card++)
        for (int c = 0; c < PZ_MOVE_COUNTS[card]; c++) s->move_deck[k++] = (int8_t)card;
    s->move_deck_len = (uint8_t)k;
    sm_shuffle_i8(rng, s->move_deck, k);
    if (f.hand) {
        for (int seat = 0; seat < f.n; seat++)
            for (int c = 0; c < f.hand_size; c++) s->hands[seat][s->move_deck[--s->move_deck_len]]++;
    } else {
        for (int c = 0; c < 3; c++) s->move_row[s->move_deck[--s->move_deck_len]]++;
    }
    /* PSM-306: a random start seat */
    s->start_seat = (int8_t)sm_randrange(rng, (uint64_t)f.n);
    s->current_seat = s->start_seat;
    s->phase = PZ_MAIN;
}

/* --- Section 4: the turn -------------------------------------------------------------------------------- */

static int is_terminal(const NeConfig *cfg, const void *st) {
    (void)cfg;
    return CS(st)->game_over;
}

static int current_player(const NeConfig *cfg, const void *st) {
    (void)cfg;
    return CS(st)->current_seat;
}

/* PSM-1040..1052, ascending: move plays, Repair, Pass, Pass-discard, accusations; or the DP2 discards. */
int potsm_legal_actions(const NeConfig *cfg, const void *st, int32_t *out) {
    const PotsmState *s = CS(st);
    const int n = cfg->num_players, hand = cfg->options[PZ_OPT_HAND] != 0;
    int count = 0;
    if (s->phase == PZ_ACCUSE_DISCARD) { /* PSM-1051 */
        for (int t = 0; t < PZ_MOVE_TYPES; t++)
            if (s->hands[s->current_seat][t]) out[count++] = 64 + t;
        return count;
    }
    const uint8_t *available = hand ? s->hands[s->current_seat] : s->move_row;
    static const int8_t first[PZ_MOVE_TYPES] = {0, 9, 18, 26, 34, 35, 36, 37, 38, 39, 40, 49};
    static const int8_t size[PZ_MOVE_TYPES] = {9, 9, 8, 8, 1, 1, 1, 1, 1, 1, 9, 1};
    int cards = 0;
    for (int t = 0; t < PZ_MOVE_TYPES; t++) {
        if (!available[t]) continue;
        cards += available[t];
        if (t == 10) { /* PSM-511: Sabotage needs an undamaged ship */
            for (int p = 0; p < PS_SHIPS; p++)
                if (!s->damaged[s->line[p]]) out[count++] = 40 + p;
        } else { /* PSM-512: plays that move nothing are legal too */
            for (int i = 0; i < size[t]; i++) out[count++] = first[t] + i;
        }
    }
    out[count++] = 50; /* PSM-513 Repair */
    out[count++] = 51; /* PSM-518 Pass */
    for (int t = 0; t < PZ_MOVE_TYPES; t++)
        if (available[t]) out[count++] = 52 + t;
    if (!hand || cards >= 2) { /* PSM-514, PSM-803 */
        for (int offset = 1; offset < n; offset++)
            for (int j = 0; j < PS_SHIPS; j++)
                if (!s->revealed[j]) out[count++] = 76 + 9 * (offset - 1) + j;
    }
    return count;
}

/* --- 5.6 the move deck ---------------------------------------------------------------------------------- */

/* PSM-550: an empty move deck is first rebuilt from the whole discard pile, shuffled (CE5). */
static int draw_move_card(PotsmState *s) {
    if (s->move_deck_len == 0) {
        int k = 0;
        for (int card = 0; card < PZ_MOVE_TYPES; card++) {
            for (int c = 0; c < s->move_discard[card]; c++) s->move_deck[k++] = (int8_t)card;
            s->move_discard[card] = 0;
        }
        s->move_deck_len = (uint8_t)k;
        sm_shuffle_i8(&s->h.rng, s->move_deck, k);
    }
    return s->move_deck[--s->move_deck_len];
}

/* PSM-510 / PSM-518: the card goes face up to the move discard pile; draw 1 into the row (or the hand). */
static void discard_and_replace(PotsmState *s, int hand, int seat, int move_type) {
    uint8_t *available = hand ? s->hands[seat] : s->move_row;
    available[move_type]--;
    s->move_discard[move_type]++;
    available[draw_move_card(s)]++;
}

/* --- 5.2 actions ---------------------------------------------------------------------------------------- */

static void new_record(int8_t *record, int seat, int kind) {
    memset(record, 0, PZ_RECORD);
    record[0] = (int8_t)seat;
    record[1] = (int8_t)kind;
    record[2] = -1;  /* no accused seat */
    record[12] = -1; /* no discarded card */
}

/* PSM-515 / PSM-625 / PSM-701: the owner becomes public, so every other seat is publicly not it. */
static void reveal_pirate(PotsmState *s, int n, int pirate) {
    s->revealed[pirate] = 1;
    for (int seat = 0; seat < n; seat++)
        if (seat != s->pirate_owner[pirate]) s->not_owner[pirate * n + seat] = 1;
}

/* PSM-510: play a card from the row (or hand), apply it (PSM-630..637), discard it, draw one. */
static void play_move_card(PotsmState *s, int n, int hand, int seat, int move_type, int parameter, int8_t *record) {
    static const int8_t TALLY_COLUMN[PZ_MOVE_TYPES] = {0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 2, -1}; /* PSM-1079 */
    int *line = s->line;
    int targets[3], n_targets = 0;
    new_record(record, seat, move_type);
    if (move_type == 10) { /* PSM-636 Sabotage */
        const int ship = line[parameter];
        s->damaged[ship] = 1;
        record[3 + ship] = 1;
        targets[n_targets++] = ship;
    } else if (move_type != 11) { /* not Fog (PSM-637) */
        int before[PS_SHIPS];
        memcpy(before, line, sizeof before);
        if (move_type == 0) { /* PSM-630 */
            targets[n_targets++] = line[parameter];
            potsm_move_ship(line, parameter, -6);
        } else if (move_type == 1) { /* PSM-631 */
            targets[n_targets++] = line[parameter];
            potsm_move_ship(line, parameter, 6);
        } else if (move_type == 2) { /* PSM-632 */
            targets[n_targets++] = line[parameter];
            targets[n_targets++] = line[parameter + 1];
            potsm_move_pair(line, parameter, -3);
        } else if (move_type == 3) { /* PSM-633 */
            targets[n_targets++] = line[parameter];
            targets[n_targets++] = line[parameter + 1];
            potsm_move_pair(line, parameter, 3);
        } else { /* PSM-634, PSM-635: a nation's three ships */
            const int nation = move_type < 7 ? move_type - 4 : move_type - 7;
            for (int i = 0; i < 3; i++) targets[n_targets++] = 3 * nation + i;
            potsm_nation_move(&POTSM_RULES, line, nation, move_type < 7);
        }
        for (int p = 0; p < PS_SHIPS; p++) { /* PSM-1082: the signed forward displacement */
            record[3 + before[p]] = (int8_t)(record[3 + before[p]] + p);
            record[3 + line[p]] = (int8_t)(record[3 + line[p]] - p);
        }
    }
    const int column = TALLY_COLUMN[move_type];
    if (column >= 0)
        for (int i = 0; i < n_targets; i++) s->move_tally[seat * 27 + targets[i] * 3 + column]++;
    discard_and_replace(s, hand, seat, move_type);
    (void)n;
}

/* PSM-515 / PSM-516: a correct guess reveals the pirate and steals ceil(f/2) fame; a wrong one is public. */
static void accuse(PotsmState *s, int n, int seat, int target, int pirate, int8_t *record) {
    s->accusation_tally[seat * 9 + pirate]++;
    new_record(record, seat, PZ_KIND_ACCUSE_WRONG);
    record[2] = (int8_t)target;
    record[3 + pirate] = 1;
    if (s->pirate_owner[pirate] == target) {
        reveal_pirate(s, n, pirate);
        const int stolen = (s->fame[pirate] + 1) / 2;
        s->fame[pirate] = (int16_t)(s->fame[pirate] - stolen);
        s->claimed[seat] = (int16_t)(s->claimed[seat] + stolen);
        record[1] = PZ_KIND_ACCUSE_CORRECT;
    } else {
        s->not_owner[pirate * n + target] = 1; /* PSM-561 */
    }
}

/* --- 5.3 / Section 6: the adventures -------------------------------------------------------------------- */

/* PSM-625: the frontmost ship whose pirate is unrevealed; reveal its owner and halve its fame (up). */
static void mutiny(PotsmState *s, int n) {
    int ship = -1;
    for (int p = 0; p < PS_SHIPS && ship < 0; p++)
        if (!s->revealed[s->line[p]]) ship = s->line[p];
    if (ship < 0) return;
    if (s->pirate_owner[ship] == PZ_UNUSED) { /* publicly unowned (PSM-561) */
        for (int seat = 0; seat < n; seat++) s->not_owner[ship * n + seat] = 1;
        return;
    }
    reveal_pirate(s, n, ship);
    s->fame[ship] = (int16_t)(s->fame[ship] - (s->fame[ship] + 1) / 2); /* PSM-1119 */
}

/* Section 6 (PSM-610..627): apply the effect of ``card``; returns the fame awarded F. */
static int adventure_effect(PotsmState *s, int n, int card) {
    const unsigned char *d = POTSM_RULES.resolver[card];
    const int places = d[4] | (d[5] << 8);
    const int *line = s->line;
    uint8_t *damaged = s->damaged;
    int16_t *fame = s->fame;
    int awarded = 0;
    switch (d[0]) {
    case K_AWARD_FRONT: { /* PSM-613, 614, 616, 617: the front k undamaged ships (PSM-522) */
        int taken = 0;
        for (int p = 0; p < PS_SHIPS && taken < d[1]; p++) {
            const int ship = line[p];
            if (damaged[ship]) continue;
            fame[ship] = (int16_t)(fame[ship] + d[2]);
            awarded += d[2];
            taken++;
            if (d[3]) damaged[ship] = 1; /* Cursed Treasure: the recipients are damaged after */
        }
        return awarded;
    }
    case K_AWARD_AT: /* PSM-610, 611, 612, 615: the listed positions (PSM-523) */
        for (int p = 0; p < PS_SHIPS; p++) {
            if (!((places >> p) & 1) || damaged[line[p]]) continue;
            fame[line[p]]++;
            awarded++;
        }
        return awarded;
    case K_DAMAGE_LAST: { /* PSM-618, PSM-619: the last undamaged ships */
        int left = d[1];
        for (int p = PS_SHIPS - 1; p >= 0 && left > 0; p--) {
            if (damaged[line[p]]) continue;
            damaged[line[p]] = 1;
            left--;
        }
        return 0;
    }
    case K_VOLCANO: /* PSM-621 */
        for (int p = 0; p < PS_SHIPS; p++) {
            if (!damaged[line[p]]) {
                damaged[line[p]] = 1;
                break;
            }
        }
        return 0;
    case K_GHOST_SHIP: /* PSM-620, PSM-1117: damaged, and a fame lost */
    case K_DAMAGE_AT:  /* PSM-622, PSM-623 */
        for (int p = 0; p < PS_SHIPS; p++) {
            if (!((places >> p) & 1)) continue;
            const int ship = line[p];
            damaged[ship] = 1;
            if (d[0] == K_GHOST_SHIP && fame[ship] > 0) fame[ship]--;
        }
        return 0;
    case K_CURSED_SHIP: /* PSM-624 */
        for (int p = 0; p < PS_SHIPS; p++)
            if ((places >> p) & 1 && fame[line[p]] > 0) fame[line[p]]--;
        return 0;
    case K_MUTINY:
        mutiny(s, n);
        return 0;
    case K_ATTACK: { /* PSM-626: every other nation's ship ahead of the backmost undamaged ship of the nation */
        int last = -1;
        for (int p = 0; p < PS_SHIPS; p++)
            if (POTSM_RULES.nation[line[p]] == d[1] && !damaged[line[p]]) last = p;
        for (int p = 0; p < last; p++)
            if (POTSM_RULES.nation[line[p]] != d[1]) damaged[line[p]] = 1;
        return 0;
    }
    case K_LOOT: /* PSM-627: each undamaged ship of the nation takes 1 from every other nation's ship behind */
        for (int p = 0; p < PS_SHIPS; p++) {
            const int looter = line[p];
            if (POTSM_RULES.nation[looter] != d[1] || damaged[looter]) continue;
            for (int q = p + 1; q < PS_SHIPS; q++) {
                const int victim = line[q];
                if (POTSM_RULES.nation[victim] != d[1] && fame[victim] > 0) {
                    fame[victim]--;
                    fame[looter]++;
                }
            }
        }
        return 0; /* PSM-527: only the award cards turn into fame */
    }
    return 0;
}

/* PSM-520, PSM-526: apply the current card; F = 0: discard; else it and F-1 blind cards become fame. */
static void resolve_adventure(PotsmState *s, int n) {
    const int card = s->adventure_row[0];
    const int awarded = adventure_effect(s, n, card);
    if (awarded == 0) {
        s->adventure_discard[card]++;
        return;
    }
    for (int i = 0; i < awarded - 1 && s->adventure_deck_len > 0; i++) /* CE6; the shortfall is virtual fame */
        s->blind_fame_cards[s->adventure_deck[--s->adventure_deck_len]]++;
}

/* --- 5.5 advancing the adventure; the game end ---------------------------------------------------------- */

/* PSM-540 / PSM-802: drop the resolved card, shift the row, reveal one; an empty row ends the game. */
static void advance_adventure(PotsmState *s) {
    memmove(s->adventure_row, s->adventure_row + 1, (size_t)(s->adventure_row_len - 1));
    s->adventure_row_len--;
    if (s->adventure_deck_len > 0) reveal_adventure(s); /* CE7 */
    else if (s->adventure_row_len == 0) s->game_over = 1;
}

/* PSM-401 steps 4-6: the adventure (not after Fog, PSM-542), its advance, the record, the next seat. */
static void finish_turn(PotsmState *s, int n, int seat, const int8_t *record, int fog) {
    if (!fog) {
        resolve_adventure(s, n);
        advance_adventure(s);
    }
    s->turn_index++;
    if (s->recent_len < n) s->recent_len++;
    memmove(s->recent_turns[1], s->recent_turns[0], (size_t)(s->recent_len - 1) * PZ_RECORD);
    memcpy(s->recent_turns[0], record, PZ_RECORD);
    if (s->game_over) {
        for (int pirate = 0; pirate < PS_SHIPS; pirate++) /* PSM-701: every pirate card is revealed */
            if (!s->revealed[pirate]) reveal_pirate(s, n, pirate);
    } else {
        s->current_seat = (int8_t)((seat + 1) % n);
    }
}

/* PSM-401: resolve the action, then (unless Fog) the adventure, then advance the adventure. */
static void apply(const NeConfig *cfg, void *st, int action) {
    PotsmState *s = S(st);
    const int n = cfg->num_players, hand = cfg->options[PZ_OPT_HAND] != 0, seat = s->current_seat;
    int8_t record[PZ_RECORD];
    int fog = 0;
    if (action < 50) { /* PSM-1040..1047: a move card and its parameter */
        int move_type, parameter = 0;
        if (action < 18) {
            move_type = action / 9;
            parameter = action % 9;
        } else if (action < 34) {
            move_type = 2 + (action - 18) / 8;
            parameter = (action - 18) % 8;
        } else if (action < 40) {
            move_type = 4 + action - 34;
        } else if (action < 49) {
            move_type = 10;
            parameter = action - 40;
        } else {
            move_type = 11;
        }
        play_move_card(s, n, hand, seat, move_type, parameter, record);
        fog = move_type == 11;
    } else if (action == 50) { /* PSM-513 Repair */
        memset(s->damaged, 0, sizeof s->damaged);
        s->repair_tally[seat]++;
        new_record(record, seat, PZ_KIND_REPAIR);
    } else if (action == 51) { /* PSM-518 Pass */
        new_record(record, seat, PZ_KIND_PASS);
    } else if (action < 64) { /* PSM-518: pass and discard one card, then draw a replacement */
        discard_and_replace(s, hand, seat, action - 52);
        new_record(record, seat, PZ_KIND_PASS_DISCARD);
        record[12] = (int8_t)(action - 52);
    } else if (action < 76) { /* PSM-803: pay the accusation with a hand card (no replacement), then accuse */
        const int card = action - 64;
        s->hands[seat][card]--;
        s->move_discard[card]++;
        s->phase = PZ_MAIN;
        s->pending_len = 0;
        accuse(s, n, seat, s->pending_target, s->pending_pirate, record);
        record[12] = (int8_t)card;
    } else { /* PSM-1052 */
        const int offset = 1 + (action - 76) / 9, pirate = (action - 76) % 9, target = (seat + offset) % n;
        if (hand) { /* PSM-803: the hand card first (DP2) */
            s->phase = PZ_ACCUSE_DISCARD;
            s->pending_len = 2;
            s->pending_target = (int8_t)target;
            s->pending_pirate = (int8_t)pirate;
            return;
        }
        accuse(s, n, seat, target, pirate, record);
    }
    finish_turn(s, n, seat, record, fog);
}

/* --- Section 7: scoring --------------------------------------------------------------------------------- */

/* PSM-702: fame under the seat's ships (revealed or not) plus its claimed fame. */
static void scores(const NeConfig *cfg, const void *st, double *out) {
    const PotsmState *s = CS(st);
    for (int seat = 0; seat < cfg->num_players; seat++) out[seat] = (double)s->claimed[seat];
    for (int ship = 0; ship < PS_SHIPS; ship++)
        if (s->pirate_owner[ship] >= 0) out[s->pirate_owner[ship]] += (double)s->fame[ship];
}

/* PSM-703: the first seat with the best (score, undamaged owned ships, -frontmost owned position) (Python's
 * sorted(..., reverse=True) keeps equal seats in seat order). */
static int winner(const NeConfig *cfg, const PotsmState *s) {
    const int n = cfg->num_players;
    double score[PZ_MAX_N];
    int undamaged[PZ_MAX_N] = {0}, front[PZ_MAX_N];
    scores(cfg, s, score);
    for (int seat = 0; seat < n; seat++) front[seat] = 9;
    for (int p = PS_SHIPS - 1; p >= 0; p--) {
        const int ship = s->line[p], owner = s->pirate_owner[ship];
        if (owner < 0) continue;
        front[owner] = p;
        undamaged[owner] += !s->damaged[ship];
    }
    int best = 0;
    for (int seat = 1; seat < n; seat++) {
        const int better = score[seat] != score[best] ? score[seat] > score[best]
                           : undamaged[seat] != undamaged[best] ? undamaged[seat] > undamaged[best]
                                                                : front[seat] < front[best];
        if (better) best = seat;
    }
    return best;
}

static int winners(const NeConfig *cfg, const void *st, int32_t *out) {
    out[0] = winner(cfg, CS(st));
    return 1;
}

/* PSM-1020: win (+1 / -1 by PSM-703) or the score margin over the best other seat, divided by score_scale. */
static void returns(const NeConfig *cfg, const void *st, double *out) {
    const int n = cfg->num_players;
    PotsmFacts f;
    potsm_facts(cfg, &f);
    if (f.reward_score) {
        double score[PZ_MAX_N];
        scores(cfg, st, score);
        for (int seat = 0; seat < n; seat++) {
            double best_other = -HUGE_VAL;
            for (int t = 0; t < n; t++)
                if (t != seat && score[t] > best_other) best_other = score[t];
            out[seat] = (score[seat] - best_other) / f.score_scale;
        }
        return;
    }
    const int best = winner(cfg, CS(st));
    for (int seat = 0; seat < n; seat++) out[seat] = seat == best ? 1.0 : -1.0;
}

/* --- PSM-902: determinisation --------------------------------------------------------------------------- */

#define PZ_REJECTION_TRIES 200 /* game.REJECTION_TRIES */
#define PZ_MAX_DEALS 630       /* 7! / (2! 2! 2! 1!): the most distinct deals of 7 unknown pirates */

/* _consistent_deals: every owner assignment of ``unknown`` (a seat or unused each) fitting the slot counts and
 * PSM-561, depth first with the slots in their sorted order (Python's dict of capacities keeps it); returns
 * how many, written into deals (rows of n_unknown). */
static int consistent_deals(const PotsmState *s, int n, const int *unknown, int n_unknown, const int *slots,
                            int8_t deals[][PS_SHIPS]) {
    int kinds[PZ_MAX_N + 1], capacity[PZ_MAX_N + 1], n_kinds = 0;
    for (int i = 0; i < n_unknown; i++) {
        if (n_kinds && kinds[n_kinds - 1] == slots[i]) {
            capacity[n_kinds - 1]++;
        } else {
            kinds[n_kinds] = slots[i];
            capacity[n_kinds++] = 1;
        }
    }
    int choice[PS_SHIPS], count = 0, i = 0;
    choice[0] = -1;
    while (i >= 0) { /* choice[i]: the index into kinds tried at depth i */
        if (choice[i] >= 0) capacity[choice[i]]++; /* undo the last try at this depth */
        int k = choice[i] + 1;
        for (; k < n_kinds; k++) {
            const int t = kinds[k];
            if (capacity[k] && (t == PZ_UNUSED || !s->not_owner[unknown[i] * n + t])) break;
        }
        if (k == n_kinds) {
            choice[i--] = -1;
            continue;
        }
        choice[i] = k;
        capacity[k]--;
        if (i + 1 == n_unknown) {
            if (count < PZ_MAX_DEALS)
                for (int m = 0; m < n_unknown; m++) deals[count][m] = (int8_t)kinds[choice[m]];
            count++;
        } else {
            choice[++i] = -1;
        }
    }
    return count < PZ_MAX_DEALS ? count : PZ_MAX_DEALS;
}

/* _resample_pirates: the pirates ``seat`` cannot place, redealt uniformly among the deals consistent with
 * PSM-561: rejection sampling first, then all consistent deals enumerated. */
static void resample_pirates(PotsmState *s, int n, int seat, SplitMix *source) {
    int unknown[PS_SHIPS], slots[PS_SHIPS], n_unknown = 0;
    for (int j = 0; j < PS_SHIPS; j++)
        if (!s->revealed[j] && s->pirate_owner[j] != seat) unknown[n_unknown++] = j;
    if (n_unknown == 0) return;
    for (int i = 0; i < n_unknown; i++) { /* sorted(owner[j] for j in unknown): insertion sort */
        int v = s->pirate_owner[unknown[i]], k = i;
        for (; k > 0 && slots[k - 1] > v; k--) slots[k] = slots[k - 1];
        slots[k] = v;
    }
    int32_t pirates[PS_SHIPS];
    for (int i = 0; i < n_unknown; i++) pirates[i] = unknown[i];
    for (int attempt = 0; attempt < PZ_REJECTION_TRIES; attempt++) {
        sm_shuffle_i32(source, pirates, n_unknown);
        int fits = 1;
        for (int i = 0; i < n_unknown && fits; i++)
            fits = slots[i] == PZ_UNUSED || !s->not_owner[pirates[i] * n + slots[i]];
        if (fits) {
            for (int i = 0; i < n_unknown; i++) s->pirate_owner[pirates[i]] = (int8_t)slots[i];
            return;
        }
    }
    int8_t deals[PZ_MAX_DEALS][PS_SHIPS];
    const int count = consistent_deals(s, n, unknown, n_unknown, slots, deals);
    if (count == 0) return; /* never: load accepts only states whose real deal is consistent */
    const int8_t *deal = deals[sm_randrange(source, (uint64_t)count)];
    for (int i = 0; i < n_unknown; i++) s->pirate_owner[unknown[i]] = deal[i];
}

/* _resample_hidden: the pirates, the adventure deck (a random subset of the cards never seen face up; the rest
 * were taken blind) and the move deck (base) or the unseen move cards split among the other hands and the deck;
 * every pool in a canonical (sorted) order before its shuffle, as the Python code builds it. */
static void resample_hidden(const NeConfig *cfg, void *st, int seat, SplitMix *source) {
    PotsmState *s = S(st);
    const int n = cfg->num_players;
    resample_pirates(s, n, seat, source);
    int8_t pool[PZ_ADVENTURES];
    int k = 0;
    for (int card = 0; card < PS_TYPES; card++)
        for (int c = s->adventure_seen[card]; c < PZ_ADVENTURE_COUNTS[card]; c++) pool[k++] = (int8_t)card;
    sm_shuffle_i8(source, pool, k);
    const int size = s->adventure_deck_len;
    memcpy(s->adventure_deck, pool, (size_t)size);
    memset(s->blind_fame_cards, 0, sizeof s->blind_fame_cards);
    for (int i = size; i < k; i++) s->blind_fame_cards[pool[i]]++;
    if (cfg->options[PZ_OPT_HAND]) {
        int counts[PZ_MOVE_TYPES] = {0};
        for (int i = 0; i < s->move_deck_len; i++) counts[s->move_deck[i]]++;
        for (int other = 0; other < n; other++)
            if (other != seat)
                for (int t = 0; t < PZ_MOVE_TYPES; t++) counts[t] += s->hands[other][t];
        int8_t unseen[PZ_MOVES];
        int m = 0;
        for (int t = 0; t < PZ_MOVE_TYPES; t++)
            for (int c = 0; c < counts[t]; c++) unseen[m++] = (int8_t)t;
        sm_shuffle_i8(source, unseen, m);
        for (int other = 0; other < n; other++) {
            if (other == seat) continue;
            int held = 0;
            for (int t = 0; t < PZ_MOVE_TYPES; t++) held += s->hands[other][t];
            memset(s->hands[other], 0, PZ_MOVE_TYPES);
            for (int c = 0; c < held; c++) s->hands[other][unseen[--m]]++;
        }
        memcpy(s->move_deck, unseen, (size_t)m);
        s->move_deck_len = (uint8_t)m;
    } else {
        int counts[PZ_MOVE_TYPES] = {0}, m = 0;
        for (int i = 0; i < s->move_deck_len; i++) counts[s->move_deck[i]]++;
        for (int t = 0; t < PZ_MOVE_TYPES; t++)
            for (int c = 0; c < counts[t]; c++) s->move_deck[m++] = (int8_t)t;
        sm_shuffle_i8(source, s->move_deck, m);
    }
}

/* --- the engine ----------------------------------------------------------------------------------------- */

const NativeEngine potsm_engine = {
    .game_id = "potsm_v0",
    .state_size = sizeof(PotsmState),
    .max_actions = PZ_MAX_ACTIONS,
    .max_dump = PZ_MAX_DUMP,
    .configure = configure,
    .init = init,
    .is_terminal = is_terminal,
    .current_player = current_player,
    .legal_actions = potsm_legal_actions,
    .apply = apply,
    .returns = returns,
    .scores = scores,
    .winners = winners,
    .observe = potsm_observe,
    .resample_hidden = resample_hidden,
    .heuristic = potsm_heuristic,
    .action_features = potsm_action_features,
    .dump = potsm_dump,
    .load = potsm_load,
};
