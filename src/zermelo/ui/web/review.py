"""``POST /api/review``: every move of a game judged, for the page's evaluation graph.

The request names the game as ``/api/state`` does (``game``, ``options`` or ``position``,
``moves``), or gives a PGN text in ``pgn`` (with ``index``, the game's number in it from 1).
``time_ms`` is the search time per move. The work is bounded before it starts: at most
:data:`MAX_MOVES` moves are reviewed, :data:`MIN_TIME`-:data:`MAX_TIME` seconds each, and it runs
in one of the server's search processes under the whole review's deadline, as every search does.
The answer is :meth:`zermelo.play.review.GameReview.to_json`: per move its value, the best move
and its value, the winning chances lost, the mark, and the first player's chances (the graph).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import cast

from starlette.requests import Request
from starlette.responses import JSONResponse

from zermelo.core import limits
from zermelo.core.errors import BudgetError, CapabilityError, ParseError, ZermeloError
from zermelo.core.jsontext import Json
from zermelo.play.review import GameToReview, read_games, review_game
from zermelo.ui.web.api import Api, game_data, load_game, read_json
from zermelo.ui.web.lanes import WORKER_MEMORY
from zermelo.workers import WorkerFailed, WorkerTimeout

__all__ = ["MAX_MOVES", "MAX_PGN", "MAX_TIME", "MIN_TIME", "endpoint", "review_task"]

MAX_MOVES = 80
"""Moves reviewed at most (the first ones of a longer game)."""
MIN_TIME = 0.02
MAX_TIME = 0.5
"""Search seconds per move, clamped."""
DEFAULT_TIME = 0.1
MAX_PGN = 200_000
"""Characters of PGN text accepted."""
_FIELDS = frozenset({"game", "options", "position", "first", "moves", "pgn", "index", "time_ms"})


def _game(data: Mapping[str, object]) -> tuple[GameToReview, str]:
    """The game to review and its registry name, from a request's fields."""
    text = data.get("pgn")
    if text is None:
        from zermelo.ui.web.adapters import adapter_for

        spec = adapter_for(data.get("game", "tictactoe")).spec
        if spec.chance:
            # Its moves hold the dice (or a hidden game's deals): a review would value each roll
            # as a move, and show a hidden game's cards.
            raise CapabilityError(
                f"{spec.title} is a game of chance: its review is not offered (the page's Show "
                "thinking values each decision)"
            )
        game = load_game(data)
        moves = game_data(game)["moves"]
        return GameToReview("game 1", game.states[0], tuple(moves)), game.adapter.name
    if not isinstance(text, str) or len(text) > MAX_PGN:
        raise ParseError(f"pgn: expected the text of a PGN file of at most {MAX_PGN:,} characters")
    from zermelo.ui.web.adapters import adapter_for

    adapter = adapter_for(data.get("game", "chess"))
    games = read_games(adapter.spec, text, "pgn")
    index = data.get("index", 1)
    if type(index) is not int or not 1 <= index <= len(games):
        raise ParseError(
            f"index {str(index)[:20]!r}: expected a game number from 1 to {len(games)}"
        )
    return games[index - 1], adapter.name


def _seconds(data: Mapping[str, object]) -> float:
    value = data.get("time_ms", DEFAULT_TIME * 1000)
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise BudgetError(f"time_ms {str(value)[:20]!r}: expected a number of milliseconds")
    return min(max(float(value) / 1000, MIN_TIME), MAX_TIME)


def review_task(data: Mapping[str, object], seconds: float) -> Json:
    """In a search process: the review of ``data``'s game at ``seconds`` per move, as JSON, or
    ``{"error": message}`` for a game that cannot be reviewed."""
    from zermelo.ui.web.adapters import adapter_for

    try:
        game, name = _game(data)
        spec = adapter_for(name).spec
        count = min(len(game.moves), MAX_MOVES)
        with limits.limited(time.perf_counter() + count * seconds * 2 + 2, memory=WORKER_MEMORY):
            review = review_game(spec, game, time_per_move=seconds, max_moves=count)
    except ZermeloError as error:
        return {"error": str(error)}
    answer = cast(dict[str, Json], review.to_json())
    answer["game"] = name
    answer["reviewed"] = count
    answer["total"] = len(game.moves)
    return answer


def endpoint(api: Api) -> object:
    """The route's handler, on ``api``'s lanes."""

    async def review(request: Request) -> JSONResponse:
        data = await read_json(request)
        unknown = sorted(str(key) for key in data if key not in _FIELDS)
        if unknown:
            raise ParseError(
                f"unknown field {unknown[0][:30]!r}: expected {', '.join(sorted(_FIELDS))}"
            )
        seconds = _seconds(data)
        # Read the game in the fast lane first: a bad one is refused before any search.
        game, _name = await api.lanes.fast.run(_game, data)
        count = min(len(game.moves), MAX_MOVES)
        deadline = time.monotonic() + count * seconds * 2 + 5
        try:
            answer = await api.lanes.search.call(
                "zermelo.ui.web.review:review_task", dict(data), seconds, deadline=deadline
            )
        except (WorkerTimeout, WorkerFailed) as error:
            raise BudgetError(f"the review did not finish in time: {error}") from None
        if isinstance(answer, dict) and isinstance(answer.get("error"), str):
            raise ParseError(str(answer["error"]))
        return JSONResponse(answer)

    return review
