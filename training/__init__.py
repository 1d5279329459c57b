"""Training, evaluation and play scripts for pirate_envs (stable-baselines3 / sb3-contrib).

- ``python -m training.train CONFIG.yaml`` — MaskablePPO training from a YAML config (``configs/``);
  see ``docs/training.md``.
- ``python -m training.evaluation.evaluate`` — tournaments and checkpoint evaluations.
- ``python -m training.apps.play`` — a person against bots.

This package imports ``pirate_envs``, never the reverse; it needs the ``train`` extra. Installed from a
wheel it is ``pirate_envs.training`` (its modules import each other relatively, so both names work; the
``pirate-envs`` command runs them: ``pirate-envs train``, ...; docs/engine.md, "Packaging").
"""

import pirate_envs  # noqa: F401  (answers the old paths of moved modules: pirate_envs/_moved.py)
