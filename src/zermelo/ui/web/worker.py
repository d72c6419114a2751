"""Run a search that cannot be interrupted in a separate process, and stop it when time is up.

Most engines here check a clock as they go, so a thread and a budget bound them. An exact solver
in compiled code (Connect Four's numba kernel) reads a position to the end and cannot be told to
stop; in a thread it would hold a core for as long as it likes. :class:`Worker` keeps one long-lived
child process for such work (so its tables and compiled code stay warm between requests), gives
every call a deadline, and kills the child when the deadline passes; the next call starts a fresh
one. Calls are serialised: one child, one search at a time.

The child is ``python -m zermelo.ui.web._worker_main``, talking JSON lines over its stdin and stdout: a
request names a function by module and attribute (``"zermelo.ui.web.solvers:connect4_best"``)
and gives plain arguments; the answer is a plain value or the error's type and message. The
functions are chosen by the server's code; nothing a client sends picks one.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from zermelo.core.errors import BudgetError

__all__ = ["Worker", "WorkerFailed", "WorkerTimeout"]

_PACKAGE_ROOT = Path(__file__).resolve().parents[3]
"""The directory holding the ``zermelo`` package, for the child's import path."""


class WorkerTimeout(BudgetError):
    """The work did not finish within its deadline (the child process was stopped)."""


class WorkerFailed(RuntimeError):
    """The function raised an error in the child, or the child ended."""


class Worker:
    """One child process that runs named functions, each call under a deadline."""

    def __init__(self, name: str = "zermelo-worker") -> None:
        self.name = name
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.calls = 0
        self.closed = False
        """Set by :meth:`kill_now`: the server is stopping, no call starts a child again."""
        self.starting = False
        """True while a child is being started and loaded in the background."""

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def resident_bytes(self) -> int:
        """The child's resident memory in bytes (0 when there is no child or no ``/proc``)."""
        process = self._process
        if process is None:
            return 0
        try:
            with open(f"/proc/{process.pid}/statm", "rb") as handle:
                return int(handle.read().split()[1]) * 4096
        except (OSError, IndexError, ValueError):
            return 0

    def start(self) -> None:
        """Start the child now (when it is not running), so that no call waits for it."""
        with self._lock:
            if not self.closed and not self.running:
                self.stop()
                self._start()

    def kill_now(self) -> None:
        """Kill the child at once and refuse later calls; safe from a signal handler (a call
        that is waiting for the child sees it end and returns)."""
        self.closed = True
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(_PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "zermelo.ui.web._worker_main"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._process = process
        return process

    def stop(self) -> None:
        """Kill the child (a later call starts a new one)."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait(timeout=5)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def _abandon(self) -> None:
        """Kill the child and reap it in the background: a big process takes a while to tear
        down, and the caller, past its deadline already, must not wait for that."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()

        def reap() -> None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

        threading.Thread(target=reap, name=f"{self.name}-reap", daemon=True).start()

    def call(self, target: str, *args: Any, timeout: float) -> Any:
        """``target(*args)`` in the child; raises :class:`WorkerTimeout` after ``timeout`` seconds
        (waiting for the child to be free counts too), and :class:`WorkerFailed` naming the error
        when the function raised or the child died."""
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=max(timeout, 0.0)):
            raise WorkerTimeout(f"{self.name} was busy for {timeout:.1f} s")
        try:
            if self.closed:
                raise WorkerFailed("the server is stopping")
            self.calls += 1
            process = self._process if self.running else None
            if process is None:
                self.stop()
                process = self._start()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(json.dumps({"target": target, "args": args}).encode() + b"\n")
                process.stdin.flush()
            except (BrokenPipeError, OSError) as error:
                self.stop()
                raise WorkerFailed(f"{self.name} ended: {error}") from None
            line = _read_line(process.stdout, deadline)
            if line is None:
                self._abandon()
                self.restarts += 1
                raise WorkerTimeout(f"{self.name} did not finish within {timeout:.1f} s")
            if not line:
                self.stop()
                raise WorkerFailed(f"{self.name} ended")
        finally:
            self._lock.release()
        answer = json.loads(line)
        if "ok" in answer:
            return answer["ok"]
        kind, message = answer["error"]
        raise WorkerFailed(f"{kind}: {message}")


def _read_line(stream: IO[bytes], deadline: float) -> bytes | None:
    """One line from ``stream`` before ``deadline``: ``None`` on time out, ``b""`` at its end."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    try:
        ready, _, _ = select.select([stream], [], [], remaining)
        if not ready:
            return None
        return stream.readline()
    except (OSError, ValueError):
        return b""


def _serve() -> None:  # pragma: no cover - runs in the child process
    """Answer requests from stdin until it closes; stray prints go to stderr."""
    import signal

    # Ctrl-C in a terminal reaches the whole process group: the server stops this child itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    functions: dict[str, Any] = {}
    for line in requests:
        request = json.loads(line)
        target = request["target"]
        try:
            function = functions.get(target)
            if function is None:
                module_name, attribute = target.split(":")
                function = getattr(importlib.import_module(module_name), attribute)
                functions[target] = function
            answer: dict[str, Any] = {"ok": function(*request["args"])}
        except Exception as error:
            answer = {"error": [type(error).__name__, str(error)]}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()
