"""Strength measurements from the arena: fixed-seed matches, printed as tables.

Each suite is a list of matches between two agents at the same time per move. A match is a round
robin of two (colours alternated, each game seeded from ``--seed``), so a run can be repeated:
agents on a time budget read as far as the machine lets them, so the figures move a little with
the load, never with the seed.

    python benchmarks/arena.py tictactoe
    python benchmarks/arena.py connect4 --time 0.5 --games 20
    python benchmarks/arena.py gomoku --time 1 --games 100 --jobs 2 --save gomoku.jsonl
    python benchmarks/arena.py gomoku --plot gomoku.png      # needs matplotlib

The gomoku suite checks the issue's targets: hard beats random in at least 99% of the games, medium
in at least 75%, and MCTS at equal time in a majority.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from zermelo.agents.spec import parse_agent
from zermelo.play import (
    GameRecord,
    elo_estimate,
    pair_tallies,
    round_robin,
    run_tasks,
    start_state,
)
from zermelo.play import save_records as write_records

# (first agent, second agent, target) where the target is the fraction of the games the first
# must win (0.5: more than half) or None; {t} is the time per move, {n} the MCTS iterations.
SUITES: dict[str, list[tuple[str, str, float | None]]] = {
    "tictactoe": [
        ("mcts:iterations={n}", "random", None),
        ("hard", "mcts:iterations={n}", None),
        ("mcts:iterations={n}", "engine:depth=2", None),
    ],
    "connect4": [
        ("mcts:time={t}", "hard:time={t}", None),
        ("mcts:time={t}", "engine:time={t}", None),
        ("mcts:time={t}", "random", None),
    ],
    "gomoku": [
        ("hard:time={t}", "random", 0.99),
        ("hard:time={t}", "medium:time={t}", 0.75),
        ("hard:time={t}", "mcts:time={t}", 0.5),
    ],
}


@dataclass
class MatchResult:
    first: str
    second: str
    target: float | None
    records: list[GameRecord]
    seconds: float


def mean_move_time(records: list[GameRecord], label: str) -> float:
    """Mean seconds per move of the agent ``label`` over ``records``."""
    times = []
    for record in records:
        side = start_state(record.game, record.options, record.start).to_move
        for seconds in record.times:
            if record.players[side] == label:
                times.append(seconds)
            side = side.opponent
    return sum(times) / len(times) if times else 0.0


def run_suite(
    game: str,
    per_move: float,
    iterations: int,
    games: int,
    seed: int,
    jobs: int,
    on_match: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    results = []
    for first_text, second_text, target in SUITES[game]:
        first = parse_agent(first_text.format(t=per_move, n=iterations))
        second = parse_agent(second_text.format(t=per_move, n=iterations))
        tasks = round_robin(game, [first, second], games, seed=seed)
        began = time.perf_counter()
        records = run_tasks(tasks, jobs=jobs)
        result = MatchResult(
            first.label, second.label, target, records, time.perf_counter() - began
        )
        results.append(result)
        if on_match is not None:
            on_match(result)
    return results


def table_of(game: str, results: list[MatchResult], title: str) -> Table:
    table = Table(title=title)
    for heading in ("agent", "opponent"):
        table.add_column(heading, no_wrap=True)
    for heading in ("games", "W", "D", "L", "score", "Elo [95%]", "target", "s/move", "wall s"):
        table.add_column(heading, justify="right", no_wrap=True)
    for result in results:
        tally = pair_tallies(result.records)[(result.first, result.second)]
        target = "-"
        if result.target is not None:
            # Targets count wins: at least that fraction of the games, or more than half.
            if result.target == 0.5:
                met = tally.wins > tally.games / 2
                target = "majority "
            else:
                met = tally.wins >= result.target * tally.games
                target = f">= {100 * result.target:.0f}% "
            target += "met" if met else "MISSED"
        table.add_row(
            result.first,
            result.second,
            *tally.cells(),
            elo_estimate(tally).describe(),
            target,
            f"{mean_move_time(result.records, result.first):.2f}/"
            f"{mean_move_time(result.records, result.second):.2f}",
            f"{result.seconds:.0f}",
        )
    return table


def plot(results: list[MatchResult], path: str, title: str) -> bool:
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return False
    labels, values, lows, highs = [], [], [], []
    for result in results:
        tally = pair_tallies(result.records)[(result.first, result.second)]
        labels.append(f"{result.first}\nvs {result.second}")
        values.append(100 * tally.score)
        estimate = elo_estimate(tally)
        lows.append(estimate.low)
        highs.append(estimate.high)
    figure, axis = plt.subplots(figsize=(8, 3 + 0.4 * len(results)))
    axis.barh(labels, values)
    axis.axvline(50, color="grey", linewidth=0.8)
    axis.set_xlim(0, 100)
    axis.set_xlabel("score of the first agent (%)")
    axis.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SUITES))
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move (default 0.2)")
    parser.add_argument(
        "--iterations", type=int, default=1000, help="MCTS iterations (tic-tac-toe)"
    )
    parser.add_argument("--games", type=int, default=10, help="games per match (default 10)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--save", default=None, help="save every game to this JSON-lines file")
    parser.add_argument("--plot", default=None, help="save a PNG chart (needs matplotlib)")
    args = parser.parse_args(argv)
    console = Console(highlight=False, width=160)
    title = (
        f"{args.game}: {args.games} games per match, {args.time:g} s per move, "
        f"seed {args.seed}, {args.jobs} jobs"
    )
    done: list[MatchResult] = []

    def finished(result: MatchResult) -> None:
        # Each match is reported and saved as it ends, so that a long run that is stopped
        # keeps what it has played.
        done.append(result)
        console.print(table_of(args.game, [result], f"{title}: match {len(done)}"))
        if args.save:
            write_records(args.save, [r for match in done for r in match.records])

    results = run_suite(
        args.game, args.time, args.iterations, args.games, args.seed, args.jobs, finished
    )
    console.print(table_of(args.game, results, title))
    if args.save:
        console.print(f"saved {sum(len(r.records) for r in results)} games to {args.save}")
    if args.plot and not plot(results, args.plot, title):
        print("matplotlib is not installed; no plot", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
