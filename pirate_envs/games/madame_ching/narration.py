"""Madame Ching told as it happens: the navigation cards the junks reveal and sail with.

Built from two table views of one viewer (``view.py``): a card picked in Select is face down until
every seat has picked, then it is revealed on the seat's expedition (MCH-904); the rounds are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView
from pirate_envs.drawing.text import card_text

if TYPE_CHECKING:
    from pirate_envs.games.madame_ching.game import MadameChingState


EXPEDITION = "expedition"


def _expeditions(view: TableView) -> dict[str, list[str]]:
    return {
        zone.title.split(" (")[0]: [card_text(card) for card in zone.cards]
        for zone in view.zones
        if zone.note.startswith(EXPEDITION)
    }


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The cards that joined an expedition (the picks revealed at the end of Select)."""
    old, lines = _expeditions(before), []
    for who, cards in _expeditions(after).items():
        earlier = set(old.get(who, []))  # a set: a card already in the expedition is no news however shown
        shown = [card for card in dict.fromkeys(cards) if card not in earlier and not card.startswith("[face-down")]
        if shown:
            lines.append(f"  {who} reveals {', '.join(shown)}")
    return lines


def round_number(state: MadameChingState) -> int:
    """The round on the table."""
    return state.round
