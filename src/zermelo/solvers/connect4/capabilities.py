"""The capabilities of Connect Four (:mod:`zermelo.core.capabilities`): solving positions given as
lines, the benchmark files' format, and every column's exact value."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

from zermelo.core.capabilities import (
    ExactColumn,
    ExactMoves,
    SolvedBlock,
    SolvedLine,
    SolveRequest,
)
from zermelo.core.errors import CapabilityError, ZermeloError
from zermelo.core.record import N_
from zermelo.games.connect4 import Connect4State
from zermelo.solvers.connect4.api import LineOutcome

__all__ = ["EXACT", "LINES", "Connect4Exact", "Connect4Lines"]

_CHUNK = 64
"""Lines per kernel call when solving a stream (the progress bar moves once per chunk)."""
_BLOCK = 4096
"""Lines per kernel call when nobody watches a progress bar."""
_CLUSTER_CHUNK = 256
"""Positions per task on a cluster: enough work to outweigh sending it."""
_BOOK_PLIES = 2
_QUICK_LINE_DEPTH = 6
"""From a book this deep, the line past it starts one ply later, where a position is solved in a
few seconds at most (the shipped book: the empty board's whole line in under a second)."""


class Connect4Lines:
    """``MOVES SCORE`` for each line of moves (``4453``), as the benchmark files write them.

    Without ``stats`` the positions are solved in batches, one kernel call each; with it one at
    a time, each timed on its own, after the table's pages are touched and the kernel is loaded
    (so that neither counts as solving time). With ``cluster`` or ``resume`` they are solved as
    tasks of the executor (:mod:`zermelo.parallel`)."""

    def ready(self, request: SolveRequest) -> None:
        """Touch the solver's table before the input arrives, as the reference's is ready."""
        from zermelo.solvers.connect4 import default_solver

        if _fast(request):
            default_solver().prefault()

    def solve_lines(
        self, lines: Sequence[str], request: SolveRequest, advance: Callable[[int], None]
    ) -> Iterator[SolvedLine | SolvedBlock]:
        from zermelo.solvers.connect4 import (
            AnswerBlock,
            answer_lines,
            default_solver,
            solve_chunks,
            solve_lines,
        )

        if request.options:
            raise CapabilityError(
                "connect4 solves positions of its standard board: it takes no rule options"
            )
        spread = request.cluster is not None or request.resume is not None
        if spread and request.stats:
            raise CapabilityError(
                "--stats times each position in this process; leave out --cluster and --resume"
            )
        outcomes: Iterator[LineOutcome | AnswerBlock]
        if spread:
            outcomes = _on_executor(list(lines), request, advance)
        elif request.stats:
            solver = default_solver()
            solver.prefault()
            solver.warm_up()
            outcomes = solve_lines(lines, weak=request.weak, best_moves=request.best, solver=solver)
        elif request.best:
            chunks = (lines[i : i + _CHUNK] for i in range(0, len(lines), _CHUNK))
            outcomes = solve_chunks(chunks, weak=request.weak, best_moves=request.best)
        else:
            # Read, solved and answered in the kernel, a block of lines at a time.
            chunk = _CHUNK if request.watched else _BLOCK
            outcomes = answer_lines(lines, weak=request.weak, chunk_lines=chunk)
        done = 0
        for outcome in outcomes:
            if not spread:
                advance(outcome.line_number - done)
                done = outcome.line_number
            if isinstance(outcome, AnswerBlock):
                yield SolvedBlock(outcome.line_number, outcome.text.decode("ascii"))
                continue
            if outcome.result is None:
                yield SolvedLine(outcome.line_number, None, outcome.error)
                continue
            result = outcome.result
            fields = [outcome.text or "-", str(outcome.score)]
            if request.best:
                fields.append("".join(str(entry.move + 1) for entry in result.moves) or "-")
            if request.stats:
                fields += [str(result.stats.nodes), f"{result.stats.elapsed * 1e6:.0f}"]
            yield SolvedLine(outcome.line_number, tuple(fields))


def _fast(request: SolveRequest) -> bool:
    """True when the kernel answers the lines itself (no extras, no executor)."""
    return not (request.stats or request.best or request.cluster or request.resume)


def _on_executor(
    lines: list[str], request: SolveRequest, advance: Callable[[int], None]
) -> Iterator[LineOutcome]:
    """The outcomes of ``lines`` solved as tasks of ``_CLUSTER_CHUNK`` positions on the
    executor, in input order; with ``resume`` the tasks already in that file are not redone."""
    from zermelo.parallel import ResultStore, open_executor, run_job
    from zermelo.solvers.connect4.api import solve_texts
    from zermelo.solvers.connect4.solver import solved

    parsed: list[tuple[int, str, Connect4State | ZermeloError]] = []
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        text = stripped.split()[0]
        try:
            parsed.append((number, text, Connect4State.parse(text)))
        except ZermeloError as error:
            parsed.append((number, text, error))
    texts = [item.notation() for _n, _t, item in parsed if isinstance(item, Connect4State)]
    weak, best = request.weak, request.best
    tasks = {
        f"{i // _CLUSTER_CHUNK:06d}": (texts[i : i + _CLUSTER_CHUNK], 7, 6, weak, best)
        for i in range(0, len(texts), _CLUSTER_CHUNK)
    }
    store = None
    if request.resume is not None:
        digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
        meta = {"job": "connect4-solve", "positions": digest, "weak": weak, "best": best}
        store = ResultStore(Path(request.resume), meta)
    with open_executor(request.cluster) as executor:
        results = run_job(
            executor,
            solve_texts,
            tasks,
            store=store,
            on_result=lambda key, value, done, total: advance(len(value)),
        )
    answers = iter([answer for key in tasks for answer in results[key]])
    for number, text, item in parsed:
        if not isinstance(item, Connect4State):
            yield LineOutcome(number, text, None, item)
            continue
        answer = next(answers)
        score, moves = (answer[0], tuple(answer[1])) if best else (answer, ())
        result = solved(item, score, weak=weak, best_moves=moves)
        yield LineOutcome(number, text, result, None, score)


class Connect4Exact:
    """Every column's exact score, from the perfect solver."""

    def exact_moves(self, state: Connect4State) -> ExactMoves:
        from zermelo.solvers.connect4 import analyze as solve_columns
        from zermelo.solvers.connect4.book import book_depth
        from zermelo.solvers.connect4.kernel import COMPILED
        from zermelo.solvers.connect4.scores import benchmark_score

        # Near the empty board the columns come from the opening book at once; with a shallow
        # book, or without the compiled kernel, a principal variation would have to solve the
        # opening itself (minutes): show the best move alone there.
        deep_book = COMPILED and book_depth(state.width, state.height) >= _QUICK_LINE_DEPTH
        full_line = deep_book or state.ply > _BOOK_PLIES
        analysis = solve_columns(state, pv=full_line)
        values = {entry.move: entry.value for entry in analysis.moves}
        columns = []
        for column in range(state.width):
            value = values.get(column)
            score = (
                None
                if value is None
                else str(benchmark_score(value, state.ply, state.width, state.height))
            )
            columns.append(ExactColumn(str(column + 1), value, score))
        best = tuple(
            str(entry.move + 1) for entry in analysis.moves if entry.value == analysis.value
        )
        line = tuple(str(m + 1) for m in analysis.pv) if full_line else best[:1]
        note = (
            ""
            if full_line
            else N_("(From the opening book; the rest of the line would take minutes.)")
        )
        return ExactMoves(
            tuple(columns),
            best,
            analysis.value if analysis.moves else None,
            line,
            note,
            analysis.stats.nodes,
            analysis.stats.elapsed,
        )


LINES: Final = Connect4Lines()
EXACT: Final = Connect4Exact()
