"""The State protocol: the one shape every game fits.

A state is an immutable, hashable value. ``state.play(move)`` returns a new state and never changes
the old one, so search code can keep positions in tables and share them between threads. Moves are
small hashable values (ints for drop and place games). Each game owns its notation through
``parse_move`` / ``format_move`` and a parse/format pair for whole positions.

Conventions the search relies on:

* ``legal_moves()`` lists moves in the game's preferred search order (best guesses first). It is
  empty exactly when ``is_terminal()`` is true.
* ``winner`` is the player who has won, or ``None`` (game still running, or drawn).
* ``evaluate()`` is a heuristic from the side to move, strictly inside ``±EVAL_LIMIT`` (see
  :mod:`zermelo.core.scores`); games that are always searched to the end may omit it.
* ``key()`` is what the transposition table stores the state under: the state itself by default,
  or a canonical form under the game's symmetries.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeAlias, TypeVar

__all__ = ["AnyState", "Move", "Player", "State", "supports_evaluation"]

Move = TypeVar("Move", bound=Hashable)


class Player(enum.IntEnum):
    """The two sides of a two-player game. ``FIRST`` moves first from the initial position."""

    FIRST = 0
    SECOND = 1

    @property
    def opponent(self) -> Player:
        return Player(1 - self)


class State(Protocol[Move]):
    """A position of a two-player, zero-sum game of perfect information."""

    @property
    def to_move(self) -> Player:
        """The side to move (in a terminal state: the side that would move next)."""
        ...

    @property
    def winner(self) -> Player | None:
        """The player who has won, or ``None``."""
        ...

    @property
    def ply(self) -> int:
        """Number of moves played from the initial position."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """Legal moves in the game's preferred search order; empty when terminal."""
        ...

    def play(self, move: Move) -> Self:
        """The state after ``move``. Raises :class:`IllegalMoveError` for an illegal move."""
        ...

    def is_terminal(self) -> bool:
        """True when the game is over (a win or a draw)."""
        ...

    def key(self) -> Hashable:
        """Transposition-table key; equal keys must have equal game values."""
        ...

    def notation(self) -> str:
        """The position in the game's notation; the game's ``parse`` reads it back."""
        ...

    def parse_move(self, text: str) -> Move:
        """A move from the game's move notation. Raises :class:`ParseError` quoting ``text``.

        Parsing checks the notation only; ``play`` checks legality."""
        ...

    def format_move(self, move: Move) -> str:
        """The move in the game's move notation."""
        ...


AnyState: TypeAlias = State[Any]  # Any: each game has its own move type; see the note below.
"""A state of any game. ``State`` is generic in its move type, and invariant in it (moves are
both taken and returned), so code that works for every game (the faces, the generic searches'
callers) names ``AnyState``; code for one game names its own state class."""


def supports_evaluation(state: object) -> bool:
    """True when ``state`` offers a heuristic ``evaluate()`` for depth-limited search."""
    return callable(getattr(state, "evaluate", None))
