"""Build step for the optional compiled module ``pirate_envs._native`` (everything else is in pyproject.toml).

``optional=True``: where no C compiler is present the build goes on without it, and the package runs its
pure-Python code (pirate_envs/core/native.py).
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pirate_envs._native",
            [
                "pirate_envs/_native.c",
                "pirate_envs/_native_bots.c",
                "pirate_envs/_native_bots_tortuga.c",
                "pirate_envs/_native_bots_potsm.c",
                "pirate_envs/_native_features_potsm.c",
                "pirate_envs/_native_encode_potsm.c",
            ],
            # headers shared by the bot files, shipped in the sdist
            depends=["pirate_envs/_native_bots.h", "pirate_envs/_native_potsm.h"],
            # no fused multiply-add: the twins' doubles must be those of the Python code, operation by operation
            extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
            optional=True,
        )
    ]
)
