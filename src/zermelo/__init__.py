"""zermelo: game search from the minimax tutorial, made real.

The public API is small on purpose: the State protocol and its scores, the errors, the search
algorithms and the game registry. Everything else lives in its subpackage, the tutorial's class
in :mod:`zermelo.tutorial`.
"""

from zermelo.core import (
    BudgetError,
    BusyError,
    CapabilityError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    ParseError,
    Player,
    State,
    UnknownGameError,
    WorkerFailed,
    ZermeloError,
    describe,
)
from zermelo.core.limits import Limits
from zermelo.core.version import VERSION
from zermelo.games import GameSpec, game_names, get_game
from zermelo.search import (
    MoveValue,
    SearchResult,
    SearchStats,
    TranspositionTable,
    alphabeta,
    analyze,
    minimax,
)

__version__ = VERSION

__all__ = [
    "BudgetError",
    "BusyError",
    "CapabilityError",
    "GameSpec",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Limits",
    "MoveValue",
    "ParseError",
    "Player",
    "SearchResult",
    "SearchStats",
    "State",
    "TranspositionTable",
    "UnknownGameError",
    "WorkerFailed",
    "ZermeloError",
    "__version__",
    "alphabeta",
    "analyze",
    "describe",
    "game_names",
    "get_game",
    "minimax",
]
