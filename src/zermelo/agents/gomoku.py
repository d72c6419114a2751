"""The gomoku and m,n,k levels: the dedicated engine of :mod:`zermelo.solvers.gomoku`.

* easy: a shallow search with noise; it always completes a five and blocks a four, but now and
  then overlooks an open three.
* medium: deeper, a little noise, wider at each node.
* hard: threat search (fours, then threes and fours) before iterative-deepening alpha-beta, for the
  time per move (``--time``, default 1 s).
"""

from __future__ import annotations

import random

from zermelo.agents.base import Agent
from zermelo.core.errors import InvalidPositionError
from zermelo.core.state import AnyState
from zermelo.games.mnk import MnkState

__all__ = ["DEFAULT_SECONDS", "GomokuAgent", "easy", "hard", "medium"]

DEFAULT_SECONDS = 1.0


class GomokuAgent:
    """Adapts :class:`zermelo.solvers.gomoku.GomokuPlayer` to the agents protocol."""

    def __init__(self, level: str, seed: int | None, time_limit: float | None) -> None:
        from zermelo.solvers.gomoku import GomokuPlayer

        self.name = level
        self.player = GomokuPlayer(
            level,
            time_limit=DEFAULT_SECONDS if time_limit is None else time_limit,
            rng=random.Random(0 if seed is None else seed),
        )

    def choose(self, state: AnyState) -> int:
        if not isinstance(state, MnkState):
            raise InvalidPositionError(
                f"the gomoku levels play m,n,k games only, not {type(state).__name__}"
            )
        return self.player.choose(state)


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return GomokuAgent("easy", seed, time_limit)


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return GomokuAgent("medium", seed, time_limit)


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return GomokuAgent("hard", seed, time_limit)
