"""Madame Ching knowledge oracle, from the rules' Section 9 (MCH-901..917) alone.

Navigation cards have identities. A seat sees the public places (display slots 1-3, expeditions,
the discard pile, cards in transit, picks after the reveal: MCH-905, MCH-907), its own hand and
picks (MCH-903, MCH-904). It never sees the deck (MCH-901), display slot 0 (MCH-906), another
seat's hand or its picks before the reveal. It keeps track of a card it saw go into a hidden place:
taken face up from the display or salvaged (public, MCH-917), given away by it or taken from it
(Combat, Spy, team passes: MCH-910, MCH-911, MCH-913). This is learned from play, by where each card
was before and after each step; a card shuffled into the deck is lost track of (MCH-540). The
oracle may remember a card longer than the rules' known-lists do (it never forgets a hidden card it
saw), which only makes the twin relabel less.

Encounter cards are known only by kind and count (MCH-908, MCH-909, MCH-912, MCH-913): the twin
deals the deck and the other seats' encounter hands again, except the hands of seats the seat
exchanged encounter cards with, and the hand whose freshly drawn cards are being offered to a
partner (MCH-553).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from knowledge import Oracle as BaseOracle
from knowledge import Twin
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import NUM_NAV_CARDS

PUBLIC = "public"


def _locations(state: Any) -> dict[int, tuple]:
    """Where each navigation card is: ("hand", seat), ("pick", boat), ("slot0",), ("deck",) or (PUBLIC,)."""
    where: dict[int, tuple] = {c: (PUBLIC,) for c in range(1, NUM_NAV_CARDS + 1)}
    for seat, hand in enumerate(state.hands):
        for c in hand:
            where[c] = ("hand", seat)
    for c in state.nav_deck:
        where[c] = ("deck",)
    if state.display[0]:
        where[state.display[0]] = ("slot0",)
    if not state.revealed:
        for boat, c in enumerate(state.picks):
            if c and c != state.pending_card:
                where[c] = ("pick", boat)
    return where


class Oracle(BaseOracle):
    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self.tracked: list[set[int]] = [set() for _ in range(self.num_players)]
        self.enc_partners: list[set[int]] = [set() for _ in range(self.num_players)]

    def _sees(self, state: Any, seat: int | None, place: tuple) -> bool:
        if place[0] == PUBLIC:
            return True
        if seat is None:
            return False
        if place[0] == "hand":
            return place[1] == seat
        if place[0] == "pick":
            return state.game.boat_owner[place[1]] == seat
        return False

    def update(self, before: Any, action: int, after: Any) -> None:
        was, now = _locations(before), _locations(after)
        for seat in range(self.num_players):
            tracked = self.tracked[seat]
            for c, place in now.items():
                if place[0] == "deck":
                    tracked.discard(c)  # MCH-540: shuffled in, its place is unknown
                elif place != was[c] and self._sees(before, seat, was[c]) and not self._sees(after, seat, place):
                    tracked.add(c)
        # encounter cards changing hands between two seats (gifts, Spy, Combat): both know that hand
        for kind in range(len(before.enc_hands[0])):
            lost = [q for q in range(self.num_players) if after.enc_hands[q][kind] < before.enc_hands[q][kind]]
            won = [q for q in range(self.num_players) if after.enc_hands[q][kind] > before.enc_hands[q][kind]]
            for p in lost:
                for q in won:
                    self.enc_partners[p].add(q)
                    self.enc_partners[q].add(p)

    # --- what a seat knows ---------------------------------------------------------------------------

    def _unknown_cards(self, state: Any, seat: int | None) -> list[int]:
        tracked = self.tracked[seat] if seat is not None else set()
        where = _locations(state)
        return sorted(c for c, place in where.items() if not self._sees(state, seat, place) and c not in tracked)

    def _enc_hidden_hands(self, state: Any, seat: int | None) -> list[int]:
        partners = self.enc_partners[seat] if seat is not None else set()
        hidden = [q for q in range(self.num_players) if q != seat and q not in partners]
        if state.gift_queue and state.active_boat >= 0:
            giver = state.game.boat_owner[state.active_boat]
            hidden = [q for q in hidden if q != giver]
        return hidden

    def known_projection(self, state: Any, seat: int) -> Hashable:
        """What ``seat`` surely knows: the public places, its own hand and picks, every count."""
        where = _locations(state)
        known = tuple(sorted((c, place) for c, place in where.items() if self._sees(state, seat, place)))
        sizes = tuple(len(h) for h in state.hands), len(state.nav_deck)
        return known, sizes, tuple(state.enc_hands[seat]), tuple(sum(h) for h in state.enc_hands)

    def hidden_slots(self, state: Any, seat: int) -> dict[str, tuple[Any, frozenset]]:
        unknown = self._unknown_cards(state, seat)
        pool = frozenset(unknown)
        if len(pool) < 2:
            return {}
        where = _locations(state)
        places: dict[tuple, list[int]] = {}
        for c in unknown:
            places.setdefault(where[c], []).append(c)
        # other hands are left out: a determinisation keeps there the cards the seat's known-lists name
        # (MCH-917), possibly stale ones, which this oracle does not follow card by card
        return {
            f"navigation cards at {place} (MCH-901..906)": (tuple(cards), pool)
            for place, cards in places.items()
            if place[0] != "hand"
        }

    # --- the twin ------------------------------------------------------------------------------------

    def twin(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None = None) -> Twin:
        twin = state.clone()
        unknown = self._unknown_cards(state, seat)
        hidden = self._enc_hidden_hands(state, seat)
        if after is not None:  # also keep what the step shows
            nxt, oracle = after
            still = set(oracle._unknown_cards(nxt, seat))  # a card moved out of sight stays unknown
            unknown = [c for c in unknown if c in still]
            if state.enc_hands != nxt.enc_hands or state.enc_deck != nxt.enc_deck:
                hidden = []
        shuffled = list(unknown)
        rng.shuffle(shuffled)
        cards = dict(zip(unknown, shuffled, strict=True))

        def swap(c: int) -> int:
            return cards.get(c, c)

        twin.hands = [h if q == seat else sorted(swap(c) for c in h) for q, h in enumerate(twin.hands)]
        twin.nav_deck = [swap(c) for c in twin.nav_deck]
        twin.display = [swap(twin.display[0]) if twin.display[0] else 0, *twin.display[1:]]
        twin.picks = [swap(c) if c else 0 for c in twin.picks]
        if twin.combat_card:
            twin.combat_card = swap(twin.combat_card)
        for t in range(self.num_players):
            if t != seat:
                twin.known[t] = [[swap(c) for c in row] for row in twin.known[t]]
        pool = list(twin.enc_deck)
        for q in hidden:
            pool += [k for k, count in enumerate(twin.enc_hands[q]) for _ in range(count)]
        rng.shuffle(pool)
        for q in hidden:
            size = sum(twin.enc_hands[q])
            hand = [0] * len(twin.enc_hands[q])
            for k in pool[:size]:
                hand[k] += 1
            del pool[:size]
            twin.enc_hands[q] = hand
        twin.enc_deck = pool
        twin._legal = None

        def move(action: int) -> int:
            if act.CARD_BASE <= action < act.CARD_BASE + NUM_NAV_CARDS:
                return act.card_action(swap(action - act.CARD_BASE + 1))
            return action

        return twin, move
