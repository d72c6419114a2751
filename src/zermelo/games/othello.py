"""Othello (Reversi) on bitboards.

The board is 8x8. Square ``row * 8 + col`` is bit ``row * 8 + col`` of a 64-bit mask, rows from the
top; in the notation columns are ``a``-``h`` from the left and rows ``1``-``8`` from the top, so the
top left square is ``a1``. A position is Black's mask, White's mask, the side to move and the number
of moves played. Black is :attr:`Player.FIRST` and moves first.

The rules: a move puts a disc on an empty square so that, along at least one of the eight lines
through it, a run of the opponent's discs lies between it and a disc of the mover; every such run
is turned over. A side with no such move passes (the move :data:`PASS`, written ``pass``), and
only then. The game ends when neither side can move; the side with more discs wins, equal counts
draw.

Position notation: 64 characters row by row from the top left, ``B``, ``W`` or ``.``, then a space
and the side to move (``B`` or ``W``). Move notation: a square such as ``d3``, or ``pass``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, NamedTuple

from zermelo.core.capabilities import Breakdown, Term
from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.state import Player

__all__ = ["EXPLAINER", "PASS", "PERFT", "SPEC", "OthelloState", "perft"]

SIZE: Final = 8
PASS: Final = 64
"""The move of a side that has no other: it passes the turn."""

_FULL: Final = (1 << 64) - 1
_NOT_A: Final = 0xFEFEFEFEFEFEFEFE
"""Every square but the left column: where a shift to the right may land."""
_NOT_H: Final = 0x7F7F7F7F7F7F7F7F
"""Every square but the right column: where a shift to the left may land."""
# (shift, mask): a positive shift moves towards higher squares (right, down).
_DIRECTIONS: Final = (
    (1, _NOT_A),
    (-1, _NOT_H),
    (8, _FULL),
    (-8, _FULL),
    (9, _NOT_A),
    (7, _NOT_H),
    (-7, _NOT_A),
    (-9, _NOT_H),
)
_CORNERS: Final = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
_START_BLACK: Final = (1 << 28) | (1 << 35)  # e4, d5
_START_WHITE: Final = (1 << 27) | (1 << 36)  # d4, e5
_COLUMNS: Final = "abcdefgh"
_MARKS: Final = {Player.FIRST: "B", Player.SECOND: "W"}
_DISCS: Final = {"B": "●", "W": "○", ".": ""}


def _shift(bits: int, shift: int, mask: int) -> int:
    if shift > 0:
        return (bits << shift) & mask & _FULL
    return (bits >> -shift) & mask


def _moves(own: int, other: int) -> int:
    """The mask of the squares where the side with discs ``own`` may play."""
    empty = ~(own | other) & _FULL
    found = 0
    for shift, mask in _DIRECTIONS:
        run = _shift(own, shift, mask) & other
        for _ in range(5):
            run |= _shift(run, shift, mask) & other
        found |= _shift(run, shift, mask) & empty
    return found


def _flips(own: int, other: int, square: int) -> int:
    """The opponent's discs a disc of ``own`` on ``square`` turns over."""
    flipped = 0
    start = 1 << square
    for shift, mask in _DIRECTIONS:
        run = 0
        probe = _shift(start, shift, mask)
        while probe & other:
            run |= probe
            probe = _shift(probe, shift, mask)
        if probe & own:
            flipped |= run
    return flipped


def _squares(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class OthelloState(NamedTuple):
    """An immutable Othello position; :meth:`initial` is the start, :meth:`parse` reads one."""

    black: int
    white: int
    to_move: Player = Player.FIRST
    moves_played: int = 0

    @classmethod
    def initial(cls) -> OthelloState:
        return cls(_START_BLACK, _START_WHITE, Player.FIRST, 0)

    def _sides(self) -> tuple[int, int]:
        return (
            (self.black, self.white) if self.to_move is Player.FIRST else (self.white, self.black)
        )

    # -- the State protocol ---------------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.moves_played

    @property
    def winner(self) -> Player | None:
        if not self.is_terminal():
            return None
        black, white = self.black.bit_count(), self.white.bit_count()
        if black == white:
            return None
        return Player.FIRST if black > white else Player.SECOND

    def termination(self) -> str | None:
        """Why the game is over: neither side can play, so the ``"disc count"`` decides; ``None``
        while it runs."""
        return N_("disc count") if self.is_terminal() else None

    def is_terminal(self) -> bool:
        return not _moves(self.black, self.white) and not _moves(self.white, self.black)

    def legal_moves(self) -> list[int]:
        """The squares the side to move may play, corners first, then by square; ``[PASS]`` when
        it has none but the opponent has; ``[]`` when the game is over."""
        own, other = self._sides()
        mine = _moves(own, other)
        if mine:
            return _squares(mine & _CORNERS) + _squares(mine & ~_CORNERS)
        return [PASS] if _moves(other, own) else []

    def play(self, move: int) -> OthelloState:
        own, other = self._sides()
        following = self.to_move.opponent
        if move == PASS:
            if _moves(own, other) or not _moves(other, own):
                raise IllegalMoveError(
                    "pass is only legal for a side that has no other move, in a game not over"
                )
            return OthelloState(self.black, self.white, following, self.moves_played + 1)
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < 64:
            raise IllegalMoveError(f"square {move!r} is off the board; expected a1 to h8")
        if not _moves(own, other) >> move & 1:
            raise IllegalMoveError(
                f"{self.format_move(move)} turns over no disc of the opponent's: not a legal move"
            )
        flipped = _flips(own, other, move)
        own |= flipped | (1 << move)
        other &= ~flipped
        black, white = (own, other) if self.to_move is Player.FIRST else (other, own)
        return OthelloState(black, white, following, self.moves_played + 1)

    def key(self) -> Hashable:
        """The discs and the side to move: how the position was reached does not matter."""
        return (self.black, self.white, self.to_move)

    def evaluate(self) -> float:
        """f(s) = 30·x1 + 5·x2 + 1·x3 from the side to move (see :func:`features`)."""
        return float(sum(weight * value for _, _, weight, value in features(self)))

    # -- notation ---------------------------------------------------------------------------------

    def cell(self, square: int) -> str:
        """``"B"``, ``"W"`` or ``"."``."""
        if self.black >> square & 1:
            return "B"
        if self.white >> square & 1:
            return "W"
        return "."

    def rows(self) -> list[str]:
        """The board as 8 rows of ``B``, ``W`` and ``.``, from the top."""
        return ["".join(self.cell(r * 8 + c) for c in range(8)) for r in range(8)]

    def notation(self) -> str:
        return "".join(self.rows()) + " " + _MARKS[self.to_move]

    @staticmethod
    def parse_move(text: str) -> int:
        """A square such as ``d3`` or ``pass``; a :class:`ParseError` quoting anything else."""
        word = text.strip().lower()
        if word == "pass":
            return PASS
        if len(word) == 2 and word[0] in _COLUMNS and word[1] in "12345678":
            return (int(word[1]) - 1) * 8 + _COLUMNS.index(word[0])
        raise ParseError(f"invalid Othello move {text!r}: expected a square a1-h8 or 'pass'")

    @staticmethod
    def format_move(move: int) -> str:
        if move == PASS:
            return "pass"
        return f"{_COLUMNS[move % 8]}{move // 8 + 1}"

    @classmethod
    def parse(cls, text: str) -> OthelloState:
        """Position notation: 64 characters of ``B``, ``W`` and ``.``, a space, the side to move."""
        parts = text.split()
        if len(parts) != 2 or len(parts[0]) != 64 or parts[1].upper() not in ("B", "W"):
            raise ParseError(
                f"invalid Othello position {text[:80]!r}: expected 64 characters of B, W and '.' "
                "(rows from the top), a space and the side to move, B or W"
            )
        bad = sorted({c for c in parts[0].upper() if c not in "BW."})
        if bad:
            raise ParseError(
                f"invalid Othello position {text[:80]!r}: unexpected {', '.join(map(repr, bad))}; "
                "use B, W and '.'"
            )
        black = white = 0
        for square, c in enumerate(parts[0].upper()):
            if c == "B":
                black |= 1 << square
            elif c == "W":
                white |= 1 << square
        centre = _START_BLACK | _START_WHITE
        if (black | white) & centre != centre:
            raise InvalidPositionError(
                f"impossible Othello position {text[:80]!r}: the four centre squares are never empty"
            )
        to_move = Player.FIRST if parts[1].upper() == "B" else Player.SECOND
        return cls(black, white, to_move, (black | white).bit_count() - 4)


def features(state: OthelloState) -> list[tuple[str, str, int, int]]:
    """The evaluation's terms from the side to move: (name, description, weight, value)."""
    own, other = state._sides()
    return [
        (
            N_("corners"),
            N_("corners held, own minus the opponent's: a corner is never turned over"),
            30,
            (own & _CORNERS).bit_count() - (other & _CORNERS).bit_count(),
        ),
        (
            N_("mobility"),
            N_("legal moves, own minus the opponent's"),
            5,
            _moves(own, other).bit_count() - _moves(other, own).bit_count(),
        ),
        (
            N_("discs"),
            N_("discs on the board, own minus the opponent's"),
            1,
            own.bit_count() - other.bit_count(),
        ),
    ]


class _Explainer:
    """The record's :class:`~zermelo.core.capabilities.Explainer`: f(s) term by term."""

    def explain(self, state: OthelloState, weights: str | None) -> Breakdown:
        if weights is not None:
            raise ParseError("othello has no weights file: its evaluation is fixed")
        terms = tuple(
            Term(name, description, float(value), float(weight))
            for name, description, weight, value in features(state)
        )
        return Breakdown(terms, state.evaluate())


def perft(state: OthelloState, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``state`` (a pass counts as a move;
    a game that ends sooner is counted once, where it ends)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 20:
        raise ParseError(f"invalid perft depth {depth!r}: expected a depth from 0 to 20")
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


class _Perft:
    """The record's :class:`~zermelo.core.capabilities.Perft`."""

    def count_leaves(self, state: OthelloState, depth: int) -> int:
        return perft(state, depth)


EXPLAINER: Final = _Explainer()
PERFT: Final = _Perft()


def _new(first: Player = Player.FIRST) -> OthelloState:
    # Black always moves first; a front end that lets a person choose who starts gives them
    # Black instead (the record's first_mover).
    return OthelloState.initial()


def _grid(state: OthelloState) -> Grid:
    """The board, each legal square clickable; a pass is offered as a button."""
    legal = set(state.legal_moves())
    return Grid.of(
        [[_DISCS[state.cell(r * 8 + c)] for c in range(8)] for r in range(8)],
        [
            [state.format_move(r * 8 + c) if r * 8 + c in legal else None for c in range(8)]
            for r in range(8)
        ],
    )


SPEC: Final = GameSpec(
    name="othello",
    title=N_("Othello"),
    new=_new,
    parse=OthelloState.parse,
    aliases=("reversi",),
    first_mover=Player.FIRST,
    sides=(N_("Black"), N_("White")),
    default_time=1.0,
    move_time=1.0,
    levels={
        "easy": "engine:depth=1,noise=20",
        "medium": "engine:depth=3,noise=5",
        "hard": "engine:time=1",
    },
    board="grid",
    grid=_grid,
    notation=N_("a square such as d3 (columns a-h, rows 1-8 from the top), or pass"),
    intro=(
        N_(
            "Put a disc so that a line of your opponent's discs lies between it and one of "
            "yours: those discs turn to your colour. With no such move you pass. The game ends "
            "when neither side can move; more discs wins."
        ),
    ),
    perft=Ref("zermelo.games.othello:PERFT"),
    explainer=Ref("zermelo.games.othello:EXPLAINER"),
    codec=Codec[OthelloState](
        lambda state: 65,
        lambda state: state.rows(),
        ("B", "W"),
        openspiel_native="othello",
    ),
)
"""Othello's record: alpha-beta levels on the evaluation, perft and the evaluation term by term,
and a codec (64 squares and the pass) for OpenSpiel and PettingZoo."""
