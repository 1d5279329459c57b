"""Who plays each seat in the arena: the seat kinds the setup offers, their names, and the bots behind them.

A seat is played by the person (``me``), a built-in bot (``random``, ``heuristic``, the ``ismcts`` and
``flatmc`` search bots), the game's shipped agent (``shipped``) or a trained checkpoint from the
server's checkpoint folders (``checkpoint``). Each seat is named as a player would say it: "You",
"Heuristic bot 2", "Shipped agent 3" (seats are numbered from 1 on the page).

Trained networks only play the game, player count and rules they were trained for. Which
(game, player count) pairs a model zip fits is read from the zip itself, without torch
(:func:`~pirate_envs.networks.checkpoint_policy.model_spaces`), so the setup offers only the agents that
can play the chosen table and a start never fails on a network of the wrong shape.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pirate_envs.arena.errors import ApiError
from pirate_envs.arena.paths import resolve_inside
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.networks.checkpoint_policy import model_spaces
from pirate_envs.policies.base import SEARCH_BOTS, RandomPolicy, resolve_policy

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
SEAT_KINDS = ("me", "random", "heuristic", *SEARCH_BOTS, "shipped", "checkpoint")
# What a seat of each kind is called (a number follows for bots: "Heuristic bot 2"), and the setup's choice.
KIND_NAMES = {
    "me": "You",
    "random": "Random bot",
    "heuristic": "Heuristic bot",
    "ismcts": "Search bot",
    "flatmc": "Monte Carlo bot",
    "shipped": "Shipped agent",
    "checkpoint": "Trained agent",
}
KIND_CHOICES = {
    "me": "You (play this seat)",
    "random": "Random bot (moves at random)",
    "heuristic": "Heuristic bot (simple rules of thumb)",
    "ismcts": "Search bot (looks ahead, slower)",
    "flatmc": "Monte Carlo bot (plays games out, slower)",
    "shipped": "Shipped agent (the trained agent that ships with the game)",
    "checkpoint": "Trained agent from a file",
}


@dataclasses.dataclass
class Seat:
    """Who plays a seat: ``kind`` (one of :data:`SEAT_KINDS` or an extra policy's name); ``label`` says
    which bot exactly (a search spec, a checkpoint's path; what a replay file records); ``policy`` is
    None for the person."""

    label: str
    policy: Any = None
    kind: str = ""

    @property
    def human(self) -> bool:
        return self.policy is None

    def name(self, seat: int) -> str:
        """The seat's name on the page: "You", or the bot's kind and its seat number ("Heuristic bot 2")."""
        kind = self.kind or kind_of_label(self.label)
        if kind == "me":
            return "You"
        return f"{KIND_NAMES.get(kind, kind.replace('_', ' ').capitalize() + ' bot')} {seat + 1}"


def kind_of_label(label: str) -> str:
    """The seat kind a recorded label names ("you", "heuristic", "flatmc:rollouts=2", "checkpoint x/y.zip")."""
    if label in ("you", "me"):
        return "me"
    head = label.split(":")[0].split(" ")[0]
    return head if head in SEAT_KINDS else label


def recorded_seat(label: str) -> Seat:
    """A replay's seat from its recorded label: named by kind, playing nothing (the moves are recorded)."""
    kind = kind_of_label(label)
    return Seat(label or "?", policy=False, kind=kind)


# --- which trained networks fit which tables --------------------------------------------------------


@lru_cache(maxsize=1)
def _table_spaces() -> dict[tuple[int, ...], list[tuple[str, int]]]:
    """(observation shape, actions) -> the (env id, player count) tables with the default rules that have them."""
    tables: dict[tuple, list[tuple[str, int]]] = {}
    for env_id in ENV_IDS:
        cls = game_class(env_id)
        for n in cls.player_counts:
            game = cls(num_players=n)
            tables.setdefault((tuple(game.observation_shape), int(game.num_actions)), []).append((env_id, n))
    return tables


@lru_cache(maxsize=512)
def _fits_cached(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, int], ...]:
    spaces = model_spaces(path)
    return tuple(_table_spaces().get(spaces, ())) if spaces is not None else ()


def model_fits(path: Path) -> list[tuple[str, int]]:
    """The (env id, player count) tables with the default rules the model zip at ``path`` can play."""
    try:
        stat = path.stat()
    except OSError:
        return []
    return list(_fits_cached(str(path.resolve()), stat.st_mtime_ns, stat.st_size))


def can_load_networks() -> bool:
    """Whether trained agents can play here (the train extra: sb3-contrib and torch)."""
    return importlib.util.find_spec("sb3_contrib") is not None


def shipped_fits(env_id: str) -> list[int]:
    """The player counts the shipped agent of ``env_id`` plays (empty without one, or without the train extra)."""
    from pirate_envs.shipped import shipped_checkpoint

    try:
        path = shipped_checkpoint(env_id)
    except ValueError:
        return []
    if not can_load_networks():
        return []
    return [n for fit_env, n in model_fits(path) if fit_env == env_id]


def _table_words(env_id: str, num_players: int) -> str:
    title = game_class(env_id).display_name or env_id
    return f"{title} with {num_players} players"


def _check_fit(path: Path, shown: str, env_id: str, game: Any) -> None:
    """400 unless the model zip at ``path`` can play ``game`` (checked on the zip's recorded spaces)."""
    spaces = model_spaces(path)
    wanted = (tuple(game.observation_shape), int(game.num_actions))
    if spaces is None or spaces == wanted:
        return
    fits = model_fits(path)
    trained = " or ".join(_table_words(e, n) for e, n in fits) if fits else "another game or player count"
    rules = " with the standard rules" if any(f == (env_id, game.num_players) for f in fits) else ""
    raise ApiError(
        400,
        f"{shown} was trained for {trained}{rules}; it cannot play {_table_words(env_id, game.num_players)}"
        + (" and these rule options" if rules else ""),
    )


def _network_seat(path: Path, shown: str, label: str, kind: str, env_id: str, game: Any) -> Seat:
    from pirate_envs.networks.checkpoint_policy import CheckpointError, CheckpointPolicy

    _check_fit(path, shown, env_id, game)
    try:
        policy = CheckpointPolicy(path)
        policy.check_compatible(game.observation_shape, game.num_actions)
    except CheckpointError as exc:
        raise ApiError(400, f"{shown} cannot play {_table_words(env_id, game.num_players)}") from exc
    return Seat(label, policy, kind)


def make_seat(
    spec: Any,
    seat: int,
    env_id: str,
    game: Any,
    dirs: Any,
    extra_policies: dict[str, Callable[[Any], Any]],
) -> Seat:
    """A :class:`Seat` from the browser's ``{"kind": ..., ...}`` spec; an :class:`ApiError` (400) if bad."""
    where = f"seat {seat + 1}"
    if isinstance(spec, str):
        spec = {"kind": spec}
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        raise ApiError(400, f"{where}: a policy is an object with 'kind', one of {', '.join(SEAT_KINDS)}")
    kind = spec["kind"]
    try:
        if kind == "me":
            return Seat("you", kind="me")
        if kind == "random":
            return Seat("random", RandomPolicy(), kind)
        if kind == "heuristic":
            return Seat("heuristic", resolve_policy("heuristic", env_id, game.num_players, **game.options), kind)
        if kind in SEARCH_BOTS:
            text = _search_spec(kind, spec.get("params"))
            return Seat(text, resolve_policy(text, env_id, game.num_players, **game.options), kind)
        if kind == "shipped":
            from pirate_envs.shipped import shipped_checkpoint

            try:
                path = shipped_checkpoint(env_id)
            except ValueError:
                raise ApiError(400, f"{where}: {game.display_name or env_id} has no shipped agent") from None
            return _network_seat(path, f"{where}: the shipped agent", "shipped", kind, env_id, game)
        if kind == "checkpoint":
            root_name = spec.get("root", "checkpoints")
            path = resolve_inside(dirs.checkpoint_root(root_name), spec.get("path"), ".zip", "checkpoint")
            shown = f"{where}: the trained agent {spec.get('path')}"
            return _network_seat(path, shown, f"checkpoint {root_name}/{spec.get('path')}", kind, env_id, game)
        if kind in extra_policies:
            return Seat(kind, extra_policies[kind](game), kind)
    except ApiError:
        raise
    except ImportError as exc:
        raise ApiError(400, f"{where}: {kind} needs the 'train' extra (pip install pirate_envs[train]): {exc}") from exc
    except (ValueError, OSError) as exc:
        raise ApiError(400, f"{where}: {exc}") from exc
    kinds = (*SEAT_KINDS, *extra_policies)
    raise ApiError(400, f"{where}: unknown policy kind {kind!r}; kinds: {', '.join(kinds)}")


def _search_spec(kind: str, params: Any) -> str:
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
    return kind + (":" + ",".join(parts) if parts else "")
