"""Batch solving of position lines, as ``zermelo solve connect4`` reads them from a file.

A line's Python costs more than solving most positions of the public test sets (about 4 µs for
one of ``Test_L3_R1``): parsing it into a state, building a result and printing it took 70 to
120 µs. :func:`answer_lines` hands whole blocks of lines to the kernel instead, which parses
them, solves them and writes their answers (:meth:`Connect4Solver.score_text`); Python only
joins the lines into bytes and passes the answers on. The lines the kernel cannot read alone go
through :func:`.api.line_outcome`, as they did before: those with characters outside ASCII
(Unicode whitespace, say) and those that are not valid positions, whose error message Python
words. Positions early in the game, where the book and the bounds it gives help, are scored as
:meth:`Connect4Solver.solve` scores them. Every score is the one :func:`.api.solve_lines` gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from zermelo.core.errors import BudgetError
from zermelo.solvers.connect4.api import LineOutcome, line_outcome
from zermelo.solvers.connect4.solver import Connect4Solver, default_solver

__all__ = ["CHUNK_LINES", "AnswerBlock", "answer_lines"]

CHUNK_LINES = 4096
"""Lines per kernel call: enough that a call's own cost (a few µs) is nothing per line, few
enough that the bytes of a block stay small."""


@dataclass(frozen=True, slots=True)
class AnswerBlock:
    """Answers of consecutive lines, ready to print: ``MOVES SCORE`` lines (each ended by a
    newline, ASCII), in input order, for the lines up to ``line_number`` (1-based) that are not
    blank, comments or given as a :class:`.api.LineOutcome`."""

    line_number: int
    text: bytes


def answer_lines(
    lines: Sequence[str],
    *,
    weak: bool = False,
    solver: Connect4Solver | None = None,
    chunk_lines: int = CHUNK_LINES,
) -> Iterator[AnswerBlock | LineOutcome]:
    """The answers to ``lines`` (one position a line, read as :func:`.api.solve_lines` reads
    them), in input order: :class:`AnswerBlock` values for the lines the kernel answered, and a
    :class:`.api.LineOutcome` for each other line that is not blank or a comment (with its
    error, or its result, for a line outside ASCII). Printing each block's text and each
    outcome's ``MOVES SCORE`` line gives :func:`.api.solve_lines`' answers exactly.

    ``weak`` gives only the outcomes (1, 0, -1). The solver (default: the shared one) has its
    table touched first (:meth:`Connect4Solver.prefault`), so that no position pays for it;
    ``chunk_lines`` lines go to the kernel at a time (a progress bar moves once a chunk)."""
    if chunk_lines < 1:
        raise BudgetError(f"chunk_lines must be at least 1, got {chunk_lines}")
    solver = solver or default_solver()
    solver.prefault()
    for base in range(0, len(lines), chunk_lines):
        yield from _answer_chunk(solver, lines[base : base + chunk_lines], base, weak)


def _answer_chunk(
    solver: Connect4Solver, chunk: Sequence[str], base: int, weak: bool
) -> Iterator[AnswerBlock | LineOutcome]:
    k = solver.kernel
    joined = "\n".join(chunk)
    if joined.count("\n") != len(chunk) - 1:
        # A line given with a newline inside it (an argument can be): the kernel must see one
        # line, and a tab splits words as a newline does.
        joined = "\n".join(line.replace("\n", "\t") for line in chunk)
    # surrogatepass: an argument the system could not decode still reaches Python's reading of
    # it (bytes outside ASCII), which names it.
    data = (joined + "\n").encode("utf-8", "surrogatepass")
    rows, out, size, python = solver.score_text(data, len(chunk), weak=weak)
    view = memoryview(out)  # type: ignore[arg-type]  # numpy arrays have the buffer protocol
    start = 0
    for i in python:
        stop = int(rows[i * k.ROW + k.R_OUT])
        if stop > start:
            yield AnswerBlock(base + i, bytes(view[start:stop]))
        start = stop
        outcome = line_outcome(base + i + 1, chunk[i], solver, weak=weak)
        if outcome is not None:
            yield outcome
    yield AnswerBlock(base + len(chunk), bytes(view[start:size]))
