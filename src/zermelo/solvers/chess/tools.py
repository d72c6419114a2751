"""The chess engine behind the game record's capabilities (:mod:`zermelo.core.capabilities`):
perft, the value of every move, the evaluation term by term, tuning and the match openings.

They take a :class:`zermelo.games.chess.ChessState` and return the values the command line shows:
the engine's :class:`~zermelo.search.result.SearchResult`, with centipawns turned into pawns
(``+0.35``, see :func:`in_pawns`) and mates kept as ``WIN - plies`` scores, so that "win in 3" and
"+0.35" read alike for every game.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import chess
import chess.pgn

from zermelo.core.capabilities import Breakdown, Progress, Term, TuneReport, TuneRequest
from zermelo.core.errors import BudgetError, InvalidPositionError, ParseError
from zermelo.core.limits import Limits
from zermelo.games.chess import ChessMove, ChessState, board_from_text
from zermelo.games.chess_openings import OPENINGS
from zermelo.search.result import SearchResult
from zermelo.solvers.chess import engine as chess_engine
from zermelo.solvers.chess import evaluation, nnue
from zermelo.solvers.chess.engine import MATE_BOUND, ChessEngine

__all__ = [
    "ANALYSIS",
    "EXPLAINER",
    "OPENINGS_CAPABILITY",
    "PERFT",
    "TERMS",
    "TUNER",
    "ChessAnalysis",
    "ChessExplainer",
    "ChessOpenings",
    "ChessPerft",
    "ChessTuner",
    "FitReport",
    "analyze",
    "explain",
    "explain_network",
    "fit",
    "in_pawns",
    "opening_positions",
    "pawns",
    "perft",
    "read_weights",
    "weights_json",
]


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


def perft(state: ChessState, depth: int) -> int:
    """The leaf count of the legal move tree ``depth`` plies below ``state``, from zermelo's own
    bitboard move generator (compiled with numba when available)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 20:
        raise BudgetError(f"invalid perft depth {depth!r}: expected a depth from 0 to 20")
    return chess_engine.perft(state.board, depth)


def pawns(score: float) -> float:
    """An engine score for people: a mate stays a ``WIN - plies`` score, centipawns become pawns."""
    return float(score) if abs(score) > MATE_BOUND else score / 100


def in_pawns(result: SearchResult[ChessMove]) -> SearchResult[ChessMove]:
    """The engine's result with its value and its moves' values in pawns (see :func:`pawns`), the
    scale front ends show chess values in. Everything else is the engine's, untouched."""
    return dataclasses.replace(
        result,
        value=pawns(result.value),
        moves=tuple(dataclasses.replace(entry, value=pawns(entry.value)) for entry in result.moves),
    )


def analyze(
    state: ChessState, depth: int | None, time_limit: float | None, *, nodes: int | None = None
) -> SearchResult[ChessMove]:
    """Every legal move's value in ``moves`` (best first), under ``depth``, ``time_limit`` and
    ``nodes`` (without any: one second); the best move's line is the principal variation, so the
    position is searched once, not once for the values and again for the line."""
    if depth is None and time_limit is None and nodes is None:
        time_limit = 1.0
    values = _engine().analyze_moves(state.board, depth=depth, movetime=time_limit, nodes=nodes)
    return in_pawns(values)


def explain(state: ChessState, weights: Sequence[float] | None = None) -> tuple[list[Term], int]:
    """The engine's evaluation of ``state`` term by term from the side to move
    (:func:`zermelo.solvers.chess.evaluation.explain`), and its total in centipawns as the engine
    rounds it."""
    rows, total, _ = _explained(state, weights, None)
    return rows, total


def explain_network(
    state: ChessState, network: nnue.Network, weights: Sequence[float] | None = None
) -> tuple[list[Term], int, int]:
    """:func:`explain`, and the value ``network`` gives ``state`` from the side to move, in
    centipawns (what an engine with that network plays with)."""
    rows, total, value = _explained(state, weights, network)
    assert value is not None
    return rows, total, value


def _explained(
    state: ChessState, weights: Sequence[float] | None, network: nnue.Network | None
) -> tuple[list[Term], int, int | None]:
    if weights is not None and len(weights) != len(TERMS):
        raise ParseError(f"expected {len(TERMS)} weights, one per term, got {len(weights)}")
    engine = ChessEngine(hash_mb=1, network=network)
    found = evaluation.explain(state.board, weights=weights, engine=engine)
    sign = 1.0 if found.white_to_move else -1.0
    described = dict(zip(evaluation.TERMS, TERMS, strict=True))
    rows = [
        Term(*described[term.name], sign * term.value + 0.0, term.weight) for term in found.terms
    ]
    return rows, found.score, found.network


@dataclass(frozen=True)
class FitReport:
    """What :func:`fit` did: how many games and positions it learnt from, the error before and
    after, the weights (one per term of :data:`TERMS`) and, when a match was asked for, the tuned
    weights' wins, losses and draws against the current ones."""

    games: int
    positions: int
    error_before: float
    error_after: float
    weights: tuple[float, ...]
    match: tuple[int, int, int] | None = None


def fit(
    games: int,
    match_games: int,
    seed: int,
    pgn_text: str | None = None,
    *,
    nodes: int = 2_000,
    progress: Progress | None = None,
) -> FitReport:
    """Fit the evaluation's weights by Texel's method on quiet positions labelled with their
    game's result: the games of ``pgn_text`` (those with a result), or ``games`` games of seeded
    self-play at ``nodes`` per move. Then, if ``match_games``, the tuned weights play the current
    ones from the built-in openings (each with both colours) at ``nodes`` per move."""
    import io

    def tell(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress(stage, done, total)

    if pgn_text is not None:
        samples = evaluation.samples_from_pgn(io.StringIO(pgn_text))
        learnt_from = len(re.findall(r'^\[Result "(?:1-0|0-1|1/2-1/2)"\]', pgn_text, re.M))
    else:
        samples = evaluation.self_play_samples(
            games, nodes=nodes, seed=seed, progress=lambda done: tell("self-play", done, games)
        )
        learnt_from = games
    iterations = 200
    result = evaluation.tune(
        samples, iterations=iterations, progress=lambda done: tell("fit", done, iterations)
    )
    match = None
    if match_games:
        match = _weights_match(
            result.weights,
            match_games,
            nodes,
            opening_positions(),
            lambda d: tell("match", d, match_games),
        )
    return FitReport(
        learnt_from, result.samples, result.error_before, result.error_after, result.weights, match
    )


def _weights_match(
    tuned: Sequence[float],
    games: int,
    nodes: int,
    openings: Sequence[str],
    progress: Callable[[int], None],
    max_plies: int = 300,
) -> tuple[int, int, int]:
    """Wins, losses and draws of ``tuned`` against the current weights."""
    engines = (ChessEngine(hash_mb=8, weights=tuned), ChessEngine(hash_mb=8))
    wins = losses = draws = 0
    for index in range(games):
        board = chess.Board(openings[(index // 2) % len(openings)])
        tuned_plays_white = index % 2 == 0
        for engine in engines:
            engine.new_game()
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < max_plies:
            tuned_to_move = (board.turn == chess.WHITE) == tuned_plays_white
            answer = engines[0 if tuned_to_move else 1].search(board, nodes=nodes)
            assert answer.move is not None
            board.push(answer.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            draws += 1
        elif (outcome.winner == chess.WHITE) == tuned_plays_white:
            wins += 1
        else:
            losses += 1
        progress(index + 1)
    return wins, losses, draws


def opening_positions(text: str | None = None) -> list[str]:
    """Start positions (FEN) for matches: the built-in :data:`zermelo.games.chess_openings.OPENINGS` when ``text`` is
    ``None``, else the positions of an EPD text (one position per line, its operations such as
    ``bm`` ignored) or a PGN text (the position at the end of each game). Raises
    :class:`ParseError` naming the line or game that cannot be read."""
    if text is None:
        return [ChessState.parse("startpos", moves.split()).fen() for _name, moves in OPENINGS]
    if "[" in text.lstrip()[:1] or re.search(r"^\s*1\.", text, re.MULTILINE):
        return _pgn_positions(text)
    positions = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or line.lstrip().startswith("#"):
            continue
        fen = (
            " ".join(fields[:6])
            if len(fields) >= 6 and fields[4].isdigit()
            else " ".join(fields[:4])
        )
        try:
            positions.append(board_from_text(fen).fen())
        except (ParseError, InvalidPositionError) as error:
            raise ParseError(f"line {number}: {error}") from None
    return positions


def _pgn_positions(text: str) -> list[str]:

    positions = []
    stream = io.StringIO(text)
    number = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        number += 1
        if game.errors:
            raise ParseError(f"game {number} of the PGN: {game.errors[0]}")
        positions.append(game.end().board().fen())
    return positions


# -- the record's capabilities (zermelo.core.capabilities) -------------------------------------


def read_weights(path: str) -> tuple[float, ...]:
    """The weights of a file written by ``zermelo tune chess``: an object naming the game and
    each term's weight. The older form, a bare list (or ``{"weights": [...]}``) with one number
    per term in the order of :data:`TERMS`, is read too. Anything else, a file of another game
    among them, is a :class:`ParseError` in one line (:mod:`zermelo.solvers._weights`)."""
    from zermelo.solvers._weights import read_named_weights

    names = [name for name, _ in TERMS]
    weights, _label = read_named_weights(path, "chess", names)
    return tuple(weights[name] for name in names)


def weights_json(weights: Sequence[float]) -> str:
    """The weights file :func:`read_weights` reads: the game, the format and each term's weight."""
    from zermelo.solvers._weights import weights_text

    named = {name: float(w) for (name, _), w in zip(TERMS, weights, strict=True)}
    return weights_text("chess", named)


class ChessPerft:
    """Perft from zermelo's bitboard move generator (:func:`perft`)."""

    def count_leaves(self, state: ChessState, depth: int) -> int:
        return perft(state, depth)


class ChessAnalysis:
    """Every move's value from the engine, in pawns (:func:`analyze`)."""

    def analyze(self, state: ChessState, limits: Limits) -> SearchResult[object]:
        return analyze(state, limits.depth, limits.started().remaining(), nodes=limits.nodes)


class ChessExplainer:
    """The engine's evaluation term by term, in centipawns (:func:`explain`)."""

    def explain(self, state: ChessState, weights: str | None) -> Breakdown:
        rows, total = explain(state, None if weights is None else read_weights(weights))
        return Breakdown(tuple(rows), float(total), decimals=1)

    def explain_with_network(
        self, state: ChessState, weights: str | None, network: str
    ) -> Breakdown:
        """:meth:`explain`, plus a row with the total of the network in file ``network`` (a
        file that is not one raises :class:`nnue.NnueError` in one line)."""
        rows, total, value = explain_network(
            state, nnue.load(network), None if weights is None else read_weights(weights)
        )
        return Breakdown(
            tuple(rows),
            float(total),
            decimals=1,
            extra=((N_("network total"), float(value)),),
            note=N_(
                "An engine given this network (UCI's EvalFile) plays with the network total; "
                "the terms above are the built-in evaluation, which plays without one."
            ),
        )


_TUNE_ROWS = (
    N_("games / positions"),
    N_("mean squared error before"),
    N_("mean squared error after"),
)


class ChessTuner:
    """Texel tuning of the evaluation's weights, from self-play or a PGN (:func:`fit`)."""

    @property
    def uses(self) -> frozenset[str]:
        return frozenset({"pgn"})

    def tune(self, request: TuneRequest, progress: Progress) -> TuneReport:
        report = fit(
            request.games, request.match_games, request.seed, request.pgn_text, progress=progress
        )
        rows = (
            (_TUNE_ROWS[0], f"{report.games} / {report.positions}"),
            (_TUNE_ROWS[1], f"{report.error_before:.5f}"),
            (_TUNE_ROWS[2], f"{report.error_after:.5f}"),
            *((name, f"{w:g}") for (name, _), w in zip(TERMS, report.weights, strict=True)),
        )
        return TuneReport(
            N_("Tuning by Texel's method"), rows, weights_json(report.weights), report.match
        )


class ChessOpenings:
    """Start positions for matches: an EPD or PGN file's, or the built-in set."""

    def openings(self, text: str | None) -> list[str]:
        return opening_positions(text)


PERFT: Final = ChessPerft()
ANALYSIS: Final = ChessAnalysis()
EXPLAINER: Final = ChessExplainer()
TUNER: Final = ChessTuner()
OPENINGS_CAPABILITY: Final = ChessOpenings()
