"""Games from other packages: the worked example ``examples/zermelo-nim``, installed with pip, plays
through the command line, the arena, replay and the web API; a plugin that fails is left out with
one warning line and hides no other game.

The example is installed with ``pip install --no-deps --target`` into a temporary directory that
the tests put on the import path (``PYTHONPATH`` for the command line), so the test environment is
never changed and the entry point is found exactly as in a real installation.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from conftest import NIM_SOURCES_WRITTEN, REPO, forget_games, run_cli
from zermelo.core.errors import UnknownGameError


def nim_cli(path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_cli(*args, stdin=stdin, env={"PYTHONPATH": f"{path}{os.pathsep}{REPO / 'src'}"})


# -- the command line ------------------------------------------------------------------------------


def test_installing_the_example_writes_nothing_into_its_sources(nim_path: Path) -> None:
    # Each test process installs the example (the nim_path fixture); built in place, two of them
    # at once broke each other's build/ now and then. It is built from a copy of its own.
    assert (nim_path / "zermelo_nim-0.1.0.dist-info" / "entry_points.txt").is_file()
    assert NIM_SOURCES_WRITTEN == []


def test_the_game_is_listed_and_played_in_the_terminal(nim_path: Path) -> None:
    # From 1, 3, 5, 7 the nim-sum is 0: the side to move loses against perfect play (Bouton), so the
    # person moving first loses to the hard level whatever they try. They try 1 stone from each heap
    # in turn; the lines the rules refuse are answered and the next one is read.
    tries = "".join(f"{heap}-1\n" for heap in (1, 2, 3, 4) * 8)
    run = nim_cli(nim_path, "play", "nim", "--first", "human", "--once", "--seed", "3", stdin=tries)
    assert run.returncode == 0, run.stderr
    assert "Welcome to Nim!" in run.stdout
    assert "Moves: HEAP-COUNT, such as 2-3 to take three stones from heap 2." in run.stdout
    assert "AI wins!" in run.stdout
    assert run.stderr == ""


def test_a_bad_move_gets_one_line_quoting_the_notation(nim_path: Path) -> None:
    run = nim_cli(nim_path, "play", "nim", "--first", "human", "--once", stdin="two\n9-9\n?\n")
    assert "'two' is not a move: expected HEAP-COUNT, such as 2-3" in run.stdout
    assert "'9-9' is not legal here; legal moves: 1-1, 2-1, 2-2, 2-3, 3-1" in run.stdout
    assert "Legal moves: 1-1, 2-1, 2-2, 2-3, 3-1, 3-2" in run.stdout
    assert "Traceback" not in run.stderr


def test_analyze_finds_the_move_to_a_zero_nim_sum(nim_path: Path) -> None:
    run = nim_cli(nim_path, "analyze", "nim", "1.3.5 x")
    assert run.returncode == 0, run.stderr
    # 1 ^ 3 ^ 5 = 7: only taking 3 from the heap of 5 leaves a nim-sum of 0.
    assert "Best move: 3-3" in run.stdout
    lost = nim_cli(nim_path, "analyze", "nim", "1.3.5.7 x")
    assert "Value: loss in" in lost.stdout


def test_the_arena_and_replay(nim_path: Path, tmp_path: Path) -> None:
    saved = tmp_path / "nim.jsonl"
    run = nim_cli(
        nim_path, "arena", "nim", "hard", "random", "-n", "4", "-j", "1", "--save", str(saved)
    )
    assert run.returncode == 0, run.stderr
    from zermelo.play import load_records

    records = load_records(saved)
    assert len(records) == 4
    for record in records:
        # The start's nim-sum is 0: whoever moves second wins with perfect play.
        if record.players[1] == "hard":
            assert record.winner is not None and record.players[record.winner] == "hard"
    replayed = nim_cli(nim_path, "replay", str(saved), "--game", "2")
    assert replayed.returncode == 0, replayed.stderr
    assert "Final position: 0.0.0.0" in replayed.stdout


def test_the_rule_options_come_from_the_record(nim_path: Path) -> None:
    run = nim_cli(nim_path, "arena", "nim", "random", "random", "-n", "2", "--start", "1.2 x")
    assert run.returncode == 0, run.stderr


# -- the web API ------------------------------------------------------------------------------------


@pytest.fixture
def nim_client(with_nim: Path) -> Iterator[TestClient]:
    from zermelo.ui.web import create_app

    with TestClient(
        create_app(), base_url="http://127.0.0.1", raise_server_exceptions=True
    ) as client:
        yield client


def test_the_web_lists_nim_as_a_generic_grid(nim_client: TestClient) -> None:
    games = {game["name"]: game for game in nim_client.get("/api/games").json()["games"]}
    assert list(games)[:5] == ["tictactoe", "connect4", "gomoku", "mnk", "checkers"]
    nim = games["nim"]
    assert nim["kind"] == "grid"
    assert nim["options"]["heaps"] == {
        "type": "integer",
        "min": 1,
        "max": 6,
        "default": 4,
        "help": "number of heaps, of 1, 3, 5, ... stones",
    }
    board = nim["initial"]["board"]
    assert board["cells"][0] == ["●", "", "", "", "", "", ""]
    assert board["points"][3] == ["4-7", "4-6", "4-5", "4-4", "4-3", "4-2", "4-1"]
    assert board["points"][0][1] is None
    assert board["extra"] == []


def test_the_web_ai_answers_with_the_winning_move(nim_client: TestClient) -> None:
    answer = nim_client.post(
        "/api/play", json={"game": "nim", "moves": [], "move": "4-7", "level": "hard"}
    ).json()
    assert [played["move"] for played in answer["played"]] == ["4-7", "3-3"]
    assert answer["position"] == "1.3.2.0 x"
    values = nim_client.post("/api/analyze", json={"game": "nim", "position": "1.2 x"}).json()
    assert values["best"] == "2-1"
    assert values["value"]["kind"] == "win"


def test_the_web_checks_the_options_against_the_record(nim_client: TestClient) -> None:
    bad = nim_client.post("/api/state", json={"game": "nim", "options": {"heaps": 9}})
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == "option heaps=9: expected a number from 1 to 6"
    two = nim_client.post("/api/state", json={"game": "nim", "options": {"heaps": 2}}).json()
    assert two["position"] == "1.3 x"


# -- the Python API -----------------------------------------------------------------------------------


def test_the_python_api_sees_the_plugin(with_nim: Path) -> None:
    from zermelo.agents import make_agent
    from zermelo.games import get_game
    from zermelo.play import run_game

    spec = get_game("nim")
    record = run_game(
        spec.new(heaps=3),
        [make_agent("nim", "hard"), make_agent("nim", "hard")],
        game="nim",
    )
    # 1 ^ 3 ^ 5 = 7: the first player wins with perfect play.
    assert record.result == "1-0"


# -- plugins that fail -------------------------------------------------------------------------------


def _fake_distribution(root: Path, name: str, entry: str) -> None:
    info = root / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[zermelo.games]\n{entry}\n")


@pytest.fixture
def broken(tmp_path: Path, with_nim: Path) -> Iterator[Path]:
    _fake_distribution(tmp_path, "zermelo-broken", "broken = zermelo_no_such_module:SPEC")
    _fake_distribution(tmp_path, "zermelo-thief", "tictactoe = zermelo_nim:SPEC")
    sys.path.insert(0, str(tmp_path))
    forget_games()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        forget_games()


def test_a_broken_plugin_is_left_out_with_one_line(broken: Path) -> None:
    from zermelo.games import all_games, get_game, registry

    logged: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = logged.append  # type: ignore[method-assign]
    registry._log.addHandler(handler)
    try:
        names = [spec.name for spec in all_games()]
    finally:
        registry._log.removeHandler(handler)
    assert names == [
        "tictactoe", "connect4", "gomoku", "mnk", "checkers", "international", "dama", "chess",
        "othello", "pig", "backgammon", "kuhn", "leduc", "nim",
    ]  # fmt: skip
    assert get_game("tictactoe").title == "Tic-tac-toe"
    lines = [record.getMessage() for record in logged]
    assert lines == registry.plugin_errors()
    assert sorted(lines) == [
        "zermelo: the game plugin 'broken' of package 'zermelo-broken' is left out: "
        "zermelo_no_such_module:SPEC failed to import (ModuleNotFoundError: No module named "
        "'zermelo_no_such_module')",
        "zermelo: the game plugin 'tictactoe' of package 'zermelo-thief' is left out: the name "
        "'tictactoe' is taken by another game",
    ]
    with pytest.raises(UnknownGameError, match="game 'broken' is not available"):
        get_game("broken")


def test_the_command_line_says_one_line_for_a_broken_plugin(broken: Path, nim_path: Path) -> None:
    run = run_cli(
        "play",
        "broken",
        env={"PYTHONPATH": f"{broken}{os.pathsep}{nim_path}{os.pathsep}{REPO / 'src'}"},
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    # One line per plugin left out (the command line lists every game's rule options), then the
    # error line of the command.
    thief, broken_line, error = run.stderr.strip().splitlines()
    assert thief.startswith("zermelo: the game plugin 'tictactoe' of package 'zermelo-thief'")
    assert broken_line.startswith("zermelo: the game plugin 'broken' of package 'zermelo-broken'")
    assert error == (
        "zermelo: error: game 'broken' is not available: zermelo_no_such_module:SPEC failed to "
        "import (ModuleNotFoundError: No module named 'zermelo_no_such_module')"
    )


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet="0123456789.- xoX\t", max_size=24))
def test_nim_notation_reads_back_or_gives_one_parse_error(with_nim: Path, text: str) -> None:
    from zermelo.core.errors import ZermeloError
    from zermelo.games import get_game

    spec = get_game("nim")
    try:
        state = spec.parse(text)
    except ZermeloError as error:
        assert "\n" not in str(error) and repr(text) in str(error)
        return
    assert spec.parse(state.notation()) == state
    for move in state.legal_moves():
        assert state.parse_move(state.format_move(move)) == move
