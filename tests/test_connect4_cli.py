"""``zermelo solve``: Connect Four positions from arguments or standard input."""

from __future__ import annotations

from conftest import run_cli


def test_solve_positions_from_arguments() -> None:
    done = run_cli("solve", "2252576253462244111563365343671351441", "--best", "--stats")
    assert done.returncode == 0, done.stderr
    text, score, *words, best, nodes, micros = done.stdout.split()
    assert (text, score, " ".join(words), best) == (
        "2252576253462244111563365343671351441", "-1", "loss in 2", "6",
    )  # fmt: skip
    assert int(nodes) > 0 and float(micros) >= 0


def test_solve_lines_from_stdin_reports_bad_lines_and_goes_on() -> None:
    stdin = "7422341735647741166133573473242566 1\n44x\n\n1212121\n"
    done = run_cli("solve", "--weak", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout.splitlines() == [
        "7422341735647741166133573473242566 1 win",
        "1212121 -1 first player has won",
    ]
    assert "line 2:" in done.stderr and "'44x'" in done.stderr
