"""Quiescence as an evaluator: look past forced sequences before judging a position.

A depth-limited search scores the positions at its horizon with a static evaluation. Where the
horizon falls in the middle of an exchange (in checkers: a capture is pending and must be taken) the
static score is wrong by a piece or more, and the search walks into shots it cannot see: the horizon
effect. :func:`quiescent` wraps an evaluation so that, at a position that is not quiet, it first
plays the forced moves out with a small alpha-beta search of its own, and applies the static
evaluation only to the quiet positions at the end of those lines.

It stays outside :func:`zermelo.search.alphabeta` (which takes it as its ``evaluator``), so the
search itself knows nothing of captures. A game opts in with ``state.is_quiet()``. The contract:
when ``is_quiet()`` is false, every legal move is part of the forcing sequence and the side to move
may not decline it (no "stand pat" as in chess quiescence, where captures are optional). Checkers,
where capturing is mandatory, fits exactly.

Values stay heuristic (strictly inside ``±EVAL_LIMIT``) even when a forced line ends the game: a
loss found here scores ``-(EVAL_LIMIT - 1 - p)`` after ``p`` forced plies, far below any material
count but never mistaken for a proven result by the search that called it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

from zermelo.core.scores import EVAL_LIMIT
from zermelo.core.state import AnyState, HasQuiet
from zermelo.search.alphabeta import OWN_EVALUATION, Evaluator

__all__ = ["quiescent"]

_INF = float("inf")


@functools.cache
def _quiet_rule(kind: type[AnyState]) -> Callable[[AnyState], bool] | None:
    """``is_quiet`` of class ``kind`` (:class:`HasQuiet`), or ``None``: looked up once per class,
    as the search asks at every node (a protocol check costs microseconds)."""
    if issubclass(kind, HasQuiet):
        return cast(Callable[[AnyState], bool], kind.is_quiet)
    return None


def quiescent(evaluate: Evaluator | None = None, *, max_plies: int = 24) -> Evaluator:
    """An evaluator that resolves forced sequences (``not state.is_quiet()``) before ``evaluate``
    (default: ``state.evaluate()``) judges. ``max_plies`` bounds a forced line; past it the static
    value is used as it stands. States without ``is_quiet`` (:class:`HasQuiet`) are always quiet."""
    static = evaluate if evaluate is not None else OWN_EVALUATION

    def search(state: AnyState, plies: int, alpha: float, beta: float) -> float:
        if state.is_terminal():
            winner = state.winner
            if winner is None:
                return 0.0
            decided = EVAL_LIMIT - 1 - plies
            return decided if winner == state.to_move else -decided
        is_quiet = _quiet_rule(type(state))
        if plies >= max_plies or is_quiet is None or is_quiet(state):
            return static(state)
        best = -_INF
        for move in state.legal_moves():
            score = -search(state.play(move), plies + 1, -beta, -max(alpha, best))
            if score > best:
                best = score
                if best >= beta:
                    break
        return best

    def evaluator(state: AnyState) -> float:
        return search(state, 0, -_INF, _INF)

    return evaluator
