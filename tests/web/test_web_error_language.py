"""The web API answers an error in the request's language (``?lang=`` or ``Accept-Language``),
with the English line beside it, and a near-miss game name gets a did-you-mean."""

from __future__ import annotations

from starlette.testclient import TestClient


def test_a_near_miss_gets_a_did_you_mean_on_the_web(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "chees", "moves": []})
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == "unknown game 'chees'; did you mean 'chess'?"
    dutch = client.post(
        "/api/state", json={"game": "chees", "moves": []}, headers={"Accept-Language": "nl"}
    )
    assert dutch.json()["error"]["message"] == "onbekend spel 'chees'; bedoelde je 'chess'?"
    assert dutch.json()["error"]["english"] == "unknown game 'chees'; did you mean 'chess'?"
    vietnamese = client.post(
        "/api/state?lang=vi", json={"game": "connect4", "options": {"width": 99}, "moves": []}
    )
    assert vietnamese.status_code == 400
    assert vietnamese.json()["error"]["message"] == ("tùy chọn width=99: cần một số từ 4 đến 8")
    assert vietnamese.json()["error"]["english"] == (
        "option width=99: expected a number from 4 to 8"
    )
