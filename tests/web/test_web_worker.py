"""The solver worker: answers, errors, and a stuck search stopped at its deadline."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from zermelo.ui.web.worker import Worker, WorkerFailed, WorkerTimeout


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
