"""Madame Ching's compiled engine (``games/madame_ching/native/``, ``mch_engine``) against the Python engine, the
oracle (``docs/rules/madame_ching.md``, prefix MCH).

* Twin play (``tests/native_twins.py``) over every player count and rule option of MCH-801..807 (the two-boat
  rule, teams, the Elite Pearl option, the round limit, manual forced decisions, both reward modes, truncation at
  ``max_decisions``), action by action: legal actions, the seat to act, every seat's observation, scores,
  ``to_dict``, ``resample_hidden`` from the same source, the heuristic bot's decision, returns and winners.
* A lighter twin loop (the whole state compared as its flat dump after every action) for >= 50k decisions, and
  a slow one for >= 2M; games driven partly by the heuristic bot reach the deeper rules (skills, Weather, Hong
  Kong, Combat, Sirens) more often than random play.
* ``load`` fed hostile dumps: every value out of range, every value nudged, wrong lengths: a ValueError, or a
  state every entry point then handles.
* The worked examples MCH-1201..1222 that a position set up through ``load`` (``tests/mc_setup.py``) reaches on
  the compiled engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from mc_setup import clear_encounters, fresh, give_encounter, give_skill, pull, set_board, set_expedition, set_hand
from native_twins import compare, compare_dicts, play_twins

from pirate_envs.core.native.backend import has_native, native_game, to_native
from pirate_envs.core.rng import Rng
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching import native_bridge
from pirate_envs.games.madame_ching.cards import (
    CARTOGRAPHY,
    ELITE,
    NEGOTIATOR,
    NIGHT_SAILING,
    SIREN,
    THIEF,
    WEATHER,
)
from pirate_envs.games.madame_ching.game import MadameChingGame
from pirate_envs.games.madame_ching.heuristic import HeuristicPolicy

pytestmark = pytest.mark.skipif(not has_native("madame_ching_v0"), reason="the compiled engine is not built")

# Every player count (MCH-801) with every rule option (MCH-802..807) and reward mode.
CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"two_player_dual_boats": False}),  # MCH-802: forced true with 2 players
    (4, {"team_mode": True, "round_limit": 15}),  # MCH-803
    (3, {"team_mode": True}),  # MCH-803: ignored below 4 players
    (4, {"elite_counts_for_china_pearl": True}),  # MCH-804
    (3, {"round_limit": 3}),  # MCH-805: the round limit ends the game (final icon gold, MCH-703)
    (2, {"auto_resolve_forced": False, "elite_counts_for_china_pearl": True, "round_limit": 12}),  # MCH-806
    (3, {"auto_resolve_forced": False, "round_limit": 12}),
    (4, {"auto_resolve_forced": False, "team_mode": True, "round_limit": 10}),
    (2, {"reward_mode": "score"}),  # MCH-807 / MCH-1007
    (3, {"reward_mode": "score"}),
    (4, {"reward_mode": "score", "team_mode": True}),
    (4, {"max_decisions": 60}),  # MCH-1008: truncation
]
CONFIG_IDS = [f"{n}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "base") for n, o in CONFIGS]


def games(num_players: int, options: dict) -> tuple[MadameChingGame, MadameChingGame]:
    return MadameChingGame(num_players, **options), MadameChingGame(num_players, backend="native", **options)


# --- twin play ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_twin_play_every_option(num_players, options):
    """Action by action with every comparison of the twin harness (observations of every seat, to_dict,
    resample_hidden, the heuristic's decision), one game per configuration."""
    assert play_twins(MadameChingGame, num_players, options, [num_players * 101], dict_every=5) > 0


def _mixed_pick(seed: int, bot_share: float):
    """An action chooser: the Python heuristic bot's move with probability ``bot_share``, else a random legal one."""
    pick = Rng(seed)

    def choose(state, legal: list[int], bot: HeuristicPolicy) -> int:
        if pick.random() < bot_share:
            seat = state.current_player()
            return int(bot.act(state.observation(seat), state.legal_action_mask(), None))
        return legal[pick.randrange(len(legal))]

    return choose


def light_twins(num_players: int, options: dict, seed: int, observe_every: int, bot_share: float) -> int:
    """One game on both engines: after every action the whole state (its flat dump, generator, decision count)
    and the legal actions; every ``observe_every`` actions every seat's observation; at the end scores,
    returns and winners. Returns the decisions taken."""
    python_game, native_game_ = games(num_players, options)
    python, native = python_game.new_initial_state(seed), native_game_.new_initial_state(seed)
    bot = HeuristicPolicy(python_game)
    choose = _mixed_pick(seed + 1, bot_share)
    step = 0
    while True:
        where = f"{num_players}p {options} seed {seed} decision {step}"
        rng_state, decisions, truncated, values = native.engine_state.dump()
        assert values == native_bridge.pack(python), f"{where}: state"
        assert (rng_state, decisions, truncated) == (python.rng.state, python.decisions, python.truncated), where
        if step % observe_every == 0:
            compare(python, native, where)
        if python.is_terminal():
            break
        legal = python.legal_actions()
        assert native.legal_actions() == legal, f"{where}: legal actions"
        assert native.current_player() == python.current_player(), f"{where}: current player"
        action = choose(python, legal, bot)
        python.apply_action(action)
        native.apply_action(action)
        step += 1
    assert native.scores() == python.scores() and native.returns() == python.returns(), where
    assert native.winners() == python.winners() and native.is_truncated() == python.is_truncated(), where
    return step


def test_twin_play_50k_decisions():
    """>= 50k decisions over every configuration, the state compared after each (MCH-1008: a few hundred a game)."""
    total, seed = 0, 0
    while total < 50_000:
        for num_players, options in CONFIGS:
            total += light_twins(num_players, options, seed, observe_every=5, bot_share=0.6)
        seed += 1
    assert total >= 50_000


def test_heuristic_decisions_match_the_python_bot():
    """The compiled bot decides as ``HeuristicPolicy`` (which never draws) at every decision of games played
    mostly by it, in every configuration."""
    compared = 0
    for i, (num_players, options) in enumerate(CONFIGS):
        python_game, native_game_ = games(num_players, options)
        bot = HeuristicPolicy(python_game)
        python = python_game.new_initial_state(1000 + i)
        native = native_game_.new_initial_state(1000 + i)
        choose = _mixed_pick(i, 0.8)
        while not python.is_terminal():
            seat = python.current_player()
            want = int(bot.act(python.observation(seat), python.legal_action_mask(), None))
            assert native.heuristic_action(Rng(0)) == want, f"{num_players}p {options} decision {python.decisions}"
            action = choose(python, python.legal_actions(), bot)
            python.apply_action(action)
            native.apply_action(action)
            compared += 1
    assert compared > 2000


@pytest.mark.slow
def test_twin_play_2m_decisions():
    """>= 2M decisions, every configuration, the state compared after every action."""
    total, seed = 0, 10_000
    while total < 2_000_000:
        for num_players, options in CONFIGS:
            total += light_twins(num_players, options, seed, observe_every=10, bot_share=0.5)
        seed += 1
    assert total >= 2_000_000


# --- load: the one door for outside data -------------------------------------------------------------------------


RARE_PHASES = {
    act.WEATHER_PHASE,
    act.NIGHT_SAIL,
    act.MISSION_CHOOSE,
    act.SKILL_CLAIM,
    act.ENC_GIFT,
    act.THIEF_GEM,
    act.SALVAGE_CHOOSE,
    act.SIREN_TARGET,
    act.MC_SKILL,
    act.COMBAT_GIVE,
    act.TEAM_RETURN,
}


def sample_states() -> list:
    """Python states at many phases (every 9th decision and every decision of a rare phase of a few games driven
    partly by the heuristic bot, their ends, a truncation)."""
    out = []
    configs = ((2, {}), (3, {"auto_resolve_forced": False}), (4, {"team_mode": True}), (4, {}))
    for num_players, options in configs:
        game = MadameChingGame(num_players, **options)
        bot = HeuristicPolicy(game)
        for seed in (num_players, 50 + num_players):
            state = game.new_initial_state(seed)
            choose = _mixed_pick(seed, 0.6)
            while not state.is_terminal():
                if state.decisions % 9 == 0 or state.phase in RARE_PHASES:
                    out.append(state.clone())
                state.apply_action(choose(state, state.legal_actions(), bot))
            out.append(state)
    truncated = MadameChingGame(4, max_decisions=20).new_initial_state(5)
    while not truncated.is_terminal():
        truncated.apply_action(truncated.legal_actions()[0])
    out.append(truncated)
    return out


def exercise(engine_state, game) -> None:
    """Every entry point on a loaded state (under the sanitizer build any bad index stops the run)."""
    out = np.empty(game.observation_size, dtype=np.float32)
    mask = np.empty(game.num_actions, dtype=np.int8)
    for seat in range(game.num_players):
        engine_state.observe(seat, out)
    engine_state.scores(), engine_state.returns(), engine_state.winners()
    rng_state, decisions, truncated, values = engine_state.dump()
    native_game(game).load(rng_state, decisions, truncated, values)  # a loaded state dumps a loadable state
    if engine_state.is_terminal():
        return
    for seat in range(game.num_players):
        engine_state.resample_hidden(seat, 7)
    pick = Rng(decisions)
    for _ in range(4):
        if engine_state.is_terminal():
            break
        engine_state.heuristic_action(3)
        engine_state.legal_mask(mask)
        legal = engine_state.legal_actions()
        engine_state.apply_action(legal[pick.randrange(len(legal))])


def test_load_refuses_out_of_range_values():
    """Every value of a dump set beyond any range (negative or huge) is refused with a ValueError."""
    refused = 0
    for state in sample_states()[::8]:
        engine = native_game(MadameChingGame(state.num_players, backend="native", **state.game.options))
        values = native_bridge.pack(state)
        for i in range(len(values)):
            for bad in (-(2**63), -2, 2**31, 2**63 - 1):
                hostile = [*values[:i], bad, *values[i + 1 :]]
                with pytest.raises(ValueError):
                    engine.load(state.rng.state, state.decisions, state.truncated, hostile)
                refused += 1
    assert refused > 3000


def test_load_nudged_values_and_wrong_lengths_never_crash():
    """Every value nudged to nearby or boundary values, and dumps cut, extended or shifted: each load raises
    ValueError or gives a state that every entry point handles; the untouched dump always loads."""
    loaded = refused = 0
    for state in sample_states()[::12]:
        game = MadameChingGame(state.num_players, backend="native", **state.game.options)
        engine = native_game(game)
        values = native_bridge.pack(state)
        trials = []
        for i, v in enumerate(values):
            for new in {v - 1, v + 1, -1, 0, 4, 8, 23, 55}:
                if new != v:
                    trials.append([*values[:i], new, *values[i + 1 :]])
            trials.append(values[:i] + values[i + 1 :])  # one value missing
            trials.append([*values[:i], v, *values[i:]])  # one value twice
        trials += [values[:k] for k in range(0, len(values), 7)] + [[*values, 0], values + [1] * 5, []]
        for hostile in trials:
            try:
                engine_state = engine.load(state.rng.state, state.decisions, state.truncated, hostile)
            except ValueError:
                refused += 1
                continue
            loaded += 1
            exercise(engine_state, game)
        exercise(engine.load(state.rng.state, state.decisions, state.truncated, values), game)
    assert refused > 3000 and loaded > 0


def test_resample_hidden_of_every_seat_matches():
    """Section 9: every seat's redraw of the sampled positions (pending gifts and Combat cards included) is the
    Python engine's, draw for draw from the same source."""
    for i, state in enumerate(sample_states()):
        if state.is_terminal():
            continue
        native = to_native(state)
        for seat in range(state.num_players):
            want = state.resample_hidden(seat, Rng(i * 7 + seat))
            got = native.resample_hidden(seat, Rng(i * 7 + seat))
            compare_dicts(want, got, f"{state.num_players}p decision {state.decisions} seat {seat}")


def test_load_round_trips_every_sampled_state():
    """load(pack(state)) dumps back to pack(state), to_dict equal to the Python state's."""
    for state in sample_states():
        native = to_native(state)
        compare_dicts(state, native, f"{state.num_players}p decision {state.decisions}")


# --- worked examples (MCH-12xx) on the compiled engine -----------------------------------------------------------


class Twins:
    """A Python position and its compiled twin, moved together and compared after every action."""

    def __init__(self, python) -> None:
        python._legal = None
        self.python = python
        self.native = to_native(python)
        compare_dicts(python, self.native, "loaded")

    @property
    def fields(self) -> dict:
        return self.native.to_dict()["fields"]

    def apply(self, action: int) -> None:
        self.python.apply_action(action)
        self.native.apply_action(action)
        compare(self.python, self.native, f"after {action}")
        compare_dicts(self.python, self.native, f"after {action}")

    def select(self, picks: dict[int, int]) -> None:
        """Every boat picks: ``picks[boat]``, else its owner's lowest card (this round's Select only)."""
        g, round_ = self.python.game, self.python.round
        while not self.python.is_terminal() and self.python.phase == act.SELECT and self.python.round == round_:
            seat = self.python.select_seat
            boat = g.boats_of[seat][self.python.select_boat]
            self.apply(picks.get(boat, min(self.python.hands[seat])) - 1)

    def play_until(self, done, prefer=(act.PASS,)) -> None:
        """Decide (a preferred action where legal, else the first legal one) until ``done(fields)``."""
        while not done(self.fields):
            assert not self.python.is_terminal(), "the game ended first"
            legal = self.native.legal_actions()
            self.apply(next((a for a in prefer if a in legal), legal[0]))


def tile(label: int) -> int:
    return label - 1


def test_mch_1201_right_then_down_right():
    s = fresh()
    set_expedition(s, 0, [12])
    set_hand(s, 0, [20, 30, 44, 45])
    t = Twins(s)
    t.select({0: 20})
    t.play_until(lambda f: f["expeditions"][0] == [12, 20])
    assert t.fields["positions"][0] == [2, 1]  # same colour: right
    t.play_until(lambda f: f["phase"] == act.SELECT)
    t.select({0: 30})
    t.play_until(lambda f: f["expeditions"][0] == [12, 20, 30])
    assert t.fields["positions"][0] == [3, 2]  # colour change: down-right, space 6


def test_mch_1202_order_highest_first():
    s = fresh(seed=3)
    for seat, card in enumerate((17, 44, 9, 33)):
        set_hand(s, seat, [card, 1 + seat])
    for c in (50, 51, 52, 53):  # a display to take from: the round stops at the first TAKE
        pull(s, c)
    s.display = [50, 51, 52, 53]
    t = Twins(s)
    t.select({0: 17, 1: 44, 2: 9, 3: 33})
    assert t.fields["order"] == [1, 3, 0, 2]


def test_mch_1205_one_skill_from_two_options():
    s = fresh()
    set_board(s, [tile(20)])
    set_expedition(s, 0, [1, 7, 11, 12, 14, 17], position=(6, 2))
    set_hand(s, 0, [4, 50, 51, 52])
    t = Twins(s)
    t.select({0: 4})
    t.play_until(lambda f: f["phase"] == act.SKILL_CLAIM)
    assert t.native.legal_actions() == [act.SKILL_BASE + CARTOGRAPHY, act.SKILL_BASE + ELITE]
    t.apply(act.SKILL_BASE + CARTOGRAPHY)
    assert t.fields["skills"][0][CARTOGRAPHY] == 1 and t.fields["skills"][0][ELITE] == 0
    assert t.fields["expeditions"][0] == [4]


def test_mch_1206_two_skills_second_forced():
    s = fresh()
    set_board(s, [tile(20)])
    set_expedition(s, 0, [7, 8, 11, 14, 15, 20], position=(6, 1))
    set_hand(s, 0, [2, 50, 51, 52])
    t = Twins(s)
    t.select({0: 2})
    t.play_until(lambda f: f["phase"] == act.SKILL_CLAIM)
    assert t.native.legal_actions() == [act.SKILL_BASE + CARTOGRAPHY, act.SKILL_BASE + WEATHER]
    t.apply(act.SKILL_BASE + WEATHER)  # the other claim is forced and auto-applied (MCH-402)
    assert t.fields["skills"][0][CARTOGRAPHY] == 1 and t.fields["skills"][0][WEATHER] == 1


def test_mch_1207_consolation_draw():
    s = fresh()
    clear_encounters(s)
    set_expedition(s, 0, [25])
    set_hand(s, 0, [3, 50, 51, 52])
    t = Twins(s)
    t.select({0: 3})
    t.play_until(lambda f: f["expeditions"][0] == [3])
    assert sum(t.fields["enc_hands"][0]) == 1 and t.fields["positions"][0] == [1, 1]


def test_mch_1208_worlds_end_at_column_8():
    s = fresh()
    set_board(s, [tile(14)])
    set_expedition(s, 0, [6, 7, 8, 9, 10, 11, 26, 27], position=(8, 2))
    set_hand(s, 0, [40, 50, 51, 52])
    t = Twins(s)
    t.select({0: 40})
    t.play_until(lambda f: f["expeditions"][0] == [40])
    assert t.fields["tokens"][0][0] == 1 and t.fields["tokens"][0][3] == 1 and t.fields["positions"][0] == [1, 1]


def test_mch_1209_line_crossings_draw_one_then_two():
    s = fresh()
    clear_encounters(s)
    set_expedition(s, 0, [6, 7, 9, 14], position=(4, 1))
    set_hand(s, 0, [15, 16, 17, 1])
    for seat in (1, 2, 3):
        set_hand(s, seat, [2 + seat, 40 + 3 * seat, 41 + 3 * seat, 42 + 3 * seat])
    t = Twins(s)
    for card, column, drawn in ((15, 5, 1), (16, 6, 1), (17, 7, 3)):
        t.play_until(lambda f: f["phase"] == act.SELECT)
        t.select({0: card})
        t.play_until(lambda f, card=card: f["expeditions"][0][-1] == card)
        assert t.fields["positions"][0] == [column, 1] and sum(t.fields["enc_hands"][0]) == drawn


def test_mch_1210_weather_to_hong_kong():
    s = fresh()
    clear_encounters(s)
    set_expedition(s, 0, [2, 10, 27, 41, 48, 53])
    give_skill(s, 0, WEATHER)
    set_hand(s, 0, [55, 50, 51, 52])
    t = Twins(s)
    t.select({0: 55})
    t.play_until(lambda f: f["phase"] == act.WEATHER_PHASE)
    assert t.native.legal_actions() == [act.USE_WEATHER, act.PASS]
    t.apply(act.USE_WEATHER)
    f = t.fields
    assert f["positions"][0] == [7, 7] and f["hk_owner"] == 0 and sum(f["enc_hands"][0]) == 2
    assert f["skills"][0][WEATHER] == 0 and f["skills"][0][5 + WEATHER] == 1


def test_mch_1211_night_sailing():
    s = fresh()
    set_expedition(s, 0, [12])
    set_hand(s, 0, [5, 20, 24, 33])
    give_skill(s, 0, NIGHT_SAILING)
    t = Twins(s)
    t.select({0: 20})
    t.play_until(lambda f: f["phase"] == act.NIGHT_SAIL)
    assert t.native.legal_actions() == [23, 32, act.PASS] and t.fields["positions"][0] == [2, 1]
    t.apply(32)
    assert t.fields["positions"][0] == [3, 2] and t.fields["expeditions"][0] == [12, 20, 33]


def test_mch_1214_tie_break_by_gems():
    s = fresh()
    s.tokens[0] = [19, 0, 1, 2]
    s.tokens[1] = [16, 0, 2, 2]
    clear_encounters(s)
    s.supply = [46 - 35, 12, 12 - 3, 12 - 4]
    s.over, s.phase, s.step = True, -1, "over"
    t = Twins(s)
    assert t.native.scores()[:2] == [30.0, 30.0]
    assert t.native.winners() == [1] and t.native.returns() == [-1.0, 1.0, -1.0, -1.0]


def test_mch_1215_thief_masked_without_gems():
    s = fresh()
    give_encounter(s, 0, THIEF, 1)
    give_encounter(s, 0, NEGOTIATOR, 1)
    set_expedition(s, 0, [10])
    set_hand(s, 0, [11, 50, 51, 52])
    t = Twins(s)
    t.select({0: 11})
    t.play_until(lambda f: f["phase"] == act.ACTION and f["active_boat"] == 0)
    legal = t.native.legal_actions()
    assert act.PLAY_ENC_BASE + THIEF not in legal and act.PLAY_ENC_BASE + NEGOTIATOR in legal


def test_mch_1216_siren_undo():
    s = fresh()
    set_expedition(s, 1, [3, 10, 30])
    give_encounter(s, 0, SIREN, 1)
    set_expedition(s, 0, [40])
    set_hand(s, 0, [41, 50, 51, 52])
    set_hand(s, 1, [1, 2, 4, 5])
    for c in (42, 43, 44, 45):  # a display to take from: the round stops at player_0's TAKE
        pull(s, c)
    s.display = [42, 43, 44, 45]
    t = Twins(s)
    t.select({0: 41, 1: 1})
    t.play_until(lambda f: f["phase"] == act.ACTION and f["active_boat"] == 0)
    t.apply(act.PLAY_ENC_BASE + SIREN)  # one target: auto-resolved
    f = t.fields
    assert f["expeditions"][1] == [3, 10] and f["positions"][1] == [2, 2] and 30 in f["nav_discard"]


def test_mch_1218_final_icon_gold_at_the_round_limit():
    s = fresh(round_limit=1)
    set_expedition(s, 0, [7, 11, 14])
    set_hand(s, 0, [26, 50, 51, 52])
    t = Twins(s)
    t.select({0: 26})
    t.play_until(lambda f: f["over"])
    assert t.fields["expeditions"][0] == [7, 11, 14, 26] and t.fields["tokens"][0][0] == 3  # Map, Kite, Swords


def test_mch_1219_two_player_order():
    s = fresh(2)
    set_hand(s, 0, [30, 5, 1, 2, 3])
    set_hand(s, 1, [41, 22, 50, 51, 52])
    for c in (42, 43, 44, 45):
        pull(s, c)
    s.display = [42, 43, 44, 45]
    t = Twins(s)
    t.select({0: 30, 1: 5, 2: 41, 3: 22})
    assert t.fields["order"] == [2, 0, 3, 1] and t.native.current_player() == 1
    assert t.native.legal_actions() == [act.SLOT_BASE + s for s in range(4)]


def test_mch_1222_team_pass_and_return():
    s = fresh(team_mode=True)
    set_hand(s, 0, [1, 2, 3, 4, 31])
    set_hand(s, 2, [50, 51, 21])
    set_expedition(s, 0, [10])
    set_expedition(s, 2, [20])
    t = Twins(s)
    t.select({0: 31, 2: 21})  # player_0 acts before player_2
    t.play_until(lambda f: f["phase"] == act.TEAM_GIVE and f["active_boat"] == 0)
    t.apply(0)  # card 1
    t.apply(1)  # card 2
    t.apply(act.PASS)
    assert t.fields["owes"][2] == 2 and {1, 2} <= set(t.fields["hands"][2])
    t.play_until(lambda f: f["phase"] == act.TEAM_RETURN)
    assert t.native.current_player() == 2
    t.apply(t.native.legal_actions()[-1])
    t.apply(t.native.legal_actions()[-1])
    assert t.fields["owes"][2] == 0 and t.fields["phase"] == act.TEAM_GIVE and t.native.current_player() == 2
