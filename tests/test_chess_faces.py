"""Chess through every face: the record, the terminal game, perft, analyze, explain and UCI."""

from __future__ import annotations

import re
import sys

import chess
import chess.engine
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import english_env, run_cli
from zermelo.agents.spec import make_agent
from zermelo.core.errors import ZermeloError
from zermelo.core.record import capability_names
from zermelo.games.chess import ChessMove, ChessState
from zermelo.games.registry import get_game
from zermelo.solvers.chess.tools import TERMS
from zermelo.ui.uci import UciSession

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


# -- the record ------------------------------------------------------------------------------------


def test_the_record_declares_chess() -> None:
    spec = get_game("chess")
    assert spec.board == "chess"
    assert spec.new() == ChessState()
    assert spec.parse(MATE_IN_ONE).fen() == MATE_IN_ONE
    assert set(capability_names(spec)) >= {
        "perft",
        "engine_analysis",
        "explainer",
        "tuner",
        "saver",
        "openings",
    }
    assert "Nf3" in spec.notation and "g1f3" in spec.notation


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_level_takes_a_mate_in_one(level: str) -> None:
    agent = make_agent("chess", level, seed=3)
    state = ChessState.parse(MATE_IN_ONE)
    move = agent.choose(state)
    assert state.play(move).termination() == "checkmate"


def test_the_hard_level_plays_a_legal_move_and_mates() -> None:
    agent = make_agent("chess", "hard", seed=1, time_limit=0.5)
    state = ChessState.parse(MATE_IN_ONE)
    assert state.format_move(agent.choose(state)) == "Ra8#"


def test_chess_moves_sort_and_equal_plain_moves() -> None:
    moves = ChessState().legal_moves()
    ordered = sorted(moves)
    assert [m.uci() for m in ordered] == sorted(m.uci() for m in moves)
    assert ChessMove.from_uci("e2e4") == chess.Move.from_uci("e2e4")
    assert chess.Move.from_uci("e2e4") == ChessMove.from_uci("e2e4")
    assert hash(ChessMove.from_uci("e2e4")) == hash(chess.Move.from_uci("e2e4"))


# -- perft -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "position", "depth", "leaves"),
    [
        ("chess", "", 3, "8,902"),
        ("chess", KIWIPETE, 2, "2,039"),
        ("checkers", "", 6, "36,768"),
    ],
)
def test_perft_prints_the_published_counts(
    game: str, position: str, depth: int, leaves: str
) -> None:
    args = ["perft", game, "--depth", str(depth)]
    if position:
        args.insert(2, position)
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    assert f"perft {depth}: {leaves} leaves" in done.stdout
    assert "nodes/s" in done.stdout


def test_perft_refuses_games_without_it_and_bad_positions() -> None:
    done = run_cli("perft", "tictactoe", "--depth", "2")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert (
        "perft works on checkers, international, dama, chess, othello, not on tictactoe"
        in done.stderr
    )
    bad = run_cli("perft", "chess", "rnbqkbnr/pppppppp w", "--depth", "2")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    deep = run_cli("perft", "chess", "--depth", "21")
    assert deep.returncode == 2 and "Traceback" not in deep.stderr


# -- play, analyze, explain ------------------------------------------------------------------------


def test_a_game_ends_with_its_reason_and_is_saved_as_pgn(tmp_path: object) -> None:
    path = f"{tmp_path}/game.pgn"
    done = run_cli(
        "play",
        "chess",
        "--fen",
        MATE_IN_ONE,
        "--first",
        "human",
        "--once",
        "--pgn",
        path,
        stdin="?\nQh5\nRa8\n",
    )
    assert done.returncode == 0, done.stderr
    assert "Legal moves: Kf1, Kf2, Kg2, Kh1, Kh2, Ra2," in done.stdout
    assert "'Qh5' is not legal here" in done.stdout
    assert "Game over: checkmate." in done.stdout
    assert "Congratulations! You win!" in done.stdout
    with open(path, encoding="utf-8") as saved:
        game = chess.pgn.read_game(saved)
    assert game is not None
    assert game.headers["Result"] == "1-0"
    assert game.headers["FEN"] == MATE_IN_ONE
    # the Seven Tag Roster is filled: the person played White here, against the default level
    assert (game.headers["White"], game.headers["Black"]) == ("Human", "zermelo hard")
    assert game.headers["Site"] == "zermelo" and game.headers["Round"] == "-"
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", game.headers["Date"])
    assert [m.uci() for m in game.mainline_moves()] == ["a1a8"]


def test_undo_takes_back_the_move_and_the_reply() -> None:
    done = run_cli(
        "play",
        "chess",
        "--first",
        "human",
        "--level",
        "easy",
        "--once",
        "--seed",
        "2",
        stdin="e4\nundo\nundo\nd4\n",
    )
    assert done.returncode == 1  # the input ends before the game does
    assert done.stdout.count("Took back your last move.") == 1
    assert "Nothing to take back yet." in done.stdout
    # After the undo the board is the start again: White's e-pawn on e2.
    after_undo = done.stdout.split("Took back your last move.")[1]
    assert " 2 P P P P P P P P 2" in after_undo.split("Your move")[0]
    assert "Last move: d4" in done.stdout


def test_the_board_in_a_pipe_is_plain_letters() -> None:
    done = run_cli("play", "chess", "--first", "ai", "--level", "easy", "--once", stdin="")
    assert " 8 r n b q k b n r 8" in done.stdout
    assert "   a b c d e f g h" in done.stdout
    assert "♚" not in done.stdout and "[" not in done.stdout


def test_analyze_values_every_move_and_finds_the_mate() -> None:
    done = run_cli("analyze", "chess", MATE_IN_ONE, "--depth", "3")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == len(list(chess.Board(MATE_IN_ONE).legal_moves))
    assert "Ra8#" in rows[0] and "win in 1" in rows[0]
    assert "Best move: Ra8#" in done.stdout
    assert "nodes/s" in done.stdout


def test_explain_shows_the_engines_terms_summing_to_its_evaluation() -> None:
    from zermelo.solvers.chess import ChessEngine

    done = run_cli("explain", "chess", KIWIPETE)
    assert done.returncode == 0, done.stderr
    for term in ("mobility", "king shelter", "passed pawns", "bishop pair"):
        assert term in done.stdout
    total = ChessEngine(hash_mb=1).evaluate(KIWIPETE)
    # The total is written as the terms are, to one decimal.
    assert "total f(s)" in done.stdout and f"{total:+.1f} │" in done.stdout


def test_finished_positions_say_why() -> None:
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    done = run_cli("analyze", "chess", stalemate)
    assert done.returncode == 0
    assert "The game is over: stalemate." in done.stdout


# -- UCI ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uci_engine() -> object:
    # A generous timeout for every command: loading the compiled kernel on a loaded machine can
    # take longer than python-chess's default of ten seconds.
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zermelo", "uci"], env=english_env(), timeout=180
    )
    yield engine
    engine.quit()


def test_uci_plays_through_python_chess(uci_engine: chess.engine.SimpleEngine) -> None:
    assert uci_engine.id["name"].startswith("zermelo")
    assert {"Hash", "Level"} <= set(uci_engine.options)
    board = chess.Board()
    result = uci_engine.play(board, chess.engine.Limit(depth=4))
    assert result.move in board.legal_moves


def test_uci_reports_mate_scores(uci_engine: chess.engine.SimpleEngine) -> None:
    info = uci_engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    assert info["nodes"] > 0 and "nps" in info


def test_uci_stops_an_infinite_search(uci_engine: chess.engine.SimpleEngine) -> None:
    with uci_engine.analysis(chess.Board(KIWIPETE)) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board(KIWIPETE).legal_moves


def test_uci_levels_and_hash(uci_engine: chess.engine.SimpleEngine) -> None:
    uci_engine.configure({"Hash": 8, "Level": "easy"})
    board = chess.Board(MATE_IN_ONE)
    assert uci_engine.play(board, chess.engine.Limit(time=0.5)).move == chess.Move.from_uci("a1a8")
    uci_engine.configure({"Level": "hard"})


def _session() -> tuple[UciSession, list[str]]:
    lines: list[str] = []
    return UciSession(lines.append), lines


def test_uci_answers_bad_lines_with_one_info_string() -> None:
    session, lines = _session()
    for bad in ("position fen nonsense", "setoption name Hash value 0", "bogus"):
        lines.clear()
        assert session.handle(bad)
        assert len(lines) == 1 and lines[0].startswith("info string"), lines
    session.handle("position startpos moves e2e4 e7e5")
    lines.clear()
    session.handle("go depth x")  # one info string, then a search without the bad words
    session.handle("stop")
    assert lines[0].startswith("info string") and lines[-1].startswith("bestmove "), lines
    assert sum(line.startswith("info string") for line in lines) == 1, lines
    session.handle("go depth 2")
    session.close()
    assert lines[-1].startswith("bestmove ")
    assert not session.handle("quit")


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("go positn fe ms12345678/kqrbnpKQRBNP-wx ")), max_size=60)
)
def test_fuzz_uci_lines_never_raise(line: str) -> None:
    session, lines = _session()
    try:
        session.handle(line.replace("go", "go depth 1"))
    finally:
        session.close()
    assert all(isinstance(text, str) and "\n" not in text for text in lines)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_positions_and_moves_raise_only_zermelo_errors(text: str) -> None:
    spec = get_game("chess")
    try:
        state = spec.parse(text)
    except ZermeloError:
        state = ChessState()
    try:
        move = state.parse_move(text)
    except ZermeloError:
        return
    assert move in state.legal_moves()


PGN = """[Event "a"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "b"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5
9. Bxe7 Qxe7 10. Nxd5 exd5 1/2-1/2
"""


def test_tune_learns_from_a_pgn_and_explain_reads_the_weights(tmp_path: object) -> None:
    games = f"{tmp_path}/games.pgn"
    weights = f"{tmp_path}/w.json"
    with open(games, "w", encoding="utf-8") as out:
        out.write(PGN)
    done = run_cli("tune", "chess", "--pgn", games, "--match", "0", "--out", weights)
    assert done.returncode == 0, done.stderr
    assert "games / positions" in done.stdout and "3 / " in done.stdout
    import json

    with open(weights, encoding="utf-8") as saved:
        written = json.load(saved)
    fitted = written["weights"]
    assert written["game"] == "chess"
    assert list(fitted) == [name for name, _ in TERMS]
    assert fitted["material and squares"] == 1.0  # material stays fixed
    shown = run_cli("explain", "chess", KIWIPETE, "--weights", weights)
    assert shown.returncode == 0, shown.stderr
    assert f"{fitted['mobility']:g}" in shown.stdout
    bad = run_cli("tune", "gomoku", "--pgn", games)
    assert bad.returncode == 2 and "--pgn is for chess" in bad.stderr
    # A weights file of another game is refused in one line, naming the game it is for.
    other = f"{tmp_path}/gomoku.json"
    with open(other, "w", encoding="utf-8") as out:
        out.write(json.dumps({"game": "gomoku", "weights": {"x": 1}}))
    refused = run_cli("explain", "chess", KIWIPETE, "--weights", other)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "'gomoku', not chess" in refused.stderr


# -- the commands under hostile input --------------------------------------------------------------

PERFT_GAMES = ["chess", "checkers", "tictactoe", "", "\u00e9"]
PERFT_POSITIONS = [
    "",
    "startpos",
    KIWIPETE,
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "e4 e5 Qh5",
    "9" * 3000,
    "B:W17,19:B1,2",
]
PERFT_DEPTHS = ["0", "1", "2", "-1", "21", "1e400", "nan", "x"]


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(PERFT_GAMES), st.sampled_from(PERFT_POSITIONS), st.sampled_from(PERFT_DEPTHS)
)
def test_fuzz_the_perft_command(game: str, position: str, depth: str) -> None:
    done = run_cli("perft", game, position, "--depth", depth, timeout=120)
    assert done.returncode in (0, 2), done.stderr
    assert "Traceback" not in done.stderr
    if done.returncode:
        assert done.stderr.count("\n") == 1, done.stderr
    else:
        assert "leaves" in done.stdout


@settings(max_examples=8, deadline=None)
@given(
    st.lists(
        st.binary(max_size=40) | st.sampled_from([b"go depth 1", b"position fen", b"\xff"]),
        max_size=6,
    )
)
def test_fuzz_zermelo_uci_on_standard_input(lines: list[bytes]) -> None:
    import subprocess

    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\nisready\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "zermelo", "uci"],
        input=data,
        capture_output=True,
        env=english_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"readyok" in done.stdout


def test_the_board_on_a_terminal_has_figures_and_marks_the_last_move() -> None:
    from zermelo.ui.terminal.boards import view_for

    view = view_for(get_game("chess"))
    state = ChessState()
    move = state.parse_move("e4")
    drawn = view.render(state.play(move), move, rich=True)
    assert drawn.count("♟") == 16 and drawn.count("♚") == 2
    assert drawn.count("#cdd26a") + drawn.count("#aaa23a") == 2  # e2 and e4
    checked = ChessState.parse("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert "#d9534f" in view.render(checked, None, rich=True)


def test_undo_in_two_words_is_understood_in_turkish() -> None:
    # "undo" is two words in Turkish ("geri al"): the whole line is the command, not its first word.
    done = run_cli(
        "play",
        "chess",
        "--lang",
        "tr",
        "--first",
        "human",
        "--level",
        "easy",
        "--once",
        "--seed",
        "2",
        stdin="e4\ngeri  al\n",
    )
    assert done.stdout.count("Son hamlen geri alındı.") == 1
