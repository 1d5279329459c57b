"""The drawn table: what one viewer may see of a position, as plain data.

Every game builds a :class:`TableView` from a state for one viewer (a seat, or ``None`` for a
spectator, who sees public information only). The view is the single source for every picture
of a game: the ``rgb_array`` renderer (:mod:`pirate_envs.drawing.picture`) and the browser arena both
draw a ``TableView`` generically, so a new game only writes its ``view.py`` (state -> view).

Visibility is decided in the game's ``view.py`` exactly as in its ``observation.py``: a card the
viewer may not see is a :class:`Card` with ``hidden=True`` and no label or detail, never the real
card. The conformance suite checks it the same way it checks observations (a view is equal on a
state and on ``state.resample_hidden(viewer)``; a spectator's view on every seat's resample).

Nothing here imports gymnasium or pettingzoo; ``to_dict`` gives the JSON the arena sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Card:
    """One thing on the table: a card, tile, token, role or marker.

    ``label``: short text drawn on it ("Kraken 5"); ``kind``: its category, which picks the colour
    (a suit, a nation, "role", ...); ``detail``: the hover/help text (what it is and does);
    ``hidden``: drawn face down (label and detail are then empty); ``highlight``: drawn emphasised
    (e.g. the card just played, the active boat).
    """

    label: str = ""
    kind: str = ""
    detail: str = ""
    hidden: bool = False
    highlight: bool = False

    @staticmethod
    def face_down(kind: str = "") -> Card:
        return Card(kind=kind, hidden=True)


@dataclass(frozen=True)
class Zone:
    """A named group of cards: a hand, a collection, a ship, the row, a deck (as a count).

    ``owner`` is the seat the zone belongs to (None for shared zones); ``note`` is one short line
    drawn under the title (a count, a score, a status such as "exiled").
    """

    title: str
    cards: tuple[Card, ...] = ()
    owner: int | None = None
    note: str = ""


@dataclass(frozen=True)
class LegalAction:
    """One legal action of the viewer, with a readable label and a help text."""

    action: int
    label: str
    detail: str = ""


@dataclass(frozen=True)
class TableView:
    """What ``viewer`` sees: the zones, the players' standing, the turn and the last action.

    ``players[i]`` is one line per seat ("player_0 (England) — 12 points"); ``status`` says whose
    turn it is and what is being decided, in words; ``decision_help`` explains the decision;
    ``legal`` lists the viewer's legal actions (empty unless the viewer is to act); ``result`` is
    the final line once the game is over ("" before).
    """

    game: str
    title: str
    viewer: int | None
    current_player: int
    status: str
    players: tuple[str, ...]
    zones: tuple[Zone, ...]
    last_action: str = ""
    decision_help: str = ""
    legal: tuple[LegalAction, ...] = ()
    result: str = ""
    glossary: tuple[tuple[str, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (what the arena sends to a browser)."""
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> TableView:
        """The inverse of :meth:`to_dict` (what a browser or a saved frame sends back)."""
        fields = dict(data)
        fields["zones"] = tuple(
            Zone(**{**z, "cards": tuple(Card(**c) for c in z.get("cards", ()))}) for z in fields.get("zones", ())
        )
        fields["legal"] = tuple(LegalAction(**a) for a in fields.get("legal", ()))
        fields["players"] = tuple(fields.get("players", ()))
        fields["glossary"] = tuple(tuple(pair) for pair in fields.get("glossary", ()))
        return TableView(**fields)


# --- small helpers every game's view.py uses --------------------------------------------------------


def seat_name(seat: int) -> str:
    """The agent name of a seat, as the adapters call it (``player_2``)."""
    return f"player_{seat}"


def seat_name_at(actor: int, offset: int, num_players: int) -> str:
    """The agent name of the seat ``offset`` places after ``actor`` (action tables name targets by offset)."""
    return seat_name((actor + offset) % num_players)


def player_title(seat: int, viewer: int | None) -> str:
    """A seat's agent name as ``viewer`` reads it in the players' lines: ``player_2 (you)`` for its own."""
    return seat_name(seat) + (" (you)" if seat == viewer else "")


def viewer_acts(state: Any, viewer: int | None) -> bool:
    """Whether ``viewer`` is the seat to act (never at the end, never for a spectator)."""
    return viewer is not None and not state.is_terminal() and state.current_player() == viewer


def legal_for(
    state: Any, viewer: int | None, describe: Callable[[int], str | tuple[str, str]]
) -> tuple[LegalAction, ...]:
    """The viewer's legal actions with readable labels: empty unless ``viewer`` is the seat to act.

    ``describe(action)`` gives the label, or ``(label, detail)``.
    """
    if not viewer_acts(state, viewer):
        return ()
    out = []
    for action in state.legal_actions():
        text = describe(action)
        label, detail = (text, "") if isinstance(text, str) else text
        out.append(LegalAction(int(action), label, detail))
    return tuple(out)


def result_line(state: Any, scores_title: str = "scores") -> str:
    """The final line once the game is over: winners and the game's scores ("" before the end).

    ``scores_title`` names the score figures as the game does ("fame", "points")."""
    if not state.is_terminal():
        return ""
    if state.is_truncated():
        return f"Truncated after {state.decisions} decisions: no winner."
    scores = ", ".join(f"{seat_name(s)} {v:g}" for s, v in enumerate(state.scores()))
    winners = ", ".join(seat_name(s) for s in state.winners()) or "nobody"
    return f"Game over. Winner: {winners}. Final {scores_title}: {scores}."


def turn_status(state: Any, viewer: int | None, decision: str = "") -> str:
    """Whose turn it is, in words. ``decision`` (what is being decided) is shown only to the seat that
    decides: the observations give the phase to the acting seat alone (other seats see only who acts)."""
    if state.is_terminal():
        return "Game over" if not state.is_truncated() else "Game cut at the decision limit"
    seat = state.current_player()
    if viewer == seat:
        return f"Your turn ({seat_name(seat)})" + (f": {decision}" if decision else "")
    return f"{seat_name(seat)} to act"


@dataclass(frozen=True)
class TableWording:
    """How one game words its table, declared once in its ``view.py``: :meth:`table_view` wraps the game's
    title and zones in the fields every game fills alike (its id, the seat to act, the turn status, the
    players' lines, the labelled legal actions, the final line).

    ``standing(state, seat, viewer)``: a seat's line after its name (``player_2 (you): 12 fame``);
    ``label(state, actor, action)``: an action's label, or ``(label, detail)``, as for :func:`legal_for`;
    ``decision(state)``: (what the seat to act decides, its help text), asked only when the viewer is to act;
    ``glossary``: the table's abbreviations; ``scores_title``: the name :func:`result_line` gives the scores.
    """

    standing: Callable[[Any, int, int | None], str]
    label: Callable[[Any, int, int], str | tuple[str, str]]
    decision: Callable[[Any], tuple[str, str]]
    glossary: tuple[tuple[str, str], ...] = ()
    scores_title: str = "scores"

    def table_view(
        self, state: Any, viewer: int | None, title: str, zones: Iterable[Zone], result: str | None = None
    ) -> TableView:
        """The table of ``state`` as ``viewer`` sees it; ``result`` replaces :func:`result_line`'s final line."""
        current = state.current_player()
        decided, help_text = self.decision(state) if viewer_acts(state, viewer) else ("", "")
        players = [f"{player_title(s, viewer)}: {self.standing(state, s, viewer)}" for s in range(state.num_players)]
        return TableView(
            game=state.game.game_id,
            title=title,
            viewer=viewer,
            current_player=current,
            status=turn_status(state, viewer, decided),
            players=tuple(players),
            zones=tuple(zones),
            decision_help=help_text,
            legal=legal_for(state, viewer, lambda action: self.label(state, current, action)),
            result=result_line(state, self.scores_title) if result is None else result,
            glossary=self.glossary,
        )
