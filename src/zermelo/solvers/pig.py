"""Pig solved exactly by value iteration, after Neller and Presser (2004).

Write ``P(i, j, k)`` for the probability that the player to move wins, with ``i`` points banked,
the opponent ``j``, and ``k`` the turn total so far. With a ``d``-faced die and the goal ``g``:

* holding banks ``k`` and hands the turn over: ``P_hold = 1 - P(j, i + k, 0)``;
* rolling loses everything on a 1 and adds the face otherwise:
  ``P_roll = (1/d)·[(1 - P(j, i, 0)) + sum over faces r = 2..d of P(i, j, k + r)]``;
* ``P(i, j, k) = max(P_roll, P_hold)``, and ``P = 1`` once ``i + k >= g`` (hold and win).

These equations refer to each other in a circle (a turn can come back to where it was: both
players rolling a 1), so they cannot be solved by reading a tree to its end, the way minimax
would. *Value iteration* starts from any guess and applies them again and again until nothing
changes (here: by less than 1e-12). Within one turn the equations only look at larger turn
totals and at the opponent's turn-start values, so one sweep works backwards over ``k`` with the
turn-start table ``P(·, ·, 0)`` of the previous sweep, and only that table (``g * g`` numbers)
is kept between sweeps; the turn totals live in a ring of ``d`` slices.

The answer for goal 100 and a six-sided die: the first player wins 0.5306 of games under optimal
play. The "hold at 20" rule (roll while the turn total is below 20) evaluated the same way, with
the policy fixed instead of the max, wins 0.5347 for the first player against itself: the
advantage of moving first is bigger under the simple rule.

The optimal policy is shown as its *hold boundary*: for each pair of scores, the smallest turn
total at which holding is at least as good as rolling.
"""

from __future__ import annotations

import functools
import math
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from zermelo.core.capabilities import GameSolution, Progress, Series
from zermelo.core.errors import N_, BudgetError, InvalidOptionError
from zermelo.games.pig import DEFAULT_DIE, DEFAULT_GOAL, HOLD, MAX_DIE, MAX_GOAL, ROLL, PigState

__all__ = [
    "MAX_CELLS",
    "SOLVER",
    "TOLERANCE",
    "PigSolver",
    "PigTable",
    "best_move",
    "cache_dir",
    "evaluate_hold_at",
    "hold_boundary",
    "solve",
    "solved_table",
    "table_within",
    "turn_values",
    "win_probability",
]

Floats = npt.NDArray[np.float64]

TOLERANCE = 1e-12
"""Value iteration stops when no turn-start value changes by more than this in a sweep."""

MAX_SWEEPS = 100_000
"""At most this many sweeps unless ``iterations`` says otherwise (goal 100 needs about 150)."""

MAX_CELLS = 16_000_000
"""A sweep visits ``g · g · (g + d)`` states; a goal larger than this allows (about 250 with a
six-sided die) would take hours, so it is refused before any work."""

HOLD_AT = 20
"""The simple policy compared with the optimal one: roll while the turn total is below 20."""


@dataclass(frozen=True)
class PigTable:
    """The solved turn-start table: ``start[i, j] = P(i, j, 0)`` for the player to move, with
    the ``sweeps`` it took, the last sweep's largest change (``residual``) and whether that was
    within :data:`TOLERANCE` (``converged``). ``hold_at`` names the fixed policy it evaluates
    ("roll while the turn total is below N"), or ``None`` for optimal play."""

    goal: int
    die: int
    start: Floats
    sweeps: int
    residual: float
    converged: bool
    hold_at: int | None = None

    @property
    def first_wins(self) -> float:
        """The first player's chance to win from the start."""
        return float(self.start[0, 0])


def check_size(goal: int, die: int) -> None:
    """Refuse, in one line, a game too big to solve here (before anything is built)."""
    if not (2 <= goal <= MAX_GOAL and 2 <= die <= MAX_DIE):
        raise InvalidOptionError(
            N_("Pig needs a goal from 2 to {goal} and a die of 2 to {die} faces"),
            goal=MAX_GOAL,
            die=MAX_DIE,
        )
    cells = goal * goal * (goal + die)
    if cells > MAX_CELLS:
        largest = max(g for g in range(2, goal) if g * g * (g + die) <= MAX_CELLS)
        raise BudgetError(
            N_(
                "Pig with goal {goal} has {cells:,} states per sweep, too many to solve here; "
                "use a goal of at most {largest} with a {die}-sided die"
            ),
            goal=goal,
            cells=cells,
            largest=largest,
            die=die,
        )


def _sweep(
    start: Floats,
    goal: int,
    die: int,
    hold_at: int | None,
    deadline: float | None,
    boundary: npt.NDArray[np.int64] | None = None,
) -> Floats:
    """One sweep of value iteration: the new turn-start table from the old one. With
    ``boundary``, also the smallest turn total (1 or more) at which holding is optimal, per
    pair of scores."""
    g = goal
    # opponent[m, j] = P(j, m, 0): the opponent's turn-start value once we have m banked; rows
    # from g on (we have won by holding) stay 0, so that holding there scores 1 - 0 = 1.
    opponent = np.zeros((2 * g + die, g))
    opponent[:g] = start.T
    lose = 1.0 - start.T  # a 1 rolled: the opponent starts a turn at (j, i)
    ones = np.ones((g, g))
    ring: dict[int, Floats] = {}
    if boundary is not None:
        boundary[:] = g - np.arange(g)[:, None]  # i + k >= g: hold and win
    for k in range(g - 1, -1, -1):
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetError("the time limit ran out during value iteration")
        ahead = ones.copy() if k + 2 >= g else ring.get(k + 2, ones).copy()
        for face in range(3, die + 1):
            ahead += ring.get(k + face, ones)
        roll = (lose + ahead) / die
        hold = 1.0 - opponent[k : k + g]
        if hold_at is None:
            value = np.maximum(roll, hold)
            if boundary is not None and k >= 1:
                holds = (hold >= roll) & (np.arange(g)[:, None] + k < g)
                boundary[holds] = k
        else:
            value = roll if k < hold_at else hold
        if k > 0:
            value[g - k :, :] = 1.0
        ring[k] = value
        ring.pop(k + die, None)
    return ring[0]


def _iterate(
    goal: int,
    die: int,
    hold_at: int | None,
    iterations: int | None,
    progress: Progress | None,
    deadline: float | None,
    stage: str,
) -> PigTable:
    check_size(goal, die)
    if iterations is not None and iterations < 1:
        raise BudgetError(f"iterations must be at least 1, got {iterations}")
    limit = MAX_SWEEPS if iterations is None else iterations
    start = np.zeros((goal, goal))
    residual = math.inf
    first_residual: float | None = None
    sweeps = 0
    while sweeps < limit:
        new = _sweep(start, goal, die, hold_at, deadline)
        residual = float(np.abs(new - start).max())
        start = new
        sweeps += 1
        if progress is not None:
            first_residual = first_residual or max(residual, TOLERANCE * 10)
            span = math.log(first_residual / TOLERANCE)
            done = math.log(first_residual / max(residual, TOLERANCE)) / span
            progress(stage, min(100, max(0, round(100 * done))), 100)
        if residual <= TOLERANCE:
            break
    return PigTable(goal, die, start, sweeps, residual, residual <= TOLERANCE, hold_at)


def solve(
    goal: int = DEFAULT_GOAL,
    die: int = DEFAULT_DIE,
    *,
    iterations: int | None = None,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> PigTable:
    """Optimal play by value iteration (at most ``iterations`` sweeps; ``deadline`` a
    ``time.monotonic()`` value, past which :class:`BudgetError` is raised)."""
    return _iterate(goal, die, None, iterations, progress, deadline, N_("value iteration"))


def evaluate_hold_at(
    hold_at: int = HOLD_AT,
    goal: int = DEFAULT_GOAL,
    die: int = DEFAULT_DIE,
    *,
    iterations: int | None = None,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> PigTable:
    """Both players following "roll while the turn total is below ``hold_at``" (and hold when
    holding wins), evaluated exactly: the first player's chance is the table's ``first_wins``."""
    if hold_at < 1:
        raise BudgetError(f"hold at must be at least 1, got {hold_at}")
    return _iterate(goal, die, hold_at, iterations, progress, deadline, N_("hold at 20"))


def hold_boundary(table: PigTable) -> npt.NDArray[np.int64]:
    """``boundary[i, j]``: the smallest turn total (1 or more) at which the player to move, with
    ``i`` banked against ``j``, does at least as well holding as rolling."""
    boundary = np.zeros((table.goal, table.goal), dtype=np.int64)
    _sweep(table.start, table.goal, table.die, None, None, boundary)
    return boundary


def turn_values(table: PigTable, own: int, other: int) -> tuple[list[float], list[float]]:
    """For the player to move with ``own`` banked against ``other``: the chance to win by
    rolling and by holding at each turn total ``k`` from 0 to ``goal - own - 1`` (above, holding
    wins), worked back from the table's turn-start values. Under a fixed policy (``hold_at``)
    the chance of the move the policy makes is used for the turn totals ahead."""
    g, d, start = table.goal, table.die, table.start
    size = g - own
    chances = [1.0] * (size + d + 1)  # chances[k]: P(own, other, k); 1 from k = size on
    roll = [0.0] * size
    hold = [0.0] * size
    lose = 1.0 - float(start[other, own])
    for k in range(size - 1, -1, -1):
        roll[k] = (lose + sum(chances[k + face] for face in range(2, d + 1))) / d
        hold[k] = 1.0 - float(start[other, own + k]) if own + k < g else 1.0
        if table.hold_at is None:
            chances[k] = max(roll[k], hold[k])
        else:
            chances[k] = roll[k] if k < table.hold_at else hold[k]
    return roll, hold


def win_probability(table: PigTable, state: PigState) -> float:
    """The side to move's chance to win in ``state`` under the table's play (a chance node: the
    mean over the faces)."""
    if state.is_terminal():
        return 1.0 if state.winner is state.to_move else 0.0
    own, other = state.banked(state.to_move), state.banked(state.to_move.opponent)
    if own + state.turn >= table.goal and not state.rolling:
        return 1.0
    roll, hold = turn_values(table, own, other)
    if state.rolling:
        lose = 1.0 - float(table.start[other, own])
        total = lose
        for face in range(2, table.die + 1):
            k = state.turn + face
            if k >= len(roll):
                total += 1.0
            elif table.hold_at is None:
                total += max(roll[k], hold[k])
            else:
                total += roll[k] if k < table.hold_at else hold[k]
        return total / table.die
    k = state.turn
    if table.hold_at is None:
        return max(roll[k], hold[k])
    return roll[k] if k < table.hold_at else hold[k]


def best_move(table: PigTable, state: PigState) -> str:
    """The table's move at the decision ``state``: ``roll`` or ``hold`` (hold on a tie)."""
    if state.is_terminal() or state.rolling:
        raise BudgetError("best_move needs a decision: a running game with the die at rest")
    if (state.goal, state.die) != (table.goal, table.die):
        raise BudgetError(
            f"the table is for goal {table.goal} and a d{table.die}, the game is goal "
            f"{state.goal} with a d{state.die}"
        )
    own, other = state.banked(state.to_move), state.banked(state.to_move.opponent)
    if own + state.turn >= table.goal:
        return HOLD
    roll, hold = turn_values(table, own, other)
    return ROLL if roll[state.turn] > hold[state.turn] else HOLD


def cache_dir() -> Path:
    """Where solved tables are kept between runs: ``$ZERMELO_CACHE_DIR``, else the user's cache
    directory (``$XDG_CACHE_HOME/zermelo`` or ``~/.cache/zermelo``), under ``pig``."""
    override = os.environ.get("ZERMELO_CACHE_DIR")
    if override:
        return Path(override) / "pig"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zermelo" / "pig"


def _cached(goal: int, die: int) -> PigTable | None:
    """The table kept on disk, if there is one and it is still a fixed point of the equations
    (one sweep checks it: a damaged or foreign file is never trusted); else ``None``."""
    path = cache_dir() / f"goal{goal}-d{die}.npy"
    try:
        start = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if start.shape != (goal, goal) or start.dtype != np.float64 or not np.isfinite(start).all():
        return None
    residual = float(np.abs(_sweep(start, goal, die, None, None) - start).max())
    if residual > TOLERANCE * 10:
        return None
    return PigTable(goal, die, start, 0, residual, True)


def _keep(table: PigTable) -> None:
    """Write the table to the cache directory (atomically); a cache that cannot be written is
    simply not kept."""
    folder = cache_dir()
    path = folder / f"goal{table.goal}-d{table.die}.npy"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as handle:
            np.save(handle, table.start, allow_pickle=False)
        os.replace(handle.name, path)
    except OSError:
        return


@functools.lru_cache(maxsize=4)
def solved_table(goal: int = DEFAULT_GOAL, die: int = DEFAULT_DIE) -> PigTable:
    """The optimal table, solved once and kept: in this process, and on disk in
    :func:`cache_dir` for the next (the hard level plays from it)."""
    check_size(goal, die)
    table = _cached(goal, die)
    if table is None:
        table = solve(goal, die)
        if table.converged:
            _keep(table)
    return table


_READY: dict[tuple[int, int], PigTable] = {}
"""Tables :func:`table_within` has in hand (from :func:`solved_table`, the disk, or a solve)."""


def table_within(goal: int, die: int, deadline: float | None) -> PigTable:
    """The optimal table as :func:`solved_table` gives it, but a first solve (nothing in this
    process nor on disk) is bounded by ``deadline`` (a ``time.monotonic()`` instant): past it,
    :class:`BudgetError` in one line. Without a deadline, :func:`solved_table`."""
    key = (goal, die)
    table = _READY.get(key)
    if table is not None:
        return table
    if deadline is None:
        table = solved_table(goal, die)
    else:
        check_size(goal, die)
        table = _cached(goal, die)
        if table is None:
            try:
                table = solve(goal, die, deadline=deadline)
            except BudgetError:
                raise BudgetError(
                    N_(
                        "Pig's table for goal {goal} with a d{die} is solved the first time it "
                        "is asked for (a few seconds); the time limit ran out first: allow more "
                        "time"
                    ),
                    goal=goal,
                    die=die,
                ) from None
            if table.converged:
                _keep(table)
    _READY[key] = table
    return table


def _columns(goal: int) -> list[int]:
    step = max(1, goal // 10)
    return list(range(0, goal, step))


def _series(goal: int, boundary: npt.NDArray[np.int64]) -> tuple[Series, ...]:
    own = tuple(float(i) for i in range(goal))
    opponents = sorted({min(goal - 1, round(goal * q)) for q in (0.0, 0.25, 0.5, 0.75, 0.9)})
    return tuple(
        Series(str(j), own, tuple(float(boundary[i, j]) for i in range(goal))) for j in opponents
    )


class PigSolver:
    """``zermelo solve pig``: optimal play and "hold at 20" by value iteration, the hold
    boundary as a table (rows: own score; columns: the opponent's, in tenths of the goal) and as
    curves (one per opponent's score)."""

    def solve_game(
        self,
        options: Mapping[str, int | bool],
        iterations: int | None,
        progress: Progress,
        deadline: float | None = None,
    ) -> GameSolution:
        goal = _option(options, "goal", DEFAULT_GOAL)
        die = _option(options, "die", DEFAULT_DIE)
        check_size(goal, die)
        started = time.perf_counter()
        optimal = solve(goal, die, iterations=iterations, progress=progress, deadline=deadline)
        simple = evaluate_hold_at(
            HOLD_AT, goal, die, iterations=iterations, progress=progress, deadline=deadline
        )
        boundary = hold_boundary(optimal)
        seconds = time.perf_counter() - started
        p = optimal.first_wins
        facts = (
            (N_("goal"), str(goal)),
            (N_("die"), f"d{die}"),
            (N_("first player's chance to win, optimal play"), f"{p:.4f}"),
            (N_("first player's value (2·P - 1)"), f"{2 * p - 1:+.4f}"),
            (N_("first player's chance, both holding at 20"), f"{simple.first_wins:.4f}"),
            (N_("sweeps of value iteration"), str(optimal.sweeps)),
            (N_("largest change in the last sweep"), f"{optimal.residual:.1e}"),
            (N_("converged"), N_("yes") if optimal.converged else N_("no")),
            (N_("seconds"), f"{seconds:.1f}"),
        )
        columns = _columns(goal)
        header = (N_("own score"), *(str(j) for j in columns))
        rows = tuple((str(i), *(str(int(boundary[i, j])) for j in columns)) for i in range(goal))
        return GameSolution(
            value=2 * p - 1,
            facts=facts,
            header=header,
            rows=rows,
            plot_title=N_(
                "Pig: the turn total at which to hold, by own score (one curve per opponent's "
                "score)"
            ),
            x_label=N_("own score"),
            y_label=N_("hold at turn total"),
            series=_series(goal, boundary),
        )


def _option(options: Mapping[str, int | bool], name: str, default: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(
            N_("option {name}={value!r}: expected a whole number"), name=name, value=value
        )
    return value


SOLVER = PigSolver()
"""The record's ``game_solver``."""
