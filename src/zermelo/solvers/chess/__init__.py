"""The chess engine: a bitboard move generator and an alpha-beta search compiled with numba.

:class:`ChessEngine` searches positions under a depth, node, time or clock budget and analyses
every root move, answering with :class:`zermelo.search.result.SearchResult`; :func:`perft`
counts the legal move tree. The evaluation, term by term, and its tuning are in
:mod:`zermelo.solvers.chess.evaluation`.
"""

from zermelo.solvers.chess.engine import (
    DEFAULT_HASH_MB,
    LEVELS,
    MAX_HASH_MB,
    SWITCHES,
    ChessEngine,
    Level,
    Progress,
    board_of,
    kernel_module,
    legal_moves,
    mate_in,
    perft,
)

__all__ = [
    "DEFAULT_HASH_MB",
    "LEVELS",
    "MAX_HASH_MB",
    "SWITCHES",
    "ChessEngine",
    "Level",
    "Progress",
    "board_of",
    "kernel_module",
    "legal_moves",
    "mate_in",
    "perft",
]
