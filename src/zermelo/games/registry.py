"""Names of games mapped to their specs, imported on first use so that ``import zermelo`` stays light."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zermelo.core.errors import UnknownGameError
from zermelo.core.state import Player

__all__ = ["GameSpec", "game_names", "get_game"]


@dataclass(frozen=True)
class GameSpec:
    """What front ends need to know about a game.

    ``new(**options)`` makes the initial state; ``parse(text)`` reads the game's position notation.
    ``options`` documents the keyword options ``new`` takes (name to one-line help).
    ``first_mover`` is the side the rules make move first (checkers: Black), or ``None`` when
    either side may start (``new(first=...)`` picks it); with a fixed first mover, a front end
    that lets a person choose who starts gives that person the first mover's side instead.
    ``default_time`` is the search time in seconds that front ends use when no depth or time was
    asked for, for games too deep to search to the end (``None``: search to the end).
    """

    name: str
    title: str
    new: Callable[..., Any]
    parse: Callable[[str], Any]
    options: dict[str, str] = field(default_factory=dict)
    first_mover: Player | None = None
    default_time: float | None = None


# name -> "module:attribute" of its GameSpec; aliases point to the same spec.
_SPECS: dict[str, str] = {
    "tictactoe": "zermelo.games.tictactoe:SPEC",
    "connect4": "zermelo.games.connect4:SPEC",
    "checkers": "zermelo.games.checkers:SPEC",
    "mnk": "zermelo.games.mnk:SPEC",
    "gomoku": "zermelo.games.mnk:GOMOKU_SPEC",
}
_ALIASES: dict[str, str] = {
    "ttt": "tictactoe",
    "tic-tac-toe": "tictactoe",
    "c4": "connect4",
    "connect-four": "connect4",
    "draughts": "checkers",
    "english-draughts": "checkers",
    "caro": "gomoku",
    "m,n,k": "mnk",
}


# Name prefix -> "module:function" that builds the spec of a name with that prefix.
_RESOLVERS: dict[str, str] = {
    "openspiel:": "zermelo.interop.openspiel:openspiel_spec",
}


def game_names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_SPECS)


def get_game(name: str) -> GameSpec:
    """The spec registered under ``name`` (or one of its aliases)."""
    for prefix, resolver in _RESOLVERS.items():
        if name.strip().lower().startswith(prefix):
            module_name, function = resolver.split(":")
            built: GameSpec = getattr(importlib.import_module(module_name), function)(name)
            return built
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    target = _SPECS.get(key)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(game_names())}")
    module_name, attribute = target.split(":")
    spec: GameSpec = getattr(importlib.import_module(module_name), attribute)
    return spec
