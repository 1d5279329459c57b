/* Dead Man's Draw's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * dmd_act(obs, mask, spec, margin): the twin of pirate_envs.games.dead_mans_draw.heuristic.HeuristicPolicy.act,
 *     read from the seat's observation vector and action mask alone, as HeuristicPolicy reads them: the
 *     action, or None where the Python bot picks at random (a phase it has no rule for).
 *
 * The Python bot stays the reference: tests/test_native_bots.py compares the two decision for decision
 * and bit for bit, and an input the twin does not expect raises (ValueError, TypeError) so that the caller
 * runs the Python bot. The spec, the reading and the estimates are dmd.h's (shared with features.c).
 */
#include "dmd.h"

/* HeuristicPolicy.should_draw */
static int should_draw(const Dmd *d, double margin) {
    if (d->known[0] >= 0) return !busts(d, d->known[0]) || d->n_row == 0;
    if (d->n_row == 0) return 1;
    int pile[MAX_CARDS], n_busts;
    int n = next_draws(d, pile);
    if (n == 0) return spec_error("an empty draw pile");
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
        if (i < 0 || i >= sp[B_NUM_ABILITIES]) return spec_error("an ability outside the abilities");
        *value = d->rank[i];
    } else if (phase == sp[B_LOCKER_TARGET]) {
        long k = a - sp[B_LOCKER_TARGET_BASE];
        if (k < 0 || k >= sp[B_N]) return spec_error("a Locker target outside the seats");
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
        if (card < 0 || card >= sp[B_NUM_CARDS]) return spec_error("a card outside the cards");
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
            return spec_error("no rule for this phase");
        }
    }
    return 0;
}

/* the phases HeuristicPolicy.act decides by the largest action_value */
static int bot_phase(const Dmd *d) {
    return d->phase == d->sp[B_ABILITY_CHOICE] || d->phase == d->sp[B_LOCKER_TARGET] || target_phase(d) ||
           own_suit_phase(d) || card_phase(d);
}

PyObject *dmd_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec;
    double margin;
    if (!PyArg_ParseTuple(args, "OOOd", &obs_obj, &mask_obj, &spec, &margin)) return NULL;
    Dmd d;
    if (read_spec(&d, spec) < 0 || read_obs(&d, obs_obj, mask_obj) < 0) return NULL;
    long action = -1;
    const long *sp = d.sp;
    if (d.n_legal == 0) {
        spec_error("no legal action");
        goto fail;
    }
    if (d.n_legal == 1) {
        action = d.legal[0];
    } else if (d.phase == sp[B_DRAW_OR_STOP]) {
        summarise(&d);
        int draw = should_draw(&d, margin);
        if (draw < 0) goto fail;
        action = draw ? sp[B_DRAW] : sp[B_STOP];
    } else if (d.phase == sp[B_LOCKER_ACCEPT]) {
        action = sp[B_ACCEPT];
    } else if (bot_phase(&d)) {
        summarise(&d);
        double best = 0.0;
        for (int i = 0; i < d.n_legal; i++) {
            double value;
            if (action_value(&d, d.legal[i], &value) < 0) goto fail;
            if (i == 0 || value > best) {
                best = value;
                action = d.legal[i];
            }
        }
    }
    release_obs(&d);
    if (action < 0) Py_RETURN_NONE; /* the Python bot's random pick */
    return PyLong_FromLong(action);
fail:
    release_obs(&d);
    return NULL;
}
