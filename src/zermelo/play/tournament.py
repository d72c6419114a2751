"""Round-robin tournaments, seeded and run in parallel over worker processes.

:func:`round_robin` writes the schedule as a list of :class:`GameTask`: every pair of agents plays
``games`` games, the agent listed first taking the first move in the even-numbered games and the
other one in the odd ones. Each game gets its own seed derived from the tournament seed and the
game's number, and each side's agent a seed derived from that; so a game replays the same whatever
order or process it runs in (agents on a time budget excepted: how far they read depends on the
machine). A task holds only picklable values (the agents as :class:`AgentSpec`), so that worker
processes build their own agents.

:func:`run_tasks` plays the tasks, in this process (``jobs=1``), over a pool of local processes or
on any :class:`zermelo.parallel.Executor` (a Dask cluster), reports each finished game through a
callback, and returns the records in schedule order.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from zermelo.agents.spec import AgentSpec
from zermelo.core.errors import ParseError, ZermeloError
from zermelo.parallel import Executor, LocalExecutor, ResultStore, run_job
from zermelo.play.match import GameRecord, RuleValue, run_game, start_state

__all__ = [
    "GameTask",
    "PointsTally",
    "derive_seed",
    "pair_points",
    "play_task",
    "round_robin",
    "run_tasks",
    "tournament_meta",
    "unique_labels",
]


def derive_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed from ``seed`` and ``parts``, the same on every machine and Python version."""
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True, slots=True)
class GameTask:
    """One scheduled game: ``agents`` and ``labels`` for :attr:`Player.FIRST` then
    :attr:`Player.SECOND`, the game, its options and start position, its number and its seed."""

    index: int
    game: str
    agents: tuple[AgentSpec, AgentSpec]
    labels: tuple[str, str]
    seed: int
    options: tuple[tuple[str, RuleValue], ...] = ()
    start: str | None = None
    max_moves: int | None = None


def unique_labels(specs: Sequence[AgentSpec]) -> list[str]:
    """The specs' labels, with ``#2``, ``#3`` ... added to repeats so every agent has its own."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        count = seen.get(spec.label, 0) + 1
        seen[spec.label] = count
        labels.append(spec.label if count == 1 else f"{spec.label}#{count}")
    return labels


def round_robin(
    game: str,
    agents: Sequence[AgentSpec],
    games: int,
    *,
    seed: int = 0,
    options: Mapping[str, RuleValue] | None = None,
    start: str | None = None,
    openings: Sequence[str] = (),
    max_moves: int | None = None,
) -> list[GameTask]:
    """The schedule of a round robin: ``games`` games for every pair, colours alternated.

    With ``openings`` (start positions), a pair's games go through them in turn, each opening
    twice in a row with the colours swapped, so that neither agent gets the better side of an
    opening; ``start`` is then ignored. ``max_moves`` adjudicates longer games as draws."""
    if len(agents) < 2:
        raise ZermeloError(f"a round robin needs at least two agents, got {len(agents)}")
    if games < 1:
        raise ZermeloError(f"each pair must play at least one game, got {games}")
    labels = unique_labels(agents)
    frozen_options = tuple(sorted((options or {}).items()))
    tasks: list[GameTask] = []
    for i in range(len(agents)):
        for j in range(i + 1, len(agents)):
            for g in range(games):
                a, b = (i, j) if g % 2 == 0 else (j, i)
                index = len(tasks)
                tasks.append(
                    GameTask(
                        index=index,
                        game=game,
                        agents=(agents[a], agents[b]),
                        labels=(labels[a], labels[b]),
                        seed=derive_seed(seed, index),
                        options=frozen_options,
                        start=openings[(g // 2) % len(openings)] if openings else start,
                        max_moves=max_moves,
                    )
                )
    return tasks


def play_task(task: GameTask) -> GameRecord:
    """Play one scheduled game (in whatever process) and return its record."""
    options = dict(task.options)
    state = start_state(task.game, options, task.start)
    players = []
    for side, (spec, label) in enumerate(zip(task.agents, task.labels, strict=True)):
        agent = spec.build(task.game, derive_seed(task.seed, side))
        agent.name = label
        players.append(agent)
    return run_game(
        state,
        players,
        game=task.game,
        options=options,
        seed=task.seed,
        index=task.index,
        max_moves=task.max_moves,
    )


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    on_record: Callable[[GameRecord], None] | None = None,
    executor: Executor | None = None,
    store: ResultStore | None = None,
) -> list[GameRecord]:
    """Play ``tasks`` with ``jobs`` worker processes (1: here, in order), or on ``executor`` (a
    local pool or a Dask cluster, see :mod:`zermelo.parallel`), and return their records in
    schedule order; ``on_record`` hears of each game as it finishes.

    With ``store`` each record is kept as it arrives, and the games it holds already are not
    played again (their records come from it), so an interrupted tournament resumes."""
    if jobs < 1:
        raise ZermeloError(f"jobs must be at least 1, got {jobs}")
    if executor is not None:
        return _run_on(executor, tasks, on_record, store)
    with LocalExecutor(max(min(jobs, len(tasks)), 1)) as local:
        return _run_on(local, tasks, on_record, store)


def _run_on(
    executor: Executor,
    tasks: Sequence[GameTask],
    on_record: Callable[[GameRecord], None] | None,
    store: ResultStore | None,
) -> list[GameRecord]:
    def heard(key: str, record: GameRecord, done: int, total: int) -> None:
        if on_record is not None:
            on_record(record)

    by_key = {str(task.index): (task,) for task in tasks}
    if len(by_key) != len(tasks):
        raise ZermeloError("two games of the schedule have the same number")
    results = run_job(
        executor, play_task, by_key, store=store, on_result=heard,
        encode=GameRecord.to_json, decode=_stored_record,
    )  # fmt: skip
    return [results[str(task.index)] for task in tasks]


def _stored_record(value: object) -> GameRecord:
    """A game record kept in a results file (the JSON text :meth:`GameRecord.to_json` wrote)."""
    if not isinstance(value, str):
        raise ParseError(
            f"invalid game record {str(value)[:60]!r}: expected the record's JSON text"
        )
    return GameRecord.from_json(value)


def tournament_meta(tasks: Sequence[GameTask]) -> dict[str, str | int]:
    """What identifies a tournament's result store (its first line): the schedule's digest, so
    that games of another schedule are never mixed in."""
    digest = hashlib.sha256(repr(tasks).encode()).hexdigest()[:16]
    return {"job": "arena", "games": len(tasks), "schedule": digest}


@dataclass(frozen=True, slots=True)
class PointsTally:
    """What one agent won against another in a game scored in points: ``games``, the mean
    ``per_game`` and the half-width ``margin`` of its 95% interval (normal approximation,
    ``1.96 · sd / sqrt(games)``; 0 for one game)."""

    games: int
    per_game: float
    margin: float

    def describe(self) -> str:
        """``+0.412 [+0.201, +0.623]``."""
        low, high = self.per_game - self.margin, self.per_game + self.margin
        return f"{self.per_game:+.3f} [{low:+.3f}, {high:+.3f}]"


def pair_points(records: Sequence[GameRecord]) -> dict[tuple[str, str], PointsTally]:
    """For each pair of agents (in the order they first met), the points per game of the first
    of them against the second, over all their games, whoever moved first
    (:meth:`GameRecord.points_of`)."""
    won: dict[tuple[str, str], list[float]] = {}
    for record in records:
        a, b = record.players
        key = (a, b) if (a, b) in won or (b, a) not in won else (b, a)
        won.setdefault(key, []).append(record.points_of(key[0]))
    tallies = {}
    for key, points in won.items():
        n = len(points)
        mean = sum(points) / n
        variance = sum((p - mean) ** 2 for p in points) / (n - 1) if n > 1 else 0.0
        tallies[key] = PointsTally(n, mean, 1.96 * math.sqrt(variance / n) if n > 1 else 0.0)
    return tallies
