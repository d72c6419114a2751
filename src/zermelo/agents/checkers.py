"""The checkers levels.

Every level searches with :func:`~zermelo.search.quiescence.quiescent` around the game's own
evaluation: a capture pending at the horizon is played out before the position is judged, so no
level counts material in the middle of an exchange. The levels differ in how far they read and how
much noise blurs their judgement (values are in hundredths of a man):

* easy: 2 plies and noise of 0.6 men: it takes what is offered and sees one-move shots, but it
  often prefers a worse quiet move and walks into two-move combinations.
* medium: 4 plies and noise of 0.1 men: sound, but short-sighted in the endgame.
* hard: iterative deepening for the time per move (``--time``, default 1 s), no noise.
"""

from __future__ import annotations

from zermelo.agents.base import Agent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import register_levels
from zermelo.search.quiescence import quiescent

__all__ = ["HARD_DEFAULT_SECONDS"]

HARD_DEFAULT_SECONDS = 1.0


def _easy(seed: int | None, limit: float | None) -> Agent:
    return EngineAgent(depth=2, noise=60.0, seed=seed, name="easy", evaluator=quiescent())


def _medium(seed: int | None, limit: float | None) -> Agent:
    return EngineAgent(depth=4, noise=10.0, seed=seed, name="medium", evaluator=quiescent())


def _hard(seed: int | None, limit: float | None) -> Agent:
    return EngineAgent(
        time_limit=limit if limit is not None else HARD_DEFAULT_SECONDS,
        seed=seed,
        name="hard",
        evaluator=quiescent(),
    )


register_levels("checkers", {"easy": _easy, "medium": _medium, "hard": _hard})
