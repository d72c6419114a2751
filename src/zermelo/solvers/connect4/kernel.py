"""The hot kernel of the Connect Four solver: plain integer code that numba compiles.

Everything here works on 64-bit integers and flat integer arrays so that numba can compile it
(``nopython`` mode); without numba the same functions run as ordinary Python on Python ints and
lists. See :mod:`zermelo.games.connect4` for the bit layout. A position is ``current`` (stones of
the side to move), ``mask`` (all stones) and ``nb`` (stones played).

Scores follow the benchmark files: from the side to move, 0 for a draw, ``(W*H + 1 - n) // 2`` for
a win with the stone played when ``n`` stones are on the board (so on 7x6, 22 minus the winner's
stone count), negative for a loss.

Every function works on one array, ``mem`` (one array rather than three: a recursive call of a
compiled function passes each array as seven machine words, and passing one array instead of
three halves the cost of a call). Its areas:

``[0, WORK_SIZE)`` work: counters and scratch: node count, table generation, node budget and
         whether it ran out (the search then unwinds at once, storing nothing, and its result
         means nothing), the ply below which mirror positions share entries, the empty cells a
         node needs for enhanced cutoffs, the empty cells at or below which nodes skip the table
         and the ordering, the table's bucket mask, and per ply the columns being searched with
         their ordering scores and the winning cells each move leaves (from ``MOVES``; the child
         reuses them as its opponent's).
``[GEO_BASE, GEO_BASE + GEO_SIZE)`` geo: board constants: width, height, bottom row, playable
         cells, the column search order (from ``ORDER``) and the column masks (from ``COLUMNS``).
``[TT_BASE, ...)`` the transposition table, buckets of two slots of two words: the position's
         canonical code, then ``generation << 32 | stones << 24 | (lower + 64) << 16 |
         (upper + 64) << 8 | (best column + 1)``.
         A slot counts only when both its code and its generation match, so starting a new
         generation empties the table in O(1). Bounds of a position do not depend on the root,
         so entries of the current generation stay valid from one solve to the next.
"""

from __future__ import annotations

from zermelo.core.jit import (
    ByteArray,
    IntArray,
    OutBytes,
    make_borrow,
    make_jit,
    make_popcount,
    make_prefetch,
    numba_available,
    numba_disabled,
)
from zermelo.solvers.connect4 import aot

_PLAIN = numba_disabled() or bool(globals().get("FORCE_PURE", False))
_AHEAD = None if _PLAIN else aot.load()
COMPILED: bool = not _PLAIN and (_AHEAD is not None or numba_available())
"""Whether this copy of the kernel is compiled (the pure copy sets ``FORCE_PURE`` first)."""
AHEAD_OF_TIME: bool = _AHEAD is not None
"""Whether the entry points come from the ahead-of-time extension (:mod:`.aot`), not numba."""

jit = make_jit(COMPILED and not AHEAD_OF_TIME)
borrow = make_borrow(COMPILED and not AHEAD_OF_TIME)
prefetch = make_prefetch(COMPILED and not AHEAD_OF_TIME)
PREFETCH: bool = COMPILED
"""Whether nodes ask for their children's table buckets ahead (numba freezes this global into
the compiled code; the plain copy skips the work, which only pays for itself in compiled code)."""

GEO_SIZE = 40

# work layout
W_NODES = 0
W_GENERATION = 1
W_SYMMETRY = 2
W_ETC_DEPTH = 3
W_ETC_PLY = 4
W_ETC_LEVELS = 5
W_NODE_LIMIT = 6
W_ABORTED = 7
W_SHALLOW = 8
W_BUCKETS = 9
MOVES = 64
PLY_SLOTS = 48  # per ply: 16 columns, 16 ordering scores, 16 winning-cell sets
WORK_SIZE = MOVES + PLY_SLOTS * 64
# geo layout (after the work area)
GEO_BASE = WORK_SIZE
G_WIDTH = GEO_BASE + 0
G_HEIGHT = GEO_BASE + 1
G_BOTTOM = GEO_BASE + 2
G_BOARD = GEO_BASE + 3
G_ODD_ROWS = GEO_BASE + 4
ORDER = GEO_BASE + 8
COLUMNS = GEO_BASE + 24
TT_BASE = 4096
"""Where the transposition table starts in the one array (after the work area and geo)."""

HASH_MULTIPLIER = 0x9E3779B97F4A7C1
HASH_SHIFT = 40
SCORE_OFFSET = 64
NO_SCORE = -1000

_NEGAMAX_SIGNATURE = "int64(int64, int64, int64, int64, int64, int64, int64[::1])"


popcount = make_popcount(COMPILED and not AHEAD_OF_TIME)


@jit(inline=True)
def winning_cells(stones: int, height: int, board: int) -> int:
    """Playable-board cells that would complete four in a row for ``stones`` (taken or not).

    Only left shifts may overflow 64 bits, and their high bits are masked off by ``board``, so the
    compiled and the plain versions agree."""
    cells = (stones << 1) & (stones << 2) & (stones << 3)
    # horizontal, then the two diagonals (written out: a loop over a tuple is slow in Python)
    shift = height + 1
    pair = (stones << shift) & (stones << (2 * shift))
    cells |= pair & ((stones << (3 * shift)) | (stones >> shift))
    pair = (stones >> shift) & (stones >> (2 * shift))
    cells |= pair & ((stones << shift) | (stones >> (3 * shift)))
    shift = height
    pair = (stones << shift) & (stones << (2 * shift))
    cells |= pair & ((stones << (3 * shift)) | (stones >> shift))
    pair = (stones >> shift) & (stones >> (2 * shift))
    cells |= pair & ((stones << shift) | (stones >> (3 * shift)))
    shift = height + 2
    pair = (stones << shift) & (stones << (2 * shift))
    cells |= pair & ((stones << (3 * shift)) | (stones >> shift))
    pair = (stones >> shift) & (stones >> (2 * shift))
    cells |= pair & ((stones << shift) | (stones >> (3 * shift)))
    return cells & board


@jit()
def mirror(code: int, width: int, height: int) -> int:
    """``code`` with its columns in reverse order."""
    step = height + 1
    column = (1 << step) - 1
    result = 0
    for c in range(width):
        result |= ((code >> (c * step)) & column) << ((width - 1 - c) * step)
    return result


@jit()
def has_alignment(stones: int, height: int) -> bool:
    step = height + 1
    for shift in (1, step, step - 1, step + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@jit(inline=True)
def bucket(mem: IntArray, key: int) -> int:
    """Where ``key``'s bucket starts in the one array."""
    base: int = TT_BASE + ((((key * HASH_MULTIPLIER) >> HASH_SHIFT) & mem[W_BUCKETS]) << 2)
    return base


@jit(inline=True)
def probe(mem: IntArray, key: int) -> int:
    """The data word stored for ``key`` in the current generation, or -1."""
    base = bucket(mem, key)
    if mem[base] == key:
        data: int = mem[base + 1]
        if (data >> 32) == mem[W_GENERATION]:
            return data
    if mem[base + 2] == key:
        data = mem[base + 3]
        if (data >> 32) == mem[W_GENERATION]:
            return data
    return -1


@jit(inline=True)
def store(mem: IntArray, key: int, data: int, nb: int) -> None:
    """Keep ``data`` for ``key`` in its bucket of two slots.

    The first slot keeps the entry nearest the root (fewest stones: the most work saved), the
    second takes whatever the first refuses; an entry pushed out of the first slot moves to the
    second."""
    base = bucket(mem, key)
    generation = mem[W_GENERATION]
    first_key = mem[base]
    first = mem[base + 1]
    first_live = (first >> 32) == generation
    if first_key == key or not first_live or nb <= ((first >> 24) & 255):
        if first_live and first_key != key:
            mem[base + 2] = first_key
            mem[base + 3] = first
        mem[base] = key
        mem[base + 1] = data
    else:
        mem[base + 2] = key
        mem[base + 3] = data


@jit(inline=True)
def canonical(code: int, nb: int, width: int, height: int, symmetry: int) -> int:
    """The smaller of ``code`` and its mirror image when ``nb < symmetry`` (mirror positions
    mostly meet early in the game, and the mirror costs time); negative when mirrored."""
    if nb < symmetry:
        image = mirror(code, width, height)
        if image < code:
            return -image - 1
    return code


@jit(inline=True)
def bisection_middle(low: int, high: int) -> int:
    """The score a bisection of ``[low, high]`` (``low < high``) tests next with a null window:
    halfway, but 0 and halfway to the ends first, since most scores are small. ``low`` is at
    most the result and the result is below ``high``."""
    middle = low + (high - low) // 2
    if middle <= 0 and -((-low) // 2) < middle:
        middle = -((-low) // 2)
    elif middle >= 0 and high // 2 > middle:
        middle = high // 2
    return middle


@jit(_NEGAMAX_SIGNATURE)
def negamax(
    current: int, mask: int, nb: int, alpha: int, beta: int, opponent_wins: int, mem: IntArray
) -> int:  # fmt: skip
    """Fail-soft alpha-beta on the exact score.

    Precondition: the side to move cannot win at once. ``opponent_wins`` is
    ``winning_cells(current ^ mask, height, board)``: the caller computes it (when ordering its
    moves it has it already). It is never a constant: numba would compile a variant for it that
    its cache cannot load back. Returns ``s`` with: ``s <= alpha`` implies
    value ``<= s``; ``s >= beta`` implies value ``>= s``; otherwise ``s`` is the value.
    """
    mem[W_NODES] += 1
    if mem[W_NODES] > mem[W_NODE_LIMIT]:
        mem[W_ABORTED] = 1
        return 0
    width: int = mem[G_WIDTH]
    height: int = mem[G_HEIGHT]
    board: int = mem[G_BOARD]
    cells = width * height
    possible = (mask + mem[G_BOTTOM]) & board
    opponent = current ^ mask
    threats = opponent_wins & ~mask
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return -((cells - nb) // 2)  # two threats at once: the opponent wins next move
        possible = forced
    candidates = possible & ~(threats >> 1)  # never play just below an opponent's threat
    if candidates == 0:
        return -((cells - nb) // 2)
    if nb >= cells - 2:
        return 0
    lowest = -((cells - 2 - nb) // 2)  # we survive the opponent's next move
    highest = (cells - 1 - nb) // 2  # we cannot win with the coming move
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return alpha
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return beta

    if candidates & (candidates - 1) == 0:
        # One move left that does not lose at once: play it without ordering or table (its
        # child has the table entry). Forced replies are frequent, so this saves much.
        wins = winning_cells(current | candidates, height, board)
        return -negamax(opponent, mask | candidates, nb + 1, -beta, -alpha, wins, mem)
    if cells - nb <= mem[W_SHALLOW]:
        # Near the end the subtrees are small: a table probe (a cache miss) and the ordering cost
        # more than the few nodes they save, so search in plain centre-first order.
        best = NO_SCORE
        for i in range(width):
            move = candidates & mem[COLUMNS + mem[ORDER + i]]
            if move:
                wins = winning_cells(current | move, height, board)
                score = -negamax(opponent, mask | move, nb + 1, -beta, -alpha, wins, mem)
                if mem[W_ABORTED]:
                    return 0
                if score > best:
                    best = score
                    if score >= beta:
                        break
                    alpha = max(alpha, score)
        return best

    signed_key = canonical(current + mask, nb, width, height, mem[W_SYMMETRY])
    flipped = signed_key < 0
    key = -signed_key - 1 if flipped else signed_key
    data = probe(mem, key)
    table_column = -1
    known_low = lowest
    known_high = highest
    if data >= 0:
        known_low = ((data >> 16) & 255) - SCORE_OFFSET
        known_high = ((data >> 8) & 255) - SCORE_OFFSET
        if known_low >= beta:
            return known_low
        if known_high <= alpha:
            return known_high
        alpha = max(alpha, known_low)
        beta = min(beta, known_high)
        if alpha >= beta:
            return alpha
        table_column = (data & 255) - 1
        if flipped and table_column >= 0:
            table_column = width - 1 - table_column

    # Enhanced transposition cutoff: in the top levels of a big search, a child already known
    # to be bad enough for the opponent ends the search before any child is searched.
    if nb < mem[W_ETC_PLY] and cells - nb >= mem[W_ETC_DEPTH]:
        # All the children's buckets are requested first, so that their cache misses overlap
        # instead of following one another; their codes wait in this ply's scratch slots.
        scratch = MOVES + nb * PLY_SLOTS + 16
        for column in range(width):
            move = candidates & mem[COLUMNS + column]
            if move:
                child_key = canonical(
                    opponent + (mask | move), nb + 1, width, height, mem[W_SYMMETRY]
                )
                if child_key < 0:
                    child_key = -child_key - 1
                mem[scratch + column] = child_key
                prefetch(mem, bucket(mem, child_key))
        for column in range(width):
            if candidates & mem[COLUMNS + column]:
                child = probe(mem, mem[scratch + column])
                if child >= 0:
                    bound = -(((child >> 8) & 255) - SCORE_OFFSET)
                    if bound >= beta:
                        return bound

    best = NO_SCORE
    best_column = -1
    floor = alpha
    # The table's move first, before ordering the others: when it cuts off, ordering is saved.
    if table_column >= 0 and candidates & mem[COLUMNS + table_column]:
        move = candidates & mem[COLUMNS + table_column]
        candidates ^= move
        wins = winning_cells(current | move, height, board)
        best = -negamax(opponent, mask | move, nb + 1, -beta, -floor, wins, mem)
        if mem[W_ABORTED]:
            return 0  # over budget: unwind without storing anything
        best_column = table_column
        floor = max(floor, best)

    if best < beta:
        # Order the other candidates by the threats the move creates (3 per winning cell, 2 more
        # when one can be played at once); ties keep the centre-first column order.
        base = MOVES + nb * PLY_SLOTS
        count = 0
        mine_after_free = ~mask
        for i in range(width):
            column = mem[ORDER + i]
            move = candidates & mem[COLUMNS + column]
            if move:
                child_mask = mask | move
                if PREFETCH and cells - nb - 1 > mem[W_SHALLOW]:
                    # Ask for the child's table bucket now: scoring the other moves hides part of
                    # the wait for memory that probing it would cost.
                    child_key = canonical(
                        opponent + child_mask, nb + 1, width, height, mem[W_SYMMETRY]
                    )
                    if child_key < 0:
                        child_key = -child_key - 1
                    prefetch(mem, bucket(mem, child_key))
                wins = winning_cells(current | move, height, board)
                created = wins & mine_after_free & ~move
                after = (child_mask + mem[G_BOTTOM]) & board
                score = 3 * popcount(created) + (2 if created & after else 0)
                j = count
                while j > 0 and mem[base + 16 + j - 1] < score:
                    mem[base + j] = mem[base + j - 1]
                    mem[base + 16 + j] = mem[base + 16 + j - 1]
                    mem[base + 32 + j] = mem[base + 32 + j - 1]
                    j -= 1
                mem[base + j] = column
                mem[base + 16 + j] = score
                mem[base + 32 + j] = wins
                count += 1

        for k in range(count):
            column = mem[base + k]
            move = candidates & mem[COLUMNS + column]
            score = -negamax(opponent, mask | move, nb + 1, -beta, -floor, mem[base + 32 + k], mem)
            if mem[W_ABORTED]:
                return 0  # over budget: unwind without storing anything
            if score > best:
                best = score
                best_column = column
                if score >= beta:
                    break
                floor = max(floor, score)

    if best >= beta:
        known_low = max(known_low, best)
    elif best <= alpha:
        known_high = min(known_high, best)
    else:
        known_low = best
        known_high = best
    if flipped and best_column >= 0:
        best_column = width - 1 - best_column
    data = (
        (mem[W_GENERATION] << 32)
        | (nb << 24)
        | ((known_low + SCORE_OFFSET) << 16)
        | ((known_high + SCORE_OFFSET) << 8)
        | (best_column + 1)
    )
    store(mem, key, data, nb)
    return best


@jit()
def solve(current: int, mask: int, nb: int, weak: bool, mem: IntArray) -> int:
    """The exact score of a position that is not over (weak: only its sign, -1, 0 or 1).

    Null-window searches bisect the range of possible scores, trying 0 and halfway to the ends
    first, since most scores are small."""
    mem = borrow(mem)
    height: int = mem[G_HEIGHT]
    board: int = mem[G_BOARD]
    cells: int = mem[G_WIDTH] * height
    possible = (mask + mem[G_BOTTOM]) & board
    if winning_cells(current, height, board) & possible:
        return 1 if weak else (cells + 1 - nb) // 2
    if nb >= cells - 1:
        return 0
    mem[W_ETC_PLY] = nb + mem[W_ETC_LEVELS]
    threats = winning_cells(current ^ mask, height, board)
    low = -((cells - nb) // 2)
    high = (cells + 1 - nb) // 2
    if weak:
        low = -1
        high = 1
    while low < high:
        middle = bisection_middle(low, high)
        result = negamax(current, mask, nb, middle, middle + 1, threats, mem)
        if mem[W_ABORTED]:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
    if weak:
        return 1 if low > 0 else (-1 if high < 0 else 0)
    return low


@jit()
def solve_many(
    currents: IntArray,
    masks: IntArray,
    plies: IntArray,
    weak: bool,
    fresh: bool,
    mem: IntArray,
    scores: IntArray,
    nodes: IntArray,
) -> None:
    """Solve a batch of positions in one call (no Python between them); ``fresh`` starts a new
    table generation before each."""
    mem = borrow(mem)
    for i in range(len(currents)):
        if fresh:
            mem[W_GENERATION] += 1
        mem[W_NODES] = 0
        scores[i] = solve(currents[i], masks[i], plies[i], weak, mem)
        nodes[i] = mem[W_NODES]


@jit()
def at_most(current: int, mask: int, nb: int, bound: int, mem: IntArray) -> bool:
    """Whether the score of a running position is at most ``bound`` (one null-window search)."""
    mem = borrow(mem)
    height: int = mem[G_HEIGHT]
    board: int = mem[G_BOARD]
    cells: int = mem[G_WIDTH] * height
    possible = (mask + mem[G_BOTTOM]) & board
    if winning_cells(current, height, board) & possible:
        return (cells + 1 - nb) // 2 <= bound
    if nb >= cells - 1:
        return bound >= 0
    mem[W_ETC_PLY] = nb + mem[W_ETC_LEVELS]
    return negamax(
        current, mask, nb, bound, bound + 1, winning_cells(current ^ mask, height, board), mem,
    ) <= bound  # fmt: skip


# Batch lines: one row of ``ROW`` words per input line (see :func:`parse_lines`).
ROW = 8
R_STATUS = 0
R_START = 1
R_END = 2
R_CURRENT = 3
R_MASK = 4
R_PLY = 5
R_SCORE = 6
R_OUT = 7
LINE_SKIP = 0
"""A blank line or a comment: no answer."""
LINE_SCORED = 1
"""A position whose score is in ``R_SCORE`` (a finished game's from the start)."""
LINE_RUNNING = 2
"""A running position for :func:`solve_rows`."""
LINE_PYTHON = 3
"""A line the kernel leaves to Python: not ASCII, or not a valid position (Python words why)."""
LINE_EARLY = 4
"""A valid running position with fewer stones than ``first_search``: Python scores it."""


@jit(inline=True)
def _blank(byte: int) -> bool:
    """Whether an ASCII byte is whitespace to ``str.split`` (tab to carriage return, the four
    separators and space)."""
    return 9 <= byte <= 13 or 28 <= byte <= 32


@jit()
def parse_lines(
    text: ByteArray, count: int, first_search: int, weak: bool, mem: IntArray, rows: IntArray
) -> int:  # fmt: skip
    """Read ``count`` lines of ``text`` (bytes, each line ended by a newline, none inside a
    line) into ``rows``, as ``str.strip`` and ``str.split`` would read them: a line's first
    word is its position; a line with no word, or whose word starts with ``#``, is skipped.

    Each row gets its status (``LINE_*``), where the word starts and ends in ``text``, and for
    a valid position its bitboards and ply. A finished game (won by the last move, or a full
    board) is scored at once: lost by the side to move, or drawn (weak: -1 or 0). A line with a
    byte outside ASCII before its word ends, or whose word is not a valid position, is left to
    Python (``LINE_PYTHON``): its words need Unicode, or its error message. Returns how many
    rows are ``LINE_PYTHON`` or ``LINE_EARLY``."""
    mem = borrow(mem)
    width: int = mem[G_WIDTH]
    height: int = mem[G_HEIGHT]
    cells = width * height
    step = height + 1
    length = len(text)
    left = 0
    pos = 0
    for line in range(count):
        row = line * ROW
        start = pos
        while start < length and text[start] != 10 and _blank(text[start]):
            start += 1
        end = start
        while end < length and text[end] != 10 and text[end] < 128 and not _blank(text[end]):
            end += 1
        stop = end
        while stop < length and text[stop] != 10:
            stop += 1
        pos = stop + 1
        rows[row + R_START] = start
        rows[row + R_END] = end
        rows[row + R_STATUS] = LINE_SKIP
        if end < length and text[end] >= 128:
            rows[row + R_STATUS] = LINE_PYTHON
        elif end > start and text[start] != 35:  # 35: "#"
            current = 0
            mask = 0
            won = False
            valid = True
            for j in range(start, end):
                column = int(text[j]) - 49  # 49: "1"
                if (
                    won
                    or column < 0
                    or column >= width
                    or (mask >> (column * step + height - 1)) & 1
                ):
                    valid = False  # Python says which move is wrong, and why
                    break
                current ^= mask
                mask |= mask + (1 << (column * step))
                won = has_alignment(current ^ mask, height)
            if not valid:
                rows[row + R_STATUS] = LINE_PYTHON
            else:
                ply = end - start
                rows[row + R_CURRENT] = current
                rows[row + R_MASK] = mask
                rows[row + R_PLY] = ply
                if won:
                    rows[row + R_STATUS] = LINE_SCORED
                    rows[row + R_SCORE] = -1 if weak else -((cells + 2 - ply) // 2)
                elif ply == cells:
                    rows[row + R_STATUS] = LINE_SCORED
                    rows[row + R_SCORE] = 0
                elif ply < first_search:
                    rows[row + R_STATUS] = LINE_EARLY
                else:
                    rows[row + R_STATUS] = LINE_RUNNING
        if rows[row + R_STATUS] >= LINE_PYTHON:  # LINE_PYTHON or LINE_EARLY
            left += 1
    return left


@jit()
def solve_rows(rows: IntArray, count: int, weak: bool, mem: IntArray) -> int:
    """Solve every ``LINE_RUNNING`` row of the first ``count`` rows (see :func:`parse_lines`)
    and mark it ``LINE_SCORED``, with no Python between two positions; returns the nodes
    searched. Over the node limit, stops at once, leaving that row running."""
    mem = borrow(mem)
    total = 0
    for line in range(count):
        row = line * ROW
        if rows[row + R_STATUS] == LINE_RUNNING:
            mem[W_NODES] = 0
            score = solve(rows[row + R_CURRENT], rows[row + R_MASK], rows[row + R_PLY], weak, mem)
            total += mem[W_NODES]
            if mem[W_ABORTED]:
                break
            rows[row + R_SCORE] = score
            rows[row + R_STATUS] = LINE_SCORED
    return total


@jit()
def format_rows(text: ByteArray, rows: IntArray, count: int, out: OutBytes) -> int:
    """Write ``WORD SCORE`` and a newline into ``out`` for every ``LINE_SCORED`` row of the first
    ``count``, in order; each row's ``R_OUT`` is where the answers up to it end. ``out`` needs
    ``count * (cells + 5)`` bytes. Returns the bytes written."""
    size = 0
    for line in range(count):
        row = line * ROW
        if rows[row + R_STATUS] == LINE_SCORED:
            for j in range(rows[row + R_START], rows[row + R_END]):
                out[size] = text[j]
                size += 1
            out[size] = 32
            size += 1
            score = rows[row + R_SCORE]
            if score < 0:
                out[size] = 45  # "-"
                size += 1
                score = -score
            digits = 1
            power = 10
            while power <= score:
                power *= 10
                digits += 1
            for d in range(digits):
                out[size + digits - 1 - d] = 48 + score % 10
                score //= 10
            size += digits
            out[size] = 10
            size += 1
        rows[row + R_OUT] = size
    return size


if _AHEAD is not None:
    # The same functions compiled ahead of time: numba is never imported.
    solve = _AHEAD.solve
    solve_many = _AHEAD.solve_many
    at_most = _AHEAD.at_most
    mirror = _AHEAD.mirror
    has_alignment = _AHEAD.has_alignment
    canonical = _AHEAD.canonical
    parse_lines = _AHEAD.parse_lines
    solve_rows = _AHEAD.solve_rows
    format_rows = _AHEAD.format_rows
elif COMPILED:
    aot.build_in_background()
