"""The sequential probability ratio test of ``training.evaluation.evaluate --sprt`` (training/evaluation/sprt.py)."""

from __future__ import annotations

import math
import re

import pytest

from training.evaluation.evaluate import main as evaluate_main
from training.evaluation.ladder import win_probability
from training.evaluation.sprt import SPRT, game_score, run_sprt, sprt_bounds
from training.inputs import InputError

DMD = "dead_mans_draw_v0"


def test_bounds_and_the_ladder_scale():
    assert sprt_bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))
    # H0/H1 are "A's seat is elo points above each B seat": the ladder's formula at that distance
    assert win_probability(0, 0, 2) == 0.5
    assert win_probability(0, 0, 4) == 0.25  # one seat among four equals
    assert win_probability(400, 0, 2) == pytest.approx(10 / 11)  # 400 points: 10:1 odds
    assert win_probability(400, 0, 4) == pytest.approx(10 / 13)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_hypotheses_are_the_ladder_formula_exactly(num_players):
    """p0 and p1 are bit for bit what ``1 / (1 + (n − 1) · 10^(−elo/400))`` gives (the SPRT's own formula before
    it shared the ladder's function): every seeded test decides after the same games."""
    result = run_sprt("potsm_v0", num_players, "random", "random", elo0=-25.0, elo1=50.0, max_games=1)
    assert result["p0"] == 1.0 / (1.0 + (num_players - 1) * 10.0 ** (25.0 / 400.0))
    assert result["p1"] == 1.0 / (1.0 + (num_players - 1) * 10.0 ** (-50.0 / 400.0))


def test_game_score_shares_the_win():
    assert game_score([0], [0]) == 1.0
    assert game_score([1], [0]) == 0.0
    assert game_score([0, 1], [0]) == 0.5  # a Dead Man's Draw tie: both win (DMD rules), half each
    assert game_score([0, 3], [1]) == 0.0
    assert game_score([], [0]) is None  # no winner (truncated): scores nothing


def test_wald_steps_and_decisions():
    test = SPRT(0.5, 0.6, 0.05, 0.05)
    wins_needed = math.ceil(math.log(19) / math.log(0.6 / 0.5))
    for k in range(1, wins_needed + 1):
        decision = test.add(1.0)
        assert decision == ("H1" if k == wins_needed else None)
    assert test.scored == wins_needed and test.llr == pytest.approx(wins_needed * math.log(1.2))
    test.add(0.0)  # nothing changes after the decision
    assert test.scored == wins_needed

    losing = SPRT(0.5, 0.6)
    while losing.decision is None:
        losing.add(0.0)
    assert losing.decision == "H0" and losing.llr <= losing.lower

    tie = SPRT(0.5, 0.6)
    tie.add(0.5)
    assert tie.llr == pytest.approx(0.5 * math.log(1.2) + 0.5 * math.log(0.4 / 0.5))
    tie.add(None)  # a game without a winner is not scored
    assert tie.scored == 1


def test_bad_bounds_are_input_errors():
    with pytest.raises(InputError, match="p0 < p1"):
        SPRT(0.6, 0.5)
    with pytest.raises(InputError, match="alpha"):
        SPRT(0.5, 0.6, alpha=0.7)
    with pytest.raises(InputError, match="elo1 must be above"):
        run_sprt(DMD, None, "heuristic", "random", elo0=10, elo1=10)


def _games(text: str) -> int:
    return int(re.search(r"(\d+) games played", text).group(1))


def test_sprt_decides_heuristic_against_random_in_few_games(capsys):
    assert evaluate_main(["--env", DMD, "--policies", "heuristic", "random", "--sprt", "--seed", "0"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("SPRT: H1 accepted") and "LLR" in line
    assert _games(line) < 100  # a fixed-size test would play 1,000
    result = run_sprt(DMD, None, "heuristic", "random", seed=0)
    assert result["decision"] == "H1" and result["games"] == _games(line)  # the same seed, the same games
    assert result["llr"] >= result["bounds"][1]


def test_sprt_accepts_h0_for_the_weaker_policy():
    result = run_sprt(DMD, None, "random", "heuristic", seed=0)
    assert result["decision"] == "H0" and result["llr"] <= result["bounds"][0] and result["games"] < 100


def test_games_cap_the_test(capsys):
    args = ["--env", DMD, "--policies", "heuristic", "random", "--sprt", "--games", "3"]
    assert evaluate_main(args) == 0
    line = capsys.readouterr().out
    assert "SPRT: no decision" in line and _games(line) == 3
    assert evaluate_main([*args[:-1], "10", "--elo1", "1000", "--alpha", "0.01"]) == 0
    assert "elo1=1000" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--policies", "heuristic", "random", "random"], "exactly two"),
        (["--policies", "heuristic", "random", "--elo0", "60"], "elo1 must be above"),
        (["--policies", "heuristic", "random", "--beta", "0.9"], "beta"),
        (["--policies", "heuristic", "nonsense"], "unknown policy"),
        (["--policies", "heuristic", "random", "--out", "x.json"], "writes no files"),
    ],
)
def test_sprt_usage_errors(capsys, extra, message):
    assert evaluate_main(["--env", DMD, "--sprt", *extra]) == 2
    assert message in capsys.readouterr().err
