"""Connect Four solver benchmark against the reference C++ solver's figures.

For each benchmark set it solves the positions one by one with an emptied table (a new table
generation, not timed), checks every score against the file, and prints mean time, mean nodes and
nodes per second, with the numba kernel and with the plain-Python kernel (on the first positions
only, since it is slow: ``--pure-limit``), beside the reference figures measured on the same
machine. The JIT warm-up (loading numba's cache or compiling) is timed separately.

    python benchmarks/connect4.py                      # everything (L1_R3: first 100)
    python benchmarks/connect4.py --limit 200 --sets L3_R1,L2_R1 --pure-limit 20

Times are CPU time of the process (``time.process_time``), since the machine may be shared; the
wall-clock mean is shown beside them. The data folder is
``<repo>/../shared/benchmarks/connect4`` or ``$ZERMELO_C4_DATA``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bench_common import progress_bar  # noqa: E402  (beside this script)
from zermelo.games.connect4 import Connect4State  # noqa: E402

# set: (reference mean time in seconds, reference mean nodes, default limit, default pure limit)
REFERENCE = {
    "L3_R1": (9e-6, 51, None, 1000),
    "L2_R1": (89e-6, 449, None, 1000),
    "L2_R2": (6.6e-3, 39_800, None, 100),
    "L1_R1": (0.38e-3, 3_300, None, 1000),
    "L1_R2": (161e-3, 1_190_000, None, 5),
    "L1_R3": (9.7, 58_000_000, 100, 0),
}


def data_dir() -> Path:
    override = os.environ.get("ZERMELO_C4_DATA")
    if override:
        return Path(override)
    return ROOT / ".." / "shared" / "benchmarks" / "connect4"


@dataclass
class Run:
    positions: int = 0
    correct: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    nodes: int = 0

    @property
    def mean_time(self) -> float:
        return self.seconds / self.positions if self.positions else 0.0

    @property
    def mean_nodes(self) -> float:
        return self.nodes / self.positions if self.positions else 0.0

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0

    @property
    def mean_wall(self) -> float:
        return self.wall / self.positions if self.positions else 0.0


def load(name: str, limit: int | None) -> list[tuple[int, int, int, int]]:
    rows = []
    for line in (data_dir() / f"Test_{name}").read_text().splitlines():
        if not line.strip():
            continue
        moves, score = line.split()[:2]
        state = Connect4State.parse(moves)
        rows.append((state.current, state.mask, state.ply, int(score)))
        if limit is not None and len(rows) >= limit:
            break
    return rows


def measure(
    solver: object, rows: list[tuple[int, int, int, int]], progress: Progress, label: str
) -> Run:
    run = Run()
    task = progress.add_task(label, total=len(rows))
    clock = time.process_time
    wall = time.perf_counter
    for current, mask, ply, expected in rows:
        solver.new_generation()  # type: ignore[attr-defined]
        started, wall_started = clock(), wall()
        score = solver.score_bitboard(current, mask, ply)  # type: ignore[attr-defined]
        run.seconds += clock() - started
        run.wall += wall() - wall_started
        run.nodes += solver.last_nodes  # type: ignore[attr-defined]
        run.positions += 1
        run.correct += score == expected
        progress.advance(task)
    progress.remove_task(task)
    return run


def duration(seconds: float) -> str:
    if seconds == 0:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def count(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} M"
    return f"{value:,.0f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=None, help="first N positions of each set")
    parser.add_argument(
        "--sets", default=",".join(REFERENCE), help="comma-separated, e.g. L3_R1,L2_R1"
    )
    parser.add_argument(
        "--pure-limit",
        type=int,
        default=None,
        help="positions per set for the pure-Python run (0: skip; default 1000 to 0 by set)",
    )
    parser.add_argument(
        "--table-bits", type=int, default=23, help="table size 2**bits (default 23: 128 MiB)"
    )
    args = parser.parse_args(argv)
    console = Console()
    if console.width < 150:
        console = Console(width=150)
    if not data_dir().is_dir():
        console.print(f"[red]benchmark data not found at {data_dir()} (set ZERMELO_C4_DATA)[/red]")
        raise SystemExit(2)
    names = [n.strip().removeprefix("Test_") for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in REFERENCE]
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}: expected {', '.join(REFERENCE)}")

    started = time.perf_counter()
    from zermelo.solvers.connect4 import Connect4Solver, kernel_module

    compiled_available = bool(kernel_module().COMPILED)
    fast = Connect4Solver(book=False, table_bits=args.table_bits) if compiled_available else None
    if fast is not None:
        fast.prefault()
        fast.score_bitboard(*Connect4State.parse("2252576253462244111563365343671351441")[:2], 37)
    warm_up = time.perf_counter() - started
    pure = Connect4Solver(compiled=False, book=False) if args.pure_limit != 0 else None

    table = Table(
        title="Connect Four solver vs the reference C++ solver (table emptied before each position)"
    )
    for header in (
        "set",
        "positions",
        "correct",
        "mean time",
        "wall",
        "mean nodes",
        "nodes/s",
        "ref time",
        "ref nodes",
        "speed vs ref",
        "pure positions",
        "pure time",
        "pure slowdown vs ref",
    ):
        table.add_column(header, justify="right")
    total_wrong = 0
    with progress_bar(console) as progress:
        for name in names:
            ref_time, ref_nodes, default_limit, default_pure = REFERENCE[name]
            pure_limit = default_pure if args.pure_limit is None else args.pure_limit
            limit = args.limit if args.limit is not None else default_limit
            rows = load(name, limit)
            run = measure(fast, rows, progress, f"{name} numba") if fast is not None else Run()
            pure_run = Run()
            if pure is not None:
                pure_run = measure(pure, rows[:pure_limit], progress, f"{name} pure Python")
            total_wrong += run.positions - run.correct + pure_run.positions - pure_run.correct
            ratio = ref_time / run.mean_time if run.mean_time else 0
            pure_ratio = pure_run.mean_time / ref_time if pure_run.mean_time else 0
            style = "green" if ratio >= 1 else "yellow"
            table.add_row(
                name, str(run.positions),
                f"{run.correct}" + (" ✓" if run.correct == run.positions else " ✗"),
                duration(run.mean_time), duration(run.mean_wall),
                count(run.mean_nodes), count(run.rate),
                duration(ref_time), count(ref_nodes),
                f"[{style}]{ratio:.2f}x[/{style}]" if run.positions else "-",
                str(pure_run.positions),
                duration(pure_run.mean_time)
                + ("" if pure_run.correct == pure_run.positions else " ✗"),
                f"{pure_ratio:.1f}x" if pure_run.positions else "-",
            )  # fmt: skip
    console.print(table)
    version = None
    if compiled_available:
        import numba

        version = numba.__version__
    console.print(
        "JIT warm-up (import, numba cache load or compile, table allocation and first touch, "
        f"first solve): {warm_up:.2f} s; "
        "mean time is CPU time of this process per position (the machine is shared), wall is "
        "elapsed time; "
        f"numba {version or 'not in use'}; speed vs ref > 1 means faster than the reference."
    )
    if total_wrong:
        console.print(f"[red]{total_wrong} wrong scores[/red]")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
