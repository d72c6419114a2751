"""Write the converged CFR+ strategies of Kuhn poker and Leduc hold'em that the package ships
(``src/zermelo/solvers/poker_strategies/<game>.json``), the hard level's strategy.

    python scripts/solve_poker.py                      # both games, the default iterations
    python scripts/solve_poker.py --game leduc --iterations 5000

Each file says how it was made: the iterations, the NashConv and the first player's value of the
strategy written, computed exactly on the whole tree.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from zermelo.search import cfr
from zermelo.solvers.poker import game_tree, read_strategy, strategy_text

OUT = Path(__file__).resolve().parent.parent / "src" / "zermelo" / "solvers" / "poker_strategies"
DEFAULT_ITERATIONS = {"kuhn": 20000, "leduc": 5000}


def solve(game: str, iterations: int) -> None:
    started = time.monotonic()
    tree = game_tree(game)
    solver = cfr.CfrSolver(tree, plus=True)
    solver.iterate(iterations)
    strategy = solver.average()
    text = strategy_text(
        game,
        strategy,
        method="CFR+",
        iterations=iterations,
        nash_conv=cfr.nash_conv(tree, solver.average_array()),
        value=cfr.expected_value(tree, solver.average_array()),
    )
    # what ships is the rounded table: measure that one
    shipped = read_strategy(text, game, game)
    conv = cfr.nash_conv(tree, dict(shipped))
    value = cfr.expected_value(tree, dict(shipped))
    path = OUT / f"{game}.json"
    path.write_text(text)
    seconds = time.monotonic() - started
    print(
        f"{game}: {iterations} CFR+ iterations, NashConv {conv:.6f} (as rounded), "
        f"value {value:.6f}, {len(shipped)} information sets, {seconds:.1f} s -> {path}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(DEFAULT_ITERATIONS), action="append")
    parser.add_argument("--iterations", type=int)
    args = parser.parse_args()
    for game in args.game or sorted(DEFAULT_ITERATIONS):
        solve(game, args.iterations or DEFAULT_ITERATIONS[game])


if __name__ == "__main__":
    main()
