"""Build the labelled held-out positions of Connect Four that zermelo.learn measures a net on.

    python scripts/label_positions.py [--pons DIR] [--seed N]

Writes two label files (see zermelo.learn.truth), every position solved exactly and every Pons
position checked against the score its file gives:

* ``src/zermelo/learn/data/connect4.labels``, shipped in the package for the measurement at every
  checkpoint: 200 positions drawn from each of ``Test_L3_R1`` (end, easy), ``Test_L2_R1`` (middle,
  easy) and ``Test_L2_R2`` (middle, medium) as tests/data/connect4 holds them (their first 400
  lines), and 200 positions of seeded random play, 6 or 7 at each ply from 4 to 36, not over and
  not lost for the side to move (a lost position counts in no share);
* ``tests/data/connect4/Test_L2_R1.labels``: all 1000 positions of ``Test_L2_R1`` from ``--pons``
  (the full sets: ../shared/benchmarks/connect4), for benchmarks/learn.py.

It prints how long each part took.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from zermelo.games.registry import get_game
from zermelo.learn.truth import Label, Truth, label_lines, random_positions, write_labels

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "data" / "connect4"
SHIPPED = ROOT / "src" / "zermelo" / "learn" / "data" / "connect4.labels"
FULL = TESTS / "Test_L2_R1.labels"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2")
PER_SET = 200
RANDOM = 200
PLIES = range(4, 37)
BUCKETS = ((4, 11), (12, 19), (20, 27), (28, 36))


def bucket(ply: int) -> str:
    """The ply bucket a random position belongs to, as its set's name."""
    for low, high in BUCKETS:
        if low <= ply <= high:
            return f"random ply {low}-{high}"
    raise ValueError(f"ply {ply} is outside {PLIES}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", type=Path, default=ROOT.parent / "shared/benchmarks/connect4")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--full-only", action="store_true", help=f"write {FULL.name} alone")
    args = parser.parse_args()
    spec = get_game("connect4")
    truth = Truth(spec)
    truth.label(truth.read("4"))  # load the solver before the clock starts
    if not args.full_only:
        ship(truth, random.Random(args.seed))
    source = args.pons / "Test_L2_R1"
    if not source.is_file():
        print(f"{source}: not found; {FULL.name} not written", file=sys.stderr)
        return 1
    started = time.perf_counter()
    full = label_lines(truth, source.read_text().splitlines(), "Test_L2_R1")
    print(f"Test_L2_R1 (all): {len(full)} positions in {time.perf_counter() - started:.1f} s")
    write_labels(FULL, spec.name, full)
    print(f"{FULL.relative_to(ROOT)}: {FULL.stat().st_size} bytes")
    return 0


def ship(truth: Truth, rng: random.Random) -> None:
    """Write the shipped labels: a sample of each Pons set, then the random positions."""
    shipped: list[Label] = []
    for name in SETS:
        lines = (TESTS / name).read_text().splitlines()
        chosen = sorted(rng.sample(range(len(lines)), PER_SET))
        started = time.perf_counter()
        shipped += label_lines(truth, [lines[i] for i in chosen], name)
        print(f"{name}: {PER_SET} positions in {time.perf_counter() - started:.1f} s")
    plies = [PLIES[i % len(PLIES)] for i in range(RANDOM)]
    started = time.perf_counter()
    shipped += random_positions(
        truth, rng, sorted(plies), keep=lambda label: not label.lost, group=bucket
    )
    print(f"random: {RANDOM} positions in {time.perf_counter() - started:.1f} s")
    write_labels(SHIPPED, truth.spec.name, shipped)
    print(f"{SHIPPED.relative_to(ROOT)}: {len(shipped)} positions, {SHIPPED.stat().st_size} bytes")


if __name__ == "__main__":
    sys.exit(main())
