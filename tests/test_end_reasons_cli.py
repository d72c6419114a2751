"""The terminal says why a game ended, for every game (it said so for chess only)."""

from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize(
    ("game", "position", "move", "reason", "result"),
    [
        ("tictactoe", "XX.OO.... X", "2", "three in a row", "Congratulations! You win!"),
        ("tictactoe", "XOXXOOOX. X", "8", "board full", "It's a tie!"),
        ("connect4", "112233", "4", "four in a row", "Congratulations! You win!"),
    ],
)
def test_the_end_is_given_in_words(
    game: str, position: str, move: str, reason: str, result: str
) -> None:
    done = run_cli(
        "play",
        game,
        "--position",
        position,
        "--human",
        "X",
        "--first",
        "human",
        "--once",
        stdin=f"{move}\n",
    )
    assert done.returncode == 0, done.stderr
    assert f"Game over: {reason}." in done.stdout
    assert result in done.stdout
