"""The opponent curriculum: which opponent mix is active at a given timestep.

Config ``opponents.stages`` is a list of ``{until: T, mix: {opponent: weight}}``; stage ``i`` is
active from the previous stage's ``until`` up to (not including) its own, and the last stage
(``until: null``) runs to the end. Mix keys are ``random``, ``heuristic``, a checkpoint path, or
``selfplay`` (a snapshot of the learner from the run's :class:`~pirate_envs.SelfPlayPool`).
A typical schedule: random -> random + heuristic -> heuristic + self-play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pirate_envs.policies.selfplay import SELFPLAY

if TYPE_CHECKING:
    from .config_types import TrainConfig


class OpponentSchedule:
    """The stages of ``opponents.stages`` (already validated by ``training.config``)."""

    def __init__(self, stages: Sequence[dict[str, Any]]) -> None:
        self.stages = [dict(stage) for stage in stages]

    @classmethod
    def from_config(cls, config: TrainConfig) -> OpponentSchedule:
        """The schedule of a run's ``config.opponents.stages``."""
        return cls(config.opponents.stages)

    def stage_at(self, timesteps: int) -> int:
        for index, stage in enumerate(self.stages):
            if stage["until"] is None or timesteps < stage["until"]:
                return index
        return len(self.stages) - 1

    def mix(self, stage: int) -> dict[str, float]:
        return dict(self.stages[stage]["mix"])

    def uses_selfplay(self, stage: int) -> bool:
        return self.stages[stage]["mix"].get(SELFPLAY, 0.0) > 0

    def start_of(self, stage: int) -> int:
        return 0 if stage == 0 else int(self.stages[stage - 1]["until"])

    def describe(self, stage: int) -> str:
        """``"heuristic 0.3 + selfplay 0.7"`` — the stage's mix as weight shares."""
        mix = self.stages[stage]["mix"]
        total = sum(mix.values())
        return " + ".join(f"{name} {weight / total:.2g}" for name, weight in mix.items() if weight > 0)
