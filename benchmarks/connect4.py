"""Connect Four solver benchmark, side by side with the reference C++ solver in one run.

Build the reference from its public source in a temporary folder (never commit it). Its last
version that prints each position's nodes and microseconds is commit 754d3b8:

    git clone https://github.com/PascalPons/connect4 /tmp/c4ref
    git -C /tmp/c4ref checkout 754d3b8 && make -C /tmp/c4ref c4solver
    python benchmarks/connect4.py --reference /tmp/c4ref/c4solver

For each set, the same positions go to both solvers. The reference reads them on stdin, empties
its table before each (not timed) and prints score, nodes and the microseconds of its solve
call. Ours is measured the same way: a new table generation before each position (not timed),
then the wall-clock time of the call of the kernel's solve function (made from Python, so crossing
into the kernel is included). Our table has ``2**--table-bits`` slots of 16
bytes (default 23: 128 MiB), the reference's 2**24 entries of 5 bytes (80 MB). Every score is
checked against the file.

A second table times both as whole processes on the first lines of ``--process-set``: the cost
per position beyond startup is ``(t(N lines) - t(1 line)) / (N - 1)``, and t(1 line) is what a
person waits for the first answer (``zermelo analyze connect4`` is timed the same way). CPU
time (user + system) is shown beside wall time, since the machine may be shared.

Without ``--reference`` only our own figures are printed: a figure from another day is not a
comparison. The data folder is the first ``shared/benchmarks/connect4`` beside the repository or above it, or ``$ZERMELO_C4_DATA``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bench_common import connect4_data_dir, progress_bar  # noqa: E402  (beside this script)
from zermelo.games.connect4 import Connect4State  # noqa: E402

SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
DEFAULT_LIMITS = {"L3_R1": 1000, "L2_R1": 1000, "L2_R2": 1000, "L1_R1": 1000, "L1_R2": 100}
DEFAULT_LIMITS["L1_R3"] = 5
PURE_LIMITS = {"L3_R1": 300, "L2_R1": 100, "L2_R2": 10, "L1_R1": 100, "L1_R2": 2, "L1_R3": 0}


@dataclass
class Run:
    """Per-position figures of one solver on one set."""

    micros: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    correct: int = 0

    @property
    def positions(self) -> int:
        return len(self.micros)

    @property
    def mean_time(self) -> float:
        return sum(self.micros) / len(self.micros) / 1e6 if self.micros else 0.0

    @property
    def mean_nodes(self) -> float:
        return sum(self.nodes) / len(self.nodes) if self.nodes else 0.0

    @property
    def rate(self) -> float:
        seconds = sum(self.micros) / 1e6
        return sum(self.nodes) / seconds if seconds else 0.0


def load(name: str, limit: int | None) -> list[tuple[str, int]]:
    rows = []
    for line in (connect4_data_dir() / f"Test_{name}").read_text().splitlines():
        if line.strip():
            moves, score = line.split()[:2]
            rows.append((moves, int(score)))
            if limit is not None and len(rows) >= limit:
                break
    return rows


def measure(solver: Any, rows: list[tuple[str, int]], progress: Progress, label: str) -> Run:
    """Our figures, taken as the reference takes its own: a new table generation and the node
    counter reset (not timed), then the time of the call of the kernel's solve function (from
    Python, so crossing into the kernel is included)."""
    run = Run()
    task = progress.add_task(label, total=len(rows))
    clock = time.perf_counter
    solve = solver.kernel.solve
    mem = solver._mem
    for moves, expected in rows:
        state = Connect4State.parse(moves)
        solver.new_generation()
        solver._start_call()
        current, mask, ply = state.current, state.mask, state.ply
        started = clock()
        score = solve(current, mask, ply, False, mem)
        run.micros.append((clock() - started) * 1e6)
        run.nodes.append(solver.last_nodes)
        run.correct += score == expected
        progress.advance(task)
    progress.remove_task(task)
    return run


def reference_run(binary: Path, rows: list[tuple[str, int]], workdir: Path) -> Run:
    """The reference on ``rows`` (its own per-position figures: score, nodes, microseconds)."""
    text = "".join(moves + "\n" for moves, _ in rows)
    done = subprocess.run(
        [str(binary)], input=text, capture_output=True, text=True, cwd=workdir, check=True
    )
    run = Run()
    answers = [line.split() for line in done.stdout.splitlines() if line.strip()]
    if len(answers) != len(rows):
        raise SystemExit(f"the reference answered {len(answers)} of {len(rows)} positions")
    for (moves, expected), answer in zip(rows, answers, strict=True):
        if len(answer) < 4 or answer[0] != moves:
            raise SystemExit(
                f"unexpected reference output {' '.join(answer)!r}: expected 'MOVES SCORE NODES "
                "MICROSECONDS' (build commit 754d3b8, see this script's help)"
            )
        run.correct += int(answer[1]) == expected
        run.nodes.append(int(answer[2]))
        run.micros.append(float(answer[3]))
    return run


@dataclass
class Timing:
    wall: float
    cpu: float


def timed(command: list[str], text: str, workdir: Path, env: dict[str, str]) -> Timing:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command, input=text, capture_output=True, text=True, cwd=workdir, env=env, check=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Timing(wall, cpu)


def best_of(
    repeats: int, command: list[str], text: str, workdir: Path, env: dict[str, str]
) -> Timing:
    runs = [timed(command, text, workdir, env) for _ in range(repeats)]
    return Timing(min(r.wall for r in runs), min(r.cpu for r in runs))


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


def ratio(ours: float, theirs: float) -> str:
    if not ours or not theirs:
        return "-"
    value = ours / theirs
    style = "green" if value <= 1.0 else "yellow"
    return f"[{style}]{value:.2f}x[/{style}]"


def process_table(
    reference: Path | None, name: str, lines: int, workdir: Path, console: Console
) -> Table:
    rows = load(name, lines)
    every = "".join(moves + "\n" for moves, _ in rows)
    first = rows[0][0] + "\n"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    ours = [sys.executable, "-m", "zermelo", "solve", "connect4"]
    table = Table(
        title=f"Whole processes on the first {len(rows)} lines of Test_{name} "
        "(best of 3 for 1 line; wall / CPU)"
    )
    for header in ("command", "t(1 line)", f"t({len(rows)} lines)", "per position", "vs ref"):
        table.add_column(header, justify="right")
    commands: list[tuple[str, list[str]]] = [("zermelo solve connect4", ours)]
    if reference is not None:
        commands.insert(0, ("reference c4solver", [str(reference)]))
    per: dict[str, Timing] = {}
    for label, command in commands:
        one = best_of(3, command, first, workdir, env)
        many = timed(command, every, workdir, env)
        per[label] = Timing(
            (many.wall - one.wall) / (len(rows) - 1), (many.cpu - one.cpu) / (len(rows) - 1)
        )
        ref = per.get("reference c4solver")
        table.add_row(
            label,
            f"{duration(one.wall)} / {duration(one.cpu)}",
            f"{duration(many.wall)} / {duration(many.cpu)}",
            f"{duration(per[label].wall)} / {duration(per[label].cpu)}",
            "-" if ref is None or label.startswith("reference")
            else f"{ratio(per[label].wall, ref.wall)} / {ratio(per[label].cpu, ref.cpu)}",
        )  # fmt: skip
    analyze = best_of(3, [*ours[:3], "analyze", "connect4", "44"], "", workdir, env)
    table.add_row(
        "zermelo analyze connect4 44",
        f"{duration(analyze.wall)} / {duration(analyze.cpu)}",
        "-",
        "-",
        "-",
    )
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reference", type=Path, default=None, help="the reference c4solver")
    parser.add_argument("--limit", type=int, default=None, help="first N positions of each set")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated, e.g. L3_R1,L2_R1")
    parser.add_argument(
        "--pure-limit",
        type=int,
        default=None,
        help="positions per set for the plain-Python kernel (0: skip; default by set)",
    )
    parser.add_argument(
        "--table-bits", type=int, default=23, help="our table: 2**bits slots (default 23)"
    )
    parser.add_argument("--process-set", default="L3_R1", help="set for the whole-process table")
    parser.add_argument(
        "--process-lines", type=int, default=1000, help="N for the whole-process table (0: skip)"
    )
    args = parser.parse_args(argv)
    console = Console()
    if console.width < 150:
        console = Console(width=150)
    if not connect4_data_dir().is_dir():
        console.print(
            f"[red]benchmark data not found at {connect4_data_dir()} (set ZERMELO_C4_DATA)[/red]"
        )
        raise SystemExit(2)
    if args.reference is not None and not os.access(args.reference, os.X_OK):
        raise SystemExit(f"--reference {args.reference}: not an executable file")
    names = [n.strip().removeprefix("Test_") for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}: expected {', '.join(SETS)}")

    started = time.perf_counter()
    from zermelo.solvers.connect4 import Connect4Solver, kernel_module

    compiled_available = bool(kernel_module().COMPILED)
    fast = Connect4Solver(book=False, table_bits=args.table_bits) if compiled_available else None
    if fast is not None:
        fast.prefault()
        fast.score_bitboard(*Connect4State.parse("2252576253462244111563365343671351441")[:2], 37)
    warm_up = time.perf_counter() - started
    pure = Connect4Solver(compiled=False, book=False) if args.pure_limit != 0 else None

    side = "side by side with the reference C++ solver" if args.reference else "(no reference)"
    table = Table(title=f"Connect Four solver {side}: mean per position, table emptied before each")
    for header in (
        "set", "positions", "correct", "ours", "reference", "ours / ref", "our nodes",
        "ref nodes", "our nodes/s", "ref nodes/s", "pure Python", "pure / ref",
    ):  # fmt: skip
        table.add_column(header, justify="right")
    total_wrong = 0
    with tempfile.TemporaryDirectory() as workdir, progress_bar(console) as progress:
        for name in names:
            limit = args.limit if args.limit is not None else DEFAULT_LIMITS[name]
            rows = load(name, limit)
            ref = Run()
            if args.reference is not None:
                task = progress.add_task(f"{name} reference", total=None)
                ref = reference_run(args.reference, rows, Path(workdir))
                progress.remove_task(task)
            run = measure(fast, rows, progress, f"{name} numba") if fast is not None else Run()
            pure_limit = PURE_LIMITS[name] if args.pure_limit is None else args.pure_limit
            pure_run = Run()
            if pure is not None and pure_limit:
                pure_run = measure(pure, rows[:pure_limit], progress, f"{name} pure Python")
            wrong = (
                run.positions - run.correct
                + pure_run.positions - pure_run.correct
                + ref.positions - ref.correct
            )  # fmt: skip
            total_wrong += wrong
            table.add_row(
                name, str(len(rows)), "all" if not wrong else f"[red]{wrong} wrong[/red]",
                duration(run.mean_time), duration(ref.mean_time),
                ratio(run.mean_time, ref.mean_time),
                count(run.mean_nodes), count(ref.mean_nodes) if ref.positions else "-",
                count(run.rate), count(ref.rate) if ref.positions else "-",
                f"{duration(pure_run.mean_time)} ({pure_run.positions})"
                if pure_run.positions else "-",
                f"{pure_run.mean_time / ref.mean_time:.0f}x"
                if pure_run.positions and ref.positions else "-",
            )  # fmt: skip
        console.print(table)
        console.print(
            "Times are wall-clock per position (the reference's own microseconds, ours around "
            "the call), mean over the set; ours / ref <= 1 means ours is as fast or faster; "
            f"our JIT warm-up ({warm_up:.2f} s: import, cache load, table allocation and first "
            "touch, one solve) is not in them. pure Python: the same kernel without numba, on "
            "the first positions only. Our kernel: "
            + (
                "compiled ahead of time (numba.pycc)"
                if getattr(kernel_module(), "AHEAD_OF_TIME", False)
                else "numba JIT"
            )
            + "."
        )
        if args.process_lines > 1:
            console.print(
                process_table(
                    args.reference, args.process_set, args.process_lines, Path(workdir), console
                )
            )
    if total_wrong:
        console.print(f"[red]{total_wrong} wrong scores[/red]")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
