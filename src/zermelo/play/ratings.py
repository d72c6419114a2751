"""Results per agent and per pair of agents, and the Elo difference they imply.

The Elo model says that an agent scoring the fraction ``p`` of the points against another is
``D = -400 * log10(1 / p - 1)`` Elo stronger. Its 95% confidence interval is the Wilson score
interval of ``p`` over the ``n`` games, each end turned into Elo:

    (p + z^2/2n -/+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2/n),   z = 1.96.

One rule for every result, sweeps and all-draws included: it stays inside [0, 1], it is sound at
small ``n`` (the normal interval around ``p`` is not, and has zero width at 0%, 50% of draws or
100%), and more points never lower an end. A draw counts as half a point of a game, as if the
games were coin flips of that mean; with draws the true spread is smaller, so the interval errs on
the wide side. An end at 0 or 1 is unbounded in Elo (``-inf``/``+inf``), and so is the estimate
of a 0% or 100% score: a 4-0 sweep reads ``+inf [+7, +inf]``, 3 wins and a draw ``+338 [-74,
+750]``, 10-0 ``+inf [+166, +inf]`` and 6 draws ``+0 [-255, +255]``.
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
    "wilson_interval",
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
    """An Elo difference and its 95% interval ``[low, high]``: any of the three may be infinite
    (a score of 0% or 100% has an infinite estimate and one open end). ``value`` is ``None``
    only without games."""

    value: float | None
    low: float
    high: float
    games: int

    def describe(self) -> str:
        """``"+120 [+80, +165]"``, ``"+inf [+7, +inf]"``, or ``"-"`` without games."""
        if self.games == 0 or self.value is None:
            return "-"
        return f"{_end(self.value)} [{_end(self.low)}, {_end(self.high)}]"


def _end(value: float) -> str:
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    return f"{round(value):+d}"


def _elo(fraction: float) -> float:
    """:func:`elo_from_score`, with the certain scores as infinities."""
    if fraction <= 0.0:
        return -math.inf
    if fraction >= 1.0:
        return math.inf
    return elo_from_score(fraction)


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a fraction ``score`` observed over ``games`` trials."""
    if games <= 0:
        return 0.0, 1.0
    z2n = z * z / games
    centre = score + z2n / 2.0
    spread = z * math.sqrt(score * (1.0 - score) / games + z2n / (4.0 * games))
    low = max(0.0, (centre - spread) / (1.0 + z2n))
    high = min(1.0, (centre + spread) / (1.0 + z2n))
    return low, high


def elo_estimate(tally: Tally, z: float = Z95) -> EloEstimate:
    """The Elo difference implied by ``tally`` with its Wilson interval (see the module)."""
    n = tally.games
    if n == 0:
        return EloEstimate(None, -math.inf, math.inf, 0)
    p = tally.score
    low, high = wilson_interval(p, n, z)
    # The interval of an exact 0 or 1 touches that end: keep it exactly there.
    if p >= 1.0:
        high = 1.0
    if p <= 0.0:
        low = 0.0
    return EloEstimate(_elo(p), _elo(low), _elo(high), n)


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
