"""Components of Dead Man's Draw (DMD-201..233): suits, card ids, ability cards, variant cards.

Cards are integers ``0..61``: ``card = SUIT_BASE[suit] + value - 2`` (DMD-201). Every (suit, value)
pair exists once, so the id names the card. Abilities are integers ``0..17`` (DMD-214..231).
"""

from __future__ import annotations

NUM_SUITS = 10
NUM_CARDS = 62
NUM_ABILITIES = 18

ANCHOR, CANNON, CHEST, KEY, HOOK, KRAKEN, MAP, MERMAID, ORACLE, SWORD = range(NUM_SUITS)
SUIT_NAMES = ("Anchor", "Cannon", "Chest", "Key", "Hook", "Kraken", "Map", "Mermaid", "Oracle", "Sword")
SUIT_SHORT = ("An", "Ca", "Ch", "Ke", "Ho", "Kr", "Ma", "Me", "Or", "Sw")
SUIT_BASE = (0, 6, 12, 18, 24, 30, 36, 42, 50, 56)  # DMD-201
SUIT_SIZE = (6, 6, 6, 6, 6, 6, 6, 8, 6, 6)  # DMD-202..211 (in the box)

CARD_SUIT: tuple[int, ...] = tuple(s for s in range(NUM_SUITS) for _ in range(SUIT_SIZE[s]))
CARD_VALUE: tuple[int, ...] = tuple(v for s in range(NUM_SUITS) for v in range(2, 2 + SUIT_SIZE[s]))
MARKER = -1  # DMD-502: the anchor marker's entry in the row (not a card)


def card_id(suit: int, value: int) -> int:
    """DMD-201: the id of ``Suit value``."""
    if not 2 <= value < 2 + SUIT_SIZE[suit]:
        raise ValueError(f"{SUIT_NAMES[suit]} has no value {value}")
    return SUIT_BASE[suit] + value - 2


def card_name(card: int) -> str:
    if card == MARKER:
        return "[anchor marker]"
    return f"{SUIT_NAMES[CARD_SUIT[card]]} {CARD_VALUE[card]}"


def card_short(card: int) -> str:
    if card == MARKER:
        return "[*]"
    return f"{SUIT_SHORT[CARD_SUIT[card]]}{CARD_VALUE[card]}"


def parse_card(text: str) -> int:
    """``"Key 5"`` -> its id (used by tests)."""
    suit_name, value = text.rsplit(" ", 1)
    return card_id(SUIT_NAMES.index(suit_name), int(value))


def deck_cards(mermaid_variant: bool) -> list[int]:
    """DMD-301: the 60 cards in play (base: no Mermaid 2, 3; mermaid variant: no Mermaid 8, 9)."""
    removed = (8, 9) if mermaid_variant else (2, 3)
    return [c for c in range(NUM_CARDS) if not (CARD_SUIT[c] == MERMAID and CARD_VALUE[c] in removed)]


def starting_discard_cards(mermaid_variant: bool) -> list[int]:
    """DMD-302: the lowest card of each suit in play."""
    lowest_mermaid = 2 if mermaid_variant else 4
    return [card_id(s, lowest_mermaid if s == MERMAID else 2) for s in range(NUM_SUITS)]


# --- ability cards (DMD-213..231) -------------------------------------------------------------------
ABILITY_KEYS = (
    "master_gunner",
    "scavenger",
    "fisherman",
    "kraken_king",
    "davy_jones_locker",
    "safe_harbor",
    "miser",
    "captain_hook",
    "plunderer",
    "bounty_hunter",
    "misfire",
    "navigator",
    "parry",
    "swordsman",
    "mystic",
    "rake",
    "golden_mermaid",
    "siren",
)
(
    MASTER_GUNNER,
    SCAVENGER,
    FISHERMAN,
    KRAKEN_KING,
    LOCKER,
    SAFE_HARBOR,
    MISER,
    CAPTAIN_HOOK,
    PLUNDERER,
    BOUNTY_HUNTER,
    MISFIRE,
    NAVIGATOR,
    PARRY,
    SWORDSMAN,
    MYSTIC,
    RAKE,
    GOLDEN_MERMAID,
    SIREN,
) = range(NUM_ABILITIES)
ABILITY_NAMES = (
    "Master Gunner",
    "Scavenger",
    "Fisherman",
    "Kraken King",
    "Davy Jones' Locker",
    "Safe Harbor",
    "Miser",
    "Captain Hook",
    "Plunderer",
    "Bounty Hunter",
    "Misfire",
    "Navigator",
    "Parry",
    "Swordsman",
    "Mystic",
    "Rake",
    "Golden Mermaid",
    "Siren",
)


def ability_pool(mermaid_variant: bool) -> list[int]:
    """DMD-304, DMD-231: 17 abilities, plus Siren with the mermaid variant."""
    return list(range(NUM_ABILITIES if mermaid_variant else NUM_ABILITIES - 1))


# --- variant cards (DMD-232, DMD-804) -----------------------------------------------------------------
VARIANTS = ("none", "grand_slam", "sudden_death", "thieves_island", "uncharted_waters", "piri_reis", "undertow")
VARIANT_OPTIONS = (*VARIANTS, "random")
NONE, GRAND_SLAM, SUDDEN_DEATH, THIEVES_ISLAND, UNCHARTED_WATERS, PIRI_REIS, UNDERTOW = range(len(VARIANTS))
VARIANT_CARDS = tuple(range(GRAND_SLAM, len(VARIANTS)))  # the six cards `random` draws from; "none" is no card
SUDDEN_DEATH_TARGET = 50  # DMD-805
UNDERTOW_LIMIT = 60  # DMD-809
FORCED_DRAW_MAX = 8.0  # DMD-1078: divisor of the pending forced draws
