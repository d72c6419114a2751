"""The arena plays the learned player from its spec (``az:sims=N,net=PATH``), rebuilt in each
worker process, and refuses a bad net before any game, in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.agents.fakenet import write_net

from conftest import run_cli


@pytest.fixture(scope="module")
def nets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("nets")
    write_net(folder / "ttt.npz", "tictactoe", seed=1)
    return folder


def _row(text: str, label: str) -> list[str]:
    line = next(line for line in text.splitlines() if f" {label} " in line)
    return [cell.strip() for cell in line.strip("│┃ ").split("│")]


def test_az_plays_in_worker_processes_and_the_games_replay(nets: Path) -> None:
    agent = f"az:sims=20,net={nets / 'ttt.npz'}"
    runs = [
        run_cli("arena", "tictactoe", agent, "random", "--games", "4", "-j", "2", "--seed", "3")
        for _ in range(2)
    ]
    for done in runs:
        assert done.returncode == 0, done.stderr
    first = _row(runs[0].stdout, agent)
    assert first[:2] == [agent, "4"]
    assert sum(int(cell) for cell in first[2:5]) == 4
    # Two jobs, the same seed: the same games, so the same standings.
    assert first == _row(runs[1].stdout, agent)
    assert re.search(r"4 games, seed 3, 2 jobs", runs[0].stdout)


@pytest.mark.parametrize(
    ("agent", "line"),
    [
        ("az:net={nets}/ttt.npz", ": the net {nets}/ttt.npz plays tictactoe, not connect4"),
        ("az:net={nets}/none.npz", " cannot use its net: {nets}/none.npz: no such net file"),
        ("az:sims=0", None),
    ],
)
def test_a_bad_az_agent_is_one_line_before_any_game(
    nets: Path, agent: str, line: str | None
) -> None:
    text = agent.format(nets=nets)
    done = run_cli("arena", "connect4", text, "random", "--games", "2")
    assert done.returncode == 2
    last = done.stderr.splitlines()[-1]
    if line is None:
        assert last.startswith(f"zermelo: error: bad agent {text!r}: sims='0' is not valid")
    else:
        assert last == f"zermelo: error: agent {text!r}{line.format(nets=nets)}"
    assert "Traceback" not in done.stderr and "Games" not in done.stderr
