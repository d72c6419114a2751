"""Round-robin schedules, seeded determinism, and parallel runs equal to sequential ones."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from zermelo.agents.spec import parse_agent
from zermelo.core.errors import ZermeloError
from zermelo.play.match import GameRecord, replay
from zermelo.play.ratings import standings
from zermelo.play.tournament import derive_seed, round_robin, run_tasks, unique_labels

AGENTS = [parse_agent(t) for t in ("random", "mcts:iterations=60", "engine:depth=2")]


def _without_times(records: list[GameRecord]) -> list[GameRecord]:
    return [dataclasses.replace(r, times=()) for r in records]


def test_schedule_pairs_everyone_and_alternates_colours() -> None:
    tasks = round_robin("tictactoe", AGENTS, 4, seed=3)
    assert len(tasks) == 3 * 4
    assert [t.index for t in tasks] == list(range(12))
    pairs = Counter(frozenset(t.labels) for t in tasks)
    assert set(pairs.values()) == {4}
    firsts = Counter(t.labels[0] for t in tasks)
    assert firsts == {"random": 4, "mcts:iterations=60": 4, "engine:depth=2": 4}
    assert tasks[0].labels == ("random", "mcts:iterations=60")
    assert tasks[1].labels == ("mcts:iterations=60", "random")
    assert len({t.seed for t in tasks}) == 12


def test_seeds_are_stable_values() -> None:
    assert derive_seed(0, 1) == derive_seed(0, 1)
    assert derive_seed(0, 1) != derive_seed(1, 0)
    assert 0 <= derive_seed(2**70, 5) < 2**63


def test_same_seed_same_games_other_seed_other_games() -> None:
    one = run_tasks(round_robin("tictactoe", AGENTS, 2, seed=5))
    two = run_tasks(round_robin("tictactoe", AGENTS, 2, seed=5))
    other = run_tasks(round_robin("tictactoe", AGENTS, 2, seed=6))
    assert _without_times(one) == _without_times(two)
    assert [r.moves for r in one] != [r.moves for r in other]
    for record in one:
        replay(record)


def test_parallel_equals_sequential() -> None:
    tasks = round_robin("tictactoe", AGENTS, 2, seed=8)
    seen: list[int] = []
    parallel = run_tasks(tasks, jobs=2, on_record=lambda r: seen.append(r.index))
    sequential = run_tasks(tasks, jobs=1)
    assert _without_times(parallel) == _without_times(sequential)
    assert sorted(seen) == list(range(len(tasks)))
    table = standings(sequential)
    assert sum(t.games for t in table.values()) == 2 * len(tasks)


def test_repeated_agents_get_distinct_labels() -> None:
    specs = [parse_agent("random"), parse_agent("random"), parse_agent("random")]
    assert unique_labels(specs) == ["random", "random#2", "random#3"]
    records = run_tasks(round_robin("tictactoe", specs, 2, seed=1))
    assert set(standings(records)) == {"random", "random#2", "random#3"}


@pytest.mark.parametrize(("count", "games"), [(1, 2), (2, 0)])
def test_bad_round_robins_are_refused(count: int, games: int) -> None:
    with pytest.raises(ZermeloError):
        round_robin("tictactoe", AGENTS[:count], games)
