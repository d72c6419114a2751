"""The first run of a fresh install, cold and warm, side by side in one run.

Cold: an empty ``NUMBA_CACHE_DIR`` and ``ZERMELO_CACHE_DIR`` (numba's cache and Connect Four's
ahead-of-time extension) in a temporary folder, and a fresh interpreter per command, as after
``pip install``. Warm: the same folders after ``zermelo warm-up --all``.

Per game, the seconds from the process's start to the AI's first move in terminal play
(``zermelo play GAME --first ai --once`` at the default level, driven through a pipe: the move has
come when the person's prompt follows "AI's turn..."); then the wall time of ``perft chess startpos
--depth 4`` and of ``analyze connect4 4453``, and of ``warm-up --all`` itself. For Connect Four and
chess, the seconds from the start of ``zermelo serve`` to the answer of the page's first AI move
(``/api/play`` at level hard with a one-second budget, in a position out of the opening book),
with the request's own seconds in brackets, and whether the answer was degraded (``*``). Each command's
process group is ended after it is measured, background builders with it, so that one measure
does not run into the next.

    python benchmarks/first_run.py            # every game
    python benchmarks/first_run.py --games chess connect4
    python benchmarks/first_run.py --serve-only    # the serve rows alone
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
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


SERVE_MOVES = {
    "connect4": ["4", "4", "3", "4", "5", "3", "3", "5", "1", "7", "7", "1"],
    "chess": ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"],
}
"""Positions out of the opening books: the AI must search them."""


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=LIMIT) as answer:
        found: dict[str, object] = json.loads(answer.read())
        return found


def serve_move(game: str, env: dict[str, str]) -> tuple[float, float, bool]:
    """Seconds from the start of ``zermelo serve`` to the answer of the first AI move, the
    request's own seconds, and whether the answer was degraded."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "serve", "--port", str(port), "--lang", "en"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/api/games", timeout=LIMIT):
                    break
            except (urllib.error.URLError, ConnectionError):
                if time.perf_counter() - started > LIMIT or process.poll() is not None:
                    raise RuntimeError(f"zermelo serve did not start for {game}") from None
                time.sleep(0.1)
        asked = time.perf_counter()
        body = {"game": game, "moves": SERVE_MOVES[game], "level": "hard", "seed": 1}
        answer = _post(base + "/api/play", {**body, "budget": {"time_ms": 1000}})
        done = time.perf_counter()
    finally:
        _end(process)
    return done - started, done - asked, bool(answer.get("degraded"))


def serve_rows(games: list[str], scratch: Path) -> list[tuple[str, str, str]]:
    """The serve rows: cold (a fresh cache per game), then warm (after ``warm-up --all``)."""
    games = [game for game in games if game in SERVE_MOVES]
    cold = {game: serve_move(game, _environment(scratch / f"serve-{game}")) for game in games}
    env = _environment(scratch / "serve-warm")
    wall(["warm-up", "--all"], env)
    rows = []
    for game in games:
        warm = serve_move(game, env)
        cells = [
            f"{total:.2f} ({own:.2f}){'*' if bad else ''}" for total, own, bad in (cold[game], warm)
        ]
        rows.append((f"serve {game}: first AI move (request)", cells[0], cells[1]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--serve-only", action="store_true", help="only the serve rows")
    args = parser.parse_args()
    commands = {
        "perft chess startpos --depth 4": ["perft", "chess", "startpos", "--depth", "4"],
        "analyze connect4 4453": ["analyze", "connect4", "4453"],
    }
    rows: list[tuple[str, float, float]] = []
    served: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        served = serve_rows(args.games, Path(scratch))
        for game in (
            [] if args.serve_only else args.games
        ):  # a fresh cold cache per game: each is a first run
            env = _environment(Path(scratch) / f"cold-{game}")
            rows.append((f"play {game}: first AI move", first_move(game, env), float("nan")))
        cold_commands = {}
        for label, arguments in {} if args.serve_only else commands.items():
            env = _environment(Path(scratch) / f"cold-{label.split()[0]}")
            cold_commands[label] = wall(arguments, env)
        if not args.serve_only:
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
    table = [(label, f"{cold:.2f}", f"{warm:.2f}") for label, cold, warm in rows] + served
    width = max(len(row[0]) for row in table)
    cell = max(8, *(len(row[1]) for row in table), *(len(row[2]) for row in table))
    print(f"| {'what':<{width}} | {'cold (s)':>{cell}} | {'warm (s)':>{cell}} |")
    print(f"|{'-' * (width + 2)}|{'-' * (cell + 1)}:|{'-' * (cell + 1)}:|")
    for label, cold, warm in table:
        print(f"| {label:<{width}} | {cold:>{cell}} | {warm:>{cell}} |")


if __name__ == "__main__":
    main()
