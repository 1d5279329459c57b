"""Tournaments and checkpoint evaluation (``training.evaluation``: ``tournament``, ``stats``, ``evaluate``).

Seating balance, seeding (same seed, any number of workers: same result), heuristic ahead of
random in win rate and OpenSkill rating, sane Wilson intervals, the JSON/Markdown reports, and
exit code 2 with a clear message for every kind of bad input.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from math import comb

import pytest

import pirate_envs
from training.evaluation.evaluate import evaluate_checkpoint, main
from training.evaluation.stats import openskill_ratings, placements, wilson_interval
from training.evaluation.tournament import lineups, run_tournament, seating
from training.inputs import InputError

ENV_ID = "potsm_v0"


def without_run(result: dict) -> dict:
    """A result minus its timing/worker section, which is allowed to differ between runs."""
    return {k: v for k, v in result.items() if k != "run"}


# --- seating ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("num_policies", [1, 2, 3, 4, 5])
def test_seating_gives_every_policy_every_seat_equally_often(num_policies, num_players):
    period = num_players * len(lineups(num_policies, num_players))
    counts = Counter()
    for g in range(2 * period):
        seats = seating(g, num_policies, num_players)
        assert len(seats) == num_players
        if 1 < num_policies <= num_players:
            assert seats.count(0) == 1  # the focal policy holds exactly one seat
            assert set(seats) == set(range(num_policies))  # and every policy plays every game
        elif num_policies > num_players:
            assert len(set(seats)) == num_players
        counts.update((p, seat) for seat, p in enumerate(seats))
    for p in range(num_policies):
        assert len({counts[p, seat] for seat in range(num_players)}) == 1, (p, counts)


def test_more_policies_than_seats_cycles_through_every_subset():
    seen = {frozenset(seating(g, 5, 3)) for g in range(3 * comb(5, 3))}
    assert seen == {frozenset(c) for c in combinations(range(5), 3)}


def test_one_focal_policy_against_three_copies():
    assert [seating(g, 2, 4) for g in range(4)] == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]


# --- statistics --------------------------------------------------------------------------------------


def test_wilson_interval_is_sane():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 20)[0] == 0.0 and 0 < wilson_interval(0, 20)[1] < 0.2
    assert wilson_interval(20, 20)[1] == 1.0 and 0.8 < wilson_interval(20, 20)[0] < 1
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for wins, games in [(1, 3), (7, 40), (333, 1000)]:
        low, high = wilson_interval(wins, games)
        assert 0 <= low < wins / games < high <= 1

    def width(wins: int, games: int) -> float:
        low, high = wilson_interval(wins, games)
        return high - low

    assert width(300, 1000) < width(30, 100) < width(3, 10)


def test_placements_by_winner_then_return_then_score():
    assert placements([1, -1, -1], [5, 9, 7], winners=[0]) == [1, 2, 3]
    assert placements([0, 0, 0], [5, 5, 7]) == [2, 2, 1]


def test_openskill_ranks_the_better_policy_first():
    games = [((0, 1, 1), (1, 2, 3)), ((1, 0, 1), (2, 1, 3)), ((1, 1, 0), (3, 2, 1))] * 5
    ratings = openskill_ratings(["good", "bad"], games)
    assert ratings["good"]["mu"] > 25 > ratings["bad"]["mu"]
    assert ratings["good"]["ordinal"] == pytest.approx(ratings["good"]["mu"] - 3 * ratings["good"]["sigma"])


# --- tournaments -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def heuristic_vs_random():
    return run_tournament(ENV_ID, 4, ["heuristic", "random"], games=80, seed=7)


def test_heuristic_beats_random_with_a_clear_margin(heuristic_vs_random):
    standings = heuristic_vs_random["standings"]
    heuristic, random_ = standings["heuristic"], standings["random"]
    assert heuristic["seat_games"] == 80 and random_["seat_games"] == 240
    assert heuristic["seat_counts"] == [20, 20, 20, 20] and heuristic_vs_random["balanced"]
    # Fair share is 25%: the heuristic's whole 95% interval lies above it, random's below.
    assert heuristic["win_rate_ci95"][0] > heuristic_vs_random["fair_win_rate"] > random_["win_rate_ci95"][1]
    assert heuristic["mean_score"] > random_["mean_score"]
    assert heuristic["wins"] + random_["wins"] == 80 - heuristic_vs_random["truncated_games"]


def test_openskill_rates_heuristic_above_random(heuristic_vs_random):
    ratings = {label: s["rating"] for label, s in heuristic_vs_random["standings"].items()}
    assert ratings["heuristic"]["ordinal"] > ratings["random"]["ordinal"]
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"]


def test_ci_bounds_contain_the_win_rate(heuristic_vs_random):
    for s in heuristic_vs_random["standings"].values():
        low, high = s["win_rate_ci95"]
        assert 0.0 <= low <= s["win_rate"] <= high <= 1.0
        assert high - low < 0.35


def test_same_seed_same_result_and_other_seed_differs():
    first = run_tournament(ENV_ID, 3, ["heuristic", "random"], games=12, seed=11, keep_games=True)
    again = run_tournament(ENV_ID, 3, ["heuristic", "random"], games=12, seed=11, keep_games=True)
    other = run_tournament(ENV_ID, 3, ["heuristic", "random"], games=12, seed=12, keep_games=True)
    assert without_run(first) == without_run(again)
    assert first["game_records"] != other["game_records"]


def test_workers_do_not_change_the_result():
    args = dict(env_id=ENV_ID, num_players=3, policies=["random", "heuristic", "random"], games=12, seed=5)
    one = run_tournament(**args, workers=1, keep_games=True)
    two = run_tournament(**args, workers=2, keep_games=True)
    assert two["run"]["workers"] == 2
    assert without_run(one) == without_run(two)
    assert one["policies"] == ["random", "heuristic", "random#2"]


def test_policies_may_be_labelled_objects_and_callables():
    def first_legal(observation, action_mask, rng):
        return int(action_mask.nonzero()[0][0])

    result = run_tournament(ENV_ID, 2, {"first": first_legal, "rnd": pirate_envs.RandomPolicy()}, games=4, seed=0)
    assert set(result["standings"]) == {"first", "rnd"}
    assert sum(s["seat_games"] for s in result["standings"].values()) == 8


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_every_registered_game_runs_a_tournament(env_id):
    result = run_tournament(env_id, None, ["heuristic", "random"], games=2, seed=0)
    assert result["games"] == 2 and result["env_id"] == env_id


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(env_id="nope_v0"), "unknown env id 'nope_v0'"),
        (dict(policies=["random", "wizard"]), "unknown policy 'wizard'"),
        (dict(policies=["missing/model.zip"]), "checkpoint not found: missing/model.zip"),
        (dict(num_players=9), "num_players must be one of"),
        (dict(options={"colour": "red"}), "unknown option"),
        (dict(games=0), "games must be a positive integer"),
        (dict(policies=[]), "no policies given"),
    ],
)
def test_bad_input_raises_input_error(kwargs, message):
    args = dict(env_id=ENV_ID, num_players=4, policies=["random"], games=2, seed=0) | kwargs
    with pytest.raises(InputError, match=message):
        run_tournament(**args)


def test_evaluate_checkpoint_missing_file():
    with pytest.raises(InputError, match="checkpoint not found"):
        evaluate_checkpoint("no/such/model.zip", ENV_ID, 4, games=2)


# --- command line ------------------------------------------------------------------------------------


def test_cli_writes_json_and_markdown_and_prints_the_table(tmp_path, capsys):
    code = main(
        ["--env", ENV_ID, "--num-players", "2", "--policies", "heuristic", "random", "--games", "6", "--seed", "3",
         "--option", "reward_mode=score", "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    data = json.loads((tmp_path / "tournament.json").read_text())
    markdown = (tmp_path / "tournament.md").read_text()
    assert data["games"] == 6 and data["options"]["reward_mode"] == "score"
    assert set(data["standings"]) == {"heuristic", "random"}
    assert "| policy | seat-games | wins | win rate | 95% CI |" in markdown
    assert markdown.count("\n| `") == 2
    assert markdown in printed


def test_cli_out_may_name_the_json_file(tmp_path, capsys):
    target = tmp_path / "sub" / "eval.json"
    assert main(["--env", ENV_ID, "--policies", "random", "--games", "2", "--out", str(target)]) == 0
    assert target.exists() and target.with_suffix(".md").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--env", "nope_v0", "--policies", "random"], "unknown env id 'nope_v0'; registered env ids: potsm_v0"),
        (["--env", ENV_ID, "--policies", "random", "wizard"], "unknown policy 'wizard'"),
        (["--env", ENV_ID, "--policies", "gone/model.zip"], "checkpoint not found: gone/model.zip"),
        (["--env", ENV_ID, "--checkpoint", "gone.zip"], "checkpoint not found: gone.zip"),
        (["--env", ENV_ID, "--policies", "random", "--option", "colour=red"], "unknown option(s) 'colour'"),
        (["--env", ENV_ID, "--policies", "random", "--option", "reward_mode=fame"], "option 'reward_mode'"),
        (["--env", ENV_ID, "--policies", "random", "--option", "max_decisions=many"], "option 'max_decisions'"),
        (["--env", ENV_ID, "--policies", "random", "--option", "novalue"], "--option needs key=value"),
        (["--env", ENV_ID, "--policies", "random", "--num-players", "7"], "num_players must be one of (2, 3, 4)"),
        (["--env", ENV_ID, "--policies", "random", "--games", "0"], "games must be a positive integer"),
        (["--env", ENV_ID, "--policies", "random", "--workers", "0"], "workers must be a positive integer"),
    ],
)
def test_cli_bad_input_exits_2_with_a_message(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err


def test_cli_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--env", ENV_ID])  # neither --policies nor --checkpoint
    assert exit_info.value.code == 2


# --- checkpoints -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def untrained_checkpoint(tmp_path_factory):
    """An untrained MaskablePPO zip for potsm_v0 at 2 players (tiny network, no training)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = pirate_envs.make_gym(ENV_ID, seat=0, opponents="random", num_players=2)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [16]})  # fmt: skip
    path = tmp_path_factory.mktemp("ckpt") / "model.zip"
    model.save(path)
    return path


def test_evaluate_checkpoint_against_each_opponent(untrained_checkpoint):
    report = evaluate_checkpoint(untrained_checkpoint, ENV_ID, 2, opponents=("random", "heuristic"), games=6, seed=1)
    assert set(report["vs"]) == {"random", "heuristic"} and report["checkpoint"] == str(untrained_checkpoint)
    for vs in report["vs"].values():
        assert vs["games"] == 6 and sum(vs["wins_by_seat"]) == vs["wins"]
        low, high = vs["win_rate_ci95"]
        assert 0 <= low <= vs["win_rate"] <= high <= 1


def test_cli_checkpoint_mode_writes_eval_report(untrained_checkpoint, tmp_path, capsys):
    argv = ["--env", ENV_ID, "--num-players", "2", "--checkpoint", str(untrained_checkpoint), "--vs", "random",
            "--games", "4", "--out", str(tmp_path)]  # fmt: skip
    assert main(argv) == 0
    data = json.loads((tmp_path / "eval.json").read_text())
    assert list(data["vs"]) == ["random"] and data["num_players"] == 2
    assert "| `random` | 4 |" in (tmp_path / "eval.md").read_text()
    assert "| opponents | games | wins | win rate | 95% CI |" in capsys.readouterr().out


def test_cli_checkpoint_for_another_player_count_exits_2(untrained_checkpoint, capsys):
    argv = ["--env", ENV_ID, "--num-players", "4", "--policies", str(untrained_checkpoint), "random"]
    assert main(argv) == 2
    assert "cannot play" in capsys.readouterr().err


def test_cli_evaluates_an_rllib_checkpoint_given_by_a_relative_path(tmp_path, monkeypatch, capsys):
    """The README's ``--checkpoint runs/rllib-quickstart/final``: a relative path failed in RLlib with
    ``URI has empty scheme``. A one-module checkpoint in the layout ``rllib_train`` writes, no training."""
    pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (the rllib extra)")
    from pirate_envs.core.registry import make
    from pirate_envs.interop.rllib import FEATURES_KEY, MaskedPPOTorchRLModule

    aec = make(ENV_ID, num_players=2)
    module = MaskedPPOTorchRLModule(
        observation_space=aec.observation_space("player_0"),
        action_space=aec.action_space("player_0"),
        model_config={"fcnet_hiddens": [8], FEATURES_KEY: "flat"},
    )
    module.save_to_path(str(tmp_path / "runs" / "rl" / "final" / "learner_group" / "learner" / "rl_module" / "shared"))
    monkeypatch.chdir(tmp_path)
    argv = ["--env", ENV_ID, "--num-players", "2", "--checkpoint", "runs/rl/final", "--vs", "random", "--games", "2"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "| `random` | 2 |" in capsys.readouterr().out
