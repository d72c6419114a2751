"""Game-agnostic foundations: the State protocol, players, scores, the error tree and the game
record type. No I/O."""

from zermelo.core.errors import (
    BudgetError,
    BusyError,
    CapabilityError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
    WorkerFailed,
    ZermeloError,
)
from zermelo.core.record import LEVELS, BoolOption, GameSpec, Grid, IntOption, Option, Ref
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
    "LEVELS",
    "MAX_PLY",
    "WIN",
    "BoolOption",
    "BudgetError",
    "BusyError",
    "CapabilityError",
    "GameSpec",
    "Grid",
    "IllegalMoveError",
    "IntOption",
    "InvalidOptionError",
    "InvalidPositionError",
    "Move",
    "Option",
    "Outcome",
    "ParseError",
    "Player",
    "Ref",
    "State",
    "UnknownGameError",
    "WorkerFailed",
    "ZermeloError",
    "describe",
    "is_decided",
    "outcome_of",
    "plies_to_end",
    "supports_evaluation",
]
