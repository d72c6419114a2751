"""The command line on the games of chance and hidden information: ``zermelo play`` end to end on
scripted input, ``zermelo analyze`` (expected values, outcome probabilities; hidden games refused
with one line), ``zermelo games`` marking them."""

from __future__ import annotations

import re

import pytest

from conftest import run_cli


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_analyze_refuses_a_hidden_game_with_one_line_naming_solve(game: str) -> None:
    done = run_cli("analyze", game, "")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "hides each side's cards" in done.stderr
    assert f"'zermelo solve {game}'" in done.stderr


def test_a_hidden_game_refuses_save_before_it_starts() -> None:
    done = run_cli("play", "kuhn", "--save", "hand.txt", "--once")
    assert done.returncode == 2
    assert done.stderr == (
        "zermelo: error: Kuhn poker hides the other side's cards, which a saved game would show: "
        "it cannot be saved\n"
    )


def test_the_games_table_marks_chance_hidden_and_points() -> None:
    done = run_cli("games")
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["kuhn"][-1] == "c,h,p"
    assert rows["pig"][-1] == "c"
    assert rows["chess"][-1] == "-"
    assert rows["kuhn"][3] == "·"  # no analyze for a hidden game
    assert re.search(r"^ leduc .* c,h,p\s*$", done.stdout, flags=re.M)
    assert "kind: c chance (dice, deals), h hidden information, p scored in points" in done.stdout
    assert "international-draughts" in done.stdout  # the aliases keep their width
