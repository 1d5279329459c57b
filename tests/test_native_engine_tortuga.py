"""tortuga_v0's compiled engine (``tor_engine``, pirate_envs/games/tortuga/native/) against the Python engine.

The Python engine is the oracle: the same seed gives the same game, action by action (the seat to act, the
legal actions, every seat's observation, scores, ``to_dict`` with the generator, ``resample_hidden`` from the
same source, the heuristic bot's decisions, returns and winners at the end) at every player count (TOR-101) and
under the rules' options (Section 8: TOR-801..808). Then the worked examples of the rules (Section 12) set up
through ``load`` (``to_native`` of a position built on the Python state), and hostile dumps, which ``load``
must refuse with a ``ValueError``, never a crash.
"""

from __future__ import annotations

import numpy as np
import pytest
from native_twins import compare, compare_dicts, play_twins
from tortuga_setup import give, give_map, make, put_on_top, refresh

from pirate_envs.core.native import NATIVE
from pirate_envs.core.native.backend import has_native, native_game, to_native
from pirate_envs.core.rng import Rng
from pirate_envs.games.tortuga import TortugaGame
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    ARMADA,
    C_ENG,
    C_FRA,
    C_SPA,
    COUNTERATTACK,
    ENGLAND,
    FM_ENG,
    FM_FRA,
    FM_SPA,
    FRANCE,
    GOVERNOR,
    LOG_DISPUTE_PASSED,
    LOG_EXILED,
    LOG_LOOT_GIVEN,
    LOG_PAWN_MOVED,
    LOG_PROMOTED,
    LOG_TREASURE_EVENT,
    MUTINY_BREWS,
    SAILOR,
    SPAIN,
    STRONG_CURRENT,
    TREASURE_MAP,
)
from pirate_envs.games.tortuga.game import (
    ACTION,
    CURRENT_DEST,
    CURRENT_TARGET,
    DECLARE,
    DRAW,
    LOOT,
    MAP_GIVE,
    MAP_RECIPIENT,
    MOVE,
    MUTINY_SHIP,
    VOTE,
)
from pirate_envs.games.tortuga.heuristic import HeuristicPolicy

pytestmark = pytest.mark.skipif(not has_native("tortuga_v0"), reason="the compiled module is not built")

E, F, S = ENGLAND, FRANCE, SPAIN
TOR, ENG, FRA, SPA, GAL, LANE_E, LANE_F, LANE_S = range(8)
PLAYER_COUNTS = range(2, 10)  # TOR-101
# Section 8: the shipped variants, and each option's other values at least once (TOR-801..808).
OPTION_SETS = [
    {},
    TortugaGame.variants["options"],
    {"max_rounds": 16, "neutral_vote": "never", "armada_depth": "bottom10", "wild_cooldown": True},
    {"public_steal": True, "neutral_vote": "always", "draw_replaces_action": False, "secret_exile": True},
    {"reward_mode": "score", "max_decisions": 150},  # TOR-1006: truncated games too
]


# --- twin play ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=range(len(OPTION_SETS)))
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_twin_play_every_check(n, options):
    """Random play compared on every check of the twin harness (observations, dicts, resample, bot)."""
    assert play_twins(TortugaGame, n, options, range(2), dict_every=5) > 0


def heuristic_twin_games(n: int, options: dict, seeds, explore: int = 5) -> int:
    """Games where the heuristic bot plays (a random legal action one time in ``explore``), so that the twins
    meet what bots do (attacks, mutinies, passed votes, loot, map gifts); the bot's decision is compared on every
    step: the Python bot's choice where it decides, its random pick drawn the engine's way otherwise."""
    python_game = TortugaGame(num_players=n, **options)
    native_game_ = TortugaGame(num_players=n, backend="native", **options)
    bot = HeuristicPolicy(python_game)
    decisions = 0
    for seed in seeds:
        python, native = python_game.new_initial_state(seed), native_game_.new_initial_state(seed)
        pick = Rng(seed + 1)
        while not python.is_terminal():
            where = f"tortuga {n}p {options} seed {seed} decision {python.decisions}"
            seat = python.current_player()
            obs, mask = python.observation(seat), python.legal_action_mask()
            assert np.array_equal(native.observation(seat), obs), where
            source = pick.next_u64()
            chosen = native.heuristic_action(source)
            legal = python.legal_actions()
            if NATIVE.tor_act(obs, mask, bot.native_spec) is None:  # the Python bot draws at random
                draw = Rng.__new__(Rng)
                draw.state = Rng(source).next_u64()
                assert chosen == legal[draw.randrange(len(legal))], where
            else:
                assert chosen == bot.act_python(obs, mask, np.random.default_rng(0)), where
            action = chosen if pick.randrange(explore) else legal[pick.randrange(len(legal))]
            python.apply_action(action)
            native.apply_action(action)
            assert native.legal_actions() == python.legal_actions(), where
            decisions += 1
        compare_dicts(python, native, f"tortuga {n}p seed {seed} end")
        assert native.returns() == python.returns() and native.winners() == python.winners()
    return decisions


@pytest.mark.parametrize("options", OPTION_SETS[:4], ids=range(4))
def test_twin_heuristic_games(options):
    """TOR-1004/TOR-1005 through the bot's eyes: its observations and decisions, every player count."""
    assert sum(heuristic_twin_games(n, options, range(2)) for n in PLAYER_COUNTS) > 0


def light_twin_games(n: int, options: dict, seeds, observe_every: int = 1) -> int:
    """Random play compared on what every step needs (seat to act, legal actions, the acting seat's
    observation), the whole ``to_dict``, returns and winners at the end: the bulk of the decisions."""
    python_game = TortugaGame(num_players=n, **options)
    native_game_ = TortugaGame(num_players=n, backend="native", **options)
    decisions = 0
    for seed in seeds:
        python, native = python_game.new_initial_state(seed), native_game_.new_initial_state(seed)
        pick = Rng(seed ^ 0x5EED)
        while True:
            seat = python.current_player()
            assert native.current_player() == seat
            legal = python.legal_actions()
            assert native.legal_actions() == legal, f"tortuga {n}p {options} seed {seed} decision {decisions}"
            if decisions % observe_every == 0 and seat >= 0:
                assert np.array_equal(native.observation(seat), python.observation(seat))
            if not legal:
                break
            action = legal[pick.randrange(len(legal))]
            python.apply_action(action)
            native.apply_action(action)
            decisions += 1
        compare_dicts(python, native, f"tortuga {n}p {options} seed {seed} end")
        assert native.returns() == python.returns() and native.winners() == python.winners()
        assert native.scores() == python.scores()
    return decisions


def test_twin_fifty_thousand_decisions():
    """The default run's volume: >= 50,000 decisions over every player count and option set."""
    decisions = sum(
        light_twin_games(n, options, range(100 * i, 100 * i + 10), observe_every=2)
        for i, options in enumerate(OPTION_SETS)
        for n in PLAYER_COUNTS
    )
    assert decisions >= 50_000, decisions


@pytest.mark.slow
def test_twin_two_million_decisions():
    """The slow tier: >= 2,000,000 decisions, action by action (the acting seat's observation every 5th)."""
    decisions, seed = 0, 10_000
    while decisions < 2_000_000:
        for i, options in enumerate(OPTION_SETS):
            for n in PLAYER_COUNTS:
                decisions += light_twin_games(n, options, [seed + i], observe_every=5)
        seed += 1
    assert decisions >= 2_000_000


# --- the worked examples (Section 12), set up through load -------------------------------------------------


def twins(python):
    """The native twin of a position set up on the Python state (through pack and the engine's load)."""
    refresh(python)
    python.check_invariants()
    native = to_native(python)
    compare_dicts(python, native, "setup")
    return native


def play_both(python, native, *actions: int) -> None:
    for action in actions:
        python.apply_action(action)
        native.apply_action(action)
        compare(python, native, f"after {action}")
        compare_dicts(python, native, f"after {action}")


def seeded_for(faces: list[int], first: int = 0) -> Rng:
    """A generator whose next randrange(6) draws give the die faces ``faces`` (the dice of TOR-1205/1206)."""
    for seed in range(first, first + 1_000_000):
        rng = Rng(seed)
        probe = rng.clone()
        if all(1 + probe.randrange(6) == face for face in faces):
            return rng
    raise AssertionError("no seed found")


def vote_both(python, native, card: int) -> None:
    while python.phase == VOTE:
        play_both(python, native, python.game.idx.vote + card)


def test_tor_1201_1202_movement_masks():
    """TOR-1201/1202/501: distance <= 2, pass through occupied nodes, a full ship is no destination."""
    roles = [GOVERNOR, SAILOR, C_ENG, FM_ENG, C_FRA, FM_FRA]
    for p4, mask in ((FRA, [0, 1, 2, 3, 6, 7]), (ENG, [0, 2, 3, 6, 7])):
        native = twins(make(6, roles=roles, pos=[TOR, LANE_E, ENG, ENG, p4, FRA], phase=MOVE))
        assert native.legal_actions() == mask


def test_tor_1203_wild_declarations():
    """TOR-1203/509/510: Y, W, N, W, N; p3 declares Yes, then p0's declaration decides."""
    roles = [C_FRA, FM_ENG, C_ENG, GOVERNOR, SAILOR]
    python = make(5, roles=roles, pos=[FRA, ENG, GAL, TOR, ENG], active=2, phase=ACTION)
    native = twins(python)
    ix = python.game.idx
    play_both(python, native, act.ATTACK, ix.vote, ix.vote + 2, ix.vote + 1, ix.vote + 2, ix.vote + 1)
    assert native.phase == DECLARE and native.current_player() == 3
    play_both(python, native, ix.declare)
    assert native.current_player() == 0
    fails, fails_py = native.clone(), python.clone()
    play_both(fails_py, fails, ix.declare + 1)
    assert fails.last_vote["passed"] is False and fails.last_vote["final"] == [1, 1, 0, 0, 1]
    play_both(python, native, ix.declare)
    assert native.last_vote["passed"] is True


def test_tor_1204_tie_fails():
    """TOR-1204/511: 2 Yes, 2 No -> the dispute fails."""
    python = make(4, roles=[GOVERNOR, C_ENG, FM_ENG, SAILOR], pos=[TOR, ENG, ENG, FRA], phase=ACTION)
    give(python, 1, 1)
    native = twins(python)
    ix = python.game.idx
    play_both(python, native, ix.dispute + 1, ix.vote, ix.vote, ix.vote + 1, ix.vote + 1)
    assert native.last_vote["passed"] is False and native.hoard[1] == 1


@pytest.mark.parametrize(("die", "passed"), [(5, True), (2, False)])
def test_tor_1205_two_player_neutral_die(die, passed):
    """TOR-1205/512: p0 Yes, p1 No; the neutral die breaks the tie."""
    python = make(2, roles=[C_ENG, C_FRA], pos=[GAL, FRA], phase=ACTION)
    python.rng = seeded_for([die, 6, 6])
    native = twins(python)
    ix = python.game.idx
    play_both(python, native, act.ATTACK, ix.vote, ix.vote + 1)
    assert native.last_vote["passed"] is passed and native.last_vote["die"] == (0 if die >= 4 else 1)
    assert native.hoard[0] == (2 if passed else 0)


def loot_position(galleon: int):
    roles = [C_ENG, C_FRA, FM_ENG, FM_FRA, SAILOR, GOVERNOR]
    python = make(6, roles=roles, pos=[ENG, GAL, ENG, GAL, GAL, TOR], active=1, phase=ACTION)
    python.supply += python.galleon - galleon
    python.galleon = galleon
    return python


def test_tor_1206_1207_loot_and_the_emptied_galleon():
    """TOR-1206/521/522: 4 dice 6, 4, 2, 1 -> L = 2, the LOOT mask is the participants; TOR-1207/523: the
    galleon's last token handed out ends the game."""
    python = loot_position(9)
    python.rng = seeded_for([6, 4, 2, 1])
    native = twins(python)
    play_both(python, native, act.ATTACK)
    vote_both(python, native, 0)
    assert native.phase == LOOT and native.galleon == 7 and native.legal_actions() == [30, 32, 33]
    play_both(python, native, 30, 32)
    assert native.hoard[1] == 1 and native.hoard[3] == 1 and native.phase == MOVE
    assert [e[0] for e in native.log[-2:]] == [LOG_LOOT_GIVEN, LOG_LOOT_GIVEN]
    python = loot_position(1)
    python.rng = seeded_for([6, 6, 6, 1])
    native = twins(python)
    play_both(python, native, act.ATTACK)
    vote_both(python, native, 0)
    play_both(python, native, 32)
    assert native.is_terminal() and native.end_reason == "galleon" and native.galleon == 0


def test_tor_1208_mutiny_and_cascade():
    """TOR-1208/526/527: the Captain exiled, the First Mate promoted, the first alive Sailor made First Mate."""
    roles = [SAILOR, C_FRA, C_ENG, C_SPA, FM_FRA, FM_ENG, FM_SPA, SAILOR, GOVERNOR]
    python = make(9, roles=roles, pos=[ENG, FRA, GAL, SPA, FRA, ENG, SPA, ENG, TOR], active=5, phase=ACTION)
    python.exiled[0] = True
    native = twins(python)
    play_both(python, native, act.MUTINY)
    vote_both(python, native, 0)
    assert native.exiled[2] and native.role[2] == SAILOR and native.pos[2] == TOR and native.revealed[2]
    assert native.role[5] == C_ENG and native.role[7] == FM_ENG
    assert [e[:3] for e in native.log[-3:]] == [[LOG_EXILED, 5, 2], [LOG_PROMOTED, 5, -1], [LOG_PROMOTED, 7, -1]]


def test_tor_1210_1211_secret_steal_and_empty_dispute():
    """TOR-1210/535/536: the victim is known to thief and victim only; TOR-1211/539: a dispute against an empty
    hoard passes and moves nothing."""
    roles = [C_ENG, SAILOR, C_FRA, SAILOR, FM_FRA, GOVERNOR]
    python = make(6, roles=roles, pos=[ENG, TOR, FRA, TOR, FRA, TOR], active=3, phase=ACTION)
    python.exiled[1] = True
    give(python, 5, 2)
    dispute_py = python.clone()
    native = twins(python)
    assert native.legal_actions() == [act.PASS, 14, 16]
    play_both(python, native, 14)
    assert native.hoard[5] == 1 and native.hoard[3] == 1 and native.steals_made[3] == 1
    dispute_py.active = 5
    dispute = twins(dispute_py)
    play_both(dispute_py, dispute, 20)
    vote_both(dispute_py, dispute, 0)
    assert dispute.log[-1][0] == LOG_DISPUTE_PASSED and dispute.log[-1][5] == 0 and dispute.hoard[5] == 2


def test_tor_1212_maps_public_then_secret_gift():
    """TOR-1212/544/909/910: a drawn map's recipient is public, the later gift secret."""
    roles = [C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR, SAILOR]
    pos = [ENG, GAL, SPA, FRA, GAL, SPA, FRA, ENG, TOR]
    python = make(9, roles=roles, pos=pos, nations=[E, E, E, F, F, F, S, S, S], phase=DRAW)
    put_on_top(python, TREASURE_MAP)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.phase == MAP_RECIPIENT and native.legal_actions() == list(range(36, 45))
    play_both(python, native, 39)
    python.active, python.phase = 3, DRAW
    native = twins(python)
    play_both(python, native, act.PASS)
    assert native.phase == MAP_GIVE and native.legal_actions() == [act.PASS, 39]
    play_both(python, native, 39)
    assert native.maps[3] == 0 and native.maps[6] == 1 and native.pub_maps[3] == 1
    for viewer in range(9):  # only the giver and the receiver see the gift
        assert np.array_equal(native.observation(viewer), python.observation(viewer))


@pytest.mark.parametrize(
    ("hoards", "maps", "exiled", "returns"),
    [
        ([4, 3, 5, 4, 3, 2], [1], [2], [1.0, 1.0, -1.0, -1.0, -1.0, -1.0]),  # TOR-1213
        ([4, 3, 5, 2, 3, 2], [1, 3], [], [1.0, 1.0, 1.0, 1.0, -1.0, -1.0]),  # TOR-1214
        ([4, 3, 4, 4, 3, 2], [1], [1], [1.0, -1.0, -1.0, -1.0, -1.0, -1.0]),  # TOR-1215
    ],
)
def test_tor_1213_1215_armada_and_tie_breaks(hoards, maps, exiled, returns):
    """TOR-1213..1215/703..705: scores, the alive-players and maps tie-breaks, exiled members lose."""
    roles = [C_ENG, SAILOR, SAILOR, C_FRA, GOVERNOR, SAILOR]
    python = make(6, roles=roles, pos=[ENG, FRA, TOR, FRA, TOR, GAL], nations=[E, E, F, F, S, S], phase=DRAW)
    for seat, amount in enumerate(hoards):
        give(python, seat, amount)
    for seat in maps:
        give_map(python, seat)
    for seat in exiled:
        python.exiled[seat] = True
    put_on_top(python, ARMADA)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.is_terminal() and native.end_reason == "armada"
    assert native.returns() == returns == python.returns()
    assert native.winners() == python.winners()


def test_tor_1216_1219_mutiny_brews():
    """TOR-1216/605: no ship to name -> no decision; TOR-1219/527: a Sailor made Captain, FM-SPA vacant."""
    python = make(4, roles=[C_ENG, FM_ENG, GOVERNOR, SAILOR], pos=[ENG, LANE_F, TOR, GAL], phase=DRAW)
    put_on_top(python, MUTINY_BREWS)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.drawn[MUTINY_BREWS] == 1 and native.phase == MOVE and native.active == 1
    roles = [C_ENG, C_FRA, FM_ENG, C_SPA, FM_FRA, GOVERNOR, SAILOR]
    python = make(7, roles=roles, pos=[ENG, FRA, ENG, SPA, FRA, TOR, SPA], phase=DRAW)
    put_on_top(python, MUTINY_BREWS)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.phase == MUTINY_SHIP and native.legal_actions() == [40, 41]
    play_both(python, native, 41)
    vote_both(python, native, 0)
    assert native.exiled[3] and native.role[6] == C_SPA and FM_SPA not in native.role


def test_tor_1217_counterattack():
    """TOR-1217/609: p1 (hoard 2) returns 1 to the galleon, p4 (hoard 0) nothing."""
    roles = [C_ENG, C_FRA, FM_ENG, FM_FRA, SAILOR, GOVERNOR]
    python = make(6, roles=roles, pos=[ENG, GAL, ENG, FRA, GAL, TOR], phase=DRAW)
    give(python, 1, 2)
    python.supply += python.galleon - 5
    python.galleon = 5
    put_on_top(python, COUNTERATTACK)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.galleon == 6 and native.hoard[1] == 1
    assert [(e[2], e[5]) for e in native.log if e[0] == LOG_TREASURE_EVENT] == [(1, -1), (4, 0)]


def test_tor_1218_round_limit():
    """TOR-1218/701(c): 3 players from p1: the game ends after p0's turn of round 12."""
    python = make(3, active=1, start=1)
    native = twins(python)
    turns = []
    while not native.is_terminal():
        if native.phase == MOVE:
            turns.append((native.round, native.active))
        stay = native.pos[native.current_player()] if native.phase == MOVE else act.PASS
        play_both(python, native, stay)
    assert turns[:3] == [(1, 1), (1, 2), (1, 0)] and len(turns) == 36 and native.end_reason == "rounds"


def test_tor_1220_conservation_at_setup():
    """TOR-1220/302: 9 players: galleon 17, supply 13, no hoards."""
    native = TortugaGame(num_players=9, backend="native").new_initial_state(3)
    assert (native.galleon, native.supply, sum(native.hoard)) == (17, 13, 0)


def test_tor_1222_1223_masks_and_strong_current():
    """TOR-1222/504: action masks by role and place; TOR-1223/604: Strong Current's target and destination."""
    roles = [C_ENG, SAILOR, FM_ENG, SAILOR, C_FRA, GOVERNOR]
    on_lane = make(6, roles=roles, pos=[ENG, TOR, GAL, LANE_F, FRA, TOR], active=3, phase=ACTION)
    assert twins(on_lane).legal_actions() == [act.PASS]
    python = make(6, roles=roles, pos=[ENG, GAL, FRA, GAL, FRA, TOR], active=3, phase=ACTION)
    python.supply += python.galleon - 4
    python.galleon = 4
    assert twins(python).legal_actions() == [act.PASS, act.STEAL_GALLEON, 16]
    roles = [C_ENG, C_FRA, FM_ENG, SAILOR, GOVERNOR, FM_FRA]
    python = make(6, roles=roles, pos=[ENG, FRA, ENG, GAL, TOR, SPA], phase=DRAW)
    put_on_top(python, STRONG_CURRENT)
    native = twins(python)
    play_both(python, native, python.game.idx.draw)
    assert native.phase == CURRENT_TARGET and native.legal_actions() == [31, 32, 33, 34, 35]
    play_both(python, native, 33)
    assert native.phase == CURRENT_DEST and native.legal_actions() == [1, 2, 3, 4, 5, 6, 7]
    play_both(python, native, 6)
    assert native.pos[3] == LANE_F and native.log[-1][:4] == [LOG_PAWN_MOVED, 0, 3, LANE_F]


# --- load: hostile dumps ----------------------------------------------------------------------------------------


def sample_dumps(n: int, options: dict, games: int = 3, every: int = 9):
    """(engine, rng_state, decisions, dump) of positions along random games (every phase appears)."""
    game = TortugaGame(num_players=n, backend="native", **options)
    engine = native_game(game)
    out = []
    for seed in range(games):
        state = game.new_initial_state(seed)
        pick = Rng(seed + 3)
        while not state.is_terminal():
            if state.decisions % every == 0:
                rng_state, decisions, _, values = state.engine_state.dump()
                out.append((engine, rng_state, decisions, values))
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
        rng_state, decisions, _, values = state.engine_state.dump()
        out.append((engine, rng_state, decisions, values))
    return out


HOSTILE = (2**63 - 1, -(2**63), 2**40, -(2**40), 10**6, -(10**6), 2**31, -(2**31) - 5)


@pytest.mark.parametrize("n", [2, 5, 9])
def test_load_refuses_every_value_out_of_range(n):
    """Each value of a dump replaced by a huge or very negative one: a ValueError every time."""
    dumps = sample_dumps(n, TortugaGame.variants["options"] if n == 5 else {})
    for k, (engine, rng_state, decisions, values) in enumerate(dumps[:: max(1, len(dumps) // 8)]):
        engine.load(rng_state, decisions, False, values)  # the dump itself loads
        for i in range(len(values)):
            bad = list(values)
            bad[i] = HOSTILE[(i + k) % len(HOSTILE)]
            with pytest.raises(ValueError):
                engine.load(rng_state, decisions, False, bad)


@pytest.mark.parametrize("n", [3, 6, 9])
def test_load_of_nearby_values_is_refused_or_safe(n):
    """Each value moved by -2, -1, +1, +2 or set to -1: load refuses it, or the loaded position plays on with
    legal actions, observations, the bot, resample_hidden and a dump (the sanitizer build checks the memory)."""
    dumps = sample_dumps(n, {"public_steal": n == 6, "wild_cooldown": True}, games=2, every=13)
    accepted = 0
    for engine, rng_state, decisions, values in dumps[:: max(1, len(dumps) // 6)]:
        for i in range(len(values)):
            for change in (-2, -1, 1, 2, None):
                bad = list(values)
                bad[i] = -1 if change is None else bad[i] + change
                try:
                    state = engine.load(rng_state, decisions, False, bad)
                except ValueError:
                    continue
                accepted += 1
                exercise(state, n)
    assert accepted > 0


def exercise(state, n: int, steps: int = 6) -> None:
    obs = np.empty(TortugaGame(num_players=n).observation_size, dtype=np.float32)
    pick = Rng(len(state.dump()[3]))
    for _ in range(steps):
        if state.is_terminal():
            break
        for seat in range(n):
            state.observe(seat, obs)
        state.resample_hidden(state.current_player(), pick.next_u64())
        state.heuristic_action(pick.next_u64())
        legal = state.legal_actions()
        state.apply_action(legal[pick.randrange(len(legal))])
    state.returns(), state.winners(), state.scores(), state.dump()


def test_load_refuses_wrong_lengths():
    """A dump cut short, one value longer, or a count that promises more than follows: a ValueError."""
    for engine, rng_state, decisions, values in sample_dumps(4, {}, games=1, every=20):
        for bad in (values[:-1], [*values, 0], values[: len(values) // 2], [], values + values):
            with pytest.raises(ValueError):
                engine.load(rng_state, decisions, False, bad)


def test_load_refuses_broken_invariants():
    """Values each in range whose whole breaks a rule: treasure not conserved (TOR-545), a ledger that does
    not replay to the hoards (TOR-905), a role held twice, a node over capacity, a lost card."""
    game = TortugaGame(num_players=4, backend="native")
    engine = native_game(game)
    python = TortugaGame(num_players=4).new_initial_state(0)
    give(python, 1, 2)
    from pirate_envs.games.tortuga.native_bridge import pack

    values = pack(python)
    engine.load(python.rng.state, 0, False, values)
    n = 4
    role, pos, hoard = n, 2 * n, 5 * n  # the seats' lists (native_bridge's order)
    galleon = 13 * n + 5 * n * n  # the first value after the seats' lists and matrices
    changes = [
        (galleon, values[galleon] + 1),  # TOR-545: one token too many
        (hoard + 1, values[hoard + 1] - 1),  # the hoard no longer what the ledger gives
        (role + 3, values[role + 2]),  # a role held twice (the Captain of seat 2 on seat 3 too)
    ]
    for at, value in changes:
        bad = list(values)
        bad[at] = value
        with pytest.raises(ValueError):
            engine.load(python.rng.state, 0, False, bad)
    crowded = list(values)
    for seat in range(n):
        crowded[pos + seat] = LANE_E  # four pawns on a one-pawn lane
    with pytest.raises(ValueError):
        engine.load(python.rng.state, 0, False, crowded)


def test_round_trip_of_python_positions_in_every_phase():
    """to_native(python) is the same position for positions of every phase of random heuristic games."""
    seen = set()
    for n in (3, 6, 9):
        game = TortugaGame(num_players=n, **TortugaGame.variants["options"])
        bot = HeuristicPolicy(game)
        for seed in range(4):
            state = game.new_initial_state(seed)
            np_rng = np.random.default_rng(seed)
            while not state.is_terminal():
                seen.add(state.phase)
                native = to_native(state)
                compare(state, native, f"{n}p seed {seed} decision {state.decisions}")
                seat = state.current_player()
                state.apply_action(bot.act(state.observation(seat), state.legal_action_mask(), np_rng))
    assert {MOVE, ACTION, VOTE, DRAW} <= seen
