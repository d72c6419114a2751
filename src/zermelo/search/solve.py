"""Solving a game from its start by reading it to the end: the start-position solver of any game
small enough for alpha-beta with a transposition table (tic-tac-toe)."""

from __future__ import annotations

from typing import Final

from zermelo.core.capabilities import StartSolution
from zermelo.core.scores import winner_word
from zermelo.core.state import AnyState
from zermelo.search.alphabeta import alphabeta

__all__ = ["READ_TO_END", "ReadToEnd"]


class ReadToEnd:
    """The exact value of a position by alpha-beta to the end, and a best move."""

    def solve_start(self, state: AnyState) -> StartSolution:
        result = alphabeta(state)
        move = "-" if result.move is None else state.format_move(result.move)
        stats = result.stats
        return StartSolution(
            winner_word(result.value, state.to_move),
            move,
            "",
            stats.nodes,
            stats.table_hits,
            stats.elapsed,
        )


READ_TO_END: Final = ReadToEnd()
