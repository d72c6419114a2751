"""Exact Connect Four solver (numba-compiled kernel with a plain-Python fallback).

Front ends call :func:`solve`, :func:`solve_lines` (or :func:`answer_lines`, which reads, solves
and answers whole files of lines in the kernel), :func:`analyze` and :func:`choose_move`;
:class:`Connect4Solver` keeps a transposition table between calls. Results are
:class:`zermelo.search.SearchResult` values in the negamax convention, like every search's;
:func:`benchmark_score` turns them into the benchmark files' scores (see
:mod:`zermelo.solvers.connect4.scores`).
"""

from zermelo.solvers.connect4.api import (
    LEVELS,
    LineOutcome,
    analyze,
    choose_move,
    solve,
    solve_chunks,
    solve_lines,
)
from zermelo.solvers.connect4.batch import AnswerBlock, answer_lines
from zermelo.solvers.connect4.scores import (
    benchmark_score,
    describe_score,
    from_negamax,
    plies_to_finish,
    score_bounds,
    to_negamax,
)
from zermelo.solvers.connect4.solver import (
    Connect4Solver,
    default_solver,
    kernel_module,
    solved,
)

__all__ = [
    "LEVELS",
    "AnswerBlock",
    "Connect4Solver",
    "LineOutcome",
    "analyze",
    "answer_lines",
    "benchmark_score",
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
    "solved",
    "to_negamax",
]
