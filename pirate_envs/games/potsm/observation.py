"""The observer: what seat ``s`` sees, as one float32 vector (PSM-1010, PSM-1012, Section 9).

Visibility is decided here and only here. The vector concatenates the fields of
:func:`field_specs` in order (look them up by name with :func:`field_slices`); its length is
``265 + 85n + 2n²`` (443 / 538 / 637). Every per-seat axis is indexed by *offset* from the
observing seat (offset 0 = the observer).
Multi-axis fields are row-major in the order the rules name their axes (PSM-1012).

Two encoders produce the same vector:

* :func:`encode_reference` — a plain, readable list-building version that follows the table
  field by field (used by tests as the specification in code);
* :class:`ObservationEncoder` — the fast version used by the engine. Where ``pirate_envs._native``
  is built (pirate_envs/core/native/) its twin ``potsm_encode`` (native/encode.c) writes every entry straight into
  the vector; otherwise, and for any state the twin refuses, :meth:`ObservationEncoder.encode_python`
  runs: every entry of the observation is a small integer, so the state is written as bytes (in
  absolute seat order, from precomputed one-hot pieces; signed ship displacements in two's
  complement), one precomputed per-seat gather picks and rotates the observer's entries, and one
  cast turns the int8 bytes into float32. States with a fame, claim or turn count above 127
  (possible in principle, never seen in play) use the reference encoder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.native import twin_vector
from pirate_envs.core.observation_layout import layout_size, layout_slices
from pirate_envs.games.potsm.actions import NUM_TURN_KINDS, RECORD_ACCUSED, RECORD_ACTOR, RECORD_KIND, RECORD_SHIPS
from pirate_envs.games.potsm.cards import NUM_ADVENTURE_TYPES, NUM_SHIPS

if TYPE_CHECKING:
    from pirate_envs.games.potsm.game import PotsmState

UPCOMING_SLOTS = 3  # PSM-1068: row slots 2..4
BYTE_MAX = 127  # the fast encoder's bytes are read as int8
OBSERVATION_LOW = -8.0  # a ship moves at most 8 places (positions 1..9)
OBSERVATION_HIGH = 232.0  # at most 58 cards x 4 fame awarded: bounds every fame, claim and count


def field_specs(num_players: int) -> list[tuple[str, int, str]]:
    """``(name, size, rule id)`` of every observation field, in vector order (PSM-1060..1082)."""
    n = num_players
    return [
        ("my_pirates", 9, "PSM-1060"),
        ("ship_position", 81, "PSM-1061"),
        ("ship_damaged", 9, "PSM-1062"),
        ("ship_fame", 9, "PSM-1063"),
        ("ship_revealed_owner", 9 * n, "PSM-1064"),
        ("ship_not_owner", 9 * n, "PSM-1065"),
        ("claimed_fame", n, "PSM-1066"),
        ("current_adventure", 24, "PSM-1067"),
        ("upcoming_adventures", 3 * 24, "PSM-1068"),
        ("adventure_deck_size", 1, "PSM-1069"),
        ("adventure_seen", 24, "PSM-1070"),
        ("move_available", 12, "PSM-1071"),
        ("hand_sizes", n, "PSM-1072"),
        ("move_deck_size", 1, "PSM-1073"),
        ("move_discard", 12, "PSM-1074"),
        ("phase", 2, "PSM-1075"),
        ("pending_accusation", (n - 1) + 9, "PSM-1076"),
        ("start_seat", n, "PSM-1077"),
        ("turn_index", 1, "PSM-1078"),
        ("move_tally", n * 9 * 3, "PSM-1079"),
        ("repair_tally", n, "PSM-1080"),
        ("accusation_tally", n * 9, "PSM-1081"),
        ("recent_turns", n * (2 * n + 26), "PSM-1082"),
    ]


def field_slices(num_players: int) -> dict[str, slice]:
    """Field name -> slice of the observation vector, e.g. ``obs[field_slices(4)["ship_fame"]]``."""
    return layout_slices(field_specs(num_players))


def observation_size(num_players: int) -> int:
    """PSM-1010: ``265 + 85n + 2n²``."""
    return layout_size(field_specs(num_players))


def turn_block_size(num_players: int) -> int:
    """Size of one turn of ``recent_turns``: actor (n), kind (17), ship vector (9), accused (n)."""
    return 2 * num_players + NUM_TURN_KINDS + NUM_SHIPS


# --- the reference encoder: the table, field by field ------------------------------------------------


def _one_hot(size: int, index: int) -> list[int]:
    vec = [0] * size
    if index >= 0:
        vec[index] = 1
    return vec


def encode_reference(state: PotsmState, seat: int) -> np.ndarray:
    """The observation of ``seat``, built field by field from the rules table (slow, plain)."""
    n = state.game.num_players
    variant_hand = state.game.move_cards_in_hand

    def offset(t: int) -> int:
        return (t - seat) % n

    acting = not state.is_terminal() and state.current_seat == seat
    obs: list[int] = []
    # PSM-1060 my_pirates
    obs += [1 if state.pirate_owner[j] == seat else 0 for j in range(9)]
    # PSM-1061 ship_position: ship j, one-hot of its position
    position = [0] * 9
    for p, ship in enumerate(state.line):
        position[ship] = p
    for j in range(9):
        obs += _one_hot(9, position[j])
    # PSM-1062, 1063
    obs += list(state.damaged)
    obs += list(state.fame)
    # PSM-1064 ship_revealed_owner (ship-major, offset minor)
    for j in range(9):
        owner = state.pirate_owner[j]
        obs += _one_hot(n, offset(owner) if state.revealed[j] and owner >= 0 else -1)
    # PSM-1065 ship_not_owner (PSM-561)
    for j in range(9):
        obs += [state.not_owner[j * n + (seat + k) % n] for k in range(n)]
    # PSM-1066 claimed_fame per offset
    obs += [state.claimed[(seat + k) % n] for k in range(n)]
    # PSM-1067 current adventure; PSM-1068 upcoming row slots 2..4
    row = state.adventure_row
    obs += _one_hot(24, row[0] if row else -1)
    for slot in range(1, 1 + UPCOMING_SLOTS):
        obs += _one_hot(24, row[slot] if slot < len(row) else -1)
    # PSM-1069, 1070
    obs.append(len(state.adventure_deck))
    obs += list(state.adventure_seen)
    # PSM-1071 move_available: the row (base) or the seat's own hand (variant)
    obs += list(state.hands[seat] if variant_hand else state.move_row)
    # PSM-1072 hand sizes per offset (zeros in the base game)
    obs += [sum(state.hands[(seat + k) % n]) if variant_hand else 0 for k in range(n)]
    # PSM-1073, 1074
    obs.append(len(state.move_deck))
    obs += list(state.move_discard)
    # PSM-1075 phase, PSM-1076 pending accusation: only for the acting seat
    obs += _one_hot(2, state.phase if acting else -1)
    if acting and state.pending_accusation:
        target, pirate = state.pending_accusation
        obs += _one_hot(n - 1, offset(target) - 1)
        obs += _one_hot(9, pirate)
    else:
        obs += [0] * (n - 1 + 9)
    # PSM-1077, 1078
    obs += _one_hot(n, offset(state.start_seat))
    obs.append(state.turn_index)
    # PSM-1079..1081 tallies per offset
    for k in range(n):
        t = (seat + k) % n
        obs += state.move_tally[t * 27 : t * 27 + 27]
    obs += [state.repair_tally[(seat + k) % n] for k in range(n)]
    for k in range(n):
        t = (seat + k) % n
        obs += state.accusation_tally[t * 9 : t * 9 + 9]
    # PSM-1082 recent turns, newest first
    for i in range(n):
        if i < len(state.recent_turns):
            record = state.recent_turns[i]
            obs += _one_hot(n, offset(record[RECORD_ACTOR]))
            obs += _one_hot(NUM_TURN_KINDS, record[RECORD_KIND])
            obs += record[RECORD_SHIPS : RECORD_SHIPS + 9]
            accused = record[RECORD_ACCUSED]
            obs += _one_hot(n, offset(accused) if accused >= 0 else -1)
        else:
            obs += [0] * turn_block_size(n)
    return np.array(obs, dtype=np.float32)


# --- the fast encoder ---------------------------------------------------------------------------------


def _one_hot_bytes(size: int) -> list[bytes]:
    return [bytes(_one_hot(size, i)) for i in range(size)]


def buffer_specs(num_players: int, move_cards_in_hand: bool) -> list[tuple[str, int]]:
    """Layout of the fast encoder's internal buffer: the public and private facts in *absolute*
    seat order (seat-major where the observation is offset-major). The buffer is never returned;
    a per-seat gather (:attr:`ObservationEncoder.order`) picks and rotates the observer's entries."""
    n = num_players
    return [
        ("owner_table", 9 * n),  # [j*n + t] = 1 if seat t holds pirate j
        ("revealed_owner_table", 9 * n),  # [j*n + t] = 1 if pirate j is revealed as seat t's
        ("not_owner_table", 9 * n),  # state.not_owner as is
        ("position_table", 81),  # [p*9 + j] = 1 if ship j is at position p (transposed by the gather)
        ("ship_damaged", 9),
        ("ship_fame", 9),
        ("claimed_table", n),
        ("adventure_row_table", (1 + UPCOMING_SLOTS) * 24),  # row slots 1..4, one-hot each
        ("adventure_deck_size", 1),
        ("move_deck_size", 1),
        ("turn_index", 1),
        ("adventure_seen", 24),
        ("move_counts", 12 * n if move_cards_in_hand else 12),  # every hand (variant) or the row
        ("hand_size_table", n),
        ("move_discard", 12),
        ("phase", 2),
        ("pending_target_table", n),
        ("pending_pirate", 9),
        ("start_seat_table", n),
        ("move_tally_table", 27 * n),
        ("repair_tally_table", n),
        ("accusation_tally_table", 9 * n),
        ("recent_turns_table", n * turn_block_size(n)),
    ]


def _gather_order(num_players: int, move_cards_in_hand: bool, seat: int) -> list[int]:
    """Buffer index of every observation entry of ``seat``, in observation order."""
    n = num_players
    at = {}
    start = 0
    for name, size in buffer_specs(n, move_cards_in_hand):
        at[name] = start
        start += size

    def rotated(name: str, width: int) -> list[int]:  # offset-major block of per-seat rows of ``width``
        return [at[name] + ((seat + k) % n) * width + i for k in range(n) for i in range(width)]

    def per_ship_rotated(name: str) -> list[int]:  # ship-major, offset-minor
        return [at[name] + j * n + (seat + k) % n for j in range(9) for k in range(n)]

    def same(name: str, size: int) -> list[int]:
        return list(range(at[name], at[name] + size))

    order = [at["owner_table"] + j * n + seat for j in range(9)]
    order += [at["position_table"] + p * 9 + j for j in range(9) for p in range(9)]
    order += same("ship_damaged", 9) + same("ship_fame", 9)
    order += per_ship_rotated("revealed_owner_table") + per_ship_rotated("not_owner_table")
    order += rotated("claimed_table", 1)
    order += same("adventure_row_table", 24 + 72)
    order += same("adventure_deck_size", 1) + same("adventure_seen", 24)
    order += [at["move_counts"] + (12 * seat if move_cards_in_hand else 0) + t for t in range(12)]
    order += rotated("hand_size_table", 1)
    order += same("move_deck_size", 1) + same("move_discard", 12) + same("phase", 2)
    order += [at["pending_target_table"] + (seat + k) % n for k in range(1, n)] + same("pending_pirate", 9)
    order += rotated("start_seat_table", 1) + same("turn_index", 1)
    order += rotated("move_tally_table", 27) + rotated("repair_tally_table", 1) + rotated("accusation_tally_table", 9)
    block = turn_block_size(n)
    for i in range(n):
        first = at["recent_turns_table"] + i * block
        order += [first + (seat + k) % n for k in range(n)]
        order += list(range(first + n, first + n + NUM_TURN_KINDS + 9))
        order += [first + n + NUM_TURN_KINDS + 9 + (seat + k) % n for k in range(n)]
    assert len(order) == observation_size(n)
    return order


class ObservationEncoder:
    """The fast observer for one player count and variant; same vector as :func:`encode_reference`.

    It writes the state into a byte buffer in absolute seat order (no per-seat work except the
    acting seat's phase), gathers the observer's entries with one precomputed index array, and
    converts the bytes, read as int8, to float32. Signed ship displacements are stored in two's
    complement. Only fame and claimed fame can legally exceed 127 (every tally is at most the
    turn count, at most 71); a state where they, or the turn count, do is encoded by the reference
    encoder instead.
    """

    CACHE_LIMIT = 4096

    def __init__(self, num_players: int, move_cards_in_hand: bool) -> None:
        n = self.num_players = num_players
        self.move_cards_in_hand = move_cards_in_hand
        self.size = observation_size(n)
        self.buffer_size = sum(size for _, size in buffer_specs(n, move_cards_in_hand))
        self.order = [np.array(_gather_order(n, move_cards_in_hand, seat), dtype=np.intp) for seat in range(n)]
        self.one_hot_n = _one_hot_bytes(n)
        self.one_hot_24 = _one_hot_bytes(NUM_ADVENTURE_TYPES)
        self.one_hot_9 = _one_hot_bytes(9)
        self.one_hot_kind = _one_hot_bytes(NUM_TURN_KINDS)
        self.zero_n = bytes(n)
        self.zero_adventure_slots = [bytes(24 * (1 + UPCOMING_SLOTS - k)) for k in range(2 + UPCOMING_SLOTS)]
        self.phase_bytes = (bytes((1, 0)), bytes((0, 1)))
        self.no_pending = bytes(n + 9)
        self.no_phase = bytes(2 + n + 9)
        self.missing_turn = bytes(turn_block_size(n))
        # content-keyed caches of pieces that change rarely (pure functions of their key)
        self.pirate_pieces: dict[tuple, bytes] = {}
        self.turn_pieces: dict[tuple, bytes] = {}
        self.native_spec = (  # pirate_envs._native.potsm_encode's spec (the order of its E_* enum)
            n,
            int(move_cards_in_hand),
            self.size,
            NUM_TURN_KINDS,
            RECORD_ACTOR,
            RECORD_KIND,
            RECORD_ACCUSED,
            RECORD_SHIPS,
            *(field.start for field in field_slices(n).values()),  # in field_specs order
        )

    def encode(self, state: PotsmState, seat: int) -> np.ndarray:
        """The observation of ``seat``: written by the compiled twin where it is built, else (or where the
        twin refuses the state) by :meth:`encode_python`."""
        out = twin_vector("potsm_encode", self.size, state, seat, self.native_spec)
        return self.encode_python(state, seat) if out is None else out

    def encode_python(self, state: PotsmState, seat: int) -> np.ndarray:
        """The pure-Python encoder (the compiled twin's reference)."""
        # isascii: every byte below 128 (the counts are bytearrays, see PotsmState)
        if not (state.fame.isascii() and state.claimed.isascii()) or state.turn_index > BYTE_MAX:
            return encode_reference(state, seat)
        try:
            buffer = self.absolute_bytes(state, seat)
        except ValueError:  # a negative or huge value (hand-edited state): use the plain encoder
            return encode_reference(state, seat)
        return np.frombuffer(buffer, dtype=np.int8)[self.order[seat]].astype(np.float32)

    def _pirate_piece(self, owner: list[int], revealed: list[int]) -> bytes:
        """owner_table + revealed_owner_table (cached by the pirates' owners and revealed flags)."""
        key = (*owner, *revealed)
        piece = self.pirate_pieces.get(key)
        if piece is None:
            n = self.num_players
            table = bytearray(18 * n)
            for j in range(9):
                if owner[j] >= 0:
                    table[j * n + owner[j]] = 1
                    if revealed[j]:
                        table[9 * n + j * n + owner[j]] = 1
            piece = bytes(table)
            if len(self.pirate_pieces) >= self.CACHE_LIMIT:
                self.pirate_pieces.clear()
            self.pirate_pieces[key] = piece
        return piece

    def _turn_piece(self, record: list[int]) -> bytes:
        """One recent_turns block in absolute seats: actor, kind, ship vector (two's complement), accused."""
        key = tuple(record)
        piece = self.turn_pieces.get(key)
        if piece is None:
            accused = record[RECORD_ACCUSED]
            piece = (
                self.one_hot_n[record[RECORD_ACTOR]]
                + self.one_hot_kind[record[RECORD_KIND]]
                + bytes([v & 255 for v in record[RECORD_SHIPS : RECORD_SHIPS + 9]])  # two's complement
                + (self.one_hot_n[accused] if accused >= 0 else self.zero_n)
            )
            if len(self.turn_pieces) >= self.CACHE_LIMIT:
                self.turn_pieces.clear()
            self.turn_pieces[key] = piece
        return piece

    def absolute_bytes(self, state: PotsmState, seat: int) -> bytes:
        """The buffer of :func:`buffer_specs`; only the phase block depends on ``seat``."""
        n = self.num_players
        row = state.adventure_row  # PSM-1067, 1068: at most 4 cards (n <= 4)
        if self.move_cards_in_hand:  # PSM-1071, 1072
            hands = state.hands
            move_counts = b"".join(map(bytes, hands))
            hand_sizes = bytes(map(sum, hands))
        else:
            move_counts = state.move_row
            hand_sizes = self.zero_n
        if state.current_seat == seat and not state.game_over and not state.truncated:  # PSM-1075, 1076
            phase = self.phase_bytes[state.phase]
            if state.pending_accusation:
                target, pirate = state.pending_accusation
                phase += self.one_hot_n[target] + self.one_hot_9[pirate]
            else:
                phase += self.no_pending
        else:
            phase = self.no_phase
        cached = self.turn_pieces.get
        turns = [cached(tuple(record)) or self._turn_piece(record) for record in state.recent_turns]  # PSM-1082
        if len(turns) < n:
            turns += [self.missing_turn] * (n - len(turns))
        return b"".join(
            [
                self._pirate_piece(state.pirate_owner, state.revealed),  # PSM-1060, 1064
                state.not_owner,  # PSM-1065
                b"".join(map(self.one_hot_9.__getitem__, state.line)),  # PSM-1061
                state.damaged,  # PSM-1062
                state.fame,  # PSM-1063
                state.claimed,  # PSM-1066
                b"".join(map(self.one_hot_24.__getitem__, row)),
                self.zero_adventure_slots[len(row)],
                bytes((len(state.adventure_deck), len(state.move_deck), state.turn_index)),  # PSM-1069, 1073, 1078
                state.adventure_seen,  # PSM-1070
                move_counts,
                hand_sizes,
                state.move_discard,  # PSM-1074
                phase,
                self.one_hot_n[state.start_seat],  # PSM-1077
                state.move_tally,  # PSM-1079
                state.repair_tally,  # PSM-1080
                state.accusation_tally,  # PSM-1081
                *turns,
            ]
        )
