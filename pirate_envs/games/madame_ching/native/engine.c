/* Madame Ching's compiled engine: the NativeEngine table (core/native/engine.h) over MchState (mch.h).
 *
 * rules.c: setup, the round, boat-turns, scoring, determinisation; observe.c: the observation of a seat;
 * heuristic.c: the heuristic bot; state.c: configure, dump, load. The Python engine (game.py) is the oracle.
 */
#include "games/madame_ching/native/mch.h"

const NativeEngine mch_engine = {
    .game_id = "madame_ching_v0",
    .state_size = sizeof(MchState),
    .max_actions = MCH_NUM_ACTIONS,
    .max_dump = MCH_MAX_DUMP,
    .configure = mch_configure,
    .init = mch_init,
    .is_terminal = mch_is_terminal,
    .current_player = mch_current_player,
    .legal_actions = mch_legal_actions,
    .apply = mch_apply,
    .returns = mch_returns,
    .scores = mch_scores,
    .winners = mch_winners,
    .observe = mch_observe,
    .resample_hidden = mch_resample_hidden,
    .heuristic = mch_heuristic,
    .action_features = NULL, /* Madame Ching has no action features */
    .dump = mch_dump,
    .load = mch_load,
};
