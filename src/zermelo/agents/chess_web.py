"""Chess's own engines for the web page: the chess level's move with the engine's search behind
it, and every move's value, both in pawns as chess values are shown. In the agents layer, since
the move is the chess level's (:mod:`zermelo.agents.chess`)."""

from __future__ import annotations

from zermelo.core.capabilities import WebEngine
from zermelo.core.result import Choice, SearchResult
from zermelo.games.chess import ChessMove, ChessState

__all__ = ["CHESS", "chess_choose", "chess_values"]


def chess_choose(state: ChessState, level: str, seed: int, time_limit: float) -> Choice[ChessMove]:
    """The chess level's move (:mod:`zermelo.agents.chess`) within ``time_limit``, with the
    engine's search behind it (values in pawns, as chess values are shown)."""
    from zermelo.agents.chess import ChessAgent
    from zermelo.agents.spec import make_agent
    from zermelo.games.chess import SPEC
    from zermelo.solvers.chess.tools import in_pawns

    agent = make_agent(SPEC, level, seed=seed, time_limit=time_limit)
    move = agent.choose(state)
    assert isinstance(move, ChessMove)  # an agent answers one of the state's legal moves
    found = agent.last if isinstance(agent, ChessAgent) else None
    if found is None:
        return Choice(move)
    return Choice(move, in_pawns(found))


def chess_values(state: ChessState, time_limit: float, node_limit: int) -> SearchResult[ChessMove]:
    """Every legal move's value from the chess engine (``moves``, best first) with its search of
    the position, within ``time_limit`` and ``node_limit``."""
    from zermelo.solvers.chess.tools import analyze

    return analyze(state, None, time_limit, nodes=node_limit)


CHESS: WebEngine[ChessState] = WebEngine(chess_choose, chess_values)
"""Chess's record names this (``web_engine``)."""
