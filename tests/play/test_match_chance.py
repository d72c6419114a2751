"""The match loop with chance nodes: the dice come from the game's seed and never from an agent,
records keep them as moves and replay, scored games keep their payoff, and the arena's points."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.base import RandomAgent
from zermelo.agents.pig import HoldAtAgent
from zermelo.core.errors import InvalidPositionError, ParseError
from zermelo.core.state import AnyState, is_chance
from zermelo.games.pig import PigState
from zermelo.play.match import CHANCE, GameOver, GameRecord, MovePlayed, play_game, replay, run_game
from zermelo.play.tournament import pair_points


class Watching:
    """Holds at a turn total, and remembers every state it was asked about."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inner = HoldAtAgent(8)
        self.asked: list[AnyState] = []

    def choose(self, state: AnyState) -> Hashable:
        self.asked.append(state)
        return self.inner.choose(state)


def test_the_dice_come_from_the_seed_and_no_agent_is_asked_at_a_chance_node() -> None:
    agents = (Watching("a"), Watching("b"))
    events = list(play_game(PigState.initial(goal=30), agents, game="pig", seed=11))
    *moves, end = events
    assert isinstance(end, GameOver)
    rolls = [e for e in moves if isinstance(e, MovePlayed) and e.agent == CHANCE]
    assert rolls and all(e.notation in "123456" for e in rolls)
    assert not any(is_chance(s) for agent in agents for s in agent.asked)
    record = end.record
    assert record.payoff is None  # Pig is scored by its winner
    assert replay(record)[-1] == end.state
    # The same seed gives the same dice whoever plays; another seed other dice.
    again = run_game(PigState.initial(goal=30), (Watching("a"), Watching("b")), game="pig", seed=11)
    assert again.moves == record.moves
    other = run_game(PigState.initial(goal=30), (Watching("a"), Watching("b")), game="pig", seed=12)
    assert other.moves != record.moves
    # Agents' own randomness never touches the dice: random agents of any seed see seed 11's
    # first roll.
    first_roll = next(e.notation for e in rolls)
    for agent_seed in (1, 2, 3):
        wild = run_game(
            PigState.initial(goal=30),
            (RandomAgent(agent_seed, "x"), RandomAgent(agent_seed + 10, "y")),
            game="pig",
            seed=11,
        )
        if wild.moves[0] == "roll":
            assert wild.moves[1] == first_roll


def test_a_record_with_a_payoff_round_trips_and_old_records_still_read() -> None:
    record = run_game(PigState.initial(goal=20), (Watching("a"), Watching("b")), game="pig", seed=3)
    record = dataclasses.replace(record, times=())  # JSON rounds the seconds
    scored = dataclasses.replace(record, payoff=2.0 if record.result == "1-0" else -2.0)
    text = scored.to_json()
    assert '"payoff":' in text
    assert GameRecord.from_json(text) == scored
    assert '"payoff"' not in record.to_json()
    assert GameRecord.from_json(record.to_json()).payoff is None
    for bad in ('"x"', "1e12", "true", "1e999"):
        with pytest.raises(ParseError, match=r"'payoff' must be a finite number|out of range"):
            GameRecord.from_json(text.replace(f'"payoff":{scored.payoff}', f'"payoff":{bad}'))
    # A payoff the moves do not give is refused by replay (Pig's payoff is the winner's 1).
    with pytest.raises(InvalidPositionError, match=r"won -?2 points but its moves end in -?1"):
        replay(scored)
    assert replay(dataclasses.replace(record, payoff=1.0 if record.result == "1-0" else -1.0))


def test_points_per_game_with_an_interval() -> None:
    base = GameRecord("pig", "", (), "1-0", ("a", "b"))
    records = [
        dataclasses.replace(base, payoff=2.0),
        dataclasses.replace(base, players=("b", "a"), result="0-1", payoff=-1.0),
        dataclasses.replace(base, result="0-1", payoff=-3.0),
        dataclasses.replace(base, players=("b", "a"), payoff=1.0),
    ]
    assert [r.points_of("a") for r in records] == [2.0, 1.0, -3.0, -1.0]
    tally = pair_points(records)[("a", "b")]
    assert tally.games == 4 and tally.per_game == pytest.approx(-0.25)
    sd = (sum((p + 0.25) ** 2 for p in (2.0, 1.0, -3.0, -1.0)) / 3) ** 0.5
    assert tally.margin == pytest.approx(1.96 * sd / 2)
    assert tally.describe() == f"-0.250 [{-0.25 - tally.margin:+.3f}, {-0.25 + tally.margin:+.3f}]"
    # Without payoffs, a win is 1 and a loss -1.
    assert dataclasses.replace(base, players=("b", "a")).points_of("a") == -1.0


def test_mcts_and_engine_agents_play_pig_to_the_end() -> None:
    from zermelo.agents.spec import parse_agent

    agents = [
        parse_agent("mcts:iterations=100").build("pig", 1),
        parse_agent("engine:depth=4").build("pig", 2),
    ]
    record = run_game(PigState.initial(goal=25), agents, game="pig", seed=5)
    assert replay(record)[-1].is_terminal()


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**12), 10**12),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
        st.lists(st.integers(), max_size=2),
    )
)
def test_fuzz_the_payoff_field(payoff: object) -> None:
    import json

    data = json.loads(GameRecord("pig", "", (), "1-0", ("a", "b")).to_json())
    data["payoff"] = payoff
    try:
        text = json.dumps(data)
    except ValueError:
        return
    try:
        record = GameRecord.from_json(text)
    except ParseError as error:
        assert "\n" not in str(error)
    else:
        assert record.payoff is None or (
            isinstance(record.payoff, float) and abs(record.payoff) <= 1e9
        )
        assert GameRecord.from_json(record.to_json()) == record
