"""The self-play opponent pool: :class:`SelfPlayPool`.

A pool holds snapshot checkpoints of the learner (paths to MaskablePPO zips, oldest first) and a
*mix*: weights over ``"selfplay"`` (a snapshot) and fixed opponents (``"random"``,
``"heuristic"`` or a checkpoint path). Pass it as ``opponents=`` to ``make_gym``; the env calls
:meth:`SelfPlayPool.sample_opponent` for every opponent seat at every reset, with the env's own
seeded generator. A snapshot draw takes the latest snapshot with probability ``latest_share`` and
otherwise a uniformly chosen older one; until the first snapshot exists, the ``"selfplay"``
weight goes to the fixed opponents (or to ``"random"`` if there are none).

The pool is plain data (paths and numbers): it pickles to subprocess vec envs and round-trips
through :meth:`SelfPlayPool.to_dict` for resumable training. Loaded snapshot networks are cached.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs.core.errors import InvalidOptionError

SELFPLAY = "selfplay"
FIXED_OPPONENTS = ("random", "heuristic")


@lru_cache(maxsize=64)
def _cumulative(weights: tuple[float, ...]) -> list[float]:
    probabilities = np.array(weights, dtype=np.float64)
    probabilities = probabilities / probabilities.sum()
    cdf = probabilities.cumsum()
    cdf /= cdf[-1]
    return cdf.tolist()


def weighted_index(weights: tuple[float, ...], rng: np.random.Generator) -> int:
    """``int(rng.choice(len(weights), p=w / w.sum()))`` for ``w = np.array(weights)``: the same draw (one
    ``rng.random()`` against the same cumulative sums, as numpy's ``Generator.choice`` does) at a fraction of the
    cost of ``choice``'s argument checks, which every opponent seat of every reset paid."""
    return bisect_right(_cumulative(weights), rng.random())


class SelfPlayPool:
    """Snapshots of the learner plus fixed opponents, sampled per opponent seat and episode."""

    def __init__(
        self,
        snapshots: Iterable[str | Path] = (),
        mix: Mapping[str, float] | None = None,
        latest_share: float = 0.5,
        max_snapshots: int | None = None,
        deterministic: bool = False,
    ) -> None:
        mix = dict(mix) if mix is not None else {SELFPLAY: 1.0}
        for name, weight in mix.items():
            if not isinstance(name, str):
                raise InvalidOptionError(f"SelfPlayPool mix keys are opponent names or paths; got {name!r}")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
                raise InvalidOptionError(f"SelfPlayPool mix weight of {name!r} must be a number >= 0; got {weight!r}")
        if sum(mix.values()) <= 0:
            raise InvalidOptionError(f"SelfPlayPool mix needs a positive total weight; got {mix}")
        if not 0.0 <= latest_share <= 1.0:
            raise InvalidOptionError(f"SelfPlayPool latest_share must be in [0, 1]; got {latest_share!r}")
        if max_snapshots is not None and max_snapshots < 1:
            raise InvalidOptionError(f"SelfPlayPool max_snapshots must be >= 1 or None; got {max_snapshots!r}")
        self.mix = {name: float(weight) for name, weight in mix.items()}
        self.latest_share = float(latest_share)
        self.max_snapshots = max_snapshots
        self.deterministic = deterministic
        self._snapshots: list[str] = []
        self._loaded: dict[str, Any] = {}
        for path in snapshots:
            self.add(path)

    # --- snapshots -----------------------------------------------------------------------------
    @property
    def snapshots(self) -> tuple[str, ...]:
        """Snapshot paths, oldest first."""
        return tuple(self._snapshots)

    @property
    def latest(self) -> str | None:
        return self._snapshots[-1] if self._snapshots else None

    def add(self, path: str | Path) -> None:
        """Add a snapshot (the newest); the oldest are dropped beyond ``max_snapshots``."""
        self._snapshots.append(str(path))
        if self.max_snapshots is not None:
            for dropped in self._snapshots[: -self.max_snapshots]:
                self._loaded.pop(dropped, None)
            self._snapshots = self._snapshots[-self.max_snapshots :]

    # --- sampling ------------------------------------------------------------------------------
    def sample_opponent(self, rng: np.random.Generator) -> Any:
        """One opponent: a snapshot's policy, or a fixed opponent spec (``"random"``, ``"heuristic"``, a path)."""
        names = [name for name, weight in self.mix.items() if weight > 0 and (name != SELFPLAY or self._snapshots)]
        if not names:
            return "random"
        name = names[weighted_index(tuple(self.mix[name] for name in names), rng)]
        if name != SELFPLAY:
            return name
        older = self._snapshots[:-1]
        if not older or rng.random() < self.latest_share:
            return self._snapshot_policy(self._snapshots[-1])
        return self._snapshot_policy(older[int(rng.integers(len(older)))])

    def _snapshot_policy(self, path: str) -> Any:
        if path not in self._loaded:
            from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

            self._loaded[path] = CheckpointPolicy(path, deterministic=self.deterministic)
        return self._loaded[path]

    # --- persistence ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "snapshots": list(self._snapshots),
            "mix": dict(self.mix),
            "latest_share": self.latest_share,
            "max_snapshots": self.max_snapshots,
            "deterministic": self.deterministic,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SelfPlayPool:
        return cls(**data)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_loaded"] = {}
        return state

    def __repr__(self) -> str:
        return f"SelfPlayPool({len(self._snapshots)} snapshots, mix={self.mix}, latest_share={self.latest_share})"
