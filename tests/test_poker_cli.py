"""``zermelo solve kuhn|leduc``: the facts, the strategy table, the plot, one line for bad input."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def test_solve_kuhn(tmp_path: Path) -> None:
    plot = tmp_path / "kuhn.svg"
    done = run_cli("solve", "kuhn", "--iterations", "200", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    facts = {}
    for line in done.stdout.splitlines()[:8]:
        label, value = line.rsplit(None, 1)
        facts[label.strip()] = value
    assert abs(float(facts["first player's value"]) + 1 / 18) < 2e-3
    assert float(facts["exploitability"]) < 0.001
    assert facts["iterations"] == "200"
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 12
    assert any(row.split("│")[2].strip() == "K:b" and "1.000" in row for row in rows)
    assert plot.read_text().lstrip().startswith("<?xml")


def test_solve_leduc_summarises_the_table() -> None:
    done = run_cli("solve", "leduc-holdem", "--iterations", "3")
    assert done.returncode == 0, done.stderr
    assert "21 of 936 rows; --full prints them all" in done.stdout


def test_too_many_iterations_get_one_line() -> None:
    # the command's own range ends at 10,000,000; the solver's at 1,000,000
    done = run_cli("solve", "kuhn", "--iterations", "2000000")
    assert done.returncode != 0
    expected = "iterations=2000000: expected a whole number from 1 to 1000000"
    assert expected in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
