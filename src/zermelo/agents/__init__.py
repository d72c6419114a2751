"""Players: the engine at a level, MCTS, random, and the protocol a human adapter fits."""

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import LEVELS, make_agent, register_levels
from zermelo.agents.mcts import MctsAgent
from zermelo.agents.spec import AgentSpec, parse_agent

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
