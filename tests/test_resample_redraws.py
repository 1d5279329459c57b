"""Determinisations that really redraw (issue 31): ``resample_hidden(seat)`` over many seeds.

The leak checks of ``test_conformance.py`` and ``test_views.py`` compare a seat's observation or view
with the same on ``resample_hidden(seat)``: they are only as strong as what ``resample_hidden`` chooses
to redraw. Here the independent oracle of ``tests/knowledge/`` decides instead. For positions of every
game, player count and variant (the ability choice of Dead Man's Draw, votes, accusations, picks and
gives among them), and for each seat: every determinisation keeps all the seat knows
(``known_projection``), and over many seeds every hidden item the seat cannot know is redrawn so that
each identity it could hold shows up (``hidden_slots``; DMD-910/911, PSM-902, TOR-901/904/912,
MCH-901..906).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from knowledge import oracle_for, walk
from test_leak_oracle import _in_window, make_game, window_chooser

SEEDS = 200


def probe_positions(game, seed: int = 33_000):
    """(state, oracle) at the first window decision with a hidden choice pending, mid-game and late game."""
    trail = []
    first_window = None
    for state, _action, oracle in walk(game, oracle_for(game.game_id), seed, window_chooser):
        snapshot = (state.clone(), _frozen(oracle))
        trail.append(snapshot)
        if first_window is None and _in_window(state) and len(trail) > 1:
            first_window = snapshot
    picks = [trail[len(trail) // 2], trail[(len(trail) * 9) // 10]]
    return ([first_window] if first_window else []) + picks


def _frozen(oracle):
    import copy

    return copy.deepcopy(oracle)


def _values(value) -> set:
    return set(value) if isinstance(value, tuple) else {value}


def check_redraws(state, oracle, seat: int, seeds: int = SEEDS) -> int:
    """Every determinisation keeps what ``seat`` knows; each hidden slot takes every possible identity."""
    slots = oracle.hidden_slots(state, seat)
    known = oracle.known_projection(state, seat)
    seen: dict[str, set] = {name: set() for name in slots}
    for k in range(seeds):
        redrawn = state.resample_hidden(seat, np.random.default_rng(k))
        assert oracle.known_projection(redrawn, seat) == known, f"resample_hidden({seat}) changed what the seat knows"
        for name, values in oracle.hidden_slots(redrawn, seat).items():
            if name in seen:
                seen[name] |= _values(values[0])
    for name, (value, possible) in slots.items():
        missing = set(possible) - seen[name]
        # a fair redraw may miss an identity of a big pool by chance: allow four times the expected
        # number of misses, plus one, when that number is not negligible (never a slot left as it was)
        draws = seeds * len(_values(value))
        expected = len(possible) * (1 - 1 / len(possible)) ** draws
        allowed = math.ceil(4 * expected) + 1 if expected > 0.05 else 0
        assert (len(seen[name]) > 1 or len(possible) == 1) and len(missing) <= allowed, (
            f"resample_hidden({seat}) never puts {sorted(missing)[:6]} in {name}: it is not redrawn"
        )
    return len(slots)


def test_resample_hidden_redraws_everything_hidden_and_keeps_everything_known(case):
    game = make_game(case)
    slots = 0
    for state, oracle in probe_positions(game):
        seats = range(game.num_players) if game.num_players <= 4 else (state.current_player(), 0)
        for seat in seats:
            slots += check_redraws(state, oracle, seat)
    assert slots > 0, "no hidden item was probed"


def test_the_dmd_ability_choice_window_is_probed():
    """DMD-911: between the first and the last ability choice, the next chooser's determinisation must
    redraw the earlier choosers' kept ability (the mutation M2 of issue 31 stops doing that)."""
    game = make_game(("dead_mans_draw_v0", 3, "base", {}))
    state = game.new_initial_state(7)
    oracle = oracle_for(game.game_id)(state)
    before = state.clone()
    action = state.legal_actions()[0]
    state.apply_action(action)
    oracle.update(before, action, state)
    assert not state.revealed and state.kept[0] >= 0
    slots = oracle.hidden_slots(state, 1)
    assert "seat 0's kept ability (DMD-911)" in slots
    check_redraws(state, oracle, 1)


@pytest.mark.slow
def test_resample_redraws_at_many_positions(case):
    game = make_game(case)
    for seed in range(5):
        for state, oracle in probe_positions(game, 330_000 + seed):
            for seat in range(game.num_players):
                check_redraws(state, oracle, seat)


def test_the_redraw_check_catches_a_determinisation_that_keeps_the_kept_abilities(monkeypatch):
    """The check can fail: with the mutation M2 of issue 31 (the other seats' kept abilities are not
    redrawn with their pairs), the ability-choice probe above fails."""
    from pirate_envs.games.dead_mans_draw.game import DmdState

    honest = DmdState._resample_hidden

    def keeps_kept(self, seat, rng):
        real = list(self.kept)
        honest(self, seat, rng)
        self.kept = [k if t == seat or k < 0 else real[t] for t, k in enumerate(self.kept)]

    monkeypatch.setattr(DmdState, "_resample_hidden", keeps_kept)
    with pytest.raises(AssertionError, match="kept ability"):
        test_the_dmd_ability_choice_window_is_probed()
