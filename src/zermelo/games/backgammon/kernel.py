"""The backgammon move generator: full moves of a roll as arrays of afterstates.

One source, compiled by numba (``nopython``, no GIL, cached) when it is installed and run as plain
Python over the same numpy arrays otherwise (``ZERMELO_NO_NUMBA=1``, or
``kernel_variant(kernel, False, ...)``). Nothing here is recursive: the search of a roll's moves
keeps an explicit stack.

**The board** is a numpy ``int8[28]`` seen from the side to move (the *mover*)::

    b[0]       the mover's checkers borne off (0..15)
    b[1..24]   the points in the mover's numbering: > 0 the mover's checkers, < 0 the opponent's
    b[25]      the mover's checkers on the bar (0..15)
    b[26]      the opponent's checkers on the bar (0..15, stored positive)
    b[27]      the opponent's checkers borne off (0..15)

The mover moves from 24 towards 1 and bears off below 1; entering from the bar lands on
``25 - die``. So a step's source is a point or 25 (the bar) and its destination a point or 0
(off), the numbers of gnubg's notation (``bar/22`` is 25 to 22, ``6/off`` is 6 to 0).
:func:`swap` turns a board to the opponent's view (point ``p`` becomes ``25 - p``, signs flip,
bars and trays change places).

**A move** is one step per die used, as pairs ``(from, to)`` in the mover's numbering.
:func:`gen_moves` writes, for the roll ``d1, d2``:

* ``boards[i, :]`` the i-th afterstate, still from the mover's view (swap it for the opponent's);
* ``steps[i, :]`` its steps ``from0, to0, from1, to1, ...`` (four pairs; ``-1, -1`` pads the
  pairs of dice not used), in an order in which they can be played;

and returns the number of moves ``n`` (at least 1: a roll that cannot be played gives one move,
the pass, with no steps and the board unchanged).

The rules: both dice in either order; four steps on a double; checkers on the bar enter first;
bearing off once every checker is home, with the exact die or a larger one from the highest
occupied point; as many dice as can be used must be used, and when only one of two dice can be
used, the larger one if it can. Moves are told apart by the position they reach: two ways of
playing a roll that leave the same board are one move (OpenSpiel drops those "duplicate" actions
by their text, gnubg by the position; the position is the fact both agree on).

**Room.** :data:`MAX_MOVES` bounds the moves of any roll in any position: a double's four steps,
taken (as the generator takes them) from non-increasing sources among the 25 there are, form at
most C(28, 4) = 20475 multisets; two different dice give at most 2 * 25 * 25. So no move is ever
dropped.

Use (numba or not, the same calls)::

    from zermelo.games.backgammon import kernel as K
    buf = K.new_buffers()                    # once: (boards, steps, work, table)
    board = K.start_board()
    n = K.gen_moves(board, 5, 2, *buf)       # buf[0][:n] the afterstates, buf[1][:n] the steps
    after = buf[0][0].copy()
    K.swap(after, board)                     # the next mover's view, written into ``board``
    K.pips(board)                            # (mover's pip count, opponent's)
    K.result(board)                          # 0 while running; else +-1/2/3 for the mover

:func:`legal` is the convenience wrapper (copies of the arrays, buffers of its own).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from zermelo.core.jit import NUMBA_AVAILABLE, kernel_variant, make_jit, numba_disabled

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Board = NDArray[np.int8]
    Table = NDArray[np.int64]

__all__ = [
    "BAR",
    "BOARD_SIZE",
    "CHECKERS",
    "COMPILED",
    "MAX_MOVES",
    "OFF",
    "OPP_BAR",
    "OPP_OFF",
    "TABLE_SIZE",
    "active",
    "gen_moves",
    "legal",
    "new_buffers",
    "pips",
    "result",
    "start_board",
    "swap",
    "swapped",
]

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy of the kernel is compiled (the plain copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)

BOARD_SIZE = 28
OFF = 0
BAR = 25
OPP_BAR = 26
OPP_OFF = 27
CHECKERS = 15

MAX_MOVES = 20475
"""The most moves a roll can have in any position (see Room above)."""

TABLE_SIZE = 1 << 15
"""Slots of the hash table that tells afterstates apart (a power of two above MAX_MOVES)."""

SMALL_TABLE = 1 << 12
"""The slots used for two different dice (above twice their 1250 moves at most)."""

_STACK = 5
"""Rows of ``work`` holding boards: the position and one per die played."""
_PATH = _STACK
"""The row of ``work`` with the steps so far: from0, to0, from1, to1, ..."""
_NEXT = _STACK + 1
"""The row of ``work`` with each level's next source to try."""
_HIGH = _STACK + 2
"""The row of ``work`` with each level's rearmost checker."""
_MOVED = _STACK + 3
"""The row of ``work`` saying whether a level found a step."""
_LEVEL_HASH = 1 + 3 * TABLE_SIZE
"""Where ``table`` keeps each level's board hash, after the stamp and the slots' stamps, moves
and hashes."""


@jit()
def swap(board: Board, out: Board) -> None:
    """Write ``board`` as the opponent sees it into ``out`` (another array)."""
    out[0] = board[27]
    out[27] = board[0]
    out[25] = board[26]
    out[26] = board[25]
    for p in range(1, 25):
        out[p] = -board[25 - p]


@jit()
def swapped(board: Board) -> Board:
    """``board`` as the opponent sees it, in a new array."""
    out = np.empty(BOARD_SIZE, np.int8)
    swap(board, out)
    return out


@jit()
def start_board() -> Board:
    """The starting position (either side's view: it is symmetric)."""
    b = np.zeros(BOARD_SIZE, np.int8)
    b[24] = 2
    b[13] = 5
    b[8] = 3
    b[6] = 5
    b[1] = -2
    b[12] = -5
    b[17] = -3
    b[19] = -5
    return b


@jit()
def pips(board: Board) -> tuple[int, int]:
    """The pip counts ``(mover, opponent)``: what each side needs to bear everything off."""
    mine = 25 * int(board[25])
    theirs = 25 * int(board[26])
    for p in range(1, 25):
        v = int(board[p])
        if v > 0:
            mine += p * v
        elif v < 0:
            theirs -= (25 - p) * v
    return mine, theirs


@jit()
def _points_won(board: Board) -> int:
    """What the mover wins, having borne every checker off: 1, 2 (gammon: the opponent bore none
    off) or 3 (backgammon: and has one on the bar or in the mover's home board)."""
    if board[27] > 0:
        return 1
    if board[26] > 0:
        return 3
    for p in range(1, 7):
        if board[p] < 0:
            return 3
    return 2


@jit()
def result(board: Board) -> int:
    """0 while the game runs; else what the mover wins (+1/2/3) or loses (-1/2/3) by the board."""
    if board[0] >= CHECKERS:
        return _points_won(board)
    if board[27] >= CHECKERS:
        other = np.empty(BOARD_SIZE, np.int8)
        swap(board, other)
        return -_points_won(other)
    return 0


@jit()
def _highest(w: Board, lv: int) -> int:
    """The mover's rearmost checker on row ``lv`` of ``w``: 25 with one on the bar, else its
    highest point (0: none)."""
    if w[lv, 25] > 0:
        return 25
    for p in range(24, 0, -1):
        if w[lv, p] > 0:
            return p
    return 0


@jit()
def _target(w: Board, lv: int, s: int, d: int, hi: int) -> int:
    """Where a checker from ``s`` moves with die ``d`` (0: off) on the board in row ``lv`` of
    ``w``, or -1 when it may not; ``hi`` is :func:`_highest` of that board. (The kernel indexes
    rows of one array rather than passing row views: a view costs reference counting.)"""
    if s == 25:
        if w[lv, 25] <= 0:
            return -1
        dest = 25 - d
        return dest if w[lv, dest] >= -1 else -1
    if w[lv, 25] > 0 or w[lv, s] <= 0:
        return -1
    dest = s - d
    if dest >= 1:
        return dest if w[lv, dest] >= -1 else -1
    if hi > 6:
        return -1
    if dest == 0 or s == hi:
        return 0
    return -1


@jit()
def _apply(w: Board, lv: int, s: int, dest: int) -> None:
    """Move a checker of the mover from ``s`` to ``dest`` (0: off) on row ``lv`` of ``w``,
    hitting a blot there."""
    w[lv, s] -= 1
    if dest == 0:
        w[lv, 0] += 1
    elif w[lv, dest] == -1:
        w[lv, dest] = 1
        w[lv, 26] += 1
    else:
        w[lv, dest] += 1


def _weights() -> np.ndarray:
    """28 fixed pseudo-random 64-bit words (splitmix64 from a constant seed)."""
    words = []
    x = 0x9E3779B97F4A7C15
    for _ in range(BOARD_SIZE):
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        words.append(z - (1 << 64) if z >= 1 << 63 else z)
    return np.array(words, np.int64)


WEIGHTS = _weights() if COMPILED else [int(word) for word in _weights()]
"""The position hash is linear, ``sum(b[i] * WEIGHTS[i])`` (wrapping in 64 bits compiled; Python
ints, unbounded, in the plain copy), so a step changes it by a few words instead of a pass over
the board."""


if COMPILED:

    @jit()
    def _wrap(h: int) -> int:
        return h

else:

    def _wrap(h: int) -> int:
        """``h`` as a signed 64-bit word, as compiled arithmetic wraps it."""
        return ((h + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


@jit()
def _hash(w: Board, lv: int) -> int:
    h = 0
    for i in range(BOARD_SIZE):
        h += int(w[lv, i]) * WEIGHTS[i]
    return h


@jit()
def _step_hash(w: Board, lv: int, s: int, dest: int) -> int:
    """How a step from ``s`` to ``dest`` (before :func:`_apply` makes it) changes the hash."""
    d = -WEIGHTS[s]
    if dest == 0:
        return int(d + WEIGHTS[0])
    if w[lv, dest] == -1:
        return int(d + 2 * WEIGHTS[dest] + WEIGHTS[26])
    return int(d + WEIGHTS[dest])


@jit()
def _record(
    w: Board,
    lv: int,
    key: int,
    best: int,
    n: int,
    boards: Board,
    steps: Board,
    table: Table,
    mask: int,
) -> tuple[int, int]:
    """Add the afterstate in row ``lv`` of ``w`` (reached with ``lv`` dice, ranked ``key``)
    unless a better rank is already kept or the board is already there; a better rank drops
    what was kept. Returns ``(n, best)``."""
    if key < best:
        return n, best
    if key > best:
        best = key
        n = 0
        table[0] += 1  # a new stamp: every slot is free again
    stamp = table[0]
    h = table[_LEVEL_HASH + lv]
    slot = (h ^ (h >> 29)) & mask
    while table[1 + slot] == stamp:
        if table[1 + 2 * TABLE_SIZE + slot] == h:
            j = table[1 + TABLE_SIZE + slot]
            same = True
            for i in range(BOARD_SIZE):
                if boards[j, i] != w[lv, i]:
                    same = False
                    break
            if same:
                return n, best
        slot = (slot + 1) & mask
    table[1 + slot] = stamp
    table[1 + TABLE_SIZE + slot] = n
    table[1 + 2 * TABLE_SIZE + slot] = h
    for i in range(BOARD_SIZE):
        boards[n, i] = w[lv, i]
    for k in range(4):
        if k < lv:
            steps[n, 2 * k] = w[_PATH, 2 * k]
            steps[n, 2 * k + 1] = w[_PATH, 2 * k + 1]
        else:
            steps[n, 2 * k] = -1
            steps[n, 2 * k + 1] = -1
    return n + 1, best


@jit()
def gen_moves(
    board: Board, d1: int, d2: int, boards: Board, steps: Board, work: Board, table: Table
) -> int:
    """Every move of the roll ``d1, d2`` (1..6 each) from ``board`` (the mover's view): the
    afterstates in ``boards[:n]``, their steps in ``steps[:n]`` (see the module's docstring);
    ``work`` and ``table`` are scratch from :func:`new_buffers`. Returns ``n`` (1 for a pass)."""
    if table[0] > (1 << 60):
        table[:] = 0
    table[0] += 1
    doubles = d1 == d2
    hi_die = max(d1, d2)
    lo_die = min(d1, d2)
    ndice = 4 if doubles else 2
    # two different dice make at most 2 * 25 * 25 moves: a small table stays in the cache
    mask = TABLE_SIZE - 1 if doubles else SMALL_TABLE - 1
    orders = 1 if doubles else 2
    n = 0
    best = -1
    for order in range(orders):
        first = hi_die if order == 0 else lo_die
        second = lo_die if order == 0 else hi_die
        for i in range(BOARD_SIZE):
            work[0, i] = board[i]
        level = 0
        work[_NEXT, 0] = 25
        work[_HIGH, 0] = _highest(work, 0)
        work[_MOVED, 0] = 0
        table[_LEVEL_HASH] = _wrap(_hash(work, 0))
        while True:
            if level == ndice:
                n, best = _record(work, level, 8 * level, best, n, boards, steps, table, mask)
                level -= 1
                continue
            d = first if level == 0 or doubles else second
            s = int(work[_NEXT, level])
            hi = int(work[_HIGH, level])
            dest = -1
            while s >= 1:
                dest = _target(work, level, s, d, hi)
                if dest >= 0:
                    break
                s -= 1
            if dest >= 0:
                work[_NEXT, level] = s - 1
                work[_MOVED, level] = 1
                up = level + 1
                for i in range(BOARD_SIZE):
                    work[up, i] = work[level, i]
                table[_LEVEL_HASH + up] = _wrap(
                    int(table[_LEVEL_HASH + level]) + _step_hash(work, level, s, dest)
                )
                _apply(work, up, s, dest)
                work[_PATH, 2 * level] = s
                work[_PATH, 2 * level + 1] = dest
                level = up
                # a double's steps are taken from non-increasing sources: every position a
                # double reaches is reached so (the steps commute), and far fewer ways
                work[_NEXT, level] = s if doubles else 25
                work[_HIGH, level] = _highest(work, level)
                work[_MOVED, level] = 0
                continue
            if work[_MOVED, level] == 0:
                key = 8 * level
                if level == 1 and not doubles:
                    key += first  # one die played: the larger one ranks higher
                n, best = _record(work, level, key, best, n, boards, steps, table, mask)
            if level == 0:
                break
            level -= 1
    return n


@jit()
def new_buffers() -> tuple[Board, Board, Board, Table]:
    """Scratch for :func:`gen_moves`: ``(boards, steps, work, table)``, allocated once and reused
    for every call (about 1.5 MB). Compiled too, so that compiled callers (the engine's
    self-play) allocate their own."""
    boards = np.zeros((MAX_MOVES, BOARD_SIZE), np.int8)
    steps = np.zeros((MAX_MOVES, 8), np.int8)
    work = np.zeros((_STACK + 4, BOARD_SIZE), np.int8)
    table = np.zeros(_LEVEL_HASH + _STACK, np.int64)
    return boards, steps, work, table


_BUFFERS: list[tuple[Board, Board, Board, Table]] = []


def legal(board: Board, d1: int, d2: int) -> tuple[Board, Board]:
    """The moves of the roll ``d1, d2``: copies ``(afterstates, steps)`` of :func:`gen_moves`'
    output, on buffers this module keeps (not thread-safe; a thread of its own should call
    :func:`gen_moves` with :func:`new_buffers`)."""
    if not _BUFFERS:
        _BUFFERS.append(new_buffers())
    boards, steps, work, table = _BUFFERS[0]
    n = gen_moves(board, d1, d2, boards, steps, work, table)
    return boards[:n].copy(), steps[:n].copy()


def active() -> ModuleType:
    """The kernel the rules run on: this module (compiled when numba is usable), or its plain copy
    while the compiled code is being built elsewhere."""
    return kernel_variant(sys.modules[__name__], None, "backgammon kernel")
