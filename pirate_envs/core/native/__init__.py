"""The optional compiled twins of hot paths (the module ``pirate_envs._native``): loaded here, or ``None``.

Every compiled function has a pure-Python twin that stays the reference and the fallback: the twin runs
when the module was not built (no C compiler at install time), when ``PIRATE_ENVS_PURE_PYTHON=1`` is set
before ``pirate_envs`` is imported, and whenever the compiled function meets a value it does not expect
(it raises one of :data:`FALLBACK_ERRORS`, :func:`twin_writes` returns False and the caller runs its Python code).

The module's C sources live with their games (``pirate_envs/games/<game>/native/*.c``); this folder holds
what they share (``common.h``) and the module's method table (``module.c``), built into the one module by
setup.py.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType

import numpy as np

PURE_PYTHON_VARIABLE = "PIRATE_ENVS_PURE_PYTHON"
FALLBACK_ERRORS = (ValueError, TypeError, IndexError, OverflowError)


def load_native() -> ModuleType | None:
    """``pirate_envs._native``, or ``None`` where it is not built or :data:`PURE_PYTHON_VARIABLE` is set."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from pirate_envs import _native
    except ImportError:
        return None
    return _native


NATIVE = load_native()


def can_build() -> bool:
    """Whether this Python could build the module: a C compiler and Python's headers (what setup.py needs)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None and (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file()


def twin_writes(name: str, buffer: object, state: object, seat: int, spec: tuple) -> bool:
    """``pirate_envs._native.<name>(buffer, state, seat, spec)``: True once it has written ``buffer``, False
    where the module is off or the twin refused the state (the caller then runs its Python encoder)."""
    if NATIVE is None:
        return False
    try:
        getattr(NATIVE, name)(buffer, state, seat, spec)
    except FALLBACK_ERRORS:
        return False
    return True


def twin_vector(name: str, size: int, state: object, seat: int, spec: tuple) -> np.ndarray | None:
    """The float32 observation of ``size`` entries that ``pirate_envs._native.<name>`` writes into a
    zero-filled vector (see :func:`twin_writes`); None where the module is off or the twin refused the state."""
    if NATIVE is None:
        return None
    out = np.zeros(size, dtype=np.float32)
    return out if twin_writes(name, out, state, seat, spec) else None


def twin_decides(name: str, *args: object) -> int | tuple[int, ...] | None:
    """A compiled bot's action, ``pirate_envs._native.<name>(*args)`` (potsm's twin answers a tie with the
    tuple of tied actions, for the caller to draw from); None where the module is off, where the twin
    refused its input (a float64 vector, an int64 mask) or where the Python bot would pick at random: in
    each case the caller runs its Python bot."""
    if NATIVE is None:
        return None
    try:
        return getattr(NATIVE, name)(*args)
    except FALLBACK_ERRORS:
        return None
