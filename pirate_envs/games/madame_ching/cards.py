"""Madame Ching components (MCH Section 2, 6): navigation cards, skills, encounters, mission tiles, the sea grid.

Conventions: a navigation card is its number 1..55; skill kinds and icon kinds share indices
(0 Cartography/Map, 1 Night Sailing/Lantern, 2 Combat/Swords, 3 Weather/Kite, 4 Elite); encounter
cards are kind ints 0..9 (three Sacred Treasure values, then the seven playable kinds).
"""

from __future__ import annotations

NUM_NAV_CARDS = 55  # MCH-206

# MCH-206: colour groups (contiguous number ranges) and icons.
COLOUR_NAMES = ("White", "Blue", "Green", "Yellow", "Red", "Purple")
COLOUR_LETTERS = ("W", "B", "G", "Y", "R", "P")
_COLOUR_RANGES = ((1, 5), (6, 25), (26, 39), (40, 46), (47, 51), (52, 55))

CARTOGRAPHY, NIGHT_SAILING, COMBAT, WEATHER, ELITE = 0, 1, 2, 3, 4
NUM_SKILL_KINDS = 5
SKILL_NAMES = ("Cartography", "Night Sailing", "Combat", "Weather", "Elite")
ICON_NAMES = ("Map", "Lantern", "Swords", "Kite")
ICON_LETTERS = ("M", "L", "S", "K")
NO_ICON = -1
SKILL_VP = (2, 2, 2, 2, 1)  # MCH-208
SKILL_STACK_SIZE = 4

_M, _L, _S, _K, _N = CARTOGRAPHY, NIGHT_SAILING, COMBAT, WEATHER, NO_ICON
_ICONS_BY_NUMBER = (
    # White 1-5
    _M, _N, _L, _K, _S,
    # Blue 6-25
    _L, _M, _K, _N, _S, _M, _L, _N, _K, _M, _N, _S, _L, _N, _K, _M, _N, _S, _L, _N,
    # Green 26-39
    _S, _K, _N, _M, _L, _S, _N, _K, _M, _N, _S, _L, _K, _N,
    # Yellow 40-46
    _K, _M, _N, _S, _L, _N, _K,
    # Red 47-51
    _L, _S, _N, _M, _K,
    # Purple 52-55
    _M, _L, _N, _S,
)  # fmt: skip

# Indexed by card number (index 0 unused).
COLOUR: tuple[int, ...] = (
    -1,
    *tuple(next(i for i, (lo, hi) in enumerate(_COLOUR_RANGES) if lo <= c <= hi) for c in range(1, 56)),
)
ICON: tuple[int, ...] = (NO_ICON, *_ICONS_BY_NUMBER)


def card_label(card: int) -> str:
    """'12B-L' style label (MCH-12 notation)."""
    icon = ICON[card]
    return f"{card}{COLOUR_LETTERS[COLOUR[card]]}-{ICON_LETTERS[icon] if icon >= 0 else '-'}"


# MCH-202: the sea grid. Columns 1..8, rows 1..7 (r <= c); column 0 = start box.
LAST_COLUMN = 8
LAST_ROW = 7
LINE_DRAWS = {5: 1, 7: 2}  # MCH-203/508: entering column 5 crosses L1 (1 card), column 7 crosses L2 (2 cards)
HONG_KONG_SPACES = ((7, 7), (8, 7))  # MCH-509

# MCH-209 / 6.2: encounter kinds.
TREASURE_1, TREASURE_2, TREASURE_3 = 0, 1, 2
THIEF, SPY, NEGOTIATOR, SALVAGER, ORACLE, SIREN, MADAME_CHING = 3, 4, 5, 6, 7, 8, 9
NUM_ENC_KINDS = 10
ENC_NAMES = (
    "Treasure(1)",
    "Treasure(2)",
    "Treasure(3)",
    "Thief",
    "Spy",
    "Negotiator",
    "Salvager",
    "Oracle",
    "Siren",
    "Madame Ching",
)
ENC_COUNTS = (2, 2, 2, 5, 4, 5, 4, 4, 3, 2)  # 33
TREASURE_VP = (1, 2, 3, 0, 0, 0, 0, 0, 0, 0)
PLAYABLE_KINDS = (THIEF, SPY, NEGOTIATOR, SALVAGER, ORACLE, SIREN, MADAME_CHING)

# Gold and gems (MCH-201): supply index 0 gold, 1 blue, 2 red, 3 white.
GOLD, BLUE, RED, WHITE = 0, 1, 2, 3
TOKEN_NAMES = ("gold", "blue", "red", "white")
TOKEN_VP = (1, 2, 3, 4)
TOKEN_SUPPLY = (46, 12, 12, 12)

# MCH-204 / 6.3: mission slots and tiles. Reward = (gold, blue, red, white, encounter draws).
# The top tile M23 and its slot are numbered 32 (MCH-204/210; an earlier draft had 36, with which
# 8.2% of 3-player heuristic games ran to the round limit); 32 = (8,4) is reachable at the world's end.
SLOT_CAPACITY: dict[int, int] = {4: 1, 6: 2, 8: 1, 10: 2, 12: 2, 15: 1, 18: 1, 20: 1, 24: 1, 30: 1, 32: 1}
MISSION_NUMBER: tuple[int, ...] = (4, 4, 6, 6, 6, 8, 8, 10, 10, 10, 12, 12, 12, 15, 15, 18, 18, 20, 20, 24, 24, 30, 32)
MISSION_REWARD: tuple[tuple[int, int, int, int, int], ...] = (
    (2, 0, 0, 0, 0),  # M01
    (0, 1, 0, 0, 0),  # M02
    (1, 1, 0, 0, 0),  # M03
    (0, 0, 1, 0, 0),  # M04
    (1, 0, 0, 0, 1),  # M05
    (1, 1, 0, 0, 0),  # M06
    (3, 0, 0, 0, 0),  # M07
    (0, 0, 0, 1, 0),  # M08
    (0, 2, 0, 0, 0),  # M09
    (0, 0, 1, 0, 1),  # M10
    (1, 0, 1, 0, 0),  # M11
    (0, 1, 1, 0, 0),  # M12
    (2, 0, 0, 0, 1),  # M13
    (1, 0, 0, 1, 0),  # M14
    (0, 1, 1, 0, 1),  # M15
    (0, 0, 2, 0, 0),  # M16
    (0, 1, 0, 1, 1),  # M17
    (0, 0, 1, 1, 0),  # M18
    (0, 2, 1, 0, 0),  # M19
    (0, 0, 0, 2, 0),  # M20
    (1, 0, 1, 1, 1),  # M21
    (0, 1, 0, 2, 0),  # M22
    (0, 0, 1, 2, 1),  # M23
)
NUM_MISSIONS = 23


def mission_label(tile: int) -> str:
    """'M08 #10 (1 white)' style label."""
    parts = [f"{n} {name}" for n, name in zip(MISSION_REWARD[tile][:4], TOKEN_NAMES, strict=False) if n]
    if MISSION_REWARD[tile][4]:
        parts.append("enc")
    return f"M{tile + 1:02d} #{MISSION_NUMBER[tile]} ({' + '.join(parts)})"


def mission_count(num_players: int) -> int:
    """MCH-303: tiles placed in setup."""
    return 12 if num_players == 3 else 14
