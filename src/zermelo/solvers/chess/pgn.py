"""PGN read back: a game's start and main line, checked by python-chess, for the page's import.

The rules (:mod:`zermelo.games.chess`) write PGN but read no files or streams; reading one lives
here, and the record's saver (:data:`PGN_FILE`) offers both, so that the web page can import a
pasted PGN through the :class:`~zermelo.core.capabilities.Loads` capability.
"""

from __future__ import annotations

import io
import re
from typing import Final

import chess
import chess.pgn

from zermelo.core.errors import ParseError
from zermelo.games.chess import _SAN_MOVE, ChessState, pgn

__all__ = ["PGN_FILE", "PgnFile", "read_pgn"]


class PgnFile:
    """Chess's game file: :func:`zermelo.games.chess.pgn` out, :func:`read_pgn` in."""

    def save(self, state: ChessState, players: tuple[str, str] | None = None) -> str:
        white, black = players if players is not None else ("?", "?")
        return pgn(state, white=white, black=black, event="zermelo")

    def load(self, text: str) -> tuple[str, list[str]]:
        """A PGN game's start (its FEN header, ``""`` for the usual start) and main line in SAN,
        checked by python-chess: an unreadable game or an illegal move is a ParseError."""
        return read_pgn(text)


def read_pgn(text: str) -> tuple[str, list[str]]:
    """The first game of PGN ``text``: its start position's FEN (``""`` for the usual start) and
    its main line in SAN. Raises :class:`ParseError` for text that holds no game, or a move
    python-chess cannot read or play."""

    class Quiet(chess.pgn.GameBuilder[chess.pgn.Game]):
        def handle_error(self, error: Exception) -> None:  # kept, not logged
            self.game.errors.append(error)

    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=Quiet)
    except (IndexError, ValueError, AssertionError):
        # python-chess trips over some broken text (a ")" closing no variation: IndexError).
        raise ParseError(f"unreadable PGN {text[:40]!r}: unbalanced variations or tokens") from None
    if game is None:
        raise ParseError(f"no PGN game in {text[:40]!r}")
    if game.errors:
        problem = str(game.errors[0]).split(" while parsing")[0]
        raise ParseError(
            f"PGN {text[:40]!r}: {problem[: len(problem) // 2] if _twice(problem) else problem}"
        )
    board = game.board()
    start = "" if board.fen() == chess.STARTING_FEN else board.fen()
    moves: list[str] = []
    for move in game.mainline_moves():
        moves.append(board.san(move))
        board.push(move)
    if not moves and not game.headers.get("FEN"):
        raise ParseError(f"no moves and no FEN header in the PGN {text[:40]!r}")
    skipped = _skipped_word(text, len(moves))
    if skipped is not None:
        raise ParseError(f"PGN {text[:40]!r}: {skipped!r} is not a move")
    return start, moves


def _twice(text: str) -> bool:
    """python-chess writes some of its errors twice over."""
    half = len(text) // 2
    return len(text) % 2 == 0 and text[:half] == text[half:]


_PGN_NOISE = re.compile(r"^(\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*|[!?]+)$")


def _skipped_word(text: str, played: int) -> str | None:
    """A word of a plain PGN main line (no comments or variations) that python-chess passed over
    without a word (it skips what does not look like a move: "e9"), or ``None``."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("["))
    if any(mark in body for mark in "{}();%"):
        return None
    words = [word for word in re.split(r"\s+|(?<=\.)(?=[^.\s])", body) if word]
    moves = [word for word in words if not _PGN_NOISE.match(word)]
    if len(moves) == played:
        return None
    odd = [word for word in moves if not _SAN_MOVE.match(word.rstrip("+#!?"))]
    if odd:
        return odd[0]
    return moves[played] if played < len(moves) else None


PGN_FILE: Final = PgnFile()
"""The chess record's saver: PGN written and read back."""
