"""MCTS on the big games: it searches the moves the state offers and sees threats on the spot."""

from __future__ import annotations

import random

from zermelo.core.scores import WIN
from zermelo.games.connect4 import Connect4State
from zermelo.games.mnk import gomoku
from zermelo.search.mcts import mcts, search_moves


def _gomoku_after(*points: str) -> object:
    state = gomoku()
    for text in points:
        state = state.play(state.parse_move(text))
    return state


def test_gomoku_searches_the_points_near_the_stones() -> None:
    state = _gomoku_after("h8", "g7")
    moves = set(search_moves(state))
    assert moves == set(state.candidate_moves())
    result = mcts(state, iterations=60, rng=random.Random(0), cutoff=0, eval_scale=100.0)
    assert {s.move for s in result.moves} <= moves


def test_gomoku_blocks_a_four() -> None:
    # X has h8-k8 with g8 taken by O: O must play l8 or lose on the spot.
    state = _gomoku_after("h8", "g8", "i8", "a1", "j8", "a15", "k8")
    block = state.parse_move("l8")
    result = mcts(state, iterations=300, rng=random.Random(1), cutoff=0, eval_scale=100.0)
    assert result.move == block
    # What the search proved of the other moves: each loses.
    assert all(s.value < 0 for s in result.moves if s.move != block and s.exact)


def test_gomoku_completes_five() -> None:
    state = _gomoku_after("h8", "g8", "i8", "a1", "j8", "a15", "k8", "o15")
    result = mcts(state, iterations=100, rng=random.Random(2), cutoff=0, eval_scale=100.0)
    assert state.format_move(result.move) == "l8"
    assert result.exact and result.value == WIN - 1
    assert result.moves[0].exact and result.moves[0].value == WIN - 1


def test_connect4_blocks_a_vertical_three() -> None:
    state = Connect4State.parse("1212")  # columns 1 and 2, 1-based
    state = state.play(0)  # three in column 1 for the first player
    result = mcts(state, iterations=400, rng=random.Random(3))
    assert result.move == 0
