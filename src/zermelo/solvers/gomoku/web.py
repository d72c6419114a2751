"""Gomoku's and the m,n,k games' own engine for the web page: threats first, then alpha-beta
(:mod:`zermelo.solvers.gomoku.engine`), which checks its clock as it searches, and so do the tables
it builds."""

from __future__ import annotations

import dataclasses
import random

from zermelo.core.capabilities import WebEngine
from zermelo.core.result import Choice, MoveValue, SearchResult, sort_values
from zermelo.games.mnk import MnkState

__all__ = ["GOMOKU", "gomoku_choose", "gomoku_values"]


def gomoku_choose(state: MnkState, level: str, seed: int, time_limit: float) -> Choice[int]:
    """The gomoku engine at ``level`` (threats first, then alpha-beta) within ``time_limit``."""
    from zermelo.solvers.gomoku.engine import Engine, move_of

    found = Engine(level).search(state, time_limit=time_limit, rng=random.Random(seed))
    move = move_of(found)
    pv = found.pv if found.pv and found.pv[0] == move else (move,)
    return Choice(move, dataclasses.replace(found, pv=pv))


def gomoku_values(state: MnkState, time_limit: float, node_limit: int) -> SearchResult[int]:
    """The values the hard engine gave the moves it considered at the root, within
    ``time_limit``: on a 15x15 board only those are worth showing. A move that failed low has an
    upper bound there, so only decided scores count as exact."""
    from zermelo.solvers.gomoku.engine import Engine, move_of

    found = Engine("hard").search(state, time_limit=time_limit, node_limit=node_limit)
    move = move_of(found)
    values = list(found.moves)
    if all(value.move != move for value in values):
        values.append(MoveValue(move, found.value, found.exact, found.pv))
    ordered = sort_values(values)
    # The engine's choice leads, as it does on the board.
    ordered.sort(key=lambda mv: mv.move != move)
    return dataclasses.replace(found, move=move, moves=tuple(ordered))


GOMOKU: WebEngine[MnkState] = WebEngine(gomoku_choose, gomoku_values)
"""The gomoku and m,n,k records name this (``web_engine``)."""
