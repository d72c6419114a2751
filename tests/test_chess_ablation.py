"""benchmarks/chess_ablation.py: its games end by the rules it states, and its matches replay."""

from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from rich.console import Console

from zermelo.games.chess_openings import OPENINGS
from zermelo.solvers.chess import SWITCHES
from zermelo.solvers.chess import kernel as chess_kernel
from zermelo.solvers.chess.evaluation import DEFAULT_WEIGHTS, TERMS

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "chess_ablation.py"


@pytest.fixture(scope="module")
def ablation() -> ModuleType:
    spec = importlib.util.spec_from_file_location("zermelo_bench_chess_ablation", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_each_ablation_takes_out_one_part(ablation: ModuleType) -> None:
    names = {a.name for a in ablation.ABLATIONS}
    assert set(SWITCHES) <= names
    for item in ablation.ABLATIONS:
        if item.name in SWITCHES:
            assert item.switches == chess_kernel.SW_ALL & ~SWITCHES[item.name]
            assert item.weights == tuple(DEFAULT_WEIGHTS)
        else:
            assert item.switches == chess_kernel.SW_ALL
    only = ablation.BY_NAME["material-psqt"].weights
    assert only[0] == DEFAULT_WEIGHTS[0] and not any(only[1:])
    king = ablation.BY_NAME["king-safety"].weights
    assert [TERMS[i] for i, w in enumerate(king) if w == 0] == ["king shelter", "king attack"]


def test_every_ablation_meets_the_same_openings_with_both_colours(ablation: ModuleType) -> None:
    chosen = [ablation.BY_NAME["killers"], ablation.BY_NAME["mobility"]]
    specs = ablation.schedule(chosen, 5, seed=7)
    assert len(specs) == 20
    killers = [(s.moves, s.full_white, s.seed) for s in specs if s.ablation == "killers"]
    mobility = [(s.moves, s.full_white, s.seed) for s in specs if s.ablation == "mobility"]
    assert killers == mobility
    assert len({moves for moves, _, _ in killers}) == 5
    assert sorted(white for _, white, _ in killers) == [False] * 5 + [True] * 5
    assert len({seed for _, _, seed in killers}) == 10
    assert specs == ablation.schedule(chosen, 5, seed=7)
    assert specs != ablation.schedule(chosen, 5, seed=8)
    assert {s.opening for s in ablation.schedule(chosen, 60, seed=7)} == {n for n, _ in OPENINGS}


def _game(ablation: ModuleType, moves: str, full_white: bool, max_plies: int = 300) -> object:
    players = ablation._Players(1)
    full, ablated = players.against("killers")
    spec = ablation.GameSpec("killers", "test", moves, full_white, 5)
    return ablation.play_game(full, ablated, spec, 300, 0.1, max_plies)


def test_a_mate_ends_the_game(ablation: ModuleType) -> None:
    result = _game(ablation, "f3 e5 g4", full_white=False)
    assert (result.points, result.reason, result.plies) == (1.0, "checkmate", 4)


def test_the_move_cap_draws(ablation: ModuleType) -> None:
    result = _game(ablation, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6", full_white=True, max_plies=10)
    assert (result.points, result.reason, result.plies) == (0.5, "move cap", 10)


def test_ten_pawns_for_three_moves_resign(
    ablation: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A queen up, the engine now mates before its score reaches ten pawns three moves running,
    # so the rule is checked at five pawns: the rule is what is tested, not the threshold.
    monkeypatch.setattr(ablation, "RESIGN_CP", 500)
    result = _game(ablation, "e4 d5 exd5 Qxd5 Nc3 Qxg2 Bxg2", full_white=True)
    assert (result.points, result.reason) == (1.0, "resignation")
    result = _game(ablation, "e4 d5 exd5 Qxd5 Nc3 Qxg2 Bxg2", full_white=False)
    assert (result.points, result.reason) == (0.0, "resignation")


def test_a_match_is_tallied_printed_and_replayed(ablation: ModuleType, tmp_path: Path) -> None:
    chosen = [ablation.BY_NAME["null-move"], ablation.BY_NAME["bishop-pair"]]
    progress = tmp_path / "progress.txt"
    output = io.StringIO()
    console = Console(file=output, width=200)
    seen: list[object] = []
    scores = ablation.run(
        console,
        chosen,
        games=1,
        nodes=400,
        seed=11,
        max_plies=60,
        hash_mb=1,
        progress=progress,
        on_game=seen.append,
    )
    assert set(scores) == {"null-move", "bishop-pair"}
    assert all(tally.games == 2 for tally in scores.values())
    assert sum(game.points for game in seen if game.spec.ablation == "null-move") == (
        scores["null-move"].points
    )
    lines = progress.read_text().splitlines()
    assert len(lines) == 4 and all("full engine" in line for line in lines)
    text = output.getvalue()
    for column in ("ablation", "games", "score", "Elo [95%]"):
        assert column in text
    assert "no null-move pruning" in text and "no bishop pair" in text
    again = ablation.run(
        Console(file=io.StringIO()), chosen, games=1, nodes=400, seed=11, max_plies=60, hash_mb=1
    )
    assert again == scores


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--only", "nothing"], "unknown ablation nothing"),
        (["--only", ","], "unknown ablation"),
        (["--nodes", "0"], "--nodes must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--jitter", "1"], "--jitter must be from 0 to below 1"),
        (["--nodes", "many"], "invalid int value"),
    ],
)
def test_bad_options_get_one_line(
    ablation: ModuleType, arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        ablation.main(arguments)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_worker_processes_play_the_same_games(tmp_path: Path) -> None:
    tables = []
    for jobs in ("1", "2"):
        completed = subprocess.run(
            [
                sys.executable,
                str(SCRIPT),
                "--only",
                "history,king-safety",
                "--games",
                "2",
                "--nodes",
                "500",
                "--max-plies",
                "80",
                "--seed",
                "3",
                "--jobs",
                jobs,
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
            check=True,
        )
        tables.append(completed.stdout.splitlines()[2:-1])
    assert tables[0] == tables[1]
    assert any("no history heuristic" in line for line in tables[0])
