"""The search engine as a player, at a strength set by depth, time and noise."""

from __future__ import annotations

import random
from collections.abc import Hashable

from zermelo.core.errors import IllegalMoveError
from zermelo.core.result import MoveValue, SearchResult
from zermelo.core.scores import is_decided
from zermelo.core.state import AnyState, Chance, is_chance
from zermelo.search.alphabeta import Evaluator, alphabeta, analyze
from zermelo.search.expectimax import chance_analysis, star_minimax, value_bounds
from zermelo.search.table import TranspositionTable

__all__ = ["CHANCE_DEPTH", "EngineAgent"]

CHANCE_DEPTH = 6
"""The depth (moves and dice outcomes) of the engine in a game with chance nodes when no depth
is given: three rolls of a die in Pig."""


class EngineAgent:
    """Alpha-beta at a given depth or time per move.

    With ``noise`` > 0 every legal move is valued on its own and a seeded Gaussian noise of that
    standard deviation is added to each heuristic value before the best is taken: the agent then
    prefers moves that look good at its depth, but not always the same one, and it misses what lies
    beyond its horizon; these are the believable mistakes of the lower levels. Proven wins and losses
    are never blurred, so within its depth it takes a win and avoids a loss like a person would.
    Without noise, equal moves are drawn from the seeded generator, so games vary but replay.
    With no seed the agent is deterministic: equal moves break to the lowest, and noise (if any)
    comes from a generator seeded with 0. Randomness is only ever asked for, never implied.
    ``evaluator`` replaces the state's own ``evaluate`` at the horizon (for example a
    :func:`zermelo.search.quiescence.quiescent` one).

    A game with chance nodes (dice) is searched by expectiminimax instead
    (:mod:`zermelo.search.expectimax`): *-minimax with Star2 where the game bounds its values,
    to ``depth`` edges (moves and outcomes alike; :data:`CHANCE_DEPTH` when none is given, as
    such a game's tree may be endless), with the noise added to each move's expected value.
    The agent never chooses at a chance node: whoever runs the game rolls the dice.
    """

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        noise: float = 0.0,
        seed: int | None = None,
        name: str = "engine",
        evaluator: Evaluator | None = None,
    ) -> None:
        self.depth = depth
        self.time_limit = time_limit
        self.noise = noise
        self.rng = random.Random(0 if seed is None else seed)
        self.tie_rng = None if seed is None else self.rng
        self.name = name
        self.evaluator = evaluator
        self.table = TranspositionTable()
        self.last: SearchResult[Hashable] | None = None

    def choose(self, state: AnyState) -> Hashable:
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        if issubclass(type(state), Chance):
            return self._chance_choice(state)
        if self.noise > 0:
            return self._noisy_choice(
                analyze(state, depth=self.depth, table=self.table, evaluator=self.evaluator)
            )
        result = alphabeta(
            state,
            depth=self.depth,
            time_limit=self.time_limit,
            table=self.table,
            evaluator=self.evaluator,
            rng=self.tie_rng,
        )
        self.last = result
        move: Hashable | None = result.move
        if move is None:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return move

    def _chance_choice(self, state: AnyState) -> Hashable:
        if is_chance(state):
            raise IllegalMoveError("the dice decide at a chance node; no player chooses there")
        depth = CHANCE_DEPTH if self.depth is None else self.depth
        if self.noise > 0 or value_bounds(state) is None:
            analysis = chance_analysis(state, depth, evaluator=self.evaluator)
            moves = {state.format_move(move): move for move in state.legal_moves()}
            values = [
                MoveValue(moves[line.move], line.value, analysis.exact) for line in analysis.lines
            ]
            if self.noise > 0:
                return self._noisy_choice(values)
            best: Hashable = values[0].move
            return best
        result = star_minimax(state, depth, evaluator=self.evaluator)
        self.last = result
        move: Hashable | None = result.move
        if move is None:
            raise IllegalMoveError("the game is over; there is no move to choose")
        return move

    def _noisy_choice(self, values: list[MoveValue[Hashable]]) -> Hashable:
        def blurred(value: MoveValue[Hashable]) -> float:
            if is_decided(value.value):
                return value.value
            return value.value + self.rng.gauss(0.0, self.noise)

        return max(values, key=blurred).move
