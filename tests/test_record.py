"""The game record: typed options, references, the registry and what front ends read from it."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zermelo.agents import EngineAgent, make_agent
from zermelo.core.errors import ParseError, UnknownGameError
from zermelo.core.record import LEVELS, BoolOption, GameSpec, Grid, IntOption, Ref
from zermelo.games.registry import all_games, game_names, get_game

WIDTH = IntOption("width", "number of columns", 4, 9, 7)
EXACT = BoolOption("exact", "only exactly k in a row wins")


def test_int_options_check_type_and_range() -> None:
    assert WIDTH.check(4) == 4 and WIDTH.check(9) == 9
    with pytest.raises(ParseError, match=r"option width=10: expected a number from 4 to 9"):
        WIDTH.check(10)
    with pytest.raises(ParseError, match="expected a whole number"):
        WIDTH.check(True)
    with pytest.raises(ParseError, match="expected a whole number"):
        WIDTH.check(7.0)
    assert WIDTH.parse(" 8 ") == 8
    assert WIDTH.describe() == {"type": "integer", "min": 4, "max": 9, "default": 7}


@given(st.text(max_size=20))
def test_parsing_an_int_option_gives_a_value_in_range_or_one_parse_error(text: str) -> None:
    try:
        value = WIDTH.parse(text)
    except ParseError as error:
        assert "\n" not in str(error) and "width=" in str(error)
    else:
        assert 4 <= value <= 9 and value == int(text.strip())


@given(st.text(max_size=10))
def test_parsing_a_bool_option_gives_a_bool_or_one_parse_error(text: str) -> None:
    try:
        value = EXACT.parse(text)
    except ParseError as error:
        assert "expected yes or no" in str(error)
    else:
        assert value is (text.strip().lower() in ("yes", "true", "1", "on"))


def test_a_record_checks_untrusted_options_against_its_declarations() -> None:
    spec = get_game("connect4")
    assert spec.check_options({"width": 8}) == {"width": 8}
    assert spec.check_options(None) == {}
    with pytest.raises(
        ParseError, match=r"unknown option 'k' for connect4: expected one of: width, height"
    ):
        spec.check_options({"k": 4})
    with pytest.raises(ParseError, match="expected an object"):
        spec.check_options([1, 2])


def test_a_record_refuses_what_cannot_work() -> None:
    with pytest.raises(ValueError, match="unknown levels"):
        GameSpec("x", "X", new=lambda: None, parse=str, levels={"expert": "engine"})
    with pytest.raises(ValueError, match="declared twice"):
        GameSpec("x", "X", new=lambda: None, parse=str, options=(WIDTH, WIDTH))
    with pytest.raises(ValueError, match="expected 'module:attribute'"):
        Ref("zermelo.agents")


def test_references_resolve_lazily() -> None:
    assert Ref("zermelo.core.record:LEVELS").resolve() == LEVELS
    assert Ref("zermelo.core.record:Grid.of").resolve() == Grid.of


def test_the_registry_lists_the_built_in_games_in_the_page_order() -> None:
    assert game_names()[:5] == ["tictactoe", "connect4", "gomoku", "mnk", "checkers"]
    assert [spec.name for spec in all_games()][:5] == game_names()[:5]
    assert get_game(" C4 ").name == "connect4"
    assert get_game("draughts").name == "checkers"
    assert get_game("m,n,k").name == "mnk"
    with pytest.raises(UnknownGameError, match="unknown game 'go': expected one of tictactoe"):
        get_game("go")
    # A near miss of a name or an alias names the game it probably means.
    with pytest.raises(UnknownGameError, match=r"^unknown game 'chees'; did you mean 'chess'\?$"):
        get_game("chees")
    with pytest.raises(UnknownGameError, match="did you mean 'connect4'"):
        get_game("connect-4")


def test_levels_are_read_from_the_record() -> None:
    spec = dataclasses.replace(
        get_game("tictactoe"),
        levels={"easy": "engine:depth=3,noise=0.5", "hard": "engine:time=2"},
    )
    easy = make_agent(spec, "easy", seed=1)
    assert isinstance(easy, EngineAgent) and (easy.depth, easy.noise) == (3, 0.5)
    assert easy.name == "easy"
    hard = make_agent(spec, "hard", time_limit=0.5)
    assert isinstance(hard, EngineAgent) and hard.time_limit == 0.5  # the asked time wins
    medium = make_agent(spec, "medium")  # not in the record: the generic level
    assert isinstance(medium, EngineAgent) and (medium.depth, medium.noise) == (2, 1.0)
    looping = dataclasses.replace(spec, levels={"easy": "hard"})
    with pytest.raises(ParseError, match="name an agent, not a level"):
        make_agent(looping, "easy")


def test_every_built_in_record_names_a_board_kind_the_front_ends_draw() -> None:
    from zermelo.ui.terminal.boards import VIEWS
    from zermelo.ui.web.adapters import KINDS

    for spec in all_games():
        if spec.new.__module__.startswith("zermelo."):
            assert spec.board in VIEWS and spec.board in KINDS, spec.name
        for ref in [v for v in spec.levels.values() if isinstance(v, Ref)]:
            assert callable(ref.resolve()), (spec.name, ref)
        if spec.web_engine is not None:
            engine = spec.web_engine.resolve()
            assert callable(engine.choose) and callable(engine.values)
        assert set(spec.levels) <= set(LEVELS)
