"""Nim, as a zermelo game that lives in a package of its own.

Rules (normal play): a few heaps of stones; a move takes one or more stones from a single heap;
whoever takes the last stone wins. The classic start has heaps of 1, 3, 5 and 7 stones.

Notation. A move is ``HEAP-COUNT``: ``2-3`` takes three stones from the second heap (heaps are
numbered from 1). A position is the heap sizes joined by dots and the side to move, ``x`` (the
first player) or ``o``: ``1.3.5.7 x`` is the classic start.

Bouton's theorem (1901) gives the value of every position: the side to move loses exactly when
the bitwise exclusive or of the heap sizes (the *nim-sum*) is zero. The engine does not know it;
the tests check that its search finds it.

This module imports only ``zermelo.core``: the record below is everything zermelo's command line,
terminal game, arena, web API and page need.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Hashable
from typing import NamedTuple

from zermelo.core import (
    GameSpec,
    Grid,
    IllegalMoveError,
    IntOption,
    InvalidPositionError,
    ParseError,
    Player,
)
from zermelo.core.codec import Codec
from zermelo.core.record import N_

__all__ = ["CODEC", "MAX_HEAP", "MAX_HEAPS", "SPEC", "NimState", "nim_sum"]

MAX_HEAPS = 6
MAX_HEAP = 11
_SIDES = {"x": Player.FIRST, "o": Player.SECOND}

Move = tuple[int, int]
"""A heap index (from 0) and how many stones to take from it."""


def nim_sum(heaps: tuple[int, ...]) -> int:
    """The exclusive or of the heap sizes: zero exactly when the side to move loses."""
    return functools.reduce(operator.xor, heaps, 0)


class NimState(NamedTuple):
    """A Nim position: the heap sizes, the side to move and the number of moves played."""

    heaps: tuple[int, ...]
    to_move: Player = Player.FIRST
    ply: int = 0

    @classmethod
    def initial(cls, heaps: int = 4, first: Player = Player.FIRST) -> NimState:
        """Heaps of 1, 3, 5, ... stones (``heaps`` of them), ``first`` to move."""
        if not 1 <= heaps <= MAX_HEAPS:
            raise InvalidPositionError(f"heaps={heaps}: expected 1 to {MAX_HEAPS} heaps")
        return cls(tuple(2 * i + 1 for i in range(heaps)), Player(first))

    @classmethod
    def parse(cls, text: str) -> NimState:
        """Read ``1.3.5.7 x``; the side may be left out (then ``x`` moves)."""
        parts = text.split()
        if not 1 <= len(parts) <= 2:
            raise ParseError(
                f"invalid Nim position {text!r}: expected heaps and a side, like 1.3.5.7 x"
            )
        sizes = parts[0].split(".")
        if not all(size.isascii() and size.isdigit() and len(size) <= 2 for size in sizes):
            raise ParseError(
                f"invalid Nim position {text!r}: heap sizes are numbers joined by dots"
            )
        heaps = tuple(int(size) for size in sizes)
        if len(heaps) > MAX_HEAPS or max(heaps) > MAX_HEAP:
            raise InvalidPositionError(
                f"invalid Nim position {text!r}: at most {MAX_HEAPS} heaps of at most {MAX_HEAP}"
            )
        side = parts[1].lower() if len(parts) == 2 else "x"
        if side not in _SIDES:
            raise ParseError(f"invalid Nim position {text!r}: the side to move is x or o")
        return cls(heaps, _SIDES[side])

    @property
    def winner(self) -> Player | None:
        """Whoever took the last stone: the side that is not to move once the heaps are empty."""
        return self.to_move.opponent if self.is_terminal() else None

    def is_terminal(self) -> bool:
        return not any(self.heaps)

    def termination(self) -> str | None:
        """Why the game is over: the ``"last stone taken"``; ``None`` while stones are left.
        (zermelo's catalogs translate this message id.)"""
        return N_("last stone taken") if self.is_terminal() else None

    def legal_moves(self) -> list[Move]:
        """Taking the most stones first, heap by heap: big moves end the game sooner."""
        return [
            (heap, count) for heap, size in enumerate(self.heaps) for count in range(size, 0, -1)
        ]

    def play(self, move: Move) -> NimState:
        heap, count = move
        if not (0 <= heap < len(self.heaps) and 1 <= count <= self.heaps[heap]):
            raise IllegalMoveError(
                f"move {self.format_move(move)!r} is illegal: heap {heap + 1} holds "
                f"{self.heaps[heap] if 0 <= heap < len(self.heaps) else 'nothing'}"
            )
        heaps = (*self.heaps[:heap], self.heaps[heap] - count, *self.heaps[heap + 1 :])
        return NimState(heaps, self.to_move.opponent, self.ply + 1)

    def evaluate(self) -> float:
        """No heuristic: Nim is read to the end, or to the horizon of a weaker level."""
        return 0.0

    def key(self) -> tuple[tuple[int, ...], Player]:
        """The heaps in any order are the same position."""
        return tuple(sorted(self.heaps)), self.to_move

    def notation(self) -> str:
        side = "x" if self.to_move is Player.FIRST else "o"
        return ".".join(str(size) for size in self.heaps) + " " + side

    def parse_move(self, text: str) -> Move:
        heap_text, dash, count_text = text.strip().partition("-")
        if not (dash and heap_text.isdigit() and count_text.isdigit() and len(text) <= 8):
            raise ParseError(f"invalid Nim move {text!r}: expected HEAP-COUNT, such as 2-3")
        return int(heap_text) - 1, int(count_text)

    def format_move(self, move: Move) -> str:
        heap, count = move
        return f"{heap + 1}-{count}"


def _new(heaps: int = 4, first: Player = Player.FIRST) -> NimState:
    return NimState.initial(heaps, first)


def _grid(state: NimState) -> Grid:
    """One row per heap, one cell per stone; a click on a stone takes it and those to its right."""
    width = max(state.heaps, default=0)
    return Grid.of(
        [["●" if col < size else "" for col in range(width)] for size in state.heaps],
        [
            [state.format_move((heap, size - col)) if col < size else None for col in range(width)]
            for heap, size in enumerate(state.heaps)
        ],
    )


def _tokens(move: Hashable) -> tuple[int, ...]:
    """A move as one action number: ``heap * MAX_HEAP + count - 1``."""
    if not (isinstance(move, tuple) and len(move) == 2):
        raise IllegalMoveError(f"move {move!r}: expected a heap and a count")
    heap, count = move
    return (int(heap) * MAX_HEAP + int(count) - 1,)


def _rows(state: NimState) -> list[str]:
    """One row per heap, one cell per stone it could hold: ``*`` a stone, ``.`` none."""
    return ["*" * size + "." * (MAX_HEAP - size) for size in state.heaps]


CODEC = Codec[NimState](
    lambda state: MAX_HEAPS * MAX_HEAP,
    _rows,
    ("X", "O"),  # no stone is a player's: both planes of the players stay empty
    tokens=_tokens,
    shared="*",
    max_length=lambda state: max(sum(state.heaps), 1),  # every move takes a stone
)
"""Nim as numbered actions and board planes, for OpenSpiel and PettingZoo."""


SPEC = GameSpec(
    name="nim",
    title="Nim",
    new=_new,
    parse=NimState.parse,
    options=(IntOption("heaps", "number of heaps, of 1, 3, 5, ... stones", 1, MAX_HEAPS, 4),),
    levels={
        "easy": "engine:depth=1,noise=1",
        "medium": "engine:depth=3,noise=1",
        "hard": "engine",
    },
    board="grid",
    grid=_grid,
    quick=True,
    notation="HEAP-COUNT, such as 2-3 to take three stones from heap 2",
    intro=("Take one or more stones from one heap; whoever takes the last stone wins.",),
    codec=CODEC,
)
"""Nim's record: the one value zermelo reads (named by the ``zermelo.games`` entry point)."""
