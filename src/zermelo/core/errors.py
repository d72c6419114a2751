"""The error tree.

Every error the library raises on purpose derives from :class:`ZermeloError`, one meaning per
subclass. Errors about input (a parse error, an illegal move, an invalid position or option, an
unknown game) are also :class:`ValueError`, as python-chess's are, so callers that already catch
``ValueError`` keep working; a busy server, a missing capability and a failed worker are not
``ValueError``: nothing was wrong with the value asked for. Messages quote the
offending input and say what was expected, in one line.

A message is a template and its parameters: ``ParseError(N_("bad move {move!r}"), move=text)``.
The template is the English message id, marked with :func:`N_` so that the catalogs find it; code
below the front ends never translates. ``str(error)`` is the English line; a front end shows
``error.render(_)``, the template translated and then filled (a parameter that is itself an error
is rendered the same way). A message given as a finished text (no parameters) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

__all__ = [
    "N_",
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


def N_(message: str) -> str:  # noqa: N802 - the name the catalogs' extraction looks for
    """Mark an error's template for the catalogs; it is translated where it is shown."""
    return message


class Phrase(str):
    """An English phrase given as an error's parameter ("a whole number"), marked with :func:`N_`
    where it is written; it is translated with the template."""

    __slots__ = ()


def _rebuild(
    kind: type[ZermeloError], message: str, params: Mapping[str, object], state: dict[str, object]
) -> ZermeloError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    error.message, error.params = message, dict(params)
    return error


class ZermeloError(Exception):
    """Root of every error zermelo raises on purpose. ``message`` is the English template (or a
    finished English line when there are no ``params``); see the module's docstring."""

    message: str
    params: dict[str, object]

    def __init__(self, message: str = "", /, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """The line in the language of ``translate`` (a ``gettext``); English without one."""
        if not self.params:
            return translate(self.message) if translate is not None else self.message
        values = {name: _rendered(value, translate) for name, value in self.params.items()}
        template = translate(self.message) if translate is not None else self.message
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return self.message.format(**values)

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[object, ...]:
        # Errors cross process boundaries (workers, the solver's process); keep the parameters.
        state = {k: v for k, v in self.__dict__.items() if k not in ("message", "params")}
        return (_rebuild, (type(self), self.message, self.params, state))


def _rendered(value: object, translate: Callable[[str], str] | None) -> object:
    if isinstance(value, ZermeloError):
        return value.render(translate)
    if isinstance(value, Phrase) and translate is not None:
        return translate(value)
    return value


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
