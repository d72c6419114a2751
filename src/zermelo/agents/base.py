"""Who picks a move. One protocol: ``agent.choose(state) -> move``."""

from __future__ import annotations

import random
from typing import Any, Protocol

from zermelo.core.errors import IllegalMoveError

__all__ = ["Agent", "RandomAgent"]


class Agent(Protocol):
    """A player. ``name`` is a short label for tables and logs."""

    name: str

    def choose(self, state: Any) -> Any:
        """A legal move for the side to move in the non-terminal ``state``."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move, drawn from its own seeded generator."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Any:
        moves = sorted(state.legal_moves())
        if not moves:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return self.rng.choice(moves)
