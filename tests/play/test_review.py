"""``zermelo review``: the reader of PGN and arena JSON lines, the marks, known games, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zermelo.cli import main
from zermelo.core.errors import ParseError
from zermelo.core.scores import WIN
from zermelo.games.registry import get_game
from zermelo.play.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    mark_of,
    read_games,
    review_game,
    winning_chances,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def test_winning_chances_follow_lichess() -> None:
    assert winning_chances(0.0, False, 100) == 0.0
    # 100 centipawns: 2 / (1 + e^-0.368208) - 1
    assert winning_chances(1.0, False, 100) == pytest.approx(0.18205, abs=1e-5)
    assert winning_chances(-1.0, False, 100) == pytest.approx(-0.18205, abs=1e-5)
    assert winning_chances(WIN - 3, True, 100) == 1.0
    assert winning_chances(-(WIN - 3), True, 100) == -1.0


def test_marks_by_lost_winning_chances() -> None:
    # from +0.00 the thresholds 0.1, 0.2, 0.3 of winning chances fall near -0.55, -1.1, -1.7
    def mark(value: float) -> str:
        return mark_of(value, False, 0.0, False, 100)[1]

    assert mark(-0.5) == ""
    assert mark(-0.6) == INACCURACY
    assert mark(-1.2) == MISTAKE
    assert mark(-1.8) == BLUNDER
    # a move as good as the best loses nothing
    assert mark_of(0.3, False, 0.3, False, 100) == (0.0, "")


def test_exact_marks_only_a_change_of_result() -> None:
    win_in_1, win_in_9, loss = WIN - 1, WIN - 17, -(WIN - 4)
    assert mark_of(win_in_9, True, win_in_1, True, 1)[1] == ""
    assert mark_of(0.0, True, win_in_1, True, 1)[1] == BLUNDER
    assert mark_of(loss, True, 0.0, True, 1)[1] == BLUNDER
    assert mark_of(loss, True, -(WIN - 10), True, 1)[1] == ""


def test_a_pgn_from_elsewhere_is_read_whole() -> None:
    spec = get_game("chess")
    games = read_games(spec, (DATA / "classics.pgn").read_text(), "classics.pgn")
    assert [len(g.moves) for g in games] == [45, 33]
    assert games[0].headers["White"] == "Adolf Anderssen"
    assert games[1].headers["Black"] == "Duke Karl / Count Isouard"
    assert games[0].moves[-1] == "Be7#"  # the NAGs and the comment are skipped
    assert games[1].moves[5:7] == ("Bg4", "dxe5")  # the variation (3... exd4) is skipped
    assert games[0].source == "classics.pgn"


def test_tictactoe_review_marks_the_losing_reply() -> None:
    spec = get_game("tictactoe")
    (game,) = read_games(spec, "1. 0 1 *", "t.pgn")
    first, second = review_game(spec, game).moves
    assert (first.move, first.value, first.mark) == ("0", 0.0, "")
    # O on an edge next to X's corner loses; the centre holds the draw.
    assert second.move == "1" and second.best == "4" and second.best_value == 0.0
    assert second.exact and second.value < -(WIN - 100)
    assert second.mark == BLUNDER and second.chances == 1.0


def test_connect4_review_uses_the_exact_solver() -> None:
    spec = get_game("connect4")
    (game,) = read_games(spec, '[Game "connect4"]\n\n1. 1 *', "c.pgn")
    (move,) = review_game(spec, game).moves
    # Only the middle column wins (at the 41st ply); the edge loses (at the 40th).
    assert move.best == "4" and move.best_value == WIN - 41
    assert move.value == -(WIN - 40)
    assert move.mark == BLUNDER


def test_chess_review_marks_a_blunder_into_mate() -> None:
    spec = get_game("chess")
    pgn = "1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0"
    (game,) = read_games(spec, pgn, "m.pgn")
    moves = review_game(spec, game, depth=3).moves
    assert [m.move for m in moves] == ["e4", "e5", "Qh5", "Ke7", "Qxe5#"]
    assert moves[3].mark == BLUNDER and moves[3].value == -(WIN - 2)
    assert moves[4].value == WIN - 1 and moves[4].mark == ""
    assert moves[4].chances == 1.0


def test_bad_move_names_the_file_the_game_and_the_move() -> None:
    spec = get_game("chess")
    (game,) = read_games(spec, '[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Ke3 *', "bad.pgn")
    with pytest.raises(ParseError, match=r"^bad\.pgn, game 1 \(a vs b\), move 3 'Ke3': "):
        review_game(spec, game, depth=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[White "a"\n1. e4 *', r"^f\.pgn, game 1: bad tag line"),
        ("1. e4 {never closed", r"^f\.pgn, game 1: a '\{' comment is never closed"),
        # found by the fuzz test: a stray '}' made the reader loop for ever
        ("1. e4 } e5 *", r"^f\.pgn, game 1: a '\}' closes no comment"),
        ("1. e4 (1... e5 *", r"^f\.pgn, game 1: a '\(' variation is never closed"),
        ('[FEN "nonsense"]\n\n1. e4 *', r"^f\.pgn, game 1: bad FEN 'nonsense'"),
        ('{"game": "chess"}', r"^f\.pgn, game 1 \(line 1\): "),
        ('[Game "connect4"]\n\n1. 4 *', r"^f\.pgn, game 1: the file is a game of 'connect4'"),
        ("   \n", r"^f\.pgn: the file holds no game"),
    ],
)
def test_bad_files_get_one_line(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        read_games(get_game("chess"), text, "f.pgn")
    assert "\n" not in str(caught.value)


_PGN_WORDS = st.sampled_from(
    ["1.", "2...", "0", "4", "8", "1", "9", "x", "{c}", "{", "}", "(", ")", "$1", ";", "%",
     '[White "a"]', '[Game "tictactoe"]', '[FEN "........."]', "[", '"', "*", "1-0", "\n",
     '{"game":"tictactoe","start":"","moves":["0"],"result":"*","players":["a","b"]}']
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PGN_WORDS | st.text(max_size=8), max_size=30))
def test_fuzzed_files_are_read_or_refused_in_one_line(words: list[str]) -> None:
    spec = get_game("tictactoe")
    text = " ".join(words)
    try:
        games = read_games(spec, text, "fuzz.pgn")
    except ParseError as error:
        assert str(error).startswith("fuzz.pgn")
        assert "\n" not in str(error)
        return
    for game in games:
        try:
            review = review_game(spec, game, depth=1)
        except ParseError as error:
            assert str(error).startswith(f"fuzz.pgn, {game.label}, move ")
            assert "\n" not in str(error)
            continue
        for move in review.moves:
            assert -1.0 <= move.chances <= 1.0 and move.loss >= 0.0
            assert math.isfinite(move.value)


def test_review_of_arena_pgn_and_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn, lines = tmp_path / "games.pgn", tmp_path / "games.jsonl"
    main(["arena", "tictactoe", "random", "hard", "-n", "2", "--seed", "1", "-j", "1",
          "--save", str(lines), "--pgn", str(pgn)])  # fmt: skip
    capsys.readouterr()
    text = pgn.read_text()
    assert text.count('[Event "zermelo arena tictactoe, seed 1"]') == 2
    assert '[Round "1"]' in text and '[Round "2"]' in text
    assert '[White "random"]' in text and '[Black "hard"]' in text
    assert '[Date "????' not in text and '"?"]' not in text.replace('[Round "?"]', "")
    main(["review", "tictactoe", str(pgn), "--json"])
    from_pgn = json.loads(capsys.readouterr().out)
    main(["review", "tictactoe", str(lines), "--json"])
    from_lines = json.loads(capsys.readouterr().out)
    assert len(from_pgn) == len(from_lines) == 2
    assert [[m["move"] for m in g["moves"]] for g in from_pgn] == [
        [m["move"] for m in g["moves"]] for g in from_lines
    ]
    # hard never blunders at tic-tac-toe: every mark is random's
    for game in from_pgn:
        hard = "first" if game["headers"]["White"] == "hard" else "second"
        assert all(m["mark"] == "" for m in game["moves"] if m["side"] == hard)


def test_review_cli_table_game_choice_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "graph.svg"
    main(["review", "chess", str(DATA / "classics.pgn"), "--game", "2", "--depth", "2",
          "--plot", str(plot), "--lang", "en"])  # fmt: skip
    out = capsys.readouterr().out
    assert "Rd8#" in out and "Paul Morphy:" in out and "Anderssen" not in out
    assert plot.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "3"], "holds 2 games; there is no game 3"),
        (["--plot", "x.gif"], "expected a file name ending in .png or .svg"),
    ],
)
def test_review_cli_usage_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["review", "chess", str(DATA / "classics.pgn"), *args, "--lang", "en"])
    assert caught.value.code != 0
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_review_of_a_chess_pgn_from_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn = tmp_path / "chess.pgn"
    main(["arena", "chess", "random", "random", "-n", "2", "--max-moves", "6", "-j", "1",
          "--pgn", str(pgn)])  # fmt: skip
    capsys.readouterr()
    text = pgn.read_text()
    # the built-in openings start from a FEN; a capped game is adjudicated a draw
    assert text.count('[SetUp "1"]') == 2 and text.count('[Termination "adjudication"]') == 2
    assert '[Result "1/2-1/2"]' in text and '[White "random#2"]' in text
    main(["review", "chess", str(pgn), "--depth", "1", "--json"])
    reviews = json.loads(capsys.readouterr().out)
    assert [len(r["moves"]) for r in reviews] == [6, 6]
    assert reviews[0]["headers"]["Round"] == "1" and reviews[1]["headers"]["Round"] == "2"


def test_plot_without_matplotlib_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    with pytest.raises(SystemExit):
        main(["review", "chess", str(DATA / "classics.pgn"), "--plot", "g.png", "--lang", "en"])
    err = capsys.readouterr().err
    assert err.strip() == "zermelo: error: --plot needs matplotlib: pip install 'zermelo[plot]'"
