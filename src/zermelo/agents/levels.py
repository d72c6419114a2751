"""Named strength levels per game: easy, medium and hard.

Each game maps each level to a factory ``(seed, time_limit) -> Agent``. Games register their own
levels here; a game without an entry gets the generic engine levels.
"""

from __future__ import annotations

from collections.abc import Callable

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.core.errors import ParseError

__all__ = ["LEVELS", "make_agent", "register_levels"]

LEVELS = ("easy", "medium", "hard")

Factory = Callable[[int | None, float | None], Agent]

_GENERIC: dict[str, Factory] = {
    "easy": lambda seed, limit: EngineAgent(depth=1, noise=3.0, seed=seed, name="easy"),
    "medium": lambda seed, limit: EngineAgent(depth=2, noise=1.0, seed=seed, name="medium"),
    "hard": lambda seed, limit: EngineAgent(time_limit=limit, seed=seed, name="hard"),
}

_BY_GAME: dict[str, dict[str, Factory]] = {
    # Tic-tac-toe: easy sees only its own wins (depth 1) and blocks when its evaluation happens to
    # value the block above the noise; medium never misses a win or a block (depth 2) but walks
    # into forks; hard reads the whole game and never loses.
    "tictactoe": {
        "easy": lambda seed, limit: EngineAgent(depth=1, noise=6.0, seed=seed, name="easy"),
        "medium": lambda seed, limit: EngineAgent(depth=2, noise=2.0, seed=seed, name="medium"),
        "hard": lambda seed, limit: EngineAgent(seed=seed, name="hard"),
    },
}


def register_levels(game: str, factories: dict[str, Factory]) -> None:
    """Give ``game`` its own level factories (any of easy, medium, hard)."""
    _BY_GAME.setdefault(game, {}).update(factories)


def make_agent(
    game: str, level: str, *, seed: int | None = None, time_limit: float | None = None
) -> Agent:
    """The agent for ``level`` ("easy", "medium", "hard" or "random") at ``game``."""
    if level == "random":
        return RandomAgent(seed)
    if level not in LEVELS:
        raise ParseError(f"unknown level {level!r}: expected easy, medium, hard or random")
    factory = _BY_GAME.get(game, {}).get(level, _GENERIC[level])
    return factory(seed, time_limit)
