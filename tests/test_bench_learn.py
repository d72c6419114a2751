"""benchmarks/learn.py: what it reads from OpenSpiel's logs, its openings and
its random reference row (the measurements themselves are the script's, never a test's)."""

from __future__ import annotations

import importlib.util
import sys
from datetime import datetime
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.learn.truth import Label, MoveLabel

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "learn.py"

LOG = """\
[2026-12-01 20:39:23.060] actor-0 started
[2026-12-01 20:39:59.473] Loading checkpoint 0
[2026-12-01 20:40:01.000] Player 0 sampled action: x3
[2026-12-01 20:40:02.500] Player 1 sampled action: o3
garbage line without a stamp
[2026-12-01 20:40:04.000] Player 0 sampled action: x4
[2026-12-01 20:40:04.010] Game 1: Returns: 1.0 -1.0; Actions: x3 o3 x4
[2026-12-01 20:40:05.000] Loading checkpoint 1
"""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("zermelo_bench_learn", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_actor_log_gives_ready_time_moves_and_game_lengths(bench: ModuleType) -> None:
    log = bench.parse_actor_log(LOG)
    assert log.ready == datetime(2026, 12, 1, 20, 39, 59, 473000)
    assert log.moves == [
        datetime(2026, 12, 1, 20, 40, 1),
        datetime(2026, 12, 1, 20, 40, 2, 500000),
        datetime(2026, 12, 1, 20, 40, 4),
    ]
    assert log.lengths == [3]


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_actor_log_reads_any_text_without_failing(text: str) -> None:
    spec = importlib.util.spec_from_file_location("zermelo_bench_learn_fuzz", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    log = module.parse_actor_log(text + "\n" + LOG)
    assert log.lengths[-1:] == [3]
    assert len(log.moves) >= 3


def test_openings_go_through_every_two_ply_start_once_before_repeating(bench: ModuleType) -> None:
    starts = bench.openings(2, 50, 27)
    assert len(starts) == 50
    assert len(set(starts[:49])) == 49
    assert starts[49] == starts[0]
    assert all(len(s) == 2 and set(s) <= set("1234567") for s in starts)
    assert starts == bench.openings(2, 50, 27)
    assert starts != bench.openings(2, 50, 28)
    assert bench.openings(0, 10, 27) == []


def test_random_row_is_the_exact_expectation(bench: ModuleType) -> None:
    won = Label(
        "x",
        1,
        5.0,
        (
            MoveLabel("1", 1, 5.0),
            MoveLabel("2", 1, 3.0),
            MoveLabel("3", 0, 0.0),
            MoveLabel("4", -1, -2.0),
        ),
    )
    drawn = Label("y", 0, 0.0, (MoveLabel("1", 0, 0.0), MoveLabel("2", -1, -1.0)))
    lost = Label("z", -1, -1.0, (MoveLabel("1", -1, -1.0),))
    optimal, best, counted = bench.random_expected([won, drawn, lost])
    assert counted == 2
    assert optimal == pytest.approx((2 / 4 + 1 / 2) / 2)
    assert best == pytest.approx((1 / 4 + 1 / 2) / 2)


def test_an_unknown_section_is_one_clear_line(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        bench.main(["--only", "accuracy,nope"])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "unknown section 'nope'" in error and "accuracy, arena, tictactoe, speed" in error


def test_a_verdict_says_when_its_interval_crosses_the_line(bench: ModuleType) -> None:
    results = bench.Results()
    results.target("a", "98%", "[96, 99]", True, sure=False)
    results.target("b", "99%", "[98, 100]", True)
    results.target("c", "50%", "[40, 60]", False)
    results.target("d", "2x", "-", None)
    verdicts = [row[3] for row in results.rows]
    assert verdicts == ["PASS (interval crosses the line)", "PASS", "FAIL", "-"]
