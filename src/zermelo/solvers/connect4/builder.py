"""Building the Connect Four opening book (:mod:`zermelo.solvers.connect4.book`) with the solver.

Only the deepest ply is solved, one task per position (on any :class:`zermelo.parallel.Executor`:
this process, a local pool or a Dask cluster); every shallower position is then scored from its
children (:func:`back_up`), so each ply deeper costs about as much as solving that one ply. The
scores of the deepest ply go to a :class:`zermelo.parallel.ResultStore` as they arrive, so a build
stopped at any point resumes where it was. A long computation that reports through a callback and
never prints; ``scripts/build_connect4_book.py`` is the command that runs it and writes the file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from zermelo.games.connect4 import Connect4State
from zermelo.parallel import Executor, LocalExecutor, ResultStore, run_job
from zermelo.solvers.connect4.book import best_mask, book_depth, canonical
from zermelo.solvers.connect4.solver import Connect4Solver

__all__ = [
    "back_up",
    "back_up_best",
    "best_columns",
    "best_meta",
    "best_tasks",
    "build_book",
    "deepest_tasks",
    "positions_at",
    "solve_position",
    "store_meta",
    "uses_floors",
    "warm_up",
]


def positions_at(ply: int, width: int = 7, height: int = 6) -> list[Connect4State]:
    """One representative of every mirror class of running positions with ``ply`` stones."""
    layer = {canonical(Connect4State.initial(width, height)): Connect4State.initial(width, height)}
    for _ in range(ply):
        following: dict[int, Connect4State] = {}
        for state in layer.values():
            if state.is_terminal():
                continue
            for column in state.legal_moves():
                child = state.play(column)
                following.setdefault(canonical(child), child)
        layer = following
    return [state for state in layer.values() if not state.is_terminal()]


@functools.cache
def _book_solver(
    width: int, height: int, table_bits: int | None, floors: bool = False
) -> Connect4Solver:
    """The solver this process uses for book positions, built once and then kept warm: its
    compiled kernel and its table serve every position the process is given. With ``floors`` it
    holds the shipped book, one ply shallower than the build, for the lower bounds it gives."""
    return Connect4Solver(
        width, height, book=floors, symmetry=width * height, etc_levels=99, table_bits=table_bits
    )


def warm_up(
    width: int = 7, height: int = 6, table_bits: int | None = None, floors: bool = False
) -> None:
    """Build this process's book solver now (load the kernel, allocate and touch the table)."""
    _book_solver(width, height, table_bits, floors).prefault()


def solve_position(
    width: int, height: int, moves: str, table_bits: int | None = None, floors: bool = False
) -> int:
    """The exact score of one position: a task of a book build, run in any worker process.

    With ``floors`` (the shipped book is one ply shallower than the position) the book's scores
    of its parents bound its score from below; one null-window search confirms that bound when
    the last move was a best one, and otherwise the bisection starts above it (see
    :meth:`Connect4Solver._score`): a fifth less work on a sample of ply-7 positions."""
    state = Connect4State.parse(moves, width, height)
    return int(_book_solver(width, height, table_bits, floors).score(state))


def uses_floors(depth: int, width: int = 7, height: int = 6) -> bool:
    """Whether a build of ``depth`` starts from the shipped book's lower bounds: when that book
    ends exactly one ply above it (a book of any other depth would answer or miss the deepest
    positions instead of bounding them)."""
    return book_depth(width, height) == depth - 1


def deepest_tasks(
    depth: int, width: int = 7, height: int = 6, table_bits: int | None = None
) -> dict[str, tuple[int, int, str, int | None, bool]]:
    """The positions a book of ``depth`` solves directly (every running position with ``depth``
    stones, one per mirror pair) as :func:`zermelo.parallel.run_job` tasks keyed by canonical
    code; central lines first, since they share the most subtrees."""
    deepest = positions_at(depth, width, height)
    deepest.sort(key=lambda s: (sum(abs(int(c) - width // 2) for c in s.moves), s.moves))
    floors = uses_floors(depth, width, height)
    return {
        str(canonical(state)): (width, height, state.notation(), table_bits, floors)
        for state in deepest
    }


def _child_scores(
    state: Connect4State, book: dict[int, int], width: int, height: int
) -> list[tuple[int, int]]:
    """(column, its score for the side to move) of every legal column of ``state``, from the
    book's scores of the children (a child that ends the game scores itself)."""
    cells = width * height
    scores = []
    for column in state.legal_moves():
        child = state.play(column)
        if child.winner is not None:
            value = (cells + 1 - state.ply) // 2
        elif child.is_full():
            value = 0
        else:
            value = -book[canonical(child)]
        scores.append((column, value))
    return scores


def back_up(depth: int, deepest: dict[int, int], width: int = 7, height: int = 6) -> dict[int, int]:
    """The whole book from the scores of the deepest ply: each shallower ply's positions are
    scored by negamax over their children, from ``depth - 1`` down to the empty board. Children
    that end the game score themselves; every other child must be in the book."""
    book = dict(deepest)
    for ply in range(depth - 1, -1, -1):
        for state in positions_at(ply, width, height):
            book[canonical(state)] = max(v for _, v in _child_scores(state, book, width, height))
    return book


def build_book(
    depth: int,
    width: int = 7,
    height: int = 6,
    *,
    executor: Executor | None = None,
    store: ResultStore | None = None,
    on_result: Callable[[str, Any, int, int], None] | None = None,
    table_bits: int | None = None,
) -> dict[int, int]:
    """Exact scores of every running position with at most ``depth`` stones.

    The deepest ply is solved as tasks on ``executor`` (default: this process); ``store`` keeps
    each score as it arrives and skips what it holds already, and ``on_result`` hears of each new
    one (see :func:`zermelo.parallel.run_job`). The shallower plies are then backed up
    (:func:`back_up`), which takes seconds. ``table_bits`` sizes each worker's transposition
    table, which the positions that worker solves share."""
    tasks = deepest_tasks(depth, width, height, table_bits)
    executor = executor or LocalExecutor(1)
    scores = run_job(executor, solve_position, tasks, store=store, on_result=on_result)
    return back_up(depth, {int(code): int(score) for code, score in scores.items()}, width, height)


def best_columns(
    width: int, height: int, moves: str, table_bits: int | None, floors: bool, score: int
) -> int:
    """The columns that keep ``score``, the exact score of one position of the deepest ply, as a
    bit mask (bit ``c`` for column ``c``) of its canonical orientation (:func:`canonical`): a
    task of a book build's second stage, one null-window search per column one ply past the
    book, on the solver the first stage used. With them stored, a player reads its best moves
    at the deepest ply without search."""
    state = Connect4State.parse(moves, width, height)
    return best_mask(state, _book_solver(width, height, table_bits, floors).keepers(state, score))


def best_tasks(
    tasks: dict[str, tuple[int, int, str, int | None, bool]], deepest: dict[int, int]
) -> dict[str, tuple[int, int, str, int | None, bool, int]]:
    """The tasks of the second stage (:func:`best_columns`): each of the first stage's
    ``tasks`` (:func:`deepest_tasks`) with its position's score from ``deepest`` (by code)."""
    return {key: (*arguments, deepest[int(key)]) for key, arguments in tasks.items()}


def back_up_best(
    depth: int, book: dict[int, int], deepest: dict[int, int], width: int = 7, height: int = 6
) -> dict[int, int]:
    """The best-column mask (canonical orientation) of every book entry: the deepest ply's from
    ``deepest`` (:func:`best_columns`), every shallower one's read from its children's scores."""
    best = dict(deepest)
    for ply in range(depth - 1, -1, -1):
        for state in positions_at(ply, width, height):
            key = canonical(state)
            children = _child_scores(state, book, width, height)
            best[key] = best_mask(state, (c for c, value in children if value == book[key]))
    return best


def best_meta(depth: int, width: int, height: int) -> dict[str, Any]:
    """What identifies the progress file of a book build's second stage (best columns)."""
    return {"job": "connect4-book-best", "depth": depth, "width": width, "height": height}


def store_meta(depth: int, width: int, height: int) -> dict[str, Any]:
    """What identifies a book build's progress file (its first line)."""
    return {"job": "connect4-book", "depth": depth, "width": width, "height": height}
