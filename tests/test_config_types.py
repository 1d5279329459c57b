"""The typed training config (training/config_types.py) and docs/training.md's reference table agree with
``training.config.SCHEMA``, the one source of every key's type, default, allowed values and help.

A key added to the schema without regenerating the dataclasses (``python -m training.config
--write-types``) or without its row in the docs' table fails here, naming the key.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from training import config_types
from training.config import (
    REQUIRED,
    SCHEMA,
    ConfigError,
    field_type,
    load_config,
    load_typed_config,
    section_class_name,
    validate_config,
)

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "regenerate training/config_types.py with: .venv/bin/python -m training.config --write-types"
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def test_dataclasses_are_the_schema():
    train_fields = [f.name for f in dataclasses.fields(config_types.TrainConfig)]
    assert train_fields == list(SCHEMA), f"TrainConfig sections differ from the schema; {REGENERATE}"
    for section, keys in SCHEMA.items():
        cls = getattr(config_types, section_class_name(section), None)
        assert cls is not None and config_types.SECTIONS[section] is cls, f"no dataclass for {section!r}; {REGENERATE}"
        fields = {f.name: f for f in dataclasses.fields(cls)}
        assert set(fields) == set(keys), (
            f"{section}: dataclass fields {sorted(fields)} != schema keys {sorted(keys)}; {REGENERATE}"
        )
        for name, key in keys.items():
            got = fields[name]
            where = f"{section}.{name}"
            assert got.type == field_type(key), f"{where}: type {got.type} != {field_type(key)}; {REGENERATE}"
            if key.default is REQUIRED:
                assert got.default is dataclasses.MISSING and got.default_factory is dataclasses.MISSING, where
            else:
                default = got.default if got.default_factory is dataclasses.MISSING else got.default_factory()
                assert default == key.default, f"{where}: default {default!r} != {key.default!r}; {REGENERATE}"
            assert dict(got.metadata) == {"help": key.doc, "allowed": key.allowed()}, f"{where}: help; {REGENERATE}"


def _split_top_level(text: str) -> list[str]:
    """``"10, 512, 1e-3"`` -> three parts; commas inside brackets or braces do not split."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


def _docs_value(text: str) -> Any:
    text = text.strip().strip("`")
    if text == "required":
        return REQUIRED
    if NUMBER.match(text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    if text.startswith(("[", "{")) or text in ("null", "true", "false"):
        return yaml.safe_load(text)
    return text


def docs_table() -> dict[str, Any]:
    """Key -> default of every row of docs/training.md's "Config reference" table."""
    doc = (ROOT / "docs" / "training.md").read_text()
    part = doc.split("## Config reference", 1)[1].split("\n## ", 1)[0]
    table: dict[str, Any] = {}
    for row in (line for line in part.splitlines() if line.startswith("| `")):
        key_cell, default_cell = row.strip("|").split("|")[:2]
        keys = re.findall(r"`([^`]+)`", key_cell)
        section = keys[0].split(".")[0]
        keys = [f"{section}{k}" if k.startswith(".") else k for k in keys]
        defaults = _split_top_level(default_cell.strip())
        if len(defaults) == 1:
            defaults *= len(keys)
        assert len(defaults) == len(keys), f"docs/training.md row {row!r}: one default per key"
        table.update({key: _docs_value(value) for key, value in zip(keys, defaults, strict=True)})
    return table


def test_docs_reference_table_is_the_schema():
    table = docs_table()
    schema_keys = {f"{section}.{name}" for section, keys in SCHEMA.items() for name in keys}
    missing, extra = sorted(schema_keys - set(table)), sorted(set(table) - schema_keys)
    assert not missing and not extra, (
        f"docs/training.md's config reference table and the schema differ: keys missing from the docs {missing}, "
        f"keys not in the schema {extra}"
    )
    for key, documented in table.items():
        section, name = key.split(".")
        want = SCHEMA[section][name].default
        assert documented == want or (documented is REQUIRED and want is REQUIRED), (
            f"docs/training.md gives {key} the default {documented!r}; the schema has {want!r}"
        )


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


# --- the training modules take the TrainConfig -------------------------------------------------------------
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
    """A run directory from before the keys in ``drop`` existed: its config.yaml lacks them; its one
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
        for key in keys:
            del data[section][key]
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
    """--resume on a run whose config.yaml predates run.update_threads, vec_env.lockstep, vec_env.workers,
    network.action_embed and ppo.value_warmup_steps: the run's TrainConfig has their schema defaults, the
    resumed run rewrites config.yaml complete, and training.apps.ship reads the old file the same way."""
    from training.apps.ship import read_run_config
    from training.train import prepare_run, train

    drop = {
        "run": ["update_threads"],
        "vec_env": ["lockstep", "workers"],
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
        assert config.run.update_threads is None and config.vec_env.lockstep is False and config.vec_env.workers == 2
        assert config.network.action_embed == 0 and config.ppo.value_warmup_steps == 0
        assert config.network.action_features is True and config.ppo.learning_rate == 5e-05  # the run's own
        assert run.resume is not None and run.resume[0].name == "step_0000000100.zip"
        state = train(config, run.run_dir, run.resume)  # total_timesteps below the checkpoint's: nothing to train
    finally:
        run.close()
    assert state["timesteps"] == 100
    rewritten = yaml.safe_load((run_dir / "config.yaml").read_text())
    for section, keys in drop.items():
        assert all(key in rewritten[section] for key in keys), section
    assert rewritten["run"]["update_threads"] is None and rewritten["vec_env"]["lockstep"] is False
    assert rewritten == config.to_dict()
