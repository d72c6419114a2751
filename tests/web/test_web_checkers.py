"""Checkers through the JSON API: the board the page draws, moves, refusals and the AI's replies."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from zermelo.games.checkers import CheckersState


def error_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def test_the_initial_state_draws_the_dark_squares_by_number(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "checkers"}).json()
    board = answer["board"]
    assert board["kind"] == "draughts"
    assert (board["width"], board["height"]) == (8, 8)
    # Square 1 is the second point of the top row, 5 the first of the next, 32 the bottom right's
    # neighbour: the numbering of checkers books.
    assert board["points"][0] == ["", "1", "", "2", "", "3", "", "4"]
    assert board["points"][1][0] == "5"
    assert board["points"][7] == ["29", "", "30", "", "31", "", "32", ""]
    assert board["cells"][0] == ".b.b.b.b"
    assert board["cells"][7] == "w.w.w.w."
    assert board["cells"][3] == board["cells"][4] == "........"
    assert answer["to_move"] == "Black"  # the first player
    assert answer["legal"] == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_a_move_is_replayed_and_its_destination_is_the_last_cell(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "checkers", "moves": ["11-15"]}).json()
    assert answer["board"]["cells"][2] == ".b.b...b"  # 11 is empty
    assert answer["board"]["cells"][3] == "....b..."  # 15 holds the man
    assert answer["last"] == [3, 4]
    assert answer["to_move"] == "White"
    assert answer["position"] == CheckersState.initial().play((11, 15)).notation()


def test_kings_are_drawn_in_capitals(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "checkers", "position": "B:WK18,30:B3,K14"})
    board = answer.json()["board"]
    assert board["cells"][0][5] == "b"  # square 3
    assert board["cells"][3][2] == "B"  # square 14, a black king
    assert board["cells"][4][3] == "W"  # square 18, a white king
    assert board["cells"][7][2] == "w"  # square 30


def test_an_illegal_move_is_refused_naming_the_legal_ones(client: TestClient) -> None:
    response = client.post("/api/play", json={"game": "checkers", "move": "1-5", "ai": False})
    assert response.status_code == 422
    error = error_of(response)
    assert error["type"] == "IllegalMoveError"
    assert "'1-5' is not legal" in error["message"]
    assert "11-15" in error["message"]


def test_bad_notation_is_a_400(client: TestClient) -> None:
    response = client.post("/api/play", json={"game": "checkers", "move": "11-40", "ai": False})
    assert response.status_code == 400
    assert "square 40 is off the board" in error_of(response)["message"]


def test_a_step_is_refused_while_a_capture_is_mandatory(client: TestClient) -> None:
    moves = ["11-15", "22-18"]  # now Black's man on 15 can take 18
    state = client.post("/api/state", json={"game": "checkers", "moves": moves}).json()
    assert state["legal"] == ["15x22"]
    response = client.post(
        "/api/play", json={"game": "checkers", "moves": moves, "move": "9-13", "ai": False}
    )
    assert response.status_code == 422
    assert "a capture is mandatory (15x22)" in error_of(response)["message"]
    taken = client.post(
        "/api/play", json={"game": "checkers", "moves": moves, "move": "15x22", "ai": False}
    ).json()
    assert taken["board"]["cells"][4][3] == "."  # the white man on 18 is gone
    assert taken["board"]["cells"][5][2] == "b"  # the black man stands on 22


def test_the_ai_replies_at_every_level(client: TestClient) -> None:
    for level in ("easy", "medium", "hard"):
        answer = client.post(
            "/api/play",
            json={
                "game": "checkers",
                "move": "11-15",
                "level": level,
                "seed": 4,
                "budget": {"time_ms": 200},
            },
        ).json()
        assert [entry["by"] for entry in answer["played"]] == ["you", "ai"]
        reply = answer["played"][1]["move"]
        after = CheckersState.initial().play((11, 15))
        assert after.parse_move(reply) in after.legal_moves(), level
        assert answer["moves"] == ["11-15", reply]
        assert answer["to_move"] == "Black"


def test_the_analysis_values_every_legal_move_as_an_estimate(client: TestClient) -> None:
    answer = client.post(
        "/api/analyze",
        json={"game": "checkers", "moves": ["11-15"], "budget": {"time_ms": 300}},
    ).json()
    moves = [entry["move"] for entry in answer["moves"]]
    assert sorted(moves) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    assert all(entry["value"]["kind"] == "estimate" for entry in answer["moves"])
    assert not any(entry["value"]["exact"] for entry in answer["moves"])
    scores = [entry["value"]["score"] for entry in answer["moves"]]
    assert scores == sorted(scores, reverse=True)
    assert answer["best"] == moves[0]
