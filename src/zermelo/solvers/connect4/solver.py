"""The exact Connect Four solver: Python front of the compiled kernel.

:class:`Connect4Solver` owns the kernel's arrays (transposition table, board constants, scratch).
It answers the exact score of any position in the convention of :mod:`.scores`, the best moves,
every column's score and a principal variation. Positions in the opening book (see :mod:`.book`)
are answered from it without search.

The table is never cleared between positions: bounds of a position do not depend on the root, so
what one solve learnt helps the next. :meth:`Connect4Solver.new_generation` empties it in O(1)
when a measurement needs a cold table.
"""

from __future__ import annotations

import contextlib
import mmap
import random
import time
from collections.abc import Sequence
from types import ModuleType

from zermelo.core.errors import BudgetError, InvalidPositionError
from zermelo.core.jit import ByteArray, IntArray, OutBytes, kernel_variant
from zermelo.games.connect4 import Connect4State, geometry
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.solvers.connect4 import kernel as compiled_kernel
from zermelo.solvers.connect4.book import book_depth, canonical_column, load_best, load_book
from zermelo.solvers.connect4.scores import score_bounds, to_negamax

__all__ = [
    "Connect4Solver",
    "check_table_bits",
    "default_solver",
    "kernel_module",
    "solved",
]

_NO_LIMIT = (1 << 62) - 1

DEFAULT_TABLE_BITS = 22
"""2**22 slots of 16 bytes: 64 MiB, the compiled default."""
PURE_TABLE_BITS = 20
"""The plain-Python default: a list of 2**21 ints."""
COMPILED_SHALLOW = 10
"""Empty cells at or below which compiled nodes skip the table and the ordering. Side by side
with the reference on a quiet machine, 10 beat 8 by 5-10% on Test_L2_R1 and Test_L2_R2 once
calls stopped paying for reference counting (it searches more nodes, each far cheaper)."""
PURE_SHALLOW = 6
EARLY_SHALLOW = 8
"""The compiled default for a search from a root with at least :data:`EARLY_EMPTY` empty cells:
deep proofs early in the game search about a third fewer nodes and take 10-20% less time with 8
(hard's slowest move, the proof of 444446666: 1.3-1.5 s against 1.7 s)."""
EARLY_EMPTY = 31


def check_table_bits(table_bits: int) -> None:
    """Raise :class:`BudgetError` unless a table of ``2**table_bits`` slots is allowed (16 to
    8 M slots: up to 128 MiB)."""
    if not 4 <= table_bits <= 23:
        raise BudgetError(f"table_bits must be 4 to 23, got {table_bits}")


def kernel_module(compiled: bool | None = None) -> ModuleType:
    """The kernel: the compiled module (when numba is usable), or a plain-Python copy of it.

    ``compiled=None`` takes the compiled one when available; ``False`` always the plain copy,
    loaded from the same source file with compilation switched off."""
    return kernel_variant(compiled_kernel, compiled, "kernel")


def solved(
    state: Connect4State,
    score: int,
    *,
    weak: bool = False,
    best_moves: Sequence[int] = (),
    nodes: int = 0,
    elapsed: float = 0.0,
    booked: bool = False,
) -> SearchResult[int]:
    """The solver's answer for ``state`` as a :class:`~zermelo.search.result.SearchResult`.

    ``score`` is in the convention of :mod:`.scores` (weak: 1, 0 or -1), ``best_moves`` the
    columns that keep it. The value follows the negamax convention and is exact; a weak win or
    loss is the slowest the board still allows (the bound a weak solve proves) and reads
    ``"weak"``. ``moves`` holds each of ``best_moves`` at that value, in the order given;
    ``reason`` is ``"book"``, ``"search"`` or ``"weak"`` (empty for a finished game), and
    ``depth`` the empty cells the search could read to the end. :func:`.scores.benchmark_score`
    turns the value back into ``score``.
    """
    over = _over(state)
    width, height = state.width, state.height
    if over is not None:
        value, reason = to_negamax(over, state.ply, width, height), ""
    else:
        value = to_negamax(score, state.ply, width, height)
        reason = "weak" if weak else "book" if booked else "search"
    moves = tuple(MoveValue(column, float(value), True, (column,)) for column in best_moves)
    move = best_moves[0] if best_moves else None
    return SearchResult(
        move,
        float(value),
        () if move is None else (move,),
        width * height - state.ply,
        True,
        SearchStats(nodes=nodes, elapsed=elapsed),
        moves,
        reason,
    )


Position = Connect4State | str


class Connect4Solver:
    """Exact solver for one board size; keeps its transposition table between calls.

    ``compiled`` chooses the numba kernel (default when available) or the plain-Python one.
    ``table_bits`` sets the table to ``2**table_bits`` slots. ``book`` (default: on) answers
    opening positions from the shipped book. ``symmetry`` is the ply below which mirror positions
    share table entries; ``etc_empty`` is how many empty cells a node needs for enhanced
    transposition cutoffs (probing the children in the table before searching them),
    ``etc_levels`` in how many plies below the root. ``shallow`` is the number of empty cells at
    or below which a node searches without the table and without move ordering: so close to the
    end a table probe (a cache miss) and the ordering cost more than the nodes they save. The
    defaults, :data:`COMPILED_SHALLOW` and :data:`PURE_SHALLOW` (where a node costs more), were
    measured side by side with the reference solver (``benchmarks/connect4.py``); compiled
    searches from early roots use :data:`EARLY_SHALLOW` unless ``shallow`` is given.
    """

    def __init__(
        self,
        width: int = 7,
        height: int = 6,
        *,
        compiled: bool | None = None,
        table_bits: int | None = None,
        book: bool = True,
        symmetry: int = 16,
        etc_empty: int = 12,
        etc_levels: int = 4,
        shallow: int | None = None,
    ) -> None:
        self.geometry = geometry(width, height)
        self.width = width
        self.height = height
        self.kernel = kernel_module(compiled)
        self.compiled = bool(self.kernel.COMPILED)
        if table_bits is None:
            table_bits = DEFAULT_TABLE_BITS if self.compiled else PURE_TABLE_BITS
        check_table_bits(table_bits)
        k = self.kernel
        words = 2 << table_bits  # two words a slot, two slots a bucket
        # One array holds the work area, the board constants and the table (see the kernel).
        mem: IntArray
        mem = _table_array(k.TT_BASE + words) if self.compiled else [0] * (k.TT_BASE + words)
        mem[k.G_WIDTH] = width
        mem[k.G_HEIGHT] = height
        mem[k.G_BOTTOM] = self.geometry.bottom
        mem[k.G_BOARD] = self.geometry.board
        mem[k.G_ODD_ROWS] = sum(self.geometry.bottom << row for row in range(0, height, 2))
        for i, column in enumerate(self.geometry.order):
            mem[k.ORDER + i] = column
            mem[k.COLUMNS + i] = self.geometry.column_masks[i]
        mem[k.W_GENERATION] = 1
        mem[k.W_SYMMETRY] = symmetry
        mem[k.W_ETC_DEPTH] = etc_empty
        mem[k.W_ETC_LEVELS] = etc_levels
        self._early_shallow: int | None = None  # the shallow limit for early roots, if another
        if shallow is None:
            shallow = COMPILED_SHALLOW if self.compiled else PURE_SHALLOW
            if self.compiled:
                self._early_shallow = EARLY_SHALLOW
        self._shallow = shallow
        mem[k.W_SHALLOW] = shallow
        mem[k.W_NODE_LIMIT] = _NO_LIMIT
        mem[k.W_BUCKETS] = (words >> 2) - 1
        self._mem = mem
        """The one array: work area (counters read by their ``W_*`` indices), board constants
        and table."""
        self._prefaulted = False
        self._limit: int | None = None
        self._stop_at: int | None = None
        self.nodes = 0
        """Nodes searched by this solver so far, over all calls (a caller measures a call by the
        difference)."""
        self._book: dict[int, int] | None = None
        self._best: dict[int, int] | None = None  # each book entry's best columns, as bits
        self._past_book = -1  # the ply just past the book, whose parents the book holds
        if book:
            self._book = load_book(width, height)
            if self._book:
                self._past_book = book_depth(width, height) + 1
                self._best = load_best(width, height)
        # Plies whose score starts from a bound the book gives: just past it (its scores), and
        # one more where its best columns tell a parent's exact score.
        self._bounded_plies = range(self._past_book, self._past_book + 1 + (self._best is not None))

    def prefault(self) -> None:
        """Write the whole table once, so that no later solve pays for the first touch of a
        memory page (costly on virtual machines: a fresh 4 KiB page per slot reached). Where the
        system gives huge pages (see :func:`_table_array`) this takes a few milliseconds. The
        command line and the benchmarks call it before the first position."""
        if self.compiled and not self._prefaulted:
            self._mem[self.kernel.TT_BASE :] = 0  # type: ignore[call-overload]  # numpy here
            self._prefaulted = True

    def warm_up(self) -> None:
        """Load (or compile) the kernel's entry points now, so that the first position solved
        afterwards is not charged for it: numba loads a function from its cache on its first
        call. Uses a position that is decided at once, so the table is not touched."""
        if self.height < 4:
            return
        state = Connect4State.parse("12" * 3, self.width, self.height)  # 3 stacked: a win next
        k = self.kernel
        self._start_call()
        k.solve(state.current, state.mask, state.ply, False, self._mem)
        k.at_most(state.current, state.mask, state.ply, 0, self._mem)
        self.solve_batch([(state.current, state.mask, state.ply)], fresh=False)
        k.mirror(state.current + state.mask, self.width, self.height)
        k.has_alignment(state.current, self.height)
        k.canonical(state.current + state.mask, state.ply, self.width, self.height, 0)

    # -- table --------------------------------------------------------------------------------

    def new_generation(self) -> None:
        """Empty the table in O(1): entries of older generations no longer count."""
        work = self._mem
        generation = int(work[self.kernel.W_GENERATION]) + 1
        if generation >= 1 << 30:
            self._clear_table()
            generation = 1
        work[self.kernel.W_GENERATION] = generation

    def _clear_table(self) -> None:
        start = self.kernel.TT_BASE
        if self.compiled:
            self._mem[start:] = 0  # type: ignore[call-overload]  # a numpy array when compiled
        else:
            self._mem[start:] = [0] * (len(self._mem) - start)

    # -- positions ----------------------------------------------------------------------------

    def position(self, position: Position) -> Connect4State:
        """A state from a state or move text, checked to be of this solver's board size."""
        if isinstance(position, str):
            return Connect4State.parse(position, self.width, self.height)
        if (position.width, position.height) != (self.width, self.height):
            raise InvalidPositionError(
                f"position {position.notation()!r} is {position.width}x{position.height}; "
                f"this solver is for {self.width}x{self.height}"
            )
        return position

    def book_score(self, current: int, mask: int) -> int | None:
        """The book's score of a position, if the book holds it."""
        if not self._book:
            return None
        return self._book.get(self._book_key(current, mask)[0])

    def _book_key(self, current: int, mask: int) -> tuple[int, bool]:
        """The book's key of a position (its mirror-canonical code), and whether that key is
        the mirror image's code."""
        code = current + mask
        mirrored = self.kernel.mirror(code, self.width, self.height)
        return (mirrored, True) if mirrored < code else (code, False)

    def _book_column(self, column: int, flipped: bool) -> int:
        """A column of a position as the book's entry (the canonical orientation) numbers it."""
        return canonical_column(column, self.width, flipped)

    def score_bitboard(self, current: int, mask: int, ply: int, weak: bool = False) -> int:
        """The score of a running position given as bitboards (no validation, no book)."""
        self._start_call(ply)
        score = int(self.kernel.solve(current, mask, ply, weak, self._mem))
        self.nodes += self.last_nodes
        self._check_budget()
        return score

    def _at_most(self, current: int, mask: int, ply: int, bound: int) -> bool:
        """Whether a running position's score is at most ``bound`` (one null-window search, no
        book; :attr:`last_nodes` tells its nodes)."""
        self._start_call(ply)
        result = bool(self.kernel.at_most(current, mask, ply, bound, self._mem))
        self.nodes += self.last_nodes
        self._check_budget()
        return result

    def _start_call(self, ply: int | None = None) -> IntArray:
        """The work array, ready for a kernel call: node count zeroed, and the node limit the
        smaller of :attr:`node_limit` and what is left of a move's budget (see
        :meth:`best_move`), which raises :class:`BudgetError` when nothing is left. Given the
        root's ``ply``, the shallow limit is set for it (:data:`EARLY_SHALLOW` early on; a batch,
        without ``ply``, keeps the later default)."""
        limit = _NO_LIMIT if self._limit is None else self._limit
        if self._stop_at is not None:
            left = self._stop_at - self.nodes
            if left <= 0:
                raise BudgetError("the move's node budget is spent")
            limit = min(limit, left)
        work = self._mem
        work[self.kernel.W_NODE_LIMIT] = limit
        work[self.kernel.W_NODES] = 0
        if self._early_shallow is not None:
            early = ply is not None and self.width * self.height - ply >= EARLY_EMPTY
            work[self.kernel.W_SHALLOW] = self._early_shallow if early else self._shallow
        return work

    def _check_budget(self) -> None:
        work = self._mem
        if work[self.kernel.W_ABORTED]:
            work[self.kernel.W_ABORTED] = 0
            raise BudgetError(
                f"the search needed more than {int(work[self.kernel.W_NODE_LIMIT]):,} nodes"
            )

    @property
    def node_limit(self) -> int | None:
        """Nodes one kernel call may search before it gives up with :class:`BudgetError`."""
        return self._limit

    @node_limit.setter
    def node_limit(self, limit: int | None) -> None:
        if limit is not None and limit < 1:
            raise BudgetError(f"node limit must be at least 1, got {limit}")
        self._limit = limit

    @property
    def last_nodes(self) -> int:
        """Nodes searched by the last kernel call."""
        return int(self._mem[self.kernel.W_NODES])

    def _score(self, current: int, mask: int, ply: int, weak: bool) -> tuple[int, int, bool]:
        """(score, nodes, from book) of a running position."""
        booked = self.book_score(current, mask)
        if booked is not None:
            if weak:
                booked = (booked > 0) - (booked < 0)
            return booked, 0, True
        if not weak and ply in self._bounded_plies:
            floor = self._floor_from_book(current, mask)
            if floor is not None:
                # Just past the book (or two plies past it, through the book's best columns): the
                # parents give a lower bound, and when the last move was a best one (the usual
                # case) it is the score, which one null-window search confirms where the
                # bisection would run several.
                score, nodes = self._score_from(current, mask, ply, floor)
                return score, nodes, False
        score = self.score_bitboard(current, mask, ply, weak)
        return score, self.last_nodes, False

    def _score_from(self, current: int, mask: int, ply: int, floor: int) -> tuple[int, int]:
        """(score, nodes) of a running position whose score is at least ``floor``: one
        null-window search confirms the floor, else the kernel's bisection runs above it."""
        low = floor
        high = (self.width * self.height + 1 - ply) // 2
        middle = floor  # the floor first: it is the score when the last move was a best one
        nodes = 0
        while low < high:
            if self._at_most(current, mask, ply, middle):
                high = middle
            else:
                low = middle + 1
            nodes += self.last_nodes
            middle = self.kernel.bisection_middle(low, high)
        return low, nodes

    def _floor_from_book(self, current: int, mask: int) -> int | None:
        """A lower bound on the score of a running position from the exact scores of its
        parents (each parent, the last stone of a column taken back, values this position at
        least at ``-its score``), or ``None`` when no parent's score is known: a parent's is
        known when the book holds it, or when the book holds a grandparent whose best columns
        include the move to that parent (which then scores exactly ``-the grandparent's``)."""
        if not self._book:
            return None
        floor: int | None = None
        for parent_current, parent_mask, _ in self._parents(current, mask):
            parent = self.book_score(parent_current, parent_mask)
            if parent is None and self._best is not None:
                parent = self._score_by_best_move(parent_current, parent_mask)
            if parent is not None and (floor is None or -parent > floor):
                floor = -parent
        return floor

    def _parents(self, current: int, mask: int) -> list[tuple[int, int, int]]:
        """``(current, mask, column)`` of each parent of a position: the position before the last
        stone of ``column`` was played, for each column whose top stone is the last mover's."""
        mover = current ^ mask  # the side that played the last stone
        parents = []
        for column, column_mask in enumerate(self.geometry.column_masks):
            stones = mask & column_mask
            if stones:
                top = 1 << (stones.bit_length() - 1)
                if mover & top:
                    parents.append((mover ^ top, mask ^ top, column))
        return parents

    def _score_by_best_move(self, current: int, mask: int) -> int | None:
        """The exact score of a position one ply past the book when a parent in the book lists
        the move to it among its best columns (``-that parent's score``), else ``None``."""
        assert self._book is not None and self._best is not None
        for parent_current, parent_mask, column in self._parents(current, mask):
            key, flipped = self._book_key(parent_current, parent_mask)
            score = self._book.get(key)
            if score is not None and self._best[key] >> self._book_column(column, flipped) & 1:
                return -score
        return None

    def score(self, position: Position, *, weak: bool = False) -> int:
        """The score of ``position`` (weak: -1, 0, 1). A finished game scores as lost or drawn
        for the side to move."""
        state = self.position(position)
        over = _over(state)
        if over is not None:
            return over if not weak else (over > 0) - (over < 0)
        return self._score(state.current, state.mask, state.ply, weak)[0]

    def solve(
        self, position: Position, *, weak: bool = False, best_moves: bool = True
    ) -> SearchResult[int]:
        """Solve ``position``: its exact value, the moves that keep it (unless
        ``best_moves=False``), nodes and time, as :func:`solved` describes them."""
        started = time.perf_counter()
        state = self.position(position)
        if _over(state) is not None:
            return solved(state, 0, weak=weak, elapsed=time.perf_counter() - started)
        score, nodes, booked = self._score(state.current, state.mask, state.ply, weak)
        moves: tuple[int, ...] = ()
        if best_moves:
            moves, extra = self._best_moves(state, score, weak)
            nodes += extra
        elapsed = time.perf_counter() - started
        return solved(
            state, score, weak=weak, best_moves=moves, nodes=nodes, elapsed=elapsed, booked=booked
        )

    def _play(self, state: Connect4State, column: int) -> tuple[int, int, int | None]:
        """The child after ``column`` as ``(current, mask, ended)``: ``ended`` is the mover's
        score when that move ends the game (a win at once, or a full board's draw), else
        ``None``."""
        geo = self.geometry
        move = (state.mask + geo.bottom) & geo.column_masks[column]
        child_mask = state.mask | move
        ended: int | None = None
        if self.kernel.has_alignment(state.current | move, self.height):
            ended = (self.width * self.height + 1 - state.ply) // 2
        elif child_mask == geo.board:
            ended = 0
        return state.current ^ state.mask, child_mask, ended

    def _child_score(self, state: Connect4State, column: int, weak: bool) -> tuple[int, int]:
        """(score of ``column`` for the side to move, nodes)."""
        child_current, child_mask, ended = self._play(state, column)
        if ended is not None:
            return (int(ended > 0) if weak else ended), 0
        score, nodes, _ = self._score(child_current, child_mask, state.ply + 1, weak)
        return -score, nodes

    def _keeps(self, state: Connect4State, column: int, score: int) -> tuple[bool, int]:
        """(whether playing ``column`` keeps ``score`` for the side to move, nodes searched): a
        child keeps it when its own score is at most ``-score``, which one null-window search
        tells (no exact child score). In weak mode ``score`` is 1 or 0 and the same test holds."""
        if self._best is not None and state.ply < self._past_book:
            kept = self._booked_keeps(state, column, score)
            if kept is not None:
                return kept, 0
        child_current, child_mask, ended = self._play(state, column)
        if ended is not None:
            return ended >= score, 0  # a win at once is the best score there is
        booked = self.book_score(child_current, child_mask)
        if booked is not None:
            return booked <= -score, 0
        keeps = self._at_most(child_current, child_mask, state.ply + 1, -score)
        return keeps, self.last_nodes

    def _booked_keeps(self, state: Connect4State, column: int, score: int) -> bool | None:
        """Whether ``column`` keeps ``score`` as the book's best columns tell it, or ``None``
        when they cannot: the position is not in the book, or ``score`` is not its exact score
        (when it is, the columns that keep it are exactly the best ones, in weak mode too)."""
        assert self._book is not None and self._best is not None
        key, flipped = self._book_key(state.current, state.mask)
        if self._book.get(key) != score:
            return None
        return bool(self._best[key] >> self._book_column(column, flipped) & 1)

    def keepers(self, position: Position, score: int) -> tuple[int, ...]:
        """The columns that keep ``score``, the exact score of the running ``position`` (as
        :meth:`score` gives it; a wrong score gives a wrong answer): :meth:`solve`'s best moves
        without solving the position again. One null-window search per column past the book."""
        state = self.position(position)
        if _over(state) is not None:
            return ()
        return self._best_moves(state, score, False)[0]

    def _best_moves(
        self, state: Connect4State, score: int, weak: bool
    ) -> tuple[tuple[int, ...], int]:
        """The columns that keep ``score`` (in weak mode: its sign), and the nodes searched."""
        moves = state.legal_moves()
        if weak:
            if score < 0:
                return tuple(moves), 0
            # a weak win or draw is kept by a child whose exact score is at most -1 or 0
            score = 1 if score > 0 else 0
        nodes = 0
        best = []
        for column in moves:
            keeps, searched = self._keeps(state, column, score)
            nodes += searched
            if keeps:
                best.append(column)
        return tuple(best), nodes

    def best_move(
        self,
        position: Position,
        *,
        rng: random.Random | None = None,
        weak: bool = False,
        node_budget: int | None = None,
    ) -> tuple[int, int]:
        """One column that keeps the score of a running position, and that score.

        Cheaper than :meth:`solve`: the columns are tried one by one (centre first, or in an
        order drawn from ``rng``) and the first that keeps the score is played, so the others
        are never searched; for a position in the book, whose best columns the book holds, none
        is. With ``rng`` every best move is equally likely: the first keeper of a uniformly
        shuffled order is uniform among the keepers. ``weak`` keeps only the
        outcome (about twice as cheap): the score is then 1, 0 or -1, and when it is -1 every
        column loses and the first is returned. ``node_budget`` caps the nodes of the whole call
        (all its searches together; :attr:`node_limit` caps each one): past it,
        :class:`BudgetError`."""
        if node_budget is not None and node_budget < 1:
            raise BudgetError(f"node budget must be at least 1, got {node_budget}")
        self._stop_at = None if node_budget is None else self.nodes + node_budget
        try:
            return self._best_move(self.position(position), rng, weak)
        finally:
            self._stop_at = None

    def _best_move(
        self, state: Connect4State, rng: random.Random | None, weak: bool
    ) -> tuple[int, int]:
        if _over(state) is not None:
            raise InvalidPositionError(
                f"the game is over in position {state.notation()!r}; no move to choose"
            )
        score = self._score(state.current, state.mask, state.ply, weak)[0]
        moves = state.legal_moves()
        if rng is not None:
            rng.shuffle(moves)
        if weak and score < 0:
            return moves[0], score
        for column in moves:
            if self._keeps(state, column, score)[0]:
                return column, score
        raise AssertionError(f"no move keeps the score {score} of {state.notation()!r}")

    def analyze(self, position: Position, *, weak: bool = False) -> list[int | None]:
        """Every column's score for the side to move (``None`` for a full column or when the
        game is over), indexed by 0-based column."""
        state = self.position(position)
        scores: list[int | None] = [None] * self.width
        if _over(state) is not None:
            return scores
        for column in state.legal_moves():
            scores[column] = self._child_score(state, column, weak)[0]
        return scores

    def principal_variation(
        self, position: Position, *, limit: int | None = None, score: int | None = None
    ) -> tuple[int, ...]:
        """A line of best moves to the end of the game (first best move in centre order each
        time: the winner takes a fastest win, the loser a slowest loss). ``score``, when the
        caller knows it already (the position's exact score, as :meth:`score` gives it), saves
        solving the position first."""
        state = self.position(position)
        line: list[int] = []
        if _over(state) is not None:
            return ()
        # Solved once: a move that keeps the score hands the opponent exactly its negation, so
        # each further ply only has to find a column that keeps it (one null-window search per
        # column tried, and none inside the book).
        if score is None:
            score = self._score(state.current, state.mask, state.ply, False)[0]
        while _over(state) is None and (limit is None or len(line) < limit):
            for column in state.legal_moves():
                if self._keeps(state, column, score)[0]:
                    break
            else:
                raise AssertionError(f"no move keeps the score {score} of {state.notation()!r}")
            line.append(column)
            state = state.play(column)
            score = -score
        return tuple(line)

    def solve_batch(
        self,
        positions: Sequence[tuple[int, int, int]],
        *,
        weak: bool = False,
        fresh: bool = True,
    ) -> tuple[list[int], list[int]]:
        """Scores and node counts of many running positions ``(current, mask, ply)`` in one
        kernel call; ``fresh`` empties the table before each. No book, no validation."""
        n = len(positions)
        if self.compiled:
            import numpy as np

            currents: IntArray = np.array([p[0] for p in positions], dtype=np.int64)
            masks: IntArray = np.array([p[1] for p in positions], dtype=np.int64)
            plies: IntArray = np.array([p[2] for p in positions], dtype=np.int64)
            scores: IntArray = np.zeros(n, dtype=np.int64)
            nodes: IntArray = np.zeros(n, dtype=np.int64)
        else:
            currents = [p[0] for p in positions]
            masks = [p[1] for p in positions]
            plies = [p[2] for p in positions]
            scores = [0] * n
            nodes = [0] * n
        self._start_call()
        self.kernel.solve_many(currents, masks, plies, weak, fresh, self._mem, scores, nodes)
        self.nodes += int(sum(nodes))
        self._check_budget()
        return [int(s) for s in scores], [int(x) for x in nodes]

    @property
    def first_batch_ply(self) -> int:
        """The fewest stones of a position that :meth:`score_text` leaves to the kernel: from
        there on the search is :meth:`solve`'s (past the book and the bounds it gives, and the
        later shallow limit); a position with fewer is scored as :meth:`solve` scores it."""
        first = self._bounded_plies.stop if self._book else 0
        if self._early_shallow is not None:
            first = max(first, self.width * self.height - EARLY_EMPTY + 1)
        return first

    def score_text(
        self, data: bytes, count: int, *, weak: bool = False
    ) -> tuple[IntArray, OutBytes, int, list[int]]:
        """Read ``count`` lines of ``data`` (UTF-8 bytes, each line ended by a newline, none
        inside one), score their positions and write the answers, with no Python per line.

        Lines are read as :func:`.api.solve_lines` reads them (its first word is a line's
        position; blank lines and comments are skipped). Returns ``(rows, out, size, python)``:
        the kernel's rows (``kernel.ROW`` words a line: ``R_STATUS`` and the others), ``out``,
        whose first ``size`` bytes are ``WORD SCORE`` lines, one for each ``LINE_SCORED`` row in
        order (a row's ``R_OUT`` is where the answers up to it end), and the indices of the rows
        left ``LINE_PYTHON`` (not ASCII, or not a valid position): those lines are the caller's
        to read. Every other row is scored or skipped. The table is kept, as for :meth:`solve`."""
        k = self.kernel
        row = k.ROW
        rows: IntArray
        text: ByteArray
        out: OutBytes
        # An answer is a valid position's moves (at most one a cell), a space, the score (at
        # most 2 digits and a sign: |score| <= cells / 2 <= 31) and a newline.
        space = count * (self.width * self.height + 5)
        if self.compiled:
            import numpy as np

            text = np.frombuffer(data, dtype=np.uint8)  # read only, not copied
            rows = np.zeros(count * row, dtype=np.int64)
            out = np.empty(space, dtype=np.uint8)
        else:
            text, rows, out = data, [0] * (count * row), bytearray(space)
        python: list[int] = []
        if k.parse_lines(text, count, self.first_batch_ply, weak, self._mem, rows):
            for i, status in enumerate(rows[k.R_STATUS :: row]):
                at = i * row
                if status == k.LINE_PYTHON:
                    python.append(i)
                elif status == k.LINE_EARLY:
                    current, mask, ply = (int(v) for v in rows[at + k.R_CURRENT : at + k.R_PLY + 1])
                    rows[at + k.R_SCORE] = self._score(current, mask, ply, weak)[0]
                    rows[at + k.R_STATUS] = k.LINE_SCORED
        self._start_call()
        self.nodes += int(k.solve_rows(rows, count, weak, self._mem))
        self._check_budget()
        size = int(k.format_rows(text, rows, count, out))
        return rows, out, size, python

    def solve_many(
        self, positions: Sequence[Position], *, weak: bool = False, best_moves: bool = False
    ) -> list[SearchResult[int]]:
        """Solve many positions: the book and finished games answer first, and every other
        position is searched in one kernel call, with no Python between two positions.

        The table is kept between the positions, as for :meth:`solve`. Each result's nodes are
        its own; its elapsed time is the batch's spread evenly over the positions (a position's
        own time needs :meth:`solve`). A position that does not parse, or is not of this board
        size, raises before anything is solved."""
        started = time.perf_counter()
        states = [self.position(p) for p in positions]
        # (score, nodes, from the book) of each running position; finished games keep None.
        found: list[tuple[int, int, bool] | None] = [None] * len(states)
        searched: list[int] = []
        for i, state in enumerate(states):
            if _over(state) is not None:
                continue
            booked = self.book_score(state.current, state.mask)
            if booked is None:
                searched.append(i)
                continue
            if weak:
                booked = (booked > 0) - (booked < 0)
            found[i] = (booked, 0, True)
        if searched:
            scores, nodes = self.solve_batch(
                [(states[i].current, states[i].mask, states[i].ply) for i in searched],
                weak=weak,
                fresh=False,
            )
            for i, score, count in zip(searched, scores, nodes, strict=True):
                found[i] = (score, count, False)
        answers: list[tuple[int, int, bool, tuple[int, ...]]] = []
        for state, entry in zip(states, found, strict=True):
            if entry is None:
                answers.append((0, 0, False, ()))
                continue
            score, count, booked = entry
            moves: tuple[int, ...] = ()
            if best_moves:
                moves, extra = self._best_moves(state, score, weak)
                count += extra
            answers.append((score, count, booked, moves))
        share = (time.perf_counter() - started) / len(states) if states else 0.0
        return [
            solved(
                state, score, weak=weak, best_moves=moves, nodes=count, elapsed=share,
                booked=booked,
            )
            for state, (score, count, booked, moves) in zip(states, answers, strict=True)
        ]  # fmt: skip


def _table_array(words: int) -> IntArray:
    """A zeroed int64 array of ``words`` for the transposition table.

    On Linux it is an anonymous mapping advised to use transparent huge pages: the table is
    probed at random, and with 2 MiB pages both its first touch (32 page faults for 64 MiB
    instead of 16,384) and the TLB misses of every probe are cheaper. Elsewhere, ``numpy.zeros``.
    """
    import numpy as np

    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None or not hasattr(mmap, "MAP_ANONYMOUS"):
        return np.zeros(words, dtype=np.int64)
    buffer = mmap.mmap(-1, words * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    with contextlib.suppress(OSError):  # without transparent huge pages: small pages
        buffer.madvise(advice)
    return np.frombuffer(buffer, dtype=np.int64)


def _over(state: Connect4State) -> int | None:
    """The score of a finished game for the side to move (it lost, or drew), else ``None``."""
    if state.winner is not None:
        return score_bounds(state.ply - 1, state.width, state.height)[1] * -1
    if state.is_full():
        return 0
    return None


_DEFAULT: dict[tuple[int, int, bool | None], Connect4Solver] = {}


def default_solver(
    width: int = 7, height: int = 6, *, compiled: bool | None = None
) -> Connect4Solver:
    """A shared solver per board size (its table persists between calls)."""
    key = (width, height, compiled)
    solver = _DEFAULT.get(key)
    if (
        solver is not None
        and compiled is None
        and not solver.compiled
        and kernel_module(None).COMPILED  # built in the background meanwhile (solvers.kernels)
    ):
        solver = None
    if solver is None:
        solver = Connect4Solver(width, height, compiled=compiled)
        _DEFAULT[key] = solver
    return solver
