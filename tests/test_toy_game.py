"""The toy game of ``tests/toy_game/`` (Pieces of Eight) through the real adapters, and CONTRIBUTING.md's excerpts.

The toy game lives outside the package, as a game of your own would: each test that needs it registers it
with ``register_env`` for that test only (the ``register_outside_env`` fixture of ``tests/conftest.py``).

- The rules' examples (P8-xxx), then the registry: what ``register_env`` checks and that ``ENV_IDS`` (the
  shipped games) never changes.
- The whole shared conformance suite of ``tests/test_conformance.py`` (engine contract, no leak, determinism,
  round trips, PettingZoo's ``api_test``/``seed_test``), collected here again with this module's ``case``.
- Gymnasium (``make_gym``, ``gymnasium.make``, gymnasium's and SB3's ``check_env``), OpenSpiel (``pyspiel``
  random play and ``random_sim_test``), the heuristic and search policy specs.
- Every Python block of CONTRIBUTING.md is an excerpt that appears verbatim in the file it names.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import test_conformance
from conftest import case_ids, conformance_cases
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from toy_game import ENV_ID, MODULE, PiecesOfEightGame
from toy_game.coins import COINS, action_of

import pirate_envs
from pirate_envs.core.errors import InvalidOptionError, InvalidStateError
from pirate_envs.core.registry import ENV_IDS, make_heuristic, register_env, registered_env_ids, unregister_env
from pirate_envs.policies.base import choose_action, resolve_policy

ROOT = Path(__file__).resolve().parents[1]
TOY_CASES = conformance_cases([PiecesOfEightGame])


@pytest.fixture
def toy_env(register_outside_env) -> str:
    """The toy game's env id, registered for this test."""
    register_outside_env(ENV_ID, MODULE)
    return ENV_ID


@pytest.fixture(params=TOY_CASES, ids=case_ids(TOY_CASES))
def case(request, toy_env):
    """(env_id, num_players, variant name, options) for every configuration of the toy game."""
    return request.param


# The shared conformance suite, every test of it, on the toy game: collected here again, each test takes
# this module's ``case`` fixture (the toy game's player counts and variants) instead of conftest's.
CONFORMANCE_TESTS = {name: test for name, test in vars(test_conformance).items() if name.startswith("test_")}
globals().update(CONFORMANCE_TESTS)


def play(state, coins: list[int]) -> None:
    for coin in coins:
        state.apply_action(action_of(coin))


def dealt(num_players: int, hands: list[list[int]], **options):
    """A fresh game whose hands are ``hands`` (the other coins in the purse): positions for the rules' examples."""
    state = PiecesOfEightGame(num_players=num_players, **options).new_initial_state(0)
    state.hands = [sorted(hand) for hand in hands]
    state.purse = sorted(set(COINS) - {coin for hand in hands for coin in hand})
    state.check_invariants()
    return state


# --- the rules' examples ---------------------------------------------------------------------------------------


def test_p8_202_deal_three_secret_coins_each_from_a_seeded_shuffle():
    for n in (2, 3):
        state = PiecesOfEightGame(num_players=n).new_initial_state(42)
        assert [len(hand) for hand in state.hands] == [3] * n and len(state.purse) == 9 - 3 * n
        assert state.to_dict() == PiecesOfEightGame(num_players=n).new_initial_state(42).to_dict()
    deals = {str(PiecesOfEightGame().new_initial_state(seed).hands) for seed in range(10)}
    assert len(deals) == 10


def test_p8_302_the_highest_coin_takes_the_trick_and_leads_the_next():
    state = dealt(3, [[1, 5, 9], [2, 6, 7], [3, 4, 8]])
    assert state.current_player() == 0  # P8-203
    play(state, [1, 7, 3])
    assert state.piles == [[], [1, 3, 7], []] and state.trick == []
    assert state.current_player() == 1 and state.legal_actions() == [action_of(2), action_of(6)]
    play(state, [2, 8, 5])
    assert state.piles == [[], [1, 3, 7], [2, 5, 8]] and state.current_player() == 2


def test_p8_502_503_tied_players_all_win_and_score_mode_gives_margins():
    win = dealt(2, [[1, 8, 9], [2, 6, 7]])
    score = dealt(2, [[1, 8, 9], [2, 6, 7]], reward_mode="score")
    for state in (win, score):
        play(state, [9, 2, 1, 7, 6, 8])  # player_0 takes 9+2 = 11 and 6+8 = 14; player_1 takes 1+7 = 8
        assert state.is_terminal() and state.scores() == [25.0, 8.0] and state.winners() == [0]
    assert win.returns() == [1.0, -1.0]
    assert score.returns() == [17 / 45, -17 / 45]
    tie = dealt(2, [[1, 3, 7], [4, 5, 6]])
    play(tie, [1, 4, 5, 3, 6, 7])  # player_1 takes 1+4 and 5+3, player_0 takes 6+7: 13 each
    assert tie.scores() == [13.0, 13.0] and tie.winners() == [0, 1] and tie.returns() == [1.0, 1.0]


def test_p8_601_a_seat_sees_its_hand_and_the_table_but_no_other_hand_nor_the_purse():
    state = dealt(2, [[1, 5, 9], [2, 6, 7]])
    play(state, [9])
    observation = state.observation(1)
    other = dealt(2, [[1, 4, 9], [2, 6, 7]])  # player_0's hand and the purse differ in a coin player_1 never saw
    play(other, [9])
    np.testing.assert_array_equal(other.observation(1), observation)
    assert not np.array_equal(other.observation(0), state.observation(0))
    assert "[face-down coin]" in state.render(1) and ": 2, 6, 7" in state.render(1)


def test_p8_101_a_save_with_a_coin_in_two_places_is_refused():
    state = dealt(2, [[1, 5, 9], [2, 6, 7]])
    play(state, [9, 2])
    data = state.to_dict()
    data["fields"]["hands"][1] = [5, 6]  # player_0 still holds the 5
    with pytest.raises(InvalidStateError, match=r"every coin of the purse must be in exactly one place \(P8-101\)"):
        PiecesOfEightGame.state_from_dict(data)
    data["fields"]["hands"][1] = [7, 6]
    with pytest.raises(InvalidStateError, match=r"hands\[1\] and piles\[1\] must be sorted"):
        PiecesOfEightGame.state_from_dict(data)


def test_illegal_and_out_of_range_coins_are_clear_errors():
    state = dealt(2, [[1, 5, 9], [2, 6, 7]])
    with pytest.raises(ValueError, match=r"action 1 \(play the coin worth 2 pieces of eight\) is not legal"):
        state.apply_action(action_of(2))
    with pytest.raises(InvalidOptionError, match="'win', 'score'"):
        PiecesOfEightGame(reward_mode="most")
    with pytest.raises(InvalidOptionError, match=r"\(2, 3\)"):
        PiecesOfEightGame(num_players=4)


# --- the registry ----------------------------------------------------------------------------------------------


def test_register_env_adds_the_game_without_changing_env_ids(toy_env):
    assert ENV_IDS == ("potsm_v0", "dead_mans_draw_v0", "madame_ching_v0", "tortuga_v0")
    assert pirate_envs.ENV_IDS == ENV_IDS and registered_env_ids() == (*ENV_IDS, toy_env)
    assert pirate_envs.game_class(toy_env) is PiecesOfEightGame
    env = pirate_envs.make(toy_env, num_players=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    register_env(toy_env, MODULE)  # the same module again: nothing changes
    assert registered_env_ids() == (*ENV_IDS, toy_env)


def test_register_env_refuses_bad_registrations(toy_env):
    with pytest.raises(InvalidOptionError, match="end in _v<number>"):
        register_env("Pieces-Of-Eight", MODULE)
    with pytest.raises(InvalidOptionError, match="is a shipped game"):
        register_env("potsm_v0", MODULE)
    with pytest.raises(InvalidOptionError, match="already registered to module"):
        register_env(toy_env, "toy_game.game")
    with pytest.raises(InvalidOptionError, match="cannot import module 'no_such_module'"):
        register_env("no_such_game_v0", "no_such_module")
    with pytest.raises(InvalidOptionError, match="lacks env, raw_env, Game, HeuristicPolicy"):
        register_env("coins_v0", "toy_game.coins")
    with pytest.raises(InvalidOptionError, match="game_id is 'pieces_of_eight_v0', not the env id 'pieces_v1'"):
        register_env("pieces_v1", MODULE)
    with pytest.raises(InvalidOptionError, match="shipped game and stays registered"):
        unregister_env("potsm_v0")
    with pytest.raises(InvalidOptionError, match="'pieces_v1' is not registered"):
        unregister_env("pieces_v1")
    assert registered_env_ids() == (*ENV_IDS, toy_env)


def test_an_unregistered_game_is_unknown(toy_env):
    unregister_env(toy_env)
    try:
        with pytest.raises(InvalidOptionError, match=f"unknown env id '{toy_env}'; registered env ids: potsm_v0"):
            pirate_envs.make(toy_env)
    finally:
        register_env(toy_env, MODULE)  # as the fixture left it, for its own teardown


# --- Gymnasium, SB3, policies --------------------------------------------------------------------------------


# gymnasium's checker may step an action drawn before a seeded reset, illegal in the new game: the default
# illegal_action="terminate" ends that episode with a warning (as in tests/test_gym_env.py)
@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")
@pytest.mark.parametrize("seat", [0, 1])
def test_gymnasium_and_sb3_check_env(toy_env, seat):
    sb3_check_env(pirate_envs.make_gym(toy_env, seat=seat, opponents="heuristic"))
    gymnasium_check_env(pirate_envs.make_gym(toy_env, seat=seat, num_players=3), skip_render_check=True)


def test_registered_with_gymnasium_once_register_gym_envs_runs_again(toy_env):
    name = pirate_envs.gym_id(toy_env)
    assert name == "pirate_envs/PiecesOfEight-v0" and name not in gymnasium.registry
    pirate_envs.register_gym_envs()
    env = gymnasium.make(name, seat="random", opponents="heuristic", render_mode="rgb_array")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and env.get_wrapper_attr("action_masks")().any()
    assert env.render().shape == (720, 1280, 3)
    done = False
    while not done:
        action = int(np.flatnonzero(env.get_wrapper_attr("action_masks")())[0])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert terminated and reward in (-1.0, 1.0) and info["is_success"] == (reward == 1.0)


def test_heuristic_takes_cheaply_and_beats_random(toy_env):
    bot = make_heuristic(toy_env, num_players=3)
    state = dealt(3, [[1, 5, 9], [2, 6, 7], [3, 4, 8]])
    rng = np.random.default_rng(0)
    assert choose_action(bot, state, 0, rng) == action_of(1)  # leads with its lowest coin
    play(state, [1])
    assert choose_action(bot, state, 1, rng) == action_of(2)  # the cheapest coin that beats the 1
    play(state, [2])
    assert choose_action(bot, state, 2, rng) == action_of(3)  # the cheapest coin that beats the 2
    bot = make_heuristic(toy_env, num_players=2)
    wins = 0
    for seed in range(300):
        env = pirate_envs.make_gym(toy_env, seat="random", opponents="random")
        env.reset(seed=seed)
        reward, done = 0.0, False
        while not done:
            action = choose_action(bot, env.unwrapped.state, env.unwrapped.seat, rng)
            _, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward == 1.0
    assert wins > 0.56 * 300, f"the heuristic won {wins} of 300 games against random (random itself: 52%)"


def test_search_policies_play_the_toy_game(toy_env):
    game = PiecesOfEightGame(num_players=2)
    ismcts = resolve_policy("ismcts:iterations=16", toy_env, 2)
    state = game.new_initial_state(5)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(choose_action(ismcts, state, state.current_player(), rng))
    assert state.winners()


# --- OpenSpiel -----------------------------------------------------------------------------------------------


def test_openspiel_plays_the_toy_game(toy_env):
    pyspiel = pytest.importorskip("pyspiel")
    import pirate_envs.openspiel as pos

    with pytest.raises(ValueError, match="give its max_chance_outcomes"):
        pos.register_game(toy_env)
    name = pos.register_game(toy_env, max_chance_outcomes=len(COINS) + 1)  # coins 1..9 are the outcome ids
    assert name == "python_pieces_of_eight_v0" and name not in pos.GAME_NAMES
    game = pyspiel.load_game(name, {"num_players": 3})
    assert game.num_distinct_actions() == 9 and game.max_chance_outcomes() == 10
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()  # the shuffle deals the last coin of the purse first
    assert [coin for coin, _ in outcomes] == list(COINS) and all(p == pytest.approx(1 / 9) for _, p in outcomes)
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            coins, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(coins, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    engine = pos.engine_state(state)
    assert state.returns() == engine.returns() and sorted(state.returns()) in ([-1, -1, 1], [-1, 1, 1], [1, 1, 1])
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


# --- CONTRIBUTING.md ----------------------------------------------------------------------------------------

EXCERPT = re.compile(
    r"<!-- docs-test: skip: excerpt of (?P<path>\S+) -->\n```(?P<lang>\w*)\n(?P<code>.*?)^```$", re.M | re.S
)
EXCERPT_FILES = ("tests/toy_game/", "tests/test_toy_game.py", "tests/conftest.py")


def test_every_python_block_of_contributing_is_an_excerpt_of_the_toy_game():
    """Each ```python block of CONTRIBUTING.md follows a marker naming its file (a ``docs-test`` skip clause, so
    a docs test that runs blocks leaves it alone) and appears verbatim in that file."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    excerpts = list(EXCERPT.finditer(text))
    python_blocks = [block.end() for block in re.finditer(r"^```python\n", text, re.M)]
    marked = [match.start("code") for match in excerpts if match["lang"] == "python"]
    assert len(python_blocks) >= 10 and marked == python_blocks, "every ```python block needs an excerpt marker"
    for match in excerpts:
        path, code = match["path"], match["code"]
        assert match["lang"] in ("python", "markdown") and path.startswith(EXCERPT_FILES), (
            f"{path}: not a toy game file"
        )
        assert code.strip() and code in (ROOT / path).read_text(), f"this excerpt is not in {path}:\n{code}"


def test_no_registration_outlives_its_test():
    """Runs after every test above registered the toy game: none of them left it in the registry, in
    Gymnasium's registry, or in ``ENV_IDS``."""
    assert ENV_ID not in registered_env_ids() and ENV_ID not in pirate_envs.ENV_IDS
    assert pirate_envs.gym_id(ENV_ID) not in gymnasium.registry
    with pytest.raises(InvalidOptionError, match="unknown env id"):
        pirate_envs.make(ENV_ID)
