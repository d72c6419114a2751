"""How each board kind looks in the browser: a grid of points to click, one drawing per kind.

A game's record names its board kind (:attr:`~zermelo.core.record.GameSpec.board`, one of
:data:`~zermelo.core.record.BOARD_KINDS`) and gives its board as data
(:attr:`~zermelo.core.record.GameSpec.grid`); this module turns that
:class:`~zermelo.core.record.Grid` into the JSON the page draws for the kind, under the kind's own
name, and knows no game:

* ``place``: every empty point is a move (ruled cells of letters when the grid has no
  coordinates, as tic-tac-toe; stones when it has them, as m,n,k and gomoku);
* ``drop``: a click anywhere in a column is the move of that column (Connect Four, any size);
* ``draughts``: only the playable squares are points, each named by its square (``"32"``,
  ``"d3"``), and a move takes two clicks or more (the piece, then where it goes, square by square
  where captures differ in between), which the page matches against the legal moves' paths
  (``paths``: the squares each legal move visits); any size, numbered or named squares;
* ``chess``: a move is the piece, then its square (and a promotion piece);
* ``grid``, and any kind this module does not know: cells with short texts, the move a click on
  each cell plays, and buttons for legal moves on no cell.

An :class:`Adapter` joins a game's record and its board kind. The options a client may send, with
their ranges, come from the record, so nothing unchecked reaches ``GameSpec.new``; so do the AI's
thinking time and the engines a game has of its own (:attr:`~zermelo.core.record.GameSpec.web_engine`).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import NotRequired, Protocol, TypedDict, runtime_checkable

from zermelo.agents.spec import AZ
from zermelo.core.capabilities import WebEngine
from zermelo.core.errors import UnknownGameError
from zermelo.core.limits import Limits
from zermelo.core.record import GameSpec, Grid, OptionValue, draughts_path
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import all_games, get_game
from zermelo.search.result import SearchResult
from zermelo.ui.web.engines import Choice, generic_choose, generic_values

__all__ = [
    "KINDS",
    "Adapter",
    "Board",
    "BoardKind",
    "ChessMove",
    "DraughtsPath",
    "adapter_for",
    "available_games",
    "web_engines",
]


class DraughtsPath(TypedDict):
    """One legal move of a ``draughts`` board: its notation (what the move list and the values
    name it), the squares it visits, origin first, and whether it captures (the page sends the
    path joined by ``x`` for a capture, ``-`` for a step)."""

    move: str
    path: list[str]
    capture: bool


class BackgammonMove(TypedDict):
    """One legal full move of a ``backgammon`` board: its notation (``"24/18 13/11"``) and the
    checker steps it is made of, ``[from, to]`` each by the board's point names (``"bar"``,
    ``"24"``, ``"off"``), a step per die, in the notation's order; the page narrows the legal
    moves by the steps clicked so far."""

    move: str
    steps: list[list[str]]


ChessMove = TypedDict("ChessMove", {"from": str, "to": str, "promotion": str | None, "move": str})
"""One legal move of a ``chess`` board: its squares (``from`` is a keyword, hence this form),
promotion and notation."""


class Board(TypedDict):
    """A board as the page draws it: the fields every kind has, then those of some kinds."""

    kind: str
    width: int
    height: int
    cells: list[str] | list[list[str]]
    points: NotRequired[list[list[str | None]]]
    columns: NotRequired[list[str]]
    extra: NotRequired[list[str]]
    buttons: NotRequired[list[str]]
    highlight: NotRequired[list[list[int]]]
    moves: NotRequired[list[ChessMove]]
    paths: NotRequired[list[DraughtsPath]]
    files: NotRequired[list[str]]
    ranks: NotRequired[list[str]]
    plain: NotRequired[bool]
    last: NotRequired[list[str | None]]
    check: NotRequired[str | None]
    pgn: NotRequired[str]
    facts: NotRequired[list[list[str]]]
    steps: NotRequired[list[BackgammonMove]]


EngineOf = WebEngine[AnyState]
"""A game's own web engine, as the server holds it: of a state of any game."""


@dataclass(frozen=True)
class BoardKind:
    """One kind of board on the page. ``draw(spec, state)`` is the board as JSON, read from the
    record's :class:`~zermelo.core.record.Grid` (its ``kind`` is the kind's own name, which the
    page draws); ``moved(before, move, grid)``, for kinds where a move changes more than one
    cell, names the squares the move visits, the last one where it ends (``before`` is the state
    it was played in, ``grid`` the board's layout; else the page is told the cell that changed).
    ``marks`` says how the
    page draws the marks of a ``place`` or ``drop`` board: ``stones``, ``letters``, or ``text``
    for the kinds whose cells hold texts."""

    page_kind: str
    draw: Callable[[GameSpec, AnyState], Board]
    moved: Callable[[AnyState, Hashable, Grid], tuple[str, ...]] | None = None
    marks: str = "stones"


@dataclass(frozen=True)
class Adapter:
    """A game's record with the drawing of its board kind and its engines."""

    spec: GameSpec
    board_kind: BoardKind

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def kind(self) -> str:
        return self.board_kind.page_kind

    @property
    def tree(self) -> bool:
        """Whether the page draws the game's tree: the record says so, and a game of chance
        that hides nothing and searches quickly (Pig) has the chance tree of
        :func:`zermelo.ui.web.explain.explain_chance`."""
        spec = self.spec
        return spec.explain_tree or (spec.chance and not spec.hidden and spec.quick)

    @property
    def last_cell(self) -> Callable[[AnyState, Hashable], list[int]] | None:
        """``last_cell(before, move)``: the ``[row, col]`` a move played in ``before`` ends on,
        for boards where a move changes more than one cell; ``None`` for the others."""
        moved = self.board_kind.moved
        if moved is None:
            return None

        def last_cell(before: AnyState, move: Hashable) -> list[int]:
            squares = self.last_squares(before, move)
            cell = _initial_grid(self.spec).cell_of(squares[-1]) if squares else None
            return [-1, -1] if cell is None else list(cell)

        return last_cell

    def last_squares(self, before: AnyState, move: Hashable) -> list[str]:
        """The names of the squares a move played in ``before`` visits (the board's ``last``), for
        boards where a move changes more than one cell; ``[]`` for the others."""
        moved = self.board_kind.moved
        if moved is None:
            return []
        try:
            return list(moved(before, move, _initial_grid(self.spec)))
        except TypeError:
            return []

    @property
    def analysis_depth(self) -> int | None:
        return self.spec.analysis_depth

    @property
    def engine(self) -> EngineOf | None:
        """The game's own web engine (:class:`~zermelo.core.capabilities.WebEngine`), or ``None``."""
        return None if self.spec.web_engine is None else self.spec.web_engine.resolve()

    def _engine(self) -> EngineOf | None:
        return self.engine

    def ai_choice(
        self, state: AnyState, level: str, seed: int, time_limit: float
    ) -> Choice[Hashable]:
        """The AI's move at ``level``, within about ``time_limit`` seconds. The learned level
        (:data:`~zermelo.agents.spec.AZ`) is the game's shipped net, never its own engine."""
        if level == AZ:
            return generic_choose(self.spec, state, level, seed, time_limit)
        engine = self._engine()
        if engine is not None:
            return engine.choose(state, level, seed, time_limit)
        if self.spec.hidden and level not in self.spec.levels:
            # The generic engine would search the true state, the person's cards with it: a
            # hidden game without a level of its own plays uniformly at random among the legal
            # moves, which are public (the plan's easy poker level).
            rng = random.Random(seed * 1_000_003 + state.ply)
            return Choice(rng.choice(sorted(state.legal_moves())))
        return generic_choose(self.spec, state, level, seed, min(self.spec.move_time, time_limit))

    def analyze(
        self, state: AnyState, time_limit: float, node_limit: int
    ) -> SearchResult[Hashable]:
        """Every legal move's value for the side to move (``moves``, best first): from the
        game's web engine, else from its own engine's analysis (the record's
        ``engine_analysis``, values in the game's display unit as the web engines give them),
        else from the generic search."""
        engine = self._engine()
        if engine is not None:
            return engine.values(state, time_limit, node_limit)
        own = self.spec.engine_analysis
        if own is not None:
            return own.resolve().analyze(state, Limits(time=time_limit, nodes=node_limit))
        if self.spec.chance:
            from zermelo.ui.web.explain import chance_values

            return chance_values(state, time_limit, node_limit)
        return generic_values(
            state, time_limit=time_limit, node_limit=node_limit, depth=self.spec.analysis_depth
        )

    def check_options(self, options: object) -> dict[str, OptionValue]:
        """The options for ``GameSpec.new``, each checked against its declared range."""
        return self.spec.check_options(options)

    def board(self, state: AnyState, viewer: Player | None = None) -> Board:
        """The board as JSON: its kind, size, cells (rows from the top) and the moves of the cells.

        For a ``place`` or ``grid`` board ``points[row][col]`` is the move notation of each cell
        (occupied ones too, so the page can say why a click there is refused; ``null`` on a grid
        where a cell plays nothing); for a ``drop`` grid ``columns[col]`` is the move of each
        column. With a ``viewer``, the board as that side sees it (a hidden game's ``view``).
        """
        seen = self._seen_by(viewer)
        board = self.board_kind.draw(seen, state)
        facts = seen.grid(state).facts
        if facts:
            board["facts"] = [[label, value] for label, value in facts]
        return board

    def _seen_by(self, viewer: Player | None) -> GameSpec:
        """The record whose ``grid`` is ``viewer``'s view of a hidden game (the record itself
        without a viewer, or for a game that hides nothing)."""
        view = self.spec.view
        if viewer is None or view is None:
            return self.spec
        return replace(self.spec, grid=lambda state: view(state, viewer))

    def line(
        self, state: AnyState, board: Board, winner_mark: str, viewer: Player | None = None
    ) -> list[list[int]]:
        """The cells of the winning line, for a finished game (the record's grid says them)."""
        return [list(cell) for cell in self._seen_by(viewer).grid(state).line]


def _cells(grid: Grid, empty: str = ".") -> list[str]:
    """The grid's cells as text rows (one character a cell, ``empty`` for an empty one)."""
    return ["".join(cell[:1] or empty for cell in row) for row in grid.cells]


def _size(grid: Grid) -> tuple[int, int]:
    return max((len(row) for row in grid.cells), default=0), len(grid.cells)


def _points(grid: Grid, empty: str | None) -> list[list[str | None]]:
    width, height = _size(grid)
    return [
        [move if (move := grid.move_at(r, c)) is not None else empty for c in range(width)]
        for r in range(height)
    ]


def _place(spec: GameSpec, state: AnyState) -> Board:
    """``cells[row]``: ``X``, ``O`` or ``.``; ``points[row][col]``: the move of every cell (occupied
    ones too, so that the page can say why a click there is refused)."""
    grid = spec.grid(state)
    width, height = _size(grid)
    return {
        "kind": "place",
        "width": width,
        "height": height,
        "cells": _cells(grid),
        "points": _points(grid, ""),
    }


def _drop(spec: GameSpec, state: AnyState) -> Board:
    """``cells[row]``: ``X``, ``O`` or ``.``; ``columns[col]``: the move of each column."""
    grid = spec.grid(state)
    width, height = _size(grid)
    top = grid.moves[0] if grid.moves else ()
    return {
        "kind": "drop",
        "width": width,
        "height": height,
        "cells": _cells(grid),
        "columns": [
            move if c < len(top) and (move := top[c]) is not None else "" for c in range(width)
        ],
    }


def _square_names(grid: Grid) -> set[str]:
    return {name for row in grid.moves or () for name in row if name is not None}


def _draughts(spec: GameSpec, state: AnyState) -> Board:
    """``cells[row]``: ``b``/``w`` a black/white man, ``B``/``W`` a king, ``.`` empty;
    ``points[row][col]``: the name of a playable square (``"32"``, ``"d3"``), ``""`` for another;
    ``files``/``ranks``: the coordinates around the board (``[]`` for none); ``plain``: every
    square is playable (drawn in one colour, as a Turkish board); ``paths``: every legal move
    with its notation, the squares it visits and whether it captures; ``last``: the squares of
    the last move when the grid knows them (``/api/state`` fills it from the moves played)."""
    grid = spec.grid(state)
    width, height = _size(grid)
    points = _points(grid, "")
    names = _square_names(grid)
    paths: list[DraughtsPath] = []
    for move in sorted(state.legal_moves()):
        text = state.format_move(move)
        path = draughts_path(state, move, names)
        if path is None:
            path = tuple(part for part in re.split("[-x]", text) if part)
        paths.append({"move": text, "path": list(path), "capture": "x" in text})
    return {
        "kind": "draughts",
        "width": width,
        "height": height,
        "cells": _cells(grid),
        "points": points,
        "files": list(grid.files),
        "ranks": list(grid.ranks),
        "plain": bool(points) and all(name != "" for row in points for name in row),
        "paths": paths,
        "last": [points[r][c] for r, c in grid.last if 0 <= r < height and 0 <= c < width],
    }


def _grid(spec: GameSpec, state: AnyState) -> Board:
    grid = spec.grid(state)
    cells = [list(row) for row in grid.cells]
    width = max((len(row) for row in cells), default=0)
    cells = [row + [""] * (width - len(row)) for row in cells]
    points = _points(grid, None)
    on_cells = {move for row in points for move in row if move is not None}
    extra = [
        text
        for text in (state.format_move(move) for move in sorted(state.legal_moves()))
        if text not in on_cells
    ]
    return {
        "kind": "grid",
        "width": width,
        "height": len(cells),
        "cells": cells,
        "points": points,
        "extra": extra,
        "highlight": [list(cell) for cell in grid.line],
    }


def _chess(spec: GameSpec, state: AnyState) -> Board:
    """``cells[row]``: the pieces' letters (``PNBRQK`` White, ``pnbrqk`` Black, ``.`` empty);
    ``points[row][col]``: the square's name; ``moves``: every legal move with its squares and
    promotion (``q``, ``r``, ``b``, ``n`` or ``null``), read from its UCI, and its notation,
    which is what the page sends; ``last``: the squares of the last move; ``check``: the square of
    a king in check; ``pgn``: the game so far, for the page's export."""
    grid = spec.grid(state)
    width, height = _size(grid)
    points = _points(grid, "")

    def name(cell: tuple[int, int]) -> str | None:
        return points[cell[0]][cell[1]]

    moves: list[ChessMove] = []
    for move in sorted(state.legal_moves()):
        uci = move.uci()
        moves.append(
            {
                "from": uci[:2],
                "to": uci[2:4],
                "promotion": uci[4:] or None,
                "move": state.format_move(move),
            }
        )
    saver = spec.saver
    return {
        "kind": "chess",
        "width": width,
        "height": height,
        "cells": _cells(grid),
        "points": points,
        "moves": moves,
        "last": [name(cell) for cell in grid.last],
        "check": None if grid.alert is None else name(grid.alert),
        "pgn": saver.resolve().save(state) if saver is not None else "",
    }


def _buttons(state: AnyState) -> list[str]:
    return [state.format_move(move) for move in sorted(state.legal_moves())]


def _rows(grid: Grid) -> list[list[str]]:
    return [list(row) for row in grid.cells]


def _dice(spec: GameSpec, state: AnyState) -> Board:
    """``cells[0]``: the first and second players' totals, the turn's total and the last roll
    (``""`` before any); ``files``: the sides' names; ``buttons``: the moves, which the board
    draws as its own buttons."""
    grid = spec.grid(state)
    width, height = _size(grid)
    return {
        "kind": "dice",
        "width": width,
        "height": height,
        "cells": _rows(grid),
        "files": list(grid.files),
        "buttons": _buttons(state),
    }


def _cards(spec: GameSpec, state: AnyState) -> Board:
    """``cells``: the opponent's cards (``"?"`` face down), the board's, the viewer's (the
    record's ``view`` in a hidden game: the API never draws another side's hidden card);
    ``buttons``: the moves, which the board draws as its own buttons."""
    grid = spec.grid(state)
    width, height = _size(grid)
    return {
        "kind": "cards",
        "width": width,
        "height": height,
        "cells": _rows(grid),
        "buttons": _buttons(state),
    }


_REPEAT = re.compile(r"^(.*)\((\d)\)$")


def backgammon_steps(text: str) -> list[list[str]]:
    """The checker steps of a backgammon move in gnubg's notation, ``[from, to]`` each:
    ``"24/18 13/11"`` two steps, ``"13/7(2)"`` the same step twice, ``"24/18/12"`` a checker
    moving on, ``"bar/22*"`` entering with a hit (the ``*`` is left out)."""
    steps: list[list[str]] = []
    for word in text.replace("*", "").split():
        count = 1
        repeat = _REPEAT.match(word)
        if repeat:
            word, count = repeat.group(1), int(repeat.group(2))  # noqa: PLW2901
        points = [point for point in word.split("/") if point]
        for _ in range(count):
            steps.extend([a, b] for a, b in itertools.pairwise(points))
    return steps


@runtime_checkable
class _SteppedMove(Protocol):
    """A backgammon play that keeps its checker steps: ``(from, to)`` pairs in the mover's
    numbering, 25 the bar and 0 off (the bgrules kernel's)."""

    @property
    def steps(self) -> Sequence[tuple[int, int]]: ...


def _point_name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def _checker_steps(move: object) -> list[list[str]] | None:
    """A play's steps, one per die, from the move itself where it keeps them (a notation such as
    ``13/6`` writes two dice as one step), else ``None``."""
    if not isinstance(move, _SteppedMove):
        return None
    try:
        return [[_point_name(int(a)), _point_name(int(b))] for a, b in move.steps]
    except (TypeError, ValueError):
        return None


def _backgammon(spec: GameSpec, state: AnyState) -> Board:
    """``cells``: two rows of 26, the top row points 13 to 24 then the first player's bar and
    tray, the bottom row points 12 to 1 then the second player's (``"X5"``, ``"O2"``, ``""``);
    ``points``: each cell's name as the side to move's moves write it; ``steps``: every legal
    move with its checker steps (:func:`backgammon_steps`); ``extra``: the moves that are no
    checker's (the cube's ``double``, ``take``, ``drop``), as buttons."""
    grid = spec.grid(state)
    width, height = _size(grid)
    steps: list[BackgammonMove] = []
    extra: list[str] = []
    for move in sorted(state.legal_moves()):
        text = state.format_move(move)
        made = _checker_steps(move)
        if made is None:
            made = backgammon_steps(text) if "/" in text else []
        if made:
            steps.append({"move": text, "steps": made})
        else:
            extra.append(text)
    return {
        "kind": "backgammon",
        "width": width,
        "height": height,
        "cells": _rows(grid),
        "points": _points(grid, ""),
        "steps": steps,
        "extra": extra,
    }


@runtime_checkable
class _UciMove(Protocol):
    """A chess move, which names its squares in UCI (``e7e8q``)."""

    def uci(self) -> str: ...


def _draughts_squares(before: AnyState, move: Hashable, grid: Grid) -> tuple[str, ...]:
    """The squares a draughts move visits (:func:`~zermelo.core.record.draughts_path`)."""
    path = draughts_path(before, move, _square_names(grid))
    if path is None:
        raise TypeError(f"draughts move {move!r}: expected the squares it visits")
    return path


def _uci_squares(before: AnyState, move: Hashable, grid: Grid) -> tuple[str, ...]:
    """The squares a chess move goes from and to, read from its UCI."""
    if not isinstance(move, _UciMove):
        raise TypeError(f"chess move {move!r}: expected a move with a UCI")
    uci = str(move.uci())
    return uci[0:2], uci[2:4]


KINDS: dict[str, BoardKind] = {
    "grid": BoardKind("grid", _grid, marks="text"),
    "place": BoardKind("place", _place),
    "drop": BoardKind("drop", _drop),
    "draughts": BoardKind("draughts", _draughts, moved=_draughts_squares),
    "chess": BoardKind("chess", _chess, moved=_uci_squares, marks="text"),
    "dice": BoardKind("dice", _dice, marks="text"),
    "cards": BoardKind("cards", _cards, marks="text"),
    "backgammon": BoardKind("backgammon", _backgammon, marks="text"),
}
"""Board kind (:data:`~zermelo.core.record.BOARD_KINDS`) -> its drawing on the page; a record
naming another kind is drawn as a grid."""


_INITIAL: dict[int, tuple[GameSpec, Grid]] = {}


def _initial_grid(spec: GameSpec) -> Grid:
    """The grid of the game's initial position (its layout: cell names, coordinates), made once."""
    known = _INITIAL.get(id(spec))
    if known is None or known[0] is not spec:
        known = _INITIAL[id(spec)] = (spec, spec.grid(spec.new()))
    return known[1]


def _adapter(spec: GameSpec) -> Adapter:
    kind = KINDS.get(spec.board, KINDS["grid"])
    if kind.page_kind == "place" and not _initial_grid(spec).files:
        # A board without coordinates is ruled cells of letters (see Grid); one with them, stones.
        kind = replace(kind, marks="letters")
    return Adapter(spec, kind)


def adapter_for(name: object) -> Adapter:
    """The adapter of the game called ``name``; raises :class:`UnknownGameError` otherwise."""
    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}: expected a game name")
    return _adapter(get_game(name))  # raises UnknownGameError naming the known games


def web_engines() -> list[EngineOf]:
    """The games' own web engines (each once), for warming up and stopping with the server."""
    engines: list[EngineOf] = []
    for spec in all_games():
        engine = None if spec.web_engine is None else spec.web_engine.resolve()
        if engine is not None and all(engine is not known for known in engines):
            engines.append(engine)
    return engines


def available_games(extra: Sequence[str] = ()) -> list[str]:
    """Every game that loads (built-in ones first, then plugins), then the ``extra`` games asked
    for by name (``openspiel:breakthrough``), which no list holds."""
    names = [spec.name for spec in all_games()]
    for name in extra:
        registered = get_game(name).name
        if registered not in names:
            names.append(registered)
    return names
