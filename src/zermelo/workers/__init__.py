"""Run a search that cannot be interrupted in a separate process, and stop it when time is up.

Most engines here check a clock as they go, so a thread and a budget bound them. An exact solver
in compiled code (Connect Four's numba kernel) reads a position to the end and cannot be told to
stop; in a thread it would hold a core for as long as it likes. :class:`Worker` keeps one long-lived
child process for such work (so its tables and compiled code stay warm between requests), gives
every call a deadline, and kills the child when the deadline passes; the next call starts a fresh
one. Calls are serialised: one child, one search at a time.

The child is ``python -m zermelo.workers``, talking JSON lines over its stdin and stdout: a
request names a function by module and attribute (``"zermelo.solvers.connect4.web:connect4_best"``)
and gives plain arguments; the answer is a plain value or the error's type and message. The
functions are chosen by the server's code; nothing a client sends picks one.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import IO, Any, Final

from zermelo.core import errors
from zermelo.core.errors import BudgetError
from zermelo.core.jsontext import Json

__all__ = ["Job", "Worker", "WorkerCancelled", "WorkerFailed", "WorkerTimeout"]

_PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The directory holding the ``zermelo`` package, for the child's import path."""


class WorkerTimeout(BudgetError):
    """The work did not finish within its deadline (the child process was stopped)."""


class WorkerFailed(errors.WorkerFailed):
    """The function raised an error in the child, or the child ended."""


class WorkerCancelled(WorkerFailed):
    """The call was cancelled (:meth:`Job.cancel`) before it finished."""


CANCEL_SIGNAL: Final = signal.SIGUSR1
CANCEL_GRACE: Final = 0.5
"""Seconds a cancelled call may take to stop before its child is killed."""
PARENT_CHECK: Final = 0.1
"""How often (seconds) a child checks that its server is still there."""
_POLL: Final = 0.05


class Job:
    """A handle on one call, to cancel it from another thread (see :meth:`Worker.call`)."""

    def __init__(self) -> None:
        self.cancelled_at: float | None = None
        self.started = False
        """Set by the thread that makes the call, when it begins."""
        self.finished = threading.Event()
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    def cancel(self) -> None:
        """Stop the call: interrupt its function in the child (or keep it from starting)."""
        with self._lock:
            if self.cancelled_at is None:
                self.cancelled_at = time.monotonic()
            _interrupt(self._process)

    def _attach(self, process: subprocess.Popen[bytes] | None) -> None:
        """Say which child runs the call now (``None``: none does any more)."""
        with self._lock:
            self._process = process
            if process is not None and self.cancelled_at is not None:
                _interrupt(process)


def _interrupt(process: subprocess.Popen[bytes] | None) -> None:
    if process is not None and process.poll() is None:
        with contextlib.suppress(OSError):
            os.kill(process.pid, CANCEL_SIGNAL)


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
        # The child starts with the cancel signal blocked (a signal mask survives exec), so a
        # cancel that reaches it while it loads waits until it can be handled.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {CANCEL_SIGNAL})
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "zermelo.workers"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
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

    # Any: the answer is the JSON of the function ``target`` names, whose shape its caller knows
    # (a Connect Four solver's object, a search's answer); each caller narrows it.
    def call(self, target: str, *args: object, timeout: float, job: Job | None = None) -> Any:
        """``target(*args)`` in the child; raises :class:`WorkerTimeout` after ``timeout`` seconds
        (waiting for the child to be free counts too), :class:`WorkerCancelled` when ``job`` was
        cancelled, and :class:`WorkerFailed` naming the error when the function raised or the
        child died."""
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=max(timeout, 0.0)):
            raise WorkerTimeout(f"{self.name} was busy for {timeout:.1f} s")
        try:
            if self.closed:
                raise WorkerFailed("the server is stopping")
            if job is not None and job.cancelled:
                raise WorkerCancelled(f"{self.name}: the call was cancelled")
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
            if job is not None:
                job._attach(process)
            try:
                line = _read_line(process.stdout, deadline, job)
            finally:
                if job is not None:
                    job._attach(None)
            if line is None:
                self._abandon()
                self.restarts += 1
                if job is not None and job.cancelled:
                    raise WorkerCancelled(f"{self.name} was stopped: its call was cancelled")
                raise WorkerTimeout(f"{self.name} did not finish within {timeout:.1f} s")
            if not line:
                self.stop()
                raise WorkerFailed(f"{self.name} ended")
        finally:
            self._lock.release()
        answer = json.loads(line)
        if "ok" in answer:
            return answer["ok"]
        if answer.get("cancelled"):
            raise WorkerCancelled(f"{self.name}: the call was cancelled")
        kind, message = answer["error"]
        raise WorkerFailed(f"{kind}: {message}")


def _read_line(stream: IO[bytes], deadline: float, job: Job | None = None) -> bytes | None:
    """One line from ``stream`` before ``deadline`` (or within :data:`CANCEL_GRACE` of ``job``'s
    cancel): ``None`` on time out, ``b""`` at its end."""
    while True:
        now = time.monotonic()
        end = deadline
        if job is not None and job.cancelled_at is not None:
            end = min(end, job.cancelled_at + CANCEL_GRACE)
        remaining = end - now
        if remaining <= 0:
            return None
        try:
            ready, _, _ = select.select([stream], [], [], min(remaining, _POLL))
            if ready:
                return stream.readline()
        except (OSError, ValueError):
            return b""


class _Cancelled(BaseException):
    """Raised in the child by the cancel signal, in the middle of the function it runs."""


_RUNNING = {"active": False}


def _on_cancel(
    signum: int, frame: FrameType | None
) -> None:  # pragma: no cover - runs in the child process
    if _RUNNING["active"]:
        _RUNNING["active"] = False  # once per call: the handlers below cannot be interrupted
        raise _Cancelled


def _run(
    functions: dict[str, Callable[..., object]], request: Mapping[str, Json]
) -> dict[str, object]:
    """One request's answer; the cancel signal interrupts only the part between the flags."""
    target = request["target"]
    try:
        _RUNNING["active"] = True
        if not isinstance(target, str):
            raise TypeError(f"target {target!r}: expected 'module:function'")
        function = functions.get(target)
        if function is None:
            module_name, attribute = target.split(":")
            function = getattr(importlib.import_module(module_name), attribute)
            functions[target] = function
        args = request["args"]
        if not isinstance(args, list):
            raise TypeError(f"args {args!r}: expected a list")
        return {"ok": function(*args)}
    except Exception as error:
        _RUNNING["active"] = False
        return {"error": [type(error).__name__, str(error)]}
    finally:
        _RUNNING["active"] = False


def _watch_parent(parent: int) -> None:  # pragma: no cover - runs in the child process
    """Exit at once, silently, when the server that started this child is gone."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    _exit()


def _serve() -> None:  # pragma: no cover - runs in the child process
    """Answer requests from stdin until it closes; stray prints go to stderr. When the server
    is gone (stdin closed, an answer that cannot be written, or a new parent process), exit at
    once without a word."""
    # Ctrl-C in a terminal reaches the whole process group: the server stops this child itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(CANCEL_SIGNAL, _on_cancel)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {CANCEL_SIGNAL})
    parent = os.getppid()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    functions: dict[str, Callable[..., object]] = {}
    for line in requests:
        request = json.loads(line)
        try:
            answer = _run(functions, request)
        except _Cancelled:
            answer = {"cancelled": True}
        try:
            text = json.dumps(answer)
        except (TypeError, ValueError) as error:  # a function that returned no plain value
            text = json.dumps({"error": [type(error).__name__, str(error)]})
        try:
            answers.write(text.encode() + b"\n")
            answers.flush()
        except OSError:  # the server is gone: nobody reads the answer
            _exit()
    _exit()


def _exit() -> None:  # pragma: no cover - runs in the child process
    """End the child now: no buffer is flushed to a pipe nobody reads."""
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(0)
