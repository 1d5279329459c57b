"""Per-action features of ``potsm_v0``: the public effect of each legal action on the nine ships.

A flat policy head over 103 action logits has to rediscover which ship each index moves and what
the current adventure then does to the line; cloned networks copied the heuristic in only about half
of the decisions. These features hand the network that effect directly, computed from the seat's own
observation and action mask alone (so they can show nothing the observation does not): for every
legal action, a ``9 x CHANNELS`` block, one row per ship (``K = 8 + (n - 1)`` channels):

0. fame change from the current adventure resolved on the line the action leaves (Section 6)
1. damaged after that adventure (0/1)
2. expected fame from one coming adventure of the deck's mix, at the ship's place and rank (undamaged)
3. expected chance of damage from one coming adventure, at that place and rank (undamaged)
4. expected chance of losing a fame from one coming adventure (Ghost Ship, Cursed Ship), if it has fame
5. position after the action, 0 (front) .. 1 (back)
6. how far the action moved it, in ninths (negative: forward)
7. Fog (PSM-637) only: the fame change the current adventure would bring on the unchanged line
8. .. accusations only (PSM-515), one channel per accused seat offset: the fame the accusation takes
   if it is right (``ceil(fame / 2)``) in the accused ship's row

Repair (PSM-513) resolves the adventure on the repaired line; Pass, Pass-and-discard, accusations and
Fog keep the line. The accusation's discard (PSM-1051) has an all-zero block: it moves nothing.
"""

from __future__ import annotations

import math

import numpy as np

from pirate_envs.games.potsm.actions import ACCUSE_BASE, ACCUSE_DISCARD_BASE, FOG_ACTION, REPAIR_ACTION
from pirate_envs.games.potsm.cards import NATION_OF_SHIP, NUM_SHIPS
from pirate_envs.games.potsm.heuristic import DECK_MIX, line_after_move, resolve_adventure
from pirate_envs.games.potsm.observation import field_slices

BASE_CHANNELS = 8


def num_channels(num_players: int) -> int:
    """Channels per ship: the eight above plus one accusation channel per other seat."""
    return BASE_CHANNELS + num_players - 1


def feature_size(num_players: int) -> int:
    """Features per action: ``9 * num_channels(n)``."""
    return NUM_SHIPS * num_channels(num_players)


_GAIN_POS, _GAIN_RANK, _DAMAGE_POS, _DAMAGE_FRONT, _DAMAGE_BACK, _LOSS_POS = DECK_MIX


def _line_block(
    block: np.ndarray, line: list[int], before: list[int], damaged: list[int], fame_after: list[float]
) -> None:
    """Channels 1..6 of one resulting line into ``block`` (shape 9 x K, rows by ship)."""
    undamaged = NUM_SHIPS - sum(damaged)
    rank = 0
    for p, s in enumerate(line):
        row = block[s]
        if damaged[s]:
            row[1] = 1.0
        else:
            row[2] = _GAIN_POS[p] + _GAIN_RANK[rank]
            row[3] = _DAMAGE_POS[NATION_OF_SHIP[s]][p] + _DAMAGE_FRONT[rank] + _DAMAGE_BACK[undamaged - 1 - rank]
            rank += 1
        if fame_after[s] >= 1.0:
            row[4] = _LOSS_POS[p]
        row[5] = p / 8.0
        row[6] = (p - before[s]) / 9.0


def action_features(observation: np.ndarray, action_mask: np.ndarray, num_players: int) -> np.ndarray:
    """``(num_actions, 9 * K)`` float32; rows of illegal actions are zero. See the module docstring."""
    n = num_players
    k = num_channels(n)
    mask = np.asarray(action_mask)
    out = np.zeros((mask.shape[0], NUM_SHIPS, k), dtype=np.float32)
    legal = np.flatnonzero(mask).tolist()
    if not legal or (legal[0] >= ACCUSE_DISCARD_BASE and legal[-1] < ACCUSE_BASE):
        return out.reshape(mask.shape[0], -1)
    o = np.asarray(observation, dtype=np.float64)
    sl = field_slices(n)
    position = o[sl["ship_position"]].reshape(NUM_SHIPS, NUM_SHIPS).argmax(axis=1).tolist()
    line = [0] * NUM_SHIPS
    for ship, p in enumerate(position):
        line[p] = ship
    damaged = [1 if x > 0.5 else 0 for x in o[sl["ship_damaged"]].tolist()]
    fame = o[sl["ship_fame"]].tolist()
    current = o[sl["current_adventure"]]
    card = int(current.argmax()) if current.max() > 0.5 else -1
    revealed = o[sl["ship_revealed_owner"]].reshape(NUM_SHIPS, n).max(axis=1).tolist()
    unrevealed = [x < 0.5 for x in revealed]

    def resolve(new_line: list[int], new_damaged: list[int]) -> tuple[list[float], list[int]]:
        if card < 0:  # no adventure face up
            return [0.0] * NUM_SHIPS, new_damaged
        return resolve_adventure(card, new_line, new_damaged, fame, unrevealed)

    # actions that leave the same line share one block, written into all their rows at once
    groups: dict[tuple, list[int]] = {}
    lines: dict[tuple, tuple[list[int], list[int]]] = {}

    def join(action: int, new_line: list[int], new_damaged: list[int]) -> None:
        key = (*new_line, *new_damaged)
        rows = groups.get(key)
        if rows is None:
            groups[key] = rows = []
            lines[key] = new_line, new_damaged
        rows.append(action)

    accusations = []
    for a in legal:
        if a < FOG_ACTION:
            join(a, *line_after_move(a, line, damaged))
        elif a == FOG_ACTION:
            block = out[a]  # the adventure stays ahead: the line as it is now, its effect in channel 7
            block[:, 1] = damaged
            block[:, 7] = resolve(line, damaged)[0]
            _line_block(block, line, position, damaged, fame)
        elif a == REPAIR_ACTION:
            join(a, line, [0] * NUM_SHIPS)
        elif a < ACCUSE_DISCARD_BASE or a >= ACCUSE_BASE:  # Pass, Pass-and-discard, accusations
            join(a, line, damaged)
            if a >= ACCUSE_BASE:
                accusations.append(a)
    block = np.zeros((NUM_SHIPS, k), dtype=np.float32)
    for key, rows in groups.items():
        new_line, new_damaged = lines[key]
        delta, after = resolve(new_line, new_damaged)
        block[:] = 0.0
        block[:, 0] = delta
        _line_block(block, new_line, position, after, [f + d for f, d in zip(fame, delta, strict=True)])
        out[rows] = block
    for a in accusations:
        offset, ship = divmod(a - ACCUSE_BASE, NUM_SHIPS)
        out[a, ship, BASE_CHANNELS + offset] = math.ceil(fame[ship] / 2.0)
    return out.reshape(mask.shape[0], -1)
