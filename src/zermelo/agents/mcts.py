"""Monte Carlo tree search as a player."""

from __future__ import annotations

import random
from typing import Any

from zermelo.core.errors import BudgetError, IllegalMoveError
from zermelo.search.mcts import Mcts, PlayoutPolicy
from zermelo.search.result import SearchResult

__all__ = ["MctsAgent"]


class MctsAgent:
    """UCT with a budget of ``iterations`` or ``time_limit`` seconds per move (or both: whichever
    ends first), drawing all its randomness from ``random.Random(seed)``.

    The tree is kept between moves (``reuse``), so what the agent read about the reply it expected
    is not thrown away. The other options are those of :class:`zermelo.search.mcts.Mcts`. ``last``
    holds the result of the latest search, for front ends that show what the agent thinks.
    """

    def __init__(
        self,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        seed: int | None = None,
        exploration: float | None = None,
        playout: PlayoutPolicy | None = None,
        cutoff: int | None = None,
        eval_scale: float = 1.0,
        decisive: bool = True,
        reuse: bool = True,
        name: str = "mcts",
    ) -> None:
        if iterations is None and time_limit is None:
            raise BudgetError("an MCTS agent needs a budget: iterations or a time limit")
        self.iterations = iterations
        self.time_limit = time_limit
        self.name = name
        options: dict[str, Any] = {
            "playout": playout,
            "cutoff": cutoff,
            "eval_scale": eval_scale,
            "decisive": decisive,
            "reuse": reuse,
        }
        if exploration is not None:
            options["exploration"] = exploration
        self.search = Mcts(rng=random.Random(seed), **options)
        self.last: SearchResult[Any] | None = None

    def choose(self, state: Any) -> Any:
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        result = self.search.search(state, iterations=self.iterations, time_limit=self.time_limit)
        self.last = result
        return result.move
