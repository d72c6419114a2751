"""Building the Connect Four opening book (:mod:`zermelo.solvers.connect4.book`) with the solver.

A long computation (half an hour for three plies on two cores) that reports through callbacks and
never prints; ``scripts/build_connect4_book.py`` is the command that runs it and writes the file.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from zermelo.games.connect4 import Connect4State
from zermelo.solvers.connect4.book import canonical
from zermelo.solvers.connect4.solver import Connect4Solver

__all__ = ["build_book", "positions_at"]


def positions_at(ply: int, width: int = 7, height: int = 6) -> list[Connect4State]:
    """One representative of every mirror class of running positions with ``ply`` stones."""
    layer = {canonical(Connect4State.initial(width, height)): Connect4State.initial(width, height)}
    for _ in range(ply):
        following: dict[int, Connect4State] = {}
        for state in layer.values():
            if state.is_terminal():
                continue
            for column in state.legal_moves():
                child = state.play(column)
                following.setdefault(canonical(child), child)
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
    solver = Connect4Solver(
        width, height, book=False, symmetry=width * height, etc_levels=99, table_bits=table_bits
    )
    cells = width * height
    book: dict[int, int] = {}
    deepest = positions_at(depth, width, height)
    # Central lines first: they share the most subtrees.
    deepest.sort(key=lambda s: sum(abs(int(c) - width // 2) for c in s.moves))
    for done, state in enumerate(deepest, 1):
        code = canonical(state)
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
                    value = -book[canonical(child)]
                best = max(best, value)
            book[canonical(state)] = best
    return book
