"""The opening book: exact scores of every position of the first plies, shipped with the package.

Early positions are the expensive ones (on 7x6 a position after three moves takes the solver 1 to
73 s, one after two moves minutes), so the book holds the exact score of every position with at
most ``depth`` stones, keyed by the position's mirror-canonical code (``current + mask``, see
:mod:`zermelo.games.connect4`). With the scores of all positions up to ``depth``, the best moves of
every position up to ``depth - 1`` are read from the book without search.

Building it is the work of :mod:`zermelo.solvers.connect4.builder`, run as a tool by
``python scripts/build_connect4_book.py --depth D --cluster local --table-bits 23``: it solves every
position with ``D`` stones as tasks on a local pool or a Dask cluster, keeping each score in a
progress file as it arrives (the same command run again resumes), then scores the shallower ones
by negamax over their children, finds the best columns of the deepest ones in a second stage
(its own progress file), and writes ``book_7x6.bin`` beside this module. The shipped
book has depth 7: 27,109 positions with seven stones (up to mirror symmetry) solved on a local Dask
cluster of two workers, 38,203 entries in all. One ply below the book it replaced, each position
started from the lower bound its parents' scores gave. Its plies up to 6 equal the depth-6 book,
whose ply-6 positions were each solved directly, and the tests check its deepest ply against the
public test sets and against direct solves of a sample. Each extra ply multiplies the positions by
about three to four.

Each entry also holds its best columns: the mask of the columns that keep its score (bit ``c``
for column ``c`` of the canonical orientation). For the shallower plies they are read from the
children's scores; for the deepest ply, whose children are past the book, the build's second stage
finds them (one null-window search per column), so a player reads a best move at every ply of the
book without search.

File format (little-endian): ``b"ZC4D"``, then width, height, depth (one byte each) and the entry
count (uint32), then a zlib stream of three arrays in code order: the codes as differences from
the previous code (uint64 each, the first from 0), the scores (int8 each) and the best-column
masks (uint8 each; uint16 for boards wider than 8). Sorted codes differ mostly in their low bits,
so the depth-7 book, best columns included, takes 56 KB where its 8-byte codes alone took 306 KB,
and reads as fast (about 9 ms).
"""

from __future__ import annotations

import functools
import itertools
import struct
import zlib
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from zermelo.core.errors import ZermeloError
from zermelo.games.connect4 import Connect4State, mirror_code

__all__ = [
    "best_mask",
    "book_depth",
    "book_path",
    "canonical",
    "canonical_column",
    "load_best",
    "load_book",
    "read_best",
    "read_book",
    "write_book",
]

_MAGIC = b"ZC4D"
_REMEDY = "reinstall zermelo, or build the book again with scripts/build_connect4_book.py"
_HEADER = struct.Struct("<4sBBBI")


def book_path(width: int = 7, height: int = 6) -> Path:
    """Where the shipped book for a board size lives (inside the package)."""
    return Path(str(resources.files("zermelo.solvers.connect4"))) / f"book_{width}x{height}.bin"


def canonical(state: Connect4State) -> int:
    """The book's key of a position: the smaller code of it and its mirror image."""
    code = state.current + state.mask
    return min(code, mirror_code(code, state.width, state.height))


def canonical_column(column: int, width: int, flipped: bool) -> int:
    """A column as the book's entry numbers it: mirrored when the entry's key is the mirror
    image's code (``flipped``)."""
    return width - 1 - column if flipped else column


def best_mask(state: Connect4State, columns: Iterable[int]) -> int:
    """The book's best-column mask of ``state`` for ``columns`` (bit per column, in the
    orientation of the book's key, :func:`canonical`)."""
    flipped = state.current + state.mask != canonical(state)
    return sum(1 << canonical_column(column, state.width, flipped) for column in columns)


def _arrays(count: int, width: int) -> str:
    return f"<{count}Q{count}b{count}{'B' if width <= 8 else 'H'}"


def write_book(
    book: dict[int, int],
    best: dict[int, int],
    path: Path,
    width: int,
    height: int,
    depth: int,
) -> None:
    """Write ``book`` (scores by canonical code) and ``best`` (the best-column mask of every
    code of ``book``)."""
    codes = sorted(book)
    steps = [code - previous for previous, code in zip([0, *codes], codes, strict=False)]
    payload = struct.pack(
        _arrays(len(codes), width), *steps, *(book[c] for c in codes), *(best[c] for c in codes)
    )
    with path.open("wb") as handle:
        handle.write(_HEADER.pack(_MAGIC, width, height, depth, len(codes)))
        handle.write(zlib.compress(payload, 9))


def _parse(path: Path) -> tuple[int, int, int, dict[int, int], dict[int, int]]:
    data = path.read_bytes()
    problem = f"{path} is not a zermelo Connect Four book of this version"
    if data[:4] != _MAGIC:
        raise ZermeloError(f"{problem} (expected the {_MAGIC.decode()} format): {_REMEDY}")
    try:
        _, width, height, depth, count = _HEADER.unpack_from(data)
        arrays = _arrays(count, width)
        size = struct.calcsize(arrays)
        payload = zlib.decompressobj().decompress(data[_HEADER.size :], size + 1)  # no more
        if len(payload) != size:
            raise ValueError(f"{len(payload)} bytes of arrays for {count} entries")
        values = struct.unpack(arrays, payload)
    except (struct.error, zlib.error, ValueError) as error:
        raise ZermeloError(f"{problem} (damaged: {error}): {_REMEDY}") from None
    codes = list(itertools.accumulate(values[:count]))
    scores = dict(zip(codes, values[count : 2 * count], strict=True))
    return width, height, depth, scores, dict(zip(codes, values[2 * count :], strict=True))


def read_book(path: Path) -> tuple[int, int, int, dict[int, int]]:
    """(width, height, depth, scores by code) of a book file."""
    width, height, depth, scores, _ = _parse(path)
    return width, height, depth, scores


def read_best(path: Path) -> dict[int, int]:
    """The best-column masks by code of a book file."""
    return _parse(path)[4]


@functools.cache
def _load(width: int, height: int) -> tuple[int, dict[int, int], dict[int, int]] | None:
    path = book_path(width, height)
    if not path.is_file():
        return None
    book_width, book_height, depth, scores, best = _parse(path)
    if (book_width, book_height) != (width, height):
        return None
    return depth, scores, best


def load_book(width: int = 7, height: int = 6) -> dict[int, int] | None:
    """The shipped book's scores for this board size, or ``None`` if there is none."""
    loaded = _load(width, height)
    return None if loaded is None else loaded[1]


def load_best(width: int = 7, height: int = 6) -> dict[int, int] | None:
    """The shipped book's best-column masks for this board size, or ``None`` if there is none."""
    loaded = _load(width, height)
    return None if loaded is None else loaded[2]


def book_depth(width: int = 7, height: int = 6) -> int:
    """The depth of the shipped book (-1 when there is none)."""
    loaded = _load(width, height)
    return -1 if loaded is None else loaded[0]
