"""Old import paths of moved modules keep working for one release (pirate_envs/_moved.py, CHANGELOG.md).

Each old path gives the new module object itself (so classes, ``isinstance`` and pickles agree) after a
:class:`MovedModuleWarning` that points at the importing line; an old ``python -m`` command runs the new
module; a checkpoint pickled with old class paths loads without a warning.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from pirate_envs._moved import MOVED, MovedModuleWarning

ROOT = Path(__file__).resolve().parents[1]

# Written out here, not read from MOVED: the release promise is this list (CHANGELOG.md).
PROMISED = {
    "pirate_envs.core.aec": "pirate_envs.adapters.aec",
    "pirate_envs.core.gym_env": "pirate_envs.adapters.gym_env",
    "pirate_envs.core.env_options": "pirate_envs.adapters.checks",
    "pirate_envs.core.policy": "pirate_envs.policies.base",
    "pirate_envs.core.ismcts": "pirate_envs.policies.ismcts",
    "pirate_envs.core.flatmc": "pirate_envs.policies.flatmc",
    "pirate_envs.core.rollout": "pirate_envs.policies.rollout",
    "pirate_envs.core.selfplay": "pirate_envs.policies.selfplay",
    "pirate_envs.core.checkpoint_policy": "pirate_envs.networks.checkpoint_policy",
    "pirate_envs.core.action_feature_policy": "pirate_envs.networks.action_feature_policy",
    "pirate_envs.core.interop": "pirate_envs.interop.registry",
    "pirate_envs.core.interop_rllib": "pirate_envs.interop.rllib",
    "pirate_envs.core.table": "pirate_envs.drawing.table",
    "pirate_envs.core.table_text": "pirate_envs.drawing.text",
    "pirate_envs.core.draw": "pirate_envs.drawing.picture",
    "pirate_envs.core.render_modes": "pirate_envs.drawing.render_modes",
    "pirate_envs.core.layout": "pirate_envs.core.observation_layout",
    **{
        f"training.{name}": f"training.evaluation.{name}"
        for name in ("evaluate", "tournament", "matches", "ladder", "rate", "sprt", "exploit", "report", "stats")
    },
    "training.play": "training.apps.play",
    "training.ship": "training.apps.ship",
}
LIGHT = [old for old in PROMISED if "interop_rllib" not in old]  # RLlib takes seconds to import


def test_every_promised_move_is_in_the_table():
    assert {old: MOVED.get(old) for old in PROMISED} == PROMISED
    # and the wheel's name of the training package has the same moves
    for old, new in PROMISED.items():
        if old.startswith("training."):
            assert MOVED["pirate_envs." + old] == "pirate_envs." + new


@pytest.mark.parametrize("old", LIGHT)
def test_old_path_is_the_new_module_with_a_warning(old):
    new = PROMISED[old]
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    moved = [w for w in caught if issubclass(w.category, MovedModuleWarning)]
    assert len(moved) == 1 and new in str(moved[0].message) and old in str(moved[0].message)
    assert issubclass(MovedModuleWarning, DeprecationWarning)


def test_warning_points_at_the_importing_line():
    import pirate_envs.core

    sys.modules.pop("pirate_envs.core.table", None)
    vars(pirate_envs.core).pop("table", None)  # an earlier import bound it on the package
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from pirate_envs.core import table  # noqa: F401  (the line the warning must name)
    (warning,) = [w for w in caught if issubclass(w.category, MovedModuleWarning)]
    assert Path(warning.filename) == Path(__file__)


def test_classes_are_the_same_objects():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MovedModuleWarning)
        from pirate_envs.core.policy import RandomPolicy as old_random
        from pirate_envs.core.table import TableView as old_view
    from pirate_envs.drawing.table import TableView
    from pirate_envs.policies.base import RandomPolicy

    assert old_random is RandomPolicy and old_view is TableView


def test_unmoved_names_are_not_answered():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pirate_envs.core.no_such_module")


def test_old_command_runs_the_new_module():
    result = subprocess.run(
        [sys.executable, "-m", "training.rate", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "usage: python -m training.evaluation.rate" in result.stdout
    assert "training.rate has moved to training.evaluation.rate" in result.stderr


def test_checkpoint_pickled_with_old_class_paths_loads_quietly():
    pytest.importorskip("sb3_contrib")
    path = ROOT / "checkpoints" / "potsm_v0" / "model.zip"
    # the shipped potsm model names its policy class by the old module path
    import zipfile

    assert b"pirate_envs.core.action_feature_policy" in zipfile.ZipFile(path).read("data")
    from pirate_envs.networks.checkpoint_policy import load_maskable_ppo

    sys.modules.pop("pirate_envs.core.action_feature_policy", None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MovedModuleWarning)
        model = load_maskable_ppo(path, device="cpu")
    from pirate_envs.networks.action_feature_policy import ActionFeaturePolicy

    assert isinstance(model.policy, ActionFeaturePolicy)
