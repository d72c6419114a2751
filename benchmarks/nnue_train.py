"""The learned evaluation's training pipeline (``zermelo tune chess --nnue``), on one process.

Two tables, from one run:

* labelling: self-play games of zermelo's engine at each label depth (one search per ply, its
  value the label), the positions searched and the quiet ones kept per CPU second;
* training: one epoch over 100k positions (self-play positions, repeated to that number), per
  hidden width, on one torch thread, CPU and wall seconds.

    python benchmarks/nnue_train.py --depths 4,6,8 --games 1 --hidden 64,256

Keep it short on a shared machine (``nice -n 19``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# benchmarks/chess.py is in this folder: it must not hide the python-chess package.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != HERE]

import numpy as np  # noqa: E402

from zermelo.games.chess import ChessMove  # noqa: E402
from zermelo.learn import chess_nnue  # noqa: E402
from zermelo.search.result import SearchResult  # noqa: E402
from zermelo.solvers.chess import nnue_data  # noqa: E402
from zermelo.solvers.chess.engine import ChessEngine  # noqa: E402
from zermelo.solvers.chess.nnue_data import Positions  # noqa: E402

_SEARCHED = [0]
_REAL = ChessEngine.search


def _counting(self: ChessEngine, *args: Any, **kwargs: Any) -> SearchResult[ChessMove]:
    """The engine's search, counted."""
    _SEARCHED[0] += 1
    return _REAL(self, *args, **kwargs)


def labelling(depths: list[int], games: int) -> tuple[list[list[str]], Positions]:
    rows = []
    gathered: list[Positions] = []
    nnue_data.warm_up()
    for depth in depths:
        _SEARCHED[0] = 0
        searched = _SEARCHED
        ChessEngine.search = _counting  # type: ignore[method-assign]
        try:
            cpu, wall = time.process_time(), time.perf_counter()
            shard = nnue_data.play_task(0, depth, games, depth, None)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            ChessEngine.search = _REAL  # type: ignore[method-assign]
        positions = nnue_data.decode_shard(shard)
        gathered.append(positions)
        rows.append(
            [
                str(depth),
                str(games),
                str(searched[0]),
                str(len(positions)),
                f"{cpu:.1f}",
                f"{searched[0] / cpu:.1f}",
                f"{len(positions) / cpu:.1f}",
                f"{len(shard) / max(len(positions), 1):.1f}",
            ]
        )
    return rows, Positions.join(gathered)


def training(hidden: list[int], source: Positions, count: int) -> list[list[str]]:
    repeat = -(-count // max(len(source), 1))
    index = np.tile(np.arange(len(source)), repeat)[:count]
    positions = Positions(
        source.board[index], source.stm[index], source.score[index], source.result[index]
    )
    rows = []
    with tempfile.TemporaryDirectory() as folder:  # torch's own start, untimed
        warm = chess_nnue.Settings(positions=2048, hidden=8, epochs=1)
        chess_nnue.train(warm, Path(folder), source.head(2048))
    for width in hidden:
        settings = chess_nnue.Settings(positions=count, hidden=width, epochs=1)
        with tempfile.TemporaryDirectory() as folder:
            cpu, wall = time.process_time(), time.perf_counter()
            _, outcome = chess_nnue.train(settings, Path(folder), positions)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rows.append(
            [
                str(width),
                f"{count:,}",
                str(settings.batch),
                f"{cpu:.1f}",
                f"{wall:.1f}",
                f"{outcome.train_loss:.4f}",
            ]
        )
    return rows


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="4,6,8")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--hidden", default="64,256")
    parser.add_argument("--positions", type=int, default=100_000)
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    rows, gathered = labelling(depths, args.games)
    table(
        "Labelling by zermelo's own search (one process)",
        [
            "depth",
            "games",
            "searched",
            "kept",
            "CPU s",
            "searched / CPU s",
            "kept / CPU s",
            "bytes / kept",
        ],
        rows,
    )
    hidden = [int(h) for h in args.hidden.split(",")]
    table(
        f"One training epoch over {args.positions:,} positions (torch, one thread)",
        ["hidden", "positions", "batch", "CPU s", "wall s", "training loss"],
        training(hidden, gathered, args.positions),
    )


if __name__ == "__main__":
    main()
