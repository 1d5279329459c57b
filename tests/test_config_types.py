"""The training config's dataclasses (training/config_types.py) are its schema: every key's type, default,
allowed values and help, declared once. The validator walks them, ``describe_schema`` and the table of
docs/reference/config.md are rendered from them, and the training modules take the typed config.

The expected defaults and allowed values below are written out by hand, as ``training.config.SCHEMA`` had
them before the dataclasses replaced it, so that a key whose default or rule drifts fails here by name.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml

from training import config_types
from training.config import (
    ConfigError,
    describe_schema,
    dump_config,
    load_config,
    load_typed_config,
    reference_markdown,
    validate_config,
)
from training.config_types import REQUIRED, SECTION, SECTIONS, TrainConfig, key, keys_of

ROOT = Path(__file__).resolve().parents[1]
STAGES_ALLOWED = "a list of {until: <timesteps or null>, mix: {<opponent>: <weight>}}"

# key path -> (default, allowed), in schema order
EXPECTED = {
    "env.id": (REQUIRED, "a string"),
    "env.options": ({}, "a mapping"),
    "env.seat": ("random", "a seat index (integer >= 0) or 'random'"),
    "run.dir": ("runs/{env_id}-{timestamp}", "a string"),
    "run.seed": (0, "an integer >= 0"),
    "run.total_timesteps": (REQUIRED, "an integer >= 1"),
    "run.torch_threads": (1, "an integer >= 1 and <= 256"),
    "run.init_from": (None, "a string or null"),
    "run.update_threads": (None, "an integer >= 1 and <= 256 or null"),
    "vec_env.n_envs": (4, "an integer >= 1 and <= 256"),
    # batched_lockstep took over from vec_env.lockstep (False, "true or false"), which is gone
    "vec_env.kind": ("dummy", "one of 'dummy', 'subproc', 'batched', 'lockstep', 'batched_lockstep', 'native'"),
    "vec_env.workers": (2, "an integer >= 1 and <= 256"),
    "vec_env.offload": (0.0, "a number >= 0.0 and <= 0.9"),
    "ppo.learning_rate": (0.0003, "a number > 0.0"),
    "ppo.lr_schedule": ("constant", "one of 'constant', 'linear'"),
    "ppo.n_steps": (512, "an integer >= 2"),
    "ppo.batch_size": (256, "an integer >= 2"),
    "ppo.n_epochs": (4, "an integer >= 1"),
    "ppo.gamma": (0.99, "a number >= 0.0 and <= 1.0"),
    "ppo.gae_lambda": (0.95, "a number >= 0.0 and <= 1.0"),
    "ppo.clip_range": (0.2, "a number > 0.0 and <= 1.0"),
    "ppo.ent_coef": (0.01, "a number >= 0.0"),
    "ppo.vf_coef": (0.5, "a number >= 0.0"),
    "ppo.max_grad_norm": (0.5, "a number > 0.0"),
    "ppo.target_kl": (None, "a number >= 0.0 or null"),
    "ppo.normalize_advantage": (True, "true or false"),
    "ppo.value_warmup_steps": (0, "an integer >= 0"),
    "ppo.update_precision": ("float32", "one of 'float32', 'bfloat16'"),
    "network.pi": ([128, 128], "a list of positive integers"),
    "network.vf": ([128, 128], "a list of positive integers"),
    "network.activation": ("tanh", "one of 'tanh', 'relu'"),
    "network.features": ("signed_log", "one of 'flat', 'signed_log'"),
    "network.action_features": (False, "true or false"),
    "network.action_embed": (0, "an integer >= 0"),
    "network.features_in_policy": (False, "true or false"),
    "imitation.games": (0, "an integer >= 0"),
    "imitation.teacher": ("heuristic", "a string"),
    "imitation.teacher_share": (0.75, "a number > 0.0 and <= 1.0"),
    "imitation.others": ("random", "a string"),
    "imitation.workers": (1, "an integer >= 1 and <= 256"),
    "imitation.epochs": (10, "an integer >= 1"),
    "imitation.batch_size": (512, "an integer >= 1"),
    "imitation.learning_rate": (0.001, "a number > 0.0"),
    "imitation.value_coef": (0.5, "a number >= 0.0"),
    "opponents.stages": ([{"until": None, "mix": {"random": 1.0}}], STAGES_ALLOWED),
    "opponents.snapshot_every": (100000, "an integer >= 1"),
    "opponents.latest_share": (0.5, "a number >= 0.0 and <= 1.0"),
    "opponents.max_snapshots": (20, "an integer >= 1"),
    "opponents.snapshot_deterministic": (False, "true or false"),
    "eval.every": (50000, "an integer >= 1"),
    "eval.games": (200, "an integer >= 1"),
    "eval.opponents": (["random", "heuristic"], "a list of strings"),
    "eval.deterministic": (True, "true or false"),
    "eval.best_by": ("heuristic", "a string"),
    "checkpoint.every": (100000, "an integer >= 1"),
    "checkpoint.keep": (3, "an integer >= 1"),
    "logging.tensorboard": (True, "true or false"),
    "logging.progress_bar": (True, "true or false"),
}
MINIMAL = {"env": {"id": "potsm_v0"}, "run": {"total_timesteps": 1000}}


# --- the dataclasses are the schema ---------------------------------------------------------------------
def test_the_dataclasses_hold_every_key_with_its_default_and_rule():
    got = {f"{s}.{name}": field for s, cls in SECTIONS.items() for name, field in keys_of(cls).items()}
    assert list(got) == list(EXPECTED), "keys or their order differ from the schema's"
    assert [f.name for f in dataclasses.fields(TrainConfig)] == list(SECTIONS)
    for path, (default, allowed) in EXPECTED.items():
        field = got[path]
        assert field.default is REQUIRED if default is REQUIRED else field.default == default, path
        assert type(field.default) is type(default), f"{path}: default {field.default!r} is not a {type(default)}"
        assert field.allowed() == allowed, path
        assert field.doc, f"{path} has no help"
    expected: dict[str, dict[str, Any]] = {}
    for path, (default, _) in EXPECTED.items():
        section, _, name = path.partition(".")
        expected.setdefault(section, {})[name] = default
    expected["env"]["id"], expected["run"]["total_timesteps"] = "potsm_v0", 1000
    assert TrainConfig.from_dict(validate_config(MINIMAL)).to_dict() == expected


def test_list_and_mapping_defaults_are_fresh_per_config():
    first, second = config_types.NetworkConfig(), config_types.NetworkConfig()
    first.pi.append(7)
    assert second.pi == [128, 128] and config_types.NetworkConfig().pi == [128, 128]
    stages = config_types.OpponentsConfig().stages
    stages[0]["mix"]["heuristic"] = 1.0
    assert config_types.OpponentsConfig().stages == [{"until": None, "mix": {"random": 1.0}}]
    validated = validate_config(MINIMAL)
    validated["network"]["pi"].append(7)
    validated["opponents"]["stages"][0]["mix"]["heuristic"] = 1.0
    assert validate_config(MINIMAL)["network"]["pi"] == [128, 128]
    assert validate_config(MINIMAL)["opponents"]["stages"] == [{"until": None, "mix": {"random": 1.0}}]


def test_a_key_whose_annotation_disagrees_with_its_rules_is_refused():
    @SECTION
    class Layers:
        sizes: float = key([8], "hidden layers", kind="int_list")

    @SECTION
    class Nullable:
        rate: float = key(None, "a rate", nullable=True)

    @SECTION
    class Unknown:
        pair: tuple = key((1, 2), "a pair")

    with pytest.raises(TypeError, match=r"Layers\.sizes: annotation 'float' is not 'list\[int\]'"):
        keys_of(Layers)
    with pytest.raises(TypeError, match=r"Nullable\.rate: annotation 'float' is not 'float \| None'"):
        keys_of(Nullable)
    with pytest.raises(TypeError, match=r"Unknown\.pair: annotation 'tuple' names no kind of key; allowed: int, "):
        keys_of(Unknown)
    with pytest.raises(ValueError, match="unknown key kind 'ints'; allowed: int_list, str_list, mapping, seat, stages"):
        key([1], "sizes", kind="ints")


# --- the validator's errors, as they were before the dataclasses became the schema ----------------------------
ERRORS = [
    ("ppo", "learning_rate", 0, "ppo.learning_rate: out of range: 0.0; allowed: a number > 0.0"),
    ("ppo", "learning_rate", "abc", "ppo.learning_rate: wrong type str ('abc'); allowed: a number > 0.0"),
    ("ppo", "n_steps", 1.5, "ppo.n_steps: not an integer: 1.5; allowed: an integer >= 2"),
    ("ppo", "target_kl", -1, "ppo.target_kl: out of range: -1.0; allowed: a number >= 0.0 or null"),
    ("ppo", "gamma", 1.5, "ppo.gamma: out of range: 1.5; allowed: a number >= 0.0 and <= 1.0"),
    ("ppo", "normalize_advantage", None, "ppo.normalize_advantage: must not be null; allowed: true or false"),
    ("run", "update_threads", 0, "run.update_threads: out of range: 0; allowed: an integer >= 1 and <= 256 or null"),
    ("run", "total_timesteps", True, "run.total_timesteps: wrong type bool (True); allowed: an integer >= 1"),
    ("env", "seat", -1, "env.seat: got -1; allowed: a seat index (integer >= 0) or 'random'"),
    ("env", "options", [], "env.options: wrong type list ([]); allowed: a mapping"),
    ("network", "pi", [0], "network.pi: bad layer size 0; allowed: a list of positive integers"),
    ("network", "pi", [], "network.pi: wrong type list ([]); allowed: a list of positive integers"),
    ("eval", "opponents", [], "eval.opponents: wrong type or empty ([]); allowed: a list of strings"),
    ("logging", "tensorboard", "abc", "logging.tensorboard: wrong type str ('abc'); allowed: true or false"),
    ("opponents", "stages", [], f"opponents.stages: must be a non-empty list; allowed: {STAGES_ALLOWED}"),
    ("imitation", "teacher_share", 0, "imitation.teacher_share: out of range: 0.0; allowed: a number > 0.0 and <= 1.0"),
    ("vec_env", "offload", 0.95, "vec_env.offload: out of range: 0.95; allowed: a number >= 0.0 and <= 0.9"),
    (
        "ppo",
        "learnin_rate",
        1,
        "ppo.learnin_rate: unknown key (did you mean 'learning_rate'?); allowed keys in 'ppo': learning_rate, "
        "lr_schedule, n_steps, batch_size, n_epochs, gamma, gae_lambda, clip_range, ent_coef, vf_coef, "
        "max_grad_norm, target_kl, normalize_advantage, value_warmup_steps, update_precision",
    ),
    (
        "network",
        "actvation",
        "relu",
        "network.actvation: unknown key (did you mean 'activation'?); allowed keys in 'network': pi, vf, "
        "activation, features, action_features, action_embed, features_in_policy",
    ),
]


@pytest.mark.parametrize(("section", "name", "value", "message"), ERRORS, ids=[f"{s}.{n}" for s, n, *_ in ERRORS])
def test_a_bad_value_names_the_key_and_what_is_allowed(section, name, value, message):
    data = {**MINIMAL, section: {**MINIMAL.get(section, {}), name: value}}
    with pytest.raises(ConfigError) as info:
        validate_config(data, source="src", check_files=False)
    assert str(info.value) == f"src: {message}"


STAGES_OUT_OF_ORDER = [{"until": 10, "mix": {"random": 1}}, {"until": 5, "mix": {"random": 1}}]
SECTION_NAMES = "env, run, vec_env, ppo, network, imitation, opponents, eval, checkpoint, logging"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"run": {"total_timesteps": 5}},
            "env.id: is required (registered env id (pirate_envs.ENV_IDS)); allowed: a string",
        ),
        ([1, 2], f"(top level): must be a mapping of sections ({SECTION_NAMES})"),
        (
            {**MINIMAL, "ppoo": {}},
            f"ppoo: unknown key (did you mean 'ppo'?); allowed keys at the top level: {SECTION_NAMES}",
        ),
        ({**MINIMAL, "checkpoint": [1]}, "checkpoint: must be a mapping with keys every, keep; got [1]"),
        (
            {**MINIMAL, "opponents": {"stages": STAGES_OUT_OF_ORDER}},
            "opponents.stages[1].until: must be an integer timestep count > 10 (stages in order); got 5",
        ),
        (
            {"env": {"id": "potsm_v0", "seat": 99}, "run": {"total_timesteps": 5}},
            "env.seat: must be in [0, 4) for 4 players or 'random'; got 99",
        ),
    ],
)
def test_whole_config_errors_are_unchanged(data, message):
    with pytest.raises(ConfigError) as info:
        validate_config(data, source="src", check_files=False)
    assert str(info.value) == f"src: {message}"


def test_yaml_errors_name_the_line_and_column(tmp_path):
    path = tmp_path / "twice.yaml"
    path.write_text("env:\n  id: potsm_v0\nrun:\n  total_timesteps: 5\nppo:\n  n_steps: 64\n  n_steps: 32\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (
        f"{path} at line 7, column 3: duplicate key 'n_steps' (first given at line 6); "
        "a key may appear once in a mapping"
    )
    path.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match=r"the top level must be a mapping of sections \(env, run, vec_env, ppo"):
        load_config(path)


def test_describe_schema_reads_the_dataclasses():
    lines = describe_schema().splitlines()
    assert len(lines) == len(EXPECTED)
    assert lines[0] == "env.id: registered env id (pirate_envs.ENV_IDS). Default (required); allowed: a string"
    assert "ppo.gamma: discount. Default 0.99; allowed: a number >= 0.0 and <= 1.0" in lines


def test_docs_reference_table_is_the_dataclasses():
    """docs/reference/config.md holds the table reference_markdown() renders from the dataclasses."""
    table = reference_markdown()
    rows = table.splitlines()
    assert len(rows) == 2 + len(EXPECTED)
    assert "| `ppo.target_kl` | float \\| None | `null` | a number >= 0.0 or null | early stop of an update" in table
    assert "| `opponents.stages` | list[dict[str, Any]] | `[{until: null, mix: {random: 1.0}}]` |" in table
    assert "write TensorBoard logs to &lt;run dir>/tb |" in table
    doc = (ROOT / "docs" / "reference" / "config.md").read_text().splitlines()
    assert rows[0] in doc, "docs/reference/config.md has no config table"
    start = doc.index(rows[0])
    end = next((i for i in range(start, len(doc)) if not doc[i].startswith("|")), len(doc))
    assert doc[start:end] == rows, (
        "docs/reference/config.md's table differs from the dataclasses; paste the output of "
        '.venv/bin/python -c "from training.config import reference_markdown; print(reference_markdown())"'
    )


# --- vec_env.kind is the one spelling of how envs are stepped -----------------------------------------------
def write(tmp_path: Path, vec_env: dict[str, Any]) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({**MINIMAL, "vec_env": vec_env}))
    return path


def test_vec_env_lockstep_true_loads_as_the_batched_lockstep_kind(tmp_path):
    path = write(tmp_path, {"kind": "batched", "workers": 2, "lockstep": True})
    with pytest.warns(DeprecationWarning, match="vec_env.lockstep: true is deprecated: write vec_env.kind: ") as seen:
        config = load_typed_config(path)
    assert seen[0].filename == __file__, "the warning points at the code that loaded the config"
    assert config.vec_env.kind == "batched_lockstep" and config.vec_env.workers == 2
    assert not hasattr(config.vec_env, "lockstep")
    written = dump_config(config)
    assert yaml.safe_load(written)["vec_env"] == {"n_envs": 4, "kind": "batched_lockstep", "workers": 2, "offload": 0.0}
    path.write_text(written)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_typed_config(path) == config
    with pytest.warns(DeprecationWarning):  # an override in the old spelling, on the new file
        again = load_typed_config(path, ["vec_env.kind=batched", "vec_env.lockstep=true"])
    assert again.vec_env.kind == "batched_lockstep"


@pytest.mark.parametrize(
    ("vec_env", "kind", "warning"),
    [
        ({"kind": "batched", "lockstep": False}, "batched", None),
        ({"lockstep": False}, "dummy", None),
        ({"kind": "lockstep", "lockstep": True}, "lockstep", "vec_env.kind: lockstep says it alone"),
        ({"lockstep": True}, "dummy", "it does nothing with vec_env.kind: dummy"),
        ({"kind": "subproc", "lockstep": True}, "subproc", "it does nothing with vec_env.kind: subproc"),
    ],
)
def test_vec_env_lockstep_with_other_kinds(tmp_path, vec_env, kind, warning):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        config = load_typed_config(write(tmp_path, vec_env))
    assert config.vec_env.kind == kind
    if warning is None:
        assert not seen
    else:
        assert len(seen) == 1 and seen[0].category is DeprecationWarning and warning in str(seen[0].message)


def test_vec_env_lockstep_must_still_be_a_flag(tmp_path):
    with pytest.raises(ConfigError, match=r"vec_env\.lockstep: wrong type int \(5\); allowed: true or false"):
        load_config(write(tmp_path, {"kind": "batched", "lockstep": 5}))


def test_the_batched_lockstep_kind_builds_lockstep_workers(monkeypatch):
    """``kind: batched_lockstep`` is the batched vec env whose workers step their envs together."""
    import training.vec_env
    from training.train import build_vec_env

    built = {}

    def fake(fns, workers, lockstep=False):
        built.update(n_envs=len(fns), workers=workers, lockstep=lockstep)
        return built

    monkeypatch.setattr(training.vec_env, "BatchedSubprocVecEnv", fake)
    for kind, lockstep in (("batched_lockstep", True), ("batched", False)):
        data = {**MINIMAL, "vec_env": {"kind": kind, "n_envs": 3, "workers": 2}, "ppo": {"batch_size": 64}}
        assert build_vec_env(TrainConfig.from_dict(validate_config(data)), opponents="random") is built
        assert built == {"n_envs": 3, "workers": 2, "lockstep": lockstep}, kind


SHIPPED_CONFIGS = sorted([*(ROOT / "configs").glob("*.yaml"), *(ROOT / "checkpoints").glob("*/config.yaml")])


@pytest.mark.parametrize("path", SHIPPED_CONFIGS, ids=[str(p.relative_to(ROOT)) for p in SHIPPED_CONFIGS])
def test_shipped_configs_load_typed_without_warnings(path):
    """Every config in configs/ and every shipped agent's config.yaml (written with ``lockstep: false``) loads
    and validates, silently, and is written back without the old key."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        config = load_typed_config(path, check_files=False)
    assert "lockstep" not in yaml.safe_load(dump_config(config))["vec_env"]


# --- the typed config in training ------------------------------------------------------------------------
def test_typed_config_reads_old_runs_and_keeps_the_errors(tmp_path):
    """A shipped agent's config.yaml, as its run wrote it, loads typed; bad values still name the key."""
    old = ROOT / "checkpoints" / "potsm_v0" / "config.yaml"
    typed = load_typed_config(old, check_files=False)
    assert isinstance(typed, config_types.TrainConfig)
    assert typed.to_dict() == load_config(old, check_files=False)
    assert isinstance(typed.ppo.learning_rate, float) and typed.env.id == "potsm_v0"
    with pytest.raises(ConfigError, match=r"ppo\.n_epochs: .*>= 1"):
        load_typed_config(old, ["ppo.n_epochs=0"], check_files=False)
    with pytest.raises(ConfigError, match=r"network\.activation: .*one of 'tanh', 'relu'"):
        load_typed_config(old, ["network.activation=gelu"], check_files=False)


SMALL = {
    "env": {"id": "dead_mans_draw_v0", "options": {"num_players": 2}},
    "run": {"total_timesteps": 64},
    "vec_env": {"n_envs": 2},
    "ppo": {"n_steps": 16, "batch_size": 32, "lr_schedule": "linear", "target_kl": 0.05},
    "network": {"pi": [8], "vf": [8]},
    "logging": {"tensorboard": False, "progress_bar": False},
}


def test_training_functions_take_a_train_config():
    """build_vec_env, ppo_hyperparameters, build_model, new_state, warm_start, load_for_resume and the run's
    pipeline callback are typed ``TrainConfig`` and refuse a plain dict, naming the conversion;
    ``train`` (the public entry point) still converts one."""
    import typing

    from training import callbacks, train
    from training.apps import ship
    from training.config import require_typed, typed_config
    from training.evaluation import exploit

    for function in (
        train.build_vec_env,
        train.ppo_hyperparameters,
        train.build_model,
        train.new_state,
        train.load_for_resume,
        train.warm_start,
        train._checkpoint_to_resume,
        callbacks.RunPipelineCallback.__init__,
    ):
        assert typing.get_type_hints(function)["config"] is config_types.TrainConfig, function.__qualname__
    assert typing.get_type_hints(train.PreparedRun)["config"] is config_types.TrainConfig
    assert typing.get_type_hints(exploit.responder_config)["return"] is config_types.TrainConfig
    assert typing.get_type_hints(ship.read_run_config)["return"] is config_types.TrainConfig
    assert config_types.TrainConfig in typing.get_args(typing.get_type_hints(train.train)["config"])

    data = validate_config(SMALL)
    config = config_types.TrainConfig.from_dict(data)
    kwargs = train.ppo_hyperparameters(config)
    assert kwargs["n_steps"] == config.ppo.n_steps == 16 and kwargs["target_kl"] == 0.05
    assert callable(kwargs["learning_rate"]) and kwargs["learning_rate"](1.0) == config.ppo.learning_rate
    assert train.new_state(config)["next_checkpoint"] == config.checkpoint.every
    for call in (
        lambda: train.ppo_hyperparameters(data),
        lambda: train.build_vec_env(data, opponents="random"),
        lambda: train.build_model(data, None, None),
        lambda: train.new_state(data),
        lambda: train.warm_start(data, None),
        lambda: callbacks.RunPipelineCallback(data, Path("unused"), {}, None),
    ):
        with pytest.raises(TypeError, match=r"takes a TrainConfig .* not a dict; .*load_typed_config"):
            call()
    assert require_typed(config, "here") is config
    assert typed_config(config) is config and typed_config(data) == config
    with pytest.raises(ConfigError, match=r"ppo\.n_epochs: .*>= 1"):
        typed_config({**SMALL, "ppo": {"n_epochs": 0}})

    vec = train.build_vec_env(config, opponents="random")
    try:
        model = train.build_model(config, vec, tensorboard_log=None)
        assert vec.num_envs == config.vec_env.n_envs and model.n_steps == config.ppo.n_steps
        assert model.policy_kwargs["net_arch"] == {"pi": [8], "vf": [8]}
    finally:
        vec.close()


def test_config_yaml_from_a_train_config_is_the_dict_one():
    """A run writes config.yaml from its TrainConfig: keys in schema order, the same text as from the dict."""
    from training.config import dump_config

    data = load_config(ROOT / "checkpoints" / "potsm_v0" / "config.yaml", check_files=False)
    typed = config_types.TrainConfig.from_dict(data)
    assert dump_config(typed) == dump_config(data)
    assert yaml.safe_load(dump_config(typed)) == data


def old_run(run_dir: Path, drop: dict[str, list[str]]) -> dict[str, Any]:
    """A run directory from before the keys in ``drop`` existed: its config.yaml lacks them (and has the old
    ``vec_env.lockstep: false``); its one
    checkpoint is the shipped potsm_v0 model at 100 timesteps (above total_timesteps: resuming trains nothing)."""
    import json
    import shutil

    from pirate_envs.policies.selfplay import SelfPlayPool
    from training.callbacks import pool_to_state

    shipped = ROOT / "checkpoints" / "potsm_v0"
    data = yaml.safe_load((shipped / "config.yaml").read_text())
    data["run"].update({"dir": str(run_dir), "total_timesteps": 1})
    data["vec_env"] = {"n_envs": 1, "kind": "dummy", "workers": 2, "lockstep": False}
    data["ppo"]["batch_size"] = data["ppo"]["n_steps"]
    data["logging"] = {"tensorboard": False, "progress_bar": False}
    for section, keys in drop.items():
        for name in keys:
            del data[section][name]
    (run_dir / "checkpoints").mkdir(parents=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    state = {
        "env_id": "potsm_v0", "timesteps": 100, "stage": 0, "best_score": -1.0, "best_timesteps": None,
        "next_eval": 10**9, "next_checkpoint": 10**9, "next_snapshot": 0, "wall_seconds": 0.0, "evaluations": [],
        "pool": pool_to_state(SelfPlayPool(mix={"random": 1.0}), run_dir),
    }  # fmt: skip
    shutil.copy(shipped / "model.zip", run_dir / "checkpoints" / "step_0000000100.zip")
    (run_dir / "checkpoints" / "step_0000000100.json").write_text(json.dumps(state))
    return data


def test_resume_reads_an_old_runs_config_yaml(tmp_path):
    """--resume on a run whose config.yaml predates run.update_threads, vec_env.workers, network.action_embed
    and ppo.value_warmup_steps and still has vec_env.lockstep: false: the run's TrainConfig has the schema
    defaults of the missing keys, the resumed run rewrites config.yaml complete in today's spelling, and
    training.apps.ship reads the old file the same way."""
    from training.apps.ship import read_run_config
    from training.train import prepare_run, train

    drop = {
        "run": ["update_threads"],
        "vec_env": ["workers"],
        "network": ["action_embed"],
        "ppo": ["value_warmup_steps"],
    }
    run_dir = tmp_path / "run"
    old_run(run_dir, drop)
    shipped_config = read_run_config(run_dir)
    assert isinstance(shipped_config, config_types.TrainConfig) and shipped_config.run.update_threads is None

    run = prepare_run(None, [], str(run_dir))
    try:
        config = run.config
        assert isinstance(config, config_types.TrainConfig)
        assert config.run.update_threads is None and config.vec_env.kind == "dummy" and config.vec_env.workers == 2
        assert config.network.action_embed == 0 and config.ppo.value_warmup_steps == 0
        assert config.network.action_features is True and config.ppo.learning_rate == 5e-05  # the run's own
        assert run.resume is not None and run.resume[0].name == "step_0000000100.zip"
        state = train(config, run.run_dir, run.resume)  # total_timesteps below the checkpoint's: nothing to train
    finally:
        run.close()
    assert state["timesteps"] == 100
    rewritten = yaml.safe_load((run_dir / "config.yaml").read_text())
    for section, keys in drop.items():
        assert all(name in rewritten[section] for name in keys), section
    assert rewritten["run"]["update_threads"] is None and "lockstep" not in rewritten["vec_env"]
    assert rewritten == config.to_dict()
