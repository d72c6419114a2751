"""1-ply and 2-ply expectiminimax over the dice with the TD net, and the cube decisions.

zermelo counts plies as the moves searched: **1-ply** plays each legal move of the roll and picks
the afterstate the net values best; **2-ply** also averages, for each candidate, over the
opponent's 21 rolls (doubles 1/36, the others 2/36) the value of the opponent's best 1-ply reply.
gnubg counts the plies looked ahead *beyond* the move: its **0-ply** is zermelo's 1-ply and its
**1-ply** is zermelo's 2-ply. As gnubg's move filters do, 2-ply looks only at the best few 1-ply
candidates (:data:`KEEP` of them, and only those within :data:`MARGIN` points of the best).

Values are cubeless equities in points, from the side that moves (a finished game's afterstate
is worth exactly what it wins: 1, 2 or 3). Boards are the rules' ``int8[28]`` boards of
:mod:`zermelo.games.backgammon.kernel`, from the side to move, and the moves are the rules'.

**The cube (money play).** From the cubeless equity ``E`` of the side to roll (the net's value
of the position before the roll), a simple rule of thumb stands in for a cubeful evaluation:

- double when ``DOUBLE_POINT <= E <= TOO_GOOD`` (below, there is no market to lose yet; above,
  the gammons are worth more than the point a drop would cash);
- take when the doubler's ``E <= TAKE_POINT``, else drop. A dead cube's take point is
  ``E = 0.5`` (25% to win, no gammons); owning the cube is worth a little more to the taker,
  hence 0.6.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from zermelo.games.backgammon import kernel as rules
from zermelo.solvers.backgammon import fast
from zermelo.solvers.backgammon.net import Net

__all__ = [
    "DOUBLE_POINT",
    "KEEP",
    "MARGIN",
    "ROLLS",
    "TAKE_POINT",
    "TOO_GOOD",
    "Ranked",
    "position_equity",
    "rank_moves",
    "should_double",
    "should_take",
]

KEEP = 8
"""2-ply searches at most this many of the best 1-ply candidates (gnubg's default filter: 8)."""
MARGIN = 0.16
"""...and only those within this many points of the best 1-ply candidate (gnubg's: 0.16)."""
DOUBLE_POINT = 0.40
TOO_GOOD = 1.0
TAKE_POINT = 0.60

ROLLS = np.array(
    [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64
)
"""The 21 distinct rolls and their weight out of 36."""

Board = NDArray[np.int8]


Buffers = tuple[Board, Board, Board, NDArray[np.int64]]


@dataclass(frozen=True)
class Ranked:
    """The afterstates of one roll with their values: ``values[k]`` the 1-ply value of
    ``boards[k]``; ``deep[k]`` its 2-ply value (``-inf`` where the filter skipped it) or ``None``
    at 1-ply. ``best`` is the index the search picks."""

    boards: Board
    values: NDArray[np.float64]
    deep: NDArray[np.float64] | None
    best: int


_SCRATCH: list[tuple[Buffers, Buffers]] = []


def _scratch() -> tuple[Buffers, Buffers]:
    """The generator's buffers for the roll and for the replies (made once)."""
    if not _SCRATCH:
        _SCRATCH.append((rules.new_buffers(), rules.new_buffers()))
    return _SCRATCH[0]


def rank_moves(
    net: Net,
    board: Board,
    dice: tuple[int, int],
    plies: int = 1,
    keep: int = KEEP,
    margin: float = MARGIN,
) -> Ranked:
    """Every afterstate of ``dice`` from the mover's ``board`` with its value at ``plies`` (1 or
    2), and the one the search picks (ties: the first in the generator's order)."""
    moves, replies = _scratch()
    boards = moves[0]
    values = np.empty(rules.MAX_MOVES)
    d1, d2 = int(dice[0]), int(dice[1])
    if plies <= 1:
        out = np.empty(fast.OUTPUTS)
        n, best = fast.one_ply(board, d1, d2, *net.arrays(), moves, values, out)
        return Ranked(boards[:n].copy(), values[:n].copy(), None, int(best))
    deep = np.empty(rules.MAX_MOVES)
    n = fast.two_ply_values(
        board, d1, d2, *net.arrays(), keep, margin, ROLLS, moves, replies, values, deep
    )
    return Ranked(boards[:n].copy(), values[:n].copy(), deep[:n].copy(), int(np.argmax(deep[:n])))


def position_equity(net: Net, board: Board) -> float:
    """The net's cubeless equity of ``board`` for its side to move, before the roll."""
    hidden = np.empty(net.hidden)
    out = np.empty(fast.OUTPUTS)
    fast.forward(board, *net.arrays(), hidden, out)
    return float(fast.equity_of(out))


def should_double(equity: float) -> bool:
    """The money-play rule of thumb: double between the doubling point and "too good"."""
    return DOUBLE_POINT <= equity <= TOO_GOOD


def should_take(doubler_equity: float) -> bool:
    """Take when the doubler's cubeless equity is at most the take point."""
    return doubler_equity <= TAKE_POINT
