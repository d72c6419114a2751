"""Tic-tac-toe: the tutorial's plain minimax against the engine, on the first move, in one run.

    python benchmarks/tictactoe.py [--repeat N]

The baseline is the tutorial's algorithm as the tutorial writes it: a board list, ``check_winner``
scanning the lines, and a full minimax tree below each of the nine first moves. The engine is timed
"cold": a fresh ``TicTacToe`` instance and the symmetry cache emptied before every run, so nothing
learnt by an earlier run helps. Times are medians over ``--repeat`` runs; the speed-up compares
medians measured in this same process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table

from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import alphabeta, minimax
from zermelo.tutorial import TicTacToe


class TutorialBaseline:
    """The tutorial's board and minimax, with a node counter added."""

    def __init__(self) -> None:
        self.board = [" "] * 9
        self.nodes = 0

    def check_winner(self) -> str | None:
        b = self.board
        for i in range(0, 9, 3):
            if b[i] == b[i + 1] == b[i + 2] != " ":
                return b[i]
        for i in range(3):
            if b[i] == b[i + 3] == b[i + 6] != " ":
                return b[i]
        if b[0] == b[4] == b[8] != " ":
            return b[0]
        if b[2] == b[4] == b[6] != " ":
            return b[2]
        return None

    def available_moves(self) -> list[int]:
        return [i for i, spot in enumerate(self.board) if spot == " "]

    def minimax(self, depth: int, is_maximizing: bool) -> float:
        self.nodes += 1
        winner = self.check_winner()
        if winner == "X":
            return 1
        if winner == "O":
            return -1
        if " " not in self.board:
            return 0
        best = float("-inf") if is_maximizing else float("inf")
        for move in self.available_moves():
            self.board[move] = "X" if is_maximizing else "O"
            score = self.minimax(depth + 1, not is_maximizing)
            self.board[move] = " "
            best = max(score, best) if is_maximizing else min(score, best)
        return best

    def get_best_move(self) -> int | None:
        self.nodes += 1  # the root position
        best_score, best_move = float("-inf"), None
        for move in self.available_moves():
            self.board[move] = "X"
            score = self.minimax(0, False)
            self.board[move] = " "
            if score > best_score:
                best_score, best_move = score, move
        return best_move


def timed(run: Callable[[], tuple[object, int]], repeat: int) -> tuple[float, object, int]:
    """Median seconds of ``repeat`` runs, with the last run's move and node count."""
    times = []
    move: object = None
    nodes = 0
    for _ in range(repeat):
        started = time.perf_counter()
        move, nodes = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), move, nodes


def cold() -> None:
    """Nothing is cached between searches any more; kept as the one place to clear caches."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of each engine measurement")
    parser.add_argument("--baseline-repeat", type=int, default=3, help="runs of the slow baselines")
    args = parser.parse_args()

    def tutorial() -> tuple[object, int]:
        game = TutorialBaseline()
        return game.get_best_move(), game.nodes

    def oracle() -> tuple[object, int]:
        result = minimax(TicTacToeState.initial())
        return result.move, result.stats.nodes

    def engine() -> tuple[object, int]:
        cold()
        result = alphabeta(TicTacToeState.initial())
        return result.move, result.stats.nodes

    def tutorial_class() -> tuple[object, int]:
        cold()
        return TicTacToe().get_best_move(), 0

    rows = [
        ("tutorial's plain minimax (board list)", *timed(tutorial, args.baseline_repeat)),
        ("zermelo.search.minimax (the oracle)", *timed(oracle, args.baseline_repeat)),
        ("zermelo.search.alphabeta, cold", *timed(engine, args.repeat)),
        ("zermelo.tutorial.TicTacToe().get_best_move(), cold", *timed(tutorial_class, args.repeat)),
    ]
    baseline = rows[0][1]
    table = Table(title="Tic-tac-toe, first move from the empty board (X to move)")
    table.add_column("algorithm")
    table.add_column("move", justify="right")
    table.add_column("nodes", justify="right")
    table.add_column("median time", justify="right")
    table.add_column("speed-up", justify="right")
    for name, seconds, move, nodes in rows:
        table.add_row(
            name,
            str(move),
            f"{nodes:,}" if nodes else "-",
            f"{seconds * 1000:,.3f} ms",
            f"{baseline / seconds:,.0f}x",
        )
    Console(width=120).print(table)
    target = baseline / rows[3][1]
    verdict = "met" if target >= 1000 else "MISSED"
    Console().print(
        f"Target: at least 1,000x faster than the tutorial: {target:,.0f}x ({verdict})."
    )


if __name__ == "__main__":
    main()
