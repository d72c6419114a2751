"""Build the Connect Four opening book, resumably, on a local pool or a Dask cluster.

    python scripts/build_connect4_book.py --depth 6 --cluster local          # a local Dask cluster
    python scripts/build_connect4_book.py --depth 6 --jobs 2                 # a local process pool
    python scripts/build_connect4_book.py --depth 6 --cluster tcp://10.0.0.5:8786

Only the positions with ``--depth`` stones are solved (one task each); every shallower position
is then scored from its children, so each ply deeper costs about as much as solving that ply.
Each solved score is appended to the progress file as soon as it arrives; stop the build at any
time (Ctrl-C, a lost machine) and run the same command again to go on where it stopped. When the
deepest ply is complete the book is written (``--output``, default the package's
``book_WxH.bin``).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zermelo.core.errors import ZermeloError  # noqa: E402
from zermelo.games.connect4 import geometry  # noqa: E402
from zermelo.parallel import ResultStore, open_executor, run_job  # noqa: E402
from zermelo.solvers.connect4 import book, builder  # noqa: E402
from zermelo.solvers.connect4.solver import check_table_bits  # noqa: E402


def default_progress_file(width: int, height: int, depth: int) -> Path:
    return ROOT / "data" / "connect4" / f"book_{width}x{height}_d{depth}.progress.jsonl"


def best_progress_file(progress_file: Path) -> Path:
    """Where the second stage (best columns) keeps its results, beside the first stage's file:
    ``book_7x6_d7.progress.jsonl`` -> ``book_7x6_d7.best.progress.jsonl``, ``x.jsonl`` ->
    ``x.best.jsonl``."""
    name = progress_file.name
    if ".progress" in name:
        return progress_file.with_name(name.replace(".progress", ".best.progress", 1))
    return progress_file.with_name(f"{progress_file.stem}.best{progress_file.suffix}")


def _stage(console: Console, label: str, total: int, done: int, work: Callable[[Any], T]) -> T:
    """Run one stage of the build under a progress bar (done, rate, elapsed, ETA): ``work``
    gets the callback that hears of each new result."""
    columns = (
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(label, total=total, completed=done, rate="")
        first = time.perf_counter()
        fresh = 0

        def advance(key: str, result: object, finished: int, total: int) -> None:
            nonlocal fresh
            fresh += 1
            rate = fresh / max(time.perf_counter() - first, 1e-9)
            bar.update(task, completed=finished, rate=f"{rate * 3600:,.0f}/h")

        return work(advance)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depth", type=int, default=6, help="stones of the deepest ply")
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument(
        "--cluster", default=None, help="'local', 'local:N' or a Dask scheduler address"
    )
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: CPUs)")
    parser.add_argument(
        "--table-bits", type=int, default=None, help="each worker's table: 2**bits slots"
    )
    parser.add_argument("--progress-file", type=Path, default=None, help="resumable results")
    parser.add_argument("--output", type=Path, default=None, help="the book file to write")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    try:  # the arguments, before any worker starts
        geometry(args.width, args.height)
        if args.table_bits is not None:
            check_table_bits(args.table_bits)
    except ZermeloError as error:
        console.print(str(error))
        return 2
    if not 0 <= args.depth <= args.width * args.height - 1:
        console.print(f"--depth {args.depth}: expected 0 to {args.width * args.height - 1}")
        return 2
    progress_file = args.progress_file or default_progress_file(args.width, args.height, args.depth)
    best_file = best_progress_file(progress_file)
    try:
        store = ResultStore(progress_file, builder.store_meta(args.depth, args.width, args.height))
        tasks = builder.deepest_tasks(args.depth, args.width, args.height, args.table_bits)
        floors = builder.uses_floors(args.depth, args.width, args.height)
        warm = functools.partial(builder.warm_up, args.width, args.height, args.table_bits, floors)
        started = time.perf_counter()
        with open_executor(args.cluster, args.jobs, warm) as executor:
            done = sum(key in store for key in tasks)
            console.print(
                f"{len(tasks)} positions with {args.depth} stones on {args.width}x{args.height}, "
                f"{done} already solved ({progress_file}); {executor.workers} workers"
            )
            scores = _stage(
                console, "solving", len(tasks), done,
                lambda advance: builder.build_book(
                    args.depth, args.width, args.height, executor=executor, store=store,
                    on_result=advance, table_bits=args.table_bits,
                ),
            )  # fmt: skip
            best_tasks = builder.best_tasks(tasks, scores)
            best_store = ResultStore(
                best_file, builder.best_meta(args.depth, args.width, args.height)
            )
            done = sum(key in best_store for key in best_tasks)
            console.print(
                f"best columns of the {len(best_tasks)} positions, {done} already found "
                f"({best_file})"
            )
            found = _stage(
                console, "best columns", len(best_tasks), done,
                lambda advance: run_job(
                    executor, builder.best_columns, best_tasks, store=best_store,
                    on_result=advance,
                ),
            )  # fmt: skip
            best = builder.back_up_best(
                args.depth, scores, {int(k): int(v) for k, v in found.items()},
                args.width, args.height,
            )  # fmt: skip
    except ZermeloError as error:
        console.print(str(error))
        return 1
    except KeyboardInterrupt:
        console.print(
            f"stopped; run the same command again to resume from {progress_file} and {best_file}"
        )
        return 130
    output = args.output or book.book_path(args.width, args.height)
    book.write_book(scores, best, output, args.width, args.height, args.depth)
    console.print(
        f"{len(scores)} positions, depth {args.depth}, {output.stat().st_size:,} bytes, "
        f"{time.perf_counter() - started:.0f} s this run -> {output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
