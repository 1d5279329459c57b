"""A check that what the arena sends a seat carries none of the other seats' secrets (used by the tests).

:class:`SeatAudit` follows a game independently of the arena (its own state, rebuilt from the seed
and the actions played) and, for each message sent to ``seat``, lists the *secrets*: labels of cards
some other seat sees face up that ``seat`` cannot know, i.e. that appear neither in ``seat``'s own
view nor in the moves as ``seat`` may read them (``view.describe_action(..., viewer=seat)``: a
public accusation may name a card). Any secret found in a message is a leak. The views and move
texts come from the game's ``view.py`` (the conformance suite checks those against
``resample_hidden``); this audit checks that the arena adds nothing on top (another seat's view, the
state, a move named as its actor sees it).
"""

from __future__ import annotations

import json
from typing import Any

MIN_LABEL = 3  # shorter labels ("5", "A") would match unrelated text


def _visible_labels(view: Any) -> set[str]:
    return {card.label for zone in view.zones for card in zone.cards if not card.hidden and card.label}


def secret_labels(state: Any, seat: int, also_known: str = "") -> set[str]:
    """Labels other seats see face up at ``state`` that appear nowhere in ``seat``'s view or ``also_known``."""
    own_text = json.dumps(state.table_view(seat).to_dict(), ensure_ascii=False) + also_known
    others: set[str] = set()
    for other in range(state.game.num_players):
        if other != seat:
            others |= _visible_labels(state.table_view(other))
    return {label for label in others if len(label) >= MIN_LABEL and label not in own_text}


def leaked(message: dict[str, Any] | str, secrets: set[str]) -> list[str]:
    """The secrets that occur in ``message`` (a JSON payload or its text)."""
    text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
    return sorted(label for label in secrets if label in text)


class SeatAudit:
    """Follows one game for ``seat``: :meth:`check` a message sent after ``actions`` were played."""

    def __init__(self, game: Any, seed: Any, seat: int) -> None:
        self.state = game.new_initial_state(seed)
        self.seat = seat
        self.read: list[str] = []  # the moves as ``seat`` may read them

    def check(self, actions: list[int], message: dict[str, Any]) -> tuple[list[str], int]:
        """(the secrets found in ``message``, how many secrets there were to find)."""
        describe = self.state.game.view_builder().describe_action
        for action in actions[len(self.read) :]:
            actor = self.state.current_player()
            self.read.append(describe(self.state, actor, action, self.seat))
            self.state.apply_action(action)
        secrets = secret_labels(self.state, self.seat, "\n".join(self.read))
        return leaked(message, secrets), len(secrets)
