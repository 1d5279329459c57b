"""Build a position by hand (worked examples, tests, docs): ``scenario(game, row=["Key 5"], ...)``.

Cards are written ``"Suit value"``. The draw pile is given top first; cards the scenario does not
place go under it (or, with ``exact_draw=True``, out of the game into ``removed`` so that the pile is
exactly as given). The position is the active player's DRAW_OR_STOP decision (or the automatic end
if the draw pile is empty and nothing is asked), with abilities revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import ABILITY_KEYS, CARD_SUIT, NUM_SUITS, parse_card

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdGame, DmdState


def cards(names: list[str] | str) -> list[int]:
    if isinstance(names, str):
        names = [x.strip() for x in names.split(",") if x.strip()]
    return [parse_card(x) for x in names]


def scenario(
    game: DmdGame,
    *,
    active: int = 0,
    collections: dict[int, list[str] | str] | None = None,
    row: list[str] | str = (),
    draw: list[str] | str = (),
    discard: list[str] | str = (),
    abilities: dict[int, str] | None = None,
    locker_target: int = -1,
    exact_draw: bool = False,
    variant: str | None = None,
    seed: int = 0,
) -> DmdState:
    from pirate_envs.games.dead_mans_draw.cards import VARIANTS

    state = game.new_initial_state(seed)
    n = game.num_players
    coll_cards = {seat: cards(v) for seat, v in (collections or {}).items()}
    row_cards = cards(list(row)) if not isinstance(row, str) else cards(row)
    draw_cards = cards(list(draw)) if not isinstance(draw, str) else cards(draw)
    discard_cards = cards(list(discard)) if not isinstance(discard, str) else cards(discard)
    used = [c for v in coll_cards.values() for c in v] + row_cards + draw_cards + discard_cards
    assert len(used) == len(set(used)), "a card is used twice"
    assert all(c in game.deck for c in used), "a card not in this game's deck"
    rest = [c for c in game.deck if c not in set(used)]
    state.collections = [[[] for _ in range(NUM_SUITS)] for _ in range(n)]
    for seat, cs in coll_cards.items():
        for c in sorted(cs):
            state.collections[seat][CARD_SUIT[c]].append(c)
    state.discard = discard_cards
    if exact_draw:
        state.draw_pile = list(reversed(draw_cards))
        state.removed = rest
    else:
        state.draw_pile = rest + list(reversed(draw_cards))
        state.removed = []
    state.kept = [-1] * n
    state.dealt = [[] for _ in range(n)]
    state.holder = [-1] * len(ABILITY_KEYS)
    for seat, key in (abilities or {}).items():
        a = ABILITY_KEYS.index(key)
        state.kept[seat] = a
        state.dealt[seat] = [a]
        state.holder[a] = seat
    state.revealed = True
    state.locker_target = locker_target
    if variant is not None:
        state.variant = VARIANTS.index(variant)
    state.known = [[] for _ in range(n)]
    state.active = active
    state.first_player = active
    state._clear_turn_state()
    state._open_turn()  # the engine's own turn start (DMD-401), then the turn's row so far
    state.row = row_cards
    state.turn_cards = list(row_cards)
    state.choices = [act.STOP, act.DRAW] if state.draw_pile else [act.STOP]
    state._legal = None
    return state
