"""``training.rllib_train`` config checks: bad input stops before Ray starts (no ray install needed)."""

from __future__ import annotations

import socket
import sys

import pytest

pytest.importorskip("yaml")

from training.config import ConfigError
from training.rllib_train import check_address, check_extra, main, validate_rllib_config

BASE = {"env": {"id": "potsm_v0", "options": {"num_players": 2}}, "run": {"iterations": 1}}


def with_(section: str, **values):
    data = {key: dict(value) for key, value in BASE.items()}
    data.setdefault(section, {}).update(values)
    return data


def test_defaults_filled_in():
    config = validate_rllib_config(BASE)
    assert config["policies"]["mode"] == "shared"
    assert config["env_runners"]["num_env_runners"] == 0
    assert config["ray"]["address"] is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (with_("ppo", learning_rate=1e-4), r"ppo\.learning_rate: unknown key.*allowed keys in 'ppo': lr"),
        ({**BASE, "env_runner": {}}, r"env_runner: unknown key \(did you mean 'env_runners'\?\)"),
        (with_("policies", mode="league"), r"policies\.mode.*one of 'shared', 'per_seat'"),
        (with_("env_runners", num_env_runners=-1), r"env_runners\.num_env_runners: out of range"),
        (with_("ppo", minibatch_size=8000), r"ppo\.minibatch_size: 8000 is larger than ppo\.train_batch_size"),
        ({**BASE, "env": {"id": "potsm"}}, r"env\.id: unknown env id 'potsm' \(did you mean 'potsm_v0'\?\)"),
        ({**BASE, "env": {"id": "potsm_v0", "options": {"num_players": 9}}}, r"env\.options"),
        ({"env": {"id": "potsm_v0"}}, r"run\.iterations: is required"),
    ],
)
def test_bad_config_named(data, message):
    with pytest.raises(ConfigError, match=message):
        validate_rllib_config(data)


def test_unreachable_ray_address_fails_fast():
    with socket.socket() as probe:  # a local port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConfigError, match=r"ray\.address: cannot reach the Ray cluster at '127\.0\.0\.1:\d+'"):
        check_address(f"127.0.0.1:{port}", timeout=2)
    with pytest.raises(ConfigError, match=r"ray\.address: 'nowhere' is not an address"):
        check_address("nowhere")
    check_address(None)
    check_address("auto")


def test_missing_extra_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ConfigError, match=r"needs the 'rllib' extra.*pip install -c constraints\.txt -e '\.\[rllib\]'"):
        check_extra()


def test_command_line_exit_status(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("env: {id: potsm_v0}\nrun: {iterations: 1}\nppo: {n_steps: 5}\n")
    assert main([str(config)]) == 2
    assert "ppo.n_steps: unknown key" in capsys.readouterr().err
    config.write_text("env: {id: potsm_v0}\nrun: {iterations: 1}\nray: {address: '127.0.0.1:1'}\n")
    assert main([str(config)]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Ray cluster" in err or "needs the 'rllib' extra" in err  # whichever is missing first


def test_shipped_rllib_configs_are_valid():
    from pathlib import Path

    import pirate_envs
    from training.rllib_train import load_rllib_config

    # configs/rllib/ and not configs/: the SB3 trainer's test validates every configs/*.yaml with its own schema
    paths = sorted((Path(__file__).resolve().parents[1] / "configs" / "rllib").glob("*.yaml"))
    assert paths
    for path in paths:
        assert load_rllib_config(path)["env"]["id"] in pirate_envs.ENV_IDS
