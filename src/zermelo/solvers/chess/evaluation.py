"""The chess evaluation as the tutorial's f(s) = w1·x1 + ... + wn·xn, term by term, and its tuning.

Each term ``xi`` is a feature of the position counted for White minus the same for Black; the
evaluation is the weighted sum, in centipawns, from White's side (the engine negates it when Black
is to move). :func:`explain` shows every term's value, weight and contribution; :func:`tune` fits
the weights to game results by logistic regression (Texel's method).

The terms (see :data:`TERMS`):

1. material and piece-square tables: PeSTO's values, blended from middle game to endgame by the
   phase (minor pieces count 1, rooks 2, queens 4, out of 24);
2. mobility: squares each knight, bishop, rook and queen attacks that are neither its own pieces
   nor attacked by an enemy pawn;
3. king shelter: own pawns on the three files around the king, one or two ranks in front of it,
   scaled by the phase (it matters while queens are on);
4. king attack: attacks of knights, bishops, rooks and queens on the squares next to the enemy king,
   scaled by the phase;
5. passed pawns: the sum of the squares of their advance (0 on their starting rank, 5 on the
   seventh), for pawns with no enemy pawn ahead on their file or the neighbouring files;
6. doubled pawns: pawns beyond the first on each file;
7. isolated pawns: pawns with no own pawn on the neighbouring files;
8. bishop pair: 1 with two bishops or more.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TextIO

import chess
import chess.pgn

from zermelo.core.errors import BudgetError
from zermelo.solvers.chess import kernel as chess_kernel
from zermelo.solvers.chess.engine import ChessEngine, board_of

__all__ = [
    "DEFAULT_WEIGHTS",
    "TERMS",
    "Explanation",
    "Sample",
    "TermValue",
    "TuneResult",
    "explain",
    "samples_from_games",
    "samples_from_pgn",
    "self_play_samples",
    "tune",
]

TERMS: Final = (
    "material and piece-square tables",
    "mobility",
    "king shelter",
    "king attack",
    "passed pawns",
    "doubled pawns",
    "isolated pawns",
    "bishop pair",
)
DEFAULT_WEIGHTS: Final[tuple[float, ...]] = tuple(chess_kernel.DEFAULT_WEIGHTS)


@dataclass(frozen=True, slots=True)
class TermValue:
    """One term: its feature value ``x`` (White minus Black), its weight ``w`` and ``w * x``."""

    name: str
    value: float
    weight: float

    @property
    def contribution(self) -> float:
        return self.value * self.weight


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every term of one position's evaluation.

    ``total`` is the sum of the contributions from White's side, ``score`` the engine's integer
    evaluation from the side to move, ``phase`` 1 in the middle game down to 0 in a pawn endgame.
    ``network`` is the learned network's value from the side to move when the engine has one
    (the terms and ``score`` are then the built-in evaluation's, which it does not play with).
    """

    fen: str
    terms: tuple[TermValue, ...]
    phase: float
    score: int
    white_to_move: bool
    network: int | None = None

    @property
    def total(self) -> float:
        return sum(term.contribution for term in self.terms)


def explain(
    position: str | chess.Board,
    *,
    weights: Sequence[float] | None = None,
    engine: ChessEngine | None = None,
) -> Explanation:
    """The evaluation of ``position`` term by term."""
    board = board_of(position)
    engine = engine or ChessEngine(hash_mb=1)
    if weights is not None:
        engine.set_weights(weights)
    features = engine.features(board)
    score = engine.evaluate(board, builtin=True)
    network = engine.evaluate(board) if engine.network is not None else None
    terms = tuple(TermValue(name, features[i], engine.weights[i]) for i, name in enumerate(TERMS))
    white = board.turn == chess.WHITE
    return Explanation(board.fen(), terms, features[len(TERMS)], score, white, network)


@dataclass(frozen=True, slots=True)
class Sample:
    """A quiet position's features (White minus Black) and the game's result for White."""

    features: tuple[float, ...]
    result: float


@dataclass(frozen=True, slots=True)
class TuneResult:
    """Fitted weights, the sigmoid's scale ``k`` and the mean squared error before and after."""

    weights: tuple[float, ...]
    k: float
    error_before: float
    error_after: float
    samples: int


def _result_value(text: str) -> float | None:
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(text)


def _quiet_features(engine: ChessEngine, board: chess.Board) -> tuple[float, ...] | None:
    """The features when the position is quiet: not in check, and no capture changes the
    static evaluation (so the evaluation, not a tactic, explains the outcome)."""
    if board.is_check() or board.is_game_over():
        return None
    if engine.quiesce(board) != engine.evaluate(board):
        return None
    return engine.features(board)[: len(TERMS)]


def samples_from_games(
    games: Iterable[tuple[chess.Board, Sequence[chess.Move], float]],
    *,
    skip_plies: int = 8,
    max_samples: int | None = None,
    engine: ChessEngine | None = None,
) -> list[Sample]:
    """Quiet positions of games given as (start, moves, result for White), past the first
    ``skip_plies`` plies of each game."""
    engine = engine or ChessEngine(hash_mb=4)
    samples: list[Sample] = []
    for start, moves, result in games:
        board = start.copy()
        for ply, move in enumerate(moves):
            board.push(move)
            if ply + 1 < skip_plies:
                continue
            features = _quiet_features(engine, board)
            if features is not None:
                samples.append(Sample(features, result))
                if max_samples is not None and len(samples) >= max_samples:
                    return samples
    return samples


def samples_from_pgn(
    stream: TextIO,
    *,
    max_games: int | None = None,
    max_samples: int | None = None,
    skip_plies: int = 8,
) -> list[Sample]:
    """Samples from the games of a PGN text stream that have a result (1-0, 0-1, 1/2-1/2)."""

    def games() -> Iterable[tuple[chess.Board, Sequence[chess.Move], float]]:
        count = 0
        while max_games is None or count < max_games:
            game = chess.pgn.read_game(stream)
            if game is None:
                return
            result = _result_value(game.headers.get("Result", "*"))
            if result is None:
                continue
            count += 1
            yield game.board(), list(game.mainline_moves()), result

    return samples_from_games(games(), skip_plies=skip_plies, max_samples=max_samples)


def self_play_samples(
    games: int,
    *,
    nodes: int = 2_000,
    seed: int = 0,
    random_plies: int = 6,
    max_plies: int = 300,
    progress: Callable[[int], None] | None = None,
) -> list[Sample]:
    """Samples from games the engine plays against itself at ``nodes`` per move; each game opens
    with ``random_plies`` random moves (from ``random.Random(seed)``) so that games differ."""
    if games < 1 or nodes < 1:
        raise BudgetError(
            f"invalid self-play budget {games!r} games, {nodes!r} nodes: expected both >= 1"
        )
    rng = random.Random(seed)
    engine = ChessEngine(hash_mb=8)
    played: list[tuple[chess.Board, Sequence[chess.Move], float]] = []
    for index in range(games):
        board = chess.Board()
        engine.new_game()
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < max_plies:
            if len(board.move_stack) < random_plies:
                move = rng.choice(list(board.legal_moves))
            else:
                answer = engine.search(board, nodes=nodes)
                assert answer.move is not None
                move = answer.move
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        result = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner)
        played.append((chess.Board(), list(board.move_stack), result))
        if progress is not None:
            progress(index + 1)
    return samples_from_games(played, skip_plies=random_plies + 2)


def _error(samples: Sequence[Sample], weights: Sequence[float], k: float) -> float:
    total = 0.0
    for sample in samples:
        score = sum(w * x for w, x in zip(weights, sample.features, strict=True))
        predicted = 1.0 / (1.0 + 10.0 ** (-k * score / 400.0))
        total += (sample.result - predicted) ** 2
    return total / len(samples)


def _fit_k(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """The sigmoid scale that best fits the current weights (golden-section search)."""
    low, high = 0.05, 3.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if _error(samples, weights, a) < _error(samples, weights, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def tune(
    samples: Sequence[Sample],
    *,
    weights: Sequence[float] | None = None,
    iterations: int = 300,
    learning_rate: float = 0.5,
    fixed: Iterable[str] = ("material and piece-square tables",),
    progress: Callable[[int], None] | None = None,
) -> TuneResult:
    """Fit the weights to the samples' results (Texel's method).

    The predicted result of a sample is ``1 / (1 + 10 ** (-k * f(s) / 400))`` with ``f`` the
    weighted sum of its features; ``k`` is fitted first to the starting weights and then kept, and
    the weights not in ``fixed`` follow the gradient of the mean squared error, each divided by
    its own curvature (a diagonal Gauss-Newton step), so that terms of very different sizes
    (hundreds of centipawns of material, a bishop pair of 0 or 1) learn at the same pace. The
    weights with the lowest error seen are returned."""
    if not samples:
        raise BudgetError("no samples to tune on: give games with results or more self-play")
    if iterations < 0:
        raise BudgetError(f"invalid iteration count {iterations!r}: expected 0 or more")
    current = list(weights if weights is not None else DEFAULT_WEIGHTS)
    frozen = {TERMS.index(name) for name in fixed if name in TERMS}
    k = _fit_k(samples, current)
    before = _error(samples, current, k)
    n = len(samples)
    c = k * math.log(10.0) / 400.0
    best, best_error = list(current), before
    for step in range(iterations):
        gradient = [0.0] * len(current)
        curvature = [0.0] * len(current)
        for sample in samples:
            score = sum(w * x for w, x in zip(current, sample.features, strict=True))
            predicted = 1.0 / (1.0 + math.exp(-c * score))
            slope = predicted * (1.0 - predicted) * c
            common = (predicted - sample.result) * slope
            for i, x in enumerate(sample.features):
                gradient[i] += common * x
                curvature[i] += slope * slope * x * x
        for i in range(len(current)):
            if i not in frozen and curvature[i] > 0.0:
                current[i] -= learning_rate * gradient[i] / curvature[i]
        error = _error(samples, current, k)
        if error < best_error:
            best, best_error = list(current), error
        if progress is not None:
            progress(step + 1)
    return TuneResult(tuple(best), k, before, best_error, n)
