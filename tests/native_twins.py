"""The twin harness: a compiled engine played action by action against the Python engine (the oracle).

``play_twins(game_cls, num_players, options, seeds, ...)`` starts both engines from the same seed and plays
random legal actions (drawn from a generator of the harness, not of the games), comparing after every action:
the seat to act, the legal actions, every seat's observation, the scores; every ``dict_every`` actions the whole
``to_dict`` (generator included), ``resample_hidden`` of the acting seat from the same source, the heuristic
bot's decision (where the Python bot decides without a draw) and the action features; at the end returns and
winners. A mismatch raises ``AssertionError`` naming the game, seed, decision and what differed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pirate_envs.core.native.backend import NativeState, native_game, to_native
from pirate_envs.core.registry import env_module
from pirate_envs.core.rng import Rng


def _where(game: Any, seed: int, decision: int) -> str:
    return f"{game.game_id} {game.num_players}p {dict(game.options)} seed {seed} decision {decision}"


def compare(python: Any, native: NativeState, where: str, observe: bool = True) -> None:
    """The per-action comparison of two states of the same position."""
    assert native.current_player() == python.current_player(), f"{where}: current_player"
    assert native.is_terminal() == python.is_terminal(), f"{where}: is_terminal"
    assert native.legal_actions() == python.legal_actions(), f"{where}: legal_actions"
    assert np.array_equal(native.legal_action_mask(), python.legal_action_mask()), f"{where}: legal mask"
    assert native.scores() == python.scores(), f"{where}: scores {native.scores()} != {python.scores()}"
    if observe:
        for seat in range(python.num_players):
            a, b = native.observation(seat), python.observation(seat)
            if not np.array_equal(a, b):
                bad = np.flatnonzero(a != b)[:8].tolist()
                raise AssertionError(f"{where}: observation of seat {seat} differs at {bad}: {a[bad]} != {b[bad]}")


def compare_dicts(python: Any, native: NativeState, where: str) -> None:
    got, want = native.to_dict(), python.to_dict()
    if got != want:
        diff = [k for k in want["fields"] if got["fields"].get(k) != want["fields"][k]]
        top = [k for k in want if k != "fields" and got.get(k) != want[k]]
        raise AssertionError(f"{where}: to_dict differs in {top} fields {diff}")


def play_twins(
    game_cls: type,
    num_players: int,
    options: dict[str, Any],
    seeds: range | list[int],
    dict_every: int = 7,
    observe: bool = True,
    resample: bool = True,
    heuristic: bool = True,
    features: bool = True,
) -> int:
    """Play every seed on both engines (see the module docstring); returns the decisions compared."""
    python_game = game_cls(num_players=num_players, **options)
    native_game_ = game_cls(num_players=num_players, backend="native", **options)
    bot = env_module(python_game.game_id).HeuristicPolicy(python_game) if heuristic else None
    engine = native_game(native_game_)
    decisions = 0
    for seed in seeds:
        python = python_game.new_initial_state(seed)
        native = native_game_.new_initial_state(seed)
        pick = np.random.default_rng(seed + 7919)
        step = 0
        while True:
            where = _where(python_game, seed, step)
            compare(python, native, where, observe)
            if step % dict_every == 0:
                compare_dicts(python, native, where)
                if not python.is_terminal():
                    _compare_deep(python, native, where, resample, bot, features, engine, seed + step)
            if python.is_terminal():
                break
            legal = python.legal_actions()
            action = legal[int(pick.integers(len(legal)))]
            python.apply_action(action)
            native.apply_action(action)
            step += 1
        compare_dicts(python, native, _where(python_game, seed, step))
        assert native.returns() == python.returns(), f"{where}: returns {native.returns()} != {python.returns()}"
        assert native.winners() == python.winners(), f"{where}: winners"
        assert native.is_truncated() == python.is_truncated(), f"{where}: truncated"
        decisions += step
    return decisions


def _compare_deep(
    python: Any, native: NativeState, where: str, resample: bool, bot: Any, features: bool, engine: Any, source: int
) -> None:
    seat = python.current_player()
    if resample:
        for viewer in {seat, (seat + 1) % python.num_players}:
            a = python.resample_hidden(viewer, Rng(source))
            b = native.resample_hidden(viewer, Rng(source))
            compare_dicts(a, b, f"{where}: resample_hidden({viewer})")
    # the native twin of the Python state is the same state
    compare_dicts(python, to_native(python), f"{where}: to_native")
    obs, mask = python.observation(seat), python.legal_action_mask()
    if bot is not None:
        first = int(bot.act(obs, mask, np.random.default_rng(1)))
        if first == int(bot.act(obs, mask, np.random.default_rng(2))):  # the bot decided without a draw
            got = native.heuristic_action(Rng(3))
            assert got == first, f"{where}: heuristic chose {got}, the Python bot {first}"
    if features and engine.has_features and engine.num_features:
        want = python.game.action_features(obs, mask)
        out = np.zeros(want.shape, dtype=np.float32)
        engine.features(obs, mask, out)
        assert np.array_equal(out, want), f"{where}: action features differ"
