"""A gomoku (and any m,n,k) engine: threat search plus alpha-beta under a clock.

The generic :func:`zermelo.search.alphabeta` works on immutable states and every legal move; on a
15x15 board that is too slow and too wide. This engine keeps one *mutable* board for the duration of
a search and updates, per stone, only the four lines through it (:mod:`zermelo.games.mnk_lines`):
the class counts that the evaluation weighs, the set of lines holding fours (win points) and the
lines holding threes (four-making moves). A node then costs a handful of dictionary look-ups.

How a move is chosen (:meth:`Engine.search`):

1. a point that completes ``k`` in a row is played at once;
2. if the opponent has a point that completes ``k``, it is blocked;
3. a VCF search (victory by continuous fours: every attacking move makes a four, so the defender's
   reply is forced) looks for a forced win;
4. otherwise iterative-deepening negamax alpha-beta (fail-soft, transposition table, killer and
   history move ordering) over the moves near the stones, best ``width`` by a threat-based
   ordering score. Forced replies (blocking a four) do not use up depth, so sequences of fours are
   read to the end; at the horizon a short VCF search looks for forced wins of the side to move
   before the evaluation is trusted. The search stops when the time is up and returns the best
   move of the last completed iteration.

Scores follow :mod:`zermelo.core.scores` (from the side to move; a win ``p`` plies away is
``WIN - p``). Levels (:data:`LEVELS`) trade depth, width and threat reading for speed, and the
weaker ones add seeded noise to the root scores so that they make believable mistakes: they always
complete a five and block a four, but may miss an open three or a quiet attack.

The engine is three modules: :mod:`.board` (the mutable board and its incremental line classes),
:mod:`.threats` (the clock and node count, and the searches for forced wins by fours and by threes
and fours) and :mod:`.engine` (the levels, the alpha-beta and the players built on it).
"""

from zermelo.solvers.gomoku.engine import (
    LEVELS,
    Engine,
    GomokuPlayer,
    Level,
    choose,
)
from zermelo.solvers.gomoku.threats import find_vcf

__all__ = [
    "LEVELS",
    "Engine",
    "GomokuPlayer",
    "Level",
    "choose",
    "find_vcf",
]
