/* Madame Ching's heuristic bot (madame_ching/heuristic.py, HeuristicPolicy.act) over one seat's observation and
 * action mask: mch_heuristic_decide reads nothing else, as the Python bot; mch_heuristic (the engine's entry)
 * builds the acting seat's observation and mask from the state and asks it. The Python bot never draws at
 * random: every tie goes to the first candidate in its order (max/min keep the first best), as here. The
 * Thief's target compares float32 sums (numpy float32 scalars times Python ints), computed here in float.
 */
#include "games/madame_ching/native/mch.h"

#define END_COLUMN 6 /* HeuristicPolicy(end_column=6) */

/* heuristic.TILE_VP: the tile's tokens in VP, 1.5 per encounter draw */
static double tile_vp(int tile) {
    const int8_t *w = MCH_MISSION_REWARD[tile];
    double vp = 0.0;
    for (int i = 0; i < 4; i++) vp += (double)(w[i] * MCH_TOKEN_VP[i]);
    return vp + 1.5 * (double)w[4];
}

typedef struct {
    const float *obs;
    MchLayout L;
    int P, B;
    int32_t legal[MCH_NUM_ACTIONS];
    int nlegal;
} Bot;

/* HeuristicPolicy._boat: expedition i's cards (ascending) into cards, their count; column and row. */
static int read_boat(const Bot *bot, int i, int *cards, int *col, int *row) {
    const float *blk = bot->obs + bot->L.expeditions + 77 * i;
    int k = 0;
    *col = 0;
    *row = 0;
    for (int j = 0; j < 55; j++)
        if (blk[j] != 0.0f) cards[k++] = j + 1;
    for (int j = 0; j < 9; j++)
        if (blk[55 + j] != 0.0f) *col = j; /* the last non-zero entries, as the Python unpacking */
    for (int j = 0; j < 8; j++)
        if (blk[64 + j] != 0.0f) *row = j;
    return k;
}

/* HeuristicPolicy._hand: the own hand, ascending; its size. */
static int read_hand(const Bot *bot, int *hand) {
    int k = 0;
    for (int j = 0; j < 55; j++)
        if (bot->obs[bot->L.own_hand + j] != 0.0f) hand[k++] = j + 1;
    return k;
}

static int active_own_boat(const Bot *bot) {
    for (int i = 0; i < (bot->P == 2 ? 2 : 1); i++)
        if (bot->obs[bot->L.boat_flags + 2 * i + 1] > 0.5f) return i;
    return 0;
}

static int colour_change(int c, int last) { return MCH_COLOUR[c] != MCH_COLOUR[last]; }

/* HeuristicPolicy._select */
static int select_card(const Bot *bot) {
    const float *sb = bot->obs + bot->L.select_boat;
    int boat = sb[1] > sb[0] ? 1 : 0; /* argmax: the first of equal values */
    int cards[55], col, row, len = read_boat(bot, boat, cards, &col, &row);
    int lowest = bot->legal[0] + 1; /* legal: the hand's cards ascending */
    if (!len) return lowest - 1;
    int last = cards[len - 1], lowest_lower = 0, any_higher = 0;
    for (int i = 0; i < bot->nlegal; i++) {
        int c = bot->legal[i] + 1;
        if (c > last) any_higher = 1;
        if (c < last && !lowest_lower) lowest_lower = c;
    }
    if (col == 8 || !any_higher) return lowest - 1;
    int v = col * row, reached = 0, top = 0;
    for (int t = 0; t < MCH_MISSIONS; t++) {
        if (!(bot->obs[bot->L.missions + t] > 0.5f)) continue;
        int number = MCH_MISSION_NUMBER[t];
        if (number <= v && number > reached) reached = number;
        if (number > top) top = number;
    }
    if (lowest_lower && reached && (reached == top || col >= END_COLUMN)) return lowest_lower - 1;
    int best = -1;
    double best_merit = 0.0;
    for (int i = 0; i < bot->nlegal; i++) {
        int c = bot->legal[i] + 1;
        if (c <= last) continue;
        double merit = 12.0 * colour_change(c, last) - (double)(c - last);
        if (best < 0 || merit > best_merit) {
            best = c;
            best_merit = merit;
        }
    }
    return best - 1;
}

/* HeuristicPolicy._take */
static int take_slot(const Bot *bot) {
    int lasts[2], nlasts = bot->P == 2 ? 2 : 1;
    for (int i = 0; i < nlasts; i++) {
        int cards[55], col, row, len = read_boat(bot, i, cards, &col, &row);
        lasts[i] = len ? cards[len - 1] : 0;
    }
    int hand[55], nhand = read_hand(bot, hand), low_in_hand = 0;
    for (int i = 0; i < nhand; i++) low_in_hand |= hand[i] <= 8;
    int best = bot->legal[0];
    double best_score = -1e9;
    for (int i = 0; i < bot->nlegal; i++) {
        int a = bot->legal[i], slot = a - A_SLOT;
        double score;
        if (slot == 0) {
            score = 1.5;
        } else {
            const float *cells = bot->obs + bot->L.display + 57 * slot;
            int arg = 0;
            for (int j = 1; j < 55; j++)
                if (cells[j] > cells[arg]) arg = j;
            int card = arg + 1;
            score = 1.0;
            for (int k = 0; k < nlasts; k++) {
                int last = lasts[k];
                if (last < card && card <= last + 12) {
                    double s = 3.0 + colour_change(card, last);
                    if (s > score) score = s;
                }
            }
            if (card <= 8 && !low_in_hand && 2.5 > score) score = 2.5;
        }
        if (score > best_score) {
            best = a;
            best_score = score;
        }
    }
    return best;
}

/* HeuristicPolicy._pick_skill: min by (Elite last, fewest owned of the kind, lowest action) */
static int pick_skill(const Bot *bot) {
    const float *k = bot->obs + bot->L.skills;
    int best = -1;
    double best_owned = 0.0;
    for (int i = 0; i < bot->nlegal; i++) {
        int a = bot->legal[i];
        int elite = a == A_SKILL + ELITE;
        double owned = a < A_TARGET ? (double)k[a - A_SKILL] + (double)k[5 + a - A_SKILL] : 9.0;
        if (best < 0) {
            best = a;
            best_owned = owned;
            continue;
        }
        int best_elite = best == A_SKILL + ELITE;
        if (elite < best_elite || (elite == best_elite && owned < best_owned)) { /* legal ascending: ties keep */
            best = a;
            best_owned = owned;
        }
    }
    return best;
}

/* HeuristicPolicy._target "thief": the opponent richest in gem VP (float32 sums) */
static int thief_target(const Bot *bot) {
    int best = -1;
    float best_vp = 0.0f;
    for (int i = 0; i < bot->nlegal; i++) {
        int a = bot->legal[i];
        const float *t = bot->obs + bot->L.tokens + 4 * (a - A_TARGET);
        float vp = 0.0f;
        vp = vp + t[1] * 2.0f;
        vp = vp + t[2] * 3.0f;
        vp = vp + t[3] * 4.0f;
        if (best < 0 || vp > best_vp) {
            best = a;
            best_vp = vp;
        }
    }
    return best;
}

/* HeuristicPolicy._target "spy": the opponent with the most encounter cards */
static int spy_target(const Bot *bot) {
    int best = -1;
    float best_size = 0.0f;
    for (int i = 0; i < bot->nlegal; i++) {
        int a = bot->legal[i];
        float size = bot->obs[bot->L.hand_sizes + 2 * (a - A_TARGET)];
        if (best < 0 || size > best_size) {
            best = a;
            best_size = size;
        }
    }
    return best;
}

/* HeuristicPolicy._siren: the most advanced opponent boat (column x row) */
static int siren_target(const Bot *bot) {
    int best = -1, best_progress = 0;
    for (int i = 0; i < bot->nlegal; i++) {
        int a = bot->legal[i], o = a - A_TARGET;
        int cards[55], col, row;
        read_boat(bot, bot->P == 2 ? 1 + o : o, cards, &col, &row);
        if (best < 0 || col * row > best_progress) {
            best = a;
            best_progress = col * row;
        }
    }
    return best;
}

static int night_sail(const Bot *bot) {
    int cards[55], col, row, len = read_boat(bot, active_own_boat(bot), cards, &col, &row);
    int hand[55], nhand = read_hand(bot, hand), keep_low = 0, any_option = 0;
    for (int i = 0; i < nhand; i++) keep_low |= len && hand[i] < cards[len - 1];
    for (int i = 0; i < bot->nlegal; i++) any_option |= bot->legal[i] < 55;
    if (col <= END_COLUMN - 1 && any_option && (keep_low || nhand > 2) && len) { /* len: Python's cards[-1] */
        int last = cards[len - 1], best = -1, best_key = 0;
        for (int i = 0; i < bot->nlegal; i++) {
            int a = bot->legal[i];
            if (a >= 55) continue;
            int key = (a + 1 - last) - 12 * colour_change(a + 1, last);
            if (best < 0 || key < best_key) {
                best = a;
                best_key = key;
            }
        }
        return best;
    }
    return A_PASS;
}

static int salvage(const Bot *bot) {
    int cards[55], col, row, len = read_boat(bot, active_own_boat(bot), cards, &col, &row);
    int last = len ? cards[len - 1] : 0;
    for (int i = 0; i < bot->nlegal; i++) /* legal ascending: the first above is the smallest */
        if (bot->legal[i] + 1 > last) return bot->legal[i];
    return bot->legal[0];
}

static int is_legal(const Bot *bot, int a) {
    for (int i = 0; i < bot->nlegal; i++)
        if (bot->legal[i] == a) return 1;
    return 0;
}

int mch_heuristic_decide(int P, int B, const float *obs, const int8_t *mask) {
    Bot bot;
    bot.obs = obs;
    bot.P = P;
    bot.B = B;
    bot.L = mch_layout(P, B);
    bot.nlegal = 0;
    for (int a = 0; a < MCH_NUM_ACTIONS; a++)
        if (mask[a]) bot.legal[bot.nlegal++] = a;
    if (bot.nlegal == 0) return -1;
    if (bot.nlegal == 1) return bot.legal[0];
    int phase = 0;
    for (int i = 1; i < MCH_NUM_PHASES; i++)
        if (obs[i] > obs[phase]) phase = i;
    switch (phase) {
    case PH_SELECT: return select_card(&bot);
    case PH_TAKE: return take_slot(&bot);
    case PH_WEATHER: return A_USE_WEATHER;
    case PH_CARTO: return A_USE_CARTOGRAPHY;
    case PH_NIGHT_SAIL: return night_sail(&bot);
    case PH_MISSION_CHOOSE: {
        int best = -1;
        double best_vp = 0.0;
        for (int i = 0; i < bot.nlegal; i++) {
            double vp = tile_vp(bot.legal[i] - A_MISSION);
            if (best < 0 || vp > best_vp) {
                best = bot.legal[i];
                best_vp = vp;
            }
        }
        return best;
    }
    case PH_SKILL_CLAIM:
    case PH_MC_SKILL: return pick_skill(&bot);
    case PH_ACTION: {
        /* Negotiator, Thief, Madame Ching, Oracle, Salvager, Spy, Siren */
        static const int order[7] = {A_PLAY_ENC + NEGOTIATOR, A_PLAY_ENC + THIEF, A_PLAY_ENC + MADAME_CHING,
                                     A_PLAY_ENC + ORACLE, A_PLAY_ENC + SALVAGER, A_PLAY_ENC + SPY,
                                     A_PLAY_ENC + SIREN};
        for (int i = 0; i < 7; i++)
            if (is_legal(&bot, order[i])) return order[i];
        return A_PASS;
    }
    case PH_THIEF_TARGET: return thief_target(&bot);
    case PH_THIEF_GEM: return bot.legal[bot.nlegal - 1];
    case PH_SPY_TARGET: return spy_target(&bot);
    case PH_SIREN_TARGET: return siren_target(&bot);
    case PH_COMBAT_TARGET: return bot.legal[0];
    case PH_SALVAGE_CHOOSE: return salvage(&bot);
    case PH_COMBAT_GIVE: return bot.legal[bot.nlegal - 1];
    case PH_TEAM_RETURN: return bot.legal[0];
    case PH_ENC_GIFT:
    case PH_TEAM_GIVE: return A_PASS;
    default: return bot.legal[0];
    }
}

int mch_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng) {
    (void)rng; /* the Python bot never draws */
    float obs[MCH_MAX_OBS];
    int8_t mask[MCH_NUM_ACTIONS] = {0};
    int32_t legal[MCH_NUM_ACTIONS];
    int seat = mch_current_player(cfg, st), k = mch_legal_actions(cfg, st, legal);
    for (int i = 0; i < k; i++) mask[legal[i]] = 1;
    mch_observe(cfg, st, seat, obs);
    return mch_heuristic_decide(cfg->num_players, cfg->num_players == 2 ? 4 : cfg->num_players, obs, mask);
}
