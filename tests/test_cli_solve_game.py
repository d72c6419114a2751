"""``zermelo solve GAME`` for a game solved whole (Pig): facts, the summarised and the full table,
the plot, and one line for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli


def test_solve_pig_prints_the_facts_and_a_summary_of_the_policy(tmp_path: Path) -> None:
    plot = tmp_path / "hold.svg"
    done = run_cli("solve", "pig", "--goal", "40", "--die", "6", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:2] == ["goal", "40"] for line in lines)
    chance = next(line for line in lines if "chance to win, optimal play" in line)
    from zermelo.solvers.pig import solve

    assert chance.split()[-1] == f"{solve(40, 6).first_wins:.4f}"
    assert "21 of 40 rows; --full prints them all" in done.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    assert f"plot written to {plot}" in done.stdout.replace("\n", "")


def test_full_prints_every_row() -> None:
    done = run_cli("solve", "pig", "--goal", "12", "--full")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 12
    assert "--full prints them all" not in done.stdout


def test_iterations_bounds_the_sweeps() -> None:
    done = run_cli("solve", "pig", "--goal", "20", "--iterations", "2")
    assert done.returncode == 0, done.stderr
    facts = dict(
        (line.rsplit(None, 1)[0].strip(), line.rsplit(None, 1)[1])
        for line in done.stdout.splitlines()[:9]
    )
    assert facts["sweeps of value iteration"] == "2"
    assert facts["converged"] == "no"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--goal", "1000"), "too many to solve here; use a goal of at most 250"),
        (("--goal", "1"), "expected a number from 2 to 1000"),
        (("--plot", "out.pdf"), "expected a file name ending in .png or .svg"),
        (("0 0 0 X",), "pig is solved whole: it takes no positions"),
        (("--iterations", "0"), "--iterations"),
        (("--width", "7"), "--width is not a rule of pig"),
    ],
)
def test_bad_input_gets_one_line(args: tuple[str, ...], expected: str) -> None:
    done = run_cli("solve", "pig", *args)
    assert done.returncode == 2, done.stdout
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert expected in done.stderr


def test_the_whole_game_options_are_refused_for_other_games() -> None:
    done = run_cli("solve", "tictactoe", "--plot", "x.png")
    assert done.returncode == 2
    assert "for games solved whole; tictactoe is not one" in done.stderr
