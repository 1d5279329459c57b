"""Exceptions shared by every game: illegal actions, invalid options and invalid saved states."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class InvalidOptionError(ValueError):
    """A game or environment option that is unknown, of the wrong type or out of range."""


class InvalidStateError(ValueError):
    """A saved state (``State.to_dict`` output) that is malformed or describes an impossible position.

    Raised by ``Game.state_from_dict``; the message names the key or field that is wrong.
    """
