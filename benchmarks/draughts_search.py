"""The draughts search's speed, in one run: nodes per second of the engine's search from both
start positions, the compiled kernel and its plain-Python copy side by side, each at the same
fixed depth (the same tree: the node counts must agree), timed in CPU seconds.

    python benchmarks/draughts_search.py
    python benchmarks/draughts_search.py --depth 10 --plain-depth 6

Perft speed and the strength tables are benchmarks/draughts.py's.
"""

from __future__ import annotations

import argparse
import time

from zermelo.games.draughts.dama import DamaState
from zermelo.games.draughts.international import InternationalState
from zermelo.solvers.draughts import search
from zermelo.solvers.draughts.engine import DraughtsEngine


def _timed(
    engine: DraughtsEngine, state: InternationalState | DamaState, depth: int
) -> tuple[int, float]:
    engine.new_game()
    started = time.process_time()
    found = engine.search(state.white, state.black, state.kings, int(state.to_move), depth=depth)
    return found.nodes, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="depth of the compiled searches")
    parser.add_argument("--plain-depth", type=int, default=6, help="depth of the plain searches")
    args = parser.parse_args()
    rows = []
    for state in (InternationalState.initial(), DamaState.initial()):
        rules = type(state).RULES
        kinds = [("plain", False, args.plain_depth)]
        if search.COMPILED:
            kinds = [("compiled", True, args.plain_depth), *kinds, ("compiled", True, args.depth)]
        for kind, compiled, depth in kinds:
            engine = DraughtsEngine(rules, hash_mb=1, compiled=compiled)  # one table size: one tree
            _timed(engine, state, 2)  # loads (or compiles) the kernel
            nodes, seconds = _timed(engine, state, depth)
            rows.append((rules.name, kind, depth, nodes, seconds))
    print(f"{'game':14} {'kernel':9} {'depth':>5} {'nodes':>11} {'CPU s':>8} {'nodes/s':>11}")
    for name, kind, depth, nodes, seconds in rows:
        rate = nodes / seconds if seconds > 0 else 0.0
        print(f"{name:14} {kind:9} {depth:5d} {nodes:11,d} {seconds:8.2f} {rate:11,.0f}")


if __name__ == "__main__":
    main()
