"""How the hard Connect Four level finds its moves, in seeded games against medium.

Hard alternates sides from the empty board. For every hard move the table counts how it was found
(``exact``: it keeps the exact score, the book answering the first three plies; ``outcome``: the
exact search was over the node budget and the move keeps the win, draw or loss; ``heuristic``: over
budget again, or lost anyway, so a 6-ply search chose) and how long it took, with the slowest move
and its ply. A perfect hard level never loses a game it started as the winner.

    python benchmarks/connect4_hard.py                 # 6 games, seeds 0-5
    python benchmarks/connect4_hard.py --games 10 --node-limit 100000000

Times are CPU seconds of this process, since the machine may be shared (one solver, its table
kept from move to move, as in ``zermelo play``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bench_common import progress_bar  # noqa: E402  (beside this script)
from zermelo.core.state import Player  # noqa: E402
from zermelo.games.connect4 import Connect4State  # noqa: E402
from zermelo.solvers.connect4 import Connect4Solver  # noqa: E402
from zermelo.solvers.connect4.api import HARD_NODE_LIMIT, choose_move, hard_move  # noqa: E402

KINDS = ("exact", "outcome", "heuristic")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=6, help="games to play (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--node-limit",
        type=int,
        default=HARD_NODE_LIMIT,
        help=f"nodes per solver search (default {HARD_NODE_LIMIT:,}, the hard level's)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.node_limit < 1:
        raise SystemExit("--games and --node-limit must be at least 1")

    console = Console()
    if console.width < 120:
        console = Console(width=120)
    solver = Connect4Solver()
    table = Table(title="Hard Connect Four against medium: how each hard move was found")
    for header in (
        "seed",
        "hard plays",
        "result",
        "plies",
        "hard moves",
        *KINDS,
        "mean",
        "slowest",
    ):
        table.add_column(header, justify="right")
    totals = dict.fromkeys(KINDS, 0)
    all_times: list[tuple[float, int]] = []
    losses = 0
    with progress_bar(console) as progress:
        task = progress.add_task("games", total=args.games)
        for seed in range(args.seed, args.seed + args.games):
            hard_side = Player.FIRST if seed % 2 == 0 else Player.SECOND
            medium_rng = random.Random(seed)
            hard_rng = random.Random(10_000 + seed)
            state = Connect4State.initial()
            counts = dict.fromkeys(KINDS, 0)
            times: list[tuple[float, int]] = []
            while not state.is_terminal():
                if state.to_move == hard_side:
                    started = time.process_time()
                    column, kind = hard_move(
                        state, rng=hard_rng, solver=solver, node_limit=args.node_limit
                    )
                    times.append((time.process_time() - started, state.ply))
                    counts[kind] += 1
                else:
                    column = choose_move(state, "medium", rng=medium_rng)
                state = state.play(column)
            if state.winner is None:
                result = "draw"
            elif state.winner == hard_side:
                result = "hard won"
            else:
                result = "[red]hard lost[/red]"
                losses += 1
            slowest = max(times)
            table.add_row(
                str(seed), hard_side.name.lower(), result, str(state.ply), str(len(times)),
                *(str(counts[k]) for k in KINDS),
                f"{sum(t for t, _ in times) / len(times):.2f} s",
                f"{slowest[0]:.1f} s (ply {slowest[1]})",
            )  # fmt: skip
            for kind in KINDS:
                totals[kind] += counts[kind]
            all_times += times
            progress.advance(task)
    slowest = max(all_times)
    table.add_row(
        "all", "", f"{losses} lost", "", str(len(all_times)),
        *(str(totals[k]) for k in KINDS),
        f"{sum(t for t, _ in all_times) / len(all_times):.2f} s",
        f"{slowest[0]:.1f} s (ply {slowest[1]})",
        style="bold",
    )  # fmt: skip
    console.print(table)
    console.print(
        f"node budget {args.node_limit:,} per attempt (all its searches); CPU seconds; the "
        "solver's table is kept from move to move"
    )


if __name__ == "__main__":
    main()
