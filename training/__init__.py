"""Training, evaluation and play scripts for pirate_envs (stable-baselines3 / sb3-contrib).

- ``python -m training.train CONFIG.yaml`` — MaskablePPO training from a YAML config (``configs/``);
  see ``docs/training.md``.
- ``python -m training.evaluate`` — tournaments and checkpoint evaluations.
- ``python -m training.play`` — a person against bots.

This package imports ``pirate_envs``, never the reverse; it needs the ``train`` extra. Installed from a
wheel it is ``pirate_envs.training`` (its modules import each other relatively, so both names work; the
``pirate-envs`` command runs them: ``pirate-envs train``, ...; docs/engine.md, "Packaging").
"""
