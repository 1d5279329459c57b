"""Hostile input through the public entry points of the compiled twins of Dead Man's Draw, Madame Ching and
Tortuga (``pirate_envs/games/*/native/``): the Python answer or a Python exception, never a crash, a
``SystemError`` or a different answer.

Each regression test below builds the kind of state or observation one finding of the sanitizer audit was
about (a list changed by Python code run in the middle of an encoding, the output bytearray resized meanwhile,
an exception left pending, an int or float outside what C arithmetic and casts allow); the fuzz tests then mutate
a few hundred real states and observations per game at random. The sanitizer build (ASan/UBSan) runs this
file too: there a memory error or undefined behaviour aborts the run.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pirate_envs.core.native import NATIVE
from pirate_envs.core.registry import game_class

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

HUGE = (2**70, -(2**70), 2**63, -(2**63), 2**31, -(2**31) - 1)
ODD_VALUES = (*HUGE, -1, 255, 256, 10**6, None, "x", 1.5, math.nan, math.inf, [], True)


def outcome(call) -> tuple[str, object]:
    """("ok", value) or ("error", the exception's type); a SystemError (an exception left pending by C code)
    fails the test."""
    try:
        return "ok", call()
    except SystemError:
        raise
    except Exception as error:  # any Python exception is an allowed answer here
        return "error", type(error)


def assert_like_python(state, seat: int) -> None:
    """``state.observation(seat)`` (the twin, or its fallback) equals the Python encoder's answer bit for bit,
    or both raise."""
    python = outcome(lambda: state.game.encoder.encode_python(state, seat))
    public = outcome(lambda: state.observation(seat))
    assert public[0] == python[0], f"public {public}, Python {python}"
    if python[0] == "ok":
        np.testing.assert_array_equal(public[1].view(np.uint32), python[1].view(np.uint32))


def random_states(game, seed: int, every: int = 1):
    """Clones of the states of one random game, one in ``every``."""
    state = game.new_initial_state(seed)
    pick = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        state.apply_action(pick.choice(state.legal_actions()))
        step += 1
    yield state.clone()


def state_with(cls_name: str, state, **properties):
    """``state`` turned into an instance of a subclass whose ``properties`` (name -> getter) replace plain
    attributes: the getter runs Python code in the middle of an encoding."""
    state.__class__ = type(cls_name, (type(state),), {k: property(v) for k, v in properties.items()})
    return state


def late_state(game_id: str, seed: int = 0, **options):
    """A state from the middle of a random game."""
    game = game_class(game_id)(**options)
    states = list(random_states(game, seed))
    return states[len(states) // 2]


# --- finding 1: a list changed by Python code run while the twin holds it -----------------------------------


@needs_native
def test_dmd_draw_pile_emptied_by_a_getter_while_the_twin_reads_it():
    """The row's getter empties the draw pile after the twin has read its length; the twin reads its own
    snapshot of the pile (the length read before, the peek at the top after)."""
    state = late_state("dead_mans_draw_v0", 1, num_players=2)
    assert len(state.draw_pile) >= 3
    state.known = [list(state.draw_pile[-3:]) for _ in range(2)]
    row = list(state.row)

    def row_getter(self):
        self.__dict__["draw_pile"].clear()
        return row

    state_with("DrawPileThief", state, row=row_getter)
    observation = state.observation(0)
    assert observation.shape == state.game.observation_shape


@needs_native
def test_dmd_task_list_emptied_while_a_task_is_read():
    """A task that is not a list: reading it runs Python code that empties the task list."""
    state = late_state("dead_mans_draw_v0", 2, num_players=3)

    class Task:
        def __iter__(self):
            state.__dict__["tasks"].clear()
            return iter((0, 1))

    state.tasks = [(0, 1), (0, 1), (0, 1), Task()]  # the newest task (the last) is read first
    assert outcome(lambda: state.observation(0))[0] in ("ok", "error")


@needs_native
def test_tor_votes_and_log_emptied_while_the_twin_reads_them():
    """The truth test of a vote count and the reading of a log entry run Python code that empties the list."""
    state = late_state("tortuga_v0", 0, num_players=4)

    class Vanishing:
        def __init__(self, owner: str, value):
            self.owner, self.value = owner, value

        def __bool__(self):
            state.__dict__[self.owner].clear()
            return True

        def __iter__(self):
            state.__dict__[self.owner].clear()
            return iter(self.value)

    state.votes_initiated = [Vanishing("votes_initiated", ()), 1, 0, 0]
    assert outcome(lambda: state.observation(0))[0] in ("ok", "error")
    state = late_state("tortuga_v0", 0, num_players=4)
    entry = (0, 0, -1, -1, -1, 0, -1)
    state.log = [entry] * 3 + [Vanishing("log", entry)] + [entry] * 3
    assert outcome(lambda: state.observation(1))[0] in ("ok", "error")


# --- finding 2: the output bytearray resized by Python code while the twin writes it -------------------------


@needs_native
@pytest.mark.parametrize("game_id", ["madame_ching_v0", "tortuga_v0"])
def test_the_output_bytearray_cannot_be_resized_under_the_twin(game_id):
    """A getter that empties the twin's own output buffer: the twin holds the buffer, so the resize is refused
    (BufferError) instead of freeing the memory the twin writes."""
    state = late_state(game_id, 0, num_players=3)
    encoder = state.game.encoder
    if game_id == "madame_ching_v0":
        buf, twin, spec = bytearray(encoder.size), NATIVE.mch_counts, encoder.native_specs(state.game)[0]
        name = "hands"
    else:
        buf, twin, spec = bytearray(encoder.template), NATIVE.tor_counts, encoder.native_spec(state.game)
        name = "deck"
    value = getattr(state, name)

    def shrink(self):
        del buf[:]
        return value

    state_with("BufferThief", state, **{name: shrink})
    with pytest.raises(BufferError):
        twin(buf, state, 0, spec)
    assert len(buf) > 0


# --- finding 3: exceptions left pending ----------------------------------------------------------------------


@needs_native
def test_dmd_a_peeked_card_past_a_long_gives_the_python_answer():
    state = late_state("dead_mans_draw_v0", 1, num_players=2)
    assert state.draw_pile
    state.known = [[2**70, state.draw_pile[-1]], [2**70]]
    encoder = state.game.encoder
    with pytest.raises(OverflowError):
        NATIVE.dmd_encode(np.zeros(encoder.size, np.float32), state, 0, encoder.native_spec)
    for seat in (0, 1):
        assert_like_python(state, seat)
    state.known = [[float(state.draw_pile[-1])], []]  # 3.0 == 3 in Python: no C comparison may differ
    assert_like_python(state, 0)


@needs_native
def test_mch_known_cards_past_a_long_give_the_python_answer():
    state = late_state("madame_ching_v0", 0, num_players=3)
    for known in ([[2**70]] * 3, [2**70] * 3, [[-(2**63), 2**64]] * 3):
        state.known[0] = known
        for seat in range(3):
            assert_like_python(state, seat)


@needs_native
def test_tor_steal_rows_shorter_than_the_player_count_give_the_python_answer():
    """The twin stops at the missing row instead of running ``game_over`` with an IndexError pending."""
    state = late_state("tortuga_v0", 0, num_players=4)
    state.steal_delta = state.steal_delta[:1]
    encoder = state.game.encoder
    with pytest.raises(IndexError):
        NATIVE.tor_counts(bytearray(encoder.template), state, 2, encoder.native_spec(state.game))
    for seat in range(4):
        assert_like_python(state, seat)


# --- finding 4: ints and floats outside what C arithmetic and casts allow ------------------------------------


@needs_native
@pytest.mark.parametrize("active", [-(2**63), 2**63 - 1, -(2**31) - 1, 2**31 + 3])
def test_tor_an_active_seat_past_a_long_gives_the_python_answer(active):
    state = late_state("tortuga_v0", 0, num_players=4)
    state.active = active
    for seat in range(4):
        assert_like_python(state, seat)


@needs_native
def test_dmd_huge_ints_give_the_python_answer():
    state = late_state("dead_mans_draw_v0", 3, num_players=3)
    for name in ("active", "locker_target", "plunder_target", "last_turn_player", "decisions"):
        for value in HUGE:
            edited = state.clone()
            setattr(edited, name, value)
            assert_like_python(edited, 1)


def tortuga_observations(count: int):
    """``(bot, observation, mask)`` at decisions with a choice in a few random Tortuga games."""
    from pirate_envs.games.tortuga.heuristic import HeuristicPolicy

    found = []
    for seed in range(4):
        game = game_class("tortuga_v0")(num_players=3 + seed)
        bot = HeuristicPolicy(game)
        for state in random_states(game, seed, every=3):
            if state.is_terminal():
                continue
            mask = state.legal_action_mask()
            if mask.sum() >= 2:
                found.append((bot, state.observation(state.current_player()), mask))
    return found[:count]


def assert_bot_like_python(bot, observation: np.ndarray, mask: np.ndarray) -> None:
    """``bot.act`` (the twin, or its fallback) gives the Python bot's action with the same rng, or both raise."""
    public = outcome(lambda: bot.act(observation, mask, np.random.default_rng(7)))
    python = outcome(lambda: bot.act_python(observation, mask, np.random.default_rng(7)))
    assert public == python


@needs_native
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e30, -1e30])
def test_tor_bot_refuses_non_finite_or_huge_entries(value):
    """A NaN, an infinity or a huge entry would make the twin's float-to-int casts undefined: it refuses the
    observation (ValueError) and the Python bot decides."""
    for bot, observation, mask in tortuga_observations(12):
        for entry in (0, len(observation) // 2, len(observation) - 1):
            edited = observation.copy()
            edited[entry] = value
            with pytest.raises(ValueError, match="finite"):
                NATIVE.tor_act(edited, mask, bot.native_spec)
            assert_bot_like_python(bot, edited, mask)


# --- the fuzz: a few hundred mutated states and observations per game -----------------------------------------


def mutated(value, pick: random.Random):
    """``value`` with one hostile change: replaced outright, a list shortened, or one item replaced (at any
    depth of nested lists)."""
    if isinstance(value, list) and value and pick.random() < 0.7:
        value = list(value)
        if pick.random() < 0.3:
            return value[: pick.randrange(len(value))]
        i = pick.randrange(len(value))
        value[i] = mutated(value[i], pick)
        return value
    if isinstance(value, dict) and value and pick.random() < 0.7:
        value = dict(value)
        key = pick.choice(sorted(value, key=str))
        value[key] = mutated(value[key], pick)
        return value
    return pick.choice(ODD_VALUES)


FUZZ_GAMES = [
    ("dead_mans_draw_v0", {"num_players": 3}),
    ("dead_mans_draw_v0", {"num_players": 2}),
    ("madame_ching_v0", {"num_players": 4, "team_mode": True}),
    ("madame_ching_v0", {"num_players": 3}),
    ("tortuga_v0", {"num_players": 5}),
    ("tortuga_v0", {"num_players": 3}),
]


@needs_native
@pytest.mark.parametrize(("game_id", "options"), FUZZ_GAMES)
def test_fuzz_mutated_states_give_the_python_answer(game_id, options):
    """150 states a game setting with one field changed at random (wrong types, huge and negative ints, short
    rows, NaN and infinity): the public observation equals the Python encoder's, or both raise."""
    game = game_class(game_id)(**options)
    pool = [state for seed in range(3) for state in random_states(game, seed, every=7)]
    pick = random.Random(f"{game_id}{options}")
    names = [name for name in type(pool[0]).fields if name not in ("rng",)]
    for _ in range(150):
        state = pick.choice(pool).clone()
        name = pick.choice(names)
        setattr(state, name, mutated(getattr(state, name), pick))
        for seat in range(game.num_players):
            assert_like_python(state, seat)


@needs_native
def test_fuzz_mutated_observations_give_the_python_bot_answer():
    """Tortuga and Dead Man's Draw observations with entries changed at random (NaN, infinities, huge,
    negative, fractional): the bots' (and Dead Man's Draw's action features') public answers equal Python's."""
    from pirate_envs.games.dead_mans_draw.action_features import action_features, action_features_python
    from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy as DmdBot

    pick = random.Random(11)
    hostile = (math.nan, math.inf, -math.inf, 1e30, -1e30, 1e6, -1.0, 0.5, 2.0, 255.0)
    cases = [(bot, obs, mask) for bot, obs, mask in tortuga_observations(60)]
    game = game_class("dead_mans_draw_v0")(num_players=3)
    dmd_bot = DmdBot(game)
    for state in random_states(game, 5, every=2):
        if not state.is_terminal():
            cases.append((dmd_bot, state.observation(state.current_player()), state.legal_action_mask()))
    for bot, observation, mask in cases:
        for _ in range(5):
            edited = observation.copy()
            for _ in range(pick.randint(1, 4)):
                edited[pick.randrange(len(edited))] = pick.choice(hostile)
            assert_bot_like_python(bot, edited, mask)
            if bot is dmd_bot:
                public = outcome(lambda e=edited, m=mask: action_features(e, m, dmd_bot))
                python = outcome(lambda e=edited, m=mask: action_features_python(e, m, dmd_bot))
                assert public[0] == python[0]
                if public[0] == "ok":
                    np.testing.assert_array_equal(public[1], python[1])
