"""The chess kernel: bitboard move generation, perft, evaluation and the alpha-beta search.

Plain integer code on flat arrays, compiled by numba when it is installed (``nopython``, no GIL);
without numba, or with ``ZERMELO_NO_NUMBA=1``, the same functions run as ordinary Python on ints and
lists. The Python front is :mod:`zermelo.solvers.chess.engine`.

Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; a bitboard has bit ``sq`` set for each
square. Compiled, a bitboard is a signed 64-bit word (h8 is the sign bit); plain, it is a Python
int below 2**64. Code here never compares a bitboard with anything but 0, masks every left shift
with ``ALL`` and right-shifts only boards without h8, so both readings agree.

Piece types: pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. Colours: White 0, Black 1.

A position is ``POS_SIZE`` words of the ``stack`` array; the position ``ply`` half-moves below the
root starts at ``ply * POS_SIZE`` (copy-make: a move writes the child into the next slot)::

    0..5   one board per piece type (both colours)     9   castling rights: 1 K, 2 Q, 4 k, 8 q
    6, 7   White's pieces, Black's pieces             10   en-passant square, or -1 (set only
    8      side to move                                    when an enemy pawn could capture)
    11     half-moves since a capture or pawn move    12   Zobrist hash
                                                       13   1 after a null move (no second one)

A move is an int: ``from | to << 6 | promotion << 12 | kind << 15`` with promotion a piece type
(0 for none) and kind 0 (ordinary), 1 (double pawn push), 2 (castling: the king's two-square
move) or 3 (en passant).

Arrays of the search (besides ``stack``):

``moves``, ``order``  ``MAX_MOVES`` slots per ply: generated moves and their ordering scores.
``table``  the transposition table: two words per slot, the hash and ``move | depth << 18 |
           bound << 25 | (score + SCORE_OFFSET) << 32``; mate scores are stored relative to the
           node (distance from it, not from the root).
``work``   counters and scratch, laid out by the ``W_*`` and ``*_BASE`` constants: nodes, stop
           flag, node limit, selective depth, the search's switches, the game's earlier hashes
           (for repetitions), killer moves, the history table and the triangular
           principal-variation table.
``weights``, ``features``  the evaluation's weights and, after :func:`evaluate`, the feature
           values of the last position evaluated (White minus Black).
``ft``, ``out``  the learned evaluation's network (:mod:`.nnue`), shared by every thread: ``ft``
           the transformer's int16 weights, input by input (``FEATURES * hidden``), then its
           bias (``hidden``), then a row of zeros; ``out`` the output layer's weights (``2 * hidden``, side to move
           first) then its bias, as int32. Both empty: PeSTO plus the named terms evaluate.
``acc``    the network's accumulators, per thread: ``2 * hidden`` int32 per ply, White's view
           then Black's. int32, not int16: the reference sums in wide integers, and 32 pieces
           of clipped int16 weights can pass 32767. They are updated lazily: a ply's
           accumulators are computed when its position is evaluated, from the nearest ply below
           whose accumulators are valid, by the pieces that differ between the two positions
           (so a make that is never evaluated costs nothing, and a null move costs a copy).
           ``work`` holds, per ply, the eight boards the accumulators were computed for.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from zermelo.core.jit import NUMBA_AVAILABLE, make_jit, make_popcount, numba_disabled
from zermelo.core.scores import WIN
from zermelo.solvers.chess.pesto import (
    EG_TABLES,
    EG_VALUES,
    MG_TABLES,
    MG_VALUES,
    PHASE_TOTAL,
    PHASE_WEIGHTS,
)

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np
    from numpy.typing import NDArray

    from zermelo.core.jit import FloatArray, IntArray

    ShortArray: TypeAlias = "NDArray[np.int16] | list[int]"
    """The network's transformer (int16 when compiled, ints in the plain copy)."""
    Int32Array: TypeAlias = "NDArray[np.int32] | list[int]"
    """The network's output layer and the accumulators (int32 when compiled)."""

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy of the kernel is compiled (the pure copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5
WHITE, BLACK = 0, 1

P_WHITE = 6
P_SIDE = 8
P_CASTLE = 9
P_EP = 10
P_HALFMOVE = 11
P_HASH = 12
P_NULL = 13
POS_SIZE = 16

K_NORMAL, K_DOUBLE, K_CASTLE, K_EN_PASSANT = 0, 1, 2, 3

MAX_PLY = 120
MAX_MOVES = 256
STACK_SIZE = (MAX_PLY + 4) * POS_SIZE
MOVES_SIZE = (MAX_PLY + 4) * MAX_MOVES

INFINITY = WIN + 1
MATE_BOUND = WIN - 1000
"""Scores beyond ``±MATE_BOUND`` are mates (``WIN - plies``)."""
SCORE_OFFSET = 1 << 22

BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 1, 2, 3

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
PV_BASE = PV_LENGTH_BASE + MAX_PLY + 4
GAME_BASE = PV_BASE + (MAX_PLY + 4) * (MAX_PLY + 4)
GAME_SIZE = 1024
"""Up to this many earlier positions of the game are kept for repetition checks."""
EVAL_BASE = GAME_BASE + GAME_SIZE
EVAL_SLOTS = 1 << 15
"""The evaluation cache: per slot the hash and the evaluation from White's side."""
ACC_BASE = EVAL_BASE + 2 * EVAL_SLOTS
"""Per ply, the eight boards (pieces, colours) its accumulators were computed for."""
ACC_BOARDS = 8
WORK_SIZE = ACC_BASE + (MAX_PLY + 4) * ACC_BOARDS

NNUE_FEATURES = 768
NNUE_QA = 255
NNUE_QB = 64
NNUE_SCALE = 400
"""The network's sizes and scales (those of :mod:`zermelo.solvers.chess.nnue`)."""

HISTORY_LIMIT = 60_000
SCORE_TT_MOVE = 3_000_000
SCORE_GOOD_CAPTURE = 2_000_000
SCORE_KILLER1 = 1_000_000
SCORE_KILLER2 = 900_000
SCORE_BAD_CAPTURE = -1_000_000

# evaluation terms (the order of DEFAULT_WEIGHTS and of zermelo.solvers.chess.evaluation.TERMS)
F_PSQT = 0
F_MOBILITY = 1
F_KING_SHELTER = 2
F_KING_ATTACK = 3
F_PASSED = 4
F_DOUBLED = 5
F_ISOLATED = 6
F_BISHOP_PAIR = 7
F_PHASE = 8
FEATURES_SIZE = 9
N_TERMS = 8

# switches of the search (bits of work[W_SWITCHES]): all on in play; one off measures what it is
# worth (benchmarks/chess_ablation.py)
SW_NULL_MOVE = 1
SW_LATE_MOVE_REDUCTIONS = 2
SW_CHECK_EXTENSION = 4
SW_KILLERS = 8
SW_HISTORY = 16
SW_TT_CUTOFFS = 32
SW_TT_MOVE = 64
SW_QUIESCENCE_ORDER = 128
SW_FUTILITY = 256
SW_LATE_MOVE_PRUNING = 512
SW_ASPIRATION = 1024
"""Aspiration windows live in the Python front (the engine's iterative deepening)."""
SW_ALL = 2047

SEE_VALUES = (100, 320, 330, 500, 900, 20000)
SEE_PAWN, SEE_KNIGHT, SEE_BISHOP, SEE_ROOK, SEE_QUEEN, SEE_KING = SEE_VALUES


def _word(value: int) -> int:
    """``value`` (below 2**64) as this copy stores a bitboard: signed when compiled."""
    value &= (1 << 64) - 1
    if COMPILED and value >= 1 << 63:
        return value - (1 << 64)
    return value


ALL = _word((1 << 64) - 1)
FILE_A = _word(0x0101010101010101)
FILE_H = _word(0x8080808080808080)
NOT_FILE_A = _word(~0x0101010101010101)
NOT_FILE_H = _word(~0x8080808080808080)
RANK_1 = _word(0xFF)
RANK_3 = _word(0xFF0000)
RANK_6 = _word(0xFF0000000000)
RANK_8 = _word(0xFF00000000000000)

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1))
"""(file step, rank step): north, east, north-east, north-west (increasing squares), then the
opposite four (decreasing squares)."""


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _leaper(steps: tuple[tuple[int, int], ...]) -> list[int]:
    boards = []
    for sq in range(64):
        board = 0
        for df, dr in steps:
            f, r = sq % 8 + df, sq // 8 + dr
            if _on_board(f, r):
                board |= 1 << (r * 8 + f)
        boards.append(board)
    return boards


def _rays() -> list[int]:
    rays = []
    for df, dr in _DIRECTIONS:
        for sq in range(64):
            board = 0
            f, r = sq % 8 + df, sq // 8 + dr
            while _on_board(f, r):
                board |= 1 << (r * 8 + f)
                f, r = f + df, r + dr
            rays.append(board)
    return rays


def _queen_lines(sq: int) -> int:
    """Every square on a rank, file or diagonal through ``sq`` (``sq`` excluded)."""
    lines = 0
    for df, dr in _DIRECTIONS:
        f, r = sq % 8 + df, sq // 8 + dr
        while _on_board(f, r):
            lines |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return lines


def _pawn_attacks() -> list[int]:
    white = _leaper(((-1, 1), (1, 1)))
    black = _leaper(((-1, -1), (1, -1)))
    return white + black


def _castle_masks() -> list[int]:
    masks = [15] * 64
    masks[0] &= ~2
    masks[7] &= ~1
    masks[4] &= ~3
    masks[56] &= ~8
    masks[63] &= ~4
    masks[60] &= ~12
    return masks


def _passed_masks() -> list[int]:
    """Per colour and square: the squares ahead on the pawn's file and both neighbours."""
    masks = []
    for colour in (WHITE, BLACK):
        for sq in range(64):
            board = 0
            f, r = sq % 8, sq // 8
            ranks = range(r + 1, 8) if colour == WHITE else range(r)
            for rr in ranks:
                for ff in (f - 1, f, f + 1):
                    if 0 <= ff < 8:
                        board |= 1 << (rr * 8 + ff)
            masks.append(board)
    return masks


def _file_masks() -> tuple[list[int], list[int]]:
    files = [0x0101010101010101 << f for f in range(8)]
    neighbours = [(files[f - 1] if f > 0 else 0) | (files[f + 1] if f < 7 else 0) for f in range(8)]
    return files, neighbours


def _shelter_masks() -> list[int]:
    """Per colour and king square: the three squares in front of the king, one and two ranks on."""
    masks = []
    for colour in (WHITE, BLACK):
        step = 1 if colour == WHITE else -1
        for sq in range(64):
            board = 0
            f, r = sq % 8, sq // 8
            for dr in (step, 2 * step):
                for ff in (f - 1, f, f + 1):
                    if _on_board(ff, r + dr):
                        board |= 1 << ((r + dr) * 8 + ff)
            masks.append(board)
    return masks


def _piece_square() -> tuple[list[int], list[int]]:
    """Middle-game and endgame value of piece (colour * 6 + type) on square, value included."""
    mg, eg = [], []
    for colour in (WHITE, BLACK):
        for piece in range(6):
            for sq in range(64):
                index = sq ^ 56 if colour == WHITE else sq
                mg.append(MG_VALUES[piece] + MG_TABLES[piece][index])
                eg.append(EG_VALUES[piece] + EG_TABLES[piece][index])
    return mg, eg


def _zobrist() -> list[int]:
    """12 * 64 piece keys, 16 castling keys, 8 en-passant file keys, then the side key."""
    rng = random.Random(20_260_101)
    keys = [rng.getrandbits(64) for _ in range(12 * 64 + 16 + 8 + 1)]
    keys[12 * 64] = 0
    return keys


def _reductions() -> list[int]:
    table = []
    for depth in range(64):
        for count in range(64):
            if depth == 0 or count == 0:
                table.append(0)
            else:
                table.append(int(0.8 + math.log(depth) * math.log(count) / 2.2))
    return table


B_FILE_MULTIPLIER = 0x0202020202020202
"""Multiplying a diagonal's squares by this gathers their files on rank 8, shifted one file."""
C7_H2_MULTIPLIER = 0x0004081020408000
"""Multiplying the a-file's squares by this gathers their ranks on rank 8."""


def _slide(sq: int, occupied: int, steps: tuple[tuple[int, int], ...]) -> int:
    """Squares a slider on ``sq`` attacks along ``steps`` (computed square by square)."""
    board = 0
    for df, dr in steps:
        f, r = sq % 8 + df, sq // 8 + dr
        while _on_board(f, r):
            board |= 1 << (r * 8 + f)
            if occupied & (1 << (r * 8 + f)):
                break
            f, r = f + df, r + dr
    return board


def _subsets(mask: int) -> list[int]:
    subsets, subset = [], 0
    while True:
        subsets.append(subset)
        subset = (subset - mask) & mask
        if subset == 0:
            return subsets


def _line_masks() -> tuple[list[int], list[int]]:
    """The a1-h8 diagonal and the h1-a8 diagonal through each square, the square excluded."""
    diagonals, anti = [], []
    for sq in range(64):
        diagonals.append(_slide(sq, 0, ((1, 1), (-1, -1))))
        anti.append(_slide(sq, 0, ((-1, 1), (1, -1))))
    return diagonals, anti


def _kindergarten() -> tuple[list[int], list[int]]:
    """Kindergarten tables: per file and 6-bit occupancy of files b-g, the squares attacked on
    every rank (``FILL``); per rank and 6-bit occupancy of ranks 2-7 of the a-file, the a-file
    squares attacked (``A_FILE``). Both are filled from the indices the search computes, so that
    table and index cannot disagree."""
    fill = [0] * (8 * 64)
    for file in range(8):
        for occupied in _subsets(0x7E):
            attacks = _slide(file, occupied, ((1, 0), (-1, 0)))
            index = (occupied >> 1) & 63
            fill[file * 64 + index] = attacks * 0x0101010101010101
    a_file = [0] * (8 * 64)
    inner = 0x0001010101010100
    for rank in range(8):
        for occupied in _subsets(inner):
            attacks = _slide(rank * 8, occupied, ((0, 1), (0, -1)))
            index = ((occupied * C7_H2_MULTIPLIER) >> 58) & 63
            assert a_file[rank * 64 + index] in (0, attacks)
            a_file[rank * 64 + index] = attacks
    return fill, a_file


def _table(values: list[int], *, bitboards: bool = True) -> IntArray:
    """An int64 array when compiled, else a list; bitboards become words as ``_word`` says,
    other numbers (scores, counts) keep their sign."""
    words = [_word(v) for v in values] if bitboards else list(values)
    if COMPILED:
        import numpy as np

        return np.array(words, dtype=np.int64)
    return words


_FILES, _NEIGHBOURS = _file_masks()
_MG, _EG = _piece_square()
KNIGHT_ATTACKS = _table(
    _leaper(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
)
KING_ATTACKS = _table(
    _leaper(((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
)
PAWN_ATTACKS = _table(_pawn_attacks())
RAYS = _table(_rays())
LINES = _table([_queen_lines(sq) for sq in range(64)])
_DIAGONALS, _ANTI_DIAGONALS = _line_masks()
DIAGONAL = _table(_DIAGONALS)
ANTI_DIAGONAL = _table(_ANTI_DIAGONALS)
_FILL, _A_FILE = _kindergarten()
FILL = _table(_FILL)
A_FILE = _table(_A_FILE)
CASTLE_MASK = _table(_castle_masks(), bitboards=False)
PASSED = _table(_passed_masks())
FILES = _table(_FILES)
NEIGHBOUR_FILES = _table(_NEIGHBOURS)
SHELTER = _table(_shelter_masks())
MG_PSQ = _table(_MG, bitboards=False)
EG_PSQ = _table(_EG, bitboards=False)
ZOBRIST = _table(_zobrist())
Z_CASTLE = 12 * 64
Z_EP = Z_CASTLE + 16
Z_SIDE = Z_EP + 8
PHASE = _table(list(PHASE_WEIGHTS), bitboards=False)
SEE = _table(list(SEE_VALUES), bitboards=False)
REDUCTION = _table(_reductions(), bitboards=False)

DEFAULT_WEIGHTS = (1.0, 3.0, 8.0, 5.0, 3.0, -15.0, -10.0, 30.0)


popcount = make_popcount(COMPILED)


@jit()
def msb(x: int) -> int:
    """Index of the highest set bit of a non-zero bitboard."""
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
    """Index of the lowest set bit of a non-zero bitboard."""
    return msb(x & -x)


@jit()
def line_attacks(sq: int, occupied: int, line: int) -> int:
    """Attacks along one diagonal ``line`` through ``sq`` (kindergarten bitboards: the
    multiplication gathers the line's blockers on one rank; the product's high bits past bit 63
    are cut by the final mask, so words and unbounded ints agree)."""
    index = (((occupied & line) * B_FILE_MULTIPLIER) >> 58) & 63
    attacks: int = FILL[(sq & 7) * 64 + index] & line
    return attacks


@jit()
def rook_attacks(sq: int, occupied: int) -> int:
    file = sq & 7
    rank_shift = sq & 56
    rank_index = (occupied >> (rank_shift + 1)) & 63
    rank_attacks = (FILL[file * 64 + rank_index] & 255) << rank_shift
    column = (occupied >> file) & FILE_A
    file_index = ((column * C7_H2_MULTIPLIER) >> 58) & 63
    file_attacks = A_FILE[(sq >> 3) * 64 + file_index] << file
    result: int = rank_attacks | file_attacks
    return result


@jit()
def bishop_attacks(sq: int, occupied: int) -> int:
    return line_attacks(sq, occupied, DIAGONAL[sq]) | line_attacks(sq, occupied, ANTI_DIAGONAL[sq])


@jit(inline=True)
def piece_attacks(piece: int, sq: int, occupied: int) -> int:
    """The squares a knight, bishop, rook, queen or king (``piece``) on ``sq`` attacks, the
    sliders stopped by ``occupied`` (the blocker's own square included). Inlined by numba into
    each caller, where it stands for the switch each of them wrote out before."""
    if piece == KNIGHT:
        attacks: int = KNIGHT_ATTACKS[sq]
    elif piece == BISHOP:
        attacks = bishop_attacks(sq, occupied)
    elif piece == ROOK:
        attacks = rook_attacks(sq, occupied)
    elif piece == QUEEN:
        attacks = bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
    else:
        attacks = KING_ATTACKS[sq]
    return attacks


@jit()
def piece_on(stack: IntArray, base: int, sq: int) -> int:
    """The type of the piece on ``sq``, or -1."""
    bit = 1 << sq
    if (stack[base + P_WHITE] | stack[base + P_WHITE + 1]) & bit == 0:
        return -1
    for piece in range(6):
        if stack[base + piece] & bit != 0:
            return piece
    return -1


@jit()
def attacked(stack: IntArray, base: int, sq: int, by: int, occupied: int, keep: int) -> bool:
    """Whether side ``by`` attacks ``sq`` with ``occupied`` as the occupancy, counting only its
    pieces on ``keep`` (a capture in progress removes the captured piece from ``keep``)."""
    them = stack[base + P_WHITE + by] & keep
    if PAWN_ATTACKS[(1 - by) * 64 + sq] & stack[base + PAWN] & them != 0:
        return True
    if KNIGHT_ATTACKS[sq] & stack[base + KNIGHT] & them != 0:
        return True
    if KING_ATTACKS[sq] & stack[base + KING] & them != 0:
        return True
    diagonal = (stack[base + BISHOP] | stack[base + QUEEN]) & them
    if diagonal != 0 and bishop_attacks(sq, occupied) & diagonal != 0:
        return True
    straight = (stack[base + ROOK] | stack[base + QUEEN]) & them
    hit: bool = straight != 0 and rook_attacks(sq, occupied) & straight != 0
    return hit


@jit()
def in_check(stack: IntArray, base: int) -> bool:
    """Whether the side to move is in check."""
    side = stack[base + P_SIDE]
    king = stack[base + KING] & stack[base + P_WHITE + side]
    if king == 0:
        return False
    occupied = stack[base + P_WHITE] | stack[base + P_WHITE + 1]
    return attacked(stack, base, lsb(king), 1 - side, occupied, ALL)


@jit()
def _add_promotions(moves: IntArray, count: int, frm: int, to: int, quiet: bool) -> int:
    moves[count] = frm | to << 6 | QUEEN << 12
    count += 1
    if quiet:
        for promotion in (KNIGHT, ROOK, BISHOP):
            moves[count] = frm | to << 6 | promotion << 12
            count += 1
    return count


@jit()
def generate(stack: IntArray, base: int, moves: IntArray, start: int, quiet: bool) -> int:
    """Write the pseudo-legal moves from ``moves[start]`` on; return how many.

    With ``quiet`` false only captures and queen promotions (for the quiescence search).
    Castling is generated only when it is legal: the king is not in check and does not pass
    through an attacked square (its arrival square is checked like any king move's)."""
    return generate_some(stack, base, moves, start, quiet, True, ALL)


@jit()
def generate_some(
    stack: IntArray,
    base: int,
    moves: IntArray,
    start: int,
    quiet: bool,
    with_pieces: bool,
    pawn_mask: int,
) -> int:
    """:func:`generate`, leaving out knights, bishops, rooks and queens unless ``with_pieces``,
    and the pawns outside ``pawn_mask``."""
    side = stack[base + P_SIDE]
    us = stack[base + P_WHITE + side]
    them = stack[base + P_WHITE + 1 - side]
    occupied = us | them
    empty = ~occupied & ALL
    count = start
    ep = stack[base + P_EP]
    forward = 8 if side == WHITE else -8

    pawns = stack[base + PAWN] & us & pawn_mask
    while pawns != 0:
        frm = lsb(pawns)
        pawns &= pawns - 1
        promoting = frm >= 48 if side == WHITE else frm < 16
        targets = PAWN_ATTACKS[side * 64 + frm] & them
        while targets != 0:
            to = lsb(targets)
            targets &= targets - 1
            if promoting:
                count = _add_promotions(moves, count, frm, to, True)
            else:
                moves[count] = frm | to << 6
                count += 1
        if ep >= 0 and PAWN_ATTACKS[side * 64 + frm] & (1 << ep) != 0:
            moves[count] = frm | ep << 6 | K_EN_PASSANT << 15
            count += 1
        one = frm + forward
        if (1 << one) & empty != 0:
            if promoting:
                count = _add_promotions(moves, count, frm, one, quiet)
            elif quiet:
                moves[count] = frm | one << 6
                count += 1
                starting = frm < 16 if side == WHITE else frm >= 48
                two = one + forward
                if starting and (1 << two) & empty != 0:
                    moves[count] = frm | two << 6 | K_DOUBLE << 15
                    count += 1

    targets_mask = (~us & ALL) if quiet else them
    for piece in range(KNIGHT if with_pieces else KING, KING + 1):
        pieces = stack[base + piece] & us
        while pieces != 0:
            frm = lsb(pieces)
            pieces &= pieces - 1
            attacks = piece_attacks(piece, frm, occupied) & targets_mask
            while attacks != 0:
                to = lsb(attacks)
                attacks &= attacks - 1
                moves[count] = frm | to << 6
                count += 1

    if quiet:
        rights = stack[base + P_CASTLE]
        if side == WHITE:
            rights &= 3
            home = 4
        else:
            rights &= 12
            home = 60
        if rights != 0 and not attacked(stack, base, home, 1 - side, occupied, ALL):
            kingside = 1 if side == WHITE else 4
            if (
                rights & kingside != 0
                and occupied & (3 << (home + 1)) == 0
                and not attacked(stack, base, home + 1, 1 - side, occupied, ALL)
            ):
                moves[count] = home | (home + 2) << 6 | K_CASTLE << 15
                count += 1
            if (
                rights & (kingside << 1) != 0
                and occupied & (7 << (home - 3)) == 0
                and not attacked(stack, base, home - 1, 1 - side, occupied, ALL)
            ):
                moves[count] = home | (home - 2) << 6 | K_CASTLE << 15
                count += 1
    return count - start


@jit()
def is_legal(stack: IntArray, base: int, move: int, checked: bool) -> bool:
    """Whether the pseudo-legal ``move`` leaves its own king safe; ``checked`` says whether the
    side to move is in check now. A move of another piece than the king, off every line through
    the king, and not en passant, cannot expose it unless it is already in check."""
    side = stack[base + P_SIDE]
    frm = move & 63
    to = (move >> 6) & 63
    kind = move >> 15
    from_bit = 1 << frm
    to_bit = 1 << to
    king = stack[base + KING] & stack[base + P_WHITE + side]
    own_king = king & from_bit != 0
    king_sq = to if own_king else lsb(king)
    if not checked and not own_king and kind != K_EN_PASSANT and LINES[king_sq] & from_bit == 0:
        return True
    occupied = stack[base + P_WHITE] | stack[base + P_WHITE + 1]
    if kind == K_EN_PASSANT:
        captured = 1 << (to - 8 if side == WHITE else to + 8)
        after = (occupied ^ from_bit ^ captured) | to_bit
    else:
        captured = to_bit
        after = (occupied & ~from_bit) | to_bit
    return not attacked(stack, base, king_sq, 1 - side, after, ~captured)


@jit()
def make_move(stack: IntArray, base: int, move: int) -> None:
    """Write the position after ``move`` into the slot after ``base``."""
    child = base + POS_SIZE
    for i in range(POS_SIZE):
        stack[child + i] = stack[base + i]
    side = stack[base + P_SIDE]
    other = 1 - side
    frm = move & 63
    to = (move >> 6) & 63
    promotion = (move >> 12) & 7
    kind = move >> 15
    from_bit = 1 << frm
    to_bit = 1 << to
    key = stack[base + P_HASH]
    piece = piece_on(stack, base, frm)
    ep = stack[base + P_EP]
    if ep >= 0:
        key ^= ZOBRIST[Z_EP + (ep & 7)]
        stack[child + P_EP] = -1
    reset = piece == PAWN
    if kind == K_EN_PASSANT:
        captured_sq = to - 8 if side == WHITE else to + 8
        captured_bit = 1 << captured_sq
        stack[child + PAWN] ^= captured_bit
        stack[child + P_WHITE + other] ^= captured_bit
        key ^= ZOBRIST[(other * 6 + PAWN) * 64 + captured_sq]
    elif stack[base + P_WHITE + other] & to_bit != 0:
        captured = piece_on(stack, base, to)
        stack[child + captured] ^= to_bit
        stack[child + P_WHITE + other] ^= to_bit
        key ^= ZOBRIST[(other * 6 + captured) * 64 + to]
        reset = True
    stack[child + piece] ^= from_bit | to_bit
    stack[child + P_WHITE + side] ^= from_bit | to_bit
    key ^= ZOBRIST[(side * 6 + piece) * 64 + frm] ^ ZOBRIST[(side * 6 + piece) * 64 + to]
    if promotion != 0:
        stack[child + PAWN] ^= to_bit
        stack[child + promotion] ^= to_bit
        key ^= ZOBRIST[(side * 6 + PAWN) * 64 + to] ^ ZOBRIST[(side * 6 + promotion) * 64 + to]
    elif kind == K_CASTLE:
        if to > frm:
            rook_from, rook_to = frm + 3, frm + 1
        else:
            rook_from, rook_to = frm - 4, frm - 1
        rook_bits = (1 << rook_from) | (1 << rook_to)
        stack[child + ROOK] ^= rook_bits
        stack[child + P_WHITE + side] ^= rook_bits
        key ^= ZOBRIST[(side * 6 + ROOK) * 64 + rook_from]
        key ^= ZOBRIST[(side * 6 + ROOK) * 64 + rook_to]
    elif kind == K_DOUBLE:
        passed = (frm + to) >> 1
        if (
            PAWN_ATTACKS[side * 64 + passed] & stack[base + PAWN] & stack[base + P_WHITE + other]
            != 0
        ):
            stack[child + P_EP] = passed
            key ^= ZOBRIST[Z_EP + (passed & 7)]
    rights = stack[base + P_CASTLE]
    new_rights = rights & CASTLE_MASK[frm] & CASTLE_MASK[to]
    if new_rights != rights:
        key ^= ZOBRIST[Z_CASTLE + rights] ^ ZOBRIST[Z_CASTLE + new_rights]
        stack[child + P_CASTLE] = new_rights
    stack[child + P_HALFMOVE] = 0 if reset else stack[base + P_HALFMOVE] + 1
    stack[child + P_SIDE] = other
    stack[child + P_HASH] = key ^ ZOBRIST[Z_SIDE]
    stack[child + P_NULL] = 0


@jit()
def make_null(stack: IntArray, base: int) -> None:
    """Write the position after passing the move into the slot after ``base``."""
    child = base + POS_SIZE
    for i in range(POS_SIZE):
        stack[child + i] = stack[base + i]
    key = stack[base + P_HASH] ^ ZOBRIST[Z_SIDE]
    ep = stack[base + P_EP]
    if ep >= 0:
        key ^= ZOBRIST[Z_EP + (ep & 7)]
        stack[child + P_EP] = -1
    stack[child + P_SIDE] = 1 - stack[base + P_SIDE]
    stack[child + P_HALFMOVE] = 0
    stack[child + P_HASH] = key
    stack[child + P_NULL] = 1


@jit()
def compute_hash(stack: IntArray, base: int) -> int:
    """The Zobrist hash of a position, from scratch."""
    key = 0
    for colour in range(2):
        for piece in range(6):
            pieces = stack[base + piece] & stack[base + P_WHITE + colour]
            while pieces != 0:
                sq = lsb(pieces)
                pieces &= pieces - 1
                key ^= ZOBRIST[(colour * 6 + piece) * 64 + sq]
    key ^= ZOBRIST[Z_CASTLE + stack[base + P_CASTLE]]
    if stack[base + P_EP] >= 0:
        key ^= ZOBRIST[Z_EP + (stack[base + P_EP] & 7)]
    if stack[base + P_SIDE] == BLACK:
        key ^= ZOBRIST[Z_SIDE]
    result: int = key
    return result


@jit()
def legal_moves(stack: IntArray, base: int, moves: IntArray, start: int) -> int:
    """Write the legal moves from ``moves[start]`` on; return how many."""
    count = generate(stack, base, moves, start, True)
    checked = in_check(stack, base)
    kept = 0
    for i in range(start, start + count):
        move = moves[i]
        if is_legal(stack, base, move, checked):
            moves[start + kept] = move
            kept += 1
    return kept


@jit()
def count_legal(stack: IntArray, base: int, moves: IntArray, start: int) -> int:
    """How many legal moves the position has (perft's last ply). Out of check, a knight, bishop,
    rook or queen off every line through its king moves freely, so its moves are counted from
    its attack set without being listed; the rest are listed and tested."""
    side = stack[base + P_SIDE]
    us = stack[base + P_WHITE + side]
    occupied = us | stack[base + P_WHITE + 1 - side]
    king_sq = lsb(stack[base + KING] & us)
    checked = attacked(stack, base, king_sq, 1 - side, occupied, ALL)
    total = 0
    if checked:
        count = generate(stack, base, moves, start, True)
        for i in range(start, start + count):
            if is_legal(stack, base, moves[i], True):
                total += 1
        return total
    lines = LINES[king_sq]
    free = ~us & ALL
    for piece in range(KNIGHT, KING):
        pieces = stack[base + piece] & us
        while pieces != 0:
            frm = lsb(pieces)
            pieces &= pieces - 1
            attacks = piece_attacks(piece, frm, occupied) & free
            if (1 << frm) & lines == 0:
                total += popcount(attacks)
            else:
                while attacks != 0:
                    to = lsb(attacks)
                    attacks &= attacks - 1
                    if is_legal(stack, base, frm | to << 6, False):
                        total += 1
    # Pawns off the king's lines move freely too, and are counted from shifted bitboards; only
    # their en passant captures (which take a second pawn off a rank) are tested one by one.
    pawns = stack[base + PAWN] & us
    free_pawns = pawns & ~lines
    total += pawn_move_count(free_pawns, side, ~occupied & ALL, stack[base + P_WHITE + 1 - side])
    ep = stack[base + P_EP]
    if ep >= 0:
        capturers = free_pawns & PAWN_ATTACKS[(1 - side) * 64 + ep]
        while capturers != 0:
            frm = lsb(capturers)
            capturers &= capturers - 1
            if is_legal(stack, base, frm | ep << 6 | K_EN_PASSANT << 15, False):
                total += 1
    count = generate_some(stack, base, moves, start, True, False, pawns & lines)
    for i in range(start, start + count):
        if is_legal(stack, base, moves[i], False):
            total += 1
    return total


@jit()
def pawn_move_count(pawns: int, side: int, empty: int, them: int) -> int:
    """The pushes and captures of ``pawns`` (not en passant), each promotion counted four times."""
    if side == WHITE:
        one = (pawns << 8) & empty
        two = ((one & RANK_3) << 8) & empty
        west = (pawns << 7) & NOT_FILE_H & them
        east = (pawns << 9) & NOT_FILE_A & them
        last = RANK_8
    else:
        one = (pawns >> 8) & empty
        two = ((one & RANK_6) >> 8) & empty
        west = (pawns >> 9) & NOT_FILE_H & them
        east = (pawns >> 7) & NOT_FILE_A & them
        last = RANK_1
    total = popcount(two)
    for targets in (one, west, east):
        total += popcount(targets & ~last) + 4 * popcount(targets & last)
    return total


@jit("int64(int64[::1], int64[::1], int64, int64)")
def perft(stack: IntArray, moves: IntArray, ply: int, depth: int) -> int:
    """Leaf nodes of the legal move tree ``depth`` plies below the position at ``ply``."""
    base = ply * POS_SIZE
    if depth == 0:
        return 1
    start = ply * MAX_MOVES
    if depth == 1:
        return count_legal(stack, base, moves, start)
    count = generate(stack, base, moves, start, True)
    checked = in_check(stack, base)
    total = 0
    for i in range(start, start + count):
        move = moves[i]
        if is_legal(stack, base, move, checked):
            make_move(stack, base, move)
            total += perft(stack, moves, ply + 1, depth - 1)
    return total


# ---------------------------------------------------------------------------------------------
# evaluation


@jit()
def pawn_attack_span(pawns: int, colour: int) -> int:
    """Squares attacked by ``colour``'s ``pawns``."""
    if colour == WHITE:
        return (((pawns << 7) & NOT_FILE_H) | ((pawns << 9) & NOT_FILE_A)) & ALL
    return ((pawns >> 7) & NOT_FILE_A) | ((pawns >> 9) & NOT_FILE_H)


@jit()
def evaluate(stack: IntArray, base: int, weights: FloatArray, features: FloatArray) -> int:
    """The static evaluation in centipawns from the side to move: the dot product of ``weights``
    with the features it writes into ``features`` (each White's value minus Black's)."""
    occupied = stack[base + P_WHITE] | stack[base + P_WHITE + 1]
    phase = 0
    mg = 0
    eg = 0
    for colour in range(2):
        for piece in range(6):
            pieces = stack[base + piece] & stack[base + P_WHITE + colour]
            while pieces != 0:
                sq = lsb(pieces)
                pieces &= pieces - 1
                index = (colour * 6 + piece) * 64 + sq
                if colour == WHITE:
                    mg += MG_PSQ[index]
                    eg += EG_PSQ[index]
                else:
                    mg -= MG_PSQ[index]
                    eg -= EG_PSQ[index]
                phase += PHASE[piece]
    phase = min(phase, PHASE_TOTAL)
    middle = phase / PHASE_TOTAL
    features[F_PHASE] = middle
    features[F_PSQT] = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL

    white_pawns = stack[base + PAWN] & stack[base + P_WHITE]
    black_pawns = stack[base + PAWN] & stack[base + P_WHITE + 1]
    mobility_term = 0.0
    attack_term = 0.0
    shelter_term = 0.0
    pair_term = 0.0
    passed_term = 0.0
    doubled_term = 0.0
    isolated_term = 0.0
    for colour in range(2):
        sign = 1.0 if colour == WHITE else -1.0
        us = stack[base + P_WHITE + colour]
        own_pawns = white_pawns if colour == WHITE else black_pawns
        enemy_pawns = black_pawns if colour == WHITE else white_pawns
        enemy_pawn_attacks = pawn_attack_span(enemy_pawns, 1 - colour)
        enemy_king = stack[base + KING] & stack[base + P_WHITE + 1 - colour]
        zone = 0
        if enemy_king != 0:
            zone = KING_ATTACKS[lsb(enemy_king)]
        safe = ~us & ~enemy_pawn_attacks & ALL
        mobility = 0
        attacks_on_king = 0
        for piece in range(KNIGHT, KING):
            pieces = stack[base + piece] & us
            while pieces != 0:
                sq = lsb(pieces)
                pieces &= pieces - 1
                attacks = piece_attacks(piece, sq, occupied)
                mobility += popcount(attacks & safe)
                attacks_on_king += popcount(attacks & zone)
        mobility_term += sign * mobility
        attack_term += sign * attacks_on_king * middle
        king = stack[base + KING] & us
        if king != 0:
            shelter = popcount(SHELTER[colour * 64 + lsb(king)] & own_pawns)
            shelter_term += sign * shelter * middle
        if popcount(stack[base + BISHOP] & us) >= 2:
            pair_term += sign
        passed = 0
        isolated = 0
        pawns = own_pawns
        while pawns != 0:
            sq = lsb(pawns)
            pawns &= pawns - 1
            if PASSED[colour * 64 + sq] & enemy_pawns == 0:
                advance = (sq >> 3) - 1 if colour == WHITE else 6 - (sq >> 3)
                passed += advance * advance
            if NEIGHBOUR_FILES[sq & 7] & own_pawns == 0:
                isolated += 1
        # pawns never stand on rank 8, so these right shifts see no sign bit
        files = own_pawns | (own_pawns >> 8)
        files |= files >> 16
        files |= files >> 32
        doubled = popcount(own_pawns) - popcount(files & 255)
        passed_term += sign * passed
        doubled_term += sign * doubled
        isolated_term += sign * isolated
    features[F_MOBILITY] = mobility_term
    features[F_KING_ATTACK] = attack_term
    features[F_KING_SHELTER] = shelter_term
    features[F_BISHOP_PAIR] = pair_term
    features[F_PASSED] = passed_term
    features[F_DOUBLED] = doubled_term
    features[F_ISOLATED] = isolated_term
    total = 0.0
    for i in range(N_TERMS):
        total += weights[i] * features[i]
    value = int(total)
    if value > MATE_BOUND - 1:
        value = MATE_BOUND - 1
    elif value < 1 - MATE_BOUND:
        value = 1 - MATE_BOUND
    return value if stack[base + P_SIDE] == WHITE else -value


NNUE_BIAS_ROW = NNUE_FEATURES
"""``ft``'s row after the inputs' rows: the transformer's bias."""
NNUE_ZERO_ROW = NNUE_FEATURES + 1
"""``ft``'s last row, all zeros: the update of a move with fewer changes than its loop adds."""

if COMPILED:
    # Compiled, the loops run over array views: numba's views let LLVM see that the rows do
    # not overlap, and it vectorises each loop (indexing one array at two offsets it did not).

    @jit()
    def nnue_update2(
        acc: Int32Array, at: int, parent: int, ft: ShortArray, hidden: int, sub: int, add: int
    ) -> None:
        """``acc[at:]`` = ``acc[parent:]`` minus row ``sub`` plus row ``add`` (one view)."""
        child = acc[at : at + hidden]
        before = acc[parent : parent + hidden]
        minus = ft[sub * hidden : sub * hidden + hidden]
        plus = ft[add * hidden : add * hidden + hidden]
        for i in range(hidden):
            child[i] = before[i] - minus[i] + plus[i]

    @jit()
    def nnue_update4(
        acc: Int32Array,
        at: int,
        parent: int,
        ft: ShortArray,
        hidden: int,
        sub1: int,
        sub2: int,
        add1: int,
        add2: int,
    ) -> None:
        """``acc[at:]`` = ``acc[parent:]`` minus two rows plus two rows (one view)."""
        child = acc[at : at + hidden]
        before = acc[parent : parent + hidden]
        minus1 = ft[sub1 * hidden : sub1 * hidden + hidden]
        minus2 = ft[sub2 * hidden : sub2 * hidden + hidden]
        plus1 = ft[add1 * hidden : add1 * hidden + hidden]
        plus2 = ft[add2 * hidden : add2 * hidden + hidden]
        for i in range(hidden):
            child[i] = before[i] - minus1[i] - minus2[i] + plus1[i] + plus2[i]

    @jit()
    def nnue_output(acc: Int32Array, us: int, them: int, out: Int32Array, hidden: int) -> int:
        """The output layer on the clipped accumulators ``acc[us]`` (side to move) and
        ``acc[them]``, in centipawns, the division towards zero (as :func:`nnue.evaluate`)."""
        total = 0
        mine = acc[us : us + hidden]
        weights = out[:hidden]
        for i in range(hidden):
            total += min(max(mine[i], 0), NNUE_QA) * weights[i]
        theirs = acc[them : them + hidden]
        weights = out[hidden : 2 * hidden]
        for i in range(hidden):
            total += min(max(theirs[i], 0), NNUE_QA) * weights[i]
        total += out[2 * hidden]
        scaled = total * NNUE_SCALE
        value: int = abs(scaled) // (NNUE_QA * NNUE_QB)
        return value if scaled >= 0 else -value

else:

    def nnue_update2(
        acc: Int32Array, at: int, parent: int, ft: ShortArray, hidden: int, sub: int, add: int
    ) -> None:
        """``acc[at:]`` = ``acc[parent:]`` minus row ``sub`` plus row ``add`` (one view)."""
        minus = sub * hidden
        plus = add * hidden
        for i in range(hidden):
            acc[at + i] = acc[parent + i] - ft[minus + i] + ft[plus + i]

    def nnue_update4(
        acc: Int32Array,
        at: int,
        parent: int,
        ft: ShortArray,
        hidden: int,
        sub1: int,
        sub2: int,
        add1: int,
        add2: int,
    ) -> None:
        """``acc[at:]`` = ``acc[parent:]`` minus two rows plus two rows (one view)."""
        minus1, minus2 = sub1 * hidden, sub2 * hidden
        plus1, plus2 = add1 * hidden, add2 * hidden
        for i in range(hidden):
            acc[at + i] = (
                acc[parent + i] - ft[minus1 + i] - ft[minus2 + i] + ft[plus1 + i] + ft[plus2 + i]
            )

    def nnue_output(acc: Int32Array, us: int, them: int, out: Int32Array, hidden: int) -> int:
        """The output layer on the clipped accumulators ``acc[us]`` (side to move) and
        ``acc[them]``, in centipawns, the division towards zero (as :func:`nnue.evaluate`)."""
        total = 0
        for i in range(hidden):
            total += min(max(acc[us + i], 0), NNUE_QA) * out[i]
        for i in range(hidden):
            total += min(max(acc[them + i], 0), NNUE_QA) * out[hidden + i]
        total += out[2 * hidden]
        scaled = total * NNUE_SCALE
        value: int = abs(scaled) // (NNUE_QA * NNUE_QB)
        return value if scaled >= 0 else -value


@jit()
def nnue_refresh(stack: IntArray, ply: int, ft: ShortArray, acc: Int32Array, hidden: int) -> None:
    """Compute ply ``ply``'s accumulators from scratch: the bias plus every piece's row."""
    base = ply * POS_SIZE
    at = ply * 2 * hidden
    bias = NNUE_BIAS_ROW * hidden
    for i in range(hidden):
        acc[at + i] = ft[bias + i]
        acc[at + hidden + i] = ft[bias + i]
    for colour in range(2):
        for piece in range(6):
            pieces = stack[base + piece] & stack[base + P_WHITE + colour]
            while pieces != 0:
                sq = lsb(pieces)
                pieces &= pieces - 1
                white_row = (colour * 6 + piece) * 64 + sq
                black_row = ((1 - colour) * 6 + piece) * 64 + (sq ^ 56)
                nnue_update2(acc, at, at, ft, hidden, NNUE_ZERO_ROW, white_row)
                nnue_update2(acc, at + hidden, at + hidden, ft, hidden, NNUE_ZERO_ROW, black_row)


@jit()
def nnue_step(stack: IntArray, ply: int, ft: ShortArray, acc: Int32Array, hidden: int) -> None:
    """Ply ``ply``'s accumulators from ply ``ply - 1``'s, by the rows of the pieces that differ
    between the two positions (two to four after a move, none after a null move), in one pass
    per view; positions further apart are computed afresh."""
    parent = (ply - 1) * POS_SIZE
    child = ply * POS_SIZE
    size = 2 * hidden
    at = ply * size
    before = at - size
    subs = 0
    adds = 0
    white_sub1 = white_sub2 = white_add1 = white_add2 = NNUE_ZERO_ROW
    black_sub1 = black_sub2 = black_add1 = black_add2 = NNUE_ZERO_ROW
    for colour in range(2):
        was = stack[parent + P_WHITE + colour]
        now = stack[child + P_WHITE + colour]
        for piece in range(6):
            old = stack[parent + piece] & was
            new = stack[child + piece] & now
            gone = old & ~new
            while gone != 0:
                sq = lsb(gone)
                gone &= gone - 1
                white_row = (colour * 6 + piece) * 64 + sq
                black_row = ((1 - colour) * 6 + piece) * 64 + (sq ^ 56)
                if subs == 0:
                    white_sub1, black_sub1 = white_row, black_row
                else:
                    white_sub2, black_sub2 = white_row, black_row
                subs += 1
            came = new & ~old
            while came != 0:
                sq = lsb(came)
                came &= came - 1
                white_row = (colour * 6 + piece) * 64 + sq
                black_row = ((1 - colour) * 6 + piece) * 64 + (sq ^ 56)
                if adds == 0:
                    white_add1, black_add1 = white_row, black_row
                else:
                    white_add2, black_add2 = white_row, black_row
                adds += 1
    if subs > 2 or adds > 2:
        nnue_refresh(stack, ply, ft, acc, hidden)
    elif subs <= 1 and adds <= 1:
        nnue_update2(acc, at, before, ft, hidden, white_sub1, white_add1)
        nnue_update2(acc, at + hidden, before + hidden, ft, hidden, black_sub1, black_add1)
    else:
        nnue_update4(acc, at, before, ft, hidden, white_sub1, white_sub2, white_add1, white_add2)
        nnue_update4(
            acc,
            at + hidden,
            before + hidden,
            ft,
            hidden,
            black_sub1,
            black_sub2,
            black_add1,
            black_add2,
        )


@jit()
def nnue_valid(stack: IntArray, work: IntArray, ply: int) -> bool:
    """Whether ply ``ply``'s accumulators were computed for the position now at that ply."""
    base = ply * POS_SIZE
    mark = ACC_BASE + ply * ACC_BOARDS
    for i in range(ACC_BOARDS):  # noqa: SIM110 (numba compiles loops, not generators)
        if work[mark + i] != stack[base + i]:
            return False
    return True


@jit()
def nnue_mark(stack: IntArray, work: IntArray, ply: int) -> None:
    base = ply * POS_SIZE
    mark = ACC_BASE + ply * ACC_BOARDS
    for i in range(ACC_BOARDS):
        work[mark + i] = stack[base + i]


@jit()
def nnue_accumulate(
    stack: IntArray, ply: int, ft: ShortArray, acc: Int32Array, work: IntArray, hidden: int
) -> None:
    """Make ply ``ply``'s accumulators valid: step up from the nearest valid ply below (from
    the root, computed afresh, when there is none)."""
    valid = ply
    while valid >= 0 and not nnue_valid(stack, work, valid):
        valid -= 1
    if valid < 0:
        nnue_refresh(stack, 0, ft, acc, hidden)
        nnue_mark(stack, work, 0)
        valid = 0
    for step in range(valid + 1, ply + 1):
        nnue_step(stack, step, ft, acc, hidden)
        nnue_mark(stack, work, step)


@jit()
def nnue_evaluate(
    stack: IntArray, ply: int, ft: ShortArray, out: Int32Array, acc: Int32Array, work: IntArray
) -> int:
    """The network's value of the position at ``ply``, in centipawns from the side to move:
    exactly :func:`zermelo.solvers.chess.nnue.evaluate` of it (not clamped)."""
    hidden = len(out) // 2
    nnue_accumulate(stack, ply, ft, acc, work, hidden)
    at = ply * 2 * hidden
    side = stack[ply * POS_SIZE + P_SIDE]
    return nnue_output(acc, at + side * hidden, at + (1 - side) * hidden, out, hidden)


@jit()
def evaluate_cached(
    stack: IntArray,
    base: int,
    weights: FloatArray,
    features: FloatArray,
    work: IntArray,
    ft: ShortArray,
    out: Int32Array,
    acc: Int32Array,
) -> int:
    """The search's static evaluation from the side to move: the network's when there is one
    (``out`` not empty; clamped below the mate scores), else :func:`evaluate`; through the
    evaluation cache in ``work`` (``features`` is left unchanged on a hit). The cache must be
    emptied when the weights or the network change."""
    key = stack[base + P_HASH]
    slot = EVAL_BASE + ((key & (EVAL_SLOTS - 1)) << 1)
    if work[slot] == key and key != 0:
        value: int = work[slot + 1]
    else:
        if len(out) > 0:
            value = nnue_evaluate(stack, base // POS_SIZE, ft, out, acc, work)
            if value > MATE_BOUND - 1:
                value = MATE_BOUND - 1
            elif value < 1 - MATE_BOUND:
                value = 1 - MATE_BOUND
        else:
            value = evaluate(stack, base, weights, features)
        if stack[base + P_SIDE] == BLACK:
            value = -value
        work[slot] = key
        work[slot + 1] = value
    return value if stack[base + P_SIDE] == WHITE else -value


# ---------------------------------------------------------------------------------------------
# search


@jit()
def is_draw(stack: IntArray, work: IntArray, ply: int) -> bool:
    """A repetition (of any earlier position of the game or the search), the fifty-move rule, or
    material that cannot mate (kings with at most one minor piece)."""
    base = ply * POS_SIZE
    halfmove = stack[base + P_HALFMOVE]
    if halfmove >= 100:
        return True
    heavy = stack[base + PAWN] | stack[base + ROOK] | stack[base + QUEEN]
    if heavy == 0 and popcount(stack[base + KNIGHT] | stack[base + BISHOP]) <= 1:
        return True
    key = stack[base + P_HASH]
    game = work[W_HISTORY_LENGTH]
    back = 2
    while back <= halfmove:
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


@jit()
def tt_probe(table: IntArray, key: int) -> int:
    """The data word stored for ``key``, or -1.

    A slot holds ``key ^ data`` and ``data`` (Hyatt and Mann's lock-free hashing): threads that
    share the table may interleave their writes of one slot, and a slot whose two words come
    from different writes then fails the check instead of giving another position's data."""
    slot = (key & ((len(table) >> 1) - 1)) << 1
    data: int = table[slot + 1]
    if table[slot] ^ data == key:
        return data
    return -1


@jit()
def tt_store(
    table: IntArray, key: int, move: int, depth: int, bound: int, score: int, ply: int
) -> None:
    slot = (key & ((len(table) >> 1) - 1)) << 1
    if move == 0:
        old = table[slot + 1]
        if table[slot] ^ old == key:
            move = old & ((1 << 18) - 1)
    if score > MATE_BOUND:
        score += ply
    elif score < -MATE_BOUND:
        score -= ply
    depth = max(depth, 0)
    data = move | depth << 18 | bound << 25 | (score + SCORE_OFFSET) << 32
    table[slot] = key ^ data
    table[slot + 1] = data


@jit()
def tt_score(data: int, ply: int) -> int:
    score = (data >> 32) - SCORE_OFFSET
    if score > MATE_BOUND:
        score -= ply
    elif score < -MATE_BOUND:
        score += ply
    return score


@jit()
def capture_value(stack: IntArray, base: int, move: int) -> int:
    """The value of what ``move`` captures (a pawn for en passant), or 0."""
    if move >> 15 == K_EN_PASSANT:
        return SEE_PAWN
    victim = piece_on(stack, base, (move >> 6) & 63)
    if victim < 0:
        return 0
    value: int = SEE[victim]
    return value


@jit()
def is_losing_capture(stack: IntArray, base: int, move: int) -> bool:
    """A capture by a piece worth more than its victim onto a square the enemy defends."""
    frm = move & 63
    to = (move >> 6) & 63
    attacker = SEE[piece_on(stack, base, frm)]
    victim = capture_value(stack, base, move)
    if attacker <= victim:
        return False
    side = stack[base + P_SIDE]
    occupied = (stack[base + P_WHITE] | stack[base + P_WHITE + 1]) & ~(1 << frm)
    return attacked(stack, base, to, 1 - side, occupied, ALL)


@jit()
def score_moves(
    stack: IntArray,
    base: int,
    moves: IntArray,
    order: IntArray,
    start: int,
    count: int,
    tt_move: int,
    work: IntArray,
    ply: int,
) -> None:
    """Ordering scores: the table's move, good captures (most valuable victim, least valuable
    attacker), killers, quiet moves by history, losing captures last."""
    side = stack[base + P_SIDE]
    them = stack[base + P_WHITE + 1 - side]
    killer1 = work[KILLER_BASE + 2 * ply]
    killer2 = work[KILLER_BASE + 2 * ply + 1]
    for i in range(start, start + count):
        move = moves[i]
        if move == tt_move:
            order[i] = SCORE_TT_MOVE
            continue
        to = (move >> 6) & 63
        promotion = (move >> 12) & 7
        if them & (1 << to) != 0 or move >> 15 == K_EN_PASSANT or promotion == QUEEN:
            victim = capture_value(stack, base, move)
            attacker = piece_on(stack, base, move & 63)
            value = victim * 16 - attacker + (SEE_QUEEN if promotion == QUEEN else 0)
            if promotion == 0 and is_losing_capture(stack, base, move):
                order[i] = SCORE_BAD_CAPTURE + value
            else:
                order[i] = SCORE_GOOD_CAPTURE + value
        elif promotion != 0:
            order[i] = SCORE_BAD_CAPTURE - 1000 + promotion
        elif move == killer1:
            order[i] = SCORE_KILLER1
        elif move == killer2:
            order[i] = SCORE_KILLER2
        else:
            order[i] = work[HISTORY_BASE + side * 4096 + (move & 4095)]


@jit()
def pick(moves: IntArray, order: IntArray, i: int, end: int) -> int:
    """Swap the best-scored move of ``i..end`` into place ``i`` and return it."""
    best = i
    for j in range(i + 1, end):
        if order[j] > order[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        order[i], order[best] = order[best], order[i]
    move: int = moves[i]
    return move


@jit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], float64[::1],"
    " int16[::1], int32[::1], int32[::1], int64, int64, int64)"
)
def quiesce(
    stack: IntArray,
    moves: IntArray,
    order: IntArray,
    work: IntArray,
    weights: FloatArray,
    features: FloatArray,
    ft: ShortArray,
    out: Int32Array,
    acc: Int32Array,
    ply: int,
    alpha: int,
    beta: int,
) -> int:
    """Captures (and queen promotions) only, until the position is quiet; fail-soft."""
    work[W_NODES] += 1
    work[W_QNODES] += 1
    if work[W_NODES] >= work[W_NODE_LIMIT]:
        work[W_STOP] = 1
    if work[W_STOP] != 0:
        return 0
    work[W_SELDEPTH] = max(work[W_SELDEPTH], ply)
    base = ply * POS_SIZE
    stand = evaluate_cached(stack, base, weights, features, work, ft, out, acc)
    if ply >= MAX_PLY or stand >= beta:
        return stand
    alpha = max(alpha, stand)
    best = stand
    start = ply * MAX_MOVES
    count = generate(stack, base, moves, start, False)
    if count == 0:
        return best
    score_moves(stack, base, moves, order, start, count, 0, work, ply)
    checked = in_check(stack, base)
    ordered = work[W_SWITCHES] & SW_QUIESCENCE_ORDER != 0
    for i in range(start, start + count):
        if ordered:
            move = pick(moves, order, i, start + count)
            if order[i] < SCORE_GOOD_CAPTURE:
                break
        else:
            move = moves[i]
            if order[i] < SCORE_GOOD_CAPTURE:
                continue
        if (move >> 12) & 7 == 0 and stand + capture_value(stack, base, move) + 200 <= alpha:
            continue
        if not is_legal(stack, base, move, checked):
            continue
        make_move(stack, base, move)
        score = -quiesce(
            stack, moves, order, work, weights, features, ft, out, acc, ply + 1, -beta, -alpha
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


@jit()
def update_pv(work: IntArray, ply: int, move: int) -> None:
    row = PV_BASE + ply * (MAX_PLY + 4)
    child = row + (MAX_PLY + 4)
    work[row + ply] = move
    length = work[PV_LENGTH_BASE + ply + 1]
    for i in range(ply + 1, length):
        work[row + i] = work[child + i]
    work[PV_LENGTH_BASE + ply] = max(length, ply + 1)


@jit()
def non_pawn_material(stack: IntArray, base: int) -> bool:
    us = stack[base + P_WHITE + stack[base + P_SIDE]]
    pieces = stack[base + KNIGHT] | stack[base + BISHOP] | stack[base + ROOK] | stack[base + QUEEN]
    found: bool = pieces & us != 0
    return found


@jit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], float64[::1],"
    " int16[::1], int32[::1], int32[::1], int64, int64, int64, int64)"
)
def negamax(
    stack: IntArray,
    moves: IntArray,
    order: IntArray,
    table: IntArray,
    work: IntArray,
    weights: FloatArray,
    features: FloatArray,
    ft: ShortArray,
    out: Int32Array,
    acc: Int32Array,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    """The score of the position at ``ply`` from its side to move, searched ``depth`` plies.

    Fail-soft principal-variation search: the result ``v`` is exact when ``alpha < v < beta``,
    an upper bound when ``v <= alpha`` and a lower bound when ``v >= beta``. Wins are
    ``WIN - plies`` counted from the root (ply 0). When the stop flag rises it returns 0 at once,
    and the caller must ignore what it got."""
    base = ply * POS_SIZE
    work[PV_LENGTH_BASE + ply] = ply
    pv_node = beta - alpha > 1
    if ply > 0:
        if is_draw(stack, work, ply):
            return 0
        mate_alpha = -(WIN - ply)
        mate_beta = WIN - ply - 1
        alpha = max(alpha, mate_alpha)
        beta = min(beta, mate_beta)
        if alpha >= beta:
            return alpha
    switches = work[W_SWITCHES]
    checked = in_check(stack, base)
    if checked and switches & SW_CHECK_EXTENSION != 0:
        depth += 1
    if depth <= 0 or ply >= MAX_PLY:
        return quiesce(stack, moves, order, work, weights, features, ft, out, acc, ply, alpha, beta)
    work[W_NODES] += 1
    if work[W_NODES] >= work[W_NODE_LIMIT]:
        work[W_STOP] = 1
    if work[W_STOP] != 0:
        return 0
    key = stack[base + P_HASH]
    tt_move = 0
    data = tt_probe(table, key)
    if data >= 0:
        if switches & SW_TT_MOVE != 0:
            tt_move = data & ((1 << 18) - 1)
        stored_depth = (data >> 18) & 127
        if not pv_node and ply > 0 and stored_depth >= depth and switches & SW_TT_CUTOFFS != 0:
            bound = (data >> 25) & 3
            score = tt_score(data, ply)
            if bound == BOUND_EXACT:
                return score
            if bound == BOUND_LOWER and score >= beta:
                return score
            if bound == BOUND_UPPER and score <= alpha:
                return score
    static = -INFINITY
    if not checked:
        static = evaluate_cached(stack, base, weights, features, work, ft, out, acc)
        if data >= 0:
            bound = (data >> 25) & 3
            score = tt_score(data, ply)
            tighter = (bound == BOUND_LOWER and score > static) or (
                bound == BOUND_UPPER and score < static
            )
            if tighter and abs(score) < MATE_BOUND:
                static = score
    if not pv_node and not checked and ply > 0:
        if (
            depth <= 6
            and static - 85 * depth >= beta
            and abs(beta) < MATE_BOUND
            and switches & SW_FUTILITY != 0
        ):
            return static
        if (
            switches & SW_NULL_MOVE != 0
            and stack[base + P_NULL] == 0
            and depth >= 3
            and static >= beta
            and non_pawn_material(stack, base)
        ):
            reduction = 3 + depth // 4
            make_null(stack, base)
            score = -negamax(
                stack,
                moves,
                order,
                table,
                work,
                weights,
                features,
                ft,
                out,
                acc,
                ply + 1,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
            )
            if work[W_STOP] != 0:
                return 0
            if score >= beta:
                if score > MATE_BOUND:
                    score = beta
                return score
    if pv_node and tt_move == 0 and depth >= 6 and switches & SW_TT_MOVE != 0:
        negamax(
            stack,
            moves,
            order,
            table,
            work,
            weights,
            features,
            ft,
            out,
            acc,
            ply,
            depth - 4,
            alpha,
            beta,
        )
        if work[W_STOP] != 0:
            return 0
        data = tt_probe(table, key)
        if data >= 0:
            tt_move = data & ((1 << 18) - 1)
        work[PV_LENGTH_BASE + ply] = ply
    futile = (
        switches & SW_FUTILITY != 0
        and not pv_node
        and not checked
        and depth <= 3
        and abs(alpha) < MATE_BOUND
        and static + 100 + 110 * depth <= alpha
    )
    start = ply * MAX_MOVES
    count = generate(stack, base, moves, start, True)
    score_moves(stack, base, moves, order, start, count, tt_move, work, ply)
    side = stack[base + P_SIDE]
    best = -INFINITY
    best_move = 0
    legal = 0
    quiets = 0
    original_alpha = alpha
    child = base + POS_SIZE
    enemy_king = lsb(stack[base + KING] & stack[base + P_WHITE + 1 - side])
    for i in range(start, start + count):
        move = pick(moves, order, i, start + count)
        if not is_legal(stack, base, move, checked):
            continue
        legal += 1
        to = (move >> 6) & 63
        capture = stack[base + P_WHITE + 1 - side] & (1 << to) != 0 or move >> 15 == K_EN_PASSANT
        quiet = not capture and (move >> 12) & 7 == 0
        make_move(stack, base, move)
        from_to = (1 << (move & 63)) | (1 << to)
        if (
            move >> 15 >= K_CASTLE
            or (LINES[enemy_king] | KNIGHT_ATTACKS[enemy_king]) & from_to != 0
        ):
            gives_check = in_check(stack, child)
        else:
            gives_check = False
        if quiet:
            quiets += 1
        if quiet and not checked and not gives_check and legal > 1 and best > -MATE_BOUND:
            if futile:
                continue
            if (
                not pv_node
                and depth <= 3
                and quiets > 3 + depth * depth
                and switches & SW_LATE_MOVE_PRUNING != 0
            ):
                continue
        if legal == 1:
            score = -negamax(
                stack,
                moves,
                order,
                table,
                work,
                weights,
                features,
                ft,
                out,
                acc,
                ply + 1,
                depth - 1,
                -beta,
                -alpha,
            )
        else:
            reduction = 0
            if (
                depth >= 3
                and legal > 3
                and quiet
                and not checked
                and not gives_check
                and switches & SW_LATE_MOVE_REDUCTIONS != 0
            ):
                reduction = REDUCTION[min(depth, 63) * 64 + min(legal, 63)]
                if pv_node:
                    reduction -= 1
                if move == work[KILLER_BASE + 2 * ply] or move == work[KILLER_BASE + 2 * ply + 1]:
                    reduction -= 1
                reduction = max(reduction, 0)
                reduction = min(reduction, depth - 2)
            score = -negamax(
                stack,
                moves,
                order,
                table,
                work,
                weights,
                features,
                ft,
                out,
                acc,
                ply + 1,
                depth - 1 - reduction,
                -alpha - 1,
                -alpha,
            )
            if score > alpha and reduction > 0 and work[W_STOP] == 0:
                score = -negamax(
                    stack,
                    moves,
                    order,
                    table,
                    work,
                    weights,
                    features,
                    ft,
                    out,
                    acc,
                    ply + 1,
                    depth - 1,
                    -alpha - 1,
                    -alpha,
                )
            if score > alpha and score < beta and work[W_STOP] == 0:
                score = -negamax(
                    stack,
                    moves,
                    order,
                    table,
                    work,
                    weights,
                    features,
                    ft,
                    out,
                    acc,
                    ply + 1,
                    depth - 1,
                    -beta,
                    -alpha,
                )
        if work[W_STOP] != 0:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                update_pv(work, ply, move)
                if score >= beta:
                    if quiet:
                        if work[KILLER_BASE + 2 * ply] != move and switches & SW_KILLERS != 0:
                            work[KILLER_BASE + 2 * ply + 1] = work[KILLER_BASE + 2 * ply]
                            work[KILLER_BASE + 2 * ply] = move
                        if switches & SW_HISTORY != 0:
                            slot = HISTORY_BASE + side * 4096 + (move & 4095)
                            work[slot] += depth * depth
                            if work[slot] > HISTORY_LIMIT:
                                for h in range(HISTORY_BASE, HISTORY_BASE + 2 * 4096):
                                    work[h] >>= 1
                    break
    if legal == 0:
        return -(WIN - ply) if checked else 0
    if best == -INFINITY:
        best = alpha
    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt_store(table, key, best_move, depth, bound, best, ply)
    return best
