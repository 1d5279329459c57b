"""The flat action index table (PSM-1003, PSM-1040..1052) as data, and readable action names.

``N = 76 + 9(n-1)`` actions. Positions in names are the rules' 1-based positions (1 = front).
Decoding: :func:`decode_action` returns ``(kind, move_type, parameter)`` where ``parameter`` is a
0-based position (single ship), a 0-based pair start, a card type, or for accusations the pair
``(offset, pirate)``.
"""

from __future__ import annotations

from pirate_envs.games.potsm.cards import (
    MOVE_NAMES,
    NUM_MOVE_TYPES,
    PIRATE_NAMES,
)

# --- index blocks (PSM-1040..1052) ----------------------------------------------------------------
FULL_SPEED_BASE = 0  # PSM-1040: 0-8
LOST_AT_SEA_BASE = 9  # PSM-1041: 9-17
ALLIANCE_BASE = 18  # PSM-1042: 18-25
RIP_BASE = 26  # PSM-1043: 26-33
ADVANCE_BASE = 34  # PSM-1044: 34-36
RETREAT_BASE = 37  # PSM-1045: 37-39
SABOTAGE_BASE = 40  # PSM-1046: 40-48
FOG_ACTION = 49  # PSM-1047
REPAIR_ACTION = 50  # PSM-1048
PASS_ACTION = 51  # PSM-1049
PASS_DISCARD_BASE = 52  # PSM-1050: 52-63
ACCUSE_DISCARD_BASE = 64  # PSM-1051: 64-75
ACCUSE_BASE = 76  # PSM-1052: 76 .. N-1

# Action kinds returned by decode_action.
KIND_MOVE = 0
KIND_REPAIR = 1
KIND_PASS = 2
KIND_PASS_DISCARD = 3
KIND_ACCUSE_DISCARD = 4
KIND_ACCUSE = 5

# Action indices that play each move type, in increasing order (PSM-1040..1047).
MOVE_TYPE_ACTIONS: tuple[tuple[int, ...], ...] = (
    tuple(range(FULL_SPEED_BASE, FULL_SPEED_BASE + 9)),
    tuple(range(LOST_AT_SEA_BASE, LOST_AT_SEA_BASE + 9)),
    tuple(range(ALLIANCE_BASE, ALLIANCE_BASE + 8)),
    tuple(range(RIP_BASE, RIP_BASE + 8)),
    (ADVANCE_BASE,),
    (ADVANCE_BASE + 1,),
    (ADVANCE_BASE + 2,),
    (RETREAT_BASE,),
    (RETREAT_BASE + 1,),
    (RETREAT_BASE + 2,),
    tuple(range(SABOTAGE_BASE, SABOTAGE_BASE + 9)),
    (FOG_ACTION,),
)


def num_actions(num_players: int) -> int:
    """PSM-1003: ``76 + 9(n-1)``."""
    return ACCUSE_BASE + 9 * (num_players - 1)


def accuse_action(offset: int, pirate: int) -> int:
    """PSM-1052: index of "the seat at ``offset`` (1..n-1) owns pirate ``pirate``"."""
    return ACCUSE_BASE + 9 * (offset - 1) + pirate


def decode_action(action: int, num_players: int) -> tuple[int, int, object]:
    """``(kind, move_type, parameter)`` of an action index; ``move_type`` is -1 when not a card play."""
    if not 0 <= action < num_actions(num_players):
        raise ValueError(f"action {action} is out of range [0, {num_actions(num_players)})")
    if action < SABOTAGE_BASE:
        if action < ALLIANCE_BASE:
            return KIND_MOVE, action // 9, action % 9
        if action < ADVANCE_BASE:
            return KIND_MOVE, 2 + (action - ALLIANCE_BASE) // 8, (action - ALLIANCE_BASE) % 8
        return KIND_MOVE, 4 + action - ADVANCE_BASE, None
    if action < FOG_ACTION:
        return KIND_MOVE, 10, action - SABOTAGE_BASE
    if action == FOG_ACTION:
        return KIND_MOVE, 11, None
    if action == REPAIR_ACTION:
        return KIND_REPAIR, -1, None
    if action == PASS_ACTION:
        return KIND_PASS, -1, None
    if action < ACCUSE_DISCARD_BASE:
        return KIND_PASS_DISCARD, -1, action - PASS_DISCARD_BASE
    if action < ACCUSE_BASE:
        return KIND_ACCUSE_DISCARD, -1, action - ACCUSE_DISCARD_BASE
    offset, pirate = divmod(action - ACCUSE_BASE, 9)
    return KIND_ACCUSE, -1, (offset + 1, pirate)


def action_to_string(action: int, num_players: int) -> str:
    """Readable name, e.g. "Full Speed Ahead! on ship at position 7"."""
    kind, move_type, param = decode_action(action, num_players)
    if kind == KIND_MOVE:
        name = MOVE_NAMES[move_type]
        if move_type in (0, 1, 10):
            return f"{name} on ship at position {param + 1}"
        if move_type in (2, 3):
            return f"{name} on ships at positions {param + 1}-{param + 2}"
        return name
    if kind == KIND_REPAIR:
        return "Repair all ships"
    if kind == KIND_PASS:
        return "Pass"
    if kind == KIND_PASS_DISCARD:
        return f"Pass and discard {MOVE_NAMES[param]}"
    if kind == KIND_ACCUSE_DISCARD:
        return f"Discard {MOVE_NAMES[param]} to pay for the accusation"
    offset, pirate = param
    return f"Accuse player at offset {offset} of pirate {pirate} ({PIRATE_NAMES[pirate]})"


assert len(MOVE_TYPE_ACTIONS) == NUM_MOVE_TYPES

# --- turn records (PSM-560, PSM-1082) ---------------------------------------------------------------
# A completed turn is recorded publicly as a list of 13 ints:
#   [actor seat, turn kind, accused seat (-1 unless an accusation), ship vector for ships 0..8,
#    discarded card (the move type thrown away by Pass-and-discard or paid for an accusation in
#    the hand variant; -1 otherwise)]
# The ship vector holds each ship's signed forward displacement for a move card, 1 at the target
# for Sabotage, 1 at the named pirate for an accusation, zeros otherwise. The observation encodes
# everything but the discarded card (PSM-1082; the move discard counts show it).
TURN_KIND_REPAIR = 12
TURN_KIND_PASS = 13
TURN_KIND_PASS_DISCARD = 14
TURN_KIND_ACCUSE_CORRECT = 15
TURN_KIND_ACCUSE_WRONG = 16
NUM_TURN_KINDS = 17  # move types 0-11, then the five above
TURN_KIND_NAMES = (*MOVE_NAMES, "Repair", "Pass", "Pass and discard", "Accuse (correct)", "Accuse (wrong)")
RECORD_ACTOR, RECORD_KIND, RECORD_ACCUSED, RECORD_SHIPS, RECORD_CARD = 0, 1, 2, 3, 12
RECORD_LENGTH = 13
