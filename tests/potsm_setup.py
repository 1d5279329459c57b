"""Position set-up helpers shared by the potsm rule tests: overwrite a state's fields, keep cards conserved.

Worked examples (PSM-12NN) start from ``new_initial_state(seed)`` and then place the line, the
adventures, the move cards and the hands they need with these helpers; ``play`` applies an action
with the invariants checked before and after.
"""

from __future__ import annotations

from pirate_envs.games.potsm import PotsmState
from pirate_envs.games.potsm.cards import KRAKEN

DEFAULT_LINE = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # PSM-12NN: the default start line, positions 1..9
QUIET = KRAKEN  # damages positions 4, 6, 8 only (ships 1, 7, 5 on the default line); never touches fame


def refresh(state: PotsmState) -> PotsmState:
    state._legal = None  # the base caches legal actions; drop the cache after editing fields
    return state


def set_line(state: PotsmState, line, damaged=(), fame=None) -> None:
    """Line of ship ids front first; ``damaged`` lists ship ids; ``fame`` maps ship id -> fame."""
    state.line = list(line)
    state.damaged = [1 if j in damaged else 0 for j in range(9)]
    state.fame = [0] * 9
    for ship, value in (fame or {}).items():
        state.fame[ship] = value
    refresh(state)


def set_adventures(state: PotsmState, row, deck_size: int | None = None) -> None:
    """Put the card types ``row`` face up (slot 1 = current) and cut the deck to ``deck_size`` cards.

    Cards leave the deck by the adventure discard pile, as if resolved earlier; the old row goes back
    into the deck; so the 58 cards stay conserved.
    """
    for card in state.adventure_row:
        state.adventure_seen[card] -= 1
        state.adventure_deck.append(card)
    state.adventure_row = []
    for card in row:
        if card in state.adventure_deck:
            state.adventure_deck.remove(card)
        elif state.adventure_discard[card]:
            state.adventure_discard[card] -= 1
            state.adventure_seen[card] -= 1
        else:
            raise AssertionError(f"no adventure card {card} left to put in the row")
        state.adventure_row.append(card)
        state.adventure_seen[card] += 1
    if deck_size is not None:
        while len(state.adventure_deck) > deck_size:
            card = state.adventure_deck.pop()
            state.adventure_seen[card] += 1
            state.adventure_discard[card] += 1
    refresh(state)


def set_move_row(state: PotsmState, cards) -> None:
    """Base game: the three face-up move cards (types)."""
    for card in range(12):
        state.move_deck += [card] * state.move_row[card]
        state.move_row[card] = 0
    for card in cards:
        state.move_deck.remove(card)
        state.move_row[card] += 1
    refresh(state)


def pull_move_card(state: PotsmState, card: int, keep_seat: int) -> None:
    """Remove one ``card`` from the move deck; if none is there, swap one out of another hand first."""
    if card not in state.move_deck:
        seat = next(t for t, hand in enumerate(state.hands) if t != keep_seat and hand[card])
        replacement = next(c for c in state.move_deck if c != card)
        state.move_deck.remove(replacement)
        state.hands[seat][replacement] += 1
        state.hands[seat][card] -= 1
        state.move_deck.append(card)
    state.move_deck.remove(card)


def set_hand(state: PotsmState, seat: int, cards) -> None:
    """Hand variant: ``seat``'s hand (types), swapping cards with the move deck or other hands."""
    hand = state.hands[seat]
    for card in range(12):
        state.move_deck += [card] * hand[card]
        hand[card] = 0
    for card in cards:
        pull_move_card(state, card, seat)
        hand[card] += 1
    refresh(state)


def to_act(state: PotsmState, seat: int) -> None:
    state.current_seat = seat
    refresh(state)


def arranged(
    state: PotsmState, row=(QUIET,), deck_size: int | None = None, moves=None, seat: int = 0, line=DEFAULT_LINE
) -> PotsmState:
    """``state`` set up for a worked example: ``line``, the adventure ``row`` (the deck cut to ``deck_size``),
    the move row ``moves`` (base game, when given) and ``seat`` to act."""
    set_line(state, line)
    set_adventures(state, row, deck_size)
    if moves is not None:
        set_move_row(state, moves)
    to_act(state, seat)
    return state


def play(state: PotsmState, action: int) -> None:
    state.check_invariants()
    assert action in state.legal_actions(), f"{action} ({state.game.action_to_string(action)}) not legal"
    state.apply_action(action)
    state.check_invariants()
