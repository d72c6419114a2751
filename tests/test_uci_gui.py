"""``zermelo uci`` as chess GUIs and lichess-bot drive it (issue 22): python-chess's own client,
raw exchanges on standard input for what no client sends, and the levels UCI shares with the
agents."""

from __future__ import annotations

import contextlib
import queue
import random
import re
import subprocess
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
from zermelo.agents import chess as chess_agents
from zermelo.games.chess import ChessState
from zermelo.solvers.chess import LEVELS, ChessEngine
from zermelo.ui.uci import UciSession

COMMAND = [sys.executable, "-m", "zermelo", "uci"]
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
MATE_IN_THREE = "4R3/1k6/bp6/1p1P4/1K6/8/1B6/3Q4 w - - 0 1"
REPEATED = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]


@pytest.fixture(scope="module")
def gui() -> Iterator[chess.engine.SimpleEngine]:
    engine = chess.engine.SimpleEngine.popen_uci(COMMAND, env=english_env(), timeout=180)
    yield engine
    engine.quit()


class Raw:
    """``zermelo uci`` on pipes: lines sent as a GUI would (or bytes no GUI would send)."""

    def __init__(self, extra: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=english_env(extra)
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, data: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((data.encode() if isinstance(data, str) else data) + b"\n")
        self.process.stdin.flush()

    def until(self, prefix: str, timeout: float = 120) -> list[str]:
        """The lines up to and with the first that starts with ``prefix``."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"the engine ended; its lines: {seen}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def quiet(self, seconds: float) -> list[str]:
        """The lines that come within ``seconds``."""
        seen: list[str] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                raise AssertionError(f"the engine ended; its lines: {seen}")
            seen.append(line)
        return seen

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError):
            self.send("quit")
        self.process.wait(60)


@pytest.fixture
def raw() -> Iterator[Raw]:
    engine = Raw()
    engine.send("isready")
    engine.until("readyok", 180)
    yield engine
    engine.close()


def _best(lines: list[str]) -> str:
    return lines[-1].split()[1]


def _pv_first(lines: list[str]) -> str | None:
    """The first move of the last ``info ... pv`` line."""
    firsts = [line.split(" pv ")[1].split()[0] for line in lines if " pv " in line]
    return firsts[-1] if firsts else None


# -- 1. a rejected position ----------------------------------------------------------------------


def test_a_position_with_an_illegal_move_keeps_the_moves_before_it(raw: Raw) -> None:
    raw.send("position startpos moves e2e4")
    raw.send("go depth 3")
    assert _best(raw.until("bestmove")) != "0000"
    raw.send("position startpos moves e2e4 e7e5 g1f3 junk")
    raw.send("go depth 3")
    lines = raw.until("bestmove")
    assert any(line.startswith("info string") and "'junk'" in line for line in lines)
    board = chess.Board()
    for move in ("e2e4", "e7e5", "g1f3"):
        board.push_uci(move)
    assert chess.Move.from_uci(_best(lines)) in board.legal_moves  # Black's move, not e7e5
    for move in lines[-2].split(" pv ")[1].split():  # the line searched is this position's
        board.push_uci(move)
    raw.send("position startpos")
    raw.send("go depth 2")
    raw.until("bestmove")
    raw.send("position startpos moves e2e4 junk")
    raw.send("go depth 2")
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    assert chess.Move.from_uci(_best(raw.until("bestmove"))) in after_e4.legal_moves


def test_an_unusable_setup_leaves_no_position_to_answer_for(raw: Raw) -> None:
    raw.send("position fen not/a/fen w - - 0 1")
    raw.send("go depth 3")
    lines = raw.until("bestmove")
    assert lines[-1] == "bestmove 0000"
    assert sum(line.startswith("info string") for line in lines) == 2


# -- 2. a draw that can only be claimed is not the end ------------------------------------------


def test_a_claimable_draw_is_played_on(gui: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for move in REPEATED:
        board.push_uci(move)
    assert board.can_claim_threefold_repetition() and not board.is_game_over(claim_draw=False)
    result = gui.play(board, chess.engine.Limit(time=0.3), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    fifty = chess.Board("8/8/8/4k3/8/8/3QK3/8 w - - 100 80")
    assert fifty.can_claim_fifty_moves() and not fifty.is_game_over(claim_draw=False)
    result = gui.play(fifty, chess.engine.Limit(depth=5), info=chess.engine.INFO_ALL)
    assert result.move in fifty.legal_moves
    assert result.info["depth"] == 5 and result.info["seldepth"] >= 1


def test_the_rules_that_end_a_game_by_themselves_end_it(raw: Raw) -> None:
    seventy_five = "8/8/8/4k3/8/8/3QK3/8 w - - 150 100"
    assert chess.Board(seventy_five).is_game_over(claim_draw=False)
    raw.send(f"position fen {seventy_five}")
    raw.send("go depth 3")
    assert raw.until("bestmove") == ["info depth 0 score cp 0", "bestmove 0000"]


# -- 3. every answer rests on a complete search -----------------------------------------------


def test_the_mate_in_one_is_played_with_five_milliseconds(gui: chess.engine.SimpleEngine) -> None:
    board = chess.Board(SCHOLAR)
    for _ in range(5):
        limit = chess.engine.Limit(white_clock=0.005, black_clock=0.005)
        result = gui.play(board, limit, info=chess.engine.INFO_ALL)
        assert result.move == chess.Move.from_uci("h5f7")
        assert result.info["depth"] >= 1


def test_an_infinite_search_stopped_at_once_has_searched(gui: chess.engine.SimpleEngine) -> None:
    board = chess.Board(SCHOLAR)
    for _ in range(20):
        with gui.analysis(board) as analysis:
            analysis.stop()
            best = analysis.wait()
        assert best.move == chess.Move.from_uci("h5f7")


def test_bestmove_is_the_last_lines_first_move(raw: Raw) -> None:
    # Node limits stop the search at the same node every time: these stopped inside an iteration
    # whose line had changed (bestmove d2d4 after "pv e2e4 ...", before the fix).
    for nodes in (3079, 3476, 9034, 9431, *range(500, 12000, 1500)):
        raw.send("ucinewgame")
        raw.send("position startpos")
        raw.send(f"go nodes {nodes}")
        lines = raw.until("bestmove")
        assert _best(lines) == _pv_first(lines), (nodes, lines[-3:])


# -- 4. the shortest mate --------------------------------------------------------------------


def test_a_mate_is_searched_until_it_is_the_shortest(gui: chess.engine.SimpleEngine) -> None:
    # A node budget, not a time one: on a loaded machine one second ended the search inside the
    # verification of the first mate found (a mate in 4), which is the right answer to that budget.
    board = chess.Board(MATE_IN_THREE)
    result = gui.play(board, chess.engine.Limit(nodes=2_000_000), info=chess.engine.INFO_ALL)
    assert result.info["score"].relative == chess.engine.Mate(3)
    assert result.info["nodes"] < 2_000_000  # stopped because the mate was proven shortest
    line = board.copy()
    for move in result.info["pv"][:5]:
        line.push(move)
    assert line.is_checkmate()
    assert result.move == result.info["pv"][0]


# -- 5. huge numbers, bad bytes, bad go lines, a huge table ---------------------------------


def test_a_huge_node_count_still_answers(raw: Raw) -> None:
    raw.send("position startpos")
    raw.send("go depth 2 nodes 9223372036854775808")
    lines = raw.until("bestmove", 60)
    assert chess.Move.from_uci(_best(lines)) in chess.Board().legal_moves
    raw.send("go depth 99999999999999999999 movetime 200")
    lines = raw.until("bestmove", 60)
    assert chess.Move.from_uci(_best(lines)) in chess.Board().legal_moves


def test_bytes_that_are_not_utf8_get_a_line_on_a_strict_stream() -> None:
    engine = Raw({"PYTHONIOENCODING": "utf-8"})
    try:
        engine.send(b"\xff\xfe\x80 go")
        engine.send("isready")
        lines = engine.until("readyok", 180)
        assert [line for line in lines if line.startswith("info string")] == [
            "info string unknown command '\ufffd\ufffd\ufffd go': expected uci, isready, "
            "ucinewgame, position, go, stop, ponderhit, setoption or quit"
        ]
        engine.send(b"position startpos moves e2e4 \xe9")
        engine.send("go depth 1")
        lines = engine.until("bestmove")
        assert "invalid move '\ufffd'" in lines[0]
        board = chess.Board()
        board.push_uci("e2e4")
        assert chess.Move.from_uci(_best(lines)) in board.legal_moves
    finally:
        engine.close()
    assert engine.process.returncode == 0


def test_a_bad_go_line_says_so_and_still_answers(raw: Raw) -> None:
    raw.send("position startpos")
    raw.send("go depth many movetime 300")
    lines = raw.until("bestmove")
    assert "'depth' needs a whole number, not 'many'" in lines[0]
    assert chess.Move.from_uci(_best(lines)) in chess.Board().legal_moves
    raw.send("go sideways")  # no limit left: it searches until stop, as a bare go does
    assert raw.until("info string")[-1].startswith("info string unknown go parameter 'sideways'")
    raw.send("stop")
    assert chess.Move.from_uci(_best(raw.until("bestmove"))) in chess.Board().legal_moves


def _resident_mib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def test_hash_is_capped_and_a_new_game_is_quick(raw: Raw) -> None:
    from zermelo.solvers.chess import MAX_HASH_MB

    raw.send("uci")
    options = raw.until("uciok")
    assert f"option name Hash type spin default 64 min 1 max {MAX_HASH_MB}" in options
    raw.send("setoption name Hash value 4096")
    raw.send("isready")
    lines = raw.until("readyok")
    assert f"info string Hash must be from 1 to {MAX_HASH_MB}: using {MAX_HASH_MB}" in lines
    start = time.monotonic()
    raw.send("ucinewgame")
    raw.send("isready")
    raw.until("readyok")
    assert time.monotonic() - start < 8  # 16.8 s before, with 4096 MiB
    assert _resident_mib(raw.process.pid) < 700  # 4.2 GB before


# -- 6. pondering, seldepth, finished games -----------------------------------------------


def test_ponderhit_turns_pondering_into_a_timed_search(raw: Raw) -> None:
    raw.send("position startpos moves e2e4")
    raw.send("go ponder wtime 100000 btime 100000")  # 1.9 s to think, counted from the go
    before = raw.quiet(0.5)
    assert not any(line.startswith("bestmove") for line in before)
    depths = [int(line.split()[2]) for line in before if line.startswith("info depth")]
    hit = time.monotonic()
    raw.send("ponderhit")
    lines = raw.until("bestmove")
    assert time.monotonic() - hit >= 0.1  # a timed search, not an answer at once
    after = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert after and after[-1] >= max(depths, default=1)  # the work so far is kept
    assert _best(lines) == _pv_first(before + lines)


def test_stop_while_pondering_answers(raw: Raw) -> None:
    raw.send("position startpos moves e2e4")
    raw.send("go ponder wtime 10000 btime 10000")
    assert not any(line.startswith("bestmove") for line in raw.quiet(0.3))
    raw.send("stop")
    lines = raw.until("bestmove", 30)
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(_best(lines)) in board.legal_moves


def test_finished_games_report_their_score_first(raw: Raw) -> None:
    raw.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    raw.send("go depth 3")
    assert raw.until("bestmove") == ["info depth 0 score mate 0", "bestmove 0000"]
    raw.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    raw.send("go movetime 100")
    assert raw.until("bestmove") == ["info depth 0 score cp 0", "bestmove 0000"]


# -- 7. MultiPV and hashfull ------------------------------------------------------------------


def test_multipv_gives_the_best_lines(gui: chess.engine.SimpleEngine) -> None:
    assert gui.options["MultiPV"].max >= 3
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    infos = gui.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert infos[0]["score"].relative == chess.engine.Mate(1)
    assert infos[0]["pv"][0] == chess.Move.from_uci("d1d8")
    assert len({info["pv"][0] for info in infos}) == 3
    values = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert values == sorted(values, reverse=True) and values[1] < 1000
    assert all("hashfull" in info for info in infos)


def test_multipv_bestmove_is_the_first_line(raw: Raw) -> None:
    raw.send("setoption name MultiPV value 4")
    raw.send("position startpos moves e2e4 e7e5")
    raw.send("go depth 5")
    lines = raw.until("bestmove")
    depth5 = [line for line in lines if line.startswith("info depth 5 ")]
    assert [line.split(" multipv ")[1].split()[0] for line in depth5] == ["1", "2", "3", "4"]
    assert _best(lines) == depth5[0].split(" pv ")[1].split()[0]
    assert all(" hashfull " in line for line in lines if line.startswith("info depth"))


def test_multipv_lines_are_the_values_of_each_move() -> None:
    # At depth 1 (quiescence behind every move; none gives check here) a line's value is exact:
    # the same as analyze_moves gives that move with a full window, and the lines are the best.
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    assert not any(board.gives_check(move) for move in board.legal_moves)
    lines = ChessEngine(hash_mb=8).search(board, depth=1, multipv=5).moves
    every = {
        value.move: value.value
        for value in ChessEngine(hash_mb=8).analyze_moves(board, depth=1).moves
    }
    assert len(lines) == 5
    assert [line.value for line in lines] == sorted(every.values(), reverse=True)[:5]
    assert all(every[line.move] == line.value for line in lines)


# -- 8. a game at one second and 0.1 s a move -------------------------------------------------


@pytest.mark.xdist_group("cores")
def test_a_forty_move_game_never_flags_and_never_plays_unsearched() -> None:
    rng = random.Random(7)
    white = chess.engine.SimpleEngine.popen_uci(COMMAND, env=english_env(), timeout=180)
    black = chess.engine.SimpleEngine.popen_uci(COMMAND, env=english_env(), timeout=180)
    try:
        white.ping()  # as a GUI does before the clock starts: the engines are loaded
        black.ping()
        clocks = {chess.WHITE: 1.0, chess.BLACK: 1.0}
        board = chess.Board()
        for move in ("e2e4", "c7c5", "g1f3", "d7d6"):
            board.push_uci(move)
        game = object()
        while board.fullmove_number <= 42 and not board.is_game_over(claim_draw=False):
            side = board.turn
            engine = white if side == chess.WHITE else black
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=0.1,
                black_inc=0.1,
            )
            ponders = side == chess.WHITE
            start = time.perf_counter()
            result = engine.play(
                board, limit, info=chess.engine.INFO_ALL, ponder=ponders, game=game
            )
            spent = time.perf_counter() - start
            clocks[side] -= spent
            assert clocks[side] > 0, (board.fen(), clocks, spent, result.info)
            clocks[side] += 0.1
            assert result.move in board.legal_moves
            assert result.info["depth"] >= 1 and result.info["pv"][0] == result.move
            board.push(result.move if rng.random() < 0.9 else rng.choice(list(board.legal_moves)))
        assert board.fullmove_number > 40 or board.is_game_over(claim_draw=False)
    finally:
        white.quit()
        black.quit()


# -- 9. one definition of the levels ----------------------------------------------------------


def _session_moves(level: str, fens: list[str]) -> list[tuple[str, int]]:
    lines: list[str] = []
    answered = threading.Event()

    def write(line: str) -> None:
        lines.append(line)
        if line.startswith("bestmove"):
            answered.set()

    session = UciSession(write, lambda: ChessEngine(hash_mb=chess_agents.AGENT_HASH_MB))
    session.handle(f"setoption name Level value {level}")
    session.handle("ucinewgame")
    moves: list[tuple[str, int]] = []
    for fen in fens:
        lines.clear()
        answered.clear()
        session.handle(f"position fen {fen}")
        session.handle("go wtime 60000 btime 60000")
        assert answered.wait(120)
        depth = int(next(line for line in lines if line.startswith("info depth")).split()[2])
        moves.append((lines[-1].split()[1], depth))
    session.close()
    return moves


LEVEL_POSITIONS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 2 3",
    SCHOLAR,
]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_uci_level_plays_as_the_agent_of_that_level(level: str) -> None:
    assert chess_agents.LEVEL_SETTINGS[level] == (LEVELS[level].depth, LEVELS[level].noise)
    agent = getattr(chess_agents, level)(None, None)
    expected = [agent.choose(ChessState(chess.Board(fen))).uci() for fen in LEVEL_POSITIONS]
    played = _session_moves(level, LEVEL_POSITIONS)
    assert [move for move, _ in played] == expected
    assert {depth for _, depth in played} == {LEVELS[level].depth}


# -- fuzz: every go gets its bestmove ----------------------------------------------------------

GO_WORDS = st.sampled_from(
    [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "movetime",
        "depth",
        "nodes",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "e2e4",
        "d2d4",
        "0",
        "1",
        "-1",
        "3",
        "9223372036854775808",
        "99999999999999999999",
        "x",
        "-",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(GO_WORDS, st.text(max_size=6)), max_size=10))
def test_fuzz_the_go_parser(words: list[str]) -> None:
    from zermelo.ui.uci import parse_go

    tokens = " ".join(words).split()
    go = parse_go(tokens)
    assert set(go.numbers) <= {"wtime", "btime", "winc", "binc", "movestogo", "movetime"} | {
        "depth",
        "nodes",
        "mate",
    }
    assert go.flags <= {"infinite", "ponder"}
    assert all(isinstance(problem, str) and problem for problem in go.problems)


@pytest.fixture(scope="module")
def fuzz_session() -> tuple[UciSession, list[str]]:
    return recording_uci()


@settings(max_examples=120, deadline=None)
@given(
    position=st.sampled_from(
        ["startpos", f"fen {SCHOLAR}", "fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "fen bad", "x"]
    ),
    moves=st.lists(st.sampled_from(["e2e4", "e7e5", "g1f3", "junk", "h5f7", "0000"]), max_size=4),
    go=st.lists(st.one_of(GO_WORDS, st.text(max_size=5)), max_size=8),
)
def test_fuzz_every_go_gets_one_bestmove(
    fuzz_session: tuple[UciSession, list[str]], position: str, moves: list[str], go: list[str]
) -> None:
    session, lines = fuzz_session
    lines.clear()
    session.handle(f"position {position} moves {' '.join(moves)}")
    session.handle(("go " + " ".join(go)).replace("\n", " ").replace("\r", " ") + " nodes 300")
    session.handle("stop")
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1, lines
    if best[0] != "bestmove 0000":
        assert best[0].split()[1] == _pv_first(lines), lines
    assert all(re.match(r"(info |bestmove )", line) for line in lines), lines
