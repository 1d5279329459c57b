"""Build step for the optional compiled module ``pirate_envs._native`` (everything else is in pyproject.toml).

``optional=True``: where no C compiler is present the build goes on without it, and the package runs its
pure-Python code (pirate_envs/core/native/__init__.py).

The C sources live with their games, ``pirate_envs/games/<game>/native/*.c``; what they share (common.h) and
the module's method table (module.c) in ``pirate_envs/core/native/``. They include each other by paths from
``pirate_envs/`` (``#include "core/native/common.h"``).
"""

import sys
from glob import glob

from setuptools import Extension, setup

NATIVE_FOLDERS = ["pirate_envs/core/native", *sorted(glob("pirate_envs/games/*/native"))]

setup(
    ext_modules=[
        Extension(
            "pirate_envs._native",
            [path for folder in NATIVE_FOLDERS for path in sorted(glob(f"{folder}/*.c"))],
            include_dirs=["pirate_envs"],
            # the headers, rebuilt on and shipped in the sdist
            depends=[path for folder in NATIVE_FOLDERS for path in sorted(glob(f"{folder}/*.h"))],
            # no fused multiply-add: the twins' doubles must be those of the Python code, operation by operation
            extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
            optional=True,
        )
    ]
)
