"""The opening book: exact scores of every position of the first plies, shipped with the package.

Early positions are the expensive ones (on 7x6 a position after three moves takes the solver 1 to
73 s, one after two moves minutes), so the book holds the exact score of every position with at
most ``depth`` stones, keyed by the position's mirror-canonical code (``current + mask``, see
:mod:`zermelo.games.connect4`). With the scores of all positions up to ``depth``, the best moves of
every position up to ``depth - 1`` are read from the book without search.

Building it: ``python -m zermelo.solvers.connect4.book --depth 3 --table-bits 23`` solves every
position with ``depth`` stones (sharing one transposition table), then scores the shallower ones by
negamax over their children, and writes ``book_7x6.bin`` beside this module; ``--checkpoint FILE``
lets a stopped build resume. The shipped depth-3 book (121 positions after three moves, 151
entries in all, 1,370 bytes) took 31 minutes in one process on the shared 2-core development VM;
its 30 entries of the first two plies equal those of the depth-2 book built before by direct
solving. Each extra ply multiplies the positions by about five, and they are harder.

File format (little-endian): ``b"ZC4B"``, then width, height, depth (one byte each), the entry
count (uint32), then the sorted codes (uint64 each) followed by the scores (int8 each).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from zermelo.games.connect4 import Connect4State, mirror_code
from zermelo.parallel import Executor, LocalExecutor, ResultStore, run_job

__all__ = [
    "back_up",
    "book_path",
    "build_book",
    "deepest_tasks",
    "load_book",
    "read_book",
    "solve_position",
    "store_meta",
    "warm_up",
    "write_book",
]

_MAGIC = b"ZC4B"
_HEADER = struct.Struct("<4sBBBI")


def book_path(width: int = 7, height: int = 6) -> Path:
    """Where the shipped book for a board size lives (inside the package)."""
    return Path(str(resources.files("zermelo.solvers.connect4"))) / f"book_{width}x{height}.bin"


def _canonical(state: Connect4State) -> int:
    code = state.current + state.mask
    return min(code, mirror_code(code, state.width, state.height))


def positions_at(ply: int, width: int = 7, height: int = 6) -> list[Connect4State]:
    """One representative of every mirror class of running positions with ``ply`` stones."""
    layer = {_canonical(Connect4State.initial(width, height)): Connect4State.initial(width, height)}
    for _ in range(ply):
        following: dict[int, Connect4State] = {}
        for state in layer.values():
            if state.is_terminal():
                continue
            for column in state.legal_moves():
                child = state.play(column)
                following.setdefault(_canonical(child), child)
        layer = following
    return [state for state in layer.values() if not state.is_terminal()]


@functools.cache
def _book_solver(width: int, height: int, table_bits: int | None) -> Any:
    """The solver this process uses for book positions (built once, then kept warm: its compiled
    kernel and its table serve every position the process is given)."""
    from zermelo.solvers.connect4.solver import Connect4Solver

    return Connect4Solver(
        width, height, book=False, symmetry=width * height, etc_levels=99, table_bits=table_bits
    )


def warm_up(width: int = 7, height: int = 6, table_bits: int | None = None) -> None:
    """Build this process's book solver now (load the kernel, allocate and touch the table)."""
    _book_solver(width, height, table_bits).prefault()


def solve_position(width: int, height: int, moves: str, table_bits: int | None = None) -> int:
    """The exact score of one position (a task of a book build, run in any worker process)."""
    state = Connect4State.parse(moves, width, height)
    return int(_book_solver(width, height, table_bits).score(state))


def deepest_tasks(
    depth: int, width: int = 7, height: int = 6, table_bits: int | None = None
) -> dict[str, tuple[int, int, str, int | None]]:
    """The positions a book of ``depth`` solves directly (every running position with ``depth``
    stones, one per mirror pair), as :func:`zermelo.parallel.run_job` tasks keyed by canonical
    code, central lines first (they share the most subtrees)."""
    deepest = positions_at(depth, width, height)
    deepest.sort(key=lambda s: (sum(abs(int(c) - width // 2) for c in s.moves), s.moves))
    return {
        str(_canonical(state)): (width, height, state.notation(), table_bits) for state in deepest
    }


def back_up(depth: int, deepest: dict[int, int], width: int = 7, height: int = 6) -> dict[int, int]:
    """The whole book from the scores of the deepest ply: each ply's positions are scored by
    negamax over their children at the next ply, from ``depth - 1`` down to the empty board.
    Children that end the game score themselves; every other child must be in the book."""
    cells = width * height
    book = dict(deepest)
    for ply in range(depth - 1, -1, -1):
        for state in positions_at(ply, width, height):
            best = -cells
            for column in state.legal_moves():
                child = state.play(column)
                if child.winner is not None:
                    value = (cells + 1 - ply) // 2
                elif child.is_full():
                    value = 0
                else:
                    value = -book[_canonical(child)]
                best = max(best, value)
            book[_canonical(state)] = best
    return book


def build_book(
    depth: int,
    width: int = 7,
    height: int = 6,
    *,
    executor: Executor | None = None,
    store: ResultStore | None = None,
    on_result: Callable[[str, Any, int, int], None] | None = None,
    table_bits: int | None = None,
) -> dict[int, int]:
    """Exact scores of every running position with at most ``depth`` stones.

    Only the deepest ply is solved, as tasks on ``executor`` (default: this process); ``store``
    keeps each score as it arrives so that a stopped build resumes (see
    :func:`zermelo.parallel.run_job`, whose ``on_result`` this passes on). The shallower plies
    are then backed up from it (:func:`back_up`), which takes seconds. ``table_bits`` sizes each
    worker's transposition table, shared by the positions that worker solves."""
    tasks = deepest_tasks(depth, width, height, table_bits)
    executor = executor or LocalExecutor(1)
    scores = run_job(executor, solve_position, tasks, store=store, on_result=on_result)
    return back_up(depth, {int(code): int(score) for code, score in scores.items()}, width, height)


def store_meta(depth: int, width: int, height: int) -> dict[str, Any]:
    """What identifies a book build's progress file (its first line)."""
    return {"job": "connect4-book", "depth": depth, "width": width, "height": height}


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
