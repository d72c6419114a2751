"""The backgammon move generator's speed, in one run: full moves generated per second by the
kernel compiled by numba and by its plain-Python copy, on the same positions, beside OpenSpiel's
``legal_actions`` on positions of its own random games.

The positions come from random self-play games (seeded) on the kernel, each with the roll it was
played with. Rates are per CPU second of this process (on a shared machine wall time measures the
other processes too):

* ``calls``: ``gen_moves`` called from Python once per position (what a Python training loop
  pays, argument unboxing included);
* ``in-kernel``: the same positions walked by one compiled loop (what a numba training loop pays);
* ``self-play``: whole random games played by the kernel (generate, pick, swap) from Python;
* ``plain``: the plain-Python copy (``ZERMELO_NO_NUMBA``'s path), on the first positions only;
* OpenSpiel: ``legal_actions`` of its own random games' decision nodes; a double there is two
  actions of two checker moves, so its figure counts the first half's actions only, a lighter
  task than a whole turn's plays.

    python benchmarks/backgammon_kernel.py            # 300 games
    python benchmarks/backgammon_kernel.py --games 50
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from zermelo.core.jit import kernel_variant
from zermelo.games.backgammon import kernel


def _positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    buffers = kernel.new_buffers()
    boards: list[np.ndarray] = []
    dice: list[tuple[int, int]] = []
    for _ in range(games):
        board = kernel.start_board()
        while kernel.result(board) == 0:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            boards.append(board.copy())
            dice.append((d1, d2))
            n = kernel.gen_moves(board, d1, d2, *buffers)
            board = kernel.swapped(buffers[0][rng.randrange(n)])
    return np.array(boards, np.int8), np.array(dice, np.int64)


def _calls(module: object, boards: np.ndarray, dice: np.ndarray) -> tuple[float, int]:
    gen = module.gen_moves  # type: ignore[attr-defined]
    buffers = module.new_buffers()  # type: ignore[attr-defined]
    start = time.process_time()
    total = 0
    for i in range(len(boards)):
        total += gen(boards[i], int(dice[i, 0]), int(dice[i, 1]), *buffers)
    return time.process_time() - start, total


def _in_kernel(boards: np.ndarray, dice: np.ndarray) -> tuple[float, int]:
    import numba

    gen = kernel.gen_moves

    @numba.njit(cache=False)
    def walk(boards, dice, out, steps, work, table):  # type: ignore[no-untyped-def]
        total = 0
        for i in range(boards.shape[0]):
            total += gen(boards[i], dice[i, 0], dice[i, 1], out, steps, work, table)
        return total

    buffers = kernel.new_buffers()
    walk(boards[:2], dice[:2], *buffers)  # compile
    start = time.process_time()
    total = walk(boards, dice, *buffers)
    return time.process_time() - start, int(total)


def _self_play(games: int, seed: int) -> tuple[float, int, int]:
    rng = random.Random(seed)
    buffers = kernel.new_buffers()
    start = time.process_time()
    positions = total = 0
    for _ in range(games):
        board = kernel.start_board()
        while kernel.result(board) == 0:
            n = kernel.gen_moves(board, rng.randint(1, 6), rng.randint(1, 6), *buffers)
            total += n
            positions += 1
            board = kernel.swapped(buffers[0][rng.randrange(n)])
    return time.process_time() - start, positions, total


def _openspiel(games: int, seed: int) -> tuple[float, int, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    elapsed = 0.0
    positions = total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            start = time.process_time()
            actions = state.legal_actions()
            elapsed += time.process_time() - start
            positions += 1
            total += len(actions)
            state.apply_action(rng.choice(actions))
    return elapsed, positions, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", type=int, default=3000, help="positions for the plain copy")
    args = parser.parse_args()
    console = Console()
    if not kernel.COMPILED:
        console.print("numba is unavailable (or ZERMELO_NO_NUMBA is set): nothing to compare")
        return
    boards, dice = _positions(args.games, args.seed)
    kernel.gen_moves(boards[0], 1, 1, *kernel.new_buffers())  # compile outside the clock
    rows: list[tuple[str, int, int, float]] = []
    seconds, moves = _calls(kernel, boards, dice)
    rows.append(("kernel, numba: calls from Python", len(boards), moves, seconds))
    seconds, moves = _in_kernel(boards, dice)
    rows.append(("kernel, numba: in-kernel loop", len(boards), moves, seconds))
    seconds, positions, moves = _self_play(args.games, args.seed + 1)
    rows.append((f"kernel, numba: {args.games} random games", positions, moves, seconds))
    plain = kernel_variant(kernel, False, "backgammon kernel")
    few = min(args.plain, len(boards))
    seconds, moves = _calls(plain, boards[:few], dice[:few])
    rows.append(("kernel, plain Python: calls", few, moves, seconds))
    spiel = _openspiel(args.games, args.seed)
    if spiel is not None:
        seconds, positions, moves = spiel
        rows.append(("OpenSpiel legal_actions (own games)", positions, moves, seconds))

    table = Table(title=f"backgammon move generation ({len(boards):,} positions, CPU time)")
    for name in ("generator", "positions", "moves", "positions/s", "moves/s", "us/position"):
        table.add_column(name, justify="left" if name == "generator" else "right")
    for name, positions, moves, spent in rows:
        seconds = max(spent, 1e-9)
        table.add_row(
            name,
            f"{positions:,}",
            f"{moves:,}",
            f"{positions / seconds:,.0f}",
            f"{moves / seconds:,.0f}",
            f"{seconds / positions * 1e6:,.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
