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

Each entry also holds its best columns: the mask of the columns that keep its score (bit ``c``
for column ``c`` of the canonical orientation). For the shallower plies they are read from the
children's scores; for the deepest ply, whose children are past the book, the build's second stage
finds them (one null-window search per column), so a player reads a best move at every ply of the
book without search.

File format (little-endian): ``b"ZC4M"`` (``b"ZC4B"``: scores only), then width, height, depth
(one byte each), the entry count (uint32), then the sorted codes (uint64 each), the scores (int8
each) and, after ``ZC4M``, the best-column masks (uint8 each; uint16 for boards wider than 8).
"""

from __future__ import annotations

import functools
import struct
from importlib import resources
from pathlib import Path

from zermelo.games.connect4 import Connect4State, mirror_code

__all__ = [
    "book_depth",
    "book_path",
    "canonical",
    "load_best",
    "load_book",
    "read_best",
    "read_book",
    "write_book",
]

_MAGIC = b"ZC4B"  # scores only
_MAGIC_BEST = b"ZC4M"  # scores, then best-column masks
_HEADER = struct.Struct("<4sBBBI")


def book_path(width: int = 7, height: int = 6) -> Path:
    """Where the shipped book for a board size lives (inside the package)."""
    return Path(str(resources.files("zermelo.solvers.connect4"))) / f"book_{width}x{height}.bin"


def canonical(state: Connect4State) -> int:
    """The book's key of a position: the smaller code of it and its mirror image."""
    code = state.current + state.mask
    return min(code, mirror_code(code, state.width, state.height))


def _mask_format(width: int) -> str:
    return "B" if width <= 8 else "H"


def write_book(
    book: dict[int, int],
    path: Path,
    width: int,
    height: int,
    depth: int,
    best: dict[int, int] | None = None,
) -> None:
    """Write ``book`` (scores by canonical code), with each entry's best-column mask when
    ``best`` is given (it must hold every code of ``book``)."""
    codes = sorted(book)
    magic = _MAGIC if best is None else _MAGIC_BEST
    with path.open("wb") as handle:
        handle.write(_HEADER.pack(magic, width, height, depth, len(codes)))
        handle.write(struct.pack(f"<{len(codes)}Q", *codes))
        handle.write(struct.pack(f"<{len(codes)}b", *(book[c] for c in codes)))
        if best is not None:
            handle.write(
                struct.pack(f"<{len(codes)}{_mask_format(width)}", *(best[c] for c in codes))
            )


def _parse(path: Path) -> tuple[int, int, int, dict[int, int], dict[int, int] | None]:
    data = path.read_bytes()
    magic, width, height, depth, count = _HEADER.unpack_from(data)
    if magic not in (_MAGIC, _MAGIC_BEST):
        raise ValueError(f"{path} is not a zermelo Connect Four book")
    offset = _HEADER.size
    codes = struct.unpack_from(f"<{count}Q", data, offset)
    offset += 8 * count
    scores = struct.unpack_from(f"<{count}b", data, offset)
    best = None
    if magic == _MAGIC_BEST:
        masks = struct.unpack_from(f"<{count}{_mask_format(width)}", data, offset + count)
        best = dict(zip(codes, masks, strict=True))
    return width, height, depth, dict(zip(codes, scores, strict=True)), best


def read_book(path: Path) -> tuple[int, int, int, dict[int, int]]:
    """(width, height, depth, scores by code) of a book file."""
    width, height, depth, scores, _ = _parse(path)
    return width, height, depth, scores


def read_best(path: Path) -> dict[int, int] | None:
    """The best-column masks by code of a book file, or ``None`` if it holds only scores."""
    return _parse(path)[4]


@functools.cache
def _load(width: int, height: int) -> tuple[int, dict[int, int], dict[int, int] | None] | None:
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
    """The shipped book's best-column masks for this board size, or ``None`` if it has none."""
    loaded = _load(width, height)
    return None if loaded is None else loaded[2]


def book_depth(width: int = 7, height: int = 6) -> int:
    """The depth of the shipped book (-1 when there is none)."""
    loaded = _load(width, height)
    return -1 if loaded is None else loaded[0]
