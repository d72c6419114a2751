"""How each kind of board looks on a terminal, and how a typed move is read.

A :class:`BoardView` is one board kind's drawing (plain text for pipes, rich markup for
terminals), its prompt and its input rules. A game's record names its kind
(:attr:`~zermelo.core.record.GameSpec.board`, one of
:data:`~zermelo.core.record.BOARD_KINDS`) and gives the board as data
(:attr:`~zermelo.core.record.GameSpec.grid`); a view reads everything it draws from that
:class:`~zermelo.core.record.Grid` and the State protocol, never from a game's own methods, and
knows no game. :func:`view_for` builds the view from the record; a kind this module does not know
is drawn as the generic grid (:class:`GridView`), so every game, plugins included, can be played.
The session in :mod:`zermelo.ui.terminal.session` is the same for every game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.markup import escape

from zermelo.core.errors import ParseError, ZermeloError
from zermelo.core.record import GameSpec, Grid, draughts_path
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = [
    "VIEWS",
    "BoardView",
    "ChessView",
    "DraughtsView",
    "DropView",
    "GridView",
    "MoveInput",
    "PlaceView",
    "view_for",
]


@dataclass(frozen=True)
class MoveInput:
    """What a line of input turned out to be: a move, or the message to show instead."""

    move: Hashable = None
    message: str | None = None


class BoardView(Protocol):
    """One board kind's face on a terminal."""

    title: str

    def symbol(self, player: Player) -> str:
        """The name of ``player``'s side ("X", "Black", ...), in English (shown translated)."""
        ...

    def intro(self, state: AnyState | None = None) -> list[str]:
        """Lines shown once, after the greeting: how to enter moves on ``state``'s board (by
        default the game's initial one)."""
        ...

    def prompt(self, state: AnyState) -> str:
        """The input prompt, e.g. ``"Your turn (0-8): "``."""
        ...

    def read(self, state: AnyState, text: str) -> MoveInput:
        """Turn a typed line into a legal move, or into the message that says what was wrong."""
        ...

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        """The board as text; with ``rich``, in rich console markup. ``last`` is the move that
        led to ``state`` and ``before`` the state it was played in (to name it), if known."""
        ...


_COLOURS = {"X": "bold red", "O": "bold blue"}


def _cell(
    mark: str,
    where: tuple[int, int],
    line: set[tuple[int, int]],
    last: tuple[int, int] | None,
    *,
    rich: bool,
) -> str:
    """One cell of marks (``X``, ``O`` or ``.``): plain, or coloured with the winning line on
    green and the last move in reverse video."""
    if not rich:
        return mark
    if mark == ".":
        return "[dim].[/dim]"
    style = _COLOURS.get(mark, "bold")
    if where in line:
        style += " on green"
    elif where == last:
        style += " reverse"
    return f"[{style}]{escape(mark)}[/{style}]"


# The names the terminal greets with (the records' ``title_short`` or ``title``), for the catalogs.
_TITLES = (
    # TRANSLATORS: the game's name as players know it in your language.
    N_("Tic Tac Toe"),
    # TRANSLATORS: English draughts (8x8), as players know it in your language.
    N_("Checkers"),
    N_("Gomoku"),
    N_("m,n,k game"),
    N_("Chess"),
)

# TRANSLATORS: a word the player may type to list the legal moves.
_MOVES_WORD = N_("moves")


def _asks_for_moves(text: str) -> bool:
    return text in ("?", "moves", _(_MOVES_WORD))


def _move_text(state: AnyState, last: object, before: AnyState | None) -> str:
    """The last move in the notation of the position it was played in (chess: SAN)."""
    try:
        return (before if before is not None else state).format_move(last)
    except (ZermeloError, ValueError, TypeError, AttributeError):
        return str(last)


def _span(texts: Sequence[str]) -> tuple[str, str]:
    """The first and last of ``texts`` (``("0", "8")``), or ``("?", "?")``."""
    return (texts[0], texts[-1]) if texts else ("?", "?")


class _View:
    """What every kind shares: the title, the sides' names, the record's own intro lines."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.title = spec.title_short or spec.title

    def symbol(self, player: Player) -> str:
        return self.spec.sides[player]

    def grid(self, state: AnyState) -> Grid:
        return self.spec.grid(state)

    def record_intro(self) -> list[str]:
        return [_(line) for line in self.spec.intro if line]

    def notation(self) -> str:
        """The record's line of help for the move notation, translated ("" if it has none)."""
        return _(self.spec.notation) if self.spec.notation else ""

    def legal(self, state: AnyState, text: str) -> Hashable | None:
        """The legal move ``text`` names, or ``None``."""
        try:
            move = state.parse_move(text)
        except ZermeloError:
            return None
        return move if move in state.legal_moves() else None


class PlaceView(_View):
    """A board where a move puts a mark on a cell (kind ``place``). With coordinates
    (:attr:`Grid.files`, :attr:`Grid.ranks`) it is a go-style board: columns a, b, ... over and
    under it, row numbers at its sides, ``X``/``O`` stones, the last move marked and the winning
    line highlighted. Without them it is the tutorial's ruled board (``X | O |  ``), whose cells
    are named by their moves, shown in a map before the game."""

    def _numbers(self, state: AnyState) -> list[str]:
        grid = self.grid(state)
        return [move for row in grid.moves or () for move in row if move is not None]

    def _centre(self, state: AnyState) -> str:
        grid = self.grid(state)
        height = len(grid.cells)
        width = len(grid.cells[0]) if grid.cells else 0
        return grid.move_at(height - 1 - height // 2, width // 2) or "?"

    def intro(self, state: AnyState | None = None) -> list[str]:
        state = self.spec.new() if state is None else state
        grid = self.grid(state)
        if grid.files:
            lines = [
                _("Enter a move as a column letter and a row number, such as {example}.").format(
                    example=self._centre(state)
                )
            ]
        else:
            first, last = _span(self._numbers(state))
            rows = [" | ".join(move or " " for move in row) for row in grid.moves or ()]
            rule = "\n" + "-" * max((len(row) for row in rows), default=0) + "\n"
            lines = [
                _("Enter positions ({first}-{last}) as shown below:").format(
                    first=first, last=last
                ),
                *rule.join(rows).split("\n"),
            ]
        return lines + self.record_intro()

    def prompt(self, state: AnyState) -> str:
        if self.grid(state).files:
            return _("Your move (e.g. {example}): ").format(example=self._centre(state))
        first, last = _span(self._numbers(state))
        return _("Your turn ({first}-{last}): ").format(first=first, last=last)

    def read(self, state: AnyState, text: str) -> MoveInput:
        move = self.legal(state, text)
        if move is not None:
            return MoveInput(move=move)
        grid = self.grid(state)
        numbers = self._numbers(state)
        try:
            state.parse_move(text)
            readable = True
        except ZermeloError:
            # A number off the board is a move in the wrong place, not unreadable.
            readable = all(n.lstrip("-").isdigit() for n in numbers) and _is_int(text)
        if readable:
            return MoveInput(message=_("Invalid move! Try again."))
        if grid.files:
            return MoveInput(
                message=_(
                    "Please enter a column a-{last} and a row 1-{rows}, such as {example}."
                ).format(last=grid.files[-1], rows=len(grid.ranks), example=self._centre(state))
            )
        first, last = _span(numbers)
        return MoveInput(
            message=_("Please enter a number between {first} and {last}!").format(
                first=first, last=last
            )
        )

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        line = set(grid.line)
        last_cell = None if last is None else grid.cell_of(_move_text(state, last, before))
        if not grid.files:
            return self._ruled(grid, last_cell, line, rich=rich)
        letters = "   " + " ".join(grid.files)
        out = [letters]
        for top, row in enumerate(grid.cells):
            rank = grid.ranks[top] if top < len(grid.ranks) else ""
            cells = [
                _cell(mark or ".", (top, col), line, last_cell, rich=rich)
                for col, mark in enumerate(row)
            ]
            out.append(f"{rank:>2} " + " ".join(cells) + f" {rank}")
        out.append(letters)
        if last is not None and not rich:
            out.append(_("Last move: {move}").format(move=_move_text(state, last, before)))
        return "\n".join(out)

    @staticmethod
    def _ruled(
        grid: Grid, last: tuple[int, int] | None, line: set[tuple[int, int]], *, rich: bool
    ) -> str:
        rows = []
        width = 0
        for top, row in enumerate(grid.cells):
            cells = []
            for col, mark in enumerate(row):
                if not rich:
                    cells.append(mark or " ")
                elif not mark:
                    cells.append(f"[dim]{escape(grid.move_at(top, col) or '')}[/dim]")
                else:
                    cells.append(_cell(mark, (top, col), line, last, rich=True))
            rows.append(" | ".join(cells))
            width = max(width, 4 * len(row) - 3)
        return ("\n" + "-" * width + "\n").join(rows)


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


class DropView(_View):
    """Columns that a disc is dropped into (kind ``drop``): the columns' moves over the board,
    any width and height."""

    @staticmethod
    def _columns(grid: Grid) -> list[str]:
        return [move for move in (grid.moves or ((),))[0] if move is not None]

    def _span(self, state: AnyState) -> tuple[str, str]:
        return _span(self._columns(self.grid(state)))

    def intro(self, state: AnyState | None = None) -> list[str]:
        first, last = self._span(self.spec.new() if state is None else state)
        return [
            _("Enter the number of a column ({first}-{last}) to drop your disc into it.").format(
                first=first, last=last
            ),
            *self.record_intro(),
        ]

    def prompt(self, state: AnyState) -> str:
        first, last = self._span(state)
        return _("Your turn ({first}-{last}): ").format(first=first, last=last)

    def read(self, state: AnyState, text: str) -> MoveInput:
        try:
            column = state.parse_move(text)
        except ZermeloError:
            first, last = self._span(state)
            return MoveInput(
                message=_("Please enter a number between {first} and {last}!").format(
                    first=first, last=last
                )
            )
        if column not in state.legal_moves():
            return MoveInput(message=_("That column is full! Try again."))
        return MoveInput(move=column)

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        columns = self._columns(grid)
        line = set(grid.line)
        last_cell = None
        if last is not None:
            # The last disc is the topmost one in its column.
            text = _move_text(state, last, before)
            col = columns.index(text) if text in columns else -1
            for top, row in enumerate(grid.cells):
                if 0 <= col < len(row) and row[col]:
                    last_cell = (top, col)
                    break
        out = [" " + " ".join(columns)]
        for top, row in enumerate(grid.cells):
            cells = [
                _cell(mark or ".", (top, col), line, last_cell, rich=rich)
                for col, mark in enumerate(row)
            ]
            out.append("|" + "|".join(cells) + "|")
        out.append("+" + "-" * (2 * len(columns) - 1) + "+")
        return "\n".join(out)


def _squares_of(text: str) -> tuple[str, ...] | None:
    """The squares of a typed draughts move (``11-15``, ``15x24x31``, ``15 x 31``, ``d3-d4``,
    ``D4xD6xF6``), or None. Numbers lose their leading zeros; names are lower-cased."""
    parts = re.split(r"\s*[-xX:]\s*", text)
    if len(parts) < 2 or not all(p.isascii() and p.isalnum() and len(p) <= 3 for p in parts):
        return None
    return tuple(str(int(p)) if p.isdigit() else p.lower() for p in parts)


def _passes(move: tuple[str, ...], squares: tuple[str, ...]) -> bool:
    """True when ``move`` starts and ends where ``squares`` do and passes its other squares in
    order (a shortened capture such as ``15x31``)."""
    if move[0] != squares[0] or move[-1] != squares[-1] or len(move) < len(squares):
        return False
    rest = iter(move[1:-1])
    return all(any(square == seen for seen in rest) for square in squares[1:-1])


class DraughtsView(_View):
    """A board of squares where a move visits squares one after another (kind ``draughts``), as
    the game's grid draws it: 8x8 with the dark squares numbered (checkers), 10x10 numbered 1-50
    with coordinates a-j/10-1 around (international draughts), or 8x8 with every square playable
    and named a1..h8 (Turkish dama). On a numbered board empty squares show their number, and a
    key at the right of each row gives the numbers of its squares; on a named board empty squares
    are dots. Pieces are their letters (``b``/``w`` men, ``B``/``W`` kings). On a terminal the
    board is drawn in colour with the squares of the last move highlighted; into a pipe the last
    move is written under the board. A move is its squares joined by ``-`` or ``x``; a capture
    may leave out the squares between when only one path fits."""

    def intro(self, state: AnyState | None = None) -> list[str]:
        return self.record_intro()

    def prompt(self, state: AnyState) -> str:
        moves = sorted(state.legal_moves())
        example = state.format_move(moves[0]) if moves else "?"
        return _("Your move (e.g. {move}): ").format(move=example)

    @staticmethod
    def _names(grid: Grid) -> list[str]:
        return [square for row in grid.moves or () for square in row if square is not None]

    @staticmethod
    def _path(state: AnyState, move: Hashable, text: str, names: set[str]) -> tuple[str, ...]:
        """The squares ``move`` visits (``text`` is its notation, the fallback)."""
        path = draughts_path(state, move, names)
        return path if path is not None else tuple(p for p in re.split("[-x]", text) if p)

    def read(self, state: AnyState, text: str) -> MoveInput:
        stripped = text.strip()
        legal = sorted(state.legal_moves())
        texts = [state.format_move(m) for m in legal]
        listed = ", ".join(texts)
        if _asks_for_moves(stripped):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        grid = self.grid(state)
        numbers = self._names(grid)
        squares = _squares_of(stripped)
        if squares is None or not set(squares) <= set(numbers):
            # Numbers as the board counts them (1-50), names from a1 to the last (h8).
            first, last = _span(numbers if all(n.isdigit() for n in numbers) else sorted(numbers))
            return MoveInput(
                message=_(
                    "{text} is not a move: type squares {first}-{last} like {example}"
                ).format(
                    text=repr(stripped), first=first, last=last, example=texts[0] if texts else "?"
                )
            )
        names = set(numbers)
        paths = [
            self._path(state, move, text, names) for move, text in zip(legal, texts, strict=True)
        ]
        exact = [move for move, path in zip(legal, paths, strict=True) if path == squares]
        if exact:
            return MoveInput(move=exact[0])
        fits = [move for move, path in zip(legal, paths, strict=True) if _passes(path, squares)]
        if len(fits) == 1:
            return MoveInput(move=fits[0])
        if len(fits) > 1:
            return MoveInput(
                message=_("{text} fits more than one capture: {moves}").format(
                    text=repr(stripped), moves=", ".join(state.format_move(m) for m in fits)
                )
            )
        longer = [
            text
            for text, path in zip(texts, paths, strict=True)
            if len(path) > len(squares) and path[: len(squares)] == squares
        ]
        if longer:
            return MoveInput(
                message=_("The jump must go on: {moves}").format(moves=", ".join(longer))
            )
        if any("x" in text for text in texts):
            return MoveInput(message=_("A capture is mandatory: {moves}").format(moves=listed))
        return MoveInput(
            message=_("{text} is not legal here; legal moves: {moves}").format(
                text=repr(stripped), moves=listed
            )
        )

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        names = set(self._names(grid))
        numbered = all(name.isdigit() for name in names)
        marked: set[str] = set()
        if last is not None:
            text = _move_text(state, last, before)
            path = draughts_path(before, last, names) if before is not None else None
            marked = set(path) if path is not None else set(re.split("[-x]", text))
        coords = bool(grid.files)
        lines = []
        if coords:
            lines.append("   " + "".join(f"{file:>3}" for file in grid.files))
        for top, row in enumerate(grid.cells):
            rank = grid.ranks[top] if top < len(grid.ranks) else ""
            cells = []
            numbers = []
            for col, piece in enumerate(row):
                square = grid.move_at(top, col)
                if square is None:
                    cells.append("[on grey85]   [/on grey85]" if rich else "  .")
                    continue
                numbers.append(square)
                shown = square if numbered else "."
                text = f"{shown:>3}" if not piece else f"  {piece}"
                if not rich:
                    cells.append(text)
                    continue
                ground = "grey42" if numbered else "tan"
                background = "on dark_goldenrod" if square in marked else f"on {ground}"
                if not piece:
                    label = f"{square:>2} " if numbered else "   "
                    cells.append(f"[grey70 {background}]{label}[/]")
                else:
                    colour = "black" if piece in "bB" else "bright_white"
                    glyph = " ● " if piece.islower() else " K "
                    cells.append(f"[bold {colour} {background}]{glyph}[/]")
            prefix = f"{rank:>2} " if coords else ""
            if numbered:
                first, last_square = _span(numbers)
                key = f"  {f'{first}-{last_square}':>5}"
                suffix = f"[dim]{key}[/dim]" if rich else key
            else:
                suffix = f" {rank}" if coords else ""
            lines.append(prefix + "".join(cells) + suffix)
        if coords:
            lines.append(lines[0])
        if last is not None and not rich:
            lines.append(_("Last move: {move}").format(move=_move_text(state, last, before)))
        return "\n".join(lines)


class GridView(_View):
    """Every game, drawn from its record's :attr:`~zermelo.core.record.GameSpec.grid` (kind
    ``grid``): rows of cells, the winning line highlighted, moves typed in the game's own notation
    (``?`` lists them)."""

    def intro(self, state: AnyState | None = None) -> list[str]:
        lines = self.record_intro()
        if self.spec.notation:
            lines.append(_("Moves: {notation}.").format(notation=self.notation()))
        lines.append(_("Type ? to list the legal moves."))
        return lines

    def prompt(self, state: AnyState) -> str:
        moves = sorted(state.legal_moves())
        example = state.format_move(moves[0]) if moves else "?"
        return _("Your move (e.g. {move}): ").format(move=example)

    def read(self, state: AnyState, text: str) -> MoveInput:
        stripped = text.strip()
        legal = sorted(state.legal_moves())
        listed = ", ".join(state.format_move(m) for m in legal)
        if _asks_for_moves(stripped):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        try:
            move = state.parse_move(stripped)
        except ZermeloError:
            return MoveInput(
                message=_("{text} is not a move: expected {notation}").format(
                    text=repr(stripped), notation=self.notation() or listed
                )
            )
        if move not in legal:
            return MoveInput(
                message=_("{text} is not legal here; legal moves: {moves}").format(
                    text=repr(stripped), moves=listed
                )
            )
        return MoveInput(move=move)

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        width = max((len(cell) for row in grid.cells for cell in row), default=1) or 1
        line = set(grid.line) if state.is_terminal() else set()
        out = []
        for top, row in enumerate(grid.cells):
            cells = []
            for col, cell in enumerate(row):
                text = (cell or ".").rjust(width)
                if rich:
                    text = escape(text)
                    if not cell:
                        text = f"[dim]{text}[/dim]"
                    elif (top, col) in line:
                        text = f"[bold on green]{text}[/]"
                    else:
                        text = f"[bold]{text}[/bold]"
                cells.append(text)
            out.append(" ".join(cells))
        if last is not None and not rich:
            out.append(_("Last move: {move}").format(move=_move_text(state, last, before)))
        return "\n".join(out)


# Solid figures for both sides, told apart by their colour: the outline figures are too thin to
# read on a coloured square.
_GLYPHS = {"K": "♚", "Q": "♛", "R": "♜", "B": "♝", "N": "♞", "P": "♟"}


_SOUND_MOVES = ("e4", "d4", "e5", "d5", "Nf3", "Nf6", "Nc3", "Nc6", "O-O", "O-O-O")
"""Moves a teacher would show first: the central pawns, the knights, then castling."""


def chess_example(state: AnyState) -> str:
    """A sensible move to show in the prompt, without a search: the first legal one of
    :data:`_SOUND_MOVES`, else a quiet pawn move, else the first legal move by name."""
    texts = sorted(state.format_move(m) for m in state.legal_moves())
    if not texts:
        return "?"
    legal = set(texts)
    for move in _SOUND_MOVES:
        if move in legal:
            return move
    pawn = [t for t in texts if t[0] in "abcdefgh" and "x" not in t and "+" not in t]
    return pawn[0] if pawn else texts[0]


class ChessView(GridView):
    """Chess (kind ``chess``): the grid's first rank at the top, its files under the board. On a
    terminal the pieces are Unicode figures on coloured squares, the last move's squares and a
    king in check highlighted; into a pipe they are letters (``PNBRQK`` White, ``pnbrqk`` Black,
    ``.`` empty) with the last move written under the board. Moves are typed in the game's
    notation (SAN or UCI); ``?`` lists them."""

    def prompt(self, state: AnyState) -> str:
        side = _(self.symbol(state.to_move))
        return _("Your move, {side} (e.g. {move}): ").format(side=side, move=chess_example(state))

    def read(self, state: AnyState, text: str) -> MoveInput:
        stripped = text.strip()
        listed = ", ".join(sorted(state.format_move(m) for m in state.legal_moves()))
        if _asks_for_moves(stripped):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        try:
            move = state.parse_move(stripped)
        except ParseError:
            return MoveInput(
                message=_("{text} is not a move: expected {notation}").format(
                    text=repr(stripped), notation=self.notation()
                )
            )
        except ZermeloError:
            move = None
        if move is None or move not in state.legal_moves():
            return MoveInput(
                message=_("{text} is not legal here; legal moves: {moves}").format(
                    text=repr(stripped), moves=listed
                )
            )
        return MoveInput(move=move)

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        marked = set(grid.last) if last is not None else set()
        height = len(grid.cells)
        files = "   " + (
            " ".join(grid.files) if not rich else "".join(f" {f} " for f in grid.files)
        )
        out = [files]
        for top, row in enumerate(grid.cells):
            rank = grid.ranks[top] if top < len(grid.ranks) else ""
            cells = []
            for col, piece in enumerate(row):
                if not rich:
                    cells.append(piece or ".")
                    continue
                light = (col + height - 1 - top) % 2 == 1
                if (top, col) == grid.alert:
                    ground = "#d9534f"
                elif (top, col) in marked:
                    ground = "#cdd26a" if light else "#aaa23a"
                else:
                    ground = "#f0d9b5" if light else "#b58863"
                if not piece:
                    glyph, colour = " ", "black"
                else:
                    glyph = _GLYPHS.get(piece.upper(), piece)
                    colour = "#ffffff" if piece.isupper() else "#000000"
                cells.append(f"[bold {colour} on {ground}] {glyph} [/]")
            joiner = " " if not rich else ""
            out.append(f"{rank:>2} " + joiner.join(cells) + f" {rank}")
        out.append(files)
        if last is not None and not rich:
            out.append(_("Last move: {move}").format(move=_move_text(state, last, before)))
        return "\n".join(out)


VIEWS: dict[str, Callable[[GameSpec], BoardView]] = {
    "grid": GridView,
    "place": PlaceView,
    "drop": DropView,
    "draughts": DraughtsView,
    "chess": ChessView,
}
"""Board kind (:data:`~zermelo.core.record.BOARD_KINDS`) -> its terminal view; a record naming
another kind is drawn as a grid."""


def view_for(game: GameSpec | str) -> BoardView:
    """The terminal view of a game, given its record or its name."""
    spec = game if isinstance(game, GameSpec) else get_game(game)
    return VIEWS.get(spec.board, GridView)(spec)
