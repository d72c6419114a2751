"""``zermelo analyze pig`` and the page's analysis of Pig: exact, from the solved table.

Pig is solved (:mod:`zermelo.solvers.pig`), so every move's value is the chance ``P`` to win
after it under optimal play, shown as ``2·P - 1`` for the side to move, and ``exact``. At a
chance node (the die rolling) each face is valued the same way, in the order of
``chance_outcomes()``, and the node's value is their mean. The table is solved once (about a
second for goal 100) and kept on disk; a time limit that runs out during that first solve is
refused in one line. A goal too big to solve here is valued by expectiminimax instead (an
estimate, as before).
"""

from __future__ import annotations

import time

from zermelo.core.errors import BudgetError
from zermelo.core.limits import Limits
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.games.pig import PigState
from zermelo.solvers.pig import PigTable, check_size, table_within, win_probability

__all__ = ["ANALYSIS", "ESTIMATE_DEPTH", "PigAnalysis"]

ESTIMATE_DEPTH = 6
"""Edges of expectiminimax for a goal too big to solve (three rolls, as the medium level)."""


def _mover_value(table: PigTable, state: PigState, child: PigState) -> float:
    """``2·P - 1`` of ``child`` for the side to move in ``state``."""
    chance = win_probability(table, child)
    if child.to_move is not state.to_move:
        chance = 1.0 - chance
    return 2.0 * chance - 1.0


class PigAnalysis:
    """The :class:`~zermelo.core.capabilities.EngineAnalysis` of Pig."""

    def analyze(self, state: object, limits: Limits) -> SearchResult[object]:
        if not isinstance(state, PigState):
            raise TypeError("Pig's analysis reads Pig states")
        started = time.perf_counter()
        if state.is_terminal():
            return SearchResult(None, 0.0, (), 0, True)
        try:
            check_size(state.goal, state.die)
        except BudgetError:
            return self._estimate(state, limits)
        deadline = None
        limits = limits.started()
        if limits.deadline is not None:
            deadline = time.monotonic() + (limits.deadline - time.perf_counter())
        table = table_within(state.goal, state.die, deadline)
        values = [
            (move, _mover_value(table, state, state.play(move))) for move in state.legal_moves()
        ]
        stats = SearchStats(nodes=len(values), elapsed=time.perf_counter() - started)
        if state.is_chance():
            moves = tuple(MoveValue(move, value, True, (move,)) for move, value in values)
            mean = 2.0 * win_probability(table, state) - 1.0
            return SearchResult(None, mean, (), 0, True, stats, moves)
        # best first; on a tie hold (as best_move), then roll
        values.sort(key=lambda pair: (-pair[1], pair[0] != "hold"))
        moves = tuple(MoveValue(move, value, True, (move,)) for move, value in values)
        best = moves[0]
        return SearchResult(best.move, best.value, (best.move,), 0, True, stats, moves)

    @staticmethod
    def _estimate(state: PigState, limits: Limits) -> SearchResult[object]:
        from zermelo.search.expectimax import expectiminimax

        depth = ESTIMATE_DEPTH if limits.depth is None else limits.depth
        found = expectiminimax(state, depth, node_limit=limits.nodes)
        return SearchResult(
            found.move, found.value, found.pv, found.depth, False, found.stats, found.moves
        )


ANALYSIS = PigAnalysis()
"""The record's ``engine_analysis``."""
