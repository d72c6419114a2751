"""Do the server's budgets hold for every game, and does a client that leaves stop its search?

Starts ``zermelo serve`` on 127.0.0.1 (a free port), with the example plugin ``examples/zermelo-nim``
installed by pip into a temporary directory when it is not importable already, and measures, as a
client on raw sockets sees it:

* **nim 50 ms**: ``/api/analyze`` of nim with six heaps (a new position each run, so nothing is
  answered from memory) with a 50 ms budget;
* **connect4 4x4**: ``/api/analyze`` of a 4x4 board after 1, 2 with a 2 s budget, once the
  solver's process is up: the columns answered and whether every value is exact;
* **mated chess**: the first analysis of a checkmated position with a 50 ms budget, and how much
  the server's own memory grew;
* **state during nim**: a tic-tac-toe ``/api/state`` while three nim analyses with 3 s budgets run;
* **dropped searches**: 12 gomoku analyses with 3 s budgets whose clients close after 0.3 s: the
  CPU the server's child processes burn in the 1.5 s after, and the status of the next search.

    python benchmarks/web_budgets.py            # 8 runs of each timed case
    python benchmarks/web_budgets.py --runs 20
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _send(port: int, method: str, path: str, data: Any = None) -> socket.socket:
    body = b"" if data is None else json.dumps(data).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
    if data is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    sock = socket.create_connection((HOST, port), timeout=30)
    sock.sendall(head.encode() + b"\r\n" + body)
    return sock


def request(port: int, method: str, path: str, data: Any = None) -> tuple[int, Any, float]:
    started = time.monotonic()
    with _send(port, method, path, data) as sock:
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    elapsed = time.monotonic() - started
    if not answer:
        return 0, None, elapsed
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    try:
        return status, json.loads(body), elapsed
    except ValueError:
        return status, body, elapsed


def _status(status: int) -> str:
    return "connection closed, no answer" if status == 0 else f"status {status}"


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _cpu(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _resident(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _plugin_path() -> str:
    try:
        import zermelo_nim  # noqa: F401
    except ImportError:
        target = tempfile.mkdtemp(prefix="zermelo-nim-")
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", target,
             str(ROOT / "examples" / "zermelo-nim")],
            check=True,
        )  # fmt: skip
        return target
    return ""


def start() -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    env = dict(os.environ)
    paths = [str(ROOT / "src"), _plugin_path(), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    server = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        env=env,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/api/games")[0] == 200:
                return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("zermelo serve did not start within 180 s")


def settle(pid: int) -> None:
    """Wait (at most two minutes) until the child processes are idle: their warm-up is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        children = _children(pid)
        before = _cpu(children)
        time.sleep(0.5)
        if _cpu(children) - before < 0.05:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=8, help="runs of each timed case")
    runs = parser.parse_args().runs
    server, port = start()
    rows: list[tuple[str, str, str, str, str]] = []
    try:
        settle(server.pid)
        before = _resident(server.pid)
        status, answer, took = request(
            port,
            "POST",
            "/api/analyze",
            {"game": "chess", "position": MATED, "budget": {"time_ms": 50}},
        )
        grown = (_resident(server.pid) - before) / 2**20
        moves = len(answer["moves"]) if isinstance(answer, dict) and "moves" in answer else "no"
        rows.append(("mated chess, 50 ms (first)", "1", f"{took * 1000:.0f}", f"{took * 1000:.0f}",
                     f"{_status(status)}, {moves} moves, server +{grown:.0f} MB"))  # fmt: skip

        times = []
        for run in range(runs):
            body = {"game": "nim", "options": {"heaps": 6}, "moves": [f"6-{1 + run % 11}"],
                    "budget": {"time_ms": 50}}  # fmt: skip
            if run >= 11:
                body["moves"] = ["6-1", f"5-{1 + run % 9}"]
            status, answer, took = request(port, "POST", "/api/analyze", body)
            times.append(took)
        rows.append(("nim 6 heaps, 50 ms", str(runs), f"{statistics.median(times) * 1000:.0f}",
                     f"{max(times) * 1000:.0f}", f"last: {_status(status)}"))  # fmt: skip

        c4 = {"game": "connect4", "options": {"width": 4, "height": 4}, "moves": ["1", "2"],
              "budget": {"time_ms": 2000}}  # fmt: skip
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, answer, took = request(port, "POST", "/api/analyze", c4)
            if status == 200 and all(m["value"]["exact"] for m in answer["moves"]):
                break
            time.sleep(1)
        times = []
        for _ in range(runs):
            status, answer, took = request(port, "POST", "/api/analyze", c4)
            times.append(took)
        found = answer["moves"] if isinstance(answer, dict) and "moves" in answer else []
        columns = ",".join(m["move"] for m in sorted(found, key=lambda m: m["move"]))
        exact = bool(found) and all(m["value"]["exact"] for m in found)
        rows.append(("connect4 4x4 after 1 2, 2 s", str(runs), f"{statistics.median(times) * 1000:.0f}",
                     f"{max(times) * 1000:.0f}", f"columns {columns}, exact {exact}"))  # fmt: skip

        times = []
        for run in range(max(runs // 4, 2)):
            slow = [
                threading.Thread(target=request, args=(port, "POST", "/api/analyze", {
                    "game": "nim", "options": {"heaps": 6}, "moves": [f"5-{1 + (run * 3 + k) % 9}"],
                    "budget": {"time_ms": 3000}}))
                for k in range(3)
            ]  # fmt: skip
            for thread in slow:
                thread.start()
            time.sleep(0.3)
            times.append(request(port, "POST", "/api/state", {"game": "tictactoe"})[2])
            for thread in slow:
                thread.join(30)
        rows.append(("tictactoe state during 3 nim 3 s", str(len(times)),
                     f"{statistics.median(times) * 1000:.0f}", f"{max(times) * 1000:.0f}", ""))  # fmt: skip

        settle(server.pid)
        dropped = []
        for index in range(12):
            body = {"game": "gomoku", "moves": ["h8", "h9", "a1", "o15"][: 1 + index % 4],
                    "budget": {"time_ms": 3000}}  # fmt: skip
            dropped.append(_send(port, "POST", "/api/analyze", body))
        time.sleep(0.3)
        for sock in dropped:
            sock.close()
        time.sleep(0.5)
        before_cpu = _cpu(_children(server.pid))
        time.sleep(1.5)
        burnt = _cpu(_children(server.pid)) - before_cpu
        status, _, took = request(port, "POST", "/api/analyze",
                                  {"game": "gomoku", "moves": ["h8", "h9"], "budget": {"time_ms": 1000}})  # fmt: skip
        rows.append(("12 dropped gomoku 3 s searches", "1", "", "",
                     f"children CPU in 1.5 s after: {burnt:.2f} s; next search: {_status(status)}"))  # fmt: skip
    finally:
        server.terminate()
        server.wait(10)
    print("| case | runs | p50 ms | max ms | result |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
