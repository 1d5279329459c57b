/* Dead Man's Draw's heuristic bot and action features in pure C (bot_core.h): HeuristicPolicy.act and
 * action_features_python over a seat's observation and legal actions. Called by the compiled twins (bot.c,
 * features.c) and by the compiled engine (observe.c).
 */
#include "games/dead_mans_draw/native/bot_core.h"

/* HeuristicPolicy.should_draw */
static int should_draw(const Dmd *d, double margin) {
    if (d->known[0] >= 0) return !busts(d, d->known[0]) || d->n_row == 0;
    if (d->n_row == 0) return 1;
    int pile[MAX_CARDS], n_busts;
    int n = next_draws(d, pile);
    if (n == 0) return dmd_fail(d, "an empty draw pile");
    double bank = bank_value(d);
    if (d->variant == d->sp[B_SUDDEN_DEATH] && score_mine(d, d->row, d->n_row) >= 150) return 0;
    double lost_value = bust_cost(d, bank);
    double total = draw_total(d, pile, n, bank, lost_value, d->half_pull, &n_busts);
    return total / n > margin;
}

/* The value HeuristicPolicy.act maximises over the legal actions of the decision's phase; -1 on an error. */
static int action_value(const Dmd *d, int a, double *value) {
    const long *sp = d->sp, phase = d->phase;
    int card;
    double loss;
    if (phase == sp[B_ABILITY_CHOICE]) {
        long i = a - sp[B_ABILITY_BASE];
        if (i < 0 || i >= sp[B_NUM_ABILITIES]) return dmd_fail(d, "an ability outside the abilities");
        *value = d->rank[i];
    } else if (phase == sp[B_LOCKER_TARGET]) {
        long k = a - sp[B_LOCKER_TARGET_BASE];
        if (k < 0 || k >= sp[B_N]) return dmd_fail(d, "a Locker target outside the seats");
        *value = score_of(d, k);
    } else if (target_phase(d)) {
        long k, suit;
        if (target_loss(d, a, &k, &suit, &card, &loss) < 0) return -1;
        double weight = leader_weight(d, k);
        if (phase == sp[B_CANNON_TARGET]) {
            *value = loss * weight;
            return 0;
        }
        double mine = row_gain(d, card);
        if (phase == sp[B_SWORD_TARGET])
            *value = busts(d, card) ? -50.0 + loss * weight : mine + loss * weight * 0.5 + d->bonus[suit];
        else
            *value = mine + loss * weight * 0.5;
    } else if (own_suit_phase(d)) {
        long suit = a - sp[B_OWN_SUIT_BASE];
        if (top_card_loss(d, 0, suit, &card, &loss) < 0) return -1;
        if (phase == sp[B_NAVIGATOR_SELF]) {
            *value = -loss;
        } else if (busts(d, card)) {
            *value = -50.0 - loss;
        } else {
            double bonus = d->bonus[suit];
            if ((suit == sp[B_KEY] && row_has(d, sp[B_CHEST])) || (suit == sp[B_CHEST] && row_has(d, sp[B_KEY])))
                bonus += 2.0;
            *value = bonus - 0.3 * loss;
        }
    } else {
        card = a - (int)sp[B_CARD_BASE];
        if (card < 0 || card >= sp[B_NUM_CARDS]) return dmd_fail(d, "a card outside the cards");
        long suit = d->suit[card];
        if (phase == sp[B_MAP_PICK]) {
            if (busts(d, card)) {
                *value = -50.0 - d->value[card];
                return 0;
            }
            double v = row_gain(d, card) + d->bonus[suit];
            if (bonus_due(d, suit) && !bonus_due(d, -1)) v += 1.2 * (d->n_row + 1);
            *value = v;
        } else if (phase == sp[B_MERMAID_PICK]) {
            if (suit == sp[B_ANCHOR])
                *value = 10.0 + d->value[card] * 0.01;
            else if (suit == sp[B_MERMAID])
                *value = -10.0;
            else
                *value = d->bonus[suit] - 0.01 * d->value[card];
        } else if (phase == sp[B_RAKE_PICK]) {
            *value = gain(d, &card, 1) + 2.0 * (suit == sp[B_ANCHOR]);
        } else {
            return dmd_fail(d, "no rule for this phase");
        }
    }
    return 0;
}

/* the phases HeuristicPolicy.act decides by the largest action_value */
static int bot_phase(const Dmd *d) {
    return d->phase == d->sp[B_ABILITY_CHOICE] || d->phase == d->sp[B_LOCKER_TARGET] || target_phase(d) ||
           own_suit_phase(d) || card_phase(d);
}

int dmd_bot_decide(Dmd *d, double margin, long *action) {
    const long *sp = d->sp;
    *action = -1;
    if (d->n_legal == 0) return dmd_fail(d, "no legal action");
    if (d->n_legal == 1) {
        *action = d->legal[0];
    } else if (d->phase == sp[B_DRAW_OR_STOP]) {
        summarise(d);
        int draw = should_draw(d, margin);
        if (draw < 0) return -1;
        *action = draw ? sp[B_DRAW] : sp[B_STOP];
    } else if (d->phase == sp[B_LOCKER_ACCEPT]) {
        *action = sp[B_ACCEPT];
    } else if (bot_phase(d)) {
        summarise(d);
        double best = 0.0;
        for (int i = 0; i < d->n_legal; i++) {
            double value;
            if (action_value(d, d->legal[i], &value) < 0) return -1;
            if (i == 0 || value > best) {
                best = value;
                *action = d->legal[i];
            }
        }
    }
    return 0;
}

#define CHANNELS 8

int dmd_bot_features(Dmd *d, float *rows, double scale) {
    const long *sp = d->sp, phase = d->phase;
    int card;
    double loss;
    if (d->n_legal == 0) return 0;
    summarise(d);
    if (phase == sp[B_DRAW_OR_STOP]) {
        double bank = bank_value(d);
        rows[sp[B_STOP] * CHANNELS] = (float)(bank * scale);
        int pile[MAX_CARDS], n_busts;
        int n = next_draws(d, pile);
        if (n > 0) {
            double lost_value = bust_cost(d, bank);
            double zero[MAX_SUITS] = {0};
            double total = draw_total(d, pile, n, bank, lost_value, zero, &n_busts);
            float *draw = rows + sp[B_DRAW] * CHANNELS;
            draw[1] = (float)(total / n * scale);
            draw[2] = (float)((double)n_busts / n);
            draw[3] = (float)(lost_value * scale);
        }
    } else if (target_phase(d)) {
        for (int i = 0; i < d->n_legal; i++) {
            int a = d->legal[i];
            long k, suit;
            if (target_loss(d, a, &k, &suit, &card, &loss) < 0) return -1;
            float *row = rows + (long)a * CHANNELS;
            row[5] = (float)(loss * leader_weight(d, k) * scale);
            if (phase != sp[B_CANNON_TARGET]) {
                row[4] = (float)(row_gain(d, card) * scale);
                row[6] = (float)(phase == sp[B_SWORD_TARGET] && busts(d, card));
                row[7] = (float)d->bonus[suit];
            }
        }
    } else if (own_suit_phase(d)) {
        for (int i = 0; i < d->n_legal; i++) {
            int a = d->legal[i];
            long suit = a - sp[B_OWN_SUIT_BASE];
            if (top_card_loss(d, 0, suit, &card, &loss) < 0) return -1;
            float *row = rows + (long)a * CHANNELS;
            row[4] = (float)(-loss * scale);
            row[6] = (float)(phase == sp[B_HOOK_SUIT] && busts(d, card));
            row[7] = (float)d->bonus[suit];
        }
    } else if (card_phase(d)) {
        for (int i = 0; i < d->n_legal; i++) {
            int a = d->legal[i];
            card = a - (int)sp[B_CARD_BASE];
            if (card < 0 || card >= sp[B_NUM_CARDS]) {
                return dmd_fail(d, "a card outside the cards");
            }
            float *row = rows + (long)a * CHANNELS;
            row[4] = (float)(row_gain(d, card) * scale);
            row[6] = (float)(phase != sp[B_RAKE_PICK] && busts(d, card));
            row[7] = (float)d->bonus[d->suit[card]];
        }
    }
    return 0;
}
