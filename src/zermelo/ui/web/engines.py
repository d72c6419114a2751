"""What the page asks of the engines: the AI's move, and the value of every legal move.

The generic versions use :func:`zermelo.agents.make_agent` and :func:`zermelo.search.alphabeta`
and work for any game of the State protocol. A game with its own engine (an exact solver, a
threat-space searcher) names an object with ``choose`` and ``values`` of the same shape in its
record (:attr:`~zermelo.core.record.GameSpec.web_engine`). All of them run in a worker thread under the budget they are given.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from zermelo.agents.spec import make_agent
from zermelo.core.record import GameSpec
from zermelo.search.alphabeta import alphabeta
from zermelo.search.result import MoveValue, SearchResult, SearchStats, parent_score
from zermelo.search.table import TranspositionTable

__all__ = ["Choice", "generic_choose", "generic_values", "sort_values"]


@dataclass(frozen=True)
class Choice:
    """The AI's move and, when the engine says, the search behind it."""

    move: Any
    result: SearchResult[Any] | None = None


def sort_values(values: list[MoveValue[Any]]) -> list[MoveValue[Any]]:
    """Best first; equal values keep the lowest move first (the search's documented order)."""
    return sorted(values, key=lambda mv: (-mv.value, mv.move))


def generic_values(
    state: Any, *, time_limit: float, node_limit: int, depth: int | None = None
) -> SearchResult[Any]:
    """Each legal move searched on its own (as :func:`zermelo.search.analyze` does), the budget
    split evenly between the moves, one table shared. ``depth=1`` scores each move by the
    evaluation of the position it leads to, for boards too wide to search every move."""
    moves = list(state.legal_moves())
    stats = SearchStats()
    if not moves:
        return SearchResult(None, 0.0, (), 0, False, stats)
    started = time.perf_counter()
    table = TranspositionTable(capacity=200_000)
    share_time = max(time_limit / len(moves), 0.001)
    share_nodes = max(node_limit // len(moves), 1)
    values = []
    for move in moves:
        child = state.play(move)
        if depth == 1 and not child.is_terminal():
            evaluate = getattr(child, "evaluate", None)
            result: SearchResult[Any] = SearchResult(
                None, float(evaluate()) if callable(evaluate) else 0.0, (), 0, False, SearchStats(1)
            )
        else:
            result = alphabeta(
                child,
                depth=None if depth is None else depth - 1,
                time_limit=share_time,
                node_limit=share_nodes,
                table=table,
            )
        stats.nodes += result.stats.nodes
        values.append(
            MoveValue(move, parent_score(result.value) + 0.0, result.exact, (move, *result.pv))
        )
    return analysis_of(sort_values(values), stats, time.perf_counter() - started)


def analysis_of(
    values: list[MoveValue[Any]], stats: SearchStats, elapsed: float
) -> SearchResult[Any]:
    """Every move's value, best first, as one result: the first move is the best."""
    stats.elapsed = elapsed
    if not values:
        return SearchResult(None, 0.0, (), 0, False, stats)
    best = values[0]
    return SearchResult(best.move, best.value, best.pv, 0, best.exact, stats, tuple(values))


def generic_choose(
    game: str | GameSpec, state: Any, level: str, seed: int, time_limit: float
) -> Choice:
    """The move of :func:`zermelo.agents.make_agent`'s player for ``game`` at ``level``."""
    agent = make_agent(game, level, seed=seed, time_limit=time_limit)
    move = agent.choose(state)
    last = getattr(agent, "last", None)
    return Choice(move, last if isinstance(last, SearchResult) else None)
