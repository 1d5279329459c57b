"""Dead Man's Draw's compiled engine (``dmd_engine``: native/rules.c, native/observe.c) against the Python engine.

The Python engine (``game.py``, ``observation.py``, ``heuristic.py``, ``action_features.py``) is the oracle. Twin
games from the same seed, decision by decision, over every player count (DMD-101) and every option of Section 8
(DMD-801..811: characters, starting discard, each variant card and ``random``, the mermaid variant): the seat to
act, the legal actions, every seat's observation (DMD-1010), scores, returns and winners (DMD-701..703,
DMD-1020), the ``to_dict`` round trip, ``resample_hidden`` with the same source (Section 9), the heuristic bot's
decision and the action features. Then the worked examples of Section 12 set up by hand (``scenario``) and
loaded into the compiled engine, and hostile dumps fed to ``load``: it raises, never crashes.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pirate_envs.core.native.backend import has_native, native_game, to_native
from pirate_envs.core.rng import Rng
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw import native_bridge
from pirate_envs.games.dead_mans_draw.action_features import CHANNELS, action_features_python
from pirate_envs.games.dead_mans_draw.cards import VARIANT_OPTIONS
from pirate_envs.games.dead_mans_draw.game import DmdGame
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy
from pirate_envs.games.dead_mans_draw.scenario import scenario

GAME_ID = "dead_mans_draw_v0"
pytestmark = pytest.mark.skipif(not has_native(GAME_ID), reason="no compiled dead_mans_draw engine in this build")


def config(index: int) -> dict:
    """The index-th rule configuration: every player count x variant option x mermaid variant x characters x
    starting discard (DMD-801..811) in turn; reward modes alternate (DMD-1020)."""
    return {
        "num_players": 2 + index % 3,
        "variant": VARIANT_OPTIONS[(index // 3) % len(VARIANT_OPTIONS)],
        "mermaid_variant": (index // 24) % 2 == 1,
        "characters": (index // 48) % 2 == 0,
        "starting_discard": (index // 96) % 2 == 0,
        "reward_mode": "score" if index % 7 == 3 else "win",
    }


def same_fields(python, native) -> None:
    assert native.to_dict() == python.to_dict()


def check_position(game, python, native, bot, step: int, deep: bool) -> None:
    """One decision point of a twin game: what every engine contract query answers."""
    assert native.is_terminal() == python.is_terminal()
    assert native.current_player() == python.current_player()
    assert native.legal_actions() == python.legal_actions()
    assert np.array_equal(native.legal_action_mask(), python.legal_action_mask())
    assert native.scores() == python.scores()
    assert native.returns() == python.returns()
    assert native.winners() == python.winners()
    encode = game.encoder.encode_python if deep else game.encoder.encode
    for seat in range(game.num_players):
        assert np.array_equal(native.observation(seat), encode(python, seat)), f"observation of seat {seat}"
    if python.is_terminal():
        return
    seat = python.current_player()
    obs, mask = python.observation(seat), python.legal_action_mask()
    assert native.heuristic_action(step) == bot.act_python(obs, mask, np.random.default_rng(0))
    if deep:
        features = np.zeros((game.num_actions, CHANNELS), dtype=np.float32)
        native_game(game).features(obs, mask, features)
        assert np.array_equal(features, action_features_python(obs, mask, bot))


def twin_game(index: int, deep_every: int = 4, resample_every: int = 9, full_every: int = 1) -> int:
    """Plays game ``index`` on both engines (the heuristic bot or a random pick per decision), checking every
    position (every ``full_every``-th in full, the others' seat to act and legal actions); returns the decisions
    taken."""
    options = config(index)
    python_game = DmdGame(**options)
    native_game_ = DmdGame(backend="native", **options)
    python, native = python_game.new_initial_state(index), native_game_.new_initial_state(index)
    bot, pick = HeuristicPolicy(python_game), random.Random(index)
    same_fields(python, native)
    step = 0
    while True:
        deep = step % deep_every == 0
        if step % full_every == 0 or deep or python.is_terminal():
            check_position(python_game, python, native, bot, step, deep)
        else:
            assert native.current_player() == python.current_player()
            assert native.legal_actions() == python.legal_actions()
        if deep:
            same_fields(python, native)
            assert to_native(python).to_dict() == python.to_dict()  # pack, load, dump
        if step % resample_every == 4 and not python.is_terminal():  # Section 9, the same draws from the source
            seat, source = pick.randrange(python_game.num_players), pick.getrandbits(64)
            a, b = Rng(0), Rng(0)
            a.state = b.state = source
            assert native.resample_hidden(seat, a).to_dict() == python.resample_hidden(seat, b).to_dict()
            assert a.state == b.state
        if python.is_terminal():
            same_fields(python, native)
            return step
        legal = python.legal_actions()
        heuristic_turn = pick.random() < 0.6 and step % full_every == 0
        action = native.heuristic_action(step) if heuristic_turn else pick.choice(legal)
        python.apply_action(action)
        native.apply_action(action)
        step += 1


def test_twin_play_every_configuration():
    """>= 50k decisions over every player count and option set (192 configurations, two games each and more)."""
    decisions, index = 0, 0
    while decisions < 50_000 or index < 2 * 192:
        decisions += twin_game(index)
        index += 1
    assert decisions >= 50_000


@pytest.mark.slow
def test_twin_play_two_million_decisions():
    decisions, index = 0, 10_000
    while decisions < 2_000_000:
        decisions += twin_game(index, deep_every=60, resample_every=97, full_every=10)
        index += 1


def test_same_game_from_the_same_seed():
    """DMD-302..307: the setup's shuffles, the variant card, the deal and the first player draw as in Python."""
    for index in range(48):
        options = config(index)
        python = DmdGame(**options).new_initial_state(index)
        native = DmdGame(backend="native", **options).new_initial_state(index)
        assert native.to_dict() == python.to_dict()


def test_options_vector_and_sizes():
    game = DmdGame(num_players=3, variant="random", mermaid_variant=True, reward_mode="score", score_scale=12.5)
    vector = native_bridge.options_vector(game)
    assert vector[:5] == [1, 1, VARIANT_OPTIONS.index("random"), 1, 1]
    assert vector[5] == native_bridge.double_bits(12.5)
    engine = native_game(game)
    assert (engine.num_actions, engine.obs_size, engine.num_features) == (116, 939, native_bridge.NUM_FEATURES)


def test_random_playouts_run():
    assert native_game(DmdGame(num_players=4, variant="undertow", mermaid_variant=True)).random_playouts(20, 3) > 0


# --- Section 12: the worked examples, loaded into the compiled engine --------------------------------------------


def game(n=2, **options) -> DmdGame:
    return DmdGame(num_players=n, characters=options.pop("characters", False), **options)


def play_twin(state, actions: list[int]):
    """Loads the hand-built ``state`` into the compiled engine and plays ``actions`` on both engines, comparing
    every position; returns the two final states."""
    native = to_native(state)
    bot = HeuristicPolicy(state.game)
    check_position(state.game, state, native, bot, 0, True)
    same_fields(state, native)
    for step, action in enumerate(actions):
        state.apply_action(action)
        native.apply_action(action)
        check_position(state.game, state, native, bot, step + 1, True)
        same_fields(state, native)
    return state, native


EXAMPLES = {
    "DMD-1202": (lambda: scenario(game(), row="Key 5, Oracle 3", draw="Key 7"), [act.DRAW]),
    "DMD-1203": (lambda: scenario(game(), row="Chest 4, Sword 3, Anchor 5, Hook 6", draw="Sword 7"), [act.DRAW]),
    "DMD-1204": (
        lambda: scenario(game(), row="Chest 4, Anchor 5, Oracle 3", draw="Chest 6", abilities={0: "safe_harbor"}),
        [act.DRAW],
    ),
    "DMD-1205": (lambda: scenario(game(), active=1, draw="Kraken 4, Key 3, Key 6, Anchor 7"), [act.STOP]),
    "DMD-1206": (
        lambda: scenario(
            game(),
            row="Key 3",
            draw="Kraken 5, Oracle 4, Chest 5",
            exact_draw=True,
            discard="Anchor 2, Cannon 2, Hook 2, Map 2, Sword 2, Oracle 2",
            abilities={1: "kraken_king"},
        ),
        [act.DRAW],
    ),
    "DMD-1207": (
        lambda: scenario(
            game(),
            row="Chest 3",
            draw="Sword 4",
            collections={0: "Oracle 7, Map 3, Mermaid 8, Key 6", 1: "Anchor 5, Key 4, Oracle 6, Oracle 3"},
            abilities={0: "swordsman"},
        ),
        [act.DRAW, 98],
    ),
    "DMD-1208": (
        lambda: scenario(game(), row="Key 3, Cannon 5", draw="Map 4", discard="Key 2, Cannon 2"),
        [act.DRAW, 18],
    ),
    "DMD-1209": (
        lambda: scenario(
            game(),
            row="Key 5, Chest 6, Oracle 4",
            discard="Anchor 2, Sword 2",
            collections={1: "Hook 7"},
            abilities={0: "plunderer"},
        ),
        [act.STOP, 99],
    ),
    "DMD-1210": (lambda: scenario(game(), active=1, draw="Hook 5, Cannon 3, Anchor 4"), [act.STOP, act.DRAW]),
    "DMD-1211": (
        lambda: scenario(
            game(),
            draw="Cannon 3",
            collections={0: "Key 6, Key 3", 1: "Sword 7, Sword 4, Sword 3, Map 5"},
            abilities={1: "navigator"},
        ),
        [act.DRAW, 104, 5],
    ),
    "DMD-1212": (
        lambda: scenario(
            game(),
            row="Key 4",
            draw="Hook 5, Anchor 7, Mermaid 9",
            collections={0: "Sword 7, Chest 5", 1: "Map 6, Anchor 4"},
            discard="Hook 2, Oracle 2, Kraken 2",
        ),
        [act.DRAW, 11, 101, 42],
    ),
    "DMD-1213": (
        lambda: scenario(
            game(),
            row="Key 3",
            draw="Hook 4, Anchor 7",
            collections={0: "Oracle 4, Oracle 3, Sword 5", 1: "Chest 6"},
            abilities={0: "miser"},
        ),
        [act.DRAW, 10, 11, 97],
    ),
    "DMD-1214": (
        lambda: scenario(
            game(), row="Key 3", draw="Hook 5", collections={0: "Map 6"}, discard="Key 2", abilities={0: "captain_hook"}
        ),
        [act.DRAW, 8, 30],
    ),
    "DMD-1215": (
        lambda: scenario(
            game(), draw="Kraken 3, Mermaid 7, Map 5, Anchor 7", discard="Anchor 2", abilities={0: "rake"}
        ),
        [act.DRAW, 12],
    ),
    "DMD-1215-fisherman": (
        lambda: scenario(game(), active=1, draw="Kraken 6, Anchor 7", abilities={0: "fisherman"}),
        [act.STOP, act.STOP],
    ),
    "DMD-1216": (
        lambda: scenario(
            game(),
            active=1,
            row="Key 3, Anchor 4, Map 5",
            draw="Key 6, Anchor 7",
            abilities={0: "davy_jones_locker"},
            locker_target=1,
        ),
        [act.DRAW, act.ACCEPT],
    ),
    "DMD-1216-decline": (
        lambda: scenario(
            game(),
            active=1,
            row="Key 3, Anchor 4, Map 5",
            draw="Key 6, Anchor 7",
            abilities={0: "davy_jones_locker"},
            locker_target=1,
        ),
        [act.DRAW, act.DECLINE],
    ),
    "DMD-1217": (
        lambda: scenario(game(3, variant="thieves_island"), active=1, row="Oracle 3, Key 5", draw="Oracle 6, Anchor 7"),
        [act.DRAW],
    ),
    "DMD-1218": (
        lambda: scenario(
            game(mermaid_variant=True),
            row="Cannon 5, Key 3",
            draw="Mermaid 6, Anchor 7",
            collections={1: "Chest 4"},
            abilities={1: "siren"},
        ),
        [act.DRAW, 21],
    ),
    "DMD-1219": (
        lambda: scenario(
            game(mermaid_variant=True),
            row="Chest 4, Anchor 3, Sword 6",
            draw="Mermaid 5, Sword 7",
            abilities={0: "rake"},
        ),
        [act.DRAW, 13, act.DRAW],
    ),
    "DMD-1220": (lambda: scenario(game(variant="uncharted_waters"), row="Key 3, Key 5", draw="Map 5"), [act.DRAW]),
    "DMD-1221": (
        lambda: scenario(
            game(variant="undertow"),
            row="Mermaid 9",
            collections={0: "Anchor 7, Cannon 7, Chest 7, Key 7, Hook 7, Kraken 7, Map 7, Mermaid 4, Oracle 4"},
        ),
        [act.STOP],
    ),
    "DMD-1222": (
        lambda: scenario(
            game(variant="sudden_death"),
            row="Sword 7, Key 4, Chest 3",
            collections={0: "Anchor 7, Cannon 7, Hook 7, Kraken 7, Map 7, Mermaid 9"},
            discard="Anchor 2, Oracle 2, Map 2",
        ),
        [act.STOP],
    ),
    "DMD-1223": (
        lambda: scenario(
            game(), row="Chest 3, Key 4", draw="Oracle 5", exact_draw=True, discard="Anchor 2, Oracle 2, Map 2, Sword 2"
        ),
        [act.DRAW],
    ),
    "DMD-1224": (
        lambda: scenario(game(), draw="Oracle 4, Hook 6, Map 3, Sword 5, Anchor 7", abilities={0: "mystic"}),
        [act.DRAW, act.DRAW, act.STOP],
    ),
}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_worked_example(example):
    build, actions = EXAMPLES[example]
    python, native = play_twin(build(), actions)
    for seat in range(python.game.num_players):  # Section 9 on the example's end position
        if not python.is_terminal():
            assert native.resample_hidden(seat, 5).to_dict() == python.resample_hidden(seat, 5).to_dict()


def test_dmd_1221_and_1222_outcomes_natively():
    """DMD-809 and DMD-805 end the game at once: the compiled engine's winners and returns."""
    _, native = play_twin(EXAMPLES["DMD-1221"][0](), EXAMPLES["DMD-1221"][1])
    assert native.is_terminal() and native.winners() == [1] and native.returns() == [-1.0, 1.0]
    _, native = play_twin(EXAMPLES["DMD-1222"][0](), EXAMPLES["DMD-1222"][1])
    assert native.is_terminal() and native.winners() == [0]


# --- load(): the one door for outside data ----------------------------------------------------------------------


def sample_dumps(count: int = 40) -> list[tuple[DmdGame, tuple]]:
    """Dumps of positions reached by play, in every phase the games reach, over the configurations."""
    out, seen = [], set()
    for index in range(count * 4):
        options = config(index)
        game_ = DmdGame(backend="native", **options)
        state, pick = game_.new_initial_state(index), random.Random(index)
        while not state.is_terminal():
            phase = state.engine_state.dump()[3][1]
            if (phase, game_.num_players) not in seen or pick.random() < 0.02:
                seen.add((phase, game_.num_players))
                out.append((game_, state.engine_state.dump()))
            state.apply_action(pick.choice(state.legal_actions()))
        out.append((game_, state.engine_state.dump()))
        if len(out) >= count and len(seen) >= 3 * 10:
            break
    return out


def load(game_, rng_state, decisions, truncated, values):
    return native_game(game_).load(rng_state, decisions, truncated, values)


def test_load_takes_every_dump_of_play():
    for game_, (rng_state, decisions, truncated, values) in sample_dumps():
        state = load(game_, rng_state, decisions, truncated, values)
        assert state.dump() == (rng_state, decisions, truncated, values)


def test_load_refuses_out_of_range_values_and_wrong_lengths():
    """Every value of a dump set out of its range (negative, huge, beyond the cards, seats, turns) and every
    wrong length raises ValueError."""
    for game_, (rng_state, decisions, truncated, values) in sample_dumps(12):
        for i in range(len(values)):
            for bad in (-2, -(2**40), 10**6, 2**40, -(2**63), 2**63 - 1):
                mutated = list(values)
                mutated[i] = bad
                with pytest.raises(ValueError):
                    load(game_, rng_state, decisions, truncated, mutated)
        for cut in (0, 1, len(values) // 2, len(values) - 1):
            with pytest.raises(ValueError):
                load(game_, rng_state, decisions, truncated, values[:cut])
        for extra in ([0], [0] * 3000):
            with pytest.raises(ValueError):
                load(game_, rng_state, decisions, truncated, values + extra)


def test_load_fuzz_never_crashes():
    """3,000 random in-range edits of dumps (values, swaps, deletions, insertions): load raises or gives a state on
    which every entry point runs (play to the end included); under ASan/UBSan any out-of-bounds access stops."""
    rnd = random.Random(47)
    dumps = sample_dumps(30)
    loaded = 0
    for trial in range(3000):
        game_, (rng_state, decisions, truncated, values) = dumps[trial % len(dumps)]
        mutated = list(values)
        for _ in range(rnd.randint(1, 3)):
            cards = [i for i, v in enumerate(mutated) if 0 <= v < 62]
            kind = rnd.random()
            i = rnd.randrange(len(mutated))
            if kind < 0.35:
                mutated[i] = rnd.randint(-3, 70)
            elif kind < 0.7:  # two card-like values swap places: the card counts stay, their places change
                i, j = rnd.choice(cards), rnd.choice(cards)
                mutated[i], mutated[j] = mutated[j], mutated[i]
            elif kind < 0.8:
                j = rnd.randrange(len(mutated))
                mutated[i], mutated[j] = mutated[j], mutated[i]
            elif kind < 0.9:
                del mutated[i]
            else:
                mutated.insert(i, rnd.randint(-1, 62))
        try:
            state = load(game_, rng_state, decisions, truncated, mutated)
        except ValueError:
            continue
        loaded += 1
        exercise(game_, state, rnd)
    assert loaded >= 100


def test_features_fuzz_never_crashes():
    """3,000 hostile observations and masks (random values in and around the fields' ranges, random masks) given to
    the action features: they write their rows or raise ValueError, never crash."""
    rnd = np.random.default_rng(47)
    for trial in range(3000):
        game_ = DmdGame(num_players=2 + trial % 3, backend="native")
        obs = rnd.choice(np.array([0, 0, 0, 1, 0.5, -1, 3, 1e5, np.nan], dtype=np.float32), game_.observation_size)
        mask = (rnd.random(game_.num_actions) < rnd.random()).astype(np.int8)
        out = np.zeros((game_.num_actions, CHANNELS), dtype=np.float32)
        try:
            native_game(game_).features(obs, mask, out)
        except ValueError:
            continue
        assert np.isfinite(out).all() or not np.isfinite(obs).all()


def exercise(game_, state, rnd) -> None:
    n = game_.num_players
    obs = np.zeros(game_.observation_size, dtype=np.float32)
    mask = np.zeros(game_.num_actions, dtype=np.int8)
    features = np.zeros((game_.num_actions, CHANNELS), dtype=np.float32)
    for seat in range(n):
        state.observe(seat, obs)
        state.resample_hidden(seat, rnd.getrandbits(64))
    steps = 0
    while not state.is_terminal() and steps < 400:
        state.legal_mask(mask)
        state.observe(state.current_player(), obs)
        native_game(game_).features(obs, mask, features)
        action, _ = state.heuristic_action(rnd.getrandbits(64))
        state.apply_action(action if rnd.random() < 0.5 else rnd.choice(state.legal_actions()))
        steps += 1
    state.returns(), state.scores(), state.winners(), state.dump()
