"""The arena's agents on the big games: the games' own levels and MCTS with the game's defaults."""

from __future__ import annotations

import pytest

from zermelo.agents import MctsAgent
from zermelo.agents.gomoku import GomokuAgent
from zermelo.agents.spec import parse_agent
from zermelo.games.registry import get_game


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_gomoku_levels_are_the_threat_engine(level: str) -> None:
    agent = parse_agent(f"{level}:time=0.05").build("gomoku", seed=1)
    assert isinstance(agent, GomokuAgent)
    assert agent.player.time_limit == 0.05
    state = get_game("gomoku").new()
    state = state.play(state.parse_move("h8"))
    assert agent.choose(state) in state.legal_moves()


def test_mcts_on_gomoku_uses_the_game_defaults() -> None:
    agent = parse_agent("mcts:iterations=20").build("gomoku", seed=1)
    assert isinstance(agent, MctsAgent)
    assert (agent.search.cutoff, agent.search.eval_scale, agent.search.exploration) == (
        0,
        100.0,
        0.1,
    )
    state = get_game("gomoku").new()
    state = state.play(state.parse_move("h8"))
    assert agent.choose(state) in state.candidate_moves()
