"""The flat action space of Madame Ching, Discrete(105) for every player count (MCH-1003), and phases (MCH-1002)."""

from __future__ import annotations

from pirate_envs.games.madame_ching.cards import ENC_NAMES, SKILL_NAMES, TOKEN_NAMES, card_label

NUM_ACTIONS = 105
CARD_BASE = 0  # 0-54: navigation card k+1
SLOT_BASE = 55  # 55-58: display slot 0..3
MISSION_BASE = 59  # 59-81: tile M01..M23
SKILL_BASE = 82  # 82-86: Cartography, Night Sailing, Combat, Weather, Elite
TARGET_BASE = 86  # 87-89: TARGET_BASE + offset (1..3)
GEM_BASE = 89  # 90-92: GEM_BASE + token (1 blue, 2 red, 3 white)
PLAY_ENC_BASE = 90  # 93-99: PLAY_ENC_BASE + encounter kind (3 Thief .. 9 Madame Ching)
USE_COMBAT = 100
USE_WEATHER = 101
USE_CARTOGRAPHY = 102
GIVE_TO_PARTNER = 103
PASS = 104

PHASES = (
    "SELECT",
    "WEATHER",
    "NIGHT_SAIL",
    "MISSION_CHOOSE",
    "SKILL_CLAIM",
    "ENC_GIFT",
    "ACTION",
    "THIEF_TARGET",
    "THIEF_GEM",
    "SPY_TARGET",
    "SALVAGE_CHOOSE",
    "SIREN_TARGET",
    "MC_SKILL",
    "COMBAT_TARGET",
    "COMBAT_GIVE",
    "TAKE",
    "CARTO",
    "TEAM_RETURN",
    "TEAM_GIVE",
)
(
    SELECT,
    WEATHER_PHASE,
    NIGHT_SAIL,
    MISSION_CHOOSE,
    SKILL_CLAIM,
    ENC_GIFT,
    ACTION,
    THIEF_TARGET,
    THIEF_GEM,
    SPY_TARGET,
    SALVAGE_CHOOSE,
    SIREN_TARGET,
    MC_SKILL,
    COMBAT_TARGET,
    COMBAT_GIVE,
    TAKE,
    CARTO,
    TEAM_RETURN,
    TEAM_GIVE,
) = range(19)
NUM_PHASES = 19


def card_action(card: int) -> int:
    return CARD_BASE + card - 1


def action_to_string(action: int) -> str:
    """Human-readable name of a flat action index."""
    if 0 <= action < 55:
        return f"CARD[{card_label(action + 1)}]"
    if action < 59:
        return f"SLOT[{action - SLOT_BASE}]"
    if action < 82:
        return f"MISSION[M{action - MISSION_BASE + 1:02d}]"
    if action < 87:
        return f"SKILL[{SKILL_NAMES[action - SKILL_BASE]}]"
    if action < 90:
        return f"TARGET[offset {action - TARGET_BASE}]"
    if action < 93:
        return f"GEM[{TOKEN_NAMES[action - GEM_BASE]}]"
    if action < 100:
        return f"PLAY_ENC[{ENC_NAMES[action - PLAY_ENC_BASE]}]"
    names = {
        USE_COMBAT: "USE_COMBAT",
        USE_WEATHER: "USE_WEATHER",
        USE_CARTOGRAPHY: "USE_CARTOGRAPHY",
        GIVE_TO_PARTNER: "GIVE_TO_PARTNER",
        PASS: "PASS",
    }
    if action in names:
        return names[action]
    return f"<out of range {action}>"
