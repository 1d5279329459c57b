"""The training config's schema: one dataclass per section, each key a field with its type, default, help and rules.

These dataclasses are the one description of a run's config. A key is declared once, with :func:`key`::

    n_envs: int = key(4, "parallel envs", minimum=1, maximum=256)

The annotation is the key's type (``| None`` where null is allowed), the first argument its default
(:data:`REQUIRED` for none) and the second its help; the rules the validator enforces (``minimum``,
``maximum``, ``exclusive_minimum``, ``choices``, ``nullable`` and the ``kind`` of keys that are not a
plain number, flag or string) travel in the field's ``metadata``. ``training.config_validation`` checks a
YAML config against them, ``training.config.describe_schema`` and ``reference_markdown`` print them::

    from training.config import load_typed_config
    config = load_typed_config("configs/potsm_v0.yaml")   # a TrainConfig
    config.ppo.learning_rate                              # 5e-05 (float)
    config.to_dict()                                      # the plain nested dict (config.yaml)
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

REQUIRED: Any = dataclasses.MISSING  # the default of a key the config must give
SECTION = dataclass(kw_only=True)  # keyword-only, so keys keep the schema's order, required ones included

# the annotation each kind of key is declared with, `` | None`` added where the key is nullable
ANNOTATIONS: dict[Any, str] = {
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
SCALARS = {"int": int, "float": float, "bool": bool, "str": str}
SPECIAL_KINDS = tuple(kind for kind in ANNOTATIONS if isinstance(kind, str))


class ConfigError(ValueError):
    """A config problem found before training; the message names the key path and what is allowed."""


@dataclass(frozen=True)
class Field:
    """One config key as the validator reads it: ``kind`` is ``int``, ``float``, ``bool``, ``str``,
    ``"int_list"``, ``"str_list"``, ``"mapping"``, ``"seat"`` or ``"stages"``.

    :func:`keys_of` makes these from a section dataclass; a config outside this module may also declare
    its sections as plain ``{key: Field(...)}`` mappings (``training.rllib_train``)."""

    kind: Any
    default: Any
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    choices: tuple = ()
    nullable: bool = False

    def allowed(self) -> str:
        """What the key accepts, in words (``an integer >= 1 and <= 256``)."""
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

    @property
    def annotation(self) -> str:
        """The type a section dataclass declares this key with (``float | None``)."""
        return ANNOTATIONS[self.kind] + (" | None" if self.nullable else "")


def key(
    default: Any,
    doc: str,
    *,
    kind: str | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive_minimum: bool = False,
    choices: tuple = (),
    nullable: bool = False,
) -> Any:
    """A dataclass field for one config key: its default (:data:`REQUIRED` for none), its help ``doc`` and the
    rules of its values, all in the field's ``metadata``. ``kind`` names a key that is not a plain number, flag
    or string (those take their kind from the annotation): ``int_list``, ``str_list``, ``mapping``, ``seat`` or
    ``stages``."""
    if kind is not None and kind not in SPECIAL_KINDS:
        raise ValueError(f"unknown key kind {kind!r}; allowed: {', '.join(SPECIAL_KINDS)}")
    metadata = {
        "help": doc,
        "kind": kind,
        "minimum": minimum,
        "maximum": maximum,
        "exclusive_minimum": exclusive_minimum,
        "choices": choices,
        "nullable": nullable,
    }
    if default is REQUIRED:
        return dataclasses.field(metadata=metadata)
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=functools.partial(copy.deepcopy, default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


# --- the sections ---------------------------------------------------------------------------------------
@SECTION
class EnvConfig:
    """Section ``env``: the game the learner plays."""

    id: str = key(REQUIRED, "registered env id (pirate_envs.ENV_IDS)")
    options: dict[str, Any] = key({}, "rule options passed to the game (num_players, reward_mode, ...)", kind="mapping")
    seat: int | str = key("random", "learner seat: an index, or 'random' to draw it every episode", kind="seat")


@SECTION
class RunConfig:
    """Section ``run``: where the run lives, its seed and length."""

    dir: str = key("runs/{env_id}-{timestamp}", "run directory; {env_id} and {timestamp} are filled in")
    seed: int = key(0, "seed of the model, the envs and the evaluation games", minimum=0)
    total_timesteps: int = key(REQUIRED, "learner env steps to train for", minimum=1)
    torch_threads: int = key(1, "torch threads of the training process", minimum=1, maximum=256)
    init_from: str | None = key(
        None,
        "start PPO from the weights of this MaskablePPO .zip (e.g. a shipped checkpoint; same network shape) "
        "instead of a fresh network",
        nullable=True,
    )
    update_threads: int | None = key(
        None,
        "torch threads during each PPO update, when the env workers wait (null: run.torch_threads)",
        minimum=1,
        maximum=256,
        nullable=True,
    )


@SECTION
class VecEnvConfig:
    """Section ``vec_env``: how the training envs are stepped."""

    n_envs: int = key(4, "parallel envs", minimum=1, maximum=256)
    kind: str = key(
        "dummy",
        "dummy: all envs in this process; subproc: one process each; "
        "batched: the envs split over `workers` processes, masks sent with each step; "
        "lockstep: all envs in this process, stepped together, network opponents deciding for all at once; "
        "batched_lockstep: the batched kind, each process stepping its envs together, network opponents "
        "deciding for all of them at once; native: all envs in one compiled vector (pirate_envs.vector), random "
        "and heuristic opponents played in C, network opponents deciding for all at once",
        choices=("dummy", "subproc", "batched", "lockstep", "batched_lockstep", "native"),
    )
    workers: int = key(2, "processes of the batched kinds", minimum=1, maximum=256)
    offload: float = key(
        0.0,
        "lockstep kind: the share of the envs stepped (in lockstep) by one worker process while this process "
        "steps the rest and runs the network (0: all here)",
        minimum=0.0,
        maximum=0.9,
    )


@SECTION
class PpoConfig:
    """Section ``ppo``: MaskablePPO's hyperparameters."""

    learning_rate: float = key(3.0e-4, "Adam step size", minimum=0.0, exclusive_minimum=True)
    lr_schedule: str = key("constant", "learning-rate schedule", choices=("constant", "linear"))
    n_steps: int = key(512, "env steps per env per rollout", minimum=2)
    batch_size: int = key(256, "minibatch size", minimum=2)
    n_epochs: int = key(4, "passes over each rollout", minimum=1)
    gamma: float = key(0.99, "discount", minimum=0.0, maximum=1.0)
    gae_lambda: float = key(0.95, "GAE lambda", minimum=0.0, maximum=1.0)
    clip_range: float = key(0.2, "PPO clip range", minimum=0.0, maximum=1.0, exclusive_minimum=True)
    ent_coef: float = key(0.01, "entropy bonus", minimum=0.0)
    vf_coef: float = key(0.5, "value loss weight", minimum=0.0)
    max_grad_norm: float = key(0.5, "gradient clipping", minimum=0.0, exclusive_minimum=True)
    target_kl: float | None = key(None, "early stop of an update past this KL", minimum=0.0, nullable=True)
    normalize_advantage: bool = key(True, "normalise advantages per minibatch")
    value_warmup_steps: int = key(
        0,
        "first timesteps whose PPO updates fit only the value head, the policy frozen (after a warm start "
        "the value head is uncalibrated and early advantages are noise)",
        minimum=0,
    )
    update_precision: str = key(
        "float32",
        "number format of the hidden layers' matrix products in the gradient passes (PPO updates, warm "
        "start): bfloat16 autocasts them (weights, heads and rollouts stay float32; training/precision.py)",
        choices=("float32", "bfloat16"),
    )


@SECTION
class NetworkConfig:
    """Section ``network``: the policy and value networks."""

    pi: list[int] = key([128, 128], "hidden layer sizes of the policy MLP", kind="int_list")
    vf: list[int] = key([128, 128], "hidden layer sizes of the value MLP", kind="int_list")
    activation: str = key("tanh", "hidden activation", choices=("tanh", "relu"))
    features: str = key(
        "signed_log",
        "input layer: the flat observation as is, or squashed by sign(x)*log(1+|x|)",
        choices=("flat", "signed_log"),
    )
    action_features: bool = key(
        False,
        "score each action from the game's per-action features (the public effect of the action; "
        "pirate_envs/networks/action_feature_policy.py) instead of a flat head over the action indices",
    )
    action_embed: int = key(
        0, "with action_features: size of a learned feature embedding (0: the bilinear score alone)", minimum=0
    )
    features_in_policy: bool = key(
        False,
        "with action_features: the policy computes the features from the plain observation and the action "
        "mask (the same network and numbers; rows of the observation size travel and are stored instead of "
        "observation + features)",
    )


@SECTION
class ImitationConfig:
    """Section ``imitation``: the warm start, a teacher's games cloned before PPO."""

    games: int = key(0, "teacher games cloned into the network before PPO (0: no warm start)", minimum=0)
    teacher: str = key(
        "heuristic",
        "the bot to clone: 'heuristic', 'random', a search bot ('flatmc[:rollouts=N,...]', "
        "'ismcts[:iterations=N,...]') or a checkpoint path",
    )
    teacher_share: float = key(
        0.75,
        "share of seats the teacher plays in those games (random play covers off-teacher positions)",
        minimum=0.0,
        maximum=1.0,
        exclusive_minimum=True,
    )
    others: str = key(
        "random", "who plays the seats the teacher does not: 'random', 'heuristic', a search bot or a checkpoint path"
    )
    workers: int = key(1, "processes playing the teacher games (for slow search teachers)", minimum=1, maximum=256)
    epochs: int = key(10, "passes over the demonstrations", minimum=1)
    batch_size: int = key(512, "minibatch size", minimum=1)
    learning_rate: float = key(1.0e-3, "Adam step size", minimum=0.0, exclusive_minimum=True)
    value_coef: float = key(0.5, "weight of the value head's fit to the final returns", minimum=0.0)


@SECTION
class OpponentsConfig:
    """Section ``opponents``: the curriculum of opponent mixes and the self-play pool."""

    stages: list[dict[str, Any]] = key(
        [{"until": None, "mix": {"random": 1.0}}],
        "curriculum: each stage's opponent mix applies until `until` timesteps (the last: null = to the end); "
        "mix keys are 'random', 'heuristic', 'selfplay' or a checkpoint path",
        kind="stages",
    )
    snapshot_every: int = key(100_000, "timesteps between self-play snapshots (while a stage uses selfplay)", minimum=1)
    latest_share: float = key(0.5, "share of self-play draws that take the latest snapshot", minimum=0.0, maximum=1.0)
    max_snapshots: int = key(20, "snapshots kept in the pool (oldest dropped)", minimum=1)
    snapshot_deterministic: bool = key(False, "snapshots play their arg-max action instead of sampling")


@SECTION
class EvalConfig:
    """Section ``eval``: the evaluations during training."""

    every: int = key(50_000, "timesteps between evaluations", minimum=1)
    games: int = key(200, "games per opponent per evaluation (seats rotate)", minimum=1)
    opponents: list[str] = key(
        ["random", "heuristic"], "opponents to evaluate against ('random', 'heuristic', paths)", kind="str_list"
    )
    deterministic: bool = key(True, "evaluate the arg-max policy")
    best_by: str = key("heuristic", "win rate that picks best_model.zip: an eval opponent or 'mean'")


@SECTION
class CheckpointConfig:
    """Section ``checkpoint``: the periodic checkpoints."""

    every: int = key(100_000, "timesteps between checkpoints", minimum=1)
    keep: int = key(3, "periodic checkpoints kept (older ones deleted)", minimum=1)


@SECTION
class LoggingConfig:
    """Section ``logging``: what the run reports while it trains."""

    tensorboard: bool = key(True, "write TensorBoard logs to <run dir>/tb")
    progress_bar: bool = key(True, "show a progress bar")


SECTIONS: dict[str, type] = {
    "env": EnvConfig,
    "run": RunConfig,
    "vec_env": VecEnvConfig,
    "ppo": PpoConfig,
    "network": NetworkConfig,
    "imitation": ImitationConfig,
    "opponents": OpponentsConfig,
    "eval": EvalConfig,
    "checkpoint": CheckpointConfig,
    "logging": LoggingConfig,
}


@dataclass
class TrainConfig:
    """A complete, validated training config."""

    env: EnvConfig
    run: RunConfig
    vec_env: VecEnvConfig
    ppo: PpoConfig
    network: NetworkConfig
    imitation: ImitationConfig
    opponents: OpponentsConfig
    eval: EvalConfig
    checkpoint: CheckpointConfig
    logging: LoggingConfig

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]) -> TrainConfig:
        """From a validated config dict (``training.config.load_config``, ``validate_config``)."""
        return cls(**{f.name: SECTIONS[f.name](**config[f.name]) for f in fields(cls)})

    def to_dict(self) -> dict[str, Any]:
        """The plain nested dict, sections and keys in schema order."""
        return asdict(self)


@functools.cache
def keys_of(section: type) -> dict[str, Field]:
    """The keys of a section dataclass, in declaration order, as the validator reads them.

    A key's kind is its ``metadata`` kind or, for a plain number, flag or string, its annotation (a string:
    the schema's module has ``from __future__ import annotations``); the annotation must be the one its kind
    and ``nullable`` give (``float | None``), so type and rules agree."""
    keys = {}
    for item in fields(section):
        meta, where = item.metadata, f"{section.__name__}.{item.name}"
        if not isinstance(item.type, str) or "help" not in meta:
            raise TypeError(f"{where}: declare config keys with key() in a module with string annotations")
        kind = meta["kind"] or SCALARS.get(item.type.removesuffix(" | None"))
        if kind is None:
            raise TypeError(
                f"{where}: annotation {item.type!r} names no kind of key; allowed: int, float, bool or str "
                f"(with | None where nullable), or key(kind=...) with one of {', '.join(SPECIAL_KINDS)}"
            )
        if item.default is not dataclasses.MISSING:
            default = item.default
        elif item.default_factory is not dataclasses.MISSING:
            default = item.default_factory()
        else:
            default = REQUIRED
        rules = {name: meta[name] for name in ("minimum", "maximum", "exclusive_minimum", "choices", "nullable")}
        field = Field(kind, default, meta["help"], **rules)
        if item.type != field.annotation:
            raise TypeError(f"{where}: annotation {item.type!r} is not {field.annotation!r}")
        keys[item.name] = field
    return keys
