"""``zermelo tune`` keeps weights only when they won their check match (or ``--force``), says
so in one line, names the game and every weight in the file, and every face that reads a weights
file refuses a wrong or damaged one in one short line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import run_cli

from zermelo.cli.tune import _verdict
from zermelo.core.capabilities import TuneReport
from zermelo.core.errors import ParseError
from zermelo.games.mnk_eval import FEATURE_NAMES
from zermelo.solvers.chess.tools import TERMS, read_weights, weights_json
from zermelo.solvers.gomoku.weights import load_evaluation


def _report(match: tuple[int, int, int] | None) -> TuneReport:
    return TuneReport("Tuning by self-play", (), "{}", match)


@pytest.mark.parametrize(
    ("match", "force", "line"),
    [
        ((2, 12, 6), False, "Not kept (lost the check match: 2-12-6); use --force to keep them."),
        (
            (1, 1, 0),
            False,
            "Not kept (did not win the check match: 1-1-0); use --force to keep them.",
        ),
        ((3, 1, 0), False, "Kept (won the check match: 3-1-0): saved to w.json"),
        (
            (2, 12, 6),
            True,
            "Kept because of --force, though they did not win the check match (2-12-6): "
            "saved to w.json",
        ),
        (None, False, "Kept (no check match was played): saved to w.json"),
    ],
)
def test_the_verdict_says_kept_or_not_kept_and_why(
    match: tuple[int, int, int] | None, force: bool, line: str
) -> None:
    assert _verdict(_report(match), force, "w.json") == line


def test_gomoku_weights_that_did_not_win_are_not_saved_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    args = ("tune", "gomoku", "--games", "2", "--match", "2", "--seed", "0", "--out", str(out))
    refused = run_cli(*args)
    assert refused.returncode == 0, refused.stderr
    assert "Not kept (did not win the check match: 1-1-0); use --force to keep them." in (
        refused.stdout
    )
    assert not out.exists()
    kept = run_cli(*args, "--force")
    assert kept.returncode == 0, kept.stderr
    data = json.loads(out.read_text())
    assert data["game"] == "gomoku"
    assert sorted(data["weights"]) == sorted(FEATURE_NAMES)
    # Each weight is named in the report, too.
    assert all(name in kept.stdout for name in FEATURE_NAMES)
    assert load_evaluation(out).weights == data["weights"]


def test_chess_weights_name_the_game_and_every_term(tmp_path: Path) -> None:
    weights = [float(n) for n in range(len(TERMS))]
    data = json.loads(weights_json(weights))
    assert data["game"] == "chess"
    assert list(data["weights"]) == [name for name, _ in TERMS]
    path = tmp_path / "chess.json"
    path.write_text(weights_json(weights))
    assert read_weights(str(path)) == tuple(weights)


_DAMAGED = {
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe",
    "cut": b'{"game": "gomoku", "weights": {"own_two"',
    "not an object": b"42",
    "huge": b"[" + b"1," * 600_000 + b"1]",
}


@pytest.mark.parametrize("kind", sorted(_DAMAGED))
@pytest.mark.parametrize("game", ["gomoku", "chess"])
def test_a_damaged_weights_file_is_one_short_line(tmp_path: Path, kind: str, game: str) -> None:
    path = tmp_path / "w.json"
    path.write_bytes(_DAMAGED[kind])
    done = run_cli("explain", game, "--weights", str(path))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"zermelo: error: {str(path)!r} is not a weights file: expected the JSON that "
        "'zermelo tune' writes"
    ] or (kind == "not an object" and "expected a number for each of" in lines[0])
    assert len(lines) == 1 and len(lines[0]) < 400 and "PNG" not in lines[0]


@pytest.mark.parametrize(("game", "other"), [("gomoku", "chess"), ("chess", "gomoku")])
def test_a_weights_file_of_another_game_is_refused(tmp_path: Path, game: str, other: str) -> None:
    path = tmp_path / "w.json"
    if other == "chess":
        path.write_text(weights_json([1.0] * len(TERMS)))
    else:
        path.write_text(json.dumps({"game": "gomoku", "weights": dict.fromkeys(FEATURE_NAMES, 1)}))
    done = run_cli("explain", game, "--weights", str(path))
    assert done.returncode == 2
    assert done.stderr == (
        f"zermelo: error: weights file {str(path)!r} holds weights for {other!r}, not {game}\n"
    )


def test_the_library_refuses_the_wrong_game_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text(weights_json([1.0] * len(TERMS)))
    with pytest.raises(ParseError, match="holds weights for 'chess', not gomoku"):
        load_evaluation(path)
