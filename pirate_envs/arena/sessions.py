"""Arena games: one live game or replay per browser tab, what each viewer may be sent, and the bots.

A :class:`Match` is a live game: ``play`` mode when one seat is played by the person ("me"), ``watch``
mode when bots play every seat. A :class:`ReplayMatch` re-simulates a replay file. Both answer
:meth:`snapshot` for one viewer (a seat, or ``None`` for a spectator) with *only* that viewer's
:class:`~pirate_envs.drawing.table.TableView`, the moves as that viewer may read them
(``view.describe_action``), the seat labels and, once over, the result. The full state never leaves
the server. In play mode the only viewer is the person's seat; the view switch (any seat or the
spectator) exists only where no person plays (watch and replay).

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs.arena.errors import ApiError
from pirate_envs.arena.paths import resolve_inside
from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.core.replay import Replay, replay_states
from pirate_envs.drawing.table import seat_name
from pirate_envs.policies.base import SEARCH_BOTS, RandomPolicy, choose_action, resolve_policy

MAX_LOG_SENT = 300  # move lines sent per snapshot (the newest)

# Parameters the setup form offers for the search bots: name -> (type, default, minimum, maximum or choices).
# Bounds keep one bot move within a request's patience.
SEARCH_PARAMS: dict[str, dict[str, tuple]] = {
    "ismcts": {
        "iterations": (int, 200, 1, 20000),
        "rollout": (str, "random", ("random", "heuristic")),
        "exploration": (float, 0.7, 0.0, 10.0),
        "time_budget": (float, None, 0.01, 30.0),
    },
    "flatmc": {
        "rollouts": (int, 40, 1, 2000),
        "rollout": (str, "heuristic", ("random", "heuristic")),
    },
}
SEAT_KINDS = ("me", "random", "heuristic", *SEARCH_BOTS, "checkpoint")


@dataclasses.dataclass
class Seat:
    """Who plays a seat: ``label`` is shown to every viewer; ``policy`` is None for the person."""

    label: str
    policy: Any = None

    @property
    def human(self) -> bool:
        return self.policy is None


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


def _search_spec(kind: str, params: Any) -> tuple[str, str]:
    """The ``resolve_policy`` spec string for a search bot, from checked form parameters."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ApiError(400, f"{kind} params must be an object")
    allowed = SEARCH_PARAMS[kind]
    parts = []
    for name, value in params.items():
        if name not in allowed:
            raise ApiError(400, f"{kind} has no parameter {name!r}; parameters: {', '.join(allowed)}")
        if value is None or value == "":
            continue
        kind_of, _default, *bounds = allowed[name]
        if kind_of is str:
            if value not in bounds[0]:
                raise ApiError(400, f"{kind} {name} must be one of {', '.join(bounds[0])}; got {value!r}")
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ApiError(400, f"{kind} {name} must be a number; got {value!r}")
            if kind_of is int and int(value) != value:
                raise ApiError(400, f"{kind} {name} must be a whole number; got {value!r}")
            value = kind_of(value)
            low, high = bounds
            if not low <= value <= high:
                raise ApiError(400, f"{kind} {name} must be in [{low}, {high}]; got {value!r}")
        parts.append(f"{name}={value}")
    spec = kind + (":" + ",".join(parts) if parts else "")
    return spec, spec


def make_seat(
    spec: Any,
    seat: int,
    env_id: str,
    game: Any,
    dirs: Directories,
    extra_policies: dict[str, Callable[[Any], Any]],
) -> Seat:
    """A :class:`Seat` from the browser's ``{"kind": ..., ...}`` spec; an :class:`ApiError` (400) if bad."""
    where = f"seat {seat}"
    if isinstance(spec, str):
        spec = {"kind": spec}
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        raise ApiError(400, f"{where}: a policy is an object with 'kind', one of {', '.join(SEAT_KINDS)}")
    kind = spec["kind"]
    try:
        if kind == "me":
            return Seat("you")
        if kind == "random":
            return Seat("random", RandomPolicy())
        if kind == "heuristic":
            return Seat("heuristic", resolve_policy("heuristic", env_id, game.num_players, **game.options))
        if kind in SEARCH_BOTS:
            text, label = _search_spec(kind, spec.get("params"))
            return Seat(label, resolve_policy(text, env_id, game.num_players, **game.options))
        if kind == "checkpoint":
            root_name = spec.get("root", "checkpoints")
            path = resolve_inside(dirs.checkpoint_root(root_name), spec.get("path"), ".zip", "checkpoint")
            from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

            policy = CheckpointPolicy(path)
            policy.check_compatible(game.observation_shape, game.num_actions, f"{env_id} with {game.num_players}")
            return Seat(f"checkpoint {root_name}/{spec.get('path')}", policy)
        if kind in extra_policies:
            return Seat(kind, extra_policies[kind](game))
    except ApiError:
        raise
    except ImportError as exc:
        raise ApiError(400, f"{where}: {kind} needs the 'train' extra (pip install pirate_envs[train]): {exc}") from exc
    except (ValueError, OSError) as exc:
        raise ApiError(400, f"{where}: {exc}") from exc
    kinds = (*SEAT_KINDS, *extra_policies)
    raise ApiError(400, f"{where}: unknown policy kind {kind!r}; kinds: {', '.join(kinds)}")


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
        # one entry per move: (seat, action, text per viewer: index 0 spectator, 1 + seat)
        self.moves: list[tuple[int, int, tuple[str, ...]]] = []

    def _describe(self, state: Any, seat: int, action: int) -> tuple[str, ...]:
        describe = self.game.view_builder().describe_action
        viewers = [None, *range(self.game.num_players)]
        return tuple(describe(state, seat, action, v) for v in viewers)

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
            {"step": i + 1, "seat": seat, "text": texts[key]}
            for i, (seat, _action, texts) in enumerate(self.moves[:upto])
        ][-MAX_LOG_SENT:]
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
                {"seat": s, "name": seat_name(s), "policy": seat.label, "human": seat.human}
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
        texts = self._describe(self.state, seat, action)
        self.state.apply_action(action)
        self.actions.append(action)
        self.moves.append((seat, action, texts))

    def act(self, action: Any) -> None:
        """The person's move: 409 if it is not their turn, 400 if not a legal action (the game goes on)."""
        if self.over:
            raise ApiError(409, "this game is over; start a new one")
        seat = self.state.current_player()
        if self.human is None or seat != self.human:
            raise ApiError(409, f"it is not your turn: {seat_name(seat)} (a bot) is to act; advance the bots")
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
            self.error = f"{seat_name(seat)} ({bot.label}) failed and the game was stopped: {type(exc).__name__}: {exc}"
            return
        if type(action) is not int or action not in self.state.legal_actions():
            self.error = f"{seat_name(seat)} ({bot.label}) chose the illegal action {action!r}; the game was stopped"
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
        seats = [Seat(labels[s] or "?", policy=False) for s in range(game.num_players)]
        super().__init__(replay.env_id, game, seats, replay.seed)
        self.name = name
        self.states = []
        for step, state in enumerate(replay_states(replay)):
            if step:
                seat = self.states[-1].current_player()
                self.moves.append(
                    (seat, replay.actions[step - 1], self._describe(self.states[-1], seat, replay.actions[step - 1]))
                )
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
