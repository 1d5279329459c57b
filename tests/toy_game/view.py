"""The drawn table of Pieces of Eight for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (P8-601): the trick and the piles are face up, a hand is face down
except to its owner, the purse is face down to everybody. Coins are played face up (P8-301), so every
viewer reads a move the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import Card, TableView, Zone, legal_for, result_line, seat_name, turn_status

from .coins import HAND_SIZE, coin_name, coin_of

if TYPE_CHECKING:
    from .game import PiecesOfEightState


def describe_action(state: PiecesOfEightState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` reads of ``seat`` playing ``action`` (``state`` is the state before it)."""
    return f"{seat_name(seat)} plays the coin worth {coin_name(coin_of(action))}"


def _coin(coin: int) -> Card:
    return Card(label=str(coin), kind="coin", detail=coin_name(coin))


def table_view(state: PiecesOfEightState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    game = state.game
    n = game.num_players
    trick_seats = [seat_name((state.leader + i) % n) for i in range(len(state.trick))]
    zones = [
        Zone(
            title="The trick",
            cards=tuple(_coin(coin) for coin in state.trick),
            note=f"led by {seat_name(state.leader)}" + (f", played by {', '.join(trick_seats)}" if trick_seats else ""),
        )
    ]
    for seat in range(n):
        hand = tuple(_coin(coin) if seat == viewer else Card.face_down("coin") for coin in state.hands[seat])
        pile = tuple(_coin(coin) for coin in state.piles[seat])
        zones.append(Zone(title=f"{seat_name(seat)}'s hand", cards=hand, owner=seat))
        zones.append(
            Zone(title=f"{seat_name(seat)}'s pile", cards=pile, owner=seat, note=f"worth {sum(state.piles[seat])}")
        )
    zones.append(Zone(title="The purse", cards=(Card.face_down("coin"),) * len(state.purse), note="never revealed"))
    players = tuple(
        f"{seat_name(seat)}{' (you)' if seat == viewer else ''}: {score:g} pieces of eight taken"
        for seat, score in enumerate(state.scores())
    )
    trick = min(state.tricks_played + 1, HAND_SIZE)
    return TableView(
        game=game.game_id,
        title=f"{game.display_name} - trick {trick} of {HAND_SIZE}",
        viewer=viewer,
        current_player=state.current_player(),
        status=turn_status(state, viewer, "play a coin"),
        players=players,
        zones=tuple(zones),
        decision_help="The highest coin of the trick takes every coin in it.",
        legal=legal_for(state, viewer, game.action_to_string),
        result=result_line(state, "pieces of eight"),
    )
