"""The one rule of which moves a search considers, and the other move capabilities of a state.

:func:`search_moves` is the rule: a state that narrows its moves (:class:`NarrowsMoves`: the
points near the stones on a big board) is searched over its ``search_moves()``, any other over
``legal_moves()``; and should a narrowing state list none while the game runs, over every legal
move. Alpha-beta (tree and root), MCTS (expansion and playouts) and the principal-variation walk
use it, and so should any front end that orders or filters moves for a search.

The searches look a state's class up once per search, not once per node: :func:`moves_rule`,
:func:`winning_move_rule` and :func:`non_losing_rule` return plain functions of a state of that
class (the class's own methods where possible), or ``None`` for a capability it lacks.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, TypeVar, cast

from zermelo.core.state import AvoidsLosses, NarrowsMoves, State, WinsAtOnce

__all__ = ["MovesRule", "moves_rule", "non_losing_rule", "search_moves", "winning_move_rule"]

M = TypeVar("M", bound=Hashable)

MovesRule = Callable[[State[M]], Sequence[M]]
"""``rule(state)``: the moves of ``state`` a search considers, in the game's preferred order."""


class _Narrowing(State[M], Protocol[M]):
    def search_moves(self) -> Sequence[M]: ...


def _narrowed(state: _Narrowing[M]) -> Sequence[M]:
    return state.search_moves() or state.legal_moves()


def moves_rule(kind: type[State[M]]) -> MovesRule[M]:
    """:func:`search_moves` for states of class ``kind``, looked up once."""
    if issubclass(kind, NarrowsMoves):
        # issubclass just proved the method; the cast restores the state type it cannot name.
        return cast(MovesRule[M], _narrowed)
    return kind.legal_moves


def search_moves(state: State[M]) -> Sequence[M]:
    """The moves of ``state`` a search considers: ``search_moves()`` where the state narrows its
    moves and lists some, else every legal move (empty exactly when the game is over)."""
    return moves_rule(type(state))(state)


def winning_move_rule(kind: type[State[M]]) -> Callable[[State[M]], M | None] | None:
    """``winning_move`` of class ``kind`` (:class:`WinsAtOnce`), or ``None`` when it has none."""
    if issubclass(kind, WinsAtOnce):
        return cast(Callable[[State[M]], M | None], kind.winning_move)
    return None


def non_losing_rule(kind: type[State[M]]) -> Callable[[State[M]], Sequence[M]] | None:
    """``non_losing_moves`` of class ``kind`` (:class:`AvoidsLosses`), or ``None``."""
    if issubclass(kind, AvoidsLosses):
        return cast(Callable[[State[M]], Sequence[M]], kind.non_losing_moves)
    return None
