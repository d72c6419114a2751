"""Evaluation objects: features, weights, breakdowns, JSON and tuning."""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import ParseError
from zermelo.core.scores import EVAL_LIMIT
from zermelo.games.mnk import MnkState, gomoku, new_game, parse
from zermelo.games.mnk_eval import (
    FEATURE_NAMES,
    Evaluation,
    class_counts,
    default_evaluation,
)
from zermelo.games.mnk_lines import CLASS_NAMES, line_table
from zermelo.solvers.gomoku.weights import load_evaluation, save_evaluation
from zermelo.solvers.gomoku_tuning import fit_logistic, play_match, self_play, tune


def play_all(state: MnkState, moves: str) -> MnkState:
    for text in moves.split():
        state = state.play(state.parse_move(text))
    return state


def bits(text: str, symbol: str) -> int:
    return sum(1 << i for i, c in enumerate(text) if c == symbol)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("...............", "none"),
        (".....xx........", "open_two"),
        ("....xxx........", "open_three"),
        ("....x.xx.......", "open_three"),
        ("...oxxx........", "three"),
        ("o.xxx.o........", "three"),
        ("...xxxx........", "open_four"),
        ("..oxxxx........", "four"),
        ("oxxx.x.........", "four"),
        (".xxxx.x........", "open_four"),
        ("oxxxxo.........", "none"),
        ("xxxxx..........", "five"),
    ],
)
def test_line_classes(line: str, expected: str) -> None:
    table = line_table(5, False)
    assert CLASS_NAMES[table.classify(len(line), bits(line, "x"), bits(line, "o"))] == expected


def _runs_through(text: str, i: int) -> int:
    lo = i
    while lo > 0 and text[lo - 1] == "x":
        lo -= 1
    hi = i
    while hi < len(text) - 1 and text[hi + 1] == "x":
        hi += 1
    return hi - lo + 1


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="xo.", min_size=3, max_size=15),
    st.integers(2, 6),
    st.booleans(),
)
def test_line_table_agrees_with_brute_force(line: str, k: int, exact: bool) -> None:
    table = line_table(k, exact)
    x, o = bits(line, "x"), bits(line, "o")
    # Completion points: put a stone there and measure the run through it.
    expected = []
    for i, c in enumerate(line):
        if c == ".":
            filled = line[:i] + "x" + line[i + 1 :]
            run = _runs_through(filled, i)
            if run == k or (run > k and not exact):
                expected.append(i)
    assert table.win_points(len(line), x, o) == tuple(expected)
    cls = table.classify(len(line), x, o)
    if CLASS_NAMES[cls] != "five":
        assert (cls == 8) == (len(expected) >= 2)
        assert (cls == 7) == (len(expected) == 1)
    # The table's pruned recursion gives the class of the definition, read by brute force.
    if len(line) <= 10:
        assert cls == _brute_class(line, k, exact)


@functools.cache
def _brute_class(line: str, k: int, exact: bool) -> int:
    """The class by its definition: completion points, else the best move's class two down
    (below "two" is "none")."""
    empties = [i for i, c in enumerate(line) if c == "."]
    for start in range(len(line) - k + 1):
        if line[start : start + k] == "x" * k:
            before = start > 0 and line[start - 1] == "x"
            after = start + k < len(line) and line[start + k] == "x"
            if not exact or not (before or after):
                return 9
    wins = 0
    for i in empties:
        run = _runs_through(line[:i] + "x" + line[i + 1 :], i)
        if run == k or (run > k and not exact):
            wins += 1
    if wins:
        return 8 if wins >= 2 else 7
    best = max((_brute_class(line[:i] + "x" + line[i + 1 :], k, exact) for i in empties), default=0)
    return best - 2 if best - 2 >= 3 else 0


def test_exact_rule_line_classes() -> None:
    table = line_table(5, True)
    # x x x x . x: filling the gap makes six, which does not win with exactly five.
    assert CLASS_NAMES[table.classify(6, bits("xxxx.x", "x"), 0)] == "none"
    assert CLASS_NAMES[table.classify(7, bits(".xxxx.x", "x"), 0)] == "four"
    assert table.win_points(7, bits(".xxxx.x", "x"), 0) == (0,)
    assert CLASS_NAMES[line_table(5, False).classify(6, bits("xxxx.x", "x"), 0)] == "four"


def test_feature_vector_is_from_the_side_to_move() -> None:
    # x: open three h8 i8 j8; o: open two h9 i9; o to move.
    state = play_all(gomoku(), "h8 h9 i8 i9 j8")
    features = dict(zip(FEATURE_NAMES, default_evaluation().feature_vector(state), strict=True))
    assert features["own_open_two"] == 1
    assert features["opp_open_three"] == 1
    assert sum(features.values()) == 2
    counts = class_counts(state)
    assert counts[0][6] == 1  # x's open three
    assert counts[1][4] == 1  # o's open two


def test_evaluation_is_the_weighted_sum_and_changes_sign_with_the_side() -> None:
    evaluation = default_evaluation()
    state = play_all(gomoku(), "h8 h9 i8 i9 j8")
    weights = evaluation.weights
    assert evaluation.evaluate(state) == weights["own_open_two"] + weights["opp_open_three"]
    mirror = Evaluation(
        {**{n: 0.0 for n in FEATURE_NAMES}, "own_open_three": 10.0, "opp_open_three": -10.0}
    )
    x_to_move = play_all(gomoku(), "h8 h9 i8 i9 j8 a1")
    assert mirror(x_to_move) == 10.0
    assert mirror(state) == -10.0


def test_breakdown_rows_add_up() -> None:
    evaluation = default_evaluation()
    state = play_all(gomoku(), "h8 h9 i8 i9 j8 g8 i7")
    breakdown = evaluation.breakdown(state)
    assert [row.name for row in breakdown.rows] == list(FEATURE_NAMES)
    for row in breakdown.rows:
        assert row.contribution == row.value * row.weight
        assert row.description
    assert breakdown.total == pytest.approx(sum(r.contribution for r in breakdown.rows))
    assert breakdown.total == evaluation.evaluate(state)
    assert breakdown.to_move == "o"


def test_evaluation_is_clamped_inside_the_limit() -> None:
    huge = Evaluation({n: 1e12 for n in FEATURE_NAMES})
    state = play_all(gomoku(), "h8 h9 i8")
    assert abs(huge(state)) < EVAL_LIMIT


def test_json_round_trip(tmp_path: Path) -> None:
    evaluation = default_evaluation().with_weights({"own_two": 3.5}, name="mine")
    path = tmp_path / "weights.json"
    save_evaluation(evaluation, path)
    loaded = load_evaluation(path)
    assert loaded == evaluation
    assert loaded.weights["own_two"] == 3.5
    assert json.loads(path.read_text())["name"] == "mine"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{nope", "not JSON"),
        ('{"weights": 3}', "expected an object"),
        ('{"weights": {"own_two": 1}}', "missing own_open_four"),
        (
            json.dumps({"weights": {**{n: 1 for n in FEATURE_NAMES}, "bogus": 2}}),
            "unknown 'bogus'",
        ),
        (json.dumps({"weights": {**{n: 1 for n in FEATURE_NAMES}, "own_two": "x"}}), "'x'"),
    ],
)
def test_bad_weights_are_rejected(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        Evaluation.from_json(text)


def test_missing_weights_file(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="cannot read weights file"):
        load_evaluation(tmp_path / "absent.json")


def test_default_weights_are_the_shipped_ones() -> None:
    evaluation = default_evaluation()
    assert evaluation.features == FEATURE_NAMES
    assert evaluation.weights["own_open_four"] > evaluation.weights["own_open_three"] > 0
    assert evaluation.weights["opp_four"] < 0
    # The state's own evaluate() is the default evaluation.
    state = play_all(gomoku(), "h8 h9 i8")
    assert state.evaluate() == evaluation.evaluate(state)


def test_small_board_features() -> None:
    state = parse("3x3 k3 xx1/1o1/3 o")
    counts = class_counts(state)
    assert counts[0][7] == 1  # x's top row: one point completes it
    assert counts[1][7] == 0
    assert sum(counts[0]) == sum(counts[1]) == 8  # 3 rows, 3 columns, 2 diagonals


def test_evaluation_matches_the_engines_incremental_counts() -> None:
    from zermelo.solvers.gomoku.board import Board

    rng = random.Random(9)
    for width, height, k in [(15, 15, 5), (3, 3, 3), (6, 5, 4), (7, 7, 3)]:
        state = new_game(width, height, k)
        for _ in range(rng.randrange(0, 12)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        board = Board(state, default_evaluation())
        assert class_counts(state) == (board.counts[0], board.counts[1])
        assert board.evaluate() == pytest.approx(default_evaluation().evaluate(state))
    # On an empty 3x3 board every line is a "two" for both sides (one move makes a three).
    weights = default_evaluation().weights
    assert new_game(3, 3, 3).evaluate() == 8 * (weights["own_two"] + weights["opp_two"])


def test_fit_logistic_recovers_known_weights() -> None:
    rng = np.random.default_rng(7)
    x = rng.integers(0, 3, size=(4000, 3)).astype(np.float64)
    true = np.array([1.5, -2.0, 0.5])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ true)))).astype(np.float64)
    fitted = fit_logistic(x, y, l2=1e-4)
    assert np.allclose(fitted, true, atol=0.25)
    # A prior holds weights that the data cannot tell apart.
    x0 = np.hstack([x, np.zeros((4000, 1))])
    with_prior = fit_logistic(x0, y, l2=1e-3, prior=[0, 0, 0, 9.0])
    assert with_prior[3] == pytest.approx(9.0)


def test_self_play_is_seeded() -> None:
    a = self_play(1, seed=5, nodes_per_move=60)
    b = self_play(1, seed=5, nodes_per_move=60)
    assert np.array_equal(a[0], b[0])
    assert np.array_equal(a[1], b[1])
    assert a[0].shape[1] == len(FEATURE_NAMES)
    assert set(np.unique(a[1])) <= {0.0, 1.0}


def test_tune_saves_weights_and_reports_progress(tmp_path: Path) -> None:
    calls: list[tuple[str, int, int]] = []
    path = tmp_path / "tuned.json"
    report = tune(2, seed=3, nodes_per_move=60, path=path, progress=lambda *a: calls.append(a))
    assert load_evaluation(path) == report.evaluation
    assert ("self-play", 2, 2) in calls
    assert any(stage == "fit" for stage, _, _ in calls)
    assert report.games == 2
    if report.positions:
        assert report.log_loss_after <= report.log_loss_before + 1e-9
    assert all(math.isfinite(w) for w in report.evaluation.weight_vector)


def test_match_counts_every_game() -> None:
    wins, losses, draws = play_match(
        default_evaluation(), default_evaluation(), 2, seed=1, nodes_per_move=60
    )
    assert wins + losses + draws == 2


def test_explain_uses_the_default_weights_unless_told() -> None:
    from zermelo.games.mnk_eval import explain

    state = play_all(gomoku(), "h8 h9 i8 i9 j8")
    assert explain(state) == default_evaluation().breakdown(state)
    zero = Evaluation(dict.fromkeys(FEATURE_NAMES, 0.0))
    assert explain(state, zero).total == 0
