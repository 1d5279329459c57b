/* Dead Man's Draw's compiled engine (dmd_engine), what a seat sees and decides: the observation (the twin of
 * ObservationEncoder.encode_python, pirate_envs/games/dead_mans_draw/observation.py), the heuristic bot's decision
 * and the action features from that observation (bot_core.c, shared with the twins dmd_act / dmd_features), and
 * resample_hidden (DmdState._resample_hidden). Pure C over the state struct (dmd_engine.h).
 */
#include "games/dead_mans_draw/native/bot_core.h"
#include "games/dead_mans_draw/native/dmd_engine.h"

/* ---- the observation's fields (observation.field_specs, DMD-1060..1087) ------------------------------------------ */

typedef struct {
    int phase, active_player, my_collection, row_cards, row_position, marker_position, row_hook_protected,
        discard_pile, draw_pile_cards, draw_pile_size, known_top, my_dealt_abilities, abilities, locker_target,
        scores, eliminated, config, forced_draws, offer_cards, miser_first_suit, plunder_target, plunder_remaining,
        turns_taken_busts, last_turn_player, last_turn_cards, last_turn_busted, decision_progress, size;
} Layout;

static Layout layout(int n) {
    Layout L;
    int at = 0;
#define FIELD(name, size)                                                                                          \
    L.name = at;                                                                                                   \
    at += (size)
    FIELD(phase, 12);
    FIELD(active_player, n);
    FIELD(my_collection, DMD_CARDS * n); /* opp_collections follows by offset */
    FIELD(row_cards, DMD_CARDS);
    FIELD(row_position, DMD_CARDS);
    FIELD(marker_position, 1);
    FIELD(row_hook_protected, DMD_CARDS);
    FIELD(discard_pile, DMD_CARDS);
    FIELD(draw_pile_cards, DMD_CARDS);
    FIELD(draw_pile_size, 1);
    FIELD(known_top, 3 * DMD_CARDS);
    FIELD(my_dealt_abilities, DMD_ABILITIES);
    FIELD(abilities, DMD_ABILITIES * n);
    FIELD(locker_target, n);
    FIELD(scores, n);
    FIELD(eliminated, n);
    FIELD(config, 10);
    FIELD(forced_draws, 1);
    FIELD(offer_cards, DMD_CARDS);
    FIELD(miser_first_suit, DMD_SUITS);
    FIELD(plunder_target, n - 1);
    FIELD(plunder_remaining, 1);
    FIELD(turns_taken_busts, 2 * n);
    FIELD(last_turn_player, n);
    FIELD(last_turn_cards, DMD_CARDS);
    FIELD(last_turn_busted, 1);
    FIELD(decision_progress, 1);
#undef FIELD
    L.size = at;
    return L;
}

#define ROW_SCALE 12.0
#define DECK_SCALE 60.0
#define SCORE_SCALE 100.0
#define PLUNDER_SCALE 20.0
#define FORCED_DRAW_MAX 8.0

static inline int offset_of(int seat, int t, int n) { return ((t - seat) % n + n) % n; }

void dmd_observe(const NeConfig *cfg, const void *state, int seat, float *out) {
    const DmdState *st = (const DmdState *)state;
    const int n = cfg->num_players;
    const Layout L = layout(n);
    memset(out, 0, sizeof(float) * (size_t)cfg->obs_size);
    const int phase = st->phase;
    if (phase != GAME_OVER) {
        if (st->decider == seat) out[L.phase + phase] = 1.0f;
        out[L.active_player + offset_of(seat, st->active, n)] = 1.0f;
    }
    /* collections (DMD-1062, 1063) */
    for (int k = 0; k < n; k++) {
        float *field = out + L.my_collection + DMD_CARDS * k;
        for (uint64_t m = st->coll[(seat + k) % n]; m; m &= m - 1) field[__builtin_ctzll(m)] = 1.0f;
    }
    for (int i = 0; i < st->n_discard; i++) out[L.discard_pile + st->discard[i]] = 1.0f;
    for (int i = 0; i < st->n_draw; i++) out[L.draw_pile_cards + st->draw[i]] = 1.0f;
    if (st->n_row) {
        uint64_t row = 0;
        for (int i = 0; i < st->n_row; i++) {
            int c = st->row[i];
            if (c >= 0) {
                out[L.row_cards + c] = 1.0f;
                out[L.row_position + c] = (float)((double)(i + 1) / ROW_SCALE);
                row |= 1ULL << c;
            } else {
                out[L.marker_position] = (float)((double)(i + 1) / ROW_SCALE);
            }
        }
        for (int i = 0; i < st->n_hook; i++) {
            int c = st->hook_protected[i];
            if ((row >> c) & 1) out[L.row_hook_protected + c] = 1.0f;
        }
    }
    if (st->n_known[seat]) { /* DMD-1071 */
        for (int depth = 0; depth < 3 && depth < st->n_draw; depth++) {
            int c = st->draw[st->n_draw - 1 - depth];
            for (int i = 0; i < st->n_known[seat]; i++)
                if (st->known[seat][i] == c) out[L.known_top + DMD_CARDS * depth + c] = 1.0f;
        }
    }
    /* abilities (DMD-1072, 1073; DMD-1012 e) */
    for (int i = 0; i < st->n_dealt[seat]; i++) out[L.my_dealt_abilities + st->dealt[seat][i]] = 1.0f;
    if (st->revealed) {
        for (int k = 0; k < n; k++) {
            int a = st->kept[(seat + k) % n];
            if (a >= 0) out[L.abilities + DMD_ABILITIES * k + a] = 1.0f;
        }
    } else if (st->kept[seat] >= 0) {
        out[L.abilities + st->kept[seat]] = 1.0f;
    }
    if (st->locker_target >= 0) out[L.locker_target + offset_of(seat, st->locker_target, n)] = 1.0f;
    for (int k = 0; k < n; k++)
        if (st->eliminated[(seat + k) % n]) out[L.eliminated + k] = 1.0f;
    /* config (DMD-1077): the variant card, then mermaid_variant, characters, starting_discard at 7, 8, 9 */
    if (cfg->options[O_MERMAID_VARIANT]) out[L.config + 7] = 1.0f;
    if (cfg->options[O_CHARACTERS]) out[L.config + 8] = 1.0f;
    if (cfg->options[O_STARTING_DISCARD]) out[L.config + 9] = 1.0f;
    out[L.config + st->variant] = 1.0f;
    /* the decision's offered cards (DMD-1079; DMD-1012 b, d) */
    if (phase == MAP_PICK || phase == LOCKER_ACCEPT) {
        for (int i = 0; i < st->n_offer; i++) out[L.offer_cards + st->offer[i]] = 1.0f;
    } else if (phase == MERMAID_PICK || phase == RAKE_PICK) {
        for (int c = 0; c < DMD_CARDS; c++)
            if (dmd_has_choice(st, A_CARD + c)) out[L.offer_cards + c] = 1.0f;
    }
    /* Miser's first suit (DMD-1080, DMD-1012 h) and the pending forced draws (DMD-1078) */
    int s1 = st->hook_s1, forced = 0;
    for (int i = st->n_tasks - 1; i >= 0; i--) {
        if (st->task_kind[i] == FORCED_DRAW) forced += st->task_arg[i];
        if (st->task_kind[i] == SECOND_HOOK && s1 < 0) s1 = st->task_arg[i];
    }
    if (s1 >= 0) out[L.miser_first_suit + s1] = 1.0f;
    if (st->plunder_target >= 0) out[L.plunder_target + offset_of(seat, st->plunder_target, n) - 1] = 1.0f;
    if (st->last_turn_player >= 0) {
        out[L.last_turn_player + offset_of(seat, st->last_turn_player, n)] = 1.0f;
        for (int i = 0; i < st->n_last; i++) out[L.last_turn_cards + st->last_turn_cards[i]] = 1.0f;
        if (st->last_turn_busted) out[L.last_turn_busted] = 1.0f;
    }
    /* the fractional entries */
    out[L.draw_pile_size] = (float)((double)st->n_draw / DECK_SCALE);
    for (int k = 0; k < n; k++) {
        int t = (seat + k) % n;
        out[L.scores + k] = (float)((double)dmd_live_score(st->variant, st->coll[t]) / SCORE_SCALE);
        if (st->turns_taken[t]) {
            out[L.turns_taken_busts + k] = (float)((double)st->turns_taken[t] / DECK_SCALE);
            if (st->busts[t]) out[L.turns_taken_busts + n + k] = (float)((double)st->busts[t] / DECK_SCALE);
        }
    }
    if (st->n_tasks) out[L.forced_draws] = (float)((double)forced / FORCED_DRAW_MAX);
    if (st->plunder_remaining) out[L.plunder_remaining] = (float)((double)st->plunder_remaining / PLUNDER_SCALE);
    out[L.decision_progress] = (float)((double)st->h.decisions / (double)cfg->max_decisions);
}

/* ---- Section 9: determinisation (DmdState._resample_hidden) ------------------------------------------------------- */

void dmd_resample_hidden(const NeConfig *cfg, void *state, int seat, SplitMix *source) {
    DmdState *st = (DmdState *)state;
    const int n = cfg->num_players, size = st->n_draw;
    /* the draw pile: seat's peeks stay, the rest is redrawn; the others' peeks follow their positions */
    uint64_t mine = 0, loose_set = 0;
    for (int i = 0; i < st->n_known[seat]; i++) mine |= 1ULL << st->known[seat][i];
    int positions[DMD_PLAYERS][3];
    for (int t = 0; t < n; t++)
        for (int i = 0; i < st->n_known[t]; i++) {
            positions[t][i] = 0;
            for (int j = 0; j < size; j++)
                if (st->draw[j] == st->known[t][i]) {
                    positions[t][i] = j;
                    break;
                }
        }
    for (int i = 0; i < size; i++)
        if (!((mine >> st->draw[i]) & 1)) loose_set |= 1ULL << st->draw[i];
    int8_t loose[DMD_CAP];
    int n_loose = 0;
    for (uint64_t m = loose_set; m; m &= m - 1) loose[n_loose++] = (int8_t)__builtin_ctzll(m);
    sm_shuffle_i8(source, loose, n_loose);
    for (int i = 0, next = 0; i < size; i++)
        if (!((mine >> st->draw[i]) & 1)) st->draw[i] = loose[next++];
    for (int t = 0; t < n; t++)
        if (t != seat)
            for (int i = 0; i < st->n_known[t]; i++) st->known[t][i] = st->draw[positions[t][i]];
    /* the discard pile's order */
    uint64_t discard = 0;
    for (int i = 0; i < st->n_discard; i++) discard |= 1ULL << st->discard[i];
    int k = 0;
    for (uint64_t m = discard; m; m &= m - 1) st->discard[k++] = (int8_t)__builtin_ctzll(m);
    sm_shuffle_i8(source, st->discard, st->n_discard);
    if (!cfg->options[O_CHARACTERS]) return;
    /* the ability cards seat has not seen (DMD-910..912) */
    uint64_t seen = 0;
    for (int i = 0; i < st->n_dealt[seat]; i++)
        if (st->dealt[seat][i] >= 0) seen |= 1ULL << st->dealt[seat][i];
    if (st->revealed)
        for (int t = 0; t < n; t++)
            if (st->kept[t] >= 0) seen |= 1ULL << st->kept[t];
    const int pool = cfg->options[O_MERMAID_VARIANT] ? DMD_ABILITIES : DMD_ABILITIES - 1;
    int8_t unseen[DMD_ABILITIES + 2];
    int n_unseen = 0;
    for (int a = 0; a < pool; a++)
        if (!((seen >> a) & 1)) unseen[n_unseen++] = (int8_t)a;
    sm_shuffle_i8(source, unseen, n_unseen);
    for (int t = 0; t < n; t++) {
        if (t == seat) continue;
        if (st->revealed) {
            if (n_unseen < 1) return;
            int8_t x = st->kept[t], y = unseen[--n_unseen];
            st->dealt[t][0] = x < y ? x : y;
            st->dealt[t][1] = x < y ? y : x;
        } else {
            if (n_unseen < 2) return;
            int8_t x = unseen[--n_unseen];
            int8_t y = unseen[--n_unseen];
            st->dealt[t][0] = x < y ? x : y;
            st->dealt[t][1] = x < y ? y : x;
            if (st->kept[t] >= 0) st->kept[t] = st->dealt[t][sm_randrange(source, 2)];
        }
        st->n_dealt[t] = 2;
    }
    if (st->phase == ABILITY_CHOICE && st->decider != seat) {
        /* the decider picks from its redrawn pair (DMD-910) */
        st->choices[0] = st->choices[1] = 0;
        for (int i = 0; i < st->n_dealt[st->decider]; i++) {
            int a = A_ABILITY + st->dealt[st->decider][i];
            st->choices[a >> 6] |= 1ULL << (a & 63);
        }
    }
}

/* ---- the heuristic bot and the action features (bot_core.c) --------------------------------------------------------- */

/* HeuristicPolicy.native_spec for this player count: the field offsets, the constants and the tables. */
static void bot_spec(Dmd *d, int n) {
    static const unsigned char rank[DMD_ABILITIES] = {6, 7, 4, 5, 2, 9, 6, 7, 8, 10, 6, 5, 5, 6, 8, 5, 7, 6};
    const Layout L = layout(n);
    long *sp = d->sp;
    sp[B_SIZE] = L.size;
    sp[B_N] = n;
    sp[B_PHASE] = L.phase;
    sp[B_NUM_PHASES] = 12;
    sp[B_CONFIG] = L.config;
    sp[B_NUM_VARIANTS] = 7;
    sp[B_MY_COLLECTION] = L.my_collection;
    sp[B_ROW_CARDS] = L.row_cards;
    sp[B_ROW_POSITION] = L.row_position;
    sp[B_MARKER_POSITION] = L.marker_position;
    sp[B_DRAW_PILE] = L.draw_pile_cards;
    sp[B_KNOWN_TOP] = L.known_top;
    sp[B_SCORES] = L.scores;
    sp[B_ELIMINATED] = L.eliminated;
    sp[B_NUM_CARDS] = DMD_CARDS;
    sp[B_NUM_SUITS] = DMD_SUITS;
    sp[B_ANCHOR] = ANCHOR;
    sp[B_CHEST] = CHEST;
    sp[B_KEY] = KEY;
    sp[B_MERMAID] = MERMAID;
    sp[B_GRAND_SLAM] = GRAND_SLAM;
    sp[B_SUDDEN_DEATH] = SUDDEN_DEATH;
    sp[B_UNCHARTED_WATERS] = UNCHARTED_WATERS;
    sp[B_PIRI_REIS] = PIRI_REIS;
    sp[B_UNDERTOW] = UNDERTOW;
    sp[B_ABILITY_CHOICE] = ABILITY_CHOICE;
    sp[B_LOCKER_TARGET] = LOCKER_TARGET;
    sp[B_DRAW_OR_STOP] = DRAW_OR_STOP;
    sp[B_CANNON_TARGET] = CANNON_TARGET;
    sp[B_NAVIGATOR_SELF] = NAVIGATOR_SELF;
    sp[B_SWORD_TARGET] = SWORD_TARGET;
    sp[B_HOOK_SUIT] = HOOK_SUIT;
    sp[B_MAP_PICK] = MAP_PICK;
    sp[B_MERMAID_PICK] = MERMAID_PICK;
    sp[B_RAKE_PICK] = RAKE_PICK;
    sp[B_PLUNDER_PICK] = PLUNDER_PICK;
    sp[B_LOCKER_ACCEPT] = LOCKER_ACCEPT;
    sp[B_NUM_ACTIONS] = dmd_num_actions(n);
    sp[B_STOP] = A_STOP;
    sp[B_DRAW] = A_DRAW;
    sp[B_OWN_SUIT_BASE] = A_OWN_SUIT;
    sp[B_CARD_BASE] = A_CARD;
    sp[B_ABILITY_BASE] = A_ABILITY;
    sp[B_NUM_ABILITIES] = DMD_ABILITIES;
    sp[B_ACCEPT] = A_ACCEPT;
    sp[B_LOCKER_TARGET_BASE] = A_LOCKER_TARGET;
    sp[B_TARGET_BASE] = dmd_target_base(n);
    for (int c = 0; c < DMD_CARDS; c++) {
        d->suit[c] = (unsigned char)DMD_CARD_SUIT[c];
        d->value[c] = (unsigned char)DMD_CARD_VALUE[c];
    }
    memcpy(d->rank, rank, sizeof rank);
    /* heuristic.ABILITY_BONUS and its halves */
    for (int s = 0; s < DMD_SUITS; s++) d->bonus[s] = 0.0;
    d->bonus[SWORD] = 2.5;
    d->bonus[CANNON] = 1.5;
    d->bonus[MAP] = 1.5;
    d->bonus[ORACLE] = 0.5;
    d->bonus[HOOK] = 0.5;
    d->bonus[KRAKEN] = -2.5;
    for (int s = 0; s < DMD_SUITS; s++) d->half_pull[s] = d->bonus[s] * 0.5;
}

#define OBS_MAX (675 + 88 * DMD_PLAYERS)

int dmd_heuristic(const NeConfig *cfg, const void *state, SplitMix *rng) {
    const DmdState *st = (const DmdState *)state;
    float obs[OBS_MAX];
    int legal[128];
    int n_legal = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t m = st->choices[w]; m; m &= m - 1) legal[n_legal++] = 64 * w + __builtin_ctzll(m);
    if (n_legal == 1) return legal[0];
    dmd_observe(cfg, st, st->decider, obs);
    Dmd d;
    const char *why = NULL;
    d.why = &why;
    bot_spec(&d, cfg->num_players);
    dmd_read(&d, obs, legal, n_legal);
    long action = -1;
    if (dmd_bot_decide(&d, 0.0, &action) < 0 || action < 0) /* the Python bot's random pick */
        return legal[sm_randrange(rng, (uint64_t)n_legal)];
    return (int)action;
}

int dmd_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out) {
    const int na = cfg->num_actions;
    memset(out, 0, sizeof(float) * (size_t)na * DMD_NUM_FEATURES);
    int legal[128];
    int n_legal = 0;
    for (int a = 0; a < na; a++)
        if (mask[a]) legal[n_legal++] = a;
    Dmd d;
    const char *why = NULL;
    d.why = &why;
    bot_spec(&d, cfg->num_players);
    dmd_read(&d, obs, legal, n_legal);
    if (dmd_bot_features(&d, out, 0.1) < 0) { /* an observation the features cannot read */
        memset(out, 0, sizeof(float) * (size_t)na * DMD_NUM_FEATURES);
        return -1;
    }
    return 0;
}
