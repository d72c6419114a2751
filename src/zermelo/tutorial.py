"""The tutorial's ``TicTacToe`` class: same names, same behaviour, backed by the engine.

Everything the tutorial's class offers is here with the same signature and the same results, so the
tutorial's code and examples run unchanged::

    >>> game = TicTacToe()
    >>> game.make_move(0, "X"), game.make_move(1, "O")
    (True, True)
    >>> game.get_best_move()
    3
    >>> game.make_move(3, "X"), game.make_move(4, "O")
    (True, True)
    >>> game.get_best_move()
    6

What changes is the thinking. The tutorial's ``minimax`` visits every node of the game tree (549,946
from the empty board); here ``minimax`` and ``get_best_move`` ask :func:`zermelo.search.alphabeta`,
which prunes, remembers positions in a transposition table (mirror images included) and takes a win
on the spot, so the first move is instant. ``get_best_move`` prefers the fastest win, then the
slowest loss, then the lowest square among equals.

Input is checked: a square outside 0-8 or a symbol other than ``"X"`` or ``"O"`` raises
:class:`~zermelo.core.errors.IllegalMoveError` instead of corrupting the board.
"""

from __future__ import annotations

from zermelo.core.errors import IllegalMoveError
from zermelo.core.state import Player
from zermelo.games.tictactoe import LINES, TicTacToeState
from zermelo.search.alphabeta import alphabeta

__all__ = ["TicTacToe"]

_SIDES = {"X": Player.FIRST, "O": Player.SECOND}


class TicTacToe:
    """Tic-tac-toe against a computer player that never loses."""

    def __init__(self) -> None:
        # Initialize empty board (using ' ' for empty squares)
        self.board: list[str] = [" " for _ in range(9)]
        self.human_player = "O"
        self.ai_player = "X"

    def print_board(self) -> None:
        """Print the current state of the board"""
        for i in range(0, 9, 3):
            print(f"{self.board[i]} | {self.board[i + 1]} | {self.board[i + 2]}")
            if i < 6:
                print("---------")

    def available_moves(self) -> list[int]:
        """Returns list of available moves (indices of empty squares)"""
        return [i for i, spot in enumerate(self.board) if spot == " "]

    def make_move(self, position: int, player: str) -> bool:
        """Make a move on the board; ``False`` if the square is already taken."""
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= 8:
            raise IllegalMoveError(f"invalid square {position!r}: expected a number from 0 to 8")
        if player not in _SIDES:
            raise IllegalMoveError(f"invalid player {player!r}: expected 'X' or 'O'")
        if self.board[position] == " ":
            self.board[position] = player
            return True
        return False

    def is_board_full(self) -> bool:
        """Check if the board is full"""
        return " " not in self.board

    def check_winner(self) -> str | None:
        """Check if there's a winner. Returns winner symbol or None"""
        # Rows, then columns, then diagonals, as in the tutorial.
        for a, b, c in LINES:
            if self.board[a] == self.board[b] == self.board[c] != " ":
                return self.board[a]
        return None

    def game_over(self) -> bool:
        """Check if the game is over"""
        return self.check_winner() is not None or self.is_board_full()

    def minimax(self, depth: int, is_maximizing: bool) -> int:
        """The tutorial's value of the board: 1 if the AI can force a win, -1 if the human can,
        0 otherwise, with the AI to move when ``is_maximizing``. The board is left unchanged.

        ``depth`` is accepted for the tutorial's signature; the value does not depend on it.
        """
        winner = self.check_winner()
        if winner == self.ai_player:
            return 1
        if winner == self.human_player:
            return -1
        if self.is_board_full():
            return 0
        mover = self.ai_player if is_maximizing else self.human_player
        value = alphabeta(self._state(mover)).value
        sign = (value > 0) - (value < 0)
        return sign if is_maximizing else -sign

    def get_best_move(self) -> int | None:
        """Find the best move for the AI: the fastest win, else the slowest loss, else the lowest
        square among equals. ``None`` when the game is over."""
        if self.game_over():
            return None
        return alphabeta(self._state(self.ai_player)).move

    def play_game(self) -> None:
        """Main game loop: the terminal game of ``zermelo play tictactoe``."""
        from zermelo.ui.terminal.session import play_tutorial_game

        play_tutorial_game(self)

    def _state(self, mover: str) -> TicTacToeState:
        """The engine's view of the board with ``mover`` to move."""
        if self.ai_player not in _SIDES or self.human_player not in _SIDES:
            raise IllegalMoveError(
                f"invalid players {self.ai_player!r} and {self.human_player!r}: expected 'X' and 'O'"
            )
        x = o = 0
        for square, cell in enumerate(self.board):
            if cell == "X":
                x |= 1 << square
            elif cell == "O":
                o |= 1 << square
            elif cell != " ":
                raise IllegalMoveError(
                    f"invalid board cell {cell!r} at square {square}: expected ' ', 'X' or 'O'"
                )
        return TicTacToeState(x, o, _SIDES[mover])
