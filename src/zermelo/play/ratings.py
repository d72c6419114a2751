"""Results per agent and per pair of agents, and the Elo difference they imply.

The Elo model says that an agent scoring the fraction ``p`` of the points against another is
``D = -400 * log10(1 / p - 1)`` Elo stronger. Its 95% confidence interval here comes from the
standard error of the mean score per game,

    s = sqrt((w (1 - p)^2 + d (1/2 - p)^2 + l p^2) / n) / sqrt(n),

as ``p ± 1.96 s``, each end turned into Elo. When an end leaves (0, 1) that side of the interval is
unbounded. A score of 0% or 100% has no finite estimate: then :class:`EloEstimate` carries only the
one-sided bound that the exact binomial (Clopper-Pearson) interval gives, ``(0.025)^(1/n)`` for
``n`` straight wins, so that a clean sweep of 10 games reads ">= +140", not "infinity".
All games drawn has a spread of zero, which would claim an exact +0; then the interval is the
score one half-point bound of the same exact rule away from 1/2 on either side, ``1/2 ± (1 -
0.025^(1/n)) / 2``, so 6 draws read "+0 [-172, +172]".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from zermelo.play.match import GameRecord

__all__ = [
    "Z95",
    "EloEstimate",
    "Tally",
    "elo_estimate",
    "elo_from_score",
    "pair_tallies",
    "standings",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def elo_from_score(fraction: float) -> float:
    """The Elo difference at which the expected score is ``fraction`` (strictly between 0 and 1)."""
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"score fraction must be strictly between 0 and 1, got {fraction}")
    return -400.0 * math.log10(1.0 / fraction - 1.0)


@dataclass(frozen=True, slots=True)
class Tally:
    """Wins, draws and losses of one side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """The fraction of the points won (0.5 for no games)."""
        return self.points / self.games if self.games else 0.5

    def cells(self) -> tuple[str, str, str, str, str]:
        """Games, wins, draws, losses and the score in percent, as table cells."""
        return (
            str(self.games),
            str(self.wins),
            str(self.draws),
            str(self.losses),
            f"{100 * self.score:.1f}%",
        )

    def reversed(self) -> Tally:
        """The same games from the other side."""
        return Tally(self.losses, self.draws, self.wins)

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def add(self, points: float) -> Tally:
        if points == 1.0:
            return Tally(self.wins + 1, self.draws, self.losses)
        if points == 0.5:
            return Tally(self.wins, self.draws + 1, self.losses)
        return Tally(self.wins, self.draws, self.losses + 1)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference and its 95% interval ``[low, high]`` (either end may be infinite).

    ``value`` is ``None`` when the score is 0% or 100%: then only ``low`` (a sweep) or ``high``
    (no point at all) is finite, and it is a one-sided 95% bound.
    """

    value: float | None
    low: float
    high: float
    games: int

    def describe(self) -> str:
        """``"+120 [+80, +165]"``, ``">= +140"``, ``"<= -140"`` or ``"-"`` without games."""
        if self.games == 0:
            return "-"
        if self.value is None:
            if math.isfinite(self.low):
                return f">= {_end(self.low)}"
            return f"<= {_end(self.high)}"
        return f"{_end(self.value)} [{_end(self.low)}, {_end(self.high)}]"


def _end(value: float) -> str:
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    return f"{round(value):+d}"


def elo_estimate(tally: Tally, z: float = Z95) -> EloEstimate:
    """The Elo difference implied by ``tally`` with its confidence interval (see the module)."""
    n = tally.games
    if n == 0:
        return EloEstimate(None, -math.inf, math.inf, 0)
    p = tally.score
    if p >= 1.0:
        return EloEstimate(None, elo_from_score(0.025 ** (1.0 / n)), math.inf, n)
    if p <= 0.0:
        return EloEstimate(None, -math.inf, elo_from_score(1.0 - 0.025 ** (1.0 / n)), n)
    variance = (
        tally.wins * (1.0 - p) ** 2 + tally.draws * (0.5 - p) ** 2 + tally.losses * p**2
    ) / n
    if variance == 0.0:
        # Every game drawn: no observed spread, so bound how often a decisive game could occur.
        half_width = (1.0 - 0.025 ** (1.0 / n)) / 2.0
        low_p, high_p = p - half_width, p + half_width
    else:
        error = math.sqrt(variance / n)
        low_p, high_p = p - z * error, p + z * error
    low = elo_from_score(low_p) if low_p > 0.0 else -math.inf
    high = elo_from_score(high_p) if high_p < 1.0 else math.inf
    return EloEstimate(elo_from_score(p), low, high, n)


def pair_tallies(records: Iterable[GameRecord]) -> dict[tuple[str, str], Tally]:
    """Per pair of agents ``(a, b)``, in the order the pair first played, ``a``'s results."""
    tallies: dict[tuple[str, str], Tally] = {}
    for record in records:
        first, second = record.players
        if (second, first) in tallies:
            key, label = (second, first), second
        else:
            key, label = (first, second), first
        tallies[key] = tallies.get(key, Tally()).add(record.points(label))
    return tallies


def standings(records: Iterable[GameRecord]) -> dict[str, Tally]:
    """Each agent's results over all its games, in the order agents first appear."""
    table: dict[str, Tally] = {}
    for record in records:
        for label in record.players:
            if record.players[0] == record.players[1]:
                raise ValueError(
                    f"agent {label!r} played itself; give the two sides distinct labels"
                )
            table[label] = table.get(label, Tally()).add(record.points(label))
    return table
