"""The components of Pieces of Eight (``rules.md``, P8-101..102): the purse of coins and the action table.

A coin is its value as an int (1..9): the integer is the card in every hot path, and these tables turn it
into words at the edges (``action_to_string``, the table view).
"""

from __future__ import annotations

NUM_COINS = 9
COINS = tuple(range(1, NUM_COINS + 1))  # P8-101: coin v is worth v pieces of eight
PURSE_VALUE = sum(COINS)  # 45, the scale of reward_mode="score" (P8-503)
HAND_SIZE = 3  # P8-202; also the number of tricks (P8-303)

# P8-401: one action per coin
NUM_ACTIONS = NUM_COINS


def coin_of(action: int) -> int:
    """The coin an action plays."""
    return action + 1


def action_of(coin: int) -> int:
    """The action that plays ``coin``."""
    return coin - 1


def coin_name(coin: int) -> str:
    return f"{coin} piece{'' if coin == 1 else 's'} of eight"


def action_to_string(action: int) -> str:
    return f"play the coin worth {coin_name(coin_of(action))}"
