"""The first run of a fresh install: a cold numba cache is announced, never compiled in silence.

Each cold test runs a fresh interpreter with an empty ``NUMBA_CACHE_DIR`` and ``ZERMELO_CACHE_DIR``
(so neither numba's cache nor Connect Four's ahead-of-time extension exists), as after
``pip install``. The background builders those runs start are ended with their process group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chess_positions import KIWIPETE
from conftest import english_env

DATA = Path(__file__).parent / "data" / "connect4"
MIDDLE_GAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
"""A position out of the opening book: the AI must search it."""
ANNOUNCED = "First run: compiling the chess engine in the background"


def _cold(tmp_path: Path, **extra: str) -> dict[str, str]:
    return english_env(
        {
            "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
            "ZERMELO_CACHE_DIR": str(tmp_path / "zermelo"),
            **extra,
        }
    )


def _run(
    args: list[str], env: dict[str, str], stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in its own process group and end the group (background builders too)."""
    process = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(stdin, timeout=timeout)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def _l3_lines(count: int) -> list[tuple[str, int]]:
    lines = (DATA / "Test_L3_R1").read_text().splitlines()[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


def test_importing_a_kernel_compiles_nothing_and_the_cache_reads_cold(tmp_path: Path) -> None:
    code = (
        "from zermelo.core import jit as _jit\n"
        "from zermelo.solvers import kernels\n"
        "from zermelo.solvers.chess import kernel\n"
        "print(_jit.pending(kernel), kernels.is_built('chess'), kernels.is_built('connect4'))\n"
    )
    result = _run([sys.executable, "-c", code], _cold(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    # negamax, quiesce and perft wait for finish(); the index files do not exist yet
    assert result.stdout.split() == ["3", "False", "False"]


def test_plain_copies_give_the_known_counts_and_scores() -> None:
    from zermelo.solvers.chess.engine import perft
    from zermelo.solvers.connect4.solver import Connect4Solver

    assert perft("startpos", 3, compiled=False) == 8_902
    assert perft(KIWIPETE, 2, compiled=False) == 2_039
    solver = Connect4Solver(compiled=False, book=False)
    for moves, score in _l3_lines(3):
        assert solver.score(moves) == score


def test_cold_play_announces_the_build_and_the_python_copy_moves_legally(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "zermelo", "play", "chess", "--first", "ai", "--once"]
    args += ["--time", "1", "--fen", MIDDLE_GAME]
    result = _run(args, _cold(tmp_path), stdin="", timeout=90)
    assert ANNOUNCED in result.stderr  # stdout stays the game's conversation
    assert ANNOUNCED not in result.stdout
    played = [line for line in result.stdout.splitlines() if line.startswith("Last move: ")]
    assert played, result.stdout
    board = chess.Board(MIDDLE_GAME)
    board.push_san(played[0].removeprefix("Last move: ").strip())  # raises if illegal


def test_uci_stdout_stays_protocol_while_cold(tmp_path: Path) -> None:
    commands = "uci\nisready\nposition fen " + MIDDLE_GAME + "\ngo depth 2\n"
    # quit only once the search answered: a wait in the input, bounded by the timeout
    script = (
        "import subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-m', 'zermelo', 'uci'], stdin=subprocess.PIPE,"
        " stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)\n"
        f"p.stdin.write({commands!r}); p.stdin.flush()\n"
        "lines = []\n"
        "for line in p.stdout:\n"
        "    lines.append(line)\n"
        "    if line.startswith('bestmove'):\n"
        "        break\n"
        "p.stdin.write('quit\\n'); p.stdin.flush()\n"
        "rest, err = p.communicate(timeout=60)\n"
        "sys.stdout.write(''.join(lines) + rest); sys.stderr.write(err)\n"
    )
    result = _run([sys.executable, "-c", script], _cold(tmp_path), timeout=100)
    words = ("id ", "option ", "uciok", "readyok", "info ", "bestmove ")
    lines = result.stdout.splitlines()
    assert any(line.startswith("bestmove ") for line in lines), result.stdout + result.stderr
    assert all(line.startswith(words) for line in lines), lines
    assert ANNOUNCED in result.stderr


def test_warm_up_names_must_be_kernels(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "zermelo", "warm-up", "chess", "checkers"]
    result = _run(args, _cold(tmp_path), timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "zermelo warm-up: error: unknown kernel 'checkers': expected chess, connect4, "
        "draughts-moves, draughts, backgammon-moves, backgammon (see 'zermelo warm-up --help')"
    ]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["chess", "connect4", "--all", "--x", "", "\u00e9", "-h", "[red]"]),
            st.text(max_size=8),
        ),
        max_size=4,
    )
)
def test_warm_up_fuzz_one_line_never_a_traceback(tmp_path: Path, args: list[str]) -> None:
    # ZERMELO_NO_NUMBA keeps the valid calls cheap: nothing to compile
    env = _cold(tmp_path, ZERMELO_NO_NUMBA="1")
    args = [arg for arg in args if "\x00" not in arg]
    result = _run([sys.executable, "-m", "zermelo", "warm-up", *args], env, timeout=60)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 2), result.stderr
    if result.returncode == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    else:
        assert result.stderr == ""


@pytest.mark.xdist_group("cores")
@pytest.mark.slow
def test_warm_up_compiles_once_then_does_nothing(tmp_path: Path) -> None:
    env = _cold(tmp_path, ZERMELO_NO_AOT="1")
    first = _run([sys.executable, "-m", "zermelo", "warm-up", "connect4"], env, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "Compiled 1 kernel(s)" in first.stdout
    second = _run([sys.executable, "-m", "zermelo", "warm-up", "connect4"], env, timeout=60)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip().splitlines() == ["Already compiled: the Connect Four solver."]


@pytest.mark.xdist_group("cores")
@pytest.mark.slow
def test_background_build_switches_to_the_compiled_kernel_with_the_same_scores(
    tmp_path: Path,
) -> None:
    lines = _l3_lines(3)
    code = (
        "from zermelo.solvers import kernels\n"
        "from zermelo.solvers.connect4.solver import default_solver\n"
        f"lines = {lines!r}\n"
        "events = []\n"
        "started = kernels.build_in_background(['connect4'], events.append)\n"
        "plain = default_solver()\n"
        "before = [plain.score(m) for m, _ in lines]\n"
        "assert kernels.wait_background(240)\n"
        "after_solver = default_solver()\n"
        "after = [after_solver.score(m) for m, _ in lines]\n"
        "print(started, plain.compiled, after_solver.compiled, before == after,\n"
        "      [s for _, s in lines] == after, [e.kind for e in events])\n"
    )
    result = _run([sys.executable, "-c", code], _cold(tmp_path, ZERMELO_NO_AOT="1"), timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "('connect4',) False True True True ['background', 'ready']"
