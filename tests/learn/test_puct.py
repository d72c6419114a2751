"""PUCT (search/puct.py): exact where the game ends, guided by its priors elsewhere."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import BudgetError, IllegalMoveError
from zermelo.core.state import AnyState, Player
from zermelo.games.connect4 import Connect4State
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search.minimax import minimax
from zermelo.search.puct import Puct, puct_search, terminal_value


def uniform(states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
    out = []
    for state in states:
        moves = state.legal_moves()
        out.append(([1.0 / len(moves)] * len(moves), 0.0))
    return out


@functools.cache
def _value(state: AnyState) -> float:
    return float(minimax(state).value)


def ttt(moves: Sequence[int], first: Player = Player.FIRST) -> TicTacToeState:
    state = TicTacToeState.initial(first)
    for move in moves:
        state = state.play(move)
    return state


@pytest.mark.parametrize("decisive", [True, False])
def test_it_takes_a_win_on_the_spot_and_blocks_one(decisive: bool) -> None:
    # X: 0, 1; O: 3, 4. X to move wins at 2.
    win = ttt([0, 3, 1, 4])
    found = puct_search(win, uniform, 200, decisive=decisive)
    assert found.move == 2
    assert found.exact == decisive
    # X 0, O 4, X 8, O 2: X must block at 6.
    block = ttt([0, 4, 8, 2])
    assert puct_search(block, uniform, 400, decisive=decisive).move == 6


def test_a_decisive_search_sees_a_move_that_hands_over_a_win_at_its_first_visit() -> None:
    # X 0, O 4, X 8, O 2: every move but 6 lets O win on the spot.
    block = ttt([0, 4, 8, 2])
    for decisive, once in ((True, -1.0), (False, 0.0)):
        result = puct_search(block, uniform, 8, decisive=decisive)
        tried_once = [m for m in result.moves if m.move != 6 and m.visits == 1]
        assert tried_once
        # Decisive: O's win on the spot is proven in the child; else the uniform net says 0.
        assert all(m.value == once for m in tried_once), (decisive, result.moves)


def test_connect_four_win_in_one_is_found_with_a_uniform_net() -> None:
    state = Connect4State.parse("121212")  # the first player has three in column 1
    for decisive in (True, False):
        result = puct_search(state, uniform, 100, decisive=decisive)
        assert result.move == 0
        assert result.value > 0.9


def test_visits_add_up_and_the_result_lists_every_root_move() -> None:
    state = ttt([4])
    tree = Puct(state)
    tree.run(150, uniform)
    visits = dict(tree.visits())
    assert set(visits) == set(state.legal_moves())
    # The first simulation evaluates the root; each other one goes down one root move.
    assert sum(visits.values()) == 149
    result = tree.result()
    assert [m.visits for m in result.moves] == sorted(visits.values(), reverse=True)
    assert result.move == tree.best_move()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=6), st.integers(0, 2**16))
def test_with_exact_values_as_the_net_the_move_keeps_the_value(
    squares: list[int], seed: int
) -> None:
    """Given minimax's exact values as the 'net', the search's move is optimal."""
    state = TicTacToeState.initial(Player.FIRST)
    for square in squares:
        if state.is_terminal() or square not in state.legal_moves():
            break
        state = state.play(square)
    if state.is_terminal():
        return

    def exact(states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        out = []
        for s in states:
            n = len(s.legal_moves())
            out.append(([1.0 / n] * n, max(-1.0, min(1.0, _value(s)))))
        return out

    best = _value(state)
    move = puct_search(state, exact, 60, rng=random.Random(seed)).move
    assert move is not None
    after = _value(state.play(move))
    assert (-after > 0) == (best > 0) and (-after >= 0) == (best >= 0)


def test_noise_is_seeded_and_reused_subtrees_keep_their_visits() -> None:
    state = get_game("connect4").new()
    a = Puct(state, noise=(1.0, 0.25), rng=random.Random(5))
    b = Puct(state, noise=(1.0, 0.25), rng=random.Random(5))
    a.run(80, uniform)
    b.run(80, uniform)
    assert a.visits() == b.visits()
    move = a.best_move()
    kept = dict(a.visits())[move]
    a.play(move)
    assert a.root.count == kept


def test_terminal_values_and_bad_budgets() -> None:
    won = ttt([0, 3, 1, 4, 2])
    assert won.is_terminal()
    assert terminal_value(won) == -1.0  # the side to move (O) has lost
    assert puct_search(won, uniform, 5).move is None
    with pytest.raises(BudgetError):
        puct_search(ttt([]), uniform, 0)
    tree = Puct(ttt([]))
    with pytest.raises(RuntimeError):
        tree.expand([1.0], 0.0)
    pig = Puct(get_game("pig").new())
    with pytest.raises(IllegalMoveError):
        pig.run(10, uniform)
