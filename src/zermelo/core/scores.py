"""Scores: negamax convention, from the side to move.

A terminal win found ``plies`` half-moves below the root scores ``WIN - plies``; a loss scores
``-(WIN - plies)``; a draw scores 0. So a faster win scores higher and a slower loss is preferred.
Heuristic evaluations live strictly inside ``±EVAL_LIMIT``, far from the decided scores, so a
score alone says whether it is proven.

One value scale for every face (the terminal, the web page, the API): a decided score reads
"win in N" / "loss in N" in moves of the side to move, a proven draw "draw", and a heuristic
estimate is shown in the game's unit (:class:`Unit`: pawns for chess, men for checkers; bare
points for games without one) with two decimals. :func:`value_text` is the one rule; the page's
JavaScript (``valueWords`` in ``js/overlay.js``) follows it from the API's ``value`` fields, and
the tests check the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from zermelo.core.state import AnyState, Player

__all__ = [
    "EVAL_LIMIT",
    "MAX_PLY",
    "POINTS",
    "WIN",
    "Measured",
    "Outcome",
    "Unit",
    "describe",
    "estimate_text",
    "is_decided",
    "outcome_of",
    "plies_to_end",
    "unit_of",
    "value_text",
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


@dataclass(frozen=True, slots=True)
class Unit:
    """The unit a game's heuristic values are shown in: ``per`` evaluation points make one, and
    ``words`` is the message id that shows an amount of them (``"{value} pawns"``), marked for
    translation by the game; ``""`` shows the bare number."""

    words: str = ""
    per: float = 1.0


POINTS = Unit()
"""The unit of a game that names none: the evaluation's own points, shown bare."""


@runtime_checkable
class Measured(Protocol):
    """A state whose heuristic values are shown in a unit of the game (chess: pawns, from
    centipawns; checkers: men, from hundredths of a man)."""

    def value_unit(self) -> Unit: ...


def unit_of(state: AnyState) -> Unit:
    """The unit ``state``'s game shows its heuristic values in (:data:`POINTS` when it names
    none)."""
    return state.value_unit() if isinstance(state, Measured) else POINTS


def estimate_text(estimate: float) -> str:
    """An estimate (already in its unit) with a sign and two decimals; "0.00" for zero."""
    text = f"{estimate:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def value_text(
    score: float, *, exact: bool = True, unit: Unit = POINTS
) -> tuple[str, dict[str, str]]:
    """The one rule for a score in words: a message id and its fields, for a face to translate
    and fill. ``("win in {n}", {"n": "3"})``, ``("won", {})``, ``("draw", {})``, ``("loss in
    {n}", ...)``, and for an estimate the unit's words (``("{value} pawns", {"value": "+0.35"})``)
    or ``("{value}", ...)`` when the game names no unit."""
    outcome = outcome_of(score, exact=exact)
    if outcome.kind in ("win", "loss"):
        if outcome.moves:
            return f"{outcome.kind} in {{n}}", {"n": str(outcome.moves)}
        return ("won" if outcome.kind == "win" else "lost"), {}
    if outcome.kind == "draw":
        return "draw", {}
    return unit.words or "{value}", {"value": estimate_text(outcome.estimate / unit.per)}


def describe(score: float, *, exact: bool = True, unit: Unit = POINTS) -> str:
    """English words for a score (:func:`value_text` filled in): "win in 3", "draw", "loss in
    2", "+0.35 pawns".

    Translated front ends translate :func:`value_text`'s message id through :mod:`zermelo.i18n`.
    """
    words, fields = value_text(score, exact=exact, unit=unit)
    return words.format(**fields)


def winner_word(sign: float, to_move: Player) -> str:
    """Who wins a position whose value for ``to_move`` has the sign of ``sign``: ``"first"``,
    ``"second"`` or ``"draw"`` (the words of :class:`~zermelo.core.capabilities.StartSolution`)."""
    if sign == 0:
        return "draw"
    mover_wins = sign > 0
    return "first" if mover_wins == (to_move is Player.FIRST) else "second"
