"""The package version, in one place: ``pyproject.toml`` reads it at build time, ``pirate_envs.__version__``
re-exports it, and CHANGELOG.md / CITATION.cff name it (tests/test_packaging.py checks they agree)."""

__version__ = "0.2.0.dev0"
