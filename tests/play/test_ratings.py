"""Elo from scores: known values, symmetry, sweeps, and tallies from game records."""

from __future__ import annotations

import math

import pytest

from zermelo.play.match import GameRecord
from zermelo.play.ratings import Tally, elo_estimate, elo_from_score, pair_tallies, standings


@pytest.mark.parametrize(
    ("fraction", "elo"),
    [(0.5, 0.0), (0.75, 190.848), (0.25, -190.848), (10 / 11, 400.0), (1 / 11, -400.0)],
)
def test_elo_of_known_scores(fraction: float, elo: float) -> None:
    assert elo_from_score(fraction) == pytest.approx(elo, abs=1e-3)


@pytest.mark.parametrize("fraction", [0.0, 1.0, -0.1, 1.5])
def test_elo_of_a_certain_score_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError):
        elo_from_score(fraction)


def test_interval_from_the_standard_error_of_the_score() -> None:
    # 6 wins, 2 draws, 2 losses: p = 0.7, per-game variance 0.16, standard error 0.4/sqrt(10).
    estimate = elo_estimate(Tally(6, 2, 2))
    error = 0.4 / math.sqrt(10)
    assert estimate.value == pytest.approx(147.19, abs=0.01)
    assert estimate.low == pytest.approx(elo_from_score(0.7 - 1.959964 * error), abs=0.01)
    assert estimate.high == pytest.approx(elo_from_score(0.7 + 1.959964 * error), abs=0.01)
    assert estimate.low == pytest.approx(-33.39, abs=0.05)
    assert estimate.high == pytest.approx(504.0, abs=0.5)
    assert estimate.describe() == "+147 [-33, +504]"


def test_results_seen_from_the_other_side_mirror_the_estimate() -> None:
    for tally in (Tally(6, 2, 2), Tally(3, 1, 7), Tally(9, 1, 0), Tally(5, 0, 0)):
        there, back = elo_estimate(tally), elo_estimate(tally.reversed())
        if there.value is None:
            assert back.value is None
        else:
            assert back.value == pytest.approx(-there.value)
        assert back.low == pytest.approx(-there.high)
        assert back.high == pytest.approx(-there.low)


def test_a_sweep_reports_a_bound_not_infinity() -> None:
    sweep = elo_estimate(Tally(10, 0, 0))
    assert sweep.value is None
    assert sweep.low == pytest.approx(elo_from_score(0.025**0.1))
    assert sweep.high == math.inf
    assert sweep.describe() == ">= +140"
    assert elo_estimate(Tally(0, 0, 10)).describe() == "<= -140"
    # More games, a tighter bound.
    assert elo_estimate(Tally(100, 0, 0)).low > sweep.low


def test_an_interval_end_beyond_certainty_is_open() -> None:
    estimate = elo_estimate(Tally(9, 1, 0))
    assert estimate.value == pytest.approx(elo_from_score(0.95))
    assert estimate.high == math.inf
    assert estimate.describe().endswith("+inf]")


def test_no_games_no_estimate() -> None:
    assert elo_estimate(Tally()).describe() == "-"


def _record(first: str, second: str, result: str) -> GameRecord:
    return GameRecord("tictactoe", ".........", (), result, (first, second))


def test_tallies_per_pair_and_overall() -> None:
    records = [
        _record("a", "b", "1-0"),
        _record("b", "a", "1-0"),
        _record("b", "a", "1/2-1/2"),
        _record("a", "c", "0-1"),
    ]
    pairs = pair_tallies(records)
    assert pairs == {("a", "b"): Tally(1, 1, 1), ("a", "c"): Tally(0, 0, 1)}
    table = standings(records)
    assert table == {"a": Tally(1, 1, 2), "b": Tally(1, 1, 1), "c": Tally(1, 0, 0)}
    assert sum(t.wins for t in table.values()) == sum(t.losses for t in table.values())
    assert table["a"].score == pytest.approx(1.5 / 4)


def test_all_draws_give_an_interval_not_an_exact_zero() -> None:
    six = elo_estimate(Tally(0, 6, 0))
    assert six.value == 0
    assert six.describe() == "+0 [-172, +172]"
    # More draws narrow it, symmetrically.
    sixty = elo_estimate(Tally(0, 60, 0))
    assert 0 < sixty.high < six.high
    assert sixty.low == pytest.approx(-sixty.high)
