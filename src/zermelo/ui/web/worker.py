"""Run a search that cannot be interrupted in a separate process, and stop it when time is up.

Most engines here check a clock as they go, so a thread and a budget bound them. An exact solver
in compiled code (Connect Four's numba kernel) reads a position to the end and cannot be told to
stop; in a thread it would hold a core for as long as it likes. :class:`Worker` keeps one long-lived
child process for such work (so its tables and compiled code stay warm between requests), gives
every call a deadline, and terminates the child when the deadline passes; the next call starts a
fresh one. Calls are serialised: one child, one search at a time.

The child runs functions named by module and attribute (``"zermelo.ui.web.solvers:best_move"``),
with plain arguments; nothing the client sends chooses the function.
"""

from __future__ import annotations

import importlib
import multiprocessing
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from zermelo.core.errors import BudgetError

__all__ = ["Worker", "WorkerTimeout"]


class WorkerTimeout(BudgetError):
    """The work did not finish within its deadline (the child process was stopped)."""


class WorkerFailed(RuntimeError):
    """The child raised an error that is not one of zermelo's own."""


def _serve(connection: Connection) -> None:  # pragma: no cover - runs in the child process
    functions: dict[str, Any] = {}
    while True:
        try:
            target, args = connection.recv()
        except (EOFError, OSError):
            return
        try:
            function = functions.get(target)
            if function is None:
                module_name, attribute = target.split(":")
                function = getattr(importlib.import_module(module_name), attribute)
                functions[target] = function
            connection.send(("ok", function(*args)))
        except Exception as error:
            connection.send(("error", type(error).__name__, str(error)))


class Worker:
    """One child process that runs named functions, each call under a deadline."""

    def __init__(self, name: str = "zermelo-worker") -> None:
        self.name = name
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._process: Any = None
        self._connection: Connection | None = None
        self.restarts = 0

    def _start(self) -> Connection:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child,), name=self.name, daemon=True)
        process.start()
        child.close()
        self._process = process
        self._connection = parent
        return parent

    def stop(self) -> None:
        """Terminate the child (a later call starts a new one)."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if connection is not None:
            connection.close()
        if process is not None and process.is_alive():
            process.terminate()
            process.join(timeout=2)
            if process.is_alive():  # pragma: no cover - terminate is enough on Linux
                process.kill()
                process.join(timeout=2)

    def call(self, target: str, *args: Any, timeout: float) -> Any:
        """``target(*args)`` in the child; raises :class:`WorkerTimeout` after ``timeout`` seconds
        (waiting for the child to be free counts too), and :class:`WorkerFailed` naming the error
        when the function raised or the child died."""
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=max(timeout, 0.0)):
            raise WorkerTimeout(f"the solver was busy for {timeout:.1f} s")
        try:
            connection = self._connection
            if connection is None or self._process is None or not self._process.is_alive():
                self.stop()
                connection = self._start()
            connection.send((target, args))
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not connection.poll(remaining):
                self.stop()
                self.restarts += 1
                raise WorkerTimeout(f"the solver did not finish within {timeout:.1f} s")
            try:
                answer = connection.recv()
            except (EOFError, OSError) as error:
                self.stop()
                raise WorkerFailed(f"the solver process ended: {error}") from None
        finally:
            self._lock.release()
        if answer[0] == "ok":
            return answer[1]
        _, kind, message = answer
        raise WorkerFailed(f"{kind}: {message}")
