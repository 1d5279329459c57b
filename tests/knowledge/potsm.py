"""potsm knowledge oracle, from the rules' Section 9 (PSM-910..926) alone.

A seat knows its own pirate cards (PSM-911), every pirate revealed by a correct accusation or a
Mutiny (PSM-914, PSM-915) and the public "not the owner" facts of PSM-561 (wrong accusations,
reveals, a Mutiny finding a ship unowned). It never knows another seat's unrevealed pirates or the
unused ones (PSM-912, PSM-913), the adventure deck (order and composition, PSM-918), the faces of
cards taken blind as fame (PSM-919), the move deck (PSM-922) or, in the hand variant, another seat's
hand (PSM-924, PSM-925). Everything else is public.

Nothing private is learned during play (every action and result is public, PSM-560), so ``update``
has nothing to do.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Hashable
from typing import Any

from knowledge import Oracle as BaseOracle
from knowledge import Twin
from pirate_envs.games.potsm.cards import ADVENTURE_COUNTS, NUM_MOVE_TYPES

NUM_PIRATES = 9
UNUSED = -1  # the owner of a pirate set aside (PSM-303)
TRIES = 200


@functools.lru_cache(maxsize=256)
def _possible_owners(unknown: tuple, owners: tuple, excluded: frozenset) -> list[frozenset]:
    """Per unknown pirate, every owner some whole deal consistent with PSM-561 gives it."""
    possible: list[set] = [set() for _ in unknown]
    for deal in set(itertools.permutations(owners)):
        if all(t == UNUSED or (j, t) not in excluded for j, t in zip(unknown, deal, strict=True)):
            for k, t in enumerate(deal):
                possible[k].add(t)
    return [frozenset(p) for p in possible]


class Oracle(BaseOracle):
    def _unknown_pirates(self, state: Any, seat: int | None) -> list[int]:
        return [j for j in range(NUM_PIRATES) if not state.revealed[j] and state.pirate_owner[j] != seat]

    def _excluded(self, state: Any) -> frozenset:
        n = self.num_players
        return frozenset((j, t) for j in range(NUM_PIRATES) for t in range(n) if state.not_owner[j * n + t])

    def _fits(self, state: Any, pirate: int, owner: int) -> bool:
        return owner == UNUSED or not state.not_owner[pirate * self.num_players + owner]

    def known_projection(self, state: Any, seat: int) -> Hashable:
        owners = tuple(
            state.pirate_owner[j] if state.revealed[j] or state.pirate_owner[j] == seat else None
            for j in range(NUM_PIRATES)
        )
        hand = tuple(state.hands[seat]) if state.game.move_cards_in_hand else ()
        return owners, hand, tuple(state.not_owner)

    def hidden_slots(self, state: Any, seat: int) -> dict[str, tuple[Any, frozenset]]:
        slots: dict[str, tuple[Any, frozenset]] = {}
        unknown = self._unknown_pirates(state, seat)
        owners = tuple(sorted(state.pirate_owner[j] for j in unknown))
        possible = _possible_owners(tuple(unknown), owners, self._excluded(state))
        for j, owners in zip(unknown, possible, strict=True):
            slots[f"owner of pirate {j} (PSM-912)"] = (state.pirate_owner[j], owners)
        deck = state.adventure_deck
        unseen = frozenset(c for c, count in enumerate(ADVENTURE_COUNTS) if count > state.adventure_seen[c])
        if deck:  # three cards: the types are not equally many, a single card would need many seeds
            slots["top adventure cards (PSM-918)"] = (tuple(deck[-3:]), unseen)
        if state.game.move_cards_in_hand:
            pool = set(state.move_deck)
            for t in range(self.num_players):
                if t != seat:
                    pool.update(c for c in range(NUM_MOVE_TYPES) if state.hands[t][c])
            for t in range(self.num_players):
                if t != seat and sum(state.hands[t]):
                    held = tuple(c for c in range(NUM_MOVE_TYPES) for _ in range(state.hands[t][c]))
                    slots[f"seat {t}'s move hand (PSM-924)"] = (held, frozenset(pool))
        elif state.move_deck:
            slots["top move cards (PSM-922)"] = (tuple(state.move_deck[-3:]), frozenset(state.move_deck))
        return slots

    def twin(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None = None) -> Twin:
        twin = state.clone()
        n = self.num_players
        unknown = self._unknown_pirates(state, seat)
        drawn_adventures = drawn_moves = 0
        if after is not None:  # also keep what the step shows: revealed pirates, cards drawn from the decks
            nxt = after[0]
            unknown = [j for j in unknown if not nxt.revealed[j]]
            drawn_adventures = len(state.adventure_deck) - len(nxt.adventure_deck)
            drawn_moves = int(state.move_deck != nxt.move_deck or state.hands != nxt.hands)
        owners = [state.pirate_owner[j] for j in unknown]
        for _ in range(TRIES):  # another deal of the unknown pirates that keeps every PSM-561 fact
            rng.shuffle(owners)
            if all(self._fits(state, j, t) for j, t in zip(unknown, owners, strict=True)):
                for j, t in zip(unknown, owners, strict=True):
                    twin.pirate_owner[j] = t
                break
        # PSM-918, PSM-919: the deck and the blind fame cards are one unseen pool
        top = twin.adventure_deck[len(twin.adventure_deck) - drawn_adventures :] if drawn_adventures > 0 else []
        pool = list(twin.adventure_deck[: len(twin.adventure_deck) - len(top)])
        pool += [c for c, count in enumerate(twin.blind_fame_cards) for _ in range(count)]
        rng.shuffle(pool)
        size = len(twin.adventure_deck) - len(top)
        twin.adventure_deck = pool[:size] + top
        twin.blind_fame_cards = [0] * len(twin.blind_fame_cards)
        for c in pool[size:]:
            twin.blind_fame_cards[c] += 1
        move = self._secret_move(state, seat, rng, after)
        if after is not None and (drawn_moves or state.move_deck != after[0].move_deck):
            return twin, move  # the step draws move cards: keep the move cards as they are
        if state.game.move_cards_in_hand:  # PSM-924, PSM-925: other hands and the deck are one unseen pool
            others = [t for t in range(n) if t != seat]
            cards = list(twin.move_deck)
            for t in others:
                cards += [c for c in range(NUM_MOVE_TYPES) for _ in range(twin.hands[t][c])]
            rng.shuffle(cards)
            for t in others:
                size = sum(twin.hands[t])
                hand = [0] * NUM_MOVE_TYPES
                for c in cards[:size]:
                    hand[c] += 1
                del cards[:size]
                twin.hands[t] = hand
            twin.move_deck = cards
        else:
            rng.shuffle(twin.move_deck)
        return twin, move

    def _secret_move(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None):
        """In the hand variant an accusation stays secret from the others until it is paid for (the
        observation shows it to the acting seat alone): it may as well have been another one."""
        from pirate_envs.games.potsm import actions as act

        actor = state.current_player()
        if after is None or seat == actor or not state.game.move_cards_in_hand:
            return lambda action: action
        n = self.num_players
        accusations = [a for a in state.legal_actions() if act.decode_action(a, n)[0] == act.KIND_ACCUSE]

        def move(action: int) -> int:
            if act.decode_action(action, n)[0] == act.KIND_ACCUSE:
                return rng.choice(accusations)
            return action

        return move
