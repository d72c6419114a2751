"""The page on a fresh install: ``zermelo serve`` on an empty numba cache answers the AI's moves
at once with the plain-Python kernels, says the compiled ones are being prepared, and no search
process compiles (or is killed compiling) inside a request.

The server runs in its own process group with an empty ``NUMBA_CACHE_DIR`` and
``ZERMELO_CACHE_DIR``; the group (the background builders with it) is ended after the test.
Connect Four's ahead-of-time build is switched off: its builder leaves the group, and it is no
part of what is tested (the numba kernels serve until it is built).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from conftest import english_env
from zermelo.ui.web import api

HOST = "127.0.0.1"
STARTUP = 180.0
PREPARING = "Preparing the fast engine (first run): the AI plays with a slower copy meanwhile."
CONNECT4_MOVES = ["4", "4", "3", "4", "5", "3", "3", "5", "1", "7", "7", "1"]
"""Twelve plies in: past the opening book (seven plies), so the solver would be asked."""
CHESS_MOVES = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
SLOW_ANSWER = 8.0
"""An AI move with a one-second budget answers well within this, even on a loaded machine (a
compile in the request takes 20-50 s, and its search process is killed at the deadline)."""
BUILD_LIMIT = 600.0
"""The background build of both kernels, on a loaded 2-core machine, ends well within this."""
WORKER_FAILURES = ("gave up on", "did not start", "warm-up failed")
SHORT_SEARCH = "gave no move in time"
"""What the server logs for a search that ran out of its budget: the answer is degraded."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def cold_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A ``zermelo serve`` on empty caches: its address, and the file its stderr goes to."""
    root = tmp_path_factory.mktemp("cold")
    env = english_env(
        {
            "NUMBA_CACHE_DIR": str(root / "numba"),
            "ZERMELO_CACHE_DIR": str(root / "zermelo"),
            "ZERMELO_NO_AOT": "1",  # its builder leaves the process group: none on a shared machine
        }
    )
    port = _free_port()
    log = root / "stderr.txt"
    with log.open("wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "zermelo", "serve", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
            start_new_session=True,
        )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            try:
                if httpx.get(base + "/api/games", timeout=10).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail(f"zermelo serve did not start: {log.read_text()}")
            time.sleep(0.2)
        yield base, log
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def _ai_move(base: str, game: str, moves: list[str]) -> tuple[dict[str, object], float, set[str]]:
    """The server's answer to the AI's move after ``moves``, its wall time, and the legal moves."""
    before = httpx.post(base + "/api/state", json={"game": game, "moves": moves}, timeout=30)
    assert before.status_code == 200, before.text
    legal = set(before.json()["legal"])
    started = time.monotonic()
    answer = httpx.post(
        base + "/api/play",
        json={
            "game": game,
            "moves": moves,
            "level": "hard",
            "seed": 1,
            "budget": {"time_ms": 1000},
        },
        timeout=120,
    )
    elapsed = time.monotonic() - started
    assert answer.status_code == 200, answer.text
    return answer.json(), elapsed, legal


def _chess_nodes(answer: dict[str, object]) -> int:
    thinking = answer["thinking"]
    assert isinstance(thinking, dict), answer
    nodes = thinking["nodes"]
    assert isinstance(nodes, int)
    return nodes


@pytest.mark.xdist_group("cores")
@pytest.mark.slow
def test_a_cold_server_answers_connect4_and_chess_at_once(cold_server: tuple[str, Path]) -> None:
    base, log = cold_server
    for game, moves in (("connect4", CONNECT4_MOVES), ("chess", CHESS_MOVES)):
        answer, elapsed, legal = _ai_move(base, game, moves)
        played = answer["played"]
        assert isinstance(played, list)
        assert played[-1]["by"] == "ai"
        assert played[-1]["move"] in legal, (game, played, legal)
        assert elapsed < SLOW_ANSWER, (game, elapsed)
        assert answer["degraded"] is False, (game, answer)
        assert answer["preparing"] == PREPARING, (game, answer.get("preparing"))
    # a second move each, still on the plain copies or by now on the compiled ones
    for game, moves in (("connect4", CONNECT4_MOVES[:-2]), ("chess", CHESS_MOVES[:-2])):
        answer, elapsed, legal = _ai_move(base, game, moves)
        assert answer["degraded"] is False and elapsed < SLOW_ANSWER, (game, elapsed, answer)
    # Chess moves until the background build is done, then until the search processes have
    # loaded the compiled engine: its second of search counts many times the plain copy's nodes.
    plain_nodes = _chess_nodes(answer)
    deadline = time.monotonic() + BUILD_LIMIT
    # While the build takes a core, a loaded machine (a CI run's two test processes) may leave a
    # search short of its budget: the answer is then degraded, a legal move within the time, and
    # it must be no more than that.
    degraded = 0
    while answer["preparing"] is not None:
        assert time.monotonic() < deadline, "the background build did not finish"
        answer, elapsed, legal = _ai_move(base, "chess", CHESS_MOVES)
        assert answer["played"][-1]["move"] in legal and elapsed < SLOW_ANSWER, (elapsed, answer)
        degraded += bool(answer["degraded"])
        if not answer["degraded"]:
            plain_nodes = max(plain_nodes, _chess_nodes(answer))
    for _ in range(10):  # two search processes, each loads it in a thread at its next search
        answer, elapsed, legal = _ai_move(base, "chess", CHESS_MOVES)
        assert answer["played"][-1]["move"] in legal and elapsed < SLOW_ANSWER, (elapsed, answer)
        degraded += bool(answer["degraded"])
        if not answer["degraded"] and _chess_nodes(answer) > 5 * plain_nodes:
            break
    else:
        pytest.fail(f"the compiled engine never served: {plain_nodes} nodes, then {answer}")
    messages = log.read_text()
    for failure in WORKER_FAILURES:
        assert failure not in messages, messages
    if not degraded:  # a short search is logged only for an answer that said it was degraded
        assert SHORT_SEARCH not in messages, messages


def test_a_search_process_on_a_cold_cache_serves_the_plain_copies(tmp_path: Path) -> None:
    # What a search process does first (tasks.ready): nothing is compiled, the engines made
    # afterwards play with the plain copies, and the page is told the engine is being prepared.
    code = (
        "from zermelo.core import jit as _jit\n"
        "from zermelo.solvers import kernels\n"
        "from zermelo.solvers.chess import ChessEngine, kernel\n"
        "from zermelo.solvers.connect4.solver import default_solver\n"
        "print(kernels.serve_while_cold(wait=True), _jit.pending(kernel))\n"
        "engine = ChessEngine(hash_mb=1)\n"
        "print(engine.compiled, default_solver().compiled, _jit.pending(kernel))\n"
        "print(engine.search('startpos', depth=2).move is not None, kernels.preparing('chess'))\n"
        "print(kernels.preparing('tictactoe'))\n"
    )
    env = english_env(
        {
            "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
            "ZERMELO_CACHE_DIR": str(tmp_path / "z"),
            "ZERMELO_NO_AOT": "1",
        }
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "('chess', 'connect4', 'draughts-moves', 'draughts', 'backgammon-moves', 'backgammon') 3",
        "False False 3",
        "True ('chess',)",
        "()",
    ]
    assert not list((tmp_path / "numba").rglob("*.nbi"))  # no index: nothing was compiled


def test_the_play_answer_carries_the_note_the_page_translates(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"game": "tictactoe", "moves": [], "move": "4", "level": "hard", "seed": 0}
    assert client.post("/api/play", json=body).json()["preparing"] is None  # no kernel to build
    monkeypatch.setattr(api, "preparing", lambda game: ("chess",) if game == "tictactoe" else ())
    assert client.post("/api/play", json=body).json()["preparing"] == PREPARING
    dutch = client.get("/api/messages", params={"lang": "nl"}).json()["messages"]
    assert dutch[PREPARING] == (
        "De snelle engine wordt voorbereid (eerste keer): intussen speelt de AI met een tragere "
        "kopie."
    )
