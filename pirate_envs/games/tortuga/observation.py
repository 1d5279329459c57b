"""What one seat sees in Tortuga 1667: the observation vector of TOR-1004, field by field.

Player blocks and player one-hots are in offset order from the viewer (k = 0 is the viewer).
Hidden information is never read except where the viewer may know it (Section 9): other
players' nations (unless revealed, spied, or the game is over), hoards and map holdings (only the
viewer's own and the public transfers), the unrevealed vote cards of other voters, the victim of
a steal the viewer took no part in, and whether a ``MAP_GIVE`` decision exists for someone else.

:func:`encode_reference` writes the vector field by field with no caches; :class:`ObservationEncoder`,
the one the game uses, gives the same vector faster (vote statistics by one precomputed permutation,
the log and the last vote cached per viewer by content), or, where the compiled module is built
(pirate_envs/core/native/), lets its twin ``tor_counts`` (native/encode.c) write the stored bytes.
"""

from __future__ import annotations

from array import array
from functools import reduce
from operator import iconcat, itemgetter
from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.native import NATIVE, twin_writes
from pirate_envs.core.observation_layout import layout_size, layout_slices
from pirate_envs.games.tortuga.board import LOG_LENGTH, NUM_CARD_TYPES, NUM_LOG_TYPES

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState

OBSERVATION_LOW = -64.0
OBSERVATION_HIGH = 1.0e4
PLAYER_BLOCK = 26
LOG_CACHE_LIMIT = 20_000  # log-entry pieces, whole logs, last votes kept per viewer (cleared when full)
BIAS = 128  # added to the entries that can be negative while they are stored as bytes


def observation_size(n: int) -> int:
    """TOR-1004: 2n² + 71n + 508."""
    return 2 * n * n + 71 * n + 508


def field_slices(n: int) -> dict[str, slice]:
    """Name -> slice of every top-level field of the observation (TOR-1004 table order)."""
    sizes = [
        ("phase", 14),
        ("round", 1),
        ("active_player", n),
        ("start_player", n),
        ("counts", 3),
        ("drawn_by_type", 12),
        ("players", PLAYER_BLOCK * n),
        ("own", 3),
        ("vote_stats", 2 * n * n + 2 * n),
        ("current_vote", 9 + 8 * n),
        ("last_vote", 7 + 7 * n),
        ("loot", 3 + n),
        ("event", 12 + n),
        ("log", LOG_LENGTH * (37 + 2 * n)),
    ]
    assert layout_size(sizes) == observation_size(n)
    return layout_slices(sizes)


def encode_reference(state: TortugaState, seat: int) -> np.ndarray:
    """The observation of ``seat`` written out field by field with no caches (slow, plain): the
    reference :meth:`ObservationEncoder.encode` must equal."""
    e = state.game.encoder
    n = e.n
    obs = e.zeros[:]  # array('f'): item writes are cheaper than on an ndarray; one copy at the end
    if state.current_player() == seat:
        obs[e.o_phase + state.phase] = 1.0
    obs[e.o_round] = state.round
    obs[e.o_active + (state.active - seat) % n] = 1.0
    obs[e.o_start + (state.start - seat) % n] = 1.0
    obs[e.o_counts] = state.galleon
    obs[e.o_counts + 1] = state.supply
    obs[e.o_counts + 2] = len(state.deck)
    obs[e.o_drawn : e.o_drawn + NUM_CARD_TYPES] = array("f", state.drawn)
    order = [(seat + k) % n for k in range(n)]
    base = e.o_players
    my_steal = state.steal_delta[seat]
    my_maps = state.map_delta[seat]
    for k, p in enumerate(order):
        obs[base + state.pos[p]] = 1.0
        obs[base + 8 + state.role[p]] = 1.0
        obs[base + 16] = float(state.exiled[p])
        if k == 0 or state.nation_known(seat, p):  # TOR-901 (all at the end, TOR-703)
            obs[base + 18 + state.nation[p]] = 1.0
        else:
            obs[base + 17] = 1.0
        obs[base + 21] = state.pub_treasure[p]
        obs[base + 22] = state.steals_made[p]
        obs[base + 23] = my_steal[p]
        obs[base + 24] = state.pub_maps[p]
        obs[base + 25] = my_maps[p]
        base += PLAYER_BLOCK
    o = e.o_own
    obs[o] = state.hoard[seat]
    obs[o + 1] = state.maps[seat]
    obs[o + 2] = float(state.game.options["wild_cooldown"] and state.wild_lock[seat])
    if state.votes_initiated != e.no_votes:
        yes_by, yes_vs = state.yes_by, state.yes_vs
        stats = [yes_by[p][q] for p in order for q in order]
        stats += [yes_vs[p][q] for p in order for q in order]
        stats += [state.votes_initiated[p] for p in order]
        stats += [state.votes_targeting[p] for p in order]
        obs[e.o_yes_by : e.o_yes_by + len(stats)] = array("f", stats)
    vote = state.vote
    if vote is not None:
        obs[e.cv_type + vote["type"]] = 1.0
        obs[e.cv_init + (vote["initiator"] - seat) % n] = 1.0
        if vote["target"] >= 0:
            obs[e.cv_target + (vote["target"] - seat) % n] = 1.0
        for p in vote["participants"]:
            obs[e.cv_part + (p - seat) % n] = 1.0
        own = vote["cards"][seat]
        if own >= 0:
            obs[e.cv_own + own] = 1.0
        if vote["revealed"]:
            cards, decl = vote["cards"], vote["decl"]
            for k, p in enumerate(order):
                obs[e.cv_cards + 3 * k + cards[p]] = 1.0
                if decl[p] >= 0:
                    obs[e.cv_decl + 2 * k + decl[p]] = 1.0
    last = state.last_vote
    if last is not None:
        obs[e.lv_type + last["type"]] = 1.0
        obs[e.lv_init + (last["initiator"] - seat) % n] = 1.0
        if last["target"] >= 0:
            obs[e.lv_target + (last["target"] - seat) % n] = 1.0
        cards, final = last["cards"], last["final"]
        for k, p in enumerate(order):
            obs[e.lv_cards + 3 * k + cards[p]] = 1.0
            obs[e.lv_final + 2 * k + final[p]] = 1.0
        obs[e.lv_passed] = float(last["passed"])
        if last["die"] >= 0:
            obs[e.lv_die + last["die"]] = 1.0
    loot = state.loot
    if loot is not None:
        o = e.o_loot
        obs[o] = loot["left"]
        obs[o + 1] = loot["dice"]
        obs[o + 2] = loot["successes"]
        assigned = loot["assigned"]
        for k, p in enumerate(order):
            obs[o + 3 + k] = assigned[p]
    event = state.event
    if event is not None:
        obs[e.o_event + event["card"]] = 1.0
        if event["target"] >= 0:
            obs[e.o_event + 12 + (event["target"] - seat) % n] = 1.0
    if state.log:
        log_obs = array("f", bytes(4 * e.log_size))
        public_steal = state.game.options["public_steal"]
        o = 0
        for entry in reversed(state.log):
            kind, actor, target, node, card, value, secret = entry
            log_obs[o + kind] = 1.0
            log_obs[o + NUM_LOG_TYPES + (actor - seat) % n] = 1.0
            visible = secret < 0 or public_steal or seat in (actor, target)
            if target >= 0 and visible:
                log_obs[o + NUM_LOG_TYPES + n + (target - seat) % n] = 1.0
            if node >= 0:
                log_obs[o + NUM_LOG_TYPES + 2 * n + node] = 1.0
            if card >= 0:
                log_obs[o + NUM_LOG_TYPES + 2 * n + 8 + card] = 1.0
            if visible:
                log_obs[o + e.log_entry - 1] = value
            o += e.log_entry
        obs[e.o_log : e.o_log + e.log_size] = log_obs
    return np.frombuffer(obs, dtype=np.float32)


ONE_HOT_3 = (b"\x01\x00\x00", b"\x00\x01\x00", b"\x00\x00\x01")  # a vote card (TOR-1004)
ONE_HOT_2 = (b"\x01\x00", b"\x00\x01")  # a declaration / final vote


def _vote_stats_order(n: int, seat: int) -> itemgetter:
    """Picks the vote statistics (yes_by, yes_vs, votes_initiated, votes_targeting) in ``seat``'s order out
    of the absolute ones flattened as ``votes_initiated + votes_targeting + yes_by rows + yes_vs rows``."""
    order = [(seat + k) % n for k in range(n)]
    picks = [2 * n + m * n * n + p * n + q for m in (0, 1) for p in order for q in order]
    picks += [p for p in order] + [n + p for p in order]
    return itemgetter(*picks)


class ObservationEncoder:
    """Writes the observation of one seat; offsets are computed once per player count.

    Every entry is an integer, so ``encode`` writes them into one ``bytearray`` (an item write there
    is several times cheaper than on an ``array('f')``, which parses each float) and converts once.
    The entries that can be negative (the public treasure and map counts, which a secret steal takes
    below 0; the viewer's steal and map deltas; a log entry's value) are stored plus ``BIAS``, which
    the conversion subtracts again (exact: small integers). A value that does not fit (only in a
    hand-edited state) falls back to :func:`encode_reference`.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = observation_size(n)
        self.zeros = array("f", bytes(4 * self.size))  # for encode_reference
        self.slices = field_slices(n)
        s = {name: sl.start for name, sl in self.slices.items()}
        self.o_phase = s["phase"]
        self.o_round = s["round"]
        self.o_active = s["active_player"]
        self.o_start = s["start_player"]
        self.o_counts = s["counts"]
        self.o_drawn = s["drawn_by_type"]
        self.o_players = s["players"]
        self.o_own = s["own"]
        self.o_yes_by = s["vote_stats"]
        self.o_yes_vs = self.o_yes_by + n * n
        self.o_initiated = self.o_yes_vs + n * n
        self.o_targeting = self.o_initiated + n
        cv = s["current_vote"]
        self.cv_type, self.cv_init, self.cv_target = cv, cv + 4, cv + 4 + n
        self.cv_part, self.cv_own = cv + 4 + 2 * n, cv + 4 + 3 * n
        self.cv_cards, self.cv_decl = cv + 7 + 3 * n, cv + 7 + 6 * n
        self.cv_die = cv + 7 + 8 * n
        lv = s["last_vote"]
        self.lv_type, self.lv_init, self.lv_target = lv, lv + 4, lv + 4 + n
        self.lv_cards, self.lv_final = lv + 4 + 2 * n, lv + 4 + 5 * n
        self.lv_passed, self.lv_die = lv + 4 + 7 * n, lv + 5 + 7 * n
        self.o_loot = s["loot"]
        self.o_event = s["event"]
        self.o_log = s["log"]
        self.log_entry = 37 + 2 * n
        self.log_size = LOG_LENGTH * self.log_entry
        # Per viewer: log entry (as a tuple) -> its bytes as that viewer sees it.
        self.log_pieces: list[dict[tuple[int, ...], bytes]] = [{} for _ in range(n)]
        # Per viewer: the whole log (a tuple of entry tuples) -> its bytes. The log changes only when an
        # entry is added, so most observations find it here.
        self.log_bytes: list[dict[tuple[tuple[int, ...], ...], bytes]] = [{} for _ in range(n)]
        self.vote_stats_order = [_vote_stats_order(n, seat) for seat in range(n)]
        self.last_vote_bytes: list[dict[tuple, bytes]] = [{} for _ in range(n)]  # per viewer, by content
        self.no_votes = [0] * n
        self.order = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        biased = [self.o_players + PLAYER_BLOCK * k + d for k in range(n) for d in (21, 23, 24, 25)]
        biased += [self.o_log + self.log_entry * (i + 1) - 1 for i in range(LOG_LENGTH)]
        template = bytearray(self.size)
        bias = np.zeros(self.size, dtype=np.float32)
        for i in biased:
            template[i] = BIAS
            bias[i] = BIAS
        self.template = bytes(template)  # a vector of zeros, as stored
        self.bias = bias
        self.empty_log_entry = bytes(self.log_entry - 1) + bytes([BIAS])
        self._native_spec: tuple | None = None  # made from the game on first use

    def native_spec(self, game) -> tuple:
        """The constants and offsets of ``pirate_envs._native.tor_counts`` (the order of its ``T_*``)."""
        options = game.options
        return (
            self.n,
            int(bool(options["wild_cooldown"])),
            int(bool(options["public_steal"])),
            NUM_CARD_TYPES,
            NUM_LOG_TYPES,
            BIAS,
            PLAYER_BLOCK,
            self.log_entry,
            self.o_phase,
            self.o_round,
            self.o_active,
            self.o_start,
            self.o_counts,
            self.o_players,
            self.o_own,
            self.o_yes_by,
            self.cv_type,
            self.cv_init,
            self.cv_target,
            self.cv_part,
            self.cv_own,
            self.cv_cards,
            self.cv_decl,
            self.lv_type,
            self.o_loot,
            self.o_event,
            self.o_log,
        )

    def encode(self, state: TortugaState, seat: int) -> np.ndarray:
        """The observation of ``seat``: its stored bytes written by the compiled twin where it is built
        (pirate_envs/core/native/), else by :meth:`_encode`; :func:`encode_reference` for a value that
        does not fit in a byte."""
        if NATIVE is not None:
            self._native_spec = self._native_spec or self.native_spec(state.game)
            buf = bytearray(self.template)
            if twin_writes("tor_counts", buf, state, seat, self._native_spec):
                return self.vector(buf)
        return self.encode_python(state, seat)

    def encode_python(self, state: TortugaState, seat: int) -> np.ndarray:
        """The pure-Python encoder (the compiled twin's reference)."""
        try:
            return self._encode(state, seat)
        except ValueError:  # a value outside the byte range (a hand-edited state): the plain encoder
            return encode_reference(state, seat)

    def _encode(self, state: TortugaState, seat: int) -> np.ndarray:
        n = self.n
        buf = bytearray(self.template)
        mv = memoryview(buf)  # slice writes: a bytearray copies a bytes value before a slice assignment
        if state.current_player() == seat:
            buf[self.o_phase + state.phase] = 1
        buf[self.o_round] = state.round
        buf[self.o_active + (state.active - seat) % n] = 1
        buf[self.o_start + (state.start - seat) % n] = 1
        o = self.o_counts
        mv[o : o + 3 + NUM_CARD_TYPES] = bytes([state.galleon, state.supply, len(state.deck), *state.drawn])
        self._write_players(state, seat, buf)
        o = self.o_own
        buf[o] = state.hoard[seat]
        buf[o + 1] = state.maps[seat]
        if state.game.options["wild_cooldown"] and state.wild_lock[seat]:
            buf[o + 2] = 1
        initiated = state.votes_initiated
        if initiated != self.no_votes:
            flat = reduce(iconcat, state.yes_by + state.yes_vs, initiated + state.votes_targeting)
            stats = bytes(self.vote_stats_order[seat](flat))
            mv[self.o_yes_by : self.o_yes_by + len(stats)] = stats
        vote = state.vote
        if vote is not None:
            self._write_vote(vote, seat, buf)
        last = state.last_vote
        if last is not None:
            # The last vote stays the same for many decisions: its field is cached per viewer by content.
            key = (last["type"], last["initiator"], last["target"], *last["cards"], *last["final"])
            key += (bool(last["passed"]), last["die"])
            cache = self.last_vote_bytes[seat]
            piece = cache.get(key)
            if piece is None:
                piece = self._last_vote_piece(last, seat)
                if len(cache) >= LOG_CACHE_LIMIT:
                    cache.clear()
                cache[key] = piece
            mv[self.lv_type : self.lv_type + len(piece)] = piece
        loot = state.loot
        if loot is not None:
            o = self.o_loot
            assigned = loot["assigned"]
            mv[o : o + 3 + n] = bytes(
                [loot["left"], loot["dice"], loot["successes"], *assigned[seat:], *assigned[:seat]]
            )
        event = state.event
        if event is not None:
            buf[self.o_event + event["card"]] = 1
            if event["target"] >= 0:
                buf[self.o_event + 12 + (event["target"] - seat) % n] = 1
        if state.log:
            log = self._log_bytes(state, seat)
            mv[self.o_log : self.o_log + len(log)] = log
        return self.vector(buf)

    def vector(self, buf: bytearray) -> np.ndarray:
        """The observation from its stored bytes (by either encoder): the biased entries unbiased."""
        return np.frombuffer(buf, dtype=np.uint8) - self.bias  # uint8 - float32 -> float32

    def _write_players(self, state: TortugaState, seat: int, buf: bytearray) -> None:
        """The player blocks in ``seat``'s order (item writes beat building pieces at this size)."""
        base = self.o_players
        pos, role, exiled, nation = state.pos, state.role, state.exiled, state.nation
        pub_treasure, steals_made, pub_maps = state.pub_treasure, state.steals_made, state.pub_maps
        my_steal, my_maps = state.steal_delta[seat], state.map_delta[seat]
        revealed, spied, over = state.revealed, state.spied[seat], state.game_over
        for p in self.order[seat]:
            buf[base + pos[p]] = 1
            buf[base + 8 + role[p]] = 1
            if exiled[p]:
                buf[base + 16] = 1
            if p == seat or revealed[p] or over or spied[p]:  # TOR-901 nation_known, inlined (TOR-703)
                buf[base + 18 + nation[p]] = 1
            else:
                buf[base + 17] = 1
            buf[base + 21] = pub_treasure[p] + BIAS
            buf[base + 22] = steals_made[p]
            buf[base + 23] = my_steal[p] + BIAS
            buf[base + 24] = pub_maps[p] + BIAS
            buf[base + 25] = my_maps[p] + BIAS
            base += PLAYER_BLOCK

    def _last_vote_piece(self, last: dict, seat: int) -> bytes:
        """The last_vote field as ``seat`` sees it (offsets relative to the field's start)."""
        n = self.n
        out = bytearray(7 + 7 * n)
        out[last["type"]] = 1
        out[4 + (last["initiator"] - seat) % n] = 1
        if last["target"] >= 0:
            out[4 + n + (last["target"] - seat) % n] = 1
        cards, final = last["cards"], last["final"]
        o = 4 + 2 * n
        out[o : o + 3 * n] = b"".join([ONE_HOT_3[c] for c in cards[seat:] + cards[:seat]])
        o = 4 + 5 * n
        out[o : o + 2 * n] = b"".join([ONE_HOT_2[f] for f in final[seat:] + final[:seat]])
        if last["passed"]:
            out[4 + 7 * n] = 1
        if last["die"] >= 0:
            out[5 + 7 * n + last["die"]] = 1
        return bytes(out)

    def _write_vote(self, vote: dict, seat: int, buf: bytearray) -> None:
        """The vote in progress (current_vote), as ``seat`` may see it."""
        n = self.n
        buf[self.cv_type + vote["type"]] = 1
        buf[self.cv_init + (vote["initiator"] - seat) % n] = 1
        if vote["target"] >= 0:
            buf[self.cv_target + (vote["target"] - seat) % n] = 1
        for p in vote["participants"]:
            buf[self.cv_part + (p - seat) % n] = 1
        own = vote["cards"][seat]
        if own >= 0:
            buf[self.cv_own + own] = 1
        if vote["revealed"]:
            cards, decl = vote["cards"], vote["decl"]
            for k, p in enumerate(self.order[seat]):
                buf[self.cv_cards + 3 * k + cards[p]] = 1
                if decl[p] >= 0:
                    buf[self.cv_decl + 2 * k + decl[p]] = 1

    def _log_bytes(self, state: TortugaState, seat: int) -> bytes:
        """The log field as ``seat`` sees it (newest entry first), cached per viewer by the log's content."""
        key = tuple(map(tuple, state.log))
        cache = self.log_bytes[seat]
        log = cache.get(key)
        if log is None:
            pieces = self.log_pieces[seat]
            log = b"".join([pieces.get(entry) or self._log_entry_piece(state, seat, entry) for entry in reversed(key)])
            if len(cache) >= LOG_CACHE_LIMIT:
                cache.clear()
            cache[key] = log
        return log

    def _log_entry_piece(self, state: TortugaState, seat: int, entry: tuple[int, ...]) -> bytes:
        """One log entry as ``seat`` sees it (stored bytes, value plus BIAS), cached per viewer by the
        entry's content: an entry stays in the log for up to LOG_LENGTH turns and every seat sees it."""
        n = self.n
        out = bytearray(self.empty_log_entry)
        kind, actor, target, node, card, value, secret = entry
        out[kind] = 1
        out[NUM_LOG_TYPES + (actor - seat) % n] = 1
        visible = secret < 0 or state.game.options["public_steal"] or seat in (actor, target)
        if target >= 0 and visible:
            out[NUM_LOG_TYPES + n + (target - seat) % n] = 1
        if node >= 0:
            out[NUM_LOG_TYPES + 2 * n + node] = 1
        if card >= 0:
            out[NUM_LOG_TYPES + 2 * n + 8 + card] = 1
        if visible:
            out[self.log_entry - 1] = value + BIAS
        piece = bytes(out)
        pieces = self.log_pieces[seat]
        if len(pieces) >= LOG_CACHE_LIMIT:
            pieces.clear()
        pieces[entry] = piece
        return piece
