"""What ``zermelo analyze`` pays for its live lines in chess, side by side in one run.

The chess engine's all-moves analysis is one call that deepens internally; ``analyze`` calls it
once per depth (``zermelo.play.review.deepen``) so that each completed depth can be printed and
kept for Ctrl-C. Both get the same time budget per position, each from a cleared table; the
table shows the depth each completed and the nodes it searched (the completed depths' nodes).

    python benchmarks/analyze_deepen.py [--time SECONDS]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# benchmarks/chess.py would shadow python-chess for the engine's imports: not this folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from zermelo.core.limits import Limits  # noqa: E402
from zermelo.games.registry import get_game  # noqa: E402
from zermelo.play.review import deepen  # noqa: E402
from zermelo.solvers.chess import tools as chess_tools  # noqa: E402

POSITIONS = (
    ("start", ""),
    ("1. e4 e5", "e4 e5"),
    (
        "Immortal, move 11",
        "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6",
    ),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=2.0, help="seconds per position")
    seconds = parser.parse_args().time
    spec = get_game("chess")
    engine = spec.engine_analysis
    assert engine is not None
    analysis = engine.resolve()
    start = spec.new()
    analysis.analyze(start, Limits(depth=2))  # the compile, outside the timings
    table = Table(title=f"chess analyze, {seconds:g} s per position")
    for heading in ("position", "one call: depth", "nodes", "deepened: depth", "nodes"):
        table.add_column(heading, justify="right")
    for label, text in POSITIONS:
        if "/" in text:
            state = spec.parse(text)
        else:
            state = start
            for word in text.split():
                state = state.play(state.parse_move(word))
        # each from a cleared table: neither inherits the other's work
        chess_tools._engine().new_game()
        once = analysis.analyze(state, Limits(time=seconds))
        chess_tools._engine().new_game()
        deepened = deepen(spec, state, depth=None, time_limit=seconds)
        table.add_row(
            label,
            str(once.depth),
            f"{once.stats.nodes:,}",
            str(deepened.depth),
            f"{deepened.stats.nodes:,}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
