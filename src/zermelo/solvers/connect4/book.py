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
by negamax over their children, and writes ``book_7x6.bin`` beside this module. The shipped
book has depth 7: 27,109 positions with seven stones (up to mirror symmetry) solved on a local Dask
cluster of two workers, 38,203 entries in all. One ply below the book it replaced, each position
started from the lower bound its parents' scores gave. Its plies up to 6 equal the depth-6 book,
whose ply-6 positions were each solved directly, and the tests check its deepest ply against the
public test sets and against direct solves of a sample. Each extra ply multiplies the positions by
about three to four.

File format (little-endian): ``b"ZC4B"``, then width, height, depth (one byte each), the entry
count (uint32), then the sorted codes (uint64 each) followed by the scores (int8 each).
"""

from __future__ import annotations

import functools
import struct
from importlib import resources
from pathlib import Path

from zermelo.games.connect4 import Connect4State, mirror_code

__all__ = ["book_depth", "book_path", "canonical", "load_book", "read_book", "write_book"]

_MAGIC = b"ZC4B"
_HEADER = struct.Struct("<4sBBBI")


def book_path(width: int = 7, height: int = 6) -> Path:
    """Where the shipped book for a board size lives (inside the package)."""
    return Path(str(resources.files("zermelo.solvers.connect4"))) / f"book_{width}x{height}.bin"


def canonical(state: Connect4State) -> int:
    """The book's key of a position: the smaller code of it and its mirror image."""
    code = state.current + state.mask
    return min(code, mirror_code(code, state.width, state.height))


def write_book(book: dict[int, int], path: Path, width: int, height: int, depth: int) -> None:
    codes = sorted(book)
    with path.open("wb") as handle:
        handle.write(_HEADER.pack(_MAGIC, width, height, depth, len(codes)))
        handle.write(struct.pack(f"<{len(codes)}Q", *codes))
        handle.write(struct.pack(f"<{len(codes)}b", *(book[c] for c in codes)))


def read_book(path: Path) -> tuple[int, int, int, dict[int, int]]:
    """(width, height, depth, scores by code) of a book file."""
    data = path.read_bytes()
    magic, width, height, depth, count = _HEADER.unpack_from(data)
    if magic != _MAGIC:
        raise ValueError(f"{path} is not a zermelo Connect Four book")
    offset = _HEADER.size
    codes = struct.unpack_from(f"<{count}Q", data, offset)
    scores = struct.unpack_from(f"<{count}b", data, offset + 8 * count)
    return width, height, depth, dict(zip(codes, scores, strict=True))


@functools.cache
def load_book(width: int = 7, height: int = 6) -> dict[int, int] | None:
    """The shipped book for this board size, or ``None`` if there is none."""
    path = book_path(width, height)
    if not path.is_file():
        return None
    book_width, book_height, _, scores = read_book(path)
    if (book_width, book_height) != (width, height):
        return None
    return scores


def book_depth(width: int = 7, height: int = 6) -> int:
    """The depth of the shipped book (-1 when there is none)."""
    path = book_path(width, height)
    if not path.is_file():
        return -1
    return read_book(path)[2]
