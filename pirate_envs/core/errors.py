"""Exceptions shared by every game: illegal actions and invalid options."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class InvalidOptionError(ValueError):
    """A game or environment option that is unknown, of the wrong type or out of range."""
