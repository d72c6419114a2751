"""The learned player written as text: ``az``, ``az:sims=N``, ``az:sims=N,net=PATH``."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.spec import (
    AZ,
    DEFAULT_SIMS,
    FORMS,
    MAX_SIMS,
    AgentSpec,
    check_level,
    levels_for,
    parse_agent,
)
from zermelo.core.errors import ParseError
from zermelo.games.registry import get_game


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
