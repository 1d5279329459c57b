"""The observation of Madame Ching (MCH-1005, MCH-1006, MCH-1009): what one seat may see, as floats.

Seats and boats are relative to the observer (self first, then offsets 1, 2, 3; with 2 players
boats are self A, self B, opponent A, opponent B). Only the acting seat gets the phase, select
boat and pending fields; every other seat sees them as zeros (MCH-1006).

* :func:`encode_reference` — the table written out entry by entry (slow, plain, easy to check).
* :class:`ObservationEncoder` — the fast observer the game uses: the same vector, from one byte buffer
  of counts divided once by per-entry scales, with the fields that change a few times a round
  (expeditions, missions, discard piles) taken from content-keyed caches. Where the compiled module
  is built (pirate_envs/core/native/) its twin ``mch_counts`` (native/encode.c) writes the byte buffer instead.
"""

from __future__ import annotations

from functools import reduce
from operator import iconcat
from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.native import NATIVE, twin_writes
from pirate_envs.core.observation_layout import layout_slices
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import ICON, NUM_ENC_KINDS

if TYPE_CHECKING:
    from pirate_envs.games.madame_ching.game import MadameChingState


def field_sizes(num_players: int, num_boats: int) -> list[tuple[str, int]]:
    """The observation fields in order with their sizes (MCH-1005)."""
    P, B = num_players, num_boats
    return [
        ("phase", 19),
        ("select_boat", 2),
        ("own_hand", 55),
        ("own_picks", 110),
        ("revealed_picks", 55 * B),
        ("boat_flags", 2 * B),
        ("display", 4 * 57),
        ("expeditions", 77 * B),
        ("skills", 10 * P),
        ("tokens", 4 * P),
        ("own_encounters", 10),
        ("hand_sizes", 2 * P),
        ("known_cards", 55 * (P - 1)),
        ("missions", 46),
        ("supply", 2 * P + 11),
        ("piles", 55 + 2 + 10),
        ("progress", 3),
        ("pending", 79),
        ("team_debt", 2),
        ("history", 13 * P),
    ]


def field_slices(num_players: int, num_boats: int | None = None) -> dict[str, slice]:
    """Observation fields by name (``num_boats`` defaults to 4 with 2 players, else the player count)."""
    if num_boats is None:
        num_boats = 4 if num_players == 2 else num_players
    return layout_slices(field_sizes(num_players, num_boats))


def encode_reference(state: MadameChingState, seat: int) -> np.ndarray:
    """The observation of ``seat`` built entry by entry from the MCH-1006 table (slow, plain): the
    reference :meth:`ObservationEncoder.encode` must equal, and its fallback for a hand-edited state
    whose counts do not fit in a byte."""
    encoder = state.game.encoder
    ones: list[int] = []  # indices set to 1.0
    vi: list[int] = []  # indices of other values
    vv: list[float] = []
    acting = not state.over and not state.truncated and state._current_player() == seat
    _reference_boats(state, seat, acting, ones, vi, vv)
    _reference_seats(state, seat, ones, vi, vv)
    _reference_supply(state, seat, ones, vi, vv)
    _reference_pending(state, seat, acting, ones, vi, vv)
    buf = bytearray(encoder.size)
    for i in ones:
        buf[i] = 1
    o = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
    o[vi] = vv
    return o


def _reference_boats(
    state: MadameChingState, seat: int, acting: bool, ones: list[int], vi: list[int], vv: list[float]
) -> None:
    """The reference's phase, own hand and picks, each boat (picks, flags, expedition) and the display."""
    encoder = state.game.encoder
    st = encoder.start
    phase = state.phase
    if acting:
        ones.append(phase)
        if phase == act.SELECT:
            ones.append(st["select_boat"] + state.select_boat)
    base = st["own_hand"] - 1
    ones.extend(base + c for c in state.hands[seat])
    picks = state.shown_picks if state.revealed else state.picks
    base = st["own_picks"] - 1
    for i, b in enumerate(state.game.boats_of[seat]):
        if picks[b]:
            ones.append(base + 55 * i + picks[b])
    base_pick = st["revealed_picks"] - 1
    base_flag = st["boat_flags"]
    base_exp = st["expeditions"]
    revealed = state.revealed
    for i, b in enumerate(encoder.relative_boats(seat)):
        if revealed and state.shown_picks[b]:
            ones.append(base_pick + 55 * i + state.shown_picks[b])
        if state.acted[b]:
            ones.append(base_flag + 2 * i)
        if state.active_boat == b:
            ones.append(base_flag + 2 * i + 1)
        exp = state.expeditions[b]
        eb = base_exp + 77 * i
        c, r = state.positions[b]
        ones.extend(eb - 1 + card for card in exp)
        ones.append(eb + 55 + c)
        ones.append(eb + 64 + r)
        if exp:
            icons = [0, 0, 0, 0]
            for card in exp:
                icon = ICON[card]
                if icon >= 0:
                    icons[icon] += 1
            vi.append(eb + 72)
            vv.append(exp[-1] / 55.0)
            for k in range(4):
                if icons[k]:
                    vi.append(eb + 73 + k)
                    vv.append(icons[k] / 8.0)
    base = st["display"]
    for s in range(4):
        card = state.display[s]
        if not card:
            ones.append(base + 57 * s + 56)
        elif s == 0:
            ones.append(base + 55)
        else:
            ones.append(base + 57 * s + card - 1)


def _reference_seats(state: MadameChingState, seat: int, ones: list[int], vi: list[int], vv: list[float]) -> None:
    """The reference's per-seat entries (skills, tokens, hand sizes, known cards, history) and own encounters."""
    encoder = state.game.encoder
    P = encoder.num_players
    st = encoder.start
    bs, bt, bh, bk, bhist = st["skills"], st["tokens"], st["hand_sizes"], st["known_cards"], st["history"]
    for off in range(P):
        q = (seat + off) % P
        sk = state.skills[q]
        for k in range(10):
            if sk[k]:
                vi.append(bs + 10 * off + k)
                vv.append(sk[k] / 4.0)
        t = state.tokens[q]
        b4 = bt + 4 * off
        vi += [b4, b4 + 1, b4 + 2, b4 + 3, bh + 2 * off, bh + 2 * off + 1]
        vv += [t[0] / 46.0, t[1] / 12.0, t[2] / 12.0, t[3] / 12.0, sum(state.enc_hands[q]) / 10.0]
        vv.append(len(state.hands[q]) / 10.0)
        if off:
            kb = bk + 55 * (off - 1) - 1
            ones.extend(kb + card for card in state.known[seat][q])
        kind, target = state.last_action[q]
        ones.append(bhist + 13 * off + kind)
        ones.append(bhist + 13 * off + 9 + target)
    base = st["own_encounters"]
    held = state.enc_hands[seat]
    for k in range(NUM_ENC_KINDS):
        if held[k]:
            vi.append(base + k)
            vv.append(held[k] / 6.0)


def _reference_supply(state: MadameChingState, seat: int, ones: list[int], vi: list[int], vv: list[float]) -> None:
    """The reference's missions, supply (stacks, Pearl and Hong Kong owners, tokens), piles and progress."""
    game = state.game
    P = game.encoder.num_players
    st = game.encoder.start
    base = st["missions"]
    ones.extend(base + t for t in state.board)
    ones.extend(base + 23 + t for t in state.set_aside)
    base = st["supply"]
    vi += [base, base + 1, base + 2, base + 3, base + 4]
    vv += [x / 4.0 for x in state.stacks]
    base += 5
    ones.append(base + (0 if state.pearl_owner < 0 else 1 + (state.pearl_owner - seat) % P))
    base += P + 1
    ones.append(base + (0 if state.hk_owner < 0 else 1 + (state.hk_owner - seat) % P))
    base += P + 1
    sup = state.supply
    vi += [base, base + 1, base + 2, base + 3]
    vv += [sup[0] / 46.0, sup[1] / 12.0, sup[2] / 12.0, sup[3] / 12.0]
    base = st["piles"]
    ones.extend(base - 1 + card for card in state.nav_discard)
    vi += [base + 55, base + 56]
    vv += [len(state.nav_deck) / 55.0, len(state.enc_deck) / 33.0]
    if state.enc_discard:
        counts = [0] * NUM_ENC_KINDS
        for k in state.enc_discard:
            counts[k] += 1
        for k in range(NUM_ENC_KINDS):
            if counts[k]:
                vi.append(base + 57 + k)
                vv.append(counts[k] / 6.0)
    base = st["progress"]
    vi += [base, base + 1, base + 2]
    vv += [state.round / game.round_limit, float(state.end_triggered), float(game.team_mode)]


def _reference_pending(
    state: MadameChingState, seat: int, acting: bool, ones: list[int], vi: list[int], vv: list[float]
) -> None:
    """The reference's pending decision (the acting seat only, MCH-1006) and the team debts."""
    game = state.game
    P = game.encoder.num_players
    st = game.encoder.start
    phase = state.phase
    if acting and phase != act.SELECT:
        base = st["pending"]
        if state.pending_enc >= 0:
            ones.append(base + state.pending_enc - 3)
        if state.combat_card:
            ones.append(base + 7 + state.combat_card - 1)
        if state.gift_queue:
            ones.append(base + 62 + state.gift_queue[0])
        if state.pending_target >= 0:
            ones.append(base + 72 + (state.pending_target - seat) % P - 1)
        if phase == act.SKILL_CLAIM:
            vi += [base + 75, base + 76, base + 77, base + 78]
            vv += [x / 8.0 for x in state.claim_pool]
    if game.team_mode:
        base = st["team_debt"]
        vi += [base, base + 1]
        vv += [state.owes[seat] / 10.0, state.owes[game.partner(seat)] / 10.0]


# MCH-1006 history of one seat: last action kind one-hot (9), then its target offset one-hot (4).
HISTORY_PIECES = tuple(
    tuple(bytes(1 if i in (kind, 9 + target) else 0 for i in range(13)) for target in range(4)) for kind in range(9)
)

# Bound on each content-keyed piece cache (cleared when full).
PIECE_CACHE_LIMIT = 20_000


def _cached(cache: dict[bytes, bytes], key: bytes, build) -> bytes:
    """``cache[key]``, built by ``build(key)`` and stored on a miss."""
    piece = cache.get(key)
    if piece is None:
        piece = build(key)
        if len(cache) >= PIECE_CACHE_LIMIT:
            cache.clear()
        cache[key] = piece
    return piece


class ObservationEncoder:
    """Builds ``observation(seat)`` for one player count.

    Every entry of the vector is a small count over a fixed divisor (1 for the 0/1 entries, 46 for
    gold tokens, 4 for skill cards, ...). ``encode`` writes the counts into one ``bytearray`` and
    divides by the per-entry divisors in a single numpy call: the float32 quotient is correctly
    rounded, so it equals the float64 quotient cast to float32 (double rounding is exact for
    division when the wide format has > 2p+1 bits). The one entry whose numerator is unbounded
    (the round number, with a large ``round_limit``) is written as a float afterwards; a count
    that does not fit in a byte (only in a hand-edited state) falls back to :func:`encode_reference`.

    The cost is in Python calls, not in the vector: each field is turned into bytes with as few
    ``bytes()`` calls as possible (one ``bytes()`` of the concatenated lists), and the fields
    that change a few times a round (each boat's expedition block, missions, discard piles)
    are looked up by their content (the same bytes) in small caches, independent of the viewer.
    """

    def __init__(self, num_players: int, num_boats: int) -> None:
        self.num_players = num_players
        self.num_boats = num_boats
        self.slices = field_slices(num_players, num_boats)
        self.start = {name: sl.start for name, sl in self.slices.items()}
        self.size = sum(size for _, size in field_sizes(num_players, num_boats))
        assert self.size == 577 + 134 * num_boats + 86 * num_players  # MCH-1006
        self._relative = [self.relative_boats(seat) for seat in range(num_players)]
        self._relative_index = [{b: i for i, b in enumerate(rel)} for rel in self._relative]
        self.divisor = self._divisors()
        self._sizes = [0] * (2 * num_players)
        self._boat_pieces: dict[bytes, bytes] = {}
        self._mission_pieces: dict[bytes, bytes] = {}
        self._discard_pieces: dict[bytes, bytes] = {}
        self._enc_discard_pieces: dict[bytes, bytes] = {}
        self._native_specs: list[tuple] | None = None  # per seat, made from the game on first use

    def relative_boats(self, seat: int) -> list[int]:
        n = self.num_players
        if n == 2:
            return [2 * seat, 2 * seat + 1, 2 * (1 - seat), 2 * (1 - seat) + 1]
        return [(seat + o) % n for o in range(n)]

    def _divisors(self) -> np.ndarray:
        """The divisor of every entry (MCH-1006 scales); 1 for the 0/1 and one-hot entries."""
        P, st = self.num_players, self.start
        d = np.ones(self.size, dtype=np.float32)
        token_scale = (46.0, 12.0, 12.0, 12.0)
        for i in range(self.num_boats):
            eb = st["expeditions"] + 77 * i
            d[eb + 72] = 55.0
            d[eb + 73 : eb + 77] = 8.0
        for off in range(P):
            d[st["skills"] + 10 * off : st["skills"] + 10 * off + 10] = 4.0
            d[st["tokens"] + 4 * off : st["tokens"] + 4 * off + 4] = token_scale
            d[st["hand_sizes"] + 2 * off : st["hand_sizes"] + 2 * off + 2] = 10.0
        d[st["own_encounters"] : st["own_encounters"] + NUM_ENC_KINDS] = 6.0
        supply = st["supply"]
        d[supply : supply + 5] = 4.0
        d[supply + 5 + 2 * (P + 1) : supply + 9 + 2 * (P + 1)] = token_scale
        piles = st["piles"]
        d[piles + 55], d[piles + 56] = 55.0, 33.0
        d[piles + 57 : piles + 57 + NUM_ENC_KINDS] = 6.0
        d[st["pending"] + 75 : st["pending"] + 79] = 8.0
        d[st["team_debt"] : st["team_debt"] + 2] = 10.0
        return d

    # --- pieces built on a cache miss; each key is the bytes the encoder read the field into ---------
    @staticmethod
    def _boat_piece(key: bytes) -> bytes:
        """One boat's 77-entry block (the cards, the column and row one-hots, the last card, the icon
        counts) from ``expedition + [column, row]``."""
        out = bytearray(77)
        expedition = key[:-2]
        for card in expedition:
            out[card - 1] = 1
            icon = ICON[card]
            if icon >= 0:
                out[73 + icon] += 1
        if expedition:
            out[72] = expedition[-1]
        out[55 + key[-2]] = 1
        out[64 + key[-1]] = 1
        return bytes(out)

    @staticmethod
    def _mission_piece(key: bytes) -> bytes:
        """The 46 mission entries (tiles on the board, tiles set aside) from ``len(board) + board + set_aside``."""
        out = bytearray(46)
        for tile in key[1 : 1 + key[0]]:
            out[tile] = 1
        for tile in key[1 + key[0] :]:
            out[23 + tile] = 1
        return bytes(out)

    @staticmethod
    def _discard_piece(key: bytes) -> bytes:
        """The 55 entries of the navigation discard."""
        out = bytearray(55)
        for card in key:
            out[card - 1] = 1
        return bytes(out)

    @staticmethod
    def _enc_discard_piece(key: bytes) -> bytes:
        """Counts per encounter kind of the encounter discard."""
        out = bytearray(NUM_ENC_KINDS)
        for kind in key:
            out[kind] += 1
        return bytes(out)

    def native_specs(self, game) -> list[tuple]:
        """Per seat, the tables and offsets of ``pirate_envs._native.mch_counts`` (the order of its ``M_*``)."""
        st, P = self.start, self.num_players
        fields = ("select_boat", "own_hand", "own_picks", "revealed_picks", "boat_flags", "display", "expeditions")
        fields += ("skills", "known_cards", "history", "missions", "supply", "piles", "progress", "pending")
        return [
            (
                P,
                self.num_boats,
                act.SELECT,
                act.SKILL_CLAIM,
                int(game.team_mode),
                game.partner(seat) if game.team_mode else -1,
                tuple(game.boats_of[seat]),
                tuple(self._relative[seat]),
                tuple(game.boat_owner),
                ICON,
                *(st[name] for name in fields),
                st["team_debt"],
            )
            for seat in range(P)
        ]

    def encode(self, state: MadameChingState, seat: int) -> np.ndarray:
        """The observation of ``seat``: its counts written by the compiled twin where it is built
        (pirate_envs/core/native/), else by :meth:`_encode`; :func:`encode_reference` for a count that
        does not fit in a byte."""
        if NATIVE is not None:
            self._native_specs = self._native_specs or self.native_specs(state.game)
            buf = bytearray(self.size)
            if twin_writes("mch_counts", buf, state, seat, self._native_specs[seat]):
                return self.vector(buf, state)
        return self.encode_python(state, seat)

    def encode_python(self, state: MadameChingState, seat: int) -> np.ndarray:
        """The pure-Python encoder (the compiled twin's reference)."""
        try:
            return self._encode(state, seat)
        except ValueError:  # a count outside 0..255 (a hand-edited state): the plain encoder
            return encode_reference(state, seat)

    def _encode(self, state: MadameChingState, seat: int) -> np.ndarray:
        P = self.num_players
        st = self.start
        buf = bytearray(self.size)  # numerators; see the class docstring
        mv = memoryview(buf)  # slice writes: a bytearray copies a bytes value before a slice assignment
        game = state.game
        acting = not state.over and not state.truncated and state._current_player() == seat
        phase = state.phase
        if acting:
            buf[phase] = 1
            if phase == act.SELECT:
                buf[st["select_boat"] + state.select_boat] = 1
        base = st["own_hand"] - 1
        for card in state.hands[seat]:
            buf[base + card] = 1
        revealed = state.revealed
        shown = state.shown_picks
        picks = shown if revealed else state.picks
        base = st["own_picks"] - 1
        for i, b in enumerate(game.boats_of[seat]):
            if picks[b]:
                buf[base + 55 * i + picks[b]] = 1
        rel = self._relative[seat]
        acted = state.acted
        base_pick = st["revealed_picks"] - 1
        base_flag = st["boat_flags"]
        for i, b in enumerate(rel):
            if revealed and shown[b]:
                buf[base_pick + 55 * i + shown[b]] = 1
            if acted[b]:
                buf[base_flag + 2 * i] = 1
        if state.active_boat >= 0:
            buf[base_flag + 2 * self._relative_index[seat][state.active_boat] + 1] = 1
        # One cached block per boat (an action changes one boat), joined in the viewer's boat order.
        expeditions, positions, pieces = state.expeditions, state.positions, self._boat_pieces
        keys = [bytes([*expeditions[b], *positions[b]]) for b in rel]
        base = st["expeditions"]
        mv[base : base + 77 * self.num_boats] = b"".join(
            [pieces.get(key) or _cached(pieces, key, self._boat_piece) for key in keys]
        )
        base = st["display"]
        display = state.display
        buf[base + 56 if not display[0] else base + 55] = 1
        for s in (1, 2, 3):
            card = display[s]
            buf[base + 57 * s + (card - 1 if card else 56)] = 1
        # skills (10 per seat), tokens (4 per seat), own encounters (10), hand sizes (2 per seat) are
        # contiguous: one bytes() over them all, seats in viewer order (a rotation of the seats).
        # (bytes() of a list converts each int in C; over an iterator it costs several times more.)
        skills, tokens, enc_hands, hands = state.skills, state.tokens, state.enc_hands, state.hands
        sizes = self._sizes[:]
        sizes[::2] = map(sum, enc_hands[seat:] + enc_hands[:seat])
        sizes[1::2] = map(len, hands[seat:] + hands[:seat])
        seat_fields = bytes(
            reduce(iconcat, skills[seat:] + skills[:seat], [])
            + reduce(iconcat, tokens[seat:] + tokens[:seat], [])
            + enc_hands[seat]
            + sizes
        )
        base = st["skills"]
        mv[base : base + len(seat_fields)] = seat_fields
        # Cards known in other hands change with most draft picks (a content cache mostly misses): written
        # directly, offsets 1..n-1.
        known = state.known[seat]
        base = st["known_cards"] - 56
        for off in range(1, P):
            base += 55
            for card in known[(seat + off) % P]:
                buf[base + card] = 1
        base = st["history"]
        last_action = state.last_action
        mv[base : base + 13 * P] = b"".join([HISTORY_PIECES[k][t] for k, t in last_action[seat:] + last_action[:seat]])
        board = state.board
        key = bytes([len(board), *board, *state.set_aside])
        base = st["missions"]
        mv[base : base + 46] = _cached(self._mission_pieces, key, self._mission_piece)
        base = st["supply"]
        mv[base : base + 5] = bytes(state.stacks)
        base += 5
        buf[base + (0 if state.pearl_owner < 0 else 1 + (state.pearl_owner - seat) % P)] = 1
        base += P + 1
        buf[base + (0 if state.hk_owner < 0 else 1 + (state.hk_owner - seat) % P)] = 1
        base += P + 1
        mv[base : base + 4] = bytes(state.supply)
        base = st["piles"]
        if state.nav_discard:
            mv[base : base + 55] = _cached(self._discard_pieces, bytes(state.nav_discard), self._discard_piece)
        buf[base + 55] = len(state.nav_deck)
        buf[base + 56] = len(state.enc_deck)
        if state.enc_discard:
            mv[base + 57 : base + 57 + NUM_ENC_KINDS] = _cached(
                self._enc_discard_pieces, bytes(state.enc_discard), self._enc_discard_piece
            )
        progress = st["progress"]
        buf[progress + 1] = state.end_triggered
        buf[progress + 2] = game.team_mode
        if acting and phase != act.SELECT:
            base = st["pending"]
            if state.pending_enc >= 0:
                buf[base + state.pending_enc - 3] = 1
            if state.combat_card:
                buf[base + 7 + state.combat_card - 1] = 1
            if state.gift_queue:
                buf[base + 62 + state.gift_queue[0]] = 1
            if state.pending_target >= 0:
                buf[base + 72 + (state.pending_target - seat) % P - 1] = 1
            if phase == act.SKILL_CLAIM:
                mv[base + 75 : base + 79] = bytes(state.claim_pool)
        if game.team_mode:
            base = st["team_debt"]
            buf[base] = state.owes[seat]
            buf[base + 1] = state.owes[game.partner(seat)]
        return self.vector(buf, state)

    def vector(self, buf: bytearray, state: MadameChingState) -> np.ndarray:
        """The observation from its byte buffer of counts (by either encoder): each count over its scale,
        then the round's progress, the one entry whose numerator can exceed a byte."""
        o = np.frombuffer(buf, dtype=np.uint8) / self.divisor  # uint8 / float32 -> float32
        o[self.start["progress"]] = state.round / state.game.round_limit
        return o
