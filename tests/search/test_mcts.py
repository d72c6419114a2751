"""MCTS against the minimax oracle on tic-tac-toe, and its budget, seed and tree contracts."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidOptionError
from zermelo.core.scores import WIN
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import analyze, minimax
from zermelo.search.mcts import Mcts, epsilon_greedy, mcts, search_moves, win_rate


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _sample_positions(count: int, seed: int) -> list[TicTacToeState]:
    rng = random.Random(seed)
    found: set[TicTacToeState] = set()
    while len(found) < count:
        state = TicTacToeState.initial()
        for _ in range(rng.randint(2, 6)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.add(state)
    return sorted(found)


def _outcome_of_move(state: TicTacToeState, move: int) -> int:
    return next(_sign(mv.value) for mv in analyze(state) if mv.move == move)


@pytest.mark.parametrize("decisive", [True, False])
def test_chooses_a_move_that_keeps_the_minimax_outcome(decisive: bool) -> None:
    for state in _sample_positions(30, seed=7):
        result = mcts(state, iterations=2000, rng=random.Random(0), decisive=decisive)
        assert result.move is not None
        assert _outcome_of_move(state, result.move) == _sign(minimax(state).value), state


def test_takes_the_win_without_the_decisive_shortcut() -> None:
    # X to move wins at 2 (top row); O threatens nothing it could finish first.
    state = TicTacToeState.parse("XX.OO.... X")
    assert minimax(state).value > 0
    result = mcts(state, iterations=1500, rng=random.Random(3), decisive=False)
    assert result.move == 2


def test_blocks_the_only_threat() -> None:
    # O to move must block X's top row at 2; everything else loses.
    state = TicTacToeState.parse("XX..O.... O")
    losing = [mv.move for mv in analyze(state) if mv.value < 0]
    assert sorted(losing) == [3, 5, 6, 7, 8]
    for decisive in (True, False):
        result = mcts(state, iterations=1500, rng=random.Random(1), decisive=decisive)
        assert result.move not in losing


def test_evaluation_cutoff_and_greedy_playouts_still_block() -> None:
    state = TicTacToeState.parse("XX..O.... O")
    cut = mcts(state, iterations=800, rng=random.Random(2), cutoff=1, eval_scale=5.0)
    greedy = mcts(state, iterations=800, rng=random.Random(2), playout=epsilon_greedy(0.2))
    assert cut.move == 2
    assert greedy.move == 2


def test_statistics_add_up_and_the_most_visited_move_is_chosen() -> None:
    searcher = Mcts(rng=random.Random(5))
    result = searcher.search(TicTacToeState.initial(), iterations=500)
    assert result.stats.iterations == 500
    assert result.stats.reused == 0
    tree, count = [searcher._root], -1  # the nodes the search added: the tree but its root
    while tree:
        node = tree.pop()
        assert node is not None
        count += 1
        tree.extend(node.children)
    assert result.stats.nodes == count
    assert sum(s.visits for s in result.moves) == 500
    assert {s.move for s in result.moves} == set(range(9))
    visits = [s.visits for s in result.moves]
    assert visits == sorted(visits, reverse=True)
    assert result.move == result.moves[0].move
    # Nothing is proven from the empty board in 500 iterations: the values are estimates,
    # twice the mean reward minus one.
    assert not result.exact and not any(s.exact for s in result.moves)
    assert all(0.0 <= win_rate(s) <= 1.0 and -1.0 <= s.value <= 1.0 for s in result.moves)
    assert result.value == result.moves[0].value
    assert win_rate(result) == win_rate(result.moves[0])
    assert result.pv[0] == result.move and result.depth == len(result.pv)


def test_same_seed_same_search_other_seed_other_statistics() -> None:
    state = TicTacToeState.parse("X........")
    one = mcts(state, iterations=300, rng=random.Random(11))
    two = mcts(state, iterations=300, rng=random.Random(11))
    other = mcts(state, iterations=300, rng=random.Random(12))
    assert one.moves == two.moves
    assert one.moves != other.moves


def test_tree_is_reused_two_plies_later() -> None:
    searcher = Mcts(rng=random.Random(4))
    state = TicTacToeState.initial()
    first = searcher.search(state, iterations=400)
    assert first.move is not None
    later = state.play(first.move).play(0 if first.move != 0 else 2)
    second = searcher.search(later, iterations=100)
    assert second.stats.reused > 0
    assert sum(s.visits for s in second.moves) == second.stats.reused - 1 + 100
    fresh = Mcts(rng=random.Random(4), reuse=False).search(later, iterations=100)
    assert fresh.stats.reused == 0


def test_a_single_move_is_returned_at_once() -> None:
    state = TicTacToeState.parse("XOXXOOOX. X")
    result = mcts(state, time_limit=5.0, rng=random.Random(0))
    assert result.move == 8
    assert result.stats.iterations == 1


def test_time_budget_stops_the_search() -> None:
    result = mcts(TicTacToeState.initial(), time_limit=0.05, rng=random.Random(0))
    assert result.stats.iterations >= 1
    assert result.stats.elapsed < 2.0


class _Narrow(TicTacToeState):
    """Tic-tac-toe that only offers the corners as the moves worth searching at the root."""

    def search_moves(self) -> list[int]:
        return [m for m in self.legal_moves() if m in (0, 2, 6, 8)]


class _NarrowsToNothing(TicTacToeState):
    """A narrowing that lists no move: the rule falls back to every legal move."""

    def search_moves(self) -> list[int]:
        return []


def test_search_moves_replace_legal_moves_in_mcts_and_alphabeta() -> None:
    state = _Narrow(0, 0)
    assert list(search_moves(state)) == [0, 2, 6, 8]
    result = mcts(state, iterations=200, rng=random.Random(0))
    assert {s.move for s in result.moves} == {0, 2, 6, 8}
    # The one rule: alpha-beta's root considers the same moves as MCTS's.
    assert [value.move for value in analyze(state)] == [0, 2, 6, 8]


def test_an_empty_narrowing_falls_back_to_every_legal_move() -> None:
    state = _NarrowsToNothing(0, 0)
    assert list(search_moves(state)) == list(state.legal_moves())
    result = mcts(state, iterations=100, rng=random.Random(0))
    assert result.move in state.legal_moves()


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({}, "needs a budget"),
        ({"iterations": 0}, "iterations must be at least 1, got 0"),
        ({"time_limit": 0.0}, "positive number of seconds, got 0.0"),
    ],
)
def test_bad_budgets_are_refused(kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(BudgetError, match=re.escape(fragment)):
        mcts(TicTacToeState.initial(), **kwargs)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"exploration": -1.0}, "exploration constant must be 0 or more, got -1.0"),
        ({"cutoff": -1}, "cut-off must be 0 plies or more, got -1"),
        ({"eval_scale": 0.0}, "evaluation scale must be positive, got 0.0"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(fragment)):
        mcts(TicTacToeState.initial(), iterations=10, **options)
    with pytest.raises(
        InvalidOptionError, match=re.escape("epsilon must be between 0 and 1, got 1.5")
    ):
        epsilon_greedy(1.5)


def test_terminal_position_has_no_move() -> None:
    with pytest.raises(IllegalMoveError):
        mcts(TicTacToeState.parse("XXXOO...."), iterations=10)


def test_small_trees_are_solved_like_minimax() -> None:
    solved = 0
    outcomes = set()
    for state in _sample_positions(40, seed=3):
        if len(state.legal_moves()) > 5:
            continue
        outcomes.add(_sign(minimax(state).value))
        for decisive in (True, False):
            result = mcts(state, iterations=20_000, rng=random.Random(0), decisive=decisive)
            # Five empty squares make at most 325 nodes: the whole tree is read and proven,
            # and the search stops by itself.
            exact = minimax(state).value
            assert result.exact and _sign(result.value) == _sign(exact), state
            # The proved line may be longer than the fastest win (and the slowest loss), never
            # shorter; and it is a real forced line to the end of the game.
            assert abs(result.value) <= abs(exact)
            assert result.stats.iterations < 20_000
            assert result.move is not None
            assert _outcome_of_move(state, result.move) == _sign(exact)
            end = state
            for move in result.pv:
                end = end.play(move)
            assert end.is_terminal()
            if exact != 0:
                assert len(result.pv) == WIN - abs(result.value)
                assert (end.winner == state.to_move) == (exact > 0)
            for entry in result.moves:
                if entry.exact:
                    assert _sign(entry.value) == _outcome_of_move(state, entry.move)
        solved += 1
    assert solved >= 10
    assert outcomes == {-1, 0, 1}  # proven wins, draws and losses alike


def test_a_proven_win_is_chosen_and_ends_the_search() -> None:
    state = TicTacToeState.parse("XX.OO.... X")
    result = mcts(state, iterations=10_000, rng=random.Random(0))
    assert result.move == 2
    assert result.exact and result.value == WIN - 1 and result.pv == (2,)
    assert result.stats.iterations < 10


def test_progress_reports_the_search_so_far() -> None:
    seen: list[int] = []
    searcher = Mcts(rng=random.Random(0))
    searcher.search(
        TicTacToeState.initial(),
        iterations=1000,
        progress=lambda r: seen.append(r.stats.iterations),
        progress_every=250,
    )
    assert seen == [250, 500, 750, 1000]
