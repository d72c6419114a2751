"""Players: the engine at a level, MCTS, random, and the protocol a human adapter fits."""

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.mcts import MctsAgent
from zermelo.agents.spec import AgentSpec, make_agent, parse_agent
from zermelo.core.record import LEVELS

__all__ = [
    "LEVELS",
    "Agent",
    "AgentSpec",
    "EngineAgent",
    "MctsAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent",
]
