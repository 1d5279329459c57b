"""Reference ladders (training/evaluation/ladder.py) and placing a policy on them (``training.evaluation.rate``)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from ladder_fits import assert_fit_recovers

from pirate_envs import ENV_IDS
from pirate_envs.core.registry import game_class
from pirate_envs.policies.spec import parse_policy_spec
from training.evaluation.ladder import (
    ANCHOR_RATING,
    KINDS,
    LadderPlan,
    entries_of,
    entry_kind,
    file_sha256,
    fit_ladder,
    ladder_path,
    load_ladder,
    place,
    schedule_of,
    shipped_model,
    win_probability,
)
from training.evaluation.rate import main as rate_main
from training.evaluation.rate import rate_policy

DMD = "dead_mans_draw_v0"


def _match(focal, opponent, wins, losses, ties=0):
    outcomes = {"1-0": wins, "0-1": losses}
    if ties:
        outcomes["1-1"] = ties
    return {"focal": focal, "opponent": opponent, "games": wins + losses + ties, "seed": 0, "outcomes": outcomes}


def _simulated(truth, pairs, games, num_players, rng):
    matches = []
    for focal, opponent in pairs:
        mine, theirs = 10 ** (truth[focal] / 400), (num_players - 1) * 10 ** (truth[opponent] / 400)
        wins = int(rng.binomial(games, mine / (mine + theirs)))
        matches.append(_match(focal, opponent, wins, games - wins))
    return matches


def test_the_scale_means_elo_odds():
    assert win_probability(1900, 1500) == pytest.approx(10 / 11)
    assert win_probability(1600, 1500) == pytest.approx(0.6401, abs=1e-4)
    assert win_probability(1500, 1500) == 0.5


def test_win_probability_pinned_by_hand():
    """``1 / (1 + (n − 1) · 10^((other − rating) / 400))``, worked out on paper."""
    assert win_probability(1550, 1500) == pytest.approx(0.5714631174083814, rel=1e-12)  # 1 / (1 + 10^(−1/8))
    assert win_probability(1900, 1500, 4) == pytest.approx(10 / 13, rel=1e-12)  # 1 / (1 + 3 · 0.1)
    assert win_probability(1500, 1900, 3) == pytest.approx(1 / 21, rel=1e-12)  # 1 / (1 + 2 · 10)
    assert win_probability(1500, 1500, 6) == 1 / 6  # equals: one seat in six
    assert win_probability(1600, 1500, 2) == win_probability(1600, 1500)  # two seats by default


@pytest.mark.parametrize("num_players", [2, 4])
def test_version_1_fit_recovers_known_ratings_with_the_anchor_at_1500(num_players):
    truth = {"random": 1050.0, "heuristic": 1500.0, "strong": 1650.0, "weak": 1300.0}
    pairs = [("heuristic", "random"), ("strong", "random"), ("strong", "heuristic"), ("weak", "heuristic")]
    pairs.append(("weak", "random"))
    matches = _simulated(truth, pairs, 4000, num_players, np.random.default_rng(3))
    fitted = fit_ladder(list(truth), matches, num_players, bootstrap=200)
    assert_fit_recovers(fitted, truth)


def test_version_1_ties_count_half_and_the_prior_keeps_a_hopeless_entry_finite():
    only_ties = [_match("a", "heuristic", 0, 0, ties=50)]
    assert fit_ladder(["heuristic", "a"], only_ties, 2, bootstrap=0)["a"]["rating"] == pytest.approx(1500, abs=0.01)
    # Breslow: each tie is one win and one loss for each side; 30 wins, 10 losses, 20 ties: odds 50:30
    mixed = [_match("a", "heuristic", 30, 10, ties=20)]
    assert fit_ladder(["heuristic", "a"], mixed, 2, bootstrap=0)["a"]["rating"] == pytest.approx(
        1500 + 400 * np.log10(50 / 30), abs=0.5
    )
    never = fit_ladder(["heuristic", "a"], [_match("a", "heuristic", 0, 200)], 2, bootstrap=50)["a"]
    assert 0 < never["rating"] < 1000 and np.isfinite(never["ci95"]).all()


def test_place_holds_the_references_fixed():
    rng = np.random.default_rng(5)
    truth = {"random": 1000.0, "heuristic": 1500.0, "new": 1400.0}
    matches = _simulated(truth, [("new", "random"), ("new", "heuristic")], 3000, 4, rng)
    placed = place({"random": 1000.0, "heuristic": 1500.0}, matches, 4, bootstrap=200, label="new")
    assert placed["ci95"][0] <= 1400 <= placed["ci95"][1] and placed["rating"] == pytest.approx(1400, abs=30)
    moved = place({"random": 1100.0, "heuristic": 1600.0}, matches, 4, bootstrap=0, label="new")
    assert moved["rating"] == pytest.approx(placed["rating"] + 100, abs=1.0)  # the references do not move


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_shipped_ladders_are_complete_and_refit_to_their_ratings(env_id):
    ladder = load_ladder(env_id)
    assert ladder["num_players"] == game_class(env_id)().num_players  # the default player count
    plan = LadderPlan.from_json(ladder["plan"])
    assert list(ladder["entries"]) == list(entries_of(env_id, plan))
    assert [(m["focal"], m["games"], m["seed"]) for m in ladder["matches"]] == [
        (focal, games, plan.seed + k) for k, (focal, games) in enumerate(schedule_of(env_id, plan))
    ]
    kinds = [entry["kind"] for entry in ladder["entries"].values()]
    assert set(kinds) <= set(KINDS) and kinds.count("search") == 8 and kinds.count("agent+search") == 1
    searches = [parse_policy_spec(label) for label in ladder["entries"] if entry_kind(label) == "search"]
    for head, rollout in itertools.product(("ismcts", "flatmc"), ("heuristic", "random")):  # two budgets each
        assert sum(s.kind == head and f"rollout={rollout}" in s.params for s in searches) == 2
    assert ladder["references"] == list(plan.references) == ["random", "heuristic"]
    assert {"random", "heuristic", "shipped"} <= set(ladder["entries"])
    assert ladder["entries"]["heuristic"]["rating"] == ANCHOR_RATING
    for entry in ladder["entries"].values():
        low, high = entry["ci95"]
        assert low <= entry["rating"] <= high and entry["games"] > 0 and entry["seeds"]
    refit = fit_ladder(list(ladder["entries"]), ladder["matches"], ladder["num_players"], seed=plan.seed,
                       references=ladder["references"])  # fmt: skip
    assert refit == {k: {"rating": v["rating"], "ci95": v["ci95"]} for k, v in ladder["entries"].items()}
    assert ladder["entries"]["random"]["rating"] < ANCHOR_RATING


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_shipped_entry_rates_the_shipped_model(env_id):
    assert load_ladder(env_id)["shipped_sha256"] == file_sha256(shipped_model(env_id)), (
        f"checkpoints/{env_id}/model.zip changed since its ladder was built: "
        f"python -m training.evaluation.ladder --env {env_id} --replay shipped"
    )


def test_rating_the_heuristic_afresh_lands_on_its_entry(capsys):
    assert rate_main(["--env", DMD, "--policy", "heuristic", "--games", "150", "--seed", "7", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ladder_entry"] == "heuristic" and report["ladder_rating"] == ANCHOR_RATING
    low, high = report["ci95"]
    assert low <= ANCHOR_RATING <= high and low <= report["rating"] <= high and high - low < 250
    assert report["games"] == 150 and set(report["references"]) == {"random", "heuristic"} and report["ladder_tables"]


def test_the_same_seed_gives_the_same_figure():
    first, again = (rate_policy(DMD, "heuristic", games=40, seed=3, references=["random", "heuristic"]) for _ in "ab")
    assert first == again
    assert rate_policy(DMD, "heuristic", games=40, seed=4, references=["random", "heuristic"]) != first


def test_rate_places_module_callable_and_names_shipped(capsys):
    weak = rate_policy(DMD, "pirate_envs.policies.base:RandomPolicy", games=60, references=["heuristic"])
    assert weak["rating"] < 1300 and "ladder_rating" not in weak
    shipped = rate_policy(DMD, str(shipped_model(DMD)), games=4, references=["random"])
    assert shipped["ladder_entry"] == "shipped"
    assert rate_main(["--env", DMD, "--policy", "random", "--games", "4", "--references", "random"]) == 0
    assert capsys.readouterr().out.startswith("rating ")


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--policy", "heuristic", "--references", "nobody"], "unknown references"),
        (["--policy", "nonsense"], "unknown policy"),
        (["--policy", "no_such_module_x:thing"], "cannot import"),
        (["--policy", "heuristic", "--num-players", "3"], "ladder is played at 2 players"),
        (["--policy", "heuristic", "--ladder", "/nonexistent/ladder.json"], "no usable ladder"),
    ],
)
def test_rate_usage_errors(capsys, extra, message):
    assert rate_main(["--env", DMD, *extra]) == 2
    assert message in capsys.readouterr().err


def test_ladder_path_is_beside_the_shipped_model():
    assert ladder_path(DMD).parent == shipped_model(DMD).parent
