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

import argparse
import functools
import json
import struct
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from zermelo.games.connect4 import Connect4State, mirror_code

__all__ = ["book_path", "build_book", "load_book", "read_book", "write_book"]

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


def build_book(
    depth: int,
    width: int = 7,
    height: int = 6,
    *,
    progress: Callable[[int, int, Connect4State, int, float], None] | None = None,
    resume: dict[int, int] | None = None,
    checkpoint: Callable[[int, int], None] | None = None,
    table_bits: int | None = None,
) -> dict[int, int]:
    """Exact scores of every running position with at most ``depth`` stones.

    ``progress(done, total, state, score, seconds)`` is called after each solved position of the
    deepest ply; ``resume`` holds scores solved before (by code), ``checkpoint(code, score)`` is
    called with each new one so that a long build can be resumed. ``table_bits`` sizes the
    transposition table that all the solves share.
    """
    from zermelo.solvers.connect4.solver import Connect4Solver

    solver = Connect4Solver(
        width, height, book=False, symmetry=width * height, etc_levels=99, table_bits=table_bits
    )
    cells = width * height
    book: dict[int, int] = {}
    deepest = positions_at(depth, width, height)
    # Central lines first: they share the most subtrees.
    deepest.sort(key=lambda s: sum(abs(int(c) - width // 2) for c in s.moves))
    for done, state in enumerate(deepest, 1):
        code = _canonical(state)
        started = time.perf_counter()
        if resume is not None and code in resume:
            score = resume[code]
        else:
            score = solver.score(state)
            if checkpoint is not None:
                checkpoint(code, score)
        book[code] = score
        if progress is not None:
            progress(done, len(deepest), state, score, time.perf_counter() - started)
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


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a long-running command
    parser = argparse.ArgumentParser(description="Build the Connect Four opening book.")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument(
        "--table-bits", type=int, default=None, help="table of 2**bits slots (default 22: 64 MiB)"
    )
    parser.add_argument(
        "--checkpoint", type=Path, default=None, help="JSON-lines file to resume a build from"
    )
    args = parser.parse_args(argv)
    resume: dict[int, int] = {}
    if args.checkpoint is not None and args.checkpoint.exists():
        for line in args.checkpoint.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                resume[int(entry["code"])] = int(entry["score"])

    def save(code: int, score: int) -> None:
        if args.checkpoint is not None:
            with args.checkpoint.open("a") as handle:
                handle.write(json.dumps({"code": code, "score": score}) + "\n")

    def report(done: int, total: int, state: Connect4State, score: int, seconds: float) -> None:
        print(
            f"{done}/{total} {state.notation() or '(empty)'} score {score} {seconds:.1f}s",
            flush=True,
        )

    started = time.perf_counter()
    book = build_book(
        args.depth,
        args.width,
        args.height,
        progress=report,
        resume=resume,
        checkpoint=save,
        table_bits=args.table_bits,
    )
    output = args.output or book_path(args.width, args.height)
    write_book(book, output, args.width, args.height, args.depth)
    print(
        f"{len(book)} positions, depth {args.depth}, "
        f"{time.perf_counter() - started:.0f}s -> {output}"
    )


if __name__ == "__main__":  # pragma: no cover
    main()
