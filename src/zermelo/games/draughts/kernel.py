"""The draughts move generator: bitboards, maximum captures and perft, for every draughts game.

One source for international draughts and Turkish dama (and any variant whose board fits in 64
squares): the game is the ``table`` argument, built by :mod:`zermelo.games.draughts.rules` (its
docstring lays the table out). Compiled by numba when it is installed (``nopython``, no GIL);
without numba, or with ``ZERMELO_NO_NUMBA=1``, the same functions run as ordinary Python on ints
and lists. Importing this module compiles nothing: numba compiles a function on its first call,
and nothing here is recursive (the capture search and perft keep explicit stacks), so they may
be compiled in any order, from Python or from another kernel's compiled code.

Masks: bit ``sq`` is the 0-based square ``sq``. Compiled, a mask is a signed 64-bit word (dama's
h8 is the sign bit); plain, a Python int below 2**64. Code here never compares a mask with
anything but 0, right-shifts only through a direction's to-mask (which clears what an
arithmetic shift smears in), and left-shifts only squares whose target is on the board.

Sides: 0 White (moves first), 1 Black.

A move is three words ``from_sq, to_sq, captured``: 0-based squares and the mask of the pieces
taken (0 for a step). Making one is plain arithmetic (:func:`make_move`)::

    mover   ^= (1 << from_sq) ^ (1 << to_sq)   # from|to, or nothing when a capture ends where it began
    opponent &= ~captured;  kings &= ~captured
    if the piece was a king: kings ^= (1 << from_sq) ^ (1 << to_sq)
    elif to_sq is on the mover's promotion row: kings |= 1 << to_sq

The generator (:func:`gen_moves`) gives captures when there is one, and then only those that take
the most pieces (kings and men count the same). A king or man passing its promotion row in the
middle of a capture goes on as it was; only the square where the move ends crowns a man (which
is international draughts' rule and dama's "crowned when the move ends" alike).

**Counting convention.** A move is what it does to the position: :func:`gen_moves` (and so
:func:`legal`, and the engine) gives moves with the same (from, to, captured) once, however many
capture orders or landing paths lead to them. perft follows each game's published table:

* international draughts counts each (from, to, captured) once: the start position gives 9, 81,
  658, 4265, 27117, 167140, 1049442, 6483961, 41022423 (counting paths instead gives 6483971 at
  depth 8), and the FMJD forum's perft positions (Woldouby, random178, all kings, almost
  promotion) match the same way;
* dama's table counts each capture *path* (sequence of landing squares) once: 8, 64, 708, 7538,
  85090, 931312, 10782382 at depth 7 (and 123290300 at depth 8, as the kish crate's tests give);
  counting (from, to, captured) once gives 10782308 at depth 7. The table says so with
  ``F_COUNT_PATHS``: :func:`perft` then keeps one entry per path at every ply.

**Room.** ``MAX_MOVES`` (256) bounds the moves of a position. Steps cannot exceed it: each
(empty square, direction) pair is the target of at most one step (that of the nearest piece
behind it, when it may move that way), so a position has at most ``4 * empty squares`` steps
(200 on the 10x10 board, 248 on dama's with two pieces). Captures of the maximum length are far
fewer in any position reached in play; should one ever have more, the extra ones are dropped.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidPositionError
from zermelo.core.jit import (
    NUMBA_AVAILABLE,
    kernel_variant,
    make_jit,
    make_popcount,
    numba_disabled,
)
from zermelo.games.draughts.rules import (
    F_COUNT_PATHS,
    F_IMMEDIATE,
    F_NO_REVERSE,
    PAIRS,
    T_BOARD,
    T_DIR,
    T_FLAGS,
    T_KING_DIRS,
    T_KING_FLIES,
    T_MAN_CAPTURES,
    T_MAN_STEPS,
    T_NDIRS,
    T_OPPOSITE,
    T_PROMOTION,
    KMove,
    Rules,
)

if TYPE_CHECKING:
    from zermelo.core.jit import IntArray

__all__ = [
    "COMPILED",
    "MAX_DEPTH",
    "MAX_MOVES",
    "KMove",
    "count",
    "from_word",
    "gen_moves",
    "gen_moves_with",
    "has_capture",
    "legal",
    "make_move",
    "new_stack",
    "paths",
    "perft",
    "play",
    "table_array",
    "to_word",
]

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy of the kernel is compiled (the pure copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)
popcount = make_popcount(COMPILED)

MAX_MOVES = 256
"""Room for the moves of one position (``out`` holds ``3 * MAX_MOVES`` words per ply)."""
MAX_DEPTH = 20
"""The deepest perft :func:`count` runs (as for chess: its ``out`` array grows with the
depth, and a deeper one would not end in a lifetime)."""

_MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------------------------------------
# in-kernel


@jit()
def shift(table: IntArray, x: int, d: int) -> int:
    """Every square of mask ``x`` moved one square in direction ``d`` (off-board ones dropped)."""
    at = T_DIR + 3 * PAIRS * d
    result = 0
    for _ in range(PAIRS):
        s = table[at]
        y = x & table[at + 1]
        y = y << s if s >= 0 else y >> -s
        result |= y & table[at + 2]
        at += 3
    return result


@jit()
def bit_index(bit: int) -> int:
    """The square of a one-square mask (the lowest set bit of any non-zero mask)."""
    return popcount((bit & -bit) - 1)


@jit()
def _record(
    out: IntArray, base: int, n: int, origin: int, to: int, captured: int, taken: int, once: bool
) -> int:
    """Add the capture (origin, to, captured) of ``taken`` pieces to the ``n`` moves at
    ``out[base]`` unless shorter than them or (when ``once``) already there; drop them when it
    is longer."""
    if n > 0:
        best = popcount(out[base + 2])
        if taken < best:
            return n
        if taken > best:
            n = 0
    if once:
        for i in range(n):
            j = base + 3 * i
            if out[j + 2] == captured and out[j + 1] == to and out[j] == origin:
                return n
    if n >= MAX_MOVES:
        return n
    j = base + 3 * n
    out[j] = origin
    out[j + 1] = to
    out[j + 2] = captured
    return n + 1


FRAME = 8
"""Words per level of :func:`_captures`' stack: the square (a mask), the opponent's pieces still
to take, the free squares, the pieces taken, the direction of the last capture, the direction
being tried, its next landing square (a mask, 0 when none is left) and its victim."""
STACK_WORDS = FRAME * 34
"""Room for a capture of up to 33 pieces (a side has at most 20 in international draughts, 16 in
dama)."""

if COMPILED:
    import numpy as np

    @jit()
    def _words(size: int) -> IntArray:
        return np.empty(size, np.int64)

else:

    def _words(size: int) -> IntArray:
        return [0] * size


@jit()
def new_stack() -> IntArray:
    """Scratch for the capture search (``STACK_WORDS`` words): see :func:`gen_moves_with`."""
    return _words(STACK_WORDS)


@jit()
def _captures(
    table: IntArray,
    origin: int,
    start: int,
    king: int,
    side: int,
    opp: int,
    empty: int,
    out: IntArray,
    base: int,
    n: int,
    once: bool,
    stack: IntArray,
) -> int:
    """Every capture of the piece on ``start`` (a mask; square ``origin``), found depth first on
    an explicit ``stack`` (no recursion: numba caches recursive functions safely only when they
    are compiled from their declared signature first); complete captures are recorded by
    :func:`_record`. ``opp`` is the opponent's pieces; ``empty`` the free squares, the moving
    piece's origin included (under ``F_IMMEDIATE`` a taken piece's square joins them at once,
    otherwise it stays occupied, and so blocks, until the move ends). Returns the new number of
    moves."""
    flags = table[T_FLAGS]
    immediate = flags & F_IMMEDIATE
    no_reverse = flags & F_NO_REVERSE
    dirs = table[T_KING_DIRS] if king else table[T_MAN_CAPTURES + side]
    nd = table[T_NDIRS]
    flies = king != 0 and table[T_KING_FLIES] != 0
    # the current level lives in locals; the levels below it on the stack
    level = 0
    at = start
    left = opp
    free = empty
    captured = 0
    last = -1
    d = -1
    land = 0
    victim = 0
    went = 0
    while True:
        if land:
            # capture ``victim`` landing on ``land``: save this level (with its next landing
            # square) and go one deeper
            beyond = free | victim if immediate else free
            f = level * FRAME
            stack[f] = at
            stack[f + 1] = left
            stack[f + 2] = free
            stack[f + 3] = captured
            stack[f + 4] = last
            stack[f + 5] = d
            stack[f + 6] = shift(table, land, d) & beyond if flies else 0
            stack[f + 7] = victim
            level += 1
            at = land
            left &= ~victim
            free = beyond
            captured |= victim
            last = d
            d = -1
            land = 0
            went = 0
            continue
        # the next direction with a piece to take
        avoid = table[T_OPPOSITE + last] if last >= 0 and no_reverse else -1
        d += 1
        while d < nd:
            if (dirs >> d) & 1 and d != avoid:
                victim = shift(table, at, d)
                if flies:
                    while victim & free:
                        victim = shift(table, victim, d)
                if victim & left:
                    land = shift(table, victim, d) & (free | victim if immediate else free)
                    if land:
                        break
            d += 1
        if land:
            continue
        # no capture left from here: a complete one if this level was reached by capturing
        if level == 0:
            return n
        if not went:
            n = _record(out, base, n, origin, bit_index(at), captured, level, once)
        level -= 1
        f = level * FRAME
        at = stack[f]
        left = stack[f + 1]
        free = stack[f + 2]
        captured = stack[f + 3]
        last = stack[f + 4]
        d = stack[f + 5]
        land = stack[f + 6]
        victim = stack[f + 7]
        went = 1


@jit()
def king_captures(table: IntArray, royal: int, opp: int, empty: int) -> int:
    """The kings of ``royal`` that can take a piece of ``opp`` (with ``empty`` the free squares):
    every ray is slid at once, so the cost is the board's length, not the number of kings."""
    result = 0
    if not royal:
        return result
    dirs = table[T_KING_DIRS]
    flies = table[T_KING_FLIES] != 0
    for d in range(table[T_NDIRS]):
        if not (dirs >> d) & 1:
            continue
        o = table[T_OPPOSITE + d]
        if not flies:
            result |= shift(table, shift(table, royal, d) & opp & shift(table, empty, o), o)
            continue
        # the first piece on each king's ray, when it is the opponent's with a free square behind
        ray = shift(table, royal, d)
        victims = 0
        while ray:
            victims |= ray & opp
            ray = shift(table, ray & empty, d)
        victims &= shift(table, empty, o)
        # back along the rays, over the free squares, to the kings that see those pieces
        ray = shift(table, victims, o)
        while ray:
            result |= ray & royal
            ray = shift(table, ray & empty, o)
    return result


@jit()
def capture_starts(table: IntArray, white: int, black: int, kings: int, side: int) -> int:
    """The pieces of ``side`` that can take something (a mask; 0 when no capture is due)."""
    own = black if side else white
    opp = white if side else black
    empty = table[T_BOARD] & ~(white | black)
    men = own & ~kings
    starts = king_captures(table, own & kings, opp, empty)
    dirs = table[T_MAN_CAPTURES + side]
    for d in range(table[T_NDIRS]):
        if (dirs >> d) & 1:
            land = shift(table, shift(table, men, d) & opp, d) & empty
            if land:
                o = table[T_OPPOSITE + d]
                starts |= shift(table, shift(table, land, o), o)
    return starts


@jit()
def _gen_captures_from(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    starts: int,
    out: IntArray,
    base: int,
    once: bool,
    stack: IntArray,
) -> int:
    """The maximum captures of the pieces ``starts`` at ``out[base]`` (``stack``: scratch of
    ``STACK_WORDS``)."""
    opp = white if side else black
    empty = table[T_BOARD] & ~(white | black)
    n = 0
    while starts:
        bit = starts & -starts
        starts ^= bit
        king = 1 if bit & kings else 0
        n = _captures(
            table, bit_index(bit), bit, king, side, opp, empty | bit, out, base, n, once, stack
        )
    return n


@jit()
def gen_captures(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    out: IntArray,
    base: int,
    once: bool,
) -> int:
    """The maximum captures of ``side`` at ``out[base]``; 0 if none. With ``once``, moves with
    the same (from, to, captured) are written once (:func:`gen_moves`); without, once per capture
    path (the sequence of landing squares: dama's perft convention)."""
    starts = capture_starts(table, white, black, kings, side)
    if not starts:
        return 0
    return _gen_captures_from(
        table, white, black, kings, side, starts, out, base, once, new_stack()
    )


@jit()
def has_capture(table: IntArray, white: int, black: int, kings: int, side: int) -> bool:
    """Whether ``side`` has a capture (and so must capture)."""
    own = black if side else white
    opp = white if side else black
    empty = table[T_BOARD] & ~(white | black)
    men = own & ~kings
    dirs = table[T_MAN_CAPTURES + side]
    nd = table[T_NDIRS]
    for d in range(nd):
        if (dirs >> d) & 1 and shift(table, shift(table, men, d) & opp, d) & empty:
            return True
    royal = own & kings
    if not royal:
        return False
    if table[T_KING_FLIES] == 0:
        return king_captures(table, royal, opp, empty) != 0
    dirs = table[T_KING_DIRS]
    for d in range(nd):
        if (dirs >> d) & 1:
            # every king's ray at once; its first piece, if the opponent's with a free square
            # behind, is a capture
            ray = shift(table, royal, d)
            victims = 0
            while ray:
                victims |= ray & opp
                ray = shift(table, ray & empty, d)
            if shift(table, victims, d) & empty:
                return True
    return False


@jit()
def gen_steps(
    table: IntArray, white: int, black: int, kings: int, side: int, out: IntArray, base: int
) -> int:
    """The non-capturing moves of ``side`` at ``out[base]``; returns how many."""
    own = black if side else white
    empty = table[T_BOARD] & ~(white | black)
    men = own & ~kings
    nd = table[T_NDIRS]
    n = 0
    dirs = table[T_MAN_STEPS + side]
    for d in range(nd):
        if not (dirs >> d) & 1:
            continue
        o = table[T_OPPOSITE + d]
        targets = shift(table, men, d) & empty
        while targets and n < MAX_MOVES:
            bit = targets & -targets
            targets ^= bit
            j = base + 3 * n
            out[j] = bit_index(shift(table, bit, o))
            out[j + 1] = bit_index(bit)
            out[j + 2] = 0
            n += 1
    royal = own & kings
    flies = table[T_KING_FLIES] != 0
    dirs = table[T_KING_DIRS]
    while royal:
        bit = royal & -royal
        royal ^= bit
        origin = bit_index(bit)
        for d in range(nd):
            if not (dirs >> d) & 1:
                continue
            ray = shift(table, bit, d) & empty
            while ray and n < MAX_MOVES:
                j = base + 3 * n
                out[j] = origin
                out[j + 1] = bit_index(ray)
                out[j + 2] = 0
                n += 1
                if not flies:
                    break
                ray = shift(table, ray, d) & empty
    return n


@jit()
def count_steps(table: IntArray, white: int, black: int, kings: int, side: int) -> int:
    """How many non-capturing moves ``side`` has (what :func:`gen_steps` would write)."""
    own = black if side else white
    empty = table[T_BOARD] & ~(white | black)
    men = own & ~kings
    nd = table[T_NDIRS]
    n = 0
    dirs = table[T_MAN_STEPS + side]
    for d in range(nd):
        if (dirs >> d) & 1:
            n += popcount(shift(table, men, d) & empty)
    royal = own & kings
    if not royal:
        return n
    flies = table[T_KING_FLIES] != 0
    dirs = table[T_KING_DIRS]
    for d in range(nd):
        if not (dirs >> d) & 1:
            continue
        if not flies:
            n += popcount(shift(table, royal, d) & empty)
            continue
        # all kings slide together: each round moves every ray one square further
        ray = shift(table, royal, d) & empty
        while ray:
            n += popcount(ray)
            ray = shift(table, ray, d) & empty
    return n


@jit()
def gen_moves(
    table: IntArray, white: int, black: int, kings: int, side: int, out: IntArray, base: int
) -> int:
    """Write the legal moves of ``side`` as triples ``out[base + 3*i .. +2] = from_sq, to_sq,
    captured``: the maximum captures when there is a capture, else every step; moves with the same
    (from, to, captured) once. Returns the count (at most ``MAX_MOVES``)."""
    starts = capture_starts(table, white, black, kings, side)
    if starts:
        return _gen_captures_from(
            table, white, black, kings, side, starts, out, base, True, new_stack()
        )
    return gen_steps(table, white, black, kings, side, out, base)


@jit()
def count_moves(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    out: IntArray,
    base: int,
    once: bool,
    stack: IntArray,
) -> int:
    """How many legal moves ``side`` has (``out[base]`` and ``stack`` are scratch for the
    captures; ``once`` as for :func:`gen_captures`)."""
    starts = capture_starts(table, white, black, kings, side)
    if starts:
        return _gen_captures_from(table, white, black, kings, side, starts, out, base, once, stack)
    return count_steps(table, white, black, kings, side)


@jit()
def make_move(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    frm: int,
    to: int,
    captured: int,
) -> tuple[int, int, int]:
    """The masks (white, black, kings) after ``side`` plays (frm, to, captured)."""
    source = 1 << frm
    target = 1 << to
    move = source ^ target
    if side:
        black ^= move
        white &= ~captured
    else:
        white ^= move
        black &= ~captured
    kings &= ~captured
    if kings & source:
        kings ^= move
    elif target & table[T_PROMOTION + side]:
        kings |= target
    return white, black, kings


@jit()
def gen_moves_with(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    out: IntArray,
    base: int,
    once: bool,
    stack: IntArray,
) -> int:
    """:func:`gen_moves` (with ``once``; without, one move per capture path) on a ``stack`` of
    ``STACK_WORDS`` from :func:`new_stack`, allocated once by the caller: :func:`gen_moves`
    allocates one whenever a capture is due, which a search calling it at every node may
    rather not."""
    starts = capture_starts(table, white, black, kings, side)
    if starts:
        return _gen_captures_from(table, white, black, kings, side, starts, out, base, once, stack)
    return gen_steps(table, white, black, kings, side, out, base)


@jit()
def perft(
    table: IntArray, white: int, black: int, kings: int, side: int, depth: int, out: IntArray
) -> int:
    """Leaf nodes of the legal move tree ``depth`` plies below the position (``out`` holds
    ``MAX_MOVES * 3 * (depth + 1)`` words; the last ply is counted, not made). Captures are
    counted by the game's convention: once per (from, to, captured), or once per capture path
    when the table has ``F_COUNT_PATHS`` (dama). Iterative, like the capture search: nothing in
    this kernel is recursive, so numba may compile it in any order."""
    if depth <= 0:
        return 1
    once = not table[T_FLAGS] & F_COUNT_PATHS
    stack = new_stack()
    if depth == 1:
        return count_moves(table, white, black, kings, side, out, 0, once, stack)
    # per ply below the root: the position, the next move to make and the number of moves
    plies = _words(6 * depth)
    plies[0] = white
    plies[1] = black
    plies[2] = kings
    plies[3] = side
    plies[4] = 0
    plies[5] = gen_moves_with(table, white, black, kings, side, out, 0, once, stack)
    total = 0
    ply = 0
    while ply >= 0:
        f = 6 * ply
        i = plies[f + 4]
        if i >= plies[f + 5]:
            ply -= 1
            continue
        plies[f + 4] = i + 1
        j = 3 * MAX_MOVES * ply + 3 * i
        mover = plies[f + 3]
        w, b, k = make_move(
            table, plies[f], plies[f + 1], plies[f + 2], mover, out[j], out[j + 1], out[j + 2]
        )
        below = 3 * MAX_MOVES * (ply + 1)
        if ply + 2 == depth:
            total += count_moves(table, w, b, k, 1 - mover, out, below, once, stack)
            continue
        ply += 1
        g = 6 * ply
        plies[g] = w
        plies[g + 1] = b
        plies[g + 2] = k
        plies[g + 3] = 1 - mover
        plies[g + 4] = 0
        plies[g + 5] = gen_moves_with(table, w, b, k, 1 - mover, out, below, once, stack)
    return total


# ---------------------------------------------------------------------------------------------
# the Python front: ints in, Python values out


_TABLES: dict[tuple[int, ...], IntArray] = {}


def table_array(rules: Rules) -> IntArray:
    """The rules' table as this copy's kernel reads it: an int64 array compiled, a list plain
    (cached, keyed by the table: variants may share a name)."""
    array = _TABLES.get(rules.table)
    if array is None:
        array = _array(list(rules.table))
        _TABLES[rules.table] = array
    return array


_table = table_array


def _array(values: list[int]) -> IntArray:
    if COMPILED:
        import numpy as np

        return np.array(values, dtype=np.int64)
    return values


def to_word(value: int) -> int:
    """A mask (a non-negative int) as this copy's kernel takes it: a signed word when compiled
    (dama's h8 is the sign bit)."""
    if COMPILED and value >= 1 << 63:
        return value - (1 << 64)
    return value


def from_word(word: int) -> int:
    """A mask the kernel gave back, as a non-negative int."""
    return int(word) & _MASK64


_word = to_word


def _active() -> ModuleType:
    """The kernel the Python front runs on: this module, or its plain copy while the compiled
    code is being built in the background (:func:`zermelo.core.jit.serve_plain`)."""
    return kernel_variant(sys.modules[__name__], None, "draughts kernel")


def _check(rules: Rules, white: int, black: int, kings: int, side: int) -> None:
    board = (1 << rules.squares) - 1
    for name, mask in (("white", white), ("black", black), ("kings", kings)):
        if not isinstance(mask, int) or mask < 0 or mask & ~board:
            raise InvalidPositionError(
                f"the {name} mask must be a non-negative int of the board's {rules.squares} squares"
            )
    if white & black:
        raise InvalidPositionError("a square holds both a white and a black piece")
    if kings & ~(white | black):
        raise InvalidPositionError("a king is marked on an empty square")
    if side not in (0, 1):
        raise InvalidPositionError("the side to move must be 0 (White) or 1 (Black)")


def _triples(
    rules: Rules, white: int, black: int, kings: int, side: int
) -> list[tuple[int, int, int]]:
    out = _array([0] * (3 * MAX_MOVES))
    n = gen_moves(_table(rules), _word(white), _word(black), _word(kings), side, out, 0)
    return [(int(out[3 * i]), int(out[3 * i + 1]), int(out[3 * i + 2]) & _MASK64) for i in range(n)]


def _step(table: tuple[int, ...], x: int, d: int) -> int:
    """:func:`shift` in plain Python (for the path search, which runs outside the kernel)."""
    at = T_DIR + 3 * PAIRS * d
    result = 0
    for _ in range(PAIRS):
        s = table[at]
        y = x & table[at + 1]
        result |= (y << s if s >= 0 else y >> -s) & table[at + 2]
        at += 3
    return result


def _all_paths(
    rules: Rules, white: int, black: int, kings: int, side: int, origin: int
) -> list[tuple[tuple[int, ...], int]]:
    """Every complete capture (path, captured) of the piece on ``origin``, whatever its length:
    the same rules as :func:`_captures`, keeping the landing squares."""
    table = rules.table
    own, opp = (black, white) if side else (white, black)
    start = 1 << origin
    if not own & start:
        return []
    king = bool(kings & start)
    dirs = table[T_KING_DIRS] if king else table[T_MAN_CAPTURES + side]
    flies = king and table[T_KING_FLIES] != 0
    flags = table[T_FLAGS]
    board = (1 << rules.squares) - 1
    found: list[tuple[tuple[int, ...], int]] = []

    def walk(
        at: int, path: tuple[int, ...], left: int, empty: int, captured: int, last: int
    ) -> None:
        avoid = table[T_OPPOSITE + last] if last >= 0 and flags & F_NO_REVERSE else -1
        extended = False
        for d in range(table[T_NDIRS]):
            if not (dirs >> d) & 1 or d == avoid:
                continue
            victim = _step(table, at, d)
            if flies:
                while victim & empty:
                    victim = _step(table, victim, d)
            if not victim & left:
                continue
            free = empty | victim if flags & F_IMMEDIATE else empty
            land = _step(table, victim, d) & free
            while land:
                extended = True
                walk(
                    land, (*path, land.bit_length() - 1), left & ~victim, free, captured | victim, d
                )
                if not flies:
                    break
                land = _step(table, land, d) & free
        if not extended and captured:
            found.append((path, captured))

    walk(start, (origin,), opp, (board & ~(white | black)) | start, 0, -1)
    return found


def legal(rules: Rules, white: int, black: int, kings: int, side: int) -> tuple[KMove, ...]:
    """The legal moves, sorted by path; a capture has one of its paths (see :func:`paths`)."""
    _check(rules, white, black, kings, side)
    kernel = _active()
    if kernel is not sys.modules[__name__]:
        result: tuple[KMove, ...] = kernel.legal(rules, white, black, kings, side)
        return result
    moves: list[KMove] = []
    by_origin: dict[int, dict[tuple[int, int], tuple[int, ...]]] = {}
    for frm, to, captured in _triples(rules, white, black, kings, side):
        if not captured:
            moves.append(KMove((frm, to), 0))
            continue
        first = by_origin.get(frm)
        if first is None:
            first = {}
            for path, taken in sorted(_all_paths(rules, white, black, kings, side, frm)):
                first.setdefault((path[-1], taken), path)
            by_origin[frm] = first
        moves.append(KMove(first[(to, captured)], captured))
    return tuple(sorted(moves))


def paths(
    rules: Rules,
    white: int,
    black: int,
    kings: int,
    side: int,
    origin: int,
    dest: int,
    captured: int,
) -> tuple[tuple[int, ...], ...]:
    """Every landing path (origin, landings..., dest) of the legal move (origin, dest, captured),
    sorted; () when that is no legal move."""
    _check(rules, white, black, kings, side)
    kernel = _active()
    if kernel is not sys.modules[__name__]:
        listed: tuple[tuple[int, ...], ...] = kernel.paths(
            rules, white, black, kings, side, origin, dest, captured
        )
        return listed
    if (origin, dest, captured) not in _triples(rules, white, black, kings, side):
        return ()
    if not captured:
        return ((origin, dest),)
    found = _all_paths(rules, white, black, kings, side, origin)
    return tuple(sorted({path for path, taken in found if taken == captured and path[-1] == dest}))


def play(
    rules: Rules, white: int, black: int, kings: int, side: int, move: KMove
) -> tuple[int, int, int]:
    """(white, black, kings) after ``side`` plays the legal ``move``."""
    _check(rules, white, black, kings, side)
    kernel = _active()
    if kernel is not sys.modules[__name__]:
        after: tuple[int, int, int] = kernel.play(rules, white, black, kings, side, move)
        return after
    if not (
        isinstance(move, tuple)
        and len(move) == 2
        and isinstance(move[0], tuple)
        and isinstance(move[1], int)
    ):
        raise IllegalMoveError("a kernel move is (path, captured mask): see KMove")
    path, captured = move
    if len(path) < 2 or not all(isinstance(sq, int) and 0 <= sq < rules.squares for sq in path):
        raise IllegalMoveError("a move is its origin and at least one landing square on the board")
    if len(path) > 2 or captured:
        if path not in paths(rules, white, black, kings, side, path[0], path[-1], captured):
            raise IllegalMoveError("that move is not legal in this position")
    elif (path[0], path[1], 0) not in _triples(rules, white, black, kings, side):
        raise IllegalMoveError("that move is not legal in this position")
    w, b, k = make_move(
        _table(rules),
        _word(white),
        _word(black),
        _word(kings),
        side,
        path[0],
        path[-1],
        _word(captured),
    )
    return int(w) & _MASK64, int(b) & _MASK64, int(k) & _MASK64


def count(rules: Rules, white: int, black: int, kings: int, side: int, depth: int) -> int:
    """perft: the leaf nodes ``depth`` plies below the position (through the kernel)."""
    _check(rules, white, black, kings, side)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise BudgetError(f"invalid perft depth {depth!r}: expected a depth from 0 to {MAX_DEPTH}")
    kernel = _active()
    if kernel is not sys.modules[__name__]:
        total: int = kernel.count(rules, white, black, kings, side, depth)
        return total
    out = _array([0] * (MAX_MOVES * 3 * (depth + 1)))
    return int(perft(_table(rules), _word(white), _word(black), _word(kings), side, depth, out))
