/* Tortuga 1667's observation (TOR-1004) and heuristic bot over the engine's state: tor_observe writes what
 * pirate_envs.games.tortuga.observation.encode_reference writes, field by field in its order; tor_heuristic
 * is HeuristicPolicy.act on that observation and the legal mask (the bot's core is bot_core.h, shared with the
 * compiled twin bot.c). Visibility is decided here as in the Python encoder: other players' nations only where
 * known (TOR-901), hoards and maps only the viewer's own and the public transfers, the unrevealed vote cards of
 * others never, a secret steal's victim and amount only to the thief and the victim.
 */
#include "games/tortuga/native/tor_engine.h"
#include "games/tortuga/native/bot_core.h"

/* The fields' starts (observation.field_slices) for n players. */
typedef struct {
    int round, active, start, counts, drawn, players, own, vote_stats, current_vote, last_vote, loot, event, log;
    int log_entry;
} TorLayout;

static TorLayout tor_layout(int n) {
    TorLayout o;
    o.round = TOR_PHASES;
    o.active = o.round + 1;
    o.start = o.active + n;
    o.counts = o.start + n;
    o.drawn = o.counts + 3;
    o.players = o.drawn + TOR_CARD_TYPES;
    o.own = o.players + TOR_PLAYER_BLOCK * n;
    o.vote_stats = o.own + 3;
    o.current_vote = o.vote_stats + 2 * n * n + 2 * n;
    o.last_vote = o.current_vote + 9 + 8 * n;
    o.loot = o.last_vote + 7 + 7 * n;
    o.event = o.loot + 3 + n;
    o.log = o.event + TOR_CARD_TYPES + n;
    o.log_entry = 37 + 2 * n;
    return o;
}

void tor_observe(const NeConfig *cfg, const void *vst, int seat, float *out) {
    const TorState *s = vst;
    const int n = cfg->num_players;
    const TorLayout o = tor_layout(n);
    memset(out, 0, sizeof(float) * (size_t)cfg->obs_size);
#define OFF(p) ((((p) - seat) % n + n) % n) /* a seat's offset from the viewer */
    const int running = s->phase != GAME_OVER && !s->h.truncated;
    if (running && tor_current(n, s) == seat) out[s->phase] = 1.0f;
    out[o.round] = (float)s->round;
    out[o.active + OFF(s->active)] = 1.0f;
    out[o.start + OFF(s->start)] = 1.0f;
    out[o.counts] = (float)s->galleon;
    out[o.counts + 1] = (float)s->supply;
    out[o.counts + 2] = (float)s->deck_len;
    for (int card = 0; card < TOR_CARD_TYPES; card++) out[o.drawn + card] = (float)s->drawn[card];
    for (int k = 0; k < n; k++) {
        const int p = (seat + k) % n;
        float *b = out + o.players + TOR_PLAYER_BLOCK * k;
        b[s->pos[p]] = 1.0f;
        b[8 + s->role[p]] = 1.0f;
        b[16] = (float)s->exiled[p];
        if (k == 0 || tor_nation_known(s, seat, p)) /* TOR-901 (all at the end, TOR-703) */
            b[18 + s->nation[p]] = 1.0f;
        else
            b[17] = 1.0f;
        b[21] = (float)s->pub_treasure[p];
        b[22] = (float)s->steals_made[p];
        b[23] = (float)s->steal_delta[seat][p];
        b[24] = (float)s->pub_maps[p];
        b[25] = (float)s->map_delta[seat][p];
    }
    out[o.own] = (float)s->hoard[seat];
    out[o.own + 1] = (float)s->maps[seat];
    out[o.own + 2] = (float)(cfg->options[O_WILD_COOLDOWN] && s->wild_lock[seat]);
    int any_vote = 0;
    for (int p = 0; p < n; p++) any_vote |= s->votes_initiated[p] != 0;
    if (any_vote) {
        float *v = out + o.vote_stats;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++) v[k * n + j] = (float)s->yes_by[(seat + k) % n][(seat + j) % n];
        v += n * n;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++) v[k * n + j] = (float)s->yes_vs[(seat + k) % n][(seat + j) % n];
        v += n * n;
        for (int k = 0; k < n; k++) v[k] = (float)s->votes_initiated[(seat + k) % n];
        for (int k = 0; k < n; k++) v[n + k] = (float)s->votes_targeting[(seat + k) % n];
    }
    if (s->v_open) {
        float *cv = out + o.current_vote;
        cv[s->v_type] = 1.0f;
        cv[4 + OFF(s->v_initiator)] = 1.0f;
        if (s->v_target >= 0) cv[4 + n + OFF(s->v_target)] = 1.0f;
        for (int i = 0; i < s->v_nparts; i++) cv[4 + 2 * n + OFF(s->v_parts[i])] = 1.0f;
        if (s->v_cards[seat] >= 0) cv[4 + 3 * n + s->v_cards[seat]] = 1.0f;
        if (s->phase == DECLARE) { /* revealed */
            for (int k = 0; k < n; k++) {
                const int p = (seat + k) % n;
                cv[7 + 3 * n + 3 * k + s->v_cards[p]] = 1.0f;
                if (s->v_decl[p] >= 0) cv[7 + 6 * n + 2 * k + s->v_decl[p]] = 1.0f;
            }
        }
    }
    if (s->lv_open) {
        float *lv = out + o.last_vote;
        lv[s->lv_type] = 1.0f;
        lv[4 + OFF(s->lv_initiator)] = 1.0f;
        if (s->lv_target >= 0) lv[4 + n + OFF(s->lv_target)] = 1.0f;
        for (int k = 0; k < n; k++) {
            const int p = (seat + k) % n;
            lv[4 + 2 * n + 3 * k + s->lv_cards[p]] = 1.0f;
            lv[4 + 5 * n + 2 * k + s->lv_final[p]] = 1.0f;
        }
        lv[4 + 7 * n] = (float)s->lv_passed;
        if (s->lv_die >= 0) lv[5 + 7 * n + s->lv_die] = 1.0f;
    }
    if (s->lo_open) {
        float *lo = out + o.loot;
        lo[0] = (float)s->lo_left;
        lo[1] = (float)s->lo_dice;
        lo[2] = (float)s->lo_successes;
        for (int k = 0; k < n; k++) lo[3 + k] = (float)s->lo_assigned[(seat + k) % n];
    }
    if (s->ev_open) {
        out[o.event + s->ev_card] = 1.0f;
        if (s->ev_target >= 0) out[o.event + TOR_CARD_TYPES + OFF(s->ev_target)] = 1.0f;
    }
    const int public_steal = cfg->options[O_PUBLIC_STEAL] != 0;
    float *entry = out + o.log;
    for (int i = s->log_len - 1; i >= 0; i--, entry += o.log_entry) { /* newest first */
        const TorLogItem *item = &s->log[i];
        entry[item->kind] = 1.0f;
        entry[TOR_LOG_TYPES + OFF(item->actor)] = 1.0f;
        const int visible = item->secret < 0 || public_steal || seat == item->actor || seat == item->target;
        if (item->target >= 0 && visible) entry[TOR_LOG_TYPES + n + OFF(item->target)] = 1.0f;
        if (item->node >= 0) entry[TOR_LOG_TYPES + 2 * n + item->node] = 1.0f;
        if (item->card >= 0) entry[TOR_LOG_TYPES + 2 * n + 8 + item->card] = 1.0f;
        if (visible) entry[o.log_entry - 1] = (float)item->value;
    }
#undef OFF
}

/* HeuristicPolicy.native_spec for the engine's own game (what the twin gets from Python). */
static void bot_spec(const NeConfig *cfg, TorBot *t) {
    const int n = cfg->num_players;
    const TorLayout o = tor_layout(n);
    long *sp = t->sp;
    sp[T_SIZE] = cfg->obs_size;
    sp[T_N] = n;
    sp[T_PHASE] = 0;
    sp[T_COUNTS] = o.counts;
    sp[T_PLAYERS] = o.players;
    sp[T_OWN] = o.own;
    sp[T_VOTE_STATS] = o.vote_stats;
    sp[T_CURRENT_VOTE] = o.current_vote;
    sp[T_NUM_ACTIONS] = TOR_NUM_ACTIONS(n);
    sp[T_PASS] = A_PASS;
    sp[T_ATTACK] = A_ATTACK;
    sp[T_MUTINY] = A_MUTINY;
    sp[T_STEAL_GALLEON] = A_STEAL_GALLEON;
    sp[T_STEAL] = A_STEAL;
    sp[T_DISPUTE] = A_DISPUTE(n);
    sp[T_VOTE] = A_VOTE(n);
    sp[T_DECLARE] = A_DECLARE(n);
    sp[T_DRAW] = A_DRAW(n);
    sp[T_SELECT] = A_SELECT(n);
    sp[T_SHIP] = A_SHIP(n);
    sp[T_ARMADA_ZONE] = TOR_ARMADA_PACKET[cfg->options[O_ARMADA_DEPTH]];
    sp[T_GAL] = GAL;
    sp[T_TOR] = TOR;
    sp[T_GOVERNOR] = GOVERNOR;
    sp[T_SAILOR] = SAILOR;
    sp[T_V_ATTACK] = V_ATTACK;
    sp[T_V_MUTINY] = V_MUTINY;
    for (int phase = 0; phase < TOR_PHASES; phase++) sp[T_MOVE + phase] = phase;
    for (int nat = 0; nat < 3; nat++) t->composition[nat] = TOR_NATIONS[n][nat];
    for (int ship = 0; ship < 3; ship++) t->ship_node[ship] = (unsigned char)TOR_SHIP_NODE[ship];
    memcpy(t->distance, TOR_DISTANCE, sizeof t->distance);
}

int tor_heuristic(const NeConfig *cfg, const void *vst, SplitMix *rng) {
    const TorState *s = vst;
    const int n = cfg->num_players, seat = tor_current(n, s);
    float obs[TOR_MAX_OBS];
    int8_t mask[TOR_MAX_ACTIONS] = {0};
    int32_t legal[TOR_MAX_ACTIONS];
    const int count = tor_legal(cfg, s, legal);
    if (count <= 1) return count == 1 ? legal[0] : -1; /* no choice (or, never in a running game, none) */
    for (int i = 0; i < count; i++) mask[legal[i]] = 1;
    tor_observe(cfg, s, seat, obs);
    TorBot t;
    bot_spec(cfg, &t);
    long action = -1;
    if (tor_bot_check_spec(&t) == NULL && tor_bot_read(&t, obs, mask) == NULL) action = tor_bot_decide(&t);
    if (action < 0) action = legal[sm_randrange(rng, (uint64_t)count)]; /* the Python bot's random pick */
    return (int)action;
}
