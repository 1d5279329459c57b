"""The compiled twins of the heuristic bots (``pirate_envs/games/*/native/bot.c``) against their Python references.

Dead Man's Draw's bot (``dmd_act``) and its action features (``dmd_features``) are compared with
``HeuristicPolicy.act_python`` and ``action_features_python`` at every decision of games in which seats
follow the bot or play at random, over each player count and variant (DMD-701's scoring rules, DMD-805
Sudden Death, DMD-809 Undertow, Uncharted Waters' busts on equal values, the Mermaid variant's picks), with
peeked cards (DMD-1071) and eliminated seats among them, and on observations edited to reach what random
games seldom do. Tortuga 1667's bot (``tor_act``) is compared with its ``act_python`` the same way, over
every player count, the options variant and each Armada depth, on edited observations, and across the
exact inputs where the Python bot's choices change (its friend estimate and its draw rule). The
fingerprint tests (tests/test_heuristic_fingerprints.py) pin both bots' decisions through the twins as well.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import pirate_envs.core.native as native_module
from pirate_envs.core.native import NATIVE
from pirate_envs.core.registry import game_class
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.action_features import CHANNELS, SCALE, action_features, action_features_python
from pirate_envs.games.dead_mans_draw.actions import PHASE_NAMES
from pirate_envs.games.dead_mans_draw.cards import SUDDEN_DEATH, VARIANTS
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy
from pirate_envs.games.dead_mans_draw.observation import ROW_SCALE, field_slices

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

MARGINS = (0.0, -4.0, 2.5)
PLAYED_PHASES = set(range(len(PHASE_NAMES) - 1))  # every phase but GAME_OVER has a rule


def dmd_decisions(games: int, first: int = 0):
    """``(game, observation, mask)`` at every decision of ``games`` games: each player count with each
    variant, the Mermaid variant in every other block of seven; seats follow the bot or pick at random."""
    for index in range(first, first + games):
        game = game_class("dead_mans_draw_v0")(
            num_players=2 + index % 3,
            variant=VARIANTS[index % len(VARIANTS)],
            mermaid_variant=(index // 7) % 2 == 1,
        )
        bot, pick, rng = HeuristicPolicy(game), random.Random(index), np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            observation, mask = state.observation(state.current_player()), state.legal_action_mask()
            yield game, observation, mask
            follow = pick.random() < 0.6
            state.apply_action(bot.act(observation, mask, rng) if follow else pick.choice(state.legal_actions()))


def compiled_features(game, observation, mask) -> np.ndarray:
    out = np.zeros((game.num_actions, CHANNELS), dtype=np.float32)
    NATIVE.dmd_features(out, observation, mask, HeuristicPolicy(game).native_spec, SCALE)
    return out


def assert_twins_agree(bots: list[HeuristicPolicy], observation: np.ndarray, mask: np.ndarray, where: str) -> None:
    """Every bot's compiled action equals its Python one (the random pick aside), and the features bit for bit."""
    reader = bots[0]
    for bot in bots:
        compiled = NATIVE.dmd_act(observation, mask, bot.native_spec, bot.margin)
        if compiled is None:  # the phases the bot picks at random in
            bot._read(observation)
            assert bot.phase not in PLAYED_PHASES or mask.sum() == 1, where
            continue
        assert compiled == bot.act_python(observation, mask, np.random.default_rng(0)), where
    reference = action_features_python(observation, mask, reader)
    features = compiled_features(reader.game, observation, mask)
    differ = np.flatnonzero(features.view(np.uint32) != reference.view(np.uint32))
    assert differ.size == 0, f"{where}: feature entries {differ.tolist()} differ"


@needs_native
def test_dmd_compiled_bot_and_features_equal_the_reference():
    seen = {"peeked top": 0, "peeked deeper": 0, "sudden death 150": 0}
    phases, variants, bots = set(), set(), {}
    decisions = 0
    for game, observation, mask in dmd_decisions(126):
        key = (game.num_players, game.options["variant"], game.options["mermaid_variant"])
        if key not in bots:
            bots[key] = [HeuristicPolicy(game, margin=m) for m in MARGINS]
        assert_twins_agree(bots[key], observation, mask, str(key))
        reader = bots[key][0]
        reader._read(observation)
        decisions += 1
        if mask.sum() >= 2:
            phases.add(reader.phase)
        variants.add(reader.variant)
        seen["peeked top"] += reader.known[0] >= 0
        seen["peeked deeper"] += max(reader.known[1:]) >= 0
        seen["sudden death 150"] += reader.variant == SUDDEN_DEATH and reader._score_mine(reader.row) >= 150
    assert variants == set(range(len(VARIANTS)))
    assert all(count > 0 for count in seen.values()), seen
    missing = sorted(PHASE_NAMES[p] for p in PLAYED_PHASES - phases)
    assert not missing, f"phases never decided with a choice: {missing}"
    assert decisions > 7000


@needs_native
def test_dmd_twin_on_edited_observations_equals_the_reference():
    """Cases random games seldom reach, made by editing real observations: a card peeked deeper in the
    pile but not on top (left out of the next draw, DMD-1071); the anchor marker a Rake leaves in the row
    (DMD-811; it protects what lies left of it, DMD-514a) at every slot, ties with a card's position
    included; the scores edited so that seats tie for the lead (the Cannon's doubled weight) or their
    points round half to even; and each opponent eliminated in turn (DMD-809)."""
    checked = 0
    for game, observation, mask in dmd_decisions(42, first=200):
        at = {name: sl.start for name, sl in field_slices(game.num_players).items()}
        reader = HeuristicPolicy(game, margin=-1.0)
        reader._read(observation)
        if mask.sum() < 2:
            continue
        edits = []
        if reader.phase == act.DRAW_OR_STOP and reader.known[0] < 0 and len(reader.pile) >= 3:
            for depth in (1, 2):
                edited = observation.copy()
                edited[at["known_top"] + 62 * depth + reader.pile[depth]] = 1.0
                edits.append(edited)
        for slot in range(len(reader.row) + 1):
            for tie in (0.0, 0.5):
                edited = observation.copy()
                edited[at["marker_position"]] = (slot + 0.5 + tie) / ROW_SCALE
                edits.append(edited)
        for scores in ([0.2] * game.num_players, [0.125, 0.135, 0.145, 0.155][: game.num_players]):
            edited = observation.copy()
            edited[at["scores"] : at["scores"] + game.num_players] = scores
            edits.append(edited)
        for seat in range(1, game.num_players):  # DMD-809: an eliminated seat no longer leads
            edited = observation.copy()
            edited[at["eliminated"] + seat] = 1.0
            edits.append(edited)
        for edited in edits:
            assert_twins_agree([reader], edited, mask, PHASE_NAMES[reader.phase])
            checked += 1
    assert checked > 1000


@needs_native
def test_dmd_bot_and_features_go_through_the_twin_and_agree_with_python(monkeypatch):
    """With the module the bot's decisions and the features come from the twin (the Python reader is not
    consulted); switched off, the Python code gives the same actions and features."""
    import pirate_envs.games.dead_mans_draw.action_features as features_module

    decisions = [(g, o, m) for g, o, m in dmd_decisions(6) if m.sum() >= 2][:300]
    calls = []
    monkeypatch.setattr(HeuristicPolicy, "_read", lambda self, obs: calls.append(1))
    rng = np.random.default_rng(0)
    compiled = [(HeuristicPolicy(g).act(o, m, rng), action_features(o, m, HeuristicPolicy(g))) for g, o, m in decisions]
    assert not calls
    monkeypatch.undo()
    monkeypatch.setattr(native_module, "NATIVE", None)  # the bot's twin (twin_decides)
    monkeypatch.setattr(features_module, "NATIVE", None)
    for (game, observation, mask), (action, features) in zip(decisions, compiled, strict=True):
        assert HeuristicPolicy(game).act(observation, mask, rng) == action
        np.testing.assert_array_equal(action_features(observation, mask, HeuristicPolicy(game)), features)
    assert len({action for action, _ in compiled}) > 10


@needs_native
def test_dmd_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    game, observation, mask = next((g, o, m) for g, o, m in dmd_decisions(2) if m.sum() >= 2 and m[act.DRAW])
    bot = HeuristicPolicy(game)
    as_float64, mask64 = observation.astype(np.float64), mask.astype(np.int64)
    for obs, msk in ((as_float64, mask), (observation[:-1], mask), (observation, mask64), (observation, mask[:-1])):
        with pytest.raises(TypeError, match=r"float32|one byte"):
            NATIVE.dmd_act(obs, msk, bot.native_spec, 0.0)
    with pytest.raises(ValueError, match="spec"):
        NATIVE.dmd_act(observation, mask, bot.native_spec[:-1], 0.0)
    with pytest.raises(ValueError, match="no legal action"):
        NATIVE.dmd_act(observation, np.zeros_like(mask), bot.native_spec, 0.0)
    wrong_out = np.zeros((game.num_actions, CHANNELS + 1), dtype=np.float32)
    with pytest.raises(TypeError, match="matrix"):
        NATIVE.dmd_features(wrong_out, observation, mask, bot.native_spec, SCALE)
    rng = np.random.default_rng(0)
    assert bot.act(as_float64, mask64, rng) == bot.act(observation, mask, rng)
    np.testing.assert_array_equal(
        action_features(as_float64, mask64, bot), action_features_python(observation, mask, HeuristicPolicy(game))
    )


# --- Tortuga 1667 (tor_act) ---------------------------------------------------------------------------------


class RecordingRng:
    """An rng that notes whether the bot drew from it (its random pick: a rule named a forbidden action)."""

    def __init__(self) -> None:
        self.used = False

    def integers(self, high: int) -> int:
        self.used = True
        return 0


TOR_VARIANTS = ({}, {"armada_depth": "bottom10", "wild_cooldown": True}, "options", {"armada_depth": "last"})


def tor_decisions(games: int, first: int = 0):
    """``(game, observation, mask)`` at every decision with a choice in ``games`` games: every player count
    (TOR-303) with the base rules, the options variant (public steals TOR-805, secret exile TOR-804, Wild
    cooldown TOR-803...) and each Armada depth (TOR-806); seats follow the bot or pick at random."""
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy as TortugaBot

    cls = game_class("tortuga_v0")
    for index in range(first, first + games):
        variant = TOR_VARIANTS[index // 8 % len(TOR_VARIANTS)]
        options = cls.variants[variant] if isinstance(variant, str) else variant
        game = cls(num_players=2 + index % 8, **options)
        bot, pick, rng = TortugaBot(game), random.Random(index), np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            seat = state.current_player()
            observation, mask = state.observation(seat), state.legal_action_mask()
            if mask.sum() >= 2:
                yield game, observation, mask
            follow = pick.random() < 0.7
            state.apply_action(bot.act(observation, mask, rng) if follow else pick.choice(state.legal_actions()))


def assert_tortuga_twin_agrees(bot, observation: np.ndarray, mask: np.ndarray, where: str) -> bool:
    """The compiled action equals the Python one; None exactly where the Python bot picks at random.
    Returns whether the Python bot picked at random."""
    rng = RecordingRng()
    reference = bot.act_python(observation, mask, rng)
    compiled = NATIVE.tor_act(observation, mask, bot.native_spec)
    assert (compiled is None) == rng.used, f"{where}: compiled {compiled}, Python {reference} (random: {rng.used})"
    assert compiled is None or compiled == reference, f"{where}: compiled {compiled}, Python {reference}"
    return rng.used


@needs_native
def test_tortuga_compiled_bot_equals_the_reference():
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy as TortugaBot
    from pirate_envs.games.tortuga.heuristic import _argmax

    bots, phases, counts = {}, set(), set()
    decisions = random_picks = inferred = 0
    for game, observation, mask in tor_decisions(64):
        key = (game.num_players, tuple(sorted(game.options.items())))
        bot = bots.setdefault(key, TortugaBot(game))
        info = bot._read(observation)
        where = f"{key} phase {info['phase']}"
        random_picks += assert_tortuga_twin_agrees(bot, observation, mask, where)
        phases.add(info["phase"])
        counts.add(game.num_players)
        inferred += any(0.0 < f < 1.0 and f != round(f, 1) for f in info["friend"])  # a TOR-901 guess moved by votes
        decisions += 1
    assert counts == set(range(2, 10))
    assert phases == set(range(14)), f"phases never decided with a choice: {set(range(14)) - phases}"
    assert decisions > 12_000 and inferred > 1000 and random_picks < decisions // 100
    assert _argmax([0.0, 2.0, 2.0]) == 1


@needs_native
def test_tortuga_twin_on_edited_observations_equals_the_reference():
    """Cases random games seldom reach, made by editing real observations: every other seat's nation
    hidden (the prior of TOR-303's composition) or revealed as mine or not, the vote and steal counts
    (vote_stats, the steal deltas of TOR-1004) pushed both ways, and equal wealth for every seat (ties
    broken by seat order in the steal, dispute and target choices)."""
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy as TortugaBot
    from pirate_envs.games.tortuga.observation import PLAYER_BLOCK
    from pirate_envs.games.tortuga.observation import field_slices as tortuga_slices

    checked = 0
    for game, observation, mask in tor_decisions(16, first=100):
        n = game.num_players
        sl = tortuga_slices(n)
        players, vs = sl["players"].start, sl["vote_stats"].start
        bot = TortugaBot(game)
        edits = []
        for nation in (-1, 0, 1, 2):
            edited = observation.copy()
            for k in range(1, n):
                block = players + k * PLAYER_BLOCK
                edited[block + 17 : block + 21] = 0.0
                edited[block + (17 if nation < 0 else 18 + (nation + k) % 3)] = 1.0
            edits.append(edited)
        for sign in (1.0, -1.0):
            edited = edits[0].copy()
            edited[vs : vs + 2 * n * n] = np.where(np.arange(2 * n * n) % 3 == 0, 2.0, 0.0) * max(sign, 0.0)
            edited[vs + 2 * n * n] = 3.0
            for k in range(1, n):
                edited[players + k * PLAYER_BLOCK + 23] = -float(k % 3) if sign < 0 else 0.0
            edits.append(edited)
        edited = edits[0].copy()
        for k in range(n):
            block = players + k * PLAYER_BLOCK
            edited[block + 21 : block + 26] = (2.0, 0.0, 0.0, 0.0, 0.0)
        edits.append(edited)
        for edited in edits:
            assert_tortuga_twin_agrees(bot, edited, mask, f"n={n} phase {bot._read(edited)['phase']}")
            checked += 1
    assert checked > 3000


def python_choice_crossing(bot, observation, mask, entry: int, low: float, high: float):
    """The two float32 values of ``observation[entry]`` either side of where the Python bot's choice changes
    between ``low`` and ``high`` (bisection), or None where it makes the same choice at both ends."""

    def choice(value):
        edited = observation.copy()
        edited[entry] = value
        return bot.act_python(edited, mask, RecordingRng()), edited

    low, high = np.float32(low), np.float32(high)
    at_low = choice(low)[0]
    if choice(high)[0] == at_low:
        return None
    while True:
        middle = np.float32((float(low) + float(high)) / 2)
        if middle in (low, high):
            return choice(low)[1], choice(high)[1]
        if choice(middle)[0] == at_low:
            low = middle
        else:
            high = middle


@needs_native
def test_tortuga_twin_follows_the_friend_estimate_across_its_thresholds():
    """The estimate of a seat whose nation is hidden (TOR-901) moves with that seat's yes votes on my votes,
    its yes votes against me and its steals from me, and the draw rule (TOR-806's Armada) with my hoard:
    on real observations each is bisected to the exact float32 step where the Python bot's choice changes,
    and the twin must choose as Python does on both sides of it, which it does only if it computes the
    same numbers (an estimate off in its last digits moves the step)."""
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy as TortugaBot
    from pirate_envs.games.tortuga.observation import PLAYER_BLOCK
    from pirate_envs.games.tortuga.observation import field_slices as tortuga_slices

    crossings = {"yes on mine": 0, "yes against me": 0, "steals": 0, "hoard": 0}
    for index, (game, observation, mask) in enumerate(tor_decisions(40, first=300)):
        n = game.num_players
        bot = TortugaBot(game)
        info = bot._read(observation)
        sl = tortuga_slices(n)
        vs = sl["vote_stats"].start
        sweeps = []
        hidden = [k for k in range(1, n) if 0.0 < info["friend"][k] < 1.0]
        if hidden and index % 3 == 0:
            k = hidden[index % len(hidden)]
            sweeps += [
                ("yes on mine", vs + k * n, 0.0, 6.0),
                ("yes against me", vs + n * n + k * n, 0.0, 6.0),
                ("steals", sl["players"].start + k * PLAYER_BLOCK + 23, -6.0, 0.0),
            ]
        if info["phase"] == 5:  # DRAW: the Armada may be near, so the lead decides
            observation = observation.copy()
            observation[sl["counts"].start + 2] = 1.0
            sweeps.append(("hoard", sl["own"].start, 0.0, 30.0))
        for name, entry, low, high in sweeps:
            sides = python_choice_crossing(bot, observation, mask, entry, low, high)
            if sides is not None:
                crossings[name] += 1
                for edited in sides:
                    assert_tortuga_twin_agrees(bot, edited, mask, f"n={n} {name} = {edited[entry]}")
    assert min(crossings.values()) >= 20, crossings


@needs_native
def test_tortuga_bot_goes_through_the_twin_and_agrees_with_python(monkeypatch):
    """With the module the bot's decisions come from the twin (the Python reader is not consulted);
    switched off, the Python code gives the same actions."""
    import pirate_envs.games.tortuga.heuristic as heuristic_module

    decisions = list(tor_decisions(4))[:400]
    calls = []
    monkeypatch.setattr(heuristic_module.HeuristicPolicy, "_read", lambda self, obs: calls.append(1))
    rng = np.random.default_rng(0)
    compiled = [heuristic_module.HeuristicPolicy(g).act(o, m, rng) for g, o, m in decisions]
    assert not calls
    monkeypatch.undo()
    monkeypatch.setattr(native_module, "NATIVE", None)
    python = [heuristic_module.HeuristicPolicy(g).act(o, m, rng) for g, o, m in decisions]
    assert python == compiled and len(set(compiled)) > 10


@needs_native
def test_tortuga_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy as TortugaBot
    from pirate_envs.games.tortuga.observation import field_slices as tortuga_slices

    game, observation, mask = next(tor_decisions(1, first=4))
    bot = TortugaBot(game)
    as_float64, mask64 = observation.astype(np.float64), mask.astype(np.int64)
    for obs, msk in ((as_float64, mask), (observation[:-1], mask), (observation, mask64), (observation, mask[:-1])):
        with pytest.raises(TypeError, match=r"float32|one byte"):
            NATIVE.tor_act(obs, msk, bot.native_spec)
    with pytest.raises(ValueError, match="spec"):
        NATIVE.tor_act(observation, mask, bot.native_spec[:-1])
    with pytest.raises(ValueError, match="no legal action"):
        NATIVE.tor_act(observation, np.zeros_like(mask), bot.native_spec)
    own = tortuga_slices(game.num_players)["players"].start
    hidden = observation.copy()
    hidden[own + 17 : own + 21] = (1.0, 0.0, 0.0, 0.0)  # my own nation shown unknown: not an observation
    with pytest.raises(ValueError, match="own nation"):
        NATIVE.tor_act(hidden, mask, bot.native_spec)
    rng = np.random.default_rng(0)
    assert bot.act(as_float64, mask64, rng) == bot.act(observation, mask, rng)
    assert bot.act(hidden, mask, np.random.default_rng(1)) == bot.act_python(hidden, mask, np.random.default_rng(1))
