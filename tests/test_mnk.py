"""Rules and notation of m,n,k games (gomoku / caro included)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.state import Player
from zermelo.games import get_game
from zermelo.games.mnk import MnkState, gomoku, new_game, parse
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search.alphabeta import alphabeta
from zermelo.search.minimax import minimax


def play_all(state: MnkState, moves: str) -> MnkState:
    for text in moves.split():
        state = state.play(state.parse_move(text))
    return state


def test_protocol_and_registry() -> None:
    state = gomoku()
    assert get_game("gomoku").new() == state
    assert get_game("caro").new() == state
    assert get_game("mnk").new(width=4, height=3, k=3).rules[:3] == (4, 3, 3)
    assert get_game("gomoku").new(exact=True).rules.exact


def test_move_notation_a1_bottom_left_h8_centre() -> None:
    state = gomoku()
    assert state.parse_move("a1") == 0
    assert state.parse_move("o1") == 14
    assert state.parse_move("a2") == 15
    assert state.parse_move("H8") == 7 * 15 + 7 == state.geometry.centre
    assert state.format_move(224) == "o15"


@pytest.mark.parametrize("text", ["", "h", "8h", "h0", "p1", "a16", "h8x", "zz"])
def test_bad_move_notation_quotes_input(text: str) -> None:
    with pytest.raises(ParseError) as info:
        gomoku().parse_move(text)
    assert repr(text) in str(info.value)
    assert "expected" in str(info.value)


def test_occupied_point_is_illegal() -> None:
    state = play_all(gomoku(), "h8")
    with pytest.raises(IllegalMoveError, match="h8 is already taken"):
        state.play(state.parse_move("h8"))
    with pytest.raises(IllegalMoveError, match="off the"):
        state.play(225)


def test_empty_board_notation() -> None:
    assert gomoku().notation() == "15x15 k5 " + "/".join(["15"] * 15) + " x"
    assert new_game(3, 3, 3).play(4).notation() == "3x3 k3 3/1x1/3 o"
    assert gomoku(exact=True).notation().startswith("15x15 k5 exact ")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("3x3 k3 3/3", ParseError),
        ("3x3 k3 3/1q1/3 o", ParseError),
        ("3x3 k3 3/4/3", ParseError),
        ("3y3 k3 3/3/3", ParseError),
        ("3x3 three 3/3/3", ParseError),
        ("3x3 k3 3/3/3 z", ParseError),
        ("30x3 k3 30/30/30", ParseError),
        ("3x3 k9 3/3/3", ParseError),
        ("3x3 k3 xx1/3/3", InvalidPositionError),
        ("3x3 k3 x2/3/3 x", InvalidPositionError),
        ("3x3 k3 xxx/oo1/o2 o", InvalidPositionError),
        ("3x3 k3 xxx/ooo/3", InvalidPositionError),
    ],
)
def test_bad_positions_are_rejected_with_the_input_quoted(text: str, error: type) -> None:
    with pytest.raises(error) as info:
        parse(text)
    assert repr(text) in str(info.value)


def test_parse_accepts_dots_and_optional_side() -> None:
    state = parse("3x3 k3 .../.x./... ")
    assert state == new_game(3, 3, 3).play(4)
    assert state.to_move == Player.SECOND


@st.composite
def games(draw: st.DrawFn) -> MnkState:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    k = draw(st.integers(1, max(width, height)))
    exact = draw(st.booleans())
    state = new_game(width, height, k, exact)
    for _ in range(draw(st.integers(0, width * height))):
        if state.is_terminal():
            break
        state = state.play(draw(st.sampled_from(state.legal_moves())))
    return state


@settings(max_examples=150, deadline=None)
@given(games())
def test_position_notation_round_trips(state: MnkState) -> None:
    assert parse(state.notation()) == state
    assert parse(state.notation().upper()) == state


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_move_notation_round_trips(state: MnkState, data: st.DataObject) -> None:
    point = data.draw(st.integers(0, state.geometry.size - 1))
    assert state.parse_move(state.format_move(point)) == point


# -- winning lines ------------------------------------------------------------------------------


LINES_OF_FIVE = {
    "horizontal": ["a1", "b1", "c1", "d1", "e1"],
    "vertical": ["o11", "o12", "o13", "o14", "o15"],
    "diagonal": ["k11", "l12", "m13", "n14", "o15"],
    "anti-diagonal": ["a5", "b4", "c3", "d2", "e1"],
    "middle": ["f7", "g8", "h9", "i10", "j11"],
}
FILLER = ["h3", "j3", "l3", "h5", "j5", "l5"]


@pytest.mark.parametrize("name", sorted(LINES_OF_FIVE))
@pytest.mark.parametrize("last", [0, 2, 4])
def test_five_in_a_row_wins_in_every_direction_and_at_edges(name: str, last: int) -> None:
    line = LINES_OF_FIVE[name]
    order = [p for i, p in enumerate(line) if i != last] + [line[last]]
    state = gomoku()
    for i, x_move in enumerate(order):
        state = play_all(state, x_move)
        if i < 4:
            assert state.winner is None
            assert not state.is_terminal()
            state = play_all(state, FILLER[i])
    assert state.winner == Player.FIRST
    assert state.is_terminal()
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play(state.parse_move("h12"))
    assert parse(state.notation()) == state


def test_four_is_not_a_win_and_a_broken_line_is_not_five() -> None:
    state = play_all(gomoku(), "a1 a3 b1 b3 c1 c3 e1 d3 f1 e3")
    # x: a1 b1 c1 . e1 f1 -- two separate groups; o: a3-e3 five in a row
    assert state.winner == Player.SECOND


def overline_position(exact: bool) -> MnkState:
    # x: c8 d8 e8 . g8 h8 ; filling f8 makes six in a row.
    return play_all(gomoku(exact), "c8 c2 d8 d2 e8 e3 g8 g2 h8 h2")


def test_overline_wins_in_freestyle() -> None:
    state = overline_position(exact=False)
    assert state.winning_move() == state.parse_move("f8")
    assert state.play(state.parse_move("f8")).winner == Player.FIRST


def test_overline_does_not_win_with_exactly_five() -> None:
    state = overline_position(exact=True)
    assert state.winning_move() is None
    after = state.play(state.parse_move("f8"))
    assert after.winner is None
    assert not after.is_terminal()
    # ...but exactly five still wins under that rule.
    five = play_all(gomoku(True), "c8 c2 d8 d2 e8 e3 f8 g2 g8")
    assert five.winner == Player.FIRST


def test_parse_rejects_play_after_a_win() -> None:
    assert parse("5x2 k3 xxx2/oo3 o").winner == Player.FIRST
    with pytest.raises(InvalidPositionError, match="play went on"):
        parse("5x2 k3 xxx2/oo1o1 x")  # o moved after x had won


def test_candidate_moves_are_near_the_stones() -> None:
    assert gomoku().candidate_moves() == [gomoku().parse_move("h8")]
    state = play_all(gomoku(), "a1")
    names = sorted(state.format_move(p) for p in state.candidate_moves())
    assert names == sorted(["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"])
    assert set(state.candidate_moves()) <= set(state.legal_moves())
    assert len(state.legal_moves()) == 224


def test_full_board_without_a_line_is_a_draw() -> None:
    state = play_all(new_game(3, 3, 3), "a1 b1 c1 b2 a2 a3 b3 c2 c3")
    assert state.is_terminal()
    assert state.winner is None


def _ttt(state: MnkState) -> TicTacToeState:
    x = o = 0
    for p in range(9):
        row, col = divmod(p, 3)
        square = (2 - row) * 3 + col
        if state.x >> p & 1:
            x |= 1 << square
        elif state.o >> p & 1:
            o |= 1 << square
    return TicTacToeState(x, o, state.to_move)


def test_333_agrees_with_tictactoe_minimax() -> None:
    rng = random.Random(333)
    checked = 0
    for _ in range(40):
        state = new_game(3, 3, 3)
        for _ in range(rng.randrange(2, 7)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        ours = minimax(state).value
        theirs = minimax(_ttt(state)).value
        assert ours == theirs, state.notation()
        checked += 1
    assert checked == 40


def test_333_alphabeta_value_is_a_draw() -> None:
    result = alphabeta(new_game(3, 3, 3))
    assert result.value == 0
    assert result.exact
