"""What a ladder fit must give on simulated games of known strengths (tests/test_ladder.py, tests/test_rate.py)."""

from __future__ import annotations

import pytest

from training.evaluation.ladder import ANCHOR_RATING


def assert_fit_recovers(fitted: dict, truth: dict[str, float], tolerance: float = 40.0) -> None:
    """The anchor at 1500 exactly; every rating inside its own interval, within ``tolerance`` of the truth, and the
    truth inside its interval (5 points of slack for the bootstrap's grain)."""
    assert fitted["heuristic"] == {"rating": ANCHOR_RATING, "ci95": [ANCHOR_RATING, ANCHOR_RATING]}
    for label, rating in truth.items():
        low, high = fitted[label]["ci95"]
        assert low <= fitted[label]["rating"] <= high
        assert fitted[label]["rating"] == pytest.approx(rating, abs=tolerance)
        assert low - 5 <= rating <= high + 5
