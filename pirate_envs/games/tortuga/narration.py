"""Tortuga 1667 told as it happens: the new entries of the public log, the votes as they are revealed and
decided, and the end in words.

Built from two table views of one viewer (``view.py``, their ``board`` data, whose log already hides a secret
steal's victim and amount from the others, TOR-805), so it tells only what that viewer may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView, names_list, player_name
from pirate_envs.drawing.text import new_entries
from pirate_envs.games.tortuga.board import NATION_NAMES

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState


def _votes(voters: list[dict], key: str) -> str:
    return ", ".join(f"{player_name(v['seat'])} {v[key]}" for v in voters if v[key] is not None)


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The log entries the move added (events drawn, votes decided, treasure moved), the cards of a vote
    when they are turned over, and how the vote went."""
    old, new = before.board, after.board
    if not old or not new:
        return []
    lines = []
    vote = new["vote"]
    if vote is not None and vote["revealed"] and not (old["vote"] or {}).get("revealed"):
        lines.append(f"Votes revealed on {vote['about']}: {_votes(vote['voters'], 'card')}.")
    last = new["last_vote"]
    if last is not None and last != old["last_vote"]:
        if old["vote"] is None or not old["vote"]["revealed"]:
            lines.append(f"Votes revealed on {last['about']}: {_votes(last['voters'], 'card')}.")
        wilds = [v for v in last["voters"] if v["card"] == "Wild"]
        if wilds:
            lines.append("Wild cards counted as: " + _votes(wilds, "counted") + ".")
        die = f", the neutral die said {last['neutral_die']}" if last["neutral_die"] else ""
        result = "passed" if last["passed"] else "failed"
        lines.append(f"The vote {result}, {last['yes']} yes to {last['no']} no{die}.")
    lines += [entry["text"] + "." for entry in new_entries(old["log"], new["log"]) if not entry["restates_move"]]
    return lines


def round_number(state: TortugaState) -> int:
    """The round on the table (TOR-701)."""
    return state.round


def _seats(state: TortugaState, seats: list[int]) -> str:
    return names_list([f"{player_name(p)} ({NATION_NAMES[state.nation[p]]})" for p in seats])


def result_text(state: TortugaState) -> str:
    """The end of the game in a sentence or two a person reads at a glance (TOR-703..705), "" before the end."""
    if not state.is_terminal():
        return ""
    if state.is_truncated():
        return f"Game cut after {state.decisions} decisions: nobody wins."
    game = state.game
    scores = state.nation_scores()
    winning = state.winning_nations()
    top = max(scores[nat] for nat in game.nations_in_play)
    tied = [nat for nat in game.nations_in_play if scores[nat] == top]
    if len(tied) == 1:
        text = f"{NATION_NAMES[tied[0]]} wins with {top} treasure"
    elif winning == tied:
        text = f"{names_list([NATION_NAMES[nat] for nat in tied])} tie on {top} treasure and share the win"
    else:
        text = (
            f"{names_list([NATION_NAMES[nat] for nat in tied])} tie on {top} treasure; "
            f"{names_list([NATION_NAMES[nat] for nat in winning])} wins the tie-break "
            "(more players never exiled, then more maps)"
        )
    winners = list(state.winners())
    if not winners:
        text += ", but every player of the winning side was exiled: nobody wins"
    else:
        text += "; the winners: " + _seats(state, winners)
    exiled = [p for p in range(game.num_players) if state.nation[p] in winning and state.exiled[p]]
    if exiled and winners:
        verb = "was" if len(exiled) == 1 else "were"
        text += f"; {_seats(state, exiled)} {verb} exiled and {'does' if len(exiled) == 1 else 'do'} not share the win"
    others = ", ".join(f"{NATION_NAMES[nat]} {scores[nat]}" for nat in game.nations_in_play)
    return f"{text}. Nation scores: {others}."
