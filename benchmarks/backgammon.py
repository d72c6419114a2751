"""Backgammon strength: zermelo's levels against GNU Backgammon 0-ply and against each other.

    python benchmarks/backgammon.py                        # 500 games a gnubg match, 200 others
    python benchmarks/backgammon.py --gnubg-games 40 --games 40   # a quick look
    python benchmarks/backgammon.py --no-gnubg             # without gnubg

Money games (single game 1, gammon 2, backgammon 3 points), cubeless unless the cube column
says "on" (``--cube-games N``: hard against gnubg with the doubling cube, zermelo doubling and
taking by its money rule from the net's cubeless equity, gnubg by its cubeful 0-ply evaluation,
no Jacoby rule, no beavers), scored as points per game for the first-named player with a 95% interval (1.96 standard errors of the per-game points).
zermelo is the referee: it rolls the dice from ``random.Random(seed + k)`` for the game pair
``2k, 2k + 1`` (the same dice, the sides swapped: the first-named player starts the opening
roll's winner in one and the loser's side in the other), checks every play against the rules'
generator, and scores the game. gnubg plays at its 0-ply (static evaluation of each afterstate,
zermelo's 1-ply), cubeless, through ``gnubg -t -q`` (:mod:`zermelo.agents.gnubg`).

Levels: easy = the untrained net (seeded random weights) 1-ply, medium = the trained net 1-ply,
hard = the trained net 2-ply (gnubg's "1-ply"), with gnubg's move filter (8 candidates within
0.16 points).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Protocol

import numpy as np
from rich.console import Console
from rich.table import Table

# benchmarks/chess.py would stand in for python-chess: import zermelo with this folder off the path
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from zermelo.agents.backgammon import EASY_SEED  # noqa: E402
from zermelo.agents.gnubg import GnubgProcess, apply_hops  # noqa: E402
from zermelo.games.backgammon import kernel as rules  # noqa: E402
from zermelo.solvers.backgammon.net import Net, load_net, random_net, trained_net  # noqa: E402
from zermelo.solvers.backgammon.search import (  # noqa: E402
    position_equity,
    rank_moves,
    should_double,
    should_take,
)

sys.path.append(str(HERE))
from bench_common import progress_bar  # noqa: E402  (beside this script)

Board = np.ndarray
MAX_PLIES = 2000


def legal_set(board: Board, dice: tuple[int, int]) -> set[bytes]:
    boards, _steps = rules.legal(board, dice[0], dice[1])
    return {after.tobytes() for after in boards}


class Side(Protocol):
    """A player of the referee's games: its play of the dice, and its cube decisions (``held``:
    1 when the doubler owns the cube, -1 when it is in the middle)."""

    def move(self, board: Board, dice: tuple[int, int]) -> Board: ...

    def doubles(self, board: Board, cube: int, held: int) -> bool: ...

    def takes(self, doubler_board: Board, cube: int, held: int) -> bool: ...


class NetSide:
    """zermelo's net at ``plies``, doubling and taking by the money rule of its search."""

    def __init__(self, net: Net, plies: int) -> None:
        self.net, self.plies = net, plies

    def move(self, board: Board, dice: tuple[int, int]) -> Board:
        ranked = rank_moves(self.net, board, dice, self.plies)
        chosen: Board = ranked.boards[ranked.best]
        return chosen

    def doubles(self, board: Board, cube: int, held: int) -> bool:
        return should_double(position_equity(self.net, board))

    def takes(self, doubler_board: Board, cube: int, held: int) -> bool:
        return should_take(position_equity(self.net, doubler_board))


class GnubgSide:
    """gnubg 0-ply: its cubeless play, its cubeful money cube decisions."""

    def __init__(self, process: GnubgProcess) -> None:
        self.process = process

    def move(self, board: Board, dice: tuple[int, int]) -> Board:
        return apply_hops(board, self.process.best_move(board, dice))

    def doubles(self, board: Board, cube: int, held: int) -> bool:
        _, hold, take, drop = self.process.cube(board, cube, held)
        return min(take, drop) > hold

    def takes(self, doubler_board: Board, cube: int, held: int) -> bool:
        _, _, take, drop = self.process.cube(doubler_board, cube, held)
        return take <= drop


def play_game(a: Side, b: Side, a_is_first_side: bool, rng: random.Random, cube: bool) -> int:
    """One money game; returns the points of ``a`` (± 1/2/3 times the cube)."""
    while True:
        x, o = rng.randint(1, 6), rng.randint(1, 6)
        if x != o:
            break
    dice = (max(x, o), min(x, o))
    a_moves = (x > o) == a_is_first_side
    board = rules.start_board()
    value, owner = 1, None  # owner: "a", "b" or None (the middle)
    for ply in range(MAX_PLIES):
        mover, other = (a, b) if a_moves else (b, a)
        me = "a" if a_moves else "b"
        sign = 1 if a_moves else -1
        if ply > 0:
            if cube and owner in (None, me) and value < 64:
                held = -1 if owner is None else 1
                if mover.doubles(board, value, held):
                    if not other.takes(board, value, held):
                        return sign * value
                    value *= 2
                    owner = "b" if a_moves else "a"
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        after = mover.move(board, dice)
        if after.tobytes() not in legal_set(board, dice):
            raise SystemExit(f"an illegal play from {me}: {after}")
        won = int(rules.result(after))
        if won:
            return sign * won * value
        board = rules.swapped(after)
        a_moves = not a_moves
    return 0


def match(
    console: Console, label: str, a: Side, b: Side, games: int, seed: int, cube: bool = False
) -> tuple[float, float, float, float]:
    """``games`` games of ``a`` against ``b``: (ppg, 95% half-width, a's win share, seconds)."""
    points = []
    started = time.perf_counter()
    with progress_bar(console) as bar:
        task = bar.add_task(label, total=games)
        for g in range(games):
            rng = random.Random(seed + g // 2)
            points.append(play_game(a, b, g % 2 == 0, rng, cube))
            bar.advance(task)
    values = np.array(points, dtype=float)
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    return mean, half, float((values > 0).mean()), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gnubg-games", type=int, default=500, help="games of each gnubg match")
    parser.add_argument("--games", type=int, default=200, help="games of the other matches")
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--weights", type=Path, default=None, help="a trained .npz to measure")
    parser.add_argument("--no-gnubg", action="store_true", help="leave gnubg out")
    parser.add_argument(
        "--cube-games", type=int, default=0, help="games of hard against gnubg with the cube"
    )
    parser.add_argument("--only", default="", help="comma-separated rows: hard,medium,levels")
    args = parser.parse_args(argv)
    console = Console(width=110)
    trained = load_net(args.weights) if args.weights else trained_net()
    untrained = random_net(EASY_SEED)
    easy, medium, hard = NetSide(untrained, 1), NetSide(trained, 1), NetSide(trained, 2)
    rows: list[tuple[str, str, str, int, tuple[float, float, float, float]]] = []
    only = {word for word in args.only.split(",") if word}
    if not args.no_gnubg:
        with GnubgProcess(plies=0) as process:
            gnubg = GnubgSide(process)
            for name, side in (("hard", hard), ("medium", medium)):
                if only and name not in only:
                    continue
                result = match(
                    console, f"{name} vs gnubg 0-ply", side, gnubg, args.gnubg_games, args.seed
                )
                rows.append((f"zermelo {name}", "gnubg 0-ply", "off", args.gnubg_games, result))
            if args.cube_games:
                label = "hard vs gnubg 0-ply, cube"
                result = match(console, label, hard, gnubg, args.cube_games, args.seed, cube=True)
                rows.append(("zermelo hard", "gnubg 0-ply", "on", args.cube_games, result))
    if not only or "levels" in only:
        for a, b, pa, pb in (("hard", "medium", hard, medium), ("medium", "easy", medium, easy)):
            result = match(console, f"{a} vs {b}", pa, pb, args.games, args.seed + 10_000)
            rows.append((f"zermelo {a}", f"zermelo {b}", "off", args.games, result))
    table = Table(title=f"Backgammon money games; trained net: {trained.games:,} self-play games")
    for column in (
        "player",
        "opponent",
        "cube",
        "games",
        "points/game",
        "95% interval",
        "wins",
        "s",
    ):
        table.add_column(column, justify="left" if column in ("player", "opponent") else "right")
    for player, opponent, cube, games, (mean, half, wins, seconds) in rows:
        table.add_row(
            player,
            opponent,
            cube,
            str(games),
            f"{mean:+.3f}",
            f"[{mean - half:+.3f}, {mean + half:+.3f}]",
            f"{wins:.1%}",
            f"{seconds:.0f}",
        )
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
