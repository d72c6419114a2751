"""The engine against the oracle: alpha-beta must give plain minimax's values."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import reachable
from zermelo.core.errors import BudgetError
from zermelo.core.scores import WIN, describe
from zermelo.core.state import Player
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import (
    TranspositionTable,
    alphabeta,
    analyze,
    minimax,
    parent_score,
)


def oracle_values(start: TicTacToeState) -> dict[TicTacToeState, float]:
    """Plain minimax's value of every position reachable from ``start``.

    Each value is computed by :func:`minimax` from its own position, with no memory shared between
    positions; they are visited in a fixed order so that failures name the same position each run.
    """
    states = sorted(reachable(start), key=lambda s: (s.ply, s.x, s.o, s.to_move))
    return {state: minimax(state).value for state in states}


@pytest.mark.slow
@pytest.mark.parametrize("first", [Player.FIRST, Player.SECOND])
def test_alphabeta_equals_minimax_on_every_reachable_position(first: Player) -> None:
    values = oracle_values(TicTacToeState.initial(first))
    table = TranspositionTable()
    for state, expected in values.items():
        fresh = alphabeta(state)
        shared = alphabeta(state, table=table)
        assert fresh.value == expected, state
        assert shared.value == expected, state
        assert fresh.exact and shared.exact
        if state.is_terminal():
            assert fresh.move is None
            continue
        # The chosen move keeps the game's value ...
        assert parent_score(values[state.play(fresh.move)]) == expected, state
        # The principal variation is played out to the end of the game, with the value's result.
        end = state
        for move in fresh.pv:
            end = end.play(move)
        assert end.is_terminal(), (state, fresh.pv)
        if expected == 0:
            assert end.winner is None
        else:
            assert len(fresh.pv) == WIN - abs(expected)
            assert (end.winner == state.to_move) == (expected > 0)
        # ... and it is the lowest of the moves that do.
        keeping = [
            m for m in state.legal_moves() if parent_score(values[state.play(m)]) == expected
        ]
        assert fresh.move == min(keeping), state


def test_game_value_from_the_empty_board_is_a_draw() -> None:
    for first in Player:
        result = alphabeta(TicTacToeState.initial(first))
        assert result.value == 0 and result.exact
        assert result.describe() == "draw"


def test_tutorial_examples_through_the_engine() -> None:
    assert alphabeta(TicTacToeState.parse("XO.......")).move == 3
    assert alphabeta(TicTacToeState.parse("XO.XO....")).move == 6


def test_fastest_win_is_preferred() -> None:
    # X can win at once on 2 (top row) or play elsewhere and still win later.
    state = TicTacToeState.parse("XX.OO....")
    result = alphabeta(state)
    assert result.move == 2
    assert result.value == WIN - 1
    assert describe(result.value) == "win in 1"
    assert result.pv == (2,)


def test_slowest_loss_is_preferred() -> None:
    # X to move has lost: O threatens 3-4-5, and only the block on 3 delays the end.
    state = TicTacToeState.parse(".X..OO.X. X")
    result = alphabeta(state)
    assert result.move == 3
    assert describe(result.value) == "loss in 2"
    assert result.value == minimax(state).value


def test_analyze_values_every_move_like_minimax() -> None:
    state = TicTacToeState.parse("X.O......")
    values = analyze(state)
    assert sorted(v.move for v in values) == sorted(state.legal_moves())
    for value in values:
        assert value.value == parent_score(minimax(state.play(value.move)).value)
        assert value.pv[0] == value.move
    assert [v.value for v in values] == sorted((v.value for v in values), reverse=True)


def test_random_tie_break_is_seeded_and_stays_optimal() -> None:
    state = TicTacToeState.initial()
    first_moves = {alphabeta(state, rng=random.Random(seed)).move for seed in range(40)}
    # Every first move draws; with enough seeds more than one is drawn.
    assert len(first_moves) > 1
    assert all(parent_score(minimax(state.play(m)).value) == 0 for m in first_moves)
    again = [alphabeta(state, rng=random.Random(7)).move for _ in range(3)]
    assert len(set(again)) == 1


def test_budgets_return_a_legal_move() -> None:
    state = TicTacToeState.initial()
    by_nodes = alphabeta(state, node_limit=5)
    assert by_nodes.move in state.legal_moves()
    assert not by_nodes.exact
    # A clock that cannot run out first (the search takes milliseconds): deepening under it
    # goes on to the end of the game.
    by_time = alphabeta(state, time_limit=60.0)
    assert by_time.exact and by_time.value == 0
    shallow = alphabeta(state, depth=2)
    assert shallow.depth == 2 and not shallow.exact


@pytest.mark.parametrize(
    "kwargs",
    [{"depth": 0}, {"time_limit": 0}, {"time_limit": -1}, {"node_limit": 0}],
)
def test_bad_budgets_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(BudgetError):
        alphabeta(TicTacToeState.initial(), **kwargs)  # type: ignore[arg-type]


def test_terminal_position() -> None:
    result = alphabeta(TicTacToeState.parse("XXXOO...."))
    assert result.move is None and result.value == -WIN and result.exact
    assert describe(result.value) == "lost"  # the one rule of every face (was "loss in 0")


# -- a synthetic game tree with no transpositions, for depth-limited properties ----------------


@dataclass(frozen=True)
class TreeState:
    """A node of a random game tree: leaves carry values, inner nodes an evaluation."""

    path: tuple[int, ...]
    tree: Tree

    @property
    def to_move(self) -> Player:
        return Player(len(self.path) % 2)

    @property
    def ply(self) -> int:
        return len(self.path)

    @property
    def winner(self) -> Player | None:
        value = self.tree.leaf.get(self.path)
        if value is None or value == 0:
            return None
        # Leaf values are from the first player's side.
        return Player.FIRST if value > 0 else Player.SECOND

    def legal_moves(self) -> list[int]:
        return list(range(self.tree.children.get(self.path, 0)))

    def play(self, move: int) -> TreeState:
        return TreeState((*self.path, move), self.tree)

    def is_terminal(self) -> bool:
        return self.path in self.tree.leaf

    def key(self) -> Hashable:
        return self.path

    def evaluate(self) -> float:
        sign = 1 if self.to_move is Player.FIRST else -1
        return sign * self.tree.estimate[self.path]

    def notation(self) -> str:
        return ".".join(map(str, self.path))

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)


@dataclass(frozen=True, eq=False)
class Tree:
    children: dict[tuple[int, ...], int]
    leaf: dict[tuple[int, ...], int]
    estimate: dict[tuple[int, ...], int]


@st.composite
def trees(draw: st.DrawFn) -> Tree:
    children: dict[tuple[int, ...], int] = {}
    leaf: dict[tuple[int, ...], int] = {}
    estimate: dict[tuple[int, ...], int] = {}
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        path = frontier.pop()
        estimate[path] = draw(st.integers(-50, 50))
        if len(path) >= 5 or (path and draw(st.integers(0, 4)) == 0):
            leaf[path] = draw(st.integers(-1, 1))
            continue
        n = draw(st.integers(1, 3))
        children[path] = n
        frontier.extend((*path, i) for i in range(n))
    return Tree(children, leaf, estimate)


@settings(max_examples=200, deadline=None)
@given(trees(), st.integers(1, 6))
def test_depth_limited_alphabeta_equals_depth_limited_minimax(tree: Tree, depth: int) -> None:
    root = TreeState((), tree)
    assume(not root.is_terminal())
    expected = minimax(root, depth)
    result = alphabeta(root, depth=depth)
    assert result.value == expected.value
    assert result.move == expected.move


@settings(max_examples=200, deadline=None)
@given(trees())
def test_exact_alphabeta_equals_minimax_on_random_trees(tree: Tree) -> None:
    root = TreeState((), tree)
    assume(not root.is_terminal())
    expected = minimax(root)
    result = alphabeta(root)
    assert result.value == expected.value
    assert result.move == expected.move
    assert result.exact
