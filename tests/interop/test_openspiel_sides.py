"""OpenSpiel games name their sides by the characters their own drawing uses, so the terminal
says "You are 'b'" on a board of b and w."""

from __future__ import annotations

import pytest
from tests.conftest import run_cli

from zermelo.games.registry import get_game


@pytest.mark.parametrize(
    ("name", "sides"),
    [
        ("openspiel:breakthrough", ("b", "w")),
        ("openspiel:hex(board_size=5)", ("x", "o")),
        ("openspiel:othello", ("x", "o")),
        ("openspiel:tic_tac_toe", ("x", "o")),
        # No one clear character per side on the drawing: the generic names stay.
        ("openspiel:dots_and_boxes", ("X", "O")),
    ],
)
def test_sides_are_the_games_own_symbols(name: str, sides: tuple[str, str]) -> None:
    assert get_game(name).sides == sides


def test_the_terminal_greets_with_the_games_symbols() -> None:
    done = run_cli(
        "play", "openspiel:breakthrough", "--first", "human", "--once", stdin="quit\nquit\n"
    )
    assert "You are 'b' and the AI is 'w'" in done.stdout
    assert "'X'" not in done.stdout
