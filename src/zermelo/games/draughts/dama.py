"""Turkish draughts (dama): every square of the 8x8 board, orthogonal moves, flying kings.

The board, as White sees it (White at the bottom, moving up)::

          a  b  c  d  e  f  g  h
      8   .  .  .  .  .  .  .  .      Black's men are crowned here
      7   b  b  b  b  b  b  b  b
      6   b  b  b  b  b  b  b  b      Square index = rank * 8 + file, 0-based:
      5   .  .  .  .  .  .  .  .      a1 = 0, h1 = 7, a8 = 56, h8 = 63; a mask
      4   .  .  .  .  .  .  .  .      has bit ``index`` set for each piece.
      3   w  w  w  w  w  w  w  w
      2   w  w  w  w  w  w  w  w
      1   .  .  .  .  .  .  .  .      White's men are crowned here

The rules (Turkish draughts as played in Turkey; the issue's rules, then the sources below):

* 16 men each, White's on ranks 2-3, Black's on ranks 6-7; White moves first.
* A man steps one square forward or sideways, never back. A king moves any distance along a rank
  or a file over empty squares.
* A man captures forward or sideways by jumping an adjacent enemy piece onto the empty square
  behind it; a king captures along a rank or a file at any distance, over one enemy piece, onto
  any empty square beyond it.
* Capturing is compulsory, and so is the maximum capture: the sequence that takes the most pieces
  (kings and men count the same); among those the player chooses.
* A captured piece is removed at once, so it may open a longer capture; a capture never turns
  180 degrees between two jumps.
* A man that reaches the last row in a capture goes on capturing as a man, and is crowned when the
  move ends there.

The move generator is :mod:`zermelo.games.draughts.kernel`; this module is the game around it.
A legal move is one per (origin, destination, pieces taken): two landing paths that take the same
pieces from the same square to the same square leave the same position, so they are one move here
(either path is read). Perft (:data:`PERFT`) is the kernel's count, which for dama counts a capture
once per landing path, the convention of the published table (8, 64, 708, 7,538, 85,090, 931,312,
10,782,382 from the start).

How a game ends, in this order:

1. The side to move with no piece left (``"no pieces"``) or no legal move (``"no moves"``) loses.
2. **One piece each** (man or king) is a draw as soon as the side to move has no capture (if it
   has one, it must take, and wins). Turkish rule books call this ending a draw because it never
   ends (the damaakademisi.com learning guide, section 19b: "when each player has one piece left,
   even if one of them is a king, the game is drawn"); pydraughts' ``turkish`` variant and the
   kish engine draw it too. English-language summaries that say a king beats a lone man are not
   followed here.
3. **Threefold repetition**: the same position with the same side to move for the third time
   (pydraughts, kish, and the rule of every draughts federation).
4. **The fifty-move rule**: 100 plies (50 moves by each side) in a row with neither a capture nor
   a man stepping forward. A forward step and a capture can never be undone, so the positions
   before one never come back; a man's sideways step can, so it does not reset the count. This is
   chess's fifty-move rule with "pawn move" read as "a man's forward step", the count engines use
   so that every game ends (kish draws after 150 plies without a capture; we count forward steps
   too, so that a game of men shuffling sideways is not drawn while the men still advance).

The counter (``quiet``), the positions seen since the last capture or forward step (``seen``, for
the repetition rule) and the plies played are part of the state but not of the position
notation: a position read from FEN starts them at 0.

Move notation: the squares visited, ``d3-d4`` for a move (a king's too: ``d1-d7``), and for a
capture every landing square joined by ``x``: ``d4xd6xf6``. A capture may be shortened to fewer
landing squares, ``d4xf6``, when only one legal move fits; ``-``, ``x`` and ``:`` are accepted for
each other, upper or lower case. A move is a tuple of 0-based square indices: ``(19, 27)`` is
``d3-d4``. :meth:`DamaState.format_move` writes the shortest form that only one legal move fits.

Position notation: PDN FEN with algebraic squares, the side to move then each colour's pieces,
kings prefixed with ``K``: ``W:Wd4,Kh1:Ba7,b7,Ke8``. Reading accepts spaces, lower case, a final
``.`` and ranges along a rank or a file (``W:Wa2-h2,a3-h3:Ba6-h6,a7-h7``). A board diagram is
read too: the side to move, ``:``, then 8 rows of 8 squares from rank 8 down to rank 1 (``.`` empty,
``w``/``b`` men, ``W``/``B`` kings), separated by ``/`` or new lines (:meth:`DamaState.diagram`).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections.abc import Hashable, Iterator
from typing import ClassVar, Final, NamedTuple

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, Phrase
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.scores import Unit
from zermelo.core.state import Player
from zermelo.games.draughts import kernel
from zermelo.games.draughts.kernel import KMove
from zermelo.games.draughts.rules import DAMA, Rules

__all__ = [
    "BLACK",
    "DRAW_PLIES",
    "INITIAL_FEN",
    "PERFT",
    "SPEC",
    "WHITE",
    "DamaMove",
    "DamaState",
    "square_name",
    "square_of",
]

DamaMove = tuple[int, ...]
"""A move as the 0-based squares it visits: ``(19, 27)`` (d3-d4), ``(27, 43, 45)`` (d4xd6xf6)."""

WHITE: Final = Player.FIRST
BLACK: Final = Player.SECOND
DRAW_PLIES: Final = 100
"""Plies in a row without a capture or a man's forward step after which the game is drawn."""
REPETITIONS: Final = 3
"""The occurrence of one position (same side to move) that draws the game."""
MAX_PIECES: Final = 16

_FILES: Final = "abcdefgh"
_RANK_MASKS: Final = tuple(0xFF << (8 * r) for r in range(8))
_CROWN_ROW: Final = {WHITE: _RANK_MASKS[7], BLACK: _RANK_MASKS[0]}
_BACK_ROW: Final = {WHITE: _RANK_MASKS[0], BLACK: _RANK_MASKS[7]}
_START: Final = {WHITE: _RANK_MASKS[1] | _RANK_MASKS[2], BLACK: _RANK_MASKS[5] | _RANK_MASKS[6]}
_SIDE_NAMES: Final = {WHITE: Phrase(N_("White")), BLACK: Phrase(N_("Black"))}
_TEXT_SHOWN: Final = 80
"""At most this many characters of a bad input are quoted back."""

MEN: Final = Unit(N_("{value} men"), 100.0)
"""Draughts values are hundredths of a man; people read them in men."""


def square_name(square: int) -> str:
    """``"a1"`` for 0 ... ``"h8"`` for 63."""
    return _FILES[square % 8] + str(square // 8 + 1)


def square_of(name: str) -> int | None:
    """The 0-based index of ``"d4"`` (any case, spaces around), or ``None``."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in _FILES or text[1] not in "12345678":
        return None
    return (int(text[1]) - 1) * 8 + _FILES.index(text[0])


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _shown(text: str) -> str:
    return text if len(text) <= _TEXT_SHOWN else text[:_TEXT_SHOWN] + "..."


INITIAL_FEN: Final = (
    "W:W"
    + ",".join(square_name(s) for s in _bits(_START[WHITE]))
    + ":B"
    + ",".join(square_name(s) for s in _bits(_START[BLACK]))
)


# -- the kernel's moves, cached per position --------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def _legal(white: int, black: int, kings: int, side: int) -> tuple[KMove, ...]:
    """The kernel's legal moves (sorted by path): the search asks for a state's moves, then plays
    one of them, which looks it up in the same list."""
    return tuple(kernel.legal(DAMA, white, black, kings, side))


@functools.lru_cache(maxsize=1 << 12)
def _index(white: int, black: int, kings: int, side: int) -> dict[DamaMove, KMove]:
    """Every legal move by its canonical path (the kernel's)."""
    return {tuple(move.path): move for move in _legal(white, black, kings, side)}


@functools.lru_cache(maxsize=1 << 10)
def _all_paths(
    white: int, black: int, kings: int, side: int
) -> tuple[tuple[KMove, tuple[DamaMove, ...]], ...]:
    """Each legal move with every landing path that makes it (a capture that takes the same
    pieces from the same square to the same square by another route is the same move)."""
    found: list[tuple[KMove, tuple[DamaMove, ...]]] = []
    for move in _legal(white, black, kings, side):
        path = tuple(move.path)
        if not move.captured:
            found.append((move, (path,)))
            continue
        paths = kernel.paths(DAMA, white, black, kings, side, path[0], path[-1], move.captured)
        others = tuple(tuple(p) for p in paths if tuple(p) != path)
        found.append((move, (path, *others)))
    return tuple(found)


def _as_path(move: object) -> DamaMove | None:
    """``move`` as a tuple of Python ints when it is 2 to 32 squares 0-63 (numpy's integers
    too), else ``None``: what a move can be."""
    if not isinstance(move, tuple) or not 2 <= len(move) <= 32:
        return None
    try:
        path = tuple(operator.index(s) for s in move)
    except TypeError:
        return None
    if any(isinstance(s, bool) for s in move) or not all(0 <= s < 64 for s in path):
        return None
    return path


def _visits(path: DamaMove, squares: DamaMove) -> bool:
    """True when ``path`` starts and ends where ``squares`` do and passes its other squares in
    order (a shortened capture such as d4xf6 for d4xd6xf6)."""
    if path[0] != squares[0] or path[-1] != squares[-1] or len(path) < len(squares):
        return False
    rest = iter(path[1:-1])
    return all(any(square == seen for seen in rest) for square in squares[1:-1])


# -- the state ------------------------------------------------------------------------------


class _Fields(NamedTuple):
    white: int
    black: int
    kings: int
    to_move: Player = WHITE
    quiet: int = 0
    seen: tuple[tuple[int, int, int], ...] = ()
    plies: int = 0


class DamaState(_Fields):
    """An immutable Turkish draughts position. Build one with :meth:`initial` or :meth:`parse`.

    ``white`` and ``black`` are the masks of each side's pieces, ``kings`` the mask of the kings
    of both (bit = square index, a1 = 0). ``quiet`` counts the plies since the last capture or
    forward step of a man (see :data:`DRAW_PLIES`); ``seen`` holds the positions ``(white, black,
    kings)`` since then, oldest first, for the repetition rule; ``plies`` the moves played. (A
    subclass of the named tuple of these fields, so that it can hold the class attribute
    ``RULES``.)
    """

    __slots__ = ()

    RULES: ClassVar[Rules] = DAMA
    """The board and its squares, for the kernel and the engine."""

    @classmethod
    def initial(cls, first: Player = WHITE) -> DamaState:
        """The starting position, White to move (``first=BLACK`` gives the same men with Black to
        move, for front ends that let the side that starts be chosen)."""
        return cls(_START[WHITE], _START[BLACK], 0, Player(first))

    def __repr__(self) -> str:
        return f"DamaState.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.plies

    def _moves(self) -> tuple[KMove, ...]:
        return _legal(self.white, self.black, self.kings, int(self.to_move))

    def legal_moves(self) -> tuple[DamaMove, ...]:
        """The legal moves (each capture by one path), sorted; empty when the game is over."""
        if self.termination() is not None:
            return ()
        return tuple(tuple(move.path) for move in self._moves())

    def is_terminal(self) -> bool:
        return self.termination() is not None

    def repetitions(self) -> int:
        """How many times this position, with this side to move, has stood on the board since the
        last capture or forward step (1 the first time)."""
        here = (self.white, self.black, self.kings)
        seen = self.seen
        return 1 + sum(1 for i in range(len(seen) - 2, -1, -2) if seen[i] == here)

    def termination(self) -> str | None:
        """Why the game is over: ``"no pieces"`` or ``"no moves"`` (the side to move has lost),
        ``"one piece each"``, ``"threefold repetition"`` or ``"fifty-move rule"`` (drawn); ``None``
        while it runs. See the module's docstring for the rules and their order."""
        moves = self._moves()
        if not moves:
            own = self.white if self.to_move is WHITE else self.black
            return N_("no pieces") if own == 0 else N_("no moves")
        if self.white.bit_count() == 1 == self.black.bit_count() and not moves[0].captured:
            return N_("one piece each")
        if self.repetitions() >= REPETITIONS:
            return N_("threefold repetition")
        if self.quiet >= DRAW_PLIES:
            return N_("fifty-move rule")
        return None

    @property
    def winner(self) -> Player | None:
        """The opponent of a side left without a legal move; ``None`` otherwise (drawn or on)."""
        if self._moves():
            return None
        return self.to_move.opponent

    def value_unit(self) -> Unit:
        """Heuristic values (hundredths of a man) are shown in men."""
        return MEN

    def has_capture(self) -> bool:
        """True when the side to move must capture (the position is not quiet)."""
        moves = self._moves()
        return bool(moves) and moves[0].captured != 0

    def is_quiet(self) -> bool:
        """No capture pending: a static evaluation can be trusted here (see quiescence)."""
        return not self.has_capture()

    def key(self) -> Hashable:
        """The position and what the draw rules read (not the ply count, which does not change
        the game's value)."""
        return (self.white, self.black, self.kings, self.to_move, self.quiet, self.seen)

    def piece(self, square: int) -> str:
        """What stands on the 0-based ``square``: ``"w"``/``"b"`` for men, ``"W"``/``"B"`` for
        kings, ``""`` when it is empty."""
        bit = 1 << square
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return ""

    # -- playing ----------------------------------------------------------------------------

    def kernel_move(self, move: DamaMove) -> KMove:
        """The kernel's move for ``move`` (any of its landing paths); raises
        :class:`IllegalMoveError` when it is not legal here."""
        found = self._find(move)
        if found is None:
            raise self._illegal(move)
        return found

    def from_kernel(self, from_sq: int, to_sq: int, captured: int) -> DamaMove:
        """The legal move that goes from ``from_sq`` to ``to_sq`` (0-based) taking the pieces of
        the mask ``captured``, as this game writes it (the engine's answer, for the faces)."""
        for move in self._moves():
            if move.path[0] == from_sq and move.path[-1] == to_sq and move.captured == captured:
                return tuple(move.path)
        raise IllegalMoveError(
            N_("the engine's move {move} is not legal in {position}"),
            move=f"{square_name(from_sq % 64)}-{square_name(to_sq % 64)}",
            position=self.notation(),
        )

    def _find(self, given: object) -> KMove | None:
        move = _as_path(given)
        if move is None:
            return None
        index = _index(self.white, self.black, self.kings, int(self.to_move))
        found = index.get(move)
        if found is not None or len(move) < 3:
            return found
        for candidate, paths in _all_paths(self.white, self.black, self.kings, int(self.to_move)):
            if move in paths[1:]:
                return candidate
        return None

    def play(self, move: DamaMove) -> DamaState:
        found = self._find(move) if self.termination() is None else None
        if found is None:
            raise self._illegal(move)
        side = self.to_move
        white, black, kings = kernel.play(
            DAMA, self.white, self.black, self.kings, int(side), found
        )
        origin, target = found.path[0], found.path[-1]
        forward = not self.kings >> origin & 1 and origin // 8 != target // 8
        if found.captured or forward:
            return DamaState(white, black, kings, side.opponent, 0, (), self.plies + 1)
        seen = (*self.seen, (self.white, self.black, self.kings))
        return DamaState(white, black, kings, side.opponent, self.quiet + 1, seen, self.plies + 1)

    def _illegal(self, move: object) -> IllegalMoveError:
        text = self._describe(move)
        if self.termination() is not None:
            return IllegalMoveError(
                N_("move {move} is not possible: the game is over ({position})"),
                move=text,
                position=self.notation(),
            )
        moves = self._moves()
        shown = [self.format_move(tuple(m.path)) for m in moves[:16]]
        listed = ", ".join(shown) + (", ..." if len(moves) > 16 else "")
        if moves[0].captured:
            count = moves[0].captured.bit_count()
            if count == 1:
                return IllegalMoveError(
                    N_("move {move} is not legal: a capture is compulsory ({moves})"),
                    move=text,
                    moves=listed,
                )
            return IllegalMoveError(
                N_("move {move} is not legal: a capture of {count} pieces is compulsory ({moves})"),
                move=text,
                count=count,
                moves=listed,
            )
        return IllegalMoveError(
            N_("move {move} is not legal; legal moves: {moves}"), move=text, moves=listed
        )

    def _describe(self, move: object) -> str:
        path = _as_path(move)
        if path is not None:
            return repr(self.format_move(path))
        return _shown(repr(move))

    # -- move notation ----------------------------------------------------------------------

    def completions(self, squares: DamaMove) -> list[DamaMove]:
        """The legal moves that one of their paths makes pass ``squares`` in order, starting and
        ending on the first and last of them: what a shortened capture such as ``d4xf6`` may
        mean."""
        if self.termination() is not None:
            return []
        side = int(self.to_move)
        return [
            tuple(move.path)
            for move, paths in _all_paths(self.white, self.black, self.kings, side)
            if any(_visits(path, squares) for path in paths)
        ]

    def parse_move(self, text: str) -> DamaMove:
        """A move such as ``d3-d4``, ``d4xd6xf6`` or its short form ``d4xf6`` (when only one legal
        move fits). Raises :class:`ParseError` quoting ``text`` when it is not move notation or
        fits more than one move, :class:`IllegalMoveError` when no legal move fits."""
        squares = _parse_squares(text)
        found = self._find(squares) if self.termination() is None else None
        if found is not None:
            return tuple(found.path)
        fits = self.completions(squares)
        if len(fits) == 1:
            return fits[0]
        if not fits:
            raise self._illegal(squares)
        raise ParseError(
            N_("ambiguous move {text!r}: it fits {moves}; give the squares in between"),
            text=_shown(text),
            moves=", ".join(_joined(m, "x") for m in fits),
        )

    def format_move(self, move: DamaMove) -> str:
        """``move`` as ``d3-d4`` or, for a capture, the shortest ``d4x...xf6`` that only it fits
        in this position (every landing square when it is not legal here)."""
        found = self._find(move) if self.termination() is None else None
        if found is None:
            path = _as_path(move)
            if path is None:
                raise IllegalMoveError(
                    f"{_shown(repr(move))} is not a dama move: expected the squares it visits, "
                    "as a tuple of two to 32 indices 0-63"
                )
            return _joined(path, "x" if self._looks_like_capture(path) else "-")
        path = tuple(found.path)
        if not found.captured:
            return _joined(path, "-")
        inner = path[1:-1]
        # Fewer squares first; past a few, the full path (always unique) is the answer.
        for size in range(min(len(inner), 3)):
            for kept in itertools.combinations(inner, size):
                squares = (path[0], *kept, path[-1])
                if self.completions(squares) == [path]:
                    return _joined(squares, "x")
        return _joined(path, "x")

    def _looks_like_capture(self, move: DamaMove) -> bool:
        """For a move that is not legal here: more than one landing, or a piece between its two
        squares on this board."""
        if len(move) != 2:
            return True
        a, b = move
        if a // 8 == b // 8:
            step, span = 1, abs(b - a)
        elif a % 8 == b % 8:
            step, span = 8, abs(b - a) // 8
        else:
            return False
        low = min(a, b)
        occupied = self.white | self.black
        return any(occupied >> (low + step * i) & 1 for i in range(1, span))

    # -- position notation ------------------------------------------------------------------

    def notation(self) -> str:
        """The position in PDN FEN, men then kings in square order for each colour."""
        parts = ["W" if self.to_move is WHITE else "B"]
        for letter, pieces in (("W", self.white), ("B", self.black)):
            men = [square_name(s) for s in _bits(pieces & ~self.kings)]
            kings = ["K" + square_name(s) for s in _bits(pieces & self.kings)]
            parts.append(letter + ",".join(men + kings))
        return ":".join(parts)

    def rows(self) -> list[str]:
        """The board as 8 rows of 8 characters from rank 8 down (``.`` for an empty square)."""
        return [
            "".join(self.piece(rank * 8 + file) or "." for file in range(8))
            for rank in range(7, -1, -1)
        ]

    def diagram(self) -> str:
        """The position as the side to move and the board's rows: ``W:......../bbbbbbbb/...``;
        :meth:`parse` reads it back."""
        return ("W" if self.to_move is WHITE else "B") + ":" + "/".join(self.rows())

    @classmethod
    def parse(cls, text: str) -> DamaState:
        """A state from PDN FEN such as ``"W:Wd4,Kh1:Ba7,Ke8"`` or from a board diagram (see the
        module's docstring). Raises :class:`ParseError` or :class:`InvalidPositionError` quoting
        ``text``."""
        if not isinstance(text, str):
            raise ParseError(
                N_("invalid position {text!r}: expected text"), text=_shown(repr(text))
            )
        compact = re.sub(r"\s+", "", text)
        shown = _shown(text)
        expected = Phrase(
            N_(
                "expected FEN such as 'W:Wa2,b2,Kd4:Ba7,b7' (side to move, then each colour's "
                "squares, K before a king) or a board diagram of 8 rows of 8 squares"
            )
        )
        diagram = re.fullmatch(r"([WwBb])[:/]?((?:[.wbWB]{8}/?){8})", compact)
        if diagram is not None and len(compact) <= 75:
            return cls._from_rows(shown, diagram.group(1).upper(), diagram.group(2))
        fields = compact.rstrip(".").upper().split(":")
        if len(fields) != 3 or fields[0] not in ("B", "W"):
            raise ParseError(
                N_("invalid position {text!r}: {expected}"), text=shown, expected=expected
            )
        pieces: dict[str, tuple[int, int]] = {}
        for field_text in fields[1:]:
            colour = field_text[:1]
            if colour not in ("B", "W") or colour in pieces:
                raise ParseError(
                    N_("invalid position {text!r}: {expected}; each colour once, as W... and B..."),
                    text=shown,
                    expected=expected,
                )
            pieces[colour] = _parse_pieces(shown, field_text[1:])
        (white, white_kings), (black, black_kings) = pieces["W"], pieces["B"]
        to_move = WHITE if fields[0] == "W" else BLACK
        return cls._checked(shown, white, black, white_kings | black_kings, to_move)

    @classmethod
    def _from_rows(cls, shown: str, side: str, body: str) -> DamaState:
        rows = body.replace("/", "")
        white = black = kings = 0
        for i, char in enumerate(rows):
            square = (7 - i // 8) * 8 + i % 8
            bit = 1 << square
            if char in "wW":
                white |= bit
            elif char in "bB":
                black |= bit
            if char in "WB":
                kings |= bit
        return cls._checked(shown, white, black, kings, WHITE if side == "W" else BLACK)

    @classmethod
    def _checked(cls, shown: str, white: int, black: int, kings: int, to_move: Player) -> DamaState:
        both = white & black
        if both:
            raise InvalidPositionError(
                N_(
                    "impossible position {text!r}: square {listed} holds both a white and a "
                    "black piece"
                ),
                text=shown,
                listed=", ".join(square_name(s) for s in _bits(both)),
            )
        for side, own in ((WHITE, white), (BLACK, black)):
            if own.bit_count() > MAX_PIECES:
                raise InvalidPositionError(
                    N_("impossible position {text!r}: {side} has {count} pieces; at most 16"),
                    text=shown,
                    side=_SIDE_NAMES[side],
                    count=own.bit_count(),
                )
            men = own & ~kings
            if men & _CROWN_ROW[side]:
                raise InvalidPositionError(
                    N_(
                        "impossible position {text!r}: {side} has a man on {listed}, its crowning "
                        "row; it would be a king (write K before the square)"
                    ),
                    text=shown,
                    side=_SIDE_NAMES[side],
                    listed=", ".join(square_name(s) for s in _bits(men & _CROWN_ROW[side])),
                )
            if men & _BACK_ROW[side]:
                raise InvalidPositionError(
                    N_(
                        "impossible position {text!r}: {side} has a man on {listed}, its own back "
                        "row, where men never go"
                    ),
                    text=shown,
                    side=_SIDE_NAMES[side],
                    listed=", ".join(square_name(s) for s in _bits(men & _BACK_ROW[side])),
                )
        return cls(white, black, kings, to_move)


_SQUARE_RE: Final = re.compile(r"K?([A-H][1-8])(?:-([A-H][1-8]))?")


def _parse_pieces(shown: str, listing: str) -> tuple[int, int]:
    """The pieces and the kings of one colour's FEN list (``"D4,KH1"``, upper case; ranges along
    a rank or a file, ``"A2-H2"``)."""
    pieces = kings = 0
    if not listing:
        return 0, 0
    for item in listing.split(","):
        match = _SQUARE_RE.fullmatch(item)
        if match is None:
            raise ParseError(
                N_(
                    "invalid position {text!r}: {item!r} is not a square; expected a1 to h8, K "
                    "before a king, or a range along a rank or a file such as a2-h2"
                ),
                text=shown,
                item=_shown(item.lower()),
            )
        first = square_of(match.group(1))
        last = square_of(match.group(2)) if match.group(2) else first
        assert first is not None and last is not None  # the pattern allows only squares
        if first // 8 == last // 8:
            squares = range(min(first, last), max(first, last) + 1)
        elif first % 8 == last % 8:
            squares = range(min(first, last), max(first, last) + 1, 8)
        else:
            raise ParseError(
                N_("invalid position {text!r}: the range {item!r} is not along one rank or file"),
                text=shown,
                item=item.lower(),
            )
        for square in squares:
            bit = 1 << square
            if pieces & bit:
                raise InvalidPositionError(
                    N_("impossible position {text!r}: square {square} is listed twice"),
                    text=shown,
                    square=square_name(square),
                )
            pieces |= bit
            if item.startswith("K"):
                kings |= bit
    return pieces, kings


_MOVE_RE: Final = re.compile(r"[a-h][1-8](?:\s*[-x:]\s*[a-h][1-8])+", re.IGNORECASE)
_MOVE_SQUARES: Final = 32
"""No legal move visits more squares (16 pieces to take at most, plus the origin)."""


def _parse_squares(text: str) -> DamaMove:
    stripped = text.strip() if isinstance(text, str) else ""
    if len(stripped) > 8 * _MOVE_SQUARES or not _MOVE_RE.fullmatch(stripped):
        raise ParseError(
            N_(
                "invalid move {text!r}: expected squares a1-h8 joined by '-' for a move or 'x' "
                "for a capture, e.g. d3-d4 or d4xd6xf6"
            ),
            text=_shown(text) if isinstance(text, str) else _shown(repr(text)),
        )
    names = re.findall(r"[a-h][1-8]", stripped.lower())
    if len(names) > _MOVE_SQUARES:
        raise ParseError(
            N_("invalid move {text!r}: a move visits at most {count} squares"),
            text=_shown(text),
            count=_MOVE_SQUARES,
        )
    return tuple((int(name[1]) - 1) * 8 + _FILES.index(name[0]) for name in names)


def _joined(move: DamaMove, separator: str) -> str:
    return separator.join(square_name(s) for s in move)


# -- perft, the board, the record ---------------------------------------------------------------


class _Perft:
    """The record's :class:`~zermelo.core.capabilities.Perft`, through the kernel."""

    def count_leaves(self, state: DamaState, depth: int) -> int:
        if depth <= 0:
            return 1
        return int(
            kernel.count(DAMA, state.white, state.black, state.kings, int(state.to_move), depth)
        )


PERFT: Final = _Perft()


def _new(first: Player = WHITE) -> DamaState:
    return DamaState.initial(first)


def _grid(state: DamaState) -> Grid:
    """The ``draughts`` board, 8x8 with every square playable and named (``a1``..``h8``), rank 8
    at the top; each cell holds its piece (``w``/``b`` men, ``W``/``B`` kings)."""
    squares = [[(7 - row) * 8 + col for col in range(8)] for row in range(8)]
    return Grid.of(
        [[state.piece(square) for square in row] for row in squares],
        [[square_name(square) for square in row] for row in squares],
        files=tuple(_FILES),
        ranks=tuple(str(rank) for rank in range(8, 0, -1)),
    )


_INTRO: Final = (
    N_("White (w, kings W) starts on ranks 2-3 and moves first; Black (b, kings B) on ranks 6-7."),
    N_("Men step forward or sideways; kings move and capture along ranks and files, any distance."),
    N_("Type a move as d3-d4, a capture as d4xd6 or d4xd6xf6; ? lists the moves."),
    N_("Capturing is compulsory, and so is taking the most pieces; taken pieces leave at once."),
    N_("Drawn: one piece each, a third repetition, or 50 moves each without a capture or advance."),
)


SPEC: Final = GameSpec(
    name="dama",
    title=N_("Turkish draughts"),
    new=_new,
    parse=DamaState.parse,
    aliases=("turkish", "turkish-draughts"),
    first_mover=WHITE,
    # English here, so that --human black works in every language; shown translated.
    sides=(N_("White"), N_("Black")),
    default_time=1.0,
    levels={
        "easy": Ref("zermelo.agents.draughts:easy"),
        "medium": Ref("zermelo.agents.draughts:medium"),
        "hard": Ref("zermelo.agents.draughts:hard"),
    },
    board="draughts",
    grid=_grid,
    intro=_INTRO,
    notation="squares a1-h8 joined by - for a move (d3-d4) or x for a capture (d4xd6xf6)",
    perft=Ref("zermelo.games.draughts.dama:PERFT"),
    engine_analysis=Ref("zermelo.solvers.draughts.engine:ANALYSIS"),
    explainer=Ref("zermelo.solvers.draughts.evaluation:EXPLAINER"),
    tuner=Ref("zermelo.solvers.draughts.tuning:DAMA_TUNER"),
    saver=Ref("zermelo.games.draughts.pdn:DAMA_PDN"),
    openings=Ref("zermelo.games.draughts.openings:DAMA_OPENINGS"),
)
