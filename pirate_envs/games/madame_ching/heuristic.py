"""A heuristic bot for Madame Ching that reads only its own observation and action mask.

Plan: sail each expedition towards the best mission tile still on the board (continue with the
smallest higher card, preferring a colour change; end with the lowest card once the current space
already reaches the best tile in reach or column 6+), draft cards that fit the plan, always use
Weather/Night Sailing/Cartography when they help, claim skills that complete the China Pearl, and
play every encounter card that gains something (Negotiator, Thief on the richest, Madame Ching,
Oracle, Salvager, Spy, Siren on the most advanced opponent boat).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import COLOUR, MISSION_NUMBER, MISSION_REWARD, NUM_MISSIONS, TOKEN_VP
from pirate_envs.games.madame_ching.observation import field_slices

TILE_VP = [sum(MISSION_REWARD[t][i] * TOKEN_VP[i] for i in range(4)) + 1.5 * MISSION_REWARD[t][4] for t in range(23)]


class HeuristicPolicy:
    """Rule-based bot for ``madame_ching_v0`` (observation and mask only)."""

    name = "heuristic"

    def __init__(self, game: Any, end_column: int = 6) -> None:
        self.num_players = n = int(game.num_players)
        self.num_boats = 4 if n == 2 else n
        self.end_column = end_column
        self.start = {name: sl.start for name, sl in field_slices(n, self.num_boats).items()}

    def __repr__(self) -> str:
        return f"HeuristicPolicy(num_players={self.num_players})"

    # --- reading the observation ------------------------------------------------------------------------------
    # ndarray methods (``a.nonzero()[0]``, ``a.argmax()``) rather than np.flatnonzero / np.argmax: the same
    # results without the Python-level wrappers, which cost more than the work on these short slices.
    def _boat(self, obs: np.ndarray, i: int) -> tuple[list[int], int, int]:
        """Expedition ``i``'s cards (ascending), column and row. The column and row are one-hots that are
        always set (MCH-1006), so they are the last two non-zero entries of the 72."""
        base = self.start["expeditions"] + 77 * i
        *cards, col, row = obs[base : base + 72].nonzero()[0].tolist()
        return [k + 1 for k in cards], col - 55, row - 64

    def _hand(self, obs: np.ndarray) -> list[int]:
        base = self.start["own_hand"]
        return [k + 1 for k in obs[base : base + 55].nonzero()[0].tolist()]

    def _board(self, obs: np.ndarray) -> list[int]:
        base = self.start["missions"]
        return (obs[base : base + NUM_MISSIONS] > 0.5).nonzero()[0].tolist()

    def _active_own_boat(self, obs: np.ndarray) -> int:
        base = self.start["boat_flags"]
        for i in range(2 if self.num_players == 2 else 1):
            if obs[base + 2 * i + 1] > 0.5:
                return i
        return 0

    # --- choosing the card ---------------------------------------------------------------------------------------
    def _select(self, obs: np.ndarray, legal: list[int]) -> int:
        hand = [a + 1 for a in legal]
        boat = int(obs[self.start["select_boat"] : self.start["select_boat"] + 2].argmax())
        cards, col, row = self._boat(obs, boat)
        lowest = min(hand)
        if not cards:
            return lowest - 1
        last = cards[-1]
        higher = [c for c in hand if c > last]
        lower = [c for c in hand if c < last]
        if col == 8 or not higher:
            return lowest - 1
        board = self._board(obs)
        numbers = [MISSION_NUMBER[t] for t in board]
        v = col * row
        reached = max((x for x in numbers if x <= v), default=0)
        top = max(numbers, default=0)
        if lower and reached and (reached == top or col >= self.end_column):
            return min(lower) - 1

        def merit(c: int) -> float:
            change = COLOUR[c] != COLOUR[last]
            return 12.0 * change - (c - last)

        return max(higher, key=merit) - 1

    def _take(self, obs: np.ndarray, legal: list[int]) -> int:
        base = self.start["display"]
        own = [self._boat(obs, i) for i in range(2 if self.num_players == 2 else 1)]
        lasts = [b[0][-1] if b[0] else 0 for b in own]
        hand = self._hand(obs)
        best, best_score = legal[0], -1e9
        for a in legal:
            slot = a - act.SLOT_BASE
            if slot == 0:
                score = 1.5
            else:
                card = int(obs[base + 57 * slot : base + 57 * slot + 55].argmax()) + 1
                score = 1.0
                for last in lasts:
                    if last < card <= last + 12:
                        score = max(score, 3.0 + (COLOUR[card] != COLOUR[last]))
                if card <= 8 and not any(h <= 8 for h in hand):
                    score = max(score, 2.5)
            if score > best_score:
                best, best_score = a, score
        return best

    def _own_kinds(self, obs: np.ndarray) -> list[float]:
        base = self.start["skills"]
        skills = obs[base : base + 10].tolist()  # quarters: the float sums are exact as in float32
        return [skills[k] + skills[5 + k] for k in range(5)]

    def _pick_skill(self, obs: np.ndarray, legal: list[int]) -> int:
        owned = self._own_kinds(obs)
        return min(legal, key=lambda a: (a == act.SKILL_BASE + 4, owned[a - act.SKILL_BASE] if a < 86 else 9, a))

    def _target(self, obs: np.ndarray, legal: list[int], what: str) -> int:
        """Richest opponent in gems (Thief), most encounter cards (Spy), else the first."""
        if what == "thief":
            base = self.start["tokens"]
            return max(legal, key=lambda a: sum(obs[base + 4 * (a - 86) + t] * TOKEN_VP[t] for t in (1, 2, 3)))
        if what == "spy":
            base = self.start["hand_sizes"]
            return max(legal, key=lambda a: obs[base + 2 * (a - 86)])
        return legal[0]

    def _siren(self, obs: np.ndarray, legal: list[int]) -> int:
        def progress(a: int) -> float:
            o = a - act.TARGET_BASE
            i = (1 + o) if self.num_players == 2 else o
            _cards, col, row = self._boat(obs, i)
            return col * row

        return max(legal, key=progress)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        obs = observation
        legal = np.asarray(action_mask).nonzero()[0].tolist()
        if len(legal) == 1:
            return legal[0]
        phase = int(obs[:19].argmax())
        if phase == act.SELECT:
            return self._select(obs, legal)
        if phase == act.TAKE:
            return self._take(obs, legal)
        if phase in (act.WEATHER_PHASE,):
            return act.USE_WEATHER
        if phase == act.CARTO:
            return act.USE_CARTOGRAPHY
        if phase == act.NIGHT_SAIL:
            cards, col, _ = self._boat(obs, self._active_own_boat(obs))
            hand = self._hand(obs)
            options = [a for a in legal if a < 55]
            keep_low = [c for c in hand if cards and c < cards[-1]]
            if col <= self.end_column - 1 and options and (keep_low or len(hand) > 2):
                last = cards[-1]
                return min(options, key=lambda a: (a + 1 - last) - 12 * (COLOUR[a + 1] != COLOUR[last]))
            return act.PASS
        if phase == act.MISSION_CHOOSE:
            return max(legal, key=lambda a: TILE_VP[a - act.MISSION_BASE])
        if phase in (act.SKILL_CLAIM, act.MC_SKILL):
            return self._pick_skill(obs, legal)
        if phase == act.ACTION:
            order = [93 + 2, 93, 93 + 6, 93 + 4, 93 + 3, 93 + 1, 93 + 5]  # Negotiator, Thief, MC, Oracle, Salvager...
            for a in order:
                if a in legal:
                    return a
            return act.PASS
        if phase == act.THIEF_TARGET:
            return self._target(obs, legal, "thief")
        if phase == act.THIEF_GEM:
            return max(legal)
        if phase == act.SPY_TARGET:
            return self._target(obs, legal, "spy")
        if phase == act.SIREN_TARGET:
            return self._siren(obs, legal)
        if phase == act.COMBAT_TARGET:
            return legal[0]
        if phase == act.SALVAGE_CHOOSE:
            cards, _, _ = self._boat(obs, self._active_own_boat(obs))
            last = cards[-1] if cards else 0
            above = [a for a in legal if a + 1 > last]
            return min(above) if above else min(legal)
        if phase in (act.COMBAT_GIVE,):
            return max(legal)
        if phase == act.TEAM_RETURN:
            return min(legal)
        if phase in (act.ENC_GIFT, act.TEAM_GIVE):
            return act.PASS
        return legal[0]
