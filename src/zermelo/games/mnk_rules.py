"""The facts that define an m,n,k game, below the states (:mod:`zermelo.games.mnk`), the line
classes (:mod:`zermelo.games.mnk_lines`) and the evaluation (:mod:`zermelo.games.mnk_eval`) that
all use them."""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["DIRECTIONS", "Rules"]

DIRECTIONS: Final = ((1, 0), (0, 1), (1, 1), (1, -1))
"""Column and row steps of the four line directions: horizontal, vertical, two diagonals."""


class Rules(NamedTuple):
    """The facts of one m,n,k game: board size, winning row length and overline rule."""

    width: int
    height: int
    k: int
    exact: bool = False

    def describe(self) -> str:
        rule = " exact" if self.exact else ""
        return f"{self.width}x{self.height} k{self.k}{rule}"
