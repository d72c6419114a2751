"""A game as numbered actions and board planes: the shape OpenSpiel and PettingZoo expect.

A record that holds a :class:`Codec` can be exported to OpenSpiel and PettingZoo, a plugin game as
well as a built-in one; the interop layer reads nothing else about the game. The codec is plain
data over the state's own methods, so it lives in the record itself (no reference up a layer).

Actions
    A move is written as a sequence of tokens, each a whole number below ``count(state)``: a drop
    or place game's move is its one number (a tic-tac-toe square, a Connect Four column, an m,n,k
    point); a checkers move is its path of squares, one token per square. An environment takes
    one token per step, and the same player keeps the turn until the tokens make a whole legal
    move. The legal moves must be prefix-free (a capture must be completed), so that a whole move
    is never the start of another.

Observations
    ``rows(state)`` is the board as text rows from the top, one character per cell; ``pieces[p]``
    are the characters of player ``p``'s pieces, one plane each (own pieces first, then the
    opponent's); ``shared`` are the characters of pieces that belong to neither player (Nim's
    stones), one plane each after both players' planes.

Numbered games of chance and hidden information
    A game of chance or of hidden information is exported to OpenSpiel move by move, not token by
    token: a :class:`Numbering` in its record says which action number each move and each chance
    outcome gets.

Native games
    ``openspiel_native`` and ``pettingzoo_native`` name an outside game that is this very game:
    the same actions, and (PettingZoo) the same observation planes, so that zermelo's players
    can read its boards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic

from typing_extensions import TypeVar

from zermelo.core.state import AnyState

__all__ = ["Codec", "Numbering"]

S = TypeVar("S", bound=AnyState, default=AnyState)


@dataclass(frozen=True)
class Codec(Generic[S]):
    """How one game maps onto numbered actions and board planes.

    ``count(state)`` is the number of distinct tokens, ``rows(state)`` the board as text rows from
    the top, ``pieces[p]`` the characters of player ``p``'s pieces. ``openspiel_native`` and
    ``pettingzoo_native`` name the outside games that are this very game with the same actions
    (OpenSpiel's ``tic_tac_toe``, PettingZoo's ``tictactoe_v3``), for the adapters that read
    their boards; ``None`` when there is none.

    ``tokens(move)`` writes a move as its tokens; without it a whole number is one token and a
    tuple of whole numbers is a path of tokens (a checkers move). ``shared`` are the characters of
    pieces that belong to neither player, one plane each after the players' planes.
    ``max_length(start)`` is the most tokens a game from ``start`` can take (OpenSpiel's
    ``max_game_length``); without it, one token per cell of the board."""

    count: Callable[[S], int]
    rows: Callable[[S], list[str]]
    pieces: tuple[str, str]
    openspiel_native: str | None = None
    pettingzoo_native: str | None = None
    tokens: Callable[[Hashable], tuple[int, ...]] | None = None
    shared: str = ""
    max_length: Callable[[S], int] | None = None

    def __post_init__(self) -> None:
        own, other = self.pieces
        if not own or len(own) != len(other) or set(own) & set(other):
            raise ValueError(
                f"codec pieces {self.pieces!r}: expected two disjoint strings of equal length"
            )
        if set(self.shared) & set(own + other) or len(set(self.shared)) != len(self.shared):
            raise ValueError(
                f"codec shared pieces {self.shared!r}: expected distinct characters that are "
                f"neither player's pieces {self.pieces!r}"
            )


@dataclass(frozen=True)
class Numbering:
    """How a game of chance or hidden information numbers its moves as OpenSpiel actions (the
    record's ``numbering``). Action ``i`` is the move written ``words[i]``; a move not among the
    words (a backgammon play) is numbered after them by its place among such moves of its
    position, in the state's own order, of which there are at most ``plays``. A chance outcome's
    action is its place in ``outcomes``: by default the outcomes of the game's first chance node
    (Pig's faces ``1``..``die``; a poker deck in order, so that a card's action is OpenSpiel's card
    number). ``utility`` bounds the points a game can end with (``None``: the game's
    ``value_bounds`` or 1)."""

    words: tuple[str, ...]
    outcomes: tuple[str, ...] | None = None
    plays: int = 0
    utility: float | None = None

    def actions(self) -> int:
        """How many distinct actions a player has: the words, then the plays."""
        return len(self.words) + self.plays
