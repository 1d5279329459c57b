"""Game replays: one small JSON file per game that re-simulates exactly through the engine.

A :class:`Replay` holds what is needed to play a game again — the env id, the rule options (with
``num_players``), the engine seed, and the action sequence — plus who played each seat and the
recorded outcome. Every game is deterministic from its seed (``Game.new_initial_state(seed)``
draws all chance from the state's own RNG), so :func:`replay_states` rebuilds every position from
the actions alone; nothing of the state is stored, which keeps a replay at a few kilobytes (a
tournament can keep thousands).

Loading checks the file (:class:`ReplayError`, a ``ValueError``, naming the file and the field);
re-simulating checks every action: an illegal one is an error naming the step, the action, the
seat, the phase and the legal actions; at the end the outcome (returns, scores, winners,
truncation, decision count) must match the recorded one. Nothing here imports gymnasium or
pettingzoo (the registry is read to find the game's rules engine).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.game import Game, State

REPLAY_FORMAT = 1
OUTCOME_KEYS = ("returns", "scores", "winners", "truncated", "decisions")


class ReplayError(ValueError):
    """A replay that cannot be read or does not re-simulate to what it recorded."""


@dataclass
class Replay:
    """One recorded game.

    ``options``: the game's rule options, ``num_players`` included (``Game(**options)`` rebuilds the
    game); ``seed``: the engine seed of ``new_initial_state``; ``policies``: who played each seat
    (labels, e.g. ``"heuristic"`` or a checkpoint path); ``actions``: every decision in order;
    ``outcome``: :func:`outcome_of` the final state; ``source``: where the game came from (e.g.
    the tournament seed and game index).
    """

    env_id: str
    options: dict[str, Any]
    seed: int
    policies: list[str]
    actions: list[int]
    outcome: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    format: int = REPLAY_FORMAT

    def game(self) -> Game:
        """The rules engine of this replay's game, with its options."""
        from pirate_envs.core.registry import game_class

        try:
            return game_class(self.env_id)(**self.options)
        except ValueError as exc:
            raise ReplayError(f"replay of {self.env_id!r}: its options do not make a game: {exc}") from exc

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def outcome_of(state: State) -> dict[str, Any]:
    """The outcome a replay records: returns, scores, winners, truncation and the decision count."""
    return {
        "returns": [float(r) for r in state.returns()],
        "scores": [float(s) for s in state.scores()],
        "winners": [int(s) for s in state.winners()],
        "truncated": bool(state.is_truncated()),
        "decisions": int(state.decisions),
    }


def record_game(
    state_or_game: Any, seed: int, actions: list[int], policies: list[str], source: dict[str, Any] | None = None
) -> Replay:
    """A replay of the game started with ``seed`` on ``game`` (a Game, or any of its states) and
    played with ``actions``; the outcome is taken by re-simulating it."""
    game = state_or_game.game if isinstance(state_or_game, State) else state_or_game
    replay = Replay(
        env_id=game.game_id,
        options={"num_players": game.num_players, **game.options},
        seed=int(seed),
        policies=[str(p) for p in policies],
        actions=[int(a) for a in actions],
        source=dict(source or {}),
    )
    replay.outcome = outcome_of(final_state(replay, check_outcome=False))
    return replay


def replay_states(replay: Replay) -> Iterator[State]:
    """Every position of the game: the initial state, then the state after each action.

    The same state object is yielded every time, changed in place (``clone()`` what you keep).
    Raises :class:`ReplayError` naming the step when an action is illegal or comes after the end.
    """
    game = replay.game()
    state = game.new_initial_state(replay.seed)
    yield state
    total = len(replay.actions)
    for step, action in enumerate(replay.actions):
        where = f"replay of {replay.env_id} (seed {replay.seed}), step {step} of {total}"
        if state.is_terminal():
            raise ReplayError(f"{where}: action {action} comes after the end of the game ({state.phase_name()})")
        try:
            state.apply_action(action)
        except IllegalActionError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        yield state


def final_state(replay: Replay, check_outcome: bool = True) -> State:
    """Re-simulate the whole game; with ``check_outcome`` the end must be reached and match ``outcome``."""
    states = replay_states(replay)
    state = next(states)  # the one state object, changed in place by every step
    deque(states, maxlen=0)  # play every action through
    if check_outcome:
        if not state.is_terminal():
            raise ReplayError(
                f"replay of {replay.env_id} (seed {replay.seed}): the {len(replay.actions)} actions end before "
                f"the game does (phase {state.phase_name()}, player_{state.current_player()} to act)"
            )
        got = outcome_of(state)
        for key in OUTCOME_KEYS:
            if key in replay.outcome and replay.outcome[key] != got[key]:
                raise ReplayError(
                    f"replay of {replay.env_id} (seed {replay.seed}): the re-simulated {key} {got[key]} differ "
                    f"from the recorded {replay.outcome[key]}"
                )
    return state


# --- files ----------------------------------------------------------------------------------------


def save_replay(replay: Replay, path: str | Path) -> Path:
    """Write ``replay`` as compact JSON (the parent folder is created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay.to_dict(), separators=(",", ":")) + "\n")
    return path


def _field(data: dict, name: str, kind: type | tuple[type, ...], where: str) -> Any:
    if name not in data:
        raise ReplayError(f"{where}: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ReplayError(f"{where}: field {name!r} must be {getattr(kind, '__name__', kind)}; got {value!r}")
    return value


def replay_from_dict(data: Any, where: str = "replay") -> Replay:
    """A :class:`Replay` from its JSON form, every field checked."""
    if not isinstance(data, dict):
        raise ReplayError(f"{where}: a replay is a JSON object; got {type(data).__name__}")
    version = data.get("format", REPLAY_FORMAT)
    if version != REPLAY_FORMAT:
        raise ReplayError(f"{where}: replay format {version!r} is not supported (this version reads {REPLAY_FORMAT})")
    actions = _field(data, "actions", list, where)
    for step, action in enumerate(actions):
        if isinstance(action, bool) or not isinstance(action, int):
            raise ReplayError(f"{where}: step {step}: action {action!r} is not an integer")
    return Replay(
        env_id=_field(data, "env_id", str, where),
        options=_field(data, "options", dict, where),
        seed=_field(data, "seed", int, where),
        policies=[str(p) for p in _field(data, "policies", list, where)],
        actions=list(actions),
        outcome=dict(data.get("outcome") or {}),
        source=dict(data.get("source") or {}),
    )


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; :class:`ReplayError` names the file and what is wrong with it."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise ReplayError(f"cannot read replay {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ReplayError(f"replay {path} is not valid JSON: {exc}") from None
    return replay_from_dict(data, where=f"replay {path}")
