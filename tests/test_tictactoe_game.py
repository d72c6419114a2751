"""Tic-tac-toe rules and notation, checked against the game's known counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import reachable
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.state import Player
from zermelo.games import get_game
from zermelo.games.tictactoe import TicTacToeState


def count_games(state: TicTacToeState) -> tuple[int, int, int]:
    """(X wins, O wins, draws) over every possible game from ``state``."""
    if state.is_terminal():
        winner = state.winner
        return (winner is Player.FIRST, winner is Player.SECOND, winner is None)  # type: ignore[return-value]
    totals = [0, 0, 0]
    for move in state.legal_moves():
        for i, n in enumerate(count_games(state.play(move))):
            totals[i] += n
    return totals[0], totals[1], totals[2]


def test_reachable_positions_with_x_first() -> None:
    positions = reachable(TicTacToeState.initial())
    assert len(positions) == 5478
    assert sum(p.is_terminal() for p in positions) == 958


def test_possible_games_with_x_first() -> None:
    x_wins, o_wins, draws = count_games(TicTacToeState.initial())
    assert (x_wins, o_wins, draws) == (131_184, 77_904, 46_080)
    assert x_wins + o_wins + draws == 255_168


def test_every_reachable_position_round_trips_through_notation() -> None:
    for state in reachable(TicTacToeState.initial()) | reachable(
        TicTacToeState.initial(Player.SECOND)
    ):
        assert TicTacToeState.parse(state.notation()) == state
        assert TicTacToeState.parse(state.notation(with_side=True)) == state


def test_notation_examples() -> None:
    state = TicTacToeState.parse("X.O......")
    assert state.to_move is Player.FIRST
    assert state.board() == ["X", " ", "O", " ", " ", " ", " ", " ", " "]
    assert TicTacToeState.parse("X........").to_move is Player.SECOND
    assert TicTacToeState.parse("O........").to_move is Player.FIRST
    assert TicTacToeState.parse("......... O").to_move is Player.SECOND
    assert TicTacToeState.parse("x.o......") == state
    # O started and X has just won with equal counts: O is to move, and the game is over.
    won = TicTacToeState.parse("XXXOO.O..")
    assert won.to_move is Player.SECOND and won.winner is Player.FIRST
    # X started and O has just won: X is to move.
    assert TicTacToeState.parse("OOOXX.X..").to_move is Player.FIRST
    # With equal counts either side may have started.
    assert TicTacToeState.parse("XO....... O").to_move is Player.SECOND


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("", ParseError, "expected 9 characters"),
        ("X.O.....", ParseError, "expected 9 squares, got 8"),
        ("X.O.......", ParseError, "expected 9 squares, got 10"),
        ("X.O...A..", ParseError, "unexpected 'A'"),
        ("X.O...... Z", ParseError, "invalid side to move 'Z'"),
        ("X.O...... X O", ParseError, "expected 9 characters"),
        ("XX.......", InvalidPositionError, "X has 2 stones and O has 0"),
        ("XXO...... X", InvalidPositionError, "X cannot be to move"),
        ("X........ X", InvalidPositionError, "X cannot be to move"),
        ("XXXOOO...", InvalidPositionError, "both X and O have three in a row"),
        ("XXXOO.O.O", InvalidPositionError, "play went on after the game was over"),
        ("XXXOO.... X", InvalidPositionError, "X cannot be to move"),
        ("OOOXX.X.. O", InvalidPositionError, "play went on after the game was over"),
    ],
)
def test_bad_positions_are_rejected_with_a_message_quoting_them(
    text: str, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error) as raised:
        TicTacToeState.parse(text)
    assert fragment in str(raised.value)
    assert repr(text) in str(raised.value) or repr(text.rsplit(maxsplit=1)[-1]) in str(raised.value)
    assert isinstance(raised.value, ZermeloError) and isinstance(raised.value, ValueError)


def test_illegal_moves() -> None:
    state = TicTacToeState.parse("X.O......")
    with pytest.raises(IllegalMoveError, match="already taken"):
        state.play(0)
    with pytest.raises(IllegalMoveError, match="off the board"):
        state.play(9)
    with pytest.raises(IllegalMoveError, match="game is over"):
        TicTacToeState.parse("XXXOO....").play(5)


@pytest.mark.parametrize("text", ["4", " 0", "8\n"])
def test_parse_move_accepts_squares(text: str) -> None:
    assert TicTacToeState.initial().parse_move(text) == int(text)


@pytest.mark.parametrize("text", ["", "9", "-1", "a", "4.0", "\u0661"])  # the last: Arabic-Indic 1
def test_parse_move_rejects_the_rest(text: str) -> None:
    with pytest.raises(ParseError, match="expected a number from 0 to 8"):
        TicTacToeState.initial().parse_move(text)


@given(st.lists(st.integers(0, 8), max_size=9))
def test_play_never_changes_the_old_state(moves: list[int]) -> None:
    state = TicTacToeState.initial()
    for move in moves:
        if move not in state.legal_moves():
            continue
        before = (state.x, state.o, state.to_move)
        child = state.play(move)
        assert (state.x, state.o, state.to_move) == before
        assert child.ply == state.ply + 1
        state = child


def test_symmetric_positions_share_a_key() -> None:
    corner = TicTacToeState.parse("X........")
    images = ["..X......", "......X..", "........X"]
    assert {TicTacToeState.parse(t).key() for t in images} == {corner.key()}
    assert TicTacToeState.parse(".X.......").key() != corner.key()


def test_registry() -> None:
    spec = get_game("tic-tac-toe")
    assert spec.name == "tictactoe"
    assert spec.new() == TicTacToeState.initial()
    assert spec.parse("X.O......") == TicTacToeState.parse("X.O......")
