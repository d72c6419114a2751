"""English draughts (American checkers) on the 8x8 board, with bitboards in Python ints.

The board and its numbering, as in every checkers book (Black at the top, moving down)::

          a   b   c   d   e   f   g   h
        +---+---+---+---+---+---+---+---+
      8 |   | 1 |   | 2 |   | 3 |   | 4 |     Black starts on 1-12 and moves first,
        +---+---+---+---+---+---+---+---+     towards the higher numbers;
      7 | 5 |   | 6 |   | 7 |   | 8 |   |     White starts on 21-32.
        +---+---+---+---+---+---+---+---+
      6 |   | 9 |   |10 |   |11 |   |12 |     Square n is bit n-1 of a 32-bit mask:
        +---+---+---+---+---+---+---+---+     a position is the mask of Black's pieces,
      5 |13 |   |14 |   |15 |   |16 |   |     the mask of White's, the mask of kings
        +---+---+---+---+---+---+---+---+     (of either colour), the side to move and
      4 |   |17 |   |18 |   |19 |   |20 |     two counters.
        +---+---+---+---+---+---+---+---+
      3 |21 |   |22 |   |23 |   |24 |   |     Rows are counted from 0 at the top (squares
        +---+---+---+---+---+---+---+---+     1-4) to 7 at the bottom (squares 29-32).
      2 |   |25 |   |26 |   |27 |   |28 |
        +---+---+---+---+---+---+---+---+
      1 |29 |   |30 |   |31 |   |32 |   |
        +---+---+---+---+---+---+---+---+

Rules: men move one square diagonally forward, kings one square in any diagonal direction. A
capture jumps an adjacent enemy piece onto the empty square behind it; capturing is mandatory, and
a capturing piece must go on jumping while it can (the player chooses among capture sequences; there
is no rule to take the most). A man that reaches the far row is crowned and its move ends there,
even if as a king it could jump on. A piece is not jumped twice in one move. The side to move with no
legal move (no pieces, or all blocked) loses.

Draw rule, so that every game ends: when 80 plies (40 moves by each side) pass without a capture and
without a man moving, the game is drawn. A move that leaves the opponent without a legal move wins,
even when it is the 80th such ply. The count (``quiet``) and the number of plies played are part of
the state, but not of the position notation: a position read from FEN starts both at 0.

Move notation: ``11-15`` for a step, ``15x24`` for a capture and ``15x24x31`` for a multi-jump (every
landing square). A capture may be shortened to its ends, ``15x31``, when only one legal path fits;
``-`` and ``x`` are accepted for each other. A move is a tuple of square numbers: ``(11, 15)``,
``(15, 24, 31)``.

Position notation: FEN as used in PDN, the side to move then the pieces of each colour, kings
prefixed with ``K``, ranges allowed when reading: ``B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29``;
the initial position is ``B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12``.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Hashable, Iterator
from typing import Final, NamedTuple

from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.scores import Unit
from zermelo.core.state import Player

__all__ = [
    "BLACK",
    "DRAW_PLIES",
    "FEATURES",
    "INITIAL_FEN",
    "WHITE",
    "CheckersMove",
    "CheckersState",
    "perft",
]

CheckersMove = tuple[int, ...]
"""A move as the squares it visits: ``(11, 15)`` or ``(15, 24, 31)``."""

BLACK: Final = Player.FIRST
WHITE: Final = Player.SECOND
DRAW_PLIES: Final = 80
"""Plies without a capture or a man move after which the game is drawn."""
INITIAL_FEN: Final = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
FULL: Final = (1 << 32) - 1
_SIDES: Final = {0: BLACK, 1: WHITE}
_OTHER: Final = {BLACK: WHITE, WHITE: BLACK}


# -- geometry ---------------------------------------------------------------------------------


def _coords(square: int) -> tuple[int, int]:
    """Row and column (0-7, from Black's top-left corner) of the 0-based ``square``."""
    row = square // 4
    return row, 2 * (square % 4) + (1 if row % 2 == 0 else 0)


def _square_at(row: int, col: int) -> int | None:
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2


DIRECTIONS: Final = ((1, -1), (1, 1), (-1, -1), (-1, 1))
"""Down-left, down-right (Black's forward), up-left, up-right (White's forward)."""
_FORWARD: Final = {BLACK: (0, 1), WHITE: (2, 3)}
_ALL: Final = (0, 1, 2, 3)
_OPPOSITE: Final = (3, 2, 1, 0)


def _tables() -> tuple[
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, int] | None, ...], ...],
    tuple[tuple[tuple[int, int], ...], ...],
]:
    steps: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int] | None, ...]] = []
    groups: list[tuple[tuple[int, int], ...]] = []
    for dr, dc in DIRECTIONS:
        step_row: list[int] = []
        jump_row: list[tuple[int, int] | None] = []
        by_delta: dict[int, int] = {}
        for square in range(32):
            row, col = _coords(square)
            near = _square_at(row + dr, col + dc)
            far = _square_at(row + 2 * dr, col + 2 * dc)
            step_row.append(-1 if near is None else near)
            jump_row.append(None if near is None or far is None else (near, far))
            if near is not None:
                by_delta[near - square] = by_delta.get(near - square, 0) | 1 << square
        steps.append(tuple(step_row))
        jumps.append(tuple(jump_row))
        groups.append(tuple(sorted(by_delta.items())))
    return tuple(steps), tuple(jumps), tuple(groups)


STEP, JUMP, _GROUPS = _tables()
"""``STEP[d][s]``: the neighbour of square ``s`` in direction ``d`` (or -1); ``JUMP[d][s]``: the
square jumped over and the landing square (or None); ``_GROUPS[d]``: (shift, mask of the squares
that have a neighbour at that shift) pairs, to move whole bitboards one step in direction ``d``."""

_ROW_MASKS: Final = tuple(sum(1 << s for s in range(r * 4, r * 4 + 4)) for r in range(8))
_CROWN_ROW: Final = {BLACK: _ROW_MASKS[7], WHITE: _ROW_MASKS[0]}
_ADJACENT: Final = frozenset((s, t) for d in range(4) for s, t in enumerate(STEP[d]) if t >= 0)
_OVER: Final = {
    (s, jump[1]): jump[0] for d in range(4) for s, jump in enumerate(JUMP[d]) if jump is not None
}
"""(from, to) of every jump on the board, 0-based, mapped to the square jumped over."""


def _shift(pieces: int, direction: int) -> int:
    """Every square one step from ``pieces`` in ``direction`` (pieces on the edge fall off)."""
    moved = 0
    for delta, mask in _GROUPS[direction]:
        moved |= (pieces & mask) << delta if delta > 0 else (pieces & mask) >> -delta
    return moved


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# -- evaluation -----------------------------------------------------------------------------------


def _mask(squares: list[int]) -> int:
    return sum(1 << (s - 1) for s in squares)


_CENTRE: Final = _mask([10, 11, 14, 15, 18, 19, 22, 23])
_ADVANCED: Final = {
    # Rows 3-4 (the middle) count once, rows 5-6 (the opponent's side) twice.
    BLACK: (_ROW_MASKS[3] | _ROW_MASKS[4], _ROW_MASKS[5] | _ROW_MASKS[6]),
    WHITE: (_ROW_MASKS[4] | _ROW_MASKS[3], _ROW_MASKS[2] | _ROW_MASKS[1]),
}
_BACK_ROW: Final = {BLACK: _ROW_MASKS[0], WHITE: _ROW_MASKS[7]}

FEATURES: Final = (
    ("men", 100.0, "men of the side to move minus the opponent's"),
    ("kings", 140.0, "kings, likewise"),
    ("advancement", 4.0, "men in the middle rows count 1, deeper in the opponent's half 2"),
    ("back rank", 10.0, "men still guarding their own back row while the opponent has men"),
    ("centre", 5.0, "pieces on the eight central squares"),
    ("exchanges", 3.0, "when ahead in material, pieces already traded off (trade when ahead)"),
    ("pursuit", 2.0, "when ahead, minus how far the own kings stand from the nearest enemy piece"),
)
"""The evaluation f(s) = sum of w_i * x_i: (name, weight w_i, what x_i counts), every x_i from the
side to move's point of view (its count minus the opponent's). Scores are in hundredths of a man."""

MEN: Final = Unit(N_("{value} men"), 100.0)
"""Checkers values are hundredths of a man; people read them in men."""

_W_MEN, _W_KINGS, _W_ADVANCE, _W_BACK, _W_CENTRE, _W_EXCHANGE, _W_PURSUIT = (
    w for _, w, _ in FEATURES
)


def _within() -> tuple[tuple[int, ...], ...]:
    """``_WITHIN[s][d]``: the mask of the squares at most ``d`` king moves from ``s`` on an empty
    board (the larger of the row and column distances: each diagonal step changes both by one)."""
    table = []
    for a in range(32):
        ra, ca = _coords(a)
        distance = [max(abs(ra - rb), abs(ca - cb)) for rb, cb in map(_coords, range(32))]
        table.append(tuple(sum(1 << b for b in range(32) if distance[b] <= d) for d in range(8)))
    return tuple(table)


_WITHIN: Final = _within()


def _chase(hunters: int, hunted: int) -> int:
    """Sum over the ``hunters`` of the distance to the nearest of the ``hunted`` (0 if none)."""
    if not hunted:
        return 0
    total = 0
    while hunters:
        low = hunters & -hunters
        hunters ^= low
        rings = _WITHIN[low.bit_length() - 1]
        distance = 1
        while not rings[distance] & hunted:
            distance += 1
        total += distance
    return total


# -- move generation ------------------------------------------------------------------------------


def _captures_from(
    square: int, opponent: int, empty: int, directions: tuple[int, ...], crown: int
) -> list[CheckersMove]:
    """Every complete capture path of the piece on 0-based ``square`` (1-based in the result)."""
    paths: list[CheckersMove] = []

    def extend(at: int, taken: int, path: tuple[int, ...]) -> None:
        went_on = False
        for direction in directions:
            jump = JUMP[direction][at]
            if jump is None:
                continue
            over, land = jump
            over_bit, land_bit = 1 << over, 1 << land
            if opponent & over_bit and not taken & over_bit and empty & land_bit:
                went_on = True
                if land_bit & crown:
                    paths.append((*path, land + 1))  # crowned: the move ends here
                else:
                    extend(land, taken | over_bit, (*path, land + 1))
        if not went_on and len(path) > 1:
            paths.append(path)

    extend(square, 0, (square + 1,))
    return paths


def _jump_groups() -> tuple[tuple[int, int, int, int, int, int], ...]:
    """Per direction: the mask of squares with room to jump that way, the shift to the landing
    square (constant: 7 or 9 either way), and the two (shift, mask) pairs that step one square back
    against the direction."""
    groups = []
    for direction in _ALL:
        room = sum(1 << s for s, jump in enumerate(JUMP[direction]) if jump is not None)
        landing = {jump[1] - s for s, jump in enumerate(JUMP[direction]) if jump is not None}
        assert len(landing) == 1
        (d1, m1), (d2, m2) = _GROUPS[_OPPOSITE[direction]]
        groups.append((room, landing.pop(), d1, m1, d2, m2))
    return tuple(groups)


_JUMP_GROUPS: Final = _jump_groups()


def _jumpers(pieces: int, opponent: int, empty: int, direction: int) -> int:
    """The ``pieces`` that can jump in ``direction``: an enemy next, an empty square behind."""
    room, landing, d1, m1, d2, m2 = _JUMP_GROUPS[direction]
    # Squares from which the landing square (``landing`` away) is empty...
    behind = empty >> landing if landing > 0 else empty << -landing
    # ...and the next square holds an enemy: enemies stepped one square back.
    if d1 > 0:
        before = (opponent & m1) << d1 | (opponent & m2) << d2
    else:
        before = (opponent & m1) >> -d1 | (opponent & m2) >> -d2
    return pieces & room & behind & before


@functools.lru_cache(maxsize=1 << 16)
def _legal_moves(black: int, white: int, kings: int, side: Player) -> tuple[CheckersMove, ...]:
    """Legal moves in search order: captures (longest first), else steps (crowning first).

    Cached: the search asks for the moves of a state, then plays one of them, which checks it
    against the same list; and ``is_terminal`` needs to know whether any move exists.
    """
    own, opponent = (black, white) if side is BLACK else (white, black)
    empty = FULL & ~(black | white)
    men, own_kings = own & ~kings, own & kings
    forward = _FORWARD[side]
    crown = _CROWN_ROW[side]
    captures: list[CheckersMove] = []
    can_jump = 0
    for direction in _ALL:
        movers = own if direction in forward else own_kings
        can_jump |= _jumpers(movers, opponent, empty, direction)
    if can_jump:
        for square in _bits(can_jump):
            bit = 1 << square
            directions = _ALL if own_kings & bit else forward
            # The capturing piece leaves its square, so a king may pass through it again.
            captures.extend(
                _captures_from(
                    square, opponent, empty | bit, directions, 0 if kings & bit else crown
                )
            )
        captures.sort(key=lambda path: -len(path))
        return tuple(captures)
    crowning: list[CheckersMove] = []
    steps: list[CheckersMove] = []
    for direction in _ALL:
        movers = own if direction in forward else own_kings
        for delta, mask in _GROUPS[direction]:
            targets = ((movers & mask) << delta if delta > 0 else (movers & mask) >> -delta) & empty
            while targets:
                low = targets & -targets
                targets ^= low
                target = low.bit_length() - 1
                origin = target - delta
                if men >> origin & 1 and crown >> target & 1:
                    crowning.append((origin + 1, target + 1))
                else:
                    steps.append((origin + 1, target + 1))
    steps.sort()
    return tuple(crowning + steps)


# -- the state ------------------------------------------------------------------------------------


class CheckersState(NamedTuple):
    """An immutable checkers position. Build one with :meth:`initial` or :meth:`parse`.

    ``black`` and ``white`` are the masks of each side's pieces, ``kings`` the mask of the kings of
    both; ``quiet`` counts the plies since the last capture or man move (see :data:`DRAW_PLIES`),
    ``plies`` the moves played.
    """

    black: int
    white: int
    kings: int
    to_move: Player = BLACK
    quiet: int = 0
    plies: int = 0

    @classmethod
    def initial(cls, first: Player = BLACK) -> CheckersState:
        """The starting position. Black moves first in English draughts; ``first=WHITE`` gives
        the same men with White to move (a variant some books use), for front ends that let the
        side that starts be chosen."""
        return cls(_mask(list(range(1, 13))), _mask(list(range(21, 33))), 0, _SIDES[first])

    def __repr__(self) -> str:
        return f"CheckersState.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.plies

    def legal_moves(self) -> tuple[CheckersMove, ...]:
        """Captures (longest first) when there are any, else steps with crowning ones first;
        empty when the game is over."""
        if self.quiet >= DRAW_PLIES:
            return ()
        return _legal_moves(self.black, self.white, self.kings, self.to_move)

    def is_terminal(self) -> bool:
        return self.quiet >= DRAW_PLIES or not _legal_moves(
            self.black, self.white, self.kings, self.to_move
        )

    def value_unit(self) -> Unit:
        """Heuristic values (hundredths of a man) are shown in men."""
        return MEN

    def termination(self) -> str | None:
        """Why the game is over: ``"draw rule"`` (:data:`DRAW_PLIES` quiet plies), ``"no pieces"``
        (the side to move has none left) or ``"no moves"`` (it has pieces but cannot move);
        ``None`` while it runs."""
        if self.quiet >= DRAW_PLIES:
            return N_("draw rule")
        if _legal_moves(self.black, self.white, self.kings, self.to_move):
            return None
        own = self.black if self.to_move == BLACK else self.white
        return N_("no pieces") if own == 0 else N_("no moves")

    @property
    def winner(self) -> Player | None:
        """The opponent of a side left without a legal move; ``None`` otherwise (drawn or on)."""
        if _legal_moves(self.black, self.white, self.kings, self.to_move):
            return None
        return _OTHER[self.to_move]

    def has_capture(self) -> bool:
        """True when the side to move must capture (the position is not quiet)."""
        moves = self.legal_moves()
        return bool(moves) and (moves[0][0] - 1, moves[0][1] - 1) not in _ADJACENT

    def is_quiet(self) -> bool:
        """No capture pending: a static evaluation can be trusted here (see quiescence)."""
        return not self.has_capture()

    def play(self, move: CheckersMove) -> CheckersState:
        moves = self.legal_moves()
        if move not in moves:
            raise IllegalMoveError(self._illegal_message(move, moves))
        black, white, kings, side, quiet, plies = self
        origin, target = move[0] - 1, move[-1] - 1
        origin_bit, target_bit = 1 << origin, 1 << target
        captured = 0
        if len(move) > 2 or (origin, target) not in _ADJACENT:
            for a, b in itertools.pairwise(move):
                captured |= 1 << _OVER[a - 1, b - 1]
        was_king = kings & origin_bit
        kings &= ~(origin_bit | captured)
        if was_king or target_bit & _CROWN_ROW[side]:
            kings |= target_bit
        if side is BLACK:
            black = black & ~origin_bit | target_bit
            white &= ~captured
        else:
            white = white & ~origin_bit | target_bit
            black &= ~captured
        quiet = quiet + 1 if was_king and not captured else 0
        return CheckersState(black, white, kings, _OTHER[side], quiet, plies + 1)

    def _illegal_message(self, move: object, moves: tuple[CheckersMove, ...]) -> str:
        text = _describe(move)
        if not moves:
            return f"move {text} is not possible: the game is over ({self.notation()})"
        listed = ", ".join(_format(m) for m in moves)
        if len(moves) > 12:
            listed = ", ".join(_format(m) for m in moves[:12]) + ", ..."
        if isinstance(move, tuple):
            longer = [m for m in moves if len(m) > len(move) and m[: len(move)] == move]
            if longer:
                return f"move {text} must go on jumping: {' or '.join(_format(m) for m in longer)}"
        if self.has_capture():
            return f"move {text} is not legal: a capture is mandatory ({listed})"
        return f"move {text} is not legal; legal moves: {listed}"

    def key(self) -> Hashable:
        """The position without the ply count (which does not change the game's value)."""
        return (self.black, self.white, self.kings, self.to_move, self.quiet)

    # -- evaluation -------------------------------------------------------------------------

    def _terms(self) -> tuple[int, int, int, int, int, int, int]:
        """The x_i of :data:`FEATURES`, in order, from the side to move."""
        black, white, kings, side = self.black, self.white, self.kings, self.to_move
        own, opponent = (black, white) if side is BLACK else (white, black)
        other = _OTHER[side]
        own_men, opp_men = own & ~kings, opponent & ~kings
        own_kings, opp_kings = own & kings, opponent & kings
        men = own_men.bit_count() - opp_men.bit_count()
        king_count = own_kings.bit_count() - opp_kings.bit_count()
        middle, deep = _ADVANCED[side]
        opp_middle, opp_deep = _ADVANCED[other]
        advancement = (
            (own_men & middle).bit_count()
            + 2 * (own_men & deep).bit_count()
            - (opp_men & opp_middle).bit_count()
            - 2 * (opp_men & opp_deep).bit_count()
        )
        back = 0
        if opp_men:
            back += (own_men & _BACK_ROW[side]).bit_count()
        if own_men:
            back -= (opp_men & _BACK_ROW[other]).bit_count()
        centre = (own & _CENTRE).bit_count() - (opponent & _CENTRE).bit_count()
        material = men * _W_MEN + king_count * _W_KINGS
        traded = 24 - (own | opponent).bit_count()
        exchanges = pursuit = 0
        if material > 0:
            exchanges = traded
            if own_kings:
                pursuit = -_chase(own_kings, opponent)
        elif material < 0:
            exchanges = -traded
            if opp_kings:
                pursuit = _chase(opp_kings, own)
        return men, king_count, advancement, back, centre, exchanges, pursuit

    def features(self) -> dict[str, int]:
        """The x_i of :data:`FEATURES` for this position, from the side to move."""
        return {name: value for (name, _, _), value in zip(FEATURES, self._terms(), strict=True)}

    def explain(self) -> list[tuple[str, float, int]]:
        """The evaluation term by term: (feature, weight w_i, value x_i); ``evaluate()`` is the sum
        of the w_i * x_i. Front ends print it to show why a position scores what it does."""
        return [
            (name, weight, value)
            for (name, weight, _), value in zip(FEATURES, self._terms(), strict=True)
        ]

    def evaluate(self) -> float:
        """f(s) = sum of w_i * x_i over :data:`FEATURES`, from the side to move."""
        men, king_count, advancement, back, centre, exchanges, pursuit = self._terms()
        return float(
            men * _W_MEN
            + king_count * _W_KINGS
            + advancement * _W_ADVANCE
            + back * _W_BACK
            + centre * _W_CENTRE
            + exchanges * _W_EXCHANGE
            + pursuit * _W_PURSUIT
        )

    # -- notation ---------------------------------------------------------------------------

    def piece(self, square: int) -> str:
        """What stands on ``square`` (1-32): ``"b"``/``"w"`` for men, ``"B"``/``"W"`` for kings,
        ``""`` when it is empty."""
        bit = 1 << (square - 1)
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        return ""

    def notation(self) -> str:
        """The position in PDN FEN, men then kings in square order for each colour."""
        side = "B" if self.to_move is BLACK else "W"
        parts = [side]
        for letter, pieces in (("W", self.white), ("B", self.black)):
            men = [str(s + 1) for s in _bits(pieces & ~self.kings)]
            kings = ["K" + str(s + 1) for s in _bits(pieces & self.kings)]
            parts.append(letter + ",".join(men + kings))
        return ":".join(parts)

    def parse_move(self, text: str) -> CheckersMove:
        """A move such as ``11-15``, ``15x24`` or ``15x24x31``; a capture given by its ends
        (``15x31``) or with squares left out is completed from the legal moves when one path fits.
        Raises :class:`ParseError` quoting ``text`` when it is not move notation."""
        squares = _parse_squares(text)
        pairs = list(itertools.pairwise(squares))
        zero = [(a - 1, b - 1) for a, b in pairs]
        if len(squares) == 2 and zero[0] in _ADJACENT:
            return squares
        if all(pair in _OVER for pair in zero):
            return squares
        fits = self.completions(squares)
        if len(fits) == 1:
            return fits[0]
        if not fits:
            raise IllegalMoveError(self._illegal_message(squares, self.legal_moves()))
        raise ParseError(
            f"ambiguous move {text!r}: it fits {', '.join(_format(m) for m in fits)}; "
            "give the squares in between"
        )

    def completions(self, squares: CheckersMove) -> list[CheckersMove]:
        """The legal moves that start and end on the first and last of ``squares`` and pass the
        others in order: the moves a shortened capture such as ``(15, 31)`` may mean."""
        return [m for m in self.legal_moves() if _visits(m, squares)]

    @staticmethod
    def format_move(move: CheckersMove) -> str:
        return _format(move)

    @classmethod
    def parse(cls, text: str) -> CheckersState:
        """A state from PDN FEN such as ``"B:W21-32:B1-12"`` (also with ``K`` kings, a final
        ``.``, spaces, lower case). Raises :class:`ParseError` or :class:`InvalidPositionError`
        quoting ``text``."""
        cleaned = re.sub(r"\s+", "", text).rstrip(".").upper()
        fields = cleaned.split(":")
        expected = (
            "expected FEN such as 'B:W21-32:B1-12' (side to move, then each colour's squares)"
        )
        if len(fields) != 3 or fields[0] not in ("B", "W"):
            raise ParseError(f"invalid position {text!r}: {expected}")
        pieces: dict[str, tuple[int, int]] = {}
        for field_text in fields[1:]:
            colour = field_text[:1]
            if colour not in ("B", "W") or colour in pieces:
                raise ParseError(
                    f"invalid position {text!r}: {expected}; each colour once, as W... and B..."
                )
            pieces[colour] = _parse_pieces(text, field_text[1:])
        (black, black_kings), (white, white_kings) = pieces["B"], pieces["W"]
        both = black & white
        if both:
            listed = ", ".join(str(s + 1) for s in _bits(both))
            raise InvalidPositionError(
                f"impossible position {text!r}: square {listed} holds both a black and a white piece"
            )
        for name, own, own_kings, crown in (
            ("Black", black, black_kings, _CROWN_ROW[BLACK]),
            ("White", white, white_kings, _CROWN_ROW[WHITE]),
        ):
            if own.bit_count() > 12:
                raise InvalidPositionError(
                    f"impossible position {text!r}: {name} has {own.bit_count()} pieces; at most 12"
                )
            uncrowned = own & ~own_kings & crown
            if uncrowned:
                listed = ", ".join(str(s + 1) for s in _bits(uncrowned))
                raise InvalidPositionError(
                    f"impossible position {text!r}: {name} has a man on {listed}, its crowning "
                    "row; it would be a king (write K before the square)"
                )
        to_move = BLACK if fields[0] == "B" else WHITE
        return cls(black, white, black_kings | white_kings, to_move)


def _parse_pieces(text: str, listing: str) -> tuple[int, int]:
    """The pieces and the kings of one colour's FEN list (``"18,24,K10"``; ranges ``"1-12"``)."""
    pieces = kings = 0
    if not listing:
        return 0, 0
    for item in listing.split(","):
        king = item.startswith("K")
        body = item[1:] if king else item
        match = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", body)
        if match is None:
            raise ParseError(
                f"invalid position {text!r}: {item!r} is not a square; expected a number from "
                "1 to 32, K before a king, or a range such as 1-12"
            )
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        for square in range(first, last + 1):
            if not 1 <= square <= 32:
                raise ParseError(
                    f"invalid position {text!r}: square {square} is off the board; "
                    "squares are numbered 1 to 32"
                )
            bit = 1 << (square - 1)
            if pieces & bit:
                raise InvalidPositionError(
                    f"impossible position {text!r}: square {square} is listed twice"
                )
            pieces |= bit
            if king:
                kings |= bit
        if first > last:
            raise ParseError(f"invalid position {text!r}: range {item!r} runs backwards")
    return pieces, kings


_MOVE_RE: Final = re.compile(r"\d{1,2}(?:\s*[-xX:]\s*\d{1,2})+")


def _parse_squares(text: str) -> CheckersMove:
    stripped = text.strip()
    if not _MOVE_RE.fullmatch(stripped):
        raise ParseError(
            f"invalid move {text!r}: expected squares 1-32 joined by '-' for a step or 'x' for "
            "a capture, e.g. 11-15 or 15x24x31"
        )
    squares = tuple(int(part) for part in re.split(r"\s*[-xX:]\s*", stripped))
    for square in squares:
        if not 1 <= square <= 32:
            raise ParseError(
                f"invalid move {text!r}: square {square} is off the board; squares are 1 to 32"
            )
    return squares


def _visits(move: CheckersMove, squares: CheckersMove) -> bool:
    """True when ``move`` starts and ends where ``squares`` do and passes its other squares in
    order."""
    if move[0] != squares[0] or move[-1] != squares[-1] or len(move) < len(squares):
        return False
    rest = iter(move[1:-1])
    return all(any(square == seen for seen in rest) for square in squares[1:-1])


def _format(move: CheckersMove) -> str:
    if len(move) == 2 and (move[0] - 1, move[1] - 1) in _ADJACENT:
        return f"{move[0]}-{move[1]}"
    return "x".join(str(square) for square in move)


def _describe(move: object) -> str:
    if isinstance(move, tuple) and all(isinstance(s, int) for s in move) and len(move) >= 2:
        return repr(_format(move))
    return repr(move)


# -- perft ----------------------------------------------------------------------------------------


def _codec_rows(state: CheckersState) -> list[str]:
    """The board as 8 rows of text from the top, one character per square (light squares are
    spaces, empty dark squares dots)."""
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            square = r * 4 + c // 2 + 1 if (r + c) % 2 else 0
            row += (state.piece(square) or ".") if square else " "
        rows.append(row)
    return rows


class _Perft:
    def count_leaves(self, state: CheckersState, depth: int) -> int:
        return perft(state, depth)


PERFT: Final = _Perft()
"""The record's :class:`~zermelo.core.capabilities.Perft`: :func:`perft`."""


def perft(state: CheckersState, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``state`` (the standard move-generator
    check; a multi-jump counts as one move)."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


def _new(first: Player = BLACK) -> CheckersState:
    return CheckersState.initial(first)


def _grid(state: CheckersState) -> Grid:
    """The ``draughts`` board: 8x8 with Black at the top, the dark squares numbered 1-32 as in
    checkers books, each holding its piece (``b``/``w`` men, ``B``/``W`` kings)."""
    squares = [[_square_at(row, col) for col in range(8)] for row in range(8)]
    return Grid.of(
        [["" if square is None else state.piece(square + 1) for square in row] for row in squares],
        [[None if square is None else str(square + 1) for square in row] for row in squares],
    )


_INTRO: Final = (
    N_("Black (b, kings B) starts on squares 1-12 and moves first; White (w, kings W) on 21-32."),
    N_("Type a move as 11-15, a capture as 15x24, a multi-jump as 15x24x31; ? lists the moves."),
    N_("Captures are mandatory; a man reaching the far row is crowned king."),
    N_("40 moves each without a capture or a man move is a draw."),
)


# Every level searches with quiescence around the evaluation (a capture pending at the horizon is
# played out before the position is judged); values are in hundredths of a man. Easy: 2 plies and
# noise of 0.6 men (it takes what is offered, sees one-move shots, walks into two-move
# combinations); medium: 4 plies and noise of 0.1 men; hard: iterative deepening for the time per
# move (1 s unless asked otherwise), no noise.
SPEC: Final = GameSpec(
    name="checkers",
    title=N_("Checkers"),
    new=_new,
    parse=CheckersState.parse,
    aliases=("draughts", "english-draughts"),
    first_mover=BLACK,
    # English here, so that --human black works in every language; shown translated.
    sides=(N_("Black"), N_("White")),
    default_time=1.0,
    levels={
        "easy": "engine:depth=2,noise=60,quiescent=yes",
        "medium": "engine:depth=4,noise=10,quiescent=yes",
        "hard": "engine:time=1,quiescent=yes",
    },
    board="draughts",
    grid=_grid,
    intro=_INTRO,
    notation="squares 1-32 joined by - for a move (11-15) or x for a capture (15x24x31)",
    perft=Ref("zermelo.games.checkers:PERFT"),
    # Squares are numbered 1 to 32; token 0 is never legal. A game ends by the draw rules well
    # within 20,000 squares of moves.
    codec=Codec[CheckersState](
        lambda state: 33, _codec_rows, ("bB", "wW"), max_length=lambda state: 20_000
    ),
)
