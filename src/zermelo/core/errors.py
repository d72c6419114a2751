"""The error tree.

Every error the library raises on purpose derives from :class:`ZermeloError`, which is a
:class:`ValueError`, so callers that already catch ``ValueError`` keep working. Messages quote the
offending input and say what was expected; front ends print ``str(error)`` as one line.
"""

from __future__ import annotations

__all__ = [
    "BudgetError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "ParseError",
    "UnknownGameError",
    "ZermeloError",
]


class ZermeloError(ValueError):
    """Root of every error zermelo raises on purpose."""


class ParseError(ZermeloError):
    """Text that is not valid notation (a move, a position, a setting)."""


class IllegalMoveError(ZermeloError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(ZermeloError):
    """A position that no legal game reaches, or that breaks the rules' invariants."""


class InvalidOptionError(ZermeloError):
    """A setting of a search or a game outside its range (an exploration constant, a weight)."""


class BudgetError(ZermeloError):
    """A budget of a search (its time, nodes, depth or table size) that is not usable, or that
    ran out before the search could answer."""


class UnknownGameError(ZermeloError):
    """A game name that the registry does not know."""
