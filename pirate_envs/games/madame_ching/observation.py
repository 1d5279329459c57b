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


class ObservationEncoder:
    """Builds ``observation(seat)`` for one player count."""

    def __init__(self, num_players: int, num_boats: int) -> None:
        self.num_players = num_players
        self.num_boats = num_boats
        self.slices = field_slices(num_players, num_boats)
        self.start = {name: sl.start for name, sl in self.slices.items()}
        self.size = sum(size for _, size in field_sizes(num_players, num_boats))
        assert self.size == 577 + 134 * num_boats + 86 * num_players  # MCH-1006
        self._relative = [self.relative_boats(seat) for seat in range(num_players)]

    def relative_boats(self, seat: int) -> list[int]:
        n = self.num_players
        if n == 2:
            return [2 * seat, 2 * seat + 1, 2 * (1 - seat), 2 * (1 - seat) + 1]
        return [(seat + o) % n for o in range(n)]

    def encode(self, state: MadameChingState, seat: int) -> np.ndarray:
        P = self.num_players
        st = self.start
        ones: list[int] = []  # indices set to 1.0
        vi: list[int] = []  # indices of other values
        vv: list[float] = []
        game = state.game
        acting = not state.over and not state.truncated and state._current_player() == seat
        phase = state.phase
        if acting:
            ones.append(phase)
            if phase == act.SELECT:
                ones.append(st["select_boat"] + state.select_boat)
        base = st["own_hand"] - 1
        ones.extend(base + c for c in state.hands[seat])
        picks = state.shown_picks if state.revealed else state.picks
        base = st["own_picks"] - 1
        for i, b in enumerate(game.boats_of[seat]):
            if picks[b]:
                ones.append(base + 55 * i + picks[b])
        base_pick = st["revealed_picks"] - 1
        base_flag = st["boat_flags"]
        base_exp = st["expeditions"]
        revealed = state.revealed
        for i, b in enumerate(self._relative[seat]):
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
        buf = bytearray(self.size)
        for i in ones:
            buf[i] = 1
        o = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        o[vi] = vv
        return o
