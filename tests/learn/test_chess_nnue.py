"""The learned evaluation's training pipeline on tiny runs: self-play shards are the same bytes
for the same seed, the inputs are the format's, data -> training -> export -> ``nnue.load`` works,
the quantised network evaluates as the float model does, and a resumed run replays no task and
loses no checkpoint (a run stopped mid-epoch ends with the very weights of one never stopped)."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import chess
import numpy as np
import pytest

pytest.importorskip("torch")  # the learn extra

import torch

from zermelo.learn import chess_nnue
from zermelo.learn.chess_nnue import NnueRunError, Settings
from zermelo.parallel import LocalExecutor
from zermelo.solvers.chess import nnue, nnue_data
from zermelo.solvers.chess.engine import MATE_BOUND

TINY = Settings(positions=150, label_depth=1, hidden=8, epochs=1, seed=3, batch=32)


def executor() -> LocalExecutor:
    return LocalExecutor(1, nnue_data.warm_up)


def test_the_same_seed_gives_the_same_shard_bytes() -> None:
    first = nnue_data.play_task(5, 0, 1, 2, None)
    assert nnue_data.play_task(5, 0, 1, 2, None) == first
    assert nnue_data.play_task(5, 1, 1, 2, None) != first
    assert nnue_data.play_task(6, 0, 1, 2, None) != first


def test_a_shard_holds_quiet_positions_with_their_labels() -> None:
    positions = nnue_data.decode_shard(nnue_data.play_task(1, 0, 2, 2, None))
    assert len(positions) > 10
    assert set(np.unique(positions.result)) <= {-1, 0, 1}
    assert int(np.abs(positions.score.astype(np.int64)).max()) <= MATE_BOUND
    for index in range(len(positions)):
        board = nnue_data.board_of(positions.board[index], int(positions.stm[index]))
        assert len(board.pieces(chess.KING, chess.WHITE)) == 1
        assert len(board.pieces(chess.KING, chess.BLACK)) == 1
        assert not board.is_check()
    # a game's result is told from each side to move: White's and Black's positions disagree
    white = positions.result[positions.stm == 0]
    black = positions.result[positions.stm == 1]
    assert white.size and black.size


def test_the_inputs_are_the_formats() -> None:
    boards = [
        chess.Board(),
        chess.Board("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7"),
        chess.Board("8/8/4k3/8/2K5/8/6p1/8 w - - 0 1"),
    ]
    packed = np.stack([nnue_data.pack(board) for board in boards])
    white, black = nnue_data.features_of(packed)
    for row, board in enumerate(boards):
        assert sorted(int(i) for i in white[row] if i < nnue.FEATURES) == nnue.features(board, 0)
        assert sorted(int(i) for i in black[row] if i < nnue.FEATURES) == nnue.features(board, 1)
        assert nnue_data.board_of(packed[row], 0).board_fen() == board.board_fen()


def test_a_damaged_shard_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "task-000000.npz"
    path.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(nnue_data.ShardError, match="not a shard of positions"):
        nnue_data.decode_shard(path, str(path))
    np.savez(tmp_path / "other.npz", board=np.zeros((1, 64), np.uint8))
    with pytest.raises(nnue_data.ShardError, match="no 'stm"):
        nnue_data.decode_shard(tmp_path / "other.npz")


def test_data_training_export_and_load(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    seen: list[tuple[str, int, int]] = []
    outcome = chess_nnue.run(TINY, run_dir, executor(), lambda *a: seen.append(a))
    assert outcome.network is not None and not outcome.stopped
    assert outcome.positions == TINY.positions and outcome.epoch == 1
    assert seen[-1][0] == "training" and seen[-1][1] == seen[-1][2]
    assert ("positions", TINY.positions, TINY.positions) in seen
    out = tmp_path / "net"  # no .npz suffix: the file is still where it was asked for
    chess_nnue.save_network(outcome.network, out)
    loaded = nnue.load(out)
    assert loaded.hidden == TINY.hidden
    assert loaded.meta["positions"] == TINY.positions
    assert np.array_equal(loaded.ft_weights, outcome.network.ft_weights)
    # the quantised network agrees with the float model on the held-out positions
    positions = chess_nnue.load_positions(run_dir, TINY.positions)
    model, again = chess_nnue.train(TINY, run_dir, positions)
    assert again.epoch == 1 and again.history == outcome.history  # nothing trained twice
    _, held = chess_nnue.split(len(positions))
    assert len(held) == TINY.positions // chess_nnue.HOLD_OUT
    floats = chess_nnue.centipawns(model, positions)
    for index in held:
        board = nnue_data.board_of(positions.board[index], int(positions.stm[index]))
        assert abs(nnue.evaluate(loaded, board) - floats[index]) <= 4, index


def test_a_resumed_run_replays_no_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = tmp_path / "run"
    chess_nnue.run(TINY, run_dir, executor())
    shards = sorted((run_dir / "data").glob("task-*.npz"))
    stamps = {path.name: path.stat().st_mtime_ns for path in shards}
    played: list[int] = []
    real = nnue_data.play_task

    def counted(seed: int, number: int, *rest: object) -> bytes:
        played.append(number)
        return real(seed, number, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(nnue_data, "play_task", counted)
    chess_nnue.run(TINY, run_dir, executor())
    assert played == []
    more = Settings(**{**TINY.__dict__, "positions": 2 * TINY.positions})
    chess_nnue.run(more, run_dir, executor())
    assert played and min(played) == len(shards)
    assert {p.name: p.stat().st_mtime_ns for p in shards} == stamps


def test_a_run_stopped_mid_epoch_ends_with_the_weights_of_one_never_stopped(
    tmp_path: Path,
) -> None:
    settings = Settings(**{**TINY.__dict__, "epochs": 2})
    straight = chess_nnue.run(settings, tmp_path / "straight", executor())
    # the same data in another run directory: the shards are the same bytes
    stopped_dir = tmp_path / "stopped"
    (stopped_dir / "data").mkdir(parents=True)
    for path in (tmp_path / "straight" / "data").glob("*.npz"):
        (stopped_dir / "data" / path.name).write_bytes(path.read_bytes())
    (stopped_dir / "run.json").write_bytes((tmp_path / "straight" / "run.json").read_bytes())
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] == 4  # three batches into the first epoch

    first = chess_nnue.run(settings, stopped_dir, executor(), stop=stop)
    assert first.stopped and first.network is None
    held = torch.load(stopped_dir / chess_nnue.CHECKPOINT, weights_only=True)
    assert (held["epoch"], held["batch"]) == (0, 3)
    second = chess_nnue.run(settings, stopped_dir, executor())
    assert second.network is not None and straight.network is not None
    assert second.epoch == 2
    for name in ("ft_weights", "ft_bias", "out_weights"):
        assert np.array_equal(getattr(second.network, name), getattr(straight.network, name))
    assert second.network.out_bias == straight.network.out_bias


def test_a_run_of_other_settings_or_a_damaged_checkpoint_is_one_line(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    chess_nnue.run(TINY, run_dir, executor())
    other = Settings(**{**TINY.__dict__, "label_depth": 2})
    with pytest.raises(NnueRunError, match=r"other settings \(label_depth 1, not 2\)"):
        chess_nnue.run(other, run_dir, executor())
    wider = Settings(**{**TINY.__dict__, "hidden": 16})
    with pytest.raises(NnueRunError, match="8 hidden units, not 16"):
        chess_nnue.run(wider, run_dir, executor())
    (run_dir / chess_nnue.CHECKPOINT).write_bytes(b"garbage")
    with pytest.raises(NnueRunError, match="not a checkpoint of a chess network"):
        chess_nnue.run(TINY, run_dir, executor())
    stray = tmp_path / "stray"
    stray.mkdir()
    (stray / "notes.txt").write_text("mine")
    with pytest.raises(NnueRunError, match="not empty and holds no chess network run"):
        chess_nnue.run(TINY, stray, executor())


def test_clipped_weights_cannot_overflow_the_quantised_network() -> None:
    model = chess_nnue.NnueModel(4)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.fill_(50.0)
    model.clip()
    network = chess_nnue.export(model)
    widest = 33 * int(np.abs(network.ft_weights.astype(np.int64)).max())
    assert widest <= 32767
    assert int(np.abs(network.out_weights.astype(np.int64)).max()) <= 127


def _uci_script(tmp_path: Path) -> str:
    script = tmp_path / "zermelo-uci"
    source = os.environ.get("PYTHONPATH", "")
    src = str(Path(chess_nnue.__file__).resolve().parents[2])
    script.write_text(
        f'#!/bin/sh\nPYTHONPATH="{src}:{source}" exec "{sys.executable}" -m zermelo uci\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def test_another_uci_engine_labels_the_positions(tmp_path: Path) -> None:
    engine = _uci_script(tmp_path)
    assert nnue_data.check_label_engine(engine).startswith("zermelo")
    try:
        # zermelo's own UCI engine, at zermelo's own playing depth: the same games are played
        other = nnue_data.decode_shard(
            nnue_data.play_task(2, 0, 1, nnue_data.PLAY_DEPTH, engine, max_plies=30)
        )
    finally:
        nnue_data.close_labellers()
    own = nnue_data.decode_shard(
        nnue_data.play_task(2, 0, 1, nnue_data.PLAY_DEPTH, None, max_plies=30)
    )
    assert len(other) > 5
    assert np.array_equal(other.board, own.board)
    # labelled by the other engine: the first search (both tables empty) gives the same value,
    # the later ones their own table's (not the players'), of the same sign
    assert other.score[0] == own.score[0]
    assert not np.array_equal(other.score, own.score)
    assert np.array_equal(np.sign(other.score), np.sign(own.score))


def test_a_path_that_is_no_uci_engine_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(nnue_data.ShardError, match="not an executable file"):
        nnue_data.check_label_engine(str(tmp_path / "missing"))
    fake = tmp_path / "fake"
    fake.write_text("#!/bin/sh\necho hello\n")
    fake.chmod(0o755)
    with pytest.raises(nnue_data.ShardError, match="as a UCI engine"):
        nnue_data.check_label_engine(str(fake))


def _alive(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.1)
    return True


def test_a_labelling_engine_that_dies_is_one_line(tmp_path: Path) -> None:
    dying = tmp_path / "dying"
    pid_file = tmp_path / "pid"
    dying.write_text(
        "#!/bin/sh\n"
        f'echo $$ > "{pid_file}"\n'
        "while read line; do\n"
        '  case "$line" in\n'
        '    uci) echo "id name dying"; echo "uciok";;\n'
        '    isready) echo "readyok";;\n'
        "    go*) exit 0;;\n"
        "  esac\n"
        "done\n"
    )
    dying.chmod(0o755)
    started = time.monotonic()
    assert nnue_data.check_label_engine(str(dying)) == "dying"
    # deaf to quit: its process is ended after a few seconds, not left behind
    assert time.monotonic() - started < nnue_data.QUIT_SECONDS + 30
    assert not _alive(int(pid_file.read_text()))
    try:
        with pytest.raises(nnue_data.ShardError, match="the labelling engine stopped answering"):
            nnue_data.play_task(0, 0, 1, 2, str(dying))
    finally:
        nnue_data.close_labellers()


def test_a_checkpoint_cut_short_leaves_the_last_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = tmp_path / "run"
    chess_nnue.run(TINY, run_dir, executor())
    before = (run_dir / chess_nnue.CHECKPOINT).read_bytes()
    real = torch.save

    def torn(state: object, path: Path) -> None:
        real(state, path)
        Path(path).write_bytes(Path(path).read_bytes()[:100])
        raise KeyboardInterrupt  # killed while writing

    monkeypatch.setattr(torch, "save", torn)
    more = Settings(**{**TINY.__dict__, "epochs": 2})
    with pytest.raises(KeyboardInterrupt):
        chess_nnue.run(more, run_dir, executor())
    assert (run_dir / chess_nnue.CHECKPOINT).read_bytes() == before
    monkeypatch.setattr(torch, "save", real)
    again = chess_nnue.run(more, run_dir, executor())
    assert again.epoch == 2 and len(again.history) == 2
