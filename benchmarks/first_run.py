"""The first run of a fresh install, cold and warm, side by side in one run.

Cold: an empty ``NUMBA_CACHE_DIR`` and ``ZERMELO_CACHE_DIR`` (numba's cache and Connect Four's
ahead-of-time extension) in a temporary folder, and a fresh interpreter per command, as after
``pip install``. Warm: the same folders after ``zermelo warm-up --all``.

Per game, the seconds from the process's start to the AI's first move in terminal play
(``zermelo play GAME --first ai --once`` at the default level, driven through a pipe: the move has
come when the person's prompt follows "AI's turn..."); then the wall time of ``perft chess startpos
--depth 4`` and of ``analyze connect4 4453``, and of ``warm-up --all`` itself. Each command's
process group is ended after it is measured, background builders with it, so that one measure
does not run into the next.

    python benchmarks/first_run.py            # every game
    python benchmarks/first_run.py --games chess connect4
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

GAMES = ("tictactoe", "connect4", "gomoku", "mnk", "checkers", "chess", "othello")
LIMIT = 600.0
SOURCE = str(Path(__file__).resolve().parents[1] / "src")


def _environment(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        NUMBA_CACHE_DIR=str(cache / "numba"),
        ZERMELO_CACHE_DIR=str(cache / "zermelo"),
        PYTHONPATH=SOURCE + os.pathsep + env.get("PYTHONPATH", ""),
        LC_ALL="C.UTF-8",
        COLUMNS="100",
    )
    env.pop("ZERMELO_NO_NUMBA", None)
    return env


def _end(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def first_move(game: str, env: dict[str, str]) -> float:
    """Seconds from the start of ``zermelo play GAME`` to the AI's first move."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "play", game, "--first", "ai", "--once", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    seen = bytearray()
    found = threading.Event()
    moment: list[float] = []

    def read() -> None:
        assert process.stdout is not None
        while True:
            chunk = process.stdout.read1(4096)
            if not chunk:
                found.set()
                return
            seen.extend(chunk)
            turn = seen.find(b"AI's turn")
            if turn >= 0 and seen.find(b"Your ", turn) >= 0:
                moment.append(time.perf_counter())
                found.set()
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    found.wait(LIMIT)
    _end(process)
    if not moment:
        tail = seen[-400:].decode(errors="replace")
        raise RuntimeError(f"no AI move from 'play {game}':\n{tail}")
    return moment[0] - started


def wall(arguments: list[str], env: dict[str, str]) -> float:
    """Wall seconds of ``zermelo ARGUMENTS`` (exit status 0 required)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", *arguments, "--lang", "en"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    output, _ = process.communicate(timeout=LIMIT)
    elapsed = time.perf_counter() - started
    _end(process)
    if process.returncode != 0:
        raise RuntimeError(f"zermelo {' '.join(arguments)} failed:\n{output.decode()[-400:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    args = parser.parse_args()
    commands = {
        "perft chess startpos --depth 4": ["perft", "chess", "startpos", "--depth", "4"],
        "analyze connect4 4453": ["analyze", "connect4", "4453"],
    }
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for game in args.games:  # a fresh cold cache per game: each is a first run
            env = _environment(Path(scratch) / f"cold-{game}")
            rows.append((f"play {game}: first AI move", first_move(game, env), float("nan")))
        cold_commands = {}
        for label, arguments in commands.items():
            env = _environment(Path(scratch) / f"cold-{label.split()[0]}")
            cold_commands[label] = wall(arguments, env)
        env = _environment(Path(scratch) / "warm")
        warm_up = wall(["warm-up", "--all"], env)
        again = wall(["warm-up", "--all"], env)
        for index, game in enumerate(args.games):
            rows[index] = (rows[index][0], rows[index][1], first_move(game, env))
        for label, arguments in commands.items():
            rows.append((label, cold_commands[label], wall(arguments, env)))
        rows.append(("warm-up --all (cold; then warm)", warm_up, again))
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}")
    try:
        load = os.getloadavg()[0]
        print(f"load average at the end: {load:.2f}")
    except OSError:
        pass
    width = max(len(row[0]) for row in rows)
    print(f"| {'what':<{width}} | cold (s) | warm (s) |")
    print(f"|{'-' * (width + 2)}|---------:|---------:|")
    for label, cold, warm in rows:
        print(f"| {label:<{width}} | {cold:8.2f} | {warm:8.2f} |")


if __name__ == "__main__":
    main()
