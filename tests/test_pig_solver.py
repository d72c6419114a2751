"""Pig solved by value iteration: Neller and Presser's 0.5306, "hold at 20"'s 0.5347, the policy,
and the budgets."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from zermelo.core.capabilities import GameSolver
from zermelo.core.errors import BudgetError, InvalidOptionError
from zermelo.core.state import Player
from zermelo.games.pig import SPEC, PigState
from zermelo.search.expectimax import expectiminimax
from zermelo.solvers.pig import (
    best_move,
    check_size,
    evaluate_hold_at,
    hold_boundary,
    solve,
    solved_table,
    win_probability,
)


@pytest.fixture(scope="module")
def goal_100():  # type: ignore[no-untyped-def]
    return solve(100, 6)


def test_optimal_play_wins_0_5306_for_the_first_player(goal_100) -> None:  # type: ignore[no-untyped-def]
    assert goal_100.converged and goal_100.residual <= 1e-12
    assert round(goal_100.first_wins, 4) == 0.5306


def test_holding_at_20_wins_0_5347_for_the_first_player() -> None:
    table = evaluate_hold_at(20, 100, 6)
    assert table.converged
    assert round(table.first_wins, 4) == 0.5347


def test_the_table_is_a_fixed_point_of_expectiminimax() -> None:
    # Searched a few plies with the table's exact values at the horizon, expectiminimax must give
    # the table's value back, at every decision and chance node of goal 12.
    table = solve(12, 6)

    def exact(state: object) -> float:
        assert isinstance(state, PigState)
        return 2 * win_probability(table, state) - 1

    checked = 0
    for own in range(12):
        for other in range(12):
            for turn in range(0, 12 - own, 2):
                for rolling in (False, True):
                    state = PigState(own, other, turn, Player.FIRST, rolling, 12, 6)
                    result = expectiminimax(state, 3, evaluator=exact)
                    assert result.value == pytest.approx(exact(state), abs=1e-10), state
                    if not rolling and own + turn < 12:
                        roll_value = next(m.value for m in result.moves if m.move == "roll")
                        hold_value = next(m.value for m in result.moves if m.move == "hold")
                        if abs(roll_value - hold_value) > 1e-9:
                            expected = "roll" if roll_value > hold_value else "hold"
                            assert best_move(table, state) == expected
                    checked += 1
    assert checked > 500


def test_the_hold_boundary_is_where_the_policy_first_holds(goal_100) -> None:  # type: ignore[no-untyped-def]
    boundary = hold_boundary(goal_100)
    for own, other in [(0, 0), (50, 50), (0, 90), (80, 20), (97, 0)]:
        turn = int(boundary[own, other])
        state = PigState(own, other, turn, Player.FIRST)
        assert best_move(goal_100, state) == "hold"
        for smaller in range(2, turn):
            assert best_move(goal_100, PigState(own, other, smaller, Player.FIRST)) == "roll"
    assert boundary[97, 0] == 3  # hold as soon as holding wins
    # Far behind, the optimal player takes risks: it holds later than at the start.
    assert boundary[0, 90] > boundary[0, 0]


def test_a_game_too_big_is_refused_in_one_line_before_any_work() -> None:
    started = time.perf_counter()
    with pytest.raises(BudgetError) as error:
        solve(1000, 6)
    assert "\n" not in str(error.value) and "at most" in str(error.value)
    assert time.perf_counter() - started < 1.0
    with pytest.raises(InvalidOptionError):
        check_size(1, 6)


def test_the_deadline_is_honoured_inside_the_iteration() -> None:
    with pytest.raises(BudgetError, match="time limit"):
        solve(60, 6, deadline=time.monotonic() - 1)
    partial = solve(60, 6, iterations=3)
    assert partial.sweeps == 3 and not partial.converged


def test_the_record_s_game_solver_gives_facts_table_and_series() -> None:
    assert SPEC.game_solver is not None
    solver = SPEC.game_solver.resolve()
    assert isinstance(solver, GameSolver)
    steps: list[tuple[str, int, int]] = []
    solution = solver.solve_game(
        {"goal": 20, "die": 6}, None, lambda s, d, t: steps.append((s, d, t))
    )
    facts = dict(solution.facts)
    p = solve(20, 6).first_wins
    assert facts["first player's chance to win, optimal play"] == f"{p:.4f}"
    assert solution.value == pytest.approx(2 * p - 1)
    assert solution.header[0] == "own score" and len(solution.header) == 1 + 10
    assert len(solution.rows) == 20 and solution.rows[0][0] == "0"
    assert {stage for stage, _, _ in steps} == {"value iteration", "hold at 20"}
    assert steps[-1][1:] == (100, 100)
    assert solution.series and all(len(s.x) == len(s.y) == 20 for s in solution.series)
    boundary = hold_boundary(solve(20, 6))
    assert solution.series[0].y == tuple(float(b) for b in boundary[:, 0])
    assert np.all(boundary >= 1)


def test_the_solved_table_is_kept_on_disk_and_checked_when_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(tmp_path))
    solved_table.cache_clear()
    first = solved_table(30, 6)
    kept = tmp_path / "pig" / "goal30-d6.npy"
    assert kept.exists() and first.sweeps > 0
    solved_table.cache_clear()
    again = solved_table(30, 6)
    assert again.sweeps == 0  # read, not solved
    assert np.array_equal(again.start, first.start)
    # A damaged file is not trusted: the game is solved again (and the file rewritten).
    damaged = first.start.copy()
    damaged[3, 4] += 0.01
    np.save(kept, damaged)
    solved_table.cache_clear()
    fixed = solved_table(30, 6)
    assert fixed.sweeps > 0 and np.array_equal(fixed.start, first.start)
    kept.write_bytes(b"not a table")
    solved_table.cache_clear()
    assert solved_table(30, 6).sweeps > 0
    solved_table.cache_clear()


def test_the_hard_level_falls_back_to_search_for_a_goal_too_big_to_solve() -> None:
    from zermelo.agents.pig import OptimalAgent

    started = time.perf_counter()
    move = OptimalAgent().choose(PigState.parse("0 0 30 X goal=1000"))
    assert move in ("roll", "hold")
    assert time.perf_counter() - started < 30
