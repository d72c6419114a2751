"""The backgammon engine's speed, side by side for source trees in one run: TD(λ) self-play games
per CPU second (``fast.train_games``, what ``scripts/train_backgammon.py`` spends its time on),
and 1-ply and 2-ply searches (``search.rank_moves`` called from Python) per CPU second from the
opening position.

Each tree (a directory holding ``zermelo/``, e.g. a worktree's ``src``; the default is this
checkout's) runs in a subprocess of its own, after its compiled code is built, and the trees take
turns ``--rounds`` times; the table shows each one's best round (on a shared machine the best is
the least disturbed), and the ratio to the first tree.

    python benchmarks/backgammon_selfplay.py                      # this checkout only
    python benchmarks/backgammon_selfplay.py /tmp/old/src src     # before, after
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys, time
import numpy as np
from zermelo.solvers.backgammon import fast, search
from zermelo.solvers.backgammon.net import random_net, trained_net
games, seed = int(sys.argv[1]), int(sys.argv[2])
start = np.array([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2])
def board(n):  # the opening, in whichever layout the tree's engine reads
    b = np.zeros(n, np.int8)
    if n == 28:
        b[1:25] = start[1:25]
    else:
        b[:24] = start[1:25]
    return b
w = [a.copy() for a in random_net(seed).arrays()]
fast.train_games(*w, 2, seed, 0.1, 0.7, 3000)  # compile
net = trained_net()
size = 28 if hasattr(fast, "after_value") else 26
search.rank_moves(net, board(size), (3, 1), 2)
search.rank_moves(net, board(size), (3, 1), 1)
t = time.process_time()
fast.train_games(*w, games, seed, 0.1, 0.7, 3000)
selfplay = games / (time.process_time() - t)
t = time.process_time()
for _ in range(30):
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            search.rank_moves(net, board(size), (d1, d2), 1)
one = 30 * 36 / (time.process_time() - t)
t = time.process_time()
for d in ((3, 1), (6, 5), (4, 4)):
    search.rank_moves(net, board(size), d, 2)
two = 3 / (time.process_time() - t)
print(json.dumps([selfplay, one, two]))
"""


def _probe(tree: Path, games: int, seed: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(games), str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip().splitlines()[-1:]}")
    values: list[float] = json.loads(done.stdout.strip().splitlines()[-1])
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, help="source trees (default: this one)")
    parser.add_argument("--games", type=int, default=300, help="self-play games per round")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each tree")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    trees = args.trees or [ROOT / "src"]
    best: dict[Path, list[float]] = {}
    for _ in range(max(args.rounds, 1)):
        for tree in trees:
            values = _probe(tree, max(args.games, 1), args.seed)
            kept = best.setdefault(tree, values)
            best[tree] = [max(a, b) for a, b in zip(kept, values, strict=True)]
    table = Table(title=f"backgammon engine, best of {args.rounds} rounds (per CPU second)")
    for column in ("tree", "self-play games/s", "ratio", "1-ply/s", "2-ply/s"):
        table.add_column(column, justify="left" if column == "tree" else "right")
    first = best[trees[0]]
    for tree in trees:
        selfplay, one, two = best[tree]
        ratio = f"{selfplay / first[0]:.2f}x"
        table.add_row(str(tree), f"{selfplay:.1f}", ratio, f"{one:.0f}", f"{two:.2f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
