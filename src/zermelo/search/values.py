"""Every legal move's value under one budget, the way the page's overlay asks for them: each
move searched on its own, the budget shared, and a static fallback when no search had the time.

They work for any game of the State protocol, run under the calling thread's budget
(:func:`zermelo.core.limits.limited`), and answer with :class:`~zermelo.core.result.SearchResult`,
whose ``moves`` are the values, best first.
"""

from __future__ import annotations

import time
from typing import TypeVar

from zermelo.core import limits
from zermelo.core.errors import BudgetError
from zermelo.core.result import (
    MoveValue,
    SearchResult,
    SearchStats,
    parent_score,
    sort_values,
    valued,
)
from zermelo.core.scores import WIN
from zermelo.core.state import Evaluates, SortableMove, State
from zermelo.search.alphabeta import alphabeta
from zermelo.search.moves import search_moves
from zermelo.search.table import TranspositionTable

__all__ = ["generic_values", "search_order", "static_values"]

M = TypeVar("M", bound=SortableMove)


def generic_values(
    state: State[M], *, time_limit: float, node_limit: int, depth: int | None = None
) -> SearchResult[M]:
    """Each legal move searched on its own (as :func:`zermelo.search.analyze` does), one table
    shared, within ``time_limit`` and ``node_limit`` for all of them: each move gets an even
    share of what is left when its turn comes (so a move solved early leaves its time to the
    others), and once the time is spent the remaining moves are scored by the evaluation of the
    position they lead to. ``depth=1`` scores every move that way, for boards too wide to search
    every move."""
    moves = list(state.legal_moves())
    if not moves:
        return valued(())
    started = time.perf_counter()
    deadline = started + time_limit
    nodes = reached = 0
    table = TranspositionTable(capacity=200_000)
    values: list[MoveValue[M]] = []
    for index, move in enumerate(moves):
        limits.check()
        child = state.play(move)
        share_time = (deadline - time.perf_counter()) / (len(moves) - index)
        share_nodes = max((node_limit - nodes) // (len(moves) - index), 1)
        if (depth == 1 or share_time <= 0 or nodes >= node_limit) and not child.is_terminal():
            score = float(child.evaluate()) if isinstance(child, Evaluates) else 0.0
            result: SearchResult[M] = SearchResult(None, score, (), 0, False, SearchStats(1))
        else:
            result = alphabeta(
                child,
                depth=None if depth is None else depth - 1,
                time_limit=max(share_time, 0.001),
                node_limit=share_nodes,
                table=table,
            )
        nodes += result.stats.nodes
        reached = max(reached, result.depth + 1)
        values.append(
            MoveValue(move, parent_score(result.value) + 0.0, result.exact, (move, *result.pv))
        )
    return valued(sort_values(values), nodes, time.perf_counter() - started, reached)


def search_order(state: State[M]) -> list[M]:
    """The moves worth trying first, by the one rule every search follows
    (:func:`zermelo.search.moves.search_moves`): the game's ``search_moves`` where it has them
    (the points near the stones on a big board), else every legal move."""
    return list(search_moves(state))


def static_values(state: State[M], seconds: float) -> SearchResult[M]:
    """Each move's value one ply deep (a win on the spot is exact, else the static evaluation
    of the position it leads to), in :func:`search_order`, for as many moves as ``seconds``
    allow (at least the first, valued 0 if need be): the answer when no search had the time."""
    started = time.perf_counter()
    nodes = 0
    values: list[MoveValue[M]] = []
    order = search_order(state)
    try:
        with limits.limited(started + seconds):
            for move in order:
                limits.check()
                child = state.play(move)
                nodes += 1
                if child.is_terminal():
                    won = child.winner is not None
                    values.append(MoveValue(move, float(WIN - 1) if won else 0.0, True, (move,)))
                    continue
                score = -float(child.evaluate()) if isinstance(child, Evaluates) else 0.0
                values.append(MoveValue(move, score, False, (move,)))
    except BudgetError:
        if not values and order:
            # Not even one evaluation in time (its tables were cold): the first move, unvalued.
            values.append(MoveValue(order[0], 0.0, False, (order[0],)))
    return valued(sort_values(values), nodes, time.perf_counter() - started)
