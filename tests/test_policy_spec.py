"""The one policy-spec grammar (``pirate_envs.policies.spec``) and the resolver built on it.

Every form is classified without loading anything; junk and near misses get an error that names
them and the allowed forms; the ambiguous texts (a file named like a bot, ``ismcts:`` typos,
``module:callable`` against a search bot's parameters) land where the module docstring says; and a
``module:callable`` spec works wherever a spec is accepted.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pirate_envs
from pirate_envs.policies.base import CallablePolicy, RandomPolicy, resolve_policy
from pirate_envs.policies.ismcts import ISMCTSPolicy
from pirate_envs.policies.spec import CHECKPOINT_KINDS, KINDS, PolicySpec, parse_policy_spec
from training.evaluation.ladder import entry_checkpoint, resolve_entry_spec
from training.evaluation.tournament import run_tournament
from training.inputs import InputError, checkpoint_location, load_policy, make_game

DMD = "dead_mans_draw_v0"


@pytest.fixture
def bots_module(tmp_path, monkeypatch) -> str:
    """A module ``my_bots`` on the path, with a function, a policy class and something that is neither."""
    (tmp_path / "my_bots.py").write_text(
        textwrap.dedent(
            """
            import numpy as np

            def first_legal(observation, action_mask, rng):
                return int(np.flatnonzero(action_mask)[0])

            class LastLegal:
                name = "last-legal"

                def act(self, observation, action_mask, rng):
                    return int(np.flatnonzero(action_mask)[-1])

            NOT_A_POLICY = 3
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_bots"


# --- every form ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kind", "fields"),
    [
        ("random", "random", {}),
        ("heuristic", "heuristic", {}),
        ("shipped", "shipped", {}),
        ("ismcts", "ismcts", {"params": ""}),
        ("ismcts:", "ismcts", {"params": ""}),
        ("ismcts:iterations=5,rollout=heuristic", "ismcts", {"params": "iterations=5,rollout=heuristic"}),
        ("flatmc:rollouts=3", "flatmc", {"params": "rollouts=3"}),
        ("rllib:runs/r1/checkpoint#player_0", "rllib", {"path": "runs/r1/checkpoint", "module_id": "player_0"}),
        ("rllib:runs/r1", "rllib", {"path": "runs/r1", "module_id": None}),
        ("pkg.mod:func", "import", {"target": ("pkg.mod", "func")}),
        ("my_bots:LastLegal", "import", {"target": ("my_bots", "LastLegal")}),
        ("missing/model.zip", "checkpoint", {"path": "missing/model.zip"}),
        ("model.zip", "checkpoint", {"path": "model.zip"}),
        ("runs/x/best", "checkpoint", {"path": "runs/x/best"}),  # a path, though no such file is here
    ],
)
def test_every_text_form_is_classified(spec, kind, fields):
    parsed = parse_policy_spec(spec)
    assert parsed.kind == kind and parsed.text == spec
    for name, value in fields.items():
        assert getattr(parsed, name) == value, name
    assert parsed.on_disk == (kind in CHECKPOINT_KINDS)


def test_the_disk_decides_only_for_texts_of_no_named_form(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rllib_run").mkdir()
    (tmp_path / "model").write_bytes(b"")
    assert parse_policy_spec("rllib_run").kind == "rllib"  # a directory: an RLlib checkpoint
    assert parse_policy_spec("model").kind == "checkpoint"  # an existing file, whatever its name
    with pytest.raises(ValueError, match="unknown policy 'modle'"):
        parse_policy_spec("modle")  # neither a form nor on disk


def test_objects_callables_and_paths():
    policy = RandomPolicy()
    parsed = parse_policy_spec(policy)
    assert parsed.kind == "object" and parsed.value is policy and parsed.text == "random"

    def pick(observation, action_mask, rng):
        return 0

    assert parse_policy_spec(pick).kind == "callable" and parse_policy_spec(pick).text == "pick"
    path = parse_policy_spec(Path("runs") / "model.zip")
    assert path.kind == "checkpoint" and path.path == str(Path("runs") / "model.zip")
    spec = PolicySpec("random", "random")
    assert parse_policy_spec(spec) is spec
    assert set(KINDS) >= {"random", "heuristic", "shipped", "ismcts", "flatmc", "checkpoint", "rllib", "import"}


# --- junk ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", r"unknown policy 'wizard'; expected one of: random, heuristic, ismcts.*module:callable"),
        ("", "unknown policy ''"),
        ("   ", "unknown policy '   '"),
        ("heuristc", r"unknown policy 'heuristc' \(did you mean 'heuristic'\?\)"),
        ("ISMCTS:iterations=5", r"did you mean 'ismcts'\?"),
        ("ismct:iterations=5", r"unknown policy 'ismct:iterations=5' \(did you mean 'ismcts'\?\)"),
        ("flatmc;rollouts=3", r"did you mean 'flatmc'\?"),
        ("heuristic:fast", "'heuristic' takes no parameters; got 'heuristic:fast'"),
        ("random:choice", "'random' takes no parameters"),  # never the standard library's random.choice
        ("rllib:", "names no directory"),
        ("rllib:#player_0", "names no directory"),
    ],
)
def test_junk_texts_name_themselves_and_the_allowed_forms(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_policy_spec(spec)


@pytest.mark.parametrize("thing", [42, None, 1.5, ["random"]])
def test_junk_objects(thing):
    with pytest.raises(ValueError, match=r"cannot use .* as a policy; expected one of"):
        parse_policy_spec(thing)


def test_the_hint_is_left_out_when_nothing_is_close():
    with pytest.raises(ValueError) as caught:
        parse_policy_spec("wizard")
    assert "did you mean" not in str(caught.value)


# --- ambiguous texts -------------------------------------------------------------------------------


def test_a_file_named_like_a_bot_is_the_bot_unless_written_as_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("heuristic", "random", "ismcts"):
        (tmp_path / name).write_bytes(b"")
        assert parse_policy_spec(name).kind == name
        assert parse_policy_spec(f"./{name}").kind == "checkpoint"
        assert parse_policy_spec(Path(name)).kind == "checkpoint"  # a Path is never a bot name


def test_search_bot_heads_are_never_imported():
    """``ismcts:iterations=5`` and ``ismcts:func`` are the search bot (bad parameters are its own error);
    ``pkg.mod:func`` is an import; a near miss of the head is junk with a hint."""
    assert parse_policy_spec("ismcts:iterations=5").kind == "ismcts"
    assert parse_policy_spec("ismcts:func").kind == "ismcts"
    assert parse_policy_spec("flatmc:rollouts").kind == "flatmc"
    assert parse_policy_spec("ismcts.bots:func").kind == "import"
    assert parse_policy_spec("pkg.mod:func").kind == "import"
    with pytest.raises(ValueError, match="expected key=value with key one of"):
        resolve_policy("ismcts:func", DMD)
    with pytest.raises(ValueError, match=r"bad ismcts parameter 'iteration=5'.*key one of"):
        resolve_policy("ismcts:iteration=5", DMD)  # a typo in a key: the bot names its keys
    with pytest.raises(ValueError, match=r"cannot import the policy 'ismct:func'.*did you mean 'ismcts'"):
        resolve_policy("ismct:func", DMD)  # a typo in the head of something import-shaped


def test_a_zip_or_a_slash_makes_a_path_even_when_missing():
    assert parse_policy_spec("heuristic.zip").kind == "checkpoint"
    assert parse_policy_spec("ismcts/model.zip").kind == "checkpoint"
    assert parse_policy_spec("pkg.mod:func.zip").kind == "checkpoint"  # not an attribute name


# --- the resolver ----------------------------------------------------------------------------------


def test_module_callable_resolves_to_the_object_a_class_instance_or_a_wrapped_function(bots_module):
    assert isinstance(resolve_policy("pirate_envs.policies.base:RandomPolicy", DMD), RandomPolicy)
    last = resolve_policy(f"{bots_module}:LastLegal", DMD)
    assert last.name == "last-legal"
    first = resolve_policy(f"{bots_module}:first_legal", DMD)
    assert isinstance(first, CallablePolicy)
    mask = np.array([0, 1, 1, 0], dtype=np.int8)
    assert first.act(None, mask, None) == 1 and last.act(None, mask, None) == 2
    with pytest.raises(ValueError, match="is neither a policy"):
        resolve_policy(f"{bots_module}:NOT_A_POLICY", DMD)
    with pytest.raises(ValueError, match=r"cannot import the policy 'no_such_module_x:thing' \(module:callable\)"):
        resolve_policy("no_such_module_x:thing", DMD)
    with pytest.raises(ValueError, match="AttributeError"):
        resolve_policy(f"{bots_module}:nobody", DMD)


def test_module_callable_works_wherever_a_spec_is_accepted(bots_module):
    spec = f"{bots_module}:first_legal"
    result = run_tournament(DMD, 2, [spec, "random"], games=2, seed=0)  # evaluate, rate, sprt
    assert result["standings"][spec]["seat_games"] == 2
    assert isinstance(load_policy(spec, make_game(DMD, None)), CallablePolicy)  # play, exploit
    env = pirate_envs.make_gym(DMD, opponents=spec)  # training opponents
    env.reset(seed=0)
    with pytest.raises(InputError, match="cannot import"):
        load_policy("no_such_module_x:thing", make_game(DMD, None))


def test_resolving_a_parsed_spec_and_a_search_bot():
    parsed = parse_policy_spec("ismcts:iterations=7")
    bot = resolve_policy(parsed, DMD)
    assert isinstance(bot, ISMCTSPolicy) and bot.iterations == 7
    with pytest.raises(ValueError, match="RLlib checkpoint directory 'nowhere' does not exist"):
        resolve_policy("rllib:nowhere", DMD)


def test_checkpoint_location_refuses_bot_specs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "heuristic").write_bytes(b"")
    with pytest.raises(InputError, match=r"'heuristic' is a policy spec \(heuristic\), not a checkpoint.*\./heuristic"):
        checkpoint_location("heuristic", DMD)
    with pytest.raises(InputError, match=r"checkpoint not found: gone\.zip"):
        checkpoint_location("gone.zip", DMD)
    with pytest.raises(InputError, match="checkpoint not found: wizard"):
        checkpoint_location("wizard", DMD)
    assert checkpoint_location("./heuristic", DMD) == "./heuristic"
    assert checkpoint_location("shipped", DMD).endswith(f"{DMD}/model.zip")


def test_ladder_entries_find_the_shipped_model_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = entry_checkpoint(f"checkpoints/{DMD}/model.zip")
    assert found is not None and found.is_file() and found.is_absolute()
    assert resolve_entry_spec(f"checkpoints/{DMD}/model.zip") == str(found)
    assert entry_checkpoint("ismcts:iterations=10") is None and resolve_entry_spec("heuristic") == "heuristic"


def test_the_grammar_imports_no_torch():
    code = "import sys, pirate_envs.policies.spec; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
