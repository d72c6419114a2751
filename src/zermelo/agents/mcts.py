"""Monte Carlo tree search as a player."""

from __future__ import annotations

import random
from collections.abc import Hashable

from zermelo.core.errors import BudgetError, IllegalMoveError
from zermelo.core.result import SearchResult
from zermelo.core.state import AnyState
from zermelo.search.mcts import DEFAULT_EXPLORATION, Mcts, PlayoutPolicy

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
        self.search = Mcts(
            rng=random.Random(seed),
            exploration=DEFAULT_EXPLORATION if exploration is None else exploration,
            playout=playout,
            cutoff=cutoff,
            eval_scale=eval_scale,
            decisive=decisive,
            reuse=reuse,
        )
        self.last: SearchResult[Hashable] | None = None

    def choose(self, state: AnyState) -> Hashable:
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        result = self.search.search(state, iterations=self.iterations, time_limit=self.time_limit)
        self.last = result
        move: Hashable | None = result.move
        if move is None:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return move
