"""The drawn table in words: a :class:`~pirate_envs.drawing.table.TableView` as terminal lines, and moves told.

The terminal (``training.apps.play``) and the demo log (``pirate_envs.demo``) print what this module makes
of the views the games build (their ``view.py``), so the words a person reads in the terminal are the
ones the pictures and the browser arena show. Nothing here looks at a state's hidden parts: every line
comes from a viewer's ``TableView``, from ``describe_action`` (which hides secret choices from other
viewers) or from the game's ``narration.describe_outcome``, which compares two views of one viewer.

Each game may have a ``narration.py`` next to its ``view.py`` with

- ``describe_outcome(before: TableView, after: TableView) -> list[str]``: what the viewer saw happen
  by chance or by the rules after a move (the card a draw turned up, a log entry), and
- ``round_number(state) -> int``: the public round counter the demo prints the table by.

Lines are wrapped at word boundaries to a given width (the terminal's).
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from pirate_envs.drawing.table import Card, TableView

DEFAULT_WIDTH = 100
INDENT = "    "


def wrap(text: str, width: int, indent: str = "", subsequent: str | None = None) -> list[str]:
    """``text`` as lines of at most ``width`` characters, broken between words only."""
    more = indent + INDENT if subsequent is None else subsequent
    lines = textwrap.wrap(
        text,
        width=max(width, 20),
        initial_indent=indent,
        subsequent_indent=more,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return lines or [indent.rstrip()]


def card_text(card: Card) -> str:
    """A card as a word: its label, or what kind of thing lies face down."""
    if card.hidden:
        return f"[face-down {card.kind}]" if card.kind else "[face down]"
    return card.label


def table_lines(view: TableView, width: int = DEFAULT_WIDTH) -> list[str]:
    """The table as the viewer sees it: title, players, every zone (title, note, cards) and whose turn it is."""
    lines = wrap(f"== {view.title} ==", width)
    for player in view.players:
        lines += wrap(player, width, "  ")
    for zone in view.zones:
        head = zone.title + (f" - {zone.note}" if zone.note else "")
        cards = [card_text(card) for card in zone.cards]
        lines += wrap(head + (": " + ", ".join(cards) if cards else ""), width, "  ", "  " + INDENT)
    if view.result:
        lines += wrap(view.result, width)
    else:
        lines += wrap(view.status + ".", width)
    return lines


def choice_lines(view: TableView, width: int = DEFAULT_WIDTH) -> list[str]:
    """The viewer's legal actions, numbered from 1, with their readable labels."""
    lines: list[str] = []
    for number, legal in enumerate(view.legal, start=1):
        lines += wrap(legal.label, width, f"  {number:>3}. ", " " * 7)
    return lines


def glossary_lines(view: TableView, width: int = DEFAULT_WIDTH) -> list[str]:
    """The codes the table uses, each explained once."""
    return [line for code, meaning in view.glossary for line in wrap(f"{code}: {meaning}", width, "  ")]


def help_lines(view: TableView, width: int = DEFAULT_WIDTH, rules_doc: str = "") -> list[str]:
    """What ``help`` prints: the decision, every choice, everything on the table, the codes, the rules file."""
    lines = wrap(f"{view.status}.", width)
    if view.decision_help:
        lines += wrap(view.decision_help, width, "  ")
    if view.legal:
        lines.append("Your choices:")
        for number, legal in enumerate(view.legal, start=1):
            text = legal.label + (f" - {legal.detail}" if legal.detail and legal.detail != view.decision_help else "")
            lines += wrap(text, width, f"  {number:>3}. ", " " * 7)
    seen: set[str] = set()
    table: list[str] = []
    for zone in view.zones:
        for card in zone.cards:
            if card.hidden or not card.detail or card.detail in seen:
                continue
            seen.add(card.detail)
            said = card.detail if card.detail.startswith(card.label) else f"{card.label}: {card.detail}"
            table += wrap(said, width, "  ")
    if table:
        lines.append("On the table:")
        lines += table
    if view.glossary:
        lines.append("Codes:")
        lines += glossary_lines(view, width)
    if rules_doc:
        lines += wrap(f"The full rules: {rules_doc}", width)
    return lines


def game_package(game: Any) -> str:
    """The dotted name of the game's package (``pirate_envs.games.tortuga``)."""
    return game.view_builder().__name__.rpartition(".")[0]


def rules_doc(game: Any) -> str:
    """The game's rules page in this repository (``docs/rules/tortuga.md``)."""
    return f"docs/rules/{game_package(game).rpartition('.')[2]}.md"


def narration(game: Any) -> ModuleType | None:
    """The game's ``narration`` module, or None when it has none."""
    try:
        return importlib.import_module(game_package(game) + ".narration")
    except ModuleNotFoundError:
        return None


def move_outcome(game: Any, before: TableView, after: TableView) -> list[str]:
    """What the viewer of ``before``/``after`` saw happen after a move, as sentences (empty when the game
    tells nothing): the arena's log entries carry them as their ``outcome``."""
    module = narration(game)
    return [line.strip() for line in module.describe_outcome(before, after)] if module is not None else []


def describe_outcome(game: Any, before: TableView, after: TableView) -> list[str]:
    """:func:`move_outcome` as the terminal prints it: each line indented under the move."""
    return ["  " + line for line in move_outcome(game, before, after)]


def round_number(game: Any, state: Any) -> int:
    """The public round counter of ``state`` (its game's ``narration.round_number``; 0 when it has none)."""
    module = narration(game)
    return int(module.round_number(state)) if module is not None else 0


def new_entries(before: Iterable[str], after: Iterable[str]) -> list[str]:
    """The entries ``after`` adds to ``before`` in a log that keeps only its newest entries (oldest first)."""
    old, new = list(before), list(after)
    for overlap in range(min(len(old), len(new)), -1, -1):
        if old[len(old) - overlap :] == new[:overlap]:
            return new[overlap:]
    return new


def zone_labels(view: TableView, title_start: str) -> list[str] | None:
    """The card labels of the first zone whose title starts with ``title_start`` (None when there is none)."""
    for zone in view.zones:
        if zone.title.startswith(title_start):
            return [card_text(card) for card in zone.cards]
    return None


def zone_title(view: TableView, title_start: str) -> str | None:
    """The full title of the first zone whose title starts with ``title_start``."""
    return next((zone.title for zone in view.zones if zone.title.startswith(title_start)), None)
