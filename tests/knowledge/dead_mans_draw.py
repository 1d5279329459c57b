"""Dead Man's Draw knowledge oracle, from the rules' Section 9 (DMD-901..913) alone.

A seat knows: its two dealt ability cards (DMD-910); its own kept ability, and everyone's after the
simultaneous reveal (DMD-911); the position of draw-pile cards it peeked with an Oracle (one card,
three with Mystic, DMD-903, DMD-609, DMD-626) until they are drawn. It never knows the draw pile
order otherwise (DMD-901), another seat's dealt cards (DMD-910), undealt ability cards (DMD-912) or
the discard pile's order (DMD-905). Everything else (rows, collections, the discard pile's
composition, Map offers, transfers, the Locker designation...) is public (DMD-902, 904, 906..909,
913).

Peeks are learned from play: whenever an Oracle enters a seat's row during a step (or a Mermaid
moves one to the end of the row, DMD-810), that seat is credited with the top cards of the pile as
it stands after the step (1, or 3 for a Mystic holder). When the turn changes within one step (a
bust with no decision), every seat that could have been active during it is credited the same way if
an Oracle was played. This can only over-credit a seat (a card it peeked and then drew is public
anyway; an over-credited card is a card the twin does not relabel), so a twin never differs in
something the seat truly knows. Only the peeks of a plain draw of an Oracle are sure ones
(``surely_peeked``): a determinisation must keep those.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from knowledge import Oracle as BaseOracle
from knowledge import Twin, random_bijection, relabel
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import CARD_SUIT, MARKER, MYSTIC, ORACLE, ability_pool
from pirate_envs.games.dead_mans_draw.game import ABILITY_CHOICE


def _oracles(cards: list[int]) -> int:
    return sum(1 for c in cards if c != MARKER and CARD_SUIT[c] == ORACLE)


class Oracle(BaseOracle):
    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self.peeked: list[set[int]] = [set() for _ in range(self.num_players)]  # may have peeked
        self.surely_peeked: list[set[int]] = [set() for _ in range(self.num_players)]

    def _peek_depth(self, state: Any, seat: int) -> int:
        return 3 if state.kept[seat] == MYSTIC else 1

    def update(self, before: Any, action: int, after: Any) -> None:
        n = self.num_players
        same_turn = (
            before.active == after.active
            and before.turns_taken == after.turns_taken
            and after.turn_cards[: len(before.turn_cards)] == before.turn_cards
        )
        if same_turn:
            new_oracle = _oracles(after.turn_cards[len(before.turn_cards) :])
            # DMD-810: a Mermaid may move an Oracle of the row to its end, where it peeks again
            moved = after.game.mermaid_variant and after.row != before.row and _oracles(after.row)
            peekers = [after.active] if new_oracle or moved else []
        else:
            drawn = len(before.draw_pile) - len(after.draw_pile)
            played = _oracles(before.draw_pile[len(before.draw_pile) - drawn :])
            played += _oracles(after.turn_cards) + _oracles(after.last_turn_cards)
            seats = [before.active]
            while seats[-1] != after.active:
                seats.append((seats[-1] + 1) % n)
            peekers = seats if played else []
        for seat in peekers:
            self.peeked[seat].update(after.draw_pile[-self._peek_depth(after, seat) :])
        simple_draw = (
            same_turn
            and after.turn_cards[len(before.turn_cards) :] == before.draw_pile[-1:]
            and after.draw_pile == before.draw_pile[:-1]
        )
        if peekers and simple_draw:  # one Oracle drawn, nothing chained: the peek is exactly the new top
            self.surely_peeked[after.active].update(after.draw_pile[-self._peek_depth(after, after.active) :])
        pile = set(after.draw_pile)
        for seen in (*self.peeked, *self.surely_peeked):
            seen &= pile  # a peeked card that was drawn is public now

    # --- what a seat knows ---------------------------------------------------------------------------

    def _known_abilities(self, state: Any, seat: int | None) -> set[int]:
        known = set()
        if seat is not None:
            known.update(state.dealt[seat])
            if state.kept[seat] >= 0:
                known.add(state.kept[seat])
        if state.revealed:
            known.update(a for a in state.kept if a >= 0)
        return known

    def _known_positions(self, state: Any, seat: int | None) -> set[int]:
        if seat is None:
            return set()
        mine = self.peeked[seat]
        return {i for i, c in enumerate(state.draw_pile) if c in mine}

    def known_projection(self, state: Any, seat: int) -> Hashable:
        pile = state.draw_pile
        sure = self.surely_peeked[seat]
        return (
            tuple(sorted(self._known_abilities(state, seat))),
            state.kept[seat],
            tuple(a if state.revealed else -2 for a in state.kept),
            tuple((i, c) for i, c in enumerate(pile) if c in sure),
            tuple(sorted(pile)),  # DMD-902: the composition is public
        )

    def hidden_slots(self, state: Any, seat: int) -> dict[str, tuple[Any, frozenset]]:
        slots: dict[str, tuple[Any, frozenset]] = {}
        pile = state.draw_pile
        known = self._known_positions(state, seat)
        loose = frozenset(c for i, c in enumerate(pile) if i not in known)
        for i in (0, len(pile) - 1):  # the bottom and the top card (every position would need many seeds)
            if pile and i not in known and len(loose) > 1:
                slots[f"draw pile position {i} (DMD-901)"] = (pile[i], loose)
        if state.game.characters:
            unseen = frozenset(ability_pool(state.game.mermaid_variant)) - self._known_abilities(state, seat)
            for t in range(self.num_players):
                if t == seat:
                    continue
                hidden = tuple(a for a in state.dealt[t] if a not in self._known_abilities(state, seat))
                if hidden:
                    slots[f"seat {t}'s dealt abilities (DMD-910)"] = (hidden, unseen)
                if state.kept[t] >= 0 and not state.revealed:
                    slots[f"seat {t}'s kept ability (DMD-911)"] = (state.kept[t], unseen)
        return slots

    # --- the twin ------------------------------------------------------------------------------------

    def twin(self, state: Any, seat: int | None, rng: random.Random, after: tuple | None = None) -> Twin:
        twin = state.clone()
        pile = twin.draw_pile
        known = self._known_positions(state, seat)
        fixed_cards: set[int] = set()
        fixed_abilities: set[int] = set()
        if after is not None:  # also keep what the step shows: drawn or peeked cards, revealed abilities
            nxt, oracle = after
            fixed_cards = set(pile) - set(nxt.draw_pile)
            if seat is not None:
                fixed_cards |= oracle.peeked[seat]
            fixed_abilities = oracle._known_abilities(nxt, seat)
        cards = random_bijection([c for i, c in enumerate(pile) if i not in known and c not in fixed_cards], rng)
        twin.draw_pile = relabel(pile, cards)
        for t in range(self.num_players):
            if t != seat:  # another seat's peeks follow the cards it saw
                twin.known[t] = relabel(twin.known[t], cards)
        rng.shuffle(twin.discard)  # DMD-905: the order is nobody's information
        abilities: dict[int, int] = {}
        if state.game.characters:
            seen = self._known_abilities(state, seat) | fixed_abilities
            unseen = [a for a in ability_pool(state.game.mermaid_variant) if a not in seen]
            abilities = random_bijection(unseen, rng)
            twin.dealt = [sorted(relabel(d, abilities)) for d in twin.dealt]
            twin.kept = relabel(twin.kept, abilities)
            holder = [-1] * len(twin.holder)
            for a, h in enumerate(state.holder):
                holder[abilities.get(a, a)] = h
            twin.holder = holder
            if twin.phase == ABILITY_CHOICE:
                twin.choices = sorted(act.ABILITY_BASE + a for a in twin.dealt[twin.decider])

        def move(action: int) -> int:
            if act.ABILITY_BASE <= action < act.ABILITY_BASE + len(state.holder):
                return act.ABILITY_BASE + abilities.get(action - act.ABILITY_BASE, action - act.ABILITY_BASE)
            return action

        return twin, move
