"""The flat action table of ``dead_mans_draw_v0`` (DMD-1003, DMD-1040..1048) and the phases (DMD-1002).

``N = 94 + 11(n-1)``. Seats in TARGET and LOCKER_TARGET are offsets from the decider.
"""

from __future__ import annotations

from pirate_envs.games.dead_mans_draw.cards import ABILITY_NAMES, NUM_CARDS, NUM_SUITS, SUIT_NAMES, card_name

# DMD-1002 phases
(
    ABILITY_CHOICE,
    LOCKER_TARGET,
    DRAW_OR_STOP,
    CANNON_TARGET,
    NAVIGATOR_SELF,
    SWORD_TARGET,
    HOOK_SUIT,
    MAP_PICK,
    MERMAID_PICK,
    RAKE_PICK,
    PLUNDER_PICK,
    LOCKER_ACCEPT,
) = range(12)
NUM_PHASES = 12
GAME_OVER = 12
PHASE_NAMES = (
    "ABILITY_CHOICE",
    "LOCKER_TARGET",
    "DRAW_OR_STOP",
    "CANNON_TARGET",
    "NAVIGATOR_SELF",
    "SWORD_TARGET",
    "HOOK_SUIT",
    "MAP_PICK",
    "MERMAID_PICK",
    "RAKE_PICK",
    "PLUNDER_PICK",
    "LOCKER_ACCEPT",
    "GAME_OVER",
)

STOP = 0  # DMD-1040
DRAW = 1  # DMD-1041
OWN_SUIT_BASE = 2  # DMD-1042
CARD_BASE = 12  # DMD-1043
ABILITY_BASE = 74  # DMD-1044
ACCEPT = 92  # DMD-1045
DECLINE = 93  # DMD-1046
LOCKER_TARGET_BASE = 93  # DMD-1047: index = 93 + offset


def num_actions(n: int) -> int:
    return 94 + 11 * (n - 1)


def target_base(n: int) -> int:
    """DMD-1048: TARGET(offset k, suit s) = target_base + 10(k-1) + s."""
    return 93 + n


def target_action(n: int, offset: int, suit: int) -> int:
    return 93 + n + NUM_SUITS * (offset - 1) + suit


def action_to_string(action: int, n: int) -> str:
    if action == STOP:
        return "STOP"
    if action == DRAW:
        return "DRAW"
    if OWN_SUIT_BASE <= action < CARD_BASE:
        return f"OWN_SUIT {SUIT_NAMES[action - OWN_SUIT_BASE]}"
    if CARD_BASE <= action < CARD_BASE + NUM_CARDS:
        return f"CARD {card_name(action - CARD_BASE)}"
    if ABILITY_BASE <= action < ACCEPT:
        return f"ABILITY {ABILITY_NAMES[action - ABILITY_BASE]}"
    if action == ACCEPT:
        return "ACCEPT"
    if action == DECLINE:
        return "DECLINE"
    if LOCKER_TARGET_BASE < action < target_base(n):
        return f"LOCKER_TARGET offset {action - LOCKER_TARGET_BASE}"
    if target_base(n) <= action < num_actions(n):
        k, s = divmod(action - target_base(n), NUM_SUITS)
        return f"TARGET offset {k + 1} {SUIT_NAMES[s]}"
    return f"<invalid action {action}>"
