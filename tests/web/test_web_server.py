"""Issue 22's server findings and issue 21's web bugs, each against a real ``zermelo serve`` on
127.0.0.1 driven as real clients drive it (raw sockets, ``urllib``):

* a ``Connection: close`` request (urllib always sends it) keeps its answer past 5 s;
* a client that leaves stops its search, and dropped requests do not fill the search queue;
* one client holding hundreds of slow connections does not lock a second client out;
* request heads are limited to exactly 16 KiB;
* search processes exit at once and silently when their server is SIGKILLed;
* a finished chess game is answered at once, without loading the engine;
* options reach the search process (a 4x4 Connect Four board is solved exactly, columns 1-4);
* a plugin game holds its budget (nim, 50 ms), and never blocks the fast lane.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SRC, english_env
from zermelo.ui.web import MAX_HEADER_BYTES, PER_CLIENT_CONNECTIONS

HOST = "127.0.0.1"
OTHER_CLIENT = "127.0.0.2"
"""A second client address: Linux routes all of 127.0.0.0/8 to the loopback."""
STARTUP = 180.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _start(nim_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    env = english_env()
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(nim_path)])
    server = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        try:
            if _request(port, "GET", "/api/games", timeout=10)[0] == 200:
                return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    pytest.fail(f"zermelo serve did not start within {STARTUP:g} s")


@pytest.fixture(scope="module")
def server(nim_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    process, port = _start(nim_path)
    yield process, port
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _connect(port: int, source: str = HOST, timeout: float = 15.0) -> socket.socket:
    return socket.create_connection((HOST, port), timeout=timeout, source_address=(source, 0))


def _head(method: str, path: str, body: bytes, extra: str = "") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
    if method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + extra + "\r\n").encode()


def _read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the answer on ``sock``, read to the connection's end."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    if not data:
        return 0, {}, b""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _request(
    port: int,
    method: str,
    path: str,
    data: Any = None,
    *,
    source: str = HOST,
    timeout: float = 15.0,
) -> tuple[int, Any]:
    body = b"" if data is None else json.dumps(data).encode()
    with _connect(port, source, timeout) as sock:
        sock.sendall(_head(method, path, body) + body)
        status, headers, answer = _read_answer(sock)
    return status, json.loads(answer) if headers.get(
        "content-type"
    ) == "application/json" else answer


def _post(port: int, path: str, data: Any) -> tuple[int, Any, float]:
    started = time.monotonic()
    status, answer = _request(port, "POST", path, data)
    return status, answer, time.monotonic() - started


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _cpu_seconds(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _searching_share(pids: list[int], seconds: float) -> float:
    """The share of ``seconds`` during which one of ``pids`` had its main thread runnable."""
    samples = busy = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        states = []
        for pid in pids:
            try:
                states.append(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0])
            except OSError:
                continue
        samples += 1
        busy += "R" in states
        time.sleep(0.02)
    return busy / max(samples, 1)


def _settle(pid: int, timeout: float = 120.0) -> None:
    """Wait until the server's child processes are idle (their warm-up is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = _children(pid)
        before = _cpu_seconds(children)
        time.sleep(0.5)
        if len(children) >= 2 and _cpu_seconds(children) - before < 0.05:
            return
    pytest.fail("the search processes did not settle")


def _resident(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _one_error_line(body: Any) -> str:
    message = body["error"]["message"]
    assert message and "\n" not in message and "Traceback" not in message
    return str(message)


# -- 1. Connection: close ----------------------------------------------------------------------------


def test_a_connection_close_answer_is_sent_after_five_seconds(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    """A client that connects, sends its whole request 4 s later (as a browser's early
    connection does), and asks for a 2 s search (checkers uses all of it): the answer comes 6 s
    after the connection opened. The header deadline (5 s from the connection) used to close it, because a request
    that says Connection: close is MUST_CLOSE, not DONE, once read."""
    _, port = server
    body = json.dumps({"game": "checkers", "budget": {"time_ms": 2000}}).encode()
    with _connect(port) as sock:
        time.sleep(4.0)
        sock.sendall(_head("POST", "/api/analyze", body) + body)
        status, _, answer = _read_answer(sock)
    assert status == 200, answer
    assert json.loads(answer)["moves"]
    # What urllib sends (it always says Connection: close) is answered too.
    request = urllib.request.Request(
        f"http://{HOST}:{port}/api/state",
        data=b'{"game": "tictactoe", "moves": ["5"]}',
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=15) as reply:
        assert json.loads(reply.read())["position"] == ".....X..."


# -- 2. a client that leaves stops its search --------------------------------------------------------


def test_a_client_that_leaves_stops_its_search(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    _settle(process.pid)
    dropped = []
    for index in range(12):
        moves = ["h8", "h9", "a1", "o15"][: 1 + index % 4]
        body = json.dumps({"game": "gomoku", "moves": moves, "budget": {"time_ms": 3000}})
        sock = _connect(port)
        sock.sendall(_head("POST", "/api/analyze", body.encode()) + body.encode())
        dropped.append(sock)
    time.sleep(0.3)
    for sock in dropped:
        sock.close()
    time.sleep(0.5)  # the searches get the news and stop
    # Each process's main thread, which runs the searches, is then waiting for the next request
    # (state S), not searching (R, running or waiting for a core). It used to search on for
    # 2.5 s, on both processes.
    searching = _searching_share(_children(process.pid), 1.5)
    assert searching < 0.2, f"a search process was searching {searching:.0%} of the time"
    status, answer, _ = _post(
        port,
        "/api/analyze",
        {"game": "gomoku", "moves": ["h8", "h9"], "budget": {"time_ms": 1000}},
    )
    assert status == 200, answer  # it used to be a 503: the dropped requests filled the queue
    assert answer["moves"] and not answer["degraded"]


# -- 3. one client cannot lock the others out ------------------------------------------------------


def test_slow_connections_of_one_client_do_not_lock_out_another(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    _, port = server
    slow = []
    try:
        for _ in range(600):  # more than uvicorn's limit_concurrency used to allow (512)
            slow.append(_connect(port, timeout=10))  # and send nothing
        status, answer = _request(
            port, "POST", "/api/state", {"game": "tictactoe"}, source=OTHER_CLIENT
        )
        assert status == 200, answer
        assert answer["legal"] == [str(cell) for cell in range(9)]
        # The slow client's own connections past its share were refused with one line.
        status, headers, body = _read_answer(slow[-1])
        assert status == 503 and headers["retry-after"] == "1"
        message = _one_error_line(json.loads(body))
        assert message == (
            f"too many connections from 127.0.0.1: at most {PER_CLIENT_CONNECTIONS} at once"
        )
    finally:
        for sock in slow:
            sock.close()
    time.sleep(0.5)
    assert _request(port, "POST", "/api/state", {"game": "tictactoe"})[0] == 200


# -- 4. the smaller faults ------------------------------------------------------------------------


def _padded_head(size: int) -> bytes:
    """A GET head of exactly ``size`` bytes."""
    base = _head("GET", "/api/games", b"", "X-Pad: \r\n")
    return base.replace(b"X-Pad: ", b"X-Pad: " + b"a" * (size - len(base)))


@pytest.mark.parametrize(
    ("size", "status"),
    [(MAX_HEADER_BYTES, 200), (MAX_HEADER_BYTES + 1, 431), (40 * 1024, 431), (64 * 1024, 431)],
)
def test_request_heads_are_limited_to_exactly_16_kib(
    server: tuple[subprocess.Popen[bytes], int], size: int, status: int
) -> None:
    _, port = server
    head = _padded_head(size)
    assert len(head) == size
    with _connect(port) as sock:
        sock.sendall(head)
        got, _, body = _read_answer(sock)
    assert got == status
    if status == 431:
        assert _one_error_line(json.loads(body)) == (
            f"request headers are larger than {MAX_HEADER_BYTES} bytes"
        )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fields=st.lists(st.integers(0, 9000), min_size=1, max_size=6),
    split=st.integers(1, 70_000),
)
def test_fuzz_request_heads_of_any_size(
    server: tuple[subprocess.Popen[bytes], int], fields: list[int], split: int
) -> None:
    """Heads of random sizes sent in two pieces: 200 up to the limit, 431 or 400 beyond it,
    never a 5xx, a hang or a second line."""
    _, port = server
    extra = "".join(f"X-Field-{index}: {'b' * size}\r\n" for index, size in enumerate(fields))
    head = _head("GET", "/api/games", b"", extra)
    with _connect(port) as sock:
        sock.sendall(head[:split])
        time.sleep(0.01)
        sock.sendall(head[split:])
        status, _, body = _read_answer(sock)
    if len(head) <= MAX_HEADER_BYTES:
        assert status == 200
    else:
        assert status == 431, (len(head), status)
        _one_error_line(json.loads(body))


def test_every_advertised_option_bound_is_accepted_and_one_past_is_refused(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    _, port = server
    status, listing = _request(port, "GET", "/api/games")
    assert status == 200

    def accepted(name: str, options: dict[str, int]) -> bool:
        status, answer = _request(port, "POST", "/api/state", {"game": name, "options": options})
        if status != 200:
            assert status == 400, answer
            _one_error_line(answer)
        return status == 200

    bounds = 0
    for game in listing["games"]:
        name = game["name"]
        integers = {key: o for key, o in game["options"].items() if o["type"] == "integer"}
        for key, option in integers.items():
            for outside in (option["min"] - 1, option["max"] + 1):
                assert not accepted(name, {key: outside}), (name, key, outside)
            # Each bound is reachable: with the other options at their defaults, or (m,n,k's
            # k, which may not exceed the board) at their own bounds.
            others = [
                {other: value}
                for other, o in integers.items()
                if other != key
                for value in (o["min"], o["max"])
            ]
            for bound in (option["min"], option["max"]):
                tries = [{key: bound}] + [{key: bound, **other} for other in others]
                tries.append({key: bound, **{o: integers[o]["max"] for o in integers if o != key}})
                assert any(accepted(name, options) for options in tries), (name, key, bound)
                bounds += 1
    assert bounds >= 2 * (2 + 3 + 1)  # Connect Four's, m,n,k's and nim's bounds
    # Connect Four's sizes are one box: every corner of it is a board (9x8 used to be offered
    # and refused).
    c4 = {game["name"]: game for game in listing["games"]}["connect4"]["options"]
    for width in (c4["width"]["min"], c4["width"]["max"]):
        for height in (c4["height"]["min"], c4["height"]["max"]):
            assert accepted("connect4", {"width": width, "height": height}), (width, height)


def test_search_processes_exit_silently_when_the_server_is_killed(nim_path: Path) -> None:
    process, port = _start(nim_path)
    _settle(process.pid)  # the Connect Four solver's warm-up (compiled code) is over
    children = _children(process.pid)
    assert len(children) >= 2
    body = json.dumps({"game": "gomoku", "moves": ["h8", "h9"], "budget": {"time_ms": 3000}})
    busy = [_connect(port) for _ in range(2)]
    for sock in busy:
        sock.sendall(_head("POST", "/api/analyze", body.encode()) + body.encode())
    time.sleep(0.3)  # both search processes are in the middle of a 3 s search
    killed = time.monotonic()
    process.kill()
    process.wait(10)
    while any(_alive(child) for child in children) and time.monotonic() < killed + 10:
        time.sleep(0.02)
    gone = time.monotonic() - killed
    assert process.stderr is not None
    errors = process.stderr.read()  # every process that shared it has gone
    for sock in busy:
        sock.close()
    assert b"Traceback" not in errors and b"BrokenPipeError" not in errors, errors.decode()
    # They used to search to the end of their 3 s (2.7 s after the kill), then die with a
    # traceback.
    assert gone < 2.0, f"the search processes outlived their server by {gone:.2f} s"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_finished_chess_game_is_answered_at_once(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate
    before = _resident(process.pid)
    status, answer, elapsed = _post(
        port, "/api/analyze", {"game": "chess", "position": mated, "budget": {"time_ms": 50}}
    )
    assert status == 200, answer
    assert answer["moves"] == [] and answer["best"] is None and not answer["degraded"]
    grown = _resident(process.pid) - before
    # It used to take 0.59 s and load the engine's 120 MB table into the server itself.
    assert grown < 20 * 2**20, f"the server grew by {grown / 2**20:.0f} MB"
    assert elapsed < 0.5


# -- issue 21: options reach the search, and every game holds its budget ---------------------------


def test_a_4x4_connect_four_board_is_solved_exactly_for_its_four_columns(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    _, port = server
    body = {
        "game": "connect4",
        "options": {"width": 4, "height": 4},
        "moves": ["1", "2"],
        "budget": {"time_ms": 2000},
    }
    deadline = time.monotonic() + 120  # the solver's process loads in the background
    while True:
        status, answer, elapsed = _post(port, "/api/analyze", body)
        assert status == 200, answer
        # Never a column of the 7x6 board, solver ready or not.
        assert sorted(move["move"] for move in answer["moves"]) == ["1", "2", "3", "4"]
        if all(move["value"]["exact"] for move in answer["moves"]) or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert all(move["value"]["exact"] for move in answer["moves"]), answer
    assert not answer["degraded"]
    # Once the solver is up, at once.
    status, answer, elapsed = _post(port, "/api/analyze", body)
    assert all(move["value"]["exact"] for move in answer["moves"])
    assert elapsed < 0.5, elapsed
    # 4x4 after 1, 2: the solver's own values (a draw with the best column, as it computes).
    values = {move["move"]: move["value"]["score"] for move in answer["moves"]}
    from zermelo.solvers.connect4.scores import to_negamax
    from zermelo.solvers.connect4.solver import Connect4Solver

    solver = Connect4Solver(4, 4)
    scores = solver.analyze(solver.position("12"))
    assert values == {
        str(column + 1): to_negamax(score, 2, 4, 4)
        for column, score in enumerate(scores)
        if score is not None
    }


def test_the_ai_plays_on_the_board_of_the_options(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    _, port = server
    body: dict[str, Any] = {
        "game": "connect4",
        "options": {"width": 4, "height": 4},
        "moves": ["1", "2", "1", "2", "1"],
        "level": "hard",
        "budget": {"time_ms": 1000},
    }
    status, answer, _ = _post(port, "/api/play", body)
    assert status == 200, answer
    # X has three in column 1: the only move that does not lose at once blocks it.
    assert answer["played"] == [{"by": "ai", "move": "1"}]
    assert answer["board"]["width"] == 4 and answer["board"]["height"] == 4
    # The easy and medium levels search in a search process: it used to play on a 7x6 board
    # ("invalid column '7': expected a digit from 1 to 4").
    for level in ("easy", "medium"):
        for seed in range(6):
            body = {**body, "moves": ["1", "2"], "level": level, "seed": seed}
            status, answer, _ = _post(port, "/api/play", body)
            assert status == 200, (level, seed, answer)
            assert answer["played"][0]["move"] in {"1", "2", "3", "4"}


def test_nim_holds_a_50_ms_budget(server: tuple[subprocess.Popen[bytes], int]) -> None:
    _, port = server
    times = []
    for count in range(1, 9):  # a new position each time: nothing is answered from memory
        body = {
            "game": "nim",
            "options": {"heaps": 6},
            "moves": [f"6-{count}"],
            "budget": {"time_ms": 50},
        }
        status, answer, elapsed = _post(port, "/api/analyze", body)
        assert status == 200, answer
        assert len(answer["moves"]) == 1 + 3 + 5 + 7 + 9 + (11 - count)
        times.append(elapsed)
    # It took 1.65 s (and more for the first). The target is 60 ms; the bound is loose so that
    # a loaded machine cannot flip the test.
    assert statistics.median(times) < 0.2, times
    assert max(times) < 0.6, times


def test_slow_games_do_not_block_the_fast_lane(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    _, port = server
    results: list[tuple[int, Any, float]] = []

    def slow(count: int) -> None:
        body = {
            "game": "nim",
            "options": {"heaps": 6},
            "moves": [f"5-{count}"],
            "budget": {"time_ms": 3000},
        }
        results.append(_post(port, "/api/analyze", body))

    threads = [threading.Thread(target=slow, args=(count,)) for count in (1, 2, 3)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    status, answer, elapsed = _post(port, "/api/state", {"game": "tictactoe", "moves": ["1"]})
    for thread in threads:
        thread.join(30)
    assert status == 200, answer
    # Two such requests used to hold both fast-lane threads: the state waited 3 s.
    assert elapsed < 0.5, elapsed
    assert [status for status, _, _ in results] == [200, 200, 200]
    assert all(took < 3.0 + 0.25 + 1.0 for _, _, took in results)
