"""``zermelo solve connect4``: positions from arguments or standard input."""

from __future__ import annotations

from conftest import run_cli


def test_solve_positions_from_arguments() -> None:
    done = run_cli(
        "solve", "connect4", "2252576253462244111563365343671351441", "--best", "--stats"
    )
    assert done.returncode == 0, done.stderr
    text, score, best, nodes, micros = done.stdout.split()
    assert (text, score, best) == ("2252576253462244111563365343671351441", "-1", "6")
    assert int(nodes) > 0 and float(micros) >= 0


def test_output_matches_the_benchmark_files_format() -> None:
    lines = [
        "2252576253462244111563365343671351441 -1",
        "7422341735647741166133573473242566 1",
        "23163416124767223154467471272416755633 0",
    ]
    done = run_cli("solve", "c4", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == lines


def test_solve_lines_from_stdin_reports_bad_lines_and_goes_on() -> None:
    stdin = "7422341735647741166133573473242566 1\n44x\n\n1212121\n"
    done = run_cli("solve", "connect4", "--weak", stdin=stdin)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "7422341735647741166133573473242566 1"
    assert done.stdout.splitlines()[-1].startswith("1212121 ")
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1
    assert errors[0].startswith("line 2:") and "'44x'" in errors[0]
