"""The tutorial's traced minimax and alpha-beta (search/trace.py), and nodes against depth
(search/depth_nodes.py) with the engine's switches they need."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import BudgetError
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import alphabeta, minimax
from zermelo.search.depth_nodes import NoTable, count_nodes, nodes_by_depth
from zermelo.search.trace import EXAMPLES, TraceNode, played, trace
from zermelo.tutorial import TicTacToe


def board(moves: str) -> TicTacToeState:
    state = played(TicTacToeState.initial(), moves)
    assert isinstance(state, TicTacToeState)
    return state


def random_position(seed: int) -> TicTacToeState:
    """A position reached by random moves from the empty board (at least two played, so that
    plain minimax stays small), possibly over."""
    rng = random.Random(seed)
    state = TicTacToeState.initial()
    for _ in range(rng.randint(2, 9)):
        if state.is_terminal():
            break
        state = state.play(rng.choice(list(state.legal_moves())))
    return state


def walk(node: TraceNode[int]) -> list[TraceNode[int]]:
    found = [node]
    for child in node.children:
        found.extend(walk(child))
    return found


# -- the tutorial's worked examples -----------------------------------------------------------


@pytest.mark.parametrize("use_alphabeta", [False, True])
def test_example_1_x_on_0_o_on_1_the_ai_plays_3(use_alphabeta: bool) -> None:
    assert EXAMPLES[1] == "0 1"
    result = trace(board(EXAMPLES[1]), alphabeta=use_alphabeta)
    assert result.move == 3
    assert result.value == 1
    # The tutorial's get_best_move tries 2 first: a draw, then 3, the first forced win.
    values = {child.move: child.value for child in result.root.children if child.exact}
    assert values[2] == 0 and values[3] == 1


@pytest.mark.parametrize("use_alphabeta", [False, True])
def test_example_2_then_x_on_3_o_on_4_the_ai_plays_6(use_alphabeta: bool) -> None:
    assert EXAMPLES[2] == "0 1 3 4"
    result = trace(board(EXAMPLES[2]), alphabeta=use_alphabeta)
    assert result.move == 6
    assert result.value == 1
    six = next(child for child in result.root.children if child.move == 6)
    assert six.terminal and six.nodes == 1


def test_the_examples_agree_with_the_tutorials_class() -> None:
    game = TicTacToe()
    game.make_move(0, "X")
    game.make_move(1, "O")
    assert game.get_best_move() == trace(board("0 1"), alphabeta=True).move == 3
    game.make_move(3, "X")
    game.make_move(4, "O")
    assert game.get_best_move() == trace(board("0 1 3 4"), alphabeta=True).move == 6


def test_the_examples_node_counts() -> None:
    # Read from the traces and checked by hand on example 2: minimax reads 157 nodes, alpha-beta
    # 60; square 6 wins at once (one node).
    assert trace(board("0 1"), alphabeta=False).nodes == 8232
    assert trace(board("0 1"), alphabeta=True).nodes == 749
    assert trace(board("0 1 3 4"), alphabeta=False).nodes == 157
    assert trace(board("0 1 3 4"), alphabeta=True).nodes == 60


def test_every_cutoff_is_a_closed_window_and_skips_the_remaining_moves() -> None:
    result = trace(board("0 1"), alphabeta=True)
    cuts = [node for node in walk(result.root) if node.cutoff is not None]
    assert cuts
    for node in cuts:
        cut = node.cutoff
        assert cut is not None
        assert cut.alpha >= cut.beta
        searched = [child.move for child in node.children]
        assert searched[-1] == cut.after
        free = sorted(
            square for square in range(9) if result.root.move is None and square not in searched
        )
        assert set(cut.moves) <= set(free)


def test_the_full_tree_from_the_empty_board_is_549946_nodes() -> None:
    empty = TicTacToeState.initial()
    assert trace(empty, alphabeta=False, keep=1).nodes == 549_946
    assert minimax(empty).stats.nodes == 549_946


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_alphabeta_finds_minimaxs_value_and_move(seed: int) -> None:
    state = random_position(seed)
    plain = trace(state, alphabeta=False, keep=1)
    pruned = trace(state, alphabeta=True, keep=1)
    assert pruned.value == plain.value
    assert pruned.move == plain.move
    assert pruned.nodes <= plain.nodes
    # The same value as the engine's, on the tutorial's scale (the engine counts the distance).
    if not state.is_terminal():
        engine = alphabeta(state).value
        assert plain.value == (engine > 0) - (engine < 0)


def test_the_trace_is_bounded() -> None:
    with pytest.raises(BudgetError, match="more than 1000 nodes"):
        trace(TicTacToeState.initial(), alphabeta=False, node_limit=1000)
    with pytest.raises(BudgetError):
        trace(TicTacToeState.initial(), alphabeta=True, keep=-1)
    with pytest.raises(BudgetError):
        played(TicTacToeState.initial(), "0 " * 200)
    # Only ``keep`` plies are kept, however many are read.
    shallow = trace(board("0"), alphabeta=False, keep=1)
    assert all(not child.children for child in shallow.root.children)
    assert shallow.nodes == sum(child.nodes for child in shallow.root.children) + 1


def test_a_finished_game_is_one_node() -> None:
    # X has won; O is to move, so O is the "AI" of this trace, and has lost.
    result = trace(board("0 3 1 4 2"), alphabeta=True)
    assert result.root.terminal and result.move is None and result.value == -1
    assert result.nodes == 1


# -- nodes against depth ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "depth", "nodes"),
    [
        # 1 + 9 + 9*8 + 9*8*7 + 9*8*7*6: no tic-tac-toe game ends before five moves.
        ("tictactoe", 4, 3610),
        # 1 + 7 + 49 + 343: no column fills in three moves.
        ("connect4", 3, 400),
        # 1 + 20 + 400 + 8902: chess's perft(1..3) from the start.
        ("chess", 3, 9323),
    ],
)
def test_plain_minimax_counts_every_node_of_the_tree(game: str, depth: int, nodes: int) -> None:
    state = get_game(game).new()
    assert count_nodes(state, "minimax", depth, node_limit=10**6) == nodes


def test_minimax_and_alphabetas_one_pass_are_bounded_by_their_node_limit() -> None:
    state = get_game("connect4").new()
    with pytest.raises(BudgetError, match="more than 100 nodes"):
        minimax(state, 4, node_limit=100)
    with pytest.raises(BudgetError, match="budget ran out"):
        alphabeta(state, depth=8, node_limit=100, iterate=False, table=NoTable())
    with pytest.raises(BudgetError):
        count_nodes(state, "ordering", 12, node_limit=100)
    with pytest.raises(BudgetError):
        count_nodes(state, "nonsense", 2, node_limit=100)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=4))
def test_alphabetas_switched_off_parts_keep_minimaxs_value(seed: int, depth: int) -> None:
    state = random_position(seed)
    if state.is_terminal():
        return
    plain = minimax(state, depth)
    for table in (NoTable(), None):
        pruned = alphabeta(
            state, depth=depth, table=table, history=False, iterate=False, shortcuts=False
        )
        assert pruned.value == plain.value
        assert pruned.stats.nodes + 1 <= plain.stats.nodes


def test_the_variants_save_what_they_are_named_after_in_chess() -> None:
    state = get_game("chess").new()
    counts = {v: count_nodes(state, v, 3, node_limit=10**5) for v in ("alphabeta", "ordering")}
    assert counts["ordering"] < counts["alphabeta"] < 9323
    # The engine as it plays: its pinned 659 nodes (tests/test_node_counts.py), plus the root.
    assert counts["ordering"] == 660


def test_nodes_by_depth_stops_each_series_within_its_budget() -> None:
    state = get_game("tictactoe").new()
    counts = nodes_by_depth(state, max_depth=9, node_limit=5000, seconds=5.0)
    minimax_depths = [c.depth for c in counts if c.variant == "minimax"]
    assert minimax_depths == [1, 2, 3, 4]  # depth 5 needs 18,730 nodes
    assert all(c.nodes <= 5000 for c in counts)
    assert [c.nodes for c in counts if c.variant == "minimax"] == [10, 82, 586, 3610]
    for bad in ({"max_depth": 0}, {"node_limit": 0}, {"seconds": 0.0}):
        arguments = {"max_depth": 2, "node_limit": 10, "seconds": 1.0, **bad}
        with pytest.raises(BudgetError):
            nodes_by_depth(state, **arguments)  # type: ignore[arg-type]
