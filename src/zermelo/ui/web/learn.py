"""The Learn page's JSON: the tutorial's worked examples traced, and nodes against depth.

* ``GET /api/learn/trace?example=1`` (or ``?moves=0 1``): the traced minimax and alpha-beta
  searches of a tic-tac-toe position (:func:`zermelo.search.trace.trace`), the root's moves and two
  plies below each, with V(s), the windows and the cut-offs. A position whose plain minimax needs
  more than :data:`TRACE_NODES` nodes (the empty board: 549,946) is refused with a 400.
* ``GET /api/learn/nodes?game=tictactoe``: the node counts of :mod:`zermelo.search.depth_nodes`
  for tic-tac-toe, Connect Four or chess, measured on the first request within
  :data:`COUNT_NODES` nodes a measurement and :data:`COUNT_SECONDS` a depth, then kept.

Both answers are cached: a trace by its position (at most :data:`TRACE_CACHE` of them), the counts
by game. Traces run in the fast lane's threads, counts in a thread of their own; one game's
counts are measured once however many requests ask at the same time.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from zermelo.core.errors import BudgetError, InvalidOptionError
from zermelo.core.state import Player
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search.depth_nodes import (
    NODE_GAMES,
    QUICK_MAX_DEPTHS,
    VARIANTS,
    branching,
    nodes_by_depth,
)
from zermelo.search.trace import EXAMPLES, MAX_MOVES_TEXT, TUTORIAL_GAME, TraceNode, played, trace
from zermelo.ui.web.lanes import FastLane

__all__ = ["NODE_GAMES", "nodes_json", "routes", "trace_json"]

Endpoint = Callable[[Request], Awaitable[Response]]

TRACE_NODES = 100_000
"""The most nodes a traced search may read for the page."""
TRACE_PLIES = 3
"""The plies of tree the page gets: the root's moves and two plies below each."""
TRACE_CACHE = 256
COUNT_NODES = 100_000
COUNT_SECONDS = 1.0
COUNT_WAITING = 16
"""Requests for counts that may wait for the counting thread; more get a 503."""


def _number(value: float) -> float | str:
    """A value for JSON: infinities as the strings ``"inf"`` and ``"-inf"``."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value + 0.0


def _node(node: TraceNode[int]) -> dict[str, object]:
    return {
        "move": node.move,
        "max": node.maximizing,
        "value": node.value + 0.0,
        "bound": node.bound,
        "alpha": _number(node.alpha),
        "beta": _number(node.beta),
        "nodes": node.nodes,
        "terminal": node.terminal,
        "children": [_node(child) for child in node.children],
        "cutoff": None
        if node.cutoff is None
        else {
            "after": node.cutoff.after,
            "moves": list(node.cutoff.moves),
            "alpha": _number(node.cutoff.alpha),
            "beta": _number(node.cutoff.beta),
        },
    }


@functools.lru_cache(maxsize=TRACE_CACHE)
def _trace_of(board: TicTacToeState) -> dict[str, object]:
    minimax = trace(board, alphabeta=False, keep=TRACE_PLIES, node_limit=TRACE_NODES)
    alphabeta = trace(board, alphabeta=True, keep=TRACE_PLIES, node_limit=TRACE_NODES)
    return {
        "position": board.notation(),
        "ai": "X" if board.to_move == Player.FIRST else "O",
        "terminal": board.is_terminal(),
        "move": minimax.move,
        "value": minimax.value + 0.0,
        "nodes": {"minimax": minimax.nodes, "alphabeta": alphabeta.nodes},
        "minimax": _node(minimax.root),
        "alphabeta": _node(alphabeta.root),
    }


def trace_json(example: str | None, moves: str | None) -> dict[str, object]:
    """The page's trace of a worked example (``"1"`` or ``"2"``) or of ``moves`` (squares 0-8
    from the empty board). Raises :class:`InvalidOptionError` or the game's errors for bad
    input, :class:`BudgetError` for a position too big to trace."""
    if example is not None and moves is not None:
        raise InvalidOptionError("give example or moves, not both")
    if moves is None:
        chosen = example if example is not None else "1"
        if chosen not in ("1", "2"):
            raise InvalidOptionError(f"unknown example {chosen[:20]!r}: expected 1 or 2")
        moves = EXAMPLES[int(chosen)]
    if len(moves) > MAX_MOVES_TEXT:
        raise BudgetError(
            f"a list of {len(moves)} characters is too long: expected at most {MAX_MOVES_TEXT}"
        )
    board = played(get_game(TUTORIAL_GAME).new(), moves)
    assert isinstance(board, TicTacToeState)
    too_big = BudgetError(
        f"this position needs more than {TRACE_NODES:,} nodes of plain minimax: "
        "play a move or two first"
    )
    if board.ply == 0:
        # The whole tree, 549,946 nodes: refused before any search.
        raise too_big
    try:
        answer = dict(_trace_of(board))
    except BudgetError:
        raise too_big from None
    answer["moves"] = [int(word) for word in moves.replace(",", " ").split()]
    return answer


_counted: dict[str, dict[str, object]] = {}
_counting = threading.Lock()


def nodes_json(game: str | None) -> dict[str, object]:
    """The node counts of ``game`` against depth, measured once and then kept."""
    name = game if game is not None else TUTORIAL_GAME
    if name not in NODE_GAMES:
        raise InvalidOptionError(
            f"unknown game {name[:40]!r}: expected one of {', '.join(NODE_GAMES)}"
        )
    with _counting:
        if name not in _counted:
            state = get_game(name).new()
            counts = nodes_by_depth(
                state,
                max_depth=QUICK_MAX_DEPTHS[name],
                node_limit=COUNT_NODES,
                seconds=COUNT_SECONDS,
            )
            _counted[name] = {
                "game": name,
                "b": branching(state),
                "variants": list(VARIANTS),
                "node_limit": COUNT_NODES,
                "counts": [
                    {"variant": c.variant, "depth": c.depth, "nodes": c.nodes} for c in counts
                ],
            }
        return _counted[name]


def routes(
    guarded: Callable[[Endpoint], Endpoint], page: Callable[[str], Endpoint], fast: FastLane
) -> list[BaseRoute]:
    """The Learn page and its two endpoints, each through ``guarded`` (errors as JSON). Traces
    run in the ``fast`` lane; the counts, seconds of search on their first request, in a lane of
    their own (one thread), so that they never hold the threads the games' requests need."""
    counting = FastLane(threads=1, waiting=COUNT_WAITING)

    async def trace_endpoint(request: Request) -> Response:
        query = request.query_params
        example, moves = query.get("example"), query.get("moves")
        return JSONResponse(await fast.run(trace_json, example, moves))

    async def nodes_endpoint(request: Request) -> Response:
        return JSONResponse(await counting.run(nodes_json, request.query_params.get("game")))

    return [
        Route("/learn", page("learn.html")),
        Route("/api/learn/trace", guarded(trace_endpoint)),
        Route("/api/learn/nodes", guarded(nodes_endpoint)),
    ]
