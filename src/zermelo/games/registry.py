"""Every game by name: the built-in ones and those other packages register as plugins.

A package adds a game by naming its :class:`~zermelo.core.record.GameSpec` in the
``zermelo.games`` entry-point group of its ``pyproject.toml``::

    [project.entry-points."zermelo.games"]
    nim = "zermelo_nim:SPEC"

The entry point's name is the game's name. Game modules are imported on first use, so that
``import zermelo`` stays light and listing the games imports none of them. A plugin that fails to
import, or names something that is not a record, is left out with one warning line (logger
``zermelo.games``) naming its package; it never hides another game, and it cannot replace a
built-in game.

A *family* is a set of games named by a prefix and built on demand (``openspiel:hex(board_size=5)``).
A family declares its parameters with ranges; :func:`get_game` has the family check and
canonicalise a name *before* anything is built (a bad name costs one 4xx line and no memory), and
keeps the records built in a bounded cache (least recently used go first), keyed by the canonical
name, so that ``hex(board_size=05)`` and ``hex( board_size=5 )`` are one game.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from zermelo.core.errors import N_, UnknownGameError
from zermelo.core.record import GameSpec, Ref

__all__ = [
    "ENTRY_POINT_GROUP",
    "FAMILY_CACHE",
    "Family",
    "GameSpec",
    "all_games",
    "game_names",
    "get_game",
    "plugin_errors",
    "suggest",
]

ENTRY_POINT_GROUP = "zermelo.games"

_log = logging.getLogger("zermelo.games")

# name -> "module:attribute" of its record, in the order front ends list them.
_BUILT_IN: dict[str, str] = {
    "tictactoe": "zermelo.games.tictactoe:SPEC",
    "connect4": "zermelo.games.connect4:SPEC",
    "gomoku": "zermelo.games.mnk:GOMOKU_SPEC",
    "mnk": "zermelo.games.mnk:SPEC",
    "checkers": "zermelo.games.checkers:SPEC",
    "international": "zermelo.games.draughts.international:SPEC",
    "dama": "zermelo.games.draughts.dama:SPEC",
    "chess": "zermelo.games.chess:SPEC",
    "othello": "zermelo.games.othello:SPEC",
    "backgammon": "zermelo.games.backgammon:SPEC",
    "kuhn": "zermelo.games.poker.kuhn:SPEC",
    "leduc": "zermelo.games.poker.leduc:SPEC",
    "pig": "zermelo.games.pig:SPEC",
}

_failed: dict[str, str] = {}


@dataclass(frozen=True)
class Family:
    """Games named by ``prefix`` and built on demand. ``canonical(name)`` checks a name against
    the family's declared parameters and ranges without building anything, and returns the one
    name of that game (its parameters in order, with no padding or spaces); it raises a
    :class:`~zermelo.core.errors.ZermeloError` line for a bad name. ``build(canonical)`` makes
    the record of a checked name."""

    prefix: str
    canonical: Ref[Callable[[str], str]]
    build: Ref[Callable[[str], GameSpec]]


_FAMILIES: tuple[Family, ...] = (
    Family(
        "openspiel:",
        Ref("zermelo.interop.openspiel:canonical_name"),
        Ref("zermelo.interop.openspiel:openspiel_spec"),
    ),
)

FAMILY_CACHE = 16
"""At most this many records of family games are kept built."""


@functools.lru_cache(maxsize=FAMILY_CACHE)
def _family_game(family: Family, canonical: str) -> GameSpec:
    return family.build.resolve()(canonical)


class _PluginError(UnknownGameError):
    """A plugin's game that does not load; ``package`` and ``problem`` say why."""

    def __init__(self, name: str, package: str, problem: str) -> None:
        super().__init__(f"game {name!r} is not available: {problem}")
        self.package = package
        self.problem = problem


@functools.cache
def _plugins() -> dict[str, tuple[str, str]]:
    """Plugin game name -> (its target, its distribution's name), from the installed packages."""
    found: dict[str, tuple[str, str]] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        package = entry.dist.name if entry.dist is not None else entry.module
        name = entry.name.strip().lower()
        if name in _BUILT_IN or name in found:
            _warn(name, package, f"the name {name!r} is taken by another game")
            continue
        found[name] = (entry.value, package)
    return found


def _warn(name: str, package: str, problem: str) -> None:
    message = f"zermelo: the game plugin {name!r} of package {package!r} is left out: {problem}"
    if _failed.get(name) != message:
        _failed[name] = message
        # A server's logging set-up (uvicorn's dictConfig) disables the loggers that exist before
        # it; this line must still be seen.
        _log.disabled = False
        _log.warning(message)


def game_names() -> list[str]:
    """The names of every game, built-in ones first, then plugins (sorted); none is imported."""
    return [*_BUILT_IN, *sorted(_plugins())]


def plugin_errors() -> list[str]:
    """The warning lines of the plugins left out so far."""
    return list(_failed.values())


@functools.cache
def _load(name: str) -> GameSpec:
    target = _BUILT_IN.get(name)
    package = "zermelo"
    if target is None:
        target, package = _plugins()[name]
    try:
        spec = Ref[object](target).resolve()
    except Exception as error:
        if package == "zermelo":
            raise
        problem = f"{target} failed to import ({type(error).__name__}: {error})"
        raise _PluginError(name, package, problem) from None
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise _PluginError(name, package, f"{target} is not the GameSpec of a game called {name!r}")
    return spec


def all_games() -> list[GameSpec]:
    """The record of every game that loads, in the order of :func:`game_names`; a plugin that
    fails is left out (with its warning line) and the others stay."""
    specs = []
    for name in game_names():
        try:
            specs.append(_load(name))
        except _PluginError as error:
            _warn(name, error.package, error.problem)
    return specs


def get_game(name: str) -> GameSpec:
    """The record of the game called ``name`` or one of its aliases."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in _BUILT_IN or key in _plugins():
        return _load(key)
    for family in _FAMILIES:
        if key.startswith(family.prefix):
            return _family_game(family, family.canonical.resolve()(key))
    specs = all_games()
    for spec in specs:
        if key in spec.aliases:
            return spec
    shown = name if isinstance(name, str) else repr(name)
    guess = suggest(key, [word for spec in specs for word in (spec.name, *spec.aliases)])
    if guess is not None:
        spec = get_game(guess)
        raise UnknownGameError(
            N_("unknown game {name!r}; did you mean {guess!r}?"), name=shown[:60], guess=spec.name
        )
    raise UnknownGameError(
        N_("unknown game {name!r}: expected one of {games}"),
        name=shown[:60],
        games=", ".join(game_names()),
    )


def suggest(word: str, known: list[str]) -> str | None:
    """The one of ``known`` that ``word`` is most likely a misspelling of, or ``None``."""
    import difflib

    found = difflib.get_close_matches(word.strip().lower(), known, n=1, cutoff=0.6)
    return found[0] if found else None
