"""The learning-curve figure of a run: evaluation win rate per opponent over timesteps (PNG, Agg backend)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt


def plot_learning_curve(
    evaluations: Sequence[dict[str, Any]],
    path: Path,
    title: str,
    chance_level: float | None = None,
    stage_starts: Sequence[tuple[int, str]] = (),
) -> None:
    """Draw win rate (with 95% intervals) vs timesteps for every opponent in ``evaluations``.

    Each evaluation is ``{"timesteps": T, "results": {opponent: {"win_rate", "win_rate_ci95"}}}``.
    ``chance_level`` draws the 1/k line; ``stage_starts`` marks curriculum stages.
    """
    figure, axes = plt.subplots(figsize=(7.5, 4.2), dpi=110)
    opponents: list[str] = []
    for evaluation in evaluations:
        for name in evaluation["results"]:
            if name not in opponents:
                opponents.append(name)
    for name in opponents:
        points = [(e["timesteps"], e["results"][name]) for e in evaluations if name in e["results"]]
        steps = [t for t, _ in points]
        rates = [r["win_rate"] for _, r in points]
        low = [r["win_rate_ci95"][0] for _, r in points]
        high = [r["win_rate_ci95"][1] for _, r in points]
        (line,) = axes.plot(steps, rates, marker="o", markersize=3, label=f"vs {name}")
        axes.fill_between(steps, low, high, color=line.get_color(), alpha=0.15, linewidth=0)
    if chance_level is not None:
        axes.axhline(chance_level, color="grey", linestyle=":", linewidth=1, label=f"chance ({chance_level:.2f})")
    for start, label in stage_starts:
        if start > 0:
            axes.axvline(start, color="black", alpha=0.25, linewidth=1)
            axes.text(start, 1.0, f" {label}", fontsize=7, va="top", alpha=0.6)
    axes.set_ylim(0.0, 1.02)
    axes.set_xlabel("timesteps (learner decisions)")
    axes.set_ylabel("evaluation win rate")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(path).with_name(f".{Path(path).name}.tmp.png")
    figure.savefig(tmp)
    plt.close(figure)
    tmp.replace(path)
