"""The drawn table (``State.table_view``) shows each viewer only what it may see, for every game.

Like the observation no-leak test of ``test_conformance.py``: for sampled states of every registered
game, player count and rule variant, a seat's view is equal on the state and on
``state.resample_hidden(seat)`` (a state with everything hidden from that seat redrawn), and the
spectator's view (public information only) is equal on ``state.resample_hidden(q)`` for every seat
``q``. The text of the last action (``describe_action``) is checked the same way. Finished games
are left out: the end of a game reveals what its rules reveal (the final scores and the cards
behind them), which a determinisation of a finished game does not keep. A new game in
``pirate_envs.ENV_IDS`` is covered by these tests as soon as it has a ``view.py``.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from pirate_envs.core.registry import game_class
from pirate_envs.drawing.table import Card, TableView

GAMES_PER_CASE = 3
PROBES_PER_GAME = 8


def make_game(case):
    env_id, n, _, options = case
    return game_class(env_id)(num_players=n, **options)


def sampled_states(game, games: int = GAMES_PER_CASE, probes: int = PROBES_PER_GAME):
    """(state, action about to be played) pairs spread over a few random games (action None at the end)."""
    for g in range(games):
        state = game.new_initial_state(3000 + g)
        rng = random.Random(g)
        trajectory = []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            trajectory.append((state.clone(), action))
            state.apply_action(action)
        trajectory.append((state, None))
        step = max(1, len(trajectory) // probes)
        yield from trajectory[::step]
        yield trajectory[-1]


def hidden_free(view: TableView) -> bool:
    return all(not card.label and not card.detail for zone in view.zones for card in zone.cards if card.hidden)


def test_views_do_not_leak_through_resample_hidden(case):
    """A seat's view and the spectator's view are unchanged when what they cannot see is redrawn."""
    game = make_game(case)
    n = game.num_players
    builder = type(game).view_builder()
    for k, (state, action) in enumerate(sampled_states(game)):
        spectator = state.table_view(None)
        assert spectator.viewer is None and spectator.legal == ()
        assert hidden_free(spectator)
        if state.is_terminal():
            continue  # the end reveals what the rules reveal (final scores, PSM-701, TOR-703)
        actor = state.current_player()
        for seat in range(n):
            resampled = state.resample_hidden(seat, np.random.default_rng(k * 10 + seat))
            mine = state.table_view(seat)
            assert mine == resampled.table_view(seat), f"the view of seat {seat} leaks hidden information"
            assert spectator == resampled.table_view(None), f"the spectator's view leaks seat {seat}'s secrets"
            if action is not None:
                for viewer in (None, seat):
                    if viewer == actor:
                        continue
                    said = builder.describe_action(state, actor, action, viewer)
                    assert said == builder.describe_action(resampled, actor, action, viewer)


def test_view_shapes(case):
    """Every view names its game, lists one line per seat, lists legal actions only for the acting
    viewer (exactly the engine's legal actions) and round-trips through JSON."""
    game = make_game(case)
    n = game.num_players
    for state, _ in sampled_states(game, games=1, probes=5):
        for viewer in (None, *range(n)):
            view = state.table_view(viewer)
            assert view.game == game.game_id and len(view.players) == n and view.zones
            if viewer is not None and not state.is_terminal() and state.current_player() == viewer:
                assert [a.action for a in view.legal] == state.legal_actions()
                assert all(a.label for a in view.legal)
            else:
                assert view.legal == ()
            assert bool(view.result) == state.is_terminal()
            data = json.loads(json.dumps(view.to_dict()))
            assert TableView.from_dict(data) == view


def test_table_view_rejects_a_seat_that_does_not_exist(case):
    game = make_game(case)
    state = game.new_initial_state(0)
    with pytest.raises(ValueError, match="seat must be in"):
        state.table_view(game.num_players)
    with pytest.raises(TypeError):
        state.table_view("0")


def test_face_down_card_carries_nothing():
    card = Card.face_down("pirate")
    assert card.hidden and card.label == "" and card.detail == ""


def test_the_leak_check_catches_a_view_that_shows_another_seats_pirates(monkeypatch):
    """The check above can fail: a potsm view that draws every seat's pirates face up is caught."""
    from pirate_envs.games.potsm import view as potsm_view

    honest = potsm_view._pirate_zone
    monkeypatch.setattr(potsm_view, "_pirate_zone", lambda state, seat, viewer: honest(state, seat, seat))
    with pytest.raises(AssertionError, match="leaks"):
        test_views_do_not_leak_through_resample_hidden(("potsm_v0", 3, "base", {}))


def test_mch_903_hands_stay_hidden_after_the_end():
    """MCH-903: a navigation hand is shown card by card only as cards are played or placed; the end of
    the game reveals the scores, not the hands (unlike potsm's pirates, PSM-701, or Tortuga's nations
    and hoards, TOR-703), so the finished table still shows other seats' hands face down."""
    game = game_class("madame_ching_v0")(num_players=3)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    for viewer in (None, 0, 1, 2):
        view = state.table_view(viewer)
        for zone in view.zones:
            if zone.owner is not None and zone.owner != viewer and zone.title.endswith("hand and skills"):
                for card in zone.cards:  # face down, known to the viewer (MCH-917), or a public skill card
                    known = card.label.endswith("(you know it)")
                    assert card.hidden or known or "skill" in card.kind, (viewer, card)
