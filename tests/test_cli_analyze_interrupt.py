"""Ctrl-C during ``zermelo analyze``: a real SIGINT to a real process keeps the best so far."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _interrupt_after(args: list[str], marker: str, deadline: float = 120.0) -> tuple[int, str, str]:
    """Run ``zermelo analyze ARGS``, send SIGINT once ``marker`` is printed; rc, out, err."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "analyze", *args, "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    seen = []
    began = time.monotonic()
    try:
        while time.monotonic() - began < deadline:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            if marker in line:
                process.send_signal(signal.SIGINT)
                break
        out, err = process.communicate(timeout=deadline)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, "".join(seen) + out, err


@pytest.mark.parametrize(
    ("game", "position"),
    [("checkers", ""), ("chess", "e4 e5")],
)
def test_ctrl_c_prints_the_deepest_completed_depth_and_exits_130(game: str, position: str) -> None:
    code, out, err = _interrupt_after([game, position, "--time", "600"], "depth 3:")
    assert code == 130, (out, err)
    assert "Traceback" not in err + out
    assert "Interrupted: the best so far, from depth " in out
    depth = int(out.split("Interrupted: the best so far, from depth ")[1].split(".")[0])
    assert depth >= 3
    # The kept answer is the last live line's: the same best move, printed as the answer.
    last_live = [line for line in out.splitlines() if line.startswith(f"depth {depth}:")][-1]
    best = last_live.split(":")[1].split()[0]
    assert f"Best move: {best}" in out
    assert "Interrupted; goodbye." in err
