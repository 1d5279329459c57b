"""A check that what the arena sends a seat carries none of the other seats' secrets (used by the tests).

:class:`SeatAudit` follows a game independently of the arena (its own state, rebuilt from the seed
and the actions played) and, for each message sent to ``seat``, lists the *secrets*: texts some
other seat's view holds (a card's name, a hover text, a board entry, a legal move) that ``seat``
has never been shown, i.e. that appear neither in any of ``seat``'s own views so far nor in the
moves as ``seat`` may read them (``view.describe_action(..., viewer=seat)``: a public accusation may
name a card). Any secret found in a message is a leak. The views and move texts come from the game's
``view.py`` (the conformance suite checks those against ``resample_hidden``); this audit checks that
the arena adds nothing on top (another seat's view, the state, a move named as its actor sees it).
Seats are named as the arena names them (``names``, :func:`pirate_envs.drawing.table.naming`), so the
texts compared are the texts sent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from pirate_envs.drawing.table import naming

MIN_LABEL = 3  # shorter texts ("5", "A") would match unrelated text


def _texts(data: Any) -> set[str]:
    """Every string value in a view's JSON form (card names, hover texts, board entries, labels)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_texts(v) for v in data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(_texts(v) for v in data)) if data else set()
    return set()


def _named(names: Sequence[str] | None) -> Any:
    return naming(names) if names is not None else nullcontext()


def secret_labels(state: Any, seat: int, also_known: str = "", names: Sequence[str] | None = None) -> set[str]:
    """Texts other seats' views hold at ``state`` that appear nowhere in ``seat``'s view or ``also_known``."""
    with _named(names):
        own_text = json.dumps(state.table_view(seat).to_dict(), ensure_ascii=False) + also_known
        others: set[str] = set()
        for other in range(state.game.num_players):
            if other != seat:
                others |= _texts(state.table_view(other).to_dict())
    return {text for text in others if len(text) >= MIN_LABEL and text not in own_text}


def leaked(message: dict[str, Any] | str, secrets: set[str]) -> list[str]:
    """The secrets that occur in ``message`` (a JSON payload or its text)."""
    text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
    return sorted(label for label in secrets if label in text)


class SeatAudit:
    """Follows one game for ``seat``: :meth:`check` a message sent after ``actions`` were played.

    ``names``: the seats' names as the arena gives them (``Match.names``); None for the agent names."""

    def __init__(self, game: Any, seed: Any, seat: int, names: Sequence[str] | None = None) -> None:
        self.state = game.new_initial_state(seed)
        self.seat = seat
        self.names = tuple(names) if names is not None else None
        self.read: list[str] = []  # the moves as ``seat`` may read them
        self.seen: set[str] = set()  # every text of every view ``seat`` was shown
        self.known = ""  # those texts and the moves read, one a line
        self._see()

    def _see(self) -> None:
        with _named(self.names):
            texts = _texts(self.state.table_view(self.seat).to_dict())
        new = texts - self.seen
        self.seen |= new
        self.known += "\n" + "\n".join(sorted(new))

    def check(self, actions: list[int], message: dict[str, Any]) -> tuple[list[str], int]:
        """(the secrets found in ``message``, how many secrets there were to find)."""
        describe = self.state.game.view_builder().describe_action
        for action in actions[len(self.read) :]:
            actor = self.state.current_player()
            with _named(self.names):
                self.read.append(describe(self.state, actor, action, self.seat))
            self.known += "\n" + self.read[-1]
            self.state.apply_action(action)
            self._see()
        secrets = secret_labels(self.state, self.seat, self.known, self.names)
        return leaked(message, secrets), len(secrets)
