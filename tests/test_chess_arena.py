"""Chess in the arena: the levels, external UCI engines (zermelo's own), openings and adjudication."""

from __future__ import annotations

import json
import sys

import chess
import pytest

from conftest import run_cli
from zermelo.agents.spec import parse_agent
from zermelo.core.errors import ParseError
from zermelo.games.chess_openings import OPENINGS
from zermelo.play import load_records, replay, round_robin
from zermelo.solvers.chess.tools import opening_positions

UCI = f"uci:cmd={sys.executable} -m zermelo uci,time=0.05"


def test_uci_agents_parse_with_their_options() -> None:
    spec = parse_agent("uci:cmd=/usr/games/stockfish,elo=1800,time=1")
    assert spec.kind == "uci"
    assert dict(spec.options) == {"cmd": "/usr/games/stockfish", "elo": 1800, "time": 1.0}
    for bad in ("uci", "uci:elo=1800", "uci:cmd=", "uci:cmd=x,elo=high", "uci:cmd=x,speed=2"):
        with pytest.raises(ParseError, match="bad agent"):
            parse_agent(bad)


def test_a_uci_engine_that_does_not_start_is_one_line(tmp_path: object) -> None:
    done = run_cli(
        "arena", "chess", "easy", "uci:cmd=/nonexistent/engine", "--games", "1", "-j", "1"
    )
    assert done.returncode == 2
    assert "cannot start '/nonexistent/engine'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_built_in_openings_are_legal_and_go_with_both_colours() -> None:
    positions = opening_positions()
    assert len(positions) == len(OPENINGS) >= 20
    assert len(set(positions)) == len(positions)
    for fen in positions:
        assert chess.Board(fen).is_valid()
    tasks = round_robin(
        "chess", [parse_agent("easy"), parse_agent("medium")], 4, openings=positions
    )
    assert [t.start for t in tasks] == [positions[0], positions[0], positions[1], positions[1]]
    assert tasks[0].labels == tuple(reversed(tasks[1].labels))


def test_openings_from_epd_and_pgn() -> None:
    epd = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id "1";\n\n'
    assert opening_positions(epd) == ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
    pgn = '[Event "a"]\n\n1. d4 d5 2. c4 *\n'
    board = chess.Board()
    for san in ("d4", "d5", "c4"):
        board.push_san(san)
    assert opening_positions(pgn) == [board.fen()]
    with pytest.raises(ParseError, match="line 1"):
        opening_positions("not a position at all\n")


def test_the_uci_path_plays_zermelo_uci_as_an_external_engine(tmp_path: object) -> None:
    saved = f"{tmp_path}/games.jsonl"
    done = run_cli(
        "arena",
        "chess",
        "easy",
        UCI,
        "--games",
        "2",
        "--max-moves",
        "12",
        "-j",
        "1",
        "--save",
        saved,
    )
    assert done.returncode == 0, done.stderr
    records = load_records(saved)
    assert len(records) == 2
    first = opening_positions()[0]
    for record in records:
        assert record.start == first
        assert len(record.moves) <= 12
        replay(record)  # every move legal, the result what the moves give
    assert records[0].players == tuple(reversed(records[1].players))
    with open(saved, encoding="utf-8") as lines:
        capped = [json.loads(line) for line in lines]
    for data, record in zip(capped, records, strict=True):
        if len(record.moves) == 12:
            assert data["adjudicated"] == "move cap" and data["result"] == "1/2-1/2"


def test_openings_file_for_the_arena(tmp_path: object) -> None:
    path = f"{tmp_path}/open.epd"
    with open(path, "w", encoding="utf-8") as out:
        out.write("4k3/8/8/8/8/8/8/4K2R w K - bm O-O;\n")
    done = run_cli(
        "arena",
        "chess",
        "easy",
        "medium",
        "--games",
        "2",
        "--openings",
        path,
        "--max-moves",
        "4",
        "-j",
        "1",
        "--save",
        f"{tmp_path}/g.jsonl",
    )
    assert done.returncode == 0, done.stderr
    starts = {r.start for r in load_records(f"{tmp_path}/g.jsonl")}
    assert starts == {"4k3/8/8/8/8/8/8/4K2R w K - 0 1"}
    bad = run_cli("arena", "chess", "easy", "medium", "--openings", f"{tmp_path}/none.epd")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
