"""The Connect Four levels, backed by :func:`zermelo.solvers.connect4.choose_move`.

* easy: 2 plies with the evaluation; sometimes overlooks a win on the spot, often plays a loose move.
* medium: 4 plies; never misses a win on the spot or a block, sometimes plays a loose move that does
  not hand over a win at once.
* hard: perfect play from the exact solver (the opening book holds the best moves of the first
  eight plies); where the exact best move is over budget (never in the seeded benchmark since the
  book reaches ply 7; with a smaller table or the plain-Python kernel it can be) a move that keeps
  the outcome, and past that budget too, or when every move loses, the move of a 6-ply heuristic
  search.

Without a seed every level is deterministic.
"""

from __future__ import annotations

import random

from zermelo.agents.base import Agent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError
from zermelo.core.state import AnyState
from zermelo.games.connect4 import Connect4State

__all__ = ["Connect4Agent", "easy", "hard", "medium"]


class Connect4Agent:
    """Plays Connect Four at ``level`` ("easy", "medium" or "hard")."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.name = level
        self.level = level
        self.rng = random.Random(seed) if seed is not None else None

    def choose(self, state: AnyState) -> int:
        from zermelo.solvers.connect4.api import choose_move, hard_node_limit
        from zermelo.solvers.connect4.solver import default_solver

        if not isinstance(state, Connect4State):
            raise InvalidPositionError(
                f"the Connect Four levels play Connect Four only, not {type(state).__name__}"
            )
        if not state.legal_moves():
            raise IllegalMoveError("the game is over; there is no move to choose")
        solver = default_solver(state.width, state.height)
        return choose_move(
            state, self.level, rng=self.rng, solver=solver, hard_node_limit=hard_node_limit(solver)
        )


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return Connect4Agent("easy", seed)


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return Connect4Agent("medium", seed)


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return Connect4Agent("hard", seed)
