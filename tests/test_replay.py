"""Replays: ``training.evaluation.evaluate --replays DIR`` writes one JSON file per game, each re-simulates
exactly through the engine to the recorded result, and a replay that does not (an illegal action,
a changed outcome, a broken file) is a clear error naming what is wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import pirate_envs
from pirate_envs.core.registry import game_class
from pirate_envs.core.replay import (
    Replay,
    ReplayError,
    final_state,
    load_replay,
    record_game,
    replay_states,
    save_replay,
)
from training.evaluation.evaluate import main
from training.evaluation.tournament import run_tournament


def random_game_replay(env_id: str, seed: int = 4) -> Replay:
    game = game_class(env_id)()
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return record_game(game, seed, actions, ["random"] * game.num_players)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_replay_round_trip_re_simulates_exactly(env_id, tmp_path):
    replay = random_game_replay(env_id)
    path = save_replay(replay, tmp_path / "game.json")
    loaded = load_replay(path)
    assert loaded == replay
    state = final_state(loaded)
    assert state.is_terminal() and state.returns() == replay.outcome["returns"]
    # every position is rebuilt: as many states as actions, plus the initial one
    assert sum(1 for _ in replay_states(loaded)) == len(replay.actions) + 1
    assert path.stat().st_size < 16_000  # small enough to keep thousands


def test_evaluate_cli_writes_replays_that_re_simulate(tmp_path):
    out = tmp_path / "replays"
    code = main(
        ["--env", "dead_mans_draw_v0", "--num-players", "2", "--policies", "heuristic", "random",
         "--games", "3", "--seed", "7", "--replays", str(out)]
    )  # fmt: skip
    assert code == 0
    files = sorted(out.glob("game-*.json"))
    assert [f.name for f in files] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    for path in files:
        replay = load_replay(path)
        assert replay.env_id == "dead_mans_draw_v0" and replay.options["num_players"] == 2
        assert sorted(replay.policies) == ["heuristic", "random"]
        state = final_state(replay)  # raises unless the recorded outcome is reproduced
        assert state.winners() == replay.outcome["winners"]


def test_replays_match_the_tournament_results(tmp_path):
    result = run_tournament("potsm_v0", 3, ["heuristic", "random"], games=3, seed=1, keep_games=True, replays=tmp_path)
    for record in result["game_records"]:
        assert "replay" not in record  # the actions live in the files, not in the summary
        replay = load_replay(tmp_path / f"game-{record['game']:05d}.json")
        assert replay.outcome["returns"] == record["returns"]
        assert replay.outcome["scores"] == record["scores"]
        assert replay.source == {"tournament_seed": 1, "game": record["game"]}


def test_checkpoint_mode_writes_one_folder_per_opponent(tmp_path):
    """``evaluate --checkpoint ... --vs random heuristic --replays DIR`` writes DIR/vs-<opponent>/."""
    pytest.importorskip("sb3_contrib")
    checkpoint = Path(__file__).parent.parent / "checkpoints" / "dead_mans_draw_v0" / "model.zip"
    if not checkpoint.exists():
        pytest.skip("the shipped DMD checkpoint is missing")
    argv = ["--env", "dead_mans_draw_v0", "--checkpoint", str(checkpoint), "--vs", "random", "heuristic",
            "--games", "2", "--replays", str(tmp_path)]  # fmt: skip
    assert main(argv) == 0
    for opponent in ("random", "heuristic"):
        files = sorted((tmp_path / f"vs-{opponent}").glob("game-*.json"))
        assert len(files) == 2
        replay = load_replay(files[0])
        assert sorted(set(replay.policies)) == sorted({"checkpoint", opponent})
        final_state(replay)


def test_tampered_replay_names_the_step(tmp_path):
    replay = random_game_replay("potsm_v0")
    data = replay.to_dict()
    state = game_class("potsm_v0")().new_initial_state(replay.seed)
    for action in replay.actions[:5]:
        state.apply_action(action)
    illegal = next(a for a in range(state.game.num_actions) if a not in state.legal_actions())
    data["actions"][5] = illegal
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match=r"step 5 of \d+: action \d+ .* is not legal .* legal: "):
        final_state(load_replay(path))


def test_changed_outcome_is_an_error():
    replay = random_game_replay("madame_ching_v0")
    replay.outcome["scores"] = [s + 1 for s in replay.outcome["scores"]]
    with pytest.raises(ReplayError, match="re-simulated scores"):
        final_state(replay)


def test_cut_replay_is_an_error():
    replay = random_game_replay("tortuga_v0")
    replay.actions = replay.actions[:-3]
    with pytest.raises(ReplayError, match="end before the game does"):
        final_state(replay)


def test_extra_action_after_the_end_is_an_error():
    replay = random_game_replay("dead_mans_draw_v0")
    replay.actions.append(0)
    with pytest.raises(ReplayError, match=rf"step {len(replay.actions) - 1} .* after the end"):
        final_state(replay)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "a replay is a JSON object"),
        ('{"env_id": "potsm_v0", "options": {}, "seed": 1, "policies": []}', "missing field 'actions'"),
        ('{"env_id": "potsm_v0", "options": {}, "seed": "1", "policies": [], "actions": []}', "'seed' must be int"),
        (
            '{"env_id": "potsm_v0", "options": {}, "seed": 1, "policies": [], "actions": [1, "2"]}',
            "step 1: action '2' is not an integer",
        ),
        ('{"format": 9, "env_id": "potsm_v0"}', "format 9 is not supported"),
    ],
)
def test_bad_replay_files_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ReplayError, match=message):
        load_replay(path)


def test_replay_with_bad_options_is_a_clear_error():
    replay = random_game_replay("potsm_v0")
    replay.options["num_players"] = 11
    with pytest.raises(ReplayError, match="do not make a game"):
        final_state(replay)


def test_replays_folder_that_cannot_be_created_is_an_input_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = main(
        ["--env", "potsm_v0", "--policies", "random", "--games", "1", "--replays", str(blocker / "sub")]
    )  # fmt: skip
    assert code == 2
    assert "cannot create the replays folder" in capsys.readouterr().err
