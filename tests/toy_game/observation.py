"""The observation of Pieces of Eight (P8-601): what one seat may see, as a float32 vector.

Visibility is decided here and only here: a seat's own hand, the current trick, every pile, the seat to
act and the tricks played; never another hand or the purse. Seats are relative to the observer: block
``k`` of a per-seat field is the seat ``k`` places after it (block 0 is the observer itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.observation_layout import layout_size, layout_slices

from .coins import HAND_SIZE, NUM_COINS

if TYPE_CHECKING:
    from .game import PiecesOfEightState


def field_sizes(num_players: int) -> list[tuple[str, int]]:
    """The observation fields in order with their sizes."""
    return [
        ("hand", NUM_COINS),  # 1 for each coin in the observer's hand
        ("trick", num_players * NUM_COINS),  # per relative seat: the coin it played to the current trick
        ("piles", num_players * NUM_COINS),  # per relative seat: the coins it has taken
        ("to_act", num_players),  # one-hot relative seat to act (all zero once the game is over)
        ("tricks_played", 1),  # tricks played / 3
    ]


def field_slices(num_players: int) -> dict[str, slice]:
    """Observation fields by name."""
    return layout_slices(field_sizes(num_players))


class ObservationEncoder:
    """Builds a seat's observation from the names the state exposes."""

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.size = layout_size(field_sizes(num_players))
        self.start = {name: where.start for name, where in field_slices(num_players).items()}

    def encode(self, state: PiecesOfEightState, seat: int) -> np.ndarray:
        n, start = self.num_players, self.start
        obs = np.zeros(self.size, dtype=np.float32)
        for coin in state.hands[seat]:
            obs[start["hand"] + coin - 1] = 1.0
        for i, coin in enumerate(state.trick):
            offset = (state.leader + i - seat) % n
            obs[start["trick"] + offset * NUM_COINS + coin - 1] = 1.0
        for other, pile in enumerate(state.piles):
            offset = (other - seat) % n
            for coin in pile:
                obs[start["piles"] + offset * NUM_COINS + coin - 1] = 1.0
        if not state.is_terminal():
            obs[start["to_act"] + (state.current_player() - seat) % n] = 1.0
        obs[start["tricks_played"]] = state.tricks_played / HAND_SIZE
        return obs
