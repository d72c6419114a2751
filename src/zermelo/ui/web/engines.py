"""What the page asks of the engines: the AI's move, and the value of every legal move.

The generic move is :func:`zermelo.agents.make_agent`'s player at the level; the generic values
are :mod:`zermelo.search.values`'. A game with its own engine (an exact solver, a threat-space
searcher) plugs in through its record's :class:`~zermelo.core.capabilities.WebEngine`. All of them
run in a worker thread under the budget they are given, and all answer with
:class:`~zermelo.core.result.SearchResult`: the values of the moves are its ``moves``, best first.
"""

from __future__ import annotations

from collections.abc import Hashable

from zermelo.agents.base import Reports
from zermelo.agents.spec import make_agent
from zermelo.core.record import GameSpec
from zermelo.core.result import Choice, sort_values, valued
from zermelo.core.state import AnyState
from zermelo.search.values import generic_values, search_order, static_values

__all__ = [
    "Choice",
    "generic_choose",
    "generic_values",
    "search_order",
    "sort_values",
    "static_values",
    "valued",
]


def generic_choose(
    game: str | GameSpec, state: AnyState, level: str, seed: int, time_limit: float
) -> Choice[Hashable]:
    """The move of :func:`zermelo.agents.make_agent`'s player for ``game`` at ``level``."""
    agent = make_agent(game, level, seed=seed, time_limit=time_limit)
    move = agent.choose(state)
    return Choice(move, agent.last if isinstance(agent, Reports) else None)
