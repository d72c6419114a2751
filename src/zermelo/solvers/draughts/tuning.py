"""Texel tuning of the draughts evaluation on self-play (``zermelo tune international`` / ``dama``).

1. :func:`self_play` plays seeded games of the engine against itself: a few random moves from a
   ``random.Random(seed)`` open each game (so games differ), then a search of ``nodes`` per move.
   Each quiet position (no capture pending, and the forced-capture search agreeing with the
   static evaluation) is kept with its game's result for White: 1, 0.5 or 0.
2. :func:`fit` fits the weights to those results by Texel's method: the predicted result is
   ``1 / (1 + 10 ** (-k * f(s) / 400))`` with ``f`` the tapered evaluation, linear in the flat
   weights (each term's feature times the phase for its middle-game weight, times one minus the
   phase for its endgame weight); ``k`` is fitted first, then the weights follow diagonal
   Gauss-Newton steps on the mean squared error. A man stays worth 100 (the scale).
3. Optionally a check match: the tuned weights against the shipped ones, each opening played
   with both colours.

No printing: progress goes to the :data:`~zermelo.core.capabilities.Progress` callback.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from zermelo.core.capabilities import Progress, TuneReport, TuneRequest
from zermelo.core.errors import BudgetError
from zermelo.games.draughts.rules import Rules
from zermelo.solvers.draughts import search as kernel
from zermelo.solvers.draughts.engine import DraughtsEngine
from zermelo.solvers.draughts.evaluation import (
    DraughtsLike,
    default_weights,
    position_of,
    weight_names,
    weights_json,
)

__all__ = [
    "DAMA_TUNER",
    "INTERNATIONAL_TUNER",
    "DraughtsTuner",
    "FitResult",
    "Sample",
    "fit",
    "play_match",
    "self_play",
]

NODES: Final = 400
"""Nodes per move of self-play and of the check match: a small default budget."""
RANDOM_PLIES: Final = 4
MAX_PLIES: Final = 200
"""A game still on after this many plies is scored a draw."""
RIDGE: Final = 3e-6
"""The weight of the prior that keeps each weight near its starting value (per squared hundredth
of a man, against the mean squared error's curvature)."""
FIXED: Final = (0, 1)
"""The weights tuning keeps: a man's worth in both phases (the scale of every other weight)."""


def N_(message: str) -> str:  # noqa: N802 - the name the catalogs' extraction looks for
    return message


@dataclass(frozen=True, slots=True)
class Sample:
    """A quiet position's tapered features (White minus Black; the evaluation is their dot
    product with the flat weights) and its game's result for White."""

    features: tuple[float, ...]
    result: float


@dataclass(frozen=True, slots=True)
class FitResult:
    """Fitted flat weights, the sigmoid's scale ``k`` and the error before and after."""

    weights: tuple[float, ...]
    k: float
    error_before: float
    error_after: float
    samples: int


def tapered(features: Sequence[float]) -> tuple[float, ...]:
    """The engine's features (then the phase) as the vector the flat weights multiply."""
    middle = features[kernel.F_PHASE]
    out: list[float] = []
    for i in range(kernel.N_TERMS):
        out += [features[i] * middle, features[i] * (1.0 - middle)]
    return tuple(out)


def _result(state: DraughtsLike) -> float:
    winner = state.winner if state.is_terminal() else None
    if winner is None:
        return 0.5
    return 1.0 if int(winner) == 0 else 0.0


def _engine_move(engine: DraughtsEngine, state: DraughtsLike, nodes: int) -> DraughtsLike:
    _rules, white, black, kings, side = position_of(state)
    found = engine.search(white, black, kings, side, nodes=nodes)
    assert found.move is not None
    return state.play(state.from_kernel(*found.move))


def play_game(
    start: DraughtsLike,
    engines: tuple[DraughtsEngine, DraughtsEngine],
    rng: random.Random | None,
    nodes: int,
) -> tuple[list[DraughtsLike], float]:
    """One game from ``start`` (``engines[0]`` plays White), its first :data:`RANDOM_PLIES`
    plies random when ``rng`` is given; the positions after them and the result for White."""
    state = start
    positions: list[DraughtsLike] = []
    for engine in engines:
        engine.new_game()
    plies = 0
    while not state.is_terminal() and plies < MAX_PLIES:
        if rng is not None and plies < RANDOM_PLIES:
            state = state.play(rng.choice(sorted(state.legal_moves())))
        else:
            positions.append(state)
            state = _engine_move(engines[0 if int(state.to_move) == 0 else 1], state, nodes)
        plies += 1
    return positions, _result(state)


def self_play(
    start: DraughtsLike,
    games: int,
    *,
    seed: int,
    nodes: int = NODES,
    weights: Sequence[float] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Sample]:
    """The quiet positions of ``games`` seeded games of the engine against itself."""
    if games < 1 or nodes < 1:
        raise BudgetError(
            f"invalid self-play budget {games!r} games, {nodes!r} nodes: expected both >= 1"
        )
    rules = position_of(start)[0]
    rng = random.Random(seed)
    engine = DraughtsEngine(rules, hash_mb=4, weights=weights)
    samples: list[Sample] = []
    for index in range(games):
        positions, result = play_game(start, (engine, engine), rng, nodes)
        for state in positions:
            _rules, white, black, kings, side = position_of(state)
            if engine.quiesce(white, black, kings, side) != engine.evaluate(
                white, black, kings, side
            ):
                continue
            samples.append(Sample(tapered(engine.features(white, black, kings, side)), result))
        if progress is not None:
            progress(index + 1)
    return samples


def _error(samples: Sequence[Sample], weights: Sequence[float], k: float) -> float:
    total = 0.0
    for sample in samples:
        score = sum(w * x for w, x in zip(weights, sample.features, strict=True))
        exponent = max(-50.0, min(50.0, -k * score / 400.0))
        total += (sample.result - 1.0 / (1.0 + 10.0**exponent)) ** 2
    return total / len(samples)


def _fit_k(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """The sigmoid scale that best fits ``weights`` (golden-section search)."""
    low, high = 0.05, 5.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if _error(samples, weights, a) < _error(samples, weights, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def fit(
    samples: Sequence[Sample],
    weights: Sequence[float],
    *,
    iterations: int = 100,
    learning_rate: float = 0.5,
    progress: Callable[[int], None] | None = None,
) -> FitResult:
    """Texel's method from ``weights`` (see the module); the weights with the lowest error seen
    are returned (the starting ones when no step lowers it)."""
    if not samples:
        raise BudgetError("no quiet positions to tune on: play more self-play games")
    current = [float(w) for w in weights]
    start = list(current)
    k = _fit_k(samples, current)
    before = _error(samples, current, k)
    c = k * math.log(10.0) / 400.0
    best, best_error = list(current), before
    for step in range(iterations):
        gradient = [0.0] * len(current)
        curvature = [0.0] * len(current)
        for sample in samples:
            score = sum(w * x for w, x in zip(current, sample.features, strict=True))
            predicted = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -c * score))))
            slope = predicted * (1.0 - predicted) * c
            common = (predicted - sample.result) * slope
            for i, x in enumerate(sample.features):
                gradient[i] += common * x
                curvature[i] += slope * slope * x * x
        n = len(samples)
        for i in range(len(current)):
            if i in FIXED:
                continue
            # a ridge prior towards the starting weight: a term the positions hardly show keeps
            # its weight instead of fitting the few where it appears
            slope_i = gradient[i] / n + RIDGE * (current[i] - start[i])
            bend = curvature[i] / n + RIDGE
            current[i] -= learning_rate * slope_i / bend
        error = _error(samples, current, k)
        if error < best_error:
            best, best_error = list(current), error
        if progress is not None:
            progress(step + 1)
    return FitResult(tuple(best), k, before, best_error, len(samples))


def play_match(
    start: DraughtsLike,
    tuned: Sequence[float],
    games: int,
    *,
    seed: int,
    nodes: int = NODES,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int, int]:
    """Wins, losses and draws of ``tuned`` against the shipped weights: each seeded random
    opening is played twice, the colours swapped."""
    rules: Rules = position_of(start)[0]
    engines = (
        DraughtsEngine(rules, hash_mb=4, weights=tuned),
        DraughtsEngine(rules, hash_mb=4),
    )
    rng = random.Random(seed + 1)
    wins = losses = draws = 0
    opening = start
    for index in range(games):
        if index % 2 == 0:
            opening = start
            for _ in range(RANDOM_PLIES):
                if opening.is_terminal():
                    break
                opening = opening.play(rng.choice(sorted(opening.legal_moves())))
        tuned_white = index % 2 == 0
        pair = engines if tuned_white else (engines[1], engines[0])
        _positions, result = play_game(opening, pair, None, nodes)
        score = result if tuned_white else 1.0 - result
        if score == 0.5:
            draws += 1
        elif score > 0.5:
            wins += 1
        else:
            losses += 1
        if progress is not None:
            progress(index + 1)
    return wins, losses, draws


_ROWS: Final = (
    N_("games / positions"),
    N_("mean squared error before"),
    N_("mean squared error after"),
)


class DraughtsTuner:
    """The record's :class:`~zermelo.core.capabilities.Tuner` of one draughts game: Texel
    tuning on seeded self-play, then a check match."""

    def __init__(self, game: str, start: Callable[[], DraughtsLike]) -> None:
        self.game = game
        self._start = start

    @property
    def uses(self) -> frozenset[str]:
        return frozenset()

    def tune(self, request: TuneRequest, progress: Progress) -> TuneReport:
        start = self._start()
        shipped = default_weights(self.game)
        samples = self_play(
            start,
            request.games,
            seed=request.seed,
            progress=lambda done: progress("self-play", done, request.games),
        )
        iterations = 100
        found = fit(samples, shipped, progress=lambda done: progress("fit", done, iterations))
        match = None
        if request.match_games:
            match = play_match(
                start,
                found.weights,
                request.match_games,
                seed=request.seed,
                progress=lambda done: progress("match", done, request.match_games),
            )
        rows = (
            (_ROWS[0], f"{request.games} / {found.samples}"),
            (_ROWS[1], f"{found.error_before:.5f}"),
            (_ROWS[2], f"{found.error_after:.5f}"),
            *((name, f"{w:.1f}") for name, w in zip(weight_names(), found.weights, strict=True)),
        )
        return TuneReport(
            N_("Tuning by Texel's method"), rows, weights_json(self.game, found.weights), match
        )


def _international() -> DraughtsLike:
    from zermelo.games.draughts.international import InternationalState

    return InternationalState.initial()


def _dama() -> DraughtsLike:
    from zermelo.games.draughts.dama import DamaState

    return DamaState.initial()


INTERNATIONAL_TUNER: Final = DraughtsTuner("international", _international)
DAMA_TUNER: Final = DraughtsTuner("dama", _dama)
