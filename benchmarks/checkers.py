"""Checkers: move generation (perft) and search speed, against plain minimax, in one run.

    python benchmarks/checkers.py [--perft N] [--depth N]

Perft counts the move sequences from the initial position and is checked against the published
counts; it is timed cold (the move cache emptied first). The search table compares, on the same
positions and in this same process, the oracle (plain depth-limited minimax), alpha-beta at that
depth, and alpha-beta with the quiescent evaluator the levels use (its node count is the main
search's; the capture lines it plays out at the horizon are not counted, only timed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table

from zermelo.games import checkers
from zermelo.games.checkers import CheckersState, perft
from zermelo.search import alphabeta, minimax
from zermelo.search.quiescence import quiescent

PERFT = (1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680)
POSITIONS = {
    "initial": checkers.INITIAL_FEN,
    "middle game": "B:W17,19,21,23,25,27,28,29,30,32:B1,2,3,4,6,7,10,11,12,18",
    "kings": "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
}


def cold() -> None:
    checkers._legal_moves.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perft", type=int, default=7, help="deepest perft (default 7)")
    parser.add_argument("--depth", type=int, default=6, help="search depth in plies (default 6)")
    args = parser.parse_args()
    console = Console(width=120)

    table = Table(title="Perft from the initial position (cold)")
    for column in ("depth", "nodes", "expected", "time", "leaves/s"):
        table.add_column(column, justify="right")
    start = CheckersState.initial()
    for depth in range(1, args.perft + 1):
        cold()
        began = time.perf_counter()
        nodes = perft(start, depth)
        seconds = time.perf_counter() - began
        expected = PERFT[depth] if depth < len(PERFT) else None
        table.add_row(
            str(depth),
            f"{nodes:,}",
            "-" if expected is None else ("ok" if nodes == expected else f"MISMATCH {expected:,}"),
            f"{seconds * 1000:,.1f} ms",
            f"{nodes / seconds:,.0f}" if seconds > 0 else "-",
        )
    console.print(table)

    table = Table(title=f"Search to depth {args.depth} (cold, a fresh table each)")
    for column in (
        "position",
        "algorithm",
        "move",
        "value",
        "nodes",
        "time",
        "nodes/s",
        "speed-up",
    ):
        table.add_column(
            column, justify="right" if column not in ("position", "algorithm") else "left"
        )
    for name, fen in POSITIONS.items():
        state = CheckersState.parse(fen)
        rows = []
        for label, search in (
            ("minimax (oracle)", lambda s: minimax(s, args.depth)),
            ("alphabeta", lambda s: alphabeta(s, depth=args.depth)),
            (
                "alphabeta + quiescence",
                lambda s: alphabeta(s, depth=args.depth, evaluator=quiescent()),
            ),
        ):
            cold()
            began = time.perf_counter()
            result = search(state)
            seconds = time.perf_counter() - began
            rows.append((label, result, seconds))
        baseline = rows[0][2]
        for label, result, seconds in rows:
            table.add_row(
                name,
                label,
                state.format_move(result.move),
                f"{result.value:+.0f}",
                f"{result.stats.nodes:,}",
                f"{seconds * 1000:,.1f} ms",
                f"{result.stats.nodes / seconds:,.0f}",
                f"{baseline / seconds:,.1f}x",
            )
    console.print(table)

    table = Table(title="Iterative deepening for 1 s with quiescence (the hard level)")
    for column in ("position", "depth reached", "move", "value", "nodes", "nodes/s"):
        table.add_column(column)
    for name, fen in POSITIONS.items():
        cold()
        state = CheckersState.parse(fen)
        result = alphabeta(state, time_limit=1.0, evaluator=quiescent())
        table.add_row(
            name,
            str(result.depth),
            state.format_move(result.move),
            f"{result.value:+.0f}",
            f"{result.stats.nodes:,}",
            f"{result.stats.nodes_per_second:,.0f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
