"""The draughts move generator: bitboards, maximum captures and perft, for every draughts game.

One source for international draughts and Turkish dama (and any variant whose board fits in 64
squares): the game is the ``table`` argument, built by :mod:`zermelo.games.draughts.rules` (its
docstring lays the table out). Compiled by numba when it is installed (``nopython``, no GIL);
without numba, or with ``ZERMELO_NO_NUMBA=1``, the same functions run as ordinary Python on ints
and lists. Importing this module compiles nothing: numba compiles a function on its first call,
and the recursive ones (explicit signatures) when :func:`zermelo.core.jit.finish` runs, which
:func:`zermelo.core.jit.kernel_variant` does before it hands the compiled module out.

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

**Counting convention.** Moves with the same (from, to, captured) are one move, however many
capture orders or landing paths lead to them: a move is what it does to the position. This is the
convention of the published perft tables for both games: international draughts' start position
gives 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, and dama's 8, 64, 708, 7538,
85090, 931312, 10782382 (both matched by ``tests/draughts/test_kernel.py``). Counting every
capture path instead gives larger dama numbers from depth 5 on (see the tests).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

from zermelo.core.errors import IllegalMoveError, InvalidPositionError
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
    "gen_moves",
    "has_capture",
    "legal",
    "make_move",
    "paths",
    "perft",
    "play",
]

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy of the kernel is compiled (the pure copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)
popcount = make_popcount(COMPILED)

MAX_MOVES = 256
"""Room for the moves of one position (``out`` holds ``3 * MAX_MOVES`` words per ply)."""
MAX_DEPTH = 60
"""The deepest perft :func:`count` runs (its ``out`` array grows with the depth)."""

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


@jit(
    "int64(int64[::1], int64, int64, int64, int64, int64, int64, int64, int64, int64,"
    " int64[::1], int64, int64, boolean)"
)
def _captures(
    table: IntArray,
    origin: int,
    at: int,
    king: int,
    side: int,
    opp: int,
    empty: int,
    captured: int,
    taken: int,
    last: int,
    out: IntArray,
    base: int,
    n: int,
    once: bool,
) -> int:
    """Every way to go on capturing from the square ``at`` (a mask), having taken ``captured``
    (``taken`` pieces, the last in direction ``last``, -1 before the first): complete captures
    are recorded by :func:`_record`. ``opp`` is the opponent's pieces still to take; ``empty`` the
    free squares, the moving piece's origin included (and, under ``F_IMMEDIATE``, the squares of
    the pieces taken). Returns the new number of moves."""
    flags = table[T_FLAGS]
    dirs = table[T_KING_DIRS] if king else table[T_MAN_CAPTURES + side]
    avoid = -1
    if last >= 0 and flags & F_NO_REVERSE:
        avoid = table[T_OPPOSITE + last]
    flies = king != 0 and table[T_KING_FLIES] != 0
    extended = False
    for d in range(table[T_NDIRS]):
        if not (dirs >> d) & 1 or d == avoid:
            continue
        victim = shift(table, at, d)
        if flies:
            while victim & empty:
                victim = shift(table, victim, d)
        if not victim & opp:
            continue
        free = empty | victim if flags & F_IMMEDIATE else empty
        land = shift(table, victim, d) & free
        while land:
            extended = True
            n = _captures(
                table,
                origin,
                land,
                king,
                side,
                opp & ~victim,
                free,
                captured | victim,
                taken + 1,
                d,
                out,
                base,
                n,
                once,
            )
            if not flies:
                break
            land = shift(table, land, d) & free
    if not extended and taken > 0:
        n = _record(out, base, n, origin, bit_index(at), captured, taken, once)
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
    own = black if side else white
    opp = white if side else black
    empty = table[T_BOARD] & ~(white | black)
    men = own & ~kings
    starts = own & kings
    dirs = table[T_MAN_CAPTURES + side]
    for d in range(table[T_NDIRS]):
        if (dirs >> d) & 1:
            land = shift(table, shift(table, men, d) & opp, d) & empty
            if land:
                o = table[T_OPPOSITE + d]
                starts |= shift(table, shift(table, land, o), o)
    n = 0
    while starts:
        bit = starts & -starts
        starts ^= bit
        king = 1 if bit & kings else 0
        n = _captures(
            table, bit_index(bit), bit, king, side, opp, empty | bit, 0, 0, -1, out, base, n, once
        )
    return n


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
    flies = table[T_KING_FLIES] != 0
    dirs = table[T_KING_DIRS]
    for d in range(nd):
        if not (dirs >> d) & 1:
            continue
        if not flies:
            if shift(table, shift(table, royal, d) & opp, d) & empty:
                return True
            continue
        rest = royal
        while rest:
            bit = rest & -rest
            rest ^= bit
            victim = shift(table, bit, d)
            while victim & empty:
                victim = shift(table, victim, d)
            if victim & opp and shift(table, victim, d) & empty:
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
    n = gen_captures(table, white, black, kings, side, out, base, True)
    if n:
        return n
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
) -> int:
    """How many legal moves ``side`` has (``out[base]`` is scratch for the captures; ``once``
    as for :func:`gen_captures`)."""
    if has_capture(table, white, black, kings, side):
        return gen_captures(table, white, black, kings, side, out, base, once)
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


@jit("int64(int64[::1], int64, int64, int64, int64, int64, int64[::1], int64, boolean)")
def _perft(
    table: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
    depth: int,
    out: IntArray,
    base: int,
    once: bool,
) -> int:
    if depth == 1:
        return count_moves(table, white, black, kings, side, out, base, once)
    n = gen_captures(table, white, black, kings, side, out, base, once)
    if not n:
        n = gen_steps(table, white, black, kings, side, out, base)
    total = 0
    below = base + 3 * MAX_MOVES
    for i in range(n):
        j = base + 3 * i
        w, b, k = make_move(table, white, black, kings, side, out[j], out[j + 1], out[j + 2])
        total += _perft(table, w, b, k, 1 - side, depth - 1, out, below, once)
    return total


@jit()
def perft(
    table: IntArray, white: int, black: int, kings: int, side: int, depth: int, out: IntArray
) -> int:
    """Leaf nodes of the legal move tree ``depth`` plies below the position (``out`` holds
    ``MAX_MOVES * 3 * (depth + 1)`` words; the last ply is counted, not made). Captures are
    counted by the game's convention: once per (from, to, captured), or once per capture path
    when the table has ``F_COUNT_PATHS`` (dama)."""
    if depth <= 0:
        return 1
    once = not table[T_FLAGS] & F_COUNT_PATHS
    return _perft(table, white, black, kings, side, depth, out, 0, once)


# ---------------------------------------------------------------------------------------------
# the Python front: ints in, Python values out


_TABLES: dict[tuple[int, ...], IntArray] = {}


def _table(rules: Rules) -> IntArray:
    """The rules' table as this copy's kernel reads it (keyed by the table: variants may share a
    name)."""
    array = _TABLES.get(rules.table)
    if array is None:
        array = _array(list(rules.table))
        _TABLES[rules.table] = array
    return array


def _array(values: list[int]) -> IntArray:
    if COMPILED:
        import numpy as np

        return np.array(values, dtype=np.int64)
    return values


def _word(value: int) -> int:
    """A mask as this copy's kernel takes it: a signed word when compiled."""
    if COMPILED and value >= 1 << 63:
        return value - (1 << 64)
    return value


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
    if not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        raise InvalidPositionError(f"the perft depth must be a whole number from 0 to {MAX_DEPTH}")
    kernel = _active()
    if kernel is not sys.modules[__name__]:
        total: int = kernel.count(rules, white, black, kings, side, depth)
        return total
    out = _array([0] * (MAX_MOVES * 3 * (depth + 1)))
    return int(perft(_table(rules), _word(white), _word(black), _word(kings), side, depth, out))
