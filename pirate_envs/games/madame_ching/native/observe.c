/* Madame Ching's observation of one seat from MchState (MCH-1005, MCH-1006, MCH-1009): the float32 vector of
 * madame_ching.observation.ObservationEncoder.encode, entry for entry. The Python encoder writes counts into a
 * byte buffer and divides each by its entry's scale in float32 (uint8 / float32); here each count is divided
 * by the same float32 scale, which rounds the same (an IEEE division is correctly rounded either way). The
 * round's progress is a float64 quotient cast to float32, as there.
 */
#include "games/madame_ching/native/mch.h"

void mch_observe(const NeConfig *cfg, const void *st, int seat, float *out) {
    const MchState *s = st;
    MchRules r = mch_rules(cfg);
    const int P = r.n, B = r.nb;
    const MchLayout L = mch_layout(P, B);
    memset(out, 0, sizeof(float) * (size_t)L.size);
    const int acting = !s->over && !s->h.truncated && mch_current_player(cfg, st) == seat;
    const int phase = s->phase;
    if (acting) {
        out[phase] = 1.0f;
        if (phase == PH_SELECT) out[L.select_boat + s->select_boat] = 1.0f;
    }
    for (uint64_t h = s->hands[seat]; h; h &= h - 1) out[L.own_hand - 1 + mch_ctz(h)] = 1.0f;
    const int8_t *picks = s->revealed ? s->shown_picks : s->picks;
    for (int i = 0; i < mch_boats_count(&r); i++) {
        int b = mch_boat_of(&r, seat, i);
        if (picks[b]) out[L.own_picks - 1 + 55 * i + picks[b]] = 1.0f;
    }
    for (int i = 0; i < B; i++) {
        int b = mch_relative_boat(&r, seat, i);
        if (s->revealed && s->shown_picks[b]) out[L.revealed_picks - 1 + 55 * i + s->shown_picks[b]] = 1.0f;
        if (s->acted[b]) out[L.boat_flags + 2 * i] = 1.0f;
        /* the boat's 77-entry block: cards, column and row one-hots, last card (/55), icon counts (/8) */
        float *blk = out + L.expeditions + 77 * i;
        int len = s->expedition_n[b], icons[4] = {0, 0, 0, 0};
        for (int k = 0; k < len; k++) {
            int card = s->expeditions[b][k];
            blk[card - 1] = 1.0f;
            if (MCH_ICON[card] >= 0) icons[MCH_ICON[card]]++;
        }
        if (len) blk[72] = (float)s->expeditions[b][len - 1] / 55.0f;
        for (int k = 0; k < 4; k++) blk[73 + k] = (float)icons[k] / 8.0f;
        blk[55 + s->positions[b][0]] = 1.0f;
        blk[64 + s->positions[b][1]] = 1.0f;
    }
    if (s->active_boat >= 0) out[L.boat_flags + 2 * mch_relative_index(&r, seat, s->active_boat) + 1] = 1.0f;
    /* display: slot 0 face down (only whether it holds a card), slots 1-3 open */
    out[L.display + (s->display[0] ? 55 : 56)] = 1.0f;
    for (int slot = 1; slot < 4; slot++) {
        int card = s->display[slot];
        out[L.display + 57 * slot + (card ? card - 1 : 56)] = 1.0f;
    }
    /* per seat in the viewer's order: skills (/4), tokens (/46, /12), hand sizes (/10); own encounters (/6) */
    static const float token_scale[4] = {46.0f, 12.0f, 12.0f, 12.0f};
    for (int off = 0; off < P; off++) {
        int q = (seat + off) % P, enc = 0;
        for (int k = 0; k < 10; k++) out[L.skills + 10 * off + k] = (float)s->skills[q][k] / 4.0f;
        for (int t = 0; t < 4; t++) out[L.tokens + 4 * off + t] = (float)s->tokens[q][t] / token_scale[t];
        for (int k = 0; k < MCH_ENC_KINDS; k++) enc += s->enc_hands[q][k];
        out[L.hand_sizes + 2 * off] = (float)enc / 10.0f;
        out[L.hand_sizes + 2 * off + 1] = (float)mch_popcount(s->hands[q]) / 10.0f;
        if (off) {
            const int8_t *known = s->known[seat][q];
            for (int k = 0; k < s->known_n[seat][q]; k++) out[L.known_cards + 55 * (off - 1) + known[k] - 1] = 1.0f;
        }
        out[L.history + 13 * off + s->last_action[q][0]] = 1.0f;
        out[L.history + 13 * off + 9 + s->last_action[q][1]] = 1.0f;
    }
    for (int k = 0; k < MCH_ENC_KINDS; k++) out[L.own_encounters + k] = (float)s->enc_hands[seat][k] / 6.0f;
    /* missions: tiles on the board, tiles set aside */
    for (uint32_t b = s->board; b; b &= b - 1) out[L.missions + __builtin_ctz(b)] = 1.0f;
    for (uint32_t b = s->set_aside; b; b &= b - 1) out[L.missions + 23 + __builtin_ctz(b)] = 1.0f;
    /* supply: stacks (/4), the China Pearl's and Hong Kong's owners (offset + 1, 0 for none), tokens */
    int at = L.supply;
    for (int k = 0; k < 5; k++) out[at + k] = (float)s->stacks[k] / 4.0f;
    at += 5;
    out[at + (s->pearl_owner < 0 ? 0 : 1 + (s->pearl_owner - seat + P) % P)] = 1.0f;
    at += P + 1;
    out[at + (s->hk_owner < 0 ? 0 : 1 + (s->hk_owner - seat + P) % P)] = 1.0f;
    at += P + 1;
    for (int t = 0; t < 4; t++) out[at + t] = (float)s->supply[t] / token_scale[t];
    /* piles: the navigation discard, the two deck sizes, encounter discard counts per kind (/6) */
    for (int k = 0; k < s->nav_discard_n; k++) out[L.piles - 1 + s->nav_discard[k]] = 1.0f;
    out[L.piles + 55] = (float)s->nav_deck_n / 55.0f;
    out[L.piles + 56] = (float)s->enc_deck_n / 33.0f;
    int discarded[MCH_ENC_KINDS] = {0};
    for (int k = 0; k < s->enc_discard_n; k++) discarded[s->enc_discard[k]]++;
    for (int k = 0; k < MCH_ENC_KINDS; k++) out[L.piles + 57 + k] = (float)discarded[k] / 6.0f;
    /* progress: round / round_limit (a float64 quotient), end triggered, team game */
    out[L.progress] = (float)((double)s->round / (double)r.round_limit);
    out[L.progress + 1] = (float)s->end_triggered;
    out[L.progress + 2] = (float)r.team;
    /* the acting seat's pending decision (outside Select) */
    if (acting && phase != PH_SELECT) {
        float *pend = out + L.pending;
        if (s->pending_enc >= 0) pend[s->pending_enc - 3] = 1.0f;
        if (s->combat_card) pend[7 + s->combat_card - 1] = 1.0f;
        if (s->gift_n) pend[62 + s->gift_queue[0]] = 1.0f;
        if (s->pending_target >= 0) pend[72 + (s->pending_target - seat + P) % P - 1] = 1.0f;
        if (phase == PH_SKILL_CLAIM)
            for (int k = 0; k < 4; k++) pend[75 + k] = (float)s->claim_pool[k] / 8.0f;
    }
    if (r.team) {
        out[L.team_debt] = (float)s->owes[seat] / 10.0f;
        out[L.team_debt + 1] = (float)s->owes[mch_partner(seat)] / 10.0f;
    }
}
