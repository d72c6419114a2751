"""Backgammon's level agents play whole games through the rules, cube decisions included."""

from __future__ import annotations

import random
from typing import cast

import numpy as np
import pytest

from zermelo.agents.backgammon import NetAgent, easy, hard, medium
from zermelo.core.errors import IllegalMoveError
from zermelo.core.record import LevelFactory, Ref
from zermelo.core.state import sample_outcome
from zermelo.games.backgammon import SPEC, BackgammonState
from zermelo.games.backgammon.state import BackgammonMove, Phase, Roll
from zermelo.games.tictactoe import SPEC as TICTACTOE
from zermelo.solvers.backgammon import fast
from zermelo.solvers.backgammon.net import trained_net

pytestmark = pytest.mark.skipif(not fast.COMPILED, reason="the engine's agents run compiled")


def play(first: NetAgent, second: NetAgent, seed: int, cube: bool) -> tuple[float, set[str]]:
    rng = random.Random(seed)
    state = BackgammonState.initial(cube=cube)
    seen: set[str] = set()
    for _ in range(3000):
        if state.is_terminal():
            return state.payoff(), seen
        if state.is_chance():
            state = state.play(cast(BackgammonMove, sample_outcome(state, rng)))
            continue
        agent = first if state.to_move.value == 0 else second
        move = cast(BackgammonMove, agent.choose(state))
        assert move in state.legal_moves()
        if isinstance(move, str):
            seen.add(move)
        state = state.play(move)
    raise AssertionError("the game did not end")


def test_the_levels_play_a_cubeful_game_to_the_end() -> None:
    payoff, seen = play(medium(None, None), easy(None, None), 3, cube=True)  # type: ignore[arg-type]
    assert payoff != 0.0
    assert seen & {"roll", "double"}


def test_hard_plays_a_cubeless_game() -> None:
    payoff, seen = play(hard(None, None), medium(None, None), 5, cube=False)  # type: ignore[arg-type]
    assert payoff in (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)
    assert not seen


def test_the_record_names_the_net_levels() -> None:
    for level in ("easy", "medium", "hard"):
        ref = SPEC.levels[level]
        assert isinstance(ref, Ref)
        factory: LevelFactory = ref.resolve()
        agent = factory(1, None)
        assert isinstance(agent, NetAgent)
        assert agent.name == level


def test_the_cube_answers_follow_the_net() -> None:
    agent = NetAgent(trained_net(), 1)
    board = np.zeros(28, dtype=np.int8)
    # X bears off from its ace point while O's checkers are all on O's 23 point: a sure gammon,
    # too good to double; a double there is dropped
    board[1] = 15
    board[2] = -15
    position = BackgammonState(board.tobytes(), phase=Phase.DECIDE)
    assert agent.choose(position) == "roll"
    doubled = position.play("double")
    assert doubled.phase is Phase.DOUBLED
    assert agent.choose(doubled) == "drop"


def test_another_game_is_refused_in_one_line() -> None:
    with pytest.raises(IllegalMoveError, match="backgammon"):
        NetAgent(trained_net()).choose(TICTACTOE.new())


def test_the_analysis_values_every_play_best_first() -> None:
    from zermelo.core.limits import Limits
    from zermelo.solvers.backgammon.analysis import ANALYSIS

    state = BackgammonState.initial(cube=False).play(Roll(3, 1))
    result = ANALYSIS.analyze(state, Limits(depth=1))
    assert len(result.moves) == len(state.legal_moves()) == 16
    assert [m.value for m in result.moves] == sorted((m.value for m in result.moves), reverse=True)
    assert state.format_move(cast(BackgammonMove, result.move)) == "8/5 6/5"
    deep = ANALYSIS.analyze(state, Limits())
    assert deep.depth == 2 and state.format_move(cast(BackgammonMove, deep.move)) == "8/5 6/5"
    before = ANALYSIS.analyze(BackgammonState.initial(cube=False), Limits())
    assert len(before.moves) == 30 and abs(before.value) < 0.05  # the opening is even


def test_a_player_never_chooses_the_dice() -> None:
    with pytest.raises(IllegalMoveError, match="referee"):
        hard(None, None).choose(BackgammonState.initial())


def test_gnubg_is_an_agent_spec_for_backgammon_only() -> None:
    from zermelo.agents.spec import parse_agent
    from zermelo.core.errors import InvalidOptionError, ParseError

    spec = parse_agent("gnubg:plies=1")
    assert spec.kind == "gnubg" and spec.label == "gnubg:plies=1"
    assert parse_agent("gnubg").label == "gnubg"
    with pytest.raises(ParseError, match="unknown option"):
        parse_agent("gnubg:depth=2")
    with pytest.raises(InvalidOptionError, match="backgammon only") as caught:
        spec.build("tictactoe")
    assert "\n" not in str(caught.value)
