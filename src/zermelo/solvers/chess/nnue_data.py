"""Training positions for the chess engine's learned evaluation (:mod:`.nnue`), from self-play.

A *task* (:func:`play_task`) plays a few games of zermelo's engine against itself and returns
its quiet positions as one *shard*: the bytes of an ``.npz`` with, per position,

- ``board``: uint8[64], square a1 = 0 ... h8 = 63, 0 empty, 1 + kind + 6 * colour otherwise
  (kind 0 pawn ... 5 king, colour 0 White, 1 Black);
- ``stm``: uint8, the side to move (0 White, 1 Black);
- ``score``: int16, the label: the search's value in centipawns **from the side to move**;
- ``result``: int8, the game's result from the side to move (1 won, 0 drawn, -1 lost).

Each game starts from one of the built-in balanced openings (:data:`~zermelo.games.chess_openings.
OPENINGS`) followed by 0 to ``random_plies`` random legal moves. Every move is chosen by a
search of ``label_depth`` plies, whose value is the position's label; with a labelling UCI
engine (``label_engine``, a path the user gives) zermelo plays at :data:`PLAY_DEPTH` and the
other engine's ``label_depth`` search labels the position. A position is kept only when it is
quiet: the side to move is not in check, the best move is neither a capture nor a promotion, and
the label is no mate score. A game ends by the rules (draws that can be claimed included), after
``max_plies``, by adjudication when both sides agree for :data:`ADJUDICATE_PLIES` plies that one
side is :data:`RESIGN_CP` ahead (a win) or, past ply 100, that the score is within
:data:`DRAW_CP` (a draw).

A task is a function of its arguments: ``random.Random`` is seeded from the run's seed and the
task's number, the engine's table is fresh for every game and fixed-depth searches do not depend
on the clock, so the same arguments give the same shard, byte for byte (the zip entries carry a
fixed date).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import chess
import chess.engine
import numpy as np
from numpy.typing import NDArray

from zermelo.core.errors import InvalidOptionError
from zermelo.games.chess_openings import OPENINGS
from zermelo.solvers.chess import nnue
from zermelo.solvers.chess.engine import MATE_BOUND, ChessEngine

__all__ = [
    "ADJUDICATE_PLIES",
    "DRAW_CP",
    "PLAY_DEPTH",
    "RESIGN_CP",
    "Positions",
    "ShardError",
    "board_of",
    "check_label_engine",
    "decode_shard",
    "encode_shard",
    "features_of",
    "match_game",
    "play_task",
    "task_seed",
]

PLAY_DEPTH: Final = 4
"""The depth of zermelo's own moves when another engine labels the positions."""
RESIGN_CP: Final = 1_000
DRAW_CP: Final = 8
ADJUDICATE_PLIES: Final = 8
SCORE_LIMIT: Final = 20_000
"""Labels beyond this many centipawns (no mate, but no position either) are dropped."""
ARRAYS: Final = ("board", "stm", "score", "result")
QUIT_SECONDS: Final = 5.0
"""How long a labelling engine has to quit before its process is ended."""
_DATE: Final = (1980, 1, 1, 0, 0, 0)


class ShardError(InvalidOptionError):
    """A shard or a labelling engine that cannot be used, in one line."""


@dataclass(frozen=True, eq=False)
class Positions:
    """Positions and their labels (see the module's doc for each array)."""

    board: NDArray[np.uint8]
    stm: NDArray[np.uint8]
    score: NDArray[np.int16]
    result: NDArray[np.int8]

    def __len__(self) -> int:
        return int(self.score.shape[0])

    @staticmethod
    def join(parts: list[Positions]) -> Positions:
        if not parts:
            return Positions(
                np.zeros((0, 64), np.uint8),
                np.zeros(0, np.uint8),
                np.zeros(0, np.int16),
                np.zeros(0, np.int8),
            )
        return Positions(
            np.concatenate([p.board for p in parts]),
            np.concatenate([p.stm for p in parts]),
            np.concatenate([p.score for p in parts]),
            np.concatenate([p.result for p in parts]),
        )

    def head(self, count: int) -> Positions:
        return Positions(
            self.board[:count], self.stm[:count], self.score[:count], self.result[:count]
        )


def task_seed(seed: int, number: int) -> str:
    """The seed of task ``number`` of a run seeded ``seed`` (``random.Random`` hashes strings
    the same way everywhere)."""
    return f"zermelo-nnue:{seed}:{number}"


def pack(board: chess.Board) -> NDArray[np.uint8]:
    packed = np.zeros(64, dtype=np.uint8)
    for square, piece in board.piece_map().items():
        colour = 0 if piece.color == chess.WHITE else 1
        packed[square] = 1 + (piece.piece_type - 1) + 6 * colour
    return packed


def board_of(packed: NDArray[np.uint8], stm: int) -> chess.Board:
    """The position of a packed board (no castling rights, no en passant: the network sees
    pieces only)."""
    board = chess.Board.empty()
    for square in range(64):
        code = int(packed[square])
        if code:
            kind, colour = (code - 1) % 6, (code - 1) // 6
            board.set_piece_at(square, chess.Piece(kind + 1, colour == 0))
    board.turn = stm == 0
    return board


def features_of(board: NDArray[np.uint8]) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
    """The active inputs of packed boards (N x 64) seen by White and by Black, each N x 32,
    padded with :data:`nnue.FEATURES` (a row past the last input), in :func:`nnue.feature`'s
    order."""
    count = board.shape[0]
    white = np.full((count, 32), nnue.FEATURES, dtype=np.int16)
    black = np.full((count, 32), nnue.FEATURES, dtype=np.int16)
    occupied = board > 0
    if count == 0:
        return white, black
    rows, squares = np.nonzero(occupied)
    codes = board[rows, squares].astype(np.int64) - 1
    kind, colour = codes % 6, codes // 6
    white_index = (colour * 6 + kind) * 64 + squares
    black_index = ((1 - colour) * 6 + kind) * 64 + (squares ^ 56)
    # the column of each piece within its row: its rank among the row's pieces
    starts = np.searchsorted(rows, np.arange(count))
    column = np.arange(rows.shape[0]) - starts[rows]
    if column.size and int(column.max()) >= 32:
        raise ShardError("a position has more than 32 pieces: not a chess position")
    white[rows, column] = white_index
    black[rows, column] = black_index
    return white, black


# -- shards ------------------------------------------------------------------------------------


def encode_shard(positions: Positions) -> bytes:
    """The ``.npz`` bytes of ``positions``: the same positions give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in ARRAYS:
            array = np.ascontiguousarray(getattr(positions, name))
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            body = io.BytesIO()
            np.lib.format.write_array(body, array, allow_pickle=False)
            archive.writestr(entry, body.getvalue())
    return buffer.getvalue()


def decode_shard(source: bytes | Path, where: str = "shard") -> Positions:
    """The positions of a shard (its bytes, or its file); anything else is a
    :class:`ShardError` naming ``where``."""
    try:
        stream: io.BytesIO | Path = io.BytesIO(source) if isinstance(source, bytes) else source
        with np.load(stream, allow_pickle=False) as data:
            arrays = {name: data[name] for name in ARRAYS}
    except KeyError as error:
        raise ShardError(f"{where}: not a shard of positions (no {error})") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise ShardError(f"{where}: not a shard of positions ({type(error).__name__})") from None
    count = arrays["score"].shape[0] if arrays["score"].ndim == 1 else -1
    expected = {
        "board": (np.uint8, (count, 64)),
        "stm": (np.uint8, (count,)),
        "score": (np.int16, (count,)),
        "result": (np.int8, (count,)),
    }
    for name, (dtype, shape) in expected.items():
        array = arrays[name]
        if array.dtype != dtype or array.shape != shape:
            raise ShardError(
                f"{where}: {name} is {array.dtype} {tuple(array.shape)}, expected "
                f"{np.dtype(dtype)} {shape}"
            )
    if count and (int(arrays["board"].max()) > 12 or int(arrays["stm"].max()) > 1):
        raise ShardError(f"{where}: a board or side to move out of range")
    return Positions(arrays["board"], arrays["stm"], arrays["score"], arrays["result"])


# -- the labelling engine ------------------------------------------------------------------------

_LABELLERS: dict[str, chess.engine.SimpleEngine] = {}
"""The labelling engines this process opened, by path (kept warm between tasks)."""


def _labeller(path: str) -> chess.engine.SimpleEngine:
    engine = _LABELLERS.get(path)
    if engine is None:
        engine = _open_engine(path)
        _LABELLERS[path] = engine
    return engine


def _open_engine(path: str) -> chess.engine.SimpleEngine:
    try:
        engine = chess.engine.SimpleEngine.popen_uci(path, timeout=60.0)
    except (OSError, chess.engine.EngineError, TimeoutError) as error:
        raise ShardError(
            f"cannot use {path!r} as a UCI engine ({type(error).__name__}: {error}); expected "
            "the path of a UCI chess engine such as /usr/games/stockfish"
        ) from None
    with contextlib.suppress(chess.engine.EngineError):
        if "Threads" in engine.options:
            engine.configure({"Threads": 1})
    return engine


def check_label_engine(path: str) -> str:
    """The name of the UCI engine at ``path`` (started and stopped once); a path that is no
    such engine is a :class:`ShardError` in one line."""
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise ShardError(f"{path!r} is not an executable file: expected a UCI chess engine")
    engine = _open_engine(path)
    try:
        return str(engine.id.get("name", path))
    finally:
        _stop(engine)


def close_labellers() -> None:
    """Stop the labelling engines this process started."""
    while _LABELLERS:
        _path, engine = _LABELLERS.popitem()
        _stop(engine)


def _stop(engine: chess.engine.SimpleEngine) -> None:
    """Ask ``engine`` to quit, for a few seconds; then end its process (one that ignores
    ``quit`` must not outlive this one, nor keep it from ending)."""
    engine.timeout = QUIT_SECONDS
    try:
        engine.quit()
    except Exception:  # gone, or deaf: python-chess's errors and a timeout alike
        with contextlib.suppress(Exception):
            engine.close()


# -- self-play ---------------------------------------------------------------------------------


_ENGINE: ChessEngine | None = None
"""The engine of this process (one per worker, a fresh table for every game)."""


def _engine() -> ChessEngine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = ChessEngine()
    return _ENGINE


def warm_up() -> None:
    """Build the engine of a worker process before its first task (the compiled kernel), and let
    a pool process leave Ctrl-C to the parent, which stops between tasks."""
    import multiprocessing
    import signal

    if multiprocessing.parent_process() is not None:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    _engine().search("startpos", depth=1)


def _opening(rng: random.Random, random_plies: int) -> chess.Board:
    _name, moves = OPENINGS[rng.randrange(len(OPENINGS))]
    board = chess.Board()
    for san in moves.split():
        board.push_san(san)
    for _ in range(rng.randint(0, random_plies)):
        legal = sorted(board.legal_moves, key=chess.Move.uci)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


def _games(
    rng: random.Random,
    games: int,
    label_depth: int,
    label_engine: str | None,
    random_plies: int,
    max_plies: int,
    key: str,
) -> Iterator[tuple[list[tuple[NDArray[np.uint8], int, int]], int]]:
    """Each game's quiet positions (packed board, side to move, label) and its result for
    White (1, 0, -1)."""
    engine = _engine()
    other = _labeller(label_engine) if label_engine is not None else None
    play_depth = PLAY_DEPTH if other is not None else label_depth
    for number in range(games):
        board = _opening(rng, random_plies)
        engine.new_game()
        kept: list[tuple[NDArray[np.uint8], int, int]] = []
        result = 0
        ahead = level = 0
        plies = 0
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                result = 0 if outcome.winner is None else (1 if outcome.winner else -1)
                break
            if plies >= max_plies:
                break
            answer = engine.search(board, depth=play_depth)
            if answer.move is None:  # pragma: no cover - a finished game is caught above
                break
            move: chess.Move = answer.move
            value = int(answer.value)
            label: int | None = value if abs(value) <= MATE_BOUND else None
            best = move
            if other is not None:
                label, best = _other_label(other, board, label_depth, f"{key}:{number}", move)
            quiet = (
                label is not None
                and abs(label) <= SCORE_LIMIT
                and not board.is_check()
                and not board.is_capture(best)
                and best.promotion is None
            )
            if quiet and label is not None:
                kept.append((pack(board), 0 if board.turn == chess.WHITE else 1, label))
            white_value = value if board.turn == chess.WHITE else -value
            if abs(white_value) >= RESIGN_CP:
                sign = 1 if white_value > 0 else -1
                ahead = ahead + sign if ahead * sign >= 0 else sign
            else:
                ahead = 0
            level = level + 1 if plies >= 100 and abs(white_value) <= DRAW_CP else 0
            board.push(move)
            plies += 1
            if abs(ahead) >= ADJUDICATE_PLIES:
                result = 1 if ahead > 0 else -1
                break
            if level >= ADJUDICATE_PLIES:
                break
        yield kept, result


def _other_label(
    other: chess.engine.SimpleEngine,
    board: chess.Board,
    depth: int,
    game: str,
    fallback: chess.Move,
) -> tuple[int | None, chess.Move]:
    try:
        info = other.analyse(board, chess.engine.Limit(depth=depth), game=game)
    except (chess.engine.EngineError, OSError) as error:
        raise ShardError(
            f"the labelling engine stopped answering ({type(error).__name__}: {error}); check "
            "that it runs, then run the same command again"
        ) from None
    score = info.get("score")
    pv = info.get("pv") or [fallback]
    label = None if score is None else score.pov(board.turn).score()
    return label, pv[0]


def play_task(
    seed: int,
    number: int,
    games: int,
    label_depth: int,
    label_engine: str | None,
    random_plies: int = 8,
    max_plies: int = 300,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """Task ``number`` of a run seeded ``seed``: ``games`` games of self-play, their quiet
    positions labelled (see the module's doc), as the bytes of one shard."""
    rng = random.Random(task_seed(seed, number))
    boards: list[NDArray[np.uint8]] = []
    stms: list[int] = []
    scores: list[int] = []
    results: list[int] = []
    played = _games(
        rng, games, label_depth, label_engine, random_plies, max_plies, f"{seed}:{number}"
    )
    for index, (kept, result) in enumerate(played):
        for packed, stm, label in kept:
            boards.append(packed)
            stms.append(stm)
            scores.append(label)
            results.append(result if stm == 0 else -result)
        if progress is not None:
            progress(index + 1)
    positions = Positions(
        np.array(boards, dtype=np.uint8).reshape(-1, 64),
        np.array(stms, dtype=np.uint8),
        np.array(scores, dtype=np.int16),
        np.array(results, dtype=np.int8),
    )
    return encode_shard(positions)


# -- the check match ---------------------------------------------------------------------------

MATCH_NODES: Final = 5_000
"""Nodes per move of the check match (equal nodes: a slower evaluation is not penalised)."""


def match_game(
    network: nnue.Network,
    opening: str,
    network_white: bool,
    nodes: int = MATCH_NODES,
    max_plies: int = 300,
) -> float:
    """The points (1, 0.5 or 0) of the engine evaluating with ``network`` in one game against the
    built-in evaluation from ``opening`` (a FEN); ``max_plies`` without an end is a draw."""
    engines = (ChessEngine(hash_mb=8, network=network), ChessEngine(hash_mb=8))
    board = chess.Board(opening)
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < max_plies:
        ours = (board.turn == chess.WHITE) == network_white
        answer = engines[0 if ours else 1].search(board, nodes=nodes)
        if answer.move is None:  # pragma: no cover - a finished game is caught above
            break
        board.push(answer.move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if (outcome.winner == chess.WHITE) == network_white else 0.0
