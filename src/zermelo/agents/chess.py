"""The chess levels, played by the engine of :mod:`zermelo.solvers.chess`.

* easy: every legal move valued two plies deep (plus captures), each value blurred with seeded
  Gaussian noise of 1.2 pawns: it takes a hanging piece and sees a mate in one, and it often plays
  a loose move;
* medium: four plies, noise of 0.3 pawns;
* hard: the full search (iterative deepening, aspiration windows, pruning) for the time per move,
  1 s unless asked otherwise, without noise.

Mates are never blurred: within its depth every level takes a mate and avoids being mated. A
requested thinking time caps the easy and medium levels too. Without a seed the noise comes from a
generator seeded with 0, so every level is deterministic unless asked for variety.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from zermelo.agents.base import Agent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError
from zermelo.core.state import AnyState
from zermelo.games.chess import ChessMove, ChessState
from zermelo.search.result import MoveValue, SearchResult
from zermelo.solvers.chess import LEVELS, ChessEngine
from zermelo.solvers.chess.engine import MATE_BOUND

__all__ = [
    "AGENT_HASH_MB",
    "LEVEL_SETTINGS",
    "ChessAgent",
    "easy",
    "hard",
    "medium",
    "noisy_choice",
]

AGENT_HASH_MB = 32
"""The transposition table of each agent's engine, in MiB."""

LEVEL_SETTINGS: dict[str, tuple[int | None, float]] = {
    name: (level.depth, level.noise) for name, level in LEVELS.items()
}
"""Level -> (depth cap in plies, noise in centipawns): :data:`zermelo.solvers.chess.LEVELS`, the
one definition that UCI's ``Level`` option plays too."""


def noisy_choice(
    values: Sequence[MoveValue[ChessMove]], rng: random.Random, noise: float
) -> MoveValue[ChessMove]:
    """The move whose value (centipawns) plus Gaussian noise of ``noise`` centipawns is highest;
    mates are never blurred. ``values`` must not be empty."""

    def blurred(value: MoveValue[ChessMove]) -> float:
        if abs(value.value) > MATE_BOUND:
            return float(value.value)
        return value.value + rng.gauss(0.0, noise)

    return max(values, key=blurred)


class ChessAgent:
    """Plays chess with the engine at ``depth`` plies (``None``: as deep as ``time_limit``
    allows), blurring each move's value with noise of ``noise`` centipawns when it is above 0.

    ``last`` holds the engine's search behind the last move, in centipawns, for front ends that
    show the thinking; it is ``None`` after a noisy choice, whose move is not the one the values
    rank first.
    """

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        noise: float = 0.0,
        seed: int | None = None,
        name: str = "chess",
        hash_mb: int = AGENT_HASH_MB,
    ) -> None:
        if depth is None and time_limit is None:
            time_limit = 1.0
        self.depth = depth
        self.time_limit = time_limit
        self.noise = noise
        self.rng = random.Random(0 if seed is None else seed)
        self.name = name
        self.engine = ChessEngine(hash_mb=hash_mb)
        self.last: SearchResult[ChessMove] | None = None

    def choose(self, state: AnyState) -> ChessMove:
        if not isinstance(state, ChessState):
            raise InvalidPositionError(
                f"the chess levels play chess only, not {type(state).__name__}"
            )
        board = state.board
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        if self.noise > 0:
            values = self.engine.analyze_moves(board, depth=self.depth, movetime=self.time_limit)
            self.last = None
            if values.moves:
                return noisy_choice(values.moves, self.rng, self.noise).move
            # no move finished within the time: the engine's plain choice below
        result = self.engine.search(board, depth=self.depth, movetime=self.time_limit)
        self.last = result
        if result.move is None:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return result.move


def _level(level: str, seed: int | None, time_limit: float | None) -> Agent:
    depth, noise = LEVEL_SETTINGS[level]
    if depth is None and time_limit is None:
        time_limit = 1.0
    return ChessAgent(depth=depth, time_limit=time_limit, noise=noise, seed=seed, name=level)


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return _level("easy", seed, time_limit)


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return _level("medium", seed, time_limit)


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return _level("hard", seed, time_limit)
