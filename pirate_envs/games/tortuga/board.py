"""Tortuga 1667's fixed components (``docs/rules/tortuga.md`` Sections 2, 3 and 6).

The sea map (TOR-204) with its capacities and precomputed "within 2 moves" sets (TOR-501), the
nation and role tables by player count (TOR-303, TOR-304), the event deck (TOR-307, Section 6),
and the constants naming roles, nations, cards and log entry types (TOR-1004).
"""

from __future__ import annotations

# --- nations (TOR-202) ---------------------------------------------------------------------------------
ENGLAND, FRANCE, SPAIN = 0, 1, 2
NATION_NAMES = ("England", "France", "Spain")
NATION_TABLE = {  # TOR-303: n -> (England, France, Spain)
    2: (1, 1, 0),
    3: (1, 1, 1),
    4: (2, 1, 1),
    5: (2, 2, 1),
    6: (2, 2, 2),
    7: (3, 2, 2),
    8: (3, 3, 2),
    9: (3, 3, 3),
}

# --- roles (TOR-304); the role id is also the observation's role one-hot index (TOR-1004) ----------------
C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR = range(8)
ROLE_NAMES = ("Captain ENG", "Captain FRA", "Captain SPA", "First Mate ENG", "First Mate FRA", "First Mate SPA")
ROLE_NAMES += ("Governor", "Sailor")
ROLE_SHORT = ("C-ENG", "C-FRA", "C-SPA", "FM-ENG", "FM-FRA", "FM-SPA", "GOV", "S")
ROLE_TABLE = {
    2: (C_ENG, C_FRA),
    3: (C_ENG, FM_ENG, SAILOR),
    4: (C_ENG, FM_ENG, GOVERNOR, SAILOR),
    5: (C_ENG, C_FRA, FM_ENG, GOVERNOR, SAILOR),
    6: (C_ENG, C_FRA, FM_ENG, FM_FRA, GOVERNOR, SAILOR),
    7: (C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, GOVERNOR, SAILOR),
    8: (C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR),
    9: (C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR, SAILOR),
}
SHIP_NAMES = ("ENG", "FRA", "SPA")


def is_captain(role: int) -> bool:
    return role <= C_SPA


def is_first_mate(role: int) -> bool:
    return FM_ENG <= role <= FM_SPA


# --- the map (TOR-204) ----------------------------------------------------------------------------------
TOR, ENG_BERTH, FRA_BERTH, SPA_BERTH, GAL, LANE_E, LANE_F, LANE_S = range(8)
NUM_NODES = 8
NODE_NAMES = ("TOR", "ENG", "FRA", "SPA", "GAL", "LANE_E", "LANE_F", "LANE_S")
CAPACITY = (9, 3, 3, 3, 5, 1, 1, 1)
NEIGHBOURS = ((5, 6, 7), (4, 5), (4, 6), (4, 7), (1, 2, 3), (0, 1), (0, 2), (0, 3))
AREA_NODES = (0, 1, 2, 3, 4)
SHIP_NODE = (ENG_BERTH, FRA_BERTH, SPA_BERTH)  # ship s (0 ENG, 1 FRA, 2 SPA) -> its berth node


def _distances() -> tuple[tuple[int, ...], ...]:
    rows = []
    for start in range(NUM_NODES):
        dist = [-1] * NUM_NODES
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for node in frontier:
                for nb in NEIGHBOURS[node]:
                    if dist[nb] < 0:
                        dist[nb] = dist[node] + 1
                        nxt.append(nb)
            frontier = nxt
        rows.append(tuple(dist))
    return tuple(rows)


DISTANCE = _distances()
# TOR-501: nodes within 2 moves, the start included (staying is always legal).
REACH = tuple(tuple(m for m in range(NUM_NODES) if DISTANCE[s][m] <= 2) for s in range(NUM_NODES))

# --- treasure (TOR-201, TOR-302) --------------------------------------------------------------------------
TOTAL_TREASURE = 30


def galleon_start(n: int) -> int:
    """TOR-302: G0 = 8 + n."""
    return 8 + n


# --- event deck (Section 6, TOR-613) ----------------------------------------------------------------------
FLOATING_CARGO, BURIED_CHEST, FAIR_WINDS, STRONG_CURRENT, MUTINY_BREWS, TAVERN_BRAWL = range(6)
SCURVY, SHIPWRECK, COUNTERATTACK, SPYGLASS, TREASURE_MAP, ARMADA = range(6, 12)
NUM_CARD_TYPES = 12
CARD_NAMES = (
    "Floating Cargo",
    "Buried Chest",
    "Fair Winds",
    "Strong Current",
    "Mutiny Brews",
    "Tavern Brawl",
    "Scurvy",
    "Shipwreck",
    "Spanish Counterattack",
    "Spyglass",
    "Treasure Map",
    "Spanish Armada",
)
CARD_COUNTS = (3, 1, 2, 1, 2, 1, 2, 1, 1, 1, 3, 1)
DECK_SIZE = sum(CARD_COUNTS)  # 19
ARMADA_PACKET = {"bottom5": 5, "bottom10": 10, "last": 1}  # TOR-307, TOR-806

# --- votes (TOR-1004 current_vote type) -----------------------------------------------------------------
V_ATTACK, V_MUTINY, V_DISPUTE, V_BRAWL = range(4)
VOTE_TYPE_NAMES = ("ATTACK", "MUTINY", "DISPUTE", "BRAWL")
CARD_YES, CARD_NO, CARD_WILD = 0, 1, 2
VOTE_CARD_NAMES = ("Yes", "No", "Wild")

# --- public log entry types (TOR-1004) --------------------------------------------------------------------
(
    LOG_ATTACK_FAILED,
    LOG_ATTACK_PASSED,
    LOG_LOOT_GIVEN,
    LOG_MUTINY_FAILED,
    LOG_EXILED,
    LOG_PROMOTED,
    LOG_STEAL_PLAYER,
    LOG_STEAL_GALLEON,
    LOG_DISPUTE_FAILED,
    LOG_DISPUTE_PASSED,
    LOG_EVENT_DRAWN,
    LOG_DRAW_DECLINED,
    LOG_MAP_GIFTED,
    LOG_PAWN_MOVED,
    LOG_TREASURE_EVENT,
    LOG_SPYGLASS,
) = range(16)
NUM_LOG_TYPES = 16
LOG_LENGTH = 12
LOG_NAMES = (
    "attack failed",
    "attack passed",
    "loot given",
    "mutiny failed",
    "exiled",
    "promoted",
    "steal",
    "galleon steal",
    "dispute failed",
    "dispute passed",
    "event drawn",
    "draw declined",
    "map gifted",
    "pawn moved",
    "treasure",
    "spyglass",
)
