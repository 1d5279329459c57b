"""The shared conformance suite: every registered game, player count and rule variant.

Properties (design.md): engine contract, random play to the end, no leak through
``resample_hidden``, determinism with disturbed global RNGs, exact ``to_dict`` round trips,
illegal actions rejected with the state unchanged, helpful option errors, and PettingZoo's
``api_test``/``seed_test`` on the AEC env.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import pirate_envs
from pirate_envs.adapters.checks import IllegalActionWarning
from pirate_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from pirate_envs.core.game import TERMINAL
from pirate_envs.core.registry import env_module, game_class

GAMES_PER_CASE = 6
LEAK_PROBES_PER_GAME = 12


def make_game(case):
    env_id, n, _, options = case
    return game_class(env_id)(num_players=n, **options)


def random_trajectory(game, seed: int, action_seed: int):
    """Play one random game; yield (state, action) before each action.

    The same state object is yielded every time and changes in place: keep ``state.clone()``.
    """
    state = game.new_initial_state(seed)
    rng = random.Random(action_seed)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply_action(action)
    yield state, None


def fields_view(state) -> dict:
    """Everything of a state except its RNG (for 'did the hidden part change' comparisons)."""
    d = state.to_dict()
    d.pop("rng")
    return d


# --- engine contract -------------------------------------------------------------------------------


def test_game_facts(case):
    game = make_game(case)
    env_id, n, _, _ = case
    assert game.num_players == n
    assert n in type(game).player_counts
    assert game.num_actions >= 2
    assert game.observation_shape == (game.observation_size,)
    assert game.max_decisions >= 1
    assert env_module(env_id).Game is type(game)


def test_random_play_engine(case):
    """Random play to the end: masks match legal actions, invariants hold, bounds respected."""
    game = make_game(case)
    n = game.num_players
    for g in range(GAMES_PER_CASE):
        decisions = 0
        for state, action in random_trajectory(game, seed=1000 + g, action_seed=g):
            state.check_invariants()
            for seat in range(n):
                obs = state.observation(seat)
                assert obs.dtype == np.float32 and obs.shape == game.observation_shape
                assert obs.min() >= game.observation_low and obs.max() <= game.observation_high
            if action is None:
                break
            legal = state.legal_actions()
            assert legal, "no legal action in a non-terminal state"
            assert legal == sorted(set(legal))
            mask = state.legal_action_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
            assert np.flatnonzero(mask).tolist() == legal
            assert 0 <= state.current_player() < n
            decisions += 1
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert decisions <= game.max_decisions
        assert state.legal_actions() == [] and not state.legal_action_mask().any()
        returns = state.returns()
        assert len(returns) == n and all(isinstance(r, float) for r in returns)
        assert len(state.scores()) == n
        if not state.is_truncated():
            winners = state.winners()
            if not getattr(game, "may_end_without_winner", False):
                assert winners, "a finished game must have a winner"
            if winners:  # winners get the best return (a team game may end with nobody winning: TOR-705)
                assert min(returns[w] for w in winners) == max(returns), "the winners must get the best return"
            if game.options.get("reward_mode") == "win":
                assert set(returns) <= {-1.0, 1.0}
                assert [r == 1.0 for r in returns] == [seat in winners for seat in range(n)]


def test_clone_is_independent(case):
    game = make_game(case)
    for state, action in random_trajectory(game, seed=7, action_seed=7):
        if action is None:
            break
        if state.decisions % 5 == 0:
            before = state.to_dict()
            copy = state.clone()
            assert copy.to_dict() == before
            copy.apply_action(action)
            assert state.to_dict() == before, "clone shares mutable data with the original"


# --- no leak -----------------------------------------------------------------------------------------


def test_no_leak_through_resample_hidden(case):
    """observation(p) and p's mask are identical on a state and on resample_hidden(p)."""
    game = make_game(case)
    n = game.num_players
    probes = changed = 0
    for g in range(GAMES_PER_CASE):
        states = [s.clone() for s, _ in random_trajectory(game, seed=2000 + g, action_seed=g)]
        step = max(1, len(states) // LEAK_PROBES_PER_GAME)
        for k, state in enumerate(states[::step]):
            for seat in range(n):
                resampled = state.resample_hidden(seat, np.random.default_rng(g * 1000 + k * 10 + seat))
                resampled.check_invariants()
                np.testing.assert_array_equal(
                    state.observation(seat), resampled.observation(seat), err_msg=f"observation of seat {seat} leaks"
                )
                assert resampled.current_player() == state.current_player()
                if state.current_player() == seat:
                    np.testing.assert_array_equal(state.legal_action_mask(), resampled.legal_action_mask())
                probes += 1
                changed += fields_view(resampled) != fields_view(state)
                # A determinisation must be a playable game.
                if k % 4 == 0 and not resampled.is_terminal():
                    rng = random.Random(k)
                    while not resampled.is_terminal():
                        resampled.apply_action(rng.choice(resampled.legal_actions()))
    assert changed / probes > 0.3, f"resample_hidden changed the hidden state in only {changed}/{probes} probes"


def test_resample_hidden_depends_only_on_what_the_seat_saw(case):
    """Two states the seat cannot tell apart give the same determinisation for the same seed.

    A search bot (IS-MCTS) may read the real state only through ``resample_hidden``; if the
    redraw depended on the real hidden cards (e.g. shuffling the real deck in place), the bot's
    choices would too. So the redraw must be a function of the seat's information and the seed.
    """
    game = make_game(case)
    n = game.num_players
    probes = 0
    for g in range(2):
        states = [s.clone() for s, _ in random_trajectory(game, seed=3000 + g, action_seed=g)]
        for k, state in enumerate(states[:: max(1, len(states) // 6)]):
            for seat in range(n):
                twin = state.resample_hidden(seat, 7_000 + k)  # same information set, other hidden cards
                a = state.resample_hidden(seat, 99).to_dict()
                b = twin.resample_hidden(seat, 99).to_dict()
                assert a == b, f"resample_hidden(seat {seat}) depends on hidden cards the seat never saw"
                probes += 1
    assert probes > 0


def test_resample_hidden_is_seeded(case):
    game = make_game(case)
    state = game.new_initial_state(5)
    a = state.resample_hidden(0, 123).to_dict()
    b = state.resample_hidden(0, 123).to_dict()
    assert a == b
    with pytest.raises(ValueError):
        state.resample_hidden(game.num_players, 1)


def test_observation_of_a_seat_that_does_not_exist_is_rejected(case):
    state = make_game(case).new_initial_state(5)
    for seat in (-1, state.num_players):
        with pytest.raises(ValueError, match="seat must be in"):
            state.observation(seat)


def test_per_seat_queries_take_only_an_int_seat(case):
    """observation, resample_hidden and render(viewer) refuse a seat that is not an int (a float, a bool,
    a string) with a TypeError naming it, and accept numpy integers like plain ints."""
    state = make_game(case).new_initial_state(5)
    queries = {
        "observation": state.observation,
        "resample_hidden": lambda seat: state.resample_hidden(seat, 0),
        "render": state.render,
    }
    for name, query in queries.items():
        for seat in (1.5, 1.0, True, np.bool_(False), "0", [0]):
            with pytest.raises(TypeError, match="seat must be an int"):
                query(seat)
        for seat in (-1, state.num_players):
            with pytest.raises(ValueError, match="seat must be in"):
                query(seat)
        plain, numpy_seat = query(1), query(np.int64(1))
        if name == "resample_hidden":
            plain, numpy_seat = plain.to_dict(), numpy_seat.to_dict()
        np.testing.assert_equal(numpy_seat, plain)


# --- determinism and serialisation ------------------------------------------------------------------


def _trajectory_record(game, seed: int, disturb: bool):
    record = []
    rng = random.Random(seed)
    noise = random.Random(-seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if disturb:
            random.seed(noise.random())
            np.random.seed(noise.randrange(2**31))
        action = rng.choice(state.legal_actions())
        record.append((state.current_player(), action, state.observation(state.current_player()).tobytes()))
        state.apply_action(action)
    record.append(tuple(state.returns()))
    return record


def test_determinism_with_disturbed_global_rngs(case):
    game = make_game(case)
    for seed in (1, 2):
        assert _trajectory_record(game, seed, disturb=False) == _trajectory_record(game, seed, disturb=True)


def test_different_seeds_differ(case):
    game = make_game(case)
    deals = {json.dumps(fields_view(game.new_initial_state(seed))) for seed in range(8)}
    assert len(deals) > 1


def test_to_dict_round_trip_mid_game(case):
    game = make_game(case)
    game_cls = type(game)
    for g in range(3):
        for state, action in random_trajectory(game, seed=3000 + g, action_seed=g):
            if action is None or state.decisions % 7 != 3:
                continue
            text = json.dumps(state.to_dict())
            restored = game_cls.state_from_dict(json.loads(text))
            assert restored.to_dict() == state.to_dict()
            assert restored == state
            for seat in range(game.num_players):
                np.testing.assert_array_equal(restored.observation(seat), state.observation(seat))
            # Both continue identically, chance included.
            a, b = state.clone(), restored
            rng = random.Random(g)
            while not a.is_terminal():
                action = rng.choice(a.legal_actions())
                assert b.legal_actions() == a.legal_actions()
                a.apply_action(action)
                b.apply_action(action)
            assert b.is_terminal() and a.returns() == b.returns() and a.scores() == b.scores()


def test_state_from_dict_rejects_other_game(case):
    game = make_game(case)
    data = game.new_initial_state(0).to_dict()
    data["game"] = "not_a_game"
    with pytest.raises(ValueError, match="not_a_game"):
        type(game).state_from_dict(data)


_TOP_KEYS = ("game", "num_players", "options", "rng", "decisions", "truncated", "fields")
_WRONG_TYPES = (None, "x", 1.5, [], {}, True, -5)


def _leaves(value, path=()):
    """Every (path, value) inside a state's fields, containers included."""
    yield path, value
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))


def _tampered(data: dict, rng: random.Random, leaves_per_state: int):
    """(what, tampered copy) pairs: wrong types for every key and field, dropped and unknown keys and fields,
    bogus RNGs, lists one longer / shorter, and negative / huge / non-int values at sampled positions."""

    def edited(edit):
        copy_ = json.loads(json.dumps(data))
        edit(copy_)
        return copy_

    def put(path, value):
        def edit(d):
            target = d["fields"]
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value

        return edit

    for key in _TOP_KEYS:
        yield f"drop {key}", edited(lambda d, k=key: d.pop(k))
        for wrong in (*_WRONG_TYPES, 10**6):
            yield f"{key}={wrong!r}", edited(lambda d, k=key, w=wrong: d.__setitem__(k, w))
    for bogus in ("zz", "", "0" * 17, "-000000000000001", " 123456789abcdef"):
        yield f"rng={bogus!r}", edited(lambda d, b=bogus: d.__setitem__("rng", b))
    yield "unknown key", edited(lambda d: d.__setitem__("extra", 1))
    yield "unknown field", edited(lambda d: d["fields"].__setitem__("extra", 1))
    yield "truncated='false'", edited(lambda d: d.__setitem__("truncated", "false"))
    for name, value in data["fields"].items():
        yield f"drop field {name}", edited(lambda d, n=name: d["fields"].pop(n))
        for wrong in _WRONG_TYPES:
            yield f"field {name}={wrong!r}", edited(put((name,), wrong))
        if isinstance(value, list):
            yield f"field {name} longer", edited(put((name,), value + value[-1:] if value else [0]))
            if value:
                yield f"field {name} shorter", edited(put((name,), value[:-1]))
    positions = [(path, value) for path, value in _leaves(data["fields"]) if len(path) > 1]
    for path, value in rng.sample(positions, min(leaves_per_state, len(positions))):
        if isinstance(value, bool):
            wrongs = (0, "false", None)
        elif isinstance(value, int):
            wrongs = (-5, -1, 10**6, 0.5, True, "1", None)  # -1: the usual "none" sentinel, in a wrong place
        elif isinstance(value, (list, dict)):
            wrongs = (None, "x")
        else:
            wrongs = (None, 7)
        for wrong in wrongs:
            yield f"{'/'.join(map(str, path))}: {value!r:.20} -> {wrong!r}", edited(put(path, wrong))


def test_state_from_dict_rejects_tampered_states(case):
    """A tampered state dict either raises InvalidStateError naming the key or field, or (when the edit
    happens to give another possible position) loads a state that keeps its invariants and plays to the end."""
    game = make_game(case)
    game_cls = type(game)
    names = (*_TOP_KEYS, *game_cls.state_class.fields, "dict")
    snapshots = []
    for state, action in random_trajectory(game, seed=5000, action_seed=5):
        if state.decisions in (4, 30) or action is None:
            snapshots.append(json.loads(json.dumps(state.to_dict())))
    rng = random.Random(case[1])
    tampers = [("not a dict", [snapshots[0]]), ("None", None), ("json text", json.dumps(snapshots[0]))]
    for data in snapshots:
        tampers += _tampered(data, rng, leaves_per_state=25)
    loaded = 0
    for what, data in tampers:
        try:
            state = game_cls.state_from_dict(data)
        except InvalidStateError as exc:
            assert any(name in str(exc) for name in names), f"{what}: the error names no field: {exc}"
            continue
        loaded += 1
        play = random.Random(loaded)
        try:
            state.check_invariants()
            while not state.is_terminal():
                state.apply_action(play.choice(state.legal_actions()))
            state.check_invariants()
            assert len(state.returns()) == game.num_players
        except Exception as exc:
            raise AssertionError(f"{what}: loaded, but then {type(exc).__name__}: {exc}") from exc
    assert loaded < len(tampers) / 4, f"{loaded} of {len(tampers)} tampered dicts loaded"


# --- bad input ---------------------------------------------------------------------------------------


def test_illegal_actions_rejected_state_unchanged(case):
    game = make_game(case)
    for state, action in random_trajectory(game, seed=4000, action_seed=4):
        if action is None:
            break
        if state.decisions % 4:
            continue
        legal = set(state.legal_actions())
        illegal = [a for a in range(game.num_actions) if a not in legal][:3]
        before = state.to_dict()
        for bad in [*illegal, -1, game.num_actions, 1.5, None, "3", True]:
            with pytest.raises(IllegalActionError) as info:
                state.apply_action(bad)
            assert isinstance(info.value, ValueError)
            assert state.to_dict() == before
        if illegal:
            with pytest.raises(IllegalActionError, match=rf"action {illegal[0]} .*phase {state.phase_name()}"):
                state.apply_action(illegal[0])
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)


def test_bad_options_rejected_with_valid_choices(case):
    env_id, n, _, _ = case
    game_cls = game_class(env_id)
    with pytest.raises(InvalidOptionError, match="valid options"):
        game_cls(num_players=n, no_such_option=1)
    bad_count = max(game_cls.player_counts) + 1
    with pytest.raises(InvalidOptionError, match=str(game_cls.player_counts[0])):
        game_cls(num_players=bad_count)
    for spec in game_cls.option_specs:
        wrong_type = "x" if spec.kind is not str else 3
        with pytest.raises(ValueError, match=spec.name):
            game_cls(num_players=n, **{spec.name: wrong_type})
        if spec.choices:
            with pytest.raises(ValueError, match=repr(spec.choices[0])):
                game_cls(num_players=n, **{spec.name: "no-such-choice" if spec.kind is str else -12345})
        if spec.minimum is not None:
            with pytest.raises(ValueError, match="minimum"):
                game_cls(num_players=n, **{spec.name: spec.kind(spec.minimum - 1)})


# --- PettingZoo AEC env -------------------------------------------------------------------------------


def make_env(case, **extra):
    env_id, n, _, options = case
    return pirate_envs.make(env_id, num_players=n, **options, **extra)


def test_pettingzoo_api_test(case):
    api_test(make_env(case), num_cycles=200)


def test_pettingzoo_seed_test(case):
    seed_test(lambda: make_env(case), num_cycles=100)


def test_aec_random_play(case):
    """Full games through the AEC env: masks, end-only rewards, scores in infos."""
    env = make_env(case, render_mode="ansi")
    rng = np.random.default_rng(0)
    for g in range(2):
        env.reset(seed=g)
        assert env.render()
        spaces = {id(env.observation_space(a)) for a in env.agents}
        assert len(spaces) == 1, "every seat must share one observation space object"
        finished = False
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            assert env.observation_space(agent).contains(obs)
            if terminated or truncated:
                finished = True
                # fixed-shape end infos (replay buffers store them as arrays): n scores, this agent's own result
                assert len(info["scores"]) == len(env.possible_agents) and type(info["won"]) is bool
                if not truncated and env.unwrapped.state.game.options.get("reward_mode") == "win":
                    assert info["won"] == (reward > 0)
                env.step(None)
                continue
            assert reward == 0
            mask = obs["action_mask"]
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert finished


def test_aec_truncation(case):
    env = make_env(case, max_decisions=3)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            assert info["truncated"] is True
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 3


def test_aec_illegal_action_raise_mode(case):
    env = make_env(case, illegal_action="raise")
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {bad}"):
        env.step(bad)
    # Nothing changed: the same seat still acts with the same mask.
    again, *_ = env.last()
    np.testing.assert_array_equal(again["action_mask"], obs["action_mask"])


def test_aec_illegal_action_terminates_by_default(case):
    """PettingZoo's classic convention: -1 for the offender, 0 for the others, a warning naming the legal
    actions, ``info["illegal_action"]`` on the offender, and no agent left to act."""
    env = make_env(case)
    env.reset(seed=0)
    offender = env.agent_selection
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning, match=rf"action {bad} .*legal: \d+"):
        env.step(bad)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards[offender] == -1
    assert all(r == 0 for agent, r in env.rewards.items() if agent != offender)
    assert [env.infos[a]["illegal_action"] for a in env.possible_agents] == [a == offender for a in env.possible_agents]
    assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
    for _agent in env.agent_iter():
        assert env.last()[2]  # terminated
        env.step(None)
    assert env.agents == []


def test_env_rejects_bad_env_options(case):
    with pytest.raises(InvalidOptionError, match="terminate"):
        make_env(case, illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="rgb_array"):
        make_env(case, render_mode="video")  # rgb_array is a render mode since issue 21


# --- AEC env: hardened inputs, copies, fixed infos (issue 19) -------------------------------------------


def _legal_action(env) -> int:
    return int(np.flatnonzero(env.last()[0]["action_mask"])[0])


@pytest.mark.parametrize("mode", ["terminate", "raise"])
def test_aec_bad_action_is_an_error_in_every_mode(case, mode):
    """Anything that is not one integer in [0, num_actions) raises, names the action and the range, and
    changes nothing, whatever ``illegal_action`` says; numpy integers and 0-d arrays are actions."""
    env = make_env(case, illegal_action=mode)
    env.reset(seed=0)
    n_actions = env.action_space(env.agent_selection).n
    legal = _legal_action(env)
    before, agent = env.unwrapped.state.to_dict(), env.agent_selection
    not_integers = [None, 2.0, np.float32(legal), "3", True, np.bool_(True), np.array([legal, legal]), [legal]]
    for bad in not_integers:
        with pytest.raises(TypeError, match=rf"\[0, {n_actions}\)"):
            env.step(bad)
    for bad in (-1, n_actions, np.int64(n_actions)):
        with pytest.raises(IllegalActionError, match=rf"action {bad} is out of range \[0, {n_actions}\)"):
            env.step(bad)
    assert env.unwrapped.state.to_dict() == before and env.agent_selection == agent
    assert not any(env.terminations.values()) and env.rewards[agent] == 0
    for form in (np.int64, np.int32, np.array):  # what SB3, RLlib, Tianshou and TorchRL hand in
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        decisions = env.unwrapped.state.decisions
        env.step(form(_legal_action(env)))
        assert env.unwrapped.state.decisions == decisions + 1


def test_aec_unknown_agent_is_named(case):
    env = make_env(case)
    env.reset(seed=0)
    for bad in ("player_99", 0, None, "Player_0", ["player_0"]):
        for accessor in (env.observe, env.observation_space, env.action_space, env.unwrapped.observe):
            with pytest.raises(KeyError, match=r"unknown agent .*the agents are 'player_0', 'player_1'") as info:
                accessor(bad)
            assert isinstance(info.value, ValueError) and repr(bad) in str(info.value)


def test_seed_must_be_a_non_negative_int(case):
    env = make_env(case)
    for bad in (True, np.bool_(False), 1.0, "1", [1]):
        with pytest.raises(TypeError, match=rf"seed.*{re.escape(repr(bad))}"):
            env.reset(seed=bad)
    with pytest.raises(ValueError, match="non-negative"):
        env.reset(seed=-1)
    with pytest.raises(TypeError):
        make_game(case).new_initial_state(True)
    env.reset(seed=np.int64(3))
    first = env.last()[0]["observation"]
    env.reset(seed=3)
    np.testing.assert_array_equal(env.last()[0]["observation"], first)


def _play_along(a, b, rng: np.random.Generator, steps: int) -> None:
    """Step two envs with the same actions, checking they stay identical."""
    for _ in range(steps):
        if not a.agents:
            break
        last_a, last_b = a.last(), b.last()
        assert a.agent_selection == b.agent_selection
        np.testing.assert_array_equal(last_a[0]["observation"], last_b[0]["observation"])
        np.testing.assert_array_equal(last_a[0]["action_mask"], last_b[0]["action_mask"])
        assert last_a[1:4] == last_b[1:4] and _flat_info(last_a[4]) == _flat_info(last_b[4])
        done = last_a[2] or last_a[3]
        action = None if done else int(rng.choice(np.flatnonzero(last_a[0]["action_mask"])))
        a.step(action)
        b.step(action)
    assert a.agents == b.agents


@pytest.mark.parametrize("copier", ["deepcopy", "pickle"])
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_aec_copy_mid_game_continues_like_the_original(case, copier, wrapped):
    env = make_env(case, illegal_action="raise")
    target = env if wrapped else env.unwrapped
    target.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(5):  # a few moves in
        if not target.terminations[target.agent_selection]:
            target.step(int(rng.choice(np.flatnonzero(target.last()[0]["action_mask"]))))
    copy_ = copy.deepcopy(target) if copier == "deepcopy" else pickle.loads(pickle.dumps(target))
    assert type(copy_) is type(target)
    _play_along(target, copy_, np.random.default_rng(1), 150)
    target.reset()  # the seed source was copied too
    copy_.reset()
    np.testing.assert_array_equal(target.last()[0]["observation"], copy_.last()[0]["observation"])


def _flat_info(info: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in info.items():
        if isinstance(value, dict):
            flat.update(_flat_info(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _info_signature(info: dict) -> dict:
    """key -> (shape, kind) of every (nested) info value; every value must be numeric or bool."""
    signature = {}
    for key, value in _flat_info(info).items():
        array = np.asarray(value)
        assert array.dtype.kind in "biuf", f"info[{key!r}] = {value!r} is not numeric (Tianshou stores infos as arrays)"
        signature[key] = (array.shape, "b" if array.dtype.kind == "b" else "number")
    return signature


def test_aec_infos_have_fixed_numeric_shapes_from_the_first_step(case):
    """Tianshou's buffer stores infos as arrays: the same keys and shapes on every step for every agent, from
    reset on, after a natural end, a truncation and an illegal-action end alike."""
    expected = None

    def check(env):
        nonlocal expected
        for agent in env.agents:  # the agents still in (PettingZoo drops an agent's info once it is done)
            signature = _info_signature(env.infos[agent])
            expected = expected or signature
            assert signature == expected, f"{agent}: info keys/shapes changed"

    rng = np.random.default_rng(0)
    for options in ({}, {"max_decisions": 3}):
        env = make_env(case, **options)
        for game in range(2):
            env.reset(seed=game)
            check(env)
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                check(env)
    env = make_env(case)
    env.reset(seed=0)
    with pytest.warns(IllegalActionWarning):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0]))
    check(env)
