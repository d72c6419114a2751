"""OpenSpiel games as zermelo states: values against OpenSpiel's own minimax and zermelo's
Connect Four solver, the class of games that fit, notation and errors."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys

import pyspiel
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import minimax

from zermelo.core.errors import IllegalMoveError, ParseError, UnknownGameError, ZermeloError
from zermelo.core.scores import WIN
from zermelo.core.state import Player
from zermelo.games.connect4 import Connect4State
from zermelo.games.registry import get_game
from zermelo.interop.openspiel import NotSupportedError, fitting_games, load, missing_properties
from zermelo.search import alphabeta
from zermelo.solvers.connect4.api import solve

FITTING = 40
"""Registered OpenSpiel games (open_spiel 2.0) that fit and load with default parameters: 31
deterministic games of perfect information, and since chance and hidden information load, pig,
backgammon, banqi, einstein_wurfelt_nicht, maedn, yacht, kuhn_poker, leduc_poker and
coordinated_mp."""


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _random_history(game: object, seed: int, plies: int) -> list[int]:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    history = []
    for _ in range(plies):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        history.append(action)
    return history


def test_tic_tac_toe_from_the_start_is_a_draw_for_both() -> None:
    theirs, _ = minimax.alpha_beta_search(pyspiel.load_game("tic_tac_toe"))
    ours = alphabeta(load("tic_tac_toe").new())
    assert theirs == 0.0
    assert ours.exact and ours.value == 0


def test_tic_tac_toe_values_equal_openspiel_minimax_on_a_sample() -> None:
    game = pyspiel.load_game("tic_tac_toe")
    wrapped = load("tic_tac_toe")
    checked = 0
    for seed in range(40):
        history = _random_history(game, seed, seed % 8)
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        if state.is_terminal():
            continue
        mover = state.current_player()
        theirs, _ = minimax.alpha_beta_search(game, state=state, maximizing_player_id=mover)
        ours = alphabeta(wrapped.parse(" ".join(map(str, history))))
        assert ours.exact
        assert _sign(ours.value) == _sign(theirs), history
        checked += 1
    assert checked >= 30


def test_connect_four_late_positions_agree_with_the_solver() -> None:
    game = pyspiel.load_game("connect_four")
    wrapped = load("connect_four")
    checked = 0
    for seed in range(200):
        history = _random_history(game, seed, 28)
        state = wrapped.parse(" ".join(map(str, history)))
        if state.is_terminal() or len(history) < 28:
            continue
        expected = solve(Connect4State.parse("".join(str(a + 1) for a in history)))
        ours = alphabeta(state)
        assert ours.exact
        assert ours.value == expected.value, history
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_every_fitting_registered_game_loads_and_plays() -> None:
    names = fitting_games()
    for name in names:
        state = load(name).new()
        assert state.to_move is Player.FIRST
        moves = state.legal_moves()
        assert moves, name
        child = state.play(moves[0])
        assert child.ply >= 1
        assert child.parse_move(child.format_move(child.legal_moves()[0])) in child.legal_moves()
        hash(child.key())
    # zermelo's own games, once registered in OpenSpiel (test_spiel_games), fit and load too; so
    # do OpenSpiel's Python games (python_kuhn_poker, python_tic_tac_toe), registered only once
    # a test process imports them. The count is of the games every process has.
    native = [name for name in names if not name.startswith(("zermelo_", "python_"))]
    print(f"{len(native)} OpenSpiel games fit and load: {', '.join(native)}")
    assert len(native) == FITTING


@pytest.mark.parametrize(
    ("name", "missing"),
    [
        ("negotiation", "explicit chance outcomes"),
        ("tiny_hanabi", "zero-sum utility"),
        ("bridge", "two players"),
        ("goofspiel", "sequential moves"),
        ("matrix_rps", "sequential moves"),
        ("leduc_poker(players=3)", "two players"),
    ],
)
def test_games_outside_the_class_are_refused_naming_what_is_missing(
    name: str, missing: str
) -> None:
    with pytest.raises(NotSupportedError, match=missing):
        load(name)
    assert missing_properties(pyspiel.load_game(name))


def test_chess_starts_with_white_as_the_first_player() -> None:
    state = load("chess").new()
    assert state.spiel.current_player() == 1
    assert state.to_move is Player.FIRST
    assert "e4" in [state.format_move(m) for m in state.legal_moves()]


def test_a_turn_of_several_actions_is_one_move() -> None:
    state = load("amazons").new()
    moves = state.legal_moves()
    assert len(moves) == 2176
    assert all(isinstance(m, tuple) and len(m) == 3 for m in moves)
    after = state.play(moves[0])
    assert after.to_move is Player.SECOND
    assert after.spiel.current_player() == 1


def test_notation_round_trips_and_bad_input_is_one_clear_error() -> None:
    game = load("tic_tac_toe")
    state = game.parse("4 o(0,0)")
    assert state.notation() == "4 0"
    assert game.parse(state.notation()) == state
    assert state.parse_move("x(2,2)") == 8
    assert state.parse_move("8") == 8
    with pytest.raises(ParseError, match="expected one of"):
        state.parse_move("z(9,9)")
    with pytest.raises(IllegalMoveError):
        state.play(4)
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.parse("4 4")
    with pytest.raises(UnknownGameError, match="unknown OpenSpiel game"):
        load("no_such_game")
    with pytest.raises(UnknownGameError, match="hex"):
        load("hex(board_size=")
    with pytest.raises(ParseError, match="unknown parameter 'foo'"):
        load("tic_tac_toe(foo=1)")
    with pytest.raises(ParseError, match="expected a whole number from 2 to 13"):
        load("hex(board_size=0)")
    with pytest.raises(ParseError, match="expected a whole number from 4 to 10"):
        load("connect_four(rows=1000000)")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
@example("²")  # a digit to str.isdigit, not to int()
@example("4 0 99999999999999999999")
def test_fuzz_position_and_move_text(text: str) -> None:
    game = load("tic_tac_toe")
    try:
        state = game.parse(text)
    except ZermeloError:
        state = game.new()
    with contextlib.suppress(ZermeloError):
        state.parse_move(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_fuzz_game_names(text: str) -> None:
    with contextlib.suppress(ZermeloError):
        load(text)


def test_registry_resolves_openspiel_names() -> None:
    spec = get_game("openspiel:hex(board_size=3)")
    assert spec.name == "openspiel:hex(board_size=3)"
    result = alphabeta(spec.new())
    # The first player wins 3x3 hex with its third stone (the fifth ply), starting in the centre.
    assert result.exact and result.value == WIN - 5 and result.move == 4


def test_without_the_extra_one_line_names_it() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from zermelo.games.registry import get_game\n"
        "try:\n    get_game('openspiel:breakthrough')\n"
        "except Exception as error:\n    print(type(error).__name__, error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "MissingExtraError an OpenSpiel game needs the 'openspiel' extra: "
        "pip install 'zermelo[openspiel]'"
    )
