"""The searches a request hands to a search process (see :mod:`zermelo.ui.web.lanes`).

Each function runs in the child: it rebuilds the request's whole game, options included (already
checked by the server, see :func:`zermelo.ui.web.api.game_data`), searches under the time it is given, with the tables it builds held to the same deadline and to
the process's memory ceiling (:func:`zermelo.core.limits.limited`), and returns plain JSON. When the
budget runs out before any answer, it returns ``{"degraded": true}`` and the server answers from
its fast lane instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from contextlib import AbstractContextManager

from zermelo.agents.spec import AZ
from zermelo.core import limits
from zermelo.core.errors import BudgetError
from zermelo.core.state import Evaluates
from zermelo.search.alphabeta import alphabeta
from zermelo.solvers.kernels import serve_while_cold
from zermelo.ui.web.api import (
    AnalysisJson,
    Budget,
    ChoiceAnswer,
    Degraded,
    SearchJson,
    analyze_position,
    load_game,
    replay,
    search_json,
)
from zermelo.ui.web.lanes import WORKER_MEMORY

__all__ = ["analyze", "choose", "ready"]

_GRACE = 0.02
"""How long past its own time a search may take to wrap up before its tables give up: the
server's deadline for the whole request follows soon after."""


def ready() -> bool:
    """Load every game and its engines, and search each start position one ply (called once when
    the process starts, so that no request pays for the imports and the first tables)."""
    from zermelo.agents.spec import make_agent
    from zermelo.core.record import LEVELS
    from zermelo.ui.web.adapters import adapter_for, available_games

    serve_while_cold(wait=True)  # a cold kernel is never compiled here: its plain copy plays
    for name in available_games():
        adapter = adapter_for(name)
        adapter.engine  # noqa: B018 - imports the game's own web engine
        for level in LEVELS:
            make_agent(adapter.spec, level, seed=0)
        state = load_game({"game": name}).state
        # The generic search needs an evaluation: a game without one (the draughts games, whose
        # engine evaluates) is searched by its own engine only, and a game of chance is searched
        # by expectiminimax, never alpha-beta (which refuses chance nodes).
        if isinstance(state, Evaluates) and not adapter.spec.chance:
            alphabeta(state, depth=1)
            state.evaluate()
    return True


def _limits(seconds: float) -> AbstractContextManager[None]:
    return limits.limited(time.perf_counter() + seconds + _GRACE, memory=WORKER_MEMORY)


def choose(
    data: Mapping[str, object],
    level: str,
    seed: int,
    seconds: float,
    alphabeta_only: bool = False,
) -> ChoiceAnswer | Degraded:
    """The AI's move in ``data``'s game: ``{"move": notation, "thinking": search or null}``.

    ``alphabeta_only`` plays alpha-beta under the clock instead of the game's own engine (Connect
    Four's solver, which the server has asked already)."""
    serve_while_cold()
    game = replay(data)
    state = game.state
    thinking: SearchJson | None
    try:
        with _limits(seconds):
            if alphabeta_only:
                result = alphabeta(state, time_limit=seconds, rng=random.Random(seed))
                move, thinking = result.move, search_json(state, result)
            else:
                choice = game.adapter.ai_choice(state, level, seed, seconds)
                move = choice.move
                thinking = None if choice.result is None else search_json(state, choice.result)
                if thinking is not None and choice.result is not None and level == AZ:
                    thinking["simulations"] = choice.result.stats.nodes  # PUCT's count
    except BudgetError:
        return {"degraded": True}
    if move is None:
        return {"degraded": True}
    return {"move": state.format_move(move), "thinking": thinking}


def analyze(
    data: Mapping[str, object], seconds: float, nodes: int, generic: bool = False
) -> AnalysisJson | Degraded:
    """Every legal move's value in ``data``'s game, as ``/api/analyze`` answers it; ``generic``:
    alpha-beta's values instead of the game's own engine's."""
    serve_while_cold()
    game = replay(data)
    try:
        with _limits(seconds):
            budget = Budget(seconds, nodes)
            return analyze_position(game.state, game.adapter, budget, generic=generic)
    except BudgetError:
        return {"degraded": True}
