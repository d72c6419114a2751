"""The command line, run as a person would: in a subprocess, with piped input."""

from __future__ import annotations

import pytest

from conftest import run_cli, start_cli

RESULTS = ("AI wins!", "Congratulations! You win!", "It's a tie!")


def all_squares() -> str:
    # Typing every square in turn always finds a free one; occupied ones are refused and retried.
    return "\n".join(str(i) for i in range(9)) + "\n"


def test_whole_game_with_piped_input() -> None:
    done = run_cli(
        "play", "tictactoe", "--seed", "3", "--first", "human", "--once", stdin=all_squares()
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(
        "Welcome to Tic Tac Toe!\nYou are 'O' and the AI is 'X'\n"
        "Enter positions (0-8) as shown below:\n0 | 1 | 2\n---------\n3 | 4 | 5\n---------\n6 | 7 | 8\n"
    )
    assert "Your turn (0-8): " in out
    assert "AI's turn..." in out
    # The hard AI never loses: playing squares in order against it ends in its win.
    assert out.rstrip().endswith("AI wins!")
    assert "\x1b[" not in out  # plain text into a pipe
    assert done.stderr == ""


def test_the_game_is_replayable_with_a_seed() -> None:
    runs = [run_cli("play", "--seed", "11", "--once", stdin=all_squares()) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert any(result in runs[0].stdout for result in RESULTS)


def test_invalid_input_messages() -> None:
    done = run_cli(
        "play",
        "--first",
        "human",
        "--once",
        "--seed",
        "1",
        stdin="abc\n\n9\n-1\n4\n4\n" + all_squares(),
    )
    out = done.stdout
    assert out.count("Please enter a number between 0 and 8!") == 2  # "abc" and the empty line
    assert out.count("Invalid move! Try again.") >= 3  # 9, -1, and 4 again
    assert done.returncode == 0
    assert "Traceback" not in done.stderr


def test_the_ai_can_start_and_the_human_can_play_x() -> None:
    done = run_cli(
        "play", "--first", "ai", "--human", "X", "--once", "--seed", "2", stdin=all_squares()
    )
    out = done.stdout
    assert "You are 'X' and the AI is 'O'" in out
    assert out.index("AI's turn...") < out.index("Your turn (0-8): ")
    assert any(result in out for result in RESULTS[::2])  # AI wins or a tie, never the human


def converse(args: list[str], answers: dict[str, list[str]]) -> str:
    """Run the game and answer each prompt as it appears, as a person at the keyboard would.

    ``answers`` maps a prompt to the replies to give it in turn; a square reply of "*" means "the
    first free square" (read off the last board shown). Returns the whole transcript.
    """
    process = start_cli(*args)
    assert process.stdin is not None and process.stdout is not None
    transcript = ""
    pending = {prompt: list(replies) for prompt, replies in answers.items()}
    while True:
        char = process.stdout.read(1)
        if not char:
            break
        transcript += char
        for prompt, replies in pending.items():
            if transcript.endswith(prompt):
                reply = replies.pop(0) if replies else ""
                if reply == "*":
                    board = [line for line in transcript.splitlines() if line.count(" | ") == 2][
                        -3:
                    ]
                    cells = [cell.strip() for row in board for cell in row.split("|")]
                    reply = str(cells.index(""))
                process.stdin.write(reply + "\n")
                process.stdin.flush()
    process.wait(timeout=60)
    assert process.returncode == 0, transcript
    return transcript


def test_score_is_kept_across_games() -> None:
    out = converse(
        ["play", "--first", "human", "--seed", "5"],
        {"Your turn (0-8): ": ["*"] * 10, "Play again? (y/n): ": ["y", "n"]},
    )
    assert "Score: you 0, AI 1, ties 0" in out
    assert "Score: you 0, AI 2, ties 0" in out
    assert out.rstrip().endswith("Thanks for playing!")


def test_end_of_input_mid_game_is_one_line_and_non_zero() -> None:
    done = run_cli("play", "--first", "human", "--seed", "1", stdin="4\n")
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("Input ended before the game was over; goodbye.")
    assert done.stderr == ""


def test_end_of_input_after_a_game_ends_the_session_cleanly() -> None:
    done = run_cli("play", "--first", "human", "--seed", "1", stdin=all_squares())
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("Thanks for playing!")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_lower_levels_play_whole_games(level: str) -> None:
    done = run_cli("play", "--level", level, "--seed", "4", "--once", stdin=all_squares())
    assert done.returncode == 0
    assert any(result in done.stdout for result in RESULTS)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "--level", "hardest"], "Invalid value for '--level'"),
        (["play", "--first", "nobody"], "Invalid value for '--first'"),
        (["play", "--human", "Z"], "invalid side 'Z': expected X or O"),
        (["play", "--seed", "x"], "Invalid value for '--seed'"),
        (["play", "shogi"], "unknown game 'shogi'"),
        (["analyze", "tictactoe", "X.O....."], "expected 9 squares, got 8"),
        (["analyze", "tictactoe", "XX......."], "X has 2 stones and O has 0"),
        (["analyze", "tictactoe", "X.O...... Q"], "invalid side to move 'Q'"),
        (["analyze"], "Missing argument 'GAME'"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_bad_input_gets_one_clear_line(args: list[str], fragment: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert fragment in lines[0]
    assert "Traceback" not in done.stderr


def test_analyze_prints_every_move_with_its_value() -> None:
    done = run_cli("analyze", "tictactoe", "X.O......")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for square, words in [
        (3, "win in 3"),
        (6, "win in 3"),
        (8, "win in 3"),
        (4, "draw"),
        (1, "loss in 3"),
    ]:
        assert any(
            line.split("│")[1].strip() == str(square) and line.split("│")[2].strip() == words
            for line in out.splitlines()
            if line.count("│") >= 3
        ), (square, words)
    assert "Best move: 3" in out
    assert "Value: win in 3" in out
    assert "Principal variation: 3 6 4" in out
    assert "nodes" in out and "table hits" in out


def test_analyze_a_finished_game() -> None:
    done = run_cli("analyze", "tictactoe", "XXXOO....")
    assert done.returncode == 0
    assert "The game is over" in done.stdout


def test_module_and_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0 and "0.1.0" in done.stdout
    assert "play" in run_cli("--help").stdout
