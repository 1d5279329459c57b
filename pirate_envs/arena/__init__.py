"""The browser arena: play, watch and replay every pirate_envs game in a local web page.

``python -m pirate_envs.arena`` starts it on http://127.0.0.1:8765 (see docs/arena.md);
:func:`create_app` builds the Starlette app (tests use it with ``TestClient``). Needs the
``arena`` extra (starlette, uvicorn).
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """The arena's Starlette app (:func:`pirate_envs.arena.app.create_app`)."""
    from pirate_envs.arena.app import create_app as _create_app

    return _create_app(*args, **kwargs)


__all__ = ["create_app"]
