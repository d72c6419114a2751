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

import dataclasses
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.markup import escape

from zermelo.core.errors import ParseError, ZermeloError
from zermelo.core.record import GameSpec, Grid, draughts_path
from zermelo.core.state import AnyState, Player, is_chance
from zermelo.games.registry import get_game
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = [
    "FEW_CHOICES",
    "VIEWS",
    "BackgammonView",
    "BoardView",
    "CardsView",
    "ChessView",
    "DiceView",
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
    """One board kind's face on a terminal.

    ``viewer`` is the side the person at the terminal plays, set by the session (``None``: nobody
    in particular). In a game with hidden information the view draws only what ``viewer`` sees
    (the record's :attr:`~zermelo.core.record.GameSpec.view`), never the whole truth; without a
    viewer it draws the record's public grid."""

    title: str
    viewer: Player | None

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

    def outcome_line(self, before: AnyState, outcome: Hashable, after: AnyState) -> str:
        """One line saying what chance did at ``before`` (a roll of the dice), for a game whose
        chance outcomes everybody sees: "You rolled 5.", "The AI rolled 6 and 3."."""
        ...

    def hidden_chance_line(self, count: int) -> str:
        """One line for ``count`` chance events in a row of a game with hidden information,
        naming none of them ("Cards are dealt."): the board shows what the viewer may see."""
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


FEW_CHOICES = 6
"""A decision among at most this many moves written as words (``roll``/``hold``, ``fold``/
``call``/``raise``, ``take``/``drop``) is offered as numbered choices, in a game of chance or of
hidden information."""

_QUOTED = 40
"""A typed line is quoted back in an error message up to this many characters."""


def _quote(text: str) -> str:
    """``text`` quoted for an error line, cut short when long."""
    return repr(text if len(text) <= _QUOTED else text[:_QUOTED] + "...")


def facts_text(grid: Grid) -> str:
    """The grid's labelled facts in one line, each label translated: ``pot: 4, bets: bet``
    (empty when it has none)."""
    return ", ".join(f"{_(label)}: {value}" for label, value in grid.facts)


def _with_facts(board: str, grid: Grid, *, rich: bool) -> str:
    """``board`` with the grid's facts on a line under it."""
    facts = facts_text(grid)
    if not facts:
        return board
    return board + "\n" + (escape(facts) if rich else facts)


class _View:
    """What every kind shares: the title, the sides' names, the record's own intro lines, the
    viewer's board in a game with hidden information, the lines that say what chance did, and
    numbered choices for a decision among a few words."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.title = spec.title_short or spec.title
        self.viewer: Player | None = None

    def symbol(self, player: Player) -> str:
        return self.spec.sides[player]

    def grid(self, state: AnyState) -> Grid:
        """The board to draw: in a game with hidden information, the viewer's view of it (the
        public grid when there is no viewer); else the whole board."""
        if self.spec.hidden and self.spec.view is not None and self.viewer is not None:
            return self.spec.view(state, self.viewer)
        return self.spec.grid(state)

    def _who(self, player: Player) -> str:
        """``"you"``, ``"the AI"`` or the side's name, for the lines below."""
        if self.viewer is None:
            return _(self.symbol(player))
        return _("you") if player == self.viewer else _("the AI")

    def outcome_line(self, before: AnyState, outcome: Hashable, after: AnyState) -> str:
        text = _move_text(after, outcome, before)
        if self.viewer is None:
            return _("Chance plays {outcome} for {side}.").format(
                outcome=text, side=_(self.symbol(before.to_move))
            )
        if before.to_move == self.viewer:
            return _("Chance plays {outcome} for you.").format(outcome=text)
        return _("Chance plays {outcome} for the AI.").format(outcome=text)

    def hidden_chance_line(self, count: int) -> str:
        return _("Chance plays, unseen.")

    # -- numbered choices -----------------------------------------------------------------

    def choices(self, state: AnyState) -> list[tuple[Hashable, str]]:
        """The legal moves with their notation when they are offered as numbered choices: in a
        game of chance or hidden information, a decision among at most :data:`FEW_CHOICES`
        moves none of which is written as a number; else empty."""
        if not (self.spec.chance or self.spec.hidden) or is_chance(state):
            return []
        moves = list(state.legal_moves())
        if not 1 <= len(moves) <= FEW_CHOICES:
            return []
        texts = [state.format_move(move) for move in moves]
        if any(_is_int(text.strip()) for text in texts):
            return []
        return list(zip(moves, texts, strict=True))

    @staticmethod
    def choice_prompt(choices: Sequence[tuple[Hashable, str]]) -> str:
        listed = ", ".join(f"{number}={text}" for number, (_m, text) in enumerate(choices, 1))
        return _("Your move ({choices}): ").format(choices=listed)

    def read_choice(
        self, state: AnyState, text: str, choices: Sequence[tuple[Hashable, str]]
    ) -> MoveInput:
        """A typed choice: its number, or the move in the game's notation."""
        stripped = text.strip()
        listed = ", ".join(word for _m, word in choices)
        if _asks_for_moves(stripped):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=listed))
        if stripped.isascii() and stripped.isdigit() and len(stripped) <= 3:
            number = int(stripped)
            if 1 <= number <= len(choices):
                return MoveInput(move=choices[number - 1][0])
        else:
            for move, word in choices:
                if stripped.lower() == word.lower():
                    return MoveInput(move=move)
            found = self.legal(state, stripped)
            if found is not None:
                return MoveInput(move=found)
        return MoveInput(
            message=_("{text} is not a choice: type a number 1-{last} or one of: {moves}").format(
                text=_quote(stripped), last=len(choices), moves=listed
            )
        )

    def record_intro(self) -> list[str]:
        return [_(line) for line in self.spec.intro if line]

    def notation(self) -> str:
        """The record's line of help for the move notation, translated ("" if it has none)."""
        return _(self.spec.notation) if self.spec.notation else ""

    def legal(self, state: AnyState, text: str) -> Hashable | None:
        """The legal move ``text`` names, or ``None``. A move that reads as a legal one but is
        not equal to it (a move written in another order) is matched by its notation."""
        try:
            move: Hashable = state.parse_move(text)
        except (ZermeloError, ValueError):
            return None
        legal = state.legal_moves()
        if move in legal:
            return move
        if not (self.spec.chance or self.spec.hidden):
            return None
        try:
            written = state.format_move(move)
        except (ZermeloError, ValueError, TypeError, KeyError, IndexError):
            return None
        return next((m for m in legal if state.format_move(m) == written), None)


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
            return _with_facts(self._ruled(grid, last_cell, line, rich=rich), grid, rich=rich)
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
        return _with_facts("\n".join(out), grid, rich=rich)

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
        return _with_facts("\n".join(out), grid, rich=rich)


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
        return _with_facts("\n".join(lines), grid, rich=rich)


class _TypedView(_View):
    """A view whose moves are typed in the game's notation (as numbered choices when there are
    few; ``?`` lists them): its intro says the notation, its prompt shows the first of
    :meth:`example_moves` as an example."""

    def intro(self, state: AnyState | None = None) -> list[str]:
        lines = self.record_intro()
        if self.spec.notation:
            lines.append(_("Moves: {notation}.").format(notation=self.notation()))
        lines.append(_("Type ? to list the legal moves."))
        return lines

    def example_moves(self, state: AnyState) -> list[Hashable]:
        """The legal moves in the order the prompt takes its example from (the game's own)."""
        return list(state.legal_moves())

    def prompt(self, state: AnyState) -> str:
        choices = self.choices(state)
        if choices:
            return self.choice_prompt(choices)
        moves = self.example_moves(state)
        example = state.format_move(moves[0]) if moves else "?"
        return _("Your move (e.g. {move}): ").format(move=example)


class GridView(_TypedView):
    """Every game, drawn from its record's :attr:`~zermelo.core.record.GameSpec.grid` (kind
    ``grid``): rows of cells, the winning line highlighted, moves typed in the game's own notation
    (``?`` lists them)."""

    def example_moves(self, state: AnyState) -> list[Hashable]:
        return sorted(state.legal_moves())

    def read(self, state: AnyState, text: str) -> MoveInput:
        choices = self.choices(state)
        if choices:
            return self.read_choice(state, text, choices)
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
        return _with_facts("\n".join(out), grid, rich=rich)


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
        return _with_facts("\n".join(out), grid, rich=rich)


def _roll_words(text: str) -> str:
    """A roll as the dice read: ``"63"`` -> ``"6 and 3"``; any other text as it is."""
    if len(text) == 2 and text.isascii() and text.isdigit():
        return _("{first} and {second}").format(first=text[0], second=text[1])
    return text


class _ChanceView(_TypedView):
    """What the kinds of chance games share: moves typed in the game's notation, as numbered
    choices when there are few; ``?`` lists them; a roll said in one line."""

    def read(self, state: AnyState, text: str) -> MoveInput:
        choices = self.choices(state)
        if choices:
            return self.read_choice(state, text, choices)
        stripped = text.strip()
        texts = [state.format_move(move) for move in state.legal_moves()]
        if _asks_for_moves(stripped):
            return MoveInput(message=_("Legal moves: {moves}").format(moves=", ".join(texts)))
        move = self.legal(state, stripped)
        if move is not None:
            return MoveInput(move=move)
        unreadable = MoveInput(
            message=_("{text} is not a move: expected {notation}").format(
                text=_quote(stripped), notation=self.notation() or ", ".join(texts[:3])
            )
        )
        try:
            state.parse_move(stripped)
        except ParseError:
            return unreadable
        except ZermeloError as error:  # read, but not legal here: the game says why
            return MoveInput(message=" ".join(error.render(_).split()))
        except ValueError:
            return unreadable
        shown = ", ".join(texts[:_LISTED])
        if len(texts) > _LISTED:
            return MoveInput(
                message=_(
                    "{text} is not legal here; legal moves: {moves} and {more} more (? lists them)"
                ).format(text=_quote(stripped), moves=shown, more=len(texts) - _LISTED)
            )
        return MoveInput(
            message=_("{text} is not legal here; legal moves: {moves}").format(
                text=_quote(stripped), moves=shown
            )
        )

    def outcome_line(self, before: AnyState, outcome: Hashable, after: AnyState) -> str:
        roll = _roll_words(_move_text(after, outcome, before))
        mine = self.viewer is None or before.to_move == self.viewer
        over = not after.is_terminal() and after.to_move != before.to_move
        if self.viewer is None:
            side = _(self.symbol(before.to_move))
            if over:
                return _("{side} rolled {roll}: the turn is over.").format(side=side, roll=roll)
            return _("{side} rolled {roll}.").format(side=side, roll=roll)
        if mine:
            if over:
                return _("You rolled {roll}: your turn is over.").format(roll=roll)
            return _("You rolled {roll}.").format(roll=roll)
        if over:
            return _("The AI rolled {roll}: its turn is over.").format(roll=roll)
        return _("The AI rolled {roll}.").format(roll=roll)

    def side_label(self, player: Player, names: Sequence[str] = ()) -> str:
        """The side's name (the grid's own where it gives them), with "(you)"/"(AI)"."""
        name = names[player] if len(names) > player and names[player] else self.symbol(player)
        if self.viewer is None:
            return _(name)
        tag = _("you") if player == self.viewer else _("AI")
        return f"{_(name)} ({tag})"


_LISTED = 12
"""A message lists at most this many legal moves (``?`` lists them all)."""


def _fact(grid: Grid, label: str) -> str | None:
    return next((value for name, value in grid.facts if name == label), None)


class DiceView(_ChanceView):
    """A dice game's board (kind ``dice``, Pig): both sides' totals, the turn total of the side
    rolling, the last roll and the goal, from the grid's one row ``(first's total, second's
    total, turn total, last roll)`` and its facts. On a terminal each total has a bar toward the
    goal."""

    _BAR = 20
    _DRAWN = frozenset({"to move", "turn total"})
    """Facts the board draws already (the marker, the turn total), left out of its facts line."""

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        row = grid.cells[0] if grid.cells else ()

        def cell(index: int) -> str:
            return row[index] if index < len(row) else ""

        labels = [self.side_label(player, grid.files) for player in Player]
        width = max(len(label) for label in labels)
        goal_text = _fact(grid, "goal")
        goal = int(goal_text) if goal_text and goal_text.isdigit() and int(goal_text) > 0 else 0
        running = not state.is_terminal()
        out = []
        for player in Player:
            total = cell(player) or "0"
            moving = running and player == state.to_move
            label = labels[player].ljust(width)
            line = f"{'>' if moving else ' '} {label} {total:>4}"
            if rich:
                style = _COLOURS.get(self.symbol(player), "bold")
                line = f"{'▶' if moving else ' '} [{style}]{escape(label)}[/] {total:>4}"
                if goal and total.isdigit():
                    filled = min(self._BAR, int(total) * self._BAR // goal)
                    bar = "█" * filled + "░" * (self._BAR - filled)
                    line += f" [{style}]{bar}[/]"
            if moving:
                turn = _("turn total: {total}").format(total=cell(2) or "0")
                line += "   " + (escape(turn) if rich else turn)
            out.append(line)
        roll = _("Last roll: {roll}").format(roll=cell(3) or "-")
        out.append(escape(roll) if rich else roll)
        rest = [(label, value) for label, value in grid.facts if label not in self._DRAWN]
        return _with_facts("\n".join(out), dataclasses.replace(grid, facts=tuple(rest)), rich=rich)


_SUITS = {"s": ("♠", "black"), "h": ("♥", "red"), "d": ("♦", "red"), "c": ("♣", "black")}


class CardsView(_ChanceView):
    """A card game's table (kind ``cards``, poker): the grid's three rows, the opponent's cards
    (``?`` face down), the board's and the viewer's, then the pot, the bets and the other facts.
    A hidden game is drawn from the viewer's view only (see :class:`BoardView`)."""

    def hidden_chance_line(self, count: int) -> str:
        return _("A card is dealt.") if count == 1 else _("Cards are dealt.")

    def outcome_line(self, before: AnyState, outcome: Hashable, after: AnyState) -> str:
        return _("Dealt: {card}.").format(card=_move_text(after, outcome, before))

    @staticmethod
    def _card(card: str, *, rich: bool) -> str:
        if not rich:
            return f"[{card}]"
        if card == "?":
            return "[bold white on blue] ? [/]"
        rank, suit = card[:-1], card[-1:]
        glyph, colour = _SUITS.get(suit.lower(), (suit, "black"))
        if not rank:
            rank, glyph = card, ""
        return f"[bold {colour} on white] {escape(rank)}{glyph} [/]"

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        me = self.viewer if self.viewer is not None else Player.FIRST
        if self.viewer is None:
            names = [_(self.symbol(me.opponent)), _("Board"), _(self.symbol(me))]
        else:
            names = [_("AI"), _("Board"), _("You")]
        width = max(len(name) for name in names) + 1
        out = []
        for index, name in enumerate(names):
            row = grid.cells[index] if index < len(grid.cells) else ()
            cards = [cell for cell in row if cell]
            shown = " ".join(self._card(card, rich=rich) for card in cards) or "-"
            label = f"{name}:".ljust(width)
            out.append(f"{escape(label) if rich else label} {shown}")
        return _with_facts("\n".join(out), grid, rich=rich)


def _checkers(cell: str) -> tuple[str, int]:
    """A backgammon cell (``"X5"``, ``"O2"``, ``""``) as its owner's mark and its count."""
    mark = cell.rstrip("0123456789")
    count = cell[len(mark) :]
    return mark, int(count) if count.isdigit() else (1 if mark else 0)


class BackgammonView(_ChanceView):
    """A backgammon board (kind ``backgammon``): the 24 points in two halves (13-24 over 12-1, as
    the person playing sees them: a person playing the second side sees the board turned, so
    that the points carry the numbers of their own moves), each point's checkers stacked five
    high with the count beyond, the bar in the middle, then the checkers borne off, the pip
    counts, the dice and the cube (the grid's facts). Moves are typed in the game's notation
    (``24/18 13/11``); a decision among a few (``double``/``take``/``drop``) is a numbered
    choice."""

    _HIGH = 5
    _DRAWN = frozenset({"to move", "pips"})
    """Facts the board draws already, left out of its facts line."""

    def _marks(self) -> tuple[str, str]:
        return ("X", "O")

    def outcome_line(self, before: AnyState, outcome: Hashable, after: AnyState) -> str:
        """A roll; the opening roll (the first, one die each: the first player's, then the
        second's) says who plays first."""
        text = _move_text(after, outcome, before)
        if before.ply != 0 or len(text) != 2 or not text.isdigit():
            return super().outcome_line(before, outcome, after)
        first, second = text[0], text[1]
        if self.viewer is None:
            return _("Opening roll: {x} for {first}, {o} for {second}; {side} plays first.").format(
                x=first,
                o=second,
                first=_(self.symbol(Player.FIRST)),
                second=_(self.symbol(Player.SECOND)),
                side=_(self.symbol(after.to_move)),
            )
        mine, theirs = (first, second) if self.viewer == Player.FIRST else (second, first)
        if after.to_move == self.viewer:
            return _("Opening roll: you {mine}, the AI {theirs}; you play first.").format(
                mine=mine, theirs=theirs
            )
        return _("Opening roll: you {mine}, the AI {theirs}; the AI plays first.").format(
            mine=mine, theirs=theirs
        )

    def render(
        self, state: AnyState, last: object, *, rich: bool, before: AnyState | None = None
    ) -> str:
        grid = self.grid(state)
        rows = [list(row) + [""] * (26 - len(row)) for row in grid.cells[:2]]
        while len(rows) < 2:
            rows.append([""] * 26)
        first_mark, second_mark = self._marks()
        # Points by the first player's numbers: the top row holds 13..24, the bottom 12..1.
        point: dict[int, tuple[str, int]] = {}
        for col in range(12):
            point[13 + col] = _checkers(rows[0][col])
            point[12 - col] = _checkers(rows[1][col])
        bar = {first_mark: 0, second_mark: 0}
        off = {first_mark: 0, second_mark: 0}
        for row, owner in ((rows[0], first_mark), (rows[1], second_mark)):
            for cell, tray in ((row[12], bar), (row[13], off)):
                mark, count = _checkers(cell)
                tray[mark or owner] = tray.get(mark or owner, 0) + count
        pips = {first_mark: 25 * bar[first_mark], second_mark: 25 * bar[second_mark]}
        for number, (mark, count) in point.items():
            if mark == first_mark:
                pips[first_mark] += count * number
            elif mark == second_mark:
                pips[second_mark] += count * (25 - number)
        turned = self.viewer == Player.SECOND

        def seen(number: int) -> tuple[str, int]:
            """The checkers on the point the viewer calls ``number``."""
            return point[25 - number if turned else number]

        top = [seen(n) for n in range(13, 25)]
        bottom = [seen(n) for n in range(12, 0, -1)]
        top_bar, bottom_bar = (second_mark, first_mark) if not turned else (first_mark, second_mark)

        def stone(mark: str) -> str:
            if not rich:
                return f" {mark} "
            style = _COLOURS.get(mark, "bold")
            return f" [{style}]{escape(mark)}[/] "

        def empty() -> str:
            return " . " if not rich else " [dim].[/dim] "

        def level(stack: tuple[str, int], height: int) -> str:
            mark, count = stack
            if count > height:
                if height == self._HIGH - 1 and count > self._HIGH:
                    return f"{count:>2} " if not rich else f"[bold]{count:>2}[/bold] "
                return stone(mark)
            return empty() if height == 0 and not count else "   "

        def half(stacks: list[tuple[str, int]], bar_mark: str, heights: range) -> list[str]:
            lines = []
            for height in heights:
                cells = [level(stack, height) for stack in stacks]
                on_bar = level((bar_mark, bar[bar_mark]), height) if bar[bar_mark] else "   "
                lines.append(
                    "|" + "".join(cells[:6]) + "|" + on_bar + "|" + "".join(cells[6:]) + "|"
                )
            return lines

        def numbers(values: Sequence[int]) -> str:
            text = (
                "".join(f"{v:^3}" for v in values[:6])
                + "     "
                + "".join(f"{v:^3}" for v in values[6:])
            )
            return (" " + text).rstrip() if not rich else f" [dim]{text.rstrip()}[/dim]"

        rule = "+" + "-" * 18 + "+---+" + "-" * 18 + "+"
        out = [numbers(range(13, 25)), rule]
        out += half(top, top_bar, range(self._HIGH))
        out.append("|" + " " * 18 + "|BAR|" + " " * 18 + "|")
        out += half(bottom, bottom_bar, range(self._HIGH - 1, -1, -1))
        out += [rule, numbers(range(12, 0, -1))]
        me = self.viewer if self.viewer is not None else Player.FIRST
        marks = {Player.FIRST: first_mark, Player.SECOND: second_mark}
        parts = []
        for player in (me, me.opponent):
            mark = marks[player]
            parts.append(
                _("{side}: {pips} pips, {bar} on the bar, {off} off").format(
                    side=self.side_label(player), pips=pips[mark], bar=bar[mark], off=off[mark]
                )
            )
        for part in parts:
            out.append(escape(part) if rich else part)
        rest = [(label, value) for label, value in grid.facts if label not in self._DRAWN]
        return _with_facts("\n".join(out), dataclasses.replace(grid, facts=tuple(rest)), rich=rich)


VIEWS: dict[str, Callable[[GameSpec], BoardView]] = {
    "grid": GridView,
    "place": PlaceView,
    "drop": DropView,
    "draughts": DraughtsView,
    "chess": ChessView,
    "dice": DiceView,
    "backgammon": BackgammonView,
    "cards": CardsView,
}
"""Board kind (:data:`~zermelo.core.record.BOARD_KINDS`) -> its terminal view; a record naming
another kind is drawn as a grid."""


def view_for(game: GameSpec | str) -> BoardView:
    """The terminal view of a game, given its record or its name."""
    spec = game if isinstance(game, GameSpec) else get_game(game)
    return VIEWS.get(spec.board, GridView)(spec)
