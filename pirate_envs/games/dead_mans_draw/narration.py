"""Dead Man's Draw told as it happens: what a viewer saw after a move (cards drawn into the row, busts).

Built from two table views of one viewer (``view.py``), so it tells only what that viewer may see:
every card drawn is turned face up into the row for all to see (DMD-401), and a bust or a stop shows
the turn's cards (the "Last turn" zone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView
from pirate_envs.drawing.text import zone_labels, zone_title

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdState

ROW = "The row"
LAST_TURN = "Last turn: "


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The cards that came into the row, or how the turn ended (busted or stopped, with its cards)."""
    last_before = (zone_title(before, LAST_TURN), zone_labels(before, LAST_TURN))
    last_after = (zone_title(after, LAST_TURN), zone_labels(after, LAST_TURN))
    if last_after[0] is not None and last_after != last_before:
        how = last_after[0][len(LAST_TURN) :]
        return [f"  {how}: " + (", ".join(last_after[1]) if last_after[1] else "no cards")]
    row_before, row_after = zone_labels(before, ROW) or [], zone_labels(after, ROW) or []
    if row_after == row_before:
        return []
    if row_after[: len(row_before)] == row_before:
        return ["  into the row: " + ", ".join(row_after[len(row_before) :])]
    return ["  the row is now: " + (", ".join(row_after) if row_after else "empty")]


def round_number(state: DmdState) -> int:
    """Full rounds played: every seat's turn counts once (public)."""
    return sum(state.turns_taken) // state.game.num_players
