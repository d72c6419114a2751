"""Pig, side by side in one run: the nodes that expectiminimax, Star1 and Star2 visit for the same
values, and the levels' match results against each other (with the exact win chances of the
solved policies for comparison).

    python benchmarks/pig.py [--games N] [--goal N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# benchmarks/chess.py would shadow python-chess for the agents' imports: not this folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from zermelo.agents.spec import parse_agent  # noqa: E402
from zermelo.games.pig import PigState  # noqa: E402
from zermelo.play.ratings import pair_tallies  # noqa: E402
from zermelo.play.tournament import round_robin, run_tasks  # noqa: E402
from zermelo.search.expectimax import expectiminimax, star_minimax  # noqa: E402
from zermelo.solvers.pig import evaluate_hold_at, solve  # noqa: E402

POSITIONS = ("0 0 0 X", "40 60 10 O", "70 30 22 X", "90 95 4 O roll")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair of levels")
    parser.add_argument("--goal", type=int, default=100)
    args = parser.parse_args()
    out = Console()

    nodes = Table(title="Nodes for the same value (goal 100, d6)")
    for heading in ("position", "depth", "value", "expectiminimax", "Star1", "Star2", "Star2 s"):
        nodes.add_column(heading, justify="right")
    for text in POSITIONS:
        state = PigState.parse(text)
        for depth in (4, 6, 8):
            reference = expectiminimax(state, depth)
            star1 = star_minimax(state, depth, star=1)
            began = time.perf_counter()
            star2 = star_minimax(state, depth, star=2)
            seconds = time.perf_counter() - began
            assert abs(star1.value - reference.value) < 1e-12
            assert abs(star2.value - reference.value) < 1e-12
            nodes.add_row(
                text, str(depth), f"{reference.value:+.4f}", f"{reference.stats.nodes:,}",
                f"{star1.stats.nodes:,}", f"{star2.stats.nodes:,}", f"{seconds:.3f}",
            )  # fmt: skip
    out.print(nodes)

    began = time.perf_counter()
    optimal = solve(args.goal, 6)
    solved_in = time.perf_counter() - began
    simple = evaluate_hold_at(20, args.goal, 6)
    exact = Table(title=f"Exact chances of the first player (goal {args.goal}, value iteration)")
    exact.add_column("policy")
    exact.add_column("P(first wins)", justify="right")
    exact.add_column("sweeps", justify="right")
    exact.add_row("optimal vs optimal", f"{optimal.first_wins:.4f}", str(optimal.sweeps))
    exact.add_row("hold at 20 vs hold at 20", f"{simple.first_wins:.4f}", str(simple.sweeps))
    out.print(exact)
    out.print(f"solved in {solved_in:.1f} s")

    specs = [parse_agent(level) for level in ("easy", "medium", "hard")]
    tasks = round_robin("pig", specs, args.games, seed=1, start=f"0 0 0 X goal={args.goal}")
    began = time.perf_counter()
    records = run_tasks(tasks, jobs=1)
    match = Table(title=f"Levels, {args.games} games per pair, colours alternated, seed 1")
    for heading in ("agent", "opponent", "games", "wins", "losses", "score"):
        match.add_column(heading, justify="right")
    for (first, second), tally in pair_tallies(records).items():
        cells = tally.cells()
        match.add_row(first, second, cells[0], cells[1], cells[3], cells[4])
    out.print(match)
    out.print(f"{len(records)} games in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
