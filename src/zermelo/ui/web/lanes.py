"""Where a request's work runs: a fast lane of threads and a pool of search processes.

The event loop only reads requests and writes answers; everything that costs CPU runs elsewhere:

* the **fast lane** (:class:`FastLane`): a few threads for work bounded by the size limits alone
  (replaying and checking a game, drawing it, tic-tac-toe's small tree, Connect Four's opening
  book, the quick answer of a request whose search ran out of time). It never waits behind a search;
* the **search pool** (:class:`SearchPool`): child processes, one search each at a time. A search
  checks its own clock, and the pool stops one that does not answer by its deadline by killing
  its process (a new one is started in the background, so the next request does not wait for
  it), and replaces a process that grew past :data:`WORKER_MEMORY`.

Both lanes refuse work beyond their queue with :class:`BusyError` (503 with ``Retry-After``).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Final, TypeVar, TypeVarTuple

import anyio
import anyio.to_thread

from zermelo.core import errors
from zermelo.core.jsontext import Json
from zermelo.workers import Job, Worker, WorkerCancelled, WorkerFailed, WorkerTimeout

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

__all__ = [
    "FAST_THREADS",
    "SEARCH_WAITING",
    "SEARCH_WORKERS",
    "WORKER_MEMORY",
    "BusyError",
    "FastLane",
    "SearchPool",
]

_log = logging.getLogger("zermelo.web")

FAST_THREADS: Final = 2
FAST_WAITING: Final = 256
SEARCH_WORKERS: Final = 2
SEARCH_WAITING: Final = 8
WORKER_MEMORY: Final = 768 * 2**20
"""A search process that holds more memory than this after a search is replaced; a search checks
the same ceiling as it builds its tables (see :mod:`zermelo.core.limits`)."""
WORKER_CALLS: Final = 2000
"""Searches one process answers before it is replaced (its caches start afresh)."""
RETRY_AFTER: Final = 1
UNTIMED: Final = 1.0
"""When work without a budget of its own is due, in seconds from its arrival (see
:class:`FastLane`)."""


class BusyError(errors.BusyError):
    """Too many requests are waiting for a lane; ``retry_after`` says when to come back."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FastLane:
    """Threads for bounded work: at most ``threads`` at once, ``waiting`` more queued.

    The queue is served earliest deadline first: work on a request's clock (an analysis with a
    100 ms budget) passes work that has time (drawing a board, due :data:`UNTIMED` after it
    arrived), so a budget holds however many cheap requests came before it."""

    def __init__(self, threads: int = FAST_THREADS, waiting: int = FAST_WAITING) -> None:
        self.threads = threads
        self.waiting = waiting
        self.active = 0
        self.running = 0
        self._queue: list[tuple[float, int, _Waiter]] = []
        self._order = itertools.count()

    async def run(
        self, function: Callable[[*Ts], T], *args: *Ts, deadline: float | None = None
    ) -> T:
        """``function(*args)`` in a thread, once a thread is free and no work due earlier waits;
        ``deadline`` is a ``time.monotonic()`` (default: :data:`UNTIMED` from now)."""
        if self.active >= self.threads + self.waiting:
            raise BusyError(errors.N_("the server is busy; try again in a moment"))
        self.active += 1
        try:
            await self._acquire(time.monotonic() + UNTIMED if deadline is None else deadline)
            try:
                return await anyio.to_thread.run_sync(function, *args, abandon_on_cancel=True)
            finally:
                self._release()
        finally:
            self.active -= 1

    async def _acquire(self, deadline: float) -> None:
        if self.running < self.threads and not self._queue:
            self.running += 1
            return
        waiter = _Waiter()
        heapq.heappush(self._queue, (deadline, next(self._order), waiter))
        try:
            await waiter.event.wait()
        except BaseException:
            waiter.gone = True
            if waiter.event.is_set():  # handed a thread just as it was cancelled: pass it on
                self._release()
            raise

    def _release(self) -> None:
        """Hand the thread to the waiting work due first, or free it."""
        while self._queue:
            _, _, waiter = heapq.heappop(self._queue)
            if not waiter.gone:
                waiter.event.set()
                return
        self.running -= 1


class _Waiter:
    __slots__ = ("event", "gone")

    def __init__(self) -> None:
        self.event = anyio.Event()
        self.gone = False


class SearchPool:
    """``size`` search processes; at most ``waiting`` requests queue for one."""

    def __init__(self, size: int = SEARCH_WORKERS, waiting: int = SEARCH_WAITING) -> None:
        self.size = size
        self.waiting = waiting
        self.active = 0
        self.workers = [Worker(f"zermelo-search-{index}") for index in range(size)]
        self.kills = 0
        self.cancels = 0
        """Searches interrupted because their request was cancelled."""
        self._free = list(self.workers)
        self._free_lock = threading.Lock()
        self._limiter: anyio.CapacityLimiter | None = None

    def warm_up(self, timeout: float = 60.0) -> None:
        """Start every process and load the engines in it, waiting at most ``timeout`` seconds."""
        threads = [self._renew_later(worker) for worker in self.workers]
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(deadline - time.monotonic(), 0.0))

    def kill_now(self) -> None:
        """Kill every process at once (the server is stopping)."""
        for worker in self.workers:
            worker.kill_now()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()

    async def call(self, target: str, *args: object, deadline: float) -> Json:
        """``target(*args)`` in a search process; raises :class:`WorkerTimeout` when it has not
        answered by ``deadline`` (``time.monotonic()``; waiting for a process counts), and
        :class:`BusyError` when too many requests are waiting already. When the request is
        cancelled (its client went away), the search is interrupted in its process, and the
        process is free for the next request as soon as it has stopped."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.size)
        if self.active >= self.size + self.waiting:
            raise BusyError(
                errors.N_("the server is busy with other searches; try again in a moment")
            )
        self.active += 1
        try:
            # Waiting for a free process counts against the deadline: no request waits longer.
            with anyio.move_on_after(deadline - time.monotonic()) as waiting:
                await self._limiter.acquire()
            if waiting.cancelled_caught:
                raise WorkerTimeout("no search process was free before the deadline")
            job = Job()
            try:
                return await anyio.to_thread.run_sync(
                    self._call, target, args, deadline, job, abandon_on_cancel=True
                )
            except anyio.get_cancelled_exc_class():
                job.cancel()
                # The process counts as busy until the search has stopped (at once, or at its
                # deadline when it cannot be interrupted). A call that had not started yet
                # never will: it sees the cancel first.
                if job.started:
                    with anyio.CancelScope(shield=True):
                        wait = max(deadline - time.monotonic(), 0.0) + 1.0
                        await anyio.to_thread.run_sync(job.finished.wait, wait)
                raise
            finally:
                self._limiter.release()
        finally:
            self.active -= 1

    def _call(self, target: str, args: tuple[object, ...], deadline: float, job: Job) -> Json:
        job.started = True  # before the cancel is checked: see call()
        try:
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise WorkerTimeout("no time was left for a search")
            if job.cancelled:
                raise WorkerCancelled("the search was cancelled before it started")
            worker = self._take()
            try:
                answer: Json = worker.call(target, *args, timeout=timeout, job=job)
                return answer
            except WorkerTimeout:
                if not worker.running:  # stopped at its deadline, not merely busy
                    self.kills += 1
                    self._renew_later(worker)
                raise
            except WorkerCancelled:
                self.cancels += 1
                if not worker.running:  # it did not stop in time and was killed
                    self.kills += 1
                    self._renew_later(worker)
                raise
            finally:
                if worker.resident_bytes() > WORKER_MEMORY or worker.calls >= WORKER_CALLS:
                    worker.stop()
                    worker.calls = 0
                    self._renew_later(worker)
                self._give(worker)
        finally:
            job.finished.set()

    def _take(self) -> Worker:
        with self._free_lock:
            ready = [worker for worker in self._free if worker.running and not worker.starting]
            worker = (ready or self._free)[0]
            self._free.remove(worker)
            return worker

    def _give(self, worker: Worker) -> None:
        with self._free_lock:
            self._free.append(worker)

    def _renew_later(self, worker: Worker) -> threading.Thread:
        def renew() -> None:
            worker.starting = True
            try:
                worker.start()
                worker.call("zermelo.ui.web.tasks:ready", timeout=60.0)
            except (WorkerTimeout, WorkerFailed) as error:
                if not worker.closed:
                    _log.warning("a search process did not start: %s", error)
            finally:
                worker.starting = False

        thread = threading.Thread(target=renew, name=f"{worker.name}-start", daemon=True)
        thread.start()
        return thread
