"""A stand-in for a learned net in tests of the faces: uniform priors over the legal moves and
the value 0, for any game (the shape of :class:`~zermelo.core.capabilities.PolicyValue`)."""

from __future__ import annotations

from collections.abc import Sequence

from zermelo.core.state import AnyState

__all__ = ["FAKE", "UniformNet"]


class UniformNet:
    """Every legal move equally likely, every position even."""

    description = "uniform priors, value 0 (a test's stand-in)"

    def __init__(self, game: str = "any") -> None:
        self.game = game
        self.calls = 0

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        self.calls += 1
        answers: list[tuple[list[float], float]] = []
        for state in states:
            count = len(list(state.legal_moves()))
            answers.append(([1.0 / count] * count if count else [], 0.0))
        return answers


FAKE = UniformNet()
