"""The rules of the draughts games as data: the board's geometry and the table the kernel reads.

One :class:`Rules` object per game (:data:`INTERNATIONAL`, :data:`DAMA`). The move generator
(:mod:`zermelo.games.draughts.kernel`) knows no game: everything it needs is in ``Rules.table``,
a flat tuple of ints laid out by the ``T_*`` constants below.

Geometry is generic: a board of ``size`` x ``size`` cells, some of them playable squares
numbered 0..squares-1 (the bit of a square in every mask). Each direction of movement is a list of
at most ``PAIRS`` (shift, from-mask, to-mask) triples: a square ``s`` in from-mask has its neighbour
in that direction at ``s + shift`` (a left shift of its bit when ``shift > 0``, a right shift
otherwise), and to-mask is the image of from-mask. International draughts' numbering needs two
triples per diagonal direction (the shift depends on the row's parity); dama's orthogonal board
needs one. A variant with other geometry fills the same table.

Table layout (``T_*`` are offsets; masks are stored as signed 64-bit words so that the table
converts to an int64 array, and Python's ``&`` with a negative int keeps the same bits)::

    T_SQUARES          number of playable squares
    T_BOARD            mask of every playable square
    T_FLAGS            F_IMMEDIATE (a taken piece leaves at once) | F_NO_REVERSE (no 180-degree
                       turn between two captures) | F_COUNT_PATHS (perft counts a
                       capture once per path, not once per (from, to, captured): dama's
                       published table)
    T_PROMOTION + s    the row where side s's men are crowned (s = 0 White, 1 Black)
    T_MAN_STEPS + s    bit d set: side s's men step in direction d
    T_MAN_CAPTURES + s bit d set: side s's men capture in direction d
    T_KING_DIRS        bit d set: kings move and capture in direction d
    T_KING_FLIES       1: kings move and capture at any distance; 0: one square like men
    T_NDIRS            number of directions (at most MAX_DIRS)
    T_OPPOSITE + d     the direction opposite d
    T_DIR + 3*(PAIRS*d + p) + (0 shift, 1 from-mask, 2 to-mask)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "DAMA",
    "INTERNATIONAL",
    "MAX_DIRS",
    "PAIRS",
    "KMove",
    "Rules",
]

MAX_DIRS = 8
PAIRS = 2

F_IMMEDIATE = 1
F_NO_REVERSE = 2
F_COUNT_PATHS = 4

T_SQUARES = 0
T_BOARD = 1
T_FLAGS = 2
T_PROMOTION = 3
T_MAN_STEPS = 5
T_MAN_CAPTURES = 7
T_KING_DIRS = 9
T_KING_FLIES = 10
T_NDIRS = 11
T_OPPOSITE = 12
T_DIR = T_OPPOSITE + MAX_DIRS
TABLE_SIZE = T_DIR + 3 * PAIRS * MAX_DIRS


class KMove(NamedTuple):
    """A move as the kernel's Python front gives it: ``path`` is the 0-based squares visited
    (the origin, then every landing square; a step is ``(from, to)``) and ``captured`` the mask of
    the pieces taken (0 for a step). Defined here, not in the kernel, so that the compiled kernel
    and its plain copy hand out the same class."""

    path: tuple[int, ...]
    captured: int


def _signed(value: int) -> int:
    """A mask below 2**64 as a signed 64-bit word (bit 63 is the sign)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


@dataclass(frozen=True)
class Rules:
    """One game's board and rules (see the module's docstring for ``table``)."""

    name: str
    squares: int
    size: int
    cells: tuple[tuple[int, int], ...]
    """(row from the top as White sees it, column from the left) of each square."""
    directions: tuple[tuple[int, int], ...]
    """(row step, column step) of each direction, in the kernel's order."""
    table: tuple[int, ...]
    promotion: tuple[int, int]
    """Masks of the rows where White's and Black's men are crowned."""
    flying: bool
    immediate: bool
    """Whether a taken piece leaves the board at once (dama) or when the capture ends."""

    def square_name(self, sq: int) -> str:
        """The printed name of the 0-based square ``sq``: "1".."50" or "a1".."h8"."""
        if not 0 <= sq < self.squares:
            raise ValueError(f"square {sq} is off the board (0..{self.squares - 1})")
        if self.name == "international":
            return str(sq + 1)
        return "abcdefgh"[sq % 8] + str(sq // 8 + 1)

    def square_of(self, name: str) -> int | None:
        """The 0-based square named ``name``, or None when no square has that name."""
        text = name.strip().lower()
        if self.name == "international":
            if not text.isdigit() or len(text) > 2:
                return None
            n = int(text)
            return n - 1 if 1 <= n <= self.squares else None
        if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
            return None
        return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])

    def coords(self, sq: int) -> tuple[int, int]:
        """(row from the top as White sees it, column from the left) of square ``sq``."""
        return self.cells[sq]

    def at(self, row: int, col: int) -> int | None:
        """The square at (``row``, ``col``), or None off the playable squares."""
        return _at(self.name, self.size, row, col)

    def rank_of(self, sq: int, side: int) -> int:
        """Rows that square ``sq`` is advanced from ``side``'s own back row (0..size-1)."""
        row = self.cells[sq][0]
        return self.size - 1 - row if side == 0 else row

    def mask(self, squares: Iterable[int]) -> int:
        """The mask of an iterable of 0-based squares."""
        result = 0
        for sq in squares:
            result |= 1 << sq
        return result

    @property
    def board(self) -> int:
        """The mask of every playable square."""
        return (1 << self.squares) - 1


def _at(name: str, size: int, row: int, col: int) -> int | None:
    if not (0 <= row < size and 0 <= col < size):
        return None
    if name == "international":
        if (row + col) % 2 == 0:
            return None
        return 5 * row + col // 2
    return (size - 1 - row) * size + col


def _coords(name: str, size: int, sq: int) -> tuple[int, int]:
    if name == "international":
        row = sq // 5
        return row, 2 * (sq % 5) + (1 if row % 2 == 0 else 0)
    return size - 1 - sq // size, sq % size


def _build(
    name: str,
    squares: int,
    size: int,
    directions: tuple[tuple[int, int], ...],
    man_steps: tuple[tuple[int, ...], tuple[int, ...]],
    man_captures: tuple[tuple[int, ...], tuple[int, ...]],
    flags: int,
    flying: bool,
) -> Rules:
    cells = tuple(_coords(name, size, sq) for sq in range(squares))
    for sq, (row, col) in enumerate(cells):
        assert _at(name, size, row, col) == sq
    table = [0] * TABLE_SIZE
    table[T_SQUARES] = squares
    board = (1 << squares) - 1
    table[T_BOARD] = _signed(board)
    table[T_FLAGS] = flags
    promotion = (
        sum(1 << sq for sq, (row, _) in enumerate(cells) if row == 0),
        sum(1 << sq for sq, (row, _) in enumerate(cells) if row == size - 1),
    )
    table[T_PROMOTION] = _signed(promotion[0])
    table[T_PROMOTION + 1] = _signed(promotion[1])
    for side in (0, 1):
        table[T_MAN_STEPS + side] = sum(1 << d for d in man_steps[side])
        table[T_MAN_CAPTURES + side] = sum(1 << d for d in man_captures[side])
    table[T_KING_DIRS] = (1 << len(directions)) - 1
    table[T_KING_FLIES] = 1 if flying else 0
    table[T_NDIRS] = len(directions)
    for d, (dr, dc) in enumerate(directions):
        table[T_OPPOSITE + d] = directions.index((-dr, -dc))
        shifts: dict[int, int] = {}
        for sq, (row, col) in enumerate(cells):
            target = _at(name, size, row + dr, col + dc)
            if target is not None:
                shifts[target - sq] = shifts.get(target - sq, 0) | 1 << sq
        assert len(shifts) <= PAIRS
        for p, (shift, source) in enumerate(sorted(shifts.items())):
            image = source << shift if shift >= 0 else source >> -shift
            at = T_DIR + 3 * (PAIRS * d + p)
            table[at] = shift
            table[at + 1] = _signed(source)
            table[at + 2] = _signed(image)
    return Rules(
        name=name,
        squares=squares,
        size=size,
        cells=cells,
        directions=directions,
        table=tuple(table),
        promotion=promotion,
        flying=flying,
        immediate=bool(flags & F_IMMEDIATE),
    )


# International: the four diagonals (north-west, north-east, south-west, south-east; north is
# Black's side, where White's men are crowned).
INTERNATIONAL = _build(
    "international",
    50,
    10,
    ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    man_steps=((0, 1), (2, 3)),
    man_captures=((0, 1, 2, 3), (0, 1, 2, 3)),
    flags=0,
    flying=True,
)
"""FMJD international draughts: squares 1..50 are bits 0..49."""

# Dama: north, south, west, east (north is rank 8, where White's men are crowned).
DAMA = _build(
    "dama",
    64,
    8,
    ((-1, 0), (1, 0), (0, -1), (0, 1)),
    man_steps=((0, 2, 3), (1, 2, 3)),
    man_captures=((0, 2, 3), (1, 2, 3)),
    flags=F_IMMEDIATE | F_NO_REVERSE | F_COUNT_PATHS,
    flying=True,
)
"""Turkish dama: a1 = 0, h1 = 7, a8 = 56, h8 = 63."""
