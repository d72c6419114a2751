"""International draughts (FMJD rules, 10x10), on the kernel's move generator.

The board as every FMJD score sheet numbers it (Black at the top; White moves first, up)::

          a  b  c  d  e  f  g  h  i  j
     10  .  1  .  2  .  3  .  4  .  5       White's men start on 31-50 and are crowned
      9  6  .  7  .  8  .  9  . 10  .       on 1-5; Black's start on 1-20 and are crowned
      8  . 11  . 12  . 13  . 14  . 15       on 46-50.
      7 16  . 17  . 18  . 19  . 20  .
      6  . 21  . 22  . 23  . 24  . 25       Square n is bit n-1 of the masks ``white``,
      5 26  . 27  . 28  . 29  . 30  .       ``black`` and ``kings``.
      4  . 31  . 32  . 33  . 34  . 35
      3 36  . 37  . 38  . 39  . 40  .
      2  . 41  . 42  . 43  . 44  . 45
      1 46  . 47  . 48  . 49  . 50  .

The rules (men step diagonally forward and capture both ways; kings fly; the capture that takes
the most pieces is compulsory; pieces leave the board when the capture ends; a man crossing the
crowning row inside a capture stays a man) live in :mod:`zermelo.games.draughts.kernel`. This
module adds what the kernel does not know: the end of the game and the draw rules of the FMJD's
official rules (Annex 1, article 6, "the draw"; read in the FMJD's English text as published at
https://e-dama.net/e/dama/Annex_1_official_FMJD_rules_of_international_draughts.htm and
https://docest.com/doc/355197/annex-1-official-fmjd-rules-for-international-draughts):

* a player who cannot move (no pieces, or all blocked) loses; this is checked first, so a move
  that blocks the last enemy piece wins even on the ply a draw rule would end the game;
* **third repetition** (6.1): the same position, with the same player to move, for the third
  time;
* **25-move rule** (6.2): 25 successive moves by each player (50 plies) in which only kings moved
  and nothing was taken;
* **16-move rule** (6.3): three pieces, at least one of them a king (three kings, two kings and a
  man, one king and two men), against a lone king: drawn when both players have played 16 more
  moves (32 plies) in that ending;
* **5-move rule** (6.4): two kings, a king and a man, or a king alone, against a lone king:
  drawn when both players have played 5 more moves (10 plies) in that ending.

The two endgame counts start when the ending arises (by a capture, or a man crowned) and start
again when a piece is taken within it (3 v 1 becoming 2 v 1 starts the 5-move count); a man that
moves inside the 16-move ending does not stop the count (the article counts moves, not king
moves). A position read from FEN starts every count at 0.

Move notation (FMJD PDN): ``32-28`` a step, ``19x30`` a capture by its origin and destination;
the long form ``28x19x8`` (every landing square) only where two legal captures share their ends.
Reading accepts the short form when exactly one legal move fits, the long form, squares left out
when one move fits, and ``-``/``x`` for each other. A move is a tuple of 1-based squares, the
origin then every landing square: ``(32, 28)``, ``(28, 19, 8)``.

Position notation: PDN FEN, ``W:W31-50:B1-20`` (side to move, then each colour's squares, ``K``
before a king; ranges, spaces and a final ``.`` are read, every square is written).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterator
from typing import ClassVar, Final, NamedTuple

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, Phrase
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.scores import Unit
from zermelo.core.state import Player
from zermelo.games.draughts import kernel
from zermelo.games.draughts.kernel import KMove
from zermelo.games.draughts.rules import INTERNATIONAL, Rules

__all__ = [
    "BLACK",
    "ENDGAME_5",
    "ENDGAME_16",
    "INITIAL_FEN",
    "PERFT",
    "QUIET_PLIES",
    "SPEC",
    "WHITE",
    "InternationalMove",
    "InternationalState",
]

InternationalMove = tuple[int, ...]
"""A move as the 1-based squares it visits: ``(32, 28)`` or ``(28, 19, 8)``."""

WHITE: Final = Player.FIRST
BLACK: Final = Player.SECOND
QUIET_PLIES: Final = 50
"""Plies (25 moves each) of king moves without a capture after which the game is drawn."""
ENDGAME_16: Final = 32
"""Plies (16 moves each) after which three pieces with a king against a lone king are drawn."""
ENDGAME_5: Final = 10
"""Plies (5 moves each) after which at most two pieces with a king against a lone king draw."""
SQUARES: Final = 50
FULL: Final = (1 << SQUARES) - 1
INITIAL_FEN: Final = (
    "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
)
_CROWN: Final = {WHITE: 0b11111, BLACK: 0b11111 << 45}
"""The rows where each side's men are crowned (White on 1-5, Black on 46-50)."""
MAX_PIECES: Final = 20

MEN: Final = Unit(N_("{value} men"), 100.0)
"""Draughts values are hundredths of a man; people read them in men."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _coords(square: int) -> tuple[int, int]:
    """Row (0 at the top) and column (0 at the left) of the 0-based ``square``."""
    row = square // 5
    return row, 2 * (square % 5) + (1 if row % 2 == 0 else 0)


def _square_at(row: int, col: int) -> int | None:
    if not (0 <= row < 10 and 0 <= col < 10) or (row + col) % 2 == 0:
        return None
    return row * 5 + col // 2


@functools.lru_cache(maxsize=1 << 14)
def _legal(
    white: int, black: int, kings: int, side: int
) -> tuple[tuple[InternationalMove, KMove], ...]:
    """The kernel's legal moves of a position, each with its 1-based move tuple."""
    moves = kernel.legal(INTERNATIONAL, white, black, kings, side)
    return tuple((tuple(sq + 1 for sq in move.path), move) for move in moves)


def _ending(white: int, black: int, kings: int) -> int:
    """The endgame rule that applies: :data:`ENDGAME_16`, :data:`ENDGAME_5`, or 0 for none."""
    for strong, weak in ((white, black), (black, white)):
        if weak.bit_count() == 1 and weak & kings and strong & kings:
            count = strong.bit_count()
            if count == 3:
                return ENDGAME_16
            if count <= 2:
                return ENDGAME_5
    return 0


class _Fields(NamedTuple):
    white: int
    black: int
    kings: int
    to_move: Player = WHITE
    endgame: int = 0
    plies: int = 0
    history: tuple[tuple[int, int, int], ...] = ()
    line: tuple[InternationalMove, ...] = ()
    origin: str = ""


class InternationalState(_Fields):
    """An immutable international draughts position with what its draw rules need.

    ``white``, ``black``, ``kings``: masks (square n is bit n-1). ``endgame`` counts the plies
    played in the current 16-move or 5-move ending; ``history`` holds the positions
    ``(white, black, kings)`` since the last man move or capture, oldest first (its length is the
    25-move rule's count, and the third repetition is looked for in it); ``line`` is the game's
    moves from ``origin``, the start position's FEN (``""`` for the usual start), for the game's
    file and the board's last move.
    """

    __slots__ = ()

    RULES: ClassVar[Rules] = INTERNATIONAL
    """The rules the kernel plays (a class attribute, not a field)."""

    @classmethod
    def initial(cls, first: Player = WHITE) -> InternationalState:
        """The start position: Black's men on 1-20, White's on 31-50, White to move (``first``
        is accepted because front ends pass it to every game; White always starts)."""
        return cls(sum(1 << s for s in range(30, 50)), (1 << 20) - 1, 0, WHITE)

    def __repr__(self) -> str:
        return f"InternationalState.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def quiet(self) -> int:
        """Plies since the last man move or capture (the 25-move rule's count)."""
        return len(self.history)

    def _moves(self) -> tuple[tuple[InternationalMove, KMove], ...]:
        return _legal(self.white, self.black, self.kings, int(self.to_move))

    def draw_reason(self) -> str | None:
        """The draw rule that ends the game here, or ``None`` (not checking for a side that
        cannot move, which :meth:`termination` puts first)."""
        position = (self.white, self.black, self.kings)
        if sum(1 for seen in self.history[-2::-2] if seen == position) >= 2:
            return N_("third repetition")
        if len(self.history) >= QUIET_PLIES:
            return N_("25-move rule")
        rule = _ending(self.white, self.black, self.kings)
        if rule and self.endgame >= rule:
            return N_("16-move rule") if rule == ENDGAME_16 else N_("5-move rule")
        return None

    def legal_moves(self) -> tuple[InternationalMove, ...]:
        """The legal moves (the maximum captures when there is a capture), sorted by squares;
        empty when the game is over."""
        moves = self._moves()
        if not moves or self.draw_reason() is not None:
            return ()
        return tuple(move for move, _ in moves)

    def is_terminal(self) -> bool:
        return not self._moves() or self.draw_reason() is not None

    def termination(self) -> str | None:
        """Why the game is over: ``"no pieces"`` or ``"no moves"`` (the side to move loses),
        else the draw rule (``"third repetition"``, ``"25-move rule"``, ``"16-move rule"``,
        ``"5-move rule"``); ``None`` while it runs."""
        if not self._moves():
            own = self.white if self.to_move is WHITE else self.black
            return N_("no pieces") if own == 0 else N_("no moves")
        return self.draw_reason()

    @property
    def winner(self) -> Player | None:
        """The opponent of a side left without a legal move; ``None`` otherwise."""
        return None if self._moves() else self.to_move.opponent

    def value_unit(self) -> Unit:
        """Heuristic values (hundredths of a man) are shown in men."""
        return MEN

    def has_capture(self) -> bool:
        """True when the side to move must capture."""
        moves = self._moves()
        return bool(moves) and moves[0][1].captured != 0

    def is_quiet(self) -> bool:
        """No capture pending: a static evaluation can be trusted here."""
        return not self.has_capture()

    def key(self) -> Hashable:
        """The position with its draw-rule counts (not the ply count or the game's moves)."""
        return (self.white, self.black, self.kings, self.to_move, self.endgame, self.history)

    def _find(self, move: object) -> tuple[InternationalMove, KMove] | None:
        """The legal move that ``move`` is (its own path or another path of the same capture)."""
        if not isinstance(move, tuple) or len(move) < 2:
            return None
        moves = self._moves()
        for legal, kmove in moves:
            if legal == move:
                return legal, kmove
        for legal, kmove in moves:
            if kmove.captured and legal[0] == move[0] and legal[-1] == move[-1]:
                others = kernel.paths(
                    INTERNATIONAL,
                    self.white,
                    self.black,
                    self.kings,
                    int(self.to_move),
                    kmove.path[0],
                    kmove.path[-1],
                    kmove.captured,
                )
                if any(tuple(sq + 1 for sq in path) == move for path in others):
                    return legal, kmove
        return None

    def play(self, move: InternationalMove) -> InternationalState:
        """The state after ``move``. Raises :class:`IllegalMoveError` naming why (a shorter
        capture than the compulsory one included) for a move that is not legal."""
        found = self._find(move) if self.draw_reason() is None else None
        if found is None:
            raise self._illegal(move)
        legal, kmove = found
        white, black, kings = kernel.play(
            INTERNATIONAL, self.white, self.black, self.kings, int(self.to_move), kmove
        )
        origin_bit = 1 << kmove.path[0]
        irreversible = kmove.captured != 0 or not self.kings & origin_bit
        history = () if irreversible else (*self.history, (self.white, self.black, self.kings))
        rule = _ending(white, black, kings)
        if rule and not kmove.captured and rule == _ending(self.white, self.black, self.kings):
            endgame = self.endgame + 1
        else:
            endgame = 0
        return InternationalState(
            white,
            black,
            kings,
            self.to_move.opponent,
            endgame,
            self.plies + 1,
            history,
            (*self.line, legal),
            self.origin,
        )

    def _illegal(self, move: object, shown: str | None = None) -> IllegalMoveError:
        text = _describe(move) if shown is None else repr(shown)
        moves = self.legal_moves()
        if not moves:
            return IllegalMoveError(
                N_("move {move} is not possible: the game is over ({position})"),
                move=text,
                position=self.notation(),
            )
        listed = ", ".join(self.format_move(m) for m in moves[:12])
        if len(moves) > 12:
            listed += ", ..."
        if self.has_capture():
            count = self._moves()[0][1].captured.bit_count()
            if count == 1:
                return IllegalMoveError(
                    N_("move {move} is not legal: a capture is mandatory ({moves})"),
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

    # -- the engine's view --------------------------------------------------------------------

    def kernel_move(self, move: InternationalMove) -> KMove:
        """The kernel's move for ``move`` (0-based squares and the captured mask)."""
        found = self._find(move)
        if found is None:
            raise self._illegal(move)
        return found[1]

    def from_kernel(self, from_sq: int, to_sq: int, captured: int) -> InternationalMove:
        """The legal move the kernel names by its 0-based ends and captured mask."""
        for legal, kmove in self._moves():
            if kmove.path[0] == from_sq and kmove.path[-1] == to_sq and kmove.captured == captured:
                return legal
        raise IllegalMoveError(
            N_("move {move} is not legal; legal moves: {moves}"),
            move=f"{from_sq + 1}-{to_sq + 1}",
            moves=", ".join(self.format_move(m) for m, _ in self._moves()[:12]),
        )

    # -- notation ---------------------------------------------------------------------------

    def piece(self, square: int) -> str:
        """What stands on the 0-based ``square``: ``"w"``/``"b"`` men, ``"W"``/``"B"`` kings, or
        ``""``."""
        bit = 1 << square
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return ""

    def notation(self) -> str:
        """The position in PDN FEN, every square listed in order, ``K`` before a king."""
        parts = ["W" if self.to_move is WHITE else "B"]
        for letter, pieces in (("W", self.white), ("B", self.black)):
            squares = [("K" if self.kings >> s & 1 else "") + str(s + 1) for s in _bits(pieces)]
            parts.append(letter + ",".join(squares))
        return ":".join(parts)

    def format_move(self, move: InternationalMove) -> str:
        """``move`` in FMJD notation: ``32-28``, ``19x30``, and the long form ``28x19x8`` only
        when another legal capture has the same origin and destination."""
        found = self._find(move)
        if found is None:
            return _plain(move)
        legal, kmove = found
        if not kmove.captured:
            return f"{legal[0]}-{legal[-1]}"
        twins = [m for m, _ in self._moves() if m[0] == legal[0] and m[-1] == legal[-1]]
        if len(twins) == 1:
            return f"{legal[0]}x{legal[-1]}"
        return "x".join(map(str, legal))

    def parse_move(self, text: str) -> InternationalMove:
        """A move such as ``32-28``, ``19x30`` or ``28x19x8``; the short form and squares left
        out are completed from the legal moves when one fits. Raises :class:`ParseError` quoting
        ``text`` for text that is not move notation or fits several moves, and
        :class:`IllegalMoveError` when it fits no legal move."""
        squares = _parse_squares(text)
        fits = self.completions(squares)
        if len(fits) == 1:
            return fits[0]
        if not fits:
            raise self._illegal(squares, text.strip())
        raise ParseError(
            N_("ambiguous move {text!r}: it fits {moves}; give the squares in between"),
            text=text.strip()[:60],
            moves=", ".join("x".join(map(str, m)) for m in fits),
        )

    def completions(self, squares: InternationalMove) -> list[InternationalMove]:
        """The legal moves that start and end on the first and last of ``squares`` and pass the
        others in order, on any of their paths."""
        if self.draw_reason() is not None:
            return []
        fits: list[InternationalMove] = []
        for legal, kmove in self._moves():
            if legal[0] != squares[0] or legal[-1] != squares[-1]:
                continue
            if len(squares) == 2 or _visits(legal, squares):
                fits.append(legal)
                continue
            others = kernel.paths(
                INTERNATIONAL,
                self.white,
                self.black,
                self.kings,
                int(self.to_move),
                kmove.path[0],
                kmove.path[-1],
                kmove.captured,
            )
            if any(_visits(tuple(sq + 1 for sq in path), squares) for path in others):
                fits.append(legal)
        return fits

    @classmethod
    def parse(cls, text: str) -> InternationalState:
        """A state from PDN FEN such as ``"W:W31-50:B1-20"`` (``K`` kings, ranges, spaces, lower
        case, a final ``.``). Raises :class:`ParseError` or :class:`InvalidPositionError`
        quoting ``text``."""
        shown = text[:80] if isinstance(text, str) else repr(text)[:80]
        if not isinstance(text, str) or len(text) > 1000:
            raise ParseError(
                N_("invalid position {text!r}: {expected}"), text=shown, expected=_EXPECTED
            )
        cleaned = re.sub(r"\s+", "", text).rstrip(".").upper()
        if cleaned.startswith('[FEN"') and cleaned.endswith('"]'):
            cleaned = cleaned[5:-2]
        cleaned = cleaned.strip('"')
        fields = cleaned.split(":")
        if len(fields) != 3 or fields[0] not in ("B", "W"):
            raise ParseError(
                N_("invalid position {text!r}: {expected}"), text=shown, expected=_EXPECTED
            )
        pieces: dict[str, tuple[int, int]] = {}
        for field_text in fields[1:]:
            colour = field_text[:1]
            if colour not in ("B", "W") or colour in pieces:
                raise ParseError(
                    N_("invalid position {text!r}: {expected}; each colour once, as W... and B..."),
                    text=shown,
                    expected=_EXPECTED,
                )
            pieces[colour] = _parse_pieces(shown, field_text[1:])
        (white, white_kings), (black, black_kings) = pieces["W"], pieces["B"]
        both = white & black
        if both:
            raise InvalidPositionError(
                N_(
                    "impossible position {text!r}: square {listed} holds both a black and a white piece"
                ),
                text=shown,
                listed=", ".join(str(s + 1) for s in _bits(both)),
            )
        for name, own, own_kings, crown in (
            (N_("White"), white, white_kings, _CROWN[WHITE]),
            (N_("Black"), black, black_kings, _CROWN[BLACK]),
        ):
            if own.bit_count() > MAX_PIECES:
                raise InvalidPositionError(
                    N_("impossible position {text!r}: {side} has {count} pieces; at most {most}"),
                    text=shown,
                    side=Phrase(name),
                    count=own.bit_count(),
                    most=MAX_PIECES,
                )
            uncrowned = own & ~own_kings & crown
            if uncrowned:
                raise InvalidPositionError(
                    N_(
                        "impossible position {text!r}: {side} has a man on {listed}, its crowning "
                        "row; it would be a king (write K before the square)"
                    ),
                    text=shown,
                    side=Phrase(name),
                    listed=", ".join(str(s + 1) for s in _bits(uncrowned)),
                )
        to_move = WHITE if fields[0] == "W" else BLACK
        state = cls(white, black, white_kings | black_kings, to_move)
        notation = state.notation()
        return state._replace(origin="" if notation == INITIAL_FEN else notation)


_EXPECTED: Final = Phrase(
    N_("expected FEN such as 'W:W31-50:B1-20' (side to move, then each colour's squares 1-50)")
)


def _parse_pieces(text: str, listing: str) -> tuple[int, int]:
    """The pieces and the kings of one colour's FEN list (``"18,24,K10"``; ranges ``"1-20"``)."""
    pieces = kings = 0
    if not listing:
        return 0, 0
    for item in listing.split(","):
        king = item.startswith("K")
        body = item[1:] if king else item
        match = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", body)
        if match is None:
            raise ParseError(
                N_(
                    "invalid position {text!r}: {item!r} is not a square; expected a number from "
                    "1 to 50, K before a king, or a range such as 31-50"
                ),
                text=text,
                item=item[:20],
            )
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if first > last:
            raise ParseError(
                N_("invalid position {text!r}: range {item!r} runs backwards"),
                text=text,
                item=item[:20],
            )
        for square in range(first, last + 1):
            if not 1 <= square <= SQUARES:
                raise ParseError(
                    N_(
                        "invalid position {text!r}: square {square} is off the board; "
                        "squares are numbered 1 to 50"
                    ),
                    text=text,
                    square=square,
                )
            bit = 1 << (square - 1)
            if pieces & bit:
                raise InvalidPositionError(
                    N_("impossible position {text!r}: square {square} is listed twice"),
                    text=text,
                    square=square,
                )
            pieces |= bit
            if king:
                kings |= bit
    return pieces, kings


_MOVE_RE: Final = re.compile(r"\d{1,2}(?:\s*[-xX:]\s*\d{1,2})+")


def _parse_squares(text: str) -> InternationalMove:
    stripped = text.strip() if isinstance(text, str) else ""
    if len(stripped) > 120 or not _MOVE_RE.fullmatch(stripped):
        raise ParseError(
            N_(
                "invalid move {text!r}: expected squares 1-50 joined by '-' for a move or 'x' "
                "for a capture, e.g. 32-28 or 28x19x8"
            ),
            text=text[:60] if isinstance(text, str) else repr(text)[:60],
        )
    squares = tuple(int(part) for part in re.split(r"\s*[-xX:]\s*", stripped))
    for square in squares:
        if not 1 <= square <= SQUARES:
            raise ParseError(
                N_("invalid move {text!r}: square {square} is off the board; squares are 1 to 50"),
                text=stripped[:60],
                square=square,
            )
    return squares


def _visits(move: InternationalMove, squares: InternationalMove) -> bool:
    """True when ``move`` starts and ends where ``squares`` do and passes its other squares in
    order."""
    if move[0] != squares[0] or move[-1] != squares[-1] or len(move) < len(squares):
        return False
    rest = iter(move[1:-1])
    return all(any(square == seen for seen in rest) for square in squares[1:-1])


def _plain(move: object) -> str:
    """A move tuple written without a position: ``x`` between the squares of a multiple
    capture, ``-`` otherwise."""
    if not (isinstance(move, tuple) and len(move) >= 2 and all(isinstance(s, int) for s in move)):
        return repr(move)
    return "x".join(map(str, move)) if len(move) > 2 else f"{move[0]}-{move[1]}"


def _describe(move: object) -> str:
    return repr(_plain(move)) if isinstance(move, tuple) else repr(move)


# -- capabilities -----------------------------------------------------------------------------


class _Perft:
    """The record's :class:`~zermelo.core.capabilities.Perft`, through the kernel's count
    (captures that differ only in the order of the pieces taken count once)."""

    def count_leaves(self, state: InternationalState, depth: int) -> int:
        side = int(state.to_move)
        return int(kernel.count(INTERNATIONAL, state.white, state.black, state.kings, side, depth))


PERFT: Final = _Perft()

_FILES: Final = tuple("abcdefghij")
_RANKS: Final = tuple(str(r) for r in range(10, 0, -1))


def _grid(state: InternationalState) -> Grid:
    """The ``draughts`` board, 10x10 with Black at the top, the dark squares numbered 1-50; the
    last move's squares marked."""
    squares = [[_square_at(row, col) for col in range(10)] for row in range(10)]
    last = state.line[-1] if state.line else ()
    return Grid.of(
        [["" if sq is None else state.piece(sq) for sq in row] for row in squares],
        [[None if sq is None else str(sq + 1) for sq in row] for row in squares],
        files=_FILES,
        ranks=_RANKS,
        last=[_coords(sq - 1) for sq in last],
    )


def _new(first: Player = WHITE) -> InternationalState:
    return InternationalState.initial(first)


_INTRO: Final = (
    N_("White (w, kings W) starts on squares 31-50 and moves first; Black (b, kings B) on 1-20."),
    N_("Type a move as 32-28 and a capture as 19x30 (28x19x8 when two captures share their ends)."),
    N_("Capturing is compulsory, and so is the capture that takes the most pieces."),
    N_("Kings fly along the diagonals; a man is crowned when its move ends on the far row."),
)

SPEC: Final = GameSpec(
    name="international",
    title=N_("International draughts"),
    new=_new,
    parse=InternationalState.parse,
    aliases=("dammen", "international-draughts", "dam", "co-dam"),
    first_mover=WHITE,
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
    notation="squares 1-50 joined by - for a move (32-28) or x for a capture (19x30, 28x19x8)",
    perft=Ref("zermelo.games.draughts.international:PERFT"),
    engine_analysis=Ref("zermelo.solvers.draughts.engine:ANALYSIS"),
    explainer=Ref("zermelo.solvers.draughts.evaluation:EXPLAINER"),
    tuner=Ref("zermelo.solvers.draughts.tuning:INTERNATIONAL_TUNER"),
    saver=Ref("zermelo.games.draughts.pdn:INTERNATIONAL_PDN"),
    openings=Ref("zermelo.games.draughts.openings:INTERNATIONAL_OPENINGS"),
)
