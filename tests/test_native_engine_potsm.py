"""potsm_v0's native engine (``pirate_envs/games/potsm/native/engine.c``) against the Python engine, the oracle.

* Twin play (tests/native_twins.py): every player count (PSM-101), every variant (PSM-802, PSM-803), both
  reward modes (PSM-1020) and truncation (PSM-1031), action by action: the seat to act, the legal actions,
  every seat's observation (PSM-1010), the scores, ``to_dict`` (generator included), ``resample_hidden``
  (PSM-902) from the same source, the heuristic bot's decision and the action features; returns and winners
  (PSM-703) at the end. More than 50k decisions here, more than 2M in the slow tier.
* The rules' worked examples (PSM-1201..1225): the Python rule tests' set-ups, each action played on both
  engines from the same loaded position (``to_native``: the engine's ``load``).
* The generic paths on this engine: the gym env, the vector env, IS-MCTS and flat Monte Carlo against their
  Python twins.
* ``load``: every value of real dumps mutated to out-of-range, huge and negative values, and wrong lengths,
  raises ValueError; a nearby value (+-1) is either refused or a position the Python engine accepts too, which
  then plays on identically.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
import test_potsm_rules as rules
from native_twins import compare, compare_dicts, play_twins

from pirate_envs.core.native.backend import has_native, native_game, to_native
from pirate_envs.core.rng import Rng
from pirate_envs.games.potsm import native_bridge
from pirate_envs.games.potsm.game import PotsmGame
from pirate_envs.games.potsm.heuristic import HeuristicPolicy

pytestmark = pytest.mark.skipif(not has_native("potsm_v0"), reason="the compiled potsm engine is not built here")

VARIANTS = {
    "base": {},
    "upcoming": {"upcoming_adventures": True},
    "hand": {"move_cards_in_hand": True},
    "both": {"upcoming_adventures": True, "move_cards_in_hand": True},
}
CONFIGS = [(n, name, options) for n in (2, 3, 4) for name, options in VARIANTS.items()] + [
    (2, "score", {"reward_mode": "score"}),
    (4, "score-hand", {"reward_mode": "score", "score_scale": 3.0, "move_cards_in_hand": True}),
    (3, "truncated", {"max_decisions": 25, "upcoming_adventures": True}),
]
SEEDS_PER_CONFIG = 85  # 15 configurations x 85 games x ~40 decisions: > 50k decisions


# --- twin play ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "name", "options"), CONFIGS, ids=[f"{n}p-{name}" for n, name, _ in CONFIGS])
def test_twin_play(n, name, options):
    """PSM-101, PSM-802, PSM-803, PSM-1020, PSM-1031: the same games, decision for decision."""
    decisions = play_twins(PotsmGame, n, options, range(SEEDS_PER_CONFIG))
    assert decisions >= 40 * SEEDS_PER_CONFIG * (0.5 if name == "truncated" else 0.8)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "name", "options"), CONFIGS, ids=[f"{n}p-{name}" for n, name, _ in CONFIGS])
def test_twin_play_slow(n, name, options):
    """More than 2M decisions over the configurations (~140k each)."""
    first = 10_000
    decisions = play_twins(PotsmGame, n, options, range(first, first + 3_600), dict_every=11)
    assert decisions >= 135_000 * (0.5 if name == "truncated" else 1)


def test_heuristic_ties_are_drawn_among_the_tied_actions():
    """The engine's bot draws a tie from its rng over the same tied actions as the Python bot."""
    game = PotsmGame(num_players=4)
    bot = HeuristicPolicy(game)
    native = PotsmGame(num_players=4, backend="native")
    ties = 0
    for seed in range(40):
        python = game.new_initial_state(seed)
        state = native.new_initial_state(seed)
        pick = Rng(seed)
        while not python.is_terminal():
            seat = python.current_player()
            scores = bot.action_scores(python.observation(seat), python.legal_action_mask())
            best = max(scores.values())
            top = sorted(a for a, s in scores.items() if s >= best - 1e-9)
            if len(top) > 1:
                ties += 1
                chosen = {state.heuristic_action(Rng(k)) for k in range(12)}
                assert chosen <= set(top) and len(chosen) > 1, (seed, top, chosen)
            legal = python.legal_actions()
            action = legal[pick.randrange(len(legal))]
            python.apply_action(action)
            state.apply_action(action)
    assert ties > 0


def test_resample_hidden_with_tight_constraints_enumerates_the_deals_like_python():
    """PSM-902: where rejection sampling fails (a deal consistent with nearly no shuffle), the engine
    enumerates the consistent deals in the Python order and draws the same one."""
    for seed in range(12):
        state = rules.new_state(4, seed)
        truth = list(state.pirate_owner)
        n = 4
        swap = [j for j in range(9) if truth[j] in (1, 2)][:1] + [j for j in range(9) if truth[j] == 3][:1]
        for j in range(9):
            for seat in range(1, n):
                if truth[j] != seat and not (j in swap and seat in (truth[swap[0]], truth[swap[1]])):
                    state.not_owner[j * n + seat] = 1
        rules.refresh(state)
        native = to_native(state)
        for k in range(25):
            a_source, b_source = Rng(k), Rng(k)
            a = state.resample_hidden(0, a_source)
            b = native.resample_hidden(0, b_source)
            compare_dicts(a, b, f"seed {seed} source {k}")
            assert a_source.state == b_source.state


# --- the worked examples (PSM-1201..1225) -------------------------------------------------------------------


def _twin_play(state, action):
    """rules.play on both engines: the Python state and its native twin (loaded from it) apply ``action``."""
    state.check_invariants()
    native = to_native(state)
    compare(state, native, "before")
    state.apply_action(action)
    native.apply_action(action)
    state.check_invariants()
    compare(state, native, f"after {action}")
    compare_dicts(state, native, f"after {action}")
    if state.is_terminal():
        assert native.returns() == state.returns() and native.winners() == state.winners()


# the examples that play through rules.play (PSM-1206 and PSM-1221 are set up below)
WORKED_EXAMPLES = sorted(
    name for name in dir(rules) if name.startswith("test_psm_12") and name[9:13] not in ("1206", "1221")
)


@pytest.mark.parametrize("example", WORKED_EXAMPLES)
def test_worked_example(example, monkeypatch):
    """The rules' worked example, each action applied by the native engine too (same results)."""
    played = []
    monkeypatch.setattr(rules, "play", lambda state, action: played.append(_twin_play(state, action)))
    getattr(rules, example)()
    assert played


def test_psm_1206_sabotage_masked_when_every_ship_is_damaged():
    """PSM-1206 / PSM-511: no Sabotage target, Pass-discard of Sabotage (62) legal."""
    state = rules.base_state(moves=[10, 1, 11])
    rules.set_line(state, rules.DEFAULT_LINE, damaged=range(9))
    legal = to_native(state).legal_actions()
    assert legal == state.legal_actions() and not any(40 <= a <= 48 for a in legal) and 62 in legal


def _finished_twins(n, owners, fame, claimed, damaged=(), line=None, **options):
    """rules.finished_state on both engines: the last adventure (Maelstrom) resolves after a Pass (PSM-540)."""
    state = rules.new_state(n, 0, **options)
    rules.set_owners(state, owners)
    rules.set_line(state, line or rules.DEFAULT_LINE, damaged=damaged, fame=fame)
    state.claimed = list(claimed)
    rules.set_adventures(state, [rules.MAELSTROM], deck_size=0)
    rules.to_act(state, 0)
    native = to_native(state)
    state.apply_action(51)
    native.apply_action(51)
    assert state.is_terminal() and native.is_terminal()
    compare_dicts(state, native, "finished")
    return state, native


def test_psm_1221_scoring_and_tie_breaks():
    """PSM-1221 / PSM-702 / PSM-703: 9 = 9 > 6; the tie broken by undamaged owned ships, then the frontmost."""
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2}
    fame = {0: 4, 1: 3, 3: 5, 4: 4, 6: 6}
    state, native = _finished_twins(3, owners, fame, [2, 0, 0], damaged=[1])
    assert native.scores() == state.scores() == [9.0, 9.0, 6.0]
    assert native.winners() == state.winners() == [1]
    assert native.returns() == state.returns() == [-1.0, 1.0, -1.0]
    state, native = _finished_twins(3, owners, fame, [2, 0, 0], line=[2, 0, 6, 3, 4, 1, 7, 5, 8])
    assert native.winners() == state.winners() == [0]
    assert native.returns() == state.returns() == [1.0, -1.0, -1.0]


def test_score_reward_mode_and_unowned_fame():
    """PSM-1020: (S_s - max_{t != s} S_t) / score_scale; PSM-303 / PSM-702: unused pirates' ships score nothing."""
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2}
    fame = {0: 4, 1: 3, 3: 5, 4: 4, 6: 6}
    state, native = _finished_twins(3, owners, fame, [2, 0, 0], damaged=[1], reward_mode="score", score_scale=2)
    assert native.returns() == state.returns() == [0.0, 0.0, -1.5]
    owners = {0: 0, 1: 0, 3: 1, 4: 1, 6: 2, 7: 2, 2: 3, 5: 3}
    state, native = _finished_twins(4, owners, {8: 20, 2: 1}, [0, 0, 0, 4])
    assert native.scores() == state.scores() == [0.0, 0.0, 0.0, 5.0] and native.winners() == [3]


# --- load: hostile dumps ------------------------------------------------------------------------------------


def _positions(n, options, seed):
    """States along one random game: the start, a few middle positions, the end."""
    game = PotsmGame(num_players=n, **options)
    state = game.new_initial_state(seed)
    pick = Rng(seed)
    found = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[pick.randrange(len(legal))])
        if state.decisions % 9 == 4 or state.phase_name() == "ACCUSE_DISCARD":
            found.append(state.clone())
    return game, [*found, state]


@pytest.mark.parametrize(("n", "name", "options"), CONFIGS[:12], ids=[f"{n}p-{name}" for n, name, _ in CONFIGS[:12]])
def test_load_refuses_hostile_dumps(n, name, options):
    """Every value out of range (huge, negative, far off) and every wrong length raises ValueError."""
    _, states = _positions(n, options, 5)
    engine = native_game(PotsmGame(num_players=n, backend="native", **options))
    for state in states[::3]:
        values = native_bridge.pack(state)
        engine.load(state.rng.state, state.decisions, state.truncated, values)  # the real dump loads
        for i in range(len(values)):
            for bad in (-(2**63), -1000, 1000, 2**63 - 1):
                mutated = [*values[:i], bad, *values[i + 1 :]]
                with pytest.raises(ValueError):
                    engine.load(state.rng.state, state.decisions, state.truncated, mutated)
        for cut in (0, 1, 9, len(values) // 2, len(values) - 1):
            with pytest.raises(ValueError):
                engine.load(state.rng.state, state.decisions, state.truncated, values[:cut])
        for extra in ([0], [0] * 40, values):
            with pytest.raises(ValueError):
                engine.load(state.rng.state, state.decisions, state.truncated, values + extra)


@pytest.mark.parametrize(("n", "name", "options"), CONFIGS[:12], ids=[f"{n}p-{name}" for n, name, _ in CONFIGS[:12]])
def test_load_accepts_only_what_python_accepts(n, name, options):
    """A value moved by one is refused, or gives a position the Python engine accepts (state_from_dict), which
    both engines then play identically."""
    game, states = _positions(n, options, 6)
    engine = native_game(PotsmGame(num_players=n, backend="native", **options))
    accepted = 0
    for state in (states[len(states) // 3], states[-1]):
        values = native_bridge.pack(state)
        for i in range(len(values)):
            for delta in (-1, 1):
                mutated = [*values[:i], values[i] + delta, *values[i + 1 :]]
                try:
                    loaded = engine.load(state.rng.state, state.decisions, state.truncated, mutated)
                except ValueError:
                    continue
                accepted += 1
                data = state.to_dict()
                data["fields"] = native_bridge.unpack(game, loaded.dump()[3])
                python = PotsmGame.state_from_dict(data)  # raises if the Python engine refuses it
                native = to_native(python)
                pick = Rng(i)
                for _ in range(4):
                    compare(python, native, f"value {i} {delta:+d}")
                    if python.is_terminal():
                        break
                    legal = python.legal_actions()
                    action = legal[pick.randrange(len(legal))]
                    python.apply_action(action)
                    native.apply_action(action)
                compare_dicts(python, native, f"value {i} {delta:+d}")
    assert accepted > 0


def test_random_playouts_run_natively():
    """The engine's own random-play loop (the benchmark's) finishes its games."""
    for n in (2, 3, 4):
        for options in VARIANTS.values():
            engine = native_game(PotsmGame(num_players=n, backend="native", **options))
            assert engine.random_playouts(50, n) > 50 * 30


def test_native_features_on_hostile_observations_do_not_crash():
    """The engine's action features take any float32 observation (NaN, huge, no line) without a crash: a value
    or a ValueError."""
    game = PotsmGame(num_players=3, backend="native")
    engine = native_game(game)
    state = game.new_initial_state(3)
    obs, mask = state.observation(state.current_player()), state.legal_action_mask()
    rng = np.random.default_rng(0)
    out = np.zeros((game.num_actions, engine.num_features), dtype=np.float32)
    for _ in range(3000):
        hostile = obs.copy()
        where = rng.integers(0, hostile.size, size=int(rng.integers(1, 6)))
        hostile[where] = rng.choice([np.nan, np.inf, -np.inf, 1e30, -3.0, 300.0, 0.5, 1.0], size=where.size)
        with contextlib.suppress(ValueError):  # the binding refuses non-finite and huge values itself
            engine.features(hostile, mask, out)


# --- the generic native paths on this engine: envs, vector env, search ----------------------------------------


def _mid_game(game, seed, steps):
    state, pick = game.new_initial_state(seed), Rng(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply_action(legal[pick.randrange(len(legal))])
    return state


def test_the_gym_env_runs_on_it_like_on_the_python_engine():
    """make_gym(..., backend="native"): the same observations, masks and rewards as on the Python engine."""
    from pirate_envs import make_gym

    python = make_gym("potsm_v0", opponents="random", num_players=3, move_cards_in_hand=True)
    native = make_gym("potsm_v0", opponents="random", num_players=3, move_cards_in_hand=True, backend="native")
    obs_p, _ = python.reset(seed=4)
    obs_n, _ = native.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert np.array_equal(obs_p, obs_n) and np.array_equal(python.action_masks(), native.action_masks())
        action = int(rng.choice(np.flatnonzero(python.action_masks())))
        obs_p, *rest_p = python.step(action)
        obs_n, *rest_n = native.step(action)
        assert rest_p[:3] == rest_n[:3]
        if rest_p[1] or rest_p[2]:
            obs_p, _ = python.reset()
            obs_n, _ = native.reset()


@pytest.mark.parametrize(
    "options", [{}, {"move_cards_in_hand": True, "upcoming_adventures": True}], ids=["base", "both"]
)
def test_the_vector_env_plays_the_games_of_its_python_twin(options):
    """pirate_envs.vector on this engine against the same vector env stepping Python states."""
    from pirate_envs.vector import NativeVectorEnv

    native = NativeVectorEnv("potsm_v0", 5, opponents="random", seat="random", seed=3, num_players=4, **options)
    python = NativeVectorEnv(
        "potsm_v0", 5, opponents="random", seat="random", seed=3, num_players=4, backend="python", **options
    )
    obs_n, _ = native.reset()
    obs_p, _ = python.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(120):
        assert np.array_equal(obs_n, obs_p) and np.array_equal(native.action_masks(), python.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in native.action_masks()])
        obs_n, rew_n, term_n, trunc_n, _ = native.step(actions)
        obs_p, rew_p, term_p, trunc_p, _ = python.step(actions)
        assert np.array_equal(rew_n, rew_p) and np.array_equal(term_n, term_p) and np.array_equal(trunc_n, trunc_p)
        ended += int(term_n.sum() + trunc_n.sum())
    assert ended > 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_compiled_ismcts_searches_as_the_python_one(seed):
    """IS-MCTS on this engine (determinised by its resample_hidden) visits as the Python search does."""
    from pirate_envs.core.native import NATIVE
    from pirate_envs.policies.ismcts import ISMCTSPolicy

    state = _mid_game(PotsmGame(num_players=3, move_cards_in_hand=seed == 1), seed, 3 + 4 * seed)
    seat = state.current_player()
    python = ISMCTSPolicy(state.game, iterations=120, engine="python")
    source = Rng(seed)
    root = python.search(state, seat, source)
    _, done, after, visits = NATIVE.ismcts(to_native(state).engine_state, seat, 120, 0.7, "random", Rng(seed).state)
    assert done == 120 and after == source.state
    assert dict(visits) == {a: root.children[a].visits if a in root.children else 0 for a in state.legal_actions()}


def test_the_compiled_flat_monte_carlo_scores_as_the_python_one():
    from pirate_envs.policies.flatmc import FlatMCPolicy

    state = _mid_game(PotsmGame(num_players=2), 8, 6)
    seat, mask = state.current_player(), state.legal_action_mask()
    python = FlatMCPolicy(state.game, rollouts=6, rollout="random", engine="python")
    native = FlatMCPolicy(state.game, rollouts=6, rollout="random")
    a = python.act_state(state, seat, mask, np.random.default_rng(3))
    b = native.act_state(state, seat, mask, np.random.default_rng(3))
    assert a == b and python.last_values == native.last_values
