"""Connect Four solver benchmark, side by side with the reference C++ solver in one run.

Build the reference from its public source in a temporary folder (never commit it), at two
versions: commit 754d3b8, its last that prints each position's nodes and microseconds (it empties
its table before each line), for the per-position table; and its current master, what its users
build (it keeps its table from line to line and prints only the score), for the whole-process
table. ``--build-references DIR`` does it all (``git clone``, ``make c4solver``), or by hand:

    git clone https://github.com/PascalPons/connect4 /tmp/c4ref/master
    make -C /tmp/c4ref/master c4solver
    git clone https://github.com/PascalPons/connect4 /tmp/c4ref/754d3b8
    git -C /tmp/c4ref/754d3b8 checkout 754d3b8 && make -C /tmp/c4ref/754d3b8 c4solver
    python benchmarks/connect4.py --reference /tmp/c4ref/754d3b8/c4solver \
        --reference-master /tmp/c4ref/master/c4solver

Per position: for each set the same positions go to both solvers. The reference (754d3b8) reads
them on stdin, empties its table before each (not timed) and prints score, nodes and the
microseconds of its solve call. Ours is measured the same way: a new table generation before
each position (not timed), then the wall-clock time of the call of the kernel's solve function
(made from Python, so crossing into the kernel is included). Our table has ``2**--table-bits``
slots of 16 bytes (default 23: 128 MiB), the reference's 2**24 entries of 5 bytes (80 MB). Every
score is checked against the file.

Whole processes, as users run them: ``c4solver < FILE`` (master, as built, in a folder without
its optional opening book file) against ``python -m zermelo solve connect4 < FILE``, FILE being
a set's moves, one position a line, the whole set (``--process-sets``). Each is timed with an
empty input too: that is its startup, and ``(t(FILE) - t(empty)) / lines`` its cost per position
beyond startup. Best of ``--process-repeats`` runs, the two programs taking turns; CPU time
(user + system) is shown beside wall time, since the machine may be shared. Every line both
print is checked against the file's score.

Without references only our own figures are printed: a figure from another day is not a
comparison. The data folder is the first ``shared/benchmarks/connect4`` beside the repository or
above it, or ``$ZERMELO_C4_DATA``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
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
PROCESS_SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1")
"""The whole files the whole-process table runs by default (L1_R2 and L1_R3 take minutes)."""
REFERENCE_SOURCE = "https://github.com/PascalPons/connect4"


def set_names(text: str) -> list[str]:
    names = [n.strip().removeprefix("Test_") for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}: expected {', '.join(SETS)}")
    return names


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


def run_process(
    command: list[str], path: Path, workdir: Path, env: dict[str, str]
) -> tuple[Timing, str]:
    """Wall and CPU time (user + system) of ``command < path``, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with path.open("rb") as handle:
        done = subprocess.run(
            command, stdin=handle, capture_output=True, cwd=workdir, env=env, check=False
        )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} < {path} failed: {done.stderr.decode()[-500:]}")
    return Timing(wall, cpu), done.stdout.decode("utf-8", "replace")


def _cpu_seconds(pid: int) -> float:
    """CPU time so far of every thread of a running process (Linux's schedstat, in ns)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def run_started(
    command: list[str], path: Path, workdir: Path, env: dict[str, str]
) -> tuple[Timing, str]:
    """The cost of ``command < path`` beyond its startup, measured directly: the process is
    started with nothing on its input, left until its CPU time stops growing for 0.3 s (it has
    started and waits for its first line), then sent the file; timed from there to its exit (CPU:
    its total less what it had used before the file came)."""
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=workdir,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    last, quiet = -1.0, time.perf_counter()
    deadline = quiet + 120
    while True:
        time.sleep(0.05)
        used, now = _cpu_seconds(proc.pid), time.perf_counter()
        if used != last:
            last, quiet = used, now
        elif now - quiet >= 0.3:
            break
        if now > deadline:
            proc.kill()
            raise SystemExit(f"{' '.join(command)} never settled to wait for its input")
    data = path.read_bytes()
    stdin = proc.stdin

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError):
            stdin.write(data)
        stdin.close()

    started = time.perf_counter()
    writer = threading.Thread(target=feed)
    writer.start()
    printed = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    writer.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Timing(wall, usage.ru_utime + usage.ru_stime - last), printed.decode("utf-8", "replace")


def wrong_answers(printed: str, rows: list[tuple[str, int]]) -> int:
    """Lines of ``printed`` (``MOVES SCORE``) that differ from the file's, missing ones
    included."""
    answers = [line.split()[:2] for line in printed.splitlines() if line.strip()]
    expected = [[moves, str(score)] for moves, score in rows]
    wrong = sum(a != e for a, e in zip(answers, expected, strict=False))
    return wrong + abs(len(answers) - len(expected))


def version_of(binary: Path) -> str:
    """The commit a reference binary was built from, when its folder is a git checkout."""
    done = subprocess.run(
        ["git", "-C", str(binary.parent), "log", "-1", "--format=%h %cs"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "as given"


def ensure_ahead_of_time(console: Console) -> str:
    """Build the ahead-of-time kernel now if it is missing (the command's users load it once it
    is built); returns which kernel the processes load."""
    from zermelo.solvers.connect4 import aot, kernel_module

    if aot.aot_disabled():
        return "numba JIT (ZERMELO_NO_AOT)"
    if not kernel_module().AHEAD_OF_TIME and not aot.module_path().is_file():
        console.print("building the ahead-of-time kernel first (about 20 s of CPU)...")
        code = "from zermelo.solvers.connect4 import aot, kernel; aot.build(kernel)"
        env = dict(os.environ, ZERMELO_NO_AOT="1")
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return "compiled ahead of time" if aot.module_path().is_file() else "numba JIT"


def process_table(
    reference: Path | None,
    names: list[str],
    repeats: int,
    workdir: Path,
    console: Console,
) -> Table:
    """Whole processes as users run them: ``c4solver < file`` (the reference as built) and
    ``python -m zermelo solve connect4 < file``, the same file of moves, one position a line.
    Startup is the time of an empty input; the cost per position beyond startup is
    ``(t(file) - t(empty)) / lines``, each t the best of ``repeats`` runs. The runs take turns
    (each repeat runs every input with every program, the inputs in a seeded random order), so
    that the machine's drift spreads over all of them. Beside them, what our batch path costs a line inside a process that has
    started (:func:`zermelo.solvers.connect4.answer_lines` on the file's lines, best of
    ``repeats``, a new table generation each time)."""
    from zermelo.solvers.connect4 import answer_lines, default_solver

    kernel = ensure_ahead_of_time(console)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    commands: dict[str, list[str]] = {}
    if reference is not None:
        commands["ref"] = [str(reference)]
    commands["ours"] = [sys.executable, "-m", "zermelo", "solve", "connect4"]
    inputs: dict[str, tuple[Path, list[tuple[str, int]]]] = {}
    empty = workdir / "empty"
    empty.write_text("")
    inputs["startup"] = (empty, [])
    for name in names:
        rows = load(name, None)
        path = workdir / f"Test_{name}.moves"
        path.write_text("".join(moves + "\n" for moves, _ in rows))
        inputs[name] = (path, rows)
    runs: dict[tuple[str, str], list[Timing]] = {
        (name, label): [] for name in inputs for label in commands
    }
    started_runs: dict[tuple[str, str], list[Timing]] = {key: [] for key in runs}
    wrong = dict.fromkeys(inputs, 0)
    total = repeats * 2 * len(inputs) * len(commands)
    with progress_bar(console) as progress:
        task = progress.add_task("whole processes", total=total)
        for repeat in range(repeats):
            # A new order each time (seeded), so that no input always follows the same one.
            order = list(inputs.items())
            random.Random(repeat).shuffle(order)
            for name, (path, rows) in order:
                for label, command in commands.items():
                    timing, printed = run_process(command, path, workdir, env)
                    runs[name, label].append(timing)
                    wrong[name] += wrong_answers(printed, rows)
                    progress.advance(task)
                    timing, printed = run_started(command, path, workdir, env)
                    started_runs[name, label].append(timing)
                    wrong[name] += wrong_answers(printed, rows)
                    progress.advance(task)

    def least(times: list[Timing]) -> Timing:
        if not times:
            return Timing(0.0, 0.0)
        return Timing(min(t.wall for t in times), min(t.cpu for t in times))

    best = {key: least(times) for key, times in runs.items()}
    best_started = {key: least(times) for key, times in started_runs.items()}
    solver = default_solver()
    solver.prefault()
    inside: dict[str, Timing] = {}
    for name, (_, rows) in inputs.items():
        lines = [moves for moves, _ in rows]
        walls, cpus = [], []
        for _ in range(repeats):
            solver.new_generation()
            wall, cpu = time.perf_counter(), time.process_time()
            for _item in answer_lines(lines, solver=solver):
                pass
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        inside[name] = Timing(min(walls), min(cpus))

    version = version_of(reference) if reference is not None else "-"
    table = Table(
        title="Whole processes, as users run them: reference `c4solver < FILE` (current master, "
        f"{version}, as built) and `python -m zermelo solve connect4 < FILE` ({kernel}); "
        f"best of {repeats}; wall clock / CPU (user + system)"
    )
    for header in (
        "input", "lines", "correct", "ref total", "ours total", "ref per position",
        "ours per position", "ours / ref", "ref per position, started",
        "ours per position, started", "ours / ref, started", "ours in process",
    ):  # fmt: skip
        table.add_column(header, justify="right")

    def pair(timing: Timing) -> str:
        return f"{duration(timing.wall)} / {duration(timing.cpu)}"

    no_time = Timing(0.0, 0.0)

    def per_line(file: Timing, empty: Timing, n: int) -> Timing:
        return Timing((file.wall - empty.wall) / n, (file.cpu - empty.cpu) / n)

    ref_start = best.get(("startup", "ref"), no_time)
    our_start = best["startup", "ours"]
    table.add_row(
        "empty (startup)", "0", "-", pair(ref_start) if reference else "-", pair(our_start),
        "-", "-",
        f"{ratio(our_start.wall, ref_start.wall)} / {ratio(our_start.cpu, ref_start.cpu)}",
        "-", "-", "-", "-",
    )  # fmt: skip
    for name, (_, rows) in inputs.items():
        if name == "startup":
            continue
        n = len(rows)
        ours = best[name, "ours"]
        ref = best.get((name, "ref"), no_time)
        our_per = per_line(ours, our_start, n)
        ref_per = per_line(ref, ref_start, n)
        our_after = per_line(best_started[name, "ours"], best_started["startup", "ours"], n)
        ref_after = per_line(
            best_started.get((name, "ref"), no_time),
            best_started.get(("startup", "ref"), no_time),
            n,
        )
        table.add_row(
            f"Test_{name}", f"{n:,}",
            "all" if not wrong[name] else f"[red]{wrong[name]} wrong[/red]",
            pair(ref) if reference else "-", pair(ours),
            pair(ref_per) if reference else "-", pair(our_per),
            f"{ratio(our_per.wall, ref_per.wall)} / {ratio(our_per.cpu, ref_per.cpu)}"
            if reference else "-",
            pair(ref_after) if reference else "-", pair(our_after),
            f"{ratio(our_after.wall, ref_after.wall)} / {ratio(our_after.cpu, ref_after.cpu)}"
            if reference else "-",
            pair(Timing(inside[name].wall / n, inside[name].cpu / n)),
        )  # fmt: skip
    return table


def build_references(source: str, folder: Path, console: Console) -> tuple[Path, Path]:
    """Clone the reference into ``folder`` twice and build ``c4solver`` at commit 754d3b8 (it
    prints nodes and microseconds per position, emptying its table before each) and at the
    current master (what its users build); returns both binaries."""
    built = []
    for name, commit in (("754d3b8", "754d3b8"), ("master", "origin/HEAD")):
        checkout = folder / name
        if not (checkout / ".git").is_dir():
            subprocess.run(["git", "clone", "-q", source, str(checkout)], check=True)
        subprocess.run(["git", "-C", str(checkout), "checkout", "-q", commit], check=True)
        subprocess.run(["make", "-s", "-C", str(checkout), "c4solver"], check=True)
        console.print(f"built {checkout / 'c4solver'} at {version_of(checkout / 'c4solver')}")
        built.append(checkout / "c4solver")
    return built[0], built[1]


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
    parser.add_argument(
        "--reference-master",
        type=Path,
        default=None,
        help="the reference c4solver built at its current master, for the whole-process table",
    )
    parser.add_argument(
        "--build-references",
        type=Path,
        default=None,
        metavar="DIR",
        help="clone the reference into DIR (a temporary folder) and build both versions",
    )
    parser.add_argument(
        "--reference-source", default=REFERENCE_SOURCE, help="where --build-references clones from"
    )
    parser.add_argument(
        "--process-sets",
        default=",".join(PROCESS_SETS),
        help="comma-separated sets for the whole-process table (empty: skip it)",
    )
    parser.add_argument(
        "--process-repeats", type=int, default=5, help="runs per whole process (the best counts)"
    )
    args = parser.parse_args(argv)
    console = Console()
    if console.width < 190:
        console = Console(width=190)
    if not connect4_data_dir().is_dir():
        console.print(
            f"[red]benchmark data not found at {connect4_data_dir()} (set ZERMELO_C4_DATA)[/red]"
        )
        raise SystemExit(2)
    if args.build_references is not None:
        args.build_references.mkdir(parents=True, exist_ok=True)
        args.reference, args.reference_master = build_references(
            args.reference_source, args.build_references, console
        )
    for option, binary in (
        ("--reference", args.reference),
        ("--reference-master", args.reference_master),
    ):
        if binary is not None and not os.access(binary, os.X_OK):
            raise SystemExit(f"{option} {binary}: not an executable file")
    if args.process_repeats < 1:
        raise SystemExit("--process-repeats must be at least 1")
    names = set_names(args.sets)
    process_names = set_names(args.process_sets)

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
        if process_names:
            console.print(
                process_table(
                    args.reference_master,
                    process_names,
                    args.process_repeats,
                    Path(workdir),
                    console,
                )
            )
            console.print(
                "per position = (t(file) - t(empty input)) / lines: the cost of a line beyond "
                "what starting the process costs (both programs allocate and touch their table "
                "at startup, before reading). started: the same without the noise of startups: "
                "each process is started and left until it waits for its input, then sent the "
                "file (or nothing), and timed from there to its exit; per position = (t(file) - "
                "t(nothing)) / lines, which leaves out the exit as well. ours / ref <= 1 "
                "means ours costs no more. in process: answer_lines on the file's lines in this "
                "process (its table ready)."
            )
    if total_wrong:
        console.print(f"[red]{total_wrong} wrong scores[/red]")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
