"""zermelo's games as numbered actions and board planes, the shape OpenSpiel and PettingZoo expect.

Actions
    A move is written as a sequence of tokens, each a whole number below :meth:`GameCodec.actions`:
    a drop or place game's move is its one number (a tic-tac-toe square, a Connect Four column,
    an m,n,k point); a checkers move is its path of squares (``(11, 15)``, ``(15, 24, 31)``), one
    token per square. An environment takes one token per step, and the same player keeps the turn
    until the tokens make a whole legal move (:class:`Turn`). The legal moves of every game here
    are prefix-free (a capture must be completed), so a whole move is never the start of another.

Observations
    :meth:`GameCodec.planes` is the board from one player's side as a ``rows x columns x planes``
    array of 0 and 1: first the player's own pieces, then the opponent's (checkers: own men, own
    kings, the opponent's men, its kings), rows from the top as the game draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zermelo.core.errors import IllegalMoveError, UnknownGameError
from zermelo.core.state import Player
from zermelo.games.registry import get_game

__all__ = ["CODEC_NAMES", "GameCodec", "Turn", "codec_for", "tokens_of"]


@dataclass(frozen=True)
class GameCodec:
    """How one zermelo game maps onto numbered actions and board planes.

    ``count(state)`` is the number of distinct tokens, ``rows(state)`` the board as text rows from
    the top, and ``pieces[p]`` the characters of player ``p``'s pieces (one plane each)."""

    name: str
    count: Callable[[Any], int]
    rows: Callable[[Any], list[str]]
    pieces: tuple[str, str]

    def actions(self, state: Any) -> int:
        return self.count(state)

    def shape(self, state: Any) -> tuple[int, int, int]:
        rows = self.rows(state)
        return len(rows), len(rows[0]), 2 * len(self.pieces[0])

    def planes(self, state: Any, player: Player) -> Any:
        """The board from ``player``'s side (own pieces' planes first), as an ``int8`` array."""
        import numpy as np

        rows = self.rows(state)
        own, other = self.pieces[int(player)], self.pieces[1 - int(player)]
        marks = own + other
        board = np.zeros((len(rows), len(rows[0]), len(marks)), dtype=np.int8)
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                plane = marks.find(mark)
                if plane >= 0:
                    board[r, c, plane] = 1
        return board

    def text(self, state: Any) -> str:
        """The board as plain text rows, then whose turn it is or how the game ended."""
        lines = [" ".join(row) for row in self.rows(state)]
        if state.is_terminal():
            winner = state.winner
            lines.append("draw" if winner is None else f"{self.pieces[int(winner)][0]} wins")
        else:
            lines.append(f"{self.pieces[int(state.to_move)][0]} to move")
        return "\n".join(lines)


def _ttt_rows(state: Any) -> list[str]:
    cells = "".join(state.cell(s) for s in range(9))
    return [cells[0:3], cells[3:6], cells[6:9]]


def _grid_rows(state: Any) -> list[str]:
    return list(state.rows())


def _checkers_rows(state: Any) -> list[str]:
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            square = r * 4 + c // 2 + 1 if (r + c) % 2 else 0
            row += (state.piece(square) or ".") if square else " "
        rows.append(row)
    return rows


_CODECS: dict[str, GameCodec] = {
    "tictactoe": GameCodec("tictactoe", lambda s: 9, _ttt_rows, ("X", "O")),
    "connect4": GameCodec("connect4", lambda s: int(s.width), _grid_rows, ("X", "O")),
    "mnk": GameCodec("mnk", lambda s: s.rules.width * s.rules.height, _grid_rows, ("X", "O")),
    "gomoku": GameCodec("gomoku", lambda s: s.rules.width * s.rules.height, _grid_rows, ("X", "O")),
    # Squares are numbered 1 to 32; token 0 is never legal.
    "checkers": GameCodec("checkers", lambda s: 33, _checkers_rows, ("bB", "wW")),
}

CODEC_NAMES = tuple(_CODECS)
"""The zermelo games that have a codec, so an OpenSpiel game and a PettingZoo environment."""


def codec_for(game: str) -> GameCodec:
    """The codec of the zermelo game ``game`` (a name or an alias)."""
    name = get_game(game).name
    codec = _CODECS.get(name)
    if codec is None:
        raise UnknownGameError(
            f"game {game!r} has no action encoding yet: expected one of {', '.join(CODEC_NAMES)}"
        )
    return codec


def tokens_of(move: Any) -> tuple[int, ...]:
    """A move as its tokens."""
    return tuple(move) if isinstance(move, tuple) else (int(move),)


class Turn:
    """The tokens played so far in one turn of ``state``: which may come next, and the whole
    move once they form one."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.prefix: tuple[int, ...] = ()
        self._moves: Sequence[Any] = state.legal_moves()

    def legal_tokens(self) -> list[int]:
        """The tokens that continue a legal move, ascending."""
        n = len(self.prefix)
        found = set()
        for move in self._moves:
            tokens = tokens_of(move)
            if tokens[:n] == self.prefix and len(tokens) > n:
                found.add(tokens[n])
        return sorted(found)

    def add(self, token: int) -> Any | None:
        """Play ``token``; the whole move when it completes one, else ``None``."""
        if token not in self.legal_tokens():
            raise IllegalMoveError(
                f"action {token!r} is not legal here; expected one of {self.legal_tokens()}"
            )
        self.prefix = (*self.prefix, token)
        for move in self._moves:
            if tokens_of(move) == self.prefix:
                return move
        return None
