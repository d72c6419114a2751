"""``zermelo tune chess --nnue``: its options reach the run, bad ones are one line (fuzzed), other
games and the Texel options are refused in one line, Ctrl-C keeps everything and says how to go
on, a missing PyTorch says what to install, and the network is kept or refused as tune keeps
weights. One real tiny run goes from self-play to a network file."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zermelo.cli import main, tune_nnue
from zermelo.solvers.chess import nnue, nnue_data

pytest.importorskip("torch")  # the learn extra

from zermelo.learn import chess_nnue


def run(*args: str) -> tuple[int, str, str]:
    """``zermelo ARGS`` in this process, in English: exit status, stdout, stderr."""
    runner = CliRunner()
    with runner.isolation(env={"LC_ALL": "C", "LANG": None, "LC_MESSAGES": None}) as streams:
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        out, err = (stream.getvalue().decode("utf-8", "replace") for stream in streams[:2])
    return code, out, err


def _network(hidden: int = 4) -> nnue.Network:
    rng = np.random.default_rng(0)
    return nnue.quantise(
        rng.normal(0, 0.1, (768, hidden)),
        rng.normal(0, 0.1, hidden),
        rng.normal(0, 0.1, 2 * hidden),
        0.0,
    )


class Fake:
    """Stands for the run and the match: records the settings, answers at once."""

    def __init__(self) -> None:
        self.settings: list[chess_nnue.Settings] = []
        self.match: tuple[int, int, int, bool] = (3, 1, 0, False)
        self.stop_at: str | None = None

    def run(
        self,
        settings: chess_nnue.Settings,
        run_dir: Path,
        executor: object,
        progress: chess_nnue.Progress | None = None,
        stop: chess_nnue.Stop | None = None,
    ) -> chess_nnue.Outcome:
        self.settings.append(settings)
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "run.json").write_text("{}")
        if progress is not None:
            progress("positions", settings.positions, settings.positions)
        if self.stop_at == "time":
            assert stop is not None and not stop()
            time.sleep(1.2)
            assert stop()
            return chess_nnue.Outcome(positions=10, stopped=True)
        if self.stop_at == "run":
            os.kill(os.getpid(), signal.SIGINT)
            assert stop is not None and stop()
            return chess_nnue.Outcome(positions=10, stopped=True)
        return chess_nnue.Outcome(
            positions=settings.positions,
            tasks=2,
            epoch=settings.epochs,
            train_loss=0.05,
            held_out_loss=0.06,
            held_out=5,
            network=_network(),
        )

    def check_match(self, *args: object, **kwargs: object) -> tuple[int, int, int, bool]:
        return self.match


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Fake]:
    stand_in = Fake()
    monkeypatch.setattr(chess_nnue, "run", stand_in.run)
    monkeypatch.setattr(chess_nnue, "check_match", stand_in.check_match)
    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    yield stand_in


def test_every_option_reaches_the_run(fake: Fake, tmp_path: Path) -> None:
    code, out, err = run(
        "tune", "chess", "--nnue", "--positions", "1000", "--label-depth", "3", "--hidden",
        "16", "--epochs", "2", "--seed", "7", "--run-dir", str(tmp_path / "r"), "--out",
        str(tmp_path / "n.npz"), "--jobs", "1", "--match", "4",
    )  # fmt: skip
    assert code == 0, err
    (given,) = fake.settings
    assert (given.positions, given.label_depth, given.hidden, given.epochs, given.seed) == (
        1000, 3, 16, 2, 7,
    )  # fmt: skip
    assert given.label_engine is None
    assert "network vs built-in evaluation" in out and "3-0-1 (won-lost-drawn)" in out
    assert "Kept (won the check match: 3-0-1): saved to" in " ".join(out.split())
    assert nnue.load(tmp_path / "n.npz").hidden == 4
    assert nnue.load(tmp_path / "r" / tune_nnue.NETWORK).hidden == 4


def test_a_network_that_lost_is_not_kept_unless_forced(fake: Fake, tmp_path: Path) -> None:
    fake.match = (0, 1, 3, False)
    args = ("tune", "chess", "--nnue", "--run-dir", str(tmp_path / "r"), "--out", "n.npz")
    code, out, _ = run(*args)
    assert code == 0
    assert "Not kept (lost the check match: 0-3-1); use --force to keep them." in out
    assert not (tmp_path / "n.npz").exists()
    assert (tmp_path / "r" / tune_nnue.NETWORK).exists()  # the run keeps it
    code, out, _ = run(*args, "--force")
    assert code == 0 and (tmp_path / "n.npz").exists()
    assert "Kept because of --force" in out


def test_without_a_match_the_network_is_kept(fake: Fake, tmp_path: Path) -> None:
    code, out, _ = run("tune", "chess", "--nnue", "--match", "0")
    assert code == 0
    assert "Kept (no check match was played): saved to chess_nnue.npz" in out
    assert nnue.load(tmp_path / "chess_nnue.npz").hidden == 4
    # the default run directory is in the cache
    assert (tmp_path / "cache" / "learn" / "chess-nnue" / tune_nnue.NETWORK).exists()


def test_ctrl_c_keeps_everything_and_says_how_to_go_on(fake: Fake, tmp_path: Path) -> None:
    fake.stop_at = "run"
    code, out, _ = run("tune", "chess", "--nnue", "--run-dir", str(tmp_path / "r"), "--seed", "4")
    assert code == 130
    line = " ".join(out.split())
    assert f"Stopped. Kept in {tmp_path / 'r'}:" in line
    assert "To go on: zermelo tune chess --nnue --positions 100000 --label-depth 8" in line
    assert "--seed 4" in line


def test_a_time_budget_stops_the_run_and_says_how_to_go_on(fake: Fake, tmp_path: Path) -> None:
    fake.stop_at = "time"
    code, out, _ = run(
        "tune", "chess", "--nnue", "--run-dir", str(tmp_path / "r"), "--seconds", "1"
    )
    assert code == 0
    line = " ".join(out.split())
    assert f"Time is up. Kept in {tmp_path / 'r'}:" in line and "To go on: zermelo tune" in line
    code, _, err = run("tune", "chess", "--nnue", "--seconds", "5", "--hours", "1")
    assert code == 2
    assert "give one time budget: --seconds S, --minutes M or --hours H" in err


def test_without_torch_it_says_what_to_install(fake: Fake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tune_nnue, "_has_torch", lambda: False)
    code, _, err = run("tune", "chess", "--nnue")
    assert code == 2
    assert err.strip().endswith("training needs PyTorch: pip install 'zermelo[learn]'")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("tune", "ttt", "--nnue"), "--nnue trains the chess engine's evaluation; tictactoe has"),
        (("tune", "chess", "--hidden", "8"), "--hidden is for --nnue"),
        (("tune", "chess", "--run-dir", "x"), "--run-dir is for --nnue"),
        (("tune", "chess", "--minutes", "3"), "--minutes is for --nnue"),
        (("tune", "chess", "--nnue", "--games", "4"), "--games is not for --nnue"),
        (("tune", "chess", "--nnue", "--resume", "f"), "--resume is not for --nnue"),
        (("tune", "chess", "--nnue", "--label-engine", "/nonexistent"), "not an executable"),
        (("tune", "chess", "--nnue", "--hidden", "0"), "0 is not in the range 1<=x<=1024"),
        (("tune", "chess", "--nnue", "--positions", "5"), "5 is not in the range"),
    ],
)
def test_bad_requests_are_one_line(fake: Fake, args: tuple[str, ...], line: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert line in " ".join(err.split())
    assert not fake.settings


def test_a_file_as_the_run_dir_is_one_line(tmp_path: Path) -> None:
    # the real run, refused before any work
    (tmp_path / "file").write_text("x")
    code, _, err = run("tune", "chess", "--nnue", "--run-dir", str(tmp_path / "file"))
    assert code == 2
    assert "is not a directory" in err and len(err.strip().splitlines()) == 1


WORDS = [
    "tune",
    "chess",
    "ttt",
    "--nnue",
    "--positions",
    "--label-depth",
    "--label-engine",
    "--hidden",
    "--epochs",
    "--run-dir",
    "--fresh",
    "--jobs",
    "--out",
    "--match",
    "--force",
    "--seed",
    "--games",
    "--pgn",
    "--cluster",
    "--resume",
    "--seconds",
    "--minutes",
    "--hours",
    "0",
    "-1",
    "2",
    "100",
    "5000",
    "1e400",
    "nan",
    "9" * 40,
    "x",
    "local:0",
    "/dev/null",
    "/dev/null/x",
    "\u00e9",
]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(words=st.lists(st.sampled_from(WORDS), max_size=8))
def test_no_options_make_a_traceback(fake: Fake, words: list[str]) -> None:
    code, out, err = run("tune", "chess", "--nnue", *words)
    assert "Traceback" not in err + out, (words, err)
    assert code in (0, 2, 130), (words, code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (words, err)


def test_a_tiny_real_run_from_self_play_to_a_network(tmp_path: Path) -> None:
    args = (
        "tune", "chess", "--nnue", "--positions", "100", "--label-depth", "1", "--hidden", "4",
        "--epochs", "1", "--jobs", "1", "--match", "0", "--run-dir", str(tmp_path / "r"),
        "--out", str(tmp_path / "net.npz"),
    )  # fmt: skip
    code, out, err = run(*args)
    assert code == 0, err
    assert "positions / tasks" in out and "100 / " in out
    network = nnue.load(tmp_path / "net.npz")
    assert network.hidden == 4 and network.meta["positions"] == 100
    shards = sorted(p.name for p in (tmp_path / "r" / "data").iterdir())
    # again: nothing replayed, nothing retrained, the same network
    code, out, err = run(*args)
    assert code == 0, err
    stored = sum(len(nnue_data.decode_shard(path)) for path in (tmp_path / "r" / "data").iterdir())
    assert stored >= 100
    assert (
        f"Going on with the run in {tmp_path / 'r'}: {stored} positions, epochs trained: 1."
        in " ".join(out.split())
    )
    assert sorted(p.name for p in (tmp_path / "r" / "data").iterdir()) == shards
    again = nnue.load(tmp_path / "net.npz")
    assert np.array_equal(again.ft_weights, network.ft_weights)
