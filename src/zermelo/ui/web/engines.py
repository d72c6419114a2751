"""What the page asks of the engines: the AI's move, and the value of every legal move.

The generic versions use :func:`zermelo.agents.make_agent` and :func:`zermelo.search.alphabeta`
and work for any game of the State protocol. A game with its own engine (an exact solver, a
threat-space searcher) plugs in through its :class:`~zermelo.ui.web.adapters.Adapter` with functions
of the same shape. All of them run in a worker thread under the budget they are given, and all
answer with :class:`~zermelo.search.result.SearchResult`, the type every search and solver
returns: the values of the moves are its ``moves``, best first.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zermelo.agents.spec import make_agent
from zermelo.core import limits
from zermelo.core.errors import BudgetError
from zermelo.core.record import GameSpec
from zermelo.core.scores import WIN
from zermelo.search.alphabeta import alphabeta
from zermelo.search.result import MoveValue, SearchResult, SearchStats, parent_score
from zermelo.search.table import TranspositionTable

__all__ = [
    "Choice",
    "generic_choose",
    "generic_values",
    "search_order",
    "static_values",
    "valued",
]


@dataclass(frozen=True)
class Choice:
    """The AI's move and, when the engine says, the search behind it (a level that plays
    without searching, such as a random move, has none)."""

    move: Any
    result: SearchResult[Any] | None = None


def sort_values(values: list[MoveValue[Any]]) -> list[MoveValue[Any]]:
    """Best first; equal values keep the lowest move first (the search's documented order)."""
    return sorted(values, key=lambda mv: (-mv.value, mv.move))


def valued(
    moves: Sequence[MoveValue[Any]], nodes: int = 0, elapsed: float = 0.0, depth: int = 1
) -> SearchResult[Any]:
    """The result of valuing ``moves`` (best first) one by one: the first is the move, its value
    and its line the result's; ``nodes`` and ``elapsed`` are what it cost, ``depth`` how deep
    the deepest of the moves' searches read (the move included)."""
    stats = SearchStats(nodes=nodes, elapsed=elapsed)
    if not moves:
        return SearchResult(None, 0.0, (), 0, False, stats)
    best = moves[0]
    return SearchResult(best.move, best.value, best.pv, depth, best.exact, stats, tuple(moves))


def generic_values(
    state: Any, *, time_limit: float, node_limit: int, depth: int | None = None
) -> SearchResult[Any]:
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
    values = []
    for index, move in enumerate(moves):
        limits.check()
        child = state.play(move)
        share_time = (deadline - time.perf_counter()) / (len(moves) - index)
        share_nodes = max((node_limit - nodes) // (len(moves) - index), 1)
        if (depth == 1 or share_time <= 0 or nodes >= node_limit) and not child.is_terminal():
            evaluate = getattr(child, "evaluate", None)
            result: SearchResult[Any] = SearchResult(
                None, float(evaluate()) if callable(evaluate) else 0.0, (), 0, False, SearchStats(1)
            )
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


def generic_choose(
    game: str | GameSpec, state: Any, level: str, seed: int, time_limit: float
) -> Choice:
    """The move of :func:`zermelo.agents.make_agent`'s player for ``game`` at ``level``."""
    agent = make_agent(game, level, seed=seed, time_limit=time_limit)
    move = agent.choose(state)
    last = getattr(agent, "last", None)
    return Choice(move, last if isinstance(last, SearchResult) else None)


def search_order(state: Any) -> list[Any]:
    """The moves worth trying first: the game's ``search_moves`` where it has them (the points
    near the stones on a big board), else every legal move."""
    chooser = getattr(state, "search_moves", None)
    moves = list(chooser()) if callable(chooser) else []
    return moves or list(state.legal_moves())


def static_values(state: Any, seconds: float) -> SearchResult[Any]:
    """Each move's value one ply deep (a win on the spot is exact, else the static evaluation
    of the position it leads to), in :func:`search_order`, for as many moves as ``seconds``
    allow (at least the first, valued 0 if need be): the answer when no search had the time."""
    started = time.perf_counter()
    nodes = 0
    values: list[MoveValue[Any]] = []
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
                evaluate = getattr(child, "evaluate", None)
                score = -float(evaluate()) if callable(evaluate) else 0.0
                values.append(MoveValue(move, score, False, (move,)))
    except BudgetError:
        if not values and order:
            # Not even one evaluation in time (its tables were cold): the first move, unvalued.
            values.append(MoveValue(order[0], 0.0, False, (order[0],)))
    return valued(sort_values(values), nodes, time.perf_counter() - started)
