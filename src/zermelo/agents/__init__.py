"""Players: the engine at a level, random, and the protocol a human adapter fits."""

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import LEVELS, make_agent, register_levels

__all__ = ["LEVELS", "Agent", "EngineAgent", "RandomAgent", "make_agent", "register_levels"]
