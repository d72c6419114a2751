"""Gomoku / m,n,k benchmark: engine speed, exact solving times and seeded mini-matches.

    python benchmarks/gomoku.py                  # everything, short
    python benchmarks/gomoku.py --games 20 --time 1.0 --only match
    python benchmarks/gomoku.py --only tune --tune-games 60

Each part prints a rich table. Matches alternate colours and seed every game (random openers and
the random player draw from ``random.Random(seed + game)``); engines with a clock still depend on
the machine's speed, so the counts are a measurement, not a fixed fact.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from zermelo.games.mnk import MnkState, gomoku, parse
from zermelo.games.mnk_eval import default_evaluation
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search.alphabeta import alphabeta
from zermelo.search.minimax import minimax
from zermelo.solvers.gomoku import Engine
from zermelo.solvers.gomoku_tuning import play_match, tune
from zermelo.solvers.mnk import solve_mnk

POSITIONS = {
    "opening (3 stones)": "15x15 k5 15/15/15/15/15/15/7o7/7xx6/15/15/15/15/15/15/15 o",
    "middle game (30 stones)": (
        "15x15 k5 15/15/15/15/15/4x10/4o2xo6/4oxoxx6/4xoxoxo5/4ooxxxo5/3xo2ox6/2o4xoo5/8x6/15/15 x"
    ),
    "vcf on the board": "15x15 k5 15/15/15/15/15/6o8/5oxo7/5xxxo6/6xo7/7x7/15/15/15/15/15 o",
    "open three to answer": "15x15 k5 15/15/15/15/15/15/15/6xxx6/6oo7/15/15/15/15/15/15 o",
}

Chooser = Callable[[MnkState, random.Random], int]


def speed(console: Console, seconds: float) -> None:
    table = Table(title=f"Engine speed (hard, {seconds:g} s per position)")
    for column in ("position", "move", "depth", "nodes", "nodes/s", "reason"):
        table.add_column(column, justify="right" if column in ("depth", "nodes") else "left")
    for text in POSITIONS.values():
        # Warm the line-class cache, as a game in progress has: the first search of a process
        # spends much of its time classifying line shapes it has not seen before.
        Engine("hard").search(parse(text), seconds)
    for name, text in POSITIONS.items():
        state = parse(text)
        result = Engine("hard").search(state, seconds)
        table.add_row(
            name,
            state.format_move(result.move),
            str(result.depth),
            f"{result.stats.nodes:,}",
            f"{result.stats.nodes / max(result.stats.elapsed, 1e-9):,.0f}",
            result.reason,
        )
    started = time.perf_counter()
    runs = 200
    for _ in range(runs):
        alphabeta(TicTacToeState.initial())
    per_run = (time.perf_counter() - started) / runs
    started = time.perf_counter()
    minimax(TicTacToeState.initial())
    plain = time.perf_counter() - started
    console.print(table)
    console.print(
        f"tic-tac-toe alphabeta (unchanged foundation): {per_run * 1000:.2f} ms per solve, "
        f"{plain / per_run:,.0f}x faster than plain minimax ({plain:.2f} s)"
    )


def solving(console: Console) -> None:
    table = Table(title="Small m,n,k games solved exactly (symmetry + table + threats)")
    for column in ("game", "value", "first move", "nodes", "table", "seconds"):
        table.add_column(column)
    for m, n, k in ((3, 3, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4), (5, 5, 4)):
        solution = solve_mnk(m, n, k)
        stats = solution.stats
        table.add_row(
            f"{m}x{n} k={k}",
            {1: "first player wins", 0: "draw", -1: "second player wins"}[solution.value],
            solution.move_text or "-",
            f"{stats.nodes:,}",
            f"{stats.table_size:,}",
            f"{stats.elapsed:.2f}",
        )
    console.print(table)


def engine_player(level: str, seconds: float) -> Chooser:
    engine = Engine(level)

    def choose(state: MnkState, rng: random.Random) -> int:
        return engine.search(state, seconds, rng).move

    return choose


def random_player(state: MnkState, rng: random.Random) -> int:
    return rng.choice(state.legal_moves())


def match(a: Chooser, b: Chooser, games: int, seed: int) -> tuple[int, int, int, float]:
    score = [0, 0, 0]
    plies = 0
    for game in range(games):
        rng = random.Random(seed + game)
        players = (a, b) if game % 2 == 0 else (b, a)
        state = gomoku()
        while not state.is_terminal():
            state = state.play(players[int(state.to_move)](state, rng))
        plies += state.ply
        if state.winner is None:
            score[2] += 1
        else:
            a_is_x = game % 2 == 0
            a_won = (state.winner == 0) == a_is_x
            score[0 if a_won else 1] += 1
    return score[0], score[1], score[2], plies / max(games, 1)


def matches(console: Console, games: int, seconds: float, seed: int) -> None:
    table = Table(title=f"Seeded mini-matches on 15x15 ({games} games each, {seconds:g} s/move)")
    for column in ("match", "wins", "losses", "draws", "score", "avg plies", "seconds"):
        table.add_column(column)
    pairs = (
        ("hard vs random", engine_player("hard", seconds), random_player),
        ("medium vs random", engine_player("medium", seconds), random_player),
        ("easy vs random", engine_player("easy", seconds), random_player),
        ("hard vs medium", engine_player("hard", seconds), engine_player("medium", seconds)),
        ("medium vs easy", engine_player("medium", seconds), engine_player("easy", seconds)),
    )
    for name, a, b in pairs:
        started = time.perf_counter()
        wins, losses, draws, plies = match(a, b, games, seed)
        table.add_row(
            name,
            str(wins),
            str(losses),
            str(draws),
            f"{(wins + draws / 2) / max(games, 1):.0%}",
            f"{plies:.0f}",
            f"{time.perf_counter() - started:.0f}",
        )
    console.print(table)


def tuning(console: Console, games: int, match_games: int, seed: int) -> None:
    started = time.perf_counter()
    report = tune(games, seed=seed)
    fit_time = time.perf_counter() - started
    table = Table(title=f"Tuning: {games} self-play games, {report.positions} quiet positions")
    table.add_column("feature")
    table.add_column("default", justify="right")
    table.add_column("tuned", justify="right")
    before = default_evaluation().weights
    for name, weight in report.evaluation.weights.items():
        table.add_row(name, f"{before[name]:g}", f"{weight:g}")
    console.print(table)
    console.print(
        f"log loss {report.log_loss_before:.3f} -> {report.log_loss_after:.3f}, "
        f"accuracy {report.accuracy_after:.0%}, {fit_time:.0f} s"
    )
    wins, losses, draws = play_match(
        report.evaluation, default_evaluation(), match_games, seed=seed + 1000
    )
    console.print(
        f"tuned vs default ({match_games} seeded games, 400 nodes/move): "
        f"{wins} wins, {losses} losses, {draws} draws"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per mini-match")
    parser.add_argument("--time", type=float, default=0.2, help="seconds per engine move")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tune-games", type=int, default=20)
    parser.add_argument("--tune-match", type=int, default=10)
    parser.add_argument(
        "--only", choices=("speed", "solve", "match", "tune"), action="append", default=None
    )
    args = parser.parse_args()
    parts = args.only or ["speed", "solve", "match"]
    console = Console()
    if "speed" in parts:
        speed(console, 1.0)
    if "solve" in parts:
        solving(console)
    if "match" in parts:
        matches(console, args.games, args.time, args.seed)
    if "tune" in parts:
        tuning(console, args.tune_games, args.tune_match, args.seed)


if __name__ == "__main__":
    main()
