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

import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Final

import chess

from zermelo.core.errors import BudgetError, InvalidOptionError
from zermelo.core.jit import FloatArray, IntArray, kernel_variant
from zermelo.core.scores import WIN
from zermelo.games.chess import ChessMove, board_from_text, move_from_text
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.solvers.chess import kernel as compiled_kernel

if TYPE_CHECKING:
    from zermelo.solvers.chess import nnue
    from zermelo.solvers.chess.kernel import Int32Array, ShortArray

__all__ = [
    "DEFAULT_HASH_MB",
    "LEVELS",
    "MAX_HASH_MB",
    "MAX_THREADS",
    "SWITCHES",
    "ChessEngine",
    "Level",
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
MAX_HASH_MB: Final = 1024
"""The largest transposition table, in MiB: a table is allocated lazily (its pages are taken as
the search writes them), and clearing one for a new game allocates a fresh one at once."""
MATE_BOUND: Final = compiled_kernel.MATE_BOUND
INFINITY: Final = compiled_kernel.INFINITY
NO_LIMIT: Final = (1 << 62) - 1
VERIFY_NODES: Final = 200_000
MAX_THREADS: Final = 64
"""The most search threads an engine takes (UCI's ``Threads``)."""
"""The fewest nodes a mate's verification may spend (see :meth:`ChessEngine.search`)."""
MOVE_OVERHEAD: Final = 0.05
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


@dataclass(frozen=True, slots=True)
class Level:
    """One playing level: a depth cap in plies (``None``: as deep as the time allows) and the
    Gaussian noise, in centipawns, that blurs each move's value before the choice (0: none)."""

    depth: int | None
    noise: float


LEVELS: Final = {
    "easy": Level(2, 120.0),
    "medium": Level(4, 30.0),
    "hard": Level(None, 0.0),
}
"""The chess levels, the one definition behind every face (the game's agents, the arena, the page
and UCI's ``Level`` option): easy values every move two plies deep (plus captures) with noise of
1.2 pawns, medium four plies with 0.3 pawns, hard is the full search for the time it is given."""


def kernel_module(compiled: bool | None = None) -> ModuleType:
    """The kernel: the compiled module (when numba is usable), or a plain-Python copy of it.

    ``compiled=None`` takes the compiled one when available; ``False`` always the plain copy,
    loaded from the same source file with compilation switched off."""
    return kernel_variant(compiled_kernel, compiled, "chess kernel")


def _array(kernel: ModuleType, size: int) -> IntArray:
    """A zeroed int64 array of the kernel (a numpy array, or a list for the plain copy)."""
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.int64)
    return [0] * size


def _floats(kernel: ModuleType, size: int) -> FloatArray:
    """A zeroed float64 array of the kernel (a numpy array, or a list for the plain copy)."""
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.float64)
    return [0.0] * size


def _network_arrays(
    kernel: ModuleType, network: nnue.Network | None
) -> tuple[ShortArray, Int32Array]:
    """The kernel's ``ft`` and ``out`` arrays of ``network`` (both empty for ``None``: the
    built-in evaluation); see the kernel's layout."""
    if network is None:
        if kernel.COMPILED:
            import numpy as np

            return np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.int32)
        return [], []
    import numpy as np

    zeros = np.zeros(network.hidden, dtype=np.int16)
    ft = np.concatenate([network.ft_weights.reshape(-1), network.ft_bias, zeros])
    out = np.concatenate(
        [network.out_weights.astype(np.int32), np.array([network.out_bias], dtype=np.int32)]
    )
    if kernel.COMPILED:
        return np.ascontiguousarray(ft), np.ascontiguousarray(out)
    return [int(x) for x in ft.tolist()], [int(x) for x in out.tolist()]


def _accumulators(kernel: ModuleType, network: nnue.Network | None) -> Int32Array:
    """Zeroed accumulators for one searching thread (empty without a network)."""
    size = 0 if network is None else (kernel.MAX_PLY + 4) * 2 * network.hidden
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.int32)
    return [0] * size


def _fill(array: IntArray, start: int, stop: int) -> None:
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


def load_position(kernel: ModuleType, stack: IntArray, board: chess.Board, ply: int = 0) -> None:
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


class _Clock:
    """The time limits of one search, and a thread that raises the kernel's stop flag when the
    hard limit passes or ``stop_event`` is set.

    The flag is held back until :meth:`arm` (called once the first iteration is complete), so
    that every answer rests on at least a complete one-ply search. While ``ponderhit`` is given
    and not set the search is pondering: no time limit applies. Once it is set, the hard limit
    counts from that moment (the clock runs from then) and the soft one from the start, as
    Stockfish counts them: after a long ponder the search stops at once, keeping what it found."""

    def __init__(
        self,
        work: IntArray,
        flag: int,
        budget: _Budget,
        started: float,
        stop_event: threading.Event | None,
        ponderhit: threading.Event | None,
    ) -> None:
        self._work = work
        self._flag = flag
        self.soft = budget.soft
        self.hard = budget.hard
        self.started = started
        self.origin = started
        self._stop_event = stop_event
        self._ponderhit = ponderhit
        self.pondering = ponderhit is not None and not ponderhit.is_set()
        self._lock = threading.Lock()
        self._armed = False
        self._expired = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        if self.hard is not None or stop_event is not None or self.pondering:
            self._thread = threading.Thread(target=self._watch, name="zermelo-chess-clock")
            self._thread.daemon = True
            self._thread.start()

    def _watch(self) -> None:
        while not self._done.is_set():
            if self.pondering and self._ponderhit is not None and self._ponderhit.is_set():
                self.origin = time.perf_counter()
                self.pondering = False
                if self.soft is not None and self.origin - self.started >= self.soft:
                    break
            if self._stop_event is not None and self._stop_event.is_set():
                break
            if (
                not self.pondering
                and self.hard is not None
                and time.perf_counter() - self.origin >= self.hard
            ):
                break
            self._done.wait(0.002)
        else:
            return
        with self._lock:
            self._expired = True
            if self._armed:
                self._work[self._flag] = 1

    def arm(self) -> None:
        """Let the stop flag rise from now on (at once, when the limit has already passed)."""
        with self._lock:
            self._armed = True
            if self._expired:
                self._work[self._flag] = 1

    def clear_unless_expired(self) -> None:
        """Lower the stop flag that a capped inner search raised, unless the limit has passed."""
        with self._lock:
            if not self._expired:
                self._work[self._flag] = 0

    @property
    def expired(self) -> bool:
        return self._expired

    @property
    def timed(self) -> bool:
        """Whether a time limit is in force (there is one, and the search is not pondering)."""
        return self.soft is not None and not self.pondering

    def soft_passed(self) -> bool:
        """Whether the time to start no further iteration has come."""
        return self.timed and time.perf_counter() - self.started >= (self.soft or 0.0)

    def cannot_finish(self, last: float) -> bool:
        """Whether an iteration that takes twice as long as the ``last`` one would end after the
        hard limit: its work would be thrown away, so it is not begun."""
        if not self.timed or self.hard is None:
            return False
        return time.perf_counter() - self.origin + 2.0 * last >= self.hard

    def close(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()


_VERIFY_OFF: Final = (
    compiled_kernel.SW_NULL_MOVE
    | compiled_kernel.SW_LATE_MOVE_REDUCTIONS
    | compiled_kernel.SW_LATE_MOVE_PRUNING
    | compiled_kernel.SW_FUTILITY
    | compiled_kernel.SW_TT_CUTOFFS
)
"""The techniques a mate verification leaves out: every one that can hide a shorter mate (null
moves miss zugzwang, reductions and pruning skip quiet keys, the table holds bounds of searches
that used them)."""


class _Helper:
    """A Lazy SMP helper thread's own copy of everything a search writes (the position stack,
    the move lists, the counters, killers, history and evaluation cache); only the transposition
    table is shared with the engine's main search."""

    def __init__(self, kernel: ModuleType) -> None:
        k = self.kernel = kernel
        self.stack = _array(k, k.STACK_SIZE)
        self.moves = _array(k, k.MOVES_SIZE)
        self.order = _array(k, k.MOVES_SIZE)
        self.work = _array(k, k.WORK_SIZE)
        self.features = _floats(k, k.FEATURES_SIZE)
        self.thread: threading.Thread | None = None
        self.acc: Int32Array = _accumulators(kernel, None)

    def start(self, main_stack: IntArray, main_work: IntArray, first: int, run: _HelperRun) -> None:
        """Search the position at ply 0 of ``main_stack`` (with its game history) in a thread:
        iterative deepening from depth ``first``, full width, until :meth:`stop`."""
        k = self.kernel
        work = self.work
        self.acc = run.accumulators()
        _fill(work, k.ACC_BASE, k.WORK_SIZE)  # no accumulator of an earlier search is valid
        for i in range(k.POS_SIZE):
            self.stack[i] = main_stack[i]
        length = int(main_work[k.W_HISTORY_LENGTH])
        for i in range(length):
            work[k.GAME_BASE + i] = main_work[k.GAME_BASE + i]
        work[k.W_HISTORY_LENGTH] = length
        work[k.W_SWITCHES] = main_work[k.W_SWITCHES]
        work[k.W_NODES] = 0
        work[k.W_QNODES] = 0
        work[k.W_STOP] = 0
        work[k.W_SELDEPTH] = 0
        work[k.W_NODE_LIMIT] = NO_LIMIT
        _fill(work, k.KILLER_BASE, k.HISTORY_BASE)
        _fill(work, k.HISTORY_BASE, k.PV_LENGTH_BASE)
        self.thread = threading.Thread(
            target=self._deepen, args=(first, run), name="zermelo-chess-helper", daemon=True
        )
        self.thread.start()

    def _deepen(self, first: int, run: _HelperRun) -> None:
        k = self.kernel
        for depth in range(first, k.MAX_PLY):
            k.negamax(
                self.stack,
                self.moves,
                self.order,
                run.table,
                self.work,
                run.weights,
                self.features,
                run.ft,
                run.out,
                self.acc,
                0,
                depth,
                -INFINITY,
                INFINITY,
            )
            if self.work[k.W_STOP]:
                return

    def stop(self) -> int:
        """Stop the thread, wait for it and return the nodes it searched."""
        self.work[self.kernel.W_STOP] = 1
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        return int(self.work[self.kernel.W_NODES])


@dataclass(frozen=True, slots=True)
class _HelperRun:
    """What the helpers of one search share with it (read-only but for the table)."""

    table: IntArray
    weights: FloatArray
    ft: ShortArray
    out: Int32Array
    accumulators: Callable[[], Int32Array]


class ChessEngine:
    """Negamax alpha-beta with principal-variation search, in the compiled kernel.

    ``hash_mb`` sizes the transposition table (rounded down to a power of two of 16-byte slots);
    ``compiled=False`` runs the plain-Python copy of the kernel (slow; for tests and machines
    without numba). ``weights`` replaces the evaluation's weights (see
    :mod:`zermelo.solvers.chess.evaluation`); ``network`` evaluates with a learned network
    instead (:mod:`zermelo.solvers.chess.nnue`; ``None``, the default, keeps PeSTO and the named
    terms). ``switches`` selects the search's techniques
    (bits of :data:`SWITCHES`; all on by default, for play): turning one off is for measuring what
    it is worth. One engine searches one position at a time; give each thread its own engine.

    ``threads`` above 1 searches with Lazy SMP: helper threads search the same position, each
    deepening on its own (every other one a ply ahead), and share only the transposition table,
    where what they find reorders and cuts the main search; the answer is the main search's. A
    search bound by nodes, and every search of the plain-Python copy (which holds the interpreter
    lock), runs on one thread, so that it stays reproducible."""

    def __init__(
        self,
        *,
        hash_mb: int = DEFAULT_HASH_MB,
        compiled: bool | None = None,
        weights: Sequence[float] | None = None,
        switches: int = compiled_kernel.SW_ALL,
        threads: int = 1,
        network: nnue.Network | None = None,
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
        self._follows = compiled is None
        """Whether the engine moves to the compiled kernel once it is built (see
        :mod:`zermelo.solvers.kernels`): it plays with the plain copy meanwhile."""
        self._table: IntArray  # set by resize, in _use
        self._hash_mb = 0
        self._threads = 1
        self._helpers: list[_Helper] = []
        self._active: list[_Helper] = []
        self._network = network
        self._use(kernel_module(compiled), weights, hash_mb)
        self.set_threads(threads)
        self._lock = threading.Lock()

    def _use(self, kernel: ModuleType, weights: Sequence[float] | None, hash_mb: int) -> None:
        self.kernel = k = kernel
        self._stack = _array(k, k.STACK_SIZE)
        self._moves = _array(k, k.MOVES_SIZE)
        self._order = _array(k, k.MOVES_SIZE)
        self._features = _floats(k, k.FEATURES_SIZE)
        self._weights = _floats(k, k.N_TERMS)
        self._work = _array(k, k.WORK_SIZE)
        self._ft, self._out = _network_arrays(k, self._network)
        self._acc = _accumulators(k, self._network)
        self.set_weights(weights if weights is not None else k.DEFAULT_WEIGHTS)
        self.resize(hash_mb)
        self._helpers = [_Helper(k) for _ in range(self._threads - 1)]

    def _follow_kernel(self) -> None:
        """Move to the compiled kernel if this engine plays with the plain copy only until the
        compiled one is built, and it is (the table and the history start afresh)."""
        if self._follows and not self.compiled:
            kernel = kernel_module(None)
            if kernel.COMPILED:
                self._use(kernel, self.weights, self._hash_mb)

    # -- options -------------------------------------------------------------------------------

    @property
    def compiled(self) -> bool:
        return bool(self.kernel.COMPILED)

    @property
    def hash_mb(self) -> int:
        return self._hash_mb

    @property
    def threads(self) -> int:
        return self._threads

    def set_threads(self, threads: int) -> None:
        """Search with ``threads`` threads (1 to :data:`MAX_THREADS`) from the next search on."""
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise BudgetError(f"invalid thread count {threads!r}: expected 1 to {MAX_THREADS}")
        if not 1 <= threads <= MAX_THREADS:
            raise BudgetError(f"invalid thread count {threads!r}: expected 1 to {MAX_THREADS}")
        self._threads = threads
        have = self._helpers[: threads - 1]
        self._helpers = have + [_Helper(self.kernel) for _ in range(threads - 1 - len(have))]

    @contextlib.contextmanager
    def _helping(self, budget: _Budget) -> Iterator[None]:
        """Run the Lazy SMP helpers on the position prepared at ply 0 while the body searches
        (none in a search bound by nodes, or in the plain-Python copy)."""
        self._active = []
        if not self._helpers or not self.compiled or budget.nodes != NO_LIMIT:
            yield
            return
        run = _HelperRun(self._table, self._weights, self._ft, self._out, self.new_accumulators)
        try:
            for i, helper in enumerate(self._helpers):
                self._active.append(helper)
                helper.start(self._stack, self._work, 1 + (i + 1) % 2, run)
            yield
        finally:
            for helper in self._active:
                helper.stop()

    def _nodes(self) -> int:
        """The nodes of the search so far (or of the last one): the main search's and its
        helpers'."""
        k = self.kernel
        return int(self._work[k.W_NODES]) + sum(int(h.work[k.W_NODES]) for h in self._active)

    def resize(self, hash_mb: int) -> None:
        """A new, empty transposition table of ``hash_mb`` MiB (1 to :data:`MAX_HASH_MB`)."""
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
        for work in (self._work, *(helper.work for helper in self._helpers)):
            _fill(work, k.EVAL_BASE, k.WORK_SIZE)

    @property
    def weights(self) -> tuple[float, ...]:
        return tuple(float(w) for w in self._weights)

    @property
    def network(self) -> nnue.Network | None:
        """The learned network the engine evaluates with, or ``None``: PeSTO and the terms."""
        return self._network

    def set_network(self, network: nnue.Network | None) -> None:
        """Evaluate with ``network`` from the next search on (``None``: the built-in
        evaluation). The evaluation cache is emptied, so no value of the other evaluation
        survives; the transposition table is kept (its scores are bounds of searches, which
        the next searches overwrite), as it is when the weights change."""
        with self._lock:
            self._network = network
            k = self.kernel
            self._ft, self._out = _network_arrays(k, network)
            self._acc = _accumulators(k, network)
            for work in (self._work, *(helper.work for helper in self._helpers)):
                _fill(work, k.EVAL_BASE, k.WORK_SIZE)

    def new_accumulators(self) -> Int32Array:
        """Accumulators for one more thread searching with this engine's network (each thread
        passes its own, with its own stack and ``work``, to the kernel's ``negamax``)."""
        return _accumulators(self.kernel, self._network)

    def new_game(self) -> None:
        """Forget everything learnt: the transposition table, killer moves and history.

        The table is replaced by a fresh one of the same size rather than cleared in place, so
        that a large table costs neither the time to write every slot nor the memory of every
        page: a fresh array's pages are taken as the search writes them."""
        self._table = _array(self.kernel, len(self._table))
        _fill(self._work, 0, self.kernel.WORK_SIZE)

    def hashfull(self) -> int:
        """How full the transposition table is, in permille (UCI's ``hashfull``), from the first
        thousand slots (every slot when there are fewer)."""
        table = self._table
        slots = min(1000, len(table) // 2)
        used = sum(1 for i in range(slots) if table[2 * i + 1] != 0)
        return used * 1000 // slots

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

    def evaluate(self, position: str | chess.Board, *, builtin: bool = False) -> int:
        """The static evaluation of a position in centipawns, from the side to move: the
        network's when the engine has one (exactly :func:`nnue.evaluate`), else (or with
        ``builtin``) PeSTO's and the terms'."""
        board = board_of(position)
        with self._lock:
            load_position(self.kernel, self._stack, board)
            if self._network is not None and not builtin:
                return int(
                    self.kernel.nnue_evaluate(
                        self._stack, 0, self._ft, self._out, self._acc, self._work
                    )
                )
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
                    self._ft,
                    self._out,
                    self._acc,
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
            clock_hard = max(0.002, min(share * 3.0, usable * 0.4))
            clock_soft = max(0.001, share * 0.6)
            hard = clock_hard if hard is None else min(hard, clock_hard)
            soft = clock_soft if soft is None else min(soft, clock_soft)
        return _Budget(depth or 100, min(nodes or NO_LIMIT, NO_LIMIT), soft, hard)

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
        multipv: int = 1,
        searchmoves: Iterable[str | chess.Move] | None = None,
        ponderhit: threading.Event | None = None,
    ) -> SearchResult[ChessMove]:
        """The best move of a position under the given limits (times in seconds).

        Without any limit it searches until ``stop_event`` is set (UCI's ``go infinite``), or to
        depth 100. With a clock it spends a share of the remaining time plus most of the
        increment, and never more than 40% of what is left. The first iteration (one ply, plus
        captures) always completes, whatever the limits. ``progress`` is called with the result
        so far after every completed iteration.

        ``multipv`` above 1 searches that many best lines: the progress and the answer then hold
        them in ``moves``, best first, each with its exact value and line. ``searchmoves``
        restricts the root to those moves (the legal ones among them; all when none is). While
        ``ponderhit`` is given and not set the search ponders: it stops only at ``stop_event``,
        the node count or the depth; once the event is set the time limits apply, counted from
        that moment, and the work done so far is kept.

        A mate for the side to move is verified before a time- or node-bound search stops on it:
        a search without null moves, reductions or pruning looks for a shorter one until none is
        left within ``2 * moves - 3`` plies. ``depth`` of the answer is the last completed
        iteration; the answer is that iteration's move and line (what the last ``progress``
        said). ``stats`` has the nodes, the elapsed time and the ``seldepth`` of that iteration;
        the move to ponder on is the second move of ``pv``. In a finished game (checkmate,
        stalemate, insufficient material, the 75-move rule or fivefold repetition; a draw that
        can only be claimed is not the end) ``move`` is ``None`` and ``value`` is the game's
        result (``-WIN`` when checkmated, else a draw's 0), exact."""
        board = board_of(fen_or_board, moves)
        budget = self._budget(board, depth, movetime, nodes, wtime, btime, winc, binc, movestogo)
        if not isinstance(multipv, int) or isinstance(multipv, bool) or not 1 <= multipv <= 500:
            raise BudgetError(f"invalid multipv {multipv!r}: expected 1 to 500 lines")
        only = None if searchmoves is None else _root_choice(board, searchmoves)
        with self._lock:
            self._follow_kernel()
            return self._search(board, budget, stop_event, progress, multipv, only, ponderhit)

    @staticmethod
    def _finished(board: chess.Board) -> SearchResult[ChessMove] | None:
        """The answer for a finished game (its result, exact), or ``None`` while it goes on: the
        game is over as :meth:`chess.Board.is_game_over` says without claims."""
        if not board.is_game_over(claim_draw=False):
            return None
        return SearchResult(None, -WIN if board.is_checkmate() else 0, (), 0, True)

    def _negamax(self, ply: int, depth: int, alpha: int, beta: int) -> int:
        return int(
            self.kernel.negamax(
                self._stack,
                self._moves,
                self._order,
                self._table,
                self._work,
                self._weights,
                self._features,
                self._ft,
                self._out,
                self._acc,
                ply,
                depth,
                alpha,
                beta,
            )
        )

    def _root(self, iteration: int, previous: int, aspiration: bool) -> int:
        """One iteration of the kernel's search at the root, inside aspiration windows."""
        k = self.kernel
        work = self._work
        window = 30
        if aspiration and iteration >= 5 and abs(previous) < MATE_BOUND:
            alpha, beta = previous - window, previous + window
        else:
            alpha, beta = -INFINITY, INFINITY
        while True:
            score = self._negamax(0, iteration, alpha, beta)
            if work[k.W_STOP]:
                return score
            if score <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(-INFINITY, score - window)
            elif score >= beta:
                beta = min(INFINITY, score + window)
            else:
                return score
            window *= 2
            if window > 600:
                alpha, beta = -INFINITY, INFINITY

    def _lines(
        self, board: chess.Board, root_moves: list[int], depth: int, count: int
    ) -> list[MoveValue[ChessMove]] | None:
        """The ``count`` best root moves at ``depth``, best first, each with its exact value and
        line (``None`` when the search was stopped). Each move is searched with a window above
        the ``count``-th best value so far, so a move that cannot enter the list costs a bound
        only; ``root_moves`` is reordered, the lines first, for the next iteration."""
        k = self.kernel
        work = self._work
        lines: list[tuple[int, int, MoveValue[ChessMove]]] = []
        for move in root_moves:
            floor = lines[count - 1][0] if len(lines) >= count else -INFINITY
            k.make_move(self._stack, 0, move)
            score = -self._negamax(1, depth - 1, -INFINITY, -floor)
            if work[k.W_STOP]:
                return None
            if score > floor or len(lines) < count:
                chess_move = _kernel_move(move)
                after = board.copy(stack=False)
                after.push(chess_move)
                line = (chess_move, *self._pv(1, after))
                value = MoveValue(chess_move, score, abs(score) > MATE_BOUND, line)
                lines.append((score, move, value))
                lines.sort(key=lambda entry: -entry[0])
                del lines[count:]
        chosen = [move for _, move, _ in lines]
        root_moves[:] = chosen + [move for move in root_moves if move not in chosen]
        return [value for _, _, value in lines]

    def _shorter_mate(
        self, board: chess.Board, score: int, depth: int, clock: _Clock
    ) -> tuple[bool, tuple[int, tuple[ChessMove, ...]] | None]:
        """Whether a search without the techniques of :data:`_VERIFY_OFF` completed ``depth``
        plies, and the mate shorter than ``score`` it found, with its line (``None``: none
        within ``depth``). Its nodes are capped at twice the search's so far (at least
        :data:`VERIFY_NODES`): a deep mate's verification gives up rather than stall a search
        bound by depth alone. When the search itself was stopped the stop flag stays up."""
        k = self.kernel
        work = self._work
        saved_switches = int(work[k.W_SWITCHES])
        saved_limit = int(work[k.W_NODE_LIMIT])
        spent = int(work[k.W_NODES])
        own_limit = min(saved_limit, spent + max(VERIFY_NODES, 2 * spent))
        work[k.W_SWITCHES] = saved_switches & ~_VERIFY_OFF
        work[k.W_NODE_LIMIT] = own_limit
        try:
            found = self._negamax(0, depth, score, INFINITY)
        finally:
            work[k.W_SWITCHES] = saved_switches
            work[k.W_NODE_LIMIT] = saved_limit
        if work[k.W_STOP]:
            if own_limit < saved_limit and work[k.W_NODES] >= own_limit:
                clock.clear_unless_expired()
            return False, None
        if found <= score:
            return True, None
        pv = self._pv(0, board)
        return True, ((found, pv) if pv else None)

    def _search(
        self,
        board: chess.Board,
        budget: _Budget,
        stop_event: threading.Event | None,
        progress: Progress | None,
        multipv: int = 1,
        only: frozenset[ChessMove] | None = None,
        ponderhit: threading.Event | None = None,
    ) -> SearchResult[ChessMove]:
        k = self.kernel
        started = time.perf_counter()
        finished_game = self._finished(board)
        if finished_game is not None:
            return finished_game
        root_moves = self._start(board, budget)
        if only:
            root_moves = [move for move in root_moves if _kernel_move(move) in only]
        work = self._work
        work[k.W_NODE_LIMIT] = NO_LIMIT  # the first iteration always completes
        by_lines = multipv > 1 or only is not None
        best_move = _kernel_move(root_moves[0])
        best_score = 0
        best_pv: tuple[ChessMove, ...] = (best_move,)
        best_lines: tuple[MoveValue[ChessMove], ...] = ()
        completed = 0
        seldepth = 0
        verified = 0
        proven_mate: tuple[int, tuple[ChessMove, ...]] | None = None
        clock = _Clock(work, k.W_STOP, budget, started, stop_event, ponderhit)
        aspiration = self.switches & k.SW_ASPIRATION != 0
        with self._helping(budget):
            try:
                previous = 0
                for iteration in range(1, budget.depth + 1):
                    begun = time.perf_counter()
                    lines: tuple[MoveValue[ChessMove], ...] = ()
                    if by_lines:
                        found = self._lines(
                            board, root_moves, iteration, min(multipv, len(root_moves))
                        )
                        if found is None:
                            break
                        lines = tuple(found)
                        score, pv = int(lines[0].value), lines[0].pv
                    else:
                        score = self._root(iteration, previous, aspiration)
                        if work[k.W_STOP]:
                            break
                        pv = self._pv(0, board) or best_pv
                    if iteration == 1:
                        work[k.W_NODE_LIMIT] = budget.nodes
                        clock.arm()
                    stopped = False
                    if score > MATE_BOUND and not by_lines:
                        if proven_mate is not None and proven_mate[0] > score:
                            score, pv = proven_mate
                        # Deepen the verification by odd plies (a mate in n is 2n - 1 plies
                        # deep): a short mate the pruned search missed shows in a shallow full
                        # search, long before one as deep as a long mate found would end.
                        while WIN - score > 1:
                            limit = min(WIN - score - 2, iteration)
                            if limit <= verified:
                                break
                            target = min(limit, verified + (2 if verified % 2 else 1))
                            complete, shorter = self._shorter_mate(board, score, target, clock)
                            if work[k.W_STOP]:
                                stopped = True
                                break
                            if not complete:
                                break
                            verified = target
                            if shorter is not None:
                                score, pv = shorter
                                proven_mate = shorter
                    best_move, best_pv, best_lines = pv[0], pv, lines
                    best_score = previous = score
                    completed = iteration
                    seldepth = max(int(work[k.W_SELDEPTH]), len(pv))
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
                                    nodes=self._nodes(), elapsed=elapsed, seldepth=seldepth
                                ),
                                best_lines,
                            )
                        )
                    if stopped:
                        break
                    bounded = clock.timed or budget.nodes != NO_LIMIT
                    if len(root_moves) == 1 and clock.timed:
                        break
                    if bounded and score > MATE_BOUND and WIN - score - 2 <= verified:
                        break  # a mate, and none shorter: proven
                    if bounded and score < -MATE_BOUND and WIN + score < iteration:
                        break
                    if clock.soft_passed() or clock.cannot_finish(time.perf_counter() - begun):
                        break
                    if work[k.W_NODES] >= budget.nodes:
                        break
            finally:
                clock.close()
        elapsed = time.perf_counter() - started
        return SearchResult(
            best_move,
            best_score,
            best_pv,
            completed,
            abs(best_score) > MATE_BOUND,
            SearchStats(nodes=self._nodes(), elapsed=elapsed, seldepth=seldepth),
            best_lines,
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
        wtime: float | None = None,
        btime: float | None = None,
        winc: float = 0,
        binc: float = 0,
        movestogo: int | None = None,
    ) -> SearchResult[ChessMove]:
        """Every legal move with its value for the side to move: ``moves``, best first (ties in
        UCI order), each with its line.

        Each move is searched with a full window, depth by depth, until the limit (a clock is
        spent as :meth:`search` spends it); a move keeps the value of the deepest iteration it
        completed, and the first iteration always completes. Without a limit the depth is 6. The
        answer's ``move``, ``value`` and ``pv`` are those of the best move, its ``depth`` the
        deepest iteration every valued move completed. In a finished game ``moves`` is empty and
        the answer is the game's result."""
        board = board_of(fen_or_board, moves)
        unlimited = (depth, movetime, nodes, stop_event, wtime, btime) == (None,) * 6
        if unlimited:
            depth = 6
        budget = self._budget(board, depth, movetime, nodes, wtime, btime, winc, binc, movestogo)
        with self._lock:
            self._follow_kernel()
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
        work[k.W_NODE_LIMIT] = NO_LIMIT  # the first iteration always completes
        results: dict[int, tuple[MoveValue[ChessMove], int]] = {}
        clock = _Clock(work, k.W_STOP, budget, started, stop_event, None)
        with self._helping(budget):
            try:
                for iteration in range(1, budget.depth + 1):
                    for move in root_moves:
                        k.make_move(self._stack, 0, move)
                        # depth 0 is the quiescence search alone: every move gets a value
                        score = -self._negamax(1, iteration - 1, -INFINITY, INFINITY)
                        if work[k.W_STOP]:
                            break
                        chess_move = _kernel_move(move)
                        after = board.copy(stack=False)
                        after.push(chess_move)
                        line = (chess_move, *self._pv(1, after))
                        value = MoveValue(chess_move, score, abs(score) > MATE_BOUND, line)
                        results[move] = value, iteration
                    if iteration == 1:
                        work[k.W_NODE_LIMIT] = budget.nodes
                        clock.arm()
                    if clock.expired or work[k.W_STOP] or work[k.W_NODES] >= budget.nodes:
                        break
                    if clock.soft_passed():
                        break
            finally:
                clock.close()
        stats = SearchStats(nodes=self._nodes(), elapsed=time.perf_counter() - started)
        values = sorted((value for value, _ in results.values()), key=_best_first)
        best = values[0]
        depth = min(completed for _, completed in results.values())
        return SearchResult(best.move, best.value, best.pv, depth, best.exact, stats, tuple(values))


def _root_choice(
    board: chess.Board, searchmoves: Iterable[str | chess.Move]
) -> frozenset[ChessMove]:
    """The legal moves among ``searchmoves`` (UCI text or moves); the others are left out."""
    chosen: set[ChessMove] = set()
    for entry in searchmoves:
        try:
            move = chess.Move.from_uci(entry) if isinstance(entry, str) else entry
        except ValueError:
            continue
        if move in board.legal_moves:
            chosen.add(ChessMove.of(move))
    return frozenset(chosen)


def _best_first(value: MoveValue[ChessMove]) -> tuple[float, str]:
    return -value.value, value.move.uci()
