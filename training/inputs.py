"""User input to games and policies, shared by ``training.evaluation.evaluate`` and ``training.apps.play``.

Turns what a person types (an env id, ``--option key=value`` pairs, a player count, policy
specs) into an engine ``Game`` and policies, and every mistake into one :class:`InputError`
(a ``ValueError``) whose message says what is valid; the command lines print it as
``error: ...`` and exit with code 2.

``--option`` values are typed by the game's own option declarations (``Game.option_specs``):
``true``/``false`` for bools, numbers for ints and floats, text for strings; the game then
validates them and names the valid choices.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog, exits_on
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.policies.base import resolve_policy
from pirate_envs.policies.spec import SYNOPSIS, PolicySpec, object_name, parse_policy_spec
from pirate_envs.shipped import SHIPPED, shipped_checkpoint

EXIT_USAGE = 2
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class InputError(ValueError):
    """Bad user input: unknown env id or policy, missing checkpoint, bad option, count or seat."""


exits_on_input_error = exits_on(InputError)  # a command's main: an InputError -> "error: ..." on stderr, code 2


def check_env_id(env_id: str) -> None:
    if env_id not in ENV_IDS:
        raise InputError(f"unknown env id {env_id!r}; registered env ids: {', '.join(ENV_IDS)}")


def _convert(text: str, kind: type | None) -> Any:
    """``text`` as a value of ``kind``; left as text when it does not fit (the game then says what does)."""
    lowered = text.strip().lower()
    if kind is bool:
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        return text
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            return text
    return text


def parse_options(env_id: str, pairs: Sequence[str] | None) -> dict[str, Any]:
    """Turn ``["key=value", ...]`` into typed rule options of ``env_id``."""
    check_env_id(env_id)
    kinds = {spec.name: spec.kind for spec in game_class(env_id).option_specs}
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise InputError(f"--option needs key=value; got {pair!r}")
        options[key] = _convert(value, kinds.get(key))
    return options


def make_game(env_id: str, num_players: int | None, options: Mapping[str, Any] | None = None) -> Any:
    """The engine ``Game`` of ``env_id``; bad ids, player counts and options raise :class:`InputError`."""
    check_env_id(env_id)
    try:
        return game_class(env_id)(num_players=num_players, **dict(options or {}))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def policy_label(spec: Any) -> str:
    """A readable name for a policy spec: its text, or the object's ``name``."""
    if isinstance(spec, (str, Path)):
        return str(spec)
    if isinstance(spec, PolicySpec):
        return spec.text
    return object_name(spec)


def parse_spec(spec: Any) -> PolicySpec:
    """:func:`~pirate_envs.policies.spec.parse_policy_spec` with its errors as :class:`InputError`."""
    try:
        return parse_policy_spec(spec)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def load_policy(spec: Any, game: Any) -> Any:
    """``resolve_policy`` for ``game``'s env, player count and options, with clear input errors."""
    env_id = game.game_id
    parsed = parse_spec(spec)
    if parsed.on_disk and not Path(parsed.path).exists():
        raise InputError(f"checkpoint not found: {parsed.path}")
    try:
        policy = resolve_policy(parsed, env_id, game.num_players, **game.options)
        check = getattr(policy, "check_compatible", None)  # checkpoints: made for these spaces?
        if callable(check):
            check(game.observation_shape, game.num_actions, f"{env_id} with {game.num_players} players")
        return policy
    except ValueError as exc:
        raise InputError(str(exc)) from None
    except Exception as exc:  # a checkpoint that does not load (bad zip, wrong format...)
        raise InputError(f"cannot load policy {policy_label(spec)!r}: {type(exc).__name__}: {exc}") from None


def expand_shipped(spec: Any, env_id: str) -> Any:
    """``spec`` with ``"shipped"`` replaced by the path of ``env_id``'s shipped ``model.zip``."""
    if not (isinstance(spec, str) and spec == SHIPPED):
        return spec
    try:
        return str(shipped_checkpoint(env_id))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def checkpoint_location(spec: Any, env_id: str) -> str:
    """The checkpoint file or RLlib directory ``spec`` names (``"shipped"``: the game's ``model.zip``), which
    must exist; anything else is an :class:`InputError` (a bot spec is not a checkpoint)."""
    spec = expand_shipped(spec, env_id)
    try:
        parsed = parse_policy_spec(spec)
    except ValueError:
        parsed = None
    if parsed is not None and not parsed.on_disk:
        raise InputError(f"{spec!r} is a policy spec ({parsed.kind}), not a checkpoint; a file so named is ./{spec}")
    if parsed is None or not Path(parsed.path).exists():
        raise InputError(f"checkpoint not found: {spec}")
    return str(spec)


def check_policy_spec(spec: Any, game: Any) -> None:
    """Validate ``spec`` for ``game`` cheaply, without loading a network: bots are built (milliseconds), a
    checkpoint file must exist and, for a ``.zip``, read as a model made for the game's spaces.

    Callers check every spec this way before loading any checkpoint (seconds each), so that a typo in
    the last spec is reported at once.
    """
    parsed = parse_spec(expand_shipped(spec, game.game_id))
    if not parsed.on_disk:
        load_policy(parsed, game)
        return
    from .checkpoints import model_zip_unfit

    path = Path(parsed.path)
    if not path.exists():
        raise InputError(f"checkpoint not found: {parsed.path}")
    if parsed.kind == "rllib":  # its module is checked when it loads
        return
    unfit = model_zip_unfit(path, game)
    if unfit is not None:
        raise InputError(unfit)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """``--env``, ``--num-players``, ``--seed`` and repeatable ``--option key=value``."""
    parser.add_argument("--env", required=True, metavar="ENV_ID", help=f"game id, one of: {', '.join(ENV_IDS)}")
    parser.add_argument("--num-players", type=int, default=None, help="player count (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rule option, repeatable (e.g. --option reward_mode=score)",
    )


def policy_parser(module: str, description: str, role: str) -> argparse.ArgumentParser:
    """The parser of a command about one policy on one game: the game's arguments and ``--policy SPEC``
    (``role`` says which policy); ``module`` is the command's ``__spec__.name``."""
    parser = argparse.ArgumentParser(prog=command_prog(module), description=description)
    add_game_arguments(parser)
    parser.add_argument("--policy", required=True, metavar="SPEC", help=f"{role}: {SYNOPSIS}")
    return parser
