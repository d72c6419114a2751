"""How each game looks on a terminal, and how a typed move is read.

A :class:`BoardView` knows one game's board drawing (plain text for pipes, rich markup for
terminals), its prompt and its input rules. The session in :mod:`zermelo.ui.terminal.session` is the
same for every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from zermelo.core.errors import ZermeloError
from zermelo.core.state import Player
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = ["BoardView", "MoveInput", "TicTacToeView", "view_for"]


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


def view_for(game: str) -> BoardView:
    """The terminal view of a registered game."""
    if game == "tictactoe":
        return TicTacToeView()
    raise ZermeloError(f"game {game!r} cannot be played on the terminal yet")
