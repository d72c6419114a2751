"""Tic-tac-toe on bitboards.

Squares are numbered as in the tutorial, row by row from the top left::

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8

Square ``i`` is bit ``i`` of a 9-bit mask; a position is the mask of X's stones, the mask of O's
stones and the side to move. X is :attr:`Player.FIRST`. Either side may start (the tutorial draws
who starts), so the side to move is part of the position: it is the side with fewer stones, and
when the counts are equal, the side that started.

Position notation: 9 characters row by row from the top left, ``X``, ``O`` or ``.`` for an empty
square, optionally followed by a space and the side to move: ``"X.O......"`` or ``"XO.......  X"``.
Move notation: the square's number, ``0`` to ``8``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Hashable
from typing import Final, NamedTuple

from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, Ref, winning_line
from zermelo.core.state import Player

__all__ = ["FULL", "LINES", "SEARCH_ORDER", "SYMBOLS", "TicTacToeState"]

FULL: Final = 0x1FF
LINES: Final = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
LINE_MASKS: Final = tuple(sum(1 << s for s in line) for line in LINES)
SYMBOLS: Final = {Player.FIRST: "X", Player.SECOND: "O"}
SEARCH_ORDER: Final = (4, 0, 2, 6, 8, 1, 3, 5, 7)
"""Centre, corners, edges: the squares on most lines first."""

_HAS_LINE: Final = tuple(any(mask & m == m for m in LINE_MASKS) for mask in range(512))
_COMPLETING: Final = tuple(
    functools.reduce(
        operator.or_, (m & ~mask for m in LINE_MASKS if (m & mask).bit_count() == 2), 0
    )
    for mask in range(512)
)
"""For a player's stones, the squares that would complete one of its lines (taken or not)."""


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square, each as a table mapping a 9-bit mask to its image."""

    def rotate(square: int) -> int:
        row, col = divmod(square, 3)
        return col * 3 + (2 - row)

    def mirror(square: int) -> int:
        row, col = divmod(square, 3)
        return row * 3 + (2 - col)

    perms: list[list[int]] = []
    perm = list(range(9))
    for _ in range(4):
        perms.append(perm)
        perms.append([mirror(s) for s in perm])
        perm = [rotate(s) for s in perm]
    tables = []
    for perm in perms:
        table = []
        for mask in range(512):
            image = 0
            for square in range(9):
                if mask >> square & 1:
                    image |= 1 << perm[square]
            table.append(image)
        tables.append(tuple(table))
    return tuple(tables)


_FIRST: Final = Player.FIRST
_SECOND: Final = Player.SECOND
_SYMMETRIES: Final = _symmetries()
# The 8 images of every mask, X's shifted left by 9 bits, so that a canonical key is one C-level
# ``min(map(or_, ...))`` over two precomputed tuples.
_IMAGES_X: Final = tuple(tuple(t[mask] << 9 for t in _SYMMETRIES) for mask in range(512))
_IMAGES_O: Final = tuple(tuple(t[mask] for t in _SYMMETRIES) for mask in range(512))


def _popcount(mask: int) -> int:
    return mask.bit_count()


class TicTacToeState(NamedTuple):
    """An immutable tic-tac-toe position. Build one with :meth:`initial` or :meth:`parse`.

    A named tuple, so that creating, hashing and comparing states happens in C: the search makes
    one state per node.
    """

    x: int
    o: int
    to_move: Player = Player.FIRST

    @classmethod
    def initial(cls, first: Player = Player.FIRST) -> TicTacToeState:
        """The empty board with ``first`` to move."""
        return cls(0, 0, Player(first))

    def __repr__(self) -> str:
        return f"TicTacToeState.parse({self.notation(with_side=True)!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return _popcount(self.x | self.o)

    @property
    def winner(self) -> Player | None:
        if _HAS_LINE[self.x]:
            return Player.FIRST
        if _HAS_LINE[self.o]:
            return Player.SECOND
        return None

    def is_terminal(self) -> bool:
        return _HAS_LINE[self.x] or _HAS_LINE[self.o] or (self.x | self.o) == FULL

    def termination(self) -> str | None:
        """Why the game is over: ``"three in a row"`` or ``"board full"``; ``None`` while it runs."""
        if _HAS_LINE[self.x] or _HAS_LINE[self.o]:
            return N_("three in a row")
        if (self.x | self.o) == FULL:
            return N_("board full")
        return None

    def legal_moves(self) -> list[int]:
        """Empty squares, centre first, then corners, then edges (the search order)."""
        if _HAS_LINE[self.x] or _HAS_LINE[self.o]:
            return []
        taken = self.x | self.o
        return [s for s in SEARCH_ORDER if not taken >> s & 1]

    def play(self, move: int) -> TicTacToeState:
        if not isinstance(move, int) or not 0 <= move <= 8:
            raise IllegalMoveError(
                N_("square {move!r} is off the board; expected 0 to 8"), move=move
            )
        bit = 1 << move
        if (self.x | self.o) & bit:
            raise IllegalMoveError(N_("square {move} is already taken"), move=move)
        if _HAS_LINE[self.x] or _HAS_LINE[self.o]:
            raise IllegalMoveError(
                N_("the game is over; no move is possible ({position})"),
                position=self.notation(),
            )
        if self.to_move is Player.FIRST:
            return TicTacToeState(self.x | bit, self.o, _SECOND)
        return TicTacToeState(self.x, self.o | bit, _FIRST)

    def winning_move(self) -> int | None:
        """The lowest square that wins on the spot for the side to move, or ``None``."""
        mine, theirs = (self.x, self.o) if self.to_move is _FIRST else (self.o, self.x)
        if _HAS_LINE[mine] or _HAS_LINE[theirs]:
            return None
        wins = _COMPLETING[mine] & ~(mine | theirs)
        if not wins:
            return None
        return (wins & -wins).bit_length() - 1

    def non_losing_moves(self) -> list[int]:
        """Moves after which the opponent cannot win on the spot, in search order.

        When the opponent threatens a square, only that square is left; with two threats, none.
        """
        x, o, to_move = self
        theirs = o if to_move is _FIRST else x
        taken = x | o
        threats = _COMPLETING[theirs] & ~taken
        if not threats:
            return [s for s in SEARCH_ORDER if not taken >> s & 1]
        if threats & (threats - 1):
            return []
        return [threats.bit_length() - 1]

    def key(self) -> Hashable:
        """Canonical under the board's 8 symmetries, so mirror positions share table entries."""
        x, o, to_move = self
        canonical: int = min(map(operator.or_, _IMAGES_X[x], _IMAGES_O[o]))
        return canonical << 1 | to_move

    def evaluate(self) -> float:
        """Heuristic from the side to move: f(s) = 10·x1 + 1·x2, where x1 is the number of lines
        holding two own stones and no opponent's minus the same for the opponent, and x2 the same
        count for lines with one stone."""
        mine, theirs = (self.x, self.o) if self.to_move is Player.FIRST else (self.o, self.x)
        score = 0
        for line in LINE_MASKS:
            a = _popcount(mine & line)
            b = _popcount(theirs & line)
            if b == 0:
                score += (0, 1, 10, 0)[a]
            elif a == 0:
                score -= (0, 1, 10, 0)[b]
        return float(score)

    # -- notation ---------------------------------------------------------------------------

    def cell(self, square: int) -> str:
        """``"X"``, ``"O"`` or ``" "`` for the square, as in the tutorial's board list."""
        if self.x >> square & 1:
            return "X"
        if self.o >> square & 1:
            return "O"
        return " "

    def board(self) -> list[str]:
        """The tutorial's board: a list of 9 strings, each ``" "``, ``"X"`` or ``"O"``."""
        return [self.cell(s) for s in range(9)]

    def notation(self, *, with_side: bool = False) -> str:
        cells = "".join(self.cell(s) for s in range(9)).replace(" ", ".")
        default = _default_side(self.x, self.o)
        if with_side or self.to_move != default:
            return f"{cells} {SYMBOLS[self.to_move]}"
        return cells

    @staticmethod
    def parse_move(text: str) -> int:
        """A square number 0-8; raises :class:`ParseError` quoting anything else."""
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()) or not 0 <= int(stripped) <= 8:
            raise ParseError(
                N_("invalid square {text!r}: expected a number from 0 to 8"), text=text
            )
        return int(stripped)

    @staticmethod
    def format_move(move: int) -> str:
        return str(move)

    @classmethod
    def from_board(cls, board: list[str], to_move: Player | None = None) -> TicTacToeState:
        """A state from the tutorial's board list; validated like :meth:`parse`."""
        text = "".join("." if c == " " else c for c in board)
        if to_move is not None:
            text += " " + SYMBOLS[to_move]
        return cls.parse(text)

    @classmethod
    def parse(cls, text: str) -> TicTacToeState:
        """Parse position notation such as ``"X.O......"`` or ``"XO.X.O... X"``."""
        parts = text.split()
        if not parts or len(parts) > 2:
            raise ParseError(
                N_(
                    "invalid position {text!r}: expected 9 characters of X, O or '.', "
                    "optionally followed by the side to move"
                ),
                text=text,
            )
        cells = parts[0]
        if len(cells) != 9:
            raise ParseError(
                N_("invalid position {text!r}: expected 9 squares, got {count}"),
                text=text,
                count=len(cells),
            )
        bad = sorted({c for c in cells.upper() if c not in "XO."})
        if bad:
            raise ParseError(
                f"invalid position {text!r}: unexpected {', '.join(map(repr, bad))}; "
                "use X, O and '.' for an empty square"
            )
        x = o = 0
        for square, c in enumerate(cells.upper()):
            if c == "X":
                x |= 1 << square
            elif c == "O":
                o |= 1 << square
        nx, no = _popcount(x), _popcount(o)
        if abs(nx - no) > 1:
            raise InvalidPositionError(
                N_(
                    "impossible position {text!r}: X has {nx} stones and O has {no}; "
                    "the counts can differ by at most one"
                ),
                text=text,
                nx=nx,
                no=no,
            )
        if len(parts) == 2:
            side_text = parts[1].upper()
            if side_text not in ("X", "O"):
                raise ParseError(f"invalid side to move {parts[1]!r} in {text!r}: expected X or O")
            to_move = Player.FIRST if side_text == "X" else Player.SECOND
            if nx != no and to_move != _default_side(x, o):
                raise InvalidPositionError(
                    f"impossible position {text!r}: {SYMBOLS[to_move]} cannot be to move "
                    f"with {nx} X and {no} O stones"
                )
        else:
            to_move = _default_side(x, o)
        x_line, o_line = _HAS_LINE[x], _HAS_LINE[o]
        if x_line and o_line:
            raise InvalidPositionError(
                f"impossible position {text!r}: both X and O have three in a row"
            )
        # The side that completed a line moved last, so it cannot be the side to move; and
        # nothing may have been played after that line was made.
        for has_line, side, own in ((x_line, Player.FIRST, x), (o_line, Player.SECOND, o)):
            if has_line and (to_move == side or not _last_move_can_make_line(own)):
                raise InvalidPositionError(
                    f"impossible position {text!r}: {SYMBOLS[side]} has three in a row "
                    "and play went on after the game was over"
                )
        return cls(x, o, to_move)


def _default_side(x: int, o: int) -> Player:
    """The side with fewer stones; with equal counts, the side that has not just won, else X."""
    nx, no = _popcount(x), _popcount(o)
    if no < nx:
        return Player.SECOND
    if nx < no:
        return Player.FIRST
    return Player.SECOND if _HAS_LINE[x] else Player.FIRST


def _last_move_can_make_line(own: int) -> bool:
    """True if some stone of ``own`` lies on every line of ``own``: removing it undoes the win.

    Only then can the lines have been made by a single last move."""
    return any(own >> square & 1 and not _HAS_LINE[own & ~(1 << square)] for square in range(9))


def _new(first: Player = Player.FIRST) -> TicTacToeState:
    return TicTacToeState.initial(first)


def _grid(state: TicTacToeState) -> Grid:
    """The ``place`` board: three rows of marks, each cell named by its square number."""
    cells = [[state.cell(row * 3 + col).strip() for col in range(3)] for row in range(3)]
    winner = state.winner
    line = () if winner is None else winning_line(cells, SYMBOLS[winner], 3)
    return Grid.of(cells, [[str(row * 3 + col) for col in range(3)] for row in range(3)], line)


SPEC: Final = GameSpec(
    name="tictactoe",
    title=N_("Tic-tac-toe"),
    title_short=N_("Tic Tac Toe"),
    new=_new,
    parse=TicTacToeState.parse,
    aliases=("ttt", "tic-tac-toe"),
    # Easy sees only its own wins (depth 1) and blocks when its evaluation happens to value the
    # block above the noise; medium never misses a win or a block (depth 2) but walks into forks;
    # hard reads the whole game and never loses.
    levels={"easy": "engine:depth=1,noise=6", "medium": "engine:depth=2,noise=2", "hard": "engine"},
    board="place",
    grid=_grid,
    notation="a square number 0-8, left to right from the top row",
    explain_tree=True,
    quick=True,
    start_solver=Ref("zermelo.search.solve:READ_TO_END"),
    # A net trained by self-play alone (zermelo learn), played as the az level.
    learned=Ref("zermelo.agents.az:TICTACTOE"),
    codec=Codec[TicTacToeState](
        lambda state: 9,
        lambda state: ["".join(state.cell(row * 3 + col) for col in range(3)) for row in range(3)],
        ("X", "O"),
        openspiel_native="tic_tac_toe",
        pettingzoo_native="tictactoe_v3",
    ),
)
