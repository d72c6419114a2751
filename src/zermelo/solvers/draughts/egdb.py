"""The endgame database of international draughts: won, drawn or lost, for every position of up to
four pieces (the tutorial's "memory bank").

What a value means
    ``probe(white, black, kings, side)`` gives ``1`` (the side to move wins), ``0`` (a draw) or
    ``-1`` (it loses) with perfect play from both sides, under the FMJD rules of movement and
    capture (compulsory maximum capture, flying kings, a man crowned only where its move ends).
    ``None`` means the position is not covered (more pieces than the database holds, or a slice
    that was not built).

    The values are the *game-theoretic* ones, without the counting draw rules (the 25-move rule
    and the 16- and 5-move endgame rules): a position's entry depends on the position alone,
    while those rules depend on a counter carried along the game, which a table of two bits per
    position cannot hold. The rules can only turn a decided game into a draw (a win not
    completed within the count), never decide a drawn one, so a ``0`` here is a draw under the
    FMJD rules too, and a ``1``/``-1`` is the best the winner can hope for; a search that keeps
    the counters decides whether the win comes in time. Repetition is no matter: a game that goes
    round for ever is a draw here as it is on the board.

Slices and indexing
    A *slice* is one material: White's men and kings, Black's men and kings ``(wm, wk, bm, bk)``,
    with White to move (a position with Black to move is looked up rotated by 180 degrees with
    the colours swapped: square ``s`` becomes ``49 - s``, 0-based). Within a slice a position's
    index is combinatorial, group after group: White's men on their 45 squares (not the top row,
    where a white man would already be a king), Black's men on theirs (not the bottom row),
    White's kings on the squares the men left free, then Black's kings on what is still free::

        index = ((men_w * C(45, bm) + men_b) * C(50 - wm - bm, wk) + kings_w) * C(50 - wm - bm - wk, bk)
                + kings_b

    each group ranked as a combination (colex order: the ``i``-th smallest square ``p`` adds
    ``C(p, i)``). The two men's groups rank independently, so a white man and a black man on one
    square is an index with no position, stored as ``INVALID``.

    Each position takes two bits: ``0`` draw, ``1`` win, ``2`` loss, ``3`` no such position. A
    slice file (``<wm>m<wk>k-<bm>m<bk>k.bin`` in the ``egdb`` folder beside this module) is a
    16-byte header (magic ``ZEGDB1``, the four counts, the number of positions) and the
    LZMA-compressed packed bits, four positions a byte, the lowest bits first.

Building (``scripts/build_egdb.py``)
    Slices are built in order of pieces, then men, so that everything a move can reach outside its
    own slice is already known: a capture leaves fewer pieces, a crowning fewer men. A slice and
    its colour-swapped twin (what a quiet move reaches) are solved together as a *pair*: the
    moves of every position are generated once through the draughts kernel's ``gen_moves``, the
    moves that leave the pair are valued from the finished slices, the ones that stay in it are
    kept as a graph; then the graph is swept until nothing changes (a position with a lost
    child is won; one whose every child is won, lost) and what is still open is a draw.

In-kernel use (the engine's search)
    :func:`probe_kernel` is compiled code that other compiled code can call, on the arrays of a
    :class:`Database`: ``probe_kernel(db.binom, db.data, db.offsets, white, black, kings, side)``
    returns ``1``, ``0``, ``-1`` or :data:`NOT_COVERED` (``2``). It does not check its input: the
    caller gives it a legal position (no white man on squares 1-5, no black man on 46-50).
    ``db.data`` holds every loaded slice's packed bits one after the other and ``db.offsets[key]``
    where slice ``key = ((wm * 5 + wk) * 5 + bm) * 5 + bk`` starts (``-1``: not loaded).

numba caches the compiled functions here with the kernel's ``gen_moves`` built in; after the
kernel's source changes, clear the cache (``NUMBA_CACHE_DIR`` or ``__pycache__``) before a build.
"""

from __future__ import annotations

import lzma
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from zermelo.core.errors import InvalidPositionError, ZermeloError
from zermelo.core.jit import NUMBA_AVAILABLE, finish, kernel_variant, make_jit, numba_disabled
from zermelo.games.draughts import kernel as _draughts_kernel
from zermelo.games.draughts.rules import INTERNATIONAL

if TYPE_CHECKING:
    from zermelo.core.jit import ByteArray, IntArray

COMPILED: bool = NUMBA_AVAILABLE and not numba_disabled() and not globals().get("FORCE_PURE", False)
"""Whether this copy is compiled (the plain copy sets ``FORCE_PURE`` first)."""

jit = make_jit(COMPILED)

SQUARES = 50
MAX_PIECES = 4
"""The most pieces (both sides together) a slice may hold."""
KEYS = 625
"""Slice keys run from 0 to 624: ``((wm * 5 + wk) * 5 + bm) * 5 + bk``."""

DRAW, WIN, LOSS, INVALID = 0, 1, 2, 3
"""The two-bit codes of the files."""
UNKNOWN = 4
"""A position not decided yet (building only)."""
NOT_COVERED = 2
"""What :func:`probe_kernel` returns for a position outside the loaded slices."""

MAGIC = b"ZEGDB1"
HEADER = struct.Struct("<6s4BxxI")
"""magic, wm, wk, bm, bk, two spare bytes, positions."""

_MOVE_SLOTS = 256 * 3
"""Room for one position's moves from ``gen_moves`` (triples)."""


def _binomials() -> list[int]:
    """``C(n, k)`` for n 0..50, k 0..4, at ``n * 5 + k``."""
    table = [0] * (51 * 5)
    for n in range(51):
        value = 1
        for k in range(5):
            table[n * 5 + k] = value if k <= n else 0
            value = value * (n - k) // (k + 1)
    return table


BINOMIALS: tuple[int, ...] = tuple(_binomials())


def choose(n: int, k: int) -> int:
    return BINOMIALS[n * 5 + k] if 0 <= k <= 4 and 0 <= n <= 50 else 0


class Material(NamedTuple):
    """A slice: White's men and kings, Black's men and kings (White to move)."""

    wm: int
    wk: int
    bm: int
    bk: int

    @property
    def key(self) -> int:
        return ((self.wm * 5 + self.wk) * 5 + self.bm) * 5 + self.bk

    @property
    def pieces(self) -> int:
        return self.wm + self.wk + self.bm + self.bk

    @property
    def men(self) -> int:
        return self.wm + self.bm

    @property
    def size(self) -> int:
        """Indices of the slice (positions, and the few with two men on one square)."""
        free = SQUARES - self.wm - self.bm
        return (
            choose(45, self.wm)
            * choose(45, self.bm)
            * choose(free, self.wk)
            * choose(free - self.wk, self.bk)
        )

    def swapped(self) -> Material:
        """The colour-swapped material: what a quiet move of this slice reaches."""
        return Material(self.bm, self.bk, self.wm, self.wk)

    @property
    def name(self) -> str:
        return f"{self.wm}m{self.wk}k-{self.bm}m{self.bk}k"


def materials(max_pieces: int = MAX_PIECES) -> list[Material]:
    """Every slice of up to ``max_pieces`` pieces with a piece on each side, in build order
    (pieces, then men, then the counts)."""
    found = [
        Material(wm, wk, bm, bk)
        for wm in range(5)
        for wk in range(5)
        for bm in range(5)
        for bk in range(5)
        if wm + wk >= 1 and bm + bk >= 1 and wm + wk + bm + bk <= max_pieces
    ]
    return sorted(found, key=lambda m: (m.pieces, m.men, tuple(m)))


def pairs(max_pieces: int = MAX_PIECES) -> list[tuple[Material, ...]]:
    """The build's units in order: each slice with its colour-swapped twin (one slice when it is
    its own twin)."""
    seen: set[Material] = set()
    out: list[tuple[Material, ...]] = []
    for material in materials(max_pieces):
        if material in seen:
            continue
        twin = material.swapped()
        seen.update((material, twin))
        out.append((material,) if twin == material else (material, twin))
    return out


def level(material: Material) -> tuple[int, int]:
    """Pairs of one level depend only on lower levels: they may be built at the same time."""
    return (material.pieces, material.men)


# --- compiled code ------------------------------------------------------------------------------


@jit()
def flip(mask: int) -> int:
    """The mask turned by 180 degrees (square ``s`` to ``49 - s``)."""
    out = 0
    for s in range(SQUARES):
        if (mask >> s) & 1:
            out |= 1 << (SQUARES - 1 - s)
    return out


@jit()
def material_key(white: int, black: int, kings: int) -> int:
    """The slice key of a position (counts above 4 give keys past 624)."""
    wm = 0
    wk = 0
    bm = 0
    bk = 0
    for s in range(SQUARES):
        bit = 1 << s
        if white & bit:
            if kings & bit:
                wk += 1
            else:
                wm += 1
        elif black & bit:
            if kings & bit:
                bk += 1
            else:
                bm += 1
    if wm > 4 or wk > 4 or bm > 4 or bk > 4:
        return KEYS
    return ((wm * 5 + wk) * 5 + bm) * 5 + bk


@jit()
def position_index(binom: IntArray, white: int, black: int, kings: int) -> int:
    """The index of a position (White to move) within its slice; -1 for a man on its own
    crowning row. At most four pieces in each of the four groups."""
    cwm = 0
    cbm = 0
    cwk = 0
    cbk = 0
    iwm = 0
    ibm = 0
    iwk = 0
    ibk = 0
    for s in range(SQUARES):
        bit = 1 << s
        if white & bit:
            if kings & bit:
                cwk += 1
                iwk += binom[(s - cwm - cbm) * 5 + cwk]
            else:
                if s < 5:
                    return -1
                cwm += 1
                iwm += binom[(s - 5) * 5 + cwm]
        elif black & bit:
            if kings & bit:
                cbk += 1
                ibk += binom[(s - cwm - cbm - cwk) * 5 + cbk]
            else:
                if s >= 45:
                    return -1
                cbm += 1
                ibm += binom[s * 5 + cbm]
    free = SQUARES - cwm - cbm
    index = iwm * binom[45 * 5 + cbm] + ibm
    index = index * binom[free * 5 + cwk] + iwk
    return index * binom[(free - cwk) * 5 + cbk] + ibk


@jit()
def _subset(binom: IntArray, rank: int, k: int, n: int) -> int:
    """The ``rank``-th ``k``-subset of ``0..n-1`` in colex order, as a mask."""
    mask = 0
    c = n - 1
    for i in range(k, 0, -1):
        while binom[c * 5 + i] > rank:
            c -= 1
        mask |= 1 << c
        rank -= binom[c * 5 + i]
        c -= 1
    return mask


@jit()
def _spread(ranks: int, occupied: int) -> int:
    """Squares of the free-square ranks ``ranks`` (bits), skipping ``occupied``."""
    out = 0
    rank = 0
    for s in range(SQUARES):
        if (occupied >> s) & 1:
            continue
        if (ranks >> rank) & 1:
            out |= 1 << s
        rank += 1
    return out


@jit()
def position_at(
    binom: IntArray, wm: int, wk: int, bm: int, bk: int, index: int
) -> tuple[int, int, int]:
    """``(white, black, kings)`` of ``index`` in slice ``(wm, wk, bm, bk)``; ``white = -1`` where
    the two men's groups share a square (no position)."""
    free = SQUARES - wm - bm
    size_bk = binom[(free - wk) * 5 + bk]
    size_wk = binom[free * 5 + wk]
    size_bm = binom[45 * 5 + bm]
    ibk = index % size_bk
    index //= size_bk
    iwk = index % size_wk
    index //= size_wk
    ibm = index % size_bm
    iwm = index // size_bm
    wmen = _subset(binom, iwm, wm, 45) << 5
    bmen = _subset(binom, ibm, bm, 45)
    if wmen & bmen:
        return -1, 0, 0
    men = wmen | bmen
    wkings = _spread(_subset(binom, iwk, wk, free), men)
    bkings = _spread(_subset(binom, ibk, bk, free - wk), men | wkings)
    return wmen | wkings, bmen | bkings, wkings | bkings


@jit()
def _stored(data: ByteArray, offset: int, index: int) -> int:
    return (data[offset + (index >> 2)] >> ((index & 3) * 2)) & 3


@jit()
def probe_kernel(
    binom: IntArray,
    data: ByteArray,
    offsets: IntArray,
    white: int,
    black: int,
    kings: int,
    side: int,
) -> int:
    """1 / 0 / -1 for the side to move (0 White, 1 Black), or ``NOT_COVERED``."""
    if side == 1:
        white, black, kings = flip(black), flip(white), flip(kings)
    if white == 0:
        return -1
    if black == 0:
        return 1
    key = material_key(white, black, kings)
    if key >= KEYS or offsets[key] < 0:
        return NOT_COVERED
    index = position_index(binom, white, black, kings)
    if index < 0:
        return NOT_COVERED
    code = _stored(data, offsets[key], index)
    if code == WIN:
        return 1
    if code == LOSS:
        return -1
    if code == DRAW:
        return 0
    return NOT_COVERED


@jit()
def _child(
    binom: IntArray,
    data: ByteArray,
    offsets: IntArray,
    key_a: int,
    key_b: int,
    size_a: int,
    white: int,
    black: int,
    kings: int,
) -> int:
    """The child reached by White's move, Black to move: its code for Black (``DRAW``, ``WIN``,
    ``LOSS``), or ``-1 - local`` when it lies in the pair being built (``local`` its index there),
    or ``UNKNOWN`` when its slice is missing."""
    fw = flip(black)
    fb = flip(white)
    fk = flip(kings)
    if fw == 0:
        return LOSS
    key = material_key(fw, fb, fk)
    if key >= KEYS:
        return UNKNOWN
    index = position_index(binom, fw, fb, fk)
    if key == key_a:
        return -1 - index
    if key == key_b:
        return -1 - (size_a + index)
    if offsets[key] < 0 or index < 0:
        return UNKNOWN
    return _stored(data, offsets[key], index)


@jit()
def _expand(
    gen_table: IntArray,
    binom: IntArray,
    data: ByteArray,
    offsets: IntArray,
    slice_a: IntArray,
    slice_b: IntArray,
    start: int,
    stop: int,
    values: IntArray,
    open_draw: IntArray,
    starts: IntArray,
    edges: IntArray,
    fill: bool,
    moves: IntArray,
) -> int:
    """Generate the moves of the pair's positions ``start..stop-1`` (local indices: slice A, then
    slice B). Counting (``fill`` false): decide what the moves leaving the pair decide, note a
    drawn child outside (``open_draw``) and count the children inside (``starts[i + 1]``).
    Filling: write the inside children of the open positions at ``edges[starts[i]:]``. Returns
    the number of positions whose moves reach a missing slice (0 in a proper build order)."""
    key_a = ((slice_a[0] * 5 + slice_a[1]) * 5 + slice_a[2]) * 5 + slice_a[3]
    size_a = slice_a[4]
    key_b = -2
    if slice_b[4] > 0:
        key_b = ((slice_b[0] * 5 + slice_b[1]) * 5 + slice_b[2]) * 5 + slice_b[3]
    missing = 0
    for i in range(start, stop):
        if fill and values[i] != UNKNOWN:
            continue
        if i < size_a:
            white, black, kings = position_at(
                binom, slice_a[0], slice_a[1], slice_a[2], slice_a[3], i
            )
        else:
            white, black, kings = position_at(
                binom, slice_b[0], slice_b[1], slice_b[2], slice_b[3], i - size_a
            )
        if white < 0:
            values[i] = INVALID
            continue
        count = gen_moves(gen_table, white, black, kings, 0, moves, 0)
        if count == 0:
            values[i] = LOSS
            continue
        won = False
        drawn = False
        inside = 0
        write = starts[i] if fill else 0
        for m in range(count):
            origin = moves[3 * m]
            target = moves[3 * m + 1]
            taken = moves[3 * m + 2]
            w, b, k = make_move(gen_table, white, black, kings, 0, origin, target, taken)
            code = _child(binom, data, offsets, key_a, key_b, size_a, w, b, k)
            if code == LOSS:
                won = True
                break
            if code == DRAW:
                drawn = True
            elif code == UNKNOWN:
                missing += 1
                drawn = True
            elif code < 0:
                if fill:
                    edges[write + inside] = -1 - code
                inside += 1
        if fill:
            continue
        if won:
            values[i] = WIN
            starts[i + 1] = 0
        else:
            open_draw[i] = 1 if drawn else 0
            starts[i + 1] = inside
    return missing


@jit()
def _sweep(values: IntArray, open_draw: IntArray, starts: IntArray, edges: IntArray) -> int:
    """One pass over the open positions: won if a child is lost, lost if every child is won
    (and none outside the pair is drawn). Returns how many were decided."""
    decided = 0
    for i in range(len(values)):
        if values[i] != UNKNOWN:
            continue
        every_won = open_draw[i] == 0
        won = False
        for e in range(starts[i], starts[i + 1]):
            code = values[edges[e]]
            if code == LOSS:
                won = True
                break
            if code != WIN:
                every_won = False
        if won:
            values[i] = WIN
            decided += 1
        elif every_won:
            values[i] = LOSS
            decided += 1
    return decided


@jit()
def _pack(values: IntArray, start: int, stop: int, out: IntArray) -> None:
    """Two bits a position (open ones as draws) into ``out``, four to a byte."""
    for i in range(start, stop):
        code = values[i]
        if code == UNKNOWN:
            code = DRAW
        j = i - start
        out[j >> 2] |= code << ((j & 3) * 2)


_KERNEL: ModuleType = (
    _draughts_kernel
    if COMPILED or not _draughts_kernel.COMPILED
    else kernel_variant(_draughts_kernel, False, "draughts kernel")
)
gen_moves = _KERNEL.gen_moves
make_move = _KERNEL.make_move


def _ready() -> None:
    """Compile the kernel's functions with explicit signatures before compiled code here calls
    them (importing compiles nothing)."""
    finish(_KERNEL)


# --- files and the database ---------------------------------------------------------------------


def default_directory() -> Path:
    """The folder of the shipped slices."""
    return Path(str(resources.files("zermelo.solvers.draughts"))) / "egdb"


def slice_path(directory: Path, material: Material) -> Path:
    return directory / f"{material.name}.bin"


def packed_size(material: Material) -> int:
    return (material.size + 3) // 4


def write_slice(path: Path, material: Material, packed: bytes) -> None:
    """Write one slice file atomically (a build stopped midway leaves no half file)."""
    if len(packed) != packed_size(material):
        raise ValueError(f"{material.name}: {len(packed)} bytes, expected {packed_size(material)}")
    header = HEADER.pack(MAGIC, *material, material.size)
    body = lzma.compress(packed, preset=9 | lzma.PRESET_EXTREME)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(header + body)
    partial.replace(path)


def read_slice(path: Path, material: Material) -> bytes:
    """The packed bits of one slice file; :class:`ZermeloError` naming the file when it is not
    that slice's."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ZermeloError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        magic, wm, wk, bm, bk, size = HEADER.unpack_from(raw)
        packed = lzma.decompress(raw[HEADER.size :])
    except (struct.error, lzma.LZMAError):
        raise ZermeloError(f"{path}: not an endgame database slice (damaged?)") from None
    if magic != MAGIC or (wm, wk, bm, bk) != tuple(material) or size != material.size:
        raise ZermeloError(f"{path}: holds another slice than {material.name}")
    if len(packed) != packed_size(material):
        raise ZermeloError(
            f"{path}: {len(packed)} bytes of values, expected {packed_size(material)}"
        )
    return packed


def _as_array(values: list[int]) -> IntArray:
    if not COMPILED:
        return list(values)
    import numpy as np

    return np.asarray(values, np.int64)


def _as_bytes(values: bytearray) -> ByteArray:
    if not COMPILED:
        return bytes(values)
    import numpy as np

    return np.frombuffer(bytes(values), np.uint8).copy()


@dataclass
class Database:
    """The loaded slices: ``binom``, ``data`` and ``offsets`` are what :func:`probe_kernel`
    reads (int64 numpy arrays when compiled, lists in the plain copy)."""

    binom: IntArray
    data: ByteArray
    offsets: IntArray
    slices: tuple[Material, ...] = field(default=())

    @property
    def max_pieces(self) -> int:
        """Every slice of up to this many pieces is loaded (0: none)."""
        loaded = set(self.slices)
        best = 0
        for n in range(2, MAX_PIECES + 1):
            if all(m in loaded for m in materials(n)):
                best = n
        return best

    def probe(self, white: int, black: int, kings: int, side: int) -> int | None:
        """1 win, 0 draw, -1 loss for the side to move (0 White, 1 Black); ``None`` when the
        position is not covered. A position that cannot be (overlapping masks, kings that are no
        piece, squares beyond 50, a man on its own crowning row) raises
        :class:`InvalidPositionError` saying what is wrong."""
        check_position(white, black, kings, side)
        if (white | black).bit_count() > MAX_PIECES:
            return None
        value = probe_kernel(self.binom, self.data, self.offsets, white, black, kings, side)
        return None if value == NOT_COVERED else int(value)


def check_position(white: int, black: int, kings: int, side: int) -> None:
    full = (1 << SQUARES) - 1
    for name, mask in (("white", white), ("black", black), ("kings", kings)):
        if not isinstance(mask, int) or mask < 0 or mask & ~full:
            raise InvalidPositionError(
                f"{name} mask {mask!r}: expected a non-negative int of squares 1-50 (bits 0-49)"
            )
    if side not in (0, 1):
        raise InvalidPositionError(f"side {side!r}: expected 0 (White to move) or 1 (Black)")
    if white & black:
        raise InvalidPositionError("white and black share a square")
    if kings & ~(white | black):
        raise InvalidPositionError("a king on a square with no piece")
    if white & ~kings & 0b11111:
        raise InvalidPositionError("a white man on squares 1-5, where it would be a king")
    if black & ~kings & (0b11111 << 45):
        raise InvalidPositionError("a black man on squares 46-50, where it would be a king")


def load(directory: Path | None = None, max_pieces: int = MAX_PIECES) -> Database:
    """Every slice file of up to ``max_pieces`` pieces found in ``directory`` (default: the
    shipped ones)."""
    folder = default_directory() if directory is None else directory
    offsets = [-1] * KEYS
    data = bytearray()
    found: list[Material] = []
    for material in materials(max_pieces):
        path = slice_path(folder, material)
        if not path.exists():
            continue
        packed = read_slice(path, material)
        offsets[material.key] = len(data)
        data += packed
        found.append(material)
    return Database(
        binomials(),
        _as_bytes(data),
        _as_array(offsets),
        tuple(found),
    )


_DEFAULT: list[Database] = []
_BINOMIALS: list[IntArray] = []


def binomials() -> IntArray:
    """:data:`BINOMIALS` as the compiled functions take them (made once)."""
    if not _BINOMIALS:
        _BINOMIALS.append(_as_array(list(BINOMIALS)))
    return _BINOMIALS[0]


def default() -> Database:
    """The shipped database, loaded once."""
    if not _DEFAULT:
        _DEFAULT.append(load())
    return _DEFAULT[0]


def probe(white: int, black: int, kings: int, side: int) -> int | None:
    """:meth:`Database.probe` of the shipped database."""
    return default().probe(white, black, kings, side)


# --- building -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairResult:
    """What building one pair gave: per slice its counts of wins, draws, losses (for the side to
    move) and its packed bits; ``sweeps`` the passes over the graph, ``edges`` its size."""

    materials: tuple[Material, ...]
    packed: tuple[bytes, ...]
    counts: tuple[tuple[int, int, int], ...]
    sweeps: int
    edges: int


def _np() -> ModuleType:
    import numpy

    return numpy


def build_pair(pair: tuple[Material, ...], known: Database, chunk: int = 1 << 16) -> PairResult:
    """Solve ``pair`` (a slice and its twin) given ``known``, which must hold every slice its
    captures and crownings reach (:class:`ZermeloError` otherwise)."""
    if not COMPILED:
        raise ZermeloError(
            "building the endgame database needs numba (pip install 'zermelo[fast]')"
        )
    np = _np()
    first = pair[0]
    second = pair[1] if len(pair) > 1 else None
    size_a = first.size
    size_b = second.size if second is not None else 0
    total = size_a + size_b
    slice_a = np.asarray([*first, size_a], np.int64)
    slice_b = np.asarray([*(second or Material(0, 0, 0, 0)), size_b], np.int64)
    _ready()
    table = np.asarray(INTERNATIONAL.table, np.int64)
    values = np.full(total, UNKNOWN, np.int64)
    open_draw = np.zeros(total, np.int64)
    starts = np.zeros(total + 1, np.int64)
    moves = np.zeros(_MOVE_SLOTS, np.int64)
    no_edges = np.zeros(1, np.int64)
    args = (table, known.binom, known.data, known.offsets, slice_a, slice_b)
    missing = 0
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        missing += _expand(*args, start, stop, values, open_draw, starts, no_edges, False, moves)
    if missing:
        raise ZermeloError(
            f"{first.name}: {missing} moves reach slices not built yet; build smaller ones first"
        )
    np.cumsum(starts, out=starts)
    edges_total = int(starts[-1])
    edges = np.zeros(max(edges_total, 1), np.int64 if total >= 1 << 31 else np.int32)
    for start in range(0, total, chunk):
        _expand(
            *args, start, min(total, start + chunk), values, open_draw, starts, edges, True, moves
        )
    sweeps = 0
    while True:
        sweeps += 1
        if _sweep(values, open_draw, starts, edges) == 0:
            break
    packed: list[bytes] = []
    counts: list[tuple[int, int, int]] = []
    for material, begin, end in ((first, 0, size_a), (second, size_a, total)):
        if material is None:
            continue
        out = np.zeros(packed_size(material), np.int64)
        _pack(values, begin, end, out)
        packed.append(out.astype(np.uint8).tobytes())
        part = values[begin:end]
        counts.append(
            (
                int((part == WIN).sum()),
                int(((part == DRAW) | (part == UNKNOWN)).sum()),
                int((part == LOSS).sum()),
            )
        )
    return PairResult(tuple(pair), tuple(packed), tuple(counts), sweeps, edges_total)


def iter_positions(material: Material) -> Iterator[tuple[int, int, int]]:
    """Every position of a slice, in index order (a plain-Python loop: for tests and tools)."""
    binom = binomials()
    for index in range(material.size):
        white, black, kings = position_at(binom, *material, index)
        if white >= 0:
            yield white, black, kings


def missing_slices(directory: Path, pair: tuple[Material, ...]) -> list[Material]:
    return [m for m in pair if not slice_path(directory, m).exists()]


def build_files(directory: str, pair: tuple[tuple[int, int, int, int], ...]) -> dict[str, object]:
    """Build one pair from the slices already in ``directory`` and write its files there (the
    task of ``scripts/build_egdb.py``: module-level, picklable arguments). Returns per slice its
    positions, wins, draws, losses and file size, with the pair's sweeps, edges and seconds."""
    import time

    folder = Path(directory)
    materials_ = tuple(Material(*m) for m in pair)
    started = time.perf_counter()
    known = load(folder, max(m.pieces for m in materials_))
    result = build_pair(materials_, known)
    slices: dict[str, object] = {}
    for material, packed, (won, drawn, lost) in zip(
        result.materials, result.packed, result.counts, strict=True
    ):
        path = slice_path(folder, material)
        write_slice(path, material, packed)
        slices[material.name] = {
            "positions": won + drawn + lost,
            "win": won,
            "draw": drawn,
            "loss": lost,
            "bytes": path.stat().st_size,
        }
    return {
        "slices": slices,
        "sweeps": result.sweeps,
        "edges": result.edges,
        "seconds": round(time.perf_counter() - started, 2),
    }
