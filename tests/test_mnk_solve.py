"""Exact values of small m,n,k games."""

from __future__ import annotations

import random

import pytest

from zermelo.core.errors import BudgetError
from zermelo.games.mnk import new_game
from zermelo.search.minimax import minimax
from zermelo.solvers.mnk import solve_mnk, solve_position


def test_333_is_a_draw() -> None:
    solution = solve_mnk(3, 3, 3)
    assert solution.value == 0
    assert solution.outcome == "draw"
    assert solution.move is not None


def test_443_is_a_first_player_win() -> None:
    solution = solve_mnk(4, 4, 3)
    assert solution.value == 1
    # The move it names really wins: the second player has no answer.
    state = new_game(4, 4, 3).play(solution.move)  # type: ignore[arg-type]
    assert solve_position(state).value == -1


def test_444_is_a_draw() -> None:
    assert solve_mnk(4, 4, 4).value == 0


def test_rectangles_use_their_four_symmetries() -> None:
    assert solve_mnk(4, 3, 3).value == 1
    assert solve_mnk(3, 3, 3).stats.nodes < solve_mnk(3, 3, 3, exact=True).stats.nodes * 10


@pytest.mark.slow
def test_554_is_a_draw() -> None:
    solution = solve_mnk(5, 5, 4)
    assert solution.value == 0


@pytest.mark.slow
def test_544_is_a_draw() -> None:
    assert solve_mnk(5, 4, 4).value == 0


def test_solver_agrees_with_minimax_on_random_positions() -> None:
    rng = random.Random(12)
    for width, height, k in [(3, 3, 3), (4, 3, 3), (3, 4, 3)]:
        for _ in range(12):
            state = new_game(width, height, k)
            for _ in range(rng.randrange(3, 7)):
                if state.is_terminal():
                    break
                state = state.play(rng.choice(state.legal_moves()))
            value = minimax(state).value
            expected = 0 if value == 0 else (1 if value > 0 else -1)
            assert solve_position(state).value == expected, state.notation()


def test_node_limit_gives_up() -> None:
    with pytest.raises(BudgetError, match="node limit of 10"):
        solve_mnk(4, 4, 4, node_limit=10)
