"""Exact Connect Four solver (numba-compiled kernel with a plain-Python fallback).

Front ends call :func:`solve`, :func:`solve_lines`, :func:`analyze` and :func:`choose_move`;
:class:`Connect4Solver` keeps a transposition table between calls. Scores follow the benchmark
files' convention (see :mod:`zermelo.solvers.connect4.scores`).
"""

from zermelo.solvers.connect4.api import (
    LEVELS,
    Analysis,
    LineOutcome,
    analyze,
    choose_move,
    solve,
    solve_chunks,
    solve_lines,
)
from zermelo.solvers.connect4.scores import (
    describe_score,
    from_negamax,
    plies_to_finish,
    score_bounds,
    to_negamax,
)
from zermelo.solvers.connect4.solver import (
    Connect4Result,
    Connect4Solver,
    default_solver,
    kernel_module,
)

__all__ = [
    "LEVELS",
    "Analysis",
    "Connect4Result",
    "Connect4Solver",
    "LineOutcome",
    "analyze",
    "choose_move",
    "default_solver",
    "describe_score",
    "from_negamax",
    "kernel_module",
    "plies_to_finish",
    "score_bounds",
    "solve",
    "solve_chunks",
    "solve_lines",
    "to_negamax",
]
