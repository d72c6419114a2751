"""Connect Four on bitboards.

The board has ``width`` columns of ``height`` cells (7 by 6 by default). Each column takes
``height + 1`` bits of an integer: the cells from the bottom up, then one always-empty sentinel bit
that keeps columns apart, so that shifting a mask by one column never spills into the next. For the
standard board::

    .  .  .  .  .  .  .      <- sentinel row (never set)
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42      <- bottom row

A position is two masks: ``current``, the stones of the side to move, and ``mask``, all stones.
Dropping a stone in column ``c`` is ``mask + bottom(c)`` restricted to the column: the carry runs up
the column's stones to its first empty cell. ``current + mask`` (plus the bottom row) is a unique
49-bit code of the position, the basis of :meth:`Connect4State.key`.

Notation: a position is the moves that lead to it, one digit per move, ``1`` for the leftmost
column (``"4453"``); the empty board is the empty string. A move is one digit. Internally moves are
0-based column numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Final, NamedTuple

from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, IntOption, Ref, winning_line
from zermelo.core.scores import EVAL_LIMIT
from zermelo.core.state import Player

__all__ = [
    "DEFAULT_HEIGHT",
    "DEFAULT_WIDTH",
    "Connect4State",
    "Geometry",
    "alignment",
    "geometry",
    "winning_cells",
]

DEFAULT_WIDTH: Final = 7
DEFAULT_HEIGHT: Final = 6
MAX_BITS: Final = 62
"""Boards must fit ``width * (height + 1)`` bits in a signed 64-bit word (for the numba kernel)."""


class Geometry(NamedTuple):
    """Constant masks of one board size."""

    width: int
    height: int
    bottom: int
    """One bit at the bottom of every column."""
    board: int
    """Every playable cell."""
    column_masks: tuple[int, ...]
    top_cells: tuple[int, ...]
    """The top playable cell of each column."""
    order: tuple[int, ...]
    """Columns from the centre outwards: the search order."""
    windows: tuple[int, ...]
    """Every line of four cells, as masks (for the evaluation)."""


@functools.lru_cache(maxsize=64)
def geometry(width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> Geometry:
    """The masks of a ``width`` by ``height`` board; raises for sizes the bitboard cannot hold."""
    if not (isinstance(width, int) and isinstance(height, int)):
        raise InvalidPositionError(f"board size {width!r}x{height!r}: expected whole numbers")
    if not 1 <= width <= 9 or height < 1 or width * (height + 1) > MAX_BITS:
        raise InvalidPositionError(
            f"board size {width}x{height} is not supported: expected 1 to 9 columns and "
            f"width * (height + 1) <= {MAX_BITS}"
        )
    step = height + 1
    bottom = sum(1 << (c * step) for c in range(width))
    column_masks = tuple(((1 << height) - 1) << (c * step) for c in range(width))
    board = sum(column_masks)
    top_cells = tuple(1 << (height - 1 + c * step) for c in range(width))
    order = tuple(width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width))
    windows = []
    for col in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < width and 0 <= r < height for c, r in cells):
                    windows.append(sum(1 << (c * step + r) for c, r in cells))
    return Geometry(width, height, bottom, board, column_masks, top_cells, order, tuple(windows))


def alignment(stones: int, height: int = DEFAULT_HEIGHT) -> bool:
    """True when ``stones`` hold four in a row (any direction) on a board ``height`` cells high."""
    step = height + 1
    for shift in (1, step, step - 1, step + 1):  # vertical, horizontal, two diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(stones: int, mask: int, geo: Geometry) -> int:
    """Cells (free or not, on the board) that would complete four in a row for ``stones``."""
    step = geo.height + 1
    # vertical: three stones below the cell
    cells = (stones << 1) & (stones << 2) & (stones << 3)
    for shift in (step, step - 1, step + 1):
        pair = (stones << shift) & (stones << 2 * shift)
        cells |= pair & (stones << 3 * shift)  # three on the left
        cells |= pair & (stones >> shift)  # two on the left, one on the right
        pair = (stones >> shift) & (stones >> 2 * shift)
        cells |= pair & (stones << shift)  # one on the left, two on the right
        cells |= pair & (stones >> 3 * shift)  # three on the right
    return cells & geo.board


_EVAL_SCALE: Final = 1000.0
_WINDOW_WEIGHTS: Final = (0.0, 1.0, 4.0, 16.0, 0.0)


_SIDES = (Player.FIRST, Player.SECOND)
"""The side to move by the parity of the moves played."""


class Connect4State(NamedTuple):
    """An immutable Connect Four position. Build one with :meth:`initial` or :meth:`parse`.

    ``current`` holds the stones of the side to move and ``mask`` all stones; ``moves`` is the game
    so far as 0-based column digits (its length is the ply). Two games reaching the same board are
    different states but share :meth:`key`.
    """

    current: int = 0
    mask: int = 0
    moves: str = ""
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT

    @classmethod
    def initial(cls, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> Connect4State:
        """The empty board."""
        geometry(width, height)
        return cls(0, 0, "", width, height)

    def __repr__(self) -> str:
        size = (
            ""
            if (self.width, self.height) == (7, 6)
            else f", width={self.width}, height={self.height}"
        )
        return f"Connect4State.parse({self.notation()!r}{size})"

    @property
    def geometry(self) -> Geometry:
        return geometry(self.width, self.height)

    @property
    def opponent(self) -> int:
        """The stones of the side that just moved."""
        return self.current ^ self.mask

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def to_move(self) -> Player:
        return _SIDES[len(self.moves) & 1]

    @property
    def winner(self) -> Player | None:
        """Only the side that moved last can have four in a row."""
        if self.moves and alignment(self.current ^ self.mask, self.height):
            return Player((len(self.moves) - 1) & 1)
        return None

    def is_full(self) -> bool:
        return self.mask == self.geometry.board

    def is_terminal(self) -> bool:
        return self.is_full() or self.winner is not None

    def termination(self) -> str | None:
        """Why the game is over: ``"four in a row"`` or ``"board full"``; ``None`` while it runs."""
        if self.winner is not None:
            return N_("four in a row")
        if self.is_full():
            return N_("board full")
        return None

    def legal_moves(self) -> list[int]:
        """Columns that are not full, centre first; empty when the game is over."""
        if self.winner is not None:
            return []
        top = self.geometry.top_cells
        mask = self.mask
        return [c for c in self.geometry.order if not mask & top[c]]

    def play(self, move: int) -> Connect4State:
        geo = self.geometry
        if not isinstance(move, int) or not 0 <= move < geo.width:
            raise IllegalMoveError(
                N_("column {move!r} is off the board; expected 0 to {last} (0-based)"),
                move=move,
                last=geo.width - 1,
            )
        if self.mask & geo.top_cells[move]:
            raise IllegalMoveError(
                N_("column {column} is full in position {position!r}"),
                column=move + 1,
                position=self.notation(),
            )
        if self.winner is not None:
            raise IllegalMoveError(
                f"the game is over in position {self.notation()!r}; no move is possible"
            )
        mask = self.mask | (self.mask + (geo.bottom & geo.column_masks[move]))
        return Connect4State(
            self.current ^ self.mask, mask, self.moves + str(move), self.width, self.height
        )

    def winning_move(self) -> int | None:
        """The first column (in search order) that wins on the spot, or ``None``."""
        if self.winner is not None:
            return None
        geo = self.geometry
        wins = winning_cells(self.current, self.mask, geo) & ((self.mask + geo.bottom) & geo.board)
        if not wins:
            return None
        for column in geo.order:
            if wins & geo.column_masks[column]:
                return column
        return None  # pragma: no cover - wins is inside the board

    def code(self) -> int:
        """A unique integer for the position (not the game that led to it)."""
        return self.current + self.mask

    def mirror_code(self) -> int:
        """:meth:`code` of the position mirrored left to right."""
        return mirror_code(self.code(), self.width, self.height)

    def key(self) -> Hashable:
        """Canonical under the left-right mirror, so mirror positions share table entries."""
        code = self.code()
        return min(code, mirror_code(code, self.width, self.height))

    def evaluate(self) -> float:
        """Heuristic from the side to move, strictly inside ``±EVAL_LIMIT``.

        Every line of four that holds stones of one side only counts for that side (1, 4, 16 for
        one, two, three stones); a free cell that would complete four counts 16 more, 32 if it
        can be played at once. Columns near the centre weigh a little more. A proven outcome is
        the search's business, not this function's.
        """
        geo = self.geometry
        mine, theirs = self.current, self.current ^ self.mask
        score = 0.0
        for window in geo.windows:
            a = (mine & window).bit_count()
            b = (theirs & window).bit_count()
            if b == 0:
                score += _WINDOW_WEIGHTS[a]
            elif a == 0:
                score -= _WINDOW_WEIGHTS[b]
        free = geo.board & ~self.mask
        playable = (self.mask + geo.bottom) & geo.board
        my_threats = winning_cells(mine, self.mask, geo) & free
        their_threats = winning_cells(theirs, self.mask, geo) & free
        score += 16 * my_threats.bit_count() + 16 * (my_threats & playable).bit_count()
        score -= 16 * their_threats.bit_count() + 16 * (their_threats & playable).bit_count()
        centre = geo.column_masks[geo.width // 2]
        score += 3 * ((mine & centre).bit_count() - (theirs & centre).bit_count())
        return max(-EVAL_LIMIT + 1, min(EVAL_LIMIT - 1, score / _EVAL_SCALE))

    # -- notation ---------------------------------------------------------------------------

    def notation(self) -> str:
        """The moves so far, one digit per move, ``1`` for the leftmost column."""
        return "".join(str(int(c) + 1) for c in self.moves)

    def cell(self, column: int, row: int) -> Player | None:
        """Whose stone is at ``column``, ``row`` (0-based, row 0 at the bottom), if any."""
        bit = 1 << (column * (self.height + 1) + row)
        if not self.mask & bit:
            return None
        mover = self.to_move
        return mover if self.current & bit else mover.opponent

    def rows(self) -> list[str]:
        """The board as text rows from the top: ``X`` first player, ``O`` second, ``.`` empty."""
        # Read straight off the bitboards (the learned player encodes every position it searches).
        stride = self.height + 1
        first = self.current if not len(self.moves) & 1 else self.current ^ self.mask
        second = self.mask ^ first
        return [
            "".join(
                "X"
                if first >> (c * stride + r) & 1
                else "O"
                if second >> (c * stride + r) & 1
                else "."
                for c in range(self.width)
            )
            for r in reversed(range(self.height))
        ]

    def parse_move(self, text: str) -> int:
        """A column digit, ``1`` for the leftmost; raises :class:`ParseError` quoting ``text``."""
        stripped = text.strip()
        if len(stripped) != 1 or not "1" <= stripped <= str(self.width):
            raise ParseError(
                N_("invalid column {text!r}: expected a digit from 1 to {width}"),
                text=text,
                width=self.width,
            )
        return int(stripped) - 1

    @staticmethod
    def format_move(move: int) -> str:
        return str(move + 1)

    @classmethod
    def parse(
        cls, text: str, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT
    ) -> Connect4State:
        """The position after the moves in ``text`` (digits, ``1`` = leftmost column).

        Spaces around the digits are ignored. Raises :class:`ParseError` for a character that is
        not a column, :class:`IllegalMoveError` for a move into a full column and
        :class:`InvalidPositionError` for a move after the game was won; each message quotes the
        text and names the move by its number (1 = the first move).
        """
        geo = geometry(width, height)
        moves = text.strip()
        current = mask = 0
        played: list[str] = []
        for index, char in enumerate(moves):
            number = index + 1
            if not ("1" <= char <= "9" and int(char) <= width):
                raise ParseError(
                    N_(
                        "invalid position {text!r}: move {number} is {char!r}, expected a column "
                        "digit from 1 to {width}"
                    ),
                    text=text,
                    number=number,
                    char=char,
                    width=width,
                )
            column = int(char) - 1
            if mask & geo.top_cells[column]:
                raise IllegalMoveError(
                    N_(
                        "invalid position {text!r}: move {number} plays column {char}, "
                        "which is already full"
                    ),
                    text=text,
                    number=number,
                    char=char,
                )
            if index and alignment(current ^ mask, height):
                raise InvalidPositionError(
                    f"invalid position {text!r}: move {number} ({char}) comes after the game "
                    f"was won by move {number - 1}"
                )
            current ^= mask
            mask |= mask + (geo.bottom & geo.column_masks[column])
            played.append(str(column))
        return cls(current, mask, "".join(played), width, height)


@functools.lru_cache(maxsize=64)
def _mirror_parts(width: int, height: int) -> tuple[tuple[int, int, int], ...]:
    step = height + 1
    column = (1 << step) - 1
    return tuple((c * step, column, (width - 1 - c) * step) for c in range(width))


def mirror_code(code: int, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> int:
    """The position code (``current + mask``, column by column) with the columns reversed."""
    mirrored = 0
    for source, column, target in _mirror_parts(width, height):
        mirrored |= ((code >> source) & column) << target
    return mirrored


def _new(
    width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT, first: Player = Player.FIRST
) -> Connect4State:
    if first is not Player.FIRST:
        raise InvalidPositionError(
            "in Connect Four the first player (X) always starts: "
            "choose who starts with --first, or your side with --human, not both"
        )
    return Connect4State.initial(width, height)


def _parse(text: str) -> Connect4State:
    return Connect4State.parse(text)


def _grid(state: Connect4State) -> Grid:
    """The ``drop`` board: the discs, rows from the top; every cell of a column names its move."""
    cells = [[mark.strip(".") for mark in row] for row in state.rows()]
    winner = state.winner
    line = () if winner is None else winning_line(cells, "X" if winner is Player.FIRST else "O", 4)
    columns = [state.format_move(col) for col in range(state.width)]
    return Grid.of(cells, [columns] * state.height, line)


SPEC: Final = GameSpec(
    name="connect4",
    title=N_("Connect Four"),
    new=_new,
    parse=_parse,
    parse_on=Connect4State.parse,
    options=(
        IntOption("width", N_("number of columns"), 4, 8, DEFAULT_WIDTH),
        IntOption("height", N_("number of rows"), 4, 6, DEFAULT_HEIGHT),
    ),
    aliases=("c4", "connect-four"),
    first_mover=Player.FIRST,
    default_time=1.0,
    move_time=2.0,
    levels={level: Ref(f"zermelo.agents.connect4:{level}") for level in ("easy", "medium", "hard")},
    # Random playouts of 4 plies, then the evaluation (typically within ±0.1, so 0.03 makes a clear
    # advantage count); beat plain random playouts 7-1 at 0.2 s per move.
    mcts={"cutoff": 4, "scale": 0.03, "c": 0.7},
    board="drop",
    grid=_grid,
    intro=(N_("Get four in a row, across, down or diagonally, to win."),),
    notation="the number of a column, 1 at the left",
    web_engine=Ref("zermelo.solvers.connect4.web:CONNECT4"),
    position_solver=Ref("zermelo.solvers.connect4.capabilities:LINES"),
    exact_analysis=Ref("zermelo.solvers.connect4.capabilities:EXACT"),
    # A net trained by self-play alone (zermelo learn), played as the az level.
    learned=Ref("zermelo.agents.az:CONNECT4"),
    codec=Codec[Connect4State](
        lambda state: state.width,
        lambda state: list(state.rows()),
        ("X", "O"),
        openspiel_native="connect_four",
        pettingzoo_native="connect_four_v3",
    ),
)
