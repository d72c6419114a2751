"""How each game looks in the browser: a grid of points to click.

Two kinds of grid cover the games:

* ``place``: every empty point is a move (tic-tac-toe, gomoku, any m,n,k board);
* ``drop``: a click anywhere in a column is the move for that column (Connect Four);
* ``checkers``: the 8x8 draughts board; only the 32 dark squares are points, each named by its
  square number, and a move takes two clicks or more (the piece, then where it goes), which the
  page matches against the legal moves.

An adapter says how big the grid is, what lies on each cell (rows from the top) and which move a
cell or column stands for; the page draws any grid from that. Adding a game is a few lines here: the
rows of marks and the move of a cell. Game modules are imported only when a game is asked for, so a
game that is not installed on this branch simply does not appear.

Each adapter also lists the game options a client may send, with their ranges, so that nothing
unchecked reaches ``GameSpec.new``, and the budgets its searches get.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zermelo.core.errors import ParseError, UnknownGameError, ZermeloError
from zermelo.games.registry import GameSpec, get_game
from zermelo.ui.web.engines import Choice, ValuedMoves, generic_choose, generic_values
from zermelo.ui.web.solvers import connect4_choose, connect4_values, gomoku_choose, gomoku_values

__all__ = ["ADAPTERS", "Adapter", "IntOption", "adapter_for", "available_games"]


@dataclass(frozen=True)
class IntOption:
    """A whole-number game option a client may set, within ``[low, high]``; ``default`` is what
    the game uses when it is not set."""

    low: int
    high: int
    default: int

    def check(self, name: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParseError(f"option {name}={value!r}: expected a whole number")
        if not self.low <= value <= self.high:
            raise ParseError(
                f"option {name}={value!r}: expected a number from {self.low} to {self.high}"
            )
        return value


@dataclass(frozen=True)
class BoolOption:
    """A yes/no game option."""

    default: bool = False

    def check(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise ParseError(f"option {name}={value!r}: expected true or false")
        return value


Option = IntOption | BoolOption


@dataclass(frozen=True)
class Adapter:
    """One game's grid. ``rows(state)`` gives the marks from the top row down, one character per
    cell (``X``, ``O``, anything else is empty); ``move_at(state, col, row)`` the move a click on
    that cell (row 0 at the top) stands for.

    ``ai_time`` is the thinking time of the AI per move (seconds) for games whose hard level uses
    a clock; ``analysis_depth`` limits the depth of the thinking overlay for games too large to
    read to the end (``None``: read as far as the budget allows); ``tree`` says whether the
    minimax-tree explainer supports the game.

    ``in_a_row(state)`` is how many marks in a line win, to show the winning line.
    ``choose(state, level, seed, time_limit) -> Choice`` and
    ``values(state, time_limit, node_limit) -> ValuedMoves`` replace the generic engines of
    :mod:`zermelo.ui.web.engines` for games that have their own (``None``: the generic ones).

    ``draw(state)`` replaces :meth:`board` for a board that is not a grid of X and O (checkers);
    ``last_cell(move)`` names the ``[row, col]`` a move ended on, for games where a move changes
    more than one cell.
    """

    name: str
    kind: str
    rows: Callable[[Any], Sequence[str]]
    move_at: Callable[[Any, int, int], Any]
    options: dict[str, Option] = field(default_factory=dict)
    ai_time: float = 1.0
    analysis_depth: int | None = None
    tree: bool = False
    in_a_row: Callable[[Any], int] = lambda state: 3
    choose: Callable[[Any, str, int, float], Choice] | None = None
    values: Callable[[Any, float, int], ValuedMoves] | None = None
    draw: Callable[[Any], dict[str, Any]] | None = None
    last_cell: Callable[[Any], list[int]] | None = None

    def ai_choice(self, state: Any, level: str, seed: int, time_limit: float) -> Choice:
        """The AI's move at ``level``, within about ``time_limit`` seconds."""
        if self.choose is not None:
            return self.choose(state, level, seed, time_limit)
        return generic_choose(self.name, state, level, seed, min(self.ai_time, time_limit))

    def analyze(self, state: Any, time_limit: float, node_limit: int) -> ValuedMoves:
        """Every legal move's value for the side to move, best first."""
        if self.values is not None:
            return self.values(state, time_limit, node_limit)
        return generic_values(
            state, time_limit=time_limit, node_limit=node_limit, depth=self.analysis_depth
        )

    def spec(self) -> GameSpec:
        return get_game(self.name)

    def check_options(self, options: Any) -> dict[str, Any]:
        """The options for ``GameSpec.new``, each checked against its allowed range."""
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ParseError(f"options {options!r}: expected an object of option names to values")
        checked: dict[str, Any] = {}
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                allowed = ", ".join(sorted(self.options)) or "none"
                raise ParseError(
                    f"unknown option {name!r} for {self.name}: expected one of: {allowed}"
                )
            checked[name] = option.check(name, value)
        return checked

    def board(self, state: Any) -> dict[str, Any]:
        """The grid as JSON: the kind, size, marks (rows from the top) and the moves of the cells.

        For a ``place`` grid ``points[row][col]`` is the move notation of each cell (occupied ones
        too, so the page can say why a click there is refused); for a ``drop`` grid ``columns[col]``
        is the move of each column.
        """
        if self.draw is not None:
            return self.draw(state)
        rows = ["".join(c if c in "XO" else "." for c in row.upper()) for row in self.rows(state)]
        height = len(rows)
        width = len(rows[0]) if rows else 0
        board: dict[str, Any] = {
            "kind": self.kind,
            "width": width,
            "height": height,
            "cells": rows,
        }
        if self.kind == "drop":
            board["columns"] = [state.format_move(self.move_at(state, c, 0)) for c in range(width)]
        else:
            board["points"] = [
                [state.format_move(self.move_at(state, c, r)) for c in range(width)]
                for r in range(height)
            ]
        return board


# -- tic-tac-toe --------------------------------------------------------------------------------


def _ttt_rows(state: Any) -> list[str]:
    cells = "".join(state.cell(s) for s in range(9))
    return [cells[0:3], cells[3:6], cells[6:9]]


def _ttt_move(state: Any, col: int, row: int) -> int:
    return row * 3 + col


# -- m,n,k and gomoku: points numbered from the bottom row, like the notation a1 ----------------


def _mnk_rows(state: Any) -> list[str]:
    return list(state.rows())


def _mnk_move(state: Any, col: int, row: int) -> int:
    width, height = state.rules.width, state.rules.height
    return int((height - 1 - row) * width + col)


# -- Connect Four: a move is a column -------------------------------------------------------------


def _connect4_rows(state: Any) -> list[str]:
    return list(state.rows())


def _connect4_move(state: Any, col: int, row: int) -> int:
    return col


# -- checkers: the 32 dark squares, numbered as in checkers books (1 top left, Black at the top) --


def _checkers_square(col: int, row: int) -> int | None:
    """The square number (1-32) at ``col``, ``row`` (row 0 at the top), or ``None`` when light."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def _checkers_rows(state: Any) -> list[str]:
    return [
        "".join(
            (state.piece(square) or ".") if (square := _checkers_square(c, r)) else "."
            for c in range(8)
        )
        for r in range(8)
    ]


def _checkers_move(state: Any, col: int, row: int) -> int | None:
    return _checkers_square(col, row)


def _checkers_board(state: Any) -> dict[str, Any]:
    """``cells[row]``: ``b``/``w`` a black/white man, ``B``/``W`` a king, ``.`` empty;
    ``points[row][col]``: the square number of a dark square, ``""`` for a light one."""
    return {
        "kind": "checkers",
        "width": 8,
        "height": 8,
        "cells": _checkers_rows(state),
        "points": [
            [str(square) if (square := _checkers_square(c, r)) else "" for c in range(8)]
            for r in range(8)
        ],
    }


def _checkers_last(move: Any) -> list[int]:
    square = int(move[-1]) - 1
    row = square // 4
    return [row, 2 * (square % 4) + (1 if row % 2 == 0 else 0)]


ADAPTERS: dict[str, Adapter] = {
    "tictactoe": Adapter("tictactoe", "place", _ttt_rows, _ttt_move, tree=True),
    "connect4": Adapter(
        "connect4",
        "drop",
        _connect4_rows,
        _connect4_move,
        options={"width": IntOption(4, 9, 7), "height": IntOption(4, 8, 6)},
        ai_time=2.0,
        in_a_row=lambda state: 4,
        choose=connect4_choose,
        values=connect4_values,
    ),
    "gomoku": Adapter(
        "gomoku",
        "place",
        _mnk_rows,
        _mnk_move,
        options={"exact": BoolOption()},
        ai_time=1.5,
        analysis_depth=1,
        in_a_row=lambda state: int(state.rules.k),
        choose=gomoku_choose,
        values=gomoku_values,
    ),
    "mnk": Adapter(
        "mnk",
        "place",
        _mnk_rows,
        _mnk_move,
        options={
            "width": IntOption(3, 19, 15),
            "height": IntOption(3, 19, 15),
            "k": IntOption(3, 19, 5),
            "exact": BoolOption(),
        },
        ai_time=1.5,
        analysis_depth=1,
        in_a_row=lambda state: int(state.rules.k),
        choose=gomoku_choose,
        values=gomoku_values,
    ),
    "checkers": Adapter(
        "checkers",
        "checkers",
        _checkers_rows,
        _checkers_move,
        # No winning line to show: its cells hold b, w, B and W, never X or O.
        ai_time=1.0,
        draw=_checkers_board,
        last_cell=_checkers_last,
    ),
}


def adapter_for(name: Any) -> Adapter:
    """The adapter of the game called ``name``; raises :class:`UnknownGameError` otherwise."""
    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}: expected a game name")
    spec = get_game(name)  # raises UnknownGameError naming the known games
    adapter = ADAPTERS.get(spec.name)
    if adapter is None:
        raise UnknownGameError(
            f"game {name!r} has no web board yet: expected one of {', '.join(available_games())}"
        )
    return adapter


def available_games() -> list[str]:
    """The games with a web board whose rules are installed, in the order of :data:`ADAPTERS`."""
    names = []
    for name in ADAPTERS:
        try:
            get_game(name)
        except (ZermeloError, ImportError):
            continue
        names.append(name)
    return names
