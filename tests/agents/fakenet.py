"""Stand-ins for learned nets in the faces' tests: :class:`UniformNet` (uniform priors over the
legal moves and the value 0, any game, a :class:`~zermelo.core.capabilities.PolicyValue`), and
:func:`tiny_net`, a real :class:`~zermelo.agents.az.Net` with small seeded random weights, to
save as an ``.npz`` file for ``az:net=PATH``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zermelo.agents.az import FORMAT, Net, learnable
from zermelo.core.state import AnyState
from zermelo.games.registry import get_game

__all__ = ["FAKE", "UniformNet", "tiny_net", "write_net"]


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


def tiny_net(game: str, seed: int = 0, channels: int = 4, hidden: int = 8) -> Net:
    """A net of ``game``'s shape with no residual block and random weights from ``seed``."""
    spec = get_game(game)
    encoder = learnable(spec)
    start = spec.new()
    planes, rows, columns = encoder.shape(start)
    actions = encoder.actions(start)
    rng = np.random.default_rng(seed)

    def weights(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.5, size=shape).astype(np.float32)

    cells = rows * columns
    arrays = {
        "stem.w": weights(9 * planes, channels),
        "stem.b": weights(channels),
        "policy.conv.w": weights(channels, 2),
        "policy.conv.b": weights(2),
        "policy.fc.w": weights(2 * cells, actions),
        "policy.fc.b": weights(actions),
        "value.conv.w": weights(channels, 1),
        "value.conv.b": weights(1),
        "value.fc1.w": weights(cells, hidden),
        "value.fc1.b": weights(hidden),
        "value.fc2.w": weights(hidden, 1),
        "value.fc2.b": weights(1),
    }
    meta = {
        "format": FORMAT,
        "game": spec.name,
        "options": {},
        "shape": [planes, rows, columns],
        "actions": actions,
        "channels": channels,
        "blocks": 0,
        "description": f"a tiny random net for {spec.name} (a test's stand-in)",
    }
    return Net(arrays, meta)


def write_net(path: Path, game: str, seed: int = 0) -> Path:
    """:func:`tiny_net` saved at ``path``."""
    tiny_net(game, seed).save(path)
    return path
