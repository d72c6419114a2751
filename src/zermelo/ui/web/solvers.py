"""Game engines of their own behind the web adapters: Connect Four's exact solver, gomoku's engine.

Connect Four at level hard is exact. The first plies come from the opening book (read in the
server's fast lane). Later the solver runs in its own :class:`~zermelo.ui.web.worker.Worker`
process (its compiled kernel cannot be interrupted) with a node budget worth the time the request
has left, measured from its own speed, so it declines a position it cannot finish in time instead
of being killed; the worker's deadline is only the backstop. When it declines, alpha-beta answers
in what is left of the same deadline, marked as not exact. The ``connect4_*`` functions at the
bottom run in the child process.

Gomoku's engine checks its clock as it searches, and so do the tables it builds.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from typing import Any

from zermelo.core.scores import is_decided
from zermelo.games.connect4 import mirror_code
from zermelo.search.alphabeta import alphabeta
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.ui.web.engines import Choice, ValuedMoves, generic_values, sort_values
from zermelo.ui.web.worker import Worker, WorkerFailed, WorkerTimeout

__all__ = [
    "connect4_book_choice",
    "connect4_book_values",
    "connect4_choose",
    "connect4_solver_choice",
    "connect4_solver_values",
    "connect4_values",
    "connect4_worker",
    "gomoku_choose",
    "gomoku_values",
    "warm_up_connect4",
]

_log = logging.getLogger("zermelo.web")

CONNECT4_PV_LIMIT = 12
SOLVER_START_RATE = 1_000_000
"""Nodes a second the solver is assumed to search until it has measured itself (compiled; the
plain-Python kernel starts from a tenth of it)."""
_CONNECT4 = Worker("zermelo-connect4-solver")


def connect4_worker() -> Worker:
    return _CONNECT4


def _book_scores(state: Any) -> list[tuple[int, int]] | None:
    """Every legal column's book score from the mover's side (solver units), when the shipped
    opening book holds every child of ``state``."""
    from zermelo.solvers.connect4.book import load_book

    book = load_book(state.width, state.height)
    if not book or state.is_terminal():
        return None
    scores = []
    for column in state.legal_moves():
        child = state.play(column)
        if child.is_terminal():
            return None
        code = child.current + child.mask
        score = book.get(min(code, mirror_code(code, child.width, child.height)))
        if score is None:
            return None
        scores.append((column, -score))
    return scores


def connect4_book_values(state: Any) -> ValuedMoves | None:
    """Every column's exact value from the opening book (the first plies), or ``None``."""
    from zermelo.solvers.connect4.scores import to_negamax

    scores = _book_scores(state)
    if scores is None:
        return None
    values = [
        MoveValue(
            column,
            -float(to_negamax(-score, state.ply + 1, state.width, state.height)),
            True,
            (column,),
        )
        for column, score in scores
    ]
    return ValuedMoves(sort_values(values), 0, 0.0)


def connect4_book_choice(state: Any, seed: int) -> Choice | None:
    """One of the book's best columns (drawn with ``seed`` among equals), or ``None``."""
    analysis = connect4_book_values(state)
    if analysis is None:
        return None
    best = analysis.moves[0].value
    keepers = sorted(entry.move for entry in analysis.moves if entry.value == best)
    move = random.Random(seed).choice(keepers)
    result = SearchResult(move, best, (move,), 1, True, SearchStats())
    return Choice(move, result)


def connect4_solver_choice(state: Any, seed: int, seconds: float) -> Choice | None:
    """The exact solver's best move when it finds one within ``seconds`` (it is given a node
    budget for that time, so it stops by itself), else ``None``."""
    answer = _ask_solver("connect4_best", state, seed, CONNECT4_PV_LIMIT, seconds, time=seconds)
    if answer is None:
        return None
    move = answer["move"]
    stats = SearchStats(nodes=answer["nodes"], elapsed=answer["elapsed"])
    pv = tuple(answer["pv"])
    return Choice(move, SearchResult(move, float(answer["value"]), pv, len(pv), True, stats))


def connect4_solver_values(state: Any, seconds: float) -> ValuedMoves | None:
    """Every column's exact value from the solver within ``seconds``, else ``None``."""
    answer = _ask_solver("connect4_values_exact", state, seconds, time=seconds)
    if answer is None:
        return None
    values = [
        MoveValue(column, float(value), True, (column,)) for column, value in answer["values"]
    ]
    return ValuedMoves(sort_values(values), answer["nodes"], answer["elapsed"])


def connect4_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """Hard: the book's or the exact solver's move (drawn with ``seed`` among equals); where
    neither answers within ``time_limit``, alpha-beta in the time left, marked as not exact.
    Easy and medium: the Connect Four levels of
    :func:`zermelo.solvers.connect4.api.choose_move`."""
    rng = random.Random(seed)
    if level != "hard":
        from zermelo.solvers.connect4.api import choose_move

        return Choice(choose_move(state, level, rng=rng))
    started = time.monotonic()
    found = connect4_book_choice(state, seed) or connect4_solver_choice(state, seed, time_limit)
    if found is not None:
        return found
    left = max(time_limit - (time.monotonic() - started), 0.01)
    result = alphabeta(state, time_limit=left, rng=rng)
    return Choice(result.move, result)


def _ask_solver(function: str, state: Any, *args: Any, time: float) -> dict[str, Any] | None:
    """The solver's answer, or ``None`` when it declines (too early, or not within its node
    budget) or when it is still busy at the deadline (then it is stopped)."""
    try:
        answer: dict[str, Any] = _CONNECT4.call(
            f"zermelo.ui.web.solvers:{function}",
            state.notation(),
            state.width,
            state.height,
            *args,
            timeout=time + min(0.1 * time, 0.1),
        )
    except (WorkerTimeout, WorkerFailed) as error:
        _log.warning("connect4 solver gave up on %r: %s", state.notation(), error)
        return None
    return None if answer.get("declined") else answer


def warm_up_connect4() -> None:
    """Load the solver in its worker with a position it answers at once."""
    try:
        _CONNECT4.call(
            "zermelo.ui.web.solvers:connect4_best", "4444443333", 7, 6, 0, 2, 30.0, timeout=120.0
        )
    except (WorkerTimeout, WorkerFailed) as error:  # pragma: no cover - depends on the machine
        _log.warning("connect4 solver warm-up failed: %s", error)


def connect4_values(state: Any, time_limit: float, node_limit: int) -> ValuedMoves:
    """Every column's exact value from the book or the solver (in two thirds of the time);
    else alpha-beta's values in the time left."""
    started = time.monotonic()
    found = connect4_book_values(state) or connect4_solver_values(state, time_limit * 2 / 3)
    if found is not None:
        return found
    left = max(time_limit - (time.monotonic() - started), 0.01)
    return generic_values(state, time_limit=left, node_limit=node_limit)


# -- gomoku ----------------------------------------------------------------------------------------


def gomoku_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """The gomoku engine at ``level`` (threats first, then alpha-beta) within ``time_limit``."""
    from zermelo.solvers.gomoku import Engine

    found = Engine(level).search(state, time_limit=time_limit, rng=random.Random(seed))
    pv = found.pv if found.pv and found.pv[0] == found.move else (found.move,)
    result = SearchResult(
        found.move,
        float(found.value),
        pv,
        found.depth,
        is_decided(found.value),
        SearchStats(nodes=found.nodes, elapsed=found.elapsed),
    )
    return Choice(found.move, result)


def gomoku_values(state: Any, time_limit: float, node_limit: int) -> ValuedMoves:
    """The values the hard engine gave the moves it considered at the root, within
    ``time_limit``: on a 15x15 board only those are worth showing. A move that failed low has an
    upper bound there, so only decided scores count as exact."""
    from zermelo.solvers.gomoku import Engine

    found = Engine("hard").search(state, time_limit=time_limit, node_limit=node_limit)
    scores = dict(found.scores) or {found.move: found.value}
    scores.setdefault(found.move, found.value)
    values = [
        MoveValue(
            move,
            float(score),
            is_decided(score),
            found.pv if move == found.move and found.pv else (move,),
        )
        for move, score in scores.items()
    ]
    ordered = sort_values(values)
    # The engine's choice leads, as it does on the board.
    ordered.sort(key=lambda mv: mv.move != found.move)
    return ValuedMoves(ordered, found.nodes, found.elapsed)


# -- run in the solver's child process ---------------------------------------------------------


CONNECT4_BEST_MIN_PLY = 4
"""Earlier positions are left to alpha-beta unless the solver's book holds them (the shipped book
holds every position of the first three plies; without it the solver needs up to about 30 s at
ply 3, minutes before). From ply 4 one best move takes at most a few seconds."""
CONNECT4_VALUES_MIN_PLY = 8
"""Every column's exact value costs one whole solve per column: from ply 8 it takes well under a
second (the deadline still guards it); earlier, the overlay shows alpha-beta's values."""


_RATE: dict[str, float] = {}
"""The solver's measured nodes a second in this child process."""


@functools.lru_cache(maxsize=2)
def _solver(width: int, height: int) -> Any:  # pragma: no cover - child process
    from zermelo.solvers.connect4.solver import Connect4Solver

    return Connect4Solver(width, height)


def _node_budget(solver: Any, seconds: float) -> int:  # pragma: no cover - child process
    start = SOLVER_START_RATE if solver.compiled else SOLVER_START_RATE // 10
    return max(int(_RATE.get("rate", start) * seconds * 0.8), 1000)


def _measured(nodes: int, elapsed: float) -> None:  # pragma: no cover - child process
    if nodes > 100_000 and elapsed > 0.05:
        rate = nodes / elapsed
        _RATE["rate"] = rate if "rate" not in _RATE else 0.7 * _RATE["rate"] + 0.3 * rate


def _within_reach(
    solver: Any, state: Any, min_ply: int
) -> bool:  # pragma: no cover - child process
    if state.ply >= min_ply or state.is_terminal():
        return True
    return solver.book_score(state.current, state.mask) is not None


def connect4_best(
    notation: str, width: int, height: int, seed: int, pv_limit: int, seconds: float
) -> dict[str, Any]:  # pragma: no cover - child process
    """A best move (drawn with ``seed`` among equals), its negamax value and the line after it;
    declined when the solver needs more nodes than ``seconds`` give."""
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_BEST_MIN_PLY):
        return {"declined": True}
    from zermelo.core.errors import BudgetError
    from zermelo.solvers.connect4.scores import to_negamax

    started, nodes = time.perf_counter(), solver.nodes
    budget = _node_budget(solver, seconds)
    try:
        move, score = solver.best_move(state, rng=random.Random(seed), node_budget=budget)
        after = state.play(move)
        solver.node_limit = budget
        try:
            line = (move, *solver.principal_variation(after, limit=pv_limit - 1))
        except BudgetError:
            line = (move,)
        finally:
            solver.node_limit = None
    except BudgetError:
        _measured(solver.nodes - nodes, time.perf_counter() - started)
        return {"declined": True}
    elapsed = time.perf_counter() - started
    _measured(solver.nodes - nodes, elapsed)
    return {
        "move": move,
        "value": to_negamax(score, state.ply, width, height),
        "pv": list(line),
        "nodes": solver.nodes - nodes,
        "elapsed": elapsed,
    }


def connect4_values_exact(
    notation: str, width: int, height: int, seconds: float
) -> dict[str, Any]:  # pragma: no cover - child process
    """Every legal column's exact negamax value for the side to move; declined when one column
    needs more nodes than its share of ``seconds`` gives."""
    from zermelo.core.errors import BudgetError
    from zermelo.solvers.connect4.scores import to_negamax

    started = time.perf_counter()
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_VALUES_MIN_PLY):
        return {"declined": True}
    nodes = solver.nodes
    solver.node_limit = max(_node_budget(solver, seconds) // max(width, 1), 1000)
    try:
        scores = solver.analyze(state)
    except BudgetError:
        return {"declined": True}
    finally:
        solver.node_limit = None
        _measured(solver.nodes - nodes, time.perf_counter() - started)
    values = [
        (column, to_negamax(score, state.ply, width, height))
        for column, score in enumerate(scores)
        if score is not None
    ]
    return {
        "values": values,
        "nodes": solver.nodes - nodes,
        "elapsed": time.perf_counter() - started,
    }
