"""The shipped evaluation weights of the draughts games, in hundredths of a man.

Each term of :data:`zermelo.solvers.draughts.evaluation.TERMS` has a middle-game weight and an
endgame weight; the evaluation blends them by the share of pieces still on the board. A man is
worth 100 in both phases: the scale the others are read in (Texel tuning keeps it fixed).
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_WEIGHTS"]

DEFAULT_WEIGHTS: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    # men, kings, tempo, back row, centre, outposts, locked men, breakthroughs, running men
    "international": (
        (100.0, 100.0),
        (300.0, 300.0),
        (1.0, 4.0),
        (4.0, 1.0),
        (8.0, 3.0),
        (6.0, 2.0),
        (-6.0, -10.0),
        (10.0, 30.0),
        (5.0, 15.0),
    ),
    "dama": (
        (100.0, 100.0),
        (300.0, 350.0),
        (1.0, 4.0),
        (4.0, 1.0),
        (6.0, 3.0),
        (5.0, 2.0),
        (-6.0, -10.0),
        (10.0, 30.0),
        (5.0, 15.0),
    ),
}
"""Per game: ``(middle game, endgame)`` weight of each term, in the order of the terms."""
