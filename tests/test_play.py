"""A person against bots in the terminal (``training.apps.play``), driven by scripted input.

Bad answers (garbage, out of range) are asked again; the game completes; end of input and quit
leave cleanly; ``?``/``help`` explains the decision, every choice, the table and the codes; lines fit
the width; no engine word (``ABILITY_CHOICE``, ``TARGET offset 1``) reaches the screen; and nothing
is printed but what the person's seat may see: every printed line is framing or comes from the
seat's ``table_view`` / ``describe_action(viewer=seat)`` / narration of two seat views (sources the
view conformance tests prove equal on ``resample_hidden(seat)``), and the targeted tests below check
the secrets of each game by name (a kept ability, a vote card, a picked card, a pirate).
"""

from __future__ import annotations

import io
import itertools
import re

import pytest

import pirate_envs
from pirate_envs.core.registry import game_class
from pirate_envs.drawing.text import choice_lines, glossary_lines, help_lines, rules_doc, table_lines, wrap
from training.apps.play import choice_help, main, play_game, tell_move
from training.inputs import InputError

ENV_ID = "potsm_v0"
GARBAGE = ["", "abc", "0", "-1", "999", "1.5", "v"]
WIDTH = 72


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

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def replay_states(env_id: str, num_players: int, seed: int, actions: list[int]):
    """Every state of the game the session played, from its seed and action list."""
    state = game_class(env_id)(num_players=num_players).new_initial_state(seed)
    states = [state.clone()]
    for action in actions:
        state.apply_action(action)
        states.append(state.clone())
    return states


FRAMING = [
    r"  player_\d is played by the \S+ bot\.",
    r"Codes on the table:",
    r"Type \? at a prompt for help\. The rules: docs/rules/\w+\.md",
    r"Please type a number from 1 to \d+, or \? for help\.",
    r"-?\d+ is not one of the choices; type a number from 1 to \d+\.",
    r"Type \? for help on this decision, or \? and a number from 1 to \d+ for one choice\.",
    r"You win!|You win, with .+!|You lose\.",
    r"You left the game\.",
    r"",
]


def seat_lines(states: list, actions: list[int], seat: int, seed: int, width: int) -> set[str]:
    """Every line the session may print from what ``seat`` sees (its views, its reading of each move)."""
    game = states[0].game
    allowed = set(
        wrap(
            f"{game.display_name} ({game.game_id}), {game.num_players} players, seed {seed}. You are player_{seat}.",
            width,
        )
    )
    for line in glossary_lines(states[0].table_view(seat), width):
        allowed.add(line)
    for i, state in enumerate(states):
        view = state.table_view(seat)
        allowed.update(table_lines(view, width))
        allowed.update(choice_lines(view, width))
        allowed.update(help_lines(view, width, rules_doc(game)))
        for number in range(1, len(view.legal) + 1):
            allowed.update(choice_help(view, number, width))
        if i < len(actions):
            for line in tell_move(state, view, state.current_player(), actions[i], states[i + 1], seat):
                allowed.update(wrap(line.strip(), width, "  " if line.startswith(" ") else ""))
    return allowed


def assert_only_seat_lines(
    lines: list[str], states: list, actions: list[int], seat: int, seed: int, width: int
) -> None:
    allowed = seat_lines(states, actions, seat, seed, width)
    for line in lines:
        assert line in allowed or any(re.fullmatch(p, line) for p in FRAMING), f"unexpected line: {line!r}"


def test_garbage_is_asked_again_and_the_game_completes():
    script, printed = Script([*GARBAGE, "2"]), Printed()
    result = play_game(
        ENV_ID, seat=1, opponents=["random"], num_players=3, seed=4, input_fn=script, print_fn=printed, width=WIDTH
    )
    assert result["completed"]
    assert "Please type a number from 1 to" in printed.text
    for bad in ("0", "-1", "999"):
        assert any(line.startswith(f"{bad} is not one of the choices") for line in printed.lines)
    # The first prompt was repeated once per bad answer (and once for 'v').
    assert len(script.prompts) > len(GARBAGE)
    assert len(set(script.prompts[: len(GARBAGE) + 1])) == 1
    states = replay_states(ENV_ID, 3, 4, result["actions"])
    assert states[-1].is_terminal() and result["scores"] == [float(s) for s in states[-1].scores()]
    assert printed.lines[-2] == states[-1].table_view(1).result or printed.lines[-1].startswith("You")


@pytest.mark.parametrize("answer", ["?", "help", "HELP", "h"])
def test_help_explains_the_decision_every_choice_the_table_and_the_codes(answer):
    """``help`` was bad input: now it explains what is being decided and everything in play."""
    printed = Printed()
    play_game(
        "dead_mans_draw_v0", 0, ["random"], 3, seed=5, input_fn=Script([answer, "q"]), print_fn=printed, width=WIDTH
    )
    text = printed.text
    assert "Please type a number" not in text
    assert "Your turn (player_0): keep one of your two ability cards." in text
    assert "Keep one ability for the whole game." in text
    assert "Your choices:" in text and "On the table:" in text and "Codes:" in text
    assert "Kraken: you must draw two more cards." in text  # a card on the table, explained
    assert re.search(r"Keep \w[\w ']* - \w", text)  # each choice with what it does
    assert "The full rules: docs/rules/dead_mans_draw.md" in text


def test_help_on_one_choice():
    printed = Printed()
    play_game(ENV_ID, 0, ["random"], 3, seed=2, input_fn=Script(["? 1", "? 99", "q"]), print_fn=printed, width=WIDTH)
    assert any(line.startswith("1. ") and ": " in line for line in printed.lines)
    assert "Type ? for help on this decision, or ? and a number from 1 to" in printed.text


ENGINE_WORD = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bdecision [A-Z]|\boffset \d")


def _wrapped_on(line: str) -> bool:
    """A line that continues the wrapped line before it (indented, not a numbered choice)."""
    return line.startswith("    ") and not re.match(r"\s+\d+\. ", line)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_no_engine_words_and_every_prompt_says_what_is_decided(env_id):
    """Regression: the screen showed "decision ABILITY_CHOICE", "HOOK_SUIT", "TARGET offset 1 Chest"."""
    num_players = max(game_class(env_id).player_counts)
    printed = Printed()
    result = play_game(
        env_id, 0, ["random"], num_players, seed=3, input_fn=Script(["?"]), print_fn=printed, width=WIDTH
    )
    assert result["completed"]
    glossary = " ".join(
        code for code, _ in game_class(env_id)(num_players=num_players).new_initial_state(0).table_view(0).glossary
    )
    for line in printed.lines:
        for word in ENGINE_WORD.findall(line):
            assert word.split("_")[0] + "_" in glossary, f"engine word {word!r} in {line!r}"
    lines = printed.lines
    statuses = [  # a status with the lines it wrapped onto
        " ".join([line, *(more.strip() for more in itertools.takewhile(_wrapped_on, lines[i + 1 :]))])
        for i, line in enumerate(lines)
        if line.startswith("Your turn (player_0)")
    ]
    assert statuses and all(re.fullmatch(r"Your turn \(player_0\): \w.*\.", s) for s in statuses), statuses[:3]


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_lines_fit_the_width(env_id):
    """Regression: the legend line wrapped mid-word at 120 columns."""
    printed = Printed()
    width = 60
    result = play_game(env_id, 0, ["random"], None, seed=1, input_fn=Script(["?"]), print_fn=printed, width=width)
    assert result["completed"]
    too_long = [line for line in printed.lines if len(line) > width and " " in line.strip()]
    assert not too_long, too_long[:3]


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
@pytest.mark.parametrize("seat", [0, 2])
def test_only_the_persons_own_view_is_printed(env_id, seat):
    num_players = max(game_class(env_id).player_counts)
    script, printed = Script(["v", "2", "x", "?"], fallback="1"), Printed()
    result = play_game(
        env_id, seat, ["heuristic"], num_players, seed=9 + seat, input_fn=script, print_fn=printed, width=WIDTH
    )
    assert result["completed"]
    states = replay_states(env_id, num_players, 9 + seat, result["actions"])
    assert_only_seat_lines(printed.lines, states, result["actions"], seat, 9 + seat, WIDTH)


def test_dmd_the_others_moves_name_the_card_they_drew():
    """Regression: an opponent's line said only "DRAW"; the drawn card is public (DMD-401)."""
    printed = Printed()
    play_game("dead_mans_draw_v0", 0, ["random"], 3, seed=7, input_fn=Script([]), print_fn=printed, width=WIDTH)
    lines = printed.lines
    draws = [i for i, line in enumerate(lines) if re.fullmatch(r"player_[12] drew a card", line)]
    assert len(draws) >= 5
    for i in draws:
        told = r"  (Into the row: |player_\d busted with \w+ \d|Drew \w+ \d)\w*"
        assert re.match(told, lines[i + 1]), lines[i : i + 2]


def test_dmd_an_opponents_kept_ability_is_secret_until_the_reveal():
    """DMD-304: the ability a seat keeps is face down for the others until every seat has chosen."""
    printed = Printed()
    result = play_game("dead_mans_draw_v0", 0, ["random"], 3, seed=5, input_fn=Script([]), print_fn=printed)
    states = replay_states("dead_mans_draw_v0", 3, 5, result["actions"])
    reveal = next(i for i, s in enumerate(states) if s.revealed)
    kept_by_others = {states[reveal].kept[s] for s in (1, 2)} - set(states[0].dealt[0])
    from pirate_envs.games.dead_mans_draw.cards import ABILITY_NAMES

    keep_lines = [line for line in printed.lines if "kept one of their ability cards" in line]
    assert len(keep_lines) == 2
    cut = printed.lines.index(keep_lines[-1])
    early = "\n".join(printed.lines[:cut])
    assert not any(ABILITY_NAMES[a] in early for a in kept_by_others)


def test_tortuga_the_others_vote_cards_are_not_named():
    """TOR-916: a vote card is played face down; the person reads only that a vote card was played."""
    printed = Printed()
    result = play_game("tortuga_v0", 0, ["random"], 5, seed=2, input_fn=Script([]), print_fn=printed, width=WIDTH)
    assert result["completed"]
    assert any(re.fullmatch(r"player_\d played a vote card face down", line) for line in printed.lines)
    assert not any(re.match(r"player_\d: Vote (Yes|No|Wild)", line) for line in printed.lines)


def test_mch_the_others_picks_are_named_only_when_revealed():
    """MCH-904: the card picked in Select is secret until every seat has picked."""
    printed = Printed()
    play_game("madame_ching_v0", 0, ["random"], 4, seed=2, input_fn=Script([]), print_fn=printed, width=WIDTH)
    assert any(re.fullmatch(r"player_[123] picked a navigation card face down", line) for line in printed.lines)
    assert not any(re.match(r"player_[123]: Pick ", line) for line in printed.lines)
    assert any(re.fullmatch(r"  Picks revealed: player_[123]'s \w+ junk: \d+ \w+.*", line) for line in printed.lines)


def test_potsm_your_pirates_names_only_the_persons_own_pirates():
    from pirate_envs.games.potsm.cards import PIRATE_NAMES

    seat, printed = 0, Printed()
    result = play_game(ENV_ID, seat, ["random"], 4, seed=21, input_fn=Script([], fallback="1"), print_fn=printed)
    states = replay_states(ENV_ID, 4, 21, result["actions"])
    owner = states[0].pirate_owner  # dealt once (PSM-303); accusations reveal, never transfer
    own_lines = [line for line in printed.lines if line.startswith("  player_0's pirates")]
    assert len(own_lines) >= 2  # shown at every decision of the person, and at the end
    for line, state in zip(own_lines, [s for s in states if s.current_player() == seat], strict=False):
        hidden = [PIRATE_NAMES[j] for j in range(9) if owner[j] != seat and not state.revealed[j]]
        assert all(name not in line for name in hidden), line
        assert sum(PIRATE_NAMES[j] in line for j in range(9) if owner[j] == seat) == 2


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
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n?\n1\n"))
    assert main(["--env", ENV_ID, "--num-players", "2", "--opponents", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Please type a number from 1 to" in out
    assert "Your choices:" in out
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
