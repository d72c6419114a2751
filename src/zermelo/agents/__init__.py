"""Players: the engine at a level, MCTS, random, and the protocol a human adapter fits."""

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import LEVELS, make_agent, register_levels
from zermelo.agents.mcts import MctsAgent
from zermelo.agents.spec import AgentSpec, parse_agent

# Games' own levels register themselves on import.
from zermelo.agents import checkers as _checkers  # noqa: F401  # isort: skip
from zermelo.agents import gomoku as _gomoku  # noqa: F401  # isort: skip
from zermelo.agents import connect4 as _connect4  # noqa: F401  # isort: skip

__all__ = [
    "LEVELS",
    "Agent",
    "AgentSpec",
    "EngineAgent",
    "MctsAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent",
    "register_levels",
]
