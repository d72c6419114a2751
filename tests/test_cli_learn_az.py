"""``zermelo learn GAME``: the time budget, the progress bar, resuming, Ctrl-C, the checkpoint
table and the plot, all in this process, with a fake training loop (no torch, no training)."""

from __future__ import annotations

import json
import math
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zermelo.cli import learn_az, main
from zermelo.cli.common import game_commands
from zermelo.core.errors import CapabilityError
from zermelo.games.registry import all_games, get_game

ROWS: list[dict[str, object]] = [
    {
        "generation": 1,
        "elapsed": 60.0,
        "games": 20,
        "positions": 160,
        "loss": 2.5,
        "policy_loss": 2.0,
        "value_loss": 0.5,
        "gate_score": 0.6,
        "alone": 0.5,
        "searched": 0.75,
        "value_error": 0.8,
        "accepted": True,
        "arena": {
            "medium": {"games": 10, "score": 0.3, "elo": -120.0, "low": -200.0, "high": -40.0}
        },
    },
    {
        "generation": 2,
        "elapsed": 150.0,
        "games": 45,
        "positions": 360,
        "loss": 1.25,
        "policy_loss": 1.0,
        "value_loss": 0.25,
        "gate_score": 0.45,
        "alone": 0.625,
        "searched": 0.875,
        "value_error": 0.5,
        "accepted": False,
        "arena": {
            "medium": {"games": 10, "score": 0.55, "elo": 30.0, "low": -10.0, "high": 70.0},
            # a score of 0%: the loop writes no Elo, as it is infinite
            "hard": {"games": 10, "score": 0.0, "elo": None, "low": None, "high": None},
        },
    },
]
"""Two lines of metrics.jsonl as the loop writes them."""

DEFAULTS = {"sims": 50, "seed": 0, "measure_sims": 50}
"""The fake loop's default settings (the identity a run keeps)."""


def identity(settings: dict[str, object]) -> dict[str, object]:
    return {"game": settings["game"], **{k: settings.get(k, v) for k, v in DEFAULTS.items()}}


@dataclass
class FakeLoop:
    """The training loop as the command sees it: records the calls, writes a run like the real
    one (run.json and metrics.jsonl), reports progress, and can be told what to do."""

    checkpoints: list[dict[str, object]] = field(default_factory=lambda: list(ROWS))
    behaviour: Callable[[FakeLoop, Callable[[], bool]], None] | None = None
    configs: list[dict[str, object]] = field(default_factory=list)
    stops: list[bool] = field(default_factory=list)
    reports: list[Callable[[object], None]] = field(default_factory=list)

    def config(self, **settings: object) -> object:
        self.configs.append(settings)
        return SimpleNamespace(**settings, identity=lambda: identity(settings))

    def learn(
        self,
        config: object,
        run_dir: Path,
        report: Callable[[object], None],
        stop: Callable[[], bool],
    ) -> object:
        assert isinstance(config, SimpleNamespace)
        self.reports.append(report)
        run_dir.mkdir(parents=True, exist_ok=True)
        write_meta(run_dir, config.identity(), 0, 0)
        seconds = float(config.seconds)
        for phase in ("self-play", "training", "gating", "measuring"):
            report(
                SimpleNamespace(
                    generation=1,
                    games=20,
                    games_per_second=4.0,
                    loss=2.5,
                    accuracy=0.5,
                    elapsed=seconds / 2,
                    seconds=seconds,
                    phase=phase,
                )
            )
        if self.behaviour is not None:
            self.behaviour(self, stop)
        with (run_dir / "metrics.jsonl").open("a") as metrics:
            for row in self.checkpoints:
                metrics.write(json.dumps(row) + "\n")
        last = self.checkpoints[-1]
        write_meta(
            run_dir, config.identity(), int(str(last["generation"])), int(str(last["games"]))
        )
        return None

    def read_metrics(self, run_dir: Path) -> Sequence[object]:
        lines = (run_dir / "metrics.jsonl").read_text().splitlines()
        return [SimpleNamespace(**json.loads(line)) for line in lines if line.strip()]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeLoop]:
    loop = FakeLoop()
    monkeypatch.setattr(learn_az, "_loop", lambda: loop)
    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(tmp_path / "cache"))
    yield loop


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


def write_meta(run_dir: Path, settings: dict[str, object], generation: int, games: int) -> None:
    """A run.json as the loop writes it."""
    meta = {"zermelo": "learn", "identity": settings, "generation": generation}
    (run_dir / "run.json").write_text(json.dumps({**meta, "elapsed": 1.0, "games": games}))


def write_run(
    run_dir: Path, game: str, rows: Sequence[dict[str, object]] = ROWS, **settings: object
) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    last = rows[-1] if rows else {"generation": 0, "games": 0}
    generation, games = int(str(last["generation"])), int(str(last["games"]))
    write_meta(run_dir, identity({"game": game, **settings}), generation, games)
    (run_dir / "metrics.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_training_passes_the_budget_and_prints_the_checkpoints(
    fake: FakeLoop, tmp_path: Path
) -> None:
    code, out, err = run("learn", "ttt", "--minutes", "2", "--run-dir", str(tmp_path / "run"))
    assert code == 0, err
    # Only what was given goes to the loop: its defaults per game stay its own.
    assert fake.configs == [{"game": "tictactoe", "seconds": 120.0}]
    assert "Checkpoints: tictactoe" in out
    assert "with 50 sims %" in out
    lines = [line for line in out.splitlines() if "│" in line]
    cells = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines]
    assert ["1", "1.0", "20", "2.500", "50.0", "75.0", "0.800", "yes", "-120 [-200, -40]", "—"] in (
        cells
    )
    assert cells[-1] == [
        "2", "2.5", "45", "1.250", "62.5", "87.5", "0.500", "no", "+30 [-10, +70]",
        "-∞",
    ]  # fmt: skip


def test_the_bar_says_where_the_run_is() -> None:
    view = SimpleNamespace(
        generation=3,
        games=1204,
        games_per_second=12.54,
        loss=1.2345,
        accuracy=0.8125,
        elapsed=100.0,
        seconds=292.0,
        phase="training",
    )
    assert learn_az._status(view) == (
        "generation 3 · 1,204 games · 12.5 games/s · loss 1.234 · optimal 81.2% · 0:03:12 left"
    )
    # Before the first measurement there is no loss and no accuracy to show.
    view.loss = view.accuracy = None
    assert learn_az._status(view) == "generation 3 · 1,204 games · 12.5 games/s · 0:03:12 left"
    # The loop finishes the generation it is in when the time is up.
    view.elapsed = 300.0
    assert learn_az._status(view) == (
        "generation 3 · 1,204 games · 12.5 games/s · time is up: finishing the generation"
    )
    assert learn_az._phase("gating") == "gating"


def test_every_setting_given_reaches_the_loop(fake: FakeLoop, tmp_path: Path) -> None:
    code, _, err = run(
        "learn",
        "connect4",
        "--hours",
        "0.5",
        "--sims",
        "64",
        "--learning-rate",
        "5e-4",
        "--cluster",
        "local:2",
        "--jobs",
        "3",
        "--seed",
        "7",
        "--run-dir",
        str(tmp_path / "run"),
    )
    assert code == 0, err
    assert fake.configs == [
        {
            "game": "connect4",
            "seconds": 1800.0,
            "sims": 64,
            "learning_rate": 5e-4,
            "cluster": "local:2",
            "jobs": 3,
            "seed": 7,
        }
    ]


def test_the_default_run_dir_is_in_the_cache(fake: FakeLoop, tmp_path: Path) -> None:
    code, _, err = run("learn", "c4", "--seconds", "5")
    assert code == 0, err
    assert (tmp_path / "cache" / "learn" / "connect4" / "metrics.jsonl").is_file()


def test_a_run_of_the_same_game_goes_on_and_says_where(fake: FakeLoop, tmp_path: Path) -> None:
    write_run(tmp_path / "run", "tictactoe")
    code, out, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(tmp_path / "run"))
    assert code == 0, err
    assert out.splitlines()[0] == (
        f"Going on with the run in {tmp_path / 'run'}: generation 2, 45 games so far."
    )


def test_a_run_of_another_game_is_refused_in_one_line(fake: FakeLoop, tmp_path: Path) -> None:
    write_run(tmp_path / "run", "connect4")
    code, out, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(tmp_path / "run"))
    assert (code, out) == (2, "")
    assert err == (
        f"zermelo: error: {tmp_path / 'run'} holds a run of connect4, not of tictactoe; give "
        "another --run-dir, or --fresh to start over there\n"
    )
    assert fake.configs == []


def test_fresh_deletes_a_run_and_starts_over(fake: FakeLoop, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    write_run(run_dir, "connect4")
    (run_dir / "checkpoints").mkdir()
    (run_dir / "checkpoints" / "gen-0001.npz").write_bytes(b"x")
    fake.checkpoints = [ROWS[0]]
    code, out, err = run(
        "learn", "tictactoe", "--seconds", "5", "--fresh", "--run-dir", str(run_dir)
    )
    assert code == 0, err
    assert "Going on" not in out
    assert not (run_dir / "checkpoints").exists()
    assert json.loads((run_dir / "run.json").read_text())["identity"]["game"] == "tictactoe"
    assert len((run_dir / "metrics.jsonl").read_text().splitlines()) == 1


@pytest.mark.parametrize(
    "files",
    [{"notes.txt": "mine"}, {"metrics.jsonl": "{}"}, {"run.json": "[1, 2]"}],
    ids=["a stranger", "no config", "not a run's config"],
)
def test_fresh_deletes_nothing_that_is_not_a_run(
    fake: FakeLoop, tmp_path: Path, files: dict[str, str]
) -> None:
    run_dir = tmp_path / "mine"
    run_dir.mkdir()
    for name, text in files.items():
        (run_dir / name).write_text(text)
    code, out, err = run(
        "learn", "tictactoe", "--seconds", "5", "--fresh", "--run-dir", str(run_dir)
    )
    assert (code, out) == (2, "") and len(err.splitlines()) == 1, err
    assert "another --run-dir" in err
    assert {p.name: p.read_text() for p in run_dir.iterdir()} == files
    assert fake.configs == []


def test_a_file_as_the_run_dir_is_one_line(fake: FakeLoop, tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x")
    code, _, err = run("learn", "tictactoe", "--seconds", "5", "--fresh", "--run-dir", str(path))
    assert code == 2
    assert err.startswith("zermelo")
    assert len(err.splitlines()) == 1
    assert path.read_text() == "x"


@pytest.fixture
def ctrl_c_delivered() -> Iterator[None]:
    """Ctrl-C as a terminal delivers it, whatever this process inherited: a test run started in
    the background (``nohup ... &``) ignores SIGINT, and the command keeps an inherited ignore."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _ctrl_c(times: int) -> Callable[[FakeLoop, Callable[[], bool]], None]:
    def behaviour(loop: FakeLoop, stop: Callable[[], bool]) -> None:
        loop.stops.append(stop())
        for _ in range(times):
            signal.raise_signal(signal.SIGINT)
        loop.stops.append(stop())

    return behaviour


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_asks_the_loop_to_stop_and_says_how_to_go_on(fake: FakeLoop, tmp_path: Path) -> None:
    fake.behaviour = _ctrl_c(1)
    run_dir = tmp_path / "run"
    code, out, err = run(
        "learn", "tictactoe", "--minutes", "5", "--fresh", "--run-dir", str(run_dir)
    )
    assert code == 130, err
    # The loop saw the request through stop() and ended by itself.
    assert fake.stops == [False, True]
    assert "Checkpoints: tictactoe" in out
    last = " ".join(out.split("Stopped.")[1].split())
    # The same command goes on: without --fresh, which would start over.
    assert last == (
        f"Kept in {run_dir}: generation 2, 45 games. To go on: zermelo learn tictactoe "
        f"--minutes 5 --run-dir {run_dir}"
    )
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_a_second_ctrl_c_stops_at_once_and_still_says_what_was_kept(
    fake: FakeLoop, tmp_path: Path
) -> None:
    fake.behaviour = _ctrl_c(2)
    run_dir = tmp_path / "run"
    write_run(run_dir, "tictactoe", ROWS[:1])
    code, out, err = run("learn", "tictactoe", "--minutes", "5", "--run-dir", str(run_dir))
    assert code == 130, err
    assert fake.stops == [False]  # the KeyboardInterrupt left the loop
    assert "Traceback" not in err
    assert "Kept in" in out and "generation 1, 20 games" in " ".join(out.split())


def test_plot_alone_draws_an_existing_run_without_torch(
    fake: FakeLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    write_run(tmp_path / "run", "tictactoe")
    png, svg = tmp_path / "curve.png", tmp_path / "curve.svg"
    for path in (png, svg):
        code, out, err = run(
            "learn", "tictactoe", "--plot", str(path), "--run-dir", str(tmp_path / "run")
        )
        assert (code, err) == (0, "")
        assert out == f"Plot written to {path}\n"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    # matplotlib keeps each text of the figure as a comment beside its outline.
    labels = set(re.findall(r"<!-- (.*?) -->", text))
    assert {"tictactoe: learning by self-play", "move alone", "with 50 simulations"} <= labels
    assert {"value error", "Elo vs medium", "training time (minutes)"} <= labels
    # The one match against hard scored 0%: no finite Elo, so no point to draw.
    assert "Elo vs hard" not in labels
    assert fake.configs == []  # nothing trained


def test_plot_after_training(fake: FakeLoop, tmp_path: Path) -> None:
    path = tmp_path / "after.svg"
    code, out, err = run("learn", "tictactoe", "--seconds", "5", "--plot", str(path))
    assert code == 0, err
    assert f"Plot written to {path}" in out
    assert "<svg" in path.read_text()
    # The fake's checkpoints have matches against medium: the panel has its curve, no note.
    assert "no arena match against medium or hard yet" not in path.read_text()


def test_the_elo_panel_says_when_there_is_no_match_yet(tmp_path: Path) -> None:
    path = tmp_path / "early.svg"
    early = [{**row, "arena": {}} for row in ROWS]
    learn_az.draw_plot("tictactoe", learn_az.rows([SimpleNamespace(**r) for r in early]), path)
    assert "<!-- no arena match against medium or hard yet -->" in path.read_text()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--plot", "curve.pdf"],
            "zermelo: error: curve.pdf: expected a file name ending in .png or .svg\n",
        ),
        (
            [],
            "zermelo: error: give a time budget (--seconds S, --minutes M or --hours H) to "
            "train, or --plot FILE to draw a run\n",
        ),
        (
            ["--seconds", "5", "--minutes", "1"],
            "zermelo: error: give one time budget: --seconds S, --minutes M or --hours H\n",
        ),
        (
            ["--plot", "x.png", "--sims", "3"],
            "zermelo: error: no time budget, so nothing to train: leave out --sims\n",
        ),
        (
            ["--plot", "x.png", "--seed", "3", "--fresh"],
            "zermelo: error: no time budget, so nothing to train: leave out --seed, --fresh\n",
        ),
        (
            ["--minutes", "1", "--learning-rate", "nan"],
            "zermelo learn: error: Invalid value for '--learning-rate': nan is not a learning "
            "rate: expected a number from 1e-07 to 1 (see 'zermelo learn --help')\n",
        ),
        (
            ["--minutes", "nan"],
            "zermelo learn: error: Invalid value for '--minutes': nan is not a time: expected "
            "a finite number (see 'zermelo learn --help')\n",
        ),
        (
            ["--seconds", "5", "--cluster", "nowhere"],
            "zermelo: error: --cluster 'nowhere': expected 'local', 'local:N' or a scheduler "
            "address such as 'tcp://10.0.0.5:8786'\n",
        ),
    ],
)
def test_bad_options_are_one_line(
    fake: FakeLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    line: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("learn", "tictactoe", *args)
    assert (code, out, err) == (2, "", line)
    assert fake.configs == []


def test_plot_of_no_run_says_how_to_make_one(fake: FakeLoop, tmp_path: Path) -> None:
    code, _, err = run("learn", "connect4", "--plot", str(tmp_path / "x.png"))
    assert code == 2
    assert err == (
        f"zermelo: error: no checkpoints of connect4 in {tmp_path / 'cache' / 'learn' / 'connect4'}"
        " yet: train first, such as zermelo learn connect4 --minutes 5\n"
    )


def test_without_matplotlib_the_plot_says_what_to_install(
    fake: FakeLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    write_run(tmp_path / "run", "tictactoe")
    code, _, err = run("learn", "ttt", "--plot", "x.png", "--run-dir", str(tmp_path / "run"))
    assert (code, err) == (
        2,
        "zermelo: error: --plot needs matplotlib: pip install 'zermelo[learn]'\n",
    )


def test_without_torch_training_says_what_to_install(
    fake: FakeLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    code, _, err = run("learn", "tictactoe", "--minutes", "5")
    assert (code, err) == (
        2,
        "zermelo: error: training needs PyTorch: pip install 'zermelo[learn]'\n",
    )
    assert fake.configs == []


def test_a_game_that_cannot_learn_names_those_that_can(fake: FakeLoop) -> None:
    for game in ("chess", "checkers", "pig", "kuhn"):
        code, _, err = run("learn", game, "--minutes", "5")
        assert (code, err) == (
            2,
            f"zermelo: error: {get_game(game).name} cannot learn by self-play (a net needs "
            "board planes, no dice or hidden cards, and moves of one step); the games that can: "
            "tictactoe, connect4, gomoku, mnk, othello\n",
        )
    assert fake.configs == []


def test_the_loops_refusal_is_mapped_to_the_same_line(fake: FakeLoop) -> None:
    def refuse(loop: FakeLoop, stop: Callable[[], bool]) -> None:
        raise CapabilityError("gomoku has no truth to measure against")

    fake.behaviour = refuse
    code, _, err = run("learn", "gomoku", "--seconds", "5")
    assert (code, err) == (
        2,
        "zermelo: error: gomoku cannot learn by self-play (a net needs board planes, no dice or "
        "hidden cards, and moves of one step); the games that can: tictactoe, connect4, gomoku, "
        "mnk, othello\n",
    )


def test_the_help_names_the_games_that_learn() -> None:
    code, out, _ = run("learn", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "GAME is one of: tictactoe (ttt, tic-tac-toe), connect4 (c4, connect-four)" in text
    assert "chess" not in text.partition("GAME is one of:")[2]
    learners = [spec.name for spec in all_games() if "learn" in game_commands(spec)]
    assert learners == ["tictactoe", "connect4", "gomoku", "mnk", "othello"]


WORDS = [
    "tictactoe",
    "connect4",
    "chess",
    "nope",
    "",
    "--seconds",
    "--minutes",
    "--hours",
    "--sims",
    "--learning-rate",
    "--cluster",
    "--jobs",
    "--seed",
    "--run-dir",
    "--fresh",
    "--plot",
    "--lang",
    "0",
    "-1",
    "5",
    "1e400",
    "inf",
    "nan",
    "9" * 40,
    "x",
    "local",
    "local:0",
    "local:2",
    "tcp://h:1",
    "a.png",
    "a.svg",
    "a.pdf",
    "/dev/null/x.png",
    "\u00e9",
    "nl",
]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(words=st.lists(st.sampled_from(WORDS), max_size=8))
def test_no_options_make_a_traceback(
    fake: FakeLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("learn", *words)
    assert "Traceback" not in err + out, (words, err)
    assert code in (0, 1, 2, 130), (words, code, err)
    if code in (1, 2):  # one line, after the warning about an unknown --lang if there is one
        lines = [line for line in err.splitlines() if not line.startswith("warning: unknown")]
        assert len(lines) == 1, (words, err)


def test_going_on_keeps_the_runs_own_settings(fake: FakeLoop, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    write_run(run_dir, "tictactoe", sims=64, seed=7)
    code, _, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(run_dir))
    assert code == 0, err
    assert fake.configs == [{"game": "tictactoe", "seconds": 5.0, "sims": 64, "seed": 7}]


def test_a_run_of_other_settings_is_refused_in_one_line(fake: FakeLoop, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    write_run(run_dir, "tictactoe", sims=64)
    before = {p.name: p.read_bytes() for p in run_dir.iterdir()}
    code, out, err = run(
        "learn", "tictactoe", "--seconds", "5", "--sims", "32", "--run-dir", str(run_dir)
    )
    assert (code, out) == (2, "")
    assert err == (
        f"zermelo: error: {run_dir} holds a run of tictactoe with other settings (sims 64, not "
        "32); give another --run-dir, or --fresh to start over there\n"
    )
    assert {p.name: p.read_bytes() for p in run_dir.iterdir()} == before


def test_a_damaged_run_json_is_one_line(fake: FakeLoop, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "run.json").write_bytes(b"\xff{")
    code, _, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(run_dir))
    assert (code, err) == (
        2,
        f"zermelo: error: {run_dir / 'run.json'} is not a zermelo learning run; give another "
        "--run-dir\n",
    )


def test_the_plot_reads_the_metrics_without_the_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def no_torch() -> learn_az.LoopAPI:
        raise ImportError("No module named 'torch'")

    monkeypatch.setattr(learn_az, "_loop", no_torch)
    run_dir = tmp_path / "run"
    write_run(run_dir, "tictactoe")
    with (run_dir / "metrics.jsonl").open("a") as metrics:
        metrics.write('{"generation": 3, "elapsed": 2')  # cut short by a kill
    assert [row.generation for row in learn_az._read_rows(run_dir)] == [1, 2]
    path = tmp_path / "curve.svg"
    code, out, err = run("learn", "tictactoe", "--plot", str(path), "--run-dir", str(run_dir))
    assert (code, out, err) == (0, f"Plot written to {path}\n", "")
    assert "<svg" in path.read_text()


def test_the_rows_of_the_loops_checkpoints() -> None:
    rows = learn_az.rows([SimpleNamespace(**row) for row in ROWS])
    assert rows[0] == learn_az.Row(
        generation=1,
        minutes=1.0,
        games=20,
        loss=2.5,
        alone=0.5,
        sims=0.75,
        value_error=0.8,
        accepted=True,
        elo_medium=learn_az.Elo(-120.0, -200.0, -40.0),
        elo_hard=None,
    )
    assert rows[1].elo_hard == learn_az.Elo(-math.inf, -math.inf, -math.inf)


def test_a_plain_kill_is_a_request_too(fake: FakeLoop, tmp_path: Path) -> None:
    def term(loop: FakeLoop, stop: Callable[[], bool]) -> None:
        signal.raise_signal(signal.SIGTERM)
        loop.stops.append(stop())

    fake.behaviour = term
    code, out, _ = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(tmp_path / "r"))
    assert (code, fake.stops) == (130, [True])
    assert "To go on: zermelo learn tictactoe --seconds 5 --run-dir" in " ".join(out.split())
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_an_ignored_ctrl_c_stays_ignored(
    fake: FakeLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(signal, "getsignal", lambda number: signal.SIG_IGN)
    installed: list[int] = []
    monkeypatch.setattr(signal, "signal", lambda number, handler: installed.append(number))
    code, _, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(tmp_path / "r"))
    assert (code, installed) == (0, []), err


def test_the_real_loop_takes_the_commands_settings() -> None:
    pytest.importorskip("torch")  # the learn extra
    config = learn_az._loop().config(game="tictactoe", seconds=5.0, sims=8, seed=3)
    assert (config.game, config.seconds, config.sims, config.seed) == ("tictactoe", 5.0, 8, 3)  # type: ignore[attr-defined]
    identity = config.identity()  # type: ignore[attr-defined]
    assert identity["sims"] == 8 and "seconds" not in identity


def test_a_damaged_metrics_file_still_draws_its_whole_lines(tmp_path: Path) -> None:
    pytest.importorskip("torch")  # the loop's own reader, which trips on these lines
    run_dir = tmp_path / "run"
    write_run(run_dir, "tictactoe")
    with (run_dir / "metrics.jsonl").open("ab") as metrics:
        metrics.write(b"[1]\n\xff\xfe\n")
    path = tmp_path / "curve.png"
    code, out, err = run("learn", "tictactoe", "--plot", str(path), "--run-dir", str(run_dir))
    assert (code, out, err) == (0, f"Plot written to {path}\n", "")
    assert [row.generation for row in learn_az._read_rows(run_dir)] == [1, 2]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    meta=st.one_of(
        st.binary(max_size=40),
        st.sampled_from([b"{}", b'{"identity": []}', b'{"identity": {"game": 3}}', b"[" * 5000]),
        st.just(b'{"zermelo": "learn", "identity": {"game": "tictactoe"}, "generation": "x"}'),
    ),
    lines=st.lists(
        st.one_of(
            st.binary(max_size=30),
            st.sampled_from([b"[1]", b"{}", b'{"generation": 1e999}', b"{" * 3000]),
            st.just(json.dumps(ROWS[1]).encode()),
            st.just(json.dumps({**ROWS[0], "arena": {"medium": [1]}, "alone": "x"}).encode()),
        ),
        max_size=4,
    ),
)
def test_no_damaged_run_makes_a_traceback(tmp_path: Path, meta: bytes, lines: list[bytes]) -> None:
    """Drawing a run whose files were damaged (by hand, a bad disk, another program): the lines
    that can be read are drawn, or one line says what is wrong; never a traceback."""
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    (run_dir / "run.json").write_bytes(meta)
    (run_dir / "metrics.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    code, out, err = run(
        "learn", "tictactoe", "--plot", str(tmp_path / "p.svg"), "--run-dir", str(run_dir)
    )
    assert "Traceback" not in out + err
    assert code in (0, 2), (code, err)
    assert len(err.splitlines()) == (code == 2), err


def test_without_a_terminal_each_generation_is_one_line_of_the_log(
    fake: FakeLoop, tmp_path: Path
) -> None:
    def two_generations(loop: FakeLoop, stop: Callable[[], bool]) -> None:
        for generation in (1, 2, 2, 3):
            loop.reports[0](
                SimpleNamespace(
                    generation=generation,
                    games=20 * generation,
                    games_per_second=4.0,
                    loss=1.0,
                    accuracy=None,
                    elapsed=1.0,
                    seconds=5.0,
                    phase="self-play",
                )
            )

    fake.behaviour = two_generations
    code, _, err = run("learn", "tictactoe", "--seconds", "5", "--run-dir", str(tmp_path / "r"))
    assert code == 0
    assert err.splitlines() == [
        "generation 2 · 40 games · 4.0 games/s · loss 1.000",
        "generation 3 · 60 games · 4.0 games/s · loss 1.000",
    ]


def test_a_budget_of_generations_alone_or_with_time(fake: FakeLoop, tmp_path: Path) -> None:
    code, _, err = run("learn", "tictactoe", "--generations", "3", "--run-dir", str(tmp_path / "a"))
    assert code == 0, err
    assert fake.configs[-1] == {
        "game": "tictactoe",
        "seconds": learn_az.MOST_SECONDS,
        "generations": 3,
    }
    code, _, err = run(
        "learn",
        "tictactoe",
        "--minutes",
        "2",
        "--generations",
        "5",
        "--run-dir",
        str(tmp_path / "b"),
    )
    assert code == 0, err
    assert fake.configs[-1] == {"game": "tictactoe", "seconds": 120.0, "generations": 5}
    code, _, err = run("learn", "tictactoe", "--generations", "0")
    assert code == 2 and "Traceback" not in err
