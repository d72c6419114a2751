"""The tutorial's TicTacToe class: same API, same results as the tutorial's own code."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, ZermeloError
from zermelo.tutorial import TicTacToe


class TutorialReference:
    """The tutorial's minimax, written out plainly, as the reference for the class's values."""

    def __init__(self, board: list[str]) -> None:
        self.board = list(board)

    def winner(self) -> str | None:
        b = self.board
        lines = [
            (0, 1, 2),
            (3, 4, 5),
            (6, 7, 8),
            (0, 3, 6),
            (1, 4, 7),
            (2, 5, 8),
            (0, 4, 8),
            (2, 4, 6),
        ]
        for x, y, z in lines:
            if b[x] == b[y] == b[z] != " ":
                return b[x]
        return None

    def minimax(self, is_maximizing: bool) -> int:
        winner = self.winner()
        if winner == "X":
            return 1
        if winner == "O":
            return -1
        if " " not in self.board:
            return 0
        scores = []
        for move in [i for i, c in enumerate(self.board) if c == " "]:
            self.board[move] = "X" if is_maximizing else "O"
            scores.append(self.minimax(not is_maximizing))
            self.board[move] = " "
        return max(scores) if is_maximizing else min(scores)


def test_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    game = TicTacToe()
    assert game.board == [" "] * 9
    assert (game.human_player, game.ai_player) == ("O", "X")
    assert game.available_moves() == list(range(9))
    assert not game.is_board_full() and not game.game_over()
    game.print_board()
    assert capsys.readouterr().out == "  |   |  \n---------\n  |   |  \n---------\n  |   |  \n"


def test_make_move_and_print_board(capsys: pytest.CaptureFixture[str]) -> None:
    game = TicTacToe()
    assert game.make_move(0, "X") is True
    assert game.make_move(1, "O") is True
    assert game.make_move(1, "X") is False
    assert game.board[:3] == ["X", "O", " "]
    assert game.available_moves() == [2, 3, 4, 5, 6, 7, 8]
    game.print_board()
    assert capsys.readouterr().out == "X | O |  \n---------\n  |   |  \n---------\n  |   |  \n"


def test_check_winner_examples() -> None:
    game = TicTacToe()
    for square in (0, 1, 2):
        game.make_move(square, "X")
    assert game.check_winner() == "X" and game.game_over()
    game = TicTacToe()
    for square, player in ((0, "X"), (1, "O"), (2, "O"), (3, "X")):
        game.make_move(square, player)
    assert game.check_winner() is None and not game.game_over()


def test_tutorial_best_move_examples() -> None:
    game = TicTacToe()
    game.make_move(0, "X")
    game.make_move(1, "O")
    assert game.get_best_move() == 3
    game.make_move(3, "X")
    game.make_move(4, "O")
    assert game.get_best_move() == 6


def test_best_move_on_a_finished_board_is_none() -> None:
    game = TicTacToe()
    for square in (0, 1, 2):
        game.make_move(square, "X")
    assert game.get_best_move() is None


@pytest.mark.parametrize(
    ("position", "player", "fragment"),
    [
        (9, "X", "expected a number from 0 to 8"),
        (-1, "X", "expected a number from 0 to 8"),
        ("4", "X", "expected a number from 0 to 8"),
        (True, "X", "expected a number from 0 to 8"),
        (4, "Z", "expected 'X' or 'O'"),
        (4, "", "expected 'X' or 'O'"),
    ],
)
def test_make_move_rejects_bad_input_without_touching_the_board(
    position: object, player: str, fragment: str
) -> None:
    game = TicTacToe()
    with pytest.raises(IllegalMoveError, match=fragment) as raised:
        game.make_move(position, player)  # type: ignore[arg-type]
    assert isinstance(raised.value, ZermeloError)
    assert game.board == [" "] * 9


boards = st.lists(st.sampled_from([" ", "X", "O"]), min_size=9, max_size=9)


@settings(max_examples=150, deadline=None)
@given(boards, st.booleans())
def test_minimax_gives_the_tutorials_values(board: list[str], is_maximizing: bool) -> None:
    assume(board.count(" ") <= 6)  # keep the reference's full tree small
    game = TicTacToe()
    game.board = list(board)
    expected = TutorialReference(board).minimax(is_maximizing)
    assert game.minimax(0, is_maximizing) == expected
    assert game.board == board


def test_minimax_from_the_empty_board_and_every_first_move() -> None:
    game = TicTacToe()
    assert game.minimax(0, True) == 0
    assert game.minimax(0, False) == 0
    for square in range(9):
        game.board[square] = "X"
        assert game.minimax(1, False) == TutorialReference(game.board).minimax(False)
        game.board[square] = " "


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_ai_never_loses_against_random_play(seed: int) -> None:
    rng = random.Random(seed)
    game = TicTacToe()
    ai_turn = rng.choice([True, False])
    while not game.game_over():
        if ai_turn:
            move = game.get_best_move()
            assert move is not None
            game.make_move(move, game.ai_player)
        else:
            game.make_move(rng.choice(game.available_moves()), game.human_player)
        ai_turn = not ai_turn
    assert game.check_winner() != game.human_player


def test_best_move_keeps_the_tutorials_value_everywhere() -> None:
    """From every position with X (the AI) to move, the chosen move keeps the tutorial's value."""
    from zermelo.core.state import Player
    from zermelo.games.tictactoe import TicTacToeState

    seen: set[TicTacToeState] = set()
    frontier = [TicTacToeState.initial(Player.FIRST), TicTacToeState.initial(Player.SECOND)]
    while frontier:
        state = frontier.pop()
        if state in seen or state.is_terminal():
            continue
        seen.add(state)
        frontier.extend(state.play(m) for m in state.legal_moves())
        if state.to_move is not Player.FIRST:
            continue
        game = TicTacToe()
        game.board = state.board()
        value = game.minimax(0, True)
        move = game.get_best_move()
        assert move is not None
        game.make_move(move, "X")
        assert game.minimax(0, False) == value


def test_play_game_runs_the_terminal_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{i}\n" for i in range(9))))
    game = TicTacToe()
    game.play_game()
    out = capsys.readouterr().out
    assert out.startswith("Welcome to Tic Tac Toe!\nYou are 'O' and the AI is 'X'\n")
    assert out.rstrip().endswith(("AI wins!", "It's a tie!"))
    # The class's board holds the final position.
    assert game.game_over()
    assert game.check_winner() != "O"


def test_play_game_stops_cleanly_when_input_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    TicTacToe().play_game()
    out = capsys.readouterr().out
    # Whoever starts, the person must move before the game can end.
    assert out.rstrip().endswith("Input ended before the game was over; goodbye.")


def test_play_game_replays_the_tutorials_transcript_with_the_human_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tutorial's game with the human starting: human 4, 5, 6, 1, 8 against the AI's
    ``get_best_move()`` answers 0, 3, 2, 7, a tie; the same every time."""
    import io
    import random

    for _attempt in range(5):
        monkeypatch.setattr(random, "choice", lambda options: False)  # ai_turn = False
        monkeypatch.setattr("sys.stdin", io.StringIO("4\n5\n6\n1\n8\n"))
        game = TicTacToe()
        game.play_game()
        out = capsys.readouterr().out
        assert "Invalid move!" not in out
        assert out.count("AI's turn...") == 4
        assert "It's a tie!" in out
        assert game.board == ["X", "O", "X", "X", "O", "O", "O", "X", "O"]
