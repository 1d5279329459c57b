"""Validation of the training config: a YAML config's sections checked against the schema's dataclasses
(``training.config_types``) and the game, defaults filled in.

:func:`validate_config` walks every section dataclass's fields (:func:`~training.config_types.keys_of`):
unknown keys (with a "did you mean"), wrong types, out-of-range values and missing required keys; then what
needs more than one key or the game: the env id and rule options, the learner seat, the opponents and
checkpoint paths, ``run.init_from`` made for this game. Every problem is a
:class:`~training.config_types.ConfigError` naming the source, the key path (``ppo.learning_rate``,
``opponents.stages[1].mix``) and what is allowed.

Old spellings keep loading with a :class:`DeprecationWarning` naming the new one:
``vec_env.lockstep: true`` with ``vec_env.kind: batched`` is ``vec_env.kind: batched_lockstep``.
"""

from __future__ import annotations

import copy
import difflib
import re
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .config_types import REQUIRED, SECTIONS, ConfigError, Field, keys_of

SELFPLAY = "selfplay"
FIXED_OPPONENTS = ("random", "heuristic")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
# ``vec_env.lockstep`` before ``vec_env.kind: batched_lockstep`` said it (read, never written)
LOCKSTEP_FLAG = Field(bool, False, "batched kind: each process steps its envs together")


def check_sections(
    data: Any, schema: Mapping[str, type | Mapping[str, Field]], fail: Callable[[str, str], ConfigError]
) -> dict[str, Any]:
    """``data`` checked section by section against ``schema`` (unknown keys, types, ranges), defaults filled in.

    ``schema`` maps each section to its dataclass (:data:`~training.config_types.SECTIONS`) or to a mapping
    of key -> :class:`~training.config_types.Field`. Shared by every YAML config of the project
    (``training.train``, ``training.rllib_train``).
    """
    if not isinstance(data, Mapping):
        raise fail("(top level)", f"must be a mapping of sections ({', '.join(schema)})")
    _reject_unknown(data, schema, "", fail)
    config: dict[str, Any] = {}
    for section, spec in schema.items():
        fields = keys_of(spec) if isinstance(spec, type) else spec
        given = data.get(section) or {}
        if not isinstance(given, Mapping):
            raise fail(section, f"must be a mapping with keys {', '.join(fields)}; got {given!r}")
        _reject_unknown(given, fields, f"{section}.", fail)
        values = {}
        for name, field in fields.items():
            path = f"{section}.{name}"
            if name in given:
                values[name] = _check_value(given[name], field, path, fail)
            elif field.default is REQUIRED:
                raise fail(path, f"is required ({field.doc}); allowed: {field.allowed()}")
            else:
                values[name] = copy.deepcopy(field.default)
        config[section] = values
    return config


def validate_config(data: Mapping[str, Any], source: str = "config", check_files: bool = True) -> dict[str, Any]:
    """Check ``data`` against the schema's dataclasses and the game; return it complete (every default
    filled in, old spellings in their new form). Raises :class:`ConfigError`."""

    def fail(path: str, problem: str) -> ConfigError:
        return ConfigError(f"{source}: {path}: {problem}")

    config = check_sections(_renamed(data, source, fail), SECTIONS, fail)
    game = _check_game(config, fail)
    _check_consistency(config, fail, check_files)
    if check_files and config["run"]["init_from"] is not None:
        _check_init_from_game(config["run"]["init_from"], config["env"]["id"], game, fail)
    return config


def _renamed(data: Any, source: str, fail: Callable) -> Any:
    """``data`` with ``vec_env.lockstep`` dropped: ``true`` with the batched kind becomes
    ``kind: batched_lockstep`` (the one thing it did), with a :class:`DeprecationWarning` either way."""
    vec = data.get("vec_env") if isinstance(data, Mapping) else None
    if not isinstance(vec, Mapping) or "lockstep" not in vec:
        return data
    vec = dict(vec)
    if _check_value(vec.pop("lockstep"), LOCKSTEP_FLAG, "vec_env.lockstep", fail):
        kind = vec.get("kind", "dummy")
        if kind == "batched":
            vec["kind"] = "batched_lockstep"
            advice = "write vec_env.kind: batched_lockstep (read as that)"
        elif kind in ("lockstep", "batched_lockstep"):
            advice = f"vec_env.kind: {kind} says it alone; drop vec_env.lockstep"
        else:
            advice = f"it does nothing with vec_env.kind: {kind}; drop it (vec_env.kind: lockstep or batched_lockstep)"
        warnings.warn(
            f"{source}: vec_env.lockstep: true is deprecated: {advice}", DeprecationWarning, stacklevel=_caller_level()
        )
    return {**data, "vec_env": vec}


def _caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside the config modules (the code
    that loaded the config), counted from the function that warns."""
    here = Path(__file__).parent
    frame, level = sys._getframe(1), 1
    while frame is not None and Path(frame.f_code.co_filename).parent == here:
        if not Path(frame.f_code.co_filename).name.startswith("config"):
            break
        frame, level = frame.f_back, level + 1
    return level


def _reject_unknown(given: Mapping, allowed: Mapping, prefix: str, fail: Callable) -> None:
    for key in given:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), list(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            where = f"in {prefix[:-1]!r}" if prefix else "at the top level"
            raise fail(f"{prefix}{key}", f"unknown key{hint}; allowed keys {where}: {', '.join(allowed)}")


def _check_value(value: Any, field: Field, path: str, fail: Callable) -> Any:
    def bad(problem: str) -> ConfigError:
        return fail(path, f"{problem}; allowed: {field.allowed()}")

    if value is None:
        if field.nullable:
            return None
        raise bad("must not be null")
    kind = field.kind
    if kind is bool:
        if not isinstance(value, bool):
            raise bad(f"wrong type {type(value).__name__} ({value!r})")
    elif kind in (int, float):
        value = _number(value, kind, bad)
        low, high = field.minimum, field.maximum
        if low is not None and (value < low or (field.exclusive_minimum and value == low)):
            raise bad(f"out of range: {value!r}")
        if high is not None and value > high:
            raise bad(f"out of range: {value!r}")
    elif kind is str:
        if not isinstance(value, str):
            raise bad(f"wrong type {type(value).__name__} ({value!r})")
    elif kind == "int_list":
        if not isinstance(value, list) or not value:
            raise bad(f"wrong type {type(value).__name__} ({value!r})")
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int) or item < 1:
                raise bad(f"bad layer size {item!r}")
    elif kind == "str_list":
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise bad(f"wrong type or empty ({value!r})")
    elif kind == "mapping":
        if not isinstance(value, Mapping):
            raise bad(f"wrong type {type(value).__name__} ({value!r})")
        value = dict(value)
    elif kind == "seat":
        if value != "random" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise bad(f"got {value!r}")
    elif kind == "stages":
        value = _check_stages(value, path, fail)
    if field.choices and value not in field.choices:
        raise bad(f"got {value!r}")
    return value


def _number(value: Any, kind: type, bad: Callable) -> int | float:
    """An int/float from YAML; numeric strings are accepted because PyYAML reads ``1e-4`` as a string."""
    if isinstance(value, bool):
        raise bad(f"wrong type bool ({value!r})")
    if isinstance(value, str):
        if not _NUMBER.match(value.strip()):
            raise bad(f"wrong type str ({value!r})")
        value = float(value)
    if not isinstance(value, (int, float)):
        raise bad(f"wrong type {type(value).__name__} ({value!r})")
    if kind is int:
        if isinstance(value, float) and not value.is_integer():
            raise bad(f"not an integer: {value!r}")
        return int(value)
    return float(value)


def _check_stages(value: Any, path: str, fail: Callable) -> list[dict[str, Any]]:
    allowed = "a list of {until: <timesteps or null>, mix: {<opponent>: <weight>}}"
    if not isinstance(value, list) or not value:
        raise fail(path, f"must be a non-empty list; allowed: {allowed}")
    stages = []
    previous = 0
    for i, stage in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(stage, Mapping):
            raise fail(where, f"must be a mapping with keys until, mix; got {stage!r}")
        _reject_unknown(stage, {"until": None, "mix": None}, f"{where}.", fail)
        if "mix" not in stage:
            raise fail(
                f"{where}.mix", "is required: a mapping of opponent -> weight, e.g. {random: 0.5, heuristic: 0.5}"
            )
        until = stage.get("until")
        last = i == len(value) - 1
        if until is None:
            if not last:
                raise fail(f"{where}.until", "only the last stage may have until: null; give a timestep count")
        else:
            if isinstance(until, bool) or not isinstance(until, int) or until <= previous:
                raise fail(
                    f"{where}.until", f"must be an integer timestep count > {previous} (stages in order); got {until!r}"
                )
            previous = until
        mix = stage["mix"]
        if not isinstance(mix, Mapping) or not mix:
            raise fail(f"{where}.mix", f"must be a non-empty mapping of opponent -> weight; got {mix!r}")
        for name, weight in mix.items():
            if not isinstance(name, str):
                raise fail(f"{where}.mix", f"opponent names are strings; got {name!r}")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
                raise fail(f"{where}.mix.{name}", f"weight must be a number >= 0; got {weight!r}")
        if sum(mix.values()) <= 0:
            raise fail(f"{where}.mix", "needs a positive total weight")
        stages.append({"until": until, "mix": {name: float(w) for name, w in mix.items()}})
    return stages


def _check_game(config: dict[str, Any], fail: Callable) -> Any:
    """The env id and rule options must make a game; returns it (the engine ``Game``)."""
    import pirate_envs
    from pirate_envs.core.errors import InvalidOptionError
    from pirate_envs.core.registry import feature_env_ids, game_class

    env = config["env"]
    if env["id"] not in pirate_envs.ENV_IDS:
        close = difflib.get_close_matches(env["id"], pirate_envs.ENV_IDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise fail("env.id", f"unknown env id {env['id']!r}{hint}; registered: {', '.join(pirate_envs.ENV_IDS)}")
    try:
        game = game_class(env["id"])(**env["options"])
    except (InvalidOptionError, TypeError) as err:
        raise fail("env.options", str(err)) from None
    seat = env["seat"]
    if seat != "random" and seat >= game.num_players:
        raise fail(
            "env.seat", f"must be in [0, {game.num_players}) for {game.num_players} players or 'random'; got {seat}"
        )
    network = config.get("network", {})
    if network.get("features_in_policy") and not network.get("action_features"):
        raise fail(
            "network.features_in_policy", "needs network.action_features: true (it says where they are computed)"
        )
    if network.get("action_features") and not game.action_feature_size:
        raise fail(
            "network.action_features",
            f"{env['id']} has no per-action features; games with them: {', '.join(feature_env_ids())}",
        )
    return game


def _check_init_from_game(path: str, env_id: str, game: Any, fail: Callable) -> None:
    """``run.init_from`` must be a sound model zip for this game: read from the zip's own records (its
    spaces, the env id its run files name) in milliseconds, before any env or network is built."""
    from .checkpoints import model_zip_problem, model_zip_unfit, recorded_env_id

    if model_zip_problem(path) is None:
        recorded = recorded_env_id(path)
        if recorded is not None and recorded[0] != env_id:
            raise fail(
                "run.init_from",
                f"{path!r} was trained on {recorded[0]!r} (recorded in {str(recorded[1])!r}); "
                f"this run trains {env_id!r}",
            )
    unfit = model_zip_unfit(path, game)
    if unfit is not None:
        allowed = "a MaskablePPO .zip for this game, player count and options, or null"
        raise fail("run.init_from", f"{unfit}; allowed: {allowed}")


def _check_consistency(config: dict[str, Any], fail: Callable, check_files: bool) -> None:
    ppo, vec = config["ppo"], config["vec_env"]
    rollout = ppo["n_steps"] * vec["n_envs"]
    if ppo["batch_size"] > rollout:
        raise fail(
            "ppo.batch_size",
            f"{ppo['batch_size']} is larger than a rollout (ppo.n_steps x vec_env.n_envs = {rollout}); "
            f"allowed: <= {rollout}",
        )
    for i, stage in enumerate(config["opponents"]["stages"]):
        for name in stage["mix"]:
            if name not in (*FIXED_OPPONENTS, SELFPLAY):
                _check_checkpoint(name, f"opponents.stages[{i}].mix.{name}", fail, check_files)
    init_from = config["run"]["init_from"]
    if init_from is not None:
        problem = f"got {init_from!r}; allowed: a path to a MaskablePPO .zip or null"
        _check_zip(init_from, "run.init_from", fail, check_files, problem)
        if config["imitation"]["games"] > 0:
            raise fail(
                "run.init_from",
                "a run starts either from a checkpoint's weights or from a warm start; "
                "set imitation.games to 0 or run.init_from to null",
            )
    for key in ("teacher", "others"):
        _check_imitation_policy(config, key, fail, check_files)
    for i, name in enumerate(config["eval"]["opponents"]):
        if name not in FIXED_OPPONENTS:
            _check_checkpoint(name, f"eval.opponents[{i}]", fail, check_files)
    best_by = config["eval"]["best_by"]
    if best_by != "mean" and best_by not in config["eval"]["opponents"]:
        raise fail(
            "eval.best_by", f"got {best_by!r}; allowed: 'mean' or one of eval.opponents {config['eval']['opponents']}"
        )


def _check_imitation_policy(config: dict[str, Any], key: str, fail: Callable, check_files: bool) -> None:
    """``imitation.<key>``: a fixed bot, a search-bot spec that builds for this game, or a checkpoint."""
    name, path = config["imitation"][key], f"imitation.{key}"
    if name in FIXED_OPPONENTS:
        return
    from pirate_envs.policies.base import SEARCH_BOTS, resolve_policy
    from pirate_envs.policies.spec import parse_policy_spec

    try:
        kind = parse_policy_spec(name).kind
    except ValueError:
        kind = None  # reported below with the config's own list of what is allowed
    if kind in SEARCH_BOTS:
        try:
            resolve_policy(name, config["env"]["id"], **config["env"]["options"])
        except (TypeError, ValueError) as exc:
            raise fail(path, f"{exc}") from None
        return
    bots = ", ".join(map(repr, FIXED_OPPONENTS))
    allowed = f"{bots}, a search bot ({', '.join(SEARCH_BOTS)}) or a path to a MaskablePPO .zip"
    _check_zip(name, path, fail, check_files, f"unknown policy {name!r}; allowed: {allowed}")


def _check_checkpoint(name: str, path: str, fail: Callable, check_files: bool) -> None:
    allowed = f"{', '.join(map(repr, FIXED_OPPONENTS))}, {SELFPLAY!r} (stages only) or a path to a MaskablePPO .zip"
    _check_zip(name, path, fail, check_files, f"unknown opponent {name!r}; allowed: {allowed}")


def _check_zip(name: str, path: str, fail: Callable, check_files: bool, problem: str) -> None:
    """``name`` must be a ``.zip`` (else ``problem`` is reported) and, with ``check_files``, exist."""
    if not name.endswith(".zip"):
        raise fail(path, problem)
    if check_files and not Path(name).is_file():
        raise fail(path, f"checkpoint file {name!r} does not exist")
