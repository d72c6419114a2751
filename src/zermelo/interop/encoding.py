"""zermelo's games as numbered actions and board planes, the shape OpenSpiel and PettingZoo expect.

Everything here is read from the game's record: its :class:`~zermelo.core.codec.Codec` (see there
for the tokens and the planes). Every game whose record holds a codec, a plugin's as well as a
built-in one, is an OpenSpiel game and a PettingZoo environment; nothing here knows a game by name.

Actions
    A move is written as a sequence of tokens, each a whole number below :meth:`GameCodec.actions`.
    An environment takes one token per step, and the same player keeps the turn until the tokens
    make a whole legal move (:class:`Turn`). The legal moves must be prefix-free (a capture must be
    completed), so a whole move is never the start of another.

Observations
    :meth:`GameCodec.planes` is the board from one player's side as a ``rows x columns x planes``
    array of 0 and 1: first the player's own pieces, then the opponent's (checkers: own men, own
    kings, the opponent's men, its kings), then the pieces of neither player, rows from the top as
    the game draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, UnknownGameError
from zermelo.core.record import GameSpec
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import all_games, get_game

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "GameCodec",
    "Tokens",
    "Turn",
    "codec_for",
    "codec_games",
    "native_codec",
    "native_names",
    "reach",
    "tokens_of",
]

Tokens = Callable[[Hashable], tuple[int, ...]]
"""How a move is written as tokens."""


def tokens_of(move: Hashable) -> tuple[int, ...]:
    """The generic tokens of a move: a whole number is one token, a tuple a path of them."""
    if isinstance(move, tuple):
        return tuple(int(token) for token in move)
    if isinstance(move, int):
        return (int(move),)
    raise IllegalMoveError(f"move {move!r}: expected a whole number or a tuple of them")


@dataclass(frozen=True)
class GameCodec:
    """One zermelo game's record and its codec, with what the bridges compute from them."""

    spec: GameSpec
    codec: Codec

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def tokens(self) -> Tokens:
        return self.codec.tokens or tokens_of

    def actions(self, state: AnyState) -> int:
        return self.codec.count(state)

    def plane_marks(self, player: Player) -> str:
        """The characters of the planes from ``player``'s side, one per plane, in order."""
        own, other = self.codec.pieces[int(player)], self.codec.pieces[1 - int(player)]
        return own + other + self.codec.shared

    def shape(self, state: AnyState) -> tuple[int, int, int]:
        rows = self.codec.rows(state)
        return len(rows), len(rows[0]), len(self.plane_marks(Player.FIRST))

    def max_length(self, start: AnyState) -> int:
        """The most tokens in a game from ``start``: the codec's bound, or one per cell."""
        if self.codec.max_length is not None:
            return self.codec.max_length(start)
        rows, cols, _ = self.shape(start)
        return rows * cols

    def planes(self, state: AnyState, player: Player) -> NDArray[np.int8]:
        """The board from ``player``'s side (own pieces' planes first), as an ``int8`` array."""
        import numpy as np

        rows = self.codec.rows(state)
        marks = self.plane_marks(player)
        board = np.zeros((len(rows), len(rows[0]), len(marks)), dtype=np.int8)
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                plane = marks.find(mark)
                if plane >= 0:
                    board[r, c, plane] = 1
        return board

    def text(self, state: AnyState) -> str:
        """The board as plain text rows, then whose turn it is or how the game ended."""
        pieces = self.codec.pieces
        lines = [" ".join(row) for row in self.codec.rows(state)]
        if state.is_terminal():
            winner = state.winner
            lines.append("draw" if winner is None else f"{pieces[int(winner)][0]} wins")
        else:
            lines.append(f"{pieces[int(state.to_move)][0]} to move")
        return "\n".join(lines)


def _with_codec(spec: GameSpec) -> GameCodec | None:
    return None if spec.codec is None else GameCodec(spec, spec.codec)


def codec_games() -> tuple[str, ...]:
    """The zermelo games that have a codec (so an OpenSpiel game and a PettingZoo environment),
    built-in ones first, then plugins."""
    return tuple(spec.name for spec in all_games() if spec.codec is not None)


def codec_for(game: str) -> GameCodec:
    """The codec of the zermelo game ``game`` (a name or an alias)."""
    found = _with_codec(get_game(game))
    if found is None:
        raise UnknownGameError(
            f"game {game!r} has no action encoding: expected one of {', '.join(codec_games())}"
        )
    return found


Outside = Literal["openspiel", "pettingzoo"]


def _native(codec: Codec, outside: Outside) -> str | None:
    return codec.openspiel_native if outside == "openspiel" else codec.pettingzoo_native


def native_names(outside: Outside) -> dict[str, str]:
    """The outside games (OpenSpiel's or PettingZoo's) that are a zermelo game, and its name."""
    found: dict[str, str] = {}
    for spec in all_games():
        native = None if spec.codec is None else _native(spec.codec, outside)
        if native is not None:
            found[native] = spec.name
    return found


def native_codec(outside: Outside, name: str) -> GameCodec | None:
    """The codec of the zermelo game that the outside game ``name`` is, or ``None``."""
    game = native_names(outside).get(name)
    return None if game is None else codec_for(game)


def reach(game: GameCodec, start: AnyState, target: Sequence[str], budget: int) -> AnyState | None:
    """A state reached from ``start`` whose board rows are ``target``, or ``None``.

    For games whose moves only add pieces (drop and place games): the search plays, depth
    first, only moves that keep every piece on the board where ``target`` has the same piece,
    so a state on the way never holds a piece ``target`` lacks. At most ``budget`` states are
    visited."""
    marks = set(game.plane_marks(Player.FIRST))
    wanted = sum(1 for row in target for mark in row if mark in marks)
    seen: set[tuple[str, ...]] = set()
    left = budget

    def fits(rows: list[str]) -> int | None:
        if len(rows) != len(target):
            return None
        count = 0
        for row, goal in zip(rows, target, strict=True):
            if len(row) != len(goal):
                return None
            for mark, want in zip(row, goal, strict=True):
                if mark in marks:
                    if mark != want:
                        return None
                    count += 1
        return count

    def search(state: AnyState, placed: int) -> AnyState | None:
        nonlocal left
        if placed == wanted:
            return state
        left -= 1
        if left < 0 or state.is_terminal():
            return None
        for move in state.legal_moves():
            child = state.play(move)
            rows = game.codec.rows(child)
            board = tuple(rows)  # not the state's key: that may fold symmetric boards together
            if board in seen:
                continue
            seen.add(board)
            count = fits(rows)
            if count is not None and count > placed:
                found = search(child, count)
                if found is not None:
                    return found
        return None

    first = fits(game.codec.rows(start))
    if first is None:
        raise InvalidPositionError(
            f"a {game.name} board of another shape than the start position's"
        )
    return search(start, first)


class Turn:
    """The tokens played so far in one turn of ``state``: which may come next, and the whole
    move once they form one. ``tokens`` writes a move as its tokens (the codec's)."""

    def __init__(self, state: AnyState, tokens: Tokens = tokens_of) -> None:
        self.state = state
        self.prefix: tuple[int, ...] = ()
        self._moves: list[tuple[tuple[int, ...], Hashable]] = [
            (tokens(move), move) for move in state.legal_moves()
        ]

    def legal_tokens(self) -> list[int]:
        """The tokens that continue a legal move, ascending."""
        n = len(self.prefix)
        found = set()
        for tokens, _ in self._moves:
            if tokens[:n] == self.prefix and len(tokens) > n:
                found.add(tokens[n])
        return sorted(found)

    def add(self, token: int) -> Hashable | None:
        """Play ``token``; the whole move when it completes one, else ``None``."""
        if token not in self.legal_tokens():
            raise IllegalMoveError(
                f"action {token!r} is not legal here; expected one of {self.legal_tokens()}"
            )
        self.prefix = (*self.prefix, token)
        for tokens, move in self._moves:
            if tokens == self.prefix:
                return move
        return None

    def move_of(self, token: int) -> Hashable | None:
        """The whole move that ``token`` would complete, or ``None``."""
        wanted = (*self.prefix, token)
        return next((move for tokens, move in self._moves if tokens == wanted), None)
