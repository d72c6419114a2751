"""Agents written as text."""

from __future__ import annotations

import pickle

import pytest

from zermelo.agents import EngineAgent, MctsAgent, RandomAgent
from zermelo.agents.base import Reports
from zermelo.agents.spec import AgentSpec, make_agent, parse_agent
from zermelo.core.errors import InvalidOptionError, InvalidPositionError, ParseError
from zermelo.games.tictactoe import TicTacToeState


@pytest.mark.parametrize(
    ("text", "label", "kind"),
    [
        ("random", "random", RandomAgent),
        (" Hard ", "hard", EngineAgent),
        ("hard:time=1", "hard:time=1", EngineAgent),
        ("engine:depth=3", "engine:depth=3", EngineAgent),
        ("engine:time=0.5,depth=4", "engine:depth=4,time=0.5", EngineAgent),
        ("mcts", "mcts", MctsAgent),
        ("mcts:time=1", "mcts:time=1", MctsAgent),
        ("mcts:c=0.7,iterations=2000", "mcts:iterations=2000,c=0.7", MctsAgent),
        ("mcts:cutoff=none,reuse=no,playout=greedy", "mcts:cutoff=none,playout=greedy,reuse=no",
         MctsAgent),
    ],
)  # fmt: skip
def test_forms_and_canonical_labels(text: str, label: str, kind: type) -> None:
    spec = parse_agent(text)
    assert spec.label == label
    assert parse_agent(spec.label) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec
    agent = spec.build("tictactoe", seed=1)
    assert isinstance(agent, kind)
    assert agent.name == label


def test_options_reach_the_agent() -> None:
    agent = parse_agent("mcts:iterations=77,time=2").build("tictactoe", 0)
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.time_limit) == (77, 2.0)
    assert parse_agent("mcts").build("tictactoe", 0).iterations == 1000  # type: ignore[attr-defined]
    engine = parse_agent("engine:depth=3").build("tictactoe", 0)
    assert isinstance(engine, EngineAgent)
    assert engine.depth == 3


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("alphazero", "unknown kind 'alphazero'"),
        ("mcts:iters=3", "unknown option 'iters' for mcts"),
        ("random:time=1", "unknown option 'time' for random"),
        ("mcts:time", "has no value"),
        ("mcts:time=-1", "time must be a positive number"),
        ("mcts:iterations=0", "iterations must be a whole number"),
        ("mcts:iterations=2.5", "iterations must be a whole number"),
        ("engine:depth=x", "depth must be a whole number"),
        ("mcts:time=1,time=2", "given twice"),
        ("mcts:", "nothing after ':'"),
        ("mcts:time=nan", "time must be a positive number"),
    ],
)
def test_bad_specs_name_the_problem_and_the_forms(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_agent(text)
    message = str(caught.value)
    assert repr(text) in message
    assert problem in message
    assert "mcts:iterations=N" in message
    assert "\n" not in message


def test_spec_is_a_plain_value() -> None:
    assert AgentSpec("mcts", (("time", 1.0),)).label == "mcts:time=1"


def test_game_defaults_fill_what_the_spec_leaves_out() -> None:
    import dataclasses

    from zermelo.games.registry import get_game

    game = dataclasses.replace(get_game("tictactoe"), mcts={"cutoff": 2, "scale": 5.0})
    plain = parse_agent("mcts:time=1").build(game, 0)
    assert isinstance(plain, MctsAgent)
    assert (plain.search.cutoff, plain.search.eval_scale) == (2, 5.0)
    own = parse_agent("mcts:time=1,cutoff=none").build(game, 0)
    assert isinstance(own, MctsAgent)
    assert (own.search.cutoff, own.search.eval_scale) == (None, 5.0)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("mcts:iterations=99999999999", "iterations must be at most 10,000,000"),
        ("easy:time=1e300", "time must be at most 3,600"),
        ("engine:depth=100", "depth must be at most 99"),
        ("uci:cmd=x,elo=99999", "elo must be at most 4,000"),
    ],
)
def test_every_budget_an_agent_takes_is_bounded(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        parse_agent(text)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (AgentSpec("engine", (("depth", "3"),)), "option depth='3' must be int, not str"),
        (AgentSpec("engine", (("depth", True),)), "option depth=True must be int, not bool"),
        (AgentSpec("mcts", (("time", "1"),)), "option time='1' must be float, not str"),
        (AgentSpec("uci"), "a uci agent needs cmd=PATH"),
    ],
)
def test_a_hand_built_spec_with_a_wrong_value_gets_one_line(spec: AgentSpec, words: str) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        spec.build("tictactoe", seed=1)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_whole_number_serves_where_seconds_are_asked() -> None:
    agent = AgentSpec("engine", (("time", 2),)).build("tictactoe")
    assert isinstance(agent, EngineAgent)
    assert agent.time_limit == 2.0


@pytest.mark.parametrize("game", ["connect4", "gomoku"])
def test_a_games_own_levels_refuse_another_games_state(game: str) -> None:
    agent = make_agent(game, "easy", seed=1)
    with pytest.raises(InvalidPositionError, match="only, not TicTacToeState"):
        agent.choose(TicTacToeState.initial())


def test_searching_agents_report_their_last_search_and_random_does_not() -> None:
    engine = AgentSpec("engine").build("tictactoe")
    sampler = AgentSpec("mcts", (("iterations", 50),)).build("tictactoe", seed=1)
    state = TicTacToeState.initial()
    for agent in (engine, sampler):
        assert isinstance(agent, Reports)
        assert agent.last is None
        move = agent.choose(state)
        assert agent.last is not None and agent.last.move == move
    assert not isinstance(AgentSpec("random").build("tictactoe"), Reports)
