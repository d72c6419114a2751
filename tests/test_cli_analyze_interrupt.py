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


@pytest.mark.parametrize(
    ("game", "moves", "rules"),
    [
        ("tictactoe", "0 4", ()),
        ("connect4", "4 4", ("--width", "8")),
        ("gomoku", "h8 h9", ()),
        ("mnk", "a1 b2", ("--width", "4", "--height", "4", "--k", "3")),
        ("checkers", "11-15 23-19", ()),
        ("chess", "e4 e5", ()),
        ("othello", "d3 c5", ()),
        ("openspiel:breakthrough", "a7a6 a2a3", ()),
    ],
)
def test_every_game_takes_moves_and_rules_and_prints_each_depth(
    game: str, moves: str, rules: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    from zermelo.cli import main
    from zermelo.cli.common import game_options, position_or_moves
    from zermelo.games.registry import get_game

    main(["analyze", game, moves, *rules, "--time", "1", "--lang", "en"])
    out = capsys.readouterr().out
    spec = get_game(game)
    options = dict(zip(rules[::2], rules[1::2], strict=True))
    texts = tuple(f"{name.lstrip('-')}={value}" for name, value in options.items())
    expected = position_or_moves(spec, moves, game_options(spec, {}, None, texts))
    assert out.startswith(f"Position: {expected.notation()}")
    # the live lines: depth 1, 2, ... in order, each with a move, a value, nodes and a line
    # (how deep a loaded machine gets in a second varies). A game without an evaluation
    # (OpenSpiel's) splits the budget between the moves, each deepened alone, so it has one
    # line: the depth every move reached.
    depths = [int(d) for d in re_depths(out)]
    if game.startswith("openspiel:"):
        assert len(depths) == 1
    else:
        assert depths == list(range(1, len(depths) + 1)) and depths
    assert "Best move: " in out


def re_depths(out: str) -> list[str]:
    import re

    return re.findall(r"^depth (\d+): \S+ [^,]+, [\d,]+ nodes, [\d.]+ s, line ", out, re.M)
