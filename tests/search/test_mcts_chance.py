"""MCTS with chance nodes: dice sampled by the search's rng, checked on Pig goal 10 against the
exact values of value iteration; games without chance are unchanged (tests/test_node_counts.py)."""

from __future__ import annotations

import random

import pytest

from zermelo.core.errors import IllegalMoveError
from zermelo.core.state import Player
from zermelo.games.pig import PigState
from zermelo.search.mcts import mcts
from zermelo.solvers.pig import solve, turn_values, win_probability


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return solve(10, 6)


def test_mcts_picks_the_optimal_move_in_clear_positions(table) -> None:  # type: ignore[no-untyped-def]
    clear = []
    for own in range(10):
        for other in range(10):
            roll, hold = turn_values(table, own, other)
            clear += [
                (own, other, turn, "roll" if roll[turn] > hold[turn] else "hold")
                for turn in range(2, 10 - own)
                if abs(roll[turn] - hold[turn]) > 0.15
            ]
    # Holding wins on the spot: a proven move.
    clear += [(own, 3, 10 - own, "hold") for own in (4, 6, 8)]
    picked = random.Random(1).sample(clear[:-3], 8) + clear[-3:]
    for own, other, turn, best in picked:
        state = PigState(own, other, turn, Player.FIRST, False, 10, 6)
        result = mcts(state, iterations=1500, rng=random.Random(5))
        assert result.move == best, (state, result.moves)


def test_the_value_estimate_approaches_the_exact_value(table) -> None:  # type: ignore[no-untyped-def]
    for text in ("0 0 0 X goal=10", "5 7 2 O goal=10", "3 0 4 X goal=10"):
        state = PigState.parse(text)
        exact = 2 * win_probability(table, state) - 1
        result = mcts(state, iterations=6000, rng=random.Random(2))
        assert result.value == pytest.approx(exact, abs=0.12), (text, exact)
        assert not result.exact


def test_the_search_is_seeded_and_refuses_a_chance_root() -> None:
    state = PigState.parse("2 4 6 X goal=10")
    one = mcts(state, iterations=300, rng=random.Random(9))
    two = mcts(state, iterations=300, rng=random.Random(9))
    assert [(m.move, m.visits) for m in one.moves] == [(m.move, m.visits) for m in two.moves]
    assert one.stats.iterations == 300
    with pytest.raises(IllegalMoveError, match="the dice decide"):
        mcts(state.play("roll"), iterations=10)
