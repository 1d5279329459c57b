"""The typed training config: one dataclass per section of ``training.config.SCHEMA``.

GENERATED from the schema by ``python -m training.config --write-types``; do not edit by hand
(tests/test_config_types.py checks it is current). Each field carries the key's type, default and
``metadata`` help (``help``, ``allowed``), the facts of docs/training.md's reference table::

    from training.config import load_typed_config
    config = load_typed_config("configs/potsm_v0.yaml")   # a TrainConfig
    config.ppo.learning_rate                              # 5e-05 (float)
    config.to_dict()                                      # the plain nested dict (config.yaml)
"""

# ruff: noqa: E501  (the help texts are the schema's, one string each)

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass
class EnvConfig:
    """Section ``env``."""

    id: str = field(metadata={"help": "registered env id (pirate_envs.ENV_IDS)", "allowed": "a string"})
    options: dict[str, Any] = field(
        default_factory=lambda: {},
        metadata={"help": "rule options passed to the game (num_players, reward_mode, ...)", "allowed": "a mapping"},
    )
    seat: int | str = field(
        default="random",
        metadata={
            "help": "learner seat: an index, or 'random' to draw it every episode",
            "allowed": "a seat index (integer >= 0) or 'random'",
        },
    )


@dataclass
class RunConfig:
    """Section ``run``."""

    total_timesteps: int = field(metadata={"help": "learner env steps to train for", "allowed": "an integer >= 1"})
    dir: str = field(
        default="runs/{env_id}-{timestamp}",
        metadata={"help": "run directory; {env_id} and {timestamp} are filled in", "allowed": "a string"},
    )
    seed: int = field(
        default=0,
        metadata={"help": "seed of the model, the envs and the evaluation games", "allowed": "an integer >= 0"},
    )
    torch_threads: int = field(
        default=1, metadata={"help": "torch threads of the training process", "allowed": "an integer >= 1 and <= 256"}
    )
    init_from: str | None = field(
        default=None,
        metadata={
            "help": "start PPO from the weights of this MaskablePPO .zip (e.g. a shipped checkpoint; same network shape) instead of a fresh network",
            "allowed": "a string or null",
        },
    )
    update_threads: int | None = field(
        default=None,
        metadata={
            "help": "torch threads during each PPO update, when the env workers wait (null: run.torch_threads)",
            "allowed": "an integer >= 1 and <= 256 or null",
        },
    )


@dataclass
class VecEnvConfig:
    """Section ``vec_env``."""

    n_envs: int = field(default=4, metadata={"help": "parallel envs", "allowed": "an integer >= 1 and <= 256"})
    kind: str = field(
        default="dummy",
        metadata={
            "help": "dummy: all envs in this process; subproc: one process each; batched: the envs split over `workers` processes, masks sent with each step; lockstep: all envs in this process, stepped together, network opponents deciding for all at once",
            "allowed": "one of 'dummy', 'subproc', 'batched', 'lockstep'",
        },
    )
    workers: int = field(
        default=2, metadata={"help": "processes of the batched kind", "allowed": "an integer >= 1 and <= 256"}
    )
    lockstep: bool = field(
        default=False,
        metadata={
            "help": "batched kind: each process steps its envs together, network opponents deciding for all of them at once",
            "allowed": "true or false",
        },
    )
    offload: float = field(
        default=0.0,
        metadata={
            "help": "lockstep kind: the share of the envs stepped (in lockstep) by one worker process while this process steps the rest and runs the network (0: all here)",
            "allowed": "a number >= 0.0 and <= 0.9",
        },
    )


@dataclass
class PpoConfig:
    """Section ``ppo``."""

    learning_rate: float = field(default=0.0003, metadata={"help": "Adam step size", "allowed": "a number > 0.0"})
    lr_schedule: str = field(
        default="constant", metadata={"help": "learning-rate schedule", "allowed": "one of 'constant', 'linear'"}
    )
    n_steps: int = field(default=512, metadata={"help": "env steps per env per rollout", "allowed": "an integer >= 2"})
    batch_size: int = field(default=256, metadata={"help": "minibatch size", "allowed": "an integer >= 2"})
    n_epochs: int = field(default=4, metadata={"help": "passes over each rollout", "allowed": "an integer >= 1"})
    gamma: float = field(default=0.99, metadata={"help": "discount", "allowed": "a number >= 0.0 and <= 1.0"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda", "allowed": "a number >= 0.0 and <= 1.0"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range", "allowed": "a number > 0.0 and <= 1.0"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus", "allowed": "a number >= 0.0"})
    vf_coef: float = field(default=0.5, metadata={"help": "value loss weight", "allowed": "a number >= 0.0"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient clipping", "allowed": "a number > 0.0"})
    target_kl: float | None = field(
        default=None, metadata={"help": "early stop of an update past this KL", "allowed": "a number >= 0.0 or null"}
    )
    normalize_advantage: bool = field(
        default=True, metadata={"help": "normalise advantages per minibatch", "allowed": "true or false"}
    )
    value_warmup_steps: int = field(
        default=0,
        metadata={
            "help": "first timesteps whose PPO updates fit only the value head, the policy frozen (after a warm start the value head is uncalibrated and early advantages are noise)",
            "allowed": "an integer >= 0",
        },
    )
    update_precision: str = field(
        default="float32",
        metadata={
            "help": "number format of the hidden layers' matrix products in the gradient passes (PPO updates, warm start): bfloat16 autocasts them (weights, heads and rollouts stay float32; training/precision.py)",
            "allowed": "one of 'float32', 'bfloat16'",
        },
    )


@dataclass
class NetworkConfig:
    """Section ``network``."""

    pi: list[int] = field(
        default_factory=lambda: [128, 128],
        metadata={"help": "hidden layer sizes of the policy MLP", "allowed": "a list of positive integers"},
    )
    vf: list[int] = field(
        default_factory=lambda: [128, 128],
        metadata={"help": "hidden layer sizes of the value MLP", "allowed": "a list of positive integers"},
    )
    activation: str = field(default="tanh", metadata={"help": "hidden activation", "allowed": "one of 'tanh', 'relu'"})
    features: str = field(
        default="signed_log",
        metadata={
            "help": "input layer: the flat observation as is, or squashed by sign(x)*log(1+|x|)",
            "allowed": "one of 'flat', 'signed_log'",
        },
    )
    action_features: bool = field(
        default=False,
        metadata={
            "help": "score each action from the game's per-action features (the public effect of the action; pirate_envs/networks/action_feature_policy.py) instead of a flat head over the action indices",
            "allowed": "true or false",
        },
    )
    action_embed: int = field(
        default=0,
        metadata={
            "help": "with action_features: size of a learned feature embedding (0: the bilinear score alone)",
            "allowed": "an integer >= 0",
        },
    )
    features_in_policy: bool = field(
        default=False,
        metadata={
            "help": "with action_features: the policy computes the features from the plain observation and the action mask (the same network and numbers; rows of the observation size travel and are stored instead of observation + features)",
            "allowed": "true or false",
        },
    )


@dataclass
class ImitationConfig:
    """Section ``imitation``."""

    games: int = field(
        default=0,
        metadata={
            "help": "teacher games cloned into the network before PPO (0: no warm start)",
            "allowed": "an integer >= 0",
        },
    )
    teacher: str = field(
        default="heuristic",
        metadata={
            "help": "the bot to clone: 'heuristic', 'random', a search bot ('flatmc[:rollouts=N,...]', 'ismcts[:iterations=N,...]') or a checkpoint path",
            "allowed": "a string",
        },
    )
    teacher_share: float = field(
        default=0.75,
        metadata={
            "help": "share of seats the teacher plays in those games (random play covers off-teacher positions)",
            "allowed": "a number > 0.0 and <= 1.0",
        },
    )
    others: str = field(
        default="random",
        metadata={
            "help": "who plays the seats the teacher does not: 'random', 'heuristic', a search bot or a checkpoint path",
            "allowed": "a string",
        },
    )
    workers: int = field(
        default=1,
        metadata={
            "help": "processes playing the teacher games (for slow search teachers)",
            "allowed": "an integer >= 1 and <= 256",
        },
    )
    epochs: int = field(default=10, metadata={"help": "passes over the demonstrations", "allowed": "an integer >= 1"})
    batch_size: int = field(default=512, metadata={"help": "minibatch size", "allowed": "an integer >= 1"})
    learning_rate: float = field(default=0.001, metadata={"help": "Adam step size", "allowed": "a number > 0.0"})
    value_coef: float = field(
        default=0.5,
        metadata={"help": "weight of the value head's fit to the final returns", "allowed": "a number >= 0.0"},
    )


@dataclass
class OpponentsConfig:
    """Section ``opponents``."""

    stages: list[dict[str, Any]] = field(
        default_factory=lambda: [{"until": None, "mix": {"random": 1.0}}],
        metadata={
            "help": "curriculum: each stage's opponent mix applies until `until` timesteps (the last: null = to the end); mix keys are 'random', 'heuristic', 'selfplay' or a checkpoint path",
            "allowed": "a list of {until: <timesteps or null>, mix: {<opponent>: <weight>}}",
        },
    )
    snapshot_every: int = field(
        default=100000,
        metadata={
            "help": "timesteps between self-play snapshots (while a stage uses selfplay)",
            "allowed": "an integer >= 1",
        },
    )
    latest_share: float = field(
        default=0.5,
        metadata={
            "help": "share of self-play draws that take the latest snapshot",
            "allowed": "a number >= 0.0 and <= 1.0",
        },
    )
    max_snapshots: int = field(
        default=20, metadata={"help": "snapshots kept in the pool (oldest dropped)", "allowed": "an integer >= 1"}
    )
    snapshot_deterministic: bool = field(
        default=False,
        metadata={"help": "snapshots play their arg-max action instead of sampling", "allowed": "true or false"},
    )


@dataclass
class EvalConfig:
    """Section ``eval``."""

    every: int = field(default=50000, metadata={"help": "timesteps between evaluations", "allowed": "an integer >= 1"})
    games: int = field(
        default=200, metadata={"help": "games per opponent per evaluation (seats rotate)", "allowed": "an integer >= 1"}
    )
    opponents: list[str] = field(
        default_factory=lambda: ["random", "heuristic"],
        metadata={
            "help": "opponents to evaluate against ('random', 'heuristic', paths)",
            "allowed": "a list of strings",
        },
    )
    deterministic: bool = field(
        default=True, metadata={"help": "evaluate the arg-max policy", "allowed": "true or false"}
    )
    best_by: str = field(
        default="heuristic",
        metadata={"help": "win rate that picks best_model.zip: an eval opponent or 'mean'", "allowed": "a string"},
    )


@dataclass
class CheckpointConfig:
    """Section ``checkpoint``."""

    every: int = field(default=100000, metadata={"help": "timesteps between checkpoints", "allowed": "an integer >= 1"})
    keep: int = field(
        default=3, metadata={"help": "periodic checkpoints kept (older ones deleted)", "allowed": "an integer >= 1"}
    )


@dataclass
class LoggingConfig:
    """Section ``logging``."""

    tensorboard: bool = field(
        default=True, metadata={"help": "write TensorBoard logs to <run dir>/tb", "allowed": "true or false"}
    )
    progress_bar: bool = field(default=True, metadata={"help": "show a progress bar", "allowed": "true or false"})


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
