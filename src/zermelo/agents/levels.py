"""Named strength levels: easy, medium and hard, as each game's record defines them.

A game's record (:attr:`zermelo.core.record.GameSpec.levels`) writes each level as an agent in the
arena's syntax, or names a factory of its own; a level it leaves out is the engine at a generic
strength. :func:`make_agent` builds the player.
"""

from zermelo.agents.spec import make_agent
from zermelo.core.record import LEVELS

__all__ = ["LEVELS", "make_agent"]
