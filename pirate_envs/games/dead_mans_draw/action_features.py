"""Per-action features of ``dead_mans_draw_v0``: what each legal action stands to win or lose.

Computed from the seat's own observation and action mask alone (public counting, as the heuristic
bot does), so they show nothing the observation does not. One row of ``CHANNELS`` values per action;
scores are in tenths of points (DMD-701 ``S / 10``), so every value stays within a few units:

0. STOP (DMD-401, DMD-518..520): what banking the row now adds to the seat's score (with a due Key +
   Chest bonus, estimated as the bot does)
1. DRAW (DMD-401): the expected change of the seat's banked value from one more draw, over the cards
   the draw pile may hold (a peeked top card, DMD-1071, makes it exact)
2. DRAW: the chance that the draw busts the row (DMD-505c; Uncharted Waters counts equal values)
3. DRAW: what a bust would cost (the row cards right of the rightmost Anchor, DMD-514a)
4. a card the action takes or moves (Sword DMD-610, Hook DMD-605, Map DMD-607, Plunderer, Rake, the
   mermaid variant's pick): its gain to the seat's score (a Hook or Navigator suit choice: minus what
   the seat gives up)
5. a card the action takes from or destroys for an opponent (Cannon, Sword, Plunderer): that
   opponent's loss, doubled for the leader
6. that card would bust the seat's row (0/1)
7. the card's suit ability value for the seat (Sword, Cannon and Map high, Kraken negative)

Rows of the other decisions (ability choice, Locker target and acceptance) are zero: their action
index already names the choice.

The features have a compiled twin (``dmd_features`` in this game's ``native/features.c``);
:func:`action_features_python` stays the reference and the fallback.
"""

from __future__ import annotations

import numpy as np

from pirate_envs.core.native import FALLBACK_ERRORS, NATIVE
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import CARD_SUIT, NUM_SUITS
from pirate_envs.games.dead_mans_draw.heuristic import ABILITY_BONUS, HeuristicPolicy, legal_actions

CHANNELS = 8
SCALE = 0.1  # points -> feature units
_CARD_PHASES = (act.MAP_PICK, act.MERMAID_PICK, act.RAKE_PICK)
_TARGET_PHASES = (act.CANNON_TARGET, act.SWORD_TARGET, act.PLUNDER_PICK)
_SUIT_PHASES = (act.HOOK_SUIT, act.NAVIGATOR_SELF)


def action_features(observation: np.ndarray, action_mask: np.ndarray, reader: HeuristicPolicy) -> np.ndarray:
    """``(num_actions, CHANNELS)`` float32; ``reader`` is a heuristic bot of the same game, used only to
    read the observation and score card sets. See the module docstring."""
    if NATIVE is not None:
        out = np.zeros((np.shape(action_mask)[0], CHANNELS), dtype=np.float32)
        try:
            NATIVE.dmd_features(out, observation, action_mask, reader.native_spec, SCALE)
            return out
        except FALLBACK_ERRORS:
            pass  # an input the twin does not take (a float64 vector, an int64 mask): the Python code
    return action_features_python(observation, action_mask, reader)


def action_features_python(observation: np.ndarray, action_mask: np.ndarray, reader: HeuristicPolicy) -> np.ndarray:
    """:func:`action_features` in Python alone: the reference of the compiled twin."""
    mask = np.asarray(action_mask)
    out = np.zeros((mask.shape[0], CHANNELS), dtype=np.float32)
    legal = legal_actions(mask)
    if not legal:
        return out
    reader._read(np.asarray(observation))
    phase = reader.phase
    if phase == act.DRAW_OR_STOP:
        _draw_or_stop(reader, out)
    elif phase in _TARGET_PHASES:
        for a in legal:
            _target(reader, out, a, phase)
    elif phase in _SUIT_PHASES:
        for a in legal:
            suit = a - act.OWN_SUIT_BASE
            card, cost = reader.top_card_loss(0, suit)
            row = out[a]
            row[4] = -cost * SCALE
            row[6] = phase == act.HOOK_SUIT and reader.busts(card)
            row[7] = ABILITY_BONUS.get(suit, 0.0)
    elif phase in _CARD_PHASES:
        for a in legal:
            card = a - act.CARD_BASE
            row = out[a]
            row[4] = reader.row_gain(card) * SCALE
            row[6] = phase != act.RAKE_PICK and reader.busts(card)
            row[7] = ABILITY_BONUS.get(CARD_SUIT[card], 0.0)
    return out


def _draw_or_stop(reader: HeuristicPolicy, out: np.ndarray) -> None:
    row = reader.row
    bank = reader.bank_value(row)
    out[act.STOP, 0] = bank * SCALE
    pile = reader.next_draws()
    if not pile:
        return
    lost_value = reader.bust_cost(bank)
    total, busts = reader.draw_total(pile, bank, lost_value)
    draw = out[act.DRAW]
    draw[1] = total / len(pile) * SCALE
    draw[2] = busts / len(pile)
    draw[3] = lost_value * SCALE


def _target(reader: HeuristicPolicy, out: np.ndarray, a: int, phase: int) -> None:
    k, suit = divmod(a - reader.game.target_base, NUM_SUITS)
    card, loss = reader.top_card_loss(k + 1, suit)
    row = out[a]
    row[5] = loss * reader.leader_weight(k + 1) * SCALE
    if phase != act.CANNON_TARGET:
        row[4] = reader.row_gain(card) * SCALE
        row[6] = phase == act.SWORD_TARGET and reader.busts(card)
        row[7] = ABILITY_BONUS.get(suit, 0.0)
