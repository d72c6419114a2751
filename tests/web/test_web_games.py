"""Connect Four and gomoku through the API: their grids, their moves, their engines."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.solvers.connect4 import web as solvers
from zermelo.ui.web import create_app

_APP = create_app()
LOCAL = "http://127.0.0.1"


def games(client: TestClient) -> dict[str, Any]:
    return {game["name"]: game for game in client.get("/api/games").json()["games"]}


# -- Connect Four ----------------------------------------------------------------------------------


def test_connect_four_is_a_drop_grid_of_seven_columns(client: TestClient) -> None:
    connect4 = games(client)["connect4"]
    assert connect4["kind"] == "drop"
    board = connect4["initial"]["board"]
    assert (board["width"], board["height"]) == (7, 6)
    assert board["columns"] == ["1", "2", "3", "4", "5", "6", "7"]
    assert "points" not in board
    assert connect4["options"] == {
        "width": {"type": "integer", "min": 4, "max": 8, "default": 7, "help": "number of columns"},
        "height": {"type": "integer", "min": 4, "max": 6, "default": 6, "help": "number of rows"},
    }


def test_discs_fall_to_the_lowest_free_cell_of_their_column(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "connect4", "moves": ["4", "4", "4"]}).json()
    cells = answer["board"]["cells"]
    assert [row[3] for row in cells] == [".", ".", ".", "X", "O", "X"]
    assert answer["last"] == [3, 3]
    assert answer["to_move"] == "O"


def test_a_full_column_and_a_column_off_the_board_are_refused(client: TestClient) -> None:
    full = client.post("/api/state", json={"game": "connect4", "moves": list("4444444")})
    assert full.status_code == 422
    assert full.json()["error"]["type"] == "IllegalMoveError"
    assert "move '4' (move 7) is illegal" in full.json()["error"]["message"]
    off = client.post("/api/state", json={"game": "connect4", "moves": ["8"]})
    assert off.status_code == 400
    assert "invalid column '8'" in off.json()["error"]["message"]
    size = client.post("/api/state", json={"game": "connect4", "options": {"width": 12}})
    assert size.status_code == 400
    assert "width=12" in size.json()["error"]["message"]


def test_easy_connect_four_answers_with_a_legal_disc(client: TestClient) -> None:
    answer = client.post(
        "/api/play", json={"game": "connect4", "moves": [], "move": "4", "level": "easy", "seed": 1}
    ).json()
    assert [p["by"] for p in answer["played"]] == ["you", "ai"]
    assert answer["board"]["cells"][5][3] == "X"
    assert sum(row.count("O") for row in answer["board"]["cells"]) == 1


def test_hard_connect_four_asks_the_exact_solver_and_wins_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    solvers.warm_up_connect4()
    asked: list[str] = []
    real_call = solvers._CONNECT4.call

    def call(target: str, *args: Any, timeout: float) -> Any:
        asked.append(target)
        return real_call(target, *args, timeout=30.0)

    monkeypatch.setattr(solvers._CONNECT4, "call", call)
    # O (the AI) holds 5, 6, 7 on the bottom row; you, X, play 7 instead of blocking at 4. With
    # eleven discs in, the position is within the solver's reach.
    moves = ["1", "5", "1", "6", "2", "7", "2", "5", "1", "6"]
    answer = client.post(
        "/api/play",
        json={"game": "connect4", "moves": moves, "move": "7", "level": "hard", "seed": 2},
    ).json()
    assert asked == ["zermelo.solvers.connect4.web:connect4_best"]
    assert answer["played"] == [{"by": "you", "move": "7"}, {"by": "ai", "move": "4"}]
    assert answer["winner"] == "O"
    assert answer["line"] == [[5, 3], [5, 4], [5, 5], [5, 6]]
    thinking = answer["thinking"]
    assert thinking["value"]["exact"] is True
    assert thinking["value"]["words"] == "win in 1"
    assert thinking["pv"] == ["4"]


def test_a_short_deadline_degrades_the_answer_and_keeps_the_solver(client: TestClient) -> None:
    moves = ["1", "5", "1", "6", "2", "7", "2", "5", "1", "6"]
    worker = solvers.connect4_worker()
    client.post(
        "/api/play",
        json={"game": "connect4", "moves": moves, "move": "7", "level": "hard", "seed": 3},
    )
    restarts = worker.restarts
    for seed in range(5):
        answer = client.post(
            "/api/play",
            json={
                "game": "connect4",
                "moves": moves,
                "move": "4",
                "level": "hard",
                "seed": seed,
                "budget": {"time_ms": 10},
            },
        )
        assert answer.status_code == 200
        body = answer.json()
        assert body["played"][-1]["by"] == "ai"
        assert len(body["moves"]) == 12
    assert worker.restarts == restarts, "a short deadline does not kill the solver"


def test_connect_four_values_name_the_winning_column(client: TestClient) -> None:
    # X has 1, 2, 3 on the bottom row and is to move: column 4 wins on the spot.
    answer = client.post(
        "/api/analyze", json={"game": "connect4", "moves": ["1", "1", "2", "2", "3", "3"]}
    ).json()
    assert answer["best"] == "4"
    words = {entry["move"]: entry["value"]["words"] for entry in answer["moves"]}
    assert words["4"] == "win in 1"
    assert set(words) == {"1", "2", "3", "4", "5", "6", "7"}


# -- gomoku and m,n,k ------------------------------------------------------------------------------


def test_gomoku_is_a_fifteen_by_fifteen_place_grid_in_its_notation(client: TestClient) -> None:
    gomoku = games(client)["gomoku"]
    board = gomoku["initial"]["board"]
    assert gomoku["kind"] == "place"
    assert (board["width"], board["height"]) == (15, 15)
    assert board["points"][0][0] == "a15"
    assert board["points"][14][0] == "a1"
    assert board["points"][7][7] == "h8"
    assert board["points"][14][14] == "o1"


def test_gomoku_ai_completes_an_open_four(client: TestClient) -> None:
    moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8"]
    answer = client.post(
        "/api/play", json={"game": "gomoku", "moves": moves, "move": "a1", "level": "easy"}
    ).json()
    assert answer["played"][-1]["move"] in ("g8", "l8")
    assert answer["winner"] == "X"
    assert len(answer["line"]) == 5
    assert all(row == 7 for row, _ in answer["line"])


def test_gomoku_values_come_from_the_engine_and_lead_with_its_move(client: TestClient) -> None:
    answer = client.post(
        "/api/analyze",
        json={"game": "gomoku", "moves": ["h8", "h9"], "budget": {"time_ms": 400}},
    ).json()
    assert 1 <= len(answer["moves"]) < 225
    assert answer["best"] == answer["moves"][0]["move"] == answer["pv"][0]
    assert answer["nodes"] > 0
    legal = set(
        client.post("/api/state", json={"game": "gomoku", "moves": ["h8", "h9"]}).json()["legal"]
    )
    assert {entry["move"] for entry in answer["moves"]} <= legal


def test_mnk_options_set_the_board_and_are_checked(client: TestClient) -> None:
    answer = client.post(
        "/api/state", json={"game": "mnk", "options": {"width": 7, "height": 6, "k": 4}}
    ).json()
    assert (answer["board"]["width"], answer["board"]["height"]) == (7, 6)
    assert answer["board"]["points"][5][0] == "a1"
    for options, words in (
        ({"width": 40}, "width=40"),
        ({"k": "5"}, "k='5'"),
        ({"exact": 1}, "exact=1"),
    ):
        response = client.post("/api/state", json={"game": "mnk", "options": options})
        assert response.status_code == 400, options
        assert words in response.json()["error"]["message"]


_MOVE_TEXT = st.sampled_from(["1", "4", "7", "8", "0", "h8", "a1", "o15", "p1", "z9", "", " 4"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["connect4", "gomoku", "mnk", "c4", "caro"]),
    moves=st.lists(_MOVE_TEXT, max_size=12),
    options=st.none()
    | st.fixed_dictionaries(
        {},
        optional={
            "width": st.integers(-2, 30),
            "height": st.integers(-2, 30),
            "k": st.integers(-2, 30),
            "exact": st.booleans() | st.integers(0, 1),
        },
    ),
    position=st.none() | st.text(alphabet="1234567xo./ k8", max_size=20),
)
def test_no_game_request_makes_the_server_fail(
    client: TestClient,
    game: str,
    moves: list[str],
    options: dict[str, Any] | None,
    position: str | None,
) -> None:
    body: dict[str, Any] = {"game": game, "moves": moves}
    if options is not None:
        body["options"] = options
    if position is not None:
        body["position"] = position
    response = client.post("/api/state", json=body)
    assert response.status_code < 500, (body, response.text)
    if response.status_code >= 400:
        assert response.json()["error"]["message"]
