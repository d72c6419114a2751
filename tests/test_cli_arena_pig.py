"""``zermelo arena`` on Pig: the dice come from the seed, so a tournament replays exactly."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from zermelo.play.match import load_records, replay


def test_an_arena_of_pig_levels_is_seeded_and_its_games_replay(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    args = ("arena", "pig", "easy", "hard", "-n", "4", "-j", "1", "--start", "0 0 0 X goal=20")
    done = run_cli(*args, "--save", str(saved))
    assert done.returncode == 0, done.stderr
    assert "Standings: pig" in done.stdout
    records = load_records(saved)
    assert len(records) == 4
    for record in records:
        states = replay(record)
        assert states[-1].is_terminal()
        assert any(move in "123456" for move in record.moves)  # the dice are in the record
    again = tmp_path / "again.jsonl"
    assert run_cli(*args, "--save", str(again)).returncode == 0
    assert [r.moves for r in load_records(again)] == [r.moves for r in records]
