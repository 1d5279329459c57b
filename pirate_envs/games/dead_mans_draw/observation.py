"""The observer: what seat ``s`` sees, as one float32 vector (DMD-1010..1012, DMD-1060..1087, Section 9).

Visibility is decided here and only here. The vector concatenates the fields of :func:`field_specs`
in order (look them up by name with :func:`field_slices`); its length is ``675 + 88n``
(851 / 939 / 1027). Per-seat axes are indexed by *offset* from the observer (offset 0 = itself);
"62" multi-hot vectors are indexed by card id.

:meth:`ObservationEncoder.encode_python` is the encoder in Python; where the compiled module is built
(pirate_envs/core/native/) its twin ``dmd_encode`` (native/encode.c) writes the same vector.

Hidden from ``s`` (DMD-901..912): the draw pile order except ``s``'s own peeks (``known_top``), the
other players' dealt ability cards, and their kept ability before the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pirate_envs.core.native import twin_vector
from pirate_envs.core.observation_layout import layout_size, layout_slices
from pirate_envs.games.dead_mans_draw.actions import GAME_OVER, LOCKER_ACCEPT, MAP_PICK, MERMAID_PICK, RAKE_PICK
from pirate_envs.games.dead_mans_draw.cards import (
    CARD_VALUE,
    FORCED_DRAW_MAX,
    GRAND_SLAM,
    NUM_ABILITIES,
    NUM_CARDS,
    NUM_SUITS,
    PIRI_REIS,
)

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdGame, DmdState

ROW_SCALE = 12.0  # DMD-1065
DECK_SCALE = 60.0  # DMD-1070, DMD-1083
SCORE_SCALE = 100.0  # DMD-1075
PLUNDER_SCALE = 20.0  # DMD-1082


def field_specs(num_players: int) -> list[tuple[str, int, str]]:
    """``(name, size, rule id)`` of every observation field, in vector order."""
    n = num_players
    return [
        ("phase", 12, "DMD-1060"),
        ("active_player", n, "DMD-1061"),
        ("my_collection", NUM_CARDS, "DMD-1062"),
        ("opp_collections", NUM_CARDS * (n - 1), "DMD-1063"),
        ("row_cards", NUM_CARDS, "DMD-1064"),
        ("row_position", NUM_CARDS, "DMD-1065"),
        ("marker_position", 1, "DMD-1066"),
        ("row_hook_protected", NUM_CARDS, "DMD-1067"),
        ("discard_pile", NUM_CARDS, "DMD-1068"),
        ("draw_pile_cards", NUM_CARDS, "DMD-1069"),
        ("draw_pile_size", 1, "DMD-1070"),
        ("known_top", 3 * NUM_CARDS, "DMD-1071"),
        ("my_dealt_abilities", NUM_ABILITIES, "DMD-1072"),
        ("abilities", NUM_ABILITIES * n, "DMD-1073"),
        ("locker_target", n, "DMD-1074"),
        ("scores", n, "DMD-1075"),
        ("eliminated", n, "DMD-1076"),
        ("config", 10, "DMD-1077"),
        ("forced_draws", 1, "DMD-1078"),
        ("offer_cards", NUM_CARDS, "DMD-1079"),
        ("miser_first_suit", NUM_SUITS, "DMD-1080"),
        ("plunder_target", n - 1, "DMD-1081"),
        ("plunder_remaining", 1, "DMD-1082"),
        ("turns_taken_busts", 2 * n, "DMD-1083"),
        ("last_turn_player", n, "DMD-1084"),
        ("last_turn_cards", NUM_CARDS, "DMD-1085"),
        ("last_turn_busted", 1, "DMD-1086"),
        ("decision_progress", 1, "DMD-1087"),
    ]


# The fields the compiled encoder writes (every field but ``opp_collections``, which ``my_collection``'s
# offset reaches, and ``config``'s fixed entries), in the order of the ``S_PHASE ..`` part of its spec.
NATIVE_FIELDS = (
    "phase",
    "active_player",
    "my_collection",
    "row_cards",
    "row_position",
    "marker_position",
    "row_hook_protected",
    "discard_pile",
    "draw_pile_cards",
    "draw_pile_size",
    "known_top",
    "my_dealt_abilities",
    "abilities",
    "locker_target",
    "scores",
    "eliminated",
    "config",
    "forced_draws",
    "offer_cards",
    "miser_first_suit",
    "plunder_target",
    "plunder_remaining",
    "turns_taken_busts",
    "last_turn_player",
    "last_turn_cards",
    "last_turn_busted",
    "decision_progress",
)


def field_slices(num_players: int) -> dict[str, slice]:
    return layout_slices(field_specs(num_players))


def observation_size(num_players: int) -> int:
    return layout_size(field_specs(num_players))


class ObservationEncoder:
    """Builds the observation of one seat from a state (offsets precomputed per game)."""

    def __init__(self, game: DmdGame) -> None:
        n = game.num_players
        self.n = n
        self.size = observation_size(n)
        self.at = {name: sl.start for name, sl in field_slices(n).items()}
        flags = (game.mermaid_variant, game.characters, game.starting_discard)
        self.config_ones = [7 + i for i, on in enumerate(flags) if on]  # DMD-1077
        self.max_decisions = float(game.max_decisions)
        self.deck = game.deck
        self.native_spec = self._native_spec()

    def _native_spec(self) -> tuple:
        """The constants and offsets of ``pirate_envs._native.dmd_encode`` (the order of its ``S_*`` enum)."""
        constants = (
            self.size,
            self.n,
            NUM_CARDS,
            NUM_ABILITIES,
            GAME_OVER,
            MAP_PICK,
            LOCKER_ACCEPT,
            MERMAID_PICK,
            RAKE_PICK,
            ROW_SCALE,
            DECK_SCALE,
            SCORE_SCALE,
            PLUNDER_SCALE,
            float(FORCED_DRAW_MAX),
            self.max_decisions,
            NUM_SUITS,
            PIRI_REIS,
            GRAND_SLAM,
            tuple(self.config_ones),
            CARD_VALUE,
        )
        return constants + tuple(self.at[name] for name in NATIVE_FIELDS)

    def encode(self, state: DmdState, seat: int) -> np.ndarray:
        """The observation of ``seat``: the compiled twin where it is built (pirate_envs/core/native/),
        else (or when it meets a value it does not expect) :meth:`encode_python`."""
        out = twin_vector("dmd_encode", self.size, state, seat, self.native_spec)
        return self.encode_python(state, seat) if out is None else out

    def encode_python(self, state: DmdState, seat: int) -> np.ndarray:
        """The reference encoder (pure Python). Every 0/1 entry is written into one bytearray (fast
        single-byte stores), cast once to float32; the few fractional entries are then stored one by one."""
        buf = bytearray(self.size)
        self._write_cards(buf, state, seat)
        self._write_abilities(buf, state, seat)
        self._write_decision(buf, state, seat)
        obs = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        self._write_fractions(obs, state, seat)
        return obs

    def _write_cards(self, buf: bytearray, state: DmdState, seat: int) -> None:
        """The phase and active player, then where the cards are: collections, piles, the row, known tops."""
        n = self.n
        at = self.at
        phase = state.phase
        if phase != GAME_OVER:
            if state.decider == seat:
                buf[at["phase"] + phase] = 1
            buf[at["active_player"] + (state.active - seat) % n] = 1
        # collections (DMD-1062, 1063): opp_collections follows my_collection directly
        base = at["my_collection"]
        collections = state.collections
        for k in range(n):
            off = base + NUM_CARDS * k
            for stack in collections[(seat + k) % n]:
                for c in stack:
                    buf[off + c] = 1
        off = at["discard_pile"]
        for c in state.discard:
            buf[off + c] = 1
        pile = state.draw_pile
        off = at["draw_pile_cards"]
        for c in pile:
            buf[off + c] = 1
        row = state.row
        if row:
            off = at["row_cards"]
            for c in row:
                if c >= 0:
                    buf[off + c] = 1
            if state.hook_protected:
                off = at["row_hook_protected"]
                for c in state.hook_protected:
                    if c in row:
                        buf[off + c] = 1
        known = state.known[seat]
        if known:
            off = at["known_top"]
            for depth in range(min(3, len(pile))):
                c = pile[-1 - depth]
                if c in known:
                    buf[off + NUM_CARDS * depth + c] = 1

    def _write_abilities(self, buf: bytearray, state: DmdState, seat: int) -> None:
        """Abilities (DMD-1072, 1073; DMD-1012 e), the Locker's target, eliminations and the rules in play."""
        n = self.n
        at = self.at
        off = at["my_dealt_abilities"]
        for a in state.dealt[seat]:
            buf[off + a] = 1
        off = at["abilities"]
        kept = state.kept
        if state.revealed:
            for k in range(n):
                a = kept[(seat + k) % n]
                if a >= 0:
                    buf[off + NUM_ABILITIES * k + a] = 1
        elif kept[seat] >= 0:
            buf[off + kept[seat]] = 1
        if state.locker_target >= 0:
            buf[at["locker_target"] + (state.locker_target - seat) % n] = 1
        if any(state.eliminated):
            off = at["eliminated"]
            for k in range(n):
                if state.eliminated[(seat + k) % n]:
                    buf[off + k] = 1
        off = at["config"]
        for i in self.config_ones:
            buf[off + i] = 1
        buf[off + state.variant] = 1

    def _write_decision(self, buf: bytearray, state: DmdState, seat: int) -> None:
        """The decision's offered cards, the Miser's first suit, the Plunder target and the last turn."""
        n = self.n
        at = self.at
        phase = state.phase
        # the decision's offered cards (DMD-1079; DMD-1012 b, d)
        if phase in (MAP_PICK, LOCKER_ACCEPT):
            off = at["offer_cards"]
            for c in state.offer:
                buf[off + c] = 1
        elif phase in (MERMAID_PICK, RAKE_PICK):
            off = at["offer_cards"] - 12  # CARD actions start at 12 (DMD-1043)
            for a in state.choices:
                buf[off + a] = 1
        # Miser's first suit while a SECOND_HOOK is pending or asked (DMD-1080, DMD-1012 h)
        tasks = state.tasks
        s1 = state.hook_s1
        if s1 < 0 and tasks:
            for kind, arg in reversed(tasks):
                if kind == 1:
                    s1 = arg
                    break
        if s1 >= 0:
            buf[at["miser_first_suit"] + s1] = 1
        if state.plunder_target >= 0:
            buf[at["plunder_target"] + (state.plunder_target - seat) % n - 1] = 1
        if state.last_turn_player >= 0:
            buf[at["last_turn_player"] + (state.last_turn_player - seat) % n] = 1
            off = at["last_turn_cards"]
            for c in state.last_turn_cards:
                buf[off + c] = 1
            if state.last_turn_busted:
                buf[at["last_turn_busted"]] = 1

    def _write_fractions(self, obs: np.ndarray, state: DmdState, seat: int) -> None:
        """The fractional entries: row positions, pile size, scores, turns and busts, pending counts, progress."""
        n = self.n
        at = self.at
        row = state.row
        if row:
            off = at["row_position"]
            for i, c in enumerate(row):
                if c >= 0:
                    obs[off + c] = (i + 1) / ROW_SCALE
                else:
                    obs[at["marker_position"]] = (i + 1) / ROW_SCALE
        obs[at["draw_pile_size"]] = len(state.draw_pile) / DECK_SCALE
        sc = at["scores"]
        tb = at["turns_taken_busts"]
        turns = state.turns_taken
        busts = state.busts
        for k in range(n):
            t = (seat + k) % n
            obs[sc + k] = state.live_score(t) / SCORE_SCALE
            if turns[t]:
                obs[tb + k] = turns[t] / DECK_SCALE
                if busts[t]:
                    obs[tb + n + k] = busts[t] / DECK_SCALE
        tasks = state.tasks
        if tasks:
            obs[at["forced_draws"]] = sum(arg for kind, arg in tasks if kind == 0) / FORCED_DRAW_MAX
        if state.plunder_remaining:
            obs[at["plunder_remaining"]] = state.plunder_remaining / PLUNDER_SCALE
        obs[at["decision_progress"]] = state.decisions / self.max_decisions
