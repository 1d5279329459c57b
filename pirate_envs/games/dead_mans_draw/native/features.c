/* Dead Man's Draw's compiled action features (part of pirate_envs._native, optional).
 *
 * dmd_features(out, obs, mask, spec, scale): the twin of
 *     pirate_envs.games.dead_mans_draw.action_features.action_features_python: writes the zero-filled
 *     float32 (actions, 8) feature matrix ``out``, values in points times ``scale``, from the heuristic bot's
 *     estimates (dmd.h) on the seat's observation vector and action mask.
 *
 * The Python code stays the reference: tests/test_native_bots.py compares the two bit for bit, and an
 * input the twin does not expect raises (ValueError, TypeError) so that the caller runs the Python code.
 */
#include "dmd.h"

#define CHANNELS 8

PyObject *dmd_features(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_obj, *obs_obj, *mask_obj, *spec;
    double scale;
    if (!PyArg_ParseTuple(args, "OOOOd", &out_obj, &obs_obj, &mask_obj, &spec, &scale)) return NULL;
    Dmd d;
    Py_buffer out;
    if (read_spec(&d, spec) < 0) return NULL;
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const long *sp = d.sp;
    if (out.format == NULL || strcmp(out.format, "f") != 0 || out.len != (Py_ssize_t)(sp[B_NUM_ACTIONS] * CHANNELS * (long)sizeof(float))) {
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "dmd_features: out must be the float32 (actions, 8) matrix");
        return NULL;
    }
    if (read_obs(&d, obs_obj, mask_obj) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    float *rows = (float *)out.buf;
    const long phase = d.phase;
    int card;
    double loss;
    if (d.n_legal == 0) goto done;
    summarise(&d);
    if (phase == sp[B_DRAW_OR_STOP]) {
        double bank = bank_value(&d);
        rows[sp[B_STOP] * CHANNELS] = (float)(bank * scale);
        int pile[MAX_CARDS], n_busts;
        int n = next_draws(&d, pile);
        if (n > 0) {
            double lost_value = bust_cost(&d, bank);
            double zero[MAX_SUITS] = {0};
            double total = draw_total(&d, pile, n, bank, lost_value, zero, &n_busts);
            float *draw = rows + sp[B_DRAW] * CHANNELS;
            draw[1] = (float)(total / n * scale);
            draw[2] = (float)((double)n_busts / n);
            draw[3] = (float)(lost_value * scale);
        }
    } else if (target_phase(&d)) {
        for (int i = 0; i < d.n_legal; i++) {
            int a = d.legal[i];
            long k, suit;
            if (target_loss(&d, a, &k, &suit, &card, &loss) < 0) goto fail;
            float *row = rows + (long)a * CHANNELS;
            row[5] = (float)(loss * leader_weight(&d, k) * scale);
            if (phase != sp[B_CANNON_TARGET]) {
                row[4] = (float)(row_gain(&d, card) * scale);
                row[6] = (float)(phase == sp[B_SWORD_TARGET] && busts(&d, card));
                row[7] = (float)d.bonus[suit];
            }
        }
    } else if (own_suit_phase(&d)) {
        for (int i = 0; i < d.n_legal; i++) {
            int a = d.legal[i];
            long suit = a - sp[B_OWN_SUIT_BASE];
            if (top_card_loss(&d, 0, suit, &card, &loss) < 0) goto fail;
            float *row = rows + (long)a * CHANNELS;
            row[4] = (float)(-loss * scale);
            row[6] = (float)(phase == sp[B_HOOK_SUIT] && busts(&d, card));
            row[7] = (float)d.bonus[suit];
        }
    } else if (card_phase(&d)) {
        for (int i = 0; i < d.n_legal; i++) {
            int a = d.legal[i];
            card = a - (int)sp[B_CARD_BASE];
            if (card < 0 || card >= sp[B_NUM_CARDS]) {
                spec_error("a card outside the cards");
                goto fail;
            }
            float *row = rows + (long)a * CHANNELS;
            row[4] = (float)(row_gain(&d, card) * scale);
            row[6] = (float)(phase != sp[B_RAKE_PICK] && busts(&d, card));
            row[7] = (float)d.bonus[d.suit[card]];
        }
    }
done:
    release_obs(&d);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
fail:
    release_obs(&d);
    PyBuffer_Release(&out);
    return NULL;
}
