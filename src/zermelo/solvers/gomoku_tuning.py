"""Fitting evaluation weights to self-play results by logistic regression.

1. :func:`self_play` plays seeded games between two engines (a few random opening stones near the
   centre, then the engine with a node budget per move, so a seed always gives the same games) and
   records every position with the feature vector of :mod:`zermelo.games.mnk_eval` (own side = side
   to move) and a label: 1 if the side to move went on to win, 0 if it lost. Drawn games are left
   out.
2. :func:`fit_logistic` fits ``P(win) = sigmoid(w . x)`` by Newton's method with an L2 penalty (no
   intercept: the evaluation has none).
3. :func:`tune` turns the fitted weights into an :class:`Evaluation` in engine units (one logit
   = :data:`SCALE` points), optionally saves it as JSON and reports the fit.

No printing: pass ``progress`` to follow along.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from zermelo.games.mnk import GOMOKU, MnkState, Rules, new_game
from zermelo.games.mnk_eval import (
    FEATURE_NAMES,
    Evaluation,
    default_evaluation,
    feature_vector,
    weights_from_vector,
)
from zermelo.parallel import Executor, LocalExecutor, ResultStore, run_job
from zermelo.solvers.gomoku import Engine, Level
from zermelo.solvers.gomoku.engine import move_of
from zermelo.solvers.gomoku.weights import save_evaluation

__all__ = [
    "SCALE",
    "TuningReport",
    "fit_logistic",
    "play_match",
    "self_play",
    "self_play_game",
    "tune",
]

SCALE = 200.0
"""Evaluation points per logit: a score of 200 means about 73% to win."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``; stages ``"self-play"`` and ``"fit"``."""

_FOUR_FEATURES = tuple(
    i for i, name in enumerate(FEATURE_NAMES) if name.endswith(("_four", "_open_four"))
)
TUNING_LEVEL = Level("tuning", max_depth=3, width=8, root_vcf=6, leaf_vcf=0, noise=60.0)

MATCH_LEVEL = Level("match", max_depth=3, width=8, root_vcf=6, leaf_vcf=0, noise=0.0)
"""Matches compare weights without noise: its size would depend on the weights' scale."""


@dataclass(frozen=True, slots=True)
class TuningReport:
    evaluation: Evaluation
    games: int
    positions: int
    log_loss_before: float
    log_loss_after: float
    accuracy_after: float


def _opening(rules: Rules, rng: random.Random, stones: int) -> MnkState:
    state = new_game(rules.width, rules.height, rules.k, rules.exact)
    for _ in range(stones):
        moves = state.candidate_moves()
        if state.ply == 0:
            # Some point within two of the centre, so openings differ from the first stone on.
            geo = state.geometry
            moves = [p for p in geo.order[:25] if not (state.x | state.o) >> p & 1]
        state = state.play(rng.choice(moves))
        if state.is_terminal():
            break
    return state


def play_game(
    first: Engine,
    second: Engine,
    rng: random.Random,
    *,
    rules: Rules,
    nodes_per_move: int,
    opening_stones: int = 2,
) -> list[MnkState]:
    """One seeded game; returns every position from the start to the end."""
    state = _opening(rules, rng, opening_stones)
    positions = [state]
    engines = (first, second)
    while not state.is_terminal():
        engine = engines[int(state.to_move)]
        move = move_of(engine.search(state, None, rng, node_limit=nodes_per_move))
        state = state.play(move)
        positions.append(state)
    return positions


def self_play_game(
    seed: int,
    game: int,
    rules: Rules = GOMOKU,
    evaluation: Evaluation | None = None,
    nodes_per_move: int = 400,
    quiet_only: bool = True,
) -> tuple[list[list[int]], list[float]]:
    """Feature rows and labels of one self-play game: game ``game`` of the series ``seed``, with
    its own generator, so it plays the same in any process and any order (a task of
    :func:`self_play` on :mod:`zermelo.parallel`)."""
    rng = random.Random(f"{seed}:{game}")
    engine = Engine(TUNING_LEVEL, evaluation)
    positions = play_game(engine, engine, rng, rules=rules, nodes_per_move=nodes_per_move)
    rows: list[list[int]] = []
    labels: list[float] = []
    final = positions[-1]
    if final.winner is not None:
        for state in positions[:-1]:
            features = feature_vector(state)
            if quiet_only and any(features[i] for i in _FOUR_FEATURES):
                continue
            rows.append(list(features))
            labels.append(1.0 if state.to_move == final.winner else 0.0)
    return rows, labels


def self_play(
    games: int,
    *,
    seed: int = 0,
    rules: Rules = GOMOKU,
    evaluation: Evaluation | None = None,
    nodes_per_move: int = 400,
    quiet_only: bool = True,
    progress: Progress | None = None,
    executor: Executor | None = None,
    store: ResultStore | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Features and labels of the positions of ``games`` seeded self-play games.

    With ``quiet_only`` positions where either side has a four are left out: the search reads
    those to the end, so the evaluation only ever judges quiet positions. The games run on
    ``executor`` (default: this process) and, with ``store``, are kept as they finish so that a
    stopped run resumes; the result does not depend on either."""
    tasks = {
        f"{game:06d}": (seed, game, rules, evaluation, nodes_per_move, quiet_only)
        for game in range(games)
    }

    def heard(key: str, value: object, done: int, total: int) -> None:
        if progress is not None:
            progress("self-play", done, total)

    results = run_job(
        executor or LocalExecutor(1), self_play_game, tasks, store=store, on_result=heard
    )
    rows = [row for key in tasks for row in results[key][0]]
    labels = [label for key in tasks for label in results[key][1]]
    x = np.array(rows, dtype=np.float64).reshape(-1, len(FEATURE_NAMES))
    return x, np.array(labels, dtype=np.float64)


def _sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def log_loss(
    weights: npt.NDArray[np.float64], x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]
) -> float:
    """Mean negative log-likelihood of the labels under ``sigmoid(x @ weights)``."""
    p = np.clip(_sigmoid(x @ weights), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_logistic(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    *,
    l2: float = 1e-2,
    iterations: int = 50,
    start: Sequence[float] | npt.NDArray[np.float64] | None = None,
    prior: Sequence[float] | npt.NDArray[np.float64] | None = None,
    progress: Progress | None = None,
) -> npt.NDArray[np.float64]:
    """Weights ``w`` that maximise the likelihood of ``y`` under ``sigmoid(x @ w)`` minus the
    penalty ``l2/2 * |w - prior|^2`` (``prior`` defaults to zero), by Newton's method.

    The prior keeps weights that the data cannot tell (a feature that never varies) where they
    were."""
    if x.ndim != 2 or y.shape != (x.shape[0],):
        raise ValueError(
            f"expected x of shape (n, d) and y of shape (n,), got {x.shape}, {y.shape}"
        )
    n, d = x.shape
    w = np.zeros(d) if start is None else np.asarray(start, dtype=np.float64).copy()
    centre = np.zeros(d) if prior is None else np.asarray(prior, dtype=np.float64)
    if n == 0:
        return w

    def objective(v: npt.NDArray[np.float64]) -> float:
        return log_loss(v, x, y) + 0.5 * l2 * float(np.sum((v - centre) ** 2))

    current = objective(w)
    for step in range(iterations):
        p = _sigmoid(x @ w)
        gradient = x.T @ (p - y) / n + l2 * (w - centre)
        hessian = (x.T * (p * (1 - p))) @ x / n + l2 * np.eye(d)
        delta = np.linalg.solve(hessian, gradient)
        # Newton steps overshoot where the sigmoid saturates: halve until the objective drops.
        size = 1.0
        while size > 1e-6:
            trial = w - size * delta
            value = objective(trial)
            if value <= current:
                break
            size /= 2
        else:
            break
        delta = size * delta
        w = w - delta
        current = value
        if progress is not None:
            progress("fit", step + 1, iterations)
        if float(np.max(np.abs(delta))) < 1e-9:
            break
    return w


def tune(
    games: int = 40,
    *,
    seed: int = 0,
    rules: Rules = GOMOKU,
    base: Evaluation | None = None,
    nodes_per_move: int = 400,
    l2: float = 0.05,
    path: str | Path | None = None,
    name: str = "tuned",
    progress: Progress | None = None,
    executor: Executor | None = None,
    store: ResultStore | None = None,
) -> TuningReport:
    """Fit weights to ``games`` seeded self-play games of the ``base`` evaluation (default: the
    shipped weights); save them to ``path`` when given. ``l2`` pulls the weights towards the
    base ones (in logits): the default keeps the fit close to what the search was built around."""
    base = default_evaluation() if base is None else base
    x, y = self_play(
        games,
        seed=seed,
        rules=rules,
        evaluation=base,
        nodes_per_move=nodes_per_move,
        progress=progress,
        executor=executor,
        store=store,
    )
    start = np.array(base.weight_vector) / SCALE
    loss_before = log_loss(start, x, y) if len(y) else math.nan
    w = fit_logistic(x, y, l2=l2, start=start, prior=start, progress=progress)
    loss_after = log_loss(w, x, y) if len(y) else math.nan
    accuracy = float(np.mean((x @ w > 0) == (y > 0.5))) if len(y) else math.nan
    evaluation = weights_from_vector([round(float(v) * SCALE, 3) for v in w], name)
    if path is not None:
        save_evaluation(evaluation, path)
    return TuningReport(evaluation, games, len(y), loss_before, loss_after, accuracy)


def play_match(
    first: Evaluation,
    second: Evaluation,
    games: int,
    *,
    seed: int = 0,
    rules: Rules = GOMOKU,
    nodes_per_move: int = 400,
    progress: Progress | None = None,
) -> tuple[int, int, int]:
    """Wins of ``first``, wins of ``second`` and draws over ``games`` seeded games, colours
    alternating (``first`` is X in the even games)."""
    rng = random.Random(seed)
    level = MATCH_LEVEL
    engines = (Engine(level, first), Engine(level, second))
    score = [0, 0, 0]
    for game in range(games):
        x_index = game % 2
        positions = play_game(
            engines[x_index],
            engines[1 - x_index],
            rng,
            rules=rules,
            nodes_per_move=nodes_per_move,
        )
        winner = positions[-1].winner
        if winner is None:
            score[2] += 1
        else:
            score[x_index if winner == 0 else 1 - x_index] += 1
        if progress is not None:
            progress("match", game + 1, games)
    return score[0], score[1], score[2]
