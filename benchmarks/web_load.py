"""``zermelo serve`` under load: do cheap requests stay fast while searches run, does every request
end within its budget, and does memory stay put over many board sizes?

Starts ``zermelo serve`` on 127.0.0.1 (a free port) and runs two phases, each bounded in time:

1. **mixed**: 12 clients ask for tic-tac-toe analyses (cheap: a small tree, the fast lane) while
   8 clients ask for hard Connect Four moves outside the opening book and hard gomoku moves and
   analyses (searches, 1 to 3 s budgets);
2. **sizes**: 10,000 requests on m,n,k boards of random sizes (3 to 19 a side, some beyond, which
   must be refused): nine in ten ``/api/state``, one in ten an analysis with a 100 ms budget.

The table gives per kind of request: how many, throughput, latency percentiles, refusals (503),
other 5xx, 4xx, and deadline overruns: a request is over when it took longer than its budget plus
a tenth of it (a quarter second at most), once as this client saw it and once as the server timed
itself (its ``Server-Timing`` header: from the request's arrival to the answer's first byte; the
difference is time the request spent in the machine's queues before the server could read it). The server's resident memory (the server and its
search processes) is read before phase 1 and after phase 2.

    python benchmarks/web_load.py                    # 20 s mixed phase, 10,000 size requests
    python benchmarks/web_load.py --mixed-seconds 60 --size-requests 20000

Latencies are measured by this client, one asyncio process with its own small HTTP/1.1 client
(keep-alive connections), so they include the client's share of a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bench_common import progress_bar  # noqa: E402  (beside this script)
from zermelo.games.connect4 import Connect4State  # noqa: E402

CHEAP_CLIENTS = 12
SEARCH_CLIENTS = 8
DEFAULT_BUDGET = 1.0
SIZE_CONCURRENCY = 16


@dataclass
class Sample:
    kind: str
    status: int
    seconds: float
    budget: float
    server: float
    """The server's own time for the request (its Server-Timing header), in seconds."""


@dataclass
class Phase:
    name: str
    samples: list[Sample] = field(default_factory=list)
    seconds: float = 0.0


# -- a small HTTP/1.1 client -----------------------------------------------------------------------


class Connection:
    """One keep-alive connection to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(
        self, path: str, body: dict[str, Any], timeout: float = 30.0
    ) -> tuple[int, float]:
        payload = json.dumps(body).encode()
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None and self.writer is not None
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
            ).encode()
            try:
                self.writer.write(head + payload)
                await self.writer.drain()
                return await asyncio.wait_for(self._response(), timeout)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, float]:
        assert self.reader is not None
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        length = 0
        close = False
        server = float("nan")
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            if name.strip().lower() == "connection" and "close" in value.lower():
                close = True
            if name.strip().lower() == "server-timing" and "dur=" in value:
                server = float(value.split("dur=")[1].split(";")[0].split(",")[0]) / 1000
        await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, server

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def timed(
    connection: Connection, phase: Phase, kind: str, path: str, body: dict[str, Any]
) -> None:
    budget = body.get("budget", {}).get("time_ms", DEFAULT_BUDGET * 1000) / 1000
    started = time.monotonic()
    try:
        status, server = await connection.post(path, body)
    except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
        status, server = 599, float("nan")  # no answer at all: counted with the 5xx
        await connection.close()
    phase.samples.append(Sample(kind, status, time.monotonic() - started, budget, server))


# -- request makers -----------------------------------------------------------------------------


def ttt_body(rng: random.Random) -> dict[str, Any]:
    squares = list(range(9))
    rng.shuffle(squares)
    return {"game": "tictactoe", "moves": [str(s) for s in squares[: rng.randint(0, 4)]]}


def connect4_moves(rng: random.Random) -> list[str]:
    """A running position of 4 to 10 discs (outside the opening book)."""
    while True:
        state = Connect4State.initial()
        moves = []
        for _ in range(rng.randint(4, 10)):
            column = rng.choice(state.legal_moves())
            state = state.play(column)
            moves.append(str(column + 1))
            if state.is_terminal():
                break
        if not state.is_terminal():
            return moves


def gomoku_moves(rng: random.Random) -> list[str]:
    points = [f"{c}{r}" for c in "fghij" for r in range(6, 11)]
    rng.shuffle(points)
    return points[: rng.randint(1, 6)]


def search_body(rng: random.Random) -> tuple[str, str, dict[str, Any]]:
    budget = {"time_ms": rng.choice([1000, 2000, 3000])}
    roll = rng.random()
    if roll < 0.5:
        body = {"game": "connect4", "moves": connect4_moves(rng), "level": "hard"}
        return "connect4 hard move", "/api/play", {**body, "budget": budget, "seed": 1}
    if roll < 0.8:
        body = {"game": "gomoku", "moves": gomoku_moves(rng), "level": "hard"}
        return "gomoku hard move", "/api/play", {**body, "budget": budget, "seed": 1}
    body = {"game": "gomoku", "moves": gomoku_moves(rng)}
    return "gomoku analysis", "/api/analyze", {**body, "budget": budget}


def size_body(rng: random.Random) -> tuple[str, str, dict[str, Any]]:
    width, height = rng.randint(3, 21), rng.randint(3, 21)
    options = {"width": width, "height": height, "k": rng.randint(3, min(max(width, height), 19))}
    if rng.random() < 0.9:
        return "sizes: state", "/api/state", {"game": "mnk", "options": options}
    body = {"game": "mnk", "options": options, "budget": {"time_ms": 100}}
    if width <= 19 and height <= 19:
        body["moves"] = [f"{'abcdefghijklmnopqrs'[width // 2]}{height // 2 + 1}"]
    return "sizes: analysis", "/api/analyze", body


# -- phases -------------------------------------------------------------------------------------


async def mixed_phase(port: int, seconds: float, progress: Any) -> Phase:
    phase = Phase("mixed")
    stop = time.monotonic() + seconds
    task = progress.add_task("mixed load", total=int(seconds))

    async def cheap(index: int) -> None:
        rng = random.Random(index)
        connection = Connection(port)
        while time.monotonic() < stop:
            await timed(connection, phase, "tic-tac-toe analysis", "/api/analyze", ttt_body(rng))
        await connection.close()

    async def search(index: int) -> None:
        rng = random.Random(1000 + index)
        connection = Connection(port)
        while time.monotonic() < stop:
            kind, path, body = search_body(rng)
            await timed(connection, phase, kind, path, body)
        await connection.close()

    async def tick() -> None:
        while time.monotonic() < stop:
            await asyncio.sleep(1)
            progress.advance(task)

    started = time.monotonic()
    await asyncio.gather(
        *(cheap(i) for i in range(CHEAP_CLIENTS)),
        *(search(i) for i in range(SEARCH_CLIENTS)),
        tick(),
    )
    phase.seconds = time.monotonic() - started
    return phase


async def size_phase(port: int, requests: int, progress: Any) -> Phase:
    phase = Phase("sizes")
    task = progress.add_task("random board sizes", total=requests)
    rng = random.Random(7)
    bodies = [size_body(rng) for _ in range(requests)]
    queue: asyncio.Queue[tuple[str, str, dict[str, Any]]] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)

    async def client() -> None:
        connection = Connection(port)
        while not queue.empty():
            kind, path, body = queue.get_nowait()
            await timed(connection, phase, kind, path, body)
            progress.advance(task)
        await connection.close()

    started = time.monotonic()
    await asyncio.gather(*(client() for _ in range(SIZE_CONCURRENCY)))
    phase.seconds = time.monotonic() - started
    return phase


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def resident_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its children, in MB."""
    children = subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    total = 0
    for process in [pid, *map(int, children)]:
        try:
            with open(f"/proc/{process}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            continue
    return total / 2**20


async def wait_until_up(port: int, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = Connection(port)
            if (await connection.post("/api/state", {"game": "tictactoe"}))[0] == 200:
                await connection.close()
                return
        except OSError:
            pass
        await asyncio.sleep(0.2)
    raise SystemExit("the server did not start")


# -- the report ---------------------------------------------------------------------------------


def allowed(budget: float) -> float:
    return budget + min(0.1 * budget, 0.25)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def report(console: Console, phases: list[Phase], rss: tuple[float, float]) -> None:
    table = Table(title="zermelo serve under load (latency in ms, as the client saw it)")
    for header in ("phase", "requests", "kind", "count", "req/s", "p50", "p95", "p99", "max"):
        table.add_column(header, justify="left" if header in ("phase", "kind") else "right")
    for header in ("503", "5xx", "4xx", "over", "max overrun", "server over", "server max"):
        table.add_column(header, justify="right")
    totals = {"5xx": 0, "over": 0, "server over": 0}
    server_worst = 0.0
    cheap_p95 = float("nan")
    cheap_refused = 0.0
    worst = 0.0
    for phase in phases:
        kinds = sorted({s.kind for s in phase.samples})
        for index, kind in enumerate(kinds):
            samples = [s for s in phase.samples if s.kind == kind]
            ms = [s.seconds * 1000 for s in samples]
            refused = sum(s.status == 503 for s in samples)
            errors = sum(s.status >= 500 and s.status != 503 for s in samples)
            client_errors = sum(400 <= s.status < 500 for s in samples)
            over = [s for s in samples if s.status < 500 and s.seconds > allowed(s.budget)]
            overrun = max((s.seconds - s.budget for s in samples if s.status < 500), default=0.0)
            worst = max(worst, max((s.seconds - allowed(s.budget) for s in over), default=0.0))
            answered = [s for s in samples if s.status < 500 and s.server == s.server]
            server_over = [s for s in answered if s.server > allowed(s.budget)]
            server_overrun = max((s.server - s.budget for s in answered), default=0.0)
            totals["server over"] += len(server_over)
            server_worst = max(
                server_worst, max((s.server - allowed(s.budget) for s in server_over), default=0.0)
            )
            totals["5xx"] += refused + errors
            totals["over"] += len(over)
            if kind == "tic-tac-toe analysis":
                cheap_p95 = percentile(ms, 0.95)
                cheap_refused = refused / max(len(samples), 1)
            table.add_row(
                phase.name if index == 0 else "",
                f"{len(phase.samples):,}" if index == 0 else "",
                kind,
                f"{len(samples):,}",
                f"{len(samples) / phase.seconds:.1f}",
                f"{percentile(ms, 0.5):.0f}",
                f"{percentile(ms, 0.95):.0f}",
                f"{percentile(ms, 0.99):.0f}",
                f"{max(ms):.0f}",
                str(refused),
                str(errors),
                str(client_errors),
                str(len(over)),
                f"{overrun * 1000:+.0f} ms",
                str(len(server_over)),
                f"{server_overrun * 1000:+.0f} ms",
            )
        table.add_section()
    console.print(table)

    before, after = rss
    targets = Table(title="Targets")
    for header in ("target", "measured", "met"):
        targets.add_column(header)
    rows = [
        ("no 5xx (503 included)", f"{totals['5xx']}", totals["5xx"] == 0),
        ("cheap p95 under 250 ms during searches", f"{cheap_p95:.0f} ms", cheap_p95 < 250),
        ("cheap requests refused at most 1%", f"{cheap_refused:.2%}", cheap_refused <= 0.01),
        (
            "no request over its budget by more than 10% (250 ms at most)",
            f"{totals['over']} over (worst by {worst * 1000:.0f} ms)",
            totals["over"] == 0,
        ),
        (
            "the same, as the server timed itself (Server-Timing)",
            f"{totals['server over']} over (worst by {server_worst * 1000:.0f} ms)",
            totals["server over"] == 0,
        ),
        (
            "RSS after the size phase within 100 MB of the start",
            f"{before:.0f} MB -> {after:.0f} MB ({after - before:+.0f} MB)",
            after - before <= 100,
        ),
    ]
    for name, measured, met in rows:
        targets.add_row(name, measured, "yes" if met else "[red]no[/red]")
    console.print(targets)


async def run(args: argparse.Namespace, console: Console) -> None:
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    server = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        await wait_until_up(port)
        await asyncio.sleep(args.settle)  # the Connect Four solver loads in the background
        warm = Connection(port)
        for body in ({"game": "gomoku", "moves": ["h8"]}, {"game": "connect4", "moves": ["4"] * 4}):
            await warm.post("/api/analyze", body)
        await warm.close()
        before = resident_mb(server.pid)
        load_before = os.getloadavg()[0]
        with progress_bar(console) as progress:
            mixed = await mixed_phase(port, args.mixed_seconds, progress)
            sizes = await size_phase(port, args.size_requests, progress)
        after = resident_mb(server.pid)
        report(console, [mixed, sizes], (before, after))
        console.print(
            f"machine: {os.cpu_count()} cores, load average {load_before:.1f} before and "
            f"{os.getloadavg()[0]:.1f} after (this run's clients and server included)"
        )
        stopped = time.monotonic()
        server.terminate()
        server.wait(30)
        console.print(f"SIGTERM to exit: {time.monotonic() - stopped:.2f} s")
        errors = server.stderr.read().decode(errors="replace") if server.stderr else ""
        tracebacks = errors.count("Traceback")
        degraded = sum("in time" in line for line in errors.splitlines())
        solver = sum("solver gave up" in line for line in errors.splitlines())
        console.print(
            f"server log: {tracebacks} tracebacks, {degraded} searches answered by the quick "
            f"fallback, {solver} Connect Four solver calls stopped at their deadline"
        )
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mixed-seconds", type=float, default=20.0)
    parser.add_argument("--size-requests", type=int, default=10_000)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds to wait after start")
    args = parser.parse_args(argv)
    if args.mixed_seconds <= 0 or args.size_requests < 1:
        raise SystemExit("--mixed-seconds must be positive and --size-requests at least 1")
    console = Console(width=max(Console().width, 150))
    asyncio.run(run(args, console))


if __name__ == "__main__":
    main()
