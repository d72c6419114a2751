"""The compiled kernels of two source trees, side by side in one run: this checkout's ``src`` and
another (``--base``, say an export of ``main``), for refactors that must not slow them down.

Each measure runs in a fresh process per tree (so each tree's numba cache is its own), the trees
taking turns for ``--rounds`` rounds after one warm-up round that is not counted (it fills numba's
caches); the table shows each tree's best CPU seconds (user + system of the measured call only) and
checks that both trees counted the same nodes or leaves. ``ZERMELO_NO_AOT=1`` is set, so the
Connect Four measure times numba's kernel in both trees.

    git archive main src | tar -x -C /tmp/base
    python benchmarks/kernels.py --base /tmp/base/src --rounds 3

Measures: chess perft (startpos depth 5, Kiwipete depth 4), the chess engine at a fixed depth on
three middle-game positions (nodes per CPU second), the Connect Four solver on positions of
``tests/data/connect4`` (nodes per CPU second), and the whole ``python -m zermelo perft chess
startpos --depth 5`` command (the CPU seconds of its process, startup included: on a shared
machine its wall time says more about the other processes than about this one).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
# benchmarks/chess.py must not hide the python-chess package from the child processes
sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != HERE]
ROOT = HERE.parent
C4_DATA = ROOT / "tests" / "data" / "connect4"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MIDDLE_GAMES = (
    ("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 b - - 0 6", 11),
    ("r1b1kb1r/1pqp1ppp/p1n1pn2/8/3NP3/2N1B3/PPP1BPPP/R2QK2R w KQkq - 4 8", 10),
    (KIWIPETE, 8),
)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(call: Callable[[], int]) -> tuple[float, int]:
    start = _cpu()
    count = call()
    return _cpu() - start, count


def child(measure: str) -> dict[str, float]:
    """Run one measure in this process (the tree is whatever ``zermelo`` imports)."""
    if measure.startswith("perft:"):
        from zermelo.solvers.chess import perft

        fen, depth = measure[6:].rsplit("@", 1)
        perft(fen, 2)  # loads the compiled functions
        seconds, count = _timed(lambda: sum(perft(fen, int(depth)) for _ in range(3)))
        return {"seconds": seconds, "count": count}
    if measure == "search":
        from zermelo.solvers.chess import ChessEngine

        ChessEngine(hash_mb=1).search("startpos", depth=2)
        total_seconds, total_nodes = 0.0, 0
        for position, plies in MIDDLE_GAMES:
            engine = ChessEngine(hash_mb=16)
            start = _cpu()
            nodes = engine.search(position, depth=plies).stats.nodes
            seconds = _cpu() - start
            total_seconds += seconds
            total_nodes += nodes
        return {"seconds": total_seconds, "count": total_nodes}
    if measure == "connect4":
        from zermelo.games.connect4 import Connect4State
        from zermelo.solvers.connect4 import Connect4Solver

        rows = (C4_DATA / "Test_L2_R2").read_text().split("\n")[:60]
        states = [Connect4State.parse(row.split()[0]) for row in rows if row.strip()]
        solver = Connect4Solver(book=False, table_bits=20)
        solver.solve_batch([(states[0].current, states[0].mask, states[0].ply)])
        positions = [(s.current, s.mask, s.ply) for s in states]
        seconds, nodes = _timed(lambda: sum(solver.solve_batch(positions)[1]))
        return {"seconds": seconds, "count": nodes}
    raise SystemExit(f"unknown measure {measure!r}")


def run(tree: Path, measure: str) -> dict[str, float]:
    environment = dict(os.environ, PYTHONPATH=str(tree), ZERMELO_NO_AOT="1")
    if measure == "cli":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, "-m", "zermelo", "perft", "chess", "startpos", "--depth", "5"],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        line = next(line for line in done.stdout.splitlines() if "leaves" in line)
        return {"seconds": seconds, "count": int(line.split()[2].replace(",", ""))}
    done = subprocess.run(
        [sys.executable, __file__, "--child", measure],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


MEASURES = (
    ("perft startpos d5, 3 times", "perft:startpos@5", "leaves/s"),
    ("perft Kiwipete d4, 3 times", f"perft:{KIWIPETE}@4", "leaves/s"),
    ("chess search, 3 positions", "search", "nodes/s"),
    ("Connect Four, 60 L2_R2", "connect4", "nodes/s"),
    ("CLI perft startpos d5 (process)", "cli", "process"),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="the other tree's src folder (required)")
    parser.add_argument("--rounds", type=int, default=3, help="counted rounds (default 3)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child)))
        return
    if args.base is None or not (args.base / "zermelo").is_dir():
        parser.error("--base must name another tree's src folder (with zermelo/ in it)")
    from rich.console import Console
    from rich.table import Table

    trees = {"base": args.base.resolve(), "this": (ROOT / "src").resolve()}
    best: dict[tuple[str, str], dict[str, float]] = {}
    for round_ in range(args.rounds + 1):
        for _, measure, _ in MEASURES:
            for name, tree in trees.items():
                result = run(tree, measure)
                if round_ == 0:
                    continue  # warm-up: numba's caches
                key = (name, measure)
                if key not in best or result["seconds"] < best[key]["seconds"]:
                    best[key] = result
    table = Table(title=f"kernels, best of {args.rounds} rounds, CPU seconds")
    for column in ("measure", "count", "same", "base s", "this s", "base rate", "this rate"):
        table.add_column(column, justify="right")
    table.add_column("this / base", justify="right")
    for label, measure, unit in MEASURES:
        old, new = best[("base", measure)], best[("this", measure)]
        rate = unit != "process"
        table.add_row(
            label,
            f"{int(new['count']):,}",
            "yes" if old["count"] == new["count"] else "NO",
            f"{old['seconds']:.3f}",
            f"{new['seconds']:.3f}",
            f"{old['count'] / old['seconds']:,.0f} {unit}" if rate else "",
            f"{new['count'] / new['seconds']:,.0f} {unit}" if rate else "",
            f"{old['seconds'] / new['seconds']:.2f}x speed",
        )
    Console(width=150).print(table)


if __name__ == "__main__":
    main()
