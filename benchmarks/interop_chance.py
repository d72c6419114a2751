"""OpenSpiel's games of chance and hidden information through interop, against zermelo's own
versions of the same games, side by side in one run.

    python benchmarks/interop_chance.py [--iterations N] [--depth N] [--repeat N]

1. CFR+. The whole tree of Kuhn poker and of Leduc hold'em is walked into zermelo's CFR arrays
   (:func:`zermelo.search.cfr.build_tree`) from OpenSpiel's ``kuhn_poker``/``leduc_poker``
   wrapped by :mod:`zermelo.interop.openspiel` and from zermelo's ``kuhn``/``leduc``; then
   ``--iterations`` of CFR+ run on each tree. The table gives the histories, the CPU seconds of
   the walk and of the iterations, the first player's value and the exploitability reached: the
   figures must agree, the cost of the walk is what wrapping adds.

2. Expectiminimax. The start of Pig with goal 10 is searched ``--depth`` edges deep (moves and
   rolls, the unread positions counted even) on OpenSpiel's ``pig(winscore=10)`` wrapped and on
   zermelo's ``pig``; same value, same nodes, the CPU time of each (median of ``--repeat``).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table

from zermelo.core.state import AnyState
from zermelo.games.registry import get_game
from zermelo.interop.openspiel import load
from zermelo.search.cfr import CfrSolver, build_tree, expected_value, exploitability
from zermelo.search.expectimax import expectiminimax

T = TypeVar("T")


def _cpu(work: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def cfr_rows(iterations: int) -> Table:
    table = Table(title=f"CFR+ ({iterations} iterations)")
    for column in ("game", "states from", "histories", "walk s", "CFR+ s", "value", "exploit."):
        table.add_column(
            column, justify="right" if column not in ("game", "states from") else "left"
        )
    pairs = [("Kuhn", "kuhn_poker", "kuhn"), ("Leduc", "leduc_poker", "leduc")]
    for title, spiel_name, own in pairs:
        roots: list[tuple[str, AnyState]] = [
            ("OpenSpiel via interop", load(spiel_name).new()),
            ("zermelo", get_game(own).new()),
        ]
        for source, root in roots:
            walk, tree = _cpu(functools.partial(build_tree, root))
            solver = CfrSolver(tree)
            spent, _ = _cpu(functools.partial(solver.iterate, iterations))
            average = solver.average_array()
            table.add_row(
                title,
                source,
                f"{tree.nodes:,}",
                f"{walk:.3f}",
                f"{spent:.3f}",
                f"{expected_value(tree, average):+.4f}",
                f"{exploitability(tree, average):.5f}",
            )
    return table


def pig_rows(depth: int, repeat: int) -> Table:
    table = Table(title=f"Pig goal 10, expectiminimax {depth} edges from the start")
    for column in ("states from", "value", "nodes", "CPU ms (median)"):
        table.add_column(column, justify="left" if column == "states from" else "right")
    roots: list[tuple[str, AnyState]] = [
        ("OpenSpiel via interop", load("pig(winscore=10)").new()),
        ("zermelo", get_game("pig").new(goal=10)),
    ]
    for source, root in roots:
        times = []
        result = None
        for _ in range(repeat):
            search = functools.partial(expectiminimax, root, depth, evaluator=_even)
            spent, result = _cpu(search)
            times.append(spent)
        table.add_row(
            source,
            f"{result.value:+.6f}" if result else "",
            f"{result.stats.nodes:,}" if result else "",
            f"{1000 * statistics.median(times):.1f}",
        )
    return table


def _even(state: AnyState) -> float:
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    console = Console()
    console.print(cfr_rows(args.iterations))
    console.print(pig_rows(args.depth, args.repeat))


if __name__ == "__main__":
    main()
