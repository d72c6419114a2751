"""The error tree.

Every error the library raises on purpose derives from :class:`ZermeloError`, one meaning per
subclass. Errors about input (a parse error, an illegal move, an invalid position or option, an
unknown game) are also :class:`ValueError`, as python-chess's are, so callers that already catch
``ValueError`` keep working; a busy server, a missing capability and a failed worker are not
``ValueError``: nothing was wrong with the value asked for. Messages quote the
offending input and say what was expected; front ends print ``str(error)`` as one line.
"""

from __future__ import annotations

__all__ = [
    "BudgetError",
    "BusyError",
    "CapabilityError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "ParseError",
    "UnknownGameError",
    "WorkerFailed",
    "ZermeloError",
]


class ZermeloError(Exception):
    """Root of every error zermelo raises on purpose."""


class _InputError(ZermeloError, ValueError):
    """An error about a value given (text, a move, a position, an option, a name)."""


class ParseError(_InputError):
    """Text that is not valid notation (a move, a position, a setting)."""


class IllegalMoveError(_InputError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(_InputError):
    """A position that no legal game reaches, or that breaks the rules' invariants."""


class InvalidOptionError(_InputError):
    """A setting of a search or a game outside its range (an exploration constant, a weight)."""


class BudgetError(_InputError):
    """A budget of a search (its time, nodes, depth or table size) that is not usable, or that
    ran out before the search could answer."""


class UnknownGameError(_InputError):
    """A game name that the registry does not know."""


class CapabilityError(ZermeloError):
    """The game cannot do what was asked: it has no solver, no explainer, no perft. The message
    names the games that can."""


class BusyError(ZermeloError):
    """The work was refused because the capacity for it is in use (a server's searches); trying
    again later can succeed. The web face answers it with 503."""


class WorkerFailed(ZermeloError):
    """A process or cluster worker that was doing the work died or could not start."""
