"""How each kind of board looks on a terminal, and how a typed move is read.

A :class:`BoardView` knows one board kind's drawing (plain text for pipes, rich markup for
terminals), its prompt and its input rules. A game's record names its kind
(:attr:`~zermelo.core.record.GameSpec.board`); :func:`view_for` builds the view from the record, and
a kind this module does not know is drawn as the generic grid (:class:`GridView`), so every game,
plugins included, can be played. The session in :mod:`zermelo.ui.terminal.session` is the same for
every game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rich.markup import escape

from zermelo.core.errors import ParseError, ZermeloError
from zermelo.core.record import GameSpec
from zermelo.core.state import Player
from zermelo.games.registry import get_game
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = [
    "BoardView",
    "CheckersView",
    "ChessView",
    "Connect4View",
    "GridView",
    "MnkView",
    "MoveInput",
    "TicTacToeView",
    "view_for",
]


@dataclass(frozen=True)
class MoveInput:
    """What a line of input turned out to be: a move, or the message to show instead."""

    move: Any = None
    message: str | None = None


class BoardView(Protocol):
    """One game's face on a terminal."""

    title: str

    def symbol(self, player: Player) -> str:
        """The mark of ``player`` ("X", "O", ...)."""
        ...

    def intro(self) -> list[str]:
        """Lines shown once, after the greeting: how to enter moves."""
        ...

    def prompt(self, state: Any) -> str:
        """The input prompt, e.g. ``"Your turn (0-8): "``."""
        ...

    def read(self, state: Any, text: str) -> MoveInput:
        """Turn a typed line into a legal move, or into the message that says what was wrong."""
        ...

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        """The board as text; with ``rich``, in rich console markup."""
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
    """One grid cell (``X``, ``O`` or ``.``): plain, or coloured with the winning line on green
    and the last move in reverse video."""
    if not rich:
        return mark
    if mark == ".":
        return "[dim].[/dim]"
    style = _COLOURS[mark]
    if where in line:
        style += " on green"
    elif where == last:
        style += " reverse"
    return f"[{style}]{mark}[/{style}]"


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


def _title(spec: GameSpec) -> str:
    return spec.title_short or spec.title


class TicTacToeView:
    """The tutorial's board: ``X | O |  `` rows with ``---------`` between them."""

    def __init__(self, spec: GameSpec) -> None:
        self.title = _title(spec)

    def symbol(self, player: Player) -> str:
        return "X" if player is Player.FIRST else "O"

    def intro(self) -> list[str]:
        return [
            _("Enter positions (0-8) as shown below:"),
            "0 | 1 | 2",
            "---------",
            "3 | 4 | 5",
            "---------",
            "6 | 7 | 8",
        ]

    def prompt(self, state: Any) -> str:
        return _("Your turn (0-8): ")

    def read(self, state: Any, text: str) -> MoveInput:
        stripped = text.strip()
        try:
            square = int(stripped)
        except ValueError:
            return MoveInput(message=_("Please enter a number between 0 and 8!"))
        if not 0 <= square <= 8 or square not in state.legal_moves():
            return MoveInput(message=_("Invalid move! Try again."))
        return MoveInput(move=square)

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        rows = []
        for top in range(0, 9, 3):
            cells = []
            for square in range(top, top + 3):
                mark = state.cell(square)
                if not rich:
                    cells.append(mark)
                elif mark == " ":
                    cells.append(f"[dim]{square}[/dim]")
                else:
                    style = _COLOURS[mark] + (" reverse" if square == last else "")
                    cells.append(f"[{style}]{mark}[/{style}]")
            rows.append(" | ".join(cells))
        return "\n---------\n".join(rows)


class CheckersView:
    """English draughts: the 8x8 board with Black at the top, its dark squares numbered 1-32.

    Empty dark squares show their number and pieces their letter (``b``/``w`` men, ``B``/``W``
    kings); a key at the right of each row gives the numbers of its squares. On a terminal the board
    is drawn in colour with the squares of the last move highlighted; into a pipe the last move is
    written under the board.
    """

    def __init__(self, spec: GameSpec) -> None:
        self.title = _title(spec)

    def symbol(self, player: Player) -> str:
        # English here, so that --human black works in every language; shown translated.
        return N_("Black") if player is Player.FIRST else N_("White")

    def intro(self) -> list[str]:
        return [
            _(
                "Black (b, kings B) starts on squares 1-12 and moves first; White (w, kings W) on 21-32."
            ),
            _(
                "Type a move as 11-15, a capture as 15x24, a multi-jump as 15x24x31; ? lists the moves."
            ),
            _("Captures are mandatory; a man reaching the far row is crowned king."),
            _("40 moves each without a capture or a man move is a draw."),
        ]

    def prompt(self, state: Any) -> str:
        moves = state.legal_moves()
        example = state.format_move(moves[0]) if moves else "11-15"
        return _("Your move (e.g. {move}): ").format(move=example)

    def read(self, state: Any, text: str) -> MoveInput:
        stripped = text.strip()
        legal = list(state.legal_moves())
        listed = ", ".join(state.format_move(m) for m in legal)
        # TRANSLATORS: a word the player may type to list the legal moves.
        if stripped in ("?", "moves", _("moves")):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        squares = _typed_squares(stripped)
        if squares is None:
            example = state.format_move(legal[0]) if legal else "11-15"
            return MoveInput(
                message=_("{text} is not a move: type squares 1-32 like {example}").format(
                    text=repr(stripped), example=example
                )
            )
        if squares in legal:
            return MoveInput(move=squares)
        fits = state.completions(squares)
        if len(fits) == 1:
            return MoveInput(move=fits[0])
        if len(fits) > 1:
            return MoveInput(
                message=_("{text} fits more than one capture: {moves}").format(
                    text=repr(stripped), moves=", ".join(state.format_move(m) for m in fits)
                )
            )
        longer = [m for m in legal if len(m) > len(squares) and m[: len(squares)] == squares]
        if longer:
            return MoveInput(
                message=_("The jump must go on: {moves}").format(
                    moves=", ".join(state.format_move(m) for m in longer)
                )
            )
        if state.has_capture():
            return MoveInput(message=_("A capture is mandatory: {moves}").format(moves=listed))
        return MoveInput(
            message=_("{text} is not legal here; legal moves: {moves}").format(
                text=repr(stripped), moves=listed
            )
        )

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        marked = set(last) if last is not None else set()
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                if (row + col) % 2 == 0:
                    cells.append("[on grey85]   [/on grey85]" if rich else "  .")
                    continue
                square = row * 4 + col // 2 + 1
                piece = state.piece(square)
                text = f"{square:>3}" if not piece else f"  {piece}"
                if not rich:
                    cells.append(text)
                    continue
                background = "on dark_goldenrod" if square in marked else "on grey42"
                if not piece:
                    cells.append(f"[grey70 {background}]{square:>2} [/]")
                else:
                    colour = "black" if piece in "bB" else "bright_white"
                    glyph = " ● " if piece in "bw" else " K "
                    cells.append(f"[bold {colour} {background}]{glyph}[/]")
            first = row * 4 + 1
            key = f"  {f'{first}-{first + 3}':>5}"
            lines.append("".join(cells) + (f"[dim]{key}[/dim]" if rich else key))
        if last is not None and not rich:
            lines.append(_("Last move: {move}").format(move=state.format_move(last)))
        return "\n".join(lines)


def _typed_squares(text: str) -> tuple[int, ...] | None:
    """The squares of a typed move (``11-15``, ``15x24x31``, ``15 x 31``), or None."""
    parts = re.split(r"\s*[-xX:]\s*", text)
    if len(parts) < 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        return None
    squares = tuple(int(p) for p in parts)
    if not all(1 <= square <= 32 for square in squares):
        return None
    return squares


class MnkView:
    """A go-style board for m,n,k games and gomoku: columns a, b, ... and rows 1, 2, ... from the
    bottom, ``X``/``O`` stones, the last move marked and the winning line highlighted."""

    def __init__(self, spec: GameSpec) -> None:
        self.title = _title(spec)

    def symbol(self, player: Player) -> str:
        return "X" if player is Player.FIRST else "O"

    def intro(self) -> list[str]:
        return [
            _("Enter a move as a column letter and a row number, such as {example}.").format(
                example="c3"
            ),
            _("Line up your stones across, down or diagonally to win."),
        ]

    def prompt(self, state: Any) -> str:
        rules = state.rules
        centre = state.format_move((rules.height // 2) * rules.width + rules.width // 2)
        return _("Your move (e.g. {example}): ").format(example=centre)

    def read(self, state: Any, text: str) -> MoveInput:
        try:
            move = state.parse_move(text)
        except ZermeloError:
            rules = state.rules
            return MoveInput(
                message=_(
                    "Please enter a column a-{last} and a row 1-{rows}, such as {example}."
                ).format(last=chr(ord("a") + rules.width - 1), rows=rules.height, example="c3")
            )
        if move not in state.legal_moves():
            return MoveInput(message=_("Invalid move! Try again."))
        return MoveInput(move=move)

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        from zermelo.ui.lines import winning_line

        rules = state.rules
        rows = state.rows()
        winner = state.winner
        line: set[tuple[int, int]] = set()
        if winner is not None:
            mark = "x" if winner is Player.FIRST else "o"
            line = set(winning_line(rows, mark, rules.k))
        last_cell = None
        if last is not None:
            row, col = divmod(last, rules.width)
            last_cell = (rules.height - 1 - row, col)
        letters = "   " + " ".join(chr(ord("a") + c) for c in range(rules.width))
        out = [letters]
        for top, text in enumerate(rows):
            number = rules.height - top
            cells = []
            for col, char in enumerate(text):
                mark = {"x": "X", "o": "O"}.get(char, ".")
                cells.append(_cell(mark, (top, col), line, last_cell, rich=rich))
            out.append(f"{number:>2} " + " ".join(cells) + f" {number}")
        out.append(letters)
        if last is not None and not rich:
            out.append(_("Last move: {move}").format(move=state.format_move(last)))
        return "\n".join(out)


class Connect4View:
    """Connect Four: columns numbered 1-7 over the board, discs dropped from the top."""

    def __init__(self, spec: GameSpec) -> None:
        self.title = _title(spec)

    def symbol(self, player: Player) -> str:
        return "X" if player is Player.FIRST else "O"

    def intro(self) -> list[str]:
        return [
            _("Enter the number of a column (1-7) to drop your disc into it."),
            _("Get four in a row, across, down or diagonally, to win."),
        ]

    def prompt(self, state: Any) -> str:
        return _("Your turn (1-{columns}): ").format(columns=state.width)

    def read(self, state: Any, text: str) -> MoveInput:
        try:
            column = state.parse_move(text)
        except ZermeloError:
            return MoveInput(
                message=_("Please enter a number between 1 and {columns}!").format(
                    columns=state.width
                )
            )
        if column not in state.legal_moves():
            return MoveInput(message=_("That column is full! Try again."))
        return MoveInput(move=column)

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        from zermelo.ui.lines import winning_line

        rows = state.rows()
        winner = state.winner
        line: set[tuple[int, int]] = set()
        if winner is not None:
            line = set(winning_line(rows, "X" if winner is Player.FIRST else "O", 4))
        last_cell = None
        if last is not None:
            # The last disc is the topmost one in its column.
            for top, text in enumerate(rows):
                if text[last] != ".":
                    last_cell = (top, last)
                    break
        header = " " + " ".join(str(c + 1) for c in range(state.width))
        out = [header]
        for top, text in enumerate(rows):
            cells = []
            for col, mark in enumerate(text):
                cells.append(_cell(mark, (top, col), line, last_cell, rich=rich))
            out.append("|" + "|".join(cells) + "|")
        out.append("+" + "-" * (2 * state.width - 1) + "+")
        return "\n".join(out)


class GridView:
    """Any game, drawn from its record's :attr:`~zermelo.core.record.GameSpec.grid`: rows of
    cells, the winning line highlighted, moves typed in the game's own notation (``?`` lists them).
    """

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.title = _title(spec)

    def symbol(self, player: Player) -> str:
        return self.spec.sides[player]

    def intro(self) -> list[str]:
        lines = list(self.spec.intro)
        if self.spec.notation:
            lines.append(_("Moves: {notation}.").format(notation=self.spec.notation))
        lines.append(_("Type ? to list the legal moves."))
        return lines

    def prompt(self, state: Any) -> str:
        moves = sorted(state.legal_moves())
        example = state.format_move(moves[0]) if moves else "?"
        return _("Your move (e.g. {move}): ").format(move=example)

    def read(self, state: Any, text: str) -> MoveInput:
        stripped = text.strip()
        legal = sorted(state.legal_moves())
        listed = ", ".join(state.format_move(m) for m in legal)
        if stripped in ("?", "moves", _("moves")):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        try:
            move = state.parse_move(stripped)
        except ZermeloError:
            return MoveInput(
                message=_("{text} is not a move: expected {notation}").format(
                    text=repr(stripped), notation=self.spec.notation or listed
                )
            )
        if move not in legal:
            return MoveInput(
                message=_("{text} is not legal here; legal moves: {moves}").format(
                    text=repr(stripped), moves=listed
                )
            )
        return MoveInput(move=move)

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        grid = self.spec.grid(state)
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
            out.append(_("Last move: {move}").format(move=state.format_move(last)))
        return "\n".join(out)


# Solid figures for both sides, told apart by their colour: the outline figures are too thin to
# read on a coloured square.
_GLYPHS = {"K": "♚", "Q": "♛", "R": "♜", "B": "♝", "N": "♞", "P": "♟"}


class ChessView(GridView):
    """Chess: rank 8 at the top, files a-h under the board. On a terminal the pieces are Unicode
    figures on coloured squares, the last move's squares and a king in check highlighted; into a
    pipe they are letters (``PNBRQK`` White, ``pnbrqk`` Black, ``.`` empty) with the last move
    written under the board. Moves are typed in SAN (``Nf3``) or UCI (``g1f3``); ``?`` lists them.
    """

    def intro(self) -> list[str]:
        return [
            _("Moves: {notation}.").format(notation=_(self.spec.notation)),
            _("Type ? to list the legal moves."),
        ]

    def prompt(self, state: Any) -> str:
        side = _(self.symbol(state.to_move))
        return _("Your move, {side} (e.g. {move}): ").format(side=side, move=_example(state))

    def read(self, state: Any, text: str) -> MoveInput:
        stripped = text.strip()
        listed = ", ".join(sorted(state.format_move(m) for m in state.legal_moves()))
        if stripped in ("?", "moves", _("moves")):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        try:
            return MoveInput(move=state.parse_move(stripped))
        except ParseError:
            return MoveInput(
                message=_("{text} is not a move: expected {notation}").format(
                    text=repr(stripped), notation=_(self.spec.notation)
                )
            )
        except ZermeloError:
            return MoveInput(
                message=_("{text} is not legal here; legal moves: {moves}").format(
                    text=repr(stripped), moves=listed
                )
            )

    def render(self, state: Any, last: Any, *, rich: bool) -> str:
        import chess

        board = state.board
        marked = {last.from_square, last.to_square} if last is not None else set()
        checked = board.king(board.turn) if board.is_check() else None
        files = "   " + (
            " ".join("abcdefgh") if not rich else "".join(f" {f} " for f in "abcdefgh")
        )
        out = [files]
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                square = chess.square(file, rank)
                piece = board.piece_at(square)
                if not rich:
                    cells.append(piece.symbol() if piece is not None else ".")
                    continue
                light = (file + rank) % 2 == 1
                if square == checked:
                    ground = "#d9534f"
                elif square in marked:
                    ground = "#cdd26a" if light else "#aaa23a"
                else:
                    ground = "#f0d9b5" if light else "#b58863"
                if piece is None:
                    glyph, colour = " ", "black"
                else:
                    glyph = _GLYPHS[piece.symbol().upper()]
                    colour = "#ffffff" if piece.color == chess.WHITE else "#000000"
                cells.append(f"[bold {colour} on {ground}] {glyph} [/]")
            joiner = " " if not rich else ""
            out.append(f"{rank + 1:>2} " + joiner.join(cells) + f" {rank + 1}")
        out.append(files)
        if last is not None and not rich:
            out.append(_("Last move: {move}").format(move=_last_san(state, last)))
        return "\n".join(out)


def _example(state: Any) -> str:
    moves = sorted(state.format_move(m) for m in state.legal_moves())
    return moves[0] if moves else "?"


def _last_san(state: Any, last: Any) -> str:
    """The last move in SAN, read from the position before it (the state after it cannot say)."""
    board = state.board
    if board.move_stack and board.peek() == last:
        board.pop()
        return str(board.san(last))
    return str(last.uci())


VIEWS: dict[str, Callable[[GameSpec], BoardView]] = {
    "squares": TicTacToeView,
    "columns": Connect4View,
    "go": MnkView,
    "draughts": CheckersView,
    "chess": ChessView,
    "grid": GridView,
}
"""Board kind -> its terminal view; a record naming another kind is drawn as a grid."""


def view_for(game: GameSpec | str) -> BoardView:
    """The terminal view of a game, given its record or its name."""
    spec = game if isinstance(game, GameSpec) else get_game(game)
    return VIEWS.get(spec.board, GridView)(spec)
