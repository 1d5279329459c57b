"""Conversions between the Python state of ``potsm_v0`` and its native engine (``native/engine.c``).

The native engine (``core/native/engine.h``) keeps its state in a C struct; the generic binding moves it to and
from Python as a flat list of ints, which this module builds from a :class:`~pirate_envs.games.potsm.game.PotsmState`
(:func:`pack`) and turns back into the ``fields`` of its ``to_dict()`` (:func:`unpack`). The order is
``PotsmState.fields``, each list of varying length preceded by its length (``native/dump.c`` writes and checks
the same order):

    line 9, damaged 9, fame 9, pirate_owner 9, revealed 9, not_owner 9n, claimed n,
    adventure_deck (len, cards), adventure_row (len, cards), adventure_seen 24, adventure_discard 24,
    blind_fame_cards 24, move_row 12, hands (0 or n, then 12 per hand), move_deck (len, cards),
    move_discard 12, start_seat, current_seat, phase, pending_accusation (0 or 2, then target, pirate),
    turn_index, game_over, move_tally 27n, repair_tally n, accusation_tally 9n,
    recent_turns (count, then 13 per record).

The rule options go to the engine as ints in :data:`OPTIONS` order (:func:`options_vector`): the two variant
flags, ``reward_mode`` as its index in the option's choices, and ``score_scale``, a float, as the int64 of its
IEEE-754 bits (the engine reads the double back bit for bit). ``max_decisions`` travels in the binding's own
field of the configuration.
"""

from __future__ import annotations

import struct
from typing import Any

from pirate_envs.core.rewards import REWARD_MODES
from pirate_envs.games.potsm.action_features import feature_size
from pirate_envs.games.potsm.actions import RECORD_LENGTH
from pirate_envs.games.potsm.cards import NUM_ADVENTURE_TYPES, NUM_MOVE_TYPES

OPTIONS: tuple[str, ...] = ("upcoming_adventures", "move_cards_in_hand", "reward_mode", "score_scale")
NUM_FEATURES: int = feature_size(4)  # per action at the default player count (4); see num_features


def num_features(num_players: int) -> int:
    """Action features per action for ``num_players`` (``9 * (8 + n - 1)``): they depend on the player count
    (one accusation channel per other seat), so the backend asks this rather than NUM_FEATURES."""
    return feature_size(num_players)


def double_bits(value: float) -> int:
    """The IEEE-754 bits of ``value`` as a signed int64 (how a float option travels in NeConfig.options, read
    back by engine.h's ne_option_double)."""
    return struct.unpack("<q", struct.pack("<d", float(value)))[0]


def options_vector(game: Any) -> list[int]:
    """The game's rule options as ints, in :data:`OPTIONS` order."""
    options = game.options
    return [
        int(bool(options["upcoming_adventures"])),
        int(bool(options["move_cards_in_hand"])),
        REWARD_MODES.index(options["reward_mode"]),
        double_bits(options["score_scale"]),
    ]


def pack(state: Any) -> list[int]:
    """The state's game fields as the flat ints ``dump`` writes (the module docstring's order)."""
    values: list[int] = []
    values += state.line
    values += state.damaged
    values += state.fame
    values += state.pirate_owner
    values += state.revealed
    values += state.not_owner
    values += state.claimed
    for name in ("adventure_deck", "adventure_row"):
        cards = getattr(state, name)
        values.append(len(cards))
        values += cards
    values += state.adventure_seen
    values += state.adventure_discard
    values += state.blind_fame_cards
    values += state.move_row
    values.append(len(state.hands))
    for hand in state.hands:
        values += hand
    values.append(len(state.move_deck))
    values += state.move_deck
    values += state.move_discard
    values += [state.start_seat, state.current_seat, state.phase, len(state.pending_accusation)]
    values += state.pending_accusation
    values += [state.turn_index, int(state.game_over)]
    values += state.move_tally
    values += state.repair_tally
    values += state.accusation_tally
    values.append(len(state.recent_turns))
    for record in state.recent_turns:
        values += record
    return [int(v) for v in values]


def unpack(game: Any, values: list[int]) -> dict[str, Any]:
    """The ``fields`` of ``to_dict()`` rebuilt from a dump of ``game``'s native engine."""
    n = game.num_players
    at = 0

    def take(count: int) -> list[int]:
        nonlocal at
        if count < 0 or at + count > len(values):
            raise ValueError("potsm native_bridge.unpack: the dump is shorter than its fields")
        part = [int(v) for v in values[at : at + count]]
        at += count
        return part

    def take_list() -> list[int]:
        return take(take(1)[0])

    fields: dict[str, Any] = {}
    fields["line"] = take(9)
    fields["damaged"] = take(9)
    fields["fame"] = take(9)
    fields["pirate_owner"] = take(9)
    fields["revealed"] = take(9)
    fields["not_owner"] = take(9 * n)
    fields["claimed"] = take(n)
    fields["adventure_deck"] = take_list()
    fields["adventure_row"] = take_list()
    fields["adventure_seen"] = take(NUM_ADVENTURE_TYPES)
    fields["adventure_discard"] = take(NUM_ADVENTURE_TYPES)
    fields["blind_fame_cards"] = take(NUM_ADVENTURE_TYPES)
    fields["move_row"] = take(NUM_MOVE_TYPES)
    fields["hands"] = [take(NUM_MOVE_TYPES) for _ in range(take(1)[0])]
    fields["move_deck"] = take_list()
    fields["move_discard"] = take(NUM_MOVE_TYPES)
    fields["start_seat"], fields["current_seat"], fields["phase"] = take(3)
    fields["pending_accusation"] = take_list()
    fields["turn_index"] = take(1)[0]
    fields["game_over"] = bool(take(1)[0])
    fields["move_tally"] = take(27 * n)
    fields["repair_tally"] = take(n)
    fields["accusation_tally"] = take(9 * n)
    fields["recent_turns"] = [take(RECORD_LENGTH) for _ in range(take(1)[0])]
    if at != len(values):
        raise ValueError("potsm native_bridge.unpack: the dump is longer than its fields")
    return {name: fields[name] for name in game.state_class.fields}
