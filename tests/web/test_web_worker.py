"""The solver worker: answers, errors, a stuck search stopped at its deadline, and a search
cancelled when its client leaves."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator

import pytest

from zermelo.workers import (
    CANCEL_GRACE,
    CANCEL_SIGNAL,
    Job,
    Worker,
    WorkerCancelled,
    WorkerFailed,
    WorkerTimeout,
)


@pytest.fixture
def worker() -> Iterator[Worker]:
    worker = Worker("zermelo-test-worker")
    yield worker
    worker.stop()


def test_the_worker_runs_a_named_function_in_its_child(worker: Worker) -> None:
    assert worker.call("math:factorial", 10, timeout=30) == 3_628_800
    first = worker._process
    assert worker.call("operator:add", 2, 3, timeout=30) == 5
    assert worker._process is first, "the child is kept between calls"


def test_a_call_past_its_deadline_is_stopped_and_the_next_call_works(worker: Worker) -> None:
    worker.call("math:factorial", 1, timeout=30)
    started = time.monotonic()
    with pytest.raises(WorkerTimeout, match=r"did not finish within 0\.3 s"):
        worker.call("time:sleep", 30, timeout=0.3)
    assert time.monotonic() - started < 5
    assert worker._process is None and worker.restarts == 1
    assert worker.call("math:factorial", 3, timeout=30) == 6


def test_errors_in_the_child_come_back_named(worker: Worker) -> None:
    with pytest.raises(WorkerFailed, match="ValueError: factorial"):
        worker.call("math:factorial", -1, timeout=30)
    assert worker.call("math:factorial", 4, timeout=30) == 24


# -- cancelling a call (its client went away) ------------------------------------------------------


def _cancel_later(job: Job, seconds: float) -> threading.Thread:
    thread = threading.Timer(seconds, job.cancel)
    thread.start()
    return thread


def test_a_cancelled_call_stops_at_once_and_keeps_its_child(worker: Worker) -> None:
    worker.call("math:factorial", 1, timeout=30)
    first = worker._process
    job = Job()
    _cancel_later(job, 0.3)
    started = time.monotonic()
    with pytest.raises(WorkerCancelled, match="cancelled"):
        worker.call("time:sleep", 30, timeout=20, job=job)
    assert time.monotonic() - started < 3
    assert worker._process is first and worker.restarts == 0, "interrupted, not killed"
    assert worker.call("math:factorial", 5, timeout=30) == 120
    # A cancel that arrives after its call is over interrupts nothing later.
    job.cancel()
    assert worker.call("operator:add", 2, 2, timeout=30) == 4


def test_a_call_cancelled_before_it_starts_never_runs(worker: Worker) -> None:
    job = Job()
    job.cancel()
    with pytest.raises(WorkerCancelled):
        worker.call("time:sleep", 30, timeout=20, job=job)
    assert worker.calls == 0


def test_a_call_that_cannot_be_interrupted_is_killed_after_the_grace(worker: Worker) -> None:
    # The child blocks the cancel signal, as a compiled kernel would ignore it: the answer is a
    # set, which is no JSON value, so it comes back as an error and the child goes on.
    with pytest.raises(WorkerFailed, match="not JSON serializable"):
        worker.call("signal:pthread_sigmask", int(signal.SIG_BLOCK), [CANCEL_SIGNAL], timeout=30)
    job = Job()
    _cancel_later(job, 0.2)
    started = time.monotonic()
    with pytest.raises(WorkerCancelled, match="was stopped"):
        worker.call("time:sleep", 30, timeout=20, job=job)
    assert time.monotonic() - started < 0.2 + CANCEL_GRACE + 2
    assert worker.restarts == 1
    assert worker.call("math:factorial", 3, timeout=30) == 6


def test_a_cancelled_request_frees_its_search_process_at_once() -> None:
    import anyio

    from zermelo.ui.web.lanes import SearchPool

    pool = SearchPool(size=1, waiting=2)
    took: list[float] = []

    async def scenario() -> None:
        with anyio.move_on_after(0.3):  # the request is cancelled, as when its client leaves
            await pool.call("time:sleep", 20, deadline=time.monotonic() + 30)
        started = time.monotonic()
        assert await pool.call("math:factorial", 4, deadline=started + 10) == 24
        took.append(time.monotonic() - started)

    try:
        pool.warm_up()
        first = pool.workers[0]._process
        anyio.run(scenario)
        assert pool.cancels == 1 and pool.kills == 0
        assert pool.workers[0]._process is first, "interrupted, not replaced"
        assert pool.active == 0
    finally:
        pool.stop()
    assert took[0] < 2.0, "the next request did not wait for the 20 s sleep"
