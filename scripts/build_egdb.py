"""Build the endgame database of international draughts, slice by slice, resumably.

    python scripts/build_egdb.py --pieces 3                 # the 2- and 3-piece slices
    python scripts/build_egdb.py --pieces 4 --jobs 2        # then 4, two slices at a time
    python scripts/build_egdb.py --pieces 4 --cluster local # on a local Dask cluster

A slice is one material with White to move (``1m0k-0m1k``: a white man against a black king); it
is solved together with its colour-swapped twin, which its quiet moves reach. Slices are built in
order of pieces, then men, so that a capture or a crowning always lands in a slice already
built; the slices of one step of that order run side by side on the executor
(``zermelo.parallel``). Each slice is written to its own file (``--directory``, default the
package's ``solvers/draughts/egdb``) the moment its pair is solved; rerun the same command after
a stop and the slices already written are skipped.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zermelo.core.errors import ZermeloError  # noqa: E402
from zermelo.parallel import open_executor, run_job  # noqa: E402
from zermelo.solvers.draughts import egdb  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pieces", type=int, default=3, help="the most pieces (2 to 4)")
    parser.add_argument("--directory", type=Path, default=None, help="where the slice files go")
    parser.add_argument(
        "--cluster", default=None, help="'local', 'local:N' or a Dask scheduler address"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    if not 2 <= args.pieces <= egdb.MAX_PIECES:
        console.print(f"--pieces {args.pieces}: expected 2 to {egdb.MAX_PIECES}")
        return 2
    if not egdb.COMPILED:
        console.print("building the endgame database needs numba: pip install 'zermelo[fast]'")
        return 2
    directory: Path = args.directory or egdb.default_directory()
    pairs = egdb.pairs(args.pieces)
    todo = [pair for pair in pairs if egdb.missing_slices(directory, pair)]
    total = sum(m.size for pair in pairs for m in pair)
    done = total - sum(m.size for pair in todo for m in pair)
    console.print(
        f"{sum(len(p) for p in pairs)} slices of up to {args.pieces} pieces "
        f"({total:,} indices) in {directory}; {sum(len(p) for p in todo)} to build"
    )
    columns = (
        TextColumn("slices"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
    )  # fmt: skip
    started = time.perf_counter()
    try:
        with (
            open_executor(args.cluster, args.jobs) as executor,
            Progress(*columns, console=console) as bar,
        ):
            task = bar.add_task("slices", total=total, completed=done, rate="")
            fresh = 0
            sizes = {"+".join(m.name for m in pair): sum(m.size for m in pair) for pair in todo}
            for _, group in itertools.groupby(todo, key=lambda pair: egdb.level(pair[0])):
                tasks = {
                    "+".join(m.name for m in pair): (str(directory), tuple(map(tuple, pair)))
                    for pair in group
                }

                def advance(key: str, result: dict[str, object], finished: int, of: int) -> None:
                    nonlocal fresh, done
                    fresh += sizes[key]
                    done += sizes[key]
                    rate = fresh / max(time.perf_counter() - started, 1e-9)
                    bar.update(task, completed=done, rate=f"{rate:,.0f} positions/s")
                    slices = result["slices"]
                    assert isinstance(slices, dict)
                    for name, entry in slices.items():
                        bar.console.print(
                            f"{name}: {entry['positions']:,} positions, {entry['win']:,} won, "
                            f"{entry['draw']:,} drawn, {entry['loss']:,} lost, "
                            f"{entry['bytes']:,} bytes ({result['seconds']} s, "
                            f"{result['sweeps']} sweeps)"
                        )

                run_job(executor, egdb.build_files, tasks, on_result=advance)
    except ZermeloError as error:
        console.print(str(error))
        return 1
    except KeyboardInterrupt:
        console.print("stopped: run the same command again to go on")
        return 130
    files = [egdb.slice_path(directory, m) for pair in pairs for m in pair]
    size = sum(path.stat().st_size for path in files if path.exists())
    console.print(
        f"done in {time.perf_counter() - started:.1f} s: {len(files)} slices, {size:,} bytes"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
