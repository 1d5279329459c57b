"""Build step for the optional compiled module ``pirate_envs._native`` (everything else is in pyproject.toml).

``optional=True``: where no C compiler is present the build goes on without it, and the package runs its
pure-Python code (pirate_envs/core/native.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pirate_envs._native",
            ["pirate_envs/_native.c", "pirate_envs/_native_bots.c", "pirate_envs/_native_bots_tortuga.c"],
            depends=["pirate_envs/_native_bots.h"],  # shared by the two bot files; shipped in the sdist
            optional=True,
        )
    ]
)
