"""Nodes against depth: minimax, alpha-beta, alpha-beta with the table and with move ordering.

    python benchmarks/nodes_by_depth.py [--game tictactoe|connect4|chess] [--seconds S]

Every count is measured live in this run by the engine's own searches (see
``zermelo.search.depth_nodes``) from the game's starting position, the root included, with the
same table as ``zermelo learn-minimax --nodes``; b^d and b^(d/2) are the tutorial's O(b^m) and
alpha-beta's best case O(b^(m/2)) for the starting position's b. A series stops at the first
depth that needs more than the node limit, or before one that would take more than ``--seconds``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console

from zermelo.cli.learn import MAX_DEPTHS, NODE_GAMES, NODE_LIMIT, node_table
from zermelo.games.registry import get_game
from zermelo.search.depth_nodes import branching, nodes_by_depth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=NODE_GAMES, default=None)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    if not 0.1 <= args.seconds <= 60:
        parser.error("--seconds: expected a number from 0.1 to 60")
    out = Console(highlight=False)
    for game in (args.game,) if args.game else NODE_GAMES:
        state = get_game(game).new()
        counts = nodes_by_depth(
            state, max_depth=MAX_DEPTHS[game], node_limit=NODE_LIMIT, seconds=args.seconds
        )
        out.print(node_table(game, counts, branching(state)))
        slowest = max(counts, key=lambda c: c.seconds)
        out.print(
            f"slowest measurement: {slowest.variant} at depth {slowest.depth}, "
            f"{slowest.seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
