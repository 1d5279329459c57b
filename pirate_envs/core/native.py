"""The optional compiled twins of hot paths (``pirate_envs/_native.c``): loaded here, or ``None``.

Every compiled function has a pure-Python twin that stays the reference and the fallback: the twin runs
when the module was not built (no C compiler at install time), when ``PIRATE_ENVS_PURE_PYTHON=1`` is set
before ``pirate_envs`` is imported, and whenever the compiled function meets a value it does not expect
(it raises one of :data:`FALLBACK_ERRORS` and the caller runs the twin).
"""

from __future__ import annotations

import os
from types import ModuleType

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
