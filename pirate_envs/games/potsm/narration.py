"""Pirates of the Spanish Main told as it happens: the public turn record and the next adventure.

Built from two table views of one viewer (``view.py``): the turn records are public (PSM-560) and so
is the adventure row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView
from pirate_envs.drawing.text import zone_labels

if TYPE_CHECKING:
    from pirate_envs.games.potsm.game import PotsmState

RECORDS = "Last turns"
ADVENTURES = "Adventures"


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The turn's public record once it is complete, and the new current adventure when it changes."""
    lines = []
    records_before, records_after = zone_labels(before, RECORDS) or [], zone_labels(after, RECORDS) or []
    if records_after and records_after != records_before:
        lines.append(f"  turn record: {records_after[0]}")
    adventures_before, adventures_after = zone_labels(before, ADVENTURES) or [], zone_labels(after, ADVENTURES) or []
    if adventures_after and adventures_after[:1] != adventures_before[:1]:
        lines.append(f"  next adventure: {adventures_after[0]}")
    return lines


def round_number(state: PotsmState) -> int:
    """Full rounds played: every seat's turn counts once (public)."""
    return state.turn_index // state.game.num_players
