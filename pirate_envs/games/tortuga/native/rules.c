/* Tortuga 1667's rules in C (the tor_engine of core/native/engine.h), step for step and draw for draw the
 * Python engine, pirate_envs/games/tortuga/game.py, which stays the oracle; the functions are named after its
 * methods and read in the order of the rules file: setup (Section 3), the turn (4), movement and main actions
 * (5.1, 5.2), voting (5.3) and what it decides (5.4, 5.5, 5.7), stealing (5.6), the events (Section 6), the map
 * step (5.9), the end and scoring (Section 7), and determinisation (Section 9). The state's conversions (dump,
 * load) are in convert.c, the observation and the bot in observe.c.
 */
#include "games/tortuga/native/tor_engine.h"

/* --- options and facts -------------------------------------------------------------------------------------- */

static const char *tor_configure(const NeConfig *cfg) {
    const int n = cfg->num_players;
    const int64_t *o = cfg->options;
    if (n < TOR_MIN_PLAYERS || n > TOR_MAX_PLAYERS) return "tortuga: num_players outside 2..9";
    if (cfg->num_options != TOR_NUM_OPTIONS) return "tortuga: the options are not those of native_bridge.OPTIONS";
    if (o[O_MAX_ROUNDS] != 8 && o[O_MAX_ROUNDS] != 12 && o[O_MAX_ROUNDS] != 16) return "tortuga: max_rounds";
    if (o[O_NEUTRAL_VOTE] < 0 || o[O_NEUTRAL_VOTE] > NEUTRAL_NEVER) return "tortuga: neutral_vote";
    if ((uint64_t)o[O_WILD_COOLDOWN] > 1) return "tortuga: wild_cooldown";
    if ((uint64_t)o[O_SECRET_EXILE] > 1) return "tortuga: secret_exile";
    if ((uint64_t)o[O_PUBLIC_STEAL] > 1) return "tortuga: public_steal";
    if (o[O_ARMADA_DEPTH] < 0 || o[O_ARMADA_DEPTH] > 2) return "tortuga: armada_depth";
    if ((uint64_t)o[O_DRAW_REPLACES_ACTION] > 1) return "tortuga: draw_replaces_action";
    if (o[O_REWARD_MODE] < 0 || o[O_REWARD_MODE] > REWARD_SCORE) return "tortuga: reward_mode";
    if (cfg->num_actions != TOR_NUM_ACTIONS(n)) return "tortuga: num_actions is not 21 + 3n";
    if (cfg->obs_size != TOR_OBS_SIZE(n)) return "tortuga: obs_size is not 2n^2 + 71n + 508";
    if (cfg->num_features != 0) return "tortuga: the game has no action features";
    if (cfg->max_decisions < 1) return "tortuga: max_decisions";
    return NULL;
}

/* --- Section 3: setup ----------------------------------------------------------------------------------------- */

static void tor_init(const NeConfig *cfg, void *vst) {
    TorState *s = vst;
    SplitMix *rng = &s->h.rng;
    const int n = cfg->num_players;
    int k = 0;
    for (int nat = 0; nat < 3; nat++)
        for (int i = 0; i < TOR_NATIONS[n][nat]; i++) s->nation[k++] = (int8_t)nat;
    sm_shuffle_i8(rng, s->nation, n); /* TOR-303 */
    memcpy(s->role, TOR_ROLES[n], (size_t)n);
    sm_shuffle_i8(rng, s->role, n); /* TOR-304 */
    for (int p = 0; p < n; p++) { /* TOR-305 */
        const int role = s->role[p];
        if (tor_is_captain(role))
            s->pos[p] = TOR_SHIP_NODE[role - C_ENG];
        else if (tor_is_first_mate(role))
            s->pos[p] = TOR_SHIP_NODE[role - FM_ENG];
        else
            s->pos[p] = TOR;
    }
    for (int p = 0; p < n; p++) {
        if (s->role[p] != SAILOR) continue;
        int counts[3] = {0, 0, 0};
        for (int ship = 0; ship < 3; ship++)
            for (int q = 0; q < n; q++) counts[ship] += q != p && s->pos[q] == TOR_SHIP_NODE[ship];
        int least = 0;
        for (int ship = 1; ship < 3; ship++)
            if (counts[ship] < counts[least]) least = ship;
        s->pos[p] = TOR_SHIP_NODE[least];
    }
    s->galleon = (int8_t)(8 + n); /* TOR-302 */
    s->supply = (int8_t)(TOR_TOTAL_TREASURE - s->galleon);
    /* TOR-307: shuffle the 18 others; the Armada is uniform in the bottom packet */
    int8_t others[TOR_DECK_SIZE - 1];
    k = 0;
    for (int card = 0; card < TOR_CARD_TYPES; card++)
        if (card != ARMADA)
            for (int i = 0; i < TOR_CARD_COUNTS[card]; i++) others[k++] = (int8_t)card;
    sm_shuffle_i8(rng, others, TOR_DECK_SIZE - 1);
    const int packet = TOR_ARMADA_PACKET[cfg->options[O_ARMADA_DEPTH]];
    memcpy(s->deck, others, (size_t)(packet - 1));
    s->deck[packet - 1] = ARMADA;
    sm_shuffle_i8(rng, s->deck, packet);
    memcpy(s->deck + packet, others + packet - 1, (size_t)(TOR_DECK_SIZE - packet));
    s->deck_len = TOR_DECK_SIZE; /* bottom (index 0) .. top (last) */
    s->start = (int8_t)sm_randrange(rng, (uint64_t)n); /* TOR-308 */
    s->active = s->start;
    s->round = 1;
    s->phase = MOVE;
}

/* --- queries ---------------------------------------------------------------------------------------------------- */

static int tor_is_terminal(const NeConfig *cfg, const void *vst) {
    (void)cfg;
    return ((const TorState *)vst)->phase == GAME_OVER;
}

static int tor_current_player(const NeConfig *cfg, const void *vst) {
    return tor_current(cfg->num_players, vst);
}

/* TOR-501: nodes within 2 with room (the mover not counted); staying always legal. */
static int move_targets(const TorState *s, int n, int seat, int32_t *out) {
    static const uint8_t REACH[TOR_NODES][TOR_NODES] = {
        {0, 1, 2, 3, 5, 6, 7}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 6}, {0, 1, 2, 3, 4, 7},
        {1, 2, 3, 4, 5, 6, 7}, {0, 1, 4, 5, 6, 7}, {0, 2, 4, 5, 6, 7}, {0, 3, 4, 5, 6, 7},
    };
    static const uint8_t REACH_SIZE[TOR_NODES] = {7, 6, 6, 6, 7, 6, 6, 6};
    const int here = s->pos[seat];
    int occupancy[TOR_NODES] = {0};
    for (int p = 0; p < n; p++) occupancy[s->pos[p]]++;
    int count = 0;
    for (int i = 0; i < REACH_SIZE[here]; i++) {
        const int m = REACH[here][i];
        if (m == here || occupancy[m] < TOR_CAPACITY[m]) out[count++] = m;
    }
    return count;
}

/* TOR-504 */
static int action_phase_legal(const TorState *s, int n, int a, int32_t *out) {
    const int role = s->role[a], here = s->pos[a];
    int count = 0;
    out[count++] = A_PASS;
    if (tor_is_captain(role)) {
        if (here == GAL && s->galleon >= 1) out[count++] = A_ATTACK;
    } else if (tor_is_first_mate(role)) {
        const int ship = tor_ship_at(here);
        if (ship >= 0 && tor_holder(s, n, C_ENG + ship) != TOR_NOBODY) out[count++] = A_MUTINY;
    } else if (role == SAILOR) {
        if (here == GAL && s->galleon >= 1) out[count++] = A_STEAL_GALLEON;
        if (tor_is_area(here))
            for (int k = 1; k < n; k++)
                if (s->pos[(a + k) % n] == here) out[count++] = A_STEAL + k;
    } else if (role == GOVERNOR && here == TOR) {
        for (int k = 1; k < n; k++) out[count++] = A_DISPUTE(n) + k;
    }
    return count;
}

/* TOR-605: ships whose Captain slot is held by another player (a bit per ship). */
static int mutiny_ships(const TorState *s, int n, int drawer) {
    int ships = 0;
    for (int ship = 0; ship < 3; ship++) {
        const int captain = tor_holder(s, n, C_ENG + ship);
        if (captain != TOR_NOBODY && captain != drawer) ships |= 1 << ship;
    }
    return ships;
}

/* TOR-544: other players on the giver's area node (a bit per seat). */
static unsigned map_candidates(const TorState *s, int n, int a) {
    const int here = s->pos[a];
    unsigned cands = 0;
    if (!tor_is_area(here)) return 0;
    for (int p = 0; p < n; p++)
        if (p != a && s->pos[p] == here) cands |= 1u << p;
    return cands;
}

int tor_legal(const NeConfig *cfg, const void *vst, int32_t *out) {
    const TorState *s = vst;
    const int n = cfg->num_players, a = tor_current(n, s);
    int count = 0;
    switch (s->phase) {
    case MOVE:
    case EXTRA_MOVE:
        return move_targets(s, n, a, out);
    case CURRENT_DEST:
        return move_targets(s, n, s->ev_target, out);
    case ACTION:
        return action_phase_legal(s, n, a, out);
    case VOTE:
        out[count++] = A_VOTE(n) + CARD_YES;
        out[count++] = A_VOTE(n) + CARD_NO;
        if (!(cfg->options[O_WILD_COOLDOWN] && s->wild_lock[a])) out[count++] = A_VOTE(n) + CARD_WILD;
        return count;
    case DECLARE:
        out[count++] = A_DECLARE(n) + CARD_YES;
        out[count++] = A_DECLARE(n) + CARD_NO;
        return count;
    case LOOT: {
        unsigned offsets = 0;
        for (int i = 0; i < s->lo_nparts; i++) offsets |= 1u << (((s->lo_parts[i] - a) % n + n) % n);
        for (int k = 0; k < n; k++)
            if (offsets >> k & 1) out[count++] = A_SELECT(n) + k;
        return count;
    }
    case DRAW:
        out[count++] = A_PASS;
        if (s->deck_len > 0) out[count++] = A_DRAW(n);
        return count;
    case MAP_RECIPIENT:
        for (int k = 0; k < n; k++) out[count++] = A_SELECT(n) + k;
        return count;
    case CURRENT_TARGET:
    case BRAWL_TARGET:
    case SPY_TARGET:
        for (int k = 1; k < n; k++) out[count++] = A_SELECT(n) + k;
        return count;
    case MUTINY_SHIP: {
        const int ships = mutiny_ships(s, n, a);
        for (int ship = 0; ship < 3; ship++)
            if (ships >> ship & 1) out[count++] = A_SHIP(n) + ship;
        return count;
    }
    case MAP_GIVE: {
        const unsigned cands = map_candidates(s, n, a);
        out[count++] = A_PASS;
        for (int k = 1; k < n; k++)
            if (cands >> ((a + k) % n) & 1) out[count++] = A_SELECT(n) + k;
        return count;
    }
    default:
        return 0;
    }
}

/* --- acting: the ledger and the log ------------------------------------------------------------------------------ */

static void ledger_add(TorState *s, int kind, int seat, unsigned cands, int other, int amount) {
    if (s->ledger_len >= TOR_MAX_LEDGER) return; /* never in a game (see tor_engine.h); no write past the end */
    TorEntry *e = &s->ledger[s->ledger_len++];
    e->kind = (int8_t)kind;
    e->seat = (int8_t)seat;
    e->other = (int8_t)other;
    e->amount = (int8_t)amount;
    e->cands = (uint16_t)cands;
    e->_pad = 0;
}

static void log_add(TorState *s, int kind, int actor, int target, int node, int card, int value) {
    if (s->log_len == TOR_LOG_LENGTH) {
        memmove(s->log, s->log + 1, sizeof(TorLogItem) * (TOR_LOG_LENGTH - 1));
        s->log_len--;
    }
    TorLogItem *item = &s->log[s->log_len++];
    *item = (TorLogItem){(int8_t)kind, (int8_t)actor, (int8_t)target, (int8_t)node, (int8_t)card, 0,
                         (int16_t)value, -1};
}

/* A public gain already taken from the galleon or the supply (TOR-906). */
static void gain(TorState *s, int seat, int amount) {
    s->hoard[seat] = (int8_t)(s->hoard[seat] + amount);
    s->pub_treasure[seat] += amount;
    ledger_add(s, L_GAIN, seat, 0, TOR_NOBODY, amount);
}

/* A public loss of 1 if the hoard allows (TOR-546); returns the tokens lost (0 or 1). */
static int lose(TorState *s, int seat) {
    const int lost = s->hoard[seat] >= 1;
    s->hoard[seat] = (int8_t)(s->hoard[seat] - lost);
    s->pub_treasure[seat] -= lost;
    ledger_add(s, L_LOSS, seat, 0, TOR_NOBODY, -lost);
    return lost;
}

static void game_over(TorState *s, int reason) {
    s->phase = GAME_OVER;
    s->end_reason = (int8_t)reason;
    s->ev_open = 0;
    s->ev_card = 0;
    s->ev_target = 0;
    s->lo_open = 0;
}

/* --- 5.9 map step and the end of the turn ------------------------------------------------------------------------- */

static void end_turn(const NeConfig *cfg, TorState *s) {
    const int n = cfg->num_players, a = s->active;
    if ((a + 1) % n == s->start) {
        if (s->round == cfg->options[O_MAX_ROUNDS]) { /* TOR-701(c) */
            game_over(s, END_ROUNDS);
            return;
        }
        s->round++;
    }
    s->active = (int8_t)((a + 1) % n);
    s->phase = MOVE;
    s->acted = 0;
}

static void map_step(const NeConfig *cfg, TorState *s) {
    const int a = s->active;
    const unsigned cands = map_candidates(s, cfg->num_players, a);
    if (cands && s->maps[a] >= 1) {
        s->phase = MAP_GIVE;
        return;
    }
    if (cands) ledger_add(s, L_MAP_GIVE, a, cands, TOR_NOBODY, 0);
    end_turn(cfg, s);
}

static void end_event(const NeConfig *cfg, TorState *s) {
    s->ev_open = 0;
    s->ev_card = 0;
    s->ev_target = 0;
    map_step(cfg, s);
}

/* End of the Action phase: the Event phase's DRAW, or straight to the map step (TOR-807). */
static void after_action(const NeConfig *cfg, TorState *s, int acted) {
    s->acted = (int8_t)acted;
    if (acted && cfg->options[O_DRAW_REPLACES_ACTION])
        map_step(cfg, s);
    else
        s->phase = DRAW;
}

/* --- 5.3 voting --------------------------------------------------------------------------------------------------- */

static void open_vote(TorState *s, int n, int kind, int initiator, int target, int ctx, int ship) {
    s->v_open = 1;
    s->v_type = (int8_t)kind;
    s->v_initiator = (int8_t)initiator;
    s->v_target = (int8_t)target;
    s->v_ship = (int8_t)ship;
    s->v_ctx = (int8_t)ctx;
    s->v_nparts = 0;
    s->v_idx = 0;
    s->v_ndeclarers = 0;
    s->v_didx = 0;
    s->v_die = -1;
    for (int p = 0; p < n; p++) {
        s->v_cards[p] = -1;
        s->v_decl[p] = -1;
    }
    s->phase = VOTE;
}

static void close_vote(TorState *s) {
    s->v_open = 0;
    s->v_type = s->v_initiator = s->v_target = s->v_ship = s->v_ctx = 0;
    s->v_nparts = s->v_idx = s->v_ndeclarers = s->v_didx = s->v_die = 0;
    memset(s->v_parts, 0, sizeof s->v_parts);
    memset(s->v_cards, 0, sizeof s->v_cards);
    memset(s->v_decl, 0, sizeof s->v_decl);
    memset(s->v_declarers, 0, sizeof s->v_declarers);
}

static void after_vote(const NeConfig *cfg, TorState *s, int ctx) {
    if (ctx == CTX_ACTION)
        after_action(cfg, s, 1);
    else
        end_event(cfg, s);
}

static void after_attack(const NeConfig *cfg, TorState *s) {
    if (s->galleon == 0) /* TOR-523, TOR-702 */
        game_over(s, END_GALLEON);
    else
        after_action(cfg, s, 1);
}

/* --- 5.4 attack --------------------------------------------------------------------------------------------------- */

static void resolve_attack(const NeConfig *cfg, TorState *s, int captain, const int8_t *parts, int nparts,
                           int passed) {
    if (!passed) {
        log_add(s, LOG_ATTACK_FAILED, captain, TOR_NOBODY, GAL, -1, 0);
        after_action(cfg, s, 1);
        return;
    }
    const int dice = nparts + 1 < 6 ? nparts + 1 : 6; /* TOR-521 */
    int successes = 0;
    for (int i = 0; i < dice; i++) successes += sm_randrange(&s->h.rng, 6) >= 3;
    const int loot = successes < s->galleon ? successes : s->galleon;
    s->galleon = (int8_t)(s->galleon - loot);
    log_add(s, LOG_ATTACK_PASSED, captain, TOR_NOBODY, GAL, -1, loot);
    if (loot == 0) {
        after_attack(cfg, s);
    } else if (nparts == 1) { /* TOR-522 / TOR-402: no decision */
        gain(s, captain, loot);
        log_add(s, LOG_LOOT_GIVEN, captain, captain, GAL, -1, loot);
        after_attack(cfg, s);
    } else {
        s->lo_open = 1;
        s->lo_captain = (int8_t)captain;
        s->lo_nparts = (int8_t)nparts;
        memcpy(s->lo_parts, parts, (size_t)nparts);
        s->lo_left = (int8_t)loot;
        s->lo_dice = (int8_t)dice;
        s->lo_successes = (int8_t)successes;
        memset(s->lo_assigned, 0, sizeof s->lo_assigned);
        s->phase = LOOT;
    }
}

/* --- 5.5 exile and succession (TOR-526/527) ----------------------------------------------------------------------- */

static void exile(const NeConfig *cfg, TorState *s, int captain, int ship, int initiator) {
    const int n = cfg->num_players, node = TOR_SHIP_NODE[ship];
    s->role[captain] = SAILOR;
    s->exiled[captain] = 1;
    s->pos[captain] = TOR;
    if (!cfg->options[O_SECRET_EXILE]) s->revealed[captain] = 1;
    log_add(s, LOG_EXILED, initiator, captain, node, -1, 0);
    int candidate = TOR_NOBODY; /* the first of the candidates, in seat order from the exiled Captain */
    for (int k = 1; k < n && candidate == TOR_NOBODY; k++) {
        const int p = (captain + k) % n;
        if (s->role[p] == SAILOR && !s->exiled[p] && s->pos[p] == node) candidate = p;
    }
    const int mate = tor_holder(s, n, FM_ENG + ship);
    if (mate != TOR_NOBODY) {
        s->role[mate] = (int8_t)(C_ENG + ship);
        log_add(s, LOG_PROMOTED, mate, TOR_NOBODY, node, -1, 1);
        if (candidate != TOR_NOBODY) {
            s->role[candidate] = (int8_t)(FM_ENG + ship);
            log_add(s, LOG_PROMOTED, candidate, TOR_NOBODY, node, -1, 2);
        }
    } else if (candidate != TOR_NOBODY) {
        s->role[candidate] = (int8_t)(C_ENG + ship);
        log_add(s, LOG_PROMOTED, candidate, TOR_NOBODY, node, -1, 1);
    }
}

/* TOR-510..513: count, neutral die, public record, then the voted effect. */
static void finish_vote(const NeConfig *cfg, TorState *s) {
    const int n = cfg->num_players;
    int8_t final[TOR_MAX_PLAYERS];
    int yes = 0;
    for (int p = 0; p < n; p++) {
        final[p] = s->v_cards[p] != CARD_WILD ? s->v_cards[p] : s->v_decl[p];
        yes += final[p] == CARD_YES;
    }
    int no = n - yes;
    const int64_t neutral = cfg->options[O_NEUTRAL_VOTE];
    if (neutral == NEUTRAL_ALWAYS || (neutral == NEUTRAL_TWO_PLAYER && n == 2)) { /* TOR-512 */
        const int die = 1 + (int)sm_randrange(&s->h.rng, 6);
        s->v_die = die >= 4 ? CARD_YES : CARD_NO;
        if (die >= 4)
            yes++;
        else
            no++;
    }
    const int passed = yes > no; /* TOR-511 */
    const int init = s->v_initiator, target = s->v_target;
    for (int p = 0; p < n; p++) {
        if (final[p] == CARD_YES) {
            s->yes_by[p][init]++;
            if (target >= 0) s->yes_vs[p][target]++;
        }
    }
    s->votes_initiated[init]++;
    if (target >= 0) s->votes_targeting[target]++;
    if (cfg->options[O_WILD_COOLDOWN]) /* TOR-803 */
        for (int p = 0; p < n; p++) s->wild_lock[p] = s->v_cards[p] == CARD_WILD;
    s->lv_open = 1;
    s->lv_type = s->v_type;
    s->lv_initiator = (int8_t)init;
    s->lv_target = (int8_t)target;
    memcpy(s->lv_cards, s->v_cards, sizeof s->lv_cards);
    memset(s->lv_final, 0, sizeof s->lv_final);
    memcpy(s->lv_final, final, (size_t)n);
    s->lv_passed = (int8_t)passed;
    s->lv_die = s->v_die;
    const int kind = s->v_type, ship = s->v_ship, ctx = s->v_ctx, nparts = s->v_nparts;
    int8_t parts[TOR_MAX_PLAYERS];
    memcpy(parts, s->v_parts, sizeof parts);
    close_vote(s);
    if (kind == V_ATTACK) {
        resolve_attack(cfg, s, init, parts, nparts, passed);
    } else if (kind == V_MUTINY) {
        if (passed)
            exile(cfg, s, target, ship, init);
        else
            log_add(s, LOG_MUTINY_FAILED, init, target, TOR_SHIP_NODE[ship], ctx == CTX_EVENT ? MUTINY_BREWS : -1, 0);
        after_vote(cfg, s, ctx);
    } else { /* DISPUTE or BRAWL (TOR-539, TOR-606) */
        const int card = kind == V_BRAWL ? TAVERN_BRAWL : -1;
        if (passed) {
            const int moved = lose(s, target);
            if (moved) gain(s, init, 1);
            log_add(s, LOG_DISPUTE_PASSED, init, target, -1, card, moved);
        } else {
            log_add(s, LOG_DISPUTE_FAILED, init, target, -1, card, 0);
        }
        after_vote(cfg, s, ctx);
    }
}

/* TOR-508/509: all cards public at once; Wild voters declare in order from the initiator. */
static void reveal(const NeConfig *cfg, TorState *s) {
    const int n = cfg->num_players;
    s->v_ndeclarers = 0;
    for (int k = 0; k < n; k++) {
        const int p = (s->v_initiator + k) % n;
        if (s->v_cards[p] == CARD_WILD) s->v_declarers[s->v_ndeclarers++] = (int8_t)p;
    }
    if (s->v_ndeclarers)
        s->phase = DECLARE;
    else
        finish_vote(cfg, s);
}

/* --- Section 6: events -------------------------------------------------------------------------------------------- */

static void supply_gain(TorState *s, int seat, int amount, int card) {
    if (amount > s->supply) amount = s->supply; /* TOR-546 */
    s->supply = (int8_t)(s->supply - amount);
    gain(s, seat, amount);
    log_add(s, LOG_TREASURE_EVENT, seat, seat, -1, card, amount);
}

static void draw_event(const NeConfig *cfg, TorState *s, int a) {
    const int n = cfg->num_players;
    const int card = s->deck[--s->deck_len];
    s->deck[s->deck_len] = 0;
    s->drawn[card]++;
    log_add(s, LOG_EVENT_DRAWN, a, TOR_NOBODY, -1, card, 0);
    if (card == ARMADA) { /* TOR-612 */
        game_over(s, END_ARMADA);
        return;
    }
    s->ev_open = 1;
    s->ev_card = (int8_t)card;
    s->ev_target = TOR_NOBODY;
    switch (card) {
    case FLOATING_CARGO: /* TOR-601 */
        supply_gain(s, a, 1, card);
        break;
    case BURIED_CHEST: /* TOR-602 */
        supply_gain(s, a, 1 + (int)sm_randrange(&s->h.rng, 6) / 2, card);
        break;
    case FAIR_WINDS:
        s->phase = EXTRA_MOVE;
        return;
    case STRONG_CURRENT:
        s->phase = CURRENT_TARGET;
        return;
    case MUTINY_BREWS:
        if (mutiny_ships(s, n, a)) {
            s->phase = MUTINY_SHIP;
            return;
        }
        break;
    case TAVERN_BRAWL:
        s->phase = BRAWL_TARGET;
        return;
    case SCURVY: { /* TOR-607 */
        const int lost = lose(s, a);
        s->supply = (int8_t)(s->supply + lost);
        log_add(s, LOG_TREASURE_EVENT, a, a, -1, card, -lost);
        break;
    }
    case SHIPWRECK: /* TOR-608 */
        if (s->pos[a] != TOR) {
            s->pos[a] = TOR;
            log_add(s, LOG_PAWN_MOVED, a, a, TOR, card, 0);
        }
        break;
    case COUNTERATTACK: /* TOR-609 */
        for (int k = 0; k < n; k++) {
            const int p = (a + k) % n;
            if (s->pos[p] == GAL) {
                const int lost = lose(s, p);
                s->galleon = (int8_t)(s->galleon + lost);
                log_add(s, LOG_TREASURE_EVENT, a, p, GAL, card, -lost);
            }
        }
        break;
    case SPYGLASS:
        s->phase = SPY_TARGET;
        return;
    case TREASURE_MAP:
        s->phase = MAP_RECIPIENT;
        return;
    default:
        break;
    }
    end_event(cfg, s);
}

/* --- 5.2 main actions --------------------------------------------------------------------------------------------- */

static void apply_main_action(const NeConfig *cfg, TorState *s, int a, int action) {
    const int n = cfg->num_players;
    if (action == A_PASS) {
        after_action(cfg, s, 0);
    } else if (action == A_ATTACK) { /* TOR-520 */
        open_vote(s, n, V_ATTACK, a, TOR_NOBODY, CTX_ACTION, -1);
        s->v_parts[s->v_nparts++] = (int8_t)a;
        for (int k = 1; k < n; k++)
            if (s->pos[(a + k) % n] == GAL) s->v_parts[s->v_nparts++] = (int8_t)((a + k) % n);
    } else if (action == A_MUTINY) { /* TOR-505 */
        const int ship = tor_ship_at(s->pos[a]);
        open_vote(s, n, V_MUTINY, a, tor_holder(s, n, C_ENG + ship), CTX_ACTION, ship);
    } else if (action == A_STEAL_GALLEON) { /* TOR-537 */
        s->galleon--;
        gain(s, a, 1);
        log_add(s, LOG_STEAL_GALLEON, a, TOR_NOBODY, GAL, -1, 1);
        if (s->galleon == 0)
            game_over(s, END_GALLEON);
        else
            after_action(cfg, s, 1);
    } else if (action >= A_STEAL && action < A_STEAL + n) { /* TOR-535/536 */
        const int victim = (a + action - A_STEAL) % n, here = s->pos[a];
        const int moved = s->hoard[victim] >= 1;
        s->steals_made[a]++;
        if (cfg->options[O_PUBLIC_STEAL]) { /* TOR-805 */
            lose(s, victim);
            if (moved) gain(s, a, 1);
            log_add(s, LOG_STEAL_PLAYER, a, victim, here, -1, moved);
        } else {
            unsigned cands = 0;
            for (int p = 0; p < n; p++)
                if (p != a && s->pos[p] == here) cands |= 1u << p;
            s->hoard[victim] = (int8_t)(s->hoard[victim] - moved);
            s->hoard[a] = (int8_t)(s->hoard[a] + moved);
            s->steal_delta[a][victim] += moved;
            s->steal_delta[victim][a] -= moved;
            ledger_add(s, L_STEAL, a, cands, victim, moved);
            log_add(s, LOG_STEAL_PLAYER, a, victim, here, -1, moved);
            s->log[s->log_len - 1].secret = (int16_t)(s->ledger_len - 1);
        }
        after_action(cfg, s, 1);
    } else { /* DISPUTE (TOR-539) */
        open_vote(s, n, V_DISPUTE, a, (a + action - A_DISPUTE(n)) % n, CTX_ACTION, -1);
    }
}

static void tor_apply(const NeConfig *cfg, void *vst, int action) {
    TorState *s = vst;
    const int n = cfg->num_players, a = tor_current(n, s);
    switch (s->phase) {
    case MOVE:
        s->pos[a] = (int8_t)action;
        s->phase = ACTION;
        break;
    case ACTION:
        apply_main_action(cfg, s, a, action);
        break;
    case VOTE:
        s->v_cards[a] = (int8_t)(action - A_VOTE(n));
        if (++s->v_idx == n) reveal(cfg, s);
        break;
    case DECLARE:
        s->v_decl[a] = (int8_t)(action - A_DECLARE(n));
        if (++s->v_didx == s->v_ndeclarers) finish_vote(cfg, s);
        break;
    case LOOT: {
        const int target = (a + action - A_SELECT(n)) % n;
        gain(s, target, 1);
        s->lo_left--;
        s->lo_assigned[target]++;
        log_add(s, LOG_LOOT_GIVEN, a, target, GAL, -1, 1);
        if (s->lo_left == 0) {
            s->lo_open = 0;
            s->lo_captain = s->lo_nparts = s->lo_dice = s->lo_successes = 0;
            memset(s->lo_parts, 0, sizeof s->lo_parts);
            memset(s->lo_assigned, 0, sizeof s->lo_assigned);
            after_attack(cfg, s);
        }
        break;
    }
    case DRAW:
        if (action == A_PASS) {
            log_add(s, LOG_DRAW_DECLINED, a, TOR_NOBODY, -1, -1, 0);
            map_step(cfg, s);
        } else {
            draw_event(cfg, s, a);
        }
        break;
    case EXTRA_MOVE:
        s->pos[a] = (int8_t)action;
        end_event(cfg, s);
        break;
    case CURRENT_TARGET:
        s->ev_target = (int8_t)((a + action - A_SELECT(n)) % n);
        s->phase = CURRENT_DEST;
        break;
    case CURRENT_DEST: {
        const int target = s->ev_target;
        s->pos[target] = (int8_t)action;
        log_add(s, LOG_PAWN_MOVED, a, target, action, STRONG_CURRENT, 0);
        end_event(cfg, s);
        break;
    }
    case MUTINY_SHIP: {
        const int ship = action - A_SHIP(n);
        open_vote(s, n, V_MUTINY, a, tor_holder(s, n, C_ENG + ship), CTX_EVENT, ship);
        break;
    }
    case BRAWL_TARGET:
        open_vote(s, n, V_BRAWL, a, (a + action - A_SELECT(n)) % n, CTX_EVENT, -1);
        break;
    case SPY_TARGET: {
        const int target = (a + action - A_SELECT(n)) % n;
        s->spied[a][target] = 1;
        log_add(s, LOG_SPYGLASS, a, target, -1, SPYGLASS, 0);
        end_event(cfg, s);
        break;
    }
    case MAP_RECIPIENT: {
        const int target = (a + action - A_SELECT(n)) % n;
        s->maps[target]++;
        s->pub_maps[target]++;
        ledger_add(s, L_MAP_PUBLIC, target, 0, TOR_NOBODY, 0);
        log_add(s, LOG_MAP_GIFTED, a, target, -1, TREASURE_MAP, 0);
        end_event(cfg, s);
        break;
    }
    case MAP_GIVE: {
        const unsigned cands = map_candidates(s, n, a);
        int receiver = TOR_NOBODY;
        if (action != A_PASS) {
            receiver = (a + action - A_SELECT(n)) % n;
            s->maps[a]--;
            s->maps[receiver]++;
            s->map_delta[receiver][a]++;
            s->map_delta[a][receiver]--;
        }
        ledger_add(s, L_MAP_GIVE, a, cands, receiver, 0);
        end_turn(cfg, s);
        break;
    }
    default:
        break;
    }
}

/* --- Section 7: scoring ------------------------------------------------------------------------------------------- */

static void tor_scores(const NeConfig *cfg, const void *vst, double *out) {
    const TorState *s = vst;
    int scores[3];
    tor_nation_scores(s, cfg->num_players, scores);
    for (int p = 0; p < cfg->num_players; p++) out[p] = (double)scores[s->nation[p]];
}

/* TOR-704: highest score, then more alive players, then more maps; the rest share (a bit per nation). */
static int winning_nations(const TorState *s, int n) {
    int scores[3], alive[3] = {0, 0, 0}, maps[3] = {0, 0, 0}, best = -1;
    tor_nation_scores(s, n, scores);
    for (int p = 0; p < n; p++) {
        alive[s->nation[p]] += !s->exiled[p];
        maps[s->nation[p]] += s->maps[p];
    }
    int won = 0;
    for (int nat = 0; nat < 3; nat++) {
        if (TOR_NATIONS[n][nat] == 0) continue;
        const int better = best < 0 || scores[nat] > scores[best] ||
                           (scores[nat] == scores[best] &&
                            (alive[nat] > alive[best] || (alive[nat] == alive[best] && maps[nat] > maps[best])));
        const int same = best >= 0 && scores[nat] == scores[best] && alive[nat] == alive[best] &&
                         maps[nat] == maps[best];
        if (better) {
            best = nat;
            won = 1 << nat;
        } else if (same) {
            won |= 1 << nat;
        }
    }
    return won;
}

/* TOR-705: the alive players of the winning nation(s). */
static int tor_winners(const NeConfig *cfg, const void *vst, int32_t *out) {
    const TorState *s = vst;
    const int n = cfg->num_players, won = winning_nations(s, n);
    int count = 0;
    for (int p = 0; p < n; p++)
        if (won >> s->nation[p] & 1 && !s->exiled[p]) out[count++] = p;
    return count;
}

static void tor_returns(const NeConfig *cfg, const void *vst, double *out) {
    const TorState *s = vst;
    const int n = cfg->num_players;
    if (cfg->options[O_REWARD_MODE] == REWARD_WIN) {
        const int won = winning_nations(s, n);
        for (int p = 0; p < n; p++) out[p] = won >> s->nation[p] & 1 && !s->exiled[p] ? 1.0 : -1.0;
        return;
    }
    int scores[3];
    tor_nation_scores(s, n, scores);
    for (int p = 0; p < n; p++) { /* TOR-1005 score mode */
        const int own = s->nation[p];
        int best_other = 0, any = 0;
        for (int nat = 0; nat < 3; nat++) {
            if (TOR_NATIONS[n][nat] == 0 || nat == own) continue;
            if (!any || scores[nat] > best_other) best_other = scores[nat];
            any = 1;
        }
        double r = (double)(scores[own] - best_other) / 10.0;
        r = r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;
        if (s->exiled[p] && r > 0.0) r = 0.0;
        out[p] = r;
    }
}

/* --- Section 9: determinisation ----------------------------------------------------------------------------------- */

/* _resample_ledger: redraw the secret steals' victims and map gifts' receivers that ``seat`` did not take part
 * in, replayed against every public fact; committed on the first of RESAMPLE_TRIES replays that fits. */
static void resample_ledger(const NeConfig *cfg, TorState *s, int seat, SplitMix *rng) {
    const int n = cfg->num_players;
    const int pending_give = s->phase == MAP_GIVE && s->active != seat;
    int8_t other[TOR_MAX_LEDGER], amount[TOR_MAX_LEDGER];
    for (int attempt = 0; attempt < TOR_RESAMPLE_TRIES; attempt++) {
        int hoard[TOR_MAX_PLAYERS] = {0}, maps[TOR_MAX_PLAYERS] = {0}, ok = 1;
        for (int i = 0; i < s->ledger_len && ok; i++) {
            const TorEntry *e = &s->ledger[i];
            other[i] = e->other;
            amount[i] = e->amount;
            switch (e->kind) {
            case L_GAIN:
                hoard[e->seat] += e->amount;
                break;
            case L_LOSS:
                if ((hoard[e->seat] >= 1) != (e->amount == -1)) {
                    ok = 0;
                    break;
                }
                hoard[e->seat] += e->amount;
                break;
            case L_STEAL: {
                const int thief = e->seat, involved = seat == thief || seat == e->other;
                int victim = e->other;
                if (!involved) {
                    int choices[TOR_MAX_PLAYERS], count = 0;
                    for (int c = 0; c < n; c++)
                        if (e->cands >> c & 1 && c != seat) choices[count++] = c;
                    victim = choices[sm_randrange(rng, (uint64_t)count)];
                }
                const int now = hoard[victim] >= 1;
                if (involved && now != e->amount) {
                    ok = 0;
                    break;
                }
                hoard[victim] -= now;
                hoard[thief] += now;
                other[i] = (int8_t)victim;
                amount[i] = (int8_t)now;
                break;
            }
            case L_MAP_PUBLIC:
                maps[e->seat]++;
                break;
            default: { /* L_MAP_GIVE */
                const int giver = e->seat;
                int receiver = e->other;
                if (seat != giver && seat != receiver) {
                    int choices[TOR_MAX_PLAYERS + 1], count = 0;
                    choices[count++] = TOR_NOBODY;
                    for (int c = 0; c < n; c++)
                        if (e->cands >> c & 1 && c != seat) choices[count++] = c;
                    receiver = maps[giver] >= 1 && count > 1 ? choices[sm_randrange(rng, (uint64_t)count)]
                                                              : TOR_NOBODY;
                }
                if (receiver != TOR_NOBODY) {
                    if (maps[giver] < 1) {
                        ok = 0;
                        break;
                    }
                    maps[giver]--;
                    maps[receiver]++;
                }
                other[i] = (int8_t)receiver;
                break;
            }
            }
        }
        if (ok && pending_give && maps[s->active] < 1) ok = 0;
        if (!ok) continue;
        /* _commit_ledger */
        memset(s->steal_delta, 0, sizeof s->steal_delta);
        memset(s->map_delta, 0, sizeof s->map_delta);
        for (int p = 0; p < n; p++) {
            s->hoard[p] = (int8_t)hoard[p];
            s->maps[p] = (int8_t)maps[p];
        }
        for (int i = 0; i < s->ledger_len; i++) {
            TorEntry *e = &s->ledger[i];
            e->other = other[i];
            e->amount = amount[i];
            if (e->kind == L_STEAL) {
                s->steal_delta[e->seat][e->other] += e->amount;
                s->steal_delta[e->other][e->seat] -= e->amount;
            } else if (e->kind == L_MAP_GIVE && e->other != TOR_NOBODY) {
                s->map_delta[e->other][e->seat]++;
                s->map_delta[e->seat][e->other]--;
            }
        }
        for (int i = 0; i < s->log_len; i++) {
            TorLogItem *item = &s->log[i];
            if (item->secret >= 0) {
                item->target = s->ledger[item->secret].other;
                item->value = s->ledger[item->secret].amount;
            }
        }
        return;
    }
}

/* Redraw what ``seat`` cannot see: nations, deck order, secret steals and map gifts, pending votes. */
static void tor_resample_hidden(const NeConfig *cfg, void *vst, int seat, SplitMix *rng) {
    TorState *s = vst;
    const int n = cfg->num_players;
    const int packet = TOR_ARMADA_PACKET[cfg->options[O_ARMADA_DEPTH]];
    int8_t deck[TOR_DECK_SIZE];
    int count = 0;
    for (int card = 0; card < ARMADA; card++) /* canonical order: only the counts are known */
        for (int i = 0; i < s->deck_len; i++)
            if (s->deck[i] == card) deck[count++] = (int8_t)card;
    sm_shuffle_i8(rng, deck, count);
    if (count < s->deck_len) {
        const int at = (int)sm_randrange(rng, (uint64_t)(packet < s->deck_len ? packet : s->deck_len));
        memmove(deck + at + 1, deck + at, (size_t)(count - at));
        deck[at] = ARMADA;
        count++;
    }
    memcpy(s->deck, deck, (size_t)count);
    int unknown[TOR_MAX_PLAYERS], pool[TOR_MAX_PLAYERS] = {0}, nunknown = 0;
    for (int p = 0; p < n; p++)
        if (!tor_nation_known(s, seat, p)) unknown[nunknown++] = p;
    int8_t nations[TOR_MAX_PLAYERS];
    for (int i = 0; i < nunknown; i++) pool[s->nation[unknown[i]]]++;
    count = 0;
    for (int nat = 0; nat < 3; nat++)
        for (int i = 0; i < pool[nat]; i++) nations[count++] = (int8_t)nat;
    sm_shuffle_i8(rng, nations, count);
    for (int i = 0; i < nunknown; i++) s->nation[unknown[i]] = nations[i];
    if (s->v_open && s->phase == VOTE) { /* cards not yet revealed */
        for (int k = 0; k < s->v_idx; k++) {
            const int p = (s->v_initiator + k) % n;
            if (p == seat) continue;
            const int locked = cfg->options[O_WILD_COOLDOWN] && s->wild_lock[p];
            s->v_cards[p] = (int8_t)sm_randrange(rng, locked ? 2 : 3);
        }
    }
    resample_ledger(cfg, s, seat, rng);
}

/* --- the engine --------------------------------------------------------------------------------------------------- */

const NativeEngine tor_engine = {
    .game_id = "tortuga_v0",
    .state_size = sizeof(TorState),
    .max_actions = TOR_MAX_ACTIONS,
    .max_dump = TOR_MAX_DUMP,
    .configure = tor_configure,
    .init = tor_init,
    .is_terminal = tor_is_terminal,
    .current_player = tor_current_player,
    .legal_actions = tor_legal,
    .apply = tor_apply,
    .returns = tor_returns,
    .scores = tor_scores,
    .winners = tor_winners,
    .observe = tor_observe,
    .resample_hidden = tor_resample_hidden,
    .heuristic = tor_heuristic,
    .action_features = NULL,
    .dump = tor_dump,
    .load = tor_load,
};
