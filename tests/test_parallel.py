"""The executor (zermelo.parallel): local pool, a real Dask cluster on 127.0.0.1, resumable jobs.

The cluster is a ``dask scheduler`` and two ``dask worker`` processes started as separate
processes (workers without a nanny, so that killing one loses it for good). Through it run a
small arena, a small book build (5x4 board) and a batch solve, each compared with the same job
run locally; then a worker is killed in the middle of a job, which still completes with the same
results, each stored once.
"""

from __future__ import annotations

import ast
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import zermelo
from conftest import english_env, run_cli
from zermelo.agents.spec import parse_agent
from zermelo.core.errors import ZermeloError
from zermelo.games.connect4 import Connect4State
from zermelo.parallel import (
    ClusterError,
    DaskExecutor,
    LocalExecutor,
    ResultStore,
    parse_cluster,
    run_job,
)
from zermelo.play.tournament import round_robin, run_tasks, tournament_meta
from zermelo.solvers.connect4 import Connect4Solver, solve_chunks
from zermelo.solvers.connect4.api import solve_texts
from zermelo.solvers.connect4.book import read_best, read_book
from zermelo.solvers.connect4.builder import (
    back_up_best,
    best_columns,
    best_meta,
    best_tasks,
    build_book,
    deepest_tasks,
    positions_at,
)

PACKAGE = Path(zermelo.__file__).resolve().parent


def positions(count: int, seed: int, plies: tuple[int, int] = (18, 30)) -> list[str]:
    """Running 7x6 positions from seeded random games, ``plies`` stones each."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state = Connect4State.initial()
        target = rng.randint(*plies)
        while state.ply < target and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state.notation())
    return found


def chunked(texts: list[str], size: int) -> dict[str, tuple[Any, ...]]:
    return {f"{i:04d}": (texts[i : i + size],) for i in range(0, len(texts), size)}


def direct_scores(texts: list[str]) -> list[int]:
    solver = Connect4Solver(book=False, table_bits=18)
    return [solver.score(text) for text in texts]


# -- parsing --------------------------------------------------------------------------------------


def test_cluster_values() -> None:
    assert parse_cluster(None, 3).kind == "pool" and parse_cluster(None, 3).workers == 3
    assert parse_cluster("local:2").workers == 2 and parse_cluster("local").kind == "local"
    assert parse_cluster("tcp://10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    assert parse_cluster("scheduler.example:8786").address == "tcp://scheduler.example:8786"
    for bad in ("", "local:0", "local:x", "remote", "tcp://host", "local:99999"):
        with pytest.raises(ClusterError, match="--cluster"):
            parse_cluster(bad)


@given(st.text(max_size=40))
def test_any_cluster_value_is_a_spec_or_one_clear_error(text: str) -> None:
    try:
        spec = parse_cluster(text)
    except ClusterError as error:
        assert repr(text) in str(error)
    else:
        assert spec.kind in ("local", "address")


def test_only_the_executor_imports_dask() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "parallel.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] in ("dask", "distributed") for n in names), path


# -- batch solving ---------------------------------------------------------------------------------


def test_solve_many_equals_solving_one_by_one() -> None:
    texts = [*positions(40, seed=3), "", "4", "1212121", "2252576253462244111563365343671351441"]
    batch = Connect4Solver(table_bits=18).solve_many(texts, best_moves=True)
    single = Connect4Solver(table_bits=18)
    for text, result in zip(texts, batch, strict=True):
        alone = single.solve(text)
        assert (result.value, result.moves, result.pv, result.reason, result.depth) == (
            alone.value, alone.moves, alone.pv, alone.reason, alone.depth,
        )  # fmt: skip


def test_solve_chunks_numbers_lines_and_reports_bad_ones() -> None:
    chunks = [
        ["2252576253462244111563365343671351441", "", "# comment", "9"],
        ["44 extra", "12121212"],
    ]
    outcomes = list(solve_chunks(chunks, solver=Connect4Solver(table_bits=16)))
    assert [(o.line_number, o.text, o.ok) for o in outcomes] == [
        (1, "2252576253462244111563365343671351441", True), (4, "9", False), (5, "44", True),
        (6, "12121212", False),
    ]  # fmt: skip
    assert outcomes[0].result is not None and outcomes[0].score == -1
    assert outcomes[2].result is not None and outcomes[2].result.reason == "book"
    assert "'9'" in str(outcomes[1].error)


# -- resumable jobs and the local pool --------------------------------------------------------------


def test_a_stopped_job_resumes_without_redoing_or_double_counting(tmp_path: Path) -> None:
    texts = positions(60, seed=5)
    tasks = chunked(texts, 6)
    path = tmp_path / "job.jsonl"
    heard: list[str] = []

    def stop_after_four(key: str, value: Any, done: int, total: int) -> None:
        heard.append(key)
        if len(heard) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_job(LocalExecutor(1), solve_texts, tasks, store=ResultStore(path, {"job": "t"}),
                on_result=stop_after_four)  # fmt: skip
    with path.open("a") as handle:
        handle.write('{"key": "00')  # a torn last line, as a kill while writing leaves it
    again: list[str] = []
    store = ResultStore(path, {"job": "t"})
    assert len(store) == 4
    results = run_job(LocalExecutor(1), solve_texts, tasks, store=store,
                      on_result=lambda k, v, d, t: again.append(k))  # fmt: skip
    assert sorted(again) == sorted(set(tasks) - set(heard))
    assert [s for key in tasks for s in results[key]] == direct_scores(texts)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + len(tasks)  # the meta line, then every key once
    with pytest.raises(ZermeloError, match="another job"):
        ResultStore(path, {"job": "other"})


def _die_once(marker: str, value: int) -> int:
    """Square ``value``; the first call in a process with no ``marker`` file kills its process."""
    if not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(3)
    return value * value


def test_the_local_pool_survives_a_dead_worker(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    tasks = {str(i): (marker, i) for i in range(12)}
    with LocalExecutor(2) as pool:
        results = run_job(pool, _die_once, tasks)
    assert results == {str(i): i * i for i in range(12)}


# -- the command line ------------------------------------------------------------------------------


def test_solve_on_a_cluster_resumes_and_equals_the_local_run(tmp_path: Path) -> None:
    texts = positions(30, seed=17)
    stdin = "\n".join([*texts[:10], "8x", *texts[10:]]) + "\n"
    local = run_cli("solve", "connect4", "--best", stdin=stdin)
    assert local.returncode == 1 and "line 11: invalid position '8x'" in local.stderr
    assert [line.split()[1] for line in local.stdout.splitlines()] == [
        str(score) for score in direct_scores(texts)
    ]
    store = tmp_path / "solve.jsonl"
    first = run_cli("solve", "connect4", "--best", "--resume", str(store), stdin=stdin)
    assert (first.stdout, first.returncode) == (local.stdout, 1)
    again = run_cli("solve", "connect4", "--best", "--resume", str(store), stdin=stdin)
    assert again.stdout == local.stdout and len(store.read_text().splitlines()) == 2
    other = run_cli("solve", "connect4", "--resume", str(store), stdin=stdin)
    assert other.returncode == 2 and "another job" in other.stderr
    assert "Traceback" not in other.stderr


def test_bad_cluster_options_get_one_line() -> None:
    bad = run_cli("solve", "connect4", "4", "--cluster", "somewhere")
    assert bad.returncode == 2 and "--cluster 'somewhere': expected 'local'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    stats = run_cli("solve", "connect4", "4", "--stats", "--cluster", "local")
    assert stats.returncode == 2 and "leave out --cluster" in stats.stderr
    arena = run_cli("arena", "tictactoe", "--agents", "random", "random", "--cluster", "x:y")
    assert arena.returncode == 2 and "Traceback" not in arena.stderr


def test_arena_resumes_from_its_file(tmp_path: Path) -> None:
    store = tmp_path / "arena.jsonl"
    args = ("arena", "tictactoe", "--agents", "random", "medium", "--games", "4", "--seed", "3")
    plain = run_cli(*args, "--jobs", "1")
    first = run_cli(*args, "--resume", str(store))
    again = run_cli(*args, "--resume", str(store))
    table = [line for line in plain.stdout.splitlines() if "%" in line]
    assert table and [line for line in first.stdout.splitlines() if "%" in line] == table
    assert [line for line in again.stdout.splitlines() if "%" in line] == table
    assert len(store.read_text().splitlines()) == 5


# -- a real cluster on 127.0.0.1 --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    def __init__(self, address: str, processes: list[subprocess.Popen[bytes]]) -> None:
        self.address = address
        self.scheduler = processes[0]
        self.workers = processes[1:]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        pytest.fail(f"{dask} not found: install the test extra (pip install -e '.[test]')")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask")
    env = english_env()
    processes = [
        subprocess.Popen(
            [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=(logs / "scheduler.log").open("wb"),
            env=env,
        )
    ]
    for number in range(2):
        processes.append(
            subprocess.Popen(
                [
                    str(dask),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                    "--name",
                    f"w{number}",
                ],
                stdout=subprocess.DEVNULL,
                stderr=(logs / f"worker{number}.log").open("wb"),
                env=env,
            )
        )
    try:
        from dask.distributed import Client

        deadline = time.monotonic() + 60
        client = None
        while time.monotonic() < deadline:
            try:
                client = client or Client(address, timeout=5)
                if len(client.scheduler_info()["workers"]) == 2:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            pytest.fail(f"the cluster did not start; see {logs}")
        assert client is not None
        client.close()
        yield Cluster(address, processes)
    finally:
        for process in processes:
            process.kill()
            process.wait(timeout=10)


def test_batch_solve_on_the_cluster(cluster: Cluster) -> None:
    texts = positions(80, seed=7)
    tasks = chunked(texts, 10)
    with DaskExecutor(parse_cluster(cluster.address)) as executor:
        assert executor.workers == 2
        remote = run_job(executor, solve_texts, tasks)
    local = run_job(LocalExecutor(1), solve_texts, tasks)
    assert remote == local
    assert [s for key in tasks for s in remote[key]] == direct_scores(texts)


def test_book_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    with DaskExecutor(parse_cluster(cluster.address)) as executor:
        remote = build_book(3, 5, 4, executor=executor, table_bits=16,
                            store=ResultStore(tmp_path / "book.jsonl", {"job": "b"}))  # fmt: skip
        tasks = best_tasks(deepest_tasks(3, 5, 4, 16), remote)
        found = run_job(executor, best_columns, tasks,
                        store=ResultStore(tmp_path / "best.jsonl", best_meta(3, 5, 4)))  # fmt: skip
    assert remote == build_book(3, 5, 4, table_bits=16)
    assert found == run_job(LocalExecutor(1), best_columns, tasks)
    best = back_up_best(3, remote, {int(key): mask for key, mask in found.items()}, 5, 4)
    solver = Connect4Solver(5, 4, book=False, table_bits=16)
    for ply in range(4):
        for state in positions_at(ply, 5, 4):
            code = min(state.current + state.mask, solver.kernel.mirror(
                state.current + state.mask, 5, 4))  # fmt: skip
            assert remote[code] == solver.score(state), state.notation()
            flip = code != state.current + state.mask
            scores = solver.analyze(state)
            assert [bool(best[code] >> (4 - c if flip else c) & 1) for c in range(5)] == [
                score == remote[code] for score in scores
            ], state.notation()


def test_arena_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    tasks = round_robin(
        "connect4", [parse_agent("medium"), parse_agent("mcts:iterations=60")], 4, seed=11
    )
    store = ResultStore(tmp_path / "arena.jsonl", tournament_meta(tasks))
    with DaskExecutor(parse_cluster(cluster.address)) as executor:
        remote = run_tasks(tasks, executor=executor, store=store)
    local = run_tasks(tasks, jobs=1)

    def game(record: Any) -> tuple[Any, ...]:
        return (record.index, record.players, record.moves, record.result, record.seed)

    assert [game(r) for r in remote] == [game(r) for r in local]
    resumed = run_tasks(tasks, executor=LocalExecutor(1), store=ResultStore(store.path, store.meta))
    assert [game(r) for r in resumed] == [game(r) for r in local]


def test_self_play_on_the_cluster(cluster: Cluster) -> None:
    from zermelo.solvers.gomoku_tuning import self_play

    with DaskExecutor(parse_cluster(cluster.address)) as executor:
        x, y = self_play(3, seed=4, nodes_per_move=40, executor=executor)
    local_x, local_y = self_play(3, seed=4, nodes_per_move=40)
    assert len(y) > 0 and (x == local_x).all() and (y == local_y).all()


def test_a_lost_worker_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    """Runs last: it kills one of the two workers."""
    texts = positions(40, seed=13, plies=(10, 16))
    tasks = chunked(texts, 2)
    path = tmp_path / "solve.jsonl"
    killed: list[int] = []

    def kill_one(key: str, value: Any, done: int, total: int) -> None:
        if done == 3 and not killed:
            cluster.workers[0].kill()
            killed.append(done)

    with DaskExecutor(parse_cluster(cluster.address)) as executor:
        remote = run_job(executor, solve_texts, tasks, store=ResultStore(path, {"job": "s"}),
                         on_result=kill_one)  # fmt: skip
    assert killed and cluster.workers[0].wait(timeout=10) is not None
    assert remote == run_job(LocalExecutor(1), solve_texts, tasks)
    keys = [line for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(tasks) == len(set(keys))


# -- the ahead-of-time kernel -----------------------------------------------------------------------


@pytest.mark.slow
def test_the_ahead_of_time_kernel_is_the_same_kernel_without_numba(tmp_path: Path) -> None:
    """Build the extension into an empty cache, then solve with it in a process that never
    imports numba: same scores as the file's (and so as the numba kernel's)."""
    env = english_env({"ZERMELO_CACHE_DIR": str(tmp_path), "ZERMELO_NO_AOT": "1"})
    build = subprocess.run(
        [sys.executable, "-c", "from zermelo.solvers.connect4 import aot, kernel; print(aot.build(kernel))"],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    texts = positions(30, seed=19)
    check = (
        "import sys\n"
        "from zermelo.solvers.connect4 import kernel, Connect4Solver\n"
        "assert kernel.AHEAD_OF_TIME and 'numba' not in sys.modules\n"
        "solver = Connect4Solver(book=False, table_bits=18)\n"
        "print(' '.join(str(solver.score(t)) for t in sys.argv[1:]))\n"
        "assert 'numba' not in sys.modules\n"
    )
    env["ZERMELO_NO_AOT"] = "0"
    run = subprocess.run(
        [sys.executable, "-c", check, *texts],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(s) for s in direct_scores(texts)]


def test_a_failed_or_disabled_ahead_of_time_build_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zermelo.solvers.connect4 import aot

    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ZERMELO_NO_AOT", "1")
    assert aot.load() is None and not aot.build_in_background()
    monkeypatch.setenv("ZERMELO_NO_AOT", "0")
    aot.module_path().with_suffix(".failed").write_text("no compiler")
    assert aot.load() is None and not aot.build_in_background()
    assert sorted(p.name for p in tmp_path.iterdir()) == [aot.module_path().stem + ".failed"]


def test_the_ahead_of_time_kernel_targets_x86_64_v3_only_where_the_processor_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from zermelo.solvers.connect4 import aot

    # A Haswell's flags (the first x86-64-v3 processor) and the same without BMI2.
    haswell = [
        "fpu",
        "sse",
        "sse2",
        "ssse3",
        "sse4_1",
        "sse4_2",
        "popcnt",
        "avx",
        "avx2",
        "bmi1",
        "bmi2",
        "f16c",
        "fma",
        "abm",
        "movbe",
        "xsave",
    ]
    assert aot.cpu_level(haswell) == "x86-64-v3"
    assert aot.cpu_level([flag for flag in haswell if flag != "bmi2"]) == ""
    assert aot.cpu_level([]) == ""
    # Builds for different levels never share a file, so a shared cache folder is safe.
    monkeypatch.setattr(aot, "target_cpu", lambda: "x86-64-v3")
    tuned = aot.module_path()
    monkeypatch.setattr(aot, "target_cpu", lambda: "")
    assert aot.module_path() != tuned
    monkeypatch.undo()
    monkeypatch.setattr("platform.machine", lambda: "arm64")
    assert aot.target_cpu() == ""


_ORPHAN_SCRIPT = """
import os, sys, time
from zermelo.parallel import LocalExecutor

def task(seconds):
    time.sleep(seconds)
    return os.getpid()

if __name__ == "__main__":
    with LocalExecutor(2) as pool:
        pids = sorted({pid for _, pid in pool.run(task, {"a": (0.3,), "b": (0.3,)})})
        print(*pids, flush=True)
        list(pool.run(task, {"c": (60,), "d": (60,)}))  # busy when the parent is killed
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"
)
def test_pool_processes_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "orphans.py"
    script.write_text(_ORPHAN_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(Path(zermelo.__file__).resolve().parents[1])}
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert parent.stdout is not None
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(pids) == 2, pids
    time.sleep(0.5)
    parent.kill()
    parent.wait(timeout=10)
    deadline = time.monotonic() + 10
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
        time.sleep(0.05)
    assert alive == [], f"pool processes {alive} outlived their parent"


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return False


def test_the_book_script_builds_both_stages_and_resumes(tmp_path: Path) -> None:
    # End to end on 5x4: the scores, then the best columns, each in its own progress file beside
    # the one given; the book read back holds both, and a second run finds everything done.
    script = PACKAGE.parents[1] / "scripts" / "build_connect4_book.py"
    progress, output = tmp_path / "run.jsonl", tmp_path / "book.bin"
    command = [sys.executable, str(script), "--width", "5", "--height", "4", "--depth", "3",
               "--jobs", "1", "--progress-file", str(progress), "--output", str(output)]  # fmt: skip
    run = {"capture_output": True, "text": True, "env": english_env(), "timeout": 300}
    first = subprocess.run(command, check=False, **run)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "run.best.jsonl").exists()
    width, height, depth, scores = read_book(output)
    assert (width, height, depth) == (5, 4, 3)
    assert scores == build_book(3, 5, 4) and read_best(output).keys() == scores.keys()
    again = subprocess.run(command, check=False, **run)
    assert again.returncode == 0, again.stderr
    said = " ".join(again.stderr.split())
    assert "49 already solved" in said and "49 already found" in said


def _failing_warm_up() -> None:
    raise RuntimeError("this worker cannot start")


def test_a_pool_whose_workers_cannot_start_gives_one_error() -> None:
    # A warm-up that fails kills each worker at start, and the broken pool refuses new tasks:
    # the pool is restarted a few times, then one ClusterError, not a BrokenProcessPool.
    executor = LocalExecutor(2, _failing_warm_up)
    with executor, pytest.raises(ClusterError, match="the local pool lost a worker"):
        list(executor.run(abs, {str(n): (-n,) for n in range(50)}))


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--width", "0"], "board size 0x6 is not supported"),
        (["--width", "8", "--height", "7"], "board size 8x7 is not supported"),
        (["--table-bits", "99", "--jobs", "2"], "table_bits must be 4 to 23, got 99"),
        (["--depth", "42"], "--depth 42: expected 0 to 41"),
    ],
)
def test_the_book_script_refuses_bad_arguments_with_one_line(
    tmp_path: Path, arguments: list[str], said: str
) -> None:
    script = PACKAGE.parents[1] / "scripts" / "build_connect4_book.py"
    files = ["--progress-file", str(tmp_path / "p.jsonl"), "--output", str(tmp_path / "b.bin")]
    done = subprocess.run(
        [sys.executable, str(script), *arguments, *files],
        check=False, capture_output=True, text=True, env=english_env(), timeout=120,
    )  # fmt: skip
    message = " ".join(done.stderr.split())
    assert done.returncode == 2 and said in message and "Traceback" not in message, message
    assert not (tmp_path / "b.bin").exists()


_INTERRUPTIBLE = (
    # As a terminal runs it: Ctrl-C raises KeyboardInterrupt (a process started in the background
    # by a shell would otherwise ignore SIGINT).
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "main-process-only"])
def test_ctrl_c_stops_a_book_build_on_a_busy_cluster_with_one_line(
    tmp_path: Path, whole_group: bool
) -> None:
    # Depth 1 of 7x6: each task is a solve of minutes, so the worker is busy in compiled code
    # when the interrupt comes and cannot answer the client's goodbye in time.
    script = PACKAGE.parents[1] / "scripts" / "build_connect4_book.py"
    progress = tmp_path / "progress.jsonl"
    arguments = ["--depth", "1", "--cluster", "local:1", "--table-bits", "16"]
    files = ["--progress-file", str(progress), "--output", str(tmp_path / "book.bin")]
    err = tmp_path / "stderr"
    with err.open("w") as stderr:
        builder = subprocess.Popen(
            [sys.executable, "-c", _INTERRUPTIBLE, str(script), *arguments, *files],
            stdout=subprocess.PIPE, stderr=stderr, text=True, env=english_env(),
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "workers" not in err.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "workers" in err.read_text(), err.read_text()
        time.sleep(1.0)  # the tasks are running
        if whole_group:
            os.killpg(builder.pid, signal.SIGINT)
        else:
            builder.send_signal(signal.SIGINT)
        out, _ = builder.communicate(timeout=60)
    finally:
        if builder.poll() is None:
            os.killpg(builder.pid, signal.SIGKILL)
    messages = err.read_text() + out
    assert builder.returncode == 130, messages
    assert "Traceback" not in messages
    assert f"stopped; run the same command again to resume from {progress}" in " ".join(
        messages.split()
    )
    assert not (tmp_path / "book.bin").exists()
    # and no worker outlives it
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.killpg(builder.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(builder.pid, signal.SIGKILL)
        pytest.fail("a worker of the stopped build was still running")


def test_closing_a_cluster_that_does_not_answer_in_time_is_not_an_error() -> None:
    # Ctrl-C in a build of 27,109 tasks: the scheduler, still cancelling them, did not answer
    # the client's goodbye within its timeout, and the interrupt became a traceback.
    class SlowClient:
        closed = False

        def close(self, timeout: float) -> None:
            SlowClient.closed = True
            raise TimeoutError(f"timed out after {timeout} s.")

    executor = DaskExecutor.__new__(DaskExecutor)
    executor.client = SlowClient()
    executor._cluster = None
    executor.close()
    assert SlowClient.closed
