"""Expert iteration (training/expert_iteration.py), the expert's tables (training/pretrain.py ``others`` lists)
and the shipped agent's head-to-head table (training/evaluation/head_to_head.py), on tiny budgets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pirate_envs import ENV_IDS
from pirate_envs.networks.checkpoint_policy import load_maskable_ppo
from training import expert_iteration as exit_module
from training.apps.ship import read_run_config
from training.evaluation import head_to_head as h2h
from training.evaluation.ladder import file_sha256, load_ladder, shipped_model
from training.pretrain import collect_teacher_data

DMD = "dead_mans_draw_v0"


def test_every_non_expert_seat_draws_from_the_others_list():
    calls = {"a": 0, "b": 0}

    def first_legal(name):
        def act(observation, action_mask, rng):
            calls[name] += 1
            return int(np.flatnonzero(action_mask)[0])

        return act

    data = collect_teacher_data(DMD, {}, teacher="heuristic", games=12, teacher_share=0.5, seed=3,
                                others=[first_legal("a"), first_legal("b")])  # fmt: skip
    assert calls["a"] > 0 and calls["b"] > 0 and len(data) > 0
    again = collect_teacher_data(DMD, {}, teacher="heuristic", games=12, teacher_share=0.5, seed=3,
                                 others=[first_legal("a"), first_legal("b")])  # fmt: skip
    assert np.array_equal(data.actions, again.actions)  # seeded


def test_one_round_fits_the_start_model_to_the_expert(tmp_path, monkeypatch):
    data_path = tmp_path / "decisions.npz"
    model, report = exit_module.expert_iteration(DMD, "heuristic", games=6, epochs=2, learning_rate=1e-3,
                                                 data_path=data_path)  # fmt: skip
    assert report["decisions"] > 0 and data_path.is_file() and report["teacher_share"] == 0.5
    assert 0.0 <= report["agreement_before"] <= 1.0 and 0.0 <= report["agreement_after"] <= 1.0
    start = load_maskable_ppo(report["start"], device="cpu")
    moved = [
        not np.array_equal(a.detach().numpy(), b.detach().numpy())
        for a, b in zip(model.policy.parameters(), start.policy.parameters(), strict=True)
    ]
    assert any(moved)  # the fit changed the weights

    def no_search(*args, **kwargs):
        raise AssertionError("the stored decisions should have been read back")

    monkeypatch.setattr("training.pretrain.collect_teacher_data", no_search)
    _, again = exit_module.expert_iteration(DMD, "heuristic", games=6, epochs=1, data_path=data_path)
    assert again["decisions"] == report["decisions"]


def test_cli_writes_the_model_and_its_report(tmp_path):
    out = tmp_path / "exit" / "model.zip"
    assert exit_module.main(["--env", DMD, "--expert", "heuristic", "--games", "4", "--epochs", "1", "--out",
                             str(out)]) == 0  # fmt: skip
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["expert"] == "heuristic" and report["games"] == 4
    assert read_run_config(out.parent).env.id == DMD  # the folder ships as a run (training.apps.ship)
    assert load_maskable_ppo(out, device="cpu").action_space.n > 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--env", "chess_v0", "--expert", "heuristic", "--out", "m.zip"], "unknown env id"),
        (["--env", DMD, "--expert", "heuristic", "--out", "m.txt"], "must name a .zip"),
        (["--env", DMD, "--expert", "heuristic", "--out", "m.zip", "--start", "nowhere.zip"], "no model at"),
        (["--env", DMD, "--expert", "heuristic", "--out", "m.zip", "--games", "0"], "at least 1"),
    ],
)
def test_cli_errors_name_what_was_wrong(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert exit_module.main(argv) == 2 and message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_head_to_head_plays_each_pair_and_keeps_the_others(tmp_path, capsys):
    out = tmp_path / "h2h.json"
    assert h2h.main(["--env", DMD, "--entries", "random", "--max-games", "6", "--out", str(out)]) == 0
    table = json.loads(out.read_text())
    pair = table["pairs"]["random"]
    assert pair["games"] <= pair["max_games"] == 6 and pair["kind"] == "random" and table["fair"] == 0.5
    assert pair["ci95"][0] <= pair["win_rate"] <= pair["ci95"][1]
    assert "| `random` | random |" in capsys.readouterr().out
    assert h2h.main(["--env", DMD, "--entries", "heuristic", "--max-games", "4", "--out", str(out)]) == 0
    assert set(json.loads(out.read_text())["pairs"]) == {"random", "heuristic"}  # same agent: merged


def test_head_to_head_names_the_ladder_entries_on_a_typo(capsys):
    assert h2h.main(["--env", DMD, "--entries", "heuristc"]) == 2
    err = capsys.readouterr().err
    assert "heuristc" in err and "heuristic" in err


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_shipped_head_to_head_tables_match_the_shipped_agent_and_ladder(env_id):
    path = h2h.head_to_head_path(env_id)
    assert path.is_file(), f"no head-to-head table: python -m training.evaluation.head_to_head --env {env_id}"
    table = json.loads(path.read_text())
    assert {"random", "heuristic"} <= set(table["pairs"])
    assert table["shipped_sha256"] == file_sha256(shipped_model(env_id)), (
        f"checkpoints/{env_id}/model.zip changed since its head-to-head table was played: "
        f"python -m training.evaluation.head_to_head --env {env_id}"
    )
    ladder = load_ladder(env_id)
    assert set(table["pairs"]) <= set(ladder["entries"]) - {"shipped"}
    for label, pair in table["pairs"].items():
        assert pair["kind"] == ladder["entries"][label]["kind"] and 0 < pair["games"] <= pair["max_games"]
        assert pair["ci95"][0] <= pair["win_rate"] <= pair["ci95"][1]
        assert pair["decision"] in ("H0", "H1", None)
