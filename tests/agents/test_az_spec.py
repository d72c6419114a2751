"""The learned player written as text: ``az``, ``az:sims=N``, ``az:sims=N,net=PATH``."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.az import AzAgent
from zermelo.agents.base import Reports
from zermelo.agents.spec import (
    AZ,
    DEFAULT_SIMS,
    FORMS,
    MAX_SIMS,
    AgentSpec,
    check_level,
    levels_for,
    make_agent,
    parse_agent,
)
from zermelo.core.errors import CapabilityError, InvalidOptionError, ParseError
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState


@pytest.mark.parametrize(
    ("text", "label", "options"),
    [
        ("az", "az", ()),
        (" AZ ", "az", ()),
        ("az:sims=50", "az:sims=50", (("sims", 50),)),
        ("az:net=nets/C4.npz,sims=7", "az:sims=7,net=nets/C4.npz", (("sims", 7), ("net", "nets/C4.npz"))),
        ("az:sims=100000", "az:sims=100000", (("sims", 100_000),)),
        ("az: net = /tmp/a=b.npz ", "az:net=/tmp/a=b.npz", (("net", "/tmp/a=b.npz"),)),
    ],
)  # fmt: skip
def test_az_forms_and_canonical_labels(text: str, label: str, options: tuple[object, ...]) -> None:
    spec = parse_agent(text)
    assert (spec.kind, spec.options, spec.label) == (AZ, options, label)
    assert parse_agent(spec.label) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("az:sims=0", "sims='0' is not valid, sims must be a whole number"),
        ("az:sims=-3", "sims='-3' is not valid, sims must be a whole number"),
        ("az:sims=2.5", "sims='2.5' is not valid, sims must be a whole number"),
        ("az:sims=100001", "sims='100001' is too large, sims must be at most 100,000"),
        (
            "az:sims=99999999999999999999",
            "sims='99999999999999999999' is too large, sims must be at most 100,000",
        ),
        ("az:net=", "net= is empty, net must be the path of a net exported by zermelo learn"),
        ("az:iterations=5", "unknown option 'iterations' for az (its options: sims, net)"),
        ("az:sims=5,sims=6", "option 'sims' is given twice"),
        ("az:", "nothing after ':'"),
        ("az:sims", "option 'sims' has no value"),
    ],
)
def test_bad_az_specs_say_what_is_wrong_in_one_line(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_agent(text)
    message = str(caught.value)
    assert message.startswith(f"bad agent {text!r}: {problem}")
    assert "az[:sims=N][,net=PATH]" in message
    assert "\n" not in message


def test_the_forms_name_az() -> None:
    assert FORMS.endswith("az[:sims=N][,net=PATH]")
    assert (DEFAULT_SIMS, MAX_SIMS) == (200, 100_000)


def test_the_levels_offer_az_only_where_the_record_ships_a_net() -> None:
    import dataclasses

    from zermelo.core.record import Ref

    chess = get_game("chess")
    assert levels_for(chess) == ("easy", "medium", "hard")
    learned = dataclasses.replace(chess, learned=Ref("tests.agents.fakenet:FAKE"))
    assert levels_for(learned) == ("easy", "medium", "hard", "az")
    check_level(learned, "az")
    check_level(chess, "hard")
    with pytest.raises(ParseError) as caught:
        check_level(chess, "az")
    assert str(caught.value).startswith("chess has no learned net, so no level az: the games ")


@pytest.fixture(scope="module")
def ttt_net(tmp_path_factory: pytest.TempPathFactory) -> str:
    from tests.agents.fakenet import write_net

    return str(write_net(tmp_path_factory.mktemp("nets") / "ttt.npz", "tictactoe", seed=1))


def test_az_with_a_net_file_plays_with_the_simulations_asked(ttt_net: str) -> None:
    from zermelo.agents.az import AzAgent, Net

    spec = parse_agent(f"az:sims=40,net={ttt_net}")
    agent = spec.build("tictactoe", seed=3)
    assert isinstance(agent, AzAgent)
    assert agent.name == spec.label and agent.sims == 40
    assert isinstance(agent, Reports) and agent.last is None
    state = TicTacToeState.initial()
    move = agent.choose(state)
    assert agent.last is not None
    assert (agent.last.move, agent.last.stats.nodes) == (move, 40)
    # The same move as the library's player on the same net.
    reference = AzAgent(Net.load(ttt_net), sims=40, seed=3)
    assert reference.choose(state) == move
    assert pickle.loads(pickle.dumps(spec)).build("tictactoe", seed=3).choose(state) == move


def test_the_default_is_200_simulations(ttt_net: str) -> None:
    agent = parse_agent(f"az:net={ttt_net}").build("tictactoe", seed=0)
    assert isinstance(agent, AzAgent)
    agent.choose(TicTacToeState.initial())
    assert agent.sims == 200 and agent.last is not None and agent.last.stats.nodes == 200


def test_bad_net_files_get_one_line_each(ttt_net: str, tmp_path: Path) -> None:
    text = tmp_path / "notes.npz"
    text.write_text("not a net\n")
    import numpy as np

    bare = tmp_path / "bare.npz"
    np.savez(bare, weights=np.zeros(3))
    cases = {
        str(tmp_path / "missing.npz"): f"{tmp_path / 'missing.npz'}: no such net file",
        str(tmp_path): f"{tmp_path}: not a zermelo net (IsADirectoryError)",
        str(text): f"{text}: not a zermelo net (ValueError)",
        str(bare): f"{bare}: not a zermelo net (it has no meta entry)",
    }
    for path, words in cases.items():
        with pytest.raises(InvalidOptionError) as caught:
            parse_agent(f"az:net={path}").build("tictactoe")
        assert str(caught.value) == f"agent 'az:net={path}' cannot use its net: {words}"
    with pytest.raises(InvalidOptionError) as other:
        AgentSpec(AZ, (("net", ttt_net),)).check("connect4")
    assert str(other.value) == (
        f"agent 'az:net={ttt_net}': the net {ttt_net} plays tictactoe, not connect4"
    )


def test_a_game_without_a_shipped_net_names_the_games_with_one() -> None:
    from zermelo.agents.spec import learned_games

    with pytest.raises(CapabilityError) as caught:
        AgentSpec(AZ).check("gomoku")
    games = ", ".join(learned_games()) or "none"
    assert str(caught.value) == (
        "agent 'az': gomoku ships no learned net; give net=PATH (a net exported by zermelo "
        f"learn), or play az at {games}"
    )
    AgentSpec("mcts", (("iterations", 5),)).check("gomoku")  # other kinds: checked when built


@pytest.mark.parametrize("sims", [0, -1, 100_001])
def test_a_hand_built_spec_with_too_many_or_few_simulations_is_refused(sims: int) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        AgentSpec(AZ, (("sims", sims),)).build("tictactoe")
    assert str(caught.value) == f"agent 'az:sims={sims}': sims={sims} must be from 1 to 100,000"


def test_the_level_az_is_the_records_net_with_200_simulations() -> None:
    import dataclasses

    from tests.agents.fakenet import FAKE

    from zermelo.core.record import Ref

    spec = dataclasses.replace(get_game("tictactoe"), learned=Ref("tests.agents.fakenet:FAKE"))
    agent = make_agent(spec, "az", seed=1)
    assert isinstance(agent, AzAgent)
    assert (agent.name, agent.sims, agent.net) == ("az", DEFAULT_SIMS, FAKE)
    calls = FAKE.calls
    assert agent.choose(TicTacToeState.initial()) in range(9)
    assert FAKE.calls > calls
    with pytest.raises(ParseError, match="gomoku has no learned net, so no level az"):
        make_agent("gomoku", "az")


_names = st.sampled_from(["sims", "net", "SIMS", "Net", "iterations", "", "s"])
_raws = st.one_of(
    st.integers(-5, 200_000).map(str),
    st.sampled_from(["", " ", "x", "1e3", "none", "nan", "2.5", "/tmp/a.npz", "a=b", "a:b"]),
    st.text(max_size=8),
)
_items = st.tuples(_names, st.sampled_from(["=", "", "=="]), _raws).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(["az", "AZ", " az", "az "]),
    items=st.lists(_items, max_size=4),
    colon=st.sampled_from([":", "", "::"]),
)
def test_fuzz_az_specs_parse_or_say_one_line(kind: str, items: list[str], colon: str) -> None:
    text = kind + colon + ",".join(items)
    try:
        spec = parse_agent(text)
    except ParseError as error:
        message = str(error)
        assert message.startswith(f"bad agent {text!r}: ")
        assert "\n" not in message.replace(text, "")
        return
    assert spec.kind == AZ
    assert parse_agent(spec.label) == spec
    options = dict(spec.options)
    assert set(options) <= {"sims", "net"}
    sims = options.get("sims")
    assert sims is None or (isinstance(sims, int) and 1 <= sims <= MAX_SIMS)
    net = options.get("net")
    assert net is None or (isinstance(net, str) and net == net.strip() and net)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_fuzz_any_text_is_an_agent_or_one_line(text: str) -> None:
    try:
        spec = parse_agent(text)
    except ParseError as error:
        assert str(error).startswith("bad agent ")
        return
    assert isinstance(spec, AgentSpec)
    assert parse_agent(spec.label) == spec
