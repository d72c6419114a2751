"""Scores: negamax convention, from the side to move.

A terminal win found ``plies`` half-moves below the root scores ``WIN - plies``; a loss scores
``-(WIN - plies)``; a draw scores 0. So a faster win scores higher and a slower loss is preferred.
Heuristic evaluations live strictly inside ``±EVAL_LIMIT``, far from the decided scores, so a
score alone says whether it is proven.
"""

from __future__ import annotations

from dataclasses import dataclass

from zermelo.core.state import Player

__all__ = [
    "EVAL_LIMIT",
    "MAX_PLY",
    "WIN",
    "Outcome",
    "describe",
    "is_decided",
    "outcome_of",
    "plies_to_end",
    "winner_word",
]

WIN = 1_000_000
"""Score of a win on the spot (zero plies away)."""

MAX_PLY = 10_000
"""No game here lasts longer; decided scores are at least ``WIN - MAX_PLY`` in magnitude."""

EVAL_LIMIT = WIN - MAX_PLY - 1
"""Heuristic evaluations must stay strictly inside ``±EVAL_LIMIT``."""


def is_decided(score: float) -> bool:
    """True when ``score`` is a proven win or loss (not a heuristic, not a draw)."""
    return abs(score) > EVAL_LIMIT


def plies_to_end(score: float) -> int:
    """Half-moves until the game ends with the decided ``score``."""
    if not is_decided(score):
        raise ValueError(f"score {score!r} is not a decided win or loss")
    return int(WIN - abs(score))


@dataclass(frozen=True, slots=True)
class Outcome:
    """A score read back for people: ``kind`` is "win", "loss", "draw" or "estimate".

    ``moves`` counts the moves of the side that wins, the one it starts with included
    (a win on the next move is "win in 1"); for estimates it is 0.
    """

    kind: str
    moves: int = 0
    estimate: float = 0.0


def outcome_of(score: float, *, exact: bool = True) -> Outcome:
    """Turn a score from the side to move into an :class:`Outcome`.

    ``exact`` says whether a score of 0 is a proven draw (True) or a heuristic estimate.
    """
    if is_decided(score):
        plies = plies_to_end(score)
        if score > 0:
            return Outcome("win", (plies + 1) // 2)
        return Outcome("loss", (plies + 1) // 2)
    if score == 0 and exact:
        return Outcome("draw")
    return Outcome("estimate", 0, float(score))


def describe(score: float, *, exact: bool = True) -> str:
    """English words for a score: "win in 3", "draw", "loss in 2", "+0.35".

    Translated front ends format :class:`Outcome` themselves through :mod:`zermelo.i18n`.
    """
    outcome = outcome_of(score, exact=exact)
    if outcome.kind in ("win", "loss"):
        return f"{outcome.kind} in {outcome.moves}"
    if outcome.kind == "draw":
        return "draw"
    return f"{outcome.estimate:+.2f}"


def winner_word(sign: float, to_move: Player) -> str:
    """Who wins a position whose value for ``to_move`` has the sign of ``sign``: ``"first"``,
    ``"second"`` or ``"draw"`` (the words of :class:`~zermelo.core.capabilities.StartSolution`)."""
    if sign == 0:
        return "draw"
    mover_wins = sign > 0
    return "first" if mover_wins == (to_move is Player.FIRST) else "second"
