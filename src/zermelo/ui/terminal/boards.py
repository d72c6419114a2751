"""How each game looks on a terminal, and how a typed move is read.

A :class:`BoardView` knows one game's board drawing (plain text for pipes, rich markup for
terminals), its prompt and its input rules. The session in :mod:`zermelo.ui.terminal.session` is the
same for every game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from zermelo.core.errors import ZermeloError
from zermelo.core.state import Player
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = [
    "BoardView",
    "CheckersView",
    "Connect4View",
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


class TicTacToeView:
    """The tutorial's board: ``X | O |  `` rows with ``---------`` between them."""

    # TRANSLATORS: the game's name as players know it in your language.
    title = N_("Tic Tac Toe")

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

    # TRANSLATORS: English draughts (8x8), as players know it in your language.
    title = N_("Checkers")

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

    def __init__(self, title: str) -> None:
        self.title = title

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

    title = "Connect Four"

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


def view_for(game: str) -> BoardView:
    """The terminal view of a registered game."""
    if game == "tictactoe":
        return TicTacToeView()
    if game == "checkers":
        return CheckersView()
    if game == "connect4":
        return Connect4View()
    if game == "gomoku":
        return MnkView(N_("Gomoku"))
    if game == "mnk":
        return MnkView(N_("m,n,k game"))
    raise ZermeloError(f"game {game!r} cannot be played on the terminal yet")
