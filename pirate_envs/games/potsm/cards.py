"""Components of Pirates of the Spanish Main: The Card Game, as data (rules Section 2).

Ships and pirates share ids 0-8 (PSM-104, PSM-201): 0-2 English, 3-5 Spanish, 6-8 Dutch.
Adventure cards (PSM-202) and movement cards (PSM-204) are identified by their *type*; a deck
is a list of types. Names other than Captain Blackheart are invented (PSM-1102).
"""

from __future__ import annotations

# --- ships, nations and pirates (PSM-201) ----------------------------------------------------------

NUM_SHIPS = 9
ENGLISH, SPANISH, DUTCH = 0, 1, 2
NATION_NAMES = ("English", "Spanish", "Dutch")
NATION_OF_SHIP = (0, 0, 0, 1, 1, 1, 2, 2, 2)
SHIPS_OF_NATION = ((0, 1, 2), (3, 4, 5), (6, 7, 8))

PIRATE_NAMES = (
    "Captain Blackheart",
    "Mary Redhand",
    "Silas Crowe",
    "Diego Salazar",
    "Isabel Cortés",
    "El Tiburón",
    "Pieter Vos",
    "Anneke de Wit",
    "Jan Zwartbaard",
)
SHIP_NAMES = (
    "Raven's Wake",
    "Scarlet Thorn",
    "Gallows Bell",
    "Santa Espina",
    "La Sirena Negra",
    "Fuego del Mar",
    "Zeewolf",
    "Gouden Meeuw",
    "Stormvogel",
)

# --- adventure cards (PSM-202, effects PSM-610..627) ------------------------------------------------

ANCIENT_RELICS = 0
NATIVE_ALLIANCE = 1
ISLAND_DISCOVERY = 2
PARLEY = 3
NEPTUNES_FAVOR = 4
TREASURE_MAP = 5
LEGENDARY_TREASURE = 6
MERMAIDS = 7
SECRET_CHARTS = 8
CURSED_TREASURE = 9
STORM_AHEAD = 10
MAELSTROM = 11
GHOST_SHIP = 12
VOLCANO = 13
KRAKEN = 14
CURSED_WATER = 15
CURSED_SHIP = 16
MUTINY = 17
ENGLISH_ATTACK, SPANISH_ATTACK, DUTCH_ATTACK = 18, 19, 20
ENGLISH_LOOT, SPANISH_LOOT, DUTCH_LOOT = 21, 22, 23

NUM_ADVENTURE_TYPES = 24
ADVENTURE_NAMES = (
    "Ancient Relics",
    "Native Alliance",
    "Island Discovery",
    "Parley",
    "Neptune's Favor",
    "Treasure Map",
    "Legendary Treasure",
    "Mermaids",
    "Secret Charts",
    "Cursed Treasure",
    "Storm Ahead",
    "Maelstrom",
    "Ghost Ship",
    "Volcano",
    "Kraken",
    "Cursed Water",
    "Cursed Ship",
    "Mutiny",
    "English Attack",
    "Spanish Attack",
    "Dutch Attack",
    "English Loot",
    "Spanish Loot",
    "Dutch Loot",
)
ADVENTURE_COUNTS = (2, 2, 2, 2, 4, 6, 2, 4, 3, 2, 2, 5, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2)
NUM_ADVENTURE_CARDS = 58  # PSM-203

ADVENTURE_TEXT = (
    "+1 fame to undamaged ships at positions 1, 2, 3",
    "+1 fame to undamaged ships at positions 1, 2, 3",
    "+1 fame to undamaged ships at positions 1, 2, 3, 4",
    "+1 fame to undamaged ships at positions 1, 2, 3, 4",
    "+1 fame to undamaged ships at positions 1, 3, 5",
    "+1 fame to the front 3 undamaged ships",
    "+2 fame to the front 2 undamaged ships",
    "+1 fame to undamaged ships at positions 1, 2, 4, 6",
    "+1 fame to the front 2 undamaged ships",
    "+2 fame to the front 2 undamaged ships, then they become damaged",
    "the last 2 undamaged ships become damaged",
    "the last undamaged ship becomes damaged",
    "ships at positions 7, 8, 9 become damaged and lose 1 fame each",
    "the front undamaged ship becomes damaged",
    "ships at positions 4, 6, 8 become damaged",
    "ships at positions 5, 7, 9 become damaged",
    "ships at positions 1 and 2 lose 1 fame each",
    "the frontmost unrevealed ship's pirate is revealed and the ship loses half its fame (rounded up)",
    "each undamaged English ship damages every non-English ship ahead of it",
    "each undamaged Spanish ship damages every non-Spanish ship ahead of it",
    "each undamaged Dutch ship damages every non-Dutch ship ahead of it",
    "each undamaged English ship takes 1 fame from every non-English ship behind it",
    "each undamaged Spanish ship takes 1 fame from every non-Spanish ship behind it",
    "each undamaged Dutch ship takes 1 fame from every non-Dutch ship behind it",
)

# Effect parameters, 0-based positions (position 1 = index 0).
# PSM-610, 611, 612, 615: +1 to the undamaged ship at each listed position.
POSITION_AWARDS = {
    ANCIENT_RELICS: (0, 1, 2),
    NATIVE_ALLIANCE: (0, 1, 2),
    ISLAND_DISCOVERY: (0, 1, 2, 3),
    PARLEY: (0, 1, 2, 3),
    NEPTUNES_FAVOR: (0, 2, 4),
    MERMAIDS: (0, 1, 3, 5),
}
# PSM-613, 614, 616, 617: (number of front undamaged ships, fame each).
FRONT_AWARDS = {
    TREASURE_MAP: (3, 1),
    LEGENDARY_TREASURE: (2, 2),
    SECRET_CHARTS: (2, 1),
    CURSED_TREASURE: (2, 2),
}
# PSM-620, 622, 623: ships at these positions become damaged.
POSITION_DAMAGE = {
    GHOST_SHIP: (6, 7, 8),
    KRAKEN: (3, 5, 7),
    CURSED_WATER: (4, 6, 8),
}
# PSM-624: ships at these positions lose 1 fame.
CURSED_SHIP_POSITIONS = (0, 1)

# --- movement cards (PSM-204, effects PSM-630..637) -------------------------------------------------

FULL_SPEED_AHEAD = 0
LOST_AT_SEA = 1
TEMPORARY_ALLIANCE = 2
CAUGHT_IN_A_RIP = 3
ENGLISH_ADVANCE, SPANISH_ADVANCE, DUTCH_ADVANCE = 4, 5, 6
ENGLISH_RETREAT, SPANISH_RETREAT, DUTCH_RETREAT = 7, 8, 9
SABOTAGE = 10
FOG = 11

NUM_MOVE_TYPES = 12
MOVE_NAMES = (
    "Full Speed Ahead!",
    "Lost at Sea",
    "Temporary Alliance",
    "Caught in a Rip",
    "English Advance",
    "Spanish Advance",
    "Dutch Advance",
    "English Retreat",
    "Spanish Retreat",
    "Dutch Retreat",
    "Sabotage!",
    "There Be Fog Ahead!",
)
MOVE_COUNTS = (2, 3, 4, 3, 1, 1, 1, 1, 1, 1, 5, 1)
NUM_MOVE_CARDS = 24  # PSM-205

FULL_SPEED_DISTANCE = 6  # PSM-630
LOST_AT_SEA_DISTANCE = 6  # PSM-631
ALLIANCE_DISTANCE = 3  # PSM-632
RIP_DISTANCE = 3  # PSM-633
NATION_MOVE_DISTANCE = 2  # PSM-634, PSM-635

# Move-tally column of each move type (PSM-1079): 0 forward, 1 backward, 2 sabotage, -1 none.
TALLY_FORWARD, TALLY_BACKWARD, TALLY_SABOTAGE = 0, 1, 2
MOVE_TALLY_COLUMN = (0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 2, -1)

# --- setup sizes (PSM-303, PSM-304, PSM-803) --------------------------------------------------------

MOVE_ROW_SIZE = 3


def pirates_per_player(num_players: int) -> int:
    """PSM-303: 3 pirates each with two players, otherwise 2."""
    return 3 if num_players == 2 else 2


def hand_size(num_players: int) -> int:
    """PSM-803: starting move-card hand in the hand variant, 4 with two players, otherwise 3."""
    return 4 if num_players == 2 else 3


assert sum(ADVENTURE_COUNTS) == NUM_ADVENTURE_CARDS and len(ADVENTURE_NAMES) == NUM_ADVENTURE_TYPES
assert sum(MOVE_COUNTS) == NUM_MOVE_CARDS and len(MOVE_NAMES) == NUM_MOVE_TYPES
