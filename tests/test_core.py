"""Unit tests of the game-agnostic core: RNG and seeds, option validation, registry, reward helpers, and
``state_from_dict``'s refusal of impossible states."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

import pirate_envs
from pirate_envs.core.errors import InvalidOptionError, InvalidStateError
from pirate_envs.core.game import Game, State, copy_plain
from pirate_envs.core.options import Option, resolve_options
from pirate_envs.core.rewards import (
    clipped_margin,
    reward_options,
    score_margin_returns,
    team_win_loss_returns,
    win_loss_returns,
)
from pirate_envs.core.rng import Rng, as_rng, as_seed
from pirate_envs.policies.base import RandomPolicy, resolve_policy


def test_rng_is_seeded_and_round_trips():
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    assert Rng(1).next_u64() != Rng(2).next_u64()
    restored = Rng.from_json(json.loads(json.dumps(a.to_json())))
    assert [restored.randrange(1000) for _ in range(20)] == [a.randrange(1000) for _ in range(20)]
    clone = a.clone()
    assert clone.next_u64() == a.next_u64()


def test_rng_is_uniform_enough():
    rng = Rng(7)
    counts = Counter(rng.randrange(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(c - 10_000) < 400 for c in counts.values()), counts  # ~4.4 sigma
    firsts = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        assert sorted(items) == [0, 1, 2, 3]
        firsts[items[0]] += 1
    assert all(abs(c - 6_000) < 330 for c in firsts.values()), firsts


@pytest.mark.parametrize("length", [0, 1, 2, 9, 28, 29, 58, 60, 300, 4096, 4097])
def test_rng_shuffle_is_fisher_yates_on_next_u64_at_every_length(length):
    """Long lists take a vectorised path; every length must give the plain loop's order and leave
    the generator where ``n - 1`` draws leave it (seeded games depend on both)."""
    for seed in (0, 1, 2**64 - 1, 123456789):
        fast, slow = Rng(seed), Rng(seed)
        items = list(range(length))
        fast.shuffle(items)
        expected = list(range(length))
        for i in range(length - 1, 0, -1):
            j = (slow.next_u64() * (i + 1)) >> 64
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
        assert fast.state == slow.state


def test_rng_ignores_global_state():
    random.seed(1)
    np.random.seed(1)
    x = Rng(3).randrange(10**9)
    random.seed(2)
    np.random.seed(2)
    assert Rng(3).randrange(10**9) == x


def test_as_rng_accepts_common_sources():
    assert isinstance(as_rng(5), Rng)
    assert isinstance(as_rng(None), Rng)
    assert isinstance(as_rng(np.random.default_rng(0)), Rng)
    assert isinstance(as_rng(random.Random(0)), Rng)
    assert as_rng(np.random.default_rng(3)).state == as_rng(np.random.default_rng(3)).state
    with pytest.raises(TypeError, match="numpy Generator"):
        as_rng("seed")


SPECS = (
    Option("flag", False, bool),
    Option("mode", "win", str, choices=("win", "score")),
    Option("count", 10, int, minimum=1, maximum=20),
    Option("scale", 1.0, float, minimum=0.5),
)


def test_resolve_options_defaults_and_values():
    assert resolve_options(SPECS, {}, "g") == {"flag": False, "mode": "win", "count": 10, "scale": 1.0}
    got = resolve_options(SPECS, {"flag": True, "count": 3, "scale": 2}, "g")
    assert got["flag"] is True and got["count"] == 3 and got["scale"] == 2.0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"nope": 1}, r"unknown option\(s\) 'nope'; valid options: flag"),
        ({"flag": 1}, "'flag' must be a bool"),
        ({"count": True}, "'count' must be an int"),
        ({"count": 2.5}, "'count' must be an int"),
        ({"count": 0}, r"below the minimum; allowed: an integer in \[1, 20\]"),
        ({"count": 21}, "above the maximum"),
        ({"mode": "draw"}, "allowed: one of 'win', 'score'"),
        ({"scale": "big"}, "'scale' must be a number"),
    ],
)
def test_resolve_options_errors_name_what_is_allowed(given, expected):
    with pytest.raises(InvalidOptionError, match=expected):
        resolve_options(SPECS, given, "g")


def test_reward_helpers():
    assert win_loss_returns(1, 3) == [-1.0, 1.0, -1.0]
    assert score_margin_returns([10, 4, 7], 10) == [0.3, -0.6, -0.3]
    assert team_win_loss_returns([0, 2], 4) == [1.0, -1.0, 1.0, -1.0]
    assert [clipped_margin(own, 20, 10.0) for own in (5, 17, 20, 45)] == [-1.0, -0.3, 0.0, 1.0]


def test_reward_options_are_declared_once_with_the_rule_id():
    mode, scale = reward_options("XYZ-1", default_scale=25.0)
    assert (mode.name, mode.default, mode.choices) == ("reward_mode", "win", ("win", "score"))
    assert mode.doc == "XYZ-1: 'win' (+1/-1) or 'score' (margin / score_scale)"
    assert (scale.name, scale.default, scale.kind, scale.minimum) == ("score_scale", 25.0, float, 1e-9)
    assert scale.doc == "XYZ-1: divisor of the score margin in 'score' mode"
    (fixed,) = reward_options("XYZ-2", modes="team win/lose or score margin")
    assert fixed.doc == "XYZ-2: team win/lose or score margin"
    with pytest.raises(InvalidOptionError, match=r"option 'reward_mode' got 'margin'; allowed: one of 'win', 'score'"):
        resolve_options((mode, scale), {"reward_mode": "margin"}, "g")


@pytest.mark.parametrize(
    ("env_id", "rule", "scale"),
    [
        ("potsm_v0", "PSM-1020", 10.0),
        ("dead_mans_draw_v0", "DMD-1020", 50.0),
        ("madame_ching_v0", "MCH-1007", None),
        ("tortuga_v0", "TOR-808/TOR-1005", None),
    ],
)
def test_each_game_reads_its_reward_options_through_the_base(env_id, rule, scale):
    game_cls = pirate_envs.game_class(env_id)
    specs = {spec.name: spec for spec in game_cls.option_specs}
    assert specs["reward_mode"].doc.startswith(f"{rule}: ")
    assert (specs["score_scale"].default if "score_scale" in specs else None) == scale
    game = game_cls(reward_mode="score", **({"score_scale": 4.0} if scale else {}))
    assert (game.reward_mode, game.score_scale) == ("score", 4.0 if scale else None)
    assert game_cls().reward_mode == "win"


# --- the engine contract: a game lacking a required method fails when its class is defined --------------------
GAME_METHODS = ("_setup", "action_to_string")
STATE_METHODS = (
    "_setup_game",
    "_current_player",
    "_legal_actions",
    "_apply_action",
    "_is_terminal",
    "_scores",
    "_returns",
    "_winners",
    "_phase_name",
    "_resample_hidden",
    "check_invariants",
    "render",
)


def _stubs(names) -> dict:
    return {name: lambda self, *args: None for name in names}


CONTRACT_CASES = [(Game, m) for m in GAME_METHODS] + [(State, m) for m in STATE_METHODS]


@pytest.mark.parametrize(("contract", "missing"), CONTRACT_CASES)
def test_a_subclass_missing_a_contract_method_fails_when_defined(contract, missing):
    required = GAME_METHODS if contract is Game else STATE_METHODS
    expected = rf"Lacking does not define {missing}, required by the {contract.__name__} contract"
    with pytest.raises(TypeError, match=expected):
        type("Lacking", (contract,), _stubs(m for m in required if m != missing))
    type("Complete", (contract,), _stubs(required))  # every required method defined: fine


def test_a_partial_base_defers_the_contract_to_its_concrete_subclasses():
    class RulesBase(State, abstract=True):  # a partial base may leave methods undefined
        def render(self, viewer=None) -> str:
            return ""

    type("Concrete", (RulesBase,), _stubs(m for m in STATE_METHODS if m != "render"))
    with pytest.raises(TypeError, match="Lacking does not define _returns, _winners, required by the State"):
        type("Lacking", (RulesBase,), _stubs(m for m in STATE_METHODS if m not in ("render", "_returns", "_winners")))


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_every_game_defines_the_whole_contract(env_id):
    game_cls = pirate_envs.game_class(env_id)
    for cls, contract, required in ((game_cls, Game, GAME_METHODS), (game_cls.state_class, State, STATE_METHODS)):
        assert [name for name in required if getattr(cls, name) is getattr(contract, name)] == [], cls


def test_registry():
    assert "potsm_v0" in pirate_envs.ENV_IDS
    from pirate_envs import potsm_v0

    assert {"env", "raw_env", "Game"} <= set(dir(potsm_v0))
    with pytest.raises(InvalidOptionError, match="registered env ids: potsm_v0"):
        pirate_envs.make("chess_v0")


def test_resolve_policy():
    assert isinstance(resolve_policy("random", "potsm_v0"), RandomPolicy)
    with pytest.raises(ValueError, match="heuristic"):
        resolve_policy("greedy", "potsm_v0")
    policy = resolve_policy(lambda obs, mask, rng: int(np.flatnonzero(mask)[0]), "potsm_v0")
    assert policy.act(np.zeros(3), np.array([0, 1, 1], dtype=np.int8), np.random.default_rng()) == 1
    with pytest.raises(ValueError, match="allows no action"):
        RandomPolicy().act(np.zeros(3), np.zeros(3, dtype=np.int8), np.random.default_rng())


def test_copy_plain_shares_nothing_and_keeps_values():
    shared = [1, 2]
    value = {"a": [shared, shared, [3, [4.5, None, True, "x"]]], "b": (1, 2), "c": -(2**70)}
    copy = copy_plain(value)
    assert copy == value
    assert copy["a"] is not value["a"] and copy["a"][2][1] is not value["a"][2][1]
    assert copy["a"][0] is not shared
    copy["a"][0].append(9)
    assert shared == [1, 2]


def test_copy_plain_keeps_numpy_scalars():
    value = [[np.int64(3)], {"k": [np.float32(0.5)]}]
    copy = copy_plain(value)
    assert copy == value and copy[0] is not value[0] and copy[1]["k"] is not value[1]["k"]
    assert type(copy[0][0]) is np.int64 and type(copy[1]["k"][0]) is np.float32


def test_env_input_checks_name_what_is_allowed():
    """The adapters' shared checks (pirate_envs.adapters.checks): one integer action, a non-negative int seed,
    a known agent; each error names the value given and what is allowed."""
    from pirate_envs.adapters.checks import UnknownAgentError, as_action_index, check_seed, unknown_agent

    for good in (np.int64(3), np.uint8(3), np.array(3), np.array([3]), np.int32(3)):
        assert as_action_index("g", "player_0", good, 5) == 3 and type(as_action_index("g", "p", good, 5)) is int
    for bad in (None, 3.0, "3", True, np.bool_(True), np.array([1, 2]), np.array(3.0), [3], object()):
        with pytest.raises(TypeError, match=r"g: action .*\[0, 5\)"):
            as_action_index("g", "player_0", bad, 5)
    assert check_seed("g", None) is None and check_seed("g", np.int64(7)) == 7
    for bad in (True, 1.5, "2", np.float64(2)):
        with pytest.raises(TypeError, match="non-negative int"):
            check_seed("g", bad)
    with pytest.raises(ValueError, match="non-negative int; got -1"):
        check_seed("g", -1)
    error = unknown_agent("g", "player_9", ["player_0", "player_1"])
    assert isinstance(error, UnknownAgentError) and isinstance(error, KeyError) and isinstance(error, ValueError)
    assert str(error) == "g: unknown agent 'player_9'; the agents are 'player_0', 'player_1'"


# --- options: numbers are finite, numpy scalars are stored as plain values --------------------------------


@pytest.mark.parametrize("env_id", ["dead_mans_draw_v0", "potsm_v0"])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), np.float64("nan"), 0.0, -1.0])
def test_score_scale_must_be_a_finite_positive_number(env_id, bad):
    """nan gave nan returns (potsm) or -1 for every seat (DMD); inf made every return 0."""
    with pytest.raises(InvalidOptionError, match=r"'score_scale' .*allowed: a finite number in \[1e-09"):
        pirate_envs.game_class(env_id)(score_scale=bad)


def test_numpy_scalars_are_accepted_and_stored_as_plain_values():
    game = pirate_envs.game_class("dead_mans_draw_v0")(
        num_players=np.int64(3), max_decisions=np.int64(50), score_scale=np.float32(2.5), characters=np.bool_(False)
    )
    assert game.options["max_decisions"] == 50 and type(game.options["max_decisions"]) is int
    assert game.options["score_scale"] == 2.5 and type(game.options["score_scale"]) is float
    assert game.options["characters"] is False
    assert type(game.num_players) is int and game.max_decisions == 50
    assert type(resolve_options(SPECS, {"scale": np.int32(2)}, "g")["scale"]) is float
    json.dumps(game.new_initial_state(0).to_dict())  # options stay JSON-safe


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"count": np.bool_(True)}, "'count' must be an int"),
        ({"count": np.float64(3.0)}, "'count' must be an int"),
        ({"scale": np.bool_(True)}, "'scale' must be a number"),
        ({"scale": float("nan")}, "'scale' must be a finite number, got nan"),
        ({"flag": np.int64(1)}, "'flag' must be a bool"),
        ({"flag": "false"}, "'flag' must be a bool"),
        ({"mode": np.int64(1)}, "'mode' must be a string"),
    ],
)
def test_option_types_are_strict(given, expected):
    with pytest.raises(InvalidOptionError, match=expected):
        resolve_options(SPECS, given, "g")


# --- seeds ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [True, False, np.bool_(True), 1.5, 2.0, "7", [1]])
def test_seeds_must_be_integers(seed):
    game = pirate_envs.game_class("potsm_v0")()
    with pytest.raises(TypeError, match=r"int seed \(not a bool\).*got"):
        game.new_initial_state(seed)
    with pytest.raises(TypeError, match="seed must be an int"):
        as_seed(seed)
    with pytest.raises(TypeError, match="seed must be an int"):
        Rng(seed)


def test_numpy_integer_seeds_equal_plain_ones():
    game = pirate_envs.game_class("potsm_v0")()
    assert game.new_initial_state(np.int64(7)) == game.new_initial_state(7)
    assert Rng(np.uint64(7)).state == Rng(7).state and as_seed(np.int32(7)) == 7 and as_seed(None) is None


@pytest.mark.parametrize("text", ["zz", "", "0" * 17, "-000000000000001", " 123456789abcdef", 5, None])
def test_rng_from_json_takes_only_what_to_json_writes(text):
    with pytest.raises(ValueError, match="16 hexadecimal digits"):
        Rng.from_json(text)


# --- state_from_dict: the examples of issue 19 ------------------------------------------------------------


def _mid_game(env_id: str, num_players: int, decisions: int = 12) -> dict:
    state = pirate_envs.game_class(env_id)(num_players=num_players).new_initial_state(3)
    rng = random.Random(3)
    while state.decisions < decisions and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_dict()))


def _load(env_id: str, data):
    return pirate_envs.game_class(env_id).state_from_dict(data)


@pytest.mark.parametrize(
    ("env_id", "num_players", "tamper", "match"),
    [
        ("potsm_v0", 3, lambda d: d.__setitem__("truncated", "false"), "'truncated' must be true or false"),
        ("madame_ching_v0", 4, lambda d: d.__setitem__("num_players", 2), r"field '.*' holds one entry per seat: 2"),
        ("dead_mans_draw_v0", 2, lambda d: d["fields"]["busts"].__setitem__(0, -2), "busts holds -2"),
        ("dead_mans_draw_v0", 3, lambda d: d["fields"].__setitem__("phase", 99), "phase holds 99"),
        ("tortuga_v0", 4, lambda d: d["fields"]["deck"].append(99), "deck holds 99"),
        ("tortuga_v0", 4, lambda d: d["fields"]["deck"].__setitem__(0, 99), "deck holds 99"),
        ("potsm_v0", 2, lambda d: d.__setitem__("decisions", -5), r"'decisions' must be an int in \[0, max_decisions"),
        (
            "potsm_v0",
            2,
            lambda d: d.__setitem__("decisions", 10**6),
            r"'decisions' must be an int in \[0, max_decisions",
        ),
        ("potsm_v0", 2, lambda d: d.pop("rng"), r"missing key\(s\) \['rng'\]"),
        ("potsm_v0", 2, lambda d: d.__setitem__("rng", "zz"), "key 'rng': an Rng state is 16 hexadecimal digits"),
        ("dead_mans_draw_v0", 2, lambda d: d["fields"].pop("busts"), r"key 'fields': missing key\(s\) \['busts'\]$"),
        (
            "dead_mans_draw_v0",
            2,
            lambda d: d["fields"].__setitem__("bogus", 1),
            r"key 'fields': unknown key\(s\) \['bogus'\]$",
        ),
        (
            "dead_mans_draw_v0",
            2,
            lambda d: d["fields"].__setitem__("busts", [0, "1"]),
            r"field 'busts\[1\]' must be an",
        ),
        ("madame_ching_v0", 3, lambda d: d["fields"].__setitem__("step", "zz"), "step 'zz' is not one of"),
        ("potsm_v0", 2, lambda d: d.__setitem__("truncated", True), "'truncated' is true but decisions="),
    ],
)
def test_state_from_dict_rejects_impossible_states(env_id, num_players, tamper, match):
    """Issue 19: each of these loaded (and most played on to a result) before."""
    data = _mid_game(env_id, num_players)
    _load(env_id, data)  # the untouched dict loads
    tamper(data)
    with pytest.raises(InvalidStateError, match=match):
        _load(env_id, data)


@pytest.mark.parametrize("data", [None, [], "{}", 5])
def test_state_from_dict_needs_a_dict(data):
    with pytest.raises(InvalidStateError, match=r"expected a dict \(State.to_dict output\)"):
        _load("potsm_v0", data)


def test_invalid_state_error_is_a_value_error_exported_by_core():
    assert issubclass(InvalidStateError, ValueError) and pirate_envs.core.InvalidStateError is InvalidStateError


def test_an_invariant_failure_names_the_field_and_the_source_line():
    """A failure inside a game's invariants becomes InvalidStateError with the game's source line that raised it."""
    data = _mid_game("dead_mans_draw_v0", 2)
    data["fields"]["collections"][0] = data["fields"]["collections"][0][:-1]  # nine suits instead of ten
    with pytest.raises(InvalidStateError, match=r"collections: one stack per suit \[check_invariants: assert len"):
        _load("dead_mans_draw_v0", data)
    data = _mid_game("dead_mans_draw_v0", 2)
    data["fields"]["holder"] = data["fields"]["holder"][:-1]  # an IndexError in the rules before this check
    with pytest.raises(InvalidStateError, match=r"holder must hold 18 entries"):
        _load("dead_mans_draw_v0", data)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_a_truncated_state_round_trips_and_its_flag_must_agree(env_id):
    game_cls = pirate_envs.game_class(env_id)
    state = game_cls(max_decisions=7).new_initial_state(2)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_truncated()
    data = json.loads(json.dumps(state.to_dict()))
    assert game_cls.state_from_dict(data) == state
    data["truncated"] = False  # a running game at max_decisions must be truncated
    with pytest.raises(InvalidStateError, match="'decisions' is 7 = max_decisions"):
        game_cls.state_from_dict(data)
