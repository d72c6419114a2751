"""What the truth measures say of players that need no training, side by side in one run.

    python benchmarks/learn_truth.py [--seed N]

Calibrates the targets of zermelo.learn (the net's move alone optimal in >= 90% of Pons'
Test_L2_R1 positions): the share of positions where each player's move is optimal (keeps the exact
outcome) and where it has the best exact score, over the positions that are not lost, for

* Connect Four: a uniformly random move, the levels easy, medium and hard, on all 1000 positions
  of Test_L2_R1 (tests/data/connect4/Test_L2_R1.labels) and on each set of the labels shipped in
  the package (zermelo.learn.truth.shipped_labels);
* tic-tac-toe: a random move and the exact best move on the 4,520 positions with X to move (both
  starters), and how many of them ``never_loses`` finds lost against the perfect player.

It also times labelling the 1000 positions of Test_L2_R1 afresh with the solver.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table

from zermelo.core.state import Player
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.learn.truth import (
    Chooser,
    Label,
    Truth,
    by_set,
    label_lines,
    move_shares,
    never_loses,
    perfect_chooser,
    random_chooser,
    read_labels,
    shipped_labels,
    to_move_positions,
)

ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "tests" / "data" / "connect4" / "Test_L2_R1.labels"


def _cell(labels: list[Label], choose: Chooser, game: str) -> str:
    shares = move_shares(labels, choose, get_game(game))
    return f"{shares.optimal:.1%} / {shares.best_score:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # This folder's chess.py would hide the chess package that the agents import.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    from zermelo.agents.connect4 import Connect4Agent

    console = Console(width=120)
    spec = get_game("connect4")
    full = read_labels(FULL.read_text()).labels
    found = shipped_labels(spec)
    assert found is not None, "the package ships no Connect Four labels"
    sets = {"Test_L2_R1 (all 1000)": full, **by_set(found.labels)}
    players: dict[str, Chooser] = {
        "random": random_chooser(args.seed),
        "easy": Connect4Agent("easy").choose,
        "medium": Connect4Agent("medium").choose,
        "hard": Connect4Agent("hard").choose,
    }
    table = Table(title="Connect Four: optimal / best-score share (positions not lost)")
    table.add_column("set")
    table.add_column("counted", justify="right")
    for name in players:
        table.add_column(name, justify="right")
    for name, labels in sets.items():
        counted = sum(not label.lost for label in labels)
        table.add_row(
            name,
            f"{counted}/{len(labels)}",
            *(_cell(labels, choose, "connect4") for choose in players.values()),
        )
    console.print(table)

    truth = Truth(spec)
    truth.label(truth.read("4"))
    lines = [f"{label.position} {label.score:g}" for label in full]
    started = time.perf_counter()
    label_lines(truth, lines, "Test_L2_R1")
    console.print(
        f"Labelling all {len(lines)} positions of Test_L2_R1 with the solver: "
        f"{time.perf_counter() - started:.1f} s"
    )

    ttt = get_game("tictactoe")
    ttt_truth = Truth(ttt)
    starts = to_move_positions(
        [TicTacToeState.initial(Player.FIRST), TicTacToeState.initial(Player.SECOND)],
        Player.FIRST,
    )
    started = time.perf_counter()
    ttt_labels = [ttt_truth.label(state) for state in starts]
    labelled = time.perf_counter() - started
    table = Table(title=f"Tic-tac-toe: {len(starts)} positions with X to move")
    for column in ("player", "optimal / best-score", "positions it ends worse than exact"):
        table.add_column(column, justify="right")
    ttt_players = {"random": random_chooser(args.seed), "perfect": perfect_chooser(ttt_truth)}
    for name, choose in ttt_players.items():
        failures = never_loses(choose, ttt_truth, starts)
        table.add_row(name, _cell(ttt_labels, choose, "tictactoe"), str(len(failures)))
    console.print(table)
    console.print(f"Labelling the {len(starts)} tic-tac-toe positions: {labelled:.2f} s")


if __name__ == "__main__":
    main()
