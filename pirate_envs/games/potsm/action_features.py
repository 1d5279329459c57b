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

The features have a compiled twin (``potsm_features`` in this game's ``native/features.c``) that
:func:`action_features` calls; :func:`action_features_python` stays the reference and the fallback.

Speed of the Python code: actions that leave the same line share one block. The distinct lines are
found as the heuristic's interned permutations (no line is built twice), each adventure is resolved in
Python, and the channels of all blocks are then computed at once with numpy from precomputed tables, in
the same float64 arithmetic as the plain per-ship formulas above, so the float32 features are
bit-for-bit those.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from pirate_envs.core.native import FALLBACK_ERRORS, NATIVE
from pirate_envs.games.potsm.actions import (
    ACCUSE_BASE,
    ACCUSE_DISCARD_BASE,
    FOG_ACTION,
    REPAIR_ACTION,
)
from pirate_envs.games.potsm.cards import NATION_OF_SHIP, NUM_SHIPS
from pirate_envs.games.potsm.heuristic import (
    DECK_MIX,
    PERMUTATION_GETTERS,
    RESOLVERS,
    Resolver,
    move_keys,
    native_rules_spec,
)
from pirate_envs.games.potsm.observation import field_slices, observation_size

BASE_CHANNELS = 8


def num_channels(num_players: int) -> int:
    """Channels per ship: the eight above plus one accusation channel per other seat."""
    return BASE_CHANNELS + num_players - 1


def feature_size(num_players: int) -> int:
    """Features per action: ``9 * num_channels(n)``."""
    return NUM_SHIPS * num_channels(num_players)


_GAIN_POS, _GAIN_RANK, _DAMAGE_POS, _DAMAGE_FRONT, _DAMAGE_BACK, _LOSS_POS = DECK_MIX


def _channel_table() -> np.ndarray:
    """float64 channels 2..5 of a ship by (damage pattern, position, nation, fame after >= 1).

    The damage pattern is a 9-bit number, bit p set when the ship at position p is damaged after the
    adventure; it fixes each undamaged ship's rank from the front and the number of undamaged ships.
    Every entry is computed by the module docstring's formula, in the same float64 operations.
    """
    gain = np.array([[_GAIN_POS[p] + _GAIN_RANK[r] for r in range(NUM_SHIPS)] for p in range(NUM_SHIPS)])
    damage = np.zeros((3, NUM_SHIPS, NUM_SHIPS, NUM_SHIPS + 1))  # nation, position, rank, undamaged ships
    for nation in range(3):
        for p in range(NUM_SHIPS):
            for u in range(1, NUM_SHIPS + 1):
                for r in range(u):
                    damage[nation, p, r, u] = _DAMAGE_POS[nation][p] + _DAMAGE_FRONT[r] + _DAMAGE_BACK[u - 1 - r]
    position = np.arange(NUM_SHIPS)
    hit = (np.arange(1 << NUM_SHIPS)[:, None] >> position) & 1
    ahead = np.cumsum(1 - hit, axis=1) - (1 - hit)  # undamaged ships ahead: the rank of an undamaged one
    undamaged = NUM_SHIPS - hit.sum(axis=1, keepdims=True)
    table = np.zeros((1 << NUM_SHIPS, NUM_SHIPS, 3, 2, 4))
    for nation in range(3):
        table[:, :, nation, :, 0] = np.where(hit, 0.0, gain[position, ahead])[:, :, None]
        table[:, :, nation, :, 1] = np.where(hit, 0.0, damage[nation, position, ahead, undamaged])[:, :, None]
    table[:, :, :, 1, 2] = np.array(_LOSS_POS)[:, None]
    table[:, :, :, :, 3] = np.array([p / 8.0 for p in range(NUM_SHIPS)])[:, None, None]
    return table


_CHANNELS_2_TO_5 = _channel_table()
_NATION = np.array(NATION_OF_SHIP)
_POSITIONS = np.arange(NUM_SHIPS)
_SLICES: dict[int, dict[str, int]] = {}  # num_players -> field name -> start


def _field_starts(num_players: int) -> dict[str, int]:
    starts = _SLICES.get(num_players)
    if starts is None:
        starts = _SLICES[num_players] = {name: sl.start for name, sl in field_slices(num_players).items()}
    return starts


_RULES_SPEC = native_rules_spec()
_LAYOUTS: dict[int, tuple] = {}  # num_players -> the compiled twin's layout argument


def _twin_layout(num_players: int) -> tuple:
    """What ``potsm_features`` reads besides the rules: the observation size, the starts of the fields it
    reads and the float64 table of channels 2..5 (read, not rebuilt, so its doubles are these)."""
    layout = _LAYOUTS.get(num_players)
    if layout is None:
        st = _field_starts(num_players)
        fields = ("ship_position", "ship_damaged", "ship_fame", "ship_revealed_owner", "current_adventure")
        layout = _LAYOUTS[num_players] = (
            observation_size(num_players),
            *(st[name] for name in fields),
            np.ascontiguousarray(_CHANNELS_2_TO_5),
        )
    return layout


def action_features(
    observation: np.ndarray, action_mask: np.ndarray, num_players: int, out: np.ndarray | None = None
) -> np.ndarray:
    """``(num_actions, 9 * K)`` float32; rows of illegal actions are zero. See the module docstring.
    ``out``: a zero-filled C-contiguous float32 matrix of that shape to write them into (and return)."""
    if NATIVE is not None:
        if out is None:
            out = np.zeros((np.shape(action_mask)[0], feature_size(num_players)), dtype=np.float32)
        try:
            NATIVE.potsm_features(out, observation, action_mask, _RULES_SPEC, num_players, _twin_layout(num_players))
            return out
        except FALLBACK_ERRORS:
            pass  # an input the twin does not take (a float64 vector, an int64 mask, an odd line): the Python code
    features = action_features_python(observation, action_mask, num_players)
    if out is None:
        return features
    out[...] = features
    return out


def legal_action_features(observations: np.ndarray, action_masks: np.ndarray, num_players: int) -> np.ndarray | None:
    """The legal actions' rows of a batch (``Game.legal_action_features``) from the compiled twin, or None
    where it cannot write them (not built, or an input it does not take): the caller then runs the Python code."""
    twin = getattr(NATIVE, "potsm_legal_features", None)
    if twin is None:
        return None
    out = np.zeros((int(np.count_nonzero(action_masks)), feature_size(num_players)), dtype=np.float32)
    try:
        twin(out, observations, action_masks, _RULES_SPEC, num_players, _twin_layout(num_players))
    except FALLBACK_ERRORS:
        return None
    return out


def _decode_line(o: list[float], start: int) -> list[int] | None:
    """The line (ships front to back) from the one-hot ship_position field; None unless it is exactly 9 one-hots."""
    positions = o[start : start + 81]
    if positions.count(0.0) != 72:
        return None
    line = [0] * NUM_SHIPS
    i = -1
    try:
        for ship in range(NUM_SHIPS):
            i = positions.index(1.0, i + 1)
            p = i - NUM_SHIPS * ship
            if not 0 <= p < NUM_SHIPS:
                return None
            line[p] = ship
    except ValueError:
        return None
    return line


def _decode_line_any(observation: np.ndarray, start: int) -> list[int]:
    """The line as ``argmax`` reads any ship_position field (the first largest entry per ship)."""
    position = np.asarray(observation, dtype=np.float64)[start : start + 81].reshape(NUM_SHIPS, NUM_SHIPS)
    line = [0] * NUM_SHIPS
    for ship, p in enumerate(position.argmax(axis=1).tolist()):
        line[p] = ship
    return line


def _blocks(
    lines: list, afters: list[list[int]], deltas: list[list[float]], fame: np.ndarray, before: np.ndarray, k: int
) -> np.ndarray:
    """``(G + 1, 9, k)`` float32 blocks, channels 0..6, of G resulting lines (ships front to back), their
    damage after the adventure and fame changes (both by ship), then an all-zero block; ``before`` is
    every ship's position now."""
    g = len(lines)
    line = np.array(lines)
    position = np.zeros((g, NUM_SHIPS), dtype=np.intp)  # by ship (zeros: a line that is no permutation, read from a
    # tampered observation, leaves some ships unplaced; they then read as the front, the same every call)
    position[np.arange(g)[:, None], line] = _POSITIONS
    damaged = np.array(afters)
    delta = np.array(deltas, dtype=np.float64)
    pattern = (damaged << position).sum(axis=1, keepdims=True)
    has_fame = (fame + delta >= 1.0).astype(np.intp)
    out = np.zeros((g + 1, NUM_SHIPS, k), dtype=np.float32)
    out[:g, :, 0] = delta
    out[:g, :, 1] = damaged
    out[:g, :, 2:6] = _CHANNELS_2_TO_5[pattern, position, _NATION, has_fame]
    out[:g, :, 6] = (position - before) / 9.0
    return out


def _read(observation: np.ndarray, n: int) -> tuple[list[int], list[int], list[float], Resolver | None, list[bool]]:
    """What the features read from the observation: the line (front to back), damage and fame by ship, the
    resolver of the face-up adventure (None if there is none) and which pirates are unrevealed."""
    st = _field_starts(n)
    o = np.asarray(observation)[: st["current_adventure"] + 24].tolist()  # nothing further is read
    line = _decode_line(o, st["ship_position"])
    if line is None:
        line = _decode_line_any(observation, st["ship_position"])
    b = st["ship_damaged"]
    damaged = [1 if x > 0.5 else 0 for x in o[b : b + NUM_SHIPS]]
    b = st["ship_fame"]
    fame = o[b : b + NUM_SHIPS]
    b = st["current_adventure"]
    current = o[b : b + 24]
    top = max(current)
    resolve = RESOLVERS[current.index(top)] if top > 0.5 else None
    b = st["ship_revealed_owner"]
    unrevealed = [max(o[b + n * j : b + n * j + n]) < 0.5 for j in range(NUM_SHIPS)]
    return line, damaged, fame, resolve, unrevealed


def _move_groups(moves: list[int], line: list[int], damaged: list[int], lines: list, befores: list) -> list[int]:
    """The group (index into ``lines``) of every move-card action; appends each new line and its damage."""
    keys = move_keys(moves, line)
    group_of = {}
    for key in dict.fromkeys(keys):
        group_of[key] = len(lines)
        if key >= 0:
            lines.append(PERMUTATION_GETTERS[key](line))
            befores.append(damaged)
        else:  # Sabotage: the line stays, a ship is damaged
            sabotaged = damaged[:]
            sabotaged[line[-1 - key]] = 1
            lines.append(line)
            befores.append(sabotaged)
    return [group_of[key] for key in keys]


def action_features_python(observation: np.ndarray, action_mask: np.ndarray, num_players: int) -> np.ndarray:
    """:func:`action_features` in Python alone: the reference of the compiled twin."""
    n = num_players
    k = num_channels(n)
    mask = np.asarray(action_mask)
    legal = np.flatnonzero(mask).tolist()
    if not legal or (legal[0] >= ACCUSE_DISCARD_BASE and legal[-1] < ACCUSE_BASE):
        return np.zeros((mask.shape[0], NUM_SHIPS * k), dtype=np.float32)
    line, damaged, fame, resolve, unrevealed = _read(observation, n)

    # the distinct resulting lines (legal is sorted: move cards, Fog, Repair, Pass, discards, accusations)
    lines: list = []
    befores: list[list[int]] = []  # damage before the adventure
    n_moves = bisect_left(legal, FOG_ACTION)
    rows = legal[:n_moves]
    groups = _move_groups(rows, line, damaged, lines, befores)
    rest = legal[n_moves:]
    fog = bool(rest) and rest[0] == FOG_ACTION
    if fog:
        rest = rest[1:]
    if rest and rest[0] == REPAIR_ACTION:
        rows.append(REPAIR_ACTION)
        groups.append(len(lines))
        lines.append(line)
        befores.append([0] * NUM_SHIPS)
        rest = rest[1:]
    accusations = rest[bisect_left(rest, ACCUSE_BASE) :]
    keep = rest[: bisect_left(rest, ACCUSE_DISCARD_BASE)] + accusations  # Pass, Pass-and-discard, accusations
    unchanged = -1  # the group of the line as it is, if any
    if keep:
        unchanged = len(lines)
        rows += keep
        groups += [unchanged] * len(keep)
        lines.append(line)
        befores.append(damaged)
    if not lines and not fog:
        return np.zeros((mask.shape[0], NUM_SHIPS * k), dtype=np.float32)

    # the adventure on every distinct line
    deltas = []
    afters = []
    for new_line, new_damaged in zip(lines, befores, strict=True):
        delta, after = (None, new_damaged) if resolve is None else resolve(new_line, new_damaged, fame, unrevealed)
        deltas.append([0.0] * NUM_SHIPS if delta is None else delta)
        afters.append(after)
    if fog:  # the adventure stays ahead: the line as it is now, its effect in channel 7
        if unchanged >= 0:
            fog_delta = deltas[unchanged]
        elif resolve is not None:
            fog_delta = resolve(line, damaged, fame, unrevealed)[0]
        else:
            fog_delta = None
        rows.append(FOG_ACTION)
        groups.append(len(lines))
        lines.append(line)
        afters.append(damaged)
        deltas.append([0.0] * NUM_SHIPS)

    fame_now = np.array(fame)
    blocks = _blocks(lines, afters, deltas, fame_now, np.array(_positions(line)), k)
    if fog and fog_delta is not None:
        blocks[len(lines) - 1, :, 7] = fog_delta
    block_of_action = np.full(mask.shape[0], len(lines))  # illegal actions: the zero block
    block_of_action[rows] = groups
    out = blocks.reshape(len(lines) + 1, -1)[block_of_action]
    if accusations:  # the accused ship's row, the accused seat's channel: ceil(fame / 2) (PSM-515)
        index = np.array(accusations) - ACCUSE_BASE
        ship = index % NUM_SHIPS
        out[accusations, ship * k + BASE_CHANNELS + index // NUM_SHIPS] = np.ceil(fame_now[ship] / 2.0)
    return out


def _positions(line: list[int]) -> list[int]:
    """Every ship's position in ``line``."""
    position = [0] * NUM_SHIPS
    for p, ship in enumerate(line):
        position[ship] = p
    return position
