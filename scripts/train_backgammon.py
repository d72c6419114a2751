"""Train the backgammon net by TD(λ) self-play, resumably, on one core.

    python scripts/train_backgammon.py --games 1000000 --directory runs/backgammon
    python scripts/train_backgammon.py --games 1000000 --directory runs/backgammon  # resumes
    python scripts/train_backgammon.py --directory runs/backgammon --ship           # copy to package

Each chunk of games is followed by a checkpoint (``checkpoint.npz``); every ``--eval-every``
games the net plays seeded 1-ply games against the untrained net and against the previous
evaluation's weights, and the result goes to ``metrics.jsonl`` (see
:mod:`zermelo.solvers.backgammon.train`). ``--ship`` copies the checkpoint to the weights the
package loads (``solvers/backgammon/weights.npz``).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zermelo.solvers.backgammon import fast  # noqa: E402
from zermelo.solvers.backgammon.net import TRAINED  # noqa: E402
from zermelo.solvers.backgammon.train import Metrics, TrainConfig, train  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200_000, help="games to train in all")
    parser.add_argument("--directory", type=Path, default=Path("runs/backgammon"))
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice and the weights")
    parser.add_argument("--hidden", type=int, default=80, help="hidden units")
    parser.add_argument("--lam", type=float, default=0.7, help="λ")
    parser.add_argument("--alpha", type=float, default=0.1, help="first learning rate")
    parser.add_argument("--alpha-end", type=float, default=0.01, help="last learning rate")
    parser.add_argument("--eval-every", type=int, default=20_000, help="games between evaluations")
    parser.add_argument("--eval-games", type=int, default=400, help="games of each evaluation")
    parser.add_argument("--ship", action="store_true", help="copy the checkpoint to the package")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    if args.ship:
        source = args.directory / "checkpoint.npz"
        if not source.exists():
            console.print(f"{source}: no checkpoint to ship")
            return 2
        shutil.copyfile(source, TRAINED)
        console.print(f"copied {source} to {TRAINED}")
        return 0
    if not fast.COMPILED:
        console.print("training needs numba: pip install 'zermelo[fast]'")
        return 2
    if not 1 <= args.games <= 100_000_000 or not 1 <= args.hidden <= 1000:
        console.print("--games: expected 1 to 100,000,000; --hidden: 1 to 1000")
        return 2
    config = TrainConfig(
        directory=args.directory,
        games=args.games,
        seed=args.seed,
        hidden=args.hidden,
        lam=args.lam,
        alpha_start=args.alpha,
        alpha_end=args.alpha_end,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
    )
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    with Progress(
        TextColumn("self-play"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        refresh_per_second=1,
    ) as bar:
        task = bar.add_task("train", total=args.games, rate="")

        def progress(games: int, total: int, plies: float) -> None:
            speed = bar.tasks[0].speed
            rate = f"{speed:,.0f} games/s, {plies:.0f} plies/game" if speed else ""
            bar.update(task, completed=games, rate=rate)

        def report(metrics: Metrics) -> None:
            bar.console.print(
                f"{metrics.games:>9,} games {metrics.seconds:>8.0f} s  alpha {metrics.alpha:.4f}  "
                f"vs untrained {metrics.ppg_vs_untrained:+.3f} ±{metrics.interval_vs_untrained:.3f} "
                f"({metrics.wins_vs_untrained:.0%} won) "
                f"ppg  vs previous {metrics.ppg_vs_previous:+.3f} ppg"
            )

        try:
            train(config, progress, report, should_stop=lambda: bool(stopping))
        except KeyboardInterrupt:
            console.print("stopped: rerun the same command to resume")
            return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
