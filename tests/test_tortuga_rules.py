"""tortuga_v0 rules engine: every worked example of the rules (TOR-1201..1223), then edge cases.

Positions are built with ``tortuga_setup.make`` (roles, pawns, nations placed on a fresh state) and
played through ``apply_action``; dice are scripted with ``tortuga_setup.dice``. Index arithmetic
follows TOR-1002: for n = 6, MOVE 0-7, PASS 8, ATTACK 9, MUTINY 10, STEAL_GALLEON 11, STEAL_PLAYER
12-17, DISPUTE 18-23, VOTE 24-26, DECLARE 27-28, DRAW 29, SELECT_PLAYER 30-35, SELECT_SHIP 36-38.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from secret_choice_checks import assert_choice_hidden_from_next
from tortuga_setup import dice, give, give_map, make, play, put_on_top, random_agent_turns, refresh

from pirate_envs import tortuga_v0
from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.games.tortuga import TortugaGame
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    ARMADA,
    BURIED_CHEST,
    C_ENG,
    C_FRA,
    C_SPA,
    COUNTERATTACK,
    ENGLAND,
    FAIR_WINDS,
    FLOATING_CARGO,
    FM_ENG,
    FM_FRA,
    FM_SPA,
    FRANCE,
    GOVERNOR,
    LOG_ATTACK_FAILED,
    LOG_DISPUTE_PASSED,
    LOG_EXILED,
    LOG_LOOT_GIVEN,
    LOG_MAP_GIFTED,
    LOG_PAWN_MOVED,
    LOG_PROMOTED,
    LOG_TREASURE_EVENT,
    MUTINY_BREWS,
    SAILOR,
    SCURVY,
    SHIPWRECK,
    SPAIN,
    SPYGLASS,
    STRONG_CURRENT,
    TAVERN_BRAWL,
    TREASURE_MAP,
)
from pirate_envs.games.tortuga.game import (
    ACTION,
    CURRENT_DEST,
    CURRENT_TARGET,
    DECLARE,
    DRAW,
    EXTRA_MOVE,
    LOOT,
    MAP_GIVE,
    MAP_RECIPIENT,
    MOVE,
    MUTINY_SHIP,
    VOTE,
)
from pirate_envs.games.tortuga.observation import PLAYER_BLOCK, field_slices

E, F, S = ENGLAND, FRANCE, SPAIN
TOR, ENG, FRA, SPA, GAL, LANE_E, LANE_F, LANE_S = range(8)


def idx(n: int):
    return TortugaGame(num_players=n).idx


def vote_all(state, card: int) -> None:
    """Every voter plays ``card`` (0 Yes, 1 No)."""
    base = state.game.idx.vote
    while state.phase == VOTE:
        play(state, base + card)


def player_field(state, viewer: int, k: int, offset: int) -> float:
    """Entry ``offset`` (0-25) of the player block of seat offset ``k`` in ``viewer``'s observation."""
    start = field_slices(state.game.num_players)["players"].start
    return float(state.observation(viewer)[start + PLAYER_BLOCK * k + offset])


MY_STEAL_DELTA, PUB_MAPS, MY_MAP_DELTA, PUB_TREASURE, STEALS_MADE = 23, 24, 25, 21, 22


# --- worked examples -----------------------------------------------------------------------------------


def six_player_1201(p4_node=FRA):
    roles = [GOVERNOR, SAILOR, C_ENG, FM_ENG, C_FRA, FM_FRA]
    return make(6, roles=roles, pos=[TOR, LANE_E, ENG, ENG, p4_node, FRA], active=0, phase=MOVE)


def test_tor_1201_movement_mask():
    """TOR-1201/TOR-501: distance <= 2, pass through occupied nodes, only the destination needs room."""
    assert six_player_1201().legal_actions() == [0, 1, 2, 3, 6, 7]


def test_tor_1202_full_ship_is_illegal():
    """TOR-1202: with 3 pawns on ENG, moving there is illegal; the rest is unchanged."""
    assert six_player_1202_mask() == [0, 2, 3, 6, 7]


def six_player_1202_mask():
    return six_player_1201(p4_node=ENG).legal_actions()


def five_player_attack(**options):
    """TOR-1203 table: p2 Captain ENG on GAL, the only pawn there."""
    roles = [C_FRA, FM_ENG, C_ENG, GOVERNOR, SAILOR]
    state = make(5, roles=roles, pos=[FRA, ENG, GAL, TOR, ENG], active=2, phase=ACTION, **options)
    play(state, act.ATTACK)
    return state


def test_tor_1203_wild_declarations():
    """TOR-1203/509/510: Y, W, N, W, N; p3 declares Yes (2-2), p0 No -> 2-3 fails; p0 Yes -> 3-2 passes."""
    ix = idx(5)
    state = five_player_attack()
    assert state.vote["order"] == [2, 3, 4, 0, 1]
    play(state, ix.vote + 0, ix.vote + 2, ix.vote + 1, ix.vote + 2, ix.vote + 1)
    assert state.phase == DECLARE and state.current_player() == 3
    play(state, ix.declare + 0)
    assert state.current_player() == 0
    fails = state.clone()
    play(fails, ix.declare + 1)
    assert fails.last_vote["passed"] is False and fails.log[-1][0] == LOG_ATTACK_FAILED
    assert fails.last_vote["final"] == [1, 1, 0, 0, 1]
    passes = state.clone()
    passes.rng = dice(6, 1)  # D = min(6, 1 + 1) = 2 dice
    play(passes, ix.declare + 0)
    assert passes.last_vote["passed"] is True
    assert passes.hoard[2] == 1  # the Captain alone: loot auto-assigned (TOR-522)


def test_tor_1204_tie_fails():
    """TOR-1204/TOR-511: 2 Yes, 2 No -> the dispute fails."""
    state = make(4, roles=[GOVERNOR, C_ENG, FM_ENG, SAILOR], pos=[TOR, ENG, ENG, FRA], phase=ACTION)
    give(state, 1, 1)
    ix = state.game.idx
    play(state, ix.dispute + 1, ix.vote, ix.vote, ix.vote + 1, ix.vote + 1)
    assert state.last_vote["passed"] is False and state.hoard[1] == 1


@pytest.mark.parametrize(("die", "passed"), [(5, True), (2, False)])
def test_tor_1205_two_player_neutral_die(die, passed):
    """TOR-1205/TOR-512: p0 Yes, p1 No; die 4-6 adds a Yes (2-1 passes), 1-3 a No (1-2 fails)."""
    state = make(2, roles=[C_ENG, C_FRA], pos=[GAL, FRA], phase=ACTION)
    ix = state.game.idx
    state.rng = dice(die, 6, 6)
    play(state, act.ATTACK, ix.vote, ix.vote + 1)
    assert state.last_vote["passed"] is passed
    assert state.last_vote["die"] == (0 if die >= 4 else 1)
    assert state.hoard[0] == (2 if passed else 0)


def loot_position(galleon: int):
    """TOR-1206: p1 Captain FRA on GAL with p3, p4."""
    roles = [C_ENG, C_FRA, FM_ENG, FM_FRA, SAILOR, GOVERNOR]
    state = make(6, roles=roles, pos=[ENG, GAL, ENG, GAL, GAL, TOR], active=1, phase=ACTION)
    state.supply += state.galleon - galleon
    state.galleon = galleon
    return refresh(state)


def test_tor_1206_loot_assignment():
    """TOR-1206/521/522: D = 4; dice 6, 4, 2, 1 -> L = 2; LOOT mask = participants; public assignments."""
    state = loot_position(9)
    state.rng = dice(6, 4, 2, 1)
    play(state, act.ATTACK)
    vote_all(state, 0)
    assert state.phase == LOOT and state.galleon == 7
    assert state.loot["dice"] == 4 and state.loot["successes"] == 2
    assert state.legal_actions() == [30, 32, 33]
    play(state, 30, 32)
    assert state.hoard[1] == 1 and state.hoard[3] == 1
    assert state.pub_treasure[1] == 1 and state.pub_treasure[3] == 1
    assert [e[0] for e in state.log[-2:]] == [LOG_LOOT_GIVEN, LOG_LOOT_GIVEN]
    assert state.phase == MOVE and state.active == 2  # draw_replaces_action (default on): no DRAW


def test_tor_1207_galleon_emptied_ends_after_loot():
    """TOR-1207/523/702: galleon 1, 3 successes -> L = 1; the game ends after the assignment."""
    state = loot_position(1)
    state.rng = dice(6, 6, 6, 1)
    play(state, act.ATTACK)
    vote_all(state, 0)
    assert state.phase == LOOT and state.loot["left"] == 1
    play(state, 32)
    assert state.is_terminal() and state.end_reason == "galleon" and state.galleon == 0


def test_tor_1208_mutiny_and_cascade():
    """TOR-1208/526/527: Captain exiled, First Mate promoted, first alive Sailor on ENG becomes First Mate."""
    roles = [SAILOR, C_FRA, C_ENG, C_SPA, FM_FRA, FM_ENG, FM_SPA, SAILOR, GOVERNOR]
    pos = [ENG, FRA, GAL, SPA, FRA, ENG, SPA, ENG, TOR]
    state = make(9, roles=roles, pos=pos, active=5, phase=ACTION)
    state.exiled[0] = True
    assert act.MUTINY in state.legal_actions()
    play(state, act.MUTINY)
    assert state.vote["target"] == 2
    vote_all(state, 0)
    assert state.exiled[2] and state.role[2] == SAILOR and state.pos[2] == TOR and state.revealed[2]
    assert state.role[5] == C_ENG and state.role[7] == FM_ENG and state.role[0] == SAILOR
    assert [e[:3] for e in state.log[-3:]] == [[LOG_EXILED, 5, 2], [LOG_PROMOTED, 5, -1], [LOG_PROMOTED, 7, -1]]
    assert [e[5] for e in state.log[-2:]] == [1, 2]


def test_tor_1209_vacancy():
    """TOR-1209/527/528: no FM-ENG and no Sailor on ENG -> Captain ENG stays vacant; p4 stays FM-FRA."""
    roles = [C_FRA, C_ENG, SAILOR, GOVERNOR, FM_FRA, SAILOR]
    state = make(6, roles=roles, pos=[FRA, ENG, TOR, TOR, ENG, GAL], active=4, phase=ACTION)
    play(state, act.MUTINY)
    vote_all(state, 0)
    assert state.exiled[1] and state.holder(C_ENG) == -1 and state.holder(FM_ENG) == -1
    assert state.role[4] == FM_FRA
    state.phase, state.active = ACTION, 4
    assert act.MUTINY not in refresh(state).legal_actions()  # no Captain ENG to mutiny against


def steal_position():
    """TOR-1210: p3 Sailor, p5 Governor (hoard 2), p1 exiled (hoard 0) on TOR."""
    roles = [C_ENG, SAILOR, C_FRA, SAILOR, FM_FRA, GOVERNOR]
    state = make(6, roles=roles, pos=[ENG, TOR, FRA, TOR, FRA, TOR], active=3, phase=ACTION)
    state.exiled[1] = True
    give(state, 5, 2)
    return refresh(state)


def test_tor_1210_secret_steal():
    """TOR-1210/535/536/907/908: the victim and the amount are known to thief and victim only."""
    state = steal_position()
    assert state.legal_actions() == [act.PASS, 14, 16]
    before_pub = list(state.pub_treasure)
    play(state, 14)
    assert state.hoard[5] == 1 and state.hoard[3] == 1 and state.pub_treasure == before_pub
    assert state.steals_made[3] == 1
    assert player_field(state, 3, 2, MY_STEAL_DELTA) == 1  # thief: +1 from offset 2 (p5)
    assert player_field(state, 5, 4, MY_STEAL_DELTA) == -1  # victim: -1 towards offset 4 (p3)
    for viewer in (0, 1, 2, 4):
        assert player_field(state, viewer, (3 - viewer) % 6, STEALS_MADE) == 1
    # p1 (on TOR, not involved) and p0 see the same whoever the victim was.
    other = steal_position()
    play(other, 16)  # p3 steals from p1 (hoard 0): nothing moves
    for viewer in (0, 2, 4):
        np.testing.assert_array_equal(state.observation(viewer), other.observation(viewer))
    assert state.render(None) == other.render(None)


def test_tor_1211_dispute_against_empty_hoard():
    """TOR-1211/539: the dispute passes, the target has 0 -> nothing moves, DISPUTE_PASSED value 0."""
    state = steal_position()
    state.active = 5
    play(refresh(state), 20)
    assert state.vote["target"] == 1
    vote_all(state, 0)
    entry = state.log[-1]
    assert entry[0] == LOG_DISPUTE_PASSED and entry[2] == 1 and entry[5] == 0
    assert state.hoard[5] == 2


def test_tor_1212_maps_public_then_secret_gift():
    """TOR-1212/544/909/910/1135: the drawn map's recipient is public; the later gift is secret."""
    roles = [C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR, SAILOR]
    pos = [ENG, GAL, SPA, FRA, GAL, SPA, FRA, ENG, TOR]
    state = make(9, roles=roles, pos=pos, nations=[E, E, E, F, F, F, S, S, S], active=0, phase=DRAW)
    put_on_top(state, TREASURE_MAP)
    ix = state.game.idx
    play(state, ix.draw)
    assert state.phase == MAP_RECIPIENT and state.legal_actions() == list(range(36, 45))
    play(state, 39)
    assert state.pub_maps[3] == 1 and state.log[-1][:3] == [LOG_MAP_GIFTED, 0, 3]
    assert state.phase == MOVE and state.active == 1  # p0 holds no map: no MAP_GIVE decision
    state.active, state.phase = 3, DRAW
    play(refresh(state), act.PASS)
    assert state.phase == MAP_GIVE and state.legal_actions() == [act.PASS, 39]
    watchers = {v: state.observation(v) for v in (0, 1, 2, 4, 5, 7, 8)}
    log_before = [list(e) for e in state.log]
    play(state, 39)
    assert state.maps[3] == 0 and state.maps[6] == 1
    assert player_field(state, 3, 3, MY_MAP_DELTA) == -1
    assert player_field(state, 6, 6, MY_MAP_DELTA) == 1
    assert state.log == log_before  # no log entry
    for viewer in watchers:
        assert player_field(state, viewer, (3 - viewer) % 9, PUB_MAPS) == 1
    assert state.nation_scores()[S] == 2 and state.nation_scores()[F] == 0


def armada_position(hoards, maps=(), exiled=(), nations=(E, E, F, F, S, S)):
    roles = [C_ENG, SAILOR, SAILOR, C_FRA, GOVERNOR, SAILOR]
    state = make(6, roles=roles, pos=[ENG, FRA, TOR, FRA, TOR, GAL], nations=nations, phase=DRAW)
    for seat, h in enumerate(hoards):
        give(state, seat, h)
    for seat in maps:
        give_map(state, seat)
    for seat in exiled:
        state.exiled[seat] = True
        state.role[seat] = SAILOR
    put_on_top(state, ARMADA)
    play(refresh(state), state.game.idx.draw)
    assert state.is_terminal() and state.end_reason == "armada"
    return state


def test_tor_1213_armada_and_alive_tie_break():
    """TOR-1213/703/704: England 9 = France 9; England has more alive players and wins."""
    state = armada_position([4, 3, 5, 4, 3, 2], maps=[1], exiled=[2])
    assert state.nation_scores() == [9, 9, 5]
    assert state.winners() == [0, 1]
    assert state.returns() == [1.0, 1.0, -1.0, -1.0, -1.0, -1.0]


def test_tor_1214_shared_win():
    """TOR-1214/704(3): equal score, alive players and maps -> both nations win."""
    state = armada_position([4, 3, 5, 2, 3, 2], maps=[1, 3])
    assert state.nation_scores() == [9, 9, 5]
    assert state.returns() == [1.0, 1.0, 1.0, 1.0, -1.0, -1.0]


def test_tor_1215_exiled_member_of_winning_nation_loses():
    """TOR-1215/705: p1 (England) is exiled: p0 +1, p1 -1."""
    state = armada_position([4, 3, 4, 4, 3, 2], maps=[1], exiled=[1])
    assert state.nation_scores() == [9, 8, 5]
    assert state.returns() == [1.0, -1.0, -1.0, -1.0, -1.0, -1.0]


def test_tor_1216_mutiny_brews_without_target():
    """TOR-1216/605/542: the drawer is the only Captain -> no MUTINY_SHIP decision; card discarded."""
    state = make(4, roles=[C_ENG, FM_ENG, GOVERNOR, SAILOR], pos=[ENG, LANE_F, TOR, GAL], phase=DRAW)
    put_on_top(state, MUTINY_BREWS)
    play(state, state.game.idx.draw)
    assert state.drawn[MUTINY_BREWS] == 1 and state.phase == MOVE and state.active == 1


def test_tor_1217_counterattack():
    """TOR-1217/609: p1 (hoard 2) returns 1 to the galleon, p4 (hoard 0) nothing; both results public."""
    roles = [C_ENG, C_FRA, FM_ENG, FM_FRA, SAILOR, GOVERNOR]
    state = make(6, roles=roles, pos=[ENG, GAL, ENG, FRA, GAL, TOR], phase=DRAW)
    give(state, 1, 2)
    state.supply += state.galleon - 5
    state.galleon = 5
    put_on_top(state, COUNTERATTACK)
    play(refresh(state), state.game.idx.draw)
    assert state.galleon == 6 and state.hoard[1] == 1 and state.pub_treasure[1] == 1
    entries = [e for e in state.log if e[0] == LOG_TREASURE_EVENT]
    assert [(e[2], e[5]) for e in entries] == [(1, -1), (4, 0)]


def pass_everything(state) -> None:
    """Stay, pass, do not draw, keep maps."""
    if state.phase in (MOVE, EXTRA_MOVE):
        state.apply_action(state.pos[state.current_player()])
    else:
        state.apply_action(act.PASS)


def test_tor_1218_round_limit():
    """TOR-1218/701(c)/308: n = 3, start p1: turns p1, p2, p0; the game ends after p0's turn of round 12."""
    state = make(3, active=1, start=1)
    turns = []
    while not state.is_terminal():
        if state.phase == MOVE:
            turns.append((state.round, state.active))
        pass_everything(state)
    assert turns[:3] == [(1, 1), (1, 2), (1, 0)]
    assert len(turns) == 36 and turns[-1] == (12, 0)
    assert state.end_reason == "rounds"


def test_tor_1219_sailor_made_captain():
    """TOR-1219/605/527: Mutiny Brews on SPA; the first Sailor on SPA becomes Captain; FM-SPA vacant."""
    roles = [C_ENG, C_FRA, FM_ENG, C_SPA, FM_FRA, GOVERNOR, SAILOR]
    state = make(7, roles=roles, pos=[ENG, FRA, ENG, SPA, FRA, TOR, SPA], phase=DRAW)
    put_on_top(state, MUTINY_BREWS)
    play(state, state.game.idx.draw)
    assert state.phase == MUTINY_SHIP and state.legal_actions() == [40, 41]
    play(state, 41)
    assert state.vote["target"] == 3 and state.vote["initiator"] == 0
    vote_all(state, 0)
    assert state.exiled[3] and state.role[6] == C_SPA and state.holder(FM_SPA) == -1


def test_tor_1220_conservation_at_setup():
    """TOR-1220/302/545: n = 9: galleon 17, supply 13, hoards 0."""
    state = TortugaGame(num_players=9).new_initial_state(3)
    assert (state.galleon, state.supply, sum(state.hoard)) == (17, 13, 0)


def test_tor_1221_vote_secrecy():
    """TOR-1221/507/916: before the reveal nobody sees another voter's card; after it, everyone sees all."""
    ix = idx(5)
    state = five_player_attack()
    play(state, ix.vote + 0, ix.vote + 2)  # p2 Yes, p3 Wild
    cv = field_slices(5)["current_vote"].start
    n = 5
    obs4 = state.observation(4)
    assert obs4[cv + 0] == 1  # ATTACK
    assert obs4[cv + 4 + (2 - 4) % n] == 1  # initiator p2
    assert obs4[cv + 4 + 2 * n + (2 - 4) % n] == 1  # participant p2
    own, cards = cv + 4 + 3 * n, cv + 7 + 3 * n
    assert not obs4[own : own + 3].any() and not obs4[cards : cards + 3 * n].any()
    obs3 = state.observation(3)
    assert obs3[own + 2] == 1 and not obs3[cards : cards + 3 * n].any()
    play(state, ix.vote + 1, ix.vote + 2, ix.vote + 1)
    for viewer in range(5):
        shown = state.observation(viewer)[cards : cards + 3 * n].reshape(n, 3)
        assert shown.sum() == 5
        assert shown[(2 - viewer) % n].tolist() == [1, 0, 0]


def test_tor_1222_action_masks():
    """TOR-1222/504: Sailor on a lane: PASS only; on GAL: galleon steal and steal from p1."""
    roles = [C_ENG, SAILOR, FM_ENG, SAILOR, C_FRA, GOVERNOR]
    state = make(6, roles=roles, pos=[ENG, TOR, GAL, LANE_F, FRA, TOR], active=3, phase=ACTION)
    assert state.legal_actions() == [act.PASS]
    state.pos = [ENG, GAL, FRA, GAL, FRA, TOR]
    state.supply += state.galleon - 4
    state.galleon = 4
    assert refresh(state).legal_actions() == [act.PASS, act.STEAL_GALLEON, 16]
    state.active = 0  # Captain ENG on ENG: no attack
    assert act.ATTACK not in refresh(state).legal_actions()
    state.active, state.pos = 2, [ENG, GAL, GAL, GAL, FRA, TOR]  # First Mate on GAL: no mutiny
    assert refresh(state).legal_actions() == [act.PASS]


def test_tor_1223_strong_current():
    """TOR-1223/604: target any other player, then move its pawn per TOR-501; logged publicly."""
    roles = [C_ENG, C_FRA, FM_ENG, SAILOR, GOVERNOR, FM_FRA]
    state = make(6, roles=roles, pos=[ENG, FRA, ENG, GAL, TOR, SPA], phase=DRAW)
    put_on_top(state, STRONG_CURRENT)
    play(state, state.game.idx.draw)
    assert state.phase == CURRENT_TARGET and state.legal_actions() == [31, 32, 33, 34, 35]
    play(state, 33)
    assert state.phase == CURRENT_DEST and state.legal_actions() == [1, 2, 3, 4, 5, 6, 7]
    play(state, 6)
    assert state.pos[3] == LANE_F and state.log[-1][:4] == [LOG_PAWN_MOVED, 0, 3, LANE_F]


# --- the secret vote (TOR-507, TOR-916) --------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"wild_cooldown": True}, {"neutral_vote": "always"}])
def test_secret_vote_choice_hidden_from_every_next_voter(options):
    """TOR-507/916: whatever a voter chose, the next voter's observation, mask and renderings are the same."""
    state = five_player_attack(**options)
    compared = 0
    while state.phase == VOTE:
        compared += assert_choice_hidden_from_next(state, lambda s: s.phase == VOTE)
        play(state, state.game.idx.vote + 2 if state.current_player() == 3 else state.game.idx.vote)
    assert compared == 4 * 3  # 4 voters followed by another voter, 3 cards each


def test_secret_vote_hidden_from_every_non_voter_and_infos():
    """TOR-916: no seat's observation or the AEC infos change with an unrevealed card."""
    base = five_player_attack()
    views = []
    for card in range(3):
        state = base.clone()
        play(state, state.game.idx.vote + card)
        views.append([state.observation(s) for s in range(5) if s != 2])
    for other in views[1:]:
        for a, b in zip(views[0], other, strict=True):
            np.testing.assert_array_equal(a, b)


def test_aec_infos_carry_nothing_during_the_game():
    """TOR-916: ``infos`` carry nothing until the end (no vote card, no hoard): no keys or only zeros."""
    env = tortuga_v0.env(num_players=4)
    env.reset(seed=3)
    for _, _, term, trunc, info in random_agent_turns(env, random.Random(0)):
        if term or trunc:
            assert set(info) >= {"scores", "won", "nations", "hoards"}
        else:
            assert not any(np.any(np.asarray(value)) for value in info.values()), info


def played_to_the_end(n: int = 4, seed: int = 1, **options):
    """A game played with random legal actions (``random.Random(0)``) to its end by the rules."""
    state = TortugaGame(num_players=n, **options).new_initial_state(seed)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_truncated()
    return state


def test_tor_901_703_every_nation_public_in_final_observations():
    """TOR-901/TOR-703/TOR-1004: once the game has ended every seat's observation names every player's
    nation (4 players, seed 1: at the Armada end p1 was exiled and p3 spied on it; p0, p2, p3 unrevealed)."""
    state = played_to_the_end()
    n = state.game.num_players
    assert state.end_reason == "armada"
    assert not all(state.revealed[p] or state.spied[0][p] for p in range(1, n))  # the case that matters
    for viewer in range(n):
        for k in range(n):
            p = (viewer + k) % n
            assert player_field(state, viewer, k, 17) == 0, (viewer, p)  # not "unknown"
            assert [player_field(state, viewer, k, 18 + nat) for nat in range(3)] == [
                float(nat == state.nation[p]) for nat in range(3)
            ]
        shown = state.render(viewer).split("players:")[1]
        assert "nation ?" not in shown


def test_tor_901_resample_after_the_end_keeps_every_nation():
    """TOR-901/TOR-703: a finished game has no hidden nation left; resample_hidden redraws none and the
    final observation is unchanged (no leak)."""
    state = played_to_the_end()
    for seat in range(state.game.num_players):
        for seed in range(10):
            det = state.resample_hidden(seat, seed)
            assert det.nation == state.nation
            np.testing.assert_array_equal(det.observation(seat), state.observation(seat))


def test_tor_901_aec_final_observe_shows_every_nation():
    """TOR-901/TOR-1004: the AEC env's final observation of every agent shows all nations."""
    env = tortuga_v0.env(num_players=4)
    env.reset(seed=1)
    for _turn in random_agent_turns(env, random.Random(0)):
        pass  # play the game to its end
    state = env.unwrapped.state
    assert state.is_terminal() and not state.is_truncated()
    start = field_slices(4)["players"].start
    for seat in range(4):
        rows = env.observe(f"player_{seat}")["observation"][start : start + 4 * PLAYER_BLOCK]
        rows = rows.reshape(4, PLAYER_BLOCK)
        assert rows[:, 17].sum() == 0
        assert [int(np.argmax(rows[k, 18:21])) for k in range(4)] == [state.nation[(seat + k) % 4] for k in range(4)]


@pytest.mark.parametrize("n", [2, 4, 9])
def test_tor_1005_final_info_numeric_and_fixed_shape(n):
    """TOR-1005: end-of-game infos are numbers of a fixed shape (nation indices, not names): per seat
    `nations`, `hoards`, `maps`, `exiled`; per nation (England, France, Spain) `nation_scores` and 0/1
    `nation_won` - the same keys and lengths on any state, so the adapter can show zeros before the end."""
    state = played_to_the_end(n)
    info = state.final_info()
    assert info["nations"] == state.nation
    assert info["hoards"] == state.hoard and info["maps"] == state.maps
    assert info["exiled"] == [int(x) for x in state.exiled]
    assert info["nation_scores"] == state.nation_scores()
    assert info["nation_won"] == [int(nat in state.winning_nations()) for nat in range(3)]
    lengths = {"nations": n, "hoards": n, "maps": n, "exiled": n, "nation_scores": 3, "nation_won": 3}
    for key, value in info.items():
        assert len(value) == lengths[key] and all(type(x) is int for x in value), key
    start = TortugaGame(num_players=n).new_initial_state(0).final_info()
    assert {key: len(value) for key, value in start.items()} == lengths


# --- edge cases -----------------------------------------------------------------------------------------------


def test_tor_803_wild_cooldown_locks_for_one_vote():
    """TOR-803: Wild in a vote -> no Wild in the next vote; the lock then clears."""
    state = five_player_attack(wild_cooldown=True)
    ix = state.game.idx
    play(state, ix.vote + 2, ix.vote + 1, ix.vote + 1, ix.vote + 1, ix.vote + 1, ix.declare + 1)
    assert state.wild_lock == [False, False, True, False, False]
    own_lock = field_slices(5)["own"].start + 2
    assert state.observation(2)[own_lock] == 1
    state.phase, state.active = ACTION, 2
    play(refresh(state), act.ATTACK)
    assert state.legal_actions() == [ix.vote, ix.vote + 1]
    vote_all(state, 1)
    assert state.wild_lock == [False] * 5


def test_tor_804_secret_exile_keeps_the_nation_hidden():
    """TOR-804: with secret_exile the exiled Captain's nation is not revealed."""
    roles = [C_FRA, C_ENG, SAILOR, GOVERNOR, FM_FRA, SAILOR]
    state = make(6, roles=roles, pos=[FRA, ENG, TOR, TOR, ENG, GAL], active=4, phase=ACTION, secret_exile=True)
    play(state, act.MUTINY)
    vote_all(state, 0)
    assert state.exiled[1] and not state.revealed[1]
    assert player_field(state, 0, 1, 17) == 1  # "unknown" for p0


def test_tor_805_public_steal():
    """TOR-805: the victim and the result are public and counted in pub_treasure."""
    roles = [C_ENG, SAILOR, C_FRA, SAILOR, FM_FRA, GOVERNOR]
    state = make(6, roles=roles, pos=[ENG, TOR, FRA, TOR, FRA, TOR], active=3, phase=ACTION, public_steal=True)
    give(state, 5, 2)
    play(refresh(state), 14)
    assert state.pub_treasure[5] == 1 and state.pub_treasure[3] == 1
    assert player_field(state, 0, 3, MY_STEAL_DELTA) == 0
    log = field_slices(6)["log"].start
    obs0 = state.observation(0)
    assert obs0[log + 16 + 6 + 5] == 1  # target p5 visible to p0 in the newest log entry


def test_tor_807_draw_replaces_action():
    """TOR-807/1136: after a non-PASS action there is no DRAW decision; after PASS there is."""
    state = steal_position()
    state.game = TortugaGame(num_players=6, draw_replaces_action=True)
    play(state, 14)
    assert state.phase == MOVE and state.active == 4  # no DRAW; p3 holds no map: the turn ends
    other = steal_position()
    other.game = state.game
    play(other, act.PASS)
    assert other.phase == DRAW


@pytest.mark.parametrize(("depth", "packet"), [("bottom5", 5), ("bottom10", 10), ("last", 1)])
def test_tor_307_armada_depth(depth, packet):
    """TOR-307/806: the Armada is uniformly placed in the bottom packet of the deck."""
    seen = set()
    for seed in range(200):
        deck = TortugaGame(num_players=4, armada_depth=depth).new_initial_state(seed).deck
        seen.add(deck.index(ARMADA))
        assert sorted(deck) == sorted(c for c in range(12) for _ in range((3, 1, 2, 1, 2, 1, 2, 1, 1, 1, 3, 1)[c]))
    assert seen == set(range(packet))


def test_tor_537_galleon_steal_emptying_the_galleon_ends_at_once():
    """TOR-537/701(b): the last token stolen from the galleon ends the game immediately."""
    state = loot_position(1)
    state.active = 4
    play(refresh(state), act.STEAL_GALLEON)
    assert state.is_terminal() and state.end_reason == "galleon" and state.hoard[4] == 1


def test_tor_802_neutral_vote_options():
    """TOR-802: 'never' at 2 players -> an opposed vote ties and fails; 'always' rolls at 4 players."""
    state = make(2, roles=[C_ENG, C_FRA], pos=[GAL, FRA], phase=ACTION, neutral_vote="never")
    ix = state.game.idx
    play(state, act.ATTACK, ix.vote, ix.vote + 1)
    assert state.last_vote["passed"] is False and state.last_vote["die"] == -1
    state = make(4, roles=[GOVERNOR, C_ENG, FM_ENG, SAILOR], pos=[TOR, ENG, ENG, FRA], phase=ACTION)
    state.game = TortugaGame(num_players=4, neutral_vote="always")
    state.rng = dice(6)
    ix = state.game.idx
    play(state, ix.dispute + 1, ix.vote, ix.vote, ix.vote + 1, ix.vote + 1)
    assert state.last_vote["passed"] is True  # 3-2 with the die


def test_tor_705_nobody_wins_when_the_winning_nation_is_all_exiled():
    """TOR-705: the winning nation has no alive player -> nobody wins, everyone -1."""
    state = armada_position([5, 5, 0, 0, 0, 0], exiled=[0, 1])
    assert state.winning_nations() == [E] and state.winners() == []
    assert state.returns() == [-1.0] * 6


def test_tor_1005_score_mode():
    """TOR-1005: margin over the best other nation / 10, clipped; exiled players capped at 0."""
    roles = [C_ENG, SAILOR, SAILOR, C_FRA, GOVERNOR, SAILOR]
    state = make(6, roles=roles, pos=[ENG, FRA, TOR, FRA, TOR, GAL], nations=[E, E, F, F, S, S], phase=DRAW)
    state.game = TortugaGame(num_players=6, reward_mode="score")
    for seat, h in enumerate([6, 6, 1, 2, 0, 0]):
        give(state, seat, h)
    state.exiled[1], state.role[1] = True, SAILOR
    put_on_top(state, ARMADA)
    play(refresh(state), state.game.idx.draw)
    assert state.returns() == [0.9, 0.0, -0.9, -0.9, -1.0, -1.0]


def test_tor_601_602_607_treasure_events():
    """TOR-601/602/607: Floating Cargo +1, Buried Chest by die, Scurvy -1 (nothing from an empty hoard)."""
    state = make(4, roles=[C_ENG, FM_ENG, GOVERNOR, SAILOR], pos=[ENG, ENG, TOR, FRA], phase=DRAW)
    put_on_top(state, SCURVY)
    play(state, state.game.idx.draw)
    assert state.log[-1][0] == LOG_TREASURE_EVENT and state.log[-1][5] == 0
    for card, roll, gain in ((FLOATING_CARGO, None, 1), (BURIED_CHEST, 5, 3), (BURIED_CHEST, 3, 2)):
        state = make(4, roles=[C_ENG, FM_ENG, GOVERNOR, SAILOR], pos=[ENG, ENG, TOR, FRA], phase=DRAW)
        if card == BURIED_CHEST and roll == 3:
            state.deck.remove(BURIED_CHEST)
            state.deck.append(BURIED_CHEST)
        put_on_top(state, card)
        if roll:
            state.rng = dice(roll)
        supply = state.supply
        play(state, state.game.idx.draw)
        assert state.hoard[0] == gain and state.supply == supply - gain and state.pub_treasure[0] == gain


def test_tor_603_608_610_606_other_events():
    """Fair Winds gives an EXTRA_MOVE; Shipwreck sends the drawer to TOR; Spyglass shows one nation; Brawl votes."""
    roles = [C_ENG, FM_ENG, GOVERNOR, SAILOR]
    state = make(4, roles=roles, pos=[ENG, ENG, TOR, FRA], nations=[E, E, F, S], phase=DRAW)
    put_on_top(state, FAIR_WINDS)
    play(state, state.game.idx.draw)
    assert state.phase == EXTRA_MOVE and state.legal_actions() == [0, 1, 2, 3, 4, 5]
    state = make(4, roles=roles, pos=[ENG, ENG, TOR, FRA], phase=DRAW)
    put_on_top(state, SHIPWRECK)
    play(state, state.game.idx.draw)
    assert state.pos[0] == TOR and state.role[0] == C_ENG and not state.exiled[0]
    state = make(4, roles=roles, pos=[ENG, ENG, TOR, FRA], nations=[E, E, F, S], phase=DRAW)
    put_on_top(state, SPYGLASS)
    play(state, state.game.idx.draw, state.game.idx.select + 3)  # peek at p3
    assert player_field(state, 0, 3, 18 + S) == 1
    assert player_field(state, 1, 2, 17) == 1  # p1 still does not know p3
    state = make(4, roles=roles, pos=[ENG, ENG, TOR, FRA], phase=DRAW)
    give(state, 2, 1)
    put_on_top(state, TAVERN_BRAWL)
    play(state, state.game.idx.draw, state.game.idx.select + 2)
    assert state.vote["type"] == 3 and state.vote["target"] == 2
    vote_all(state, 0)
    assert state.hoard == [1, 0, 0, 0] and state.log[-1][4] == TAVERN_BRAWL


def test_resample_respects_public_zero_results():
    """TOR-908/539: a later public 'nothing moved' pins down the victim of an earlier secret steal."""
    state = steal_position()  # p5 hoard 2; candidates p1 (0) and p5
    state.hoard[5] = state.pub_treasure[5] = 1
    state.supply += 1
    state.ledger[-1][2] = 1
    play(state, 14)  # p3 steals p5's only token
    state.phase, state.active = ACTION, 0
    state.role[0], state.pos[0] = GOVERNOR, TOR
    state.role[5] = C_ENG
    play(refresh(state), 23)  # p0 (Governor) disputes p5 -> passes with 0 tokens
    vote_all(state, 0)
    assert state.log[-1][0] == LOG_DISPUTE_PASSED and state.log[-1][5] == 0
    for seed in range(20):
        det = state.resample_hidden(2, seed)
        assert det.hoard[5] == 0 and det.hoard[3] == 1
        det.check_invariants()
        np.testing.assert_array_equal(det.observation(2), state.observation(2))


def test_resample_redraws_steal_victims_and_nations():
    """TOR-901/908: an outsider's determinisations vary the victim and the nations, never its own view."""
    state = steal_position()
    play(state, 14)
    victims, nations = set(), set()
    for seed in range(40):
        det = state.resample_hidden(0, seed)
        det.check_invariants()
        np.testing.assert_array_equal(det.observation(0), state.observation(0))
        victims.add(next(e[3] for e in reversed(det.ledger) if e[0] == 2))
        nations.add(tuple(det.nation))
        assert det.nation[0] == state.nation[0]
    assert victims == {1, 5} and len(nations) > 3


def test_options_validated():
    """TOR-801..808: enums and bools are checked, with the valid choices in the message."""
    with pytest.raises(InvalidOptionError, match="16"):
        TortugaGame(num_players=4, max_rounds=10)
    with pytest.raises(InvalidOptionError, match="bottom10"):
        TortugaGame(num_players=4, armada_depth="middle")
    assert TortugaGame(num_players=6).max_decisions == 12 * 6 * (11 + 24)  # TOR-1006 bound B
    assert TortugaGame(num_players=2).num_actions == 27 and TortugaGame(num_players=9).num_actions == 48
    assert TortugaGame(num_players=6).observation_size == 1006


def test_illegal_action_rejected():
    state = six_player_1201()
    with pytest.raises(IllegalActionError, match="MOVE_TO GAL"):
        state.apply_action(4)


def test_truncation_at_max_decisions():
    """TOR-1006: a game cut at max_decisions has no winner and zero returns."""
    state = TortugaGame(num_players=4, max_decisions=5).new_initial_state(0)
    while not state.is_terminal():
        pass_everything(state)
    assert state.is_truncated() and state.returns() == [0.0] * 4 and state.winners() == []


def test_render_shows_only_what_the_viewer_may_see():
    state = steal_position()
    state.nation = [E, E, F, F, S, S]
    public = state.render(None)
    assert "nation ?" in public and "hoard" not in public.split("players:")[1].split("\n")[6]
    own = state.render(5)
    assert "hoard 2" in own and "p5* GOV" in own


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_mid_game_determinisation_leaks_nothing_and_redraws(n):
    """TOR-901..916: at many mid-game states, resample_hidden(p) keeps p's view and mask, redraws nations,
    deck order and the secret steal/map history, depends only on p's information, and stays playable."""
    game = TortugaGame(num_players=n, public_steal=False)
    rng = random.Random(n)
    state = game.new_initial_state(100 + n)
    probes = nations = decks = 0
    step = 0
    while not state.is_terminal():
        if step % 7 == 0:
            for seat in range(n):
                det = state.resample_hidden(seat, step * 31 + seat)
                det.check_invariants()
                np.testing.assert_array_equal(det.observation(seat), state.observation(seat))
                assert det.current_player() == state.current_player()
                if state.current_player() == seat:
                    np.testing.assert_array_equal(det.legal_action_mask(), state.legal_action_mask())
                twin = state.resample_hidden(seat, 99_999)
                assert det.resample_hidden(seat, 7).to_dict() == twin.resample_hidden(seat, 7).to_dict()
                probes += 1
                nations += det.nation != state.nation
                decks += det.deck != state.deck
                if step % 35 == 0:
                    play_rng = random.Random(step)
                    while not det.is_terminal():
                        det.apply_action(play_rng.choice(det.legal_actions()))
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    assert probes > 10
    assert decks / probes > 0.3
    if n >= 4:  # with 2 players one's own nation gives the other's away; with 3 only two cards can swap
        assert nations / probes > 0.3
