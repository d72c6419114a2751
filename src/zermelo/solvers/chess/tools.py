"""The chess engine behind the game record's tools (:attr:`zermelo.core.record.GameSpec.tools`):
perft, the value of every move, and the evaluation term by term.

They take a :class:`zermelo.games.chess.ChessState` and return the values the command line shows:
move values in the search's result types (:class:`~zermelo.search.result.MoveValue`,
:class:`~zermelo.search.result.SearchResult`), with centipawns turned into pawns (``+0.35``) and
mates kept as ``WIN - plies`` scores, so that "win in 3" and "+0.35" read alike for every game.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

from zermelo.core.errors import BudgetError, ParseError
from zermelo.games.chess import ChessMove
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.solvers.chess import engine as chess_engine
from zermelo.solvers.chess import evaluation
from zermelo.solvers.chess.engine import MATE_BOUND, ChessEngine

__all__ = ["TERMS", "EvaluationRow", "analyze", "explain", "pawns", "perft"]


def N_(message: str) -> str:  # noqa: N802 - the name the catalogs' extraction looks for
    return message


TERMS: tuple[tuple[str, str], ...] = (
    (N_("material and squares"), N_("piece values and piece-square tables, middle game to end")),
    (N_("mobility"), N_("squares the pieces reach that no enemy pawn guards")),
    (N_("king shelter"), N_("own pawns in front of the king, in the middle game")),
    (N_("king attack"), N_("attacks on the squares around the enemy king, in the middle game")),
    (N_("passed pawns"), N_("passed pawns, by the square of how far they have come")),
    (N_("doubled pawns"), N_("extra pawns on a file")),
    (N_("isolated pawns"), N_("pawns with no own pawn on a file next to them")),
    (N_("bishop pair"), N_("both bishops still on the board")),
)
"""Name and description of each evaluation term, in the order of the engine's weights."""

_ENGINE: ChessEngine | None = None
"""One engine for the analyses of a process (its table stays warm between positions)."""


def _engine() -> ChessEngine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = ChessEngine()
    return _ENGINE


def perft(state: Any, depth: int) -> int:
    """The leaf count of the legal move tree ``depth`` plies below ``state``, from zermelo's own
    bitboard move generator (compiled with numba when available)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 20:
        raise BudgetError(f"invalid perft depth {depth!r}: expected a depth from 0 to 20")
    return chess_engine.perft(state.board, depth)


def pawns(score: int) -> float:
    """An engine score for people: a mate stays a ``WIN - plies`` score, centipawns become pawns."""
    return float(score) if abs(score) > MATE_BOUND else score / 100


def analyze(state: Any, depth: int | None, time_limit: float | None) -> SearchResult[ChessMove]:
    """The engine's search of ``state`` (best move, principal variation, depth, nodes and time)
    with every legal move's value in ``moves`` (best first), each under ``depth`` and
    ``time_limit`` (without either: one second each)."""
    board: chess.Board = state.board
    if depth is None and time_limit is None:
        time_limit = 1.0
    engine = _engine()
    values = [
        MoveValue(
            ChessMove.uci_move(value.move),
            pawns(value.score),
            abs(value.score) > MATE_BOUND,
            tuple(ChessMove.uci_move(uci) for uci in value.pv),
        )
        for value in engine.analyze_moves(board, depth=depth, movetime=time_limit)
    ]
    found = engine.search(board, depth=depth, movetime=time_limit)
    best = None if found.move is None else ChessMove.uci_move(found.move)
    return SearchResult(
        best,
        pawns(found.score),
        tuple(ChessMove.uci_move(uci) for uci in found.pv),
        found.depth,
        abs(found.score) > MATE_BOUND,
        SearchStats(nodes=found.nodes, elapsed=found.time),
        moves=tuple(values),
    )


@dataclass(frozen=True)
class EvaluationRow:
    """One term of f(s): its name and description (English, for the catalogs), its value ``x``
    from the side to move, and its weight ``w``."""

    name: str
    description: str
    value: float
    weight: float

    @property
    def contribution(self) -> float:
        return self.value * self.weight


def load_weights(path: str) -> tuple[float, ...]:
    """Weights from a JSON file: a list of numbers, or an object with a ``weights`` list."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ParseError(f"weights file {path!r}: {error}") from None
    weights = data.get("weights") if isinstance(data, dict) else data
    if (
        not isinstance(weights, list)
        or len(weights) != len(TERMS)
        or not all(
            isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
            for w in weights
        )
    ):
        raise ParseError(
            f"weights file {path!r}: expected a list of {len(TERMS)} numbers (or an object with "
            "one under 'weights')"
        )
    return tuple(float(w) for w in weights)


def explain(state: Any, weights_path: str | None = None) -> tuple[list[EvaluationRow], int]:
    """The engine's evaluation of ``state`` term by term from the side to move
    (:func:`zermelo.solvers.chess.evaluation.explain`), and its total in centipawns as the engine
    rounds it."""
    weights = load_weights(weights_path) if weights_path else None
    found = evaluation.explain(state.board, weights=weights)
    sign = 1.0 if found.white_to_move else -1.0
    described = dict(zip(evaluation.TERMS, TERMS, strict=True))
    rows = [
        EvaluationRow(*described[term.name], sign * term.value + 0.0, term.weight)
        for term in found.terms
    ]
    return rows, found.score
