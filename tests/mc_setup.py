"""Helpers that arrange Madame Ching positions for the rules tests (cards moved, never duplicated)."""

from __future__ import annotations

import itertools

from pirate_envs.games.madame_ching.cards import COLOUR, LAST_ROW
from pirate_envs.games.madame_ching.game import MadameChingGame, MadameChingState


def fresh(num_players: int = 4, seed: int = 0, **options) -> MadameChingState:
    """A new game at its first SELECT, with an empty display (its cards back in the deck)."""
    state = MadameChingGame(num_players, **options).new_initial_state(seed)
    for s in range(4):
        if state.display[s]:
            state.nav_deck.insert(0, state.display[s])
            state.display[s] = 0
    return state


def pull(state: MadameChingState, card: int) -> None:
    """Remove ``card`` from wherever it is."""
    for pile in [state.nav_deck, state.nav_discard, *state.hands, *state.expeditions]:
        if card in pile:
            pile.remove(card)
            return
    for i, c in enumerate(state.display):
        if c == card:
            state.display[i] = 0
            return
    for i, c in enumerate(state.picks):
        if c == card:
            state.picks[i] = 0
            return
    raise AssertionError(f"card {card} not found")


def set_hand(state: MadameChingState, seat: int, cards: list[int]) -> None:
    old = state.hands[seat]
    state.hands[seat] = []
    state.nav_deck[:0] = old
    for c in cards:
        pull(state, c)
    state.hands[seat] = sorted(cards)
    state._legal = None


def set_expedition(state: MadameChingState, boat: int, cards: list[int], position: tuple[int, int] | None = None):
    """Give ``boat`` the expedition ``cards`` (positions recomputed with the colour rule unless given)."""
    state.nav_deck[:0] = state.expeditions[boat]
    state.expeditions[boat] = []
    for c in cards:
        pull(state, c)
    history = [[0, 0]]
    c, r = 1, 1
    for prev, card in itertools.pairwise(cards):
        history.append([c, r])
        if COLOUR[card] != COLOUR[prev] and r < LAST_ROW:
            r += 1
        c += 1
    state.expeditions[boat] = list(cards)
    state.history[boat] = history if cards else []
    if not cards:
        state.positions[boat] = [0, 0]
    else:
        state.positions[boat] = list(position) if position else [c, r]


def start_turn(state: MadameChingState, boat: int, card: int, order: list[tuple[int, int]] | None = None) -> None:
    """Reveal ``card`` for ``boat`` (and optional further (boat, card) pairs) and run to the first decision."""
    pairs = [(boat, card), *list(order or [])]
    state.picks = [0] * state.game.num_boats
    for b, c in pairs:
        pull(state, c)
        state.picks[b] = c
    state.revealed = True
    state.shown_picks = list(state.picks)
    state.order = [b for b, _ in pairs]
    state.acted = [b not in state.order for b in range(state.game.num_boats)]
    state.turn_index = 0
    state.step = "next_turn"
    state.gift_queue = []
    state._legal = None
    state._run()


def set_board(state: MadameChingState, tiles: list[int]) -> None:
    """Only ``tiles`` on the board (taken out of the set-aside row if they were there)."""
    state.set_aside = [t for t in state.set_aside if t not in tiles]
    state.board = sorted(tiles)


def give_skill(state: MadameChingState, seat: int, *kinds: int) -> None:
    """Move one skill card of each of ``kinds`` from its stack to ``seat``."""
    for kind in kinds:
        state.skills[seat][kind] += 1
        state.stacks[kind] -= 1
    state._legal = None


def expedition_turn(expedition: list[int], position: tuple[int, int], card: int, board: list[int]) -> MadameChingState:
    """A fresh game with only the mission tiles ``board`` left, in which boat 0, its ``expedition`` ending at
    ``position``, reveals ``card`` (run to the first decision)."""
    state = fresh()
    set_board(state, board)
    set_expedition(state, 0, expedition, position=position)
    start_turn(state, 0, card)
    return state


def give_encounter(state: MadameChingState, seat: int, kind: int, count: int = 1) -> None:
    """Move ``count`` encounter cards of ``kind`` from the deck (or discard pile) to ``seat``'s hand."""
    for _ in range(count):
        pile = state.enc_deck if kind in state.enc_deck else state.enc_discard
        pile.remove(kind)
        state.enc_hands[seat][kind] += 1
    state._legal = None


def clear_encounters(state: MadameChingState) -> None:
    """Every encounter card back in the deck."""
    for held in state.enc_hands:
        for kind, count in enumerate(held):
            state.enc_deck.extend([kind] * count)
            held[kind] = 0
