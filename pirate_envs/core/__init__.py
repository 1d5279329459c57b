"""Game-agnostic pieces: the engine contract, RNG, options, adapters, policies, registry."""

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from pirate_envs.core.game import TERMINAL, Game, State
from pirate_envs.core.options import Option
from pirate_envs.core.rng import Rng, as_rng

__all__ = [
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "Option",
    "Rng",
    "State",
    "as_rng",
]
