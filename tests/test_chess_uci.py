"""The UCI protocol, driven by python-chess as a chess GUI would, and fed bad input."""

from __future__ import annotations

import io
import re
import sys
import threading
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import english_env, recording_uci
from zermelo.solvers.chess import LEVELS, MAX_HASH_MB, ChessEngine
from zermelo.ui.uci import UciSession, run_uci


@pytest.fixture(scope="module")
def uci_engine() -> Iterator[chess.engine.SimpleEngine]:
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zermelo.ui.uci"], env=english_env(), timeout=180
    )
    yield engine
    engine.quit()


def test_identifies_itself_and_its_options(uci_engine: chess.engine.SimpleEngine) -> None:
    assert uci_engine.id["name"].startswith("zermelo")
    assert set(uci_engine.options) >= {"Hash", "Level", "MultiPV", "Ponder"}
    assert uci_engine.options["Hash"].max == MAX_HASH_MB == 1024


def test_plays_a_legal_move_after_moves(uci_engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
    result = uci_engine.play(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["depth"] == 4
    assert result.info["nodes"] > 0 and "pv" in result.info and "nps" in result.info


def test_reports_mate_scores(uci_engine: chess.engine.SimpleEngine) -> None:
    info = uci_engine.analyse(
        chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), chess.engine.Limit(depth=3)
    )
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")
    info = uci_engine.analyse(
        chess.Board("k7/8/1K6/8/8/8/8/7R b - - 0 1"), chess.engine.Limit(depth=3)
    )
    assert info["score"].relative == chess.engine.Mate(-1)


def test_fen_position_and_nodes_limit(uci_engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    result = uci_engine.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["nodes"] <= 3000


def test_clock_and_movetime_are_kept(uci_engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    start = time.perf_counter()
    result = uci_engine.play(
        board, chess.engine.Limit(white_clock=1.0, black_clock=1.0, white_inc=0)
    )
    assert time.perf_counter() - start < 1.0
    assert result.move in board.legal_moves
    start = time.perf_counter()
    uci_engine.play(board, chess.engine.Limit(time=0.2))
    assert time.perf_counter() - start < 2.0


def test_infinite_analysis_stops_on_request(uci_engine: chess.engine.SimpleEngine) -> None:
    with uci_engine.analysis(chess.Board()) as analysis:
        time.sleep(0.3)
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_options_and_new_game(uci_engine: chess.engine.SimpleEngine) -> None:
    uci_engine.configure({"Hash": 8, "Level": "easy"})
    result = uci_engine.play(
        chess.Board(), chess.engine.Limit(depth=10), info=chess.engine.INFO_ALL
    )
    assert result.info["depth"] == LEVELS["easy"].depth == 2  # easy looks two plies ahead
    uci_engine.configure({"Level": "hard", "Hash": 16})
    uci_engine.protocol.send_line("ucinewgame")
    uci_engine.ping()


def _run(lines: list[str]) -> list[str]:
    output = io.StringIO()
    run_uci(
        io.StringIO("".join(line + "\n" for line in lines)), output, lambda: ChessEngine(hash_mb=1)
    )
    return output.getvalue().splitlines()


def test_bad_input_gets_one_info_string_line_each() -> None:
    bad = [
        "position fen not-a-fen",
        "position startpos moves e2e5",
        "position sideways",
        "setoption name Hash value lots",
        "setoption name Level value grandmaster",
        "setoption name Colour value blue",
        "setoption Hash",
        "flip the board",
    ]
    bad_go = ["go depth many", "go wtime", "go sideways 3"]
    searches = [line for go in bad_go for line in (go, "stop")]
    output = _run(["uci", *bad, "position startpos", *searches, "isready", "quit"])
    infos = [line for line in output if line.startswith("info string")]
    assert len(infos) == len(bad) + len(bad_go)
    assert "'not-a-fen'" in infos[0]
    assert "'e2e5'" in infos[1]
    assert "'depth' needs a whole number, not 'many'" in infos[len(bad)]
    # every go gets its bestmove, as Stockfish answers: the bad words are left out
    assert sum(line.startswith("bestmove") for line in output) == len(bad_go)
    assert output[-1] == "readyok"


def test_streams_session_plays_and_quits() -> None:
    output = _run(["uci", "isready", "position startpos moves e2e4 e7e5", "go depth 3", "isready"])
    assert "uciok" in output
    best = [line for line in output if line.startswith("bestmove")]
    assert len(best) == 1
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(best[0].split()[1]) in board.legal_moves


@pytest.fixture(scope="module")
def session_output() -> tuple[UciSession, list[str]]:
    return recording_uci()


WORDS = st.sampled_from(
    [
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "infinite",
        "stop",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "Level",
        "e2e4",
        "e7e5",
        "1",
        "0",
        "-5",
        "99999999999",
        "2",
        "65",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "ucinewgame",
        "ponderhit",
    ]
)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=8))
def test_fuzzed_lines_never_break_the_session(
    session_output: tuple[UciSession, list[str]], words: list[str]
) -> None:
    session, lines = session_output
    line = " ".join(words).replace("\n", " ").replace("\r", " ")
    if line.split()[:1] == ["go"]:
        line += " nodes 200"
    assert session.handle(line) is (line.split()[:1] != ["quit"])
    session.handle("stop")
    prefixes = ("id ", "option ", "uciok", "readyok", "info ", "bestmove ")
    assert all(out.startswith(prefixes) for out in lines)


INFO_LINE = re.compile(
    r"info depth \d+ seldepth \d+ score (cp|mate) -?\d+ nodes \d+ nps \d+ hashfull \d+"
    r" time \d+( pv( [a-h][1-8][a-h][1-8][qrbn]?)+)?|info depth 0 score (mate 0|cp 0)"
)


def _searched(commands: list[str]) -> list[str]:
    """The session's lines for ``commands``, each ``go`` waited for, speed and time cut out."""
    lines: list[str] = []
    answered = threading.Event()

    def write(line: str) -> None:
        lines.append(line)
        if line.startswith("bestmove"):
            answered.set()

    session = UciSession(write, lambda: ChessEngine(hash_mb=8))
    for command in commands:
        answered.clear()
        session.handle(command)
        if command.startswith("go"):
            assert answered.wait(120)
    session.close()
    assert all(INFO_LINE.fullmatch(line) for line in lines if line.startswith("info"))
    return [re.sub(r" nps \d+ hashfull \d+ time \d+", "", line) for line in lines]


def test_info_and_bestmove_lines_word_for_word() -> None:
    # The lines of the engine before it answered with SearchResult (main at ec130ac); since
    # issue 22 a finished game says its score first, as Stockfish does.
    assert _searched(
        [
            "position fen k7/8/1K6/8/8/8/8/7R b - - 0 1",
            "go depth 3",
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "go depth 2",
            "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "go depth 3",
            "position startpos moves e2e4 e7e5",
            "go depth 5",
        ]
    ) == [
        "info depth 1 seldepth 1 score cp -576 nodes 2 pv a8b8",
        "info depth 2 seldepth 2 score mate -1 nodes 21 pv a8b8 h1h8",
        "info depth 3 seldepth 2 score mate -1 nodes 24 pv a8b8 h1h8",
        "bestmove a8b8 ponder h1h8",
        "info depth 1 seldepth 4 score mate 1 nodes 100 pv h5f7",
        "info depth 2 seldepth 4 score mate 1 nodes 102 pv h5f7",
        "bestmove h5f7",
        "info depth 0 score mate 0",
        "bestmove 0000",
        "info depth 1 seldepth 3 score cp 48 nodes 37 pv d2d4",
        "info depth 2 seldepth 6 score cp 9 nodes 184 pv d2d4 b8c6",
        "info depth 3 seldepth 6 score cp 34 nodes 447 pv d2d4 b8c6 c2c3",
        "info depth 4 seldepth 10 score cp 9 nodes 1439 pv d2d4 b8c6 d4e5 c6e5",
        "info depth 5 seldepth 10 score cp 27 nodes 2491 pv d2d4 e5d4 c2c3 d7d5 e4d5",
        "bestmove d2d4 ponder e5d4",
    ]
