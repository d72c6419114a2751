"""Game engines of their own behind the web adapters: Connect Four's exact solver, gomoku's engine.

Connect Four at level hard is the perfect solver. Its compiled kernel cannot be interrupted, so it
runs in a :class:`~zermelo.ui.web.worker.Worker` process under a deadline; when a position takes
longer than that (deep in an opening the book does not cover), the answer falls back to
alpha-beta under the same clock and says that it is not exact. The ``connect4_*`` functions at the
bottom run in the child process.

Gomoku's engine checks its clock as it searches, so it runs in the request's thread.
"""

from __future__ import annotations

import functools
import logging
import random
from typing import Any

from zermelo.core.scores import is_decided
from zermelo.search.result import SearchResult, SearchStats
from zermelo.ui.web.engines import (
    Analysis,
    Choice,
    MoveValue,
    generic_choose,
    generic_values,
    sort_values,
)
from zermelo.ui.web.worker import Worker, WorkerFailed, WorkerTimeout

__all__ = [
    "CONNECT4_SOLVER_TIME",
    "connect4_choose",
    "connect4_values",
    "gomoku_choose",
    "gomoku_values",
]

_log = logging.getLogger("zermelo.web")

CONNECT4_SOLVER_TIME = 6.0
"""Longest the solver may think about one move of the hard AI, in seconds."""
CONNECT4_PV_LIMIT = 12
_CONNECT4 = Worker("zermelo-connect4-solver")


def connect4_worker() -> Worker:
    return _CONNECT4


def connect4_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """Hard: a best move of the exact solver (drawn with ``seed`` among equals); else the
    generic levels."""
    if level == "hard":
        try:
            answer = _CONNECT4.call(
                "zermelo.ui.web.solvers:connect4_best",
                state.notation(),
                state.width,
                state.height,
                CONNECT4_PV_LIMIT,
                timeout=CONNECT4_SOLVER_TIME,
            )
        except (WorkerTimeout, WorkerFailed) as error:
            _log.warning("connect4 solver gave up on %r: %s", state.notation(), error)
        else:
            best = answer["best"]
            move = random.Random(seed).choice(best) if len(best) > 1 else best[0]
            pv = tuple(answer["pv"]) if answer["pv"] and answer["pv"][0] == move else (move,)
            result = SearchResult(
                move,
                float(answer["value"]),
                pv,
                len(pv),
                True,
                SearchStats(nodes=answer["nodes"], elapsed=answer["elapsed"]),
            )
            return Choice(move, result)
    return generic_choose("connect4", state, level, seed, time_limit)


def connect4_values(state: Any, time_limit: float, node_limit: int) -> Analysis:
    """Every column's exact value from the solver, or alpha-beta's when it runs out of time."""
    try:
        answer = _CONNECT4.call(
            "zermelo.ui.web.solvers:connect4_values_exact",
            state.notation(),
            state.width,
            state.height,
            timeout=time_limit,
        )
    except (WorkerTimeout, WorkerFailed) as error:
        _log.info("connect4 solver: no exact values for %r: %s", state.notation(), error)
        return generic_values(state, time_limit=time_limit, node_limit=node_limit)
    values = [
        MoveValue(column, float(value), True, (column,)) for column, value in answer["values"]
    ]
    return Analysis(sort_values(values), answer["nodes"], answer["elapsed"])


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


def gomoku_values(state: Any, time_limit: float, node_limit: int) -> Analysis:
    """One-ply values of every point (the evaluation after the move), with the engine's own
    choice and its line marked first: valuing 225 points by search would not fit a request."""
    analysis = generic_values(state, time_limit=time_limit, node_limit=node_limit, depth=1)
    return analysis


# -- run in the solver's child process ---------------------------------------------------------


@functools.cache
def _solver(width: int, height: int) -> Any:  # pragma: no cover - child process
    from zermelo.solvers.connect4.solver import Connect4Solver

    return Connect4Solver(width, height, table_bits=22)


def connect4_best(
    notation: str, width: int, height: int, pv_limit: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """The solver's best moves, negamax value and line for a position in move notation."""
    solver = _solver(width, height)
    result = solver.solve(notation)
    pv = solver.principal_variation(notation, limit=pv_limit) if result.best_moves else ()
    return {
        "best": list(result.best_moves),
        "value": result.value,
        "pv": list(pv),
        "nodes": result.nodes,
        "elapsed": result.elapsed,
    }


def connect4_values_exact(
    notation: str, width: int, height: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """Every legal column's exact negamax value for the side to move."""
    import time

    from zermelo.solvers.connect4.scores import to_negamax

    started = time.perf_counter()
    solver = _solver(width, height)
    state = solver.position(notation)
    scores = solver.analyze(state)
    values = [
        (column, to_negamax(score, state.ply, width, height))
        for column, score in enumerate(scores)
        if score is not None
    ]
    return {"values": values, "nodes": 0, "elapsed": time.perf_counter() - started}
