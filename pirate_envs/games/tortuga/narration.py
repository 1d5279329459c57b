"""Tortuga 1667 told as it happens: the new entries of the public log a viewer sees after a move.

Built from two table views of one viewer (``view.py``, whose log already hides a secret steal's victim
and amount from the others, TOR-805), so it tells only what that viewer may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView, seat_name
from pirate_envs.drawing.text import new_entries, zone_labels
from pirate_envs.games.tortuga.board import NATION_NAMES

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState

LOG = "Log"


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The log entries the move added (events drawn, votes decided, treasure moved)."""
    return ["  " + entry for entry in new_entries(zone_labels(before, LOG) or [], zone_labels(after, LOG) or [])]


def round_number(state: TortugaState) -> int:
    """The round on the table (TOR-701)."""
    return state.round


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def result_text(state: TortugaState) -> str:
    """The end of the game in one sentence a person reads at a glance (TOR-703..705), "" before the end."""
    if not state.is_terminal():
        return ""
    if state.is_truncated():
        return f"Game cut after {state.decisions} decisions: no winner."
    game = state.game
    scores = state.nation_scores()
    winning = state.winning_nations()
    top = max(scores[nat] for nat in game.nations_in_play)
    tied = [nat for nat in game.nations_in_play if scores[nat] == top]
    if len(tied) == 1:
        text = f"{NATION_NAMES[tied[0]]} wins with {top}"
    elif winning == tied:
        text = f"{_names([NATION_NAMES[nat] for nat in tied])} tie on {top} and share the win"
    else:
        text = (
            f"{_names([NATION_NAMES[nat] for nat in tied])} tie on {top}; "
            f"{_names([NATION_NAMES[nat] for nat in winning])} wins the tie-break (TOR-704)"
        )
    winners = [f"{seat_name(p)} ({NATION_NAMES[state.nation[p]]})" for p in state.winners()]
    if not winners:
        text += ", but every member of the winning side was exiled: no winner (TOR-705)"
    else:
        text += "; winners: " + ", ".join(winners)
    exiled = [
        f"{seat_name(p)} ({NATION_NAMES[state.nation[p]]})"
        for p in range(game.num_players)
        if state.nation[p] in winning and state.exiled[p]
    ]
    if exiled and winners:
        verb = "was" if len(exiled) == 1 else "were"
        text += f" - {_names(exiled)} {verb} exiled and {'does' if len(exiled) == 1 else 'do'} not share the win"
    others = ", ".join(f"{NATION_NAMES[nat]} {scores[nat]}" for nat in game.nations_in_play)
    return f"{text}. Nation scores: {others}."
