"""The chess engine: Python front of the compiled kernel (:mod:`.kernel`).

:class:`ChessEngine` owns the kernel's arrays (transposition table, position stack, move lists,
counters) and runs iterative deepening with aspiration windows around the kernel's principal
variation search, under a depth, a node count, a time per move or a clock with increment. The
kernel works on its own bitboards; positions and moves come in and go out through python-chess.

Both searches answer with :class:`zermelo.search.result.SearchResult`, its moves
:class:`zermelo.games.chess.ChessMove` values (the game's own move type, so that every front end
formats and plays them as it does any game's moves; :meth:`chess.Move.uci` gives the UCI text).
Values are from the side to move: centipawns, or ``WIN - plies`` for a mate found ``plies``
half-moves from the root (negative when the side to move is mated), as in
:mod:`zermelo.core.scores`; only a mate or a finished game is ``exact``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

import chess

from zermelo.core.errors import BudgetError, InvalidOptionError
from zermelo.core.scores import WIN
from zermelo.games.chess import ChessMove, board_from_text, move_from_text, termination
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.solvers._jit import kernel_variant
from zermelo.solvers.chess import kernel as compiled_kernel

__all__ = [
    "DEFAULT_HASH_MB",
    "LEVELS",
    "SWITCHES",
    "ChessEngine",
    "Progress",
    "board_of",
    "kernel_module",
    "legal_moves",
    "load_position",
    "mate_in",
    "perft",
]

DEFAULT_HASH_MB: Final = 64
PURE_TABLE_SLOTS: Final = 1 << 16
MAX_HASH_MB: Final = 4096
MATE_BOUND: Final = compiled_kernel.MATE_BOUND
INFINITY: Final = compiled_kernel.INFINITY
NO_LIMIT: Final = (1 << 62) - 1
MOVE_OVERHEAD: Final = 0.03
"""Seconds kept back from every clock-bound search for the moves to travel."""

SWITCHES: Final = {
    "null-move": compiled_kernel.SW_NULL_MOVE,
    "late-move-reductions": compiled_kernel.SW_LATE_MOVE_REDUCTIONS,
    "check-extension": compiled_kernel.SW_CHECK_EXTENSION,
    "killers": compiled_kernel.SW_KILLERS,
    "history": compiled_kernel.SW_HISTORY,
    "tt-cutoffs": compiled_kernel.SW_TT_CUTOFFS,
    "tt-move": compiled_kernel.SW_TT_MOVE,
    "quiescence-order": compiled_kernel.SW_QUIESCENCE_ORDER,
    "futility": compiled_kernel.SW_FUTILITY,
    "late-move-pruning": compiled_kernel.SW_LATE_MOVE_PRUNING,
    "aspiration": compiled_kernel.SW_ASPIRATION,
}
"""The search's switches by name (bits of ``ChessEngine(switches=...)``): null-move pruning,
late-move reductions, the check extension, killer moves, the history heuristic, cutoffs on the
transposition table's bounds, the table's move tried first (with internal iterative deepening to
find one), quiescence's most-valuable-victim/least-valuable-attacker order, futility pruning
(reverse futility at the node, and quiet moves that cannot reach alpha), late-move pruning (quiet
moves past a count near the leaves) and the aspiration windows of iterative deepening. All are on
in play; switching one off measures what it is worth."""

LEVELS: Final = {"easy": 1, "medium": 4, "hard": None}
"""Depth caps of the levels: easy looks one ply ahead (plus captures), medium four, hard has no
cap beyond the time or nodes it is given."""


def kernel_module(compiled: bool | None = None) -> ModuleType:
    """The kernel: the compiled module (when numba is usable), or a plain-Python copy of it.

    ``compiled=None`` takes the compiled one when available; ``False`` always the plain copy,
    loaded from the same source file with compilation switched off."""
    return kernel_variant(compiled_kernel, compiled, "chess kernel")


def _array(kernel: ModuleType, size: int, *, floats: bool = False) -> Any:
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.float64 if floats else np.int64)
    return [0.0] * size if floats else [0] * size


def _fill(array: Any, start: int, stop: int) -> None:
    """Zero ``array[start:stop]`` at once (a numpy array or a list)."""
    if isinstance(array, list):
        array[start:stop] = [0] * (stop - start)
    else:
        array[start:stop] = 0


def board_of(position: str | chess.Board, moves: Iterable[str | chess.Move] = ()) -> chess.Board:
    """A board from FEN text (or ``startpos``) or a board (copied), with ``moves`` played (SAN,
    UCI or :class:`chess.Move`). Raises zermelo's parse and illegal-move errors."""
    board = position.copy() if isinstance(position, chess.Board) else board_from_text(position)
    for move in moves:
        if isinstance(move, chess.Move):
            if move not in board.legal_moves:
                move_from_text(board, move.uci())
            board.push(move)
        else:
            board.push(move_from_text(board, move))
    return board


def load_position(kernel: ModuleType, stack: Any, board: chess.Board, ply: int = 0) -> None:
    """Write ``board`` into slot ``ply`` of ``stack`` (see the kernel's layout)."""
    base = ply * kernel.POS_SIZE
    for piece in range(6):
        stack[base + piece] = kernel._word(
            int(board.pieces_mask(piece + 1, chess.WHITE))
            | int(board.pieces_mask(piece + 1, chess.BLACK))
        )
    stack[base + kernel.P_WHITE] = kernel._word(int(board.occupied_co[chess.WHITE]))
    stack[base + kernel.P_WHITE + 1] = kernel._word(int(board.occupied_co[chess.BLACK]))
    stack[base + kernel.P_SIDE] = 0 if board.turn == chess.WHITE else 1
    rights = board.clean_castling_rights()
    castle = 0
    for bit, square in ((1, chess.H1), (2, chess.A1), (4, chess.H8), (8, chess.A8)):
        if rights & chess.BB_SQUARES[square]:
            castle |= bit
    stack[base + kernel.P_CASTLE] = castle
    ep = -1
    if board.ep_square is not None and board.has_pseudo_legal_en_passant():
        ep = board.ep_square
    stack[base + kernel.P_EP] = ep
    stack[base + kernel.P_HALFMOVE] = board.halfmove_clock
    stack[base + kernel.P_NULL] = 0
    stack[base + kernel.P_HASH] = 0
    stack[base + kernel.P_HASH] = kernel.compute_hash(stack, base)


def _kernel_move(move: int) -> ChessMove:
    promotion = (move >> 12) & 7
    return ChessMove(move & 63, (move >> 6) & 63, promotion + 1 if promotion else None)


def perft(
    position: str | chess.Board,
    depth: int,
    *,
    moves: Iterable[str] = (),
    compiled: bool | None = None,
) -> int:
    """The number of leaf nodes of the legal move tree ``depth`` plies deep (Stockfish's ``perft``),
    counted by zermelo's own bitboard move generator."""
    if depth < 0 or depth > 20:
        raise BudgetError(f"invalid perft depth {depth!r}: expected a depth from 0 to 20")
    board = board_of(position, moves)
    kernel = kernel_module(compiled)
    stack = _array(kernel, kernel.STACK_SIZE)
    move_list = _array(kernel, kernel.MOVES_SIZE)
    load_position(kernel, stack, board)
    return int(kernel.perft(stack, move_list, 0, depth))


def legal_moves(
    position: str | chess.Board, *, moves: Iterable[str] = (), compiled: bool | None = None
) -> tuple[str, ...]:
    """The legal moves of a position in UCI, as zermelo's own move generator finds them."""
    board = board_of(position, moves)
    kernel = kernel_module(compiled)
    stack = _array(kernel, kernel.STACK_SIZE)
    move_list = _array(kernel, kernel.MOVES_SIZE)
    load_position(kernel, stack, board)
    count = kernel.legal_moves(stack, 0, move_list, 0)
    return tuple(_kernel_move(int(move_list[i])).uci() for i in range(count))


def mate_in(score: float) -> int | None:
    """Moves to mate of a decided score (positive: the side to move mates), else ``None``."""
    if abs(score) <= MATE_BOUND:
        return None
    plies = WIN - int(abs(score))
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


Progress = Callable[[SearchResult[ChessMove]], None]
"""What :meth:`ChessEngine.search` calls after every completed iteration: the result so far
(its ``depth``, ``value``, ``pv`` and ``stats`` with nodes, elapsed time and ``seldepth``), what a
UCI ``info`` line says."""


@dataclass(frozen=True, slots=True)
class _Budget:
    depth: int
    nodes: int
    soft: float | None
    hard: float | None


class ChessEngine:
    """Negamax alpha-beta with principal-variation search, in the compiled kernel.

    ``hash_mb`` sizes the transposition table (rounded down to a power of two of 16-byte slots);
    ``compiled=False`` runs the plain-Python copy of the kernel (slow; for tests and machines
    without numba). ``weights`` replaces the evaluation's weights (see
    :mod:`zermelo.solvers.chess.evaluation`). ``switches`` selects the search's techniques
    (bits of :data:`SWITCHES`; all on by default, for play): turning one off is for measuring what
    it is worth. One engine searches one position at a time; give each thread its own engine.
    """

    def __init__(
        self,
        *,
        hash_mb: int = DEFAULT_HASH_MB,
        compiled: bool | None = None,
        weights: Sequence[float] | None = None,
        switches: int = compiled_kernel.SW_ALL,
    ) -> None:
        if (
            not isinstance(switches, int)
            or isinstance(switches, bool)
            or not 0 <= switches <= compiled_kernel.SW_ALL
        ):
            raise InvalidOptionError(
                f"invalid search switches {switches!r}: expected a bit mask from 0 to "
                f"{compiled_kernel.SW_ALL} (bits of SWITCHES)"
            )
        self.switches: Final = switches
        self.kernel = kernel_module(compiled)
        k = self.kernel
        self._stack = _array(k, k.STACK_SIZE)
        self._moves = _array(k, k.MOVES_SIZE)
        self._order = _array(k, k.MOVES_SIZE)
        self._features = _array(k, k.FEATURES_SIZE, floats=True)
        self._weights = _array(k, k.N_TERMS, floats=True)
        self._work = _array(k, k.WORK_SIZE)
        self.set_weights(weights if weights is not None else k.DEFAULT_WEIGHTS)
        self._table: Any = None
        self._hash_mb = 0
        self.resize(hash_mb)
        self._lock = threading.Lock()

    # -- options -------------------------------------------------------------------------------

    @property
    def compiled(self) -> bool:
        return bool(self.kernel.COMPILED)

    @property
    def hash_mb(self) -> int:
        return self._hash_mb

    def resize(self, hash_mb: int) -> None:
        """A new, empty transposition table of ``hash_mb`` MiB (1 to 4096)."""
        if not isinstance(hash_mb, int) or not 1 <= hash_mb <= MAX_HASH_MB:
            raise BudgetError(f"invalid hash size {hash_mb!r}: expected 1 to {MAX_HASH_MB} MiB")
        slots = 1
        while slots * 2 * 16 <= hash_mb << 20:
            slots *= 2
        if not self.compiled:
            slots = min(slots, PURE_TABLE_SLOTS)
        self._table = _array(self.kernel, 2 * slots)
        self._hash_mb = hash_mb

    def set_weights(self, weights: Sequence[float]) -> None:
        if len(weights) != self.kernel.N_TERMS:
            raise BudgetError(
                f"invalid weights {list(weights)!r}: expected {self.kernel.N_TERMS} numbers"
            )
        for i, weight in enumerate(weights):
            self._weights[i] = float(weight)
        k = self.kernel
        _fill(self._work, k.EVAL_BASE, k.WORK_SIZE)

    @property
    def weights(self) -> tuple[float, ...]:
        return tuple(float(w) for w in self._weights)

    def new_game(self) -> None:
        """Forget everything learnt: the transposition table, killer moves and history."""
        _fill(self._table, 0, len(self._table))
        _fill(self._work, 0, self.kernel.WORK_SIZE)

    # -- positions -------------------------------------------------------------------------------

    def _prepare(self, board: chess.Board) -> None:
        """Load ``board`` at ply 0 and its earlier positions (since the last irreversible move)
        into the repetition history; reset the counters and the killers; age the history."""
        k = self.kernel
        work = self._work
        earlier: list[int] = []
        replay = board.copy()
        steps = min(len(replay.move_stack), board.halfmove_clock, k.GAME_SIZE)
        for _ in range(steps):
            replay.pop()
            load_position(k, self._stack, replay)
            earlier.append(self._stack[k.P_HASH])
        earlier.reverse()
        for i, key in enumerate(earlier):
            work[k.GAME_BASE + i] = key
        work[k.W_HISTORY_LENGTH] = len(earlier)
        load_position(k, self._stack, board)
        work[k.W_NODES] = 0
        work[k.W_QNODES] = 0
        work[k.W_STOP] = 0
        work[k.W_SELDEPTH] = 0
        work[k.W_SWITCHES] = self.switches
        _fill(work, k.KILLER_BASE, k.HISTORY_BASE)
        if isinstance(work, list):
            work[k.HISTORY_BASE : k.PV_LENGTH_BASE] = [
                value >> 2 for value in work[k.HISTORY_BASE : k.PV_LENGTH_BASE]
            ]
        else:
            work[k.HISTORY_BASE : k.PV_LENGTH_BASE] >>= 2

    def _start(self, board: chess.Board, budget: _Budget) -> list[int]:
        """Prepare a search of ``board`` (:meth:`_prepare`) under ``budget``'s node count and
        return the root's legal moves."""
        self._prepare(board)
        self._work[self.kernel.W_NODE_LIMIT] = budget.nodes
        return self._legal_root()

    def _legal_root(self) -> list[int]:
        k = self.kernel
        count = k.legal_moves(self._stack, 0, self._moves, 0)
        return [int(self._moves[i]) for i in range(count)]

    def _pv(self, ply: int, board: chess.Board) -> tuple[ChessMove, ...]:
        """The principal variation stored for ``ply``, cut at the first move that is not legal
        (a safeguard: the kernel only stores moves it searched)."""
        k = self.kernel
        work = self._work
        row = k.PV_BASE + ply * (k.MAX_PLY + 4)
        length = int(work[k.PV_LENGTH_BASE + ply])
        line: list[ChessMove] = []
        replay = board.copy(stack=False)
        for i in range(ply, length):
            move = _kernel_move(int(work[row + i]))
            if move not in replay.legal_moves:
                break
            line.append(move)
            replay.push(move)
        return tuple(line)

    def evaluate(self, position: str | chess.Board) -> int:
        """The static evaluation of a position in centipawns, from the side to move."""
        board = board_of(position)
        load_position(self.kernel, self._stack, board)
        return int(self.kernel.evaluate(self._stack, 0, self._weights, self._features))

    def features(self, position: str | chess.Board) -> tuple[float, ...]:
        """The evaluation's feature values (White minus Black), then the middle-game phase (1
        at the start, 0 with only kings and pawns)."""
        board = board_of(position)
        load_position(self.kernel, self._stack, board)
        self.kernel.evaluate(self._stack, 0, self._weights, self._features)
        return tuple(float(x) for x in self._features)

    def quiesce(self, position: str | chess.Board) -> int:
        """The quiescence-search value (captures only) from the side to move."""
        board = board_of(position)
        with self._lock:
            self._prepare(board)
            self._work[self.kernel.W_NODE_LIMIT] = NO_LIMIT
            return int(
                self.kernel.quiesce(
                    self._stack,
                    self._moves,
                    self._order,
                    self._work,
                    self._weights,
                    self._features,
                    0,
                    -INFINITY,
                    INFINITY,
                )
            )

    # -- budgets ---------------------------------------------------------------------------------

    @staticmethod
    def _budget(
        board: chess.Board,
        depth: int | None,
        movetime: float | None,
        nodes: int | None,
        wtime: float | None,
        btime: float | None,
        winc: float,
        binc: float,
        movestogo: int | None,
    ) -> _Budget:
        if depth is not None and (not isinstance(depth, int) or not 1 <= depth <= 100):
            raise BudgetError(f"invalid depth {depth!r}: expected 1 to 100 plies")
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise BudgetError(f"invalid node count {nodes!r}: expected a positive number")
        if movetime is not None and not movetime > 0:
            raise BudgetError(f"invalid time per move {movetime!r}: expected seconds above 0")
        if movestogo is not None and movestogo < 1:
            raise BudgetError(f"invalid movestogo {movestogo!r}: expected at least 1")
        soft: float | None = None
        hard: float | None = None
        if movetime is not None:
            hard = max(0.005, movetime - min(MOVE_OVERHEAD, movetime * 0.1))
            soft = hard
        clock = wtime if board.turn == chess.WHITE else btime
        increment = winc if board.turn == chess.WHITE else binc
        if clock is not None:
            usable = max(0.0, clock - MOVE_OVERHEAD)
            to_go = movestogo if movestogo is not None else 30
            share = usable / (to_go + 1) + 0.75 * max(0.0, increment)
            share = min(share, usable * 0.5)
            clock_hard = max(0.002, min(share * 3.0, usable * 0.6))
            clock_soft = max(0.001, share * 0.6)
            hard = clock_hard if hard is None else min(hard, clock_hard)
            soft = clock_soft if soft is None else min(soft, clock_soft)
        return _Budget(depth or 100, nodes or NO_LIMIT, soft, hard)

    def _watch(
        self, started: float, hard: float | None, stop_event: threading.Event | None
    ) -> tuple[threading.Thread | None, threading.Event]:
        """A thread that raises the kernel's stop flag at the hard time limit or when
        ``stop_event`` is set, until the returned event says the search is over."""
        finished = threading.Event()
        if hard is None and stop_event is None:
            return None, finished
        work = self._work
        flag = self.kernel.W_STOP

        def watch() -> None:
            while not finished.is_set():
                if stop_event is not None and stop_event.is_set():
                    break
                if hard is not None and time.perf_counter() - started >= hard:
                    break
                finished.wait(0.002)
            work[flag] = 1

        thread = threading.Thread(target=watch, name="zermelo-chess-clock", daemon=True)
        thread.start()
        return thread, finished

    # -- search ----------------------------------------------------------------------------------

    def search(
        self,
        fen_or_board: str | chess.Board,
        *,
        moves: Iterable[str | chess.Move] = (),
        depth: int | None = None,
        movetime: float | None = None,
        nodes: int | None = None,
        wtime: float | None = None,
        btime: float | None = None,
        winc: float = 0,
        binc: float = 0,
        movestogo: int | None = None,
        stop_event: threading.Event | None = None,
        progress: Progress | None = None,
    ) -> SearchResult[ChessMove]:
        """The best move of a position under the given limits (times in seconds).

        Without any limit it searches until ``stop_event`` is set (UCI's ``go infinite``), or to
        depth 100. With a clock it spends a share of the remaining time plus most of the
        increment, and never more than 60% of what is left. ``progress`` is called with the
        result so far after every completed iteration.

        ``depth`` of the answer is the last completed iteration (0 when none completed: then the
        move is the stopped iteration's best, or the first legal move, valued 0), ``stats`` has
        the nodes, the elapsed time and the ``seldepth`` of that iteration; the move to ponder on
        is the second move of ``pv``. In a finished game ``move`` is ``None`` and ``value`` is the
        game's result (``-WIN`` when checkmated, else a draw's 0), exact."""
        board = board_of(fen_or_board, moves)
        budget = self._budget(board, depth, movetime, nodes, wtime, btime, winc, binc, movestogo)
        with self._lock:
            return self._search(board, budget, stop_event, progress)

    @staticmethod
    def _finished(board: chess.Board) -> SearchResult[ChessMove] | None:
        """The answer for a finished game (its result, exact), or ``None`` while it goes on."""
        if termination(board) is None:
            return None
        return SearchResult(None, -WIN if board.is_checkmate() else 0, (), 0, True)

    def _search(
        self,
        board: chess.Board,
        budget: _Budget,
        stop_event: threading.Event | None,
        progress: Progress | None,
    ) -> SearchResult[ChessMove]:
        k = self.kernel
        started = time.perf_counter()
        finished_game = self._finished(board)
        if finished_game is not None:
            return finished_game
        root_moves = self._start(board, budget)
        work = self._work
        best_move = _kernel_move(root_moves[0])
        best_score = 0
        best_pv: tuple[ChessMove, ...] = (best_move,)
        completed = 0
        seldepth = 0
        watcher, finished = self._watch(started, budget.hard, stop_event)
        aspiration = self.switches & k.SW_ASPIRATION != 0
        try:
            previous = 0
            for iteration in range(1, budget.depth + 1):
                window = 30
                if aspiration and iteration >= 5 and abs(previous) < MATE_BOUND:
                    alpha, beta = previous - window, previous + window
                else:
                    alpha, beta = -INFINITY, INFINITY
                while True:
                    score = int(
                        k.negamax(
                            self._stack,
                            self._moves,
                            self._order,
                            self._table,
                            work,
                            self._weights,
                            self._features,
                            0,
                            iteration,
                            alpha,
                            beta,
                        )
                    )
                    if work[k.W_STOP]:
                        break
                    if score <= alpha:
                        beta = (alpha + beta) // 2
                        alpha = max(-INFINITY, score - window)
                    elif score >= beta:
                        beta = min(INFINITY, score + window)
                    else:
                        break
                    window *= 2
                    if window > 600:
                        alpha, beta = -INFINITY, INFINITY
                stopped = bool(work[k.W_STOP])
                pv = self._pv(0, board)
                if stopped:
                    if pv and iteration > 1:
                        best_move, best_pv = pv[0], pv
                    break
                if pv:
                    best_move, best_pv = pv[0], pv
                best_score = previous = score
                completed = iteration
                seldepth = int(work[k.W_SELDEPTH])
                elapsed = time.perf_counter() - started
                if progress is not None:
                    progress(
                        SearchResult(
                            best_move,
                            score,
                            best_pv,
                            iteration,
                            abs(score) > MATE_BOUND,
                            SearchStats(
                                nodes=int(work[k.W_NODES]), elapsed=elapsed, seldepth=seldepth
                            ),
                        )
                    )
                if len(root_moves) == 1 and budget.soft is not None:
                    break
                if (
                    abs(score) > MATE_BOUND
                    and WIN - abs(score) < iteration
                    and (budget.soft is not None or budget.nodes != NO_LIMIT)
                ):
                    break
                if budget.soft is not None and elapsed >= budget.soft:
                    break
                if work[k.W_NODES] >= budget.nodes:
                    break
        finally:
            finished.set()
            if watcher is not None:
                watcher.join()
        elapsed = time.perf_counter() - started
        if best_move not in {_kernel_move(m) for m in root_moves}:
            best_move = _kernel_move(root_moves[0])
            best_pv = (best_move,)
        return SearchResult(
            best_move,
            best_score,
            best_pv,
            completed,
            abs(best_score) > MATE_BOUND,
            SearchStats(nodes=int(work[k.W_NODES]), elapsed=elapsed, seldepth=seldepth),
        )

    def analyze_moves(
        self,
        fen_or_board: str | chess.Board,
        *,
        moves: Iterable[str | chess.Move] = (),
        depth: int | None = None,
        movetime: float | None = None,
        nodes: int | None = None,
        stop_event: threading.Event | None = None,
    ) -> SearchResult[ChessMove]:
        """Every legal move with its value for the side to move: ``moves``, best first (ties in
        UCI order), each with its line.

        Each move is searched with a full window, depth by depth, until the limit; a move keeps
        the value of the deepest iteration it completed. Without a limit the depth is 6. The
        answer's ``move``, ``value`` and ``pv`` are those of the best move, its ``depth`` the
        deepest iteration every valued move completed. A move left without a value (the time ran
        out in the first iteration) is not in ``moves``; when none has one, ``moves`` is empty and
        the answer is the first legal move valued 0, as :meth:`search` stopped at once answers.
        In a finished game ``moves`` is empty and the answer is the game's result."""
        board = board_of(fen_or_board, moves)
        if depth is None and movetime is None and nodes is None and stop_event is None:
            depth = 6
        budget = self._budget(board, depth, movetime, nodes, None, None, 0, 0, None)
        with self._lock:
            return self._analyze(board, budget, stop_event)

    def _analyze(
        self, board: chess.Board, budget: _Budget, stop_event: threading.Event | None
    ) -> SearchResult[ChessMove]:
        k = self.kernel
        started = time.perf_counter()
        finished_game = self._finished(board)
        if finished_game is not None:
            return finished_game
        root_moves = self._start(board, budget)
        work = self._work
        results: dict[int, tuple[MoveValue[ChessMove], int]] = {}
        watcher, finished = self._watch(started, budget.hard, stop_event)
        try:
            for iteration in range(1, budget.depth + 1):
                for move in root_moves:
                    if iteration == 1:
                        # depth 0 is the quiescence search alone: every move gets a value
                        work[k.W_STOP] = 0
                        work[k.W_NODE_LIMIT] = NO_LIMIT
                    k.make_move(self._stack, 0, move)
                    score = -int(
                        k.negamax(
                            self._stack,
                            self._moves,
                            self._order,
                            self._table,
                            work,
                            self._weights,
                            self._features,
                            1,
                            iteration - 1,
                            -INFINITY,
                            INFINITY,
                        )
                    )
                    if work[k.W_STOP]:
                        break
                    chess_move = _kernel_move(move)
                    after = board.copy(stack=False)
                    after.push(chess_move)
                    line = (chess_move, *self._pv(1, after))
                    value = MoveValue(chess_move, score, abs(score) > MATE_BOUND, line)
                    results[move] = value, iteration
                work[k.W_NODE_LIMIT] = budget.nodes
                if watcher is not None and not watcher.is_alive():
                    break
                if work[k.W_STOP] or work[k.W_NODES] >= budget.nodes:
                    break
                if budget.soft is not None and time.perf_counter() - started >= budget.soft:
                    break
        finally:
            finished.set()
            if watcher is not None:
                watcher.join()
        stats = SearchStats(nodes=int(work[k.W_NODES]), elapsed=time.perf_counter() - started)
        if not results:
            first = _kernel_move(root_moves[0])
            return SearchResult(first, 0, (first,), 0, False, stats)
        values = sorted((value for value, _ in results.values()), key=_best_first)
        best = values[0]
        depth = min(completed for _, completed in results.values())
        return SearchResult(best.move, best.value, best.pv, depth, best.exact, stats, tuple(values))


def _best_first(value: MoveValue[ChessMove]) -> tuple[float, str]:
    return -value.value, value.move.uci()
