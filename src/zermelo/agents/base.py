"""Who picks a move. One protocol: ``agent.choose(state) -> move``."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Protocol, runtime_checkable

from zermelo.core.errors import IllegalMoveError
from zermelo.core.result import SearchResult
from zermelo.core.state import AnyState, SortableMove

__all__ = ["Agent", "RandomAgent", "Reports"]


@runtime_checkable
class Agent(Protocol):
    """A player. ``name`` is a short label for tables and logs.

    An agent takes a state of any game (a game's own agent checks that it is given its game's
    state), and answers one of the state's legal moves."""

    name: str

    def choose(self, state: AnyState) -> Hashable:
        """A legal move for the side to move in the non-terminal ``state``."""
        ...


@runtime_checkable
class Reports(Protocol):
    """An agent that keeps the search behind its last move, for front ends that show the
    thinking: ``last`` is ``None`` before the first move and after a choice no search ranks
    first (a noisy one)."""

    @property
    def last(self) -> SearchResult[Hashable] | None: ...


class RandomAgent:
    """Plays a uniformly random legal move, drawn from its own seeded generator."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: AnyState) -> Hashable:
        moves: list[SortableMove] = sorted(state.legal_moves())
        if not moves:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return self.rng.choice(moves)
