"""A person against bots in the terminal (``training.play``), driven by scripted input.

Bad answers (garbage, out of range) are asked again; the game completes; end of input and quit
leave cleanly; and nothing is printed but the person's own view: every printed line is either
framing (prompts, announced moves, scores) or a line of ``render(viewer=seat)`` of a state the
game went through, and no other seat's secrets (lines only that seat's own view shows) appear.
"""

from __future__ import annotations

import io
import re

import pytest

import pirate_envs
from pirate_envs.core.registry import game_class
from training.inputs import InputError
from training.play import main, play_game

ENV_ID = "potsm_v0"
GARBAGE = ["", "abc", "0", "-1", "999", "1.5", "v"]


class Script:
    """``input_fn`` that answers from a list, then keeps answering ``fallback``; None means EOF."""

    def __init__(self, answers: list[str], fallback: str | None = "1") -> None:
        self.answers = list(answers)
        self.fallback = fallback
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        answer = self.answers.pop(0) if self.answers else self.fallback
        if answer is None:
            raise EOFError
        return answer


class Printed:
    """``print_fn`` that keeps every printed line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, *parts: object) -> None:
        self.lines.extend(" ".join(str(p) for p in parts).split("\n"))


def replay_states(env_id: str, num_players: int, seed: int, actions: list[int]):
    """Every state of the game the session played, from its seed and action list."""
    state = game_class(env_id)(num_players=num_players).new_initial_state(seed)
    states = [state.clone()]
    for action in actions:
        state.apply_action(action)
        states.append(state.clone())
    return states


FRAMING = [
    r".* \(\w+\), \d players, seed \d+\. You are player_\d\.",
    r"  player_\d: .+",
    r"Your move, player_\d:",
    r"\s+\d+\. .+",
    r"Please type a number from 1 to \d+\.",
    r"-?\d+ is not one of the choices; type a number from 1 to \d+\.",
    r"(You|player_\d \(.+\)): .+",
    r"Final scores:",
    r"  player_\d( \(you\))?: -?[\d.]+",
    r"You win!|Winner: .+|The game was cut at its decision limit: no winner\.",
    r"You left the game\.",
    r"",
]


def assert_only_own_view_printed(lines: list[str], states: list, seat: int) -> None:
    own_view = {line for state in states for line in state.render(viewer=seat).splitlines()}
    for line in lines:
        assert line in own_view or any(re.fullmatch(p, line) for p in FRAMING), f"unexpected line: {line!r}"
    for state in states:
        public = set(state.render(None).splitlines())
        mine = set(state.render(viewer=seat).splitlines())
        for other in range(state.num_players):
            if other == seat:
                continue
            secrets = set(state.render(viewer=other).splitlines()) - public - mine
            leaked = secrets & set(lines)
            assert not leaked, f"seat {other}'s hidden lines printed to seat {seat}: {leaked}"


def test_garbage_is_asked_again_and_the_game_completes():
    script, printed = Script([*GARBAGE, "2"]), Printed()
    result = play_game(ENV_ID, seat=1, opponents=["random"], num_players=3, seed=4, input_fn=script, print_fn=printed)
    assert result["completed"]
    assert "Please type a number from 1 to" in "\n".join(printed.lines)
    for bad in ("0", "-1", "999"):
        assert any(line.startswith(f"{bad} is not one of the choices") for line in printed.lines)
    # The first prompt was repeated once per bad answer (and once for 'v').
    assert len(script.prompts) > len(GARBAGE)
    assert len(set(script.prompts[: len(GARBAGE) + 1])) == 1
    assert printed.lines[-1].startswith(("You win", "Winner:", "The game was cut"))
    assert any(line == "Final scores:" for line in printed.lines)
    states = replay_states(ENV_ID, 3, 4, result["actions"])
    assert states[-1].is_terminal() and result["scores"] == [float(s) for s in states[-1].scores()]


def test_bot_moves_are_announced_by_name():
    printed = Printed()
    result = play_game(ENV_ID, 0, ["heuristic", "random", "random"], 4, seed=2, input_fn=Script([]), print_fn=printed)
    game = game_class(ENV_ID)(num_players=4)
    states = replay_states(ENV_ID, 4, 2, result["actions"])
    announced = [line for line in printed.lines if re.fullmatch(r"(You|player_\d \(.+\)): .+", line)]
    assert len(announced) == len(result["actions"])
    for line, state, action in zip(announced, states, result["actions"], strict=False):
        seat = state.current_player()
        who = "You" if seat == 0 else f"player_{seat} ({'heuristic' if seat == 1 else 'random'})"
        assert line == f"{who}: {game.action_to_string(action)}"


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
@pytest.mark.parametrize("seat", [0, 2])
def test_only_the_persons_own_view_is_printed(env_id, seat):
    num_players = max(game_class(env_id).player_counts)
    script, printed = Script(["v", "2", "x"], fallback="1"), Printed()
    result = play_game(env_id, seat, ["heuristic"], num_players, seed=9 + seat, input_fn=script, print_fn=printed)
    assert result["completed"]
    states = replay_states(env_id, num_players, 9 + seat, result["actions"])
    assert_only_own_view_printed(printed.lines, states, seat)


def test_potsm_your_pirates_names_only_the_persons_own_pirates():
    from pirate_envs.games.potsm.cards import PIRATE_NAMES

    seat, printed = 0, Printed()
    result = play_game(ENV_ID, seat, ["random"], 4, seed=21, input_fn=Script([], fallback="1"), print_fn=printed)
    states = replay_states(ENV_ID, 4, 21, result["actions"])
    owner = states[0].pirate_owner  # dealt once (PSM-303); accusations reveal, never transfer
    others = [PIRATE_NAMES[j] for j in range(9) if owner[j] != seat]
    own_lines = [line for line in printed.lines if line.startswith("Your pirates")]
    assert len(own_lines) >= 2  # shown at every decision of the person, and at the end
    for line in own_lines:
        assert all(name not in line for name in others), line
        assert sum(PIRATE_NAMES[j] in line for j in range(9) if owner[j] == seat) == 2
    assert_only_own_view_printed(printed.lines, states, seat)


def test_end_of_input_leaves_cleanly():
    printed = Printed()
    result = play_game(ENV_ID, 0, ["random"], 2, seed=1, input_fn=Script([], fallback=None), print_fn=printed)
    assert result == {"completed": False, "seed": 1, "seat": 0, "actions": result["actions"]}
    assert printed.lines[-1] == "You left the game."


@pytest.mark.parametrize("answer", ["q", "quit"])
def test_quit_leaves_cleanly(answer):
    result = play_game(ENV_ID, 1, ["random"], 2, seed=1, input_fn=Script(["3", answer]), print_fn=Printed())
    assert not result["completed"]


def test_ctrl_c_leaves_cleanly():
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    assert not play_game(ENV_ID, 0, ["random"], 2, seed=1, input_fn=interrupt, print_fn=Printed())["completed"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(seat=4), "--seat must be a seat number from 0 to 3"),
        (dict(opponents=["random", "heuristic"]), "--opponents takes 1 spec .* or 3"),
        (dict(opponents=["wizard"]), "unknown policy 'wizard'"),
        (dict(opponents=["gone.zip"]), "checkpoint not found: gone.zip"),
        (dict(env_id="nope_v0"), "unknown env id"),
    ],
)
def test_bad_setup_raises_input_error(kwargs, message):
    args = dict(env_id=ENV_ID, seat=0, opponents=["random"], num_players=4) | kwargs
    with pytest.raises(InputError, match=message):
        play_game(**args, input_fn=Script([]), print_fn=Printed())


def test_cli_plays_from_stdin_and_exits_cleanly_at_eof(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n1\n"))
    assert main(["--env", ENV_ID, "--num-players", "2", "--opponents", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Please type a number from 1 to" in out
    assert out.rstrip().endswith("You left the game.")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--env", "nope_v0"], "unknown env id 'nope_v0'"),
        (["--env", ENV_ID, "--seat", "5"], "--seat must be a seat number"),
        (["--env", ENV_ID, "--option", "upcoming_adventures=maybe"], "option 'upcoming_adventures'"),
        (["--env", ENV_ID, "--opponents", "nowhere/model.zip"], "checkpoint not found"),
    ],
)
def test_cli_bad_input_exits_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
