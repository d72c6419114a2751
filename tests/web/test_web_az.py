"""The learned level (az) on the web: listed for the games whose record ships a net, played in
the search processes with the library's own az player (never the game's own engine), and refused
in one line for a game without a net. The game with a net is the test plugin ``aztoe``
(tests/azplugin.py), so that these tests hold whatever nets the real games ship; a real game
whose record ships one is played too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import azplugin
from zermelo.agents.spec import learned_games, make_agent
from zermelo.games.registry import get_game
from zermelo.ui.web import create_app

LOCAL = "http://127.0.0.1"
BUDGET = {"time_ms": 3000}
"""The most time a request may take (MAX_TIME): 200 simulations take a fraction of it. The move is asked of the search process,
and a budget run out would answer with the degraded quick move instead."""


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application with the plugin, which its search processes load too."""
    root = azplugin.install(tmp_path_factory.mktemp("aztoe"))
    with azplugin.on_path(root), TestClient(create_app(), base_url=LOCAL) as client:
        yield client


def _reference(game: str, moves: list[str], seed: int) -> str:
    """The move of the library's az level (the shipped net, 200 simulations) after ``moves``."""
    spec = get_game(game)
    state = spec.new()
    for text in moves:
        state = state.play(state.parse_move(text))
    agent = make_agent(spec, "az", seed=seed)
    return state.format_move(agent.choose(state))


def test_the_games_list_offers_az_where_the_record_ships_a_net(shared: TestClient) -> None:
    games = {game["name"]: game for game in shared.get("/api/games").json()["games"]}
    assert azplugin.NAME in learned_games()
    for name, game in games.items():
        expected = ["easy", "medium", "hard"]
        if get_game(name).learned is not None:
            expected.append("az")
        assert game["levels"] == expected, name
    assert games[azplugin.NAME]["levels"][-1] == "az"
    assert "az" not in games["chess"]["levels"]


@pytest.mark.parametrize(
    ("game", "moves", "seed"),
    [(azplugin.NAME, ["4"], 3), (azplugin.NAME, [], 8), (azplugin.NAME, ["0", "4"], 5)],
)
def test_the_ai_plays_the_shipped_nets_move(
    shared: TestClient, game: str, moves: list[str], seed: int
) -> None:
    body = {"game": game, "moves": moves, "level": "az", "seed": seed, "budget": BUDGET}
    answer = shared.post("/api/play", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["degraded"] is False
    assert data["moves"][: len(moves)] == moves
    assert data["moves"][len(moves)] == _reference(game, moves, seed)
    thinking = data["thinking"]
    assert thinking["move"] == data["moves"][len(moves)]
    assert (thinking["simulations"], thinking["nodes"]) == (200, 200)
    assert thinking["value"]["exact"] is False and -1 <= thinking["value"]["score"] <= 1


def test_a_game_without_a_net_refuses_az_in_one_line(shared: TestClient) -> None:
    answer = shared.post("/api/play", json={"game": "chess", "moves": [], "level": "az"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["type"] == "ParseError"
    games = ", ".join(learned_games())
    assert azplugin.NAME in games
    assert (
        error["english"]
        == f"chess has no learned net, so no level az: the games with one are {games}"
    )
    assert "\n" not in error["message"]


def test_an_unknown_level_names_az_among_the_levels(shared: TestClient) -> None:
    answer = shared.post("/api/play", json={"game": "tictactoe", "moves": [], "level": "AZ"})
    assert answer.status_code == 400
    assert answer.json()["error"]["english"] == (
        "unknown level 'AZ': expected one of easy, medium, hard, az"
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from([azplugin.NAME, "tictactoe", "chess", "connect4"]),
    level=st.sampled_from(["az", "az:sims=5", "hard", "", "Az", 7, None, ["az"]]),
    ai=st.booleans(),
)
def test_fuzz_levels_answer_a_move_or_one_line(
    shared: TestClient, game: str, level: Any, ai: bool
) -> None:
    body = {"game": game, "moves": [], "level": level, "ai": ai, "budget": {"time_ms": 200}}
    answer = shared.post("/api/play", json=body)
    offered = level == "hard" or (level == "az" and get_game(game).learned is not None)
    if offered:
        assert answer.status_code == 200, answer.text
        assert len(answer.json()["moves"]) == (1 if ai else 0)
    else:
        # The level is checked against the game even when the AI is not asked to move.
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert set(error) == {"type", "message", "english"}
        assert error["type"] == "ParseError"
        assert "\n" not in error["english"]


def test_a_game_with_its_own_engine_plays_az_with_the_net_not_the_engine() -> None:
    """Connect Four's web engine (its solver and book) answers the other levels; the learned
    level is the net's search, whatever the engine would play."""
    import dataclasses

    from tests.agents.fakenet import FAKE

    from zermelo.core.record import Ref
    from zermelo.ui.web.adapters import _adapter

    spec = dataclasses.replace(get_game("connect4"), learned=Ref("tests.agents.fakenet:FAKE"))
    adapter = _adapter(spec)
    assert adapter.engine is not None
    state = spec.new().play(3).play(3)
    calls = FAKE.calls
    choice = adapter.ai_choice(state, "az", 4, 1.0)
    assert FAKE.calls > calls
    assert choice.result is not None and choice.result.stats.nodes == 200
    assert choice.move == make_agent(spec, "az", seed=4).choose(state)
