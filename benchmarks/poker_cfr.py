"""CFR and CFR+ on Kuhn poker and Leduc hold'em: NashConv against iterations and time, zermelo's
array CFR beside OpenSpiel's C++ solvers (``pyspiel.CFRSolver`` / ``CFRPlusSolver``) in one run.

    python benchmarks/poker_cfr.py                     # both games, up to 1000 iterations
    python benchmarks/poker_cfr.py --game leduc --iterations 200

NashConv as OpenSpiel defines it (exploitability = NashConv / 2), in chips; zermelo's figures by
``zermelo.search.cfr.nash_conv``, OpenSpiel's by ``pyspiel.nash_conv``, each on its own solver's
average policy. Times are the iterations alone (no NashConv), cumulative. Then the levels'
exact points per hand against each other (easy: uniform, medium: CFR+ stopped early, hard: the
shipped equilibrium), what ``zermelo arena`` estimates by sampling.
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from rich.console import Console
from rich.table import Table

from zermelo.search import cfr
from zermelo.solvers.poker import early_strategy, equilibrium, game_tree

SPIEL = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}


def marks(limit: int) -> list[int]:
    found = [m * s for s in (1, 10, 100, 1000, 10000) for m in (1, 2, 5) if m * s <= limit]
    return found if found and found[-1] == limit else [*found, limit]


def run(game: str, limit: int, console: Console) -> None:
    tree = game_tree(game)
    spiel_game = pyspiel.load_game(SPIEL[game])
    ours = {plus: cfr.CfrSolver(tree, plus=plus) for plus in (False, True)}
    theirs = {False: pyspiel.CFRSolver(spiel_game), True: pyspiel.CFRPlusSolver(spiel_game)}
    spent = {(who, plus): 0.0 for who in ("zermelo", "openspiel") for plus in (False, True)}
    table = Table(title=f"{game}: NashConv of the average strategy (chips)")
    for column in ("iterations", "CFR", "CFR OpenSpiel", "CFR+", "CFR+ OpenSpiel"):
        table.add_column(column, justify="right")
    table.add_column("zermelo s (CFR / CFR+)", justify="right")
    table.add_column("OpenSpiel s (CFR / CFR+)", justify="right")
    done = 0
    for mark in marks(limit):
        row = [str(mark)]
        for plus in (False, True):
            started = time.perf_counter()
            ours[plus].iterate(mark - done)
            spent["zermelo", plus] += time.perf_counter() - started
            started = time.perf_counter()
            for _ in range(mark - done):
                theirs[plus].evaluate_and_update_policy()
            spent["openspiel", plus] += time.perf_counter() - started
            row.append(f"{cfr.nash_conv(tree, ours[plus].average_array()):.6f}")
            row.append(f"{pyspiel.nash_conv(spiel_game, theirs[plus].average_policy()):.6f}")
        done = mark
        row.append(f"{spent['zermelo', False]:.2f} / {spent['zermelo', True]:.2f}")
        row.append(f"{spent['openspiel', False]:.2f} / {spent['openspiel', True]:.2f}")
        table.add_row(*row)
    value = cfr.expected_value(tree, ours[True].average_array())
    console.print(table)
    console.print(f"{game}: first player's value of CFR+'s average after {limit}: {value:.6f}")


def levels(game: str, console: Console) -> None:
    """The levels' exact points per hand against each other, both seats averaged."""
    tree = game_tree(game)
    strategies = {
        "easy": tree.uniform(),
        "medium": tree.to_array(dict(early_strategy(game))),
        "hard": tree.to_array(dict(equilibrium(game))),
    }
    table = Table(title=f"{game}: exact points per hand of the row level against the column")
    table.add_column("level")
    for name in strategies:
        table.add_column(name, justify="right")
    for name, mine in strategies.items():
        cells = []
        for theirs in strategies.values():
            first = cfr.expected_value(tree, (mine, theirs))
            second = -cfr.expected_value(tree, (theirs, mine))
            cells.append(f"{(first + second) / 2:+.4f}")
        table.add_row(name, *cells)
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SPIEL), action="append")
    parser.add_argument("--iterations", type=int, default=1000)
    args = parser.parse_args()
    console = Console(width=132)
    for game in args.game or ["kuhn", "leduc"]:
        run(game, args.iterations, console)
        levels(game, console)


if __name__ == "__main__":
    main()
