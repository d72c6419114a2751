"""Stand-ins for the international and dama states, for the boards' tests: positions on the real
draughts kernel with the states' interface that the boards read (legal moves, notation, the grid,
``RULES`` and ``kernel_move``), and nothing of any game's own files.

International moves are 1-based square numbers and its captures are written short (``19x30``),
as the game writes them where the ends say enough; dama's moves are 0-based indices written by
their names (``d4xd6xf6``). So the boards cannot read a move's squares from its notation alone."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.record import GameSpec, Grid
from zermelo.core.state import Player
from zermelo.games.draughts import kernel
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL, KMove, Rules

Move = tuple[int, ...]


@dataclass(frozen=True)
class _Fake:
    white: int
    black: int
    kings: int
    side: int = 0

    RULES: ClassVar[Rules]
    BASE: ClassVar[int]

    @property
    def to_move(self) -> Player:
        return Player(self.side)

    @property
    def ply(self) -> int:
        return 0

    @property
    def winner(self) -> Player | None:
        return None

    def _kernel(self) -> tuple[KMove, ...]:
        return kernel.legal(self.RULES, self.white, self.black, self.kings, self.side)

    def legal_moves(self) -> list[Move]:
        return [tuple(sq + self.BASE for sq in k.path) for k in self._kernel()]

    def kernel_move(self, move: Move) -> KMove:
        for k in self._kernel():
            if tuple(sq + self.BASE for sq in k.path) == tuple(move):
                return k
        raise IllegalMoveError(f"move {move!r} is illegal")

    def play(self, move: Hashable) -> _Fake:
        if not isinstance(move, tuple):
            raise IllegalMoveError(f"move {move!r} is illegal")
        white, black, kings = kernel.play(
            self.RULES, self.white, self.black, self.kings, self.side, self.kernel_move(move)
        )
        return type(self)(white, black, kings, 1 - self.side)

    def is_terminal(self) -> bool:
        return not self._kernel()

    def piece(self, sq: int) -> str:
        bit = 1 << sq
        letter = "w" if self.white & bit else "b" if self.black & bit else ""
        return letter.upper() if self.kings & bit else letter

    def notation(self) -> str:
        return f"{self.white}:{self.black}:{self.kings}:{self.side}"

    def key(self) -> Hashable:
        return self

    def format_move(self, move: Move) -> str:
        capture = bool(self.kernel_move(move).captured)
        names = [self.RULES.square_name(sq - self.BASE) for sq in move]
        return ("x" if capture else "-").join(names)

    def parse_move(self, text: str) -> Move:
        for move in self.legal_moves():
            if self.format_move(move) == text or self._full(move) == text:
                return move
        raise ParseError(f"move {text!r}: not a legal move here")

    def _full(self, move: Move) -> str:
        capture = bool(self.kernel_move(move).captured)
        return ("x" if capture else "-").join(self.RULES.square_name(sq - self.BASE) for sq in move)


class FakeInternational(_Fake):
    RULES = INTERNATIONAL
    BASE = 1

    def format_move(self, move: Move) -> str:
        """A capture by its ends (``19x30``) unless another capture has the same ends."""
        if not self.kernel_move(move).captured:
            return f"{move[0]}-{move[-1]}"
        same = [m for m in self.legal_moves() if (m[0], m[-1]) == (move[0], move[-1])]
        if len(same) > 1:
            return "x".join(str(sq) for sq in move)
        return f"{move[0]}x{move[-1]}"


class FakeDama(_Fake):
    RULES = DAMA
    BASE = 0


def fake_grid(state: _Fake) -> Grid:
    rules = state.RULES
    size = rules.size
    cells = [["" for _ in range(size)] for _ in range(size)]
    names: list[list[str | None]] = [[None] * size for _ in range(size)]
    for sq in range(rules.squares):
        row, col = rules.coords(sq)
        cells[row][col] = state.piece(sq)
        names[row][col] = rules.square_name(sq)
    files = [chr(97 + c) for c in range(size)]
    ranks = [str(size - r) for r in range(size)]
    return Grid.of(cells, names, files=files, ranks=ranks)


def masks(rules: Rules, *names: str) -> int:
    """The mask of the squares named."""
    total = 0
    for name in names:
        sq = rules.square_of(name)
        assert sq is not None, name
        total |= 1 << sq
    return total


def international_start() -> FakeInternational:
    return FakeInternational(
        masks(INTERNATIONAL, *map(str, range(31, 51))),
        masks(INTERNATIONAL, *map(str, range(1, 21))),
        0,
    )


def dama_start() -> FakeDama:
    white = masks(DAMA, *(f"{f}{r}" for f in "abcdefgh" for r in "23"))
    black = masks(DAMA, *(f"{f}{r}" for f in "abcdefgh" for r in "67"))
    return FakeDama(white, black, 0)


def spec_of(name: str, start: _Fake) -> GameSpec:
    return GameSpec(
        name=name,
        title=name,
        new=lambda **_: start,
        parse=lambda text: start,
        board="draughts",
        grid=fake_grid,
        sides=("White", "Black"),
    )
