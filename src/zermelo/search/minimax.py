"""Plain minimax: the tutorial's algorithm over any :class:`~zermelo.core.State`.

It visits every node of the game tree with no pruning and no memory, exactly as the tutorial
describes V(s): the utility of a terminal state, otherwise the best value over the successors for
the side to move. It is written in negamax form (a value is always from the side to move, so "max"
for one side is "min" for the other) and scores wins by distance, so that its values can be compared
exactly with :func:`zermelo.search.alphabeta`. It is the oracle every faster algorithm is tested
against; it is not fast, on purpose.
"""

from __future__ import annotations

import time
from typing import TypeVar

from zermelo.core.errors import BudgetError
from zermelo.core.result import SearchResult, SearchStats
from zermelo.core.scores import WIN
from zermelo.core.state import Evaluates, SortableMove, State
from zermelo.search.alphabeta import OWN_EVALUATION, Evaluator, refuse_chance

__all__ = ["minimax"]


M = TypeVar("M", bound=SortableMove)


def minimax(
    state: State[M],
    depth: int | None = None,
    *,
    evaluator: Evaluator | None = None,
    node_limit: int | None = None,
) -> SearchResult[M]:
    """Value and best move of ``state`` by exhaustive minimax.

    With ``depth`` (plies), non-terminal states at the cut-off are scored by ``evaluator`` (default:
    the state's own ``evaluate``). Among equally good moves the lowest one is chosen. With
    ``node_limit``, a search that would visit more nodes raises :class:`BudgetError`.
    """
    refuse_chance(state, "minimax")
    if depth is not None and depth < 0:
        raise BudgetError(f"depth must be 0 or more, got {depth}")
    if node_limit is not None and node_limit < 1:
        raise BudgetError(f"node limit must be at least 1, got {node_limit}")
    limit = node_limit if node_limit is not None else -1
    evaluate = evaluator
    if depth is not None and evaluate is None:
        if not issubclass(type(state), Evaluates):
            raise BudgetError(
                f"a depth limit needs an evaluation function, and {type(state).__name__} has none"
            )
        evaluate = OWN_EVALUATION
    stats = SearchStats()
    started = time.perf_counter()
    heuristic_used = False

    def value(node: State[M], ply: int) -> tuple[float, tuple[M, ...]]:
        nonlocal heuristic_used
        stats.nodes += 1
        if stats.nodes == limit + 1:
            raise BudgetError(f"the search needs more than {limit} nodes")
        if node.is_terminal():
            if node.winner is None:
                return 0, ()
            # The side to move in a terminal state has never just won: it lost.
            return (WIN - ply if node.winner == node.to_move else -(WIN - ply)), ()
        if depth is not None and ply >= depth:
            heuristic_used = True
            assert evaluate is not None
            return evaluate(node), ()
        best: float = -2 * WIN
        best_line: tuple[M, ...] = ()
        best_move: M | None = None
        for move in node.legal_moves():
            score, line = value(node.play(move), ply + 1)
            score = -score
            if score > best or (score == best and best_move is not None and move < best_move):
                best, best_move, best_line = score, move, (move, *line)
        return best, best_line

    score, pv = value(state, 0)
    stats.elapsed = time.perf_counter() - started
    return SearchResult(
        move=pv[0] if pv else None,
        value=score,
        pv=pv,
        depth=len(pv) if depth is None else depth,
        exact=not heuristic_used,
        stats=stats,
    )
