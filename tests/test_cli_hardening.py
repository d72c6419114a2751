"""The CLI findings of the hardening issue, one test each: one clear line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import english_env, run_cli
from zermelo.core.errors import ParseError
from zermelo.play.match import GameRecord

UTF8 = {"LC_ALL": "C.UTF-8"}
RECORD = {
    "game": "tictactoe",
    "options": {},
    "start": ".........",
    "moves": ["4", "0", "2", "6", "3", "5", "1", "7", "8"],
    "result": "1/2-1/2",
    "players": ["a", "b"],
    "seed": 1,
    "times": [],
    "index": 0,
}


def _one_error_line(stderr: str, *words: str) -> None:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    for word in words:
        assert word in lines[0], stderr


def _run_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess[str]:
    """The CLI in a UTF-8 locale, fed raw bytes."""
    completed = subprocess.run(
        [sys.executable, "-m", "zermelo", *args],
        input=stdin,
        capture_output=True,
        env=english_env(UTF8),
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def test_solve_refuses_bytes_that_are_not_utf8() -> None:
    completed = _run_bytes("solve", "connect4", stdin=b"44\n\xff\n")
    assert completed.returncode == 2
    _one_error_line(completed.stderr, "line 2", "0xff", "UTF-8")


def test_play_takes_a_line_that_is_not_utf8_as_a_bad_move() -> None:
    completed = _run_bytes("play", "--first", "human", "--once", "--seed", "1", stdin=b"\xff\n")
    assert "Traceback" not in completed.stderr
    assert "Please enter a number between 0 and 8!" in completed.stdout
    assert completed.returncode == 1  # then the input ended


def test_replay_refuses_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\xff\n")
    completed = run_cli("replay", str(path))
    assert completed.returncode == 2
    _one_error_line(completed.stderr, "line 1", "UTF-8")


@pytest.mark.parametrize("command", [["replay"], ["explain", "gomoku", "--weights"]])
def test_deeply_nested_json_is_refused(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    completed = run_cli(*command, str(path))
    assert completed.returncode == 2
    _one_error_line(completed.stderr, "nested")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("seed", "1e400", "out of range"),
        ("index", "1e400", "out of range"),
        ("seed", "9" * 400, "digits"),
        ("bogus", "1", "unknown field 'bogus'"),
        ("index", "-1", "'index'"),
        ("players", '["a"]', "two agents"),
        ("moves", "[1, 2]", "strings"),
        ("times", '["x"]', "'times'"),
    ],
)
def test_bad_fields_of_a_saved_game_are_named(
    tmp_path: Path, field: str, value: str, words: str
) -> None:
    line = json.dumps(RECORD)[:-1] + f', "{field}": {value}}}'
    path = tmp_path / "games.jsonl"
    path.write_text(line + "\n")
    completed = run_cli("replay", str(path))
    assert completed.returncode == 2
    _one_error_line(completed.stderr, words)
    with pytest.raises(ParseError, match=words.replace("(", r"\(")):
        GameRecord.from_json(line)


@pytest.mark.parametrize(
    ("options", "words"),
    [({"width": "7"}, "'7'"), ({"first": 7}, "starts"), ({"height": 0}, "not supported")],
)
def test_saved_options_that_do_not_fit_the_game_are_named(
    tmp_path: Path, options: dict[str, object], words: str
) -> None:
    record = {**RECORD, "game": "connect4", "start": "", "moves": [], "options": options}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    completed = run_cli("replay", str(path))
    assert completed.returncode == 2
    _one_error_line(completed.stderr, words)


@pytest.mark.parametrize("seconds", ["inf", "1e400", "nan", "-1", "3601"])
@pytest.mark.parametrize("command", [["play", "gomoku"], ["analyze", "gomoku"]])
def test_thinking_time_must_be_finite_and_at_most_an_hour(command: list[str], seconds: str) -> None:
    completed = run_cli(*command, "--time", seconds, stdin="")
    assert completed.returncode == 2
    _one_error_line(completed.stderr, "--time")


def test_analyze_gomoku_without_a_budget_searches_its_default_time() -> None:
    completed = run_cli("analyze", "gomoku", timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert "No --depth or --time given: searching for 1 s." in completed.stdout
    assert "Best move:" in completed.stdout
