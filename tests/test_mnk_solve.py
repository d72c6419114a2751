"""Exact values of small m,n,k games."""

from __future__ import annotations

import random

import pytest

from zermelo.core.errors import BudgetError
from zermelo.games.mnk import Rules, geometry, new_game
from zermelo.search.minimax import minimax
from zermelo.solvers.mnk import _image, _solver, solve_mnk, solve_position


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


@pytest.mark.parametrize(("width", "height", "count"), [(4, 3, 4), (3, 5, 4), (4, 4, 8)])
def test_the_solver_keys_every_symmetric_image_alike(width: int, height: int, count: int) -> None:
    """A rectangle has four symmetries and a square eight; each maps the winning windows onto
    themselves, and the solver's table key is the same for every image of a position."""
    rules = Rules(width, height, 3)
    symmetries = geometry(rules).symmetries
    assert len(set(symmetries)) == count
    solver = _solver(rules)
    windows = set(solver.windows)
    rng = random.Random(width * 100 + height)
    for perm in symmetries:
        assert {_image(w, perm) for w in windows} == windows
    for _ in range(40):
        points = rng.sample(range(width * height), rng.randrange(1, width * height))
        half = len(points) // 2
        own = sum(1 << p for p in points[:half])
        other = sum(1 << p for p in points[half:])
        keys = {solver.key(_image(own, perm), _image(other, perm)) for perm in symmetries}
        assert len(keys) == 1


def test_rectangles_are_solved() -> None:
    assert solve_mnk(4, 3, 3).value == 1


# 5x5 with k=4 is a draw too: solved once, end to end through the command line, by
# tests/test_cli_mnk.py (test_solve_5x5_k4_is_a_draw); solving it here as well took as long again.


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
