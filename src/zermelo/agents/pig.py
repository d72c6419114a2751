"""Pig's levels.

* easy: "hold at 20", the rule of thumb: roll while the turn total is below 20 (and hold as soon
  as holding wins). Against itself it wins 0.5347 for the first player.
* medium: expectiminimax (*-minimax with Star2) six edges deep (three rolls) with the game's
  simple evaluation at the horizon.
* hard: the optimal policy, solved by value iteration (:mod:`zermelo.solvers.pig`) once per
  process and kept; for a goal too big to solve here, the search of medium, eight edges deep.

Every level is deterministic: the dice are the only chance in Pig, and the game rolls them.
"""

from __future__ import annotations

from collections.abc import Hashable

from zermelo.agents.base import Agent
from zermelo.agents.engine import EngineAgent
from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidPositionError
from zermelo.core.state import AnyState
from zermelo.games.pig import HOLD, ROLL, PigState

__all__ = ["HoldAtAgent", "OptimalAgent", "easy", "hard", "medium"]


def _decision(state: AnyState) -> PigState:
    if not isinstance(state, PigState):
        raise InvalidPositionError(f"the Pig levels play Pig only, not {type(state).__name__}")
    if state.is_terminal():
        raise IllegalMoveError("the game is over; there is no move to choose")
    if state.rolling:
        raise IllegalMoveError("the dice decide at a chance node; no player chooses there")
    return state


class HoldAtAgent:
    """Rolls while the turn total is below ``threshold`` and holding does not win."""

    def __init__(self, threshold: int = 20, name: str = "hold-at-20") -> None:
        self.threshold = threshold
        self.name = name

    def choose(self, state: AnyState) -> Hashable:
        pig = _decision(state)
        if pig.banked(pig.to_move) + pig.turn >= pig.goal or pig.turn >= self.threshold:
            return HOLD
        return ROLL


class OptimalAgent:
    """Plays the optimal policy of the solved table for the game's goal and die."""

    def __init__(self, name: str = "optimal") -> None:
        self.name = name
        self._fallback: Agent | None = None

    def choose(self, state: AnyState) -> Hashable:
        from zermelo.solvers.pig import best_move, check_size, solved_table

        pig = _decision(state)
        try:
            check_size(pig.goal, pig.die)
        except BudgetError:
            if self._fallback is None:
                self._fallback = EngineAgent(depth=8, name=self.name)
            return self._fallback.choose(pig)
        return best_move(solved_table(pig.goal, pig.die), pig)


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return HoldAtAgent(20)


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return EngineAgent(depth=6, seed=seed, name="medium")


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return OptimalAgent()
