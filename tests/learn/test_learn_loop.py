"""The learning loop on a fixed seed and a tiny net: training lowers the loss and raises the share
of optimal moves against the exact solver; a run resumes with nothing lost; bad runs get one line.
Nothing here is timed: the budgets are in generations."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
import torch

from zermelo.agents.az import Net
from zermelo.learn import loop
from zermelo.learn.loop import LearnConfig, RunError, default_config, learn, read_metrics

TINY = {
    "seconds": 1e9,
    "jobs": 1,
    "threads": 1,
    "games": 24,
    "sims": 24,
    "fast_sims": 8,
    "channels": 8,
    "blocks": 1,
    "batch": 64,
    "reuse": 8.0,
    "gate_games": 4,
    "gate_sims": 8,
    "measure_sims": 8,
    "measure_positions": 40,
    "arena_every": 0,
    "learning_rate": 3e-3,
}


def tiny(generations: int, **more: object) -> LearnConfig:
    return default_config("tictactoe", generations=generations, **{**TINY, **more})


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("run")
    learn(tiny(5), run)
    return run


def test_training_lowers_the_loss_and_raises_the_share_of_optimal_moves(trained: Path) -> None:
    rows = read_metrics(trained)
    assert [row.generation for row in rows] == [1, 2, 3, 4, 5]
    first, last = rows[0], rows[-1]
    assert last.loss < first.loss
    assert last.value_loss < first.value_loss
    assert first.alone is not None and last.alone is not None
    # Measured on the tutorial's 4,520 positions with X to move (every one labelled exactly).
    assert last.alone > first.alone + 0.03
    assert last.value_error is not None and first.value_error is not None
    assert last.value_error < first.value_error
    assert all(row.games == 24 * row.generation for row in rows)


def test_every_checkpoint_is_a_net_that_loads_without_torch_state(trained: Path) -> None:
    for generation in range(1, 6):
        net = Net.load(trained / "checkpoints" / f"gen-{generation:04d}.npz")
        assert net.game == "tictactoe"
    best = Net.load(trained / "best.npz")
    assert "self-play" in best.description


def test_a_run_goes_on_where_it_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    learn(tiny(2), run)
    meta = json.loads((run / "run.json").read_text())
    assert meta["generation"] == 2 and meta["games"] == 48
    # A kill during generation 3's self-play, after its one task was stored: the rerun must not
    # play that task again, and goes on to generation 3 and 4.
    calls: list[int] = []
    real = loop.play_games

    def counting(*args: object) -> Mapping[str, object]:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(loop, "play_games", counting)
    summary = learn(tiny(3), run)
    assert summary.resumed and summary.generation == 3 and len(calls) == 1
    # Generation 3's self-play is on disk: a run of generation 3 again plays nothing.
    (run / "metrics.jsonl").write_text(
        "\n".join((run / "metrics.jsonl").read_text().splitlines()[:2]) + "\n"
    )
    meta = json.loads((run / "run.json").read_text())
    meta["generation"], meta["games"] = 2, 48
    (run / "run.json").write_text(json.dumps(meta))
    calls.clear()
    summary = learn(tiny(3), run)
    assert summary.generation == 3 and calls == []
    rows = read_metrics(run)
    assert [row.generation for row in rows] == [1, 2, 3]
    # Going on with more training per game is the same run; each line says what it used.
    summary = learn(tiny(4, reuse=12.0), run)
    assert summary.generation == 4 and len(calls) == 1
    rows = read_metrics(run)
    assert [row.generation for row in rows] == [1, 2, 3, 4]
    assert [row.training["reuse"] for row in rows] == [8.0, 8.0, 8.0, 12.0]
    # A lower learning rate from now on is the rate the optimizer uses, not the saved one.
    learn(tiny(5, learning_rate=2e-4), run)
    saved = torch.load(run / "checkpoints" / "gen-0005.pt", weights_only=True)
    assert [group["lr"] for group in saved["optimizer"]["param_groups"]] == [2e-4]
    assert read_metrics(run)[-1].training["learning_rate"] == 2e-4


def test_a_stop_request_ends_between_phases(tmp_path: Path) -> None:
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 2

    summary = learn(tiny(10), tmp_path / "run", stop=stop)
    assert summary.stopped and summary.generation == 1


def test_a_run_directory_of_other_settings_is_refused_in_one_line(tmp_path: Path) -> None:
    run = tmp_path / "run"
    learn(tiny(1), run)
    with pytest.raises(RunError) as error:
        learn(tiny(2, channels=4), run)
    assert "\n" not in str(error.value) and "--fresh" in str(error.value)
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "run.json").write_text("{not json")
    with pytest.raises(RunError):
        learn(tiny(1), tmp_path / "junk")


def test_unknown_settings_and_games_that_cannot_learn() -> None:
    from zermelo.core.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        default_config("tictactoe", colour="blue")
    with pytest.raises(InvalidOptionError):
        learn(default_config("pig", generations=1, jobs=1), Path("/nonexistent/never-made"))


def test_self_play_runs_on_a_dask_cluster_of_separate_processes(tmp_path: Path) -> None:
    """The same generation on a local Dask cluster (worker processes of their own) gives the
    same games as in this process: the tasks are seeded, wherever they run."""
    here, there = tmp_path / "here", tmp_path / "there"
    learn(tiny(1), here)
    learn(tiny(1, cluster="local:1"), there)
    mine = (here / "selfplay" / "gen-0001.jsonl").read_text().splitlines()[1:]
    theirs = (there / "selfplay" / "gen-0001.jsonl").read_text().splitlines()[1:]
    assert mine == theirs and len(mine) == 1
    assert read_metrics(there)[0].games == 24


@pytest.mark.parametrize(
    ("game", "moves", "count"), [("tictactoe", [0, 5, 7, 4], 7), ("connect4", [0, 1, 1, 3, 6], 1)]
)
def test_each_symmetry_maps_a_position_onto_the_position_of_the_mapped_moves(
    game: str, moves: list[int], count: int
) -> None:
    """The image of a position's planes is the planes of the position reached by the mapped
    moves, and its policy's actions are those moves: what training on images assumes."""
    import numpy as np

    from zermelo.agents.az import learnable
    from zermelo.games.registry import get_game

    spec = get_game(game)
    encoder = learnable(spec)
    start = spec.new()
    _planes, rows, columns = encoder.shape(start)
    symmetries = loop._symmetries(encoder.actions(start), rows, columns)
    assert len(symmetries) == count
    state = start
    for move in moves:
        state = state.play(move)
    for turn, perm in symmetries:
        inverse = {int(src): dst for dst, src in enumerate(perm)}
        image = start
        for move in moves:
            image = image.play(inverse[encoder.action(move)])
        assert np.array_equal(turn(encoder.planes([state])), encoder.planes([image]))
