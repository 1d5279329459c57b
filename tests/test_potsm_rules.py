"""potsm_v0 rules engine: every worked example of the rules (PSM-1201..1225), then edge cases.

Positions are set up by building a state with ``new_initial_state(seed)`` and overwriting its plain
fields through the helpers below, which keep card conservation intact so ``check_invariants`` still
holds; each test then plays real actions through ``apply_action``.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from potsm_setup import (
    DEFAULT_LINE,
    QUIET,
    arranged,
    play,
    refresh,
    set_adventures,
    set_hand,
    set_line,
    to_act,
)

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.game import TERMINAL
from pirate_envs.games.potsm import PotsmGame, PotsmState
from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    CAUGHT_IN_A_RIP,
    CURSED_SHIP,
    CURSED_TREASURE,
    DUTCH_ATTACK,
    DUTCH_RETREAT,
    ENGLISH_ADVANCE,
    FOG,
    FULL_SPEED_AHEAD,
    GHOST_SHIP,
    KRAKEN,
    LEGENDARY_TREASURE,
    LOST_AT_SEA,
    MAELSTROM,
    MUTINY,
    NEPTUNES_FAVOR,
    SABOTAGE,
    SPANISH_LOOT,
    STORM_AHEAD,
    TEMPORARY_ALLIANCE,
    TREASURE_MAP,
    VOLCANO,
)
from pirate_envs.games.potsm.game import move_pair, move_ship, nation_advance, nation_retreat
from pirate_envs.games.potsm.observation import encode_reference, field_slices

# An adventure that changes neither fame nor damage of ships ahead of position 4 and awards nothing:


# --- helpers: build positions while keeping every card accounted for ------------------------------------


def new_state(n: int = 4, seed: int = 0, **options) -> PotsmState:
    return PotsmGame(num_players=n, **options).new_initial_state(seed)


def set_owners(state: PotsmState, owners: dict[int, int]) -> None:
    """Give pirate j to seat t for each item; the other pirates keep their seat where the counts allow."""
    n = state.game.num_players
    per = state.game.pirates_per_player
    new = [-1] * 9
    for pirate, seat in owners.items():
        new[pirate] = seat
    others = [j for j in range(9) if j not in owners]
    for j in others:
        seat = state.pirate_owner[j]
        if seat >= 0 and new.count(seat) < per:
            new[j] = seat
    for j in others:
        if new[j] == -1:
            short = [t for t in range(n) if new.count(t) < per]
            if short:
                new[j] = short[0]
    state.pirate_owner = new
    refresh(state)


def base_state(n: int = 4, seed: int = 0, row=(QUIET,), deck_size=None, moves=None, **options) -> PotsmState:
    return arranged(new_state(n, seed, **options), row, deck_size, moves)


def observation_field(state: PotsmState, seat: int, name: str) -> np.ndarray:
    return state.observation(seat)[field_slices(state.game.num_players)[name]]


# --- 5.1 line and movement: PSM-1201..1205 ----------------------------------------------------------------


def test_psm_1201_full_speed_ahead_position_7():
    """PSM-1201 / PSM-630: Full Speed Ahead on position 7 (ship 2) of the default line."""
    state = base_state(moves=[FULL_SPEED_AHEAD, SABOTAGE, SABOTAGE])
    play(state, act.FULL_SPEED_BASE + 6)
    assert state.line == [2, 0, 3, 6, 1, 4, 7, 5, 8]
    # PSM-1082: signed forward displacement per ship; PSM-1079: the tally counts the target only.
    record = state.recent_turns[0]
    assert record[act.RECORD_KIND] == FULL_SPEED_AHEAD
    assert record[act.RECORD_SHIPS : act.RECORD_SHIPS + 9] == [-1, -1, 6, -1, -1, 0, -1, -1, 0]
    assert state.move_tally[(0 * 9 + 2) * 3 + 0] == 1 and sum(state.move_tally) == 1


def test_psm_1202_temporary_alliance_pair_2():
    """PSM-1202 / PSM-632: Temporary Alliance on pair 2 (ships 3, 6) goes to positions 1-2."""
    state = base_state(moves=[TEMPORARY_ALLIANCE, SABOTAGE, SABOTAGE])
    play(state, act.ALLIANCE_BASE + 1)
    assert state.line == [3, 6, 0, 1, 4, 7, 2, 5, 8]
    assert state.move_tally[(0 * 9 + 3) * 3] == 1 and state.move_tally[(0 * 9 + 6) * 3] == 1


def test_psm_1203_caught_in_a_rip_pair_7():
    """PSM-1203 / PSM-633: Caught in a Rip on pair 7 (ships 2, 5) stops at positions 8-9."""
    state = base_state(moves=[CAUGHT_IN_A_RIP, SABOTAGE, SABOTAGE])
    play(state, act.RIP_BASE + 6)
    assert state.line == [0, 3, 6, 1, 4, 7, 8, 2, 5]
    assert state.move_tally[(0 * 9 + 2) * 3 + 1] == 1 and state.move_tally[(0 * 9 + 5) * 3 + 1] == 1


def test_psm_1204_english_advance_pushes_front_ship_back():
    """PSM-1204 / PSM-505: English Advance, front English ship first."""
    state = base_state(moves=[ENGLISH_ADVANCE, SABOTAGE, SABOTAGE])
    set_line(state, [0, 1, 3, 6, 4, 2, 7, 5, 8])
    play(state, act.ADVANCE_BASE + 0)
    assert state.line == [1, 0, 3, 2, 6, 4, 7, 5, 8]
    # all three English ships are targets (PSM-1079), even ship 0 that ends one place back
    assert [state.move_tally[(0 * 9 + j) * 3] for j in range(9)] == [1, 1, 1, 0, 0, 0, 0, 0, 0]


def test_psm_1205_dutch_retreat_pushes_back_ship_forward():
    """PSM-1205 / PSM-506: Dutch Retreat, back Dutch ship first."""
    state = base_state(moves=[DUTCH_RETREAT, SABOTAGE, SABOTAGE])
    set_line(state, [0, 3, 1, 6, 4, 2, 5, 7, 8])
    play(state, act.RETREAT_BASE + 2)
    assert state.line == [0, 3, 1, 4, 2, 6, 5, 8, 7]


def test_line_movement_functions_directly():
    """PSM-502, 503, 505, 506 as pure functions, including clamping at both ends."""
    line = list(DEFAULT_LINE)
    move_ship(line, 6, -6)
    assert line == [2, 0, 3, 6, 1, 4, 7, 5, 8]
    line = list(DEFAULT_LINE)
    move_ship(line, 4, 6)  # Lost at Sea from position 5 ends at 9
    assert line == [0, 3, 6, 1, 7, 2, 5, 8, 4]
    line = list(DEFAULT_LINE)
    move_pair(line, 0, -3)  # pair at the front: no-op (PSM-512)
    assert line == DEFAULT_LINE
    line = [0, 1, 3, 6, 4, 2, 7, 5, 8]
    nation_advance(line, 0)
    assert line == [1, 0, 3, 2, 6, 4, 7, 5, 8]
    line = [0, 3, 1, 6, 4, 2, 5, 7, 8]
    nation_retreat(line, 2)
    assert line == [0, 3, 1, 4, 2, 6, 5, 8, 7]


# --- 5.2 actions: PSM-1206, 1215..1218, 1222 ---------------------------------------------------------------


def test_psm_1206_sabotage_masked_when_every_ship_is_damaged():
    """PSM-1206 / PSM-511: no Sabotage target, but Pass-discard of Sabotage (62) stays legal."""
    state = base_state(moves=[SABOTAGE, LOST_AT_SEA, FOG])
    set_line(state, DEFAULT_LINE, damaged=range(9))
    legal = state.legal_actions()
    assert not any(40 <= a <= 48 for a in legal)
    assert act.PASS_DISCARD_BASE + SABOTAGE == 62 and 62 in legal
    # only undamaged ships can be targeted
    set_line(state, DEFAULT_LINE, damaged=[0, 3, 6, 1, 4, 7, 2, 5])  # only ship 8 (position 9) undamaged
    assert [a for a in state.legal_actions() if 40 <= a <= 48] == [48]


def test_sabotage_damages_the_target():
    """PSM-636: the undamaged ship at p becomes damaged; the tally counts a sabotage of that ship."""
    state = base_state(moves=[SABOTAGE, SABOTAGE, FOG])
    play(state, act.SABOTAGE_BASE + 1)  # position 2 = ship 3
    assert state.damaged[3] == 1
    assert state.move_tally[(0 * 9 + 3) * 3 + 2] == 1
    assert state.recent_turns[0][act.RECORD_SHIPS + 3] == 1


def test_psm_1215_correct_accusation_steals_half_rounded_up():
    """PSM-1215 / PSM-515: player_0 names offset 1 (player_1) of pirate 4: index 80."""
    state = base_state(row=[VOLCANO])
    set_owners(state, {4: 1})
    set_line(state, DEFAULT_LINE, fame={4: 5}, damaged=[0])  # Volcano then hits ship 3, not ship 4
    assert act.accuse_action(1, 4) == 80
    play(state, 80)
    assert state.fame[4] == 2 and list(state.claimed) == [3, 0, 0, 0]
    assert state.revealed[4] == 1
    assert state.recent_turns[0][act.RECORD_KIND] == act.TURN_KIND_ACCUSE_CORRECT
    # revealed pirates cannot be named any more, by anyone, at any offset
    for seat in range(4):
        to_act(state, seat)
        legal = state.legal_actions()
        assert not {80, 89, 98} & set(legal)
    # every seat sees the owner: player_0 at offset 1, player_1 at offset 0
    assert observation_field(state, 0, "ship_revealed_owner")[4 * 4 : 4 * 4 + 4].tolist() == [0, 1, 0, 0]
    assert observation_field(state, 1, "ship_revealed_owner")[4 * 4 : 4 * 4 + 4].tolist() == [1, 0, 0, 0]
    assert observation_field(state, 2, "claimed_fame").tolist() == [0, 0, 3, 0]
    # then the adventure resolved (PSM-1215 "Then the adventure resolves"): Volcano damaged ship 3
    assert state.damaged[3] == 1


def test_psm_1216_wrong_accusation_is_a_public_fact():
    """PSM-1216 / PSM-516 / PSM-561: nothing changes but 'player_1 does not own pirate 4' is public."""
    state = base_state(row=[QUIET])
    set_owners(state, {4: 2})
    set_line(state, DEFAULT_LINE, fame={4: 5})
    play(state, 80)
    assert state.fame[4] == 5 and list(state.claimed) == [0, 0, 0, 0] and not state.revealed[4]
    assert observation_field(state, 0, "ship_not_owner")[4 * 4 : 4 * 4 + 4].tolist() == [0, 1, 0, 0]
    assert observation_field(state, 1, "ship_not_owner")[4 * 4 : 4 * 4 + 4].tolist() == [1, 0, 0, 0]
    assert observation_field(state, 3, "ship_not_owner")[4 * 4 : 4 * 4 + 4].tolist() == [0, 0, 1, 0]
    assert state.recent_turns[0][act.RECORD_KIND] == act.TURN_KIND_ACCUSE_WRONG
    assert state.accusation_tally[0 * 9 + 4] == 1
    to_act(state, 0)
    assert {80, 89, 98} <= set(state.legal_actions())  # PSM-1110: still legal


def test_psm_1217_fog_keeps_the_current_adventure():
    """PSM-1217 / PSM-637 / PSM-542: Kraken stays current and unresolved; deck unchanged; next seat acts."""
    state = base_state(row=[KRAKEN], deck_size=20, moves=[FOG, SABOTAGE, SABOTAGE])
    move_deck_before = len(state.move_deck)
    play(state, act.FOG_ACTION)
    assert state.adventure_row == [KRAKEN] and len(state.adventure_deck) == 20
    assert not any(state.damaged)  # Kraken did not resolve
    assert state.move_discard[FOG] == 1 and sum(state.move_row) == 3
    assert len(state.move_deck) == move_deck_before - 1
    assert state.current_player() == 1 and state.turn_index == 1


def test_psm_1218_reshuffle_when_the_move_deck_is_empty():
    """PSM-1218 / PSM-550: deck 0, discard 21, play Sabotage -> 22 reshuffled, 1 drawn -> deck 21, discard 0."""
    state = base_state(moves=[SABOTAGE, SABOTAGE, FOG])
    for card in state.move_deck:
        state.move_discard[card] += 1
    state.move_deck = []
    assert sum(state.move_discard) == 21
    play(state, act.SABOTAGE_BASE + 0)
    assert len(state.move_deck) == 21 and sum(state.move_discard) == 0 and sum(state.move_row) == 3


def test_hand_variant_reshuffle_includes_the_card_just_discarded():
    """PSM-550 / PSM-1116: n = 4 hands hold 12 cards; deck 0, discard 11 -> Pass-discard -> 12 reshuffled."""
    state = base_state(row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [SABOTAGE, FOG, LOST_AT_SEA])
    for card in state.move_deck:
        state.move_discard[card] += 1
    state.move_deck = []
    assert sum(state.move_discard) == 12
    play(state, act.PASS_DISCARD_BASE + FOG)
    assert len(state.move_deck) == 12 and sum(state.move_discard) == 0 and sum(state.hands[0]) == 3
    assert state.recent_turns[0][act.RECORD_KIND] == act.TURN_KIND_PASS_DISCARD


def test_psm_1222_hand_variant_accusation_costs_a_card():
    """PSM-1222 / PSM-803 / PSM-1051: Accuse -> ACCUSE_DISCARD with legal {65, 74, 75}; the hand shrinks."""
    state = base_state(row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [SABOTAGE, FOG, LOST_AT_SEA])
    set_owners(state, {4: 2})
    play(state, act.accuse_action(1, 4))
    assert state.phase_name() == "ACCUSE_DISCARD" and state.current_player() == 0
    assert state.pending_accusation == [1, 4]
    assert state.legal_actions() == [65, 74, 75]
    assert state.turn_index == 0  # the turn is not over yet
    obs = state.observation(0)
    slices = field_slices(4)
    assert obs[slices["phase"]].tolist() == [0, 1]
    assert obs[slices["pending_accusation"]].tolist() == [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]  # offset 1; pirate 4
    assert not state.observation(1)[slices["phase"]].any()
    play(state, 75)
    assert sum(state.hands[0]) == 2 and state.hands[0][FOG] == 0 and state.move_discard[FOG] == 1
    assert state.not_owner[4 * 4 + 1] == 1  # the (wrong) accusation resolved after the discard
    assert state.phase_name() == "MAIN" and state.current_player() == 1 and state.turn_index == 1
    assert state.recent_turns[0][act.RECORD_CARD] == FOG
    # a second accusation leaves one card; from then on every accusation index is masked
    to_act(state, 0)
    play(state, act.accuse_action(2, 5))
    play(state, state.legal_actions()[0])
    assert sum(state.hands[0]) == 1
    to_act(state, 0)
    assert max(state.legal_actions()) < act.ACCUSE_DISCARD_BASE


def test_hand_variant_play_draws_into_the_hand():
    """PSM-803: the played card is discarded and one card is drawn into the hand (size kept)."""
    state = base_state(row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [SABOTAGE, FOG, LOST_AT_SEA])
    assert state.available_moves(0)[SABOTAGE] == 1
    assert sum(state.move_row) == 0
    play(state, act.SABOTAGE_BASE + 0)
    assert sum(state.hands[0]) == 3 and state.move_discard[SABOTAGE] == 1


# --- 5.3 / Section 6 adventures: PSM-1207..1214, 1219, 1220, 1224, 1225 ------------------------------------


def test_psm_1207_treasure_map_skips_damaged_ships_and_takes_blind_fame():
    """PSM-1207 / PSM-613 / PSM-526: F = 3 -> the card and 2 blind cards become fame; deck 10 -> 8."""
    state = base_state(row=[TREASURE_MAP], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[0, 6])  # positions 1 and 3
    discarded = sum(state.adventure_discard)
    play(state, act.PASS_ACTION)
    assert [state.fame[j] for j in DEFAULT_LINE] == [0, 1, 0, 1, 1, 0, 0, 0, 0]
    assert sum(state.blind_fame_cards) == 2
    assert len(state.adventure_deck) == 10 - 2 - 1  # 8 after the blind draws, then the next card is revealed
    assert sum(state.adventure_discard) == discarded  # the card became fame, it was not discarded


def test_psm_1208_legendary_treasure_with_virtual_fame_ends_the_game():
    """PSM-1208 / PSM-614 / PSM-526 / PSM-540: deck 1 -> 1 blind + 2 virtual; the game then ends."""
    state = base_state(row=[LEGENDARY_TREASURE], deck_size=1)
    set_owners(state, {0: 1, 3: 2})
    play(state, act.PASS_ACTION)
    assert state.fame[0] == 2 and state.fame[3] == 2
    assert sum(state.blind_fame_cards) == 1 and state.adventure_deck == []
    assert state.is_terminal() and state.current_player() == TERMINAL
    scores = state.scores()
    assert scores[1] >= 2 and scores[2] >= 2
    assert all(state.revealed)  # PSM-701


def test_psm_1209_neptunes_favor_damaged_ship_gets_nothing():
    """PSM-1209 / PSM-612 / PSM-523: the damaged ship at 3 gets nothing and nobody gets its point."""
    state = base_state(row=[NEPTUNES_FAVOR], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[6])
    play(state, act.PASS_ACTION)
    assert list(state.fame) == [1, 0, 0, 0, 1, 0, 0, 0, 0]  # ships 0 (pos 1) and 4 (pos 5)
    assert sum(state.blind_fame_cards) == 1


def test_psm_1210_spanish_loot():
    """PSM-1210 / PSM-627 / PSM-1120: looters must be undamaged, victims may be damaged."""
    state = base_state(row=[SPANISH_LOOT], deck_size=10)
    set_line(state, [3, 0, 4, 6, 5, 1, 7, 2, 8], damaged=[0, 4], fame={0: 1, 4: 3, 6: 2, 7: 1})
    discarded = state.adventure_discard[SPANISH_LOOT]
    play(state, act.PASS_ACTION)
    assert list(state.fame) == [0, 0, 0, 3, 3, 0, 1, 0, 0]
    assert state.adventure_discard[SPANISH_LOOT] == discarded + 1 and sum(state.blind_fame_cards) == 0  # PSM-527
    assert len(state.adventure_deck) == 9  # unchanged by the card; one revealed as the next adventure


def test_psm_1211_dutch_attack():
    """PSM-1211 / PSM-626: undamaged Dutch ships damage every non-Dutch ship ahead of them."""
    state = base_state(row=[DUTCH_ATTACK], deck_size=10)
    set_line(state, [0, 3, 6, 1, 7, 4, 8, 2, 5], damaged=[7])
    discarded = state.adventure_discard[DUTCH_ATTACK]
    play(state, act.PASS_ACTION)
    assert [j for j in range(9) if state.damaged[j]] == [0, 1, 3, 4, 7]
    assert state.adventure_discard[DUTCH_ATTACK] == discarded + 1


def test_psm_1212_ghost_ship():
    """PSM-1212 / PSM-620 / PSM-1117: positions 7-9 damaged and lose 1 fame (damaged ones too)."""
    state = base_state(row=[GHOST_SHIP], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[5], fame={2: 2, 5: 0, 8: 1})
    play(state, act.PASS_ACTION)
    assert state.damaged[2] == state.damaged[5] == state.damaged[8] == 1
    assert (state.fame[2], state.fame[5], state.fame[8]) == (1, 0, 0)


def test_psm_1213_mutiny_reveals_and_halves():
    """PSM-1213 / PSM-625 / PSM-1118 / PSM-1119: frontmost unrevealed ship, damaged or not."""
    state = base_state(row=[MUTINY], deck_size=10)
    set_owners(state, {0: 1, 3: 2})
    set_line(state, DEFAULT_LINE, damaged=[3], fame={3: 5})
    state.revealed[0] = 1  # ship 0 at position 1 has a revealed pirate (player_1's)
    for seat in (0, 2, 3):
        state.not_owner[0 * 4 + seat] = 1
    play(state, act.PASS_ACTION)
    assert state.revealed[3] == 1 and state.fame[3] == 2
    assert observation_field(state, 0, "ship_revealed_owner")[3 * 4 : 3 * 4 + 4].tolist() == [0, 0, 1, 0]
    assert state.adventure_discard[MUTINY] == 1


def test_psm_1214_mutiny_on_an_unowned_ship():
    """PSM-1214 / PSM-561: unowned target -> nothing happens, but every seat learns nobody owns it."""
    state = base_state(row=[MUTINY], deck_size=10)
    set_line(state, [7, 0, 3, 6, 1, 4, 2, 5, 8], fame={7: 3})
    unused = state.pirate_owner.index(-1)
    # make pirate 7 the unused one
    if unused != 7:
        state.pirate_owner[unused], state.pirate_owner[7] = state.pirate_owner[7], -1
    before = (list(state.fame), list(state.revealed))
    play(state, act.PASS_ACTION)
    assert (list(state.fame), list(state.revealed)) == before
    for seat in range(4):
        assert observation_field(state, seat, "ship_not_owner")[7 * 4 : 7 * 4 + 4].tolist() == [1, 1, 1, 1]


def test_psm_1219_cursed_treasure():
    """PSM-1219 / PSM-617: the only undamaged ship gains 2 and becomes damaged; F = 2 -> 1 blind card."""
    state = base_state(row=[CURSED_TREASURE], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[s for p, s in enumerate(DEFAULT_LINE) if p != 5])  # position 6: ship 7
    play(state, act.PASS_ACTION)
    assert state.fame[7] == 2 and state.damaged[7] == 1 and all(state.damaged)
    assert sum(state.blind_fame_cards) == 1


def test_psm_1220_storm_ahead():
    """PSM-1220 / PSM-618 / PSM-522: positions 9 and 7 damaged -> the ships at 8 and 6 become damaged."""
    state = base_state(row=[STORM_AHEAD], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[8, 2])
    play(state, act.PASS_ACTION)
    assert [j for j in range(9) if state.damaged[j]] == sorted([8, 2, 5, 7])


def test_maelstrom_and_volcano():
    """PSM-619 / PSM-621: last and front undamaged ship; nothing when every ship is damaged."""
    state = base_state(row=[MAELSTROM, VOLCANO], deck_size=10, upcoming_adventures=True, n=2)
    set_line(state, DEFAULT_LINE, damaged=[8])
    play(state, act.PASS_ACTION)
    assert [j for j in range(9) if state.damaged[j]] == [5, 8]
    to_act(state, 0)
    play(state, act.PASS_ACTION)
    assert [j for j in range(9) if state.damaged[j]] == [0, 5, 8]


def test_psm_1223_upcoming_variant_plays_until_the_row_is_empty():
    """PSM-1223 / PSM-802 / PSM-1122: row [Maelstrom, Volcano], deck 0 -> two more turns, then the end."""
    state = base_state(n=3, row=[MAELSTROM, VOLCANO], deck_size=0, upcoming_adventures=True)
    play(state, act.PASS_ACTION)
    assert state.adventure_row == [VOLCANO] and not state.is_terminal()
    assert state.damaged[8] == 1  # Maelstrom hit the last ship
    slices = field_slices(3)
    obs = state.observation(1)
    assert obs[slices["current_adventure"]].tolist() == [1 if t == VOLCANO else 0 for t in range(24)]
    assert not obs[slices["upcoming_adventures"]].any()
    play(state, act.PASS_ACTION)
    assert state.adventure_row == [] and state.is_terminal()


def test_upcoming_variant_setup_and_row_shift():
    """PSM-802: n cards face up at setup, deck 58 - n; after a turn the row shifts and refills."""
    state = new_state(4, 5, upcoming_adventures=True)
    assert len(state.adventure_row) == 4 and len(state.adventure_deck) == 54
    row = list(state.adventure_row)
    obs = state.observation(0)
    slices = field_slices(4)
    upcoming = obs[slices["upcoming_adventures"]].reshape(3, 24)
    assert [int(np.argmax(r)) for r in upcoming] == row[1:]
    assert obs[slices["adventure_seen"]].sum() == 4
    state.apply_action(act.REPAIR_ACTION)
    assert state.adventure_row[:3] == row[1:] and len(state.adventure_row) == 4


def test_psm_1224_last_card_awards_virtual_fame_that_scores():
    """PSM-1224 / PSM-526 / PSM-702: deck 0, Treasure Map, three undamaged recipients, F = 3 all virtual."""
    state = base_state(n=3, row=[TREASURE_MAP], deck_size=0)
    set_owners(state, {0: 0, 3: 1, 6: 2})
    play(state, act.PASS_ACTION)
    assert state.fame[0] == state.fame[3] == state.fame[6] == 1
    assert sum(state.blind_fame_cards) == 0 and state.is_terminal()
    assert all(score >= 1 for score in state.scores())


def test_psm_1225_cursed_ship():
    """PSM-1225 / PSM-624 / PSM-525: 0 fame loses nothing; a damaged ship loses 1 and stays damaged."""
    state = base_state(row=[CURSED_SHIP], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[3], fame={3: 2})
    play(state, act.PASS_ACTION)
    assert state.fame[0] == 0 and state.fame[3] == 1 and state.damaged[3] == 1


def test_repair_undamages_every_ship():
    """PSM-513 / PSM-1109: all ships repaired; legal even with nothing damaged; tallied."""
    state = base_state(row=[QUIET])
    set_line(state, DEFAULT_LINE, damaged=[0, 3, 8])
    play(state, act.REPAIR_ACTION)
    # the quiet card (Kraken) then damages positions 4, 6, 8 only
    assert [j for j in range(9) if state.damaged[j]] == sorted([DEFAULT_LINE[3], DEFAULT_LINE[5], DEFAULT_LINE[7]])
    assert list(state.repair_tally) == [1, 0, 0, 0]
    assert act.REPAIR_ACTION in state.legal_actions()


# --- Section 7 scoring: PSM-1221, PSM-703 -------------------------------------------------------------------


def finished_state(n: int, owners: dict[int, int], fame: dict[int, int], claimed, damaged=(), line=None, **options):
    state = new_state(n, 0, **options)
    set_owners(state, owners)
    set_line(state, line or DEFAULT_LINE, damaged=damaged, fame=fame)
    state.claimed = list(claimed)
    set_adventures(state, [MAELSTROM], deck_size=0)
    to_act(state, 0)
    state.apply_action(act.PASS_ACTION)  # resolves the last card: the game ends (PSM-540)
    assert state.is_terminal()
    return state


def test_psm_1221_scoring_and_tie_breaks():
    """PSM-1221 / PSM-702 / PSM-703: 9 = 9 > 6; tie broken by undamaged owned ships, then frontmost ship."""
    # n = 3: pirates 0, 1 -> player_0 (fame 4 + 3, claimed 2); 3, 4 -> player_1 (5 + 4); 6, 7 -> player_2 (6).
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2}
    fame = {0: 4, 1: 3, 3: 5, 4: 4, 6: 6}
    # Maelstrom damages the last undamaged ship: keep ship 8 (unowned, position 9) undamaged as its target.
    state = finished_state(3, owners, fame, [2, 0, 0], damaged=[1])
    assert state.scores() == [9.0, 9.0, 6.0]
    assert state.winner() == 1
    assert state.returns() == [-1.0, 1.0, -1.0]
    # both with 2 undamaged ships: player_0 owns the ship at position 2, player_1's frontmost is at 4
    line = [2, 0, 6, 3, 4, 1, 7, 5, 8]
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2}
    state = finished_state(3, owners, fame, [2, 0, 0], line=line)
    assert state.scores() == [9.0, 9.0, 6.0]
    assert state.winner() == 0 and state.returns() == [1.0, -1.0, -1.0]


def test_score_reward_mode():
    """PSM-1020: r_s = (S_s - max_{t != s} S_t) / score_scale, tie-breaks ignored."""
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2}
    fame = {0: 4, 1: 3, 3: 5, 4: 4, 6: 6}
    state = finished_state(3, owners, fame, [2, 0, 0], damaged=[1], reward_mode="score", score_scale=2)
    assert state.returns() == [0.0, 0.0, -1.5]


def test_unowned_fame_is_ignored_and_claimed_counts():
    """PSM-303 / PSM-702: the unused pirates' ships score for nobody."""
    state = finished_state(4, {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2, 2: 3, 5: 3}, {8: 20, 2: 1}, [0, 0, 0, 4])
    assert state.pirate_owner[8] == -1
    assert state.scores() == [0.0, 0.0, 0.0, 5.0] and state.winner() == 3


# --- truncation, options, illegal actions -------------------------------------------------------------------


def test_truncation_psm_1031():
    """PSM-1031: after max_decisions decisions an unfinished game is truncated: rewards 0, no winner."""
    state = new_state(4, 3, max_decisions=3)
    for _ in range(3):
        state.apply_action(act.PASS_ACTION)
    assert state.is_truncated() and state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [0.0] * 4 and state.winner() is None
    assert state.legal_actions() == []
    assert not state.observation(0)[field_slices(4)["phase"]].any()


def test_options_and_facts():
    """PSM-1001 / PSM-1003 / PSM-1010: defaults, action and observation sizes."""
    game = PotsmGame()
    assert game.num_players == 4 and game.game_id == "potsm_v0"
    assert game.options == {
        "upcoming_adventures": False,
        "move_cards_in_hand": False,
        "reward_mode": "win",
        "score_scale": 10.0,
        "max_decisions": 100,
    }
    for n, actions, size in ((2, 85, 443), (3, 94, 538), (4, 103, 637)):
        game = PotsmGame(num_players=n)
        assert game.num_actions == actions and game.observation_size == size
        assert game.observation_shape == (size,)
        assert new_state(n).observation(0).shape == (size,)
        assert sum(s.stop - s.start for s in field_slices(n).values()) == size


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"reward_mode": "winner"}, "'win', 'score'"),
        ({"upcoming_adventures": 1}, "upcoming_adventures"),
        ({"move_cards_in_hand": "yes"}, "true or false"),
        ({"score_scale": 0}, "minimum"),
        ({"max_decisions": 0}, "minimum"),
        ({"max_decisions": 2.5}, "max_decisions"),
        ({"num_players": 5}, "(2, 3, 4)"),
        ({"num_players": 1}, "(2, 3, 4)"),
        ({"upcoming": True}, "valid options: upcoming_adventures"),
    ],
)
def test_option_validation_names_the_valid_choices(options, fragment):
    with pytest.raises(InvalidOptionError) as info:
        PotsmGame(**options)
    assert fragment in str(info.value)


def test_illegal_action_leaves_the_state_unchanged():
    state = base_state(moves=[SABOTAGE, SABOTAGE, FOG])
    before = state.to_dict()
    for bad in (0, act.ADVANCE_BASE, act.ACCUSE_DISCARD_BASE, 103, -1, 2.0, None):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_dict() == before
    with pytest.raises(IllegalActionError, match="Full Speed Ahead! on ship at position 1"):
        state.apply_action(0)


def test_action_to_string():
    game = PotsmGame(num_players=4)
    assert game.action_to_string(6) == "Full Speed Ahead! on ship at position 7"
    assert game.action_to_string(19) == "Temporary Alliance on ships at positions 2-3"
    assert game.action_to_string(39) == "Dutch Retreat"
    assert game.action_to_string(62) == "Pass and discard Sabotage!"
    assert game.action_to_string(75) == "Discard There Be Fog Ahead! to pay for the accusation"
    assert game.action_to_string(act.accuse_action(2, 4)) == "Accuse player at offset 2 of pirate 4 (Isabel Cortés)"
    assert all(game.action_to_string(a) for a in range(game.num_actions))
    with pytest.raises(ValueError):
        game.action_to_string(game.num_actions)


def test_action_decoding_matches_the_table():
    """PSM-1040..1052 boundaries."""
    n = 3
    assert act.decode_action(8, n) == (act.KIND_MOVE, FULL_SPEED_AHEAD, 8)
    assert act.decode_action(9, n) == (act.KIND_MOVE, LOST_AT_SEA, 0)
    assert act.decode_action(25, n) == (act.KIND_MOVE, TEMPORARY_ALLIANCE, 7)
    assert act.decode_action(33, n) == (act.KIND_MOVE, CAUGHT_IN_A_RIP, 7)
    assert act.decode_action(36, n) == (act.KIND_MOVE, 6, None)
    assert act.decode_action(37, n) == (act.KIND_MOVE, 7, None)
    assert act.decode_action(48, n) == (act.KIND_MOVE, SABOTAGE, 8)
    assert act.decode_action(49, n) == (act.KIND_MOVE, FOG, None)
    assert act.decode_action(63, n) == (act.KIND_PASS_DISCARD, -1, 11)
    assert act.decode_action(64, n) == (act.KIND_ACCUSE_DISCARD, -1, 0)
    assert act.decode_action(93, n) == (act.KIND_ACCUSE, -1, (2, 8))


# --- setup, random play, bounds --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    """PSM-301..306 / PSM-803."""
    state = new_state(n, 11)
    state.check_invariants()
    assert sorted(state.line) == list(range(9)) and not any(state.damaged) and not any(state.fame)
    per = 3 if n == 2 else 2
    assert all(state.pirate_owner.count(seat) == per for seat in range(n))
    assert len(state.adventure_row) == 1 and len(state.adventure_deck) == 57
    assert sum(state.move_row) == 3 and len(state.move_deck) == 21
    assert state.current_player() == state.start_seat
    hand = new_state(n, 11, move_cards_in_hand=True)
    size = 4 if n == 2 else 3
    assert [sum(h) for h in hand.hands] == [size] * n and len(hand.move_deck) == 24 - n * size
    starts = {new_state(n, seed).start_seat for seed in range(40)}
    assert starts == set(range(n))


VARIANTS = [
    {},
    {"upcoming_adventures": True},
    {"move_cards_in_hand": True},
    {"upcoming_adventures": True, "move_cards_in_hand": True},
]


@pytest.mark.parametrize("options", VARIANTS, ids=["base", "upcoming", "hand", "both"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_play_respects_the_decision_bound(n, options):
    """PSM-1030: <= 61 decisions in the base game, <= 71 with hands; invariants hold throughout."""
    game = PotsmGame(num_players=n, **options)
    bound = 71 if options.get("move_cards_in_hand") else 61
    rng = random.Random(n)
    for seed in range(25):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            state.check_invariants()
        assert not state.is_truncated() and state.decisions <= bound
        assert state.winner() is not None and sorted(state.returns()) == [-1.0] * (n - 1) + [1.0]
        # PSM-1012 / PSM-701: the terminal observation shows every owner
        obs = state.observation(0)
        revealed = obs[field_slices(n)["ship_revealed_owner"]].reshape(9, n)
        assert revealed.sum() == 9 - game.unused_pirates


def test_check_invariants_detects_broken_conservation():
    state = new_state(4, 1)
    state.adventure_deck.pop()
    with pytest.raises(AssertionError):
        state.check_invariants()
    state = new_state(4, 1)
    state.move_discard[SABOTAGE] += 1
    with pytest.raises(AssertionError):
        state.check_invariants()
    state = new_state(4, 1)
    state.pirate_owner[state.pirate_owner.index(-1)] = 0
    with pytest.raises(AssertionError):
        state.check_invariants()


# --- observation and hidden information (PSM-1010..1082, Section 9) -------------------------------------------


def random_states(n: int, options: dict, games: int = 4, every: int = 3):
    game = PotsmGame(num_players=n, **options)
    rng = random.Random(7)
    for seed in range(games):
        state = game.new_initial_state(seed)
        k = 0
        while True:
            if k % every == 0:
                yield state.clone()
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


@pytest.mark.parametrize("options", VARIANTS, ids=["base", "upcoming", "hand", "both"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_fast_observation_equals_the_reference_encoder(n, options):
    """Both fast encoders (the compiled twin where it is built, which ``observation`` uses, and the
    pure-Python one) give the reference's vector."""
    encoder = PotsmGame(num_players=n, **options).encoder
    for state in random_states(n, options):
        for seat in range(n):
            reference = encode_reference(state, seat)
            np.testing.assert_array_equal(state.observation(seat), reference)
            np.testing.assert_array_equal(encoder.encode_python(state, seat), reference)
            assert len(encoder.absolute_bytes(state, seat)) == encoder.buffer_size


def test_observation_of_a_hand_edited_out_of_byte_value_falls_back_to_the_reference():
    """Fame above 127 (never seen in play; the rules bound it at 232) does not fit the fast encoder's
    int8 bytes: the observation comes from the reference encoder and is still exact."""
    state = new_state(3, 1)
    for fame, claimed in ((255, 0), (130, 0), (5, 200)):
        state.fame[4] = fame
        state.claimed[2] = claimed
        obs = state.observation(0)
        assert obs[field_slices(3)["ship_fame"]][4] == fame
        assert obs[field_slices(3)["claimed_fame"]][2] == claimed
        np.testing.assert_array_equal(obs, encode_reference(state, 0))
        np.testing.assert_array_equal(state.game.encoder.encode_python(state, 0), obs)


def test_count_fields_refuse_values_outside_a_byte():
    """The counts the encoder copies as bytes (fame, tallies, ...) hold 0..255; any list assigned is
    stored as bytes, and a value that does not fit is refused with the field's name."""
    state = new_state(3, 1)
    state.fame = [0, 1, 2, 3, 4, 5, 6, 7, 232]
    assert type(state.fame) is bytearray and state.fame[8] == 232
    with pytest.raises(ValueError, match=r"PotsmState\.fame holds counts in 0\.\.255"):
        state.fame = [300] * 9
    with pytest.raises(ValueError, match=r"PotsmState\.claimed"):
        state.claimed = [-1, 0, 0]
    with pytest.raises(ValueError, match="byte must be in range"):
        state.fame[4] = 256
    assert list(state.fame) == [0, 1, 2, 3, 4, 5, 6, 7, 232]  # the refused writes changed nothing
    data = state.to_dict()
    assert data["fields"]["fame"] == [0, 1, 2, 3, 4, 5, 6, 7, 232]
    assert type(PotsmGame.state_from_dict(data).fame) is bytearray


def test_observation_field_contents():
    """PSM-1060..1082 on a known position."""
    state = base_state(row=[QUIET], deck_size=30, moves=[FULL_SPEED_AHEAD, SABOTAGE, SABOTAGE])
    state.start_seat = 2
    set_owners(state, {4: 0, 8: 0})
    play(state, act.FULL_SPEED_BASE + 6)  # player_0 moves ship 2 from position 7 to 1
    obs = state.observation(1)
    s = field_slices(4)
    assert obs.dtype == np.float32 and obs.shape == (637,)
    mine = state.observation(0)[s["my_pirates"]]
    assert mine.tolist() == [1 if j in (4, 8) else 0 for j in range(9)]
    assert obs[s["my_pirates"]].sum() == 2 and obs[s["my_pirates"]][4] == 0
    position = obs[s["ship_position"]].reshape(9, 9)
    assert [int(np.argmax(position[j])) for j in range(9)] == [state.line.index(j) for j in range(9)]
    assert obs[s["adventure_deck_size"]][0] == 29
    assert obs[s["move_available"]].tolist() == list(state.move_row)
    assert obs[s["move_deck_size"]][0] == len(state.move_deck)
    assert obs[s["move_discard"]][FULL_SPEED_AHEAD] == 1
    assert obs[s["phase"]].tolist() == [1, 0]  # player_1 acts now
    assert not state.observation(0)[s["phase"]].any()
    assert obs[s["start_seat"]].tolist() == [0, 1, 0, 0]  # seat 2 is offset 1 from seat 1
    assert obs[s["turn_index"]][0] == 1
    tally = obs[s["move_tally"]].reshape(4, 9, 3)
    assert tally[3, 2].tolist() == [1, 0, 0]  # player_0 is at offset 3 from player_1
    turns = obs[s["recent_turns"]].reshape(4, 2 * 4 + 26)
    assert turns[0, :4].tolist() == [0, 0, 0, 1]  # actor offset 3
    assert int(np.argmax(turns[0, 4:21])) == FULL_SPEED_AHEAD
    assert turns[0, 21:30].tolist() == [-1, -1, 6, -1, -1, 0, -1, -1, 0]
    assert not turns[1:].any()
    assert obs.min() >= PotsmGame.observation_low and obs.max() <= PotsmGame.observation_high
    assert not obs[s["hand_sizes"]].any()


def test_observation_hides_other_seats_pirates_and_decks():
    """PSM-1011 / Section 9: changing hidden facts never changes another seat's observation."""
    state = new_state(4, 9)
    before = state.observation(0)
    other = state.clone()
    # swap two pirates between player_1 and player_2, reorder both decks
    p1 = other.pirate_owner.index(1)
    p2 = other.pirate_owner.index(2)
    other.pirate_owner[p1], other.pirate_owner[p2] = 2, 1
    other.adventure_deck.reverse()
    other.move_deck.reverse()
    np.testing.assert_array_equal(other.observation(0), before)
    assert not np.array_equal(other.observation(1), state.observation(1))  # player_1 sees its own change


def test_hand_variant_hides_other_hands():
    state = new_state(3, 4, move_cards_in_hand=True)
    before = state.observation(0)
    other = state.clone()
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]
    np.testing.assert_array_equal(other.observation(0), before)
    s = field_slices(3)
    assert before[s["move_available"]].tolist() == state.hands[0]
    assert before[s["hand_sizes"]].tolist() == [3, 3, 3]


@pytest.mark.parametrize("options", VARIANTS, ids=["base", "upcoming", "hand", "both"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_resample_hidden_no_leak_and_consistent(n, options):
    """PSM-902: same observation and mask for the seat; invariants hold; the hidden part really changes."""
    changed = probes = 0
    for k, state in enumerate(random_states(n, options, games=3, every=5)):
        for seat in range(n):
            resampled = state.resample_hidden(seat, k * 10 + seat)
            resampled.check_invariants()
            np.testing.assert_array_equal(resampled.observation(seat), state.observation(seat))
            if state.current_player() == seat:
                np.testing.assert_array_equal(resampled.legal_action_mask(), state.legal_action_mask())
            assert resampled.owned_ships(seat) == state.owned_ships(seat)
            probes += 1
            changed += resampled.to_dict()["fields"] != state.to_dict()["fields"]
    assert changed > probes // 2


def test_resample_respects_public_not_owner_facts():
    """PSM-561 / PSM-902: after 'player_1 does not own pirate 4', no resample gives it to player_1."""
    state = base_state(row=[QUIET])
    set_owners(state, {4: 2})
    play(state, act.accuse_action(1, 4))
    owners_of_4 = set()
    for seed in range(200):
        resampled = state.resample_hidden(0, seed)
        assert resampled.pirate_owner[4] != 1
        owners_of_4.add(resampled.pirate_owner[4])
    assert owners_of_4 == {2, 3, -1}


def test_resample_with_tight_constraints_uses_the_fallback():
    """PSM-902: when almost everything is excluded the deal is still found (backtracking)."""
    state = new_state(4, 2)
    n = 4
    truth = list(state.pirate_owner)
    for j in range(9):
        for seat in range(1, n):
            if truth[j] != seat:
                state.not_owner[j * n + seat] = 1
    for seed in range(20):
        resampled = state.resample_hidden(0, seed)
        assert resampled.pirate_owner == truth  # only the true deal fits
        resampled.check_invariants()


@pytest.mark.parametrize("tries", [200, 0], ids=["rejection", "enumeration"])
def test_resampled_pirate_deals_are_uniform(monkeypatch, tries):
    """PSM-902: every consistent deal is equally likely, by rejection sampling or by enumeration."""
    import pirate_envs.games.potsm.game as game_module

    monkeypatch.setattr(game_module, "REJECTION_TRIES", tries)
    state = new_state(4, 6)
    n = 4
    truth = list(state.pirate_owner)
    facts = 0
    for j in range(9):  # a few public facts: seat 1 owns none of the first unknown pirates but its own
        if truth[j] not in (0, 1) and facts < 4:
            state.not_owner[j * n + 1] = 1
            facts += 1
    unknown = [j for j in range(9) if truth[j] != 0]
    deals = state._consistent_deals(unknown, [truth[j] for j in unknown])
    assert tuple(truth[j] for j in unknown) in deals
    expected = {t: sum(1 for d in deals if d[0] == t) / len(deals) for t in (1, 2, 3, -1)}
    samples = 3000
    counts = dict.fromkeys(expected, 0)
    for seed in range(samples):
        counts[state.resample_hidden(0, seed).pirate_owner[unknown[0]]] += 1
    for t, p in expected.items():
        assert abs(counts[t] / samples - p) < 0.04, (t, counts, expected)


# --- serialisation ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS, ids=["base", "upcoming", "hand", "both"])
def test_to_dict_json_round_trip_mid_game_and_identical_continuation(options):
    game = PotsmGame(num_players=3, **options)
    state = game.new_initial_state(21)
    rng = random.Random(3)
    for _ in range(17):
        state.apply_action(rng.choice(state.legal_actions()))
    restored = PotsmGame.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state and restored.to_dict() == state.to_dict()
    for seat in range(3):
        np.testing.assert_array_equal(restored.observation(seat), state.observation(seat))
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        assert restored.legal_actions() == state.legal_actions()
        state.apply_action(action)
        restored.apply_action(action)
    assert restored == state and restored.returns() == state.returns() and restored.scores() == state.scores()


def test_clone_is_deep_and_equal():
    state = new_state(4, 8, move_cards_in_hand=True)
    rng = random.Random(1)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    assert copy == state and set(copy.__dict__) == set(state.__dict__)
    copy.hands[0][0] += 1
    copy.recent_turns[0][0] = 99
    copy.line.reverse()
    assert copy != state and state.recent_turns[0][0] != 99


# --- rendering -----------------------------------------------------------------------------------------------


def test_render_public_and_private_views():
    state = base_state(row=[QUIET], move_cards_in_hand=True)
    set_owners(state, {4: 0, 8: 0, 3: 1})
    public = state.render(None)
    mine = state.render(0)
    assert "Your pirates" not in public and "Your hand" not in public
    assert "Isabel Cortés" in mine and "Jan Zwartbaard" in mine
    assert "Diego Salazar" not in mine  # player_1's pirate stays hidden
    assert "owner ?" in public and "player_1" not in state.render(0).split("Line")[1].split("Current")[0]
    assert "To act: player_0 (MAIN)" in public and "Current adventure: Kraken" in public
    assert str(state) == public


def test_psm_541_blind_shortfall_in_the_upcoming_variant_does_not_end_the_game():
    """PSM-541 / PSM-802 / PSM-1123: blind fame comes from the deck only; play goes on while the row holds cards."""
    state = base_state(n=3, row=[LEGENDARY_TREASURE, MAELSTROM, VOLCANO], deck_size=1, upcoming_adventures=True)
    play(state, act.PASS_ACTION)
    assert state.fame[0] == 2 and state.fame[3] == 2  # front two undamaged ships
    assert sum(state.blind_fame_cards) == 1 and state.adventure_deck == []  # 1 blind + 2 virtual
    assert state.adventure_row == [MAELSTROM, VOLCANO] and not state.is_terminal()
    slices = field_slices(3)
    obs = state.observation(1)
    assert obs[slices["adventure_deck_size"]][0] == 0
    assert int(np.argmax(obs[slices["upcoming_adventures"]][:24])) == VOLCANO
