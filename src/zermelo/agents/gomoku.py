"""The gomoku (and m,n,k) levels, backed by the threat-searching engine of
:mod:`zermelo.solvers.gomoku` rather than the generic alpha-beta, which would weigh every empty
point of a 15x15 board.

Each level thinks for the time per move it is given (``--time``, default 1 s); the engine's levels
differ in depth, width, threat reading and seeded noise (see :data:`zermelo.solvers.gomoku.LEVELS`).
"""

from __future__ import annotations

import random
from typing import Any

from zermelo.agents.base import Agent
from zermelo.agents.levels import LEVELS, register_levels

__all__ = ["HARD_DEFAULT_SECONDS", "GomokuAgent"]

HARD_DEFAULT_SECONDS = 1.0


class GomokuAgent:
    """The gomoku engine at ``level``, ``time_limit`` seconds per move, noise drawn from ``seed``."""

    def __init__(
        self, level: str, seed: int | None = None, time_limit: float | None = None
    ) -> None:
        from zermelo.solvers.gomoku import GomokuPlayer

        self.name = level
        self.player = GomokuPlayer(
            level,
            time_limit=HARD_DEFAULT_SECONDS if time_limit is None else time_limit,
            rng=random.Random(0 if seed is None else seed),
        )

    def choose(self, state: Any) -> Any:
        return self.player.choose(state)


def _factory(level: str) -> Any:
    def make(seed: int | None, limit: float | None) -> Agent:
        return GomokuAgent(level, seed, limit)

    return make


for _game in ("gomoku", "mnk"):
    register_levels(_game, {level: _factory(level) for level in LEVELS})
