"""Pig's analysis: exact values from the solved table (zermelo.solvers.pig_analysis)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import run_cli
from zermelo.core.errors import BudgetError
from zermelo.core.limits import Limits
from zermelo.core.state import Player
from zermelo.games.pig import PigState
from zermelo.solvers import pig
from zermelo.solvers.pig import best_move, solved_table, win_probability
from zermelo.solvers.pig_analysis import ANALYSIS


def test_the_start_is_won_0_5306_by_rolling() -> None:
    result = ANALYSIS.analyze(PigState.initial(), Limits())
    assert result.exact and result.move == "roll"
    assert round((result.value + 1) / 2, 4) == 0.5306
    assert [value.move for value in result.moves] == ["roll", "hold"]
    assert all(value.exact for value in result.moves)
    assert round((result.moves[1].value + 1) / 2, 4) == 0.4694


def _random_state(rng: random.Random, goal: int) -> PigState:
    first, second = rng.randrange(goal), rng.randrange(goal)
    side = rng.choice((Player.FIRST, Player.SECOND))
    own = first if side is Player.FIRST else second
    turn = rng.randrange(goal - own + 1)
    return PigState(first, second, turn, side, rng.random() < 0.5, goal, 6)


@pytest.mark.parametrize("goal", [100, 30])
def test_every_value_is_the_tables_chance_to_win(goal: int) -> None:
    table = solved_table(goal, 6)
    rng = random.Random(goal)
    for _ in range(300):
        state = _random_state(rng, goal)
        result = ANALYSIS.analyze(state, Limits(time=10.0))
        assert result.exact
        assert result.value == pytest.approx(2 * win_probability(table, state) - 1, abs=1e-12)
        for entry in result.moves:
            child = state.play(entry.move)  # type: ignore[arg-type]
            chance = win_probability(table, child)
            mine = chance if child.to_move is state.to_move else 1 - chance
            assert entry.value == pytest.approx(2 * mine - 1, abs=1e-12)
        if state.rolling:
            assert result.move is None and len(result.moves) == 6
        else:
            assert result.move == best_move(table, state)


@pytest.fixture
def cold_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(tmp_path))
    kept = dict(pig._READY)
    pig._READY.clear()
    yield
    pig._READY.clear()
    pig._READY.update(kept)


@pytest.mark.usefixtures("cold_cache")
def test_a_time_limit_spent_during_the_first_solve_is_refused_in_one_line() -> None:
    with pytest.raises(BudgetError) as caught:
        ANALYSIS.analyze(PigState.initial(goal=60), Limits(time=0.0))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("Pig's table for goal 60 with a d6 is solved the first time")
    # With time enough, the same question is answered, and the table is kept for the next.
    assert ANALYSIS.analyze(PigState.initial(goal=60), Limits(time=60.0)).exact
    assert ANALYSIS.analyze(PigState.initial(goal=60), Limits(time=0.0)).exact


def test_a_goal_too_big_to_solve_is_estimated_by_expectiminimax() -> None:
    result = ANALYSIS.analyze(PigState.initial(goal=500), Limits(depth=2))
    assert not result.exact and result.depth == 2
    assert {value.move for value in result.moves} == {"roll", "hold"}


def test_the_cli_prints_the_exact_analysis() -> None:
    done = run_cli("analyze", "pig", "")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split("│")[1:4] == [" roll ", " +0.0612 ", "  53.1% "] for line in lines)
    assert "Best move: roll" in lines
    assert "Exact, from the game's solved table: P(win) 0.5306." in lines
    rolling = run_cli("analyze", "pig", "roll")
    assert rolling.returncode == 0, rolling.stderr
    assert "Chance node: each outcome for X" in rolling.stdout
    assert any(
        line.split("│")[1:4] == ["       1 ", "      0.1667 ", " -0.0612 "]
        for line in rolling.stdout.splitlines()
    )
    assert "Exact, from the game's solved table: P(win) 0.5306." in rolling.stdout.splitlines()
