"""How each game looks in the browser: a grid of points to click, one drawing per board kind.

A game's record names its board kind (:attr:`~zermelo.core.record.GameSpec.board`); this module
turns a state into the JSON the page draws for that kind:

* ``squares`` and ``go``: the page's ``place`` grid, where every empty point is a move
  (tic-tac-toe with letters, m,n,k boards and gomoku with stones);
* ``columns``: the ``drop`` grid, where a click anywhere in a column is the move for that column
  (Connect Four);
* ``draughts``: the ``checkers`` board; only the 32 dark squares are points, each named by its
  square number, and a move takes two clicks or more (the piece, then where it goes), which the
  page matches against the legal moves;
* ``grid``, and any kind this module does not know: the generic ``grid`` the record draws itself
  (:attr:`~zermelo.core.record.GameSpec.grid`): cells with short texts, the move a click on each
  cell plays, and buttons for legal moves on no cell.

An :class:`Adapter` joins a game's record and its board kind. The options a client may send, with
their ranges, come from the record, so nothing unchecked reaches ``GameSpec.new``; so do the AI's
thinking time and the engines a game has of its own (:attr:`~zermelo.core.record.GameSpec.web_engine`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zermelo.core.errors import UnknownGameError
from zermelo.core.record import GameSpec
from zermelo.games.registry import all_games, get_game
from zermelo.search.result import SearchResult
from zermelo.ui.lines import winning_line
from zermelo.ui.web.engines import Choice, generic_choose, generic_values

__all__ = ["KINDS", "Adapter", "BoardKind", "adapter_for", "available_games", "web_engines"]


@dataclass(frozen=True)
class BoardKind:
    """One kind of board on the page. ``draw(spec, state)`` is the board as JSON (its ``kind`` is
    the page's drawing: ``place``, ``drop``, ``checkers`` or ``grid``); ``line(state, cells,
    winner_mark)`` the ``[row, col]`` cells of the winning line; ``last_cell(state_before, move)``
    the cell a move ended on, where a move changes more than one cell (else the page is told the
    cell that changed)."""

    page_kind: str
    draw: Callable[[GameSpec, Any], dict[str, Any]]
    line: Callable[[Any, dict[str, Any], str], list[list[int]]]
    last_cell: Callable[[Any], list[int]] | None = None
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
        return self.spec.explain_tree

    @property
    def last_cell(self) -> Callable[[Any], list[int]] | None:
        return self.board_kind.last_cell

    @property
    def analysis_depth(self) -> int | None:
        return self.spec.analysis_depth

    @property
    def engine(self) -> Any:
        """The game's own web engine (:class:`~zermelo.ui.web.solvers.WebEngine`), or ``None``."""
        return None if self.spec.web_engine is None else self.spec.web_engine.resolve()

    def _engine(self) -> Any:
        return self.engine

    def ai_choice(self, state: Any, level: str, seed: int, time_limit: float) -> Choice:
        """The AI's move at ``level``, within about ``time_limit`` seconds."""
        engine = self._engine()
        if engine is not None:
            choice: Choice = engine.choose(state, level, seed, time_limit)
            return choice
        return generic_choose(self.spec, state, level, seed, min(self.spec.move_time, time_limit))

    def analyze(self, state: Any, time_limit: float, node_limit: int) -> SearchResult[Any]:
        """Every legal move's value for the side to move (``moves``, best first)."""
        engine = self._engine()
        if engine is not None:
            analysis: SearchResult[Any] = engine.values(state, time_limit, node_limit)
            return analysis
        return generic_values(
            state, time_limit=time_limit, node_limit=node_limit, depth=self.spec.analysis_depth
        )

    def check_options(self, options: Any) -> dict[str, Any]:
        """The options for ``GameSpec.new``, each checked against its declared range."""
        return self.spec.check_options(options)

    def board(self, state: Any) -> dict[str, Any]:
        """The board as JSON: its kind, size, cells (rows from the top) and the moves of the cells.

        For a ``place`` or ``grid`` board ``points[row][col]`` is the move notation of each cell
        (occupied ones too, so the page can say why a click there is refused; ``null`` on a grid
        where a cell plays nothing); for a ``drop`` grid ``columns[col]`` is the move of each
        column.
        """
        return self.board_kind.draw(self.spec, state)

    def line(self, state: Any, board: dict[str, Any], winner_mark: str) -> list[list[int]]:
        """The cells of the winning line, for a finished game."""
        return self.board_kind.line(state, board, winner_mark)


def _line_cells(cells: Sequence[str], mark: str, k: int) -> list[list[int]]:
    """Every ``[row, col]`` of ``cells`` (rows from the top) on a line of ``k`` or more ``mark``."""
    return [list(cell) for cell in winning_line(cells, mark, k)]


def _marks(rows: Sequence[str]) -> list[str]:
    return ["".join(c if c in "XO" else "." for c in row.upper()) for row in rows]


def _place(rows: list[str], move_at: Callable[[int, int], Any], state: Any) -> dict[str, Any]:
    height = len(rows)
    width = len(rows[0]) if rows else 0
    return {
        "kind": "place",
        "width": width,
        "height": height,
        "cells": rows,
        "points": [[state.format_move(move_at(c, r)) for c in range(width)] for r in range(height)],
    }


def _in_a_row(k: Callable[[Any], int]) -> Callable[[Any, dict[str, Any], str], list[list[int]]]:
    def line(state: Any, board: dict[str, Any], mark: str) -> list[list[int]]:
        return _line_cells(board["cells"], mark, k(state))

    return line


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


def _squares(spec: GameSpec, state: Any) -> dict[str, Any]:
    return _place(_marks(_ttt_rows(state)), lambda c, r: _ttt_move(state, c, r), state)


def _go(spec: GameSpec, state: Any) -> dict[str, Any]:
    return _place(_marks(_mnk_rows(state)), lambda c, r: _mnk_move(state, c, r), state)


def _columns(spec: GameSpec, state: Any) -> dict[str, Any]:
    rows = _marks(_connect4_rows(state))
    width = len(rows[0]) if rows else 0
    return {
        "kind": "drop",
        "width": width,
        "height": len(rows),
        "cells": rows,
        "columns": [state.format_move(_connect4_move(state, c, 0)) for c in range(width)],
    }


def _draughts(spec: GameSpec, state: Any) -> dict[str, Any]:
    return _checkers_board(state)


def _grid(spec: GameSpec, state: Any) -> dict[str, Any]:
    grid = spec.grid(state)
    cells = [list(row) for row in grid.cells]
    width = max((len(row) for row in cells), default=0)
    cells = [row + [""] * (width - len(row)) for row in cells]
    moves = grid.moves if grid.moves is not None else ()
    points = [
        [moves[r][c] if r < len(moves) and c < len(moves[r]) else None for c in range(width)]
        for r in range(len(cells))
    ]
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


def _no_line(state: Any, board: dict[str, Any], mark: str) -> list[list[int]]:
    return []


def _grid_line(state: Any, board: dict[str, Any], mark: str) -> list[list[int]]:
    return [list(cell) for cell in board.get("highlight", [])]


# -- chess: 64 squares named a8 ... h1 from the top; a move is the piece, then its square -----------


def _chess(spec: GameSpec, state: Any) -> dict[str, Any]:
    """``cells[row]``: rank 8 first, ``PNBRQK`` White's pieces, ``pnbrqk`` Black's, ``.`` empty;
    ``points[row][col]``: the square's name; ``moves``: every legal move with its squares and
    promotion (``q``, ``r``, ``b``, ``n`` or ``null``) and its notation (SAN), which is what the
    page sends; ``last``: the squares of the last move; ``check``: the square of a king in check;
    ``pgn``: the game so far, for the page's export."""
    import chess

    board = state.board
    moves = [
        {
            "from": chess.square_name(move.from_square),
            "to": chess.square_name(move.to_square),
            "promotion": chess.piece_symbol(move.promotion) if move.promotion else None,
            "move": state.format_move(move),
        }
        for move in sorted(state.legal_moves())
    ]
    last = board.peek() if board.move_stack else None
    king = board.king(board.turn) if board.is_check() else None
    saver = spec.saver
    return {
        "kind": "chess",
        "width": 8,
        "height": 8,
        "cells": [
            "".join(
                (piece.symbol() if (piece := board.piece_at(chess.square(f, r))) else ".")
                for f in range(8)
            )
            for r in range(7, -1, -1)
        ],
        "points": [
            [chess.square_name(chess.square(f, r)) for f in range(8)] for r in range(7, -1, -1)
        ],
        "moves": moves,
        "last": []
        if last is None
        else [chess.square_name(last.from_square), chess.square_name(last.to_square)],
        "check": None if king is None else chess.square_name(king),
        "pgn": saver.resolve().save(state) if saver is not None else "",
    }


def _chess_last(move: Any) -> list[int]:
    square = int(move.to_square)
    return [7 - square // 8, square % 8]


KINDS: dict[str, BoardKind] = {
    "squares": BoardKind("place", _squares, _in_a_row(lambda state: 3), marks="letters"),
    "go": BoardKind("place", _go, _in_a_row(lambda state: int(state.rules.k))),
    "columns": BoardKind("drop", _columns, _in_a_row(lambda state: 4)),
    # No winning line to show: its cells hold b, w, B and W, never X or O.
    "draughts": BoardKind("checkers", _draughts, _no_line, last_cell=_checkers_last),
    "chess": BoardKind("chess", _chess, _no_line, last_cell=_chess_last, marks="text"),
    "grid": BoardKind("grid", _grid, _grid_line, marks="text"),
}
"""Board kind -> its drawing on the page; a record naming another kind is drawn as a grid."""


def _adapter(spec: GameSpec) -> Adapter:
    return Adapter(spec, KINDS.get(spec.board, KINDS["grid"]))


def adapter_for(name: Any) -> Adapter:
    """The adapter of the game called ``name``; raises :class:`UnknownGameError` otherwise."""
    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}: expected a game name")
    return _adapter(get_game(name))  # raises UnknownGameError naming the known games


def web_engines() -> list[Any]:
    """The games' own web engines (each once), for warming up and stopping with the server."""
    engines: list[Any] = []
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
