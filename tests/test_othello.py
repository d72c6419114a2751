"""Othello: the published perft counts, the rules against OpenSpiel's othello move for move, the
notation, and the game in every face (it was added touching only its own file, one registry line
and the catalogs)."""

from __future__ import annotations

import random

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from zermelo.agents import make_agent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.state import Player
from zermelo.games.othello import PASS, OthelloState, perft
from zermelo.games.registry import get_game

START = OthelloState.initial()


def test_perft_matches_the_published_counts() -> None:
    # OEIS A124004: Reversi games after n plies.
    assert [perft(START, depth) for depth in range(7)] == [1, 4, 12, 56, 244, 1396, 8200]


def test_the_first_moves_and_a_flip() -> None:
    assert sorted(START.format_move(m) for m in START.legal_moves()) == ["c4", "d3", "e6", "f5"]
    after = START.play(START.parse_move("d3"))
    assert after.to_move is Player.SECOND and after.ply == 1
    assert after.cell(after.parse_move("d4")) == "B"  # d4 was White's, turned over
    assert after.black.bit_count() == 4 and after.white.bit_count() == 1
    with pytest.raises(IllegalMoveError, match="a1 turns over no disc"):
        after.play(after.parse_move("a1"))
    with pytest.raises(IllegalMoveError, match="pass is only legal"):
        START.play(PASS)


def test_a_side_without_a_move_passes_and_the_game_ends_when_neither_can_move() -> None:
    # From a random game: Black, to move, has no square that turns a White disc; White has.
    position = OthelloState.parse(
        ".B........B......BBB.B.....BBB....BBBB.W...BBBWW....BBWW...BBWWW B"
    )
    assert position.legal_moves() == [PASS] and not position.is_terminal()
    with pytest.raises(IllegalMoveError):
        position.play(position.parse_move("a1"))
    passed = position.play(PASS)
    assert passed.to_move is Player.SECOND and passed.legal_moves() != [PASS]
    full = OthelloState.parse("B" * 40 + "W" * 24 + " W")
    assert full.is_terminal() and full.winner is Player.FIRST and full.legal_moves() == []
    even = OthelloState.parse("B" * 32 + "W" * 32 + " B")
    assert even.is_terminal() and even.winner is None


def _spiel_game(seed: int) -> None:
    rng = random.Random(seed)
    game = pyspiel.load_game("othello")
    theirs = game.new_initial_state()
    ours = START
    while not theirs.is_terminal():
        assert not ours.is_terminal()
        assert sorted(ours.legal_moves()) == sorted(theirs.legal_actions())
        assert int(ours.to_move) == theirs.current_player()
        action = rng.choice(theirs.legal_actions())
        theirs.apply_action(action)
        ours = ours.play(action)
    assert ours.is_terminal() and ours.legal_moves() == []
    returns = theirs.returns()
    expected = None if returns[0] == 0 else Player.FIRST if returns[0] > 0 else Player.SECOND
    assert ours.winner == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_agree_with_openspiels_othello_move_for_move(seed: int) -> None:
    _spiel_game(seed)


@given(st.text(max_size=80))
def test_parsing_text_gives_a_state_or_one_parse_error(text: str) -> None:
    try:
        state = OthelloState.parse(text)
    except (ParseError, InvalidPositionError) as error:
        assert "\n" not in str(error)
    else:
        assert OthelloState.parse(state.notation()) == state


@given(st.text(max_size=8))
def test_parsing_a_move_gives_a_square_or_one_parse_error(text: str) -> None:
    try:
        move = START.parse_move(text)
    except ParseError as error:
        assert repr(text) in str(error)
    else:
        assert START.parse_move(START.format_move(move)) == move


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_legal_moves_to_the_end(level: str) -> None:
    agents = {
        Player.FIRST: make_agent("othello", level, seed=1, time_limit=0.02),
        Player.SECOND: make_agent("othello", "random", seed=2),
    }
    state = START
    while not state.is_terminal():
        move = agents[state.to_move].choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
    assert state.black.bit_count() + state.white.bit_count() <= 64


def test_the_medium_level_beats_random_play() -> None:
    wins = 0
    for seed in range(4):
        sides = {
            Player.FIRST: make_agent("othello", "medium", seed=seed),
            Player.SECOND: make_agent("othello", "random", seed=100 + seed),
        }
        state = START
        while not state.is_terminal():
            state = state.play(sides[state.to_move].choose(state))
        wins += state.winner is Player.FIRST
    assert wins >= 3


def test_the_faces_play_analyze_explain_and_count_it() -> None:
    spec = get_game("reversi")
    assert spec.name == "othello" and spec.perft and spec.explainer and spec.codec
    done = run_cli("perft", "othello", "--depth", "5")
    assert done.returncode == 0 and "perft 5: 1,396 leaves" in done.stdout
    shown = run_cli("explain", "othello", "d3 c5")
    assert shown.returncode == 0 and "mobility" in shown.stdout and "+5" in shown.stdout
    valued = run_cli("analyze", "othello", "d3", "--depth", "2")
    assert valued.returncode == 0 and "Best move:" in valued.stdout
    game = run_cli("play", "othello", "--first", "human", "--once", "--seed", "1", stdin="d3\n")
    assert "Welcome to Othello!" in game.stdout and "Last move: d3" in game.stdout
    assert "Traceback" not in game.stderr
