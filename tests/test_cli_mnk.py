"""The m,n,k and gomoku faces of the CLI: play, explain and solve."""

from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize(
    ("size", "k", "words"),
    [("3x3", "3", "draw"), ("4x4", "3", "first player wins"), ("4x4", "4", "draw")],
)
def test_solve_small_mnk_games(size: str, k: str, words: str) -> None:
    done = run_cli("solve", "mnk", "--size", size, "--k", k)
    assert done.returncode == 0, done.stderr
    assert f"{size}, k={k}: {words}; a best first move: " in done.stdout


@pytest.mark.slow
def test_solve_5x5_k4_is_a_draw() -> None:
    done = run_cli("solve", "mnk", "--size", "5x5", "--k", "4")
    assert done.returncode == 0, done.stderr
    assert "5x5, k=4: draw" in done.stdout


def test_play_a_small_mnk_game_with_piped_input() -> None:
    moves = "c3\nzz\nc3\nb2\nd4\na1\ne5\nb4\nd2\nb3\nb1\nc1\nd1\ne1\na5\nb5\nc5\nd5\na3\n"
    done = run_cli(
        "play", "mnk", "--size", "5x5", "--k", "4", "--first", "human", "--once",
        "--time", "0.2", "--seed", "1", stdin=moves,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-500:]
    out = done.stdout
    assert "Your move (e.g. c3): " in out
    assert "Please enter a column a-e and a row 1-5, such as c3." in out  # for "zz"
    assert "Invalid move! Try again." in out  # c3 a second time
    assert "   a b c d e" in out and " 5 . . . . . 5" in out
    assert out.rstrip().endswith(("AI wins!", "It's a tie!", "Congratulations! You win!"))


def test_explain_shows_every_feature_and_the_total() -> None:
    done = run_cli("explain", "gomoku", "h8 h9 i9 g7")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for feature in ("own_open_four", "own_two", "opp_open_three", "total f(s)"):
        assert feature in out
    assert "Position: 15x15 k5" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "gomoku", "--size", "7x7"], "--size is not a rule of gomoku; its rules: --exact"),
        (["play", "mnk", "--size", "7y7"], "is not a board size"),
        (["play", "tictactoe", "--k", "4"], "--k is not a rule of tictactoe; its rules: none"),
        (["play", "mnk", "--size", "30x30"], "option width=30: expected a number from 1 to 19"),
        (["play", "mnk", "--width", "x"], "option width='x': expected a whole number from 1 to 19"),
        (["play", "mnk", "-o", "k"], "--option 'k': expected NAME=VALUE"),
        (
            ["play", "connect4", "--k", "4"],
            "--k is not a rule of connect4; its rules: --width, --height",
        ),
        (["play", "mnk", "--size", "5x5", "--k", "9"], "invalid row length k=9"),
        (["explain", "gomoku", "h8 z99"], "move 'z99' is off the 15x15 board"),
        (
            ["explain", "tictactoe", "........."],
            "explain works on gomoku, mnk, checkers, international, dama, chess, othello, not on tictactoe",
        ),
        (["solve", "tictactoe", "--k", "4"], "--k is not a rule of tictactoe"),
        (["solve", "checkers"], "solve works on tictactoe, connect4, mnk, not on checkers"),
        (["tune", "tictactoe"], "tune works on gomoku"),
    ],
)
def test_bad_rules_get_one_line(args: list[str], fragment: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""  # refused before any greeting
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr
