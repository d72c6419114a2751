"""The match loop's events, game records in JSON lines, and replay."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from zermelo.agents import EngineAgent, MctsAgent, RandomAgent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.state import Player
from zermelo.games.tictactoe import TicTacToeState
from zermelo.play.match import (
    GameOver,
    GameRecord,
    MovePlayed,
    load_records,
    play_game,
    replay,
    run_game,
    save_records,
)


def test_events_are_the_moves_then_the_end() -> None:
    agents = (RandomAgent(1, name="one"), RandomAgent(2, name="two"))
    events = list(play_game(TicTacToeState.initial(), agents, game="tictactoe", seed=9))
    *moves, end = events
    assert all(isinstance(e, MovePlayed) for e in moves)
    assert isinstance(end, GameOver)
    record = end.record
    assert record.moves == tuple(e.notation for e in moves if isinstance(e, MovePlayed))
    assert [e.ply for e in moves if isinstance(e, MovePlayed)] == list(range(1, len(moves) + 1))
    assert record.players == ("one", "two")
    assert record.seed == 9
    assert len(record.times) == len(record.moves)
    assert end.state.is_terminal()
    assert replay(record)[-1] == end.state


def test_the_perfect_player_never_loses_to_mcts_nor_mcts_to_random() -> None:
    for game in range(6):
        mcts = MctsAgent(iterations=1000, seed=game, name="mcts")
        random_agent = RandomAgent(100 + game)
        pair: tuple[Any, Any] = (mcts, random_agent) if game % 2 == 0 else (random_agent, mcts)
        record = run_game(TicTacToeState.initial(), pair, game="tictactoe")
        assert record.points("mcts") > 0, record
        hard = EngineAgent(seed=game, name="hard")
        pair = (hard, mcts) if game % 2 == 0 else (mcts, hard)
        record = run_game(TicTacToeState.initial(), pair, game="tictactoe")
        assert record.points("hard") >= 0.5, record


def test_record_round_trips_through_json_and_files(tmp_path: Path) -> None:
    records = [
        run_game(
            TicTacToeState.initial(Player.SECOND if i else Player.FIRST),
            (RandomAgent(i, name="a"), RandomAgent(i + 7, name="b")),
            game="tictactoe",
            seed=i,
            index=i,
        )
        for i in range(3)
    ]
    for record in records:
        assert GameRecord.from_json(record.to_json()) == dataclasses.replace(
            record, times=tuple(round(t, 4) for t in record.times)
        )
    path = tmp_path / "games.jsonl"
    assert save_records(path, records) == 3
    assert len(path.read_text().splitlines()) == 3
    loaded = load_records(path)
    assert [r.moves for r in loaded] == [r.moves for r in records]
    for record in loaded:
        states = replay(record)
        assert len(states) == len(record.moves) + 1
        assert states[0].notation() == record.start


def test_record_with_an_illegal_move_is_refused() -> None:
    record = GameRecord("tictactoe", ".........", ("4", "4"), "1-0", ("a", "b"))
    with pytest.raises(IllegalMoveError, match=r"move 2 '4'"):
        replay(record)


def test_record_whose_result_lies_is_refused() -> None:
    win = GameRecord("tictactoe", ".........", ("0", "3", "1", "4", "2"), "0-1", ("a", "b"))
    with pytest.raises(InvalidPositionError, match="1-0"):
        replay(win)
    unfinished = dataclasses.replace(win, moves=win.moves[:4])
    with pytest.raises(InvalidPositionError, match="do not finish"):
        replay(unfinished)
    assert len(replay(dataclasses.replace(win, result="1-0"))) == 6


@pytest.mark.parametrize(
    "text",
    ["not json", "[1, 2]", '{"game": "tictactoe"}', '{"game":"tictactoe","start":"","moves":[],'
     '"result":"2-0","players":["a","b"]}'],
)  # fmt: skip
def test_bad_record_lines_are_parse_errors_quoting_them(text: str) -> None:
    with pytest.raises(ParseError, match="invalid game record"):
        GameRecord.from_json(text)


class _Cheat:
    name = "cheat"

    def choose(self, state: Any) -> Any:
        return 4


def test_an_agent_playing_an_illegal_move_is_named() -> None:
    with pytest.raises(IllegalMoveError, match="cheat"):
        run_game(TicTacToeState.initial(), (_Cheat(), _Cheat()), game="tictactoe")
