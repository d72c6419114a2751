"""OpenSpiel games in the browser's API: the text board, moves in OpenSpiel's notation, the AI's
replies and the thinking overlay's values."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from zermelo.core.errors import UnknownGameError
from zermelo.ui.web import create_app

GAME = "openspiel:tic_tac_toe"


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(games=[GAME, "openspiel:amazons"])
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


def test_the_page_lists_the_games_asked_for_with_a_text_board(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert "tictactoe" in games
    game = games[GAME]
    assert game["kind"] == "grid"
    assert game["title"] == "Tic Tac Toe"
    initial = game["initial"]
    assert initial["board"]["cells"] == [[".", ".", "."]] * 3
    assert initial["legal"][:2] == ["x(0,0)", "x(0,1)"]
    assert initial["to_move"] == "x"  # the game's own drawing names its sides


def test_a_move_and_the_perfect_reply(client: TestClient) -> None:
    answer = client.post(
        "/api/play", json={"game": GAME, "moves": [], "move": "x(1,1)", "ai": True, "seed": 1}
    ).json()
    assert answer["moves"][0] == "x(1,1)"
    assert answer["moves"][1] in ("o(0,0)", "o(0,2)", "o(2,0)", "o(2,2)")  # only corners draw
    assert answer["board"]["cells"][1] == [".", "x", "."]


def test_analysis_values_every_move(client: TestClient) -> None:
    answer = client.post("/api/analyze", json={"game": GAME, "moves": ["x(1,1)"]}).json()
    values = {entry["move"]: entry["value"]["kind"] for entry in answer["moves"]}
    assert values == {
        "o(0,0)": "draw", "o(0,2)": "draw", "o(2,0)": "draw", "o(2,2)": "draw",
        "o(0,1)": "loss", "o(1,0)": "loss", "o(1,2)": "loss", "o(2,1)": "loss",
    }  # fmt: skip


def test_a_long_move_of_a_compound_turn_is_accepted(client: TestClient) -> None:
    state = client.post("/api/state", json={"game": "openspiel:amazons", "moves": []}).json()
    first = state["legal"][0]
    assert len(first) > 16
    after = client.post("/api/state", json={"game": "openspiel:amazons", "moves": [first]}).json()
    assert after["moves"] == [first] and after["to_move"] == "O"


def test_bad_moves_and_unfit_games_are_one_error(client: TestClient) -> None:
    response = client.post("/api/state", json={"game": GAME, "moves": ["x(9,9)"]})
    assert response.status_code == 400
    assert "expected one of" in response.json()["error"]["message"]
    # kuhn_poker loads since chance and hidden information do; simultaneous moves still do not.
    response = client.post("/api/state", json={"game": "openspiel:goofspiel", "moves": []})
    assert response.status_code == 400
    assert "sequential moves" in response.json()["error"]["message"]


def test_a_bad_game_name_stops_the_server_before_it_starts() -> None:
    with pytest.raises(UnknownGameError):
        create_app(games=["openspiel:no_such_game"])
