"""TD(λ) self-play training of the backgammon net, resumable, with checkpoints and metrics.

A run lives in one directory: ``checkpoint.npz`` (the weights and the games they have seen,
written atomically after every chunk of games), ``metrics.jsonl`` (one JSON object per
evaluation: games, seconds of training, the learning rate, plies per game, the points per game
the net scores at 1-ply against the untrained net (and the share of those games it wins) and
against the previous evaluation's weights, over seeded duplicate-dice games) and ``eval-<games>.npz`` (the weights of each
evaluation). Rerunning the same command continues from the checkpoint: the dice of each chunk
come from the run's seed and the games already played, so a resumed run plays the games an
unbroken one would have.

The learning rate decays as ``alpha_end + (alpha_start - alpha_end)·exp(-games / alpha_games)``;
λ stays fixed (0.7 by default, as in Tesauro's TD-Gammon experiments).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from zermelo.solvers.backgammon import fast
from zermelo.solvers.backgammon.net import Net, load_net, random_net, save_net

__all__ = ["Metrics", "TrainConfig", "match_points", "match_ppg", "train"]


@dataclass(frozen=True)
class TrainConfig:
    directory: Path
    games: int
    seed: int = 0
    hidden: int = 80
    lam: float = 0.7
    alpha_start: float = 0.1
    alpha_end: float = 0.01
    alpha_games: float = 300_000.0
    chunk: int = 500
    eval_every: int = 20_000
    eval_games: int = 400
    max_plies: int = 3000

    def alpha(self, games: int) -> float:
        return self.alpha_end + (self.alpha_start - self.alpha_end) * math.exp(
            -games / self.alpha_games
        )


@dataclass(frozen=True)
class Metrics:
    games: int
    seconds: float
    alpha: float
    plies_per_game: float
    ppg_vs_untrained: float
    ppg_vs_previous: float
    interval_vs_untrained: float
    wins_vs_untrained: float = 0.0


def match_points(
    a: Net, b: Net, games: int, seed: int, max_plies: int = 3000
) -> NDArray[np.float64]:
    """What ``a`` won in each of ``games`` games against ``b`` at 1-ply (cubeless, duplicate
    dice: games ``2k`` and ``2k + 1`` share the seed ``seed + k`` with the sides swapped)."""
    points = np.zeros(games)
    fast.play_match(*a.arrays(), *b.arrays(), games, seed, max_plies, points)
    return points


def match_ppg(a: Net, b: Net, games: int, seed: int, max_plies: int = 3000) -> tuple[float, float]:
    """Points per game of ``a`` against ``b`` (:func:`match_points`), and the half width of its
    95% interval."""
    points = match_points(a, b, games, seed, max_plies)
    mean = float(points.mean())
    half = 1.96 * float(points.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    return mean, half


def _read_metrics(path: Path) -> list[dict[str, float]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows


def train(
    config: TrainConfig,
    progress: Callable[[int, int, float], None] | None = None,
    report: Callable[[Metrics], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Net:
    """Train until ``config.games`` games (resuming from the directory's checkpoint);
    ``progress(games, total, plies_per_game)`` after each chunk, ``report(metrics)`` after each
    evaluation. Returns the final net."""
    directory = config.directory
    directory.mkdir(parents=True, exist_ok=True)
    checkpoint = directory / "checkpoint.npz"
    metrics_path = directory / "metrics.jsonl"
    state_path = directory / "state.json"
    untrained = random_net(config.seed, config.hidden)
    if checkpoint.exists():
        net = load_net(checkpoint)
        seconds = (
            float(json.loads(state_path.read_text())["seconds"]) if state_path.exists() else 0.0
        )
    else:
        net = untrained.copy()
        seconds = 0.0
    rows = _read_metrics(metrics_path)
    previous = load_net(directory / f"eval-{int(rows[-1]['games'])}.npz") if rows else untrained
    games = net.games
    w1, b1, w2, b2 = (np.ascontiguousarray(a, dtype=np.float64) for a in net.arrays())
    plies_window = 0
    games_window = 0
    while games < config.games:
        if should_stop is not None and should_stop():
            break
        count = min(config.chunk, config.games - games)
        started = time.perf_counter()
        plies = fast.train_games(
            w1,
            b1,
            w2,
            b2,
            count,
            config.seed * 1_000_003 + games,
            config.alpha(games),
            config.lam,
            config.max_plies,
        )
        seconds += time.perf_counter() - started
        games += count
        plies_window += plies
        games_window += count
        current = Net(w1, b1, w2, b2, games, f"trained ({games} games)")
        save_net(current, checkpoint, exact=True)
        state_path.write_text(json.dumps({"seconds": seconds}))
        if progress is not None:
            progress(games, config.games, plies / max(count, 1))
        if games % config.eval_every == 0 or games >= config.games:
            eval_seed = 777_000_000 + config.seed
            points = match_points(current, untrained, config.eval_games, eval_seed)
            vs_untrained = float(points.mean())
            half = 1.96 * float(points.std(ddof=1)) / math.sqrt(max(len(points), 1))
            wins = float((points > 0).mean())
            vs_previous, _ = match_ppg(current, previous, config.eval_games, eval_seed + 1)
            metrics = Metrics(
                games,
                round(seconds, 1),
                config.alpha(games),
                plies_window / max(games_window, 1),
                vs_untrained,
                vs_previous,
                half,
                wins,
            )
            plies_window = games_window = 0
            with metrics_path.open("a", encoding="utf-8") as stream:
                stream.write(json.dumps(metrics.__dict__) + "\n")
            save_net(current, directory / f"eval-{games}.npz")
            previous = current.copy()
            if report is not None:
                report(metrics)
    return Net(w1, b1, w2, b2, games, f"trained ({games} games)")
