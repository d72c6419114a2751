"""Parallel work over a local process pool or a Dask cluster, behind one small interface.

Tournaments, batch solving and opening-book building hand their work here as *tasks*: a key (a
string that names the task in the job) and the arguments of a picklable module-level function.
:func:`run_job` runs the tasks that are not done yet, hands each result to a callback as it
arrives, and appends it to a :class:`ResultStore` (one JSON line per result, flushed at once), so
that a job stopped at any point resumes where it was: rerunning it skips the keys already stored,
and a key is never stored twice.

Where the work runs is an :class:`Executor`, from :func:`open_executor`:

- no cluster: a local process pool (``concurrent.futures``) of ``jobs`` processes, or the calling
  process itself for one job. A pool whose worker dies is rebuilt and its unfinished tasks are
  submitted again.
- ``local`` or ``local:N``: a Dask cluster of N worker processes on this machine, started for the
  job and stopped after it.
- an address such as ``tcp://10.0.0.5:8786``: the Dask scheduler of an existing cluster. The
  scheduler gives the tasks of a lost worker to the others.

This is the only module that imports Dask (``pip install 'zermelo[cluster]'``), and only when a
cluster is asked for. Workers keep warm state between tasks: the task functions cache what they
build per process (a compiled kernel, a transposition table), and ``warm_up`` runs once in each
worker before the first task (a pool initializer, or ``Client.run`` on the Dask workers).

The results of a job do not depend on where or in which order its tasks ran: a task's result is
a function of its arguments (seeds included), and :func:`run_job` returns them by key.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import queue
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeVar, cast

from zermelo.core.errors import ZermeloError
from zermelo.core.version import VERSION

__all__ = [
    "ClusterError",
    "ClusterSpec",
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "ResultStore",
    "cluster_wait",
    "open_executor",
    "parse_cluster",
    "run_job",
]

R = TypeVar("R")
"""What one task of a job returns."""

# Any: dask.distributed is not type-checked here (pyproject: follow_imports = "skip"), so its
# clients, clusters and futures have no types to name.
DaskObject: TypeAlias = Any

Task = tuple[object, ...]
"""The positional arguments of one call of a job's function."""

_LOCAL = re.compile(r"local(?::(\d+))?")
_ADDRESS = re.compile(r"(?:(tcp|tls|inproc|ucx|ws|wss)://)?[A-Za-z0-9_.\-\[\]:]+:\d{1,5}")
_POOL_RESTARTS = 3
_PR_SET_PDEATHSIG = 1
_CLOSE_TIMEOUT = 5.0
_POLL = 1.0
_WAIT_VARIABLE = "ZERMELO_CLUSTER_WAIT"
_DEFAULT_WAIT = 30.0


class ClusterError(ZermeloError):
    """A cluster that cannot be used: a bad ``--cluster`` value, Dask missing, or no scheduler."""


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where a job runs: ``kind`` is ``"pool"`` (local processes), ``"local"`` (a Dask cluster
    started on this machine) or ``"address"`` (an existing Dask scheduler)."""

    kind: str
    workers: int | None = None
    address: str | None = None

    def describe(self) -> str:
        if self.kind == "address":
            return f"Dask scheduler {self.address}"
        if self.kind == "local":
            return f"local Dask cluster of {self.workers} workers"
        return f"local process pool of {self.workers} processes"


def parse_cluster(text: str | None, jobs: int | None = None) -> ClusterSpec:
    """The spec of a ``--cluster`` value: ``None`` (a local pool of ``jobs`` processes, default
    the CPU count), ``local``, ``local:N`` or a scheduler address (``tcp://host:8786``,
    ``host:8786``). Anything else raises :class:`ClusterError` quoting it."""
    cpus = os.cpu_count() or 1
    if jobs is not None and jobs < 1:
        raise ClusterError(f"jobs must be at least 1, got {jobs}")
    if text is None:
        return ClusterSpec("pool", jobs or cpus)
    value = text.strip()
    local = _LOCAL.fullmatch(value)
    if local:
        workers = int(local.group(1)) if local.group(1) else (jobs or cpus)
        if not 1 <= workers <= 1024:
            raise ClusterError(f"--cluster {text!r}: local:N needs N from 1 to 1024")
        return ClusterSpec("local", workers)
    if _ADDRESS.fullmatch(value):
        address = value if "://" in value else f"tcp://{value}"
        return ClusterSpec("address", None, address)
    raise ClusterError(
        f"--cluster {text!r}: expected 'local', 'local:N' or a scheduler address such as "
        "'tcp://10.0.0.5:8786'"
    )


class Executor:
    """Runs calls of one function over many tasks, yielding ``(key, result)`` as they finish."""

    workers: int = 1

    def run(self, function: Callable[..., R], tasks: Mapping[str, Task]) -> Iterator[tuple[str, R]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _start_worker(parent: int, warm_up: Callable[[], None] | None) -> None:
    """Set up a pool process: it ends when its parent does, then it warms up.

    A pool process waits for tasks on a pipe that it holds open itself, so a parent killed
    outright (SIGKILL, a lost terminal) would leave it behind for good. On Linux the kernel sends
    it SIGKILL when the parent ends; elsewhere it lives on until its current task is done and
    the pool's pipe breaks."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:  # the parent ended before the request took hold
            os._exit(1)
    if warm_up is not None:
        warm_up()


class LocalExecutor(Executor):
    """A pool of ``workers`` local processes (``1``: the calling process, in key order)."""

    def __init__(self, workers: int = 1, warm_up: Callable[[], None] | None = None) -> None:
        if workers < 1:
            raise ClusterError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self._warm_up = warm_up
        self._pool: ProcessPoolExecutor | None = None

    def _open_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                initializer=_start_worker,
                initargs=(os.getpid(), self._warm_up),
            )
        return self._pool

    def run(self, function: Callable[..., R], tasks: Mapping[str, Task]) -> Iterator[tuple[str, R]]:
        if self.workers == 1 or len(tasks) <= 1:
            if self._warm_up is not None:
                self._warm_up()
                self._warm_up = None
            for key, arguments in tasks.items():
                yield key, function(*arguments)
            return
        left = dict(tasks)
        restarts = 0
        while left:
            pool = self._open_pool()
            futures: dict[Future[R], str] = {}
            try:
                # inside the try: a pool whose workers died at start (a failing warm-up) refuses
                # new tasks with the same BrokenProcessPool
                for key, arguments in left.items():
                    futures[pool.submit(function, *arguments)] = key
                pending = set(futures)
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        key = futures[future]
                        result = future.result()
                        del left[key]
                        yield key, result
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start a new pool for what is left.
                restarts += 1
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if restarts > _POOL_RESTARTS:
                    raise ClusterError(
                        f"the local pool lost a worker {restarts} times; {len(left)} tasks left"
                    ) from None
            except BaseException:
                for future in futures:
                    future.cancel()
                raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor(Executor):
    """Tasks on a Dask cluster: an existing scheduler's, or a local one started here.

    Each call of :meth:`run` is a job of its own: its task keys carry a fresh job id (a uuid4)
    beside the task's key, so that two jobs on one scheduler never share a task (the scheduler
    hands a key already known to whoever asks for it, whatever it computes), and each result is
    matched to its task by its future, never by name. Tasks are retried on errors; the scheduler
    itself moves the tasks of a lost worker to the others (up to its ``allowed-failures``).

    Nothing waits without a bound: a scheduler that cannot be reached within ``timeout``
    seconds, one with no worker for ``wait`` seconds (default ``ZERMELO_CLUSTER_WAIT``, else 30),
    a worker that cannot import zermelo (or has another version of it), and a scheduler lost
    during a job each raise one :class:`ClusterError`. The workers of a local cluster end with
    this process, even when it is killed outright (on Linux)."""

    def __init__(
        self,
        spec: ClusterSpec,
        warm_up: Callable[[], None] | None = None,
        *,
        retries: int = 2,
        timeout: float = 30.0,
        wait: float | None = None,
    ) -> None:
        try:
            import dask
            from dask.distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - depends on the environment
            raise ClusterError("--cluster needs Dask: pip install 'zermelo[cluster]'") from None
        self._cluster: DaskObject = None
        self._retries = retries
        self._wait = cluster_wait() if wait is None else wait
        self._where = spec.address or "local"
        _quiet_dask_logs()
        try:
            if spec.kind == "local":
                preload = list(dask.config.get("distributed.worker.preload", None) or [])
                if sys.platform.startswith("linux"):
                    preload.append(_orphan_guard(os.getpid()))
                self._cluster = LocalCluster(
                    n_workers=spec.workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    # this machine only, on a free port (never a clash with another cluster)
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.CRITICAL,
                    preload=preload,
                )
                self.client: DaskObject = Client(self._cluster, timeout=timeout)
            elif spec.kind == "address":
                self.client = Client(spec.address, timeout=timeout)
            else:
                raise ClusterError(f"not a Dask cluster: {spec.describe()}")
        except (OSError, TimeoutError) as error:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler {self._where}: {error}") from None
        try:
            self.workers = self._check_workers()
            if warm_up is not None:
                # Warm the workers there now; one that joins later warms up on its first task,
                # since the task functions cache their state per process.
                self.client.run(warm_up)
        except (OSError, TimeoutError):
            lost = self.client.status != "running"
            self.close()
            if lost:
                raise self._lost() from None
            raise
        except BaseException:
            self.close()
            raise

    def _check_workers(self) -> int:
        """The number of workers, once there is at least one, each able to run zermelo's tasks."""
        try:
            self.client.wait_for_workers(1, timeout=self._wait)
        except (OSError, TimeoutError):
            if self.client.status != "running":
                raise self._lost() from None
            raise self._no_workers() from None
        # A builtin (picklable on any worker) that imports zermelo there, by name.
        found = self.client.run(eval, _PROBE, on_error="return")
        for address, version in sorted(found.items()):
            if isinstance(version, BaseException):
                raise ClusterError(
                    f"the Dask worker {address} cannot import zermelo ({version}): install "
                    f"zermelo {VERSION} in the environment the worker runs in "
                    "(pip install 'zermelo[cluster]'), then start it again"
                )
            if version != VERSION:
                raise ClusterError(
                    f"the Dask worker {address} runs zermelo {version}, this is zermelo "
                    f"{VERSION}: install the same version on every worker"
                )
        return max(1, len(found))

    def _no_workers(self) -> ClusterError:
        where = self._where if self._where != "local" else "ADDRESS"
        return ClusterError(
            f"the Dask scheduler {self._where} has no workers after {self._wait:g} s: start "
            f"some (dask worker {where} --nthreads 1), or set {_WAIT_VARIABLE} to wait longer"
        )

    def _lost(self) -> ClusterError:
        return ClusterError(
            f"lost the connection to the Dask scheduler {self._where}: check that it is "
            "running, then run the same command again"
        )

    def run(self, function: Callable[..., R], tasks: Mapping[str, Task]) -> Iterator[tuple[str, R]]:
        from dask.distributed import CancelledError, KilledWorker

        job = uuid.uuid4().hex
        name = getattr(function, "__qualname__", "task")
        arrived: queue.SimpleQueue[DaskObject] = queue.SimpleQueue()
        futures: dict[DaskObject, str] = {}
        try:
            for key, arguments in tasks.items():
                future = self.client.submit(
                    function, *arguments, key=f"zermelo-{name}-{job}-{key}", pure=False,
                    retries=self._retries,
                )  # fmt: skip
                futures[future] = key
                future.add_done_callback(arrived.put)
            left = len(futures)
            idle_since: float | None = None
            while left:
                try:
                    future = arrived.get(timeout=_POLL)
                except queue.Empty:
                    idle_since = self._still_usable(idle_since)
                    continue
                key = futures[future]
                try:
                    result = future.result()
                except CancelledError:
                    raise self._lost() from None
                except (OSError, TimeoutError):
                    if future.status == "error":
                        raise  # the task's own error
                    raise self._lost() from None  # fetching the result failed
                except KilledWorker:
                    raise ClusterError(
                        f"task {key!r} of {name} ended every Dask worker that ran it; see the "
                        "workers' logs"
                    ) from None
                left -= 1
                yield key, result
        except BaseException:
            # Stopped (Ctrl-C, an error): the unfinished tasks are of no use to anyone.
            with contextlib.suppress(Exception):
                if self.client.status == "running":
                    self.client.cancel(list(futures), force=True)
            raise
        finally:
            for future in futures:
                with contextlib.suppress(Exception):
                    future.release()

    def _still_usable(self, idle_since: float | None) -> float | None:
        """Raise if the scheduler is lost, or has had no worker for the whole wait; return since
        when it has had none (``None``: it has some)."""
        if self.client.status != "running":
            raise self._lost()
        try:
            workers = len(self.client.nthreads())
        except (OSError, TimeoutError):
            raise self._lost() from None
        if workers:
            return None
        now = time.monotonic()
        if idle_since is None:
            return now
        if now - idle_since > self._wait:
            raise self._no_workers()
        return idle_since

    def close(self) -> None:
        """Disconnect; a cluster started here is stopped, its workers killed after a few
        seconds if a task keeps them busy (a compiled search does not stop in the middle)."""
        client = getattr(self, "client", None)
        if client is not None:
            # A scheduler busy or gone: nothing is left to hand back to it.
            with contextlib.suppress(TimeoutError, OSError):
                client.close(timeout=_CLOSE_TIMEOUT)
        if self._cluster is not None:
            cluster, self._cluster = self._cluster, None
            try:
                cluster.close(timeout=_CLOSE_TIMEOUT)
            except Exception:  # a worker that would not stop: kill them all
                for process in _worker_processes(cluster):
                    process.kill()


_PROBE = "__import__('zermelo').__version__"
"""What each worker evaluates before a job: zermelo's version there, or why it cannot import it."""


def cluster_wait(environ: Mapping[str, str] | None = None) -> float:
    """How long to wait for a Dask worker (seconds): ``ZERMELO_CLUSTER_WAIT``, default 30."""
    text = (os.environ if environ is None else environ).get(_WAIT_VARIABLE, "").strip()
    if not text:
        return _DEFAULT_WAIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0.1 <= seconds <= 86400:  # NaN fails too
        raise ClusterError(
            f"{_WAIT_VARIABLE}={text!r}: expected seconds to wait for a Dask worker, "
            "from 0.1 to 86400"
        )
    return seconds


def _quiet_dask_logs() -> None:
    """Keep Dask's own log lines (a lost connection logs tracebacks) off this process's stderr:
    what went wrong reaches the user as one :class:`ClusterError`."""
    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL + 1)


def _orphan_guard(parent: int) -> str:
    """A Dask worker preload (Python source, so that it needs no zermelo there) that ends the
    worker process when ``parent`` does.

    A local cluster's worker processes are children of this process (their nannies run in it),
    and while a task runs they do not notice that it is gone: a client killed outright would
    leave them computing for minutes. The kernel sends them SIGKILL instead; a parent that ended
    before the request took hold ends them at once."""
    return (
        "import ctypes, os, signal\n"
        "try:\n"
        f"    ctypes.CDLL(None, use_errno=True).prctl({_PR_SET_PDEATHSIG}, "
        "int(signal.SIGKILL), 0, 0, 0)\n"
        "except (OSError, AttributeError):\n"
        "    pass\n"
        f"if os.getppid() != {parent}:\n"
        "    os._exit(1)\n"
    )


def _worker_processes(cluster: DaskObject) -> list[DaskObject]:
    """The operating-system processes of a local cluster's workers (best effort)."""
    found = []
    for nanny in getattr(cluster, "workers", {}).values():
        process = getattr(getattr(nanny, "process", None), "process", None)
        inner = getattr(process, "_process", None)
        if inner is not None:
            found.append(inner)
    return found


def open_executor(
    cluster: str | ClusterSpec | None = None,
    jobs: int | None = None,
    warm_up: Callable[[], None] | None = None,
) -> Executor:
    """The executor for a ``--cluster`` value (see :func:`parse_cluster`)."""
    spec = cluster if isinstance(cluster, ClusterSpec) else parse_cluster(cluster, jobs)
    if spec.kind == "pool":
        return LocalExecutor(spec.workers or 1, warm_up)
    return DaskExecutor(spec, warm_up)


class ResultStore:
    """Results of a job by key, one JSON line each (``{"key": ..., "value": ...}``).

    Each :meth:`add` is written and flushed before it returns, so a job killed at any moment
    loses at most the result being written; a torn last line is ignored when the file is read
    back (and overwritten by the next result). ``meta`` (for example the job's parameters) is the
    first line: a store written by a different job is refused instead of mixed in."""

    def __init__(self, path: Path, meta: Mapping[str, object] | None = None) -> None:
        self.path = path
        self.meta = dict(meta or {})
        self.results: dict[str, object] = {}
        self._load()

    def _load(self) -> None:
        try:
            self._read()
        except OSError as error:
            raise ZermeloError(
                f"cannot use {self.path} for results: {error.strerror or error}"
            ) from None

    def _start(self) -> None:
        """Begin the file afresh: the meta line alone."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps({"meta": self.meta}, sort_keys=True) + "\n")

    def _read(self) -> None:
        if not self.path.exists():
            self._start()
            return
        with self.path.open("rb") as handle:
            raw = handle.read()
        if not raw.strip() or (b"\n" not in raw and raw.startswith(b'{"meta"')):
            # Nothing yet (an empty file made beforehand, or a job killed while writing its
            # first line): a fresh job. Anything else that is not ours is refused below.
            self._start()
            return
        good = 0
        first = True
        lines = raw.split(b"\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                good += len(line) + 1
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                if not first and number >= len(lines) - 1:
                    break  # a torn last line: the job stopped while writing it
                raise ZermeloError(
                    f"{self.path}: line {number} is not JSON: {line[:60]!r}; expected a "
                    "results file of zermelo (choose another file or delete it)"
                ) from None
            if first:
                first = False
                if not isinstance(entry, dict) or entry.get("meta") != self.meta:
                    held = entry.get("meta") if isinstance(entry, dict) else entry
                    raise ZermeloError(
                        f"{self.path} holds another job's results ({held!r}, "
                        f"expected {self.meta!r}): choose another file or delete it"
                    )
            elif isinstance(entry, dict) and "key" in entry:
                self.results.setdefault(str(entry["key"]), entry.get("value"))
            good += len(line) + 1
        if good < len(raw):
            with self.path.open("r+b") as handle:
                handle.truncate(good)

    def __contains__(self, key: object) -> bool:
        return key in self.results

    def __len__(self) -> int:
        return len(self.results)

    def add(self, key: str, value: object) -> None:
        """Store ``value`` for ``key`` (a key already stored is left as it was)."""
        if key in self.results:
            return
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key, "value": value}, sort_keys=True) + "\n")
            handle.flush()
        self.results[key] = value


def run_job(
    executor: Executor,
    function: Callable[..., R],
    tasks: Mapping[str, Task],
    *,
    store: ResultStore | None = None,
    on_result: Callable[[str, R, int, int], None] | None = None,
    encode: Callable[[R], object] | None = None,
    decode: Callable[[object], R] | None = None,
) -> dict[str, R]:
    """Run ``function(*tasks[key])`` for every key not in ``store``; return every result by key,
    in the order of ``tasks``.

    ``on_result(key, result, done, total)`` hears of each new result as it arrives (``done``
    counts the stored ones too). ``encode`` turns a result into what the store keeps (JSON),
    ``decode`` turns it back."""
    results: dict[str, R] = {}
    if store is not None:
        for key in tasks:
            if key in store:
                value = store.results[key]
                # Without decode the results are stored as they are (JSON values): the store,
                # checked against this job's meta, holds this job's results.
                results[key] = decode(value) if decode is not None else cast(R, value)
    pending = {key: arguments for key, arguments in tasks.items() if key not in results}
    total = len(tasks)
    try:
        for key, result in executor.run(function, pending):
            if key in results:
                continue  # a task run twice (a retried worker): count it once
            results[key] = result
            if store is not None:
                store.add(key, encode(result) if encode is not None else result)
            if on_result is not None:
                on_result(key, result, len(results), total)
    except ClusterError as error:
        if store is None:
            raise
        raise ClusterError(
            f"{error} ({len(results)} of {total} results are kept in {store.path}, and a "
            "rerun does not redo them)"
        ) from None
    missing = [key for key in tasks if key not in results]
    if missing:
        raise ClusterError(f"{len(missing)} tasks never finished, the first {missing[0]!r}")
    return {key: results[key] for key in tasks}
