"""Training configuration: the schema, YAML loading, ``--set`` overrides and validation.

A run is described by one YAML file (``configs/<env_id>.yaml``) plus command-line overrides.
:data:`SCHEMA` declares every key once — its type, default, allowed values and meaning — and
:func:`load_config` turns a file into a complete, validated config (a plain nested dict with every
default filled in). Every problem stops the run before training with a :class:`ConfigError` that
names the file, the key path (``ppo.learning_rate``, ``opponents.stages[1].mix``) and what is
allowed: unknown keys (with a "did you mean"), wrong types, out-of-range values, unknown env ids,
invalid rule options, missing or unreadable checkpoint files, a ``run.init_from`` model made for
another game, broken YAML and keys given twice in one mapping (with the line and column).

``docs/training.md`` has the reference table; :func:`describe_schema` prints the same facts.
"""

from __future__ import annotations

import copy
import difflib
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from .config_types import TrainConfig

REQUIRED = object()
SELFPLAY = "selfplay"
FIXED_OPPONENTS = ("random", "heuristic")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


class ConfigError(ValueError):
    """A config problem found before training; the message names the key path and what is allowed."""


@dataclass(frozen=True)
class Field:
    """One config key: ``kind`` is ``int``, ``float``, ``bool``, ``str``, ``"int_list"``,
    ``"str_list"``, ``"mapping"``, ``"seat"`` or ``"stages"``."""

    kind: Any
    default: Any
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    choices: tuple = ()
    nullable: bool = False

    def allowed(self) -> str:
        if self.choices:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.kind is bool:
            text = "true or false"
        elif self.kind in (int, float):
            noun = "an integer" if self.kind is int else "a number"
            lo = "" if self.minimum is None else f"{'>' if self.exclusive_minimum else '>='} {self.minimum}"
            hi = "" if self.maximum is None else f"<= {self.maximum}"
            text = f"{noun} {' and '.join(p for p in (lo, hi) if p)}".strip()
        else:
            text = {
                str: "a string",
                "int_list": "a list of positive integers",
                "str_list": "a list of strings",
                "mapping": "a mapping",
                "seat": "a seat index (integer >= 0) or 'random'",
                "stages": "a list of {until: <timesteps or null>, mix: {<opponent>: <weight>}}",
            }[self.kind]
        return text + (" or null" if self.nullable else "")


SCHEMA: dict[str, dict[str, Field]] = {
    "env": {
        "id": Field(str, REQUIRED, "registered env id (pirate_envs.ENV_IDS)"),
        "options": Field("mapping", {}, "rule options passed to the game (num_players, reward_mode, ...)"),
        "seat": Field("seat", "random", "learner seat: an index, or 'random' to draw it every episode"),
    },
    "run": {
        "dir": Field(str, "runs/{env_id}-{timestamp}", "run directory; {env_id} and {timestamp} are filled in"),
        "seed": Field(int, 0, "seed of the model, the envs and the evaluation games", minimum=0),
        "total_timesteps": Field(int, REQUIRED, "learner env steps to train for", minimum=1),
        "torch_threads": Field(int, 1, "torch threads of the training process", minimum=1, maximum=256),
        "init_from": Field(
            str,
            None,
            "start PPO from the weights of this MaskablePPO .zip (e.g. a shipped checkpoint; same network "
            "shape) instead of a fresh network",
            nullable=True,
        ),
        "update_threads": Field(
            int,
            None,
            "torch threads during each PPO update, when the env workers wait (null: run.torch_threads)",
            minimum=1,
            maximum=256,
            nullable=True,
        ),
    },
    "vec_env": {
        "n_envs": Field(int, 4, "parallel envs", minimum=1, maximum=256),
        "kind": Field(
            str,
            "dummy",
            "dummy: all envs in this process; subproc: one process each; "
            "batched: the envs split over `workers` processes, masks sent with each step; "
            "lockstep: all envs in this process, stepped together, network opponents deciding for all at once",
            choices=("dummy", "subproc", "batched", "lockstep"),
        ),
        "workers": Field(int, 2, "processes of the batched kind", minimum=1, maximum=256),
        "lockstep": Field(
            bool,
            False,
            "batched kind: each process steps its envs together, network opponents deciding for all of them at once",
        ),
        "offload": Field(
            float,
            0.0,
            "lockstep kind: the share of the envs stepped (in lockstep) by one worker process while this process "
            "steps the rest and runs the network (0: all here)",
            minimum=0.0,
            maximum=0.9,
        ),
    },
    "ppo": {
        "learning_rate": Field(float, 3.0e-4, "Adam step size", minimum=0.0, exclusive_minimum=True),
        "lr_schedule": Field(str, "constant", "learning-rate schedule", choices=("constant", "linear")),
        "n_steps": Field(int, 512, "env steps per env per rollout", minimum=2),
        "batch_size": Field(int, 256, "minibatch size", minimum=2),
        "n_epochs": Field(int, 4, "passes over each rollout", minimum=1),
        "gamma": Field(float, 0.99, "discount", minimum=0.0, maximum=1.0),
        "gae_lambda": Field(float, 0.95, "GAE lambda", minimum=0.0, maximum=1.0),
        "clip_range": Field(float, 0.2, "PPO clip range", minimum=0.0, maximum=1.0, exclusive_minimum=True),
        "ent_coef": Field(float, 0.01, "entropy bonus", minimum=0.0),
        "vf_coef": Field(float, 0.5, "value loss weight", minimum=0.0),
        "max_grad_norm": Field(float, 0.5, "gradient clipping", minimum=0.0, exclusive_minimum=True),
        "target_kl": Field(float, None, "early stop of an update past this KL", minimum=0.0, nullable=True),
        "normalize_advantage": Field(bool, True, "normalise advantages per minibatch"),
        "value_warmup_steps": Field(
            int,
            0,
            "first timesteps whose PPO updates fit only the value head, the policy frozen (after a warm start "
            "the value head is uncalibrated and early advantages are noise)",
            minimum=0,
        ),
        "update_precision": Field(
            str,
            "float32",
            "number format of the hidden layers' matrix products in the gradient passes (PPO updates, warm "
            "start): bfloat16 autocasts them (weights, heads and rollouts stay float32; training/precision.py)",
            choices=("float32", "bfloat16"),
        ),
    },
    "network": {
        "pi": Field("int_list", [128, 128], "hidden layer sizes of the policy MLP"),
        "vf": Field("int_list", [128, 128], "hidden layer sizes of the value MLP"),
        "activation": Field(str, "tanh", "hidden activation", choices=("tanh", "relu")),
        "features": Field(
            str,
            "signed_log",
            "input layer: the flat observation as is, or squashed by sign(x)*log(1+|x|)",
            choices=("flat", "signed_log"),
        ),
        "action_features": Field(
            bool,
            False,
            "score each action from the game's per-action features (the public effect of the action; "
            "pirate_envs/networks/action_feature_policy.py) instead of a flat head over the action indices",
        ),
        "action_embed": Field(
            int, 0, "with action_features: size of a learned feature embedding (0: the bilinear score alone)", minimum=0
        ),
        "features_in_policy": Field(
            bool,
            False,
            "with action_features: the policy computes the features from the plain observation and the action "
            "mask (the same network and numbers; rows of the observation size travel and are stored instead of "
            "observation + features)",
        ),
    },
    "imitation": {
        "games": Field(int, 0, "teacher games cloned into the network before PPO (0: no warm start)", minimum=0),
        "teacher": Field(
            str,
            "heuristic",
            "the bot to clone: 'heuristic', 'random', a search bot ('flatmc[:rollouts=N,...]', "
            "'ismcts[:iterations=N,...]') or a checkpoint path",
        ),
        "teacher_share": Field(
            float,
            0.75,
            "share of seats the teacher plays in those games (random play covers off-teacher positions)",
            minimum=0.0,
            maximum=1.0,
            exclusive_minimum=True,
        ),
        "others": Field(
            str,
            "random",
            "who plays the seats the teacher does not: 'random', 'heuristic', a search bot or a checkpoint path",
        ),
        "workers": Field(
            int, 1, "processes playing the teacher games (for slow search teachers)", minimum=1, maximum=256
        ),
        "epochs": Field(int, 10, "passes over the demonstrations", minimum=1),
        "batch_size": Field(int, 512, "minibatch size", minimum=1),
        "learning_rate": Field(float, 1.0e-3, "Adam step size", minimum=0.0, exclusive_minimum=True),
        "value_coef": Field(float, 0.5, "weight of the value head's fit to the final returns", minimum=0.0),
    },
    "opponents": {
        "stages": Field(
            "stages",
            [{"until": None, "mix": {"random": 1.0}}],
            "curriculum: each stage's opponent mix applies until `until` timesteps (the last: null = to the end); "
            "mix keys are 'random', 'heuristic', 'selfplay' or a checkpoint path",
        ),
        "snapshot_every": Field(
            int, 100_000, "timesteps between self-play snapshots (while a stage uses selfplay)", minimum=1
        ),
        "latest_share": Field(
            float, 0.5, "share of self-play draws that take the latest snapshot", minimum=0.0, maximum=1.0
        ),
        "max_snapshots": Field(int, 20, "snapshots kept in the pool (oldest dropped)", minimum=1),
        "snapshot_deterministic": Field(bool, False, "snapshots play their arg-max action instead of sampling"),
    },
    "eval": {
        "every": Field(int, 50_000, "timesteps between evaluations", minimum=1),
        "games": Field(int, 200, "games per opponent per evaluation (seats rotate)", minimum=1),
        "opponents": Field(
            "str_list", ["random", "heuristic"], "opponents to evaluate against ('random', 'heuristic', paths)"
        ),
        "deterministic": Field(bool, True, "evaluate the arg-max policy"),
        "best_by": Field(str, "heuristic", "win rate that picks best_model.zip: an eval opponent or 'mean'"),
    },
    "checkpoint": {
        "every": Field(int, 100_000, "timesteps between checkpoints", minimum=1),
        "keep": Field(int, 3, "periodic checkpoints kept (older ones deleted)", minimum=1),
    },
    "logging": {
        "tensorboard": Field(bool, True, "write TensorBoard logs to <run dir>/tb"),
        "progress_bar": Field(bool, True, "show a progress bar"),
    },
}


# --- loading ---------------------------------------------------------------------------------------
class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A key given twice in one YAML mapping."""


class UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML keeps the last one
    silently, so a second ``ppo:`` section would quietly replace the first)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # ``<<: *anchor`` merges may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:  # an unhashable key: the base class reports it
                continue
            if first is not key_node:
                raise DuplicateKeyError(
                    None,
                    None,
                    f"duplicate key {key!r} (first given at line {first.start_mark.line + 1}); "
                    "a key may appear once in a mapping",
                    key_node.start_mark,
                )
        return super().construct_mapping(node, deep=deep)


def parse_yaml(text: str) -> Any:
    """YAML text to Python, refusing duplicate keys (:class:`UniqueKeyLoader`)."""
    return yaml.load(text, Loader=UniqueKeyLoader)


def read_yaml(path: str | Path) -> dict[str, Any]:
    """Parse a YAML config file; a missing file or broken YAML raises :class:`ConfigError`."""
    path = Path(path)
    if not path.is_file():
        from pirate_envs.shipped import config_names

        names = ", ".join(config_names())
        raise ConfigError(f"config file {str(path)!r} does not exist (or name a shipped config: {names})")
    try:
        data = parse_yaml(path.read_text())
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err)
        if isinstance(err, DuplicateKeyError):
            raise ConfigError(f"{path}{where}: {problem}") from None
        raise ConfigError(f"{path}: broken YAML{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections ({', '.join(SCHEMA)}); got {data!r}")
    return data


def apply_overrides(data: dict[str, Any], overrides: list[str], source: str = "--set") -> dict[str, Any]:
    """Apply ``key.path=value`` overrides (values parsed as YAML; list items by index: ``stages.1.until``)."""
    data = copy.deepcopy(data)
    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"{source} {item!r}: expected key.path=value, e.g. ppo.learning_rate=1e-4")
        try:
            value = parse_yaml(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"{source} {item!r}: the value is not valid YAML: {err}") from None
        parts = key.split(".")
        node: Any = data
        for depth, part in enumerate(parts):
            if not isinstance(node, (dict, list)):  # e.g. ``run: 5`` in the file with --set run.dir=...
                raise _not_a_mapping(source, item, ".".join(parts[:depth]), node)
            if depth == len(parts) - 1:
                break
            node = _child(node, part, ".".join(parts[: depth + 1]), source, create=True)
        last = parts[-1]
        if isinstance(node, list):
            index = _index(node, last, key, source)
            node[index] = value
        else:
            node[last] = value
    return data


def _not_a_mapping(source: str, item: str, path: str, node: Any) -> ConfigError:
    return ConfigError(
        f"{source} {item!r}: cannot set a key inside {path}: it is {type(node).__name__} {node!r}, not a mapping "
        f"(make {path} a mapping in the config file, e.g. {path}: {{key: value}})"
    )


def _index(node: list, part: str, path: str, source: str) -> int:
    if not part.isdigit() or int(part) >= len(node):
        raise ConfigError(f"{source}: {path}: list index must be 0..{len(node) - 1}; got {part!r}")
    return int(part)


def _child(node: Any, part: str, path: str, source: str, create: bool) -> Any:
    if isinstance(node, list):
        return node[_index(node, part, path, source)]
    if not isinstance(node, dict):
        raise ConfigError(f"{source}: {path}: cannot descend into a {type(node).__name__}")
    if part not in node and create:
        node[part] = {}
    return node[part]


def load_config(path: str | Path, overrides: list[str] | None = None, check_files: bool = True) -> dict[str, Any]:
    """Read, override and validate a config file; returns the complete config (defaults filled in).

    ``path`` may also name a shipped config (a game id such as ``potsm_v0``, or ``quickstart``) when no
    file of that name exists: :func:`pirate_envs.shipped.config_path`."""
    from pirate_envs.shipped import config_path

    path = config_path(path)
    data = apply_overrides(read_yaml(path), overrides or [])
    return validate_config(data, source=str(path), check_files=check_files)


def run_dir_of(config: TrainConfig | Mapping[str, Any]) -> Path:
    """The run directory of a validated config (a :class:`TrainConfig`, or a config dict such as
    ``training.rllib_train``'s): ``run.dir`` with ``{env_id}`` and ``{timestamp}`` filled in."""
    if isinstance(config, Mapping):
        template, env_id = config["run"]["dir"], config["env"]["id"]
    else:
        template, env_id = config.run.dir, config.env.id
    try:
        text = template.format(env_id=env_id, timestamp=time.strftime("%Y%m%d-%H%M%S"))
    except (KeyError, IndexError, ValueError) as err:
        raise ConfigError(
            f"run.dir: {template!r} has an unknown placeholder ({err}); allowed: {{env_id}}, {{timestamp}}"
        ) from None
    return Path(text)


# --- validation -------------------------------------------------------------------------------------
def check_sections(
    data: Any, schema: Mapping[str, Mapping[str, Field]], fail: Callable[[str, str], ConfigError]
) -> dict[str, Any]:
    """``data`` checked section by section against ``schema`` (unknown keys, types, ranges), defaults filled in.

    Shared by every YAML config of the project (``training.train``, ``training.rllib_train``).
    """
    if not isinstance(data, Mapping):
        raise fail("(top level)", f"must be a mapping of sections ({', '.join(schema)})")
    _reject_unknown(data, schema, "", fail)
    config: dict[str, Any] = {}
    for section, fields in schema.items():
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
    """Check ``data`` against :data:`SCHEMA` and the game; return it complete. Raises :class:`ConfigError`."""

    def fail(path: str, problem: str) -> ConfigError:
        return ConfigError(f"{source}: {path}: {problem}")

    config = check_sections(data, SCHEMA, fail)
    game = _check_game(config, fail)
    _check_consistency(config, fail, check_files)
    if check_files and config["run"]["init_from"] is not None:
        _check_init_from_game(config["run"]["init_from"], config["env"]["id"], game, fail)
    return config


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

    if name.partition(":")[0] in SEARCH_BOTS:
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


# --- output -----------------------------------------------------------------------------------------
def dump_config(config: TrainConfig | Mapping[str, Any]) -> str:
    """The config as YAML, sections in schema order (what ``config.yaml`` in a run directory holds)."""
    data = dict(config) if isinstance(config, Mapping) else config_dict(config)
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110)


def config_dict(config: TrainConfig) -> dict[str, Any]:
    """A :class:`TrainConfig` as the plain nested dict :func:`validate_config` returns: sections and keys in
    schema order (the dataclasses put required keys first), so ``config.yaml`` reads as it always did."""
    data = config.to_dict()
    return {
        section: {**{k: keys[k] for k in SCHEMA.get(section, {}) if k in keys}, **keys}
        for section, keys in data.items()
    }


def describe_schema() -> str:
    """A plain-text reference of every key: path, default, allowed values, meaning."""
    lines = []
    for section, fields in SCHEMA.items():
        for name, field in fields.items():
            default = "(required)" if field.default is REQUIRED else repr(field.default)
            lines.append(f"{section}.{name}: {field.doc}. Default {default}; allowed: {field.allowed()}")
    return "\n".join(lines)


# --- typed config (training/config_types.py, generated from SCHEMA) ---------------------------------------
TYPES_MODULE = Path(__file__).with_name("config_types.py")
_PY_TYPES = {
    int: "int",
    float: "float",
    bool: "bool",
    str: "str",
    "int_list": "list[int]",
    "str_list": "list[str]",
    "mapping": "dict[str, Any]",
    "seat": "int | str",
    "stages": "list[dict[str, Any]]",
}


def section_class_name(section: str) -> str:
    return "".join(part.capitalize() for part in section.split("_")) + "Config"


def field_type(field: Field) -> str:
    """The Python annotation of a config key (``float | None`` for a nullable float)."""
    return _PY_TYPES[field.kind] + (" | None" if field.nullable else "")


def render_config_types() -> str:
    """The source of ``training/config_types.py``: one dataclass per :data:`SCHEMA` section, each key a field
    with its type, default and help (``metadata``), and :class:`TrainConfig` holding the sections."""
    out = [
        '"""The typed training config: one dataclass per section of ``training.config.SCHEMA``.',
        "",
        "GENERATED from the schema by ``python -m training.config --write-types``; do not edit by hand",
        "(tests/test_config_types.py checks it is current). Each field carries the key's type, default and",
        "``metadata`` help (``help``, ``allowed``), the facts of docs/training.md's reference table::",
        "",
        "    from training.config import load_typed_config",
        '    config = load_typed_config("configs/potsm_v0.yaml")   # a TrainConfig',
        "    config.ppo.learning_rate                              # 5e-05 (float)",
        "    config.to_dict()                                      # the plain nested dict (config.yaml)",
        '"""',
        "",
        "# ruff: noqa: E501  (the help texts are the schema's, one string each)",
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from dataclasses import asdict, dataclass, field, fields",
        "from typing import Any",
        "",
    ]
    for section, keys in SCHEMA.items():
        out += ["", "@dataclass", f"class {section_class_name(section)}:", f'    """Section ``{section}``."""', ""]
        ordered = sorted(keys.items(), key=lambda item: item[1].default is not REQUIRED)  # required keys first
        for name, field in ordered:
            meta = f"metadata={{'help': {field.doc!r}, 'allowed': {field.allowed()!r}}}"
            if field.default is REQUIRED:
                value = f"field({meta})"
            elif isinstance(field.default, (list, dict)):
                value = f"field(default_factory=lambda: {field.default!r}, {meta})"
            else:
                value = f"field(default={field.default!r}, {meta})"
            out.append(f"    {name}: {field_type(field)} = {value}")
    out += ["", "", "SECTIONS: dict[str, type] = {"]
    out += [f"    {section!r}: {section_class_name(section)}," for section in SCHEMA]
    out += ["}", "", "", "@dataclass", "class TrainConfig:", '    """A complete, validated training config."""', ""]
    out += [f"    {section}: {section_class_name(section)}" for section in SCHEMA]
    out += [
        "",
        "    @classmethod",
        "    def from_dict(cls, config: Mapping[str, Any]) -> TrainConfig:",
        '        """From a validated config dict (``training.config.load_config``, ``validate_config``)."""',
        "        return cls(**{f.name: SECTIONS[f.name](**config[f.name]) for f in fields(cls)})",
        "",
        "    def to_dict(self) -> dict[str, Any]:",
        '        """The plain nested dict, sections and keys in schema order."""',
        "        return asdict(self)",
        "",
    ]
    return "\n".join(out)


def load_typed_config(path: str | Path, overrides: list[str] | None = None, check_files: bool = True) -> TrainConfig:
    """:func:`load_config` as a :class:`training.config_types.TrainConfig` (attributes instead of keys):
    the config that ``training.train`` and the modules it calls take."""
    from .config_types import TrainConfig

    return TrainConfig.from_dict(load_config(path, overrides, check_files))


def typed_config(
    config: TrainConfig | Mapping[str, Any], source: str = "config", check_files: bool = False
) -> TrainConfig:
    """``config`` as a :class:`TrainConfig`: one as is, a config dict validated first (:func:`validate_config`:
    defaults filled in, a bad key a :class:`ConfigError` naming it). For the public entry points that
    still accept the plain dicts they took before the typed config (``training.train.train``)."""
    from .config_types import TrainConfig

    if isinstance(config, TrainConfig):
        return config
    if isinstance(config, Mapping):
        return TrainConfig.from_dict(validate_config(config, source=source, check_files=check_files))
    raise TypeError(f"expected a TrainConfig or a config mapping; got {type(config).__name__}")


def require_typed(config: Any, caller: str) -> TrainConfig:
    """``config`` itself when it is a :class:`TrainConfig`; anything else (a plain config dict) is a
    :class:`TypeError` naming ``caller`` and the conversion to use."""
    from .config_types import TrainConfig

    if not isinstance(config, TrainConfig):
        raise TypeError(
            f"{caller} takes a TrainConfig (training.config_types), not a {type(config).__name__}; "
            "load one with training.config.load_typed_config(path) or convert a validated dict with "
            "TrainConfig.from_dict(config)"
        )
    return config


if __name__ == "__main__":
    import subprocess
    import sys

    if sys.argv[1:] != ["--write-types"]:
        sys.exit("usage: python -m training.config --write-types   (regenerates training/config_types.py)")
    TYPES_MODULE.write_text(render_config_types())
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(TYPES_MODULE)], check=False)
    print(f"wrote {TYPES_MODULE}")
