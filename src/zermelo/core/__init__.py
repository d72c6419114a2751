"""Game-agnostic foundations: the State protocol, players, scores and the error tree. No I/O."""

from zermelo.core.errors import (
    BudgetError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
    ZermeloError,
)
from zermelo.core.scores import (
    EVAL_LIMIT,
    MAX_PLY,
    WIN,
    Outcome,
    describe,
    is_decided,
    outcome_of,
    plies_to_end,
)
from zermelo.core.state import Move, Player, State, supports_evaluation

__all__ = [
    "EVAL_LIMIT",
    "MAX_PLY",
    "WIN",
    "BudgetError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "ParseError",
    "Player",
    "State",
    "UnknownGameError",
    "ZermeloError",
    "describe",
    "is_decided",
    "outcome_of",
    "plies_to_end",
    "supports_evaluation",
]
