"""Elo from scores: known values, symmetry, sweeps, and tallies from game records."""

from __future__ import annotations

import pytest

from zermelo.play.match import GameRecord
from zermelo.play.ratings import (
    Z95,
    Tally,
    elo_estimate,
    elo_from_score,
    pair_tallies,
    standings,
    wilson_interval,
)


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


def test_wilson_interval_of_known_results() -> None:
    # 7 successes in 10: the textbook Wilson 95% interval is [0.3968, 0.8922].
    low, high = wilson_interval(0.7, 10)
    assert low == pytest.approx(0.39678, abs=1e-4)
    assert high == pytest.approx(0.89221, abs=1e-4)
    # 0 in 10 and 10 in 10: z^2 / (n + z^2) from the certain end.
    assert wilson_interval(0.0, 10) == pytest.approx((0.0, 0.27753), abs=1e-4)
    assert wilson_interval(1.0, 10) == pytest.approx((0.72247, 1.0), abs=1e-4)


def test_interval_is_the_wilson_interval_in_elo() -> None:
    # 6 wins, 2 draws, 2 losses: p = 0.7 over 10 games.
    estimate = elo_estimate(Tally(6, 2, 2))
    assert estimate.value == pytest.approx(147.19, abs=0.01)
    assert estimate.low == pytest.approx(elo_from_score(0.39678), abs=0.1)
    assert estimate.high == pytest.approx(elo_from_score(0.89221), abs=0.1)
    assert estimate.describe() == "+147 [-73, +367]"


def test_results_seen_from_the_other_side_mirror_the_estimate() -> None:
    for tally in (Tally(6, 2, 2), Tally(3, 1, 7), Tally(9, 1, 0), Tally(5, 0, 0)):
        there, back = elo_estimate(tally), elo_estimate(tally.reversed())
        assert there.value is not None and back.value is not None
        assert back.value == pytest.approx(-there.value)
        assert back.low == pytest.approx(-there.high)
        assert back.high == pytest.approx(-there.low)


def test_a_sweep_is_rated_by_the_same_rule_as_any_result() -> None:
    # The case: 4-0 read ">= -72" while 3-1-0 read "+338 [+117, +inf]".
    sweep, nearly = elo_estimate(Tally(4, 0, 0)), elo_estimate(Tally(3, 1, 0))
    assert sweep.describe() == "+inf [+7, +inf]"
    assert nearly.describe() == "+338 [-74, +750]"
    assert sweep.low > nearly.low
    assert elo_estimate(Tally(10, 0, 0)).low == pytest.approx(elo_from_score(10 / (10 + Z95**2)))
    assert elo_estimate(Tally(0, 0, 10)).describe() == "-inf [-inf, -166]"
    # More games, a tighter bound.
    assert elo_estimate(Tally(100, 0, 0)).low > elo_estimate(Tally(10, 0, 0)).low


def test_more_points_never_lower_an_end() -> None:
    for n in range(1, 13):
        tallies = [Tally(w, d, n - w - d) for w in range(n + 1) for d in range(n + 1 - w)]
        ordered = [elo_estimate(t) for t in sorted(tallies, key=lambda t: t.points)]
        assert [e.low for e in ordered] == sorted(e.low for e in ordered)
        assert [e.high for e in ordered] == sorted(e.high for e in ordered)


def test_an_interval_end_beyond_certainty_is_open_only_at_certainty() -> None:
    estimate = elo_estimate(Tally(9, 1, 0))
    assert estimate.value == pytest.approx(elo_from_score(0.95))
    assert estimate.describe() == "+512 [+112, +911]"


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
    assert six.describe() == "+0 [-255, +255]"
    # More draws narrow it, symmetrically.
    sixty = elo_estimate(Tally(0, 60, 0))
    assert 0 < sixty.high < six.high
    assert sixty.low == pytest.approx(-sixty.high)
