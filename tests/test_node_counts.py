"""Node counts at fixed depth, pinned: every built-in game's search, engine and solver must keep
searching exactly the same tree through a refactor (issue 21).

The integers were read from the code on main before that refactor; a change that alters a count
changes the search (its order, its pruning or its evaluation), and must say so by changing the pin
on purpose. The compiled and plain-Python kernels search the same trees, so the pins hold for
both; the pins that would take minutes in plain Python run only with the compiled kernel.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from c4data import read_set
from zermelo.games.connect4 import Connect4State
from zermelo.games.mnk import gomoku, new_game
from zermelo.games.registry import get_game
from zermelo.search import alphabeta
from zermelo.search.mcts import Mcts
from zermelo.search.quiescence import quiescent
from zermelo.solvers.chess import ChessEngine
from zermelo.solvers.chess import kernel as chess_kernel
from zermelo.solvers.connect4 import Connect4Solver, kernel_module
from zermelo.solvers.gomoku import Engine
from zermelo.solvers.mnk import solve_position

needs_compiled_chess = pytest.mark.skipif(
    not chess_kernel.COMPILED, reason="the compiled chess kernel needs numba"
)
needs_compiled_connect4 = pytest.mark.skipif(
    not kernel_module().COMPILED, reason="the compiled Connect Four kernel needs numba"
)


def position(game: str, moves: tuple[str, ...], **options: Any) -> Any:
    """The state of ``game`` (built with ``options``) after ``moves`` in its notation."""
    state = get_game(game).new(**options)
    for move in moves:
        state = state.play(state.parse_move(move))
    return state


# -- the generic alpha-beta engine ------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "moves", "options", "depth", "quiet", "nodes", "best", "value"),
    [
        ("tictactoe", (), {}, 9, False, 643, "0", 0.0),
        ("tictactoe", ("4",), {}, 3, False, 45, "0", 0.0),
        ("connect4", (), {}, 6, False, 1411, "4", 0.0),
        ("connect4", ("4", "4", "3"), {}, 5, False, 870, "5", 0.009),
        ("gomoku", (), {}, 2, False, 26, "h8", 0.0),
        ("gomoku", ("h8", "h9"), {}, 2, False, 170, "g9", 10.0),
        ("mnk", (), {"width": 5, "height": 5, "k": 4}, 4, False, 686, "c3", 24.0),
        ("mnk", (), {"width": 3, "height": 3, "k": 3}, 9, False, 1357, "a1", 0.0),
        ("checkers", (), {}, 5, False, 1088, "9-13", 0.0),
        ("checkers", (), {}, 4, True, 227, "9-13", -4.0),
        ("chess", (), {}, 3, False, 659, "a3", 0.0),
    ],
)
def test_alphabeta_at_a_fixed_depth(
    game: str,
    moves: tuple[str, ...],
    options: dict[str, Any],
    depth: int,
    quiet: bool,
    nodes: int,
    best: str,
    value: float,
) -> None:
    state = position(game, moves, **options)
    result = alphabeta(state, depth=depth, evaluator=quiescent() if quiet else None)
    assert result.stats.nodes == nodes
    assert state.format_move(result.move) == best
    assert result.value == pytest.approx(value)


# -- MCTS ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "iterations", "seed", "visits"),
    [
        (
            "tictactoe",
            500,
            1,
            [("4", 85), ("0", 67), ("6", 61), ("7", 57), ("8", 57), ("2", 56), ("1", 40),
             ("3", 39), ("5", 38)],
        ),
        ("connect4", 300, 2, [("4", 71), ("2", 46), ("5", 43), ("6", 42), ("3", 35), ("1", 32), ("7", 31)]),
        (
            "checkers",
            100,
            3,
            [("11-16", 20), ("10-14", 15), ("12-16", 15), ("9-13", 14), ("11-15", 14),
             ("9-14", 11), ("10-15", 11)],
        ),
    ],
)  # fmt: skip
def test_mcts_with_a_seed(
    game: str, iterations: int, seed: int, visits: list[tuple[str, int]]
) -> None:
    state = position(game, ())
    result = Mcts(rng=random.Random(seed)).search(state, iterations=iterations)
    assert result.stats.nodes == iterations
    assert state.format_move(result.move) == visits[0][0]
    assert [(state.format_move(m.move), m.visits) for m in result.moves] == visits


def test_mcts_on_gomoku_with_its_records_settings() -> None:
    state = position("gomoku", ("h8", "h9"))
    searcher = Mcts(rng=random.Random(5), cutoff=0, eval_scale=100.0, exploration=0.1)
    result = searcher.search(state, iterations=200)
    assert result.stats.nodes == 200
    tried = sorted(
        ((state.format_move(m.move), m.visits) for m in result.moves if m.visits),
        key=lambda pair: -pair[1],
    )
    assert state.format_move(result.move) == "g9"
    assert tried[:5] == [("g9", 34), ("i9", 33), ("g8", 17), ("i8", 17), ("j10", 8)]


# -- m,n,k: the exact solver and the gomoku engine ----------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "k", "moves", "value", "best", "nodes"),
    [(3, 3, 3, (), 0, "b2", 105), (4, 3, 3, (), 1, "b2", 40), (4, 4, 3, ("b2",), -1, "c2", 18)],
)
def test_mnk_solver(
    width: int, height: int, k: int, moves: tuple[str, ...], value: int, best: str, nodes: int
) -> None:
    state = new_game(width, height, k)
    for move in moves:
        state = state.play(state.parse_move(move))
    solution = solve_position(state)
    assert (solution.value, solution.move_text, solution.stats.nodes) == (value, best, nodes)


@pytest.mark.parametrize(
    ("level", "moves", "node_limit", "best", "value", "nodes", "depth"),
    [
        ("easy", ("h8", "h9"), None, "j6", 50.0, 12, 1),
        ("medium", ("h8", "h9"), None, "g9", 10.0, 121, 2),
        ("medium", ("h8", "i9", "g7"), None, "j9", -50.0, 121, 2),
        ("hard", ("h8", "h9", "i8"), 3000, "g8", 28.0, 3072, 5),
    ],
)
def test_gomoku_engine(
    level: str,
    moves: tuple[str, ...],
    node_limit: int | None,
    best: str,
    value: float,
    nodes: int,
    depth: int,
) -> None:
    state = gomoku()
    for move in moves:
        state = state.play(state.parse_move(move))
    result = Engine(level).search(state, None, random.Random(7), node_limit=node_limit)
    assert result.move is not None
    assert (state.format_move(result.move), result.stats.nodes, result.depth) == (
        best,
        nodes,
        depth,
    )
    assert result.value == pytest.approx(value)


# -- the chess engine ----------------------------------------------------------------------

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
ENDGAME = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
PROMOTIONS = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"


@needs_compiled_chess
@pytest.mark.parametrize(
    ("fen", "depth", "best", "value", "nodes", "seldepth"),
    [
        ("startpos", 5, "b1c3", 40, 3607, 11),
        ("startpos", 6, "e2e4", 2, 9976, 12),
        (ITALIAN, 5, "b1c3", 19, 2452, 10),
        (KIWIPETE, 4, "e2a6", 111, 1915, 14),
        (KIWIPETE, 5, "e2a6", 6, 7877, 15),
        (ENDGAME, 6, "b4f4", 26, 4161, 13),
        (ENDGAME, 8, "b4f4", 32, 9528, 14),
        (PROMOTIONS, 5, "c4c5", -322, 9123, 17),
    ],
)
def test_chess_engine_compiled(
    fen: str, depth: int, best: str, value: int, nodes: int, seldepth: int
) -> None:
    result = ChessEngine(hash_mb=1).search(fen, depth=depth)
    assert result.move is not None
    assert (result.move.uci(), result.value, result.stats.nodes, result.stats.seldepth) == (
        best,
        value,
        nodes,
        seldepth,
    )


def test_chess_engine_in_plain_python() -> None:
    result = ChessEngine(hash_mb=1, compiled=False).search("startpos", depth=3)
    assert result.move is not None
    assert (result.move.uci(), result.value, result.stats.nodes) == ("e2e4", 42, 432)


# -- the Connect Four solver ------------------------------------------------------------------


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_compiled_connect4), False])
@pytest.mark.parametrize(
    ("name", "limit", "nodes"),
    [
        ("Test_L3_R1", 10, [4, 25, 6, 0, 14, 3161, 2, 4, 9, 45]),
        ("Test_L2_R1", 4, [194, 34, 1852, 4]),
    ],
)
def test_connect4_solver_batch(compiled: bool, name: str, limit: int, nodes: list[int]) -> None:
    rows = read_set(name, limit)
    states = [Connect4State.parse(moves) for moves, _ in rows]
    solver = Connect4Solver(compiled=compiled, book=False, table_bits=14, shallow=8)
    scores, counted = solver.solve_batch([(s.current, s.mask, s.ply) for s in states])
    assert scores == [score for _, score in rows]
    assert counted == nodes


@needs_compiled_connect4
def test_connect4_solver_batch_middle_game() -> None:
    rows = read_set("Test_L2_R2", 2)
    states = [Connect4State.parse(moves) for moves, _ in rows]
    solver = Connect4Solver(compiled=True, book=False, table_bits=14, shallow=8)
    scores, counted = solver.solve_batch([(s.current, s.mask, s.ply) for s in states])
    assert scores == [score for _, score in rows] == [0, -1]
    assert counted == [738221, 379685]


@needs_compiled_connect4
def test_connect4_solver_with_its_defaults() -> None:
    solver = Connect4Solver(book=False)
    counted = []
    for name in ("Test_L2_R1", "Test_L1_R1"):
        for moves, score in read_set(name, 3):
            assert solver.score(Connect4State.parse(moves)) == score
            counted.append(solver.last_nodes)
    assert counted == [192, 34, 2481, 18935, 3, 226]
