"""Every CLI entry point, attacked with hostile arguments and input: one line, never a traceback.

Each example runs ``python -m zermelo`` in a subprocess with a timeout. The token pools mix valid
and hostile words (huge numbers, ``inf``, ``nan``, non-UTF-8 bytes, deep JSON) but keep the valid
combinations cheap (small depths, short times), so a timeout means a real hang.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import english_env

GAMES = ["tictactoe", "connect4", "gomoku", "mnk", "checkers", "chess-960", "", "\u00e9"]
NUMBERS = ["0", "-1", "1", "2", "1e400", "inf", "nan", "-inf", "9" * 400, "0.05", "3601", "x"]
POSITIONS = [
    "X.O......",
    "4453",
    "44444444",
    "9" * 5000,
    "26x99 k5 " + "/".join(["." * 26] * 99),
    "3x3 k3 x../.../...",
    "B:W17,19:B1,2",
    "h8 h9",
    "",
]
OPTIONS = {
    "play": ["--time", "--level", "--first", "--human", "--seed", "--size", "--k"],
    "analyze": ["--depth", "--time"],
    "explain": ["--weights", "--size", "--k"],
    "solve": ["--size", "--k", "--weak", "--best", "--stats"],
    "arena": ["--games", "--seed", "--jobs", "--start", "--agents"],
    "replay": ["--game"],
    "tune": ["--games", "--match", "--seed"],
}
AGENTS = [
    "random",
    "easy:time=1e400",
    "easy:time=1e300",
    "mcts:iterations=99999999999",
    "engine:depth=100",
    "engine:depth=-1",
    "x:y",
]
STDIN = st.one_of(
    st.binary(max_size=64),
    st.sampled_from([b"\xff\n", b"4\n" * 20, b"[" * 10_000, b"\x00\x01\n"]),
)


def _argv(data: st.DataObject, tmp: Path) -> list[str]:
    command = data.draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command, data.draw(st.sampled_from(GAMES))]
    if command == "replay":
        record = tmp / "games.jsonl"
        record.write_bytes(data.draw(STDIN))
        argv = ["replay", str(record)]
    if command in ("analyze", "explain", "solve"):
        argv.append(data.draw(st.sampled_from(POSITIONS)))
    if command == "arena":
        argv += data.draw(st.lists(st.sampled_from(AGENTS), max_size=3))
        argv += ["--games", "1"]
    for _ in range(data.draw(st.integers(0, 3))):
        option = data.draw(st.sampled_from(OPTIONS[command]))
        argv.append(option)
        if option == "--weights":
            weights = tmp / "weights.json"
            weights.write_bytes(data.draw(STDIN))
            argv.append(str(weights))
        elif option not in ("--weak", "--best", "--stats"):
            argv.append(data.draw(st.sampled_from(NUMBERS + POSITIONS[:2])))
    if command == "play":
        argv += ["--once", "--time", "0.05"]
    if command == "tune":
        argv += ["--games", "2", "--match", "0", "--out", str(tmp / "w.json")]
    return argv


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_input_makes_a_traceback_or_a_hang(data: st.DataObject, tmp_path: Path) -> None:
    argv = _argv(data, tmp_path)
    stdin = data.draw(STDIN)
    # A session of its own, so that a hang kills the arena's pool workers with the command.
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=english_env({"LC_ALL": "C.UTF-8"}),
        start_new_session=True,
    )
    try:
        out, err_bytes = process.communicate(stdin, timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"zermelo {argv} did not finish in 60 s") from None
    completed = subprocess.CompletedProcess(argv, process.returncode, out, err_bytes)
    err = completed.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, (argv, err)
    if completed.returncode not in (0, 1, 2):
        raise AssertionError((argv, completed.returncode, err))
    if completed.returncode == 2:
        errors = [line for line in err.splitlines() if "error" in line]
        assert len(errors) == 1, (argv, err)
