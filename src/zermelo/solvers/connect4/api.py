"""Entry points for front ends: solve a stream of positions, analyze one, choose a move at a level.

Nothing here prints: the functions return values (or yield them) and the CLI formats them.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zermelo.core.errors import BudgetError, ParseError, ZermeloError
from zermelo.games.connect4 import Connect4State
from zermelo.search.result import MoveValue, SearchResult, SearchStats
from zermelo.solvers.connect4.scores import benchmark_score, to_negamax
from zermelo.solvers.connect4.solver import Connect4Solver, default_solver, solved

__all__ = [
    "HARD_NODE_LIMIT",
    "LEVELS",
    "PURE_HARD_NODE_LIMIT",
    "LineOutcome",
    "analyze",
    "choose_move",
    "hard_move",
    "hard_node_limit",
    "line_outcome",
    "solve",
    "solve_chunks",
    "solve_lines",
    "solve_texts",
]

LEVELS = ("easy", "medium", "hard")


def solve(
    position: Connect4State | str,
    *,
    weak: bool = False,
    solver: Connect4Solver | None = None,
) -> SearchResult[int]:
    """Exact value and best moves of ``position`` (a state or a move string such as ``"4453"``),
    as :func:`zermelo.solvers.connect4.solver.solved` describes them."""
    solver = solver or _solver_for(position)
    return solver.solve(position, weak=weak)


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """One line of a stream: its 1-based number, the position text, and a result or an error.

    ``score`` is the result's value in the benchmark files' convention (see :mod:`.scores`; in
    weak mode 1, 0 or -1), as the files and ``zermelo solve`` print it."""

    line_number: int
    text: str
    result: SearchResult[int] | None = None
    error: ZermeloError | None = None
    score: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None


def solve_lines(
    lines: Iterable[str],
    *,
    weak: bool = False,
    best_moves: bool = False,
    fresh: bool = False,
    solver: Connect4Solver | None = None,
) -> Iterator[LineOutcome]:
    """Solve one position per line, as the benchmark files hold them.

    Each line is a move string, optionally followed by whitespace and anything else (ignored, e.g.
    the expected score). Blank lines and lines starting with ``#`` are skipped. A line that does
    not parse yields an outcome with the error (its message quotes the line) instead of stopping
    the stream. ``fresh`` empties the table before each position (for measurements); by default
    what one position taught the table helps the next. ``result.stats`` carries the nodes and
    the time.
    """
    solver = solver or default_solver()
    for number, raw in enumerate(lines, 1):
        outcome = line_outcome(number, raw, solver, weak=weak, best_moves=best_moves, fresh=fresh)
        if outcome is not None:
            yield outcome


def line_outcome(
    number: int,
    raw: str,
    solver: Connect4Solver,
    *,
    weak: bool = False,
    best_moves: bool = False,
    fresh: bool = False,
) -> LineOutcome | None:
    """The outcome of line ``number`` of a stream, read as :func:`solve_lines` reads it, or
    ``None`` for a blank line or a comment."""
    stripped = raw.strip()
    if not stripped or stripped.startswith("#"):
        return None
    text = stripped.split()[0]
    try:
        state = Connect4State.parse(text, solver.width, solver.height)
    except ZermeloError as error:
        return LineOutcome(number, text, None, error)
    if fresh:
        solver.new_generation()
    result = solver.solve(state, weak=weak, best_moves=best_moves)
    return _outcome(number, text, state, result, weak)


def _outcome(
    number: int, text: str, state: Connect4State, result: SearchResult[int], weak: bool
) -> LineOutcome:
    score = benchmark_score(result.value, state.ply, state.width, state.height, weak=weak)
    return LineOutcome(number, text, result, None, score)


def solve_chunks(
    chunks: Iterable[Sequence[str]],
    *,
    weak: bool = False,
    best_moves: bool = False,
    solver: Connect4Solver | None = None,
) -> Iterator[LineOutcome]:
    """:func:`solve_lines` for lines that arrive in chunks (for example, whatever a pipe holds
    when it is read): the positions of a chunk are solved in one kernel call
    (:meth:`Connect4Solver.solve_many`), and their outcomes are yielded, in order, before the
    next chunk is asked for, so a caller that answers line by line never waits for input it has
    not been sent. Line numbers run on across chunks. ``result.stats.elapsed`` is the chunk's
    mean; use :func:`solve_lines` for each position's own time."""
    solver = solver or default_solver()
    number = 0
    for chunk in chunks:
        parsed: list[tuple[int, str, Connect4State | ZermeloError]] = []
        for raw in chunk:
            number += 1
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            text = stripped.split()[0]
            try:
                parsed.append(
                    (number, text, Connect4State.parse(text, solver.width, solver.height))
                )
            except ZermeloError as error:
                parsed.append((number, text, error))
        states = [item for _, _, item in parsed if isinstance(item, Connect4State)]
        results = iter(solver.solve_many(states, weak=weak, best_moves=best_moves))
        for line_number, text, item in parsed:
            if isinstance(item, ZermeloError):
                yield LineOutcome(line_number, text, None, item)
            else:
                yield _outcome(line_number, text, item, next(results), weak)


def solve_texts(
    texts: Sequence[str],
    width: int = 7,
    height: int = 6,
    weak: bool = False,
    best_moves: bool = False,
) -> list[Any]:
    """The scores of positions given as move strings, solved as one batch by this process's
    shared solver (its table stays warm from one call to the next): a task of a batch solve on
    :mod:`zermelo.parallel`. With ``best_moves`` each item is ``[score, best columns]``, the
    columns 0-based. A text that does not parse raises, quoting it."""
    solver = default_solver(width, height)
    states = [solver.position(text) for text in texts]
    results = solver.solve_many(states, weak=weak, best_moves=best_moves)
    scores = [
        benchmark_score(r.value, state.ply, width, height, weak=weak)
        for state, r in zip(states, results, strict=True)
    ]
    if best_moves:
        return [
            [score, [m.move for m in r.moves]] for score, r in zip(scores, results, strict=True)
        ]
    return scores


def analyze(
    position: Connect4State | str,
    *,
    pv: bool = True,
    solver: Connect4Solver | None = None,
) -> SearchResult[int]:
    """Every playable column's exact value (``moves``, best first, columns of equal value in
    centre-first order), and with ``pv`` the principal variation from ``position`` (else the
    best move alone). A full column has no entry; a finished game has none at all, and its
    value. ``stats`` counts every node searched, the line's included."""
    solver = solver or _solver_for(position)
    started = time.perf_counter()
    state = solver.position(position)
    nodes = solver.nodes
    scores = solver.analyze(state)
    values = sorted(
        (
            MoveValue(column, float(to_negamax(score, state.ply, state.width, state.height)), True)
            for column in state.legal_moves()
            if (score := scores[column]) is not None
        ),
        key=lambda entry: -entry.value,
    )
    if not values:
        return solved(state, 0, elapsed=time.perf_counter() - started)
    best = values[0]
    known = max(score for score in scores if score is not None)
    line = solver.principal_variation(state, score=known) if pv else (best.move,)
    values = [dataclasses.replace(entry, pv=(entry.move,)) for entry in values]
    values[0] = dataclasses.replace(best, pv=line)
    stats = SearchStats(nodes=solver.nodes - nodes, elapsed=time.perf_counter() - started)
    depth = state.width * state.height - state.ply
    return SearchResult(best.move, best.value, line, depth, True, stats, tuple(values))


def _solver_for(position: Connect4State | str) -> Connect4Solver:
    if isinstance(position, Connect4State):
        return default_solver(position.width, position.height)
    return default_solver()


HARD_NODE_LIMIT = 200_000_000
"""Nodes per solver attempt of the hard agent (all the searches of one move together) before it
falls back: five to ten seconds at the compiled kernel's 16-38 M nodes per second. The book holds
the best columns of every position with at most seven stones; after it the slowest move in
``benchmarks/connect4_hard.py`` took 1.5-1.7 s (ply 9; every other under 0.6 s, in 40 games), so
the fallbacks are a guard that the seeded games no longer reach."""
PURE_HARD_NODE_LIMIT = 300_000
"""The same for the plain-Python kernel (no numba), about 40 times slower: two attempts take a few
seconds, and from about ply 12 a move is found within them."""
_HARD_FALLBACK_DEPTH = 6


def hard_node_limit(solver: Connect4Solver | None = None) -> int:
    """The hard level's node budget per attempt for ``solver`` (default: the shared 7x6 one)."""
    solver = solver or default_solver()
    return HARD_NODE_LIMIT if solver.compiled else PURE_HARD_NODE_LIMIT


_LEVEL_SETTINGS = {
    # depth of the alpha-beta search, chance to miss a win on the spot, chance of a loose move
    "easy": (2, 0.3, 0.35),
    "medium": (4, 0.0, 0.12),
}


def choose_move(
    state: Connect4State,
    level: str = "hard",
    *,
    rng: random.Random | None = None,
    solver: Connect4Solver | None = None,
    hard_node_limit: int | None = None,
) -> int:
    """A move (0-based column) for the side to move at ``level``: "easy", "medium" or "hard".

    ``hard`` plays perfectly: one of the solver's best moves (the book holds those of the first
    eight plies), the first in centre order that keeps the score unless ``rng`` draws among them
    (:meth:`Connect4Solver.best_move`). With ``hard_node_limit`` (nodes per solver attempt; the
    agents use :func:`hard_node_limit`) a search over budget gives way to a move that only keeps the
    outcome (win, draw or loss: still perfect, about twice as cheap), and if that is over budget
    too, or the game is lost, to the move of a 6-ply heuristic search, with no deliberate
    mistake. ``easy`` and ``medium`` search a few
    plies with the evaluation function (:func:`zermelo.search.alphabeta`) and make human-looking
    mistakes: easy sometimes overlooks a win on the spot and often plays a loose move; medium
    always takes a win and blocks a threat on the spot but sometimes plays a loose move that does
    not hand over a win at once. Randomness comes only from ``rng`` (pass a seeded
    ``random.Random`` for reproducible games); without it the choice is deterministic.
    """
    if level not in LEVELS:
        raise ParseError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    moves = state.legal_moves()
    if not moves:
        raise ZermeloError(f"the game is over in position {state.notation()!r}; no move to choose")
    from zermelo.search import alphabeta

    if level == "hard":
        return hard_move(state, rng=rng, solver=solver, node_limit=hard_node_limit)[0]

    depth, miss_win, loose = _LEVEL_SETTINGS[level]
    draw = rng.random if rng is not None else (lambda: 1.0)
    win = state.winning_move()
    if win is not None and draw() >= miss_win:
        return win
    if draw() < loose:
        safe = [m for m in moves if state.play(m).winning_move() is None] or moves
        if level == "medium":
            threat = _opponent_threat(state)
            if threat is not None and threat in safe:
                return threat
        return rng.choice(safe) if rng is not None else safe[0]
    result = alphabeta(state, depth=depth, rng=rng)
    assert result.move is not None
    return int(result.move)


def hard_move(
    state: Connect4State,
    *,
    rng: random.Random | None = None,
    solver: Connect4Solver | None = None,
    node_limit: int | None = None,
) -> tuple[int, str]:
    """The hard level's move and how it was found: ``"exact"`` (it keeps the exact score; the book
    answers the first plies), ``"outcome"`` (the exact search was over ``node_limit``; the move
    keeps the win, draw or loss) or ``"heuristic"`` (over budget again, or the game is lost
    anyway: a 6-ply alpha-beta move, which resists longer than an arbitrary losing move).
    ``node_limit`` is the budget of each of the two solver attempts, all their searches
    together."""
    from zermelo.search import alphabeta

    solver = solver or default_solver(state.width, state.height)
    try:
        return solver.best_move(state, rng=rng, node_budget=node_limit)[0], "exact"
    except BudgetError:
        pass
    try:
        # Only the outcome is about twice as cheap, and perfect too.
        column, outcome = solver.best_move(state, rng=rng, weak=True, node_budget=node_limit)
        if outcome >= 0:
            return column, "outcome"
    except BudgetError:
        pass
    fallback = alphabeta(state, depth=_HARD_FALLBACK_DEPTH, rng=rng)
    assert fallback.move is not None
    return int(fallback.move), "heuristic"


def _opponent_threat(state: Connect4State) -> int | None:
    """A column where the opponent would win on the spot if it were its turn."""
    geo = state.geometry
    from zermelo.games.connect4 import winning_cells

    threats = winning_cells(state.opponent, state.mask, geo) & (
        (state.mask + geo.bottom) & geo.board
    )
    for column in geo.order:
        if threats & geo.column_masks[column]:
            return column
    return None
