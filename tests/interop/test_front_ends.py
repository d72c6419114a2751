"""OpenSpiel games through the command line: play (the generic text board), analyze, arena."""

from __future__ import annotations

import re

from conftest import run_cli


def test_play_an_openspiel_game_on_the_terminal() -> None:
    moves = "".join(f"{square}\n" for square in range(9))
    result = run_cli("play", "openspiel:tic_tac_toe", "--first", "human", stdin=moves + "n\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Moves: OpenSpiel's action strings, or the action numbers." in out
    assert "Your move (e.g. x(0,0)): 0\nx . .\n. . .\n. . .\nLast move: x(0,0)" in out
    assert "AI wins!" in out  # the first free square each time loses to the perfect AI


def test_analyze_an_openspiel_position() -> None:
    result = run_cli("analyze", "openspiel:tic_tac_toe", "4 0")
    assert result.returncode == 0, result.stderr
    assert "Value: draw" in result.stdout


def test_an_unfit_openspiel_game_is_one_line() -> None:
    # kuhn_poker loads since chance and hidden information do; simultaneous moves still do not.
    result = run_cli("analyze", "openspiel:goofspiel")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1] == (
        "zermelo: error: OpenSpiel game 'goofspiel' does not fit zermelo's search: it needs "
        "sequential moves (it has simultaneous moves)"
    )
    assert "Traceback" not in result.stderr


def test_arena_on_an_openspiel_game() -> None:
    result = run_cli("arena", "openspiel:tic_tac_toe", "random", "hard", "--games", "4")
    assert result.returncode == 0, result.stderr
    # Pairs table, results of the first agent: random won none of its 4 games against hard.
    assert re.search(r"random\s*│\s*hard\s*│\s*4\s*│\s*0\s*│", result.stdout), result.stdout
