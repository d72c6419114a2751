"""The draughts engine: Python front of the search kernel (:mod:`.search`), for international
draughts and Turkish dama alike.

:class:`DraughtsEngine` owns the kernel's arrays (the rules table, the geometry, the position
stack, move lists, transposition table and counters) and runs iterative deepening under a depth,
a node count and a time per move, with a stop event. Positions come in as masks (0-based squares,
``side`` 0 for White and 1 for Black) and moves go out as the move generator's triples ``(from,
to, captured mask)``; :data:`ANALYSIS` turns them into the game's own moves
(``state.from_kernel``).

Scores are from the side to move, in hundredths of a man, or ``WIN - plies`` for a win found
``plies`` half-moves from the root (negative for a loss), as in :mod:`zermelo.core.scores`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Final

from zermelo.core.capabilities import Breakdown, Term
from zermelo.core.errors import (
    BudgetError,
    InvalidOptionError,
    InvalidPositionError,
    ZermeloError,
)
from zermelo.core.jit import ByteArray, FloatArray, IntArray, kernel_variant
from zermelo.core.limits import Limits
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.scores import WIN
from zermelo.solvers.draughts import search as compiled_kernel
from zermelo.solvers.draughts.evaluation import (
    TERMS,
    DraughtsLike,
    default_weights,
    geometry,
    position_of,
    read_weights,
)

if TYPE_CHECKING:
    from zermelo.games.draughts.rules import Rules

__all__ = [
    "ANALYSIS",
    "DEFAULT_HASH_MB",
    "EXPLAINER",
    "MATE_BOUND",
    "DraughtsAnalysis",
    "DraughtsEngine",
    "DraughtsExplainer",
    "EngineResult",
    "KMoveTriple",
    "MoveScore",
    "Progress",
    "explain",
    "game_history",
    "game_line",
    "kernel_module",
    "result_of",
    "shared_engine",
]

KMoveTriple = tuple[int, int, int]
"""A move as the move generator writes it: origin, destination (0-based), captured mask."""

DEFAULT_HASH_MB: Final = 16
MAX_HASH_MB: Final = 1024
PURE_TABLE_SLOTS: Final = 1 << 15
"""The plain copy's largest table (what 1 MiB gives the compiled one: the same tree at a depth)."""
MATE_BOUND: Final = compiled_kernel.MATE_BOUND
INFINITY: Final = compiled_kernel.INFINITY
NO_LIMIT: Final = (1 << 62) - 1
MAX_DEPTH: Final = 64
MOVE_OVERHEAD: Final = 0.02
"""Seconds kept back from a timed search for the move to travel."""
_FULL: Final = (1 << 64) - 1


def kernel_module(compiled: bool | None = None) -> ModuleType:
    """The search kernel: compiled (when numba is usable), or its plain-Python copy."""
    return kernel_variant(compiled_kernel, compiled, "draughts engine")


@dataclass(frozen=True, slots=True)
class MoveScore:
    """One root move with its score and the line it starts (the move first)."""

    move: KMoveTriple
    score: int
    pv: tuple[KMoveTriple, ...]


@dataclass(frozen=True, slots=True)
class EngineResult:
    """A search's answer: the best ``move`` (``None`` when the side to move has none: it has
    lost), its ``score``, the last completed ``depth``, the nodes, the principal variation and,
    for :meth:`DraughtsEngine.analyze_moves`, every root move's score (best first)."""

    move: KMoveTriple | None
    score: int
    depth: int
    nodes: int
    pv: tuple[KMoveTriple, ...]
    elapsed: float = 0.0
    seldepth: int = 0
    moves: tuple[MoveScore, ...] = ()

    @property
    def decided(self) -> bool:
        """Whether the score is a proven win or loss."""
        return abs(self.score) > MATE_BOUND

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


Progress = Callable[[EngineResult], None]
"""Called after every completed iteration with the answer so far."""


def _array(kernel: ModuleType, size: int) -> IntArray:
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.int64)
    return [0] * size


def _floats(kernel: ModuleType, values: Sequence[float]) -> FloatArray:
    if kernel.COMPILED:
        import numpy as np

        return np.array(values, dtype=np.float64)
    return [float(v) for v in values]


def _bytes(kernel: ModuleType, size: int) -> ByteArray:
    if kernel.COMPILED:
        import numpy as np

        return np.zeros(size, dtype=np.uint8)
    return bytes(size)


def _word(kernel: ModuleType, mask: int) -> int:
    mask &= _FULL
    if kernel.COMPILED and mask >= 1 << 63:
        return mask - (1 << 64)
    return mask


class _Clock:
    """Raises the kernel's stop flag once ``hard`` seconds have passed or ``stop_event`` is set,
    but not before :meth:`arm` (so that the first iteration always completes)."""

    def __init__(
        self, work: IntArray, hard: float | None, stop_event: threading.Event | None
    ) -> None:
        self._work = work
        self.hard = hard
        self.started = time.perf_counter()
        self._stop_event = stop_event
        self._lock = threading.Lock()
        self._armed = False
        self.expired = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        if hard is not None or stop_event is not None:
            self._thread = threading.Thread(target=self._watch, name="zermelo-draughts-clock")
            self._thread.daemon = True
            self._thread.start()

    def _watch(self) -> None:
        while not self._done.is_set():
            if self._stop_event is not None and self._stop_event.is_set():
                break
            if self.hard is not None and time.perf_counter() - self.started >= self.hard:
                break
            self._done.wait(0.002)
        else:
            return
        with self._lock:
            self.expired = True
            if self._armed:
                self._work[compiled_kernel.W_STOP] = 1

    def arm(self) -> None:
        with self._lock:
            self._armed = True
            if self.expired:
                self._work[compiled_kernel.W_STOP] = 1

    def cannot_finish(self, last: float) -> bool:
        """Whether an iteration twice as long as the ``last`` one would end past the limit."""
        if self.hard is None:
            return False
        return time.perf_counter() - self.started + 2.0 * last >= self.hard

    def close(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()


class DraughtsEngine:
    """Principal-variation search with a transposition table, for the game of ``rules``.

    ``hash_mb`` sizes the transposition table (24-byte slots, a power of two of them);
    ``compiled=False`` runs the plain-Python copy of the kernel (slow; for tests), ``None``
    the compiled one when it is built (the plain copy meanwhile, see
    :mod:`zermelo.solvers.kernels`). ``weights`` replaces the evaluation's weights (flat: each
    term's middle-game then endgame weight, see :mod:`.evaluation`); ``switches`` the search's
    techniques (bits ``search.SW_*``, all on for play). One engine searches one position at a
    time."""

    def __init__(
        self,
        rules: Rules,
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
                f"{compiled_kernel.SW_ALL}"
            )
        self.rules: Final = rules
        self.switches: Final = switches
        self._follows = compiled is None
        chosen = tuple(weights) if weights is not None else default_weights(rules.name)
        if len(chosen) != 2 * compiled_kernel.N_TERMS:
            raise BudgetError(
                f"invalid weights: expected {2 * compiled_kernel.N_TERMS} numbers, got "
                f"{len(chosen)}"
            )
        self._weight_values = tuple(float(w) for w in chosen)
        if not isinstance(hash_mb, int) or not 1 <= hash_mb <= MAX_HASH_MB:
            raise BudgetError(f"invalid hash size {hash_mb!r}: expected 1 to {MAX_HASH_MB} MiB")
        self._hash_mb = hash_mb
        self._lock = threading.Lock()
        self._use(kernel_module(compiled))

    def _use(self, kernel: ModuleType) -> None:
        self.kernel = k = kernel
        if k.COMPILED:
            import numpy as np

            self._table: IntArray = np.array(self.rules.table, dtype=np.int64)
        else:
            self._table = list(self.rules.table)
        self._geo = geometry(self.rules, bool(k.COMPILED))
        self._stack = _array(k, k.STACK_SIZE)
        self._moves = _array(k, k.MOVES_SIZE)
        self._scratch = _array(k, k.SCRATCH_SIZE)
        self._order = _array(k, k.ORDER_SIZE)
        self._work = _array(k, k.WORK_SIZE)
        self._features = _floats(k, [0.0] * k.FEATURES_SIZE)
        self._weights = _floats(k, self._weight_values)
        slots = 1
        while slots * 2 * 24 <= self._hash_mb << 20:
            slots *= 2
        if not k.COMPILED:
            slots = min(slots, PURE_TABLE_SLOTS)
        self._tt = _array(k, k.TT_WORDS * slots)
        # the endgame database's arrays: placeholders until a search may reach it (see _switches)
        self._egdb_loaded = False
        self._binom: IntArray = k.EGDB.binomials()
        self._egdb_data: ByteArray = _bytes(k, 1)
        self._egdb_offsets = _array(k, k.EGDB.KEYS)
        for i in range(k.EGDB.KEYS):
            self._egdb_offsets[i] = -1

    @property
    def probes(self) -> bool:
        """Whether the search looks positions of few pieces up in the endgame database
        (international draughts with the switch ``SW_EGDB`` on; dama has none)."""
        return self.rules.name == "international" and self.switches & compiled_kernel.SW_EGDB != 0

    def _switches(self, white: int, black: int) -> int:
        """The switches of a search from a root with these pieces: without probing when the
        root is itself in the database (its values carry no distance, so the evaluation must
        lead the way there); the database loaded (once per process) at the first search that
        probes."""
        k = self.kernel
        switches: int = self.switches
        if not self.probes or (white | black).bit_count() <= k.EGDB_PIECES:
            return switches & ~compiled_kernel.SW_EGDB
        if not self._egdb_loaded:
            database = k.EGDB.default()
            self._binom, self._egdb_data = database.binom, database.data
            self._egdb_offsets = database.offsets
            self._egdb_loaded = True
        return switches

    def endgame_value(self, white: int, black: int, kings: int, side: int) -> int | None:
        """The endgame database's value of the position for ``side`` (1 win, 0 draw, -1 loss),
        ``None`` when it holds no such position (more pieces, or dama)."""
        self._check(white, black, kings, side)
        if self.rules.name != "international":
            return None
        value: int | None = self.kernel.EGDB.default().probe(white, black, kings, side)
        return value

    def _follow_kernel(self) -> None:
        if self._follows and not self.compiled:
            kernel = kernel_module(None)
            if kernel.COMPILED:
                self._use(kernel)

    @property
    def compiled(self) -> bool:
        return bool(self.kernel.COMPILED)

    @property
    def weights(self) -> tuple[float, ...]:
        return self._weight_values

    def new_game(self) -> None:
        """Forget the transposition table, the killers and the history."""
        k = self.kernel
        self._tt = _array(k, len(self._tt))
        self._work = _array(k, k.WORK_SIZE)

    # -- positions ---------------------------------------------------------------------------

    def _check(self, white: int, black: int, kings: int, side: int) -> None:
        """One clear line for a position the kernel must not be given: masks that are not ints
        of the board's squares, a square with two pieces, a king on an empty square, or a side
        that is neither 0 nor 1."""
        board = (1 << self.rules.squares) - 1
        for name, mask in (("white", white), ("black", black), ("kings", kings)):
            if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask & ~board:
                raise InvalidPositionError(
                    f"invalid {name} mask {mask!r}: expected a non-negative int of the board's "
                    f"{self.rules.squares} squares"
                )
        if white & black:
            raise InvalidPositionError("invalid position: a square holds a white and a black piece")
        if kings & ~(white | black):
            raise InvalidPositionError("invalid position: a king stands on an empty square")
        if isinstance(side, bool) or side not in (0, 1):
            raise InvalidPositionError(f"invalid side {side!r}: expected 0 (White) or 1 (Black)")

    def _load(
        self, white: int, black: int, kings: int, side: int, ply: int = 0, quiet: int = 0
    ) -> None:
        k = self.kernel
        self._check(white, black, kings, side)
        k.set_position(
            self._geo,
            self._stack,
            ply,
            _word(k, white),
            _word(k, black),
            _word(k, kings),
            side,
            quiet,
        )

    def _prepare(
        self,
        white: int,
        black: int,
        kings: int,
        side: int,
        history: Sequence[tuple[int, int, int, int]],
    ) -> None:
        """Load the root and the game's earlier positions since the last man move or capture
        (for repetitions); reset the counters and killers; age the history."""
        k = self.kernel
        work = self._work
        men = (white & ~kings, black & ~kings, (white | black).bit_count())
        earlier: list[tuple[int, int, int, int]] = []
        for position in reversed(history[-k.GAME_SIZE :]):
            w, b, kk, _s = position
            if (w & ~kk, b & ~kk, (w | b).bit_count()) != men:
                break
            earlier.append(position)
        earlier.reverse()
        for i, (w, b, kk, s) in enumerate(earlier):
            self._load(w, b, kk, s)
            work[k.GAME_BASE + i] = self._stack[k.P_HASH]
        work[k.W_HISTORY_LENGTH] = len(earlier)
        self._load(white, black, kings, side, 0, len(earlier))
        for slot in (k.W_NODES, k.W_QNODES, k.W_STOP, k.W_SELDEPTH):
            work[slot] = 0
        work[k.W_SWITCHES] = self._switches(white, black)
        work[k.W_NODE_LIMIT] = NO_LIMIT
        for i in range(k.KILLER_BASE, k.HISTORY_BASE):
            work[i] = 0
        if isinstance(work, list):
            work[k.HISTORY_BASE : k.PV_LENGTH_BASE] = [
                value >> 2 for value in work[k.HISTORY_BASE : k.PV_LENGTH_BASE]
            ]
        else:
            work[k.HISTORY_BASE : k.PV_LENGTH_BASE] >>= 2

    def _triple(self, at: int) -> KMoveTriple:
        moves = self._moves
        return (int(moves[at]), int(moves[at + 1]), int(moves[at + 2]) & _FULL)

    def _root_moves(self) -> list[KMoveTriple]:
        count = int(self.kernel.generate(self._table, self._stack, self._moves, 0, self._scratch))
        return [self._triple(3 * i) for i in range(count)]

    def _pv(self, ply: int) -> tuple[KMoveTriple, ...]:
        k = self.kernel
        work = self._work
        row = k.PV_BASE + ply * k.PV_ROW
        length = int(work[k.PV_LENGTH_BASE + ply])
        return tuple(
            (int(work[row + 3 * i]), int(work[row + 3 * i + 1]), int(work[row + 3 * i + 2]) & _FULL)
            for i in range(ply, length)
        )

    def legal_moves(self, white: int, black: int, kings: int, side: int) -> list[KMoveTriple]:
        """The position's legal moves as the move generator lists them."""
        with self._lock:
            self._load(white, black, kings, side)
            return self._root_moves()

    def evaluate(self, white: int, black: int, kings: int, side: int) -> int:
        """The static evaluation in hundredths of a man, from ``side``'s point of view."""
        k = self.kernel
        self._check(white, black, kings, side)
        return int(
            k.evaluate(
                self._table,
                self._geo,
                _word(k, white),
                _word(k, black),
                _word(k, kings),
                side,
                self._weights,
                self._features,
            )
        )

    def features(self, white: int, black: int, kings: int, side: int) -> tuple[float, ...]:
        """The evaluation's features (White minus Black, in the order of the terms), then the
        phase (1 with every piece on the board, 0 with none)."""
        self.evaluate(white, black, kings, side)
        return tuple(float(x) for x in self._features)

    def quiesce(self, white: int, black: int, kings: int, side: int) -> int:
        """The value once the forced captures are played out, from ``side``'s point of view."""
        k = self.kernel
        with self._lock:
            self._prepare(white, black, kings, side, ())
            return int(
                k.quiesce(
                    self._table,
                    self._geo,
                    self._stack,
                    self._moves,
                    self._scratch,
                    self._order,
                    self._work,
                    self._weights,
                    self._features,
                    self._binom,
                    self._egdb_data,
                    self._egdb_offsets,
                    0,
                    -INFINITY,
                    INFINITY,
                )
            )

    def _negamax(self, ply: int, depth: int, alpha: int, beta: int) -> int:
        return int(
            self.kernel.negamax(
                self._table,
                self._geo,
                self._stack,
                self._moves,
                self._scratch,
                self._order,
                self._tt,
                self._work,
                self._weights,
                self._features,
                self._binom,
                self._egdb_data,
                self._egdb_offsets,
                ply,
                depth,
                alpha,
                beta,
            )
        )

    # -- budgets -----------------------------------------------------------------------------

    @staticmethod
    def _budget(
        depth: int | None, time_limit: float | None, nodes: int | None
    ) -> tuple[int, int, float | None]:
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH
        ):
            raise BudgetError(f"invalid depth {depth!r}: expected 1 to {MAX_DEPTH} plies")
        if nodes is not None and (
            isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1
        ):
            raise BudgetError(f"invalid node count {nodes!r}: expected a positive number")
        if time_limit is not None and not time_limit > 0:
            raise BudgetError(f"invalid time {time_limit!r}: expected seconds above 0")
        hard = None
        if time_limit is not None:
            hard = max(0.003, time_limit - min(MOVE_OVERHEAD, time_limit * 0.1))
        return depth or MAX_DEPTH, min(nodes or NO_LIMIT, NO_LIMIT), hard

    # -- search ------------------------------------------------------------------------------

    def search(
        self,
        white: int,
        black: int,
        kings: int,
        side: int,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        nodes: int | None = None,
        history: Sequence[tuple[int, int, int, int]] = (),
        stop_event: threading.Event | None = None,
        progress: Progress | None = None,
    ) -> EngineResult:
        """The best move under the limits (``depth`` plies, ``time_limit`` seconds, ``nodes``):
        iterative deepening, one ply more each iteration, until a limit or a proven result. The
        first iteration always completes. Without any limit it searches to ``stop_event`` or to
        depth :data:`MAX_DEPTH`. ``history`` holds the game's earlier positions ``(white,
        black, kings, side)``, oldest first, for repetitions (optional)."""
        max_depth, node_limit, hard = self._budget(depth, time_limit, nodes)
        with self._lock:
            self._follow_kernel()
            return self._search(
                white, black, kings, side, max_depth, node_limit, hard, history, stop_event,
                progress,
            )  # fmt: skip

    def _search(
        self,
        white: int,
        black: int,
        kings: int,
        side: int,
        max_depth: int,
        node_limit: int,
        hard: float | None,
        history: Sequence[tuple[int, int, int, int]],
        stop_event: threading.Event | None,
        progress: Progress | None,
    ) -> EngineResult:
        k = self.kernel
        started = time.perf_counter()
        self._prepare(white, black, kings, side, history)
        root = self._root_moves()
        if not root:
            return EngineResult(None, -WIN, 0, 0, ())
        work = self._work
        best = EngineResult(root[0], 0, 0, 0, (root[0],))
        clock = _Clock(work, hard, stop_event)
        try:
            for iteration in range(1, max_depth + 1):
                begun = time.perf_counter()
                score = self._negamax(0, iteration, -INFINITY, INFINITY)
                if work[k.W_STOP]:
                    break
                if iteration == 1:
                    work[k.W_NODE_LIMIT] = node_limit
                    clock.arm()
                pv = self._pv(0) or (root[0],)
                best = EngineResult(
                    pv[0],
                    score,
                    iteration,
                    int(work[k.W_NODES]),
                    pv,
                    time.perf_counter() - started,
                    max(int(work[k.W_SELDEPTH]), len(pv)),
                )
                if progress is not None:
                    progress(best)
                if len(root) == 1 and hard is not None:
                    break
                if abs(score) > MATE_BOUND and WIN - abs(score) <= iteration:
                    break  # the game's end is within the depth read: a deeper search sees the same
                if clock.cannot_finish(time.perf_counter() - begun):
                    break
                if work[k.W_NODES] >= node_limit:
                    break
        finally:
            clock.close()
        return replace(best, nodes=int(work[k.W_NODES]), elapsed=time.perf_counter() - started)

    def analyze_moves(
        self,
        white: int,
        black: int,
        kings: int,
        side: int,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        nodes: int | None = None,
        history: Sequence[tuple[int, int, int, int]] = (),
        stop_event: threading.Event | None = None,
    ) -> EngineResult:
        """Every legal move with its score for the side to move, best first (ties in the move
        generator's order), each searched with a full window depth by depth until a limit (6
        plies without any); a move keeps its score of the deepest iteration every move
        completed, which is the answer's ``depth``. The first iteration always completes."""
        if (depth, time_limit, nodes, stop_event) == (None, None, None, None):
            depth = 6
        max_depth, node_limit, hard = self._budget(depth, time_limit, nodes)
        with self._lock:
            self._follow_kernel()
            return self._analyze(
                white, black, kings, side, max_depth, node_limit, hard, history, stop_event
            )

    def _analyze(
        self,
        white: int,
        black: int,
        kings: int,
        side: int,
        max_depth: int,
        node_limit: int,
        hard: float | None,
        history: Sequence[tuple[int, int, int, int]],
        stop_event: threading.Event | None,
    ) -> EngineResult:
        k = self.kernel
        started = time.perf_counter()
        self._prepare(white, black, kings, side, history)
        root = self._root_moves()
        if not root:
            return EngineResult(None, -WIN, 0, 0, ())
        work = self._work
        scored: list[MoveScore] = []
        completed = 0
        clock = _Clock(work, hard, stop_event)
        try:
            for iteration in range(1, max_depth + 1):
                found: list[MoveScore] = []
                for move in root:
                    k.make_move(self._geo, self._stack, 0, move[0], move[1], _word(k, move[2]))
                    # one legal move costs no depth, as everywhere in the tree
                    child = iteration if len(root) == 1 else iteration - 1
                    score = -self._negamax(1, child, -INFINITY, INFINITY)
                    if work[k.W_STOP]:
                        break
                    found.append(MoveScore(move, score, (move, *self._pv(1))))
                else:
                    scored = sorted(found, key=lambda entry: -entry.score)
                    completed = iteration
                    root = [entry.move for entry in scored]
                if iteration == 1:
                    work[k.W_NODE_LIMIT] = node_limit
                    clock.arm()
                if work[k.W_STOP] or work[k.W_NODES] >= node_limit:
                    break
                if scored and all(abs(entry.score) > MATE_BOUND for entry in scored):
                    break
                if clock.expired:
                    break
        finally:
            clock.close()
        best = scored[0]
        return EngineResult(
            best.move,
            best.score,
            completed,
            int(work[k.W_NODES]),
            best.pv,
            time.perf_counter() - started,
            int(work[k.W_SELDEPTH]),
            tuple(scored),
        )


# -- the record's capability -------------------------------------------------------------------


_ENGINES: dict[str, DraughtsEngine] = {}
_ENGINES_LOCK = threading.Lock()


def shared_engine(rules: Rules) -> DraughtsEngine:
    """One engine per game for a process's analyses (its table stays warm between positions)."""
    with _ENGINES_LOCK:
        engine = _ENGINES.get(rules.name)
        if engine is None:
            engine = _ENGINES[rules.name] = DraughtsEngine(rules)
        return engine


def game_history(state: object) -> list[tuple[int, int, int, int]]:
    """The state's earlier positions ``(white, black, kings, side)`` since the last man move or
    capture, oldest first, from its ``history`` of ``(white, black, kings)`` (the current
    position left out when the state keeps it last): what the search's repetitions read."""
    _rules, white, black, kings, side = position_of(state)
    kept = getattr(state, "history", ())
    earlier = [tuple(entry) for entry in kept if isinstance(entry, tuple) and len(entry) == 3]
    if earlier and earlier[-1] == (white, black, kings):
        earlier.pop()
    count = len(earlier)
    return [
        (int(w), int(b), int(k), side ^ ((count - i) & 1)) for i, (w, b, k) in enumerate(earlier)
    ]


def game_line(state: DraughtsLike, line: Sequence[KMoveTriple]) -> tuple[Hashable, ...]:
    """The engine's line as the game's moves, played out from ``state`` (cut where a move does
    not map: a safeguard)."""
    moves: list[Hashable] = []
    current = state
    for frm, to, captured in line:
        try:
            move = current.from_kernel(frm, to, captured)
            following = current.play(move)
        except ZermeloError:
            break
        moves.append(move)
        current = following
    return tuple(moves)


def result_of(state: DraughtsLike, found: EngineResult) -> SearchResult[Hashable]:
    """The engine's answer as a :class:`SearchResult` of the game's moves: values in hundredths
    of a man, which the states' unit (``value_unit()``, 100 a man) shows in men."""
    stats = SearchStats(nodes=found.nodes, elapsed=found.elapsed, seldepth=found.seldepth)
    if found.move is None:
        return SearchResult(None, -WIN, (), 0, True, stats)
    values = tuple(
        MoveValue(line[0], float(entry.score), abs(entry.score) > MATE_BOUND, line)
        for entry in found.moves
        if (line := game_line(state, entry.pv))
    )
    pv = game_line(state, found.pv)
    return SearchResult(
        pv[0] if pv else None, float(found.score), pv, found.depth, found.decided, stats, values
    )


class DraughtsAnalysis:
    """The record's :class:`~zermelo.core.capabilities.EngineAnalysis` for both draughts
    games: every move's value in hundredths of a man (shown in men by the states' unit), the
    game read from ``type(state).RULES``."""

    def analyze(self, state: object, limits: Limits) -> SearchResult[object]:
        rules, white, black, kings, side = position_of(state)
        assert isinstance(state, DraughtsLike)  # position_of said so
        if state.is_terminal():
            winner = getattr(state, "winner", None)
            value = 0.0 if winner is None else (WIN if int(winner) == side else -WIN)
            return SearchResult(None, float(value), (), 0, True)
        started = limits.started()
        left = started.remaining()
        depth = limits.depth
        if depth is None and left is None and limits.nodes is None:
            left = 1.0
        found = shared_engine(rules).analyze_moves(
            white,
            black,
            kings,
            side,
            depth=depth if depth is None else max(1, min(depth, MAX_DEPTH)),
            time_limit=None if left is None else max(left, 1e-3),
            nodes=limits.nodes,
            history=game_history(state),
        )
        return result_of(state, found)


ANALYSIS: Final = DraughtsAnalysis()


# -- the evaluation term by term (here, not in evaluation.py: it asks the engine's kernel) ------


def explain(
    rules: Rules,
    white: int,
    black: int,
    kings: int,
    side: int,
    weights: Sequence[float] | None = None,
) -> Breakdown:
    """The evaluation of a position term by term, from the side to move, in men: each term's
    value (the side to move's count minus the other's), its weight at this phase (men per unit)
    and, as total, the kernel's own evaluation (which the contributions sum to, to its rounding
    of a hundredth)."""
    engine = DraughtsEngine(rules, weights=weights, hash_mb=1)
    features = engine.features(white, black, kings, side)
    score = engine.evaluate(white, black, kings, side)
    flat = engine.weights
    middle = features[compiled_kernel.F_PHASE]
    sign = 1.0 if side == 0 else -1.0
    terms = tuple(
        Term(
            name,
            description,
            sign * features[i] + 0.0,
            (flat[2 * i] * middle + flat[2 * i + 1] * (1.0 - middle)) / 100.0,
        )
        for i, (name, description) in enumerate(TERMS)
    )
    return Breakdown(terms, score / 100.0, decimals=2)


class DraughtsExplainer:
    """The record's :class:`~zermelo.core.capabilities.Explainer` for both draughts games: the
    game is read from ``type(state).RULES``."""

    def explain(self, state: object, weights: str | None) -> Breakdown:
        rules, white, black, kings, side = position_of(state)
        chosen = None if weights is None else read_weights(weights, rules.name)
        return explain(rules, white, black, kings, side, chosen)


EXPLAINER: Final = DraughtsExplainer()
