"""``zermelo arena`` and ``zermelo replay`` end to end, in process."""

from __future__ import annotations

from pathlib import Path

import pytest

from zermelo.cli import main
from zermelo.play.match import load_records, replay


def test_arena_prints_tables_and_saves_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    main(
        [
            "arena", "tictactoe", "--agents", "random", "hard", "mcts:iterations=50",
            "--games", "4", "--seed", "3", "--jobs", "1", "--save", str(path),
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert "Standings: tictactoe" in out
    assert "Elo [95% interval]" in out
    assert "12 games, seed 3, 1 jobs" in out
    records = load_records(path)
    assert len(records) == 12
    hard_losses = sum(r.points("hard") == 0 for r in records if "hard" in r.players)
    assert hard_losses == 0
    for record in records:
        replay(record)
    # The same seed gives the same games.
    again = tmp_path / "again.jsonl"
    main(["arena", "ttt", "random", "hard", "mcts:iterations=50", "-n", "4", "--seed", "3",
          "-j", "1", "--save", str(again)])  # fmt: skip
    assert [r.moves for r in load_records(again)] == [r.moves for r in records]


def test_replay_prints_every_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    main(["arena", "tictactoe", "-a", "random", "-a", "random", "-n", "2", "-j", "1",
          "--save", str(path)])  # fmt: skip
    capsys.readouterr()
    main(["replay", str(path), "--game", "2"])
    out = capsys.readouterr().out
    record = load_records(path)[1]
    assert "Game 2 of 2" in out
    for ply, move in enumerate(record.moves, 1):
        assert f"{ply:>3}. " in out
        assert f": {move}" in out
    assert f"Result: {record.result}" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["arena", "tictactoe", "--agents", "random", "mcts:iters=5"], "unknown option 'iters'"),
        (["arena", "tictactoe", "--agents", "random"], "at least two agents"),
        (["arena", "shogi", "--agents", "random", "hard"], "unknown game 'shogi'"),
    ],
)
def test_mistakes_are_one_line(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code != 0
    err = capsys.readouterr().err
    assert expected in err
    assert len(err.strip().splitlines()) == 1


def test_replay_of_a_missing_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    main(["arena", "ttt", "-a", "random", "-a", "random", "-n", "1", "-j", "1",
          "--save", str(path)])  # fmt: skip
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--game", "5"])
    assert "there is no game 5" in capsys.readouterr().err
