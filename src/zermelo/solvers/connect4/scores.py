"""The solver's score convention and its conversion to the negamax convention of zermelo.core.

Solver scores are those of the benchmark files: from the side to move, 0 for a draw; when the side
to move wins, ``W*H/2 + 1`` minus the number of stones the winner has played when it connects four
(on 7x6: 22 minus that count), and minus the same for the opponent when the side to move loses. In
general a win completed by the stone played onto a board holding ``n`` stones scores
``(W*H + 1 - n) // 2`` for the winner.

The negamax convention of :mod:`zermelo.core.scores` counts plies instead: a win ``d`` plies from
now is ``WIN - d``. Both carry the same information once the ply of the position is known. The
solver returns negamax values (a :class:`~zermelo.search.result.SearchResult`);
:func:`benchmark_score` gives the files' score back, for the command line and the benchmarks.
"""

from __future__ import annotations

from zermelo.core.scores import WIN, describe, is_decided, plies_to_end

__all__ = [
    "benchmark_score",
    "describe_score",
    "from_negamax",
    "plies_to_finish",
    "score_bounds",
    "to_negamax",
]


def score_bounds(ply: int, width: int = 7, height: int = 6) -> tuple[int, int]:
    """The lowest and highest score a position with ``ply`` stones can have."""
    cells = width * height
    return -((cells - ply) // 2), (cells + 1 - ply) // 2


def plies_to_finish(score: int, ply: int, width: int = 7, height: int = 6) -> int | None:
    """Plies until the winning stone is played (1 = the next move), or ``None`` for a draw.

    A loss of the side to move takes an even number of plies (0 when it has already lost), a win
    an odd number.
    """
    if score == 0:
        return None
    cells = width * height
    plies = cells + 2 - ply - 2 * abs(score)
    want_odd = score > 0
    if (plies % 2 == 1) != want_odd:
        plies -= 1
    if plies < 0:
        raise ValueError(f"score {score} is impossible for a position with {ply} stones")
    return plies


def to_negamax(score: int, ply: int, width: int = 7, height: int = 6) -> int:
    """The solver ``score`` of a position with ``ply`` stones as a negamax value (WIN - plies)."""
    plies = plies_to_finish(score, ply, width, height)
    if plies is None:
        return 0
    return WIN - plies if score > 0 else -(WIN - plies)


def from_negamax(value: float, ply: int, width: int = 7, height: int = 6) -> int:
    """The inverse of :func:`to_negamax`: a decided negamax value (or 0) as a solver score."""
    if value == 0:
        return 0
    if not is_decided(value):
        raise ValueError(f"value {value!r} is a heuristic estimate, not a solved score")
    plies = plies_to_end(value)
    cells = width * height
    magnitude = (cells + 2 - ply - plies) // 2
    return magnitude if value > 0 else -magnitude


def benchmark_score(
    value: float, ply: int, width: int = 7, height: int = 6, *, weak: bool = False
) -> int:
    """The benchmark files' score of a solved negamax ``value`` of a position with ``ply``
    stones; ``weak`` gives only its sign (1, 0 or -1: win, draw or loss), as a weak solve does."""
    if weak:
        return (value > 0) - (value < 0)
    return from_negamax(value, ply, width, height)


def describe_score(score: int, ply: int, width: int = 7, height: int = 6) -> str:
    """English words for a solver score: "win in 3" (moves of the winner), "draw", "loss in 2"."""
    if score != 0 and plies_to_finish(score, ply, width, height) == 0:
        return "lost"
    return describe(to_negamax(score, ply, width, height))
