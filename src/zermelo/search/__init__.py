"""Game-agnostic search over the State protocol. Algorithms return results; they never print."""

from zermelo.core.result import MoveValue, SearchResult, SearchStats, parent_score
from zermelo.search.alphabeta import Evaluator, alphabeta, analyze, analyze_position
from zermelo.search.expectimax import (
    ChanceAnalysis,
    ChanceLine,
    chance_analysis,
    expectiminimax,
    star_minimax,
)
from zermelo.search.mcts import Mcts, mcts
from zermelo.search.minimax import minimax
from zermelo.search.moves import search_moves
from zermelo.search.quiescence import quiescent
from zermelo.search.table import TranspositionTable

__all__ = [
    "ChanceAnalysis",
    "ChanceLine",
    "Evaluator",
    "Mcts",
    "MoveValue",
    "SearchResult",
    "SearchStats",
    "TranspositionTable",
    "alphabeta",
    "analyze",
    "analyze_position",
    "chance_analysis",
    "expectiminimax",
    "mcts",
    "minimax",
    "parent_score",
    "quiescent",
    "search_moves",
    "star_minimax",
]
