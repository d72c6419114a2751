"""Speed-up from one to two workers, on the local pool and on a local Dask cluster, in one run.

    python benchmarks/cluster.py                       # pool and local Dask, 1 and 2 workers
    python benchmarks/cluster.py --workers 1,2,4 --positions 240
    python benchmarks/cluster.py --cluster tcp://10.0.0.5:8786   # and an existing cluster

The same job runs each way: the first ``--positions`` lines of a benchmark set (default
Test_L1_R2, openings of 7 to 14 stones, tens of milliseconds each, so that the work outweighs
sending it), in tasks of ``--chunk`` positions (:func:`solve_texts`, each worker keeping its
solver and table warm). Every executor is started and its workers warmed before the clock
starts, so the times are those of the work, not of starting processes; every run's scores are
checked against the file. The speed-up of each row is against the one-worker row of the same
kind. The machine's load average is printed before and after: on a shared machine the speed-up
is bounded by the cores the other processes leave idle.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.append(str(Path(__file__).resolve().parent))

from bench_common import connect4_data_dir  # noqa: E402  (beside this script)
from zermelo.parallel import (  # noqa: E402
    Executor,
    LocalExecutor,
    open_executor,
    parse_cluster,
    run_job,
)
from zermelo.solvers.connect4 import default_solver  # noqa: E402
from zermelo.solvers.connect4.api import solve_texts  # noqa: E402

WARM = "2252576253462244111563365343671351441"


def warm() -> None:
    solve_texts([WARM])


def solve_timed(texts: list[str]) -> tuple[list[int], float]:
    """A task: the scores of ``texts`` and the CPU seconds their solving took."""
    started = time.thread_time()
    scores = solve_texts(texts)
    return scores, time.thread_time() - started


def ready(kind: str, workers: int, cluster: str | None) -> Executor:
    """An executor whose workers are all started and warm."""
    if kind == "pool":
        pool = LocalExecutor(workers, warm_up=warm)
        # a pool starts its processes with its first tasks: one trivial task each, twice over
        run_job(pool, solve_timed, {str(n): ([WARM],) for n in range(2 * workers)})
        return pool
    return open_executor(cluster or f"local:{workers}", warm_up=warm)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", default="L1_R2")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--chunk", type=int, default=4)
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--repeat", type=int, default=2, help="rounds (the best counts)")
    parser.add_argument("--cluster", default=None, help="also run on this scheduler")
    args = parser.parse_args(argv)
    path = connect4_data_dir() / f"Test_{args.set}"
    if not path.is_file():
        raise SystemExit(f"{path} not found (set ZERMELO_C4_DATA)")
    rows = [line.split()[:2] for line in path.read_text().splitlines() if line.strip()]
    rows = rows[: args.positions]
    texts = [moves for moves, _ in rows]
    expected = [int(score) for _, score in rows]
    tasks = {f"{i:06d}": (texts[i : i + args.chunk],) for i in range(0, len(texts), args.chunk)}
    counts = [int(n) for n in args.workers.split(",") if n.strip()]
    runs: list[tuple[str, int, str | None]] = [("pool", n, None) for n in counts]
    runs += [("local Dask", n, None) for n in counts]
    if args.cluster:
        parse_cluster(args.cluster)
        runs.append(("Dask " + args.cluster, 0, args.cluster))
    console = Console()
    if not console.is_terminal:
        console.width = 120
    table = Table(
        title=f"Batch solve of {len(texts)} positions of Test_{args.set} in {len(tasks)} tasks "
        f"of {args.chunk}, best of {args.repeat} rounds"
    )
    headers = ("executor", "workers", "wall", "positions/s", "speed-up", "CPU", "cores used")
    for header in (*headers, "scores"):
        table.add_column(header, justify="right")
    measured: dict[tuple[str, int, str | None], tuple[int, float, float, bool]] = {}
    load_before = os.getloadavg()
    # A pool of one runs in this process, whose solver table would then be warm with every
    # position for the pool processes forked after it: it runs last.
    # The rounds take turns, so that each way sees about the same load from the others; the
    # best round of each counts.
    for _round in range(args.repeat):
        for run in sorted(runs, key=lambda run: run[0] == "pool" and run[1] == 1):
            kind, workers, cluster = run
            with ready(kind, workers, cluster) as executor:
                started = time.perf_counter()
                results = run_job(executor, solve_timed, tasks)
                wall = time.perf_counter() - started
                used = executor.workers
            scores = [score for key in tasks for score in results[key][0]]
            cpu = sum(results[key][1] for key in tasks)
            best = measured.get(run, (used, math.inf, 0.0, True))
            right = best[3] and scores == expected
            measured[run] = (used, wall, cpu, right) if wall < best[1] else (*best[:3], right)
            if kind == "pool" and workers == 1:
                default_solver().new_generation()  # cold again for the next round
    base: dict[str, float] = {}
    for run in runs:
        used, wall, cpu, right = measured[run]
        base.setdefault(run[0], wall)
        table.add_row(
            run[0], str(used), f"{wall:.2f} s", f"{len(texts) / wall:,.1f}",
            f"{base[run[0]] / wall:.2f}x", f"{cpu:.2f} s", f"{cpu / wall:.2f}",
            "all correct" if right else "[red]WRONG[/red]",
        )  # fmt: skip
    console.print(table)
    console.print(
        "CPU: the solving time of all tasks; cores used: CPU / wall, the share of the machine "
        "the job got."
    )
    autogroup = Path("/proc/sys/kernel/sched_autogroup_enabled")
    if autogroup.is_file() and autogroup.read_text().strip() == "1":
        console.print(
            "The kernel shares CPU time out by session (sched_autogroup): the workers started "
            "here share this session's part of a busy machine, however many they are."
        )
    after = os.getloadavg()
    console.print(
        f"{os.cpu_count()} CPUs; load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in load_before)} before, "
        f"{', '.join(f'{x:.1f}' for x in after)} after (other processes share the machine)."
    )


if __name__ == "__main__":
    main()
