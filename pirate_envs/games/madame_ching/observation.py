"""The observation of Madame Ching (MCH-1005, MCH-1006, MCH-1009): what one seat may see, as floats.

Seats and boats are relative to the observer (self first, then offsets 1, 2, 3; with 2 players
boats are self A, self B, opponent A, opponent B). Only the acting seat gets the phase, select
boat and pending fields; every other seat sees them as zeros (MCH-1006).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.layout import layout_slices
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


# MCH-1006 history of one seat: last action kind one-hot (9), then its target offset one-hot (4).
HISTORY_PIECES = tuple(
    tuple(bytes(1 if i in (kind, 9 + target) else 0 for i in range(13)) for target in range(4)) for kind in range(9)
)

# Bound on a content-keyed piece cache (pieces are ~60 bytes; cleared when full).
PIECE_CACHE_LIMIT = 20_000


class ObservationEncoder:
    """Builds ``observation(seat)`` for one player count.

    Every entry of the vector is a small count over a fixed divisor (1 for the 0/1 entries, 46 for
    gold tokens, 4 for skill cards, ...). ``encode`` writes the counts into one ``bytearray`` and
    divides by the per-entry divisors in a single numpy call: the float32 quotient is correctly
    rounded, so it equals the float64 quotient cast to float32 (double rounding is exact for
    division when the wide format has > 2p+1 bits). The one entry whose numerator is unbounded
    (the round number, with a large ``round_limit``) is written as a float afterwards.
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
        # Content-keyed pieces of the fields that change a few times a round, not every decision.
        self._discard_pieces: dict[bytes, bytes] = {}
        self._enc_discard_pieces: dict[bytes, bytes] = {}
        self._expedition_pieces: dict[bytes, bytes] = {}
        self._mission_pieces: dict[tuple[bytes, bytes], bytes] = {}

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

    def _discard_piece(self, cards: list[int]) -> bytes:
        """The 55 card entries of the navigation discard, cached by content (it changes once a round)."""
        key = bytes(cards)
        piece = self._discard_pieces.get(key)
        if piece is None:
            row = bytearray(55)
            for card in cards:
                row[card - 1] = 1
            piece = bytes(row)
            if len(self._discard_pieces) >= PIECE_CACHE_LIMIT:
                self._discard_pieces.clear()
            self._discard_pieces[key] = piece
        return piece

    def _enc_discard_piece(self, kinds: list[int]) -> bytes:
        """Counts per encounter kind of the encounter discard, cached by content."""
        key = bytes(kinds)
        piece = self._enc_discard_pieces.get(key)
        if piece is None:
            row = bytearray(NUM_ENC_KINDS)
            for kind in kinds:
                row[kind] += 1
            piece = bytes(row)
            if len(self._enc_discard_pieces) >= PIECE_CACHE_LIMIT:
                self._enc_discard_pieces.clear()
            self._enc_discard_pieces[key] = piece
        return piece

    def _expedition_piece(self, key: bytes) -> bytes:
        """An expedition block (77 entries: the cards, the column and row one-hots, the last card, the
        icon counts) from ``bytes(expedition + [column, row])``, cached by content."""
        piece = self._expedition_pieces.get(key)
        if piece is None:
            *cards, column, row = key
            block = bytearray(77)
            for card in cards:
                block[card - 1] = 1
                icon = ICON[card]
                if icon >= 0:
                    block[73 + icon] += 1
            if cards:
                block[72] = cards[-1]
            block[55 + column] = 1
            block[64 + row] = 1
            piece = bytes(block)
            if len(self._expedition_pieces) >= PIECE_CACHE_LIMIT:
                self._expedition_pieces.clear()
            self._expedition_pieces[key] = piece
        return piece

    def _mission_piece(self, board: list[int], set_aside: list[int]) -> bytes:
        """The 46 mission entries (tiles on the board, tiles set aside), cached by content."""
        key = (bytes(board), bytes(set_aside))
        piece = self._mission_pieces.get(key)
        if piece is None:
            row = bytearray(46)
            for tile in board:
                row[tile] = 1
            for tile in set_aside:
                row[23 + tile] = 1
            piece = bytes(row)
            if len(self._mission_pieces) >= PIECE_CACHE_LIMIT:
                self._mission_pieces.clear()
            self._mission_pieces[key] = piece
        return piece

    def encode(self, state: MadameChingState, seat: int) -> np.ndarray:
        P = self.num_players
        st = self.start
        buf = bytearray(self.size)  # numerators; see the class docstring
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
        if revealed:
            base = st["revealed_picks"] - 1
            for i, b in enumerate(rel):
                if shown[b]:
                    buf[base + 55 * i + shown[b]] = 1
        base = st["boat_flags"]
        acted = state.acted
        buf[base : base + 2 * len(rel) : 2] = bytes([acted[b] for b in rel])
        if state.active_boat >= 0:
            buf[base + 2 * self._relative_index[seat][state.active_boat] + 1] = 1
        expeditions, positions = state.expeditions, state.positions
        base = st["expeditions"]
        pieces = self._expedition_pieces
        blocks = []
        for b in rel:
            key = bytes(expeditions[b] + positions[b])
            blocks.append(pieces.get(key) or self._expedition_piece(key))
        buf[base : base + 77 * len(rel)] = b"".join(blocks)
        base = st["display"]
        display = state.display
        buf[base + 56 if not display[0] else base + 55] = 1
        for s in (1, 2, 3):
            card = display[s]
            buf[base + 57 * s + (card - 1 if card else 56)] = 1
        # Per-seat fields in viewer order (order is a rotation of the seats).
        skills, tokens, enc_hands, hands = state.skills, state.tokens, state.enc_hands, state.hands
        base = st["skills"]
        buf[base : base + 10 * P] = b"".join(map(bytes, skills[seat:] + skills[:seat]))
        base = st["tokens"]
        buf[base : base + 4 * P] = b"".join(map(bytes, tokens[seat:] + tokens[:seat]))
        base = st["hand_sizes"]
        buf[base : base + 2 * P : 2] = bytes(map(sum, enc_hands[seat:] + enc_hands[:seat]))
        buf[base + 1 : base + 2 * P : 2] = bytes(map(len, hands[seat:] + hands[:seat]))
        known = state.known[seat]
        base = st["known_cards"] - 56  # offset 1 starts the field; card numbers start at 1
        for off in range(1, P):
            base += 55
            for card in known[(seat + off) % P]:
                buf[base + card] = 1
        base = st["history"]
        last_action = state.last_action
        buf[base : base + 13 * P] = b"".join([HISTORY_PIECES[k][t] for k, t in last_action[seat:] + last_action[:seat]])
        base = st["own_encounters"]
        buf[base : base + NUM_ENC_KINDS] = enc_hands[seat]
        base = st["missions"]
        buf[base : base + 46] = self._mission_piece(state.board, state.set_aside)
        base = st["supply"]
        buf[base : base + 5] = state.stacks
        base += 5
        buf[base + (0 if state.pearl_owner < 0 else 1 + (state.pearl_owner - seat) % P)] = 1
        base += P + 1
        buf[base + (0 if state.hk_owner < 0 else 1 + (state.hk_owner - seat) % P)] = 1
        base += P + 1
        buf[base : base + 4] = state.supply
        base = st["piles"]
        if state.nav_discard:
            buf[base : base + 55] = self._discard_piece(state.nav_discard)
        buf[base + 55] = len(state.nav_deck)
        buf[base + 56] = len(state.enc_deck)
        if state.enc_discard:
            buf[base + 57 : base + 57 + NUM_ENC_KINDS] = self._enc_discard_piece(state.enc_discard)
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
                buf[base + 75 : base + 79] = state.claim_pool
        if game.team_mode:
            base = st["team_debt"]
            buf[base] = state.owes[seat]
            buf[base + 1] = state.owes[game.partner(seat)]
        o = np.frombuffer(buf, dtype=np.uint8) / self.divisor  # uint8 / float32 -> float32
        o[progress] = state.round / game.round_limit
        return o
