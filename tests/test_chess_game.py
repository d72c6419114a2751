"""Chess in the State protocol: notation, rules, game ends, and bad input."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.state import Player
from zermelo.games.chess import ChessState, board_from_text, move_from_text, termination
from zermelo.games.chess_openings import OPENINGS, opening_board


def test_initial_state_follows_the_protocol() -> None:
    state = ChessState.initial()
    assert state.to_move is Player.FIRST and state.ply == 0 and state.winner is None
    assert len(state.legal_moves()) == 20 and not state.is_terminal()
    assert state.notation() == chess.STARTING_FEN
    assert ChessState.parse(state.notation()) == state


def test_moves_in_san_and_uci_round_trip() -> None:
    state = ChessState.parse("startpos", ["e4", "e7e5", "Nf3"])
    assert state.to_move is Player.SECOND and state.ply == 3
    move = state.parse_move("Nc6")
    assert move == state.parse_move("b8c6") == chess.Move.from_uci("b8c6")
    assert state.format_move(move) == "Nc6"
    after = state.play(move)
    assert after.ply == 4 and state.ply == 3  # the old state is unchanged


def test_captures_come_first_in_legal_moves() -> None:
    state = ChessState.parse("startpos", ["e4", "d5"])
    assert state.legal_moves()[0] == chess.Move.from_uci("e4d5")


@pytest.mark.parametrize(
    ("fen", "moves", "reason", "winner"),
    [
        ("startpos", ["f3", "e5", "g4", "Qh4#"], "checkmate", Player.SECOND),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", [], "stalemate", None),
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", [], "insufficient material", None),
        ("8/8/4k3/8/8/3K4/8/R7 w - - 100 80", [], "fifty-move rule", None),
        (
            "startpos",
            ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
            "threefold repetition",
            None,
        ),
    ],
)
def test_games_end_with_their_reason(
    fen: str, moves: list[str], reason: str, winner: Player | None
) -> None:
    state = ChessState.parse(fen, moves)
    assert state.is_terminal() and state.termination() == reason
    assert state.winner is winner
    assert state.legal_moves() == ()
    assert termination(state.board) == reason


def test_repetition_counts_in_the_key() -> None:
    once = ChessState.parse("startpos", ["Nf3", "Nf6", "Ng1", "Ng8"])
    start = ChessState.initial()
    assert once.board.board_fen() == start.board.board_fen()
    assert once.key() != start.key() and once != start


@pytest.mark.parametrize(
    ("text", "error", "quoted"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", ParseError, "RNBQKBN"),
        ("hello", ParseError, "'hello'"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", InvalidPositionError, "no king"),
        ("k7/8/8/8/8/8/8/K6P w - - 0 1", InvalidPositionError, "first or last rank"),
        ("k7/8/8/8/8/8/8/QK6 w - - 0 1", InvalidPositionError, "not to move is in check"),
    ],
)
def test_bad_positions_are_quoted(text: str, error: type[Exception], quoted: str) -> None:
    with pytest.raises(error, match=quoted) as caught:
        board_from_text(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Nf6x", ParseError),
        ("e2e5", IllegalMoveError),
        ("Qh5", IllegalMoveError),
        ("zz", ParseError),
    ],
)
def test_bad_moves_are_quoted(text: str, error: type[Exception]) -> None:
    board = chess.Board()
    with pytest.raises(error, match=repr(text)):
        move_from_text(board, text)


def test_ambiguous_san_asks_for_the_file() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/N3K2N w - - 0 1")
    board.push_san("Kd2")
    board.push_san("Kd8")
    with pytest.raises((ParseError, IllegalMoveError)):
        move_from_text(chess.Board("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"), "Nd2")
    assert move_from_text(chess.Board("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"), "Nbd2").uci() == "b1d2"


def test_play_rejects_illegal_moves() -> None:
    state = ChessState.initial()
    with pytest.raises(IllegalMoveError, match="e2e5"):
        state.play(chess.Move.from_uci("e2e5"))


def test_material_evaluation_from_the_side_to_move() -> None:
    state = ChessState.parse("startpos", ["e4", "d5", "exd5"])
    assert state.evaluate() == -1.0  # a pawn down, in pawns like the engine's values


def test_openings_are_legal_and_distinct() -> None:
    boards = {opening_board(moves).fen() for _, moves in OPENINGS}
    assert len(boards) == len(OPENINGS) == 50


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_fuzzed_positions_raise_only_zermelo_errors(text: str) -> None:
    try:
        board_from_text(text)
    except ZermeloError as error:
        assert "\n" not in str(error)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="abcdefgh12345678NBRQKxO-=+#0 ", max_size=10))
def test_fuzzed_moves_raise_only_zermelo_errors(text: str) -> None:
    state = ChessState.parse("startpos", ["e4", "e5"])
    try:
        move = state.parse_move(text)
    except ZermeloError as error:
        assert "\n" not in str(error)
    else:
        assert move in state.board.legal_moves
