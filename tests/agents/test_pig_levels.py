"""Pig's levels: hold at 20, the depth-limited *-minimax engine, and the solved optimal policy;
the generic engine searches a chance game by expectiminimax."""

from __future__ import annotations

import pytest

from zermelo.agents.engine import CHANCE_DEPTH, EngineAgent
from zermelo.agents.levels import make_agent
from zermelo.agents.pig import HoldAtAgent, OptimalAgent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError
from zermelo.core.state import Player
from zermelo.games.pig import PigState
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search.expectimax import chance_analysis, star_minimax
from zermelo.solvers.pig import best_move, solve


def test_easy_holds_at_20_or_when_holding_wins() -> None:
    easy = make_agent("pig", "easy")
    assert isinstance(easy, HoldAtAgent) and easy.name == "easy"
    assert easy.choose(PigState.parse("0 0 19 X")) == "roll"
    assert easy.choose(PigState.parse("0 0 20 X")) == "hold"
    assert easy.choose(PigState.parse("95 0 5 X")) == "hold"
    assert easy.choose(PigState.parse("10 95 4 O")) == "roll"


def test_medium_is_star2_to_six_edges() -> None:
    medium = make_agent("pig", "medium", seed=3)
    assert isinstance(medium, EngineAgent) and medium.depth == 6
    for text in ("0 0 0 X", "40 80 12 O", "70 30 25 X", "97 50 0 X"):
        state = PigState.parse(text)
        assert medium.choose(state) == star_minimax(state, 6).move


def test_hard_plays_the_solved_policy() -> None:
    hard = make_agent("pig", "hard")
    assert isinstance(hard, OptimalAgent)
    table = solve(20, 6)
    for own in range(0, 20, 3):
        for turn in range(0, 20 - own, 2):
            state = PigState(own, 7, turn, Player.SECOND, False, 20, 6)
            assert hard.choose(state) == best_move(table, state)


def test_levels_refuse_chance_nodes_other_games_and_finished_games() -> None:
    rolling = PigState.parse("0 0 4 X roll")
    for level in ("easy", "medium", "hard"):
        with pytest.raises(IllegalMoveError, match="the dice decide"):
            make_agent("pig", level).choose(rolling)
    with pytest.raises(IllegalMoveError, match="game is over"):
        make_agent("pig", "easy").choose(PigState.parse("100 3 0 O"))
    with pytest.raises(InvalidPositionError, match="Pig only"):
        make_agent("pig", "hard").choose(TicTacToeState.initial())


def test_the_generic_engine_searches_chance_games_by_expectiminimax() -> None:
    state = PigState.parse("30 50 14 X goal=60")
    engine = EngineAgent()
    assert engine.choose(state) == star_minimax(state, CHANCE_DEPTH).move
    assert engine.last is not None and engine.last.stats.nodes > 1
    noisy = EngineAgent(depth=4, noise=0.0001, seed=1)
    assert noisy.choose(state) == chance_analysis(state, 4).best
