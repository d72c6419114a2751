"""Build the Connect Four opening book that ships in the package.

    python scripts/build_connect4_book.py --depth 3 --table-bits 23

solves every position with ``depth`` stones, scores the shallower ones from them, and writes
``src/zermelo/solvers/connect4/book_7x6.bin`` (or ``--output``). With ``--checkpoint FILE`` every
solved position is appended to a JSON-lines file, and a stopped build resumes from it. See
:mod:`zermelo.solvers.connect4.book` for the format and what the shipped book took to build.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from zermelo.games.connect4 import Connect4State
from zermelo.solvers.connect4.book import book_path, write_book
from zermelo.solvers.connect4.builder import build_book


def main(argv: list[str] | None = None) -> None:
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
