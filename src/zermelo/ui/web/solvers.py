"""Game engines of their own behind the web adapters: Connect Four's exact solver, gomoku's engine.

Connect Four at level hard is the perfect solver. Its compiled kernel cannot be interrupted, so it
runs in a :class:`~zermelo.ui.web.worker.Worker` process under a deadline; when a position takes
longer than that (deep in an opening the book does not cover), the answer falls back to
alpha-beta under the same clock and says that it is not exact. The ``connect4_*`` functions at the
bottom run in the child process.

Gomoku's engine checks its clock as it searches, so it runs in the request's thread.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zermelo.search.alphabeta import alphabeta
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.ui.web.engines import Choice, analysis_of, generic_values, sort_values
from zermelo.ui.web.worker import Worker, WorkerFailed, WorkerTimeout

__all__ = [
    "CONNECT4",
    "CONNECT4_SOLVER_TIME",
    "GOMOKU",
    "WebEngine",
    "connect4_choose",
    "connect4_values",
    "connect4_worker",
    "gomoku_choose",
    "gomoku_values",
    "warm_up_connect4",
]

_log = logging.getLogger("zermelo.web")

CONNECT4_SOLVER_TIME = 6.0
"""Longest the solver may think about one move of the hard AI, in seconds."""
CONNECT4_PV_LIMIT = 12
_CONNECT4 = Worker("zermelo-connect4-solver")


def connect4_worker() -> Worker:
    return _CONNECT4


def connect4_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """Hard: one of the exact solver's best moves (drawn with ``seed`` among equals); where the
    solver cannot answer in time (early in the game, outside its book), alpha-beta under the
    request's clock, marked as not exact. Easy and medium: the Connect Four levels of
    :func:`zermelo.solvers.connect4.api.choose_move`."""
    rng = random.Random(seed)
    if level != "hard":
        from zermelo.solvers.connect4.api import choose_move

        return Choice(choose_move(state, level, rng=rng))
    answer = _ask_solver(
        "connect4_best",
        state,
        seed,
        CONNECT4_PV_LIMIT,
        timeout=CONNECT4_SOLVER_TIME,
    )
    if answer is None:
        result = alphabeta(state, time_limit=time_limit, rng=rng)
        return Choice(result.move, result)
    move = answer["move"]
    stats = SearchStats(nodes=answer["nodes"], elapsed=answer["elapsed"])
    pv = tuple(answer["pv"])
    return Choice(move, SearchResult(move, float(answer["value"]), pv, len(pv), True, stats))


def _ask_solver(function: str, state: Any, *args: Any, timeout: float) -> dict[str, Any] | None:
    """The solver's answer, or ``None`` when it declines (too early) or runs out of time."""
    try:
        answer: dict[str, Any] = _CONNECT4.call(
            f"zermelo.ui.web.solvers:{function}",
            state.notation(),
            state.width,
            state.height,
            *args,
            timeout=timeout,
        )
    except (WorkerTimeout, WorkerFailed) as error:
        _log.warning("connect4 solver gave up on %r: %s", state.notation(), error)
        return None
    return None if answer.get("declined") else answer


def warm_up_connect4() -> None:
    """Load the solver in its worker with a position it answers at once."""
    try:
        _CONNECT4.call(
            "zermelo.ui.web.solvers:connect4_best", "4444443333", 7, 6, 0, 2, timeout=120.0
        )
    except (WorkerTimeout, WorkerFailed) as error:  # pragma: no cover - depends on the machine
        _log.warning("connect4 solver warm-up failed: %s", error)


def connect4_values(state: Any, time_limit: float, node_limit: int) -> SearchResult[Any]:
    """Every column's exact value from the solver; when it declines or runs out of time (it gets
    two thirds of the budget), alpha-beta's values in the time left."""
    started = time.monotonic()
    answer = _ask_solver("connect4_values_exact", state, timeout=time_limit * 2 / 3)
    if answer is None:
        left = max(time_limit - (time.monotonic() - started), 0.3)
        return generic_values(state, time_limit=left, node_limit=node_limit)
    values = [
        MoveValue(column, float(value), True, (column,)) for column, value in answer["values"]
    ]
    return analysis_of(sort_values(values), SearchStats(answer["nodes"]), answer["elapsed"])


# -- gomoku ----------------------------------------------------------------------------------------


def gomoku_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """The gomoku engine at ``level`` (threats first, then alpha-beta) within ``time_limit``."""
    from zermelo.solvers.gomoku.engine import Engine, move_of

    found = Engine(level).search(state, time_limit=time_limit, rng=random.Random(seed))
    move = move_of(found)
    pv = found.pv if found.pv and found.pv[0] == move else (move,)
    return Choice(move, dataclasses.replace(found, pv=pv))


def gomoku_values(state: Any, time_limit: float, node_limit: int) -> SearchResult[Any]:
    """The values the hard engine gave the moves it considered at the root, within
    ``time_limit``: on a 15x15 board only those are worth showing. A move that failed low has an
    upper bound there, so only decided scores count as exact."""
    from zermelo.solvers.gomoku.engine import Engine, move_of

    found = Engine("hard").search(state, time_limit=time_limit, node_limit=node_limit)
    move = move_of(found)
    values = list(found.moves)
    if all(value.move != move for value in values):
        values.append(MoveValue(move, found.value, found.exact, found.pv))
    ordered = sort_values(values)
    # The engine's choice leads, as it does on the board.
    ordered.sort(key=lambda mv: mv.move != move)
    return dataclasses.replace(found, moves=tuple(ordered))


@dataclass(frozen=True)
class WebEngine:
    """A game's own engines for the page, named by its record's ``web_engine``; ``warm_up`` and
    ``stop``, if given, run when the server starts and stops."""

    choose: Callable[[Any, str, int, float], Choice]
    values: Callable[[Any, float, int], SearchResult[Any]]
    warm_up: Callable[[], None] | None = None
    stop: Callable[[], None] | None = None


# -- chess ---------------------------------------------------------------------------------------


def chess_choose(state: Any, level: str, seed: int, time_limit: float) -> Choice:
    """The chess level's move (:mod:`zermelo.agents.chess`) within ``time_limit``, with the
    engine's search behind it."""
    from zermelo.agents.chess import ChessAgent
    from zermelo.agents.spec import make_agent
    from zermelo.games.chess import SPEC
    from zermelo.solvers.chess.tools import search_result

    agent = make_agent(SPEC, level, seed=seed, time_limit=time_limit)
    move = agent.choose(state)
    found = agent.last if isinstance(agent, ChessAgent) else None
    if found is None or isinstance(found, list):
        return Choice(move)
    return Choice(move, search_result(found))


def chess_values(state: Any, time_limit: float, node_limit: int) -> SearchResult[Any]:
    """Every legal move's value from the chess engine, within ``time_limit`` and ``node_limit``."""
    from zermelo.solvers.chess.tools import analyze

    return analyze(state, None, time_limit, nodes=node_limit)


CONNECT4 = WebEngine(connect4_choose, connect4_values, warm_up_connect4, _CONNECT4.stop)
GOMOKU = WebEngine(gomoku_choose, gomoku_values)
CHESS = WebEngine(chess_choose, chess_values)


# -- run in the solver's child process ---------------------------------------------------------


CONNECT4_BEST_MIN_PLY = 4
"""Earlier positions are left to alpha-beta unless the solver's book holds them (the shipped book
holds every position of the first three plies; without it the solver needs up to about 30 s at
ply 3, minutes before). From ply 4 one best move takes at most a few seconds."""
CONNECT4_VALUES_MIN_PLY = 8
"""Every column's exact value costs one whole solve per column: from ply 8 it takes well under a
second (the deadline still guards it); earlier, the overlay shows alpha-beta's values."""


@functools.cache
def _solver(width: int, height: int) -> Any:  # pragma: no cover - child process
    from zermelo.solvers.connect4.solver import default_solver

    return default_solver(width, height)


def _within_reach(
    solver: Any, state: Any, min_ply: int
) -> bool:  # pragma: no cover - child process
    if state.ply >= min_ply or state.is_terminal():
        return True
    return solver.book_score(state.current, state.mask) is not None


def connect4_best(
    notation: str, width: int, height: int, seed: int, pv_limit: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """A best move (drawn with ``seed`` among equals), its negamax value and the line after it."""
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_BEST_MIN_PLY):
        return {"declined": True}
    from zermelo.solvers.connect4.scores import to_negamax

    started, nodes = time.perf_counter(), solver.nodes
    move, score = solver.best_move(state, rng=random.Random(seed))
    after = state.play(move)
    line = (move, *solver.principal_variation(after, limit=pv_limit - 1))
    return {
        "move": move,
        "value": to_negamax(score, state.ply, width, height),
        "pv": list(line),
        "nodes": solver.nodes - nodes,
        "elapsed": time.perf_counter() - started,
    }


def connect4_values_exact(
    notation: str, width: int, height: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """Every legal column's exact negamax value for the side to move."""
    from zermelo.solvers.connect4.scores import to_negamax

    started = time.perf_counter()
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_VALUES_MIN_PLY):
        return {"declined": True}
    scores = solver.analyze(state)
    values = [
        (column, to_negamax(score, state.ply, width, height))
        for column, score in enumerate(scores)
        if score is not None
    ]
    return {"values": values, "nodes": 0, "elapsed": time.perf_counter() - started}
