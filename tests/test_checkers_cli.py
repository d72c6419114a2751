"""Checkers at the command line and in the terminal session, run as a person would."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from conftest import run_cli, start_cli
from zermelo.games.checkers import CheckersState
from zermelo.games.registry import get_game
from zermelo.ui.terminal.boards import view_for
from zermelo.ui.terminal.session import GameOptions, Session

RESULTS = ("AI wins!", "Congratulations! You win!", "It's a tie!")
PROMPT = re.compile(r"Your move \(e\.g\. (\S+)\): $")


def play_through(args: list[str], first_replies: list[str] = ()) -> str:  # type: ignore[assignment]
    """Run ``zermelo ARGS`` and answer every move prompt as it appears: first with
    ``first_replies`` in turn, then with the move the prompt gives as its example (the first legal
    move). Returns the whole transcript."""
    process = start_cli(*args)
    assert process.stdin is not None and process.stdout is not None
    replies = list(first_replies)
    transcript = ""
    line = ""
    while True:
        char = process.stdout.read(1)
        if not char:
            break
        transcript += char
        line = "" if char == "\n" else line + char
        found = PROMPT.search(line)
        if found:
            reply = replies.pop(0) if replies else found.group(1)
            process.stdin.write(reply + "\n")
            process.stdin.flush()
            line = ""
    process.wait(timeout=120)
    assert process.returncode == 0, transcript[-2000:]
    return transcript


def test_a_whole_game_against_the_easy_level() -> None:
    args = ["play", "checkers", "--first", "human", "--level", "easy", "--seed", "5", "--once"]
    out = play_through(args, ["hello", "22-18", "?"])
    assert out.startswith("Welcome to Checkers!\n")
    # Moving first means playing Black, the side the rules let start.
    assert "You are 'Black' and the AI is 'White'" in out
    assert (
        "Your move (e.g. 9-13): hello\n'hello' is not a move: type squares 1-32 like 9-13\n" in out
    )
    assert (
        "'22-18' is not legal here; legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16\n"
        in out
    )
    assert "Legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16\n" in out
    assert "AI's turn..." in out and "Last move: " in out
    assert sum(out.rstrip().endswith(result) for result in RESULTS) == 1
    assert "\x1b[" not in out
    # The same seed replays the same game.
    assert play_through(args, ["hello", "22-18", "?"]) == out


def test_the_ai_moves_first_as_black() -> None:
    out = play_through(
        ["play", "draughts", "--first", "ai", "--level", "easy", "--seed", "2", "--once"]
    )
    assert "You are 'White' and the AI is 'Black'" in out
    assert out.index("AI's turn...") < out.index("Your move (e.g. ")
    assert any(out.rstrip().endswith(result) for result in RESULTS)


def test_an_explicit_side_is_kept() -> None:
    done = run_cli("play", "checkers", "--human", "b", "--first", "human", "--once", stdin="")
    assert "You are 'Black' and the AI is 'White'" in done.stdout
    assert done.returncode == 1  # input ended at the first prompt
    done = run_cli("play", "checkers", "--human", "red", stdin="")
    assert done.returncode == 2
    assert "invalid side 'red': expected Black or White" in done.stderr


def test_the_board_in_plain_text() -> None:
    view = view_for(get_game("checkers"))
    state = CheckersState.parse("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    assert view.render(state, (11, 15), rich=False).splitlines() == [
        "  .  1  .  2  .  3  .  4    1-4",
        "  5  .  6  .  7  .  8  .    5-8",
        "  .  9  .  W  . 11  .  b   9-12",
        " 13  . 14  .  W  .  b  .  13-16",
        "  . 17  .  w  . 19  .  b  17-20",
        " 21  .  B  . 23  .  w  .  21-24",
        "  .  B  . 26  .  w  .  w  25-28",
        "  B  . 30  . 31  . 32  .  29-32",
        "Last move: 11-15",
    ]


def test_the_board_in_colour_marks_the_last_move() -> None:
    view = view_for(get_game("checkers"))
    state = CheckersState.initial().play((11, 15))
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=80)
    markup = view.render(state, (11, 15), rich=True)
    console.print(markup)
    assert "dark_goldenrod" in markup and markup.count("dark_goldenrod") == 2
    assert "Last move" not in markup


@pytest.mark.parametrize(
    ("fen", "text", "message"),
    [
        ("B:W18,30:B14,1", "1-6", "A capture is mandatory: 14x23"),
        ("B:W14,22,23,30:B9,1", "9x18", "The jump must go on: 9x18x25, 9x18x27"),
        ("B:W14,15,22,23:BK10", "10x10", "'10x10' fits more than one capture: "),
        ("B:W14,22,23,30:B9,1", "9-40", "'9-40' is not a move"),
    ],
)
def test_typed_moves_get_one_clear_line(fen: str, text: str, message: str) -> None:
    answer = view_for(get_game("checkers")).read(CheckersState.parse(fen), text)
    assert answer.move is None and answer.message is not None
    assert answer.message.startswith(message) and "\n" not in answer.message


def test_shortened_captures_are_accepted_when_they_fit_one_path() -> None:
    state = CheckersState.parse("B:W14,22,23,30:B9,1")
    assert view_for(get_game("checkers")).read(state, " 9x27 ").move == (9, 18, 27)
    assert view_for(get_game("checkers")).read(state, "9x18x25").move == (9, 18, 25)


def test_a_session_with_scripted_input() -> None:
    # Into a pipe: the library-level session, the person moving first and resigning by running out
    # of input after two moves.
    stdin = io.StringIO("11-15\n?\n")
    output = io.StringIO()
    options = GameOptions(game="checkers", first="human", level="easy", seed=1, repeat=False)
    session = Session(options, stdin=stdin, console=Console(file=output, width=100))
    assert session.run() == 1
    text = output.getvalue()
    assert "Last move: 11-15" in text and "Legal moves:" in text


def test_analyze_a_checkers_position() -> None:
    fen = "B:W17,19,21,23,25,27,28,29,30,32:B1,2,3,4,6,7,10,11,12,18"
    done = run_cli("analyze", "checkers", fen, "--depth", "4")
    assert done.returncode == 0, done.stderr
    assert "Best move: 10-14" in done.stdout
    assert "Principal variation: 10-14 17x10 6x15x24x31" in done.stdout
    # The static evaluation, term by term, sums to what evaluate() says.
    state = CheckersState.parse(fen)
    assert f"Evaluation f(s) = {state.evaluate():+g}, from the side to move: men +0 (w=100)" in (
        done.stdout
    )
    # Even one ply sees the shot: the captures it starts are played out before judging.
    shallow = run_cli("analyze", "checkers", fen, "--depth", "1")
    assert "Best move: 10-14" in shallow.stdout
    timed = run_cli("analyze", "checkers", "--time", "0.05")
    assert timed.returncode == 0 and "Best move: " in timed.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["analyze", "checkers", "B:W21-32"], "invalid position 'B:W21-32'"),
        (["analyze", "checkers", "B:W21:B21"], "square 21 holds both"),
    ],
)
def test_bad_positions_are_one_line(args: list[str], fragment: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and fragment in done.stderr


def test_a_whole_game_in_colour() -> None:
    # On a terminal: the coloured board every move and "AI plays ..." lines. The person's moves
    # come from the game itself (its first legal move) instead of the keyboard.
    output = io.StringIO()
    console = Console(
        file=output, force_terminal=True, color_system="256", width=100, highlight=False
    )
    options = GameOptions(game="checkers", first="ai", level="easy", seed=3, repeat=False)
    session = Session(options, stdin=io.StringIO(""), console=console)
    session._human_move = lambda state: state.legal_moves()[0]  # type: ignore[method-assign]
    final = session.play_one()
    assert final.is_terminal()
    text = output.getvalue()
    assert "\x1b[" in text and "AI plays " in text and "Last move" not in text
    assert text.count("You are 'White' and the AI is 'Black'") == 1
