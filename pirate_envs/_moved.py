"""Old import paths of moved modules: they keep working for one release, with a :class:`MovedModuleWarning`.

Release 0.x split ``pirate_envs/core/`` into one folder per job (``adapters``, ``policies``, ``networks``,
``interop``, ``drawing``) and moved the evaluation tools and apps of ``training/`` into
``training/evaluation/`` and ``training/apps/`` (CHANGELOG.md lists every move). :data:`MOVED` is the one
table of those moves. :func:`install` (run when this module is imported, first thing in ``import
pirate_envs``) puts a finder on ``sys.meta_path`` that answers an old name with the new module object itself
(so classes, ``isinstance`` checks and pickles are the same), after a warning; ``python -m training.rate``
(an old command) runs the new module as ``__main__`` the same way.

Pickled references inside checkpoint files are data, not the user's code: :func:`quietly_moved` silences
the warning while a checkpoint loads.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Iterator
from types import CodeType, ModuleType

# old module -> new module, under pirate_envs
PACKAGE_MOVES = {
    "core.aec": "adapters.aec",
    "core.gym_env": "adapters.gym_env",
    "core.env_options": "adapters.checks",
    "core.policy": "policies.base",
    "core.ismcts": "policies.ismcts",
    "core.flatmc": "policies.flatmc",
    "core.rollout": "policies.rollout",
    "core.selfplay": "policies.selfplay",
    "core.checkpoint_policy": "networks.checkpoint_policy",
    "core.action_feature_policy": "networks.action_feature_policy",
    "core.interop": "interop.registry",
    "core.interop_rllib": "interop.rllib",
    "core.table": "drawing.table",
    "core.table_text": "drawing.text",
    "core.draw": "drawing.picture",
    "core.render_modes": "drawing.render_modes",
    "core.layout": "core.observation_layout",
}
# old module -> new module, under the training package (``training`` in a checkout, ``pirate_envs.training`` in
# a wheel)
TRAINING_MOVES = {
    **{
        name: f"evaluation.{name}"
        for name in ("evaluate", "tournament", "matches", "ladder", "rate", "sprt", "exploit", "report", "stats")
    },
    "play": "apps.play",
    "ship": "apps.ship",
}
TRAINING_PACKAGES = ("training", "pirate_envs.training")


def _moves() -> dict[str, str]:
    moves = {f"pirate_envs.{old}": f"pirate_envs.{new}" for old, new in PACKAGE_MOVES.items()}
    for package in TRAINING_PACKAGES:
        moves.update({f"{package}.{old}": f"{package}.{new}" for old, new in TRAINING_MOVES.items()})
    return moves


MOVED = _moves()


class MovedModuleWarning(DeprecationWarning):
    """An import through an old module path (see :data:`MOVED`)."""


def _warn(old: str, new: str) -> None:
    # stacklevel 3 is the importing line: warnings.warn skips the import machinery's own frames
    warnings.warn(
        f"{old} has moved to {new}; the old path works until the next release", MovedModuleWarning, stacklevel=3
    )


class _MovedLoader(importlib.abc.Loader):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        _warn(self.old, self.new)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The new module ran when it was imported."""

    # runpy (``python -m OLD``) asks for code to run as __main__: run the new module there instead
    def get_code(self, fullname: str) -> CodeType:
        source = (
            "import runpy, warnings\n"
            f"warnings.warn({self.old!r} + ' has moved to ' + {self.new!r} + '; run python -m ' + {self.new!r}, "
            "DeprecationWarning, stacklevel=1)\n"
            f"runpy.run_module({self.new!r}, run_name='__main__', alter_sys=True)\n"
        )
        return compile(source, f"<moved {self.old}>", "exec")

    def is_package(self, fullname: str) -> bool:
        return False


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedLoader(fullname, new))


def install() -> None:
    """Answer the old module paths of :data:`MOVED` (idempotent)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())


@contextlib.contextmanager
def quietly_moved() -> Iterator[None]:
    """No :class:`MovedModuleWarning` inside: for unpickling files written before the moves."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MovedModuleWarning)
        yield


install()
