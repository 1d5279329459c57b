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

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
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
    """One legal action of the viewer, with a readable label and a help text.

    ``target`` is the ``key`` of the board element the action belongs to (a ship, a pile, a seat; "" for a
    plain button) and ``choice`` its short name once that element is chosen ("Forward 6"), so a page can
    turn a click on the element into a short list of choices (``docs/arena-board.md``).
    """

    action: int
    label: str
    detail: str = ""
    target: str = ""
    choice: str = ""


@dataclass(frozen=True)
class TableView:
    """What ``viewer`` sees: the zones, the players' standing, the turn and the last action.

    ``players[i]`` is one line per seat ("player_0 (England) — 12 points"); ``status`` says whose
    turn it is and what is being decided, in words; ``decision_help`` explains the decision;
    ``legal`` lists the viewer's legal actions (empty unless the viewer is to act); ``result`` is
    the final line once the game is over ("" before).

    ``board`` is the same table as structured data for a page that draws the game as it looks
    (``{"kind": ...}``, one schema per game, ``docs/arena-board.md``); ``ending`` explains the end once the
    game is over (why it ended, each seat's score broken down, who won and why; ``{}`` before).
    Both carry only what ``viewer`` may see, like the zones.
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
    board: dict[str, Any] = field(default_factory=dict)
    ending: dict[str, Any] = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]  # the board and ending are dicts

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

_PLAYER_NAMES: ContextVar[tuple[str, ...] | None] = ContextVar("player_names", default=None)
YOU = "You"


@contextmanager
def naming(names: Sequence[str]) -> Iterator[None]:
    """Within the block, the views call seat ``s`` ``names[s]`` in what a player reads (``"You"``,
    ``"Heuristic bot 2"``); outside it, by its agent name (:func:`seat_name`). The arena sets it per
    viewer around ``state.table_view(viewer)`` and ``describe_action``; a context variable, so each
    thread (each request) names its own seats."""
    token = _PLAYER_NAMES.set(tuple(str(name) for name in names))
    try:
        yield
    finally:
        _PLAYER_NAMES.reset(token)


def seat_name(seat: int) -> str:
    """The agent name of a seat, as the adapters call it (``player_2``); never changed by :func:`naming`."""
    return f"player_{seat}"


def player_name(seat: int) -> str:
    """A seat as a player reads it: its name under :func:`naming`, else its agent name."""
    names = _PLAYER_NAMES.get()
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return seat_name(seat)


def player_possessive(seat: int, capital: bool = True) -> str:
    """``"Your"`` for the seat named "You" (``"your"`` inside a sentence), else ``"Heuristic bot 2's"``."""
    name = player_name(seat)
    if name == YOU:
        return "Your" if capital else "your"
    return f"{name}'s"


def player_object(seat: int) -> str:
    """A seat as the object of a sentence: ``"you"`` for the seat named "You" ("Bot 2 robbed you")."""
    name = player_name(seat)
    return "you" if name == YOU else name


def player_their(seat: int) -> str:
    """``"your"`` for the seat named "You", else ``"their"`` ("counted their Wild as Yes")."""
    return "your" if player_name(seat) == YOU else "their"


def player_verb(seat: int, verb: str) -> str:
    """``"wins"`` after a named seat, ``"win"`` after "You" (``verb`` is the third person: wins, has, is)."""
    if player_name(seat) != YOU:
        return verb
    return {"has": "have", "is": "are", "was": "were", "does": "do"}.get(verb, verb.removesuffix("s"))


def seat_name_at(actor: int, offset: int, num_players: int) -> str:
    """The name of the seat ``offset`` places after ``actor`` (action tables name targets by offset)."""
    return player_name((actor + offset) % num_players)


def player_title(seat: int, viewer: int | None) -> str:
    """A seat's name as ``viewer`` reads it in the players' lines: ``player_2 (you)`` for its own."""
    name = player_name(seat)
    return name + (" (you)" if seat == viewer and name != YOU else "")


def names_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_of(number: int, word: str, plural: str = "") -> str:
    """``1 card``, ``2 cards`` (``plural`` where adding an s will not do)."""
    return f"{number} {word if number == 1 else plural or word + 's'}"


def keyed(data: dict[str, Any], key: str, keys: set[str]) -> dict[str, Any]:
    """A board element with its ``key`` when one of the viewer's legal actions points at it (``keys``), so a
    page makes it clickable; without it otherwise."""
    return {**data, "key": key} if key in keys else data


def viewer_acts(state: Any, viewer: int | None) -> bool:
    """Whether ``viewer`` is the seat to act (never at the end, never for a spectator)."""
    return viewer is not None and not state.is_terminal() and state.current_player() == viewer


Labelled = str | tuple[str, str] | tuple[str, str, str] | tuple[str, str, str, str]


def legal_for(state: Any, viewer: int | None, describe: Callable[[int], Labelled]) -> tuple[LegalAction, ...]:
    """The viewer's legal actions with readable labels: empty unless ``viewer`` is the seat to act.

    ``describe(action)`` gives the label, or ``(label, detail)``, or ``(label, detail, target, choice)``
    (see :class:`LegalAction`).
    """
    if not viewer_acts(state, viewer):
        return ()
    out = []
    for action in state.legal_actions():
        text = describe(action)
        parts = (text,) if isinstance(text, str) else tuple(text)
        out.append(LegalAction(int(action), *parts))
    return tuple(out)


def _score_text(value: float, score_name: str) -> str:
    return f"{value:g} {score_name}"


def winner_headline(state: Any, score_name: str) -> str:
    """Who won, in one sentence: "Heuristic bot 2 wins with 31 points." ("" before the end)."""
    if not state.is_terminal():
        return ""
    if state.is_truncated():
        return "Nobody wins."
    winners = list(state.winners())
    if not winners:
        return "Nobody wins."
    scores = state.scores()
    if len(winners) == 1:
        w = winners[0]
        return f"{player_name(w)} {player_verb(w, 'wins')} with {_score_text(scores[w], score_name)}."
    return f"{names_list([player_name(w) for w in winners])} share the win."


def ending_of(
    state: Any,
    *,
    reason: str,
    why: str,
    score_name: str,
    breakdown: Callable[[int], list[tuple[str, float]]],
    verdict: Callable[[int], tuple[str, str] | None] | None = None,
    headline: str = "",
) -> dict[str, Any]:
    """The explanation of a finished game (``{}`` before the end), as ``docs/arena-board.md`` describes it.

    ``reason``/``why``: why the game ended (a code and a sentence); ``breakdown(seat)``: ``(item, points)``
    pairs that add up to the seat's score; ``verdict(seat)``: ``(verdict, note)`` where the game's rules
    decide more than the score (an exiled Tortuga seat), else None; ``headline`` replaces
    :func:`winner_headline`.
    """
    if not state.is_terminal():
        return {}
    truncated = bool(state.is_truncated())
    if truncated:
        reason = "decision_limit"
        why = f"The game was cut at the decision limit ({state.decisions} decisions) before it ended."
    winners = [] if truncated else [int(w) for w in state.winners()]
    scores = state.scores()
    seats = []
    for seat in range(state.num_players):
        decided = verdict(seat) if verdict is not None and not truncated else None
        if decided is None:
            if seat in winners:
                decided = ("tied", "shares the win") if len(winners) > 1 else ("won", "the best score")
            else:
                decided = ("lost", "")
        seats.append(
            {
                "seat": seat,
                "score": float(scores[seat]),
                "verdict": decided[0],
                "note": decided[1],
                "breakdown": [{"item": item, "points": float(points)} for item, points in breakdown(seat)],
            }
        )
    return {
        "reason": reason,
        "why": why,
        "winners": winners,
        "headline": headline or winner_headline(state, score_name),
        "score_name": score_name,
        "truncated": truncated,
        "seats": seats,
    }


def ending_line(ending: dict[str, Any]) -> str:
    """The ending in one line of words: who won, then why the game ended ("" before the end)."""
    if not ending:
        return ""
    return f"{ending['headline']} {ending['why']}".strip()


def result_line(state: Any, scores_title: str = "scores") -> str:
    """The final line once the game is over: winners and the game's scores ("" before the end).

    ``scores_title`` names the score figures as the game does ("fame", "points")."""
    if not state.is_terminal():
        return ""
    if state.is_truncated():
        return f"Game cut after {state.decisions} decisions: nobody wins."
    scores = ", ".join(f"{player_name(s)} {v:g}" for s, v in enumerate(state.scores()))
    return f"{winner_headline(state, scores_title)} Final {scores_title}: {scores}."


def whose_turn(state: Any, active: int) -> str:
    """``"Bot 2's turn"``, and who decides now when another seat must answer within it ("You decide")."""
    text = f"{player_possessive(active)} turn"
    current = state.current_player()
    if not state.is_terminal() and current != active:
        text += f", {player_name(current)} {player_verb(current, 'decides')}"
    return text


def turn_status(state: Any, viewer: int | None, decision: str = "") -> str:
    """Whose turn it is, in words. ``decision`` (what is being decided) is shown only to the seat that
    decides: the observations give the phase to the acting seat alone (other seats see only who acts)."""
    if state.is_terminal():
        return "Game over" if not state.is_truncated() else "Game cut at the decision limit"
    seat = state.current_player()
    if viewer == seat:
        agent = "" if _PLAYER_NAMES.get() is not None else f" ({seat_name(seat)})"  # the terminal says who you are
        return f"Your turn{agent}" + (f": {decision}" if decision else "")
    return f"{player_possessive(seat)} turn"


@dataclass(frozen=True)
class TableWording:
    """How one game words its table, declared once in its ``view.py``: :meth:`table_view` wraps the game's
    title and zones in the fields every game fills alike (its id, the seat to act, the turn status, the
    players' lines, the labelled legal actions, the final line).

    ``standing(state, seat, viewer)``: a seat's line after its name (``player_2 (you): 12 fame``);
    ``label(state, actor, action)``: an action's label, ``(label, detail)`` or ``(label, detail, target,
    choice)``, as for :func:`legal_for`; ``decision(state)``: (what the seat to act decides, its help text),
    asked only when the viewer is to act; ``glossary``: the table's words explained; ``scores_title``: the
    name the scores have ("points", "fame").
    """

    standing: Callable[[Any, int, int | None], str]
    label: Callable[[Any, int, int], Labelled]
    decision: Callable[[Any], tuple[str, str]]
    glossary: tuple[tuple[str, str], ...] = ()
    scores_title: str = "scores"

    def table_view(
        self,
        state: Any,
        viewer: int | None,
        title: str,
        zones: Iterable[Zone],
        result: str | None = None,
        board: Callable[[set[str]], dict[str, Any]] | None = None,
        ending: dict[str, Any] | None = None,
    ) -> TableView:
        """The table of ``state`` as ``viewer`` sees it. The final line is ``result``, else the ``ending``'s
        line, else :func:`result_line`'s. ``board(targets)`` builds the board data, given the keys the
        viewer's legal actions point at (the elements it makes clickable)."""
        current = state.current_player()
        decided, help_text = self.decision(state) if viewer_acts(state, viewer) else ("", "")
        players = [f"{player_title(s, viewer)}: {self.standing(state, s, viewer)}" for s in range(state.num_players)]
        if result is None:
            result = ending_line(ending) if ending else result_line(state, self.scores_title)
        legal = legal_for(state, viewer, lambda action: self.label(state, current, action))
        return TableView(
            game=state.game.game_id,
            title=title,
            viewer=viewer,
            current_player=current,
            status=turn_status(state, viewer, decided),
            players=tuple(players),
            zones=tuple(zones),
            decision_help=help_text,
            legal=legal,
            result=result,
            glossary=self.glossary,
            board=board({a.target for a in legal if a.target}) if board is not None else {},
            ending=ending or {},
        )
