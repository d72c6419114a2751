"""``zermelo learn-minimax``: the worked examples stepped through, and nodes against depth."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import english_env, run_cli
from zermelo.cli import main


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``zermelo ARGS`` in this process: exit status, stdout, stderr."""
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_example_1_steps_to_the_tutorials_move_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "learn-minimax", "--example", "1", "--no-pause")
    assert (code, err) == (0, "")
    assert "X | O | 2" in out
    assert "every free square in order: 2 3 4 5 6 7 8" in out
    assert "Step 7 of 7: X on 8" in out
    assert "The AI plays 3: V(s) = +1, the first square with the best value." in out
    assert "Minimax visited 8,232 nodes; alpha-beta visited 749" in out
    # The cut-offs are shown with their reason.
    assert "pruned" in out and "α = +1 ≥ β = +1" in out


def test_example_2_steps_to_6(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "learn-minimax", "--example", "2", "--no-pause")
    assert code == 0
    assert "The AI plays 6: V(s) = +1" in out
    assert "Nodes so far: minimax 157, alpha-beta 60" in out
    # Square 6 wins at once: one node, a leaf.
    assert "X on 6: V(s) = +1, MIN to move, 1 node " in out


def test_minimax_draws_no_windows_and_no_cutoffs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "learn-minimax", "--moves", "0 1 3 4", "--minimax")
    assert code == 0
    assert "α =" not in out and "pruned" not in out
    assert "The AI plays 6" in out


def test_any_position_and_a_finished_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "learn-minimax", "--moves", "4,0", "--no-pause")
    assert code == 0 and "every free square in order: 1 2 3 5 6 7 8" in out
    code, out, _ = run_main(capsys, "learn-minimax", "--moves", "0 3 1 4 2")
    assert code == 0 and "The game is over: there is nothing to search." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--moves", "0 0"], "square 0 is already taken"),
        (["--moves", "9"], "invalid square '9'"),
        (["--moves", "1 " * 150], "too long"),
        (["--example", "3"], "'3' is not one of '1', '2'"),
        (["--plot", "x.png"], "--game and --plot go with --nodes"),
        (["--example", "2", "--moves", "0"], "--example and --moves: give one of them"),
        (["--nodes", "--example", "2"], "--example and --moves do not go with --nodes"),
        (["--nodes", "--plot", "x.txt"], "expected a file name ending in .png or .svg"),
        (["--nodes", "--game", "gomoku"], "'gomoku' is not one of"),
        (["--nodes", "--seconds", "0"], "0.1"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run_main(capsys, "learn-minimax", *args)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_the_empty_board_is_the_whole_tree(capsys: pytest.CaptureFixture[str]) -> None:
    # 549,946 nodes: within the command's budget of a million.
    code, out, _ = run_main(capsys, "learn-minimax", "--moves", "", "--no-pause")
    assert code == 0
    assert "The AI plays 0: V(s) = 0" in out
    assert "Minimax visited 549,946 nodes; alpha-beta visited 18,297" in out


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(["0", "1", "4", "8", "9", "-1", "x", ",", "", "4,4", "\u00e9", "1e9"]),
        max_size=12,
    )
)
def test_fuzzed_moves_give_an_answer_or_one_line(
    capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    text = " ".join(words)
    if not text.replace(",", " ").split():
        text = "4"  # the empty board is tested above (seconds of minimax)
    code, out, err = run_main(capsys, "learn-minimax", "--moves", text, "--no-pause")
    if code == 0:
        assert "The AI plays" in out or "The game is over" in out
    else:
        assert code == 2
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_nodes_table_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "nodes.svg"
    code, out, err = run_main(
        capsys, "learn-minimax", "--nodes", "--game", "tictactoe", "--seconds", "0.2",
        "--plot", str(plot),
    )  # fmt: skip
    assert code == 0, err
    assert "tictactoe: nodes searched to depth d (b = 9)" in out
    # Depth 1 to 3 of plain minimax: 1 + 9, + 72, + 504.
    rows = [line for line in out.splitlines() if line.startswith("│ ")]
    assert rows[0].split("│")[1:3] == [" 1 ", "      10 "]
    assert "│      82 │" in rows[1] and "│     586 │" in rows[2]
    assert plot.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "Plot written to" in out


def test_without_matplotlib_the_plot_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run_main(
        capsys, "learn-minimax", "--nodes", "--game", "tictactoe", "--plot", str(tmp_path / "p.png")
    )
    assert code == 2  # every error line ends the command with 2
    assert err.strip() == (
        "zermelo: error: --plot needs matplotlib: pip install 'zermelo[plot]' "
        "(or pip install matplotlib)"
    )


def test_translated() -> None:
    result = run_cli("learn-minimax", "--example", "2", "--lang", "nl")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[-2] == "De AI speelt 6: V(s) = +1, het eerste vakje met de beste waarde."
    assert "Stap 1 van 5: X op 2" in result.stdout
    assert "The AI plays" not in result.stdout


def _read_until(fd: int, marker: bytes, seconds: float = 60.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {marker!r} within {seconds} s; read {seen[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_on_a_terminal_enter_steps_and_q_quits() -> None:
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "learn-minimax", "--example", "2"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=english_env(),
        close_fds=True,
    )
    os.close(follower)
    try:
        first = _read_until(leader, b"q: quit")
        assert b"Step 1" not in first
        os.write(leader, b"\n")
        second = _read_until(leader, b"q: quit")
        assert b"Step 1 of 5: X on 2" in second and b"Step 2" not in second
        os.write(leader, b"q\n")
        rest = _read_until(leader, b"\x00", seconds=30)
        assert process.wait(timeout=30) == 0
        assert b"Step 2" not in rest and b"The AI plays" not in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        os.close(leader)


def test_a_plot_that_cannot_be_written_is_one_line_before_any_counting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no such folder" / "nodes.png"
    code, out, err = run_main(
        capsys, "learn-minimax", "--nodes", "--game", "tictactoe", "--plot", str(missing)
    )
    assert code == 2  # every error line ends the command with 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith(f"zermelo: error: {missing}: cannot write the plot there")
    assert "nodes searched" not in out
