"""Players: the engine at a level, random, and the protocol a human adapter fits."""

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import LEVELS, make_agent, register_levels

# Games' own levels register themselves on import.
from zermelo.agents import checkers as _checkers  # noqa: F401  # isort: skip
from zermelo.agents import gomoku as _gomoku  # noqa: F401  # isort: skip

__all__ = ["LEVELS", "Agent", "EngineAgent", "RandomAgent", "make_agent", "register_levels"]
