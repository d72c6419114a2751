"""The draughts search kernel: principal-variation search over the games' own move generator.

One source for international draughts and Turkish dama: the move generator
(:func:`zermelo.games.draughts.kernel.gen_moves`) reads the game from its rules table, and the
evaluation reads it from the geometry array that :func:`zermelo.solvers.draughts.evaluation.geometry`
builds from the :class:`~zermelo.games.draughts.rules.Rules`. Compiled by numba when it is
installed; the plain copy (``FORCE_PURE``, see :func:`zermelo.core.jit.kernel_variant`) runs the
plain copy of the move generator. The Python front is :mod:`zermelo.solvers.draughts.engine`.

Squares are 0-based bits of int64 masks (dama's h8 is the sign bit when compiled; plain masks are
non-negative ints below 2**64): code here only tests masks against 0, so both readings agree.
Sides: White 0, Black 1.

A position is ``POS_SIZE`` words of ``stack``; the one ``ply`` half-moves below the root starts at
``ply * POS_SIZE`` (copy-make)::

    0 White's pieces   1 Black's pieces   2 kings (both colours)   3 side to move
    4 Zobrist hash     5 plies since a man moved or a piece was taken (what a repetition spans)

A move is the generator's triple ``(from, to, captured mask)``; ``moves`` holds ``MAX_MOVES``
triples per ply, ``order`` their ordering scores. The transposition table holds three words per
slot: the hash, ``from | to << 7 | depth << 14 | bound << 21 | (score + SCORE_OFFSET) << 24``
(scores of wins stored relative to the node) and the move's captured mask. ``work`` holds the
counters, the stop flag, the node limit, the switches, the game's earlier hashes, killer moves,
the history table and the triangular principal-variation table (``W_*`` and ``*_BASE``).

The endgame database (:mod:`zermelo.solvers.draughts.egdb`, international draughts only): with
the switch ``SW_EGDB`` on, a node below the root with at most ``EGDB_PIECES`` pieces (both sides
having some) is not searched but looked up, every position of the database being exact whether a
capture is pending or not: a win scores ``DB_WIN - ply`` (a nearer conversion preferred), a draw
0, a loss the negation. These are estimates to the faces (inside ``EVAL_LIMIT``), beyond every
evaluation (``±EVAL_CAP``). The front turns the switch off when the root itself is that small
(the values have no distance: every winning move would score the same) and for dama, which has
no database (it passes placeholder arrays then). The database's arrays ``binom``, ``data`` and
``offsets`` (``egdb_data`` here) follow ``features`` in :func:`quiesce` and :func:`negamax`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zermelo.core import jit as _jit
from zermelo.core.jit import (
    NUMBA_AVAILABLE,
    kernel_variant,
    make_jit,
    make_popcount,
    numba_disabled,
)
from zermelo.core.scores import EVAL_LIMIT, WIN
from zermelo.games.draughts import kernel as _movegen
from zermelo.games.draughts.rules import T_BOARD, T_MAN_STEPS, T_NDIRS, T_OPPOSITE
from zermelo.solvers.draughts import egdb as _egdb

if TYPE_CHECKING:
    from zermelo.core.jit import ByteArray, FloatArray, IntArray

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy of the kernel is compiled (the plain copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)

MOVEGEN = _movegen if COMPILED else kernel_variant(_movegen, False, "draughts move generator")
"""The move generator this copy calls: the compiled one, or its plain copy."""

EGDB = _egdb if COMPILED or not _egdb.COMPILED else kernel_variant(_egdb, False, "endgame database")
"""The endgame database module this copy probes with: the compiled one, or its plain copy."""
probe_kernel = EGDB.probe_kernel


class _MoveGeneratorFirst:
    """The head of this kernel's queue for :func:`zermelo.core.jit.finish`: the move generator's
    recursive functions wait for their explicit signatures too, and compiled first by inference,
    as callees of this kernel, they leave entries in numba's cache that crash a later process. So
    finishing this kernel compiles theirs first (under ``finish``'s lock, which it holds)."""

    def __init__(self) -> None:
        self.py_func = gen_moves_first

    def compile(self, signature: str) -> None:
        waiting = _jit._PENDING.get(_movegen.__name__, [])
        while waiting:
            dispatcher, own = waiting[0]
            dispatcher.compile(own)
            dispatcher.disable_compile()
            waiting.pop(0)

    def disable_compile(self) -> None:
        return None


def gen_moves_first() -> None:
    """The name :func:`zermelo.core.jit.finish` reports for :class:`_MoveGeneratorFirst`."""


if COMPILED:
    _jit._PENDING.setdefault(__name__, []).append((_MoveGeneratorFirst(), ""))

gen_moves_with = MOVEGEN.gen_moves_with
has_capture = MOVEGEN.has_capture
_shift = MOVEGEN.shift

MAX_MOVES: int = int(MOVEGEN.MAX_MOVES)
SCRATCH_SIZE: int = int(MOVEGEN.STACK_WORDS)
MAX_PLY = 96
POS_SIZE = 8
P_WHITE, P_BLACK, P_KINGS, P_SIDE, P_HASH, P_QUIET = 0, 1, 2, 3, 4, 5
STACK_SIZE = (MAX_PLY + 4) * POS_SIZE
ORDER_SIZE = (MAX_PLY + 4) * MAX_MOVES
MOVES_SIZE = 3 * ORDER_SIZE

INFINITY = WIN + 1
MATE_BOUND = WIN - 1000
"""Scores beyond ``±MATE_BOUND`` are wins and losses (``WIN - plies``)."""
EVAL_CAP = 100_000
"""Evaluations stay inside ``±EVAL_CAP``."""
DB_WIN = 900_000
"""A win the endgame database knows scores ``DB_WIN - ply`` (no distance to the end known)."""
DB_BOUND = DB_WIN - 1000
"""Scores beyond ``±DB_BOUND`` are decided: by the database, or beyond ``±MATE_BOUND`` a win."""
EGDB_PIECES: int = int(EGDB.MAX_PIECES)
"""Nodes with at most this many pieces are looked up in the database."""
assert EVAL_CAP < DB_BOUND and DB_WIN < EVAL_LIMIT
SCORE_OFFSET = 1 << 22
TT_WORDS = 3
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 1, 2, 3
NO_MOVE = 127 | 127 << 7

W_NODES = 0
W_STOP = 1
W_NODE_LIMIT = 2
W_SELDEPTH = 3
W_HISTORY_LENGTH = 4
W_QNODES = 5
W_SWITCHES = 6
KILLER_BASE = 16
HISTORY_BASE = KILLER_BASE + 2 * (MAX_PLY + 4)
PV_LENGTH_BASE = HISTORY_BASE + 2 * 64 * 64
PV_ROW = 3 * (MAX_PLY + 4)
PV_BASE = PV_LENGTH_BASE + MAX_PLY + 4
GAME_BASE = PV_BASE + (MAX_PLY + 4) * PV_ROW
GAME_SIZE = 1024
"""Up to this many earlier positions of the game are kept for repetition checks."""
WORK_SIZE = GAME_BASE + GAME_SIZE

HISTORY_LIMIT = 1 << 20
SCORE_TT_MOVE = 1 << 30
SCORE_CAPTURE = 1 << 28
SCORE_PROMOTION = 1 << 27
SCORE_KILLER1 = 1 << 26
SCORE_KILLER2 = (1 << 26) - 1

# switches of the search (bits of work[W_SWITCHES]): all on in play; off, for a test against a
# plain reference or to measure what one is worth
SW_TT_CUTOFFS = 1
SW_TT_MOVE = 2
SW_KILLERS = 4
SW_HISTORY = 8
SW_REDUCTIONS = 16
SW_EGDB = 32
"""Probe the endgame database (the front clears it where it has none or the root is in it)."""
SW_ALL = 63

# the geometry array (built by evaluation.geometry from the Rules): per side (0, 1) and square
G_RANK = 0
"""Rows a square is from the side's own back row."""
G_STEP = 128
"""The squares a man of the side on the square steps to."""
G_SUPPORT = 256
"""The squares behind a man that cover it from a capture from the front."""
G_CONE = 384
"""The squares ahead of a man from which an enemy piece could stop it (its path widening)."""
G_CENTRE = 512
G_PROMOTION = 513
"""Two words: the row where White's men are crowned, Black's."""
G_BACK = 515
"""Two words: White's back row, Black's."""
G_SIZE = 517
G_PIECES = 518
"""Pieces at the start (the phase's full count)."""
G_ZOBRIST = 520
"""Per piece kind (White man, White king, Black man, Black king) 64 keys, then the side key."""
G_SIDE_KEY = G_ZOBRIST + 4 * 64
G_ROWS = G_SIDE_KEY + 1
"""Per side 16 masks: the squares ``r`` rows from the side's own back row."""
G_FAR = G_ROWS + 32
"""Two words: the half of the board beyond the middle, for White, for Black."""
GEO_SIZE = G_FAR + 2

# evaluation terms, in the order of evaluation.TERMS; features[F_PHASE] is the middle-game share
F_MEN = 0
F_KINGS = 1
F_TEMPO = 2
F_BACK = 3
F_CENTRE = 4
F_OUTPOSTS = 5
F_LOCKED = 6
F_BREAKTHROUGHS = 7
F_RUNNERS = 8
N_TERMS = 9
F_PHASE = 9
FEATURES_SIZE = 10


popcount = make_popcount(COMPILED)


@jit()
def msb(x: int) -> int:
    """Index of the highest set bit of a non-zero mask."""
    if x < 0:
        return 63
    n = 0
    if x >= 1 << 32:
        x >>= 32
        n += 32
    if x >= 1 << 16:
        x >>= 16
        n += 16
    if x >= 1 << 8:
        x >>= 8
        n += 8
    if x >= 1 << 4:
        x >>= 4
        n += 4
    if x >= 1 << 2:
        x >>= 2
        n += 2
    if x >= 2:
        n += 1
    return n


@jit()
def lsb(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return msb(x & -x)


# ---------------------------------------------------------------------------------------------
# evaluation


@jit()
def evaluate(
    table: IntArray,
    geo: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    weights: FloatArray,
    features: FloatArray,
) -> int:
    """The static evaluation in hundredths of a man from ``side``'s point of view: each term's
    feature (White's count minus Black's, written into ``features``) times its weight, tapered
    from the middle game (all pieces on) to the endgame by the share of pieces left.

    Whole-board terms are popcounts of masks (rows, centre, back row; the men with a free step
    are the empty squares shifted back along each step direction of the move generator's
    table); only the men beyond the middle are visited one by one."""
    occupied = white | black
    empty = table[T_BOARD] & ~occupied
    size = geo[G_SIZE]
    centre = geo[G_CENTRE]
    directions = table[T_NDIRS]
    men_term = 0.0
    kings_term = 0.0
    tempo_term = 0.0
    back_term = 0.0
    centre_term = 0.0
    outpost_term = 0.0
    locked_term = 0.0
    breakthrough_term = 0.0
    runner_term = 0.0
    for colour in range(2):
        sign = 1.0 if colour == 0 else -1.0
        us = white if colour == 0 else black
        them = black if colour == 0 else white
        men = us & ~kings
        men_term += sign * popcount(men)
        kings_term += sign * popcount(us & kings)
        centre_term += sign * popcount(men & centre)
        back_term += sign * popcount(men & geo[G_BACK + colour])
        tempo = 0
        for row in range(1, size):
            tempo += row * popcount(men & geo[G_ROWS + 16 * colour + row])
        steps = table[T_MAN_STEPS + colour]
        free = 0
        for d in range(directions):
            if steps >> d & 1:
                free |= _shift(table, empty, table[T_OPPOSITE + d])
        locked = popcount(men & ~free)
        outposts = 0
        breakthroughs = 0
        runners = 0
        at = colour * 64
        pieces = men & geo[G_FAR + colour]
        while pieces != 0:
            sq = lsb(pieces)
            pieces &= pieces - 1
            support = geo[G_SUPPORT + at + sq]
            if support & us == support:
                outposts += 1
            if geo[G_CONE + at + sq] & them == 0:
                runners += geo[G_RANK + at + sq]
            elif geo[G_RANK + at + sq] >= size - 4:
                breakthroughs += 1
        tempo_term += sign * tempo
        outpost_term += sign * outposts
        locked_term += sign * locked
        breakthrough_term += sign * breakthroughs
        runner_term += sign * runners
    features[F_MEN] = men_term
    features[F_KINGS] = kings_term
    features[F_TEMPO] = tempo_term
    features[F_BACK] = back_term
    features[F_CENTRE] = centre_term
    features[F_OUTPOSTS] = outpost_term
    features[F_LOCKED] = locked_term
    features[F_BREAKTHROUGHS] = breakthrough_term
    features[F_RUNNERS] = runner_term
    full = geo[G_PIECES]
    middle = min(popcount(occupied), full) / full
    features[F_PHASE] = middle
    total = 0.0
    for i in range(N_TERMS):
        total += features[i] * (weights[2 * i] * middle + weights[2 * i + 1] * (1.0 - middle))
    value = int(total)
    if value > EVAL_CAP:
        value = EVAL_CAP
    elif value < -EVAL_CAP:
        value = -EVAL_CAP
    return value if side == 0 else -value


# ---------------------------------------------------------------------------------------------
# positions


@jit()
def compute_hash(geo: IntArray, white: int, black: int, kings: int, side: int) -> int:
    """The Zobrist hash of a position, from scratch."""
    key = 0
    for colour in range(2):
        pieces = white if colour == 0 else black
        while pieces != 0:
            sq = lsb(pieces)
            pieces &= pieces - 1
            kind = colour * 2 + (1 if kings & (1 << sq) != 0 else 0)
            key ^= geo[G_ZOBRIST + kind * 64 + sq]
    if side == 1:
        key ^= geo[G_SIDE_KEY]
    result: int = key
    return result


@jit()
def set_position(
    geo: IntArray,
    stack: IntArray,
    ply: int,
    white: int,
    black: int,
    kings: int,
    side: int,
    quiet: int,
) -> None:
    """Write a position into slot ``ply`` of ``stack``."""
    base = ply * POS_SIZE
    stack[base + P_WHITE] = white
    stack[base + P_BLACK] = black
    stack[base + P_KINGS] = kings
    stack[base + P_SIDE] = side
    stack[base + P_HASH] = compute_hash(geo, white, black, kings, side)
    stack[base + P_QUIET] = quiet


@jit()
def make_move(geo: IntArray, stack: IntArray, ply: int, frm: int, to: int, captured: int) -> None:
    """Write the position after the move ``(frm, to, captured)`` into slot ``ply + 1``: the
    mover's piece goes from ``frm`` to ``to`` (the same square for a king's round trip), the
    captured pieces leave, and a man that ends on its crowning row becomes a king."""
    base = ply * POS_SIZE
    child = base + POS_SIZE
    white = stack[base + P_WHITE]
    black = stack[base + P_BLACK]
    kings = stack[base + P_KINGS]
    side = stack[base + P_SIDE]
    key = stack[base + P_HASH]
    from_bit = 1 << frm
    to_bit = 1 << to
    king = kings & from_bit != 0
    kind = side * 2 + (1 if king else 0)
    key ^= geo[G_ZOBRIST + kind * 64 + frm]
    rest = captured
    while rest != 0:
        sq = lsb(rest)
        rest &= rest - 1
        victim = (1 - side) * 2 + (1 if kings & (1 << sq) != 0 else 0)
        key ^= geo[G_ZOBRIST + victim * 64 + sq]
    kings &= ~captured
    if side == 0:
        white ^= from_bit ^ to_bit
        black &= ~captured
    else:
        black ^= from_bit ^ to_bit
        white &= ~captured
    if king:
        kings ^= from_bit ^ to_bit
    elif to_bit & geo[G_PROMOTION + side] != 0:
        kings |= to_bit
        kind += 1
    key ^= geo[G_ZOBRIST + kind * 64 + to] ^ geo[G_SIDE_KEY]
    stack[child + P_WHITE] = white
    stack[child + P_BLACK] = black
    stack[child + P_KINGS] = kings
    stack[child + P_SIDE] = 1 - side
    stack[child + P_HASH] = key
    stack[child + P_QUIET] = stack[base + P_QUIET] + 1 if king and captured == 0 else 0


@jit()
def generate(table: IntArray, stack: IntArray, moves: IntArray, ply: int, scratch: IntArray) -> int:
    """The legal moves of the position at ``ply``, written at ``moves[3 * ply * MAX_MOVES]``
    (``scratch``: the move generator's capture stack, ``SCRATCH_SIZE`` words, allocated once)."""
    base = ply * POS_SIZE
    count: int = gen_moves_with(
        table,
        stack[base + P_WHITE],
        stack[base + P_BLACK],
        stack[base + P_KINGS],
        stack[base + P_SIDE],
        moves,
        3 * ply * MAX_MOVES,
        True,
        scratch,
    )
    return count


@jit()
def is_repetition(stack: IntArray, work: IntArray, ply: int) -> bool:
    """Whether the position at ``ply`` stood before, in the search or in the game (only king
    moves without a capture lie between: nothing else can be undone)."""
    base = ply * POS_SIZE
    quiet = stack[base + P_QUIET]
    key = stack[base + P_HASH]
    game = work[W_HISTORY_LENGTH]
    back = 4
    while back <= quiet:
        earlier = ply - back
        if earlier >= 0:
            if stack[earlier * POS_SIZE + P_HASH] == key:
                return True
        else:
            index = game + earlier
            if index < 0:
                break
            if work[GAME_BASE + index] == key:
                return True
        back += 2
    return False


# ---------------------------------------------------------------------------------------------
# search


@jit()
def tt_slot(tt: IntArray, key: int) -> int:
    slots = len(tt) // TT_WORDS
    return (key & (slots - 1)) * TT_WORDS


@jit()
def tt_store(
    tt: IntArray,
    key: int,
    move: int,
    captured: int,
    depth: int,
    bound: int,
    score: int,
    ply: int,
) -> None:
    slot = tt_slot(tt, key)
    if move == NO_MOVE and tt[slot] == key:
        move = tt[slot + 1] & NO_MOVE
        captured = tt[slot + 2]
    if score > DB_BOUND:
        score += ply
    elif score < -DB_BOUND:
        score -= ply
    tt[slot] = key
    tt[slot + 1] = move | max(depth, 0) << 14 | bound << 21 | (score + SCORE_OFFSET) << 24
    tt[slot + 2] = captured


@jit()
def tt_score(data: int, ply: int) -> int:
    score = (data >> 24) - SCORE_OFFSET
    if score > DB_BOUND:
        score -= ply
    elif score < -DB_BOUND:
        score += ply
    return score


@jit()
def score_moves(
    geo: IntArray,
    stack: IntArray,
    moves: IntArray,
    order: IntArray,
    work: IntArray,
    ply: int,
    count: int,
    tt_move: int,
    tt_captured: int,
) -> None:
    """Ordering scores: the table's move, captures (kings taken first), crowning steps, killers,
    then the other steps by history."""
    base = ply * POS_SIZE
    side = stack[base + P_SIDE]
    kings = stack[base + P_KINGS]
    promotion = geo[G_PROMOTION + side]
    start = ply * MAX_MOVES
    killer1 = work[KILLER_BASE + 2 * ply]
    killer2 = work[KILLER_BASE + 2 * ply + 1]
    switches = work[W_SWITCHES]
    for i in range(start, start + count):
        frm = moves[3 * i]
        to = moves[3 * i + 1]
        captured = moves[3 * i + 2]
        move = frm | to << 7
        if move == tt_move and captured == tt_captured:
            order[i] = SCORE_TT_MOVE
        elif captured != 0:
            order[i] = SCORE_CAPTURE + 16 * popcount(captured & kings) + popcount(captured)
        elif (1 << to) & promotion != 0 and kings & (1 << frm) == 0:
            order[i] = SCORE_PROMOTION
        elif move == killer1 and switches & SW_KILLERS != 0:
            order[i] = SCORE_KILLER1
        elif move == killer2 and switches & SW_KILLERS != 0:
            order[i] = SCORE_KILLER2
        elif switches & SW_HISTORY != 0:
            order[i] = work[HISTORY_BASE + side * 4096 + (frm << 6 | to)]
        else:
            order[i] = 0


@jit()
def pick(moves: IntArray, order: IntArray, i: int, end: int) -> None:
    """Swap the best-scored move of ``i..end`` into place ``i`` (stable: the first of equals)."""
    best = i
    for j in range(i + 1, end):
        if order[j] > order[best]:
            best = j
    if best != i:
        order[i], order[best] = order[best], order[i]
        for k in range(3):
            moves[3 * i + k], moves[3 * best + k] = moves[3 * best + k], moves[3 * i + k]


@jit()
def update_pv(work: IntArray, ply: int, frm: int, to: int, captured: int) -> None:
    row = PV_BASE + ply * PV_ROW
    child = row + PV_ROW
    work[row + 3 * ply] = frm
    work[row + 3 * ply + 1] = to
    work[row + 3 * ply + 2] = captured
    length = work[PV_LENGTH_BASE + ply + 1]
    for i in range(3 * (ply + 1), 3 * length):
        work[row + i] = work[child + i]
    work[PV_LENGTH_BASE + ply] = max(length, ply + 1)


NOT_PROBED = INFINITY + 1
"""What :func:`probe_score` gives for a position the database does not settle."""


@jit()
def probe_score(
    binom: IntArray,
    egdb_data: ByteArray,
    offsets: IntArray,
    work: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    ply: int,
) -> int:
    """The database's score of the position at ``ply`` (see the module's notes), or
    ``NOT_PROBED``: the switch off, the root, too many pieces, a side without any (the search
    scores that loss itself), or a position the loaded slices do not hold."""
    if work[W_SWITCHES] & SW_EGDB == 0 or ply == 0 or white == 0 or black == 0:
        return NOT_PROBED
    if popcount(white | black) > EGDB_PIECES:
        return NOT_PROBED
    value = probe_kernel(binom, egdb_data, offsets, white, black, kings, side)
    if value == 1:
        return DB_WIN - ply
    if value == -1:
        return -(DB_WIN - ply)
    if value == 0:
        return 0
    return NOT_PROBED


@jit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
    "float64[::1], float64[::1], int64[::1], uint8[::1], int64[::1], int64, int64, int64)"
)
def quiesce(
    table: IntArray,
    geo: IntArray,
    stack: IntArray,
    moves: IntArray,
    scratch: IntArray,
    order: IntArray,
    work: IntArray,
    weights: FloatArray,
    features: FloatArray,
    binom: IntArray,
    egdb_data: ByteArray,
    offsets: IntArray,
    ply: int,
    alpha: int,
    beta: int,
) -> int:
    """The value of the position at ``ply`` once the captures are played out: a side that must
    capture plays every capture (no standing pat: the rules give it no choice); a side that has
    none stands on the static evaluation. A side without pieces has lost. Fail-soft."""
    work[W_NODES] += 1
    work[W_QNODES] += 1
    if work[W_NODES] >= work[W_NODE_LIMIT]:
        work[W_STOP] = 1
    if work[W_STOP] != 0:
        return 0
    work[W_SELDEPTH] = max(work[W_SELDEPTH], ply)
    base = ply * POS_SIZE
    white = stack[base + P_WHITE]
    black = stack[base + P_BLACK]
    kings = stack[base + P_KINGS]
    side = stack[base + P_SIDE]
    if (white if side == 0 else black) == 0:
        return -(WIN - ply)
    known = probe_score(binom, egdb_data, offsets, work, white, black, kings, side, ply)
    if known != NOT_PROBED:
        return known
    if ply >= MAX_PLY or not has_capture(table, white, black, kings, side):
        return evaluate(table, geo, white, black, kings, side, weights, features)
    count = generate(table, stack, moves, ply, scratch)
    score_moves(geo, stack, moves, order, work, ply, count, NO_MOVE, 0)
    start = ply * MAX_MOVES
    best = -INFINITY
    for i in range(start, start + count):
        pick(moves, order, i, start + count)
        make_move(geo, stack, ply, moves[3 * i], moves[3 * i + 1], moves[3 * i + 2])
        score = -quiesce(
            table,
            geo,
            stack,
            moves,
            scratch,
            order,
            work,
            weights,
            features,
            binom,
            egdb_data,
            offsets,
            ply + 1,
            -beta,
            -alpha,
        )
        if work[W_STOP] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


@jit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
    "int64[::1], float64[::1], float64[::1], int64[::1], uint8[::1], int64[::1], int64, int64, "
    "int64, int64)"
)
def negamax(
    table: IntArray,
    geo: IntArray,
    stack: IntArray,
    moves: IntArray,
    scratch: IntArray,
    order: IntArray,
    tt: IntArray,
    work: IntArray,
    weights: FloatArray,
    features: FloatArray,
    binom: IntArray,
    egdb_data: ByteArray,
    offsets: IntArray,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    """The score of the position at ``ply`` for its side to move, searched ``depth`` plies and
    then by :func:`quiesce`.

    Fail-soft principal-variation search: the result ``v`` is exact when ``alpha < v < beta``,
    an upper bound when ``v <= alpha`` and a lower bound when ``v >= beta``. A side with no legal
    move has lost: ``-(WIN - ply)``, plies counted from the root. A repetition is a draw (0).
    When the stop flag rises it returns 0 at once, and the caller must ignore what it got."""
    work[PV_LENGTH_BASE + ply] = ply
    if ply > 0:
        if is_repetition(stack, work, ply):
            return 0
        alpha = max(alpha, -(WIN - ply))
        beta = min(beta, WIN - ply - 1)
        if alpha >= beta:
            return alpha
    if depth <= 0 or ply >= MAX_PLY:
        return quiesce(
            table, geo, stack, moves, scratch, order, work, weights, features, binom, egdb_data,
            offsets, ply, alpha, beta,
        )  # fmt: skip
    work[W_NODES] += 1
    if work[W_NODES] >= work[W_NODE_LIMIT]:
        work[W_STOP] = 1
    if work[W_STOP] != 0:
        return 0
    switches = work[W_SWITCHES]
    pv_node = beta - alpha > 1
    base = ply * POS_SIZE
    key = stack[base + P_HASH]
    side = stack[base + P_SIDE]
    known = probe_score(
        binom, egdb_data, offsets, work, stack[base + P_WHITE], stack[base + P_BLACK],
        stack[base + P_KINGS], side, ply,
    )  # fmt: skip
    if known != NOT_PROBED:
        return known
    tt_move = NO_MOVE
    tt_captured = 0
    slot = tt_slot(tt, key)
    if tt[slot] == key:
        data = tt[slot + 1]
        if switches & SW_TT_MOVE != 0:
            tt_move = data & NO_MOVE
            tt_captured = tt[slot + 2]
        if (
            switches & SW_TT_CUTOFFS != 0
            and not pv_node
            and ply > 0
            and (data >> 14) & 127 >= depth
        ):
            bound = (data >> 21) & 3
            score = tt_score(data, ply)
            if bound == BOUND_EXACT:
                return score
            if bound == BOUND_LOWER and score >= beta:
                return score
            if bound == BOUND_UPPER and score <= alpha:
                return score
    count = generate(table, stack, moves, ply, scratch)
    if count == 0:
        return -(WIN - ply)
    score_moves(geo, stack, moves, order, work, ply, count, tt_move, tt_captured)
    start = ply * MAX_MOVES
    best = -INFINITY
    best_move = NO_MOVE
    best_captured = 0
    original_alpha = alpha
    forced = count == 1
    for i in range(start, start + count):
        pick(moves, order, i, start + count)
        frm = moves[3 * i]
        to = moves[3 * i + 1]
        captured = moves[3 * i + 2]
        make_move(geo, stack, ply, frm, to, captured)
        # a single legal move costs no depth: the line it forces is read one ply further
        child_depth = depth if forced else depth - 1
        if i == start:
            score = -negamax(
                table, geo, stack, moves, scratch, order, tt, work, weights, features,
                binom, egdb_data, offsets, ply + 1, child_depth, -beta, -alpha,
            )  # fmt: skip
        else:
            reduction = 0
            if (
                switches & SW_REDUCTIONS != 0
                and depth >= 3
                and i - start >= 3
                and not pv_node
                and order[i] < SCORE_KILLER2
            ):
                reduction = 1
            score = -negamax(
                table, geo, stack, moves, scratch, order, tt, work, weights, features,
                binom, egdb_data, offsets, ply + 1, child_depth - reduction, -alpha - 1, -alpha,
            )  # fmt: skip
            if score > alpha and reduction > 0 and work[W_STOP] == 0:
                score = -negamax(
                    table, geo, stack, moves, scratch, order, tt, work, weights, features,
                    binom, egdb_data, offsets, ply + 1, child_depth, -alpha - 1, -alpha,
                )  # fmt: skip
            if score > alpha and score < beta and work[W_STOP] == 0:
                score = -negamax(
                    table, geo, stack, moves, scratch, order, tt, work, weights, features,
                    binom, egdb_data, offsets, ply + 1, child_depth, -beta, -alpha,
                )  # fmt: skip
        if work[W_STOP] != 0:
            return 0
        if score > best:
            best = score
            best_move = frm | to << 7
            best_captured = captured
            if score > alpha:
                alpha = score
                update_pv(work, ply, frm, to, captured)
                if score >= beta:
                    if captured == 0:
                        move = frm | to << 7
                        if switches & SW_KILLERS != 0 and work[KILLER_BASE + 2 * ply] != move:
                            work[KILLER_BASE + 2 * ply + 1] = work[KILLER_BASE + 2 * ply]
                            work[KILLER_BASE + 2 * ply] = move
                        if switches & SW_HISTORY != 0:
                            at = HISTORY_BASE + side * 4096 + (frm << 6 | to)
                            work[at] += depth * depth
                            if work[at] > HISTORY_LIMIT:
                                for h in range(HISTORY_BASE, HISTORY_BASE + 2 * 4096):
                                    work[h] >>= 1
                    break
    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt_store(tt, key, best_move, best_captured, depth, bound, best, ply)
    return best
