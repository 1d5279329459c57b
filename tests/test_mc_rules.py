"""Rules tests for Madame Ching (``docs/rules/madame_ching.md``): worked examples MCH-1201..1222, then edge cases.

Positions are arranged with ``tests/mc_setup.py`` (cards are moved, never duplicated) and every test
checks the invariants at the end.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mc_setup import (
    clear_encounters,
    expedition_turn,
    fresh,
    give_encounter,
    give_skill,
    pull,
    set_board,
    set_expedition,
    set_hand,
    start_turn,
)
from secret_choice_checks import assert_choice_hidden_from_next

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import (
    CARTOGRAPHY,
    COMBAT,
    ELITE,
    MADAME_CHING,
    NEGOTIATOR,
    NIGHT_SAILING,
    SIREN,
    THIEF,
    WEATHER,
)
from pirate_envs.games.madame_ching.game import MadameChingGame
from pirate_envs.games.madame_ching.observation import field_slices

M = act.MISSION_BASE  # MISSION[m] for tile index m (M01 = 0)


def tile(label: int) -> int:
    """Tile index of M<label>."""
    return label - 1


def encounters(state, seat: int) -> int:
    return sum(state.enc_hands[seat])


# --- worked examples -------------------------------------------------------------------------------------------


def test_mch_1201_right_then_down_right():
    s = fresh()
    set_expedition(s, 0, [12])
    start_turn(s, 0, 20)
    assert s.expeditions[0] == [12, 20] and s.positions[0] == [2, 1]
    start_turn(s, 0, 30)
    assert s.positions[0] == [3, 2] and 3 * 2 == 6
    s.check_invariants()


def test_mch_1202_order_highest_first_and_forced_take():
    s = fresh(seed=3)
    for seat, card in enumerate((17, 44, 9, 33)):
        set_hand(s, seat, [card])
    clear_encounters(s)
    s.display = [0, 0, 0, 0]
    for c in (50, 51, 52, 53):
        pull(s, c)
    s.display = [50, 51, 52, 53]
    s.step = "select"
    s.select_seat = 0
    s._run()  # single cards in hand: every SELECT is forced and auto-resolved (MCH-402)
    assert s.order == [1, 3, 0, 2]
    # player_1, player_3 and player_0 each take a card; player_2 then finds one card and takes it automatically.
    seen = []
    while s.round == 1:
        seen.append(s.current_player())
        assert s.phase == act.TAKE
        s.apply_action(s.legal_actions()[0])
    assert seen == [1, 3, 0]
    s.check_invariants()


def test_mch_1203_mission_choice_between_equal_numbers():
    s = fresh()
    set_board(s, [tile(8), tile(10), tile(16)])
    set_expedition(s, 0, [6, 7, 8, 9, 10, 11, 26], position=(7, 2))
    set_hand(s, 0, [1, 2])
    start_turn(s, 0, 3)
    assert s.phase == act.MISSION_CHOOSE
    assert s.legal_actions() == [M + tile(8), M + tile(10)]
    s.apply_action(M + tile(8))
    assert s.tokens[0][3] == 1 and tile(8) not in s.board and tile(16) in s.board
    s.check_invariants()


def test_mch_1204_no_lower_tile_allowed():
    s = expedition_turn([6, 26, 27, 47], (4, 3), card=3, board=[tile(2), tile(11)])
    assert s.board == [tile(2)] and s.tokens[0][:3] == [1, 0, 1]
    s.check_invariants()


def test_mch_1205_one_skill_from_two_options():
    s = expedition_turn([1, 7, 11, 12, 14, 17], (6, 2), card=4, board=[tile(20)])
    assert s.phase == act.SKILL_CLAIM
    assert s.legal_actions() == [act.SKILL_BASE + CARTOGRAPHY, act.SKILL_BASE + ELITE]
    s.apply_action(act.SKILL_BASE + CARTOGRAPHY)
    assert s.skills[0][CARTOGRAPHY] == 1 and s.skills[0][ELITE] == 0
    assert s.expeditions[0] == [4]
    s.check_invariants()


def test_mch_1206_two_skills_second_forced():
    s = expedition_turn([7, 8, 11, 14, 15, 20], (6, 1), card=2, board=[tile(20)])
    assert s.legal_actions() == [act.SKILL_BASE + CARTOGRAPHY, act.SKILL_BASE + WEATHER]
    s.apply_action(act.SKILL_BASE + WEATHER)
    assert s.skills[0][CARTOGRAPHY] == 1 and s.skills[0][WEATHER] == 1
    s.check_invariants()


def test_mch_1207_consolation_draw():
    s = fresh()
    set_expedition(s, 0, [25])
    before = encounters(s, 0)
    start_turn(s, 0, 3)
    assert encounters(s, 0) == before + 1
    assert s.expeditions[0] == [3] and s.positions[0] == [1, 1]
    s.check_invariants()


def test_mch_1208_worlds_end_at_column_8():
    s = expedition_turn([6, 7, 8, 9, 10, 11, 26, 27], (8, 2), card=40, board=[tile(14)])
    assert s.tokens[0][0] == 1 and s.tokens[0][3] == 1
    assert s.expeditions[0] == [40] and s.positions[0] == [1, 1]
    s.check_invariants()


def test_mch_1209_line_crossings_draw_one_then_two():
    s = fresh()
    set_expedition(s, 0, [6, 7, 9, 14], position=(4, 1))
    start_turn(s, 0, 15)
    assert s.positions[0] == [5, 1] and encounters(s, 0) == 1
    start_turn(s, 0, 16)
    assert s.positions[0] == [6, 1] and encounters(s, 0) == 1
    start_turn(s, 0, 17)
    assert s.positions[0] == [7, 1] and encounters(s, 0) == 3
    s.check_invariants()


def test_mch_1210_weather_to_hong_kong():
    s = fresh()
    set_expedition(s, 0, [2, 10, 27, 41, 48, 53])
    assert s.positions[0] == [6, 6]
    give_skill(s, 0, WEATHER)
    start_turn(s, 0, 55)
    assert s.phase == act.WEATHER_PHASE and s.legal_actions() == [act.USE_WEATHER, act.PASS]
    s.apply_action(act.USE_WEATHER)
    assert s.positions[0] == [7, 7] and s.hk_owner == 0 and encounters(s, 0) == 2
    assert s.skills[0][WEATHER] == 0 and s.skills[0][5 + WEATHER] == 1
    assert s.seat_score(0) >= 10 + 2
    s.check_invariants()


def test_mch_1211_night_sailing():
    s = fresh()
    set_expedition(s, 0, [12])
    set_hand(s, 0, [5, 24, 33])
    give_skill(s, 0, NIGHT_SAILING)
    start_turn(s, 0, 20)
    assert s.phase == act.NIGHT_SAIL and s.positions[0] == [2, 1]
    assert s.legal_actions() == [23, 32, act.PASS]
    s.apply_action(32)
    assert s.positions[0] == [3, 2] and s.expeditions[0] == [12, 20, 33]
    assert s.skills[0][5 + NIGHT_SAILING] == 1 and s.phase != act.NIGHT_SAIL
    s.check_invariants()


def test_mch_1212_china_pearl_ends_after_the_round():
    s = fresh()
    s.round = 12
    give_skill(s, 2, CARTOGRAPHY, NIGHT_SAILING, WEATHER)
    s.skills[2][CARTOGRAPHY], s.skills[2][5 + CARTOGRAPHY] = 0, 1
    set_board(s, [tile(22)])
    set_expedition(s, 2, [5, 10, 17, 23], position=(4, 2))  # three Swords icons
    for b, c in ((0, [6]), (1, [7]), (3, [8])):
        set_expedition(s, b, c)
    start_turn(s, 1, 40, order=[(2, 3), (3, 9), (0, 2)])
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.pearl_owner == 2 and s.end_triggered and s.round == 12
    assert all(s.acted) or s.expeditions[0][-1] == 2
    assert s.expeditions[3] == [8, 9] and s.expeditions[0] == [2]
    s.check_invariants()


def test_mch_1213_last_tile_triggers_and_round_finishes():
    s = fresh()
    set_board(s, [tile(1)])
    set_expedition(s, 3, [6, 26, 27], position=(3, 2))
    set_expedition(s, 0, [6 + 3])
    start_turn(s, 3, 2, order=[(0, 1)])
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.tokens[3][0] >= 2 and s.taken_tiles[3] == [tile(1)]
    assert s.round == 1 and s.expeditions[0] == [1]  # player_0 still had its boat-turn
    s.check_invariants()


def test_mch_1214_tie_break_by_gems():
    s = fresh()
    s.tokens[0] = [19, 0, 1, 2]
    s.tokens[1] = [16, 0, 2, 2]
    clear_encounters(s)
    s.supply = [46 - 35, 12, 12 - 3, 12 - 4]
    s.over = True
    assert s.scores()[:2] == [30.0, 30.0]
    assert s.winners() == [1]
    assert s.returns() == [-1.0, 1.0, -1.0, -1.0]


def test_mch_1215_thief_masked_without_gems():
    s = fresh()
    give_encounter(s, 0, THIEF, 1)
    give_encounter(s, 0, NEGOTIATOR, 1)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 11)
    assert s.phase == act.ACTION
    assert act.PLAY_ENC_BASE + THIEF not in s.legal_actions()
    assert act.PLAY_ENC_BASE + NEGOTIATOR in s.legal_actions()


def test_mch_1216_siren_undo():
    s = fresh()
    set_expedition(s, 1, [3, 10, 30])
    assert s.positions[1] == [3, 3]
    give_encounter(s, 0, SIREN, 1)
    set_expedition(s, 0, [40])
    start_turn(s, 0, 41)
    s.apply_action(act.PLAY_ENC_BASE + SIREN)  # only one target: auto-resolved
    assert s.expeditions[1] == [3, 10] and s.positions[1] == [2, 2] and 30 in s.nav_discard
    start_turn(s, 1, 31)
    assert s.positions[1] == [3, 3]
    s.check_invariants()


def test_mch_1217_short_gold():
    s = fresh()
    s.supply[0] = 1
    s.tokens[2][0] = 45
    give_encounter(s, 0, NEGOTIATOR, 2)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 11)
    s.apply_action(act.PLAY_ENC_BASE + NEGOTIATOR)
    assert s.tokens[0][0] == 1 and s.supply[0] == 0
    assert s.phase != act.ACTION or act.PLAY_ENC_BASE + NEGOTIATOR not in s.legal_actions()
    s.check_invariants()


def test_mch_1218_final_icon_gold():
    s = fresh()
    set_expedition(s, 0, [7, 11, 14, 26])
    s._final_icon_gold()
    assert s.tokens[0][0] == 3


def test_mch_1219_two_player_order():
    s = fresh(2)
    set_hand(s, 0, [30, 5, 1, 2, 3])
    set_hand(s, 1, [41, 22, 50, 51, 52])
    for c in (42, 43, 44, 45):
        pull(s, c)
    s.display = [42, 43, 44, 45]
    for a in (29, 4, 40, 21):
        s.apply_action(a)
    assert s.order == [2, 0, 3, 1] and s.current_player() == 1 and s.phase == act.TAKE
    assert s.game.boat_owner[2] == 1 and s.game.boat_owner[0] == 0


def test_mch_1220_deck_reshuffle_on_deal():
    s = fresh()
    s.nav_discard = s.nav_deck[1:11]
    s.nav_deck = s.nav_deck[:1]
    first = s.nav_deck[0]
    extra = [c for c in range(1, 56) if c not in s.nav_discard and c != first]
    # park the remaining loose cards in hands so that only deck + discard can deal
    s.hands[0] = sorted(set(s.hands[0]) | {c for c in extra if all(c not in h for h in s.hands)})
    s.step = "new_round"
    s._advance()
    assert s.display[0] == first
    assert all(s.display[1:4]) and s.nav_discard == [] and len(s.nav_deck) == 7
    s.check_invariants()


def test_mch_1221_combat_swaps_and_both_know():
    s = fresh()
    set_hand(s, 1, [9, 26, 44])
    set_hand(s, 0, [5])
    give_skill(s, 0, COMBAT)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 12)
    s.apply_action(act.USE_COMBAT)
    s.apply_action(act.TARGET_BASE + 1)
    taken = s.combat_card
    assert taken in (9, 26, 44) and s.phase == act.COMBAT_GIVE
    s.apply_action(5 - 1)
    assert sorted(s.hands[1]) == sorted([c for c in (9, 26, 44) if c != taken] + [5])
    assert 5 in s.known[0][1] and taken in s.known[1][0]
    assert s.skills[0][5 + COMBAT] == 1
    s.check_invariants()


def test_mch_1222_team_pass_and_return():
    s = fresh(team_mode=True)
    set_hand(s, 0, [1, 2, 3, 4])
    set_hand(s, 2, [50, 51])
    set_expedition(s, 0, [10])
    set_expedition(s, 2, [20])
    start_turn(s, 0, 11, order=[(2, 21)])
    while s.phase != act.TEAM_GIVE:
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 0
    s.apply_action(0)  # card 1
    s.apply_action(1)  # card 2
    s.apply_action(act.PASS)
    assert s.owes[2] == 2 and {1, 2} <= set(s.hands[2])
    while s.phase != act.TEAM_RETURN:
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 2
    give = s.legal_actions()[-2:]
    s.apply_action(give[0])
    s.apply_action(s.legal_actions()[-1])
    assert s.owes[2] == 0 and s.phase == act.TEAM_GIVE and s.current_player() == 2
    s.check_invariants()


# --- hidden information ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_mch_1001_secret_choice_hidden_from_next(num_players):
    """MCH-904: what an earlier chooser picked never shows to the next chooser."""
    game = MadameChingGame(num_players)
    compared = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(40):
            if state.is_terminal():
                break
            if state.phase == act.SELECT and state.select_boat == len(game.boats_of[state.select_seat]) - 1:
                compared += assert_choice_hidden_from_next(
                    state, lambda s: s.phase == act.SELECT and s.select_boat == 0
                )
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    assert compared > 20


def test_mch_906_face_down_slot_seen_by_taker_only():
    s = fresh()
    pull(s, 40)
    s.display[0] = 40
    pull(s, 50)
    s.display[1] = 50
    set_expedition(s, 1, [10])
    start_turn(s, 1, 11)
    views = [s.observation(q) for q in range(4)]
    assert s.phase == act.TAKE and s.current_player() == 1
    s.apply_action(act.SLOT_BASE + 0)
    sl = field_slices(4)
    own = s.observation(1)[sl["own_hand"]]
    assert own[39] == 1.0
    for q in (0, 2, 3):
        assert s.observation(q)[sl["known_cards"]].sum() == views[q][sl["known_cards"]].sum()
    assert "40" not in s.render(None).split("display:")[1].split("\n")[0]


def test_mch_917_face_up_take_is_known_to_all():
    s = fresh()
    pull(s, 50)
    s.display[1] = 50
    set_expedition(s, 1, [10])
    start_turn(s, 1, 11)  # one card only: forced take
    sl = field_slices(4)
    for q in (0, 2, 3):
        offset = (1 - q) % 4
        assert s.observation(q)[sl["known_cards"]][55 * (offset - 1) + 49] == 1.0


def test_mch_1006_observation_sizes_and_non_acting_zeros():
    for n, size in ((2, 1285), (3, 1237), (4, 1457)):
        game = MadameChingGame(n)
        assert game.observation_size == size
        s = game.new_initial_state(1)
        other = (s.current_player() + 1) % n
        sl = field_slices(n)
        obs = s.observation(other)
        assert not obs[sl["phase"]].any() and not obs[sl["pending"]].any()


# --- edge cases ------------------------------------------------------------------------------------------------


def test_mch_506_down_right_capped_at_row_7():
    s = fresh()
    set_expedition(s, 0, [2, 10, 27, 41, 48, 53], position=(6, 7))
    s.history[0][-1] = [5, 6]
    start_turn(s, 0, 54)  # no Weather: same colour, right move
    assert s.positions[0] == [7, 7] and s.hk_owner == 0


def test_mch_529_weather_not_offered_on_colour_change():
    s = fresh()
    give_skill(s, 0, WEATHER)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 30)
    assert s.phase != act.WEATHER_PHASE and s.positions[0] == [2, 2] and s.skills[0][WEATHER] == 1


def test_mch_526_elite_stands_in_for_weather():
    s = fresh()
    give_skill(s, 0, ELITE)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 11)
    assert s.phase == act.WEATHER_PHASE
    s.apply_action(act.USE_WEATHER)
    assert s.positions[0] == [2, 2] and s.skills[0][5 + ELITE] == 1


def test_mch_540_both_piles_empty_draw_gives_nothing():
    s = fresh()
    loose = s.nav_deck + s.nav_discard
    s.nav_deck, s.nav_discard = [], []
    s.hands[0] = sorted(s.hands[0] + loose)
    assert s._draw_nav() == 0
    s.check_invariants()


def test_mch_541_encounter_reshuffle():
    s = fresh()
    s.enc_discard = s.enc_deck
    s.enc_deck = []
    s._draw_enc(0)
    assert encounters(s, 0) == 1 and len(s.enc_deck) == 32 and s.enc_discard == []
    s.check_invariants()


def test_mch_512_no_tile_reachable_then_consolation():
    s = expedition_turn([10, 26], (2, 2), card=5, board=[tile(23)])
    assert encounters(s, 0) == 1 and s.board == [tile(23)]


def test_mch_617_madame_ching_checks_china_pearl():
    s = fresh()
    give_skill(s, 0, CARTOGRAPHY, NIGHT_SAILING, WEATHER)
    give_encounter(s, 0, MADAME_CHING, 1)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 30)
    s.apply_action(act.PASS)  # Night Sailing window
    s.apply_action(act.PLAY_ENC_BASE + MADAME_CHING)
    s.apply_action(act.SKILL_BASE + COMBAT)
    assert s.pearl_owner == 0 and s.end_triggered


def test_mch_804_elite_counts_for_china_pearl_option():
    for option, expect in ((False, -1), (True, 0)):
        s = fresh(elite_counts_for_china_pearl=option)
        give_skill(s, 0, CARTOGRAPHY, NIGHT_SAILING, WEATHER, ELITE)
        s._check_pearl(0)
        assert s.pearl_owner == expect


def test_mch_702_round_limit_ends_game():
    game = MadameChingGame(3, round_limit=2)
    s = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    assert s.round <= 2 and not s.is_truncated()


def test_mch_803_team_scores_and_winners():
    s = fresh(team_mode=True)
    s.tokens[0] = [10, 0, 0, 0]
    s.tokens[2] = [10, 0, 0, 0]
    s.tokens[1] = [15, 0, 0, 0]
    s.supply[0] = 46 - 35
    s.over = True
    assert s.winners() == [0, 2] and s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_mch_1007_score_mode():
    s = fresh(3, reward_mode="score")
    s.tokens[0] = [20, 0, 0, 0]
    s.tokens[1] = [10, 0, 0, 0]
    s.supply[0] = 46 - 30
    s.over = True
    assert s.returns() == [pytest.approx(10 / 50), pytest.approx(-10 / 50), pytest.approx(-20 / 50)]


def test_mch_402_manual_mode_asks_forced_decisions():
    s = fresh(auto_resolve_forced=False)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 11)
    assert s.phase == act.ACTION and s.legal_actions() == [act.PASS]


def test_options_rejected():
    with pytest.raises(InvalidOptionError):
        MadameChingGame(4, round_limit=0)
    with pytest.raises(InvalidOptionError):
        MadameChingGame(5)
    s = fresh()
    with pytest.raises(IllegalActionError):
        s.apply_action(act.PASS)


def test_render_shows_grid_and_expeditions():
    s = fresh()
    set_expedition(s, 0, [12, 20, 30])
    text = s.render(0)
    assert "player_0" in text and "12B-L" in text and "missions:" in text and "hand:" in text


def test_mch_553_team_gift_offered_once_and_given():
    s = fresh(team_mode=True)
    set_expedition(s, 0, [25])
    start_turn(s, 0, 3)  # consolation draw (MCH-516) -> ENC_GIFT
    assert s.phase == act.ENC_GIFT and s.legal_actions() == [act.GIVE_TO_PARTNER, act.PASS]
    kind = s.gift_queue[0]
    s.apply_action(act.GIVE_TO_PARTNER)
    assert s.enc_hands[2][kind] == 1 and encounters(s, 0) == 0 and s.phase != act.ENC_GIFT
    s.check_invariants()


def test_mch_552_team_give_keeps_one_card_and_554_partner_not_targeted():
    s = fresh(team_mode=True)
    set_hand(s, 0, [1, 2])
    set_expedition(s, 0, [10])
    give_encounter(s, 2, THIEF, 1)
    s.tokens[2][3] = 1
    s.supply[3] -= 1
    give_encounter(s, 0, THIEF, 1)
    assert THIEF not in s.playable_kinds(0)  # only the partner owns a gem
    start_turn(s, 0, 30)  # ACTION had only PASS: auto-resolved
    assert s.phase == act.TEAM_GIVE and s.legal_actions() == [0, 1, act.PASS]
    s.apply_action(0)
    assert s.current_player() != 0 or s.phase != act.TEAM_GIVE  # one card left: the window closes


def test_mch_1004_manual_team_give_window_opens_with_one_card():
    """MCH-1004/MCH-1002/MCH-402: with `auto_resolve_forced` off, TEAM_GIVE is asked even below 2 cards
    (PASS alone is legal), before the turn moves on."""
    s = fresh(team_mode=True, auto_resolve_forced=False)
    set_hand(s, 0, [1])
    set_expedition(s, 0, [10])
    start_turn(s, 0, 30)
    assert s.phase == act.ACTION and s.legal_actions() == [act.PASS]
    s.apply_action(act.PASS)
    assert s.phase == act.TEAM_GIVE and s.current_player() == 0 and s.legal_actions() == [act.PASS]
    assert s.legal_action_mask().sum() == 1 and s.legal_action_mask()[act.PASS] == 1
    s.apply_action(act.PASS)
    assert s.phase != act.TEAM_GIVE and s.hands[0] == [1]
    s.check_invariants()


def test_mch_1004_manual_team_give_down_to_one_card_asks_again():
    """MCH-1004/MCH-402: 4p team game, seed 113120, random play: seat 0 gives a card down to its last one;
    the TEAM_GIVE window stays open with PASS alone instead of moving to the next boat's ACTION."""
    s = MadameChingGame(4, team_mode=True, auto_resolve_forced=False).new_initial_state(113120)
    rng = random.Random(113120)
    while True:
        assert not s.is_terminal(), "scenario no longer reaches a give down to one card"
        seat, phase = s.current_player(), s.phase
        action = rng.choice(s.legal_actions())
        s.apply_action(action)
        if phase == act.TEAM_GIVE and action != act.PASS and len(s.hands[seat]) < 2:
            break
    assert s.phase == act.TEAM_GIVE and s.current_player() == seat and s.legal_actions() == [act.PASS]
    s.check_invariants()


def test_mch_917_card_entering_own_hand_leaves_every_own_list():
    """MCH-917: player_0 passes cards 1 and 2 to its partner (it knows them there); when player_2 returns
    them, they leave all of player_0's 'known' lists, and player_2 now knows them in player_0's hand."""
    s = fresh(team_mode=True)
    set_hand(s, 0, [1, 2, 3, 4])
    set_hand(s, 2, [50])
    set_expedition(s, 0, [10])
    set_expedition(s, 2, [20])
    start_turn(s, 0, 11, order=[(2, 21)])
    while s.phase != act.TEAM_GIVE:
        s.apply_action(s.legal_actions()[0])
    s.apply_action(0)  # card 1
    s.apply_action(1)  # card 2
    s.apply_action(act.PASS)
    assert {1, 2} <= set(s.known[0][2])
    while s.phase != act.TEAM_RETURN:
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 2
    s.apply_action(0)  # card 1 back
    s.apply_action(1)  # card 2 back
    assert {1, 2} <= set(s.hands[0])
    assert all(c not in cards for cards in s.known[0] for c in (1, 2))
    assert {1, 2} <= set(s.known[2][0])
    s.check_invariants()


def test_mch_612_spy_takes_a_random_encounter_card():
    s = fresh(3)
    give_encounter(s, 0, 4, 1)  # Spy
    give_encounter(s, 1, SIREN, 2)
    set_expedition(s, 0, [10])
    start_turn(s, 0, 30)
    s.apply_action(act.PLAY_ENC_BASE + 4)  # the only target is auto-resolved
    assert s.enc_hands[0][SIREN] == 1 and s.enc_hands[1][SIREN] == 1
    s.check_invariants()
