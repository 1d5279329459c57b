"""Tortuga 1667 knowledge oracle, from the rules' Section 9 (TOR-901..916) alone.

A seat knows its own nation card, the nation of a player exiled while ``secret_exile`` is off
(TOR-901, TOR-527) and the nation of every player it targeted with a Spyglass (TOR-901, TOR-914: who
peeked whom is public, learned here from the public event log). Before a vote's reveal it knows its
own card only (TOR-912, TOR-916). It never knows the event deck order (TOR-904).

The twin deals the nations the seat does not know again among their holders (the composition is
public, TOR-902), shuffles the event deck below and above the Armada (which stays where it is) and
draws again the cards of the voters who already chose and are not the seat. Hoards, maps and secret
steals or gifts (TOR-905, TOR-908, TOR-910, TOR-911) are left as they are: their hidden part is a
history, not an identity, and ``test_views.py``'s determinisation checks cover it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from knowledge import Oracle as BaseOracle
from knowledge import Twin
from pirate_envs.games.tortuga.board import ARMADA, CARD_WILD


class Oracle(BaseOracle):
    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self.spied: list[set[int]] = [set() for _ in range(self.num_players)]

    def update(self, before: Any, action: int, after: Any) -> None:
        from pirate_envs.games.tortuga.game import LOG_SPYGLASS, SPY_TARGET

        if before.phase == SPY_TARGET:  # TOR-914: the public log names the peeker and the peeked
            entry = next(e for e in reversed(after.log) if e[0] == LOG_SPYGLASS)
            self.spied[entry[1]].add(entry[2])

    def nations_known(self, state: Any, seat: int | None) -> set[int]:
        known = {p for p in range(self.num_players) if state.exiled[p] and not state.game.options["secret_exile"]}
        if seat is not None:
            known.add(seat)
            known |= self.spied[seat]
        return known

    def _hidden_voters(self, state: Any, seat: int | None) -> list[int]:
        vote = state.vote
        if vote is None or vote["revealed"]:
            return []
        return [p for p in vote["order"][: vote["idx"]] if p != seat]

    def _vote_cards(self, state: Any, voter: int) -> list[int]:
        locked = state.game.options["wild_cooldown"] and state.wild_lock[voter]
        return [c for c in range(3) if not (locked and c == CARD_WILD)]

    def known_projection(self, state: Any, seat: int) -> Hashable:
        known = self.nations_known(state, seat)
        vote = state.vote
        own_card = vote["cards"][seat] if vote is not None else None
        return tuple(state.nation[p] if p in known else None for p in range(self.num_players)), own_card

    def hidden_slots(self, state: Any, seat: int) -> dict[str, tuple[Any, frozenset]]:
        known = self.nations_known(state, seat)
        unknown = [p for p in range(self.num_players) if p not in known]
        nations = frozenset(state.nation[p] for p in unknown)
        slots: dict[str, tuple[Any, frozenset]] = {
            f"seat {p}'s nation (TOR-901)": (state.nation[p], nations) for p in unknown if len(nations) > 1
        }
        for p in self._hidden_voters(state, seat):
            slots[f"seat {p}'s vote card (TOR-912)"] = (state.vote["cards"][p], frozenset(self._vote_cards(state, p)))
        cards = [c for c in state.deck if c != ARMADA]
        if len(set(cards)) > 1:
            slots["top event card (TOR-904)"] = (state.deck[-1], frozenset(cards))
        return slots

    def twin(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None = None) -> Twin:
        twin = state.clone()
        known = self.nations_known(state, seat)
        drawn = 0
        voters = self._hidden_voters(state, seat)
        if after is not None:  # also keep what the step shows: exiles, peeks, drawn cards, a vote's reveal
            nxt, oracle = after
            known |= oracle.nations_known(nxt, seat)
            drawn = len(state.deck) - len(nxt.deck)
            if nxt.vote is None or nxt.vote["revealed"]:
                voters = []
        unknown = [p for p in range(self.num_players) if p not in known]
        nations = [state.nation[p] for p in unknown]
        rng.shuffle(nations)
        for p, nation in zip(unknown, nations, strict=True):
            twin.nation[p] = nation
        positions = [i for i, c in enumerate(twin.deck) if c != ARMADA and i < len(twin.deck) - max(drawn, 0)]
        cards = [twin.deck[i] for i in positions]
        rng.shuffle(cards)
        for i, c in zip(positions, cards, strict=True):
            twin.deck[i] = c
        for p in voters:
            twin.vote["cards"][p] = rng.choice(self._vote_cards(state, p))
        return twin, self._secret_move(state, seat, rng, after)

    def _secret_move(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None) -> Callable:
        """A decision whose choice stays secret from ``seat`` may as well have been another legal one: a vote
        card before the reveal (TOR-912), a secret map gift (TOR-910), a secret steal's victim (TOR-908)."""
        from pirate_envs.games.tortuga import actions as act
        from pirate_envs.games.tortuga.game import MAP_GIVE, VOTE

        actor = state.current_player()
        if after is None or seat == actor:
            return lambda action: action
        n = self.num_players
        idx = act.ActionIndex(n)
        legal = state.legal_actions()

        def told(action: int) -> bool:  # the viewer is the receiver or the victim: it learns the choice
            if state.phase == MAP_GIVE and action != act.PASS:
                return (actor + action - idx.select) % n == seat
            if idx.steal <= action < idx.steal + n:
                return (actor + action - idx.steal) % n == seat
            return False

        def move(action: int) -> int:
            if state.phase == VOTE and not (after[0].vote is None or after[0].vote["revealed"]):
                return rng.choice([a for a in legal if idx.vote <= a < idx.vote + 3])
            if state.phase == MAP_GIVE and not told(action):
                return rng.choice([a for a in legal if not told(a)])
            secret_steal = idx.steal <= action < idx.steal + n and not state.game.options["public_steal"]
            if secret_steal and not told(action):
                return rng.choice([a for a in legal if idx.steal <= a < idx.steal + n and not told(a)])
            return action

        return move
