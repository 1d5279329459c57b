/* Tortuga 1667's state as flat int64 values (dump) and back (load): the layout native_bridge.py packs and
 * unpacks, in this order (n = the player count):
 *
 *   per seat, n values each: nation, role, pos, exiled, revealed, hoard, maps, wild_lock, pub_treasure,
 *       steals_made, pub_maps, votes_initiated, votes_targeting
 *   n x n values each (row by row): spied, steal_delta, map_delta, yes_by, yes_vs
 *   galleon, supply, start, active, round, phase, acted, end_reason (0 "", 1 galleon, 2 armada, 3 rounds)
 *   deck: its length, then its cards (bottom first); drawn: 12 counts
 *   vote: 0 (None), or 1, type, initiator, target, ship, ctx (0 action, 1 event), idx, didx, die, the number of
 *       participants, the participants, cards (n), decl (n)
 *   last_vote: 0, or 1, type, initiator, target, passed, die, cards (n), final (n)
 *   loot: 0, or 1, captain, dice, successes, left, the number of participants, the participants, assigned (n)
 *   event: 0, or 1, card, target
 *   log: its length, then 7 values an entry
 *   ledger: its length, then 5 values an entry: kind, seat, candidates (a bit per seat), victim or receiver (-1
 *       where the entry has none), amount (the gain, -lost, moved; 0 where the entry has none)
 *
 * The vote's order, its declarers and its ``revealed`` flag follow from the rest (TOR-507, TOR-509) and are
 * not dumped. load checks every value: its range, then what State.check_invariants checks (treasure, map and
 * card conservation, capacities, one holder per role, the ledger replaying to the hoards and maps), then what
 * every later call relies on (the pending vote, loot and event agreeing with the phase, a seat to act with a
 * legal action), so that no later call indexes out of bounds.
 */
#include "games/tortuga/native/tor_engine.h"

/* --- dump --------------------------------------------------------------------------------------------------------- */

int tor_dump(const NeConfig *cfg, const void *vst, int64_t *out) {
    const TorState *s = vst;
    const int n = cfg->num_players;
    int at = 0;
    const int8_t *seat8[] = {s->nation, s->role, s->pos, s->exiled, s->revealed, s->hoard, s->maps, s->wild_lock};
    for (int f = 0; f < 8; f++)
        for (int p = 0; p < n; p++) out[at++] = seat8[f][p];
    const int32_t *seat32[] = {s->pub_treasure, s->steals_made, s->pub_maps, s->votes_initiated, s->votes_targeting};
    for (int f = 0; f < 5; f++)
        for (int p = 0; p < n; p++) out[at++] = seat32[f][p];
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) out[at++] = s->spied[p][q];
    const int32_t(*matrix[])[TOR_MAX_PLAYERS] = {s->steal_delta, s->map_delta, s->yes_by, s->yes_vs};
    for (int f = 0; f < 4; f++)
        for (int p = 0; p < n; p++)
            for (int q = 0; q < n; q++) out[at++] = matrix[f][p][q];
    const int8_t scalars[] = {s->galleon, s->supply, s->start, s->active, s->round, s->phase, s->acted,
                              s->end_reason};
    for (int i = 0; i < 8; i++) out[at++] = scalars[i];
    out[at++] = s->deck_len;
    for (int i = 0; i < s->deck_len; i++) out[at++] = s->deck[i];
    for (int card = 0; card < TOR_CARD_TYPES; card++) out[at++] = s->drawn[card];
    out[at++] = s->v_open;
    if (s->v_open) {
        const int8_t head[] = {s->v_type, s->v_initiator, s->v_target, s->v_ship, s->v_ctx,
                               s->v_idx,  s->v_didx,      s->v_die,    s->v_nparts};
        for (int i = 0; i < 9; i++) out[at++] = head[i];
        for (int i = 0; i < s->v_nparts; i++) out[at++] = s->v_parts[i];
        for (int p = 0; p < n; p++) out[at++] = s->v_cards[p];
        for (int p = 0; p < n; p++) out[at++] = s->v_decl[p];
    }
    out[at++] = s->lv_open;
    if (s->lv_open) {
        const int8_t head[] = {s->lv_type, s->lv_initiator, s->lv_target, s->lv_passed, s->lv_die};
        for (int i = 0; i < 5; i++) out[at++] = head[i];
        for (int p = 0; p < n; p++) out[at++] = s->lv_cards[p];
        for (int p = 0; p < n; p++) out[at++] = s->lv_final[p];
    }
    out[at++] = s->lo_open;
    if (s->lo_open) {
        const int8_t head[] = {s->lo_captain, s->lo_dice, s->lo_successes, s->lo_left, s->lo_nparts};
        for (int i = 0; i < 5; i++) out[at++] = head[i];
        for (int i = 0; i < s->lo_nparts; i++) out[at++] = s->lo_parts[i];
        for (int p = 0; p < n; p++) out[at++] = s->lo_assigned[p];
    }
    out[at++] = s->ev_open;
    if (s->ev_open) {
        out[at++] = s->ev_card;
        out[at++] = s->ev_target;
    }
    out[at++] = s->log_len;
    for (int i = 0; i < s->log_len; i++) {
        const TorLogItem *item = &s->log[i];
        const int64_t values[] = {item->kind, item->actor, item->target, item->node, item->card, item->value,
                                  item->secret};
        for (int j = 0; j < 7; j++) out[at++] = values[j];
    }
    out[at++] = s->ledger_len;
    for (int i = 0; i < s->ledger_len; i++) {
        const TorEntry *e = &s->ledger[i];
        out[at++] = e->kind;
        out[at++] = e->seat;
        out[at++] = e->cands;
        out[at++] = e->other;
        out[at++] = e->amount;
    }
    return at;
}

/* --- load --------------------------------------------------------------------------------------------------------- */

typedef struct {
    const int64_t *data;
    int size, at;
    const char **why;
} Reader;

/* The next value, which must lie in [low, high]; -1 (with *why) when it does not or the dump has ended. */
static int take(Reader *r, int64_t low, int64_t high, const char *what, int64_t *out) {
    if (r->at >= r->size) {
        *r->why = "tortuga load: the dump ends too early";
        return -1;
    }
    const int64_t v = r->data[r->at++];
    if (v < low || v > high) {
        *r->why = what;
        return -1;
    }
    *out = v;
    return 0;
}

#define TAKE(var, low, high, what)                                                                               \
    do {                                                                                                         \
        int64_t v_;                                                                                              \
        if (take(r, (low), (high), "tortuga load: " what " out of its range", &v_) < 0) return -1;             \
        (var) = v_;                                                                                              \
    } while (0)
#define REFUSE(what)                                                                                             \
    do {                                                                                                         \
        *r->why = "tortuga load: " what;                                                                         \
        return -1;                                                                                               \
    } while (0)

/* The loose ranges of counts that only grow: far above any game's, far below any overflow. */
#define COUNT_LIMIT (1 << 24)
#define PUBLIC_LIMIT (1 << 16)
#define LOG_VALUE_LOW (-64)
#define LOG_VALUE_HIGH 10000

/* ``count`` distinct seats into ``seats``; -1 when one repeats. */
static int take_seats(Reader *r, int n, int count, int8_t *seats) {
    unsigned seen = 0;
    for (int i = 0; i < count; i++) {
        TAKE(seats[i], 0, n - 1, "a participant");
        if (seen >> seats[i] & 1) REFUSE("a participant listed twice");
        seen |= 1u << seats[i];
    }
    return 0;
}

static int load_seats(Reader *r, TorState *s, int n, int64_t counts) {
    for (int p = 0; p < n; p++) TAKE(s->nation[p], 0, 2, "nation");
    for (int p = 0; p < n; p++) TAKE(s->role[p], C_ENG, SAILOR, "role");
    for (int p = 0; p < n; p++) TAKE(s->pos[p], 0, TOR_NODES - 1, "pos");
    for (int p = 0; p < n; p++) TAKE(s->exiled[p], 0, 1, "exiled");
    for (int p = 0; p < n; p++) TAKE(s->revealed[p], 0, 1, "revealed");
    for (int p = 0; p < n; p++) TAKE(s->hoard[p], 0, TOR_TOTAL_TREASURE, "hoard");
    for (int p = 0; p < n; p++) TAKE(s->maps[p], 0, TOR_TOTAL_TREASURE, "maps");
    for (int p = 0; p < n; p++) TAKE(s->wild_lock[p], 0, 1, "wild_lock");
    for (int p = 0; p < n; p++) TAKE(s->pub_treasure[p], -PUBLIC_LIMIT, PUBLIC_LIMIT, "pub_treasure");
    for (int p = 0; p < n; p++) TAKE(s->steals_made[p], 0, counts, "steals_made");
    for (int p = 0; p < n; p++) TAKE(s->pub_maps[p], -PUBLIC_LIMIT, PUBLIC_LIMIT, "pub_maps");
    for (int p = 0; p < n; p++) TAKE(s->votes_initiated[p], 0, counts, "votes_initiated");
    for (int p = 0; p < n; p++) TAKE(s->votes_targeting[p], 0, counts, "votes_targeting");
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) TAKE(s->spied[p][q], 0, 1, "spied");
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) TAKE(s->steal_delta[p][q], -TOR_MAX_LEDGER, TOR_MAX_LEDGER, "steal_delta");
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) TAKE(s->map_delta[p][q], -TOR_MAX_LEDGER, TOR_MAX_LEDGER, "map_delta");
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) TAKE(s->yes_by[p][q], 0, counts, "yes_by");
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) TAKE(s->yes_vs[p][q], 0, counts, "yes_vs");
    return 0;
}

static int load_table(Reader *r, TorState *s, int n, int64_t max_rounds) {
    TAKE(s->galleon, 0, TOR_TOTAL_TREASURE, "galleon");
    TAKE(s->supply, 0, TOR_TOTAL_TREASURE, "supply");
    TAKE(s->start, 0, n - 1, "start");
    TAKE(s->active, 0, n - 1, "active");
    TAKE(s->round, 1, max_rounds, "round");
    TAKE(s->phase, MOVE, GAME_OVER, "phase");
    TAKE(s->acted, 0, 1, "acted");
    TAKE(s->end_reason, END_NONE, END_ROUNDS, "end_reason");
    if ((s->phase == GAME_OVER) != (s->end_reason != END_NONE)) REFUSE("end_reason disagrees with phase");
    TAKE(s->deck_len, 0, TOR_DECK_SIZE, "the deck's length");
    int counted[TOR_CARD_TYPES] = {0};
    for (int i = 0; i < s->deck_len; i++) {
        TAKE(s->deck[i], 0, TOR_CARD_TYPES - 1, "deck");
        counted[s->deck[i]]++;
    }
    for (int card = 0; card < TOR_CARD_TYPES; card++) {
        TAKE(s->drawn[card], 0, 3, "drawn");
        if (counted[card] + s->drawn[card] != TOR_CARD_COUNTS[card]) REFUSE("deck/drawn: a card lost or doubled");
    }
    return 0;
}

/* The open vote (TOR-507..509), as _check_pending checks it, and its declarers. */
static int load_vote(Reader *r, TorState *s, int n) {
    TAKE(s->v_open, 0, 1, "vote (None or not)");
    if (s->v_open != (s->phase == VOTE || s->phase == DECLARE))
        REFUSE("vote is open outside VOTE/DECLARE (or missing)");
    if (!s->v_open) return 0;
    const int declare = s->phase == DECLARE;
    TAKE(s->v_type, V_ATTACK, V_BRAWL, "vote.type");
    TAKE(s->v_initiator, 0, n - 1, "vote.initiator");
    TAKE(s->v_target, TOR_NOBODY, n - 1, "vote.target");
    TAKE(s->v_ship, -1, 2, "vote.ship");
    TAKE(s->v_ctx, CTX_ACTION, CTX_EVENT, "vote.ctx");
    TAKE(s->v_idx, declare ? n : 0, declare ? n : n - 1, "vote.idx");
    TAKE(s->v_didx, 0, n - 1, "vote.didx");
    TAKE(s->v_die, -1, CARD_NO, "vote.die");
    TAKE(s->v_nparts, 0, n, "the number of vote.participants");
    if (take_seats(r, n, s->v_nparts, s->v_parts) < 0) return -1;
    for (int p = 0; p < n; p++) TAKE(s->v_cards[p], -1, CARD_WILD, "vote.cards");
    for (int p = 0; p < n; p++) TAKE(s->v_decl[p], -1, CARD_NO, "vote.decl");
    if (s->v_type == V_ATTACK) { /* TOR-520: the Galleon is attacked by its Captain and those on it */
        if (s->v_target != TOR_NOBODY || s->v_ship != -1) REFUSE("vote.target/ship of an attack");
        if (s->v_nparts < 1 || s->v_parts[0] != s->v_initiator) REFUSE("vote.participants of an attack");
    } else {
        if (s->v_target == TOR_NOBODY || s->v_target == s->v_initiator) REFUSE("vote.target: no other seat");
        if ((s->v_ship >= 0) != (s->v_type == V_MUTINY)) REFUSE("vote.ship: only a mutiny names a ship");
        if (s->v_nparts != 0) REFUSE("vote.participants outside an attack");
        if (s->v_type == V_MUTINY && tor_holder(s, n, C_ENG + s->v_ship) != s->v_target)
            REFUSE("vote.target of a mutiny is not the ship's Captain");
    }
    s->v_ndeclarers = 0;
    for (int k = 0; k < n; k++) {
        const int p = (s->v_initiator + k) % n;
        if ((s->v_cards[p] >= 0) != (k < s->v_idx)) REFUSE("vote.cards vs vote.idx");
        if (declare && s->v_cards[p] == CARD_WILD) s->v_declarers[s->v_ndeclarers++] = (int8_t)p;
    }
    if (declare && s->v_didx >= s->v_ndeclarers) REFUSE("vote.didx past the Wild voters (TOR-509)");
    if (!declare && s->v_didx != 0) REFUSE("vote.didx before the reveal");
    unsigned declared = 0;
    for (int i = 0; i < s->v_didx; i++) declared |= 1u << s->v_declarers[i];
    for (int p = 0; p < n; p++)
        if ((s->v_decl[p] >= 0) != (int)(declared >> p & 1)) REFUSE("vote.decl vs vote.didx");
    return 0;
}

static int load_pending(Reader *r, TorState *s, int n) {
    if (load_vote(r, s, n) < 0) return -1;
    TAKE(s->lv_open, 0, 1, "last_vote (None or not)");
    if (s->lv_open) {
        TAKE(s->lv_type, V_ATTACK, V_BRAWL, "last_vote.type");
        TAKE(s->lv_initiator, 0, n - 1, "last_vote.initiator");
        TAKE(s->lv_target, TOR_NOBODY, n - 1, "last_vote.target");
        TAKE(s->lv_passed, 0, 1, "last_vote.passed");
        TAKE(s->lv_die, -1, CARD_NO, "last_vote.die");
        for (int p = 0; p < n; p++) TAKE(s->lv_cards[p], CARD_YES, CARD_WILD, "last_vote.cards");
        for (int p = 0; p < n; p++) TAKE(s->lv_final[p], CARD_YES, CARD_NO, "last_vote.final");
    }
    TAKE(s->lo_open, 0, 1, "loot (None or not)");
    if (s->lo_open != (s->phase == LOOT)) REFUSE("loot is shared outside LOOT (or missing)");
    if (s->lo_open) {
        TAKE(s->lo_captain, 0, n - 1, "loot.captain");
        TAKE(s->lo_dice, 1, 6, "loot.dice");
        TAKE(s->lo_successes, 0, s->lo_dice, "loot.successes");
        TAKE(s->lo_left, 1, s->lo_successes, "loot.left");
        TAKE(s->lo_nparts, 1, n, "the number of loot.participants");
        if (take_seats(r, n, s->lo_nparts, s->lo_parts) < 0) return -1;
        for (int p = 0; p < n; p++) TAKE(s->lo_assigned[p], 0, TOR_TOTAL_TREASURE, "loot.assigned");
    }
    TAKE(s->ev_open, 0, 1, "event (None or not)");
    if (s->ev_open) {
        TAKE(s->ev_card, 0, TOR_CARD_TYPES - 1, "event.card");
        TAKE(s->ev_target, TOR_NOBODY, n - 1, "event.target");
    }
    const int phase = s->phase;
    if ((phase == EXTRA_MOVE || phase == CURRENT_TARGET || phase == CURRENT_DEST || phase == MUTINY_SHIP ||
         phase == BRAWL_TARGET || phase == SPY_TARGET || phase == MAP_RECIPIENT) &&
        !s->ev_open)
        REFUSE("event missing in an event phase");
    if (phase == CURRENT_DEST && s->ev_target == TOR_NOBODY) REFUSE("event.target missing in CURRENT_DEST");
    return 0;
}

/* The log and the ledger, replayed to the hoards, maps and per-pair deltas (_check_ledger). */
static int load_records(Reader *r, TorState *s, int n) {
    TAKE(s->log_len, 0, TOR_LOG_LENGTH, "the log's length");
    for (int i = 0; i < s->log_len; i++) {
        TorLogItem *item = &s->log[i];
        TAKE(item->kind, 0, TOR_LOG_TYPES - 1, "log (kind)");
        TAKE(item->actor, 0, n - 1, "log (actor)");
        TAKE(item->target, TOR_NOBODY, n - 1, "log (target)");
        TAKE(item->node, -1, TOR_NODES - 1, "log (node)");
        TAKE(item->card, -1, TOR_CARD_TYPES - 1, "log (card)");
        TAKE(item->value, LOG_VALUE_LOW, LOG_VALUE_HIGH, "log (value)");
        TAKE(item->secret, -1, TOR_MAX_LEDGER - 1, "log (ledger index)");
    }
    /* a game adds at most TOR_LEDGER_PER_TURN entries a turn (tor_engine.h) */
    const int played = (s->round - 1) * n + (s->active - s->start + n) % n;
    TAKE(s->ledger_len, 0, TOR_LEDGER_PER_TURN * (played + 1), "the ledger's length (for the turns played)");
    int hoard[TOR_MAX_PLAYERS] = {0}, maps[TOR_MAX_PLAYERS] = {0};
    int32_t steal_delta[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS] = {{0}}, map_delta[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS] = {{0}};
    for (int i = 0; i < s->ledger_len; i++) {
        TorEntry *e = &s->ledger[i];
        TAKE(e->kind, L_GAIN, L_MAP_GIVE, "ledger (kind)");
        TAKE(e->seat, 0, n - 1, "ledger (seat)");
        TAKE(e->cands, 0, (1 << n) - 1, "ledger (candidates)");
        TAKE(e->other, TOR_NOBODY, n - 1, "ledger (victim or receiver)");
        TAKE(e->amount, -1, TOR_TOTAL_TREASURE, "ledger (amount)");
        const int kind = e->kind, seat = e->seat, other = e->other, amount = e->amount;
        const unsigned cands = e->cands, self = 1u << seat;
        if (kind == L_STEAL || kind == L_MAP_GIVE) {
            if (cands & self) REFUSE("ledger: a candidate is the thief or the giver");
            if (other != TOR_NOBODY && !(cands >> other & 1)) REFUSE("ledger: the victim or receiver is no candidate");
        } else if (cands != 0 || other != TOR_NOBODY) {
            REFUSE("ledger: candidates or a victim in a public entry");
        }
        switch (kind) {
        case L_GAIN:
            if (amount < 0) REFUSE("ledger (gain) below 0");
            hoard[seat] += amount;
            break;
        case L_LOSS:
            if (amount > 0) REFUSE("ledger (loss) above 0");
            hoard[seat] += amount;
            break;
        case L_STEAL:
            if (other == TOR_NOBODY || amount < 0 || amount > 1) REFUSE("ledger (steal)");
            hoard[other] -= amount;
            hoard[seat] += amount;
            steal_delta[seat][other] += amount;
            steal_delta[other][seat] -= amount;
            break;
        case L_MAP_PUBLIC:
            if (amount != 0) REFUSE("ledger (map) with an amount");
            maps[seat]++;
            break;
        default: /* L_MAP_GIVE */
            if (amount != 0) REFUSE("ledger (map gift) with an amount");
            if (other != TOR_NOBODY) {
                maps[seat]--;
                maps[other]++;
                map_delta[other][seat]++;
                map_delta[seat][other]--;
            }
            break;
        }
        for (int p = 0; p < n; p++)
            if (hoard[p] < 0 || maps[p] < 0) REFUSE("ledger: an entry spends what its seat lacks");
    }
    for (int p = 0; p < n; p++) {
        if (hoard[p] != s->hoard[p] || maps[p] != s->maps[p]) REFUSE("hoard / maps disagree with the ledger");
        for (int q = 0; q < n; q++)
            if (steal_delta[p][q] != s->steal_delta[p][q] || map_delta[p][q] != s->map_delta[p][q])
                REFUSE("steal_delta / map_delta disagree with the ledger");
    }
    for (int i = 0; i < s->log_len; i++) {
        const TorLogItem *item = &s->log[i];
        if (item->secret >= s->ledger_len) REFUSE("log (ledger index) past the ledger");
        if (item->secret >= 0) {
            const TorEntry *steal = &s->ledger[item->secret];
            if (steal->kind != L_STEAL || item->target != steal->other || item->value != steal->amount)
                REFUSE("log: a secret steal's entry disagrees with the ledger");
        }
    }
    return 0;
}

/* State.check_invariants' cross checks, and what the rules rely on. */
static int check_position(Reader *r, const NeConfig *cfg, TorState *s) {
    const int n = cfg->num_players;
    int hoards = 0, maps = 0, pub_maps = 0, nations[3] = {0, 0, 0}, occupancy[TOR_NODES] = {0};
    int holders[SAILOR] = {0};
    for (int p = 0; p < n; p++) {
        hoards += s->hoard[p];
        maps += s->maps[p];
        pub_maps += s->pub_maps[p];
        nations[s->nation[p]]++;
        occupancy[s->pos[p]]++;
        if (s->role[p] < SAILOR) holders[s->role[p]]++;
        if (s->exiled[p] && s->role[p] != SAILOR) REFUSE("an exiled seat holds a role");
        int32_t own = s->pub_treasure[p], own_maps = s->pub_maps[p];
        for (int q = 0; q < n; q++) {
            own += s->steal_delta[p][q];
            own_maps += s->map_delta[p][q];
        }
        if (own != s->hoard[p]) REFUSE("TOR-1004 own_hoard invariant");
        if (own_maps != s->maps[p]) REFUSE("TOR-1004 own_maps invariant");
    }
    if (s->galleon + s->supply + hoards + (s->lo_open ? s->lo_left : 0) != TOR_TOTAL_TREASURE)
        REFUSE("TOR-545 conservation");
    const int pending = s->phase == MAP_RECIPIENT;
    if (maps != pub_maps || maps != s->drawn[TREASURE_MAP] - pending) REFUSE("map conservation");
    for (int node = 0; node < TOR_NODES; node++)
        if (occupancy[node] > TOR_CAPACITY[node]) REFUSE("a node over capacity");
    for (int role = 0; role < SAILOR; role++)
        if (holders[role] > 1) REFUSE("a role held twice");
    for (int ship = 0; ship < 3; ship++)
        if (!holders[C_ENG + ship] && holders[FM_ENG + ship]) REFUSE("a First Mate without a Captain");
    for (int nat = 0; nat < 3; nat++)
        if (nations[nat] != TOR_NATIONS[n][nat]) REFUSE("the nations dealt are not those of the player count");
    if (s->phase == MAP_GIVE && s->maps[s->active] < 1) REFUSE("MAP_GIVE without a map to give");
    if (s->phase != GAME_OVER) {
        int32_t legal[TOR_MAX_ACTIONS];
        if (tor_legal(cfg, s, legal) < 1) REFUSE("a running game without a legal action");
    }
    return 0;
}

int tor_load(const NeConfig *cfg, void *vst, const int64_t *data, int size, const char **why) {
    TorState *s = vst;
    const int n = cfg->num_players;
    Reader reader = {data, size, 0, why}, *r = &reader;
    const int64_t counts = cfg->max_decisions < COUNT_LIMIT ? cfg->max_decisions : COUNT_LIMIT;
    if (load_seats(r, s, n, counts) < 0 || load_table(r, s, n, cfg->options[O_MAX_ROUNDS]) < 0 ||
        load_pending(r, s, n) < 0 || load_records(r, s, n) < 0)
        return -1;
    if (r->at != size) REFUSE("the dump is longer than the state");
    return check_position(r, cfg, s);
}
