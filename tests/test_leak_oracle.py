"""Leak tests driven by an independent knowledge oracle, at every decision (issue 31).

For every game, player count and rule variant (``conftest.CASES``), whole games are played and at
every decision, for every seat and for the spectator, the oracle of ``tests/knowledge/`` builds a
*twin*: the same position with every identity that viewer has not legitimately seen relabelled
(rules' Section 9 tables: DMD-901..913, PSM-910..926, TOR-901..916, MCH-901..917). Everything the
viewer is shown must be the same on both: its observation (and its action mask when it acts), its
table view (what the arena and the replays draw), its text render, and the text of the action about
to be played. Unlike ``test_views.py``, which compares with ``resample_hidden``, the oracle decides
on its own what is hidden, so a bug in the engine's visibility code cannot hide itself.

Short windows are reached on purpose: Dead Man's Draw's ability choice is every game's first
decisions, potsm accusations, Tortuga votes and Madame Ching's picks and team gives are steered into
by choosers that prefer those actions. The arena's snapshots and a replay's steps are checked to be
built from exactly these checked pieces for the viewer, and scanned for hidden ability names.
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest
from knowledge import oracle_for, random_chooser, walk

from pirate_envs.core.registry import game_class

GAMES_PER_CASE = 1
# default tier: every decision of Dead Man's Draw and potsm games; every 3rd of Tortuga's and every 5th of
# Madame Ching's longer games (their windows are checked at every decision below; the slow tier checks all)
EVERY = {"potsm_v0": 1, "dead_mans_draw_v0": 1, "tortuga_v0": 3, "madame_ching_v0": 5}


def _potsm_accuse(state) -> list[int]:
    from pirate_envs.games.potsm import actions as act

    return [a for a in state.legal_actions() if a >= act.ACCUSE_DISCARD_BASE]


def _tortuga_vote_openers(state) -> list[int]:
    from pirate_envs.games.tortuga.game import ACTION

    if state.phase != ACTION:
        return []
    opening = []
    for a in state.legal_actions():  # an action whose successor asks for votes
        nxt = state.clone()
        nxt.apply_action(a)
        if nxt.vote is not None:
            opening.append(a)
    return opening


def _mc_gives(state) -> list[int]:
    from pirate_envs.games.madame_ching import actions as act

    return [a for a in state.legal_actions() if a in (act.GIVE_TO_PARTNER, act.USE_COMBAT)]


def _in_window(state) -> bool:
    """The short windows of issue 31: a secret choice is pending or being resolved."""
    gid = state.game.game_id
    if gid == "dead_mans_draw_v0":
        from pirate_envs.games.dead_mans_draw.game import ABILITY_CHOICE, LOCKER_TARGET

        return state.phase in (ABILITY_CHOICE, LOCKER_TARGET) or not state.revealed
    if gid == "potsm_v0":
        return bool(_potsm_accuse(state)) or state.pending_accusation is not None
    if gid == "tortuga_v0":
        from pirate_envs.games.tortuga.game import DECLARE, MAP_GIVE, SPY_TARGET, VOTE

        return state.phase in (VOTE, DECLARE, SPY_TARGET, MAP_GIVE)
    from pirate_envs.games.madame_ching import actions as act

    return state.phase in (act.SELECT, act.ENC_GIFT, act.COMBAT_GIVE, act.TEAM_GIVE, act.TEAM_RETURN, act.TAKE)


WINDOW_ACTIONS = {
    "potsm_v0": _potsm_accuse,
    "tortuga_v0": _tortuga_vote_openers,
    "madame_ching_v0": _mc_gives,
    "dead_mans_draw_v0": lambda state: [],
}


def window_chooser(state, rng: random.Random) -> int:
    """Random play that steers into the game's short windows (accusations, votes, gives) when it can."""
    preferred = WINDOW_ACTIONS[state.game.game_id](state)
    if preferred and rng.random() < 0.7:
        return rng.choice(preferred)
    return rng.choice(state.legal_actions())


def make_game(case):
    env_id, n, _, options = case
    return game_class(env_id)(num_players=n, **options)


def assert_same_for(state, twin, seat, actor, builder) -> None:
    """Everything ``seat`` (None: the spectator) is shown is equal on ``state`` and ``twin``."""
    who = "the spectator" if seat is None else f"seat {seat}"
    assert state.table_view(seat) == twin.table_view(seat), f"the table view of {who} shows what it cannot know"
    assert state.render(seat) == twin.render(seat), f"the text render of {who} shows what it cannot know"
    if seat is not None:
        assert np.array_equal(state.observation(seat), twin.observation(seat)), f"the observation of {who} leaks"
        if seat == actor:
            assert np.array_equal(state.legal_action_mask(), twin.legal_action_mask()), f"{who}'s action mask leaks"


def check_game(game, seed: int, chooser=random_chooser, every: int = 1, window_only: bool = False) -> tuple[int, int]:
    """Check every ``every``-th decision of one game (every decision of a window); returns (decisions
    checked, twins that differed from their state)."""
    builder = type(game).view_builder()
    oracle_cls = oracle_for(game.game_id)
    rng = random.Random(seed)
    checked = differed = 0
    for k, (state, action, oracle) in enumerate(walk(game, oracle_cls, seed, chooser)):
        if (window_only and not _in_window(state)) or (not window_only and k % every):
            continue
        actor = state.current_player()
        nxt = state.clone()
        nxt.apply_action(action)
        learned = copy.deepcopy(oracle)
        learned.update(state, action, nxt)
        for seat in (None, *range(game.num_players)):
            twin, _ = oracle.twin(state, seat, rng)
            if seat is not None:
                assert oracle.known_projection(twin, seat) == oracle.known_projection(state, seat)
            differed += twin.to_dict() != state.to_dict()
            assert_same_for(state, twin, seat, actor, builder)
            # the text of the action may tell what the action itself shows this viewer
            twin, move = oracle.twin(state, seat, rng, after=(nxt, learned))
            said = builder.describe_action(state, actor, action, seat)
            assert said == builder.describe_action(twin, actor, move(action), seat), (
                f"the text of {action} leaks: {said!r}"
            )
        checked += 1
    return checked, differed


def test_every_decision_shows_each_seat_only_what_it_knows(case):
    game = make_game(case)
    checked = differed = 0
    for g in range(GAMES_PER_CASE):
        c, d = check_game(game, 31_000 + g, every=EVERY[game.game_id])
        checked += c
        differed += d
    assert checked > 0 and differed > 0, "the twins never differed: the check would catch nothing"


def test_windows_are_checked_at_every_decision(case):
    """DMD's ability choice (DMD-304, DMD-911), potsm's accusations (PSM-914), Tortuga's votes,
    Spyglass and map gifts (TOR-912, TOR-914, TOR-916), Madame Ching's picks, Combat and team gives
    (MCH-904, MCH-911, MCH-913): games steered into them, every decision inside them checked."""
    game = make_game(case)
    if game.game_id == "dead_mans_draw_v0" and not game.characters:
        pytest.skip("no ability cards without characters (DMD-802)")
    checked, _ = check_game(game, 32_000, chooser=window_chooser, window_only=True)
    assert checked > 0, "the window was never reached"


@pytest.mark.slow
def test_every_decision_of_many_games(case):
    game = make_game(case)
    for g in range(20):
        check_game(game, 310_000 + g)


ARENA_CASES = [
    ("dead_mans_draw_v0", 3, {}),
    ("potsm_v0", 3, {"move_cards_in_hand": True}),
    ("tortuga_v0", 4, {}),
    ("madame_ching_v0", 4, {"team_mode": True}),
]


def _ability_names_unknown_to(state, viewer) -> list[str]:
    """Dead Man's Draw ability names ``viewer`` has not seen (DMD-910..912): none may show to it."""
    from pirate_envs.games.dead_mans_draw.cards import ABILITY_NAMES, ability_pool

    seen = set(state.dealt[viewer]) if viewer is not None else set()
    if state.revealed:
        seen.update(a for a in state.kept if a >= 0)
    return [ABILITY_NAMES[a] for a in ability_pool(state.game.mermaid_variant) if a not in seen]


@pytest.mark.parametrize("env_id,n,options", ARENA_CASES, ids=[c[0] for c in ARENA_CASES])
def test_arena_and_replay_snapshots_are_the_checked_pieces_of_their_viewer(env_id, n, options):
    """An arena snapshot (live or replayed) for a viewer holds exactly that viewer's table view and that
    viewer's text of every move, the pieces the tests above check; in Dead Man's Draw no ability name
    the viewer has not seen appears anywhere in it (DMD-910..912)."""
    from pirate_envs.arena.sessions import MAX_LOG_SENT, Match, ReplayMatch, Seat
    from pirate_envs.core.replay import record_game, replay_states
    from pirate_envs.drawing.table import naming

    game = game_class(env_id)(num_players=n, **options)
    builder = type(game).view_builder()
    rng = random.Random(34)
    state = game.new_initial_state(34)
    actions = []
    while not state.is_terminal() and len(actions) < 120:
        actions.append(window_chooser(state, rng))
        state.apply_action(actions[-1])
    replay = record_game(game, 34, actions, ["random"] * n)
    states = [s.clone() for s in replay_states(replay)]
    match = ReplayMatch(replay, "leak test")
    live = Match(env_id, game, [Seat("random", policy=object()) for _ in range(n)], 34)
    games = {"replay": match, "live game": live}  # each names its seats in every text (``naming``)
    texts = {(where, v): [] for where in games for v in (None, *range(n))}
    for step, state in enumerate(states):
        if step:
            seat, action = states[step - 1].current_player(), actions[step - 1]
            for (where, v), told in texts.items():
                with naming(games[where].names):
                    told.append(builder.describe_action(states[step - 1], seat, action, v))
            live._apply(seat, action)
        if step % 4 and not (env_id == "dead_mans_draw_v0" and _in_window(state)):
            continue
        for viewer in (None, *range(n)):
            for snap, where in ((match.snapshot(viewer, step), "replay"), (live.snapshot(viewer), "live game")):
                said = texts[where, viewer]
                assert [line["text"] for line in snap["log"]] == said[-MAX_LOG_SENT:], f"the {where}'s log leaks"
                with naming(games[where].names):
                    view = state.table_view(viewer).to_dict()
                shown = dict(snap["view"])
                if not view["last_action"]:
                    assert shown.pop("last_action") == (said[-1] if said else "")
                    view.pop("last_action")
                assert shown == view, f"the {where} shows viewer {viewer} another table than its own"
                if env_id == "dead_mans_draw_v0" and not state.is_terminal():
                    blob = json.dumps(snap)
                    for name in _ability_names_unknown_to(state, viewer):
                        assert name not in blob, f"the {where} shows {viewer} the ability {name} (DMD-910..912)"


def test_the_oracle_check_catches_a_view_that_shows_another_seats_pirates(monkeypatch):
    """The check can fail: a potsm view that draws every seat's pirates face up is caught (PSM-912)."""
    from pirate_envs.games.potsm import view as potsm_view

    honest = potsm_view._pirate_zone
    monkeypatch.setattr(potsm_view, "_pirate_zone", lambda state, seat, viewer: honest(state, seat, seat))
    with pytest.raises(AssertionError, match="table view"):
        check_game(make_game(("potsm_v0", 3, "base", {})), 31_000)
