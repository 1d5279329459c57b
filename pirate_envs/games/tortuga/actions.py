"""Tortuga 1667's action indices (TOR-1002): one ``Discrete(21 + 3n)`` space for every phase.

Player targets are seat offsets from the acting seat (offset 0 = self): seat = (actor + k) mod n.
"""

from __future__ import annotations

from pirate_envs.games.tortuga.board import NODE_NAMES, SHIP_NAMES

MOVE_BASE = 0  # 0-7: MOVE_TO node
PASS = 8
ATTACK = 9
MUTINY = 10
STEAL_GALLEON = 11
STEAL_BASE = 12


class ActionIndex:
    """Index arithmetic for one player count n."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.steal = STEAL_BASE
        self.dispute = 12 + n
        self.vote = 12 + 2 * n  # YES, NO, WILD
        self.declare = 15 + 2 * n  # YES, NO
        self.draw = 17 + 2 * n
        self.select = 18 + 2 * n
        self.ship = 18 + 3 * n
        self.num_actions = 21 + 3 * n

    def to_string(self, a: int) -> str:
        n = self.n
        if 0 <= a < 8:
            return f"MOVE_TO {NODE_NAMES[a]}"
        if a == PASS:
            return "PASS"
        if a == ATTACK:
            return "ATTACK"
        if a == MUTINY:
            return "MUTINY"
        if a == STEAL_GALLEON:
            return "STEAL_GALLEON"
        if self.steal <= a < self.steal + n:
            return f"STEAL_PLAYER +{a - self.steal}"
        if self.dispute <= a < self.dispute + n:
            return f"DISPUTE +{a - self.dispute}"
        if self.vote <= a < self.vote + 3:
            return ("VOTE_YES", "VOTE_NO", "VOTE_WILD")[a - self.vote]
        if self.declare <= a < self.declare + 2:
            return ("DECLARE_YES", "DECLARE_NO")[a - self.declare]
        if a == self.draw:
            return "DRAW_EVENT"
        if self.select <= a < self.select + n:
            return f"SELECT_PLAYER +{a - self.select}"
        if self.ship <= a < self.ship + 3:
            return f"SELECT_SHIP {SHIP_NAMES[a - self.ship]}"
        return f"<invalid action {a}>"
