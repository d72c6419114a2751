"""Chess, with python-chess for the rules, the notation and the draw rules.

A :class:`ChessState` wraps a :class:`chess.Board` with its move stack (so repetitions count) and
never changes it: :meth:`ChessState.play` copies. Moves are :class:`chess.Move` values; the notation
of a move is SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``) when formatted and SAN or UCI (``g1f3``,
``e7e8q``) when parsed. The notation of a position is FEN; ``startpos`` names the initial one.

The game ends at checkmate, stalemate, insufficient material, the third occurrence of a position
(threefold repetition) or fifty moves by each side without a capture or a pawn move. The last two
are draws a player may claim under FIDE rules; here they end the game, as engine matches do, so
that every game ends.

The search engine (:mod:`zermelo.solvers.chess`) has its own move generator on bitboards and reads
positions and moves through this module.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Hashable, Iterable
from typing import Final

import chess

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.scores import Unit
from zermelo.core.state import Player

__all__ = [
    "PIECE_VALUES",
    "SPEC",
    "STARTPOS",
    "ChessMove",
    "ChessState",
    "board_from_text",
    "move_from_text",
    "pgn",
    "termination",
]

STARTPOS: Final = chess.STARTING_FEN
PIECE_VALUES: Final = {
    chess.PAWN: 100,
    chess.KNIGHT: 320,
    chess.BISHOP: 330,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}
"""Centipawn values of :meth:`ChessState.evaluate`, a plain material count."""

_UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
_SAN_MOVE = re.compile(
    r"^([NBRQK][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=?[NBRQ])?|O-O(-O)?|0-0(-0)?)[+#]?[!?]*$"
)
_FEN_EXPECTED = (
    "expected FEN such as 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' "
    "(pieces rank 8 to 1, side to move, castling rights, en-passant square, clocks) or 'startpos'"
)


def board_from_text(text: str) -> chess.Board:
    """The position of a FEN string (or ``startpos``). Raises :class:`ParseError` quoting ``text``
    when it is not FEN, :class:`InvalidPositionError` when it is FEN of an impossible position
    (no king, pawns on the first rank, the side not to move in check, ...)."""
    cleaned = " ".join(text.split())
    if cleaned.lower() in ("startpos", "start", ""):
        return chess.Board()
    if cleaned.lower().startswith("fen "):
        cleaned = cleaned[4:]
    fields = cleaned.split(" ")
    if len(fields) == 4:
        cleaned += " 0 1"
    try:
        board = chess.Board(cleaned)
    except ValueError as error:
        raise ParseError(f"invalid position {text!r}: {error}; {_FEN_EXPECTED}") from None
    status = board.status()
    if status & ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE):
        problems = [words for flag, words in _STATUS_WORDS if status & flag]
        raise InvalidPositionError(
            f"impossible position {text!r}: {'; '.join(problems) or 'not a legal chess position'}"
        )
    board.castling_rights = board.clean_castling_rights()
    if board.ep_square is not None and not board.has_legal_en_passant():
        board.ep_square = None
    return board


_STATUS_WORDS: Final = (
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "more than one king of a colour"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 pieces"),
    (chess.STATUS_OPPOSITE_CHECK, "the side that is not to move is in check"),
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the king is checked by more than two pieces"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "no last move gives this check"),
)


def _legal_listing(board: chess.Board) -> str:
    moves = sorted(board.san(m) for m in board.legal_moves)
    if not moves:
        return "none, the game is over"
    if len(moves) > 16:
        return ", ".join(moves[:16]) + f", ... ({len(moves)} in all)"
    return ", ".join(moves)


def move_from_text(board: chess.Board, text: str) -> chess.Move:
    """The legal move ``text`` names on ``board``, in SAN (``Nf3``) or UCI (``g1f3``).

    Raises :class:`ParseError` quoting ``text`` when it is neither notation, and
    :class:`IllegalMoveError` quoting it when the move is not legal here."""
    cleaned = text.strip()
    if _UCI_MOVE.match(cleaned.lower()):
        move = chess.Move.from_uci(cleaned.lower())
        if move in board.legal_moves:
            return move
        raise IllegalMoveError(
            f"illegal move {text!r} in {board.fen()}: legal moves are {_legal_listing(board)}"
        )
    if cleaned in ("0000", "--"):
        raise IllegalMoveError(f"illegal move {text!r}: a null move is not a chess move")
    if not _SAN_MOVE.match(cleaned):
        raise ParseError(
            f"invalid move {text!r}: expected SAN such as 'Nf3', 'exd5', 'O-O', 'e8=Q' "
            "or UCI such as 'g1f3', 'e7e8q'"
        )
    try:
        return board.parse_san(cleaned)
    except chess.AmbiguousMoveError:
        raise ParseError(
            f"ambiguous move {text!r}: more than one piece can make it; add the file or the rank "
            "it starts from (for example 'Nbd2')"
        ) from None
    except ValueError:
        raise IllegalMoveError(
            f"illegal move {text!r} in {board.fen()}: legal moves are {_legal_listing(board)}"
        ) from None


PAWNS: Final = Unit(N_("{value} pawns"), 1.0)
"""Chess values reach the faces in pawns: the engine's centipawns are turned into pawns where
its answers leave it (:func:`zermelo.solvers.chess.tools.in_pawns`)."""


def termination(board: chess.Board) -> str | None:
    """Why the game on ``board`` is over: ``"checkmate"``, ``"stalemate"``,
    ``"insufficient material"``, ``"threefold repetition"`` or ``"fifty-move rule"`` (message ids,
    marked for translation); ``None`` while it is on."""
    if board.is_checkmate():
        return N_("checkmate")
    if board.is_stalemate():
        return N_("stalemate")
    if board.is_insufficient_material():
        return N_("insufficient material")
    if board.is_fifty_moves():
        return N_("fifty-move rule")
    if board.is_repetition(3):
        return N_("threefold repetition")
    return None


class ChessMove(chess.Move):
    """A :class:`chess.Move` that also orders, by its UCI text (``a2a3`` before ``b1c3``), so
    that code written for any game can sort the legal moves. It equals the plain
    :class:`chess.Move` of the same squares and promotion, and hashes alike."""

    __hash__ = chess.Move.__hash__

    @classmethod
    def of(cls, move: chess.Move) -> ChessMove:
        return (
            move
            if isinstance(move, ChessMove)
            else cls(move.from_square, move.to_square, move.promotion, move.drop)
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, chess.Move):
            return (self.from_square, self.to_square, self.promotion, self.drop) == (
                other.from_square,
                other.to_square,
                other.promotion,
                other.drop,
            )
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, chess.Move):
            return NotImplemented
        return self.uci() < other.uci()


class ChessState:
    """An immutable chess position with the moves that led to it.

    Build one with :meth:`initial` or :meth:`parse`; :meth:`play` returns a new state. Two states
    are equal when their positions are the same (pieces, side, castling and en-passant rights),
    their fifty-move counters agree and the position occurred equally often before.
    """

    __slots__ = ("_board", "_key")

    def __init__(self, board: chess.Board | None = None) -> None:
        self._board = board.copy() if board is not None else chess.Board()
        self._key: Hashable | None = None

    @classmethod
    def initial(cls) -> ChessState:
        return cls()

    @classmethod
    def parse(cls, text: str, moves: Iterable[str] = ()) -> ChessState:
        """A state from FEN (or ``startpos``) and moves played from it (SAN or UCI)."""
        board = board_from_text(text)
        for move_text in moves:
            board.push(move_from_text(board, move_text))
        return cls(board)

    @property
    def board(self) -> chess.Board:
        """A copy of the position with its move stack."""
        return self._board.copy()

    def fen(self) -> str:
        return self._board.fen()

    def __repr__(self) -> str:
        return f"ChessState.parse({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChessState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    # -- the State protocol -------------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return Player.FIRST if self._board.turn == chess.WHITE else Player.SECOND

    @property
    def ply(self) -> int:
        return self._board.ply()

    def legal_moves(self) -> tuple[ChessMove, ...]:
        """Captures first (most valuable victim, then least valuable attacker), then promotions,
        then the rest in python-chess's order; empty when the game is over."""
        if self.is_terminal():
            return ()
        board = self._board

        def order(move: chess.Move) -> tuple[int, int]:
            victim = board.piece_type_at(move.to_square)
            if victim is None and board.is_en_passant(move):
                victim = chess.PAWN
            if victim is not None:
                attacker = board.piece_type_at(move.from_square) or chess.PAWN
                return (0, -10 * victim + attacker)
            if move.promotion:
                return (1, -move.promotion)
            return (2, 0)

        return tuple(ChessMove.of(move) for move in sorted(board.legal_moves, key=order))

    def play(self, move: chess.Move) -> ChessState:
        if not isinstance(move, chess.Move) or move not in self._board.legal_moves:
            raise IllegalMoveError(
                f"illegal move {str(move)!r} in {self.fen()}: legal moves are "
                f"{_legal_listing(self._board)}"
            )
        if self.is_terminal():
            raise IllegalMoveError(
                f"move {str(move)!r} is not possible: the game is over ({self.termination()})"
            )
        board = self._board.copy()
        board.push(move)
        return ChessState(board)

    def is_terminal(self) -> bool:
        return termination(self._board) is not None

    def termination(self) -> str | None:
        """Why the game is over (see :func:`termination`), or ``None``."""
        return termination(self._board)

    def value_unit(self) -> Unit:
        """Heuristic values are shown in pawns (see :data:`PAWNS`)."""
        return PAWNS

    @property
    def winner(self) -> Player | None:
        if self._board.is_checkmate():
            return self.to_move.opponent
        return None

    def key(self) -> Hashable:
        if self._key is None:
            board = self._board
            seen = 2 if board.is_repetition(3) else 1 if board.is_repetition(2) else 0
            self._key = (
                board.board_fen(),
                board.turn,
                board.castling_rights,
                board.ep_square if board.has_legal_en_passant() else None,
                board.halfmove_clock,
                seen,
            )
        return self._key

    def notation(self) -> str:
        return self._board.fen()

    def parse_move(self, text: str) -> ChessMove:
        """A move in SAN or UCI; SAN is read against this position, so a move that no piece can
        make raises :class:`IllegalMoveError` here already."""
        return ChessMove.of(move_from_text(self._board, text))

    def format_move(self, move: chess.Move) -> str:
        """The move in SAN (``Nf3``), or in UCI when it is not legal here."""
        if move in self._board.legal_moves:
            return self._board.san(move)
        return move.uci()

    def evaluate(self) -> float:
        """Material balance in pawns from the side to move (:data:`PIECE_VALUES`, which are in
        centipawns, over 100): the unit every face shows chess values in, the engine's included.

        The engine's evaluation, with its named terms, is
        :func:`zermelo.solvers.chess.evaluation.explain`."""
        total = 0
        for piece_type, value in PIECE_VALUES.items():
            total += value * len(self._board.pieces(piece_type, chess.WHITE))
            total -= value * len(self._board.pieces(piece_type, chess.BLACK))
        return (total if self._board.turn == chess.WHITE else -total) / 100


def pgn(state: ChessState, *, white: str = "?", black: str = "?", event: str = "?") -> str:
    """The game that led to ``state`` as PGN text: the start position's FEN when it is not the
    usual one, every move in SAN, and the result (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``). The
    Seven Tag Roster is filled: the site is zermelo, the date today's (UTC), the round ``-``."""
    import chess.pgn

    board = state.board
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = "zermelo"
    game.headers["Date"] = datetime.datetime.now(datetime.UTC).strftime("%Y.%m.%d")
    game.headers["Round"] = "-"
    game.headers["White"] = white
    game.headers["Black"] = black
    game.headers["Result"] = _result(board)
    reason = termination(board)
    if reason is not None:
        game.headers["Termination"] = reason
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return str(game.accept(exporter)) + "\n"


def _result(board: chess.Board) -> str:
    if board.is_checkmate():
        return "0-1" if board.turn == chess.WHITE else "1-0"
    return "1/2-1/2" if termination(board) is not None else "*"


def _new(first: Player = Player.FIRST) -> ChessState:
    # White always moves first; ``first`` is accepted because front ends pass it to every game.
    return ChessState()


def _parse(text: str) -> ChessState:
    return ChessState.parse(text)


def _grid(state: ChessState) -> Grid:
    """The ``chess`` board: rank 8 at the top, each cell holding its piece's letter and named by
    its square, the last move's squares and a king in check marked."""
    board = state.board

    def cell(square: int) -> tuple[int, int]:
        return 7 - chess.square_rank(square), chess.square_file(square)

    ranks = range(7, -1, -1)
    last = board.peek() if board.move_stack else None
    king = board.king(board.turn) if board.is_check() else None
    return Grid.of(
        [
            [
                (piece.symbol() if (piece := board.piece_at(chess.square(f, r))) else "")
                for f in range(8)
            ]
            for r in ranks
        ],
        [[chess.square_name(chess.square(f, r)) for f in range(8)] for r in ranks],
        files=chess.FILE_NAMES,
        ranks=[str(r + 1) for r in ranks],
        last=() if last is None else (cell(last.from_square), cell(last.to_square)),
        alert=None if king is None else cell(king),
    )


# The levels run the engine of zermelo.solvers.chess (see zermelo.agents.chess): easy looks two
# plies ahead and blurs every move's value with seeded noise of 1.2 pawns, medium four plies with
# 0.3 pawns, hard searches the time per move (1 s unless asked otherwise) without noise.
SPEC: Final = GameSpec(
    name="chess",
    title=N_("Chess"),
    new=_new,
    parse=_parse,
    first_mover=Player.FIRST,
    sides=(N_("White"), N_("Black")),
    default_time=1.0,
    move_time=1.0,
    levels={level: Ref(f"zermelo.agents.chess:{level}") for level in ("easy", "medium", "hard")},
    mcts={"cutoff": 0, "scale": 300.0},
    board="chess",
    grid=_grid,
    notation=N_("SAN such as Nf3 or UCI such as g1f3"),
    web_engine=Ref("zermelo.agents.chess_web:CHESS"),
    perft=Ref("zermelo.solvers.chess.tools:PERFT"),
    engine_analysis=Ref("zermelo.solvers.chess.tools:ANALYSIS"),
    explainer=Ref("zermelo.solvers.chess.tools:EXPLAINER"),
    tuner=Ref("zermelo.solvers.chess.tools:TUNER"),
    saver=Ref("zermelo.solvers.chess.pgn:PGN_FILE"),
    openings=Ref("zermelo.solvers.chess.tools:OPENINGS_CAPABILITY"),
)
"""The record of chess: levels through the chess engine, the chess board, perft and the engine's
analysis and evaluation as tools, games saved as PGN."""
