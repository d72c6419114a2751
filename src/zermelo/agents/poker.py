"""Poker players that draw each move from a strategy, seeing only what their side may see.

A :class:`PolicyAgent` looks up ``information_set(state.to_move)`` (its own card, the public
cards and the betting) in a strategy table and draws a move with those probabilities from its own
seeded ``random.Random``; it reads nothing else of the state (not the other side's card, not the
notation), so it plays the same in every state its side cannot tell apart.

The levels of Kuhn poker and Leduc hold'em: easy plays uniformly at random, medium CFR+'s average
strategy after a few iterations (10 for Kuhn, 50 for Leduc), hard the converged equilibrium that
ships with the package (see :mod:`zermelo.solvers.poker`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping

from zermelo.core.errors import IllegalMoveError
from zermelo.core.state import AnyState, HiddenInfo, is_chance

__all__ = [
    "PolicyAgent",
    "kuhn_easy",
    "kuhn_hard",
    "kuhn_medium",
    "leduc_easy",
    "leduc_hard",
    "leduc_medium",
]


class PolicyAgent:
    """Plays ``strategy`` (information set -> move notation -> probability): one
    ``rng.random()`` per move, against the cumulative probabilities of the legal moves in their
    order. An information set the strategy does not hold is played uniformly."""

    def __init__(
        self,
        strategy: Mapping[str, Mapping[str, float]],
        seed: int | None = None,
        name: str = "policy",
    ) -> None:
        self.strategy = strategy
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, state: AnyState) -> Hashable:
        if not isinstance(state, HiddenInfo):
            raise IllegalMoveError(
                "a policy agent plays games with hidden information; this state has none"
            )
        if is_chance(state):
            raise IllegalMoveError("a chance node's outcome is drawn by the game, not chosen")
        moves: list[Hashable] = list(state.legal_moves())
        if not moves:
            raise IllegalMoveError("the game is over; there is no move to choose")
        row = self.strategy.get(str(state.information_set(state.to_move)))
        if row is None:
            weights = [1.0] * len(moves)
        else:
            weights = [max(float(row.get(state.format_move(move), 0.0)), 0.0) for move in moves]
        total = sum(weights)
        if total <= 0:
            weights, total = [1.0] * len(moves), float(len(moves))
        point = self.rng.random() * total
        running = 0.0
        for move, weight in zip(moves, weights, strict=True):
            running += weight
            if point < running:
                return move
        return next(m for m, w in zip(reversed(moves), reversed(weights), strict=True) if w > 0)


def _level(game: str, level: str, seed: int | None) -> PolicyAgent:
    from zermelo.solvers.poker import early_strategy, equilibrium

    strategy: Mapping[str, Mapping[str, float]]
    if level == "easy":
        strategy = {}  # every information set played uniformly
    elif level == "medium":
        strategy = early_strategy(game)
    else:
        strategy = equilibrium(game)
    return PolicyAgent(strategy, seed, name=f"{game}:{level}")


def kuhn_easy(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Kuhn poker, easy: every legal move equally likely."""
    return _level("kuhn", "easy", seed)


def kuhn_medium(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Kuhn poker, medium: CFR+ after 10 iterations."""
    return _level("kuhn", "medium", seed)


def kuhn_hard(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Kuhn poker, hard: the converged equilibrium."""
    return _level("kuhn", "hard", seed)


def leduc_easy(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Leduc hold'em, easy: every legal move equally likely."""
    return _level("leduc", "easy", seed)


def leduc_medium(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Leduc hold'em, medium: CFR+ after 50 iterations."""
    return _level("leduc", "medium", seed)


def leduc_hard(seed: int | None, time_limit: float | None) -> PolicyAgent:
    """Leduc hold'em, hard: the converged equilibrium."""
    return _level("leduc", "hard", seed)
