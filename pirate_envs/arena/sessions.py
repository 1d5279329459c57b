"""Arena games: one live game or replay per browser tab, what each viewer may be sent, and the bots.

A :class:`Match` is a live game: ``play`` mode when one seat is played by the person ("me"), ``watch``
mode when bots play every seat. A :class:`ReplayMatch` re-simulates a replay file. Both answer
:meth:`snapshot` for one viewer (a seat, or ``None`` for a spectator) with *only* that viewer's
:class:`~pirate_envs.drawing.table.TableView`, the moves as that viewer may read them
(``view.describe_action``) with what each move turned up as that viewer saw it
(``drawing.text.move_outcome``), each seat's name and who plays it (:mod:`pirate_envs.arena.seats`)
and, once over, the result. The views and texts name the seats as the page does ("You", "Heuristic
bot 2": ``drawing.table.naming``). The full state never leaves the server. In play mode the only
viewer is the person's seat; the view switch (any seat or the spectator) exists only where no person
plays (watch and replay).

Bots run on the server, one move per :meth:`Match.advance` call, so the page sets the pace (and
can pause) and every move is shown as it happens. A bot that raises or picks an illegal action ends
its game with a visible error; the server goes on. Each match has its own lock; the
:class:`MatchStore` keeps at most ``max_matches`` of them (the least recently used goes first).
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from pirate_envs.arena.errors import ApiError
from pirate_envs.arena.seats import Seat, recorded_seat
from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.core.replay import Replay, replay_states
from pirate_envs.drawing.table import naming, seat_name
from pirate_envs.drawing.text import move_outcome
from pirate_envs.policies.base import choose_action

MAX_LOG_SENT = 300  # move lines sent per snapshot (the newest)


class Told(NamedTuple):
    """A move as one viewer reads it: the move itself and what it turned up (a drawn card, a bust, ...)."""

    text: str
    outcome: tuple[str, ...]


@dataclasses.dataclass
class Directories:
    """Where checkpoints, training runs and replays live (None: not offered)."""

    checkpoints: Path | None = None
    runs: Path | None = None
    replays: Path | None = None

    def checkpoint_root(self, root: Any) -> Path | None:
        if root == "checkpoints":
            return self.checkpoints
        if root == "runs":
            return self.runs
        raise ApiError(400, f"checkpoint root must be 'checkpoints' or 'runs'; got {root!r}")


def make_game(env_id: Any, num_players: Any, options: Any) -> Any:
    """The rules engine for the browser's choices; an :class:`ApiError` (400) naming what was wrong."""
    if env_id not in ENV_IDS:
        raise ApiError(400, f"env_id must be one of {', '.join(ENV_IDS)}; got {env_id!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(400, "options must be an object of rule options")
    try:
        return game_class(env_id)(num_players=num_players, **options)
    except (ValueError, TypeError) as exc:
        raise ApiError(400, str(exc)) from exc


def parse_viewer(raw: Any) -> int | None:
    """``"spectator"``/``""``/None -> None; a seat number (int or digits) -> int; else 400."""
    if raw is None or raw in ("", "spectator"):
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.isdigit() and len(raw) < 4:
        return int(raw)
    raise ApiError(400, f"viewer must be a seat number or 'spectator'; got {raw!r}")


class _Base:
    """What live games and replays share: identity, seats, the per-viewer move log, the lock."""

    mode: str

    def __init__(self, env_id: str, game: Any, seats: list[Seat], seed: Any) -> None:
        self.id = secrets.token_urlsafe(16)
        self.env_id = env_id
        self.game = game
        self.seats = seats
        self.seed = seed
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.names = tuple(seat.name(s) for s, seat in enumerate(seats))
        # one entry per move: (seat, action, what each viewer reads of it); index 0 the spectator, 1 + seat
        self.moves: list[tuple[int, int, tuple[Told, ...]]] = []
        self._before: list[Any] | None = None  # every viewer's view of the position before the next move

    def _views(self, state: Any) -> list[Any]:
        with naming(self.names):
            return [state.table_view(v) for v in (None, *range(self.game.num_players))]

    def _tell(self, before: Any, seat: int, action: int, after: Any) -> tuple[Told, ...]:
        """What each viewer reads of ``seat`` playing ``action`` from the state ``before`` to ``after``: the
        move (``describe_action``) and what it turned up (``move_outcome`` of the viewer's two views)."""
        describe = self.game.view_builder().describe_action
        viewers = (None, *range(self.game.num_players))
        with naming(self.names):
            texts = [describe(before, seat, action, v) for v in viewers]
        views_before = self._before if self._before is not None else self._views(before)
        views_after = self._views(after)
        self._before = views_after
        with naming(self.names):
            return tuple(
                Told(text, tuple(move_outcome(self.game, old, new)))
                for text, old, new in zip(texts, views_before, views_after, strict=True)
            )

    def allowed_viewers(self) -> list[int | None]:
        return [None, *range(self.game.num_players)]

    def check_viewer(self, viewer: int | None) -> None:
        allowed = self.allowed_viewers()
        if viewer is not None and not 0 <= viewer < self.game.num_players:
            raise ApiError(400, f"viewer must be 0..{self.game.num_players - 1} or 'spectator'; got {viewer}")
        if viewer not in allowed:
            names = ", ".join("spectator" if v is None else str(v) for v in allowed)
            raise ApiError(403, f"this {self.mode} game may only be viewed as: {names}")

    def default_viewer(self) -> int | None:
        return None

    def _snapshot(self, state: Any, viewer: int | None, upto: int, extra: dict[str, Any]) -> dict[str, Any]:
        self.check_viewer(viewer)
        key = 0 if viewer is None else viewer + 1
        lines = [
            {"step": i + 1, "seat": seat, "text": told[key].text, "outcome": list(told[key].outcome)}
            for i, (seat, _action, told) in enumerate(self.moves[:upto])
        ][-MAX_LOG_SENT:]
        with naming(self.names):
            view = state.table_view(viewer)
        if not view.last_action and lines:
            view = dataclasses.replace(view, last_action=lines[-1]["text"])
        finished = state.is_terminal()
        result = None
        if finished:
            result = {
                "scores": [float(s) for s in state.scores()],
                "winners": [int(w) for w in state.winners()],
                "truncated": bool(state.is_truncated()),
                "line": view.result,
            }
        return {
            "id": self.id,
            "mode": self.mode,
            "env_id": self.env_id,
            "title": self.game.display_name or self.env_id,
            "num_players": self.game.num_players,
            "options": self.game.options,
            "seed": self.seed,
            "seats": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "token": seat_name(s),
                    "kind": seat.kind,
                    "policy": seat.label,
                    "human": seat.human,
                }
                for s, seat in enumerate(self.seats)
            ],
            "viewer": viewer,
            "viewers": ["spectator" if v is None else v for v in self.allowed_viewers()],
            "current_player": -1 if finished else int(state.current_player()),
            "view": view.to_dict(),
            "log": lines,
            "finished": finished,
            "result": result,
            **extra,
        }


class Match(_Base):
    """A live game in the arena (``play`` with one human seat, ``watch`` with bots only)."""

    def __init__(self, env_id: str, game: Any, seats: list[Seat], seed: int) -> None:
        super().__init__(env_id, game, seats, seed)
        humans = [s for s, seat in enumerate(seats) if seat.human]
        self.human: int | None = humans[0] if humans else None
        self.mode = "play" if humans else "watch"
        self.state = game.new_initial_state(seed)
        self.rng = np.random.default_rng(seed)
        self.actions: list[int] = []
        self.error = ""

    def allowed_viewers(self) -> list[int | None]:
        if self.human is not None:
            return [self.human]
        return super().allowed_viewers()

    def default_viewer(self) -> int | None:
        return self.human

    @property
    def over(self) -> bool:
        return bool(self.error) or self.state.is_terminal()

    def waiting_for(self) -> str:
        if self.over:
            return "nobody"
        return "you" if self.seats[self.state.current_player()].human else "bot"

    def _apply(self, seat: int, action: int) -> None:
        before = self.state.clone()
        self.state.apply_action(action)
        self.actions.append(action)
        self.moves.append((seat, action, self._tell(before, seat, action, self.state)))

    def act(self, action: Any) -> None:
        """The person's move: 409 if it is not their turn, 400 if not a legal action (the game goes on)."""
        if self.over:
            raise ApiError(409, "this game is over; start a new one")
        seat = self.state.current_player()
        if self.human is None or seat != self.human:
            raise ApiError(409, f"it is not your turn: {self.seats[seat].name(seat)} is to act; advance the bots")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(400, f"action must be an integer action id; got {action!r}")
        legal = self.state.legal_actions()
        if action not in legal:
            raise ApiError(400, f"action {action} is not legal now; legal actions: {legal}")
        try:
            self._apply(seat, action)
        except IllegalActionError as exc:  # the engine's word is final
            raise ApiError(400, str(exc)) from exc

    def advance(self) -> None:
        """One bot move (409 if the person or nobody is to act). A failing bot ends the game with an error."""
        if self.over:
            raise ApiError(409, "this game is over; start a new one")
        seat = self.state.current_player()
        bot = self.seats[seat]
        if bot.human:
            raise ApiError(409, "it is your turn: choose one of your legal actions")
        try:
            action = choose_action(bot.policy, self.state, seat, self.rng)
        except Exception as exc:
            self.error = f"{bot.name(seat)} ({bot.label}) failed and the game was stopped: {type(exc).__name__}: {exc}"
            return
        if type(action) is not int or action not in self.state.legal_actions():
            self.error = f"{bot.name(seat)} ({bot.label}) chose the illegal action {action!r}; the game was stopped"
            return
        self._apply(seat, action)

    def snapshot(self, viewer: int | None) -> dict[str, Any]:
        return self._snapshot(
            self.state,
            viewer,
            len(self.moves),
            {
                "human_seat": self.human,
                "step": len(self.moves),
                "waiting_for": self.waiting_for(),
                "error": self.error,
                "finished": self.over,
            },
        )


class ReplayMatch(_Base):
    """A replay file, re-simulated once; :meth:`snapshot` shows the position after any number of moves."""

    mode = "replay"

    def __init__(self, replay: Replay, name: str) -> None:
        game = replay.game()
        labels = [*replay.policies, *[""] * game.num_players]
        seats = [recorded_seat(labels[s]) for s in range(game.num_players)]
        super().__init__(replay.env_id, game, seats, replay.seed)
        self.name = name
        self.states = []
        for step, state in enumerate(replay_states(replay)):
            if step:
                seat = self.states[-1].current_player()
                action = replay.actions[step - 1]
                self.moves.append((seat, action, self._tell(self.states[-1], seat, action, state)))
            self.states.append(state.clone())

    def snapshot(self, viewer: int | None, step: Any = None) -> dict[str, Any]:
        total = len(self.states) - 1
        if step is None or step == "":
            step = total
        if isinstance(step, str) and step.isdigit() and len(step) < 8:
            step = int(step)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= total:
            raise ApiError(400, f"step must be a whole number from 0 to {total}; got {step!r}")
        state = self.states[step]
        return self._snapshot(
            state,
            viewer,
            step,
            {
                "human_seat": None,
                "step": step,
                "total_steps": total,
                "waiting_for": "nobody",
                "error": "",
                "replay": self.name,
            },
        )


class MatchStore:
    """The open games, by random id; the least recently used is dropped beyond ``max_matches``."""

    def __init__(self, max_matches: int = 64) -> None:
        self.max_matches = max_matches
        self._matches: OrderedDict[str, _Base] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, match: _Base) -> None:
        with self._lock:
            self._matches[match.id] = match
            while len(self._matches) > self.max_matches:
                self._matches.popitem(last=False)

    def get(self, match_id: str) -> _Base:
        with self._lock:
            match = self._matches.get(match_id)
            if match is None:
                raise ApiError(404, f"no game {match_id[:40]!r}: it ended or was never started; start a new one")
            self._matches.move_to_end(match_id)
            match.touched = time.monotonic()
            return match

    def remove(self, match_id: str) -> None:
        with self._lock:
            if self._matches.pop(match_id, None) is None:
                raise ApiError(404, f"no game {match_id[:40]!r}")

    def __len__(self) -> int:
        return len(self._matches)
