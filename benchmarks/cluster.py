"""Speed-up of a batch solve from one to more Dask workers, side by side in one run.

    python benchmarks/cluster.py                        # 1 and 2 local workers
    python benchmarks/cluster.py --workers 1,2,4 --positions 2000
    python benchmarks/cluster.py --cluster tcp://10.0.0.5:8786   # and an existing cluster

The same job runs each way: the first ``--positions`` lines of a benchmark set (default
Test_L2_R2, about 10 ms each), in tasks of ``--chunk`` positions (:func:`solve_texts`, each worker
keeping its solver and table warm). Each run starts its cluster first and warms the workers, so
the times are those of the work, not of starting processes; every run's scores are checked
against the file. The CPU figures are this machine's load average before and after, since the
speed-up of a shared machine is bounded by its idle cores.
"""

from __future__ import annotations

import argparse
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
from zermelo.parallel import open_executor, parse_cluster, run_job  # noqa: E402
from zermelo.solvers.connect4.api import solve_texts  # noqa: E402


def warm() -> None:
    solve_texts(["2252576253462244111563365343671351441"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", default="L2_R2")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=25)
    parser.add_argument("--workers", default="1,2", help="local Dask cluster sizes to compare")
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
    runs = [f"local:{n.strip()}" for n in args.workers.split(",") if n.strip()]
    if args.cluster:
        runs.append(args.cluster)
    for run in runs:
        parse_cluster(run)
    console = Console()
    table = Table(
        title=f"Batch solve of {len(texts)} positions of Test_{args.set} in tasks of "
        f"{args.chunk}, on Dask clusters started here"
    )
    for header in ("cluster", "workers", "wall", "positions/s", "speed-up", "scores"):
        table.add_column(header, justify="right")
    base = None
    load_before = os.getloadavg()[0]
    for run in runs:
        with open_executor(run, warm_up=warm) as executor:
            started = time.perf_counter()
            results = run_job(executor, solve_texts, tasks)
            wall = time.perf_counter() - started
            workers = executor.workers
        scores = [score for key in tasks for score in results[key]]
        base = base or wall
        table.add_row(
            run, str(workers), f"{wall:.2f} s", f"{len(texts) / wall:,.0f}",
            f"{base / wall:.2f}x", "all correct" if scores == expected else "[red]WRONG[/red]",
        )  # fmt: skip
    console.print(table)
    console.print(
        f"{os.cpu_count()} CPUs; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after (other processes share the machine)."
    )


if __name__ == "__main__":
    main()
