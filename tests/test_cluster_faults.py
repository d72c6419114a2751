"""Dask cluster jobs as users and real clusters break them (issue 22), each on real processes.

Schedulers and workers are ``dask scheduler`` / ``dask worker`` processes on 127.0.0.1 with free
ports, or a ``local:N`` cluster of worker processes; every wait is bounded.

- two jobs at once on one scheduler each get their own results (job-scoped task keys);
- a scheduler killed during a job gives one line and keeps the stored results;
- a scheduler with no worker, or whose worker cannot import zermelo, gives one line, not a hang;
- an empty ``--resume`` file is a fresh job;
- a local cluster listens on 127.0.0.1 only, and its workers end with a client killed outright.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zermelo
from conftest import english_env, run_cli
from zermelo.core.errors import ZermeloError
from zermelo.parallel import (
    ClusterError,
    DaskExecutor,
    ResultStore,
    cluster_wait,
    parse_cluster,
    run_job,
)
from zermelo.solvers.connect4.api import solve_texts

SRC = Path(zermelo.__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data" / "connect4"
DASK = Path(sys.executable).parent / "dask"


def benchmark_set(name: str, count: int) -> tuple[list[str], list[int]]:
    """The first ``count`` positions of a benchmark set and their scores."""
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [moves for moves, _ in rows[:count]], [int(score) for _, score in rows[:count]]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Scheduler:
    """A ``dask scheduler`` process on 127.0.0.1 and the ``dask worker`` processes given it."""

    def __init__(self, logs: Path) -> None:
        if not DASK.exists():
            pytest.fail(f"{DASK} not found: install the test extra (pip install -e '.[test]')")
        self.logs = logs
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.process = self._start(
            "scheduler",
            ["scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
             "--no-dashboard"],
        )  # fmt: skip
        self.workers: list[subprocess.Popen[bytes]] = []
        self._wait(lambda client: True)

    def _start(self, name: str, arguments: list[str], **options: Any) -> subprocess.Popen[bytes]:
        options.setdefault("env", english_env())
        return subprocess.Popen(
            [str(DASK), *arguments],
            stdout=subprocess.DEVNULL,
            stderr=(self.logs / f"{name}.log").open("wb"),
            **options,
        )

    def add_worker(self, count: int = 1, **options: Any) -> None:
        """Start ``count`` workers (no nanny: a killed one stays dead) and wait for them."""
        before = len(self.workers)
        for number in range(before, before + count):
            self.workers.append(
                self._start(
                    f"worker{number}",
                    ["worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                     "--host", "127.0.0.1", *options.pop("extra", [])],
                    **options,
                )
            )  # fmt: skip
        self._wait(lambda client: len(client.nthreads()) >= before + count)

    def _wait(self, ready: Any) -> None:
        from dask.distributed import Client

        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with Client(self.address, timeout=5) as client:
                    if ready(client):
                        return
            except OSError:
                pass
            time.sleep(0.3)
        pytest.fail(f"the cluster did not start; see {self.logs}")

    def tasks(self) -> int:
        """How many tasks the scheduler holds now."""
        from dask.distributed import Client

        with Client(self.address, timeout=10) as client:
            # a lambda: pickled by value, since the scheduler cannot import this module
            return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))

    def stop(self) -> None:
        for process in [*self.workers, self.process]:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[Scheduler]:
    logs = tmp_path / "dask"
    logs.mkdir()
    started = Scheduler(logs)
    try:
        yield started
    finally:
        started.stop()


def _table(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "%" in line]


# -- 1. two jobs on one scheduler -----------------------------------------------------------------


def test_two_concurrent_solves_on_one_scheduler_each_get_their_own_scores(
    scheduler: Scheduler,
) -> None:
    # Job A holds its tasks (the first has finished, the others wait for their turn) while job B
    # runs through the same scheduler with the same function and the same task keys.
    scheduler.add_worker(2)
    hard, hard_scores = benchmark_set("Test_L1_R2", 6)
    easy, easy_scores = benchmark_set("Test_L2_R2", 24)
    tasks_a = {f"{i // 2:04d}": (hard[i : i + 2],) for i in range(0, len(hard), 2)}
    tasks_b = {f"{i // 8:04d}": (easy[i : i + 8],) for i in range(0, len(easy), 8)}
    assert tasks_a.keys() == tasks_b.keys()
    spec = parse_cluster(scheduler.address)
    with DaskExecutor(spec, wait=60) as first, DaskExecutor(spec, wait=60) as second:
        job_a = first.run(solve_texts, tasks_a)
        got_a = dict([next(job_a)])
        got_b = dict(second.run(solve_texts, tasks_b))
        got_a.update(job_a)
    assert [s for key in tasks_a for s in got_a[key]] == hard_scores
    assert [s for key in tasks_b for s in got_b[key]] == easy_scores


def test_two_concurrent_arenas_on_one_scheduler_print_their_own_standings(
    scheduler: Scheduler, tmp_path: Path
) -> None:
    scheduler.add_worker(2)
    slow_args = ("arena", "connect4", "--agents", "mcts:iterations=1500", "medium",
                 "--games", "4", "--seed", "1", "--openings", "none")  # fmt: skip
    fast_args = ("arena", "tictactoe", "--agents", "random", "easy", "--games", "4", "--seed", "2")
    out = (tmp_path / "slow.out").open("w")
    slow = subprocess.Popen(
        [sys.executable, "-m", "zermelo", *slow_args, "--cluster", scheduler.address],
        stdout=out, stderr=subprocess.STDOUT, text=True, env=english_env(),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while scheduler.tasks() < 4 and slow.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert slow.poll() is None, (tmp_path / "slow.out").read_text()
        fast = run_cli(*fast_args, "--cluster", scheduler.address, timeout=300)
        assert slow.wait(timeout=300) == 0, (tmp_path / "slow.out").read_text()
    finally:
        if slow.poll() is None:
            slow.kill()
    assert fast.returncode == 0, fast.stderr
    assert "Standings: tictactoe" in fast.stdout
    assert _table(fast.stdout) == _table(run_cli(*fast_args, "--jobs", "1").stdout)
    assert "mcts" not in fast.stdout
    slow_text = (tmp_path / "slow.out").read_text()
    assert "Standings: connect4" in slow_text and "mcts:iterations=1500 │     4" in slow_text


# -- 2. a scheduler lost during a job --------------------------------------------------------------


def _error_lines(stderr: str) -> list[str]:
    """What a command said on stderr beyond its progress bar."""
    return [
        line
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(("Games", "solving"))
    ]


@pytest.mark.parametrize("command", ["arena", "solve"])
def test_a_scheduler_killed_during_a_job_gives_one_line_and_keeps_the_results(
    scheduler: Scheduler, tmp_path: Path, command: str
) -> None:
    scheduler.add_worker(1)
    store = tmp_path / "results.jsonl"
    if command == "arena":
        args = ["arena", "connect4", "--agents", "mcts:iterations=800", "medium", "--games", "8",
                "--seed", "5", "--openings", "none"]  # fmt: skip
        stdin = None
    else:
        args = ["solve", "connect4"]
        # four tasks of 256 positions (the command's), each of seconds: 24 openings each
        hard, _ = benchmark_set("Test_L1_R2", 96)
        easy = [t for name in ("Test_L2_R2", "Test_L2_R1", "Test_L3_R1")
                for t in benchmark_set(name, 400)[0]][:928]  # fmt: skip
        texts = [
            t for c in range(4) for t in hard[c * 24 : c * 24 + 24] + easy[c * 232 : c * 232 + 232]
        ]
        assert len(texts) == 1024
        stdin = "\n".join(texts) + "\n"
    err = tmp_path / "stderr"
    with err.open("w") as stderr:
        job = subprocess.Popen(
            [sys.executable, "-m", "zermelo", *args, "--cluster", scheduler.address,
             "--resume", str(store)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr, text=True,
            env=english_env(),
        )  # fmt: skip
    assert job.stdin is not None
    if stdin:
        job.stdin.write(stdin)
    job.stdin.close()
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and job.poll() is None:
            if store.exists() and len(store.read_text().splitlines()) >= 2:
                break
            time.sleep(0.1)
        assert job.poll() is None, err.read_text()
        scheduler.process.kill()
        killed = time.monotonic()
        job.wait(timeout=90)
        waited = time.monotonic() - killed
    finally:
        if job.poll() is None:
            job.kill()
    said = _error_lines(err.read_text())
    assert job.returncode == 2, said
    assert len(said) == 1, said
    assert said[0].startswith(
        f"zermelo: error: lost the connection to the Dask scheduler {scheduler.address}"
    )
    assert waited < 60
    lines = store.read_text().splitlines()
    kept = [json.loads(line)["key"] for line in lines[1:]]
    assert kept and len(kept) == len(set(kept))
    assert f"{len(kept)} of " in said[0] and str(store) in said[0]
    # the same command without the lost cluster does only the rest
    again = run_cli(*args, "--resume", str(store), stdin=stdin or "", timeout=600)
    assert again.returncode == 0, again.stderr
    keys = [json.loads(line)["key"] for line in store.read_text().splitlines()[1:]]
    assert keys[: len(kept)] == kept and len(keys) == len(set(keys)) == (
        8 if command == "arena" else 4
    )


# -- 3. a scheduler with no worker, or none that can run zermelo -----------------------------------


def test_a_scheduler_without_workers_gives_one_line_within_the_wait(scheduler: Scheduler) -> None:
    started = time.monotonic()
    done = run_cli("solve", "connect4", "4", "44", "--cluster", scheduler.address,
                   env={"ZERMELO_CLUSTER_WAIT": "3"}, timeout=90)  # fmt: skip
    assert time.monotonic() - started < 80
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"zermelo: error: the Dask scheduler {scheduler.address} has no workers after 3 s: "
        f"start some (dask worker {scheduler.address} --nthreads 1), or set "
        "ZERMELO_CLUSTER_WAIT to wait longer"
    ]


_HIDE_ZERMELO = "import sys; sys.modules['zermelo'] = None"
"""A worker preload: zermelo cannot be imported there, as in an environment without it."""


def test_a_worker_that_cannot_import_zermelo_gives_one_line(
    scheduler: Scheduler, tmp_path: Path
) -> None:
    environment = english_env()
    environment["PYTHONPATH"] = ""  # nor does the worker see this checkout's src
    scheduler.add_worker(1, extra=["--preload", _HIDE_ZERMELO], env=environment, cwd=tmp_path)
    for args in (
        ("arena", "tictactoe", "--agents", "random", "easy", "--games", "2"),
        ("solve", "connect4", "4"),
    ):
        done = run_cli(*args, "--cluster", scheduler.address, timeout=90)
        said = _error_lines(done.stderr)
        assert done.returncode == 2 and len(said) == 1, done.stderr
        assert said[0].startswith("zermelo: error: the Dask worker tcp://127.0.0.1:")
        assert "cannot import zermelo" in said[0]
        assert f"install zermelo {zermelo.__version__}" in said[0]


def test_a_worker_with_another_zermelo_gives_one_line(scheduler: Scheduler) -> None:
    scheduler.add_worker(1, extra=["--preload", "import zermelo; zermelo.__version__ = '0.0.1'"])
    done = run_cli("solve", "connect4", "4", "--cluster", scheduler.address, timeout=90)
    said = _error_lines(done.stderr)
    assert done.returncode == 2 and len(said) == 1, done.stderr
    assert said[0].startswith("zermelo: error: the Dask worker tcp://127.0.0.1:")
    assert f"runs zermelo 0.0.1, this is zermelo {zermelo.__version__}" in said[0]


def test_a_job_whose_workers_all_leave_ends_with_one_error(scheduler: Scheduler) -> None:
    scheduler.add_worker(1)
    failure: list[BaseException] = []

    def job() -> None:
        try:
            with DaskExecutor(parse_cluster(scheduler.address), wait=3) as executor:
                run_job(executor, time.sleep, {str(n): (0.5,) for n in range(40)})
        except BaseException as error:  # handed to the test
            failure.append(error)

    runner = threading.Thread(target=job, daemon=True)
    runner.start()
    time.sleep(4)
    scheduler.workers[0].kill()
    runner.join(timeout=90)
    assert not runner.is_alive(), "the job waited on after its last worker left"
    assert len(failure) == 1 and isinstance(failure[0], ClusterError)
    assert "has no workers after 3 s" in str(failure[0])


@given(st.text(max_size=20))
@settings(max_examples=100, deadline=None)
def test_any_wait_value_is_seconds_or_one_clear_error(text: str) -> None:
    try:
        seconds = cluster_wait({"ZERMELO_CLUSTER_WAIT": text})
    except ClusterError as error:
        assert repr(text.strip()) in str(error) and "from 0.1 to 86400" in str(error)
    else:
        assert 0.1 <= seconds <= 86400 and not math.isnan(seconds)
        assert seconds == (float(text) if text.strip() else 30.0)


# -- 4. an empty --resume file ----------------------------------------------------------------------


def test_an_empty_resume_file_is_a_fresh_job(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    store = ResultStore(path, {"job": "t"})
    store.add("a", 1)
    again = ResultStore(path, {"job": "t"})
    assert again.results == {"a": 1}
    # a job killed while writing its first line left only part of it
    path.write_text('{"meta": {"jo')
    assert ResultStore(path, {"job": "t"}).results == {}
    assert ResultStore(path, {"job": "t"}).results == {}


def test_an_empty_resume_file_works_on_the_command_line_twice(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    runs = [run_cli("solve", "connect4", "4", "44", "--resume", str(path)) for _ in range(2)]
    for run in runs:
        assert (run.returncode, run.stdout, run.stderr) == (0, "4 -1\n44 1\n", "")
    assert len(path.read_text().splitlines()) == 2


def test_a_file_that_is_not_a_results_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    for text in ("4444", "abc", "some notes\nmore\n", '{"a": 1}\n'):
        path = tmp_path / "notes.txt"
        path.write_text(text)
        with pytest.raises(ZermeloError, match=r"notes\.txt"):
            ResultStore(path, {"job": "t"})
        assert path.read_text() == text
    with pytest.raises(ZermeloError, match="cannot use"):
        ResultStore(tmp_path, {"job": "t"})  # a directory


@given(st.binary(max_size=200))
@settings(max_examples=300, deadline=None)
def test_any_resume_file_is_read_or_refused_with_one_error(
    tmp_path_factory: Any, raw: bytes
) -> None:
    path = tmp_path_factory.mktemp("store") / "any.jsonl"
    path.write_bytes(raw)
    meta = {"job": "t"}
    try:
        store = ResultStore(path, meta)
    except ZermeloError:
        assert path.read_bytes() == raw  # refused: left as it was
        return
    store.add("new", 1)
    assert ResultStore(path, meta).results["new"] == 1


# -- 5 and 6. a local cluster -----------------------------------------------------------------------


def test_a_local_cluster_listens_on_this_machine_only() -> None:
    import psutil

    with DaskExecutor(parse_cluster("local:1")) as executor:
        assert executor.workers == 1
        me = psutil.Process()
        listening = [
            (process.pid, connection.laddr.ip)
            for process in [me, *me.children(recursive=True)]
            for connection in process.net_connections(kind="inet")
            if connection.status == psutil.CONN_LISTEN
        ]
    assert len(listening) >= 2  # the scheduler's and the worker's at least
    assert {ip for _, ip in listening} == {"127.0.0.1"}, listening


_CLIENT_SCRIPT = """
import os, sys, time
from zermelo.parallel import DaskExecutor, parse_cluster

def busy(count):
    # one call into C that never lets go of the GIL, as a compiled search may not: the worker's
    # own threads cannot notice anything until it returns
    return sum(range(count))

if __name__ == "__main__":
    executor = DaskExecutor(parse_cluster("local:2"))
    print(*sorted(executor.client.run(os.getpid).values()), flush=True)
    list(executor.run(busy, {"a": (1 << 40,), "b": (1 << 40,)}))
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"
)
def test_the_workers_of_a_local_cluster_end_with_a_killed_client(tmp_path: Path) -> None:
    script = tmp_path / "client.py"
    script.write_text(_CLIENT_SCRIPT)
    client = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=english_env(), start_new_session=True,
    )  # fmt: skip
    try:
        assert client.stdout is not None
        pids = [int(pid) for pid in client.stdout.readline().split()]
        assert len(pids) == 2, pids
        time.sleep(2)  # the tasks are running
        client.kill()
        client.wait(timeout=30)
        deadline = time.monotonic() + 10
        alive = pids
        while alive and time.monotonic() < deadline:
            alive = [pid for pid in alive if _running(pid)]
            time.sleep(0.1)
        assert alive == [], f"workers {alive} outlived their client"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(client.pid, signal.SIGKILL)  # the client's session: its workers too


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1]
    except (OSError, IndexError):
        return False
    return not state.startswith("Z")
