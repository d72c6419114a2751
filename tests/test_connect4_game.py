"""Connect Four rules: moves, wins, notation, errors, symmetry, the oracle on small boards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.scores import EVAL_LIMIT
from zermelo.core.state import Player
from zermelo.games import get_game
from zermelo.games.connect4 import SPEC, Connect4State, geometry
from zermelo.search import alphabeta, minimax


def random_game(draws: list[int], width: int = 7, height: int = 6) -> Connect4State:
    """Play the drawn columns (modulo the legal ones) until the draws or the game run out."""
    state = Connect4State.initial(width, height)
    for draw in draws:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[draw % len(moves)])
    return state


def mirrored(state: Connect4State) -> Connect4State:
    text = "".join(str(state.width + 1 - int(c)) for c in state.notation())
    return Connect4State.parse(text, state.width, state.height)


def test_registry_names_and_aliases() -> None:
    for name in ("connect4", "c4", "connect-four", "Connect4"):
        assert get_game(name) is SPEC
    assert SPEC.new().notation() == ""
    assert SPEC.parse("4453").ply == 4


def test_initial_position_fits_the_protocol() -> None:
    state = Connect4State.initial()
    assert state.ply == 0 and state.to_move is Player.FIRST and state.winner is None
    assert state.legal_moves() == [3, 2, 4, 1, 5, 0, 6]
    assert not state.is_terminal()
    assert Connect4State.initial(4, 4).legal_moves() == [2, 1, 3, 0]


def test_play_returns_new_state_and_keeps_the_old() -> None:
    state = Connect4State.initial()
    child = state.play(3)
    assert state.ply == 0 and child.ply == 1
    assert child.to_move is Player.SECOND
    assert child.notation() == "4"
    assert child.cell(3, 0) is Player.FIRST
    assert child.play(3).cell(3, 1) is Player.SECOND
    assert hash(child) == hash(Connect4State.parse("4"))


def test_rows_draw_the_board() -> None:
    state = Connect4State.parse("4453")
    assert state.rows()[-2:] == ["...O...", "..OXX.."]


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("1212121", Player.FIRST),  # vertical
        ("1122334", Player.FIRST),  # horizontal
        ("71122334", Player.SECOND),  # horizontal for the second player
        ("12234334544", Player.FIRST),  # diagonal up to the right
        ("76654554344", Player.FIRST),  # diagonal up to the left
    ],
)
def test_four_in_a_row_wins(moves: str, winner: Player) -> None:
    state = Connect4State.parse(moves)
    assert state.winner is winner
    assert state.is_terminal() and state.legal_moves() == []
    assert Connect4State.parse(moves[:-1]).winner is None
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play(3)


def test_no_wrap_around_between_columns() -> None:
    # The first player's three stones at the top of column 1 and one at the bottom of column 2
    # are not a line: the sentinel bit keeps the columns apart.
    state = Connect4State.parse("21516117171")
    assert state.cell(0, 5) is Player.FIRST and state.cell(1, 0) is Player.FIRST
    assert state.winner is None


def test_full_board_without_line_is_a_draw() -> None:
    state = Connect4State.parse("1212", 2, 2)
    assert state.is_terminal() and state.winner is None and state.legal_moves() == []


def test_play_rejects_full_and_off_board_columns() -> None:
    state = Connect4State.parse("111111")
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        state.play(0)
    with pytest.raises(IllegalMoveError, match="off the board"):
        state.play(7)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("12a4", ParseError, "move 3 is 'a'"),
        ("4480", ParseError, "move 3 is '8'"),
        ("1111111", IllegalMoveError, "move 7 plays column 1, which is already full"),
        ("12121212", InvalidPositionError, "move 8 (2) comes after the game was won by move 7"),
    ],
)
def test_parse_errors_quote_the_input_and_name_the_move(
    text: str, error: type[ZermeloError], fragment: str
) -> None:
    with pytest.raises(error) as info:
        Connect4State.parse(text)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_parse_move_and_format_move() -> None:
    state = Connect4State.initial()
    assert state.parse_move(" 4 ") == 3
    assert state.format_move(3) == "4"
    for bad in ("0", "8", "x", "44", ""):
        with pytest.raises(ParseError, match=repr(bad)):
            state.parse_move(bad)


def test_unsupported_board_sizes_are_rejected() -> None:
    with pytest.raises(InvalidPositionError):
        geometry(10, 6)
    with pytest.raises(InvalidPositionError):
        geometry(9, 7)  # 9 * 8 bits do not fit


def test_winning_move_finds_the_win() -> None:
    assert Connect4State.parse("121212").winning_move() == 0
    assert Connect4State.parse("4455").winning_move() is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=42))
def test_notation_round_trips(draws: list[int]) -> None:
    state = random_game(draws)
    again = Connect4State.parse(state.notation())
    assert again == state
    assert again.winner == state.winner


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=42))
def test_mirror_positions_share_key_and_evaluation(draws: list[int]) -> None:
    state = random_game(draws)
    image = mirrored(state)
    assert image.key() == state.key()
    assert image.winner == state.winner
    assert image.evaluate() == pytest.approx(state.evaluate())
    assert -EVAL_LIMIT < state.evaluate() < EVAL_LIMIT


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=42))
def test_transpositions_share_key_but_not_notation(draws: list[int]) -> None:
    state = random_game(draws)
    assert state.key() == Connect4State.parse(state.notation()).key()
    assert bin(state.mask).count("1") == state.ply


def test_evaluation_prefers_the_centre_and_threats() -> None:
    # Second player to move after the first took the centre: it is behind.
    assert Connect4State.parse("4").evaluate() < 0
    # After 4 4 5 5 3 the first player has an open three on the bottom row (two threats): bad
    # for the second player, who is to move.
    assert Connect4State.parse("44553").evaluate() < Connect4State.parse("4455").evaluate() - 0.02


@pytest.mark.parametrize("seed_moves", ["1234", "2323", "4141", "3322"])
def test_alphabeta_matches_minimax_on_a_small_board(seed_moves: str) -> None:
    # 4x4 board after a few moves: small enough for the plain minimax oracle.
    state = Connect4State.parse(seed_moves + "1423", 4, 4)
    oracle = minimax(state)
    fast = alphabeta(state)
    assert fast.value == oracle.value
