"""Connect Four's own engines for the web page (the record's :class:`~zermelo.core.capabilities.WebEngine`).

At level hard Connect Four is exact. The first plies come from the opening book (read in the
server's fast lane). Later the solver runs in its own :class:`~zermelo.workers.Worker` process (its
compiled kernel cannot be interrupted) with a node budget worth the time the request has left,
measured from its own speed, so it declines a position it cannot finish in time instead of being
killed; the worker's deadline is only the backstop. When it declines, alpha-beta answers in what is
left of the same deadline, marked as not exact. The functions at the bottom run in the child
process.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
import threading
import time
from typing import Any

from zermelo.core.capabilities import WebEngine
from zermelo.core.errors import IllegalMoveError
from zermelo.core.result import Choice, MoveValue, SearchResult, SearchStats, sort_values, valued
from zermelo.games.connect4 import Connect4State, mirror_code
from zermelo.search.alphabeta import alphabeta
from zermelo.search.values import generic_values
from zermelo.solvers.connect4.solver import Connect4Solver
from zermelo.workers import Worker, WorkerFailed, WorkerTimeout

__all__ = [
    "CONNECT4",
    "connect4_best",
    "connect4_book_choice",
    "connect4_book_values",
    "connect4_choose",
    "connect4_solver_choice",
    "connect4_solver_values",
    "connect4_values",
    "connect4_values_exact",
    "connect4_worker",
    "warm_up_connect4",
]

_log = logging.getLogger("zermelo.web")

CONNECT4_PV_LIMIT = 12
SOLVER_START_RATE = 500_000
"""Nodes a second the solver is assumed to search until its answers have measured it."""
_SPEED = {"rate": float(SOLVER_START_RATE)}
"""The solver's speed as this server measured it: kept here, not in the solver's process, so
that it survives a restart, and halved whenever the solver had to be stopped."""


def _node_budget(seconds: float) -> int:
    """Nodes the solver may search in ``seconds``, with room to spare."""
    return max(int(_SPEED["rate"] * seconds * 0.6), 1000)


def _measure(answer: dict[str, Any]) -> None:
    nodes, elapsed = answer.get("nodes", 0), answer.get("elapsed", 0.0)
    if nodes > 50_000 and elapsed > 0.02:
        _SPEED["rate"] = 0.7 * _SPEED["rate"] + 0.3 * nodes / elapsed


_CONNECT4 = Worker("zermelo-connect4-solver")


def connect4_worker() -> Worker:
    return _CONNECT4


def _book_scores(state: Connect4State) -> list[tuple[int, int]] | None:
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


def connect4_book_values(state: Connect4State) -> SearchResult[int] | None:
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
    return dataclasses.replace(valued(sort_values(values)), reason="book")


def connect4_book_choice(state: Connect4State, seed: int) -> Choice[int] | None:
    """One of the book's best columns (drawn with ``seed`` among equals), or ``None``."""
    analysis = connect4_book_values(state)
    if analysis is None:
        return None
    best = analysis.moves[0].value
    keepers = sorted(entry.move for entry in analysis.moves if entry.value == best)
    move = random.Random(seed).choice(keepers)
    result = SearchResult(move, best, (move,), 1, True, SearchStats())
    return Choice(move, result)


def connect4_solver_choice(state: Connect4State, seed: int, seconds: float) -> Choice[int] | None:
    """The exact solver's best move when it finds one within ``seconds`` (it is given a node
    budget for that time, so it stops by itself), else ``None``."""
    answer = _ask_solver(
        "connect4_best", state, seed, CONNECT4_PV_LIMIT, _node_budget(seconds), time=seconds
    )
    if answer is None:
        return None
    move = answer["move"]
    stats = SearchStats(nodes=answer["nodes"], elapsed=answer["elapsed"])
    pv = tuple(answer["pv"])
    return Choice(move, SearchResult(move, float(answer["value"]), pv, len(pv), True, stats))


def connect4_solver_values(state: Connect4State, seconds: float) -> SearchResult[int] | None:
    """Every column's exact value from the solver within ``seconds``, else ``None``."""
    answer = _ask_solver("connect4_values_exact", state, _node_budget(seconds), time=seconds)
    if answer is None:
        return None
    values = [
        MoveValue(column, float(value), True, (column,)) for column, value in answer["values"]
    ]
    found = valued(sort_values(values), answer["nodes"], answer["elapsed"])
    return dataclasses.replace(found, reason="search")


def connect4_choose(state: Connect4State, level: str, seed: int, time_limit: float) -> Choice[int]:
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
    if result.move is None:
        raise IllegalMoveError(f"the game is over; there is no move to choose ({state.notation()})")
    return Choice(result.move, result)


def _ask_solver(
    function: str, state: Connect4State, *args: int, time: float
) -> dict[str, Any] | None:
    """The solver's answer, or ``None`` when it declines (too early, or not within its node
    budget), when it is still busy at the deadline (then it is stopped and started again in the
    background), or while it is starting (loading its compiled code takes seconds: no request
    waits for that)."""
    if _CONNECT4.starting or not _CONNECT4.running:
        if not _CONNECT4.starting and not _CONNECT4.closed:
            _warm_up_later()
        return None
    try:
        answer: dict[str, Any] = _CONNECT4.call(
            f"zermelo.solvers.connect4.web:{function}",
            state.notation(),
            state.width,
            state.height,
            *args,
            timeout=time + min(0.1 * time, 0.1),
        )
    except (WorkerTimeout, WorkerFailed) as error:
        if isinstance(error, WorkerTimeout) and _stopped():
            _SPEED["rate"] /= 2
            _warm_up_later()
        _log.warning("connect4 solver gave up on %r: %s", state.notation(), error)
        return None
    _measure(answer)
    return None if answer.get("declined") else answer


def _stopped() -> bool:
    """True when the solver's process is gone (stopped at a deadline, or ended)."""
    return not _CONNECT4.running


def _warm_up_later() -> None:
    threading.Thread(target=warm_up_connect4, name="zermelo-connect4-start", daemon=True).start()


def warm_up_connect4() -> None:
    """Start the solver's process and load the solver in it with a position it answers at once
    (requests do not use it meanwhile)."""
    if _CONNECT4.starting:
        return
    _CONNECT4.starting = True
    try:
        _CONNECT4.start()
        _CONNECT4.call(
            "zermelo.solvers.connect4.web:connect4_best",
            "4444443333",
            7,
            6,
            0,
            2,
            10**9,
            timeout=120.0,
        )
    except (WorkerTimeout, WorkerFailed) as error:  # pragma: no cover - depends on the machine
        if not _CONNECT4.closed:
            _log.warning("connect4 solver warm-up failed: %s", error)
    finally:
        _CONNECT4.starting = False


def connect4_values(state: Connect4State, time_limit: float, node_limit: int) -> SearchResult[int]:
    """Every column's exact value from the book or the solver (in two thirds of the time);
    else alpha-beta's values in the time left."""
    started = time.monotonic()
    found = connect4_book_values(state) or connect4_solver_values(state, time_limit * 2 / 3)
    if found is not None:
        return found
    left = max(time_limit - (time.monotonic() - started), 0.01)
    return generic_values(state, time_limit=left, node_limit=node_limit)


# -- run in the solver's child process ---------------------------------------------------------


STANDARD_CELLS = 42
"""The cells of the standard 7x6 board, for which the plies below are measured."""
CONNECT4_BEST_MIN_PLY = 4
"""Earlier positions are left to alpha-beta unless the solver's book holds them; the shipped book
holds every position of the first seven plies, so none is (without a book the solver needs up to
about 30 s at ply 3, minutes before). From ply 4 one best move takes at most a few seconds."""
CONNECT4_VALUES_MIN_PLY = 8
"""Every column's exact value costs one whole solve per column: from ply 8 it takes well under a
second (the deadline still guards it); earlier, the overlay shows alpha-beta's values."""


def _cold() -> bool:  # pragma: no cover - child process
    """True while the compiled kernel is not ready in this process (numba's cache does not hold
    it yet, or it is being loaded from there; :func:`zermelo.solvers.kernels.serve_while_cold`):
    the solver declines at once, since its plain copy is far too slow for a request's node
    budget, and alpha-beta answers. It never compiles here, under a request's deadline."""
    from zermelo.solvers.kernels import serve_while_cold

    return bool(serve_while_cold(("connect4",)))


@functools.lru_cache(maxsize=2)
def _solver(width: int, height: int) -> Connect4Solver:  # pragma: no cover - child process
    from zermelo.solvers.connect4.solver import Connect4Solver

    return Connect4Solver(width, height)


def _within_reach(
    solver: Connect4Solver, state: Connect4State, min_ply: int
) -> bool:  # pragma: no cover - child process
    """True when the solver answers ``state`` in time: from ``min_ply`` on, or once as few
    cells are empty as on the standard board at that ply (a 4x4 board from its start), or from
    its book (the node budget still guards every call)."""
    empty = state.width * state.height - state.ply
    if state.ply >= min_ply or empty <= STANDARD_CELLS - min_ply or state.is_terminal():
        return True
    return solver.book_score(state.current, state.mask) is not None


def connect4_best(
    notation: str, width: int, height: int, seed: int, pv_limit: int, budget: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """A best move (drawn with ``seed`` among equals), its negamax value and the line after it;
    declined when the solver needs more than ``budget`` nodes, or while its compiled kernel is
    being built (see :func:`_cold`)."""
    if _cold():
        return {"declined": True}
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_BEST_MIN_PLY):
        return {"declined": True}
    from zermelo.core.errors import BudgetError
    from zermelo.solvers.connect4.scores import to_negamax

    started, nodes = time.perf_counter(), solver.nodes
    try:
        move, score = solver.best_move(state, rng=random.Random(seed), node_budget=budget)
        after = state.play(move)
        solver.node_limit = budget
        try:
            line = (move, *solver.principal_variation(after, limit=pv_limit - 1, score=-score))
        except BudgetError:
            line = (move,)
        finally:
            solver.node_limit = None
    except BudgetError:
        spent = {"nodes": solver.nodes - nodes, "elapsed": time.perf_counter() - started}
        return {"declined": True, **spent}
    elapsed = time.perf_counter() - started
    return {
        "move": move,
        "value": to_negamax(score, state.ply, width, height),
        "pv": list(line),
        "nodes": solver.nodes - nodes,
        "elapsed": elapsed,
    }


def connect4_values_exact(
    notation: str, width: int, height: int, budget: int
) -> dict[str, Any]:  # pragma: no cover - child process
    """Every legal column's exact negamax value for the side to move; declined when one column
    needs more than its share of ``budget`` nodes."""
    from zermelo.core.errors import BudgetError
    from zermelo.solvers.connect4.scores import to_negamax

    if _cold():
        return {"declined": True}
    started = time.perf_counter()
    solver = _solver(width, height)
    state = solver.position(notation)
    if not _within_reach(solver, state, CONNECT4_VALUES_MIN_PLY):
        return {"declined": True}
    nodes = solver.nodes
    solver.node_limit = max(budget // max(width, 1), 1000)
    try:
        scores = solver.analyze(state)
    except BudgetError:
        spent = {"nodes": solver.nodes - nodes, "elapsed": time.perf_counter() - started}
        return {"declined": True, **spent}
    finally:
        solver.node_limit = None
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


CONNECT4: WebEngine[Connect4State] = WebEngine(
    connect4_choose,
    connect4_values,
    book_choice=connect4_book_choice,
    book_values=connect4_book_values,
    solver_choice=connect4_solver_choice,
    solver_values=connect4_solver_values,
    warm_up=warm_up_connect4,
    stop=_CONNECT4.stop,
    kill_now=_CONNECT4.kill_now,
)
"""Connect Four's record names this (``web_engine``)."""
