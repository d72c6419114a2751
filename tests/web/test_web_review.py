"""``POST /api/review``: a game's moves judged, bounded, and bad requests refused in one line."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.ui.web import review


def test_review_of_the_pages_game(client: TestClient) -> None:
    answer = client.post(
        "/api/review", json={"game": "tictactoe", "moves": ["0", "1"], "time_ms": 50}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [m["move"] for m in body["moves"]] == ["0", "1"]
    second = body["moves"][1]
    assert second["best"] == "4" and second["mark"] == "blunder" and second["chances"] == 1.0
    assert body["reviewed"] == body["total"] == 2


def test_review_of_a_pgn(client: TestClient) -> None:
    pgn = '[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n'
    answer = client.post("/api/review", json={"game": "chess", "pgn": pgn, "time_ms": 100})
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    assert [m["move"] for m in moves] == ["e4", "e5", "Qh5", "Ke7", "Qxe5#"]
    assert moves[3]["mark"] == "blunder"


def test_a_long_game_is_cut_to_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review, "MAX_MOVES", 3)
    pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"
    answer = review.review_task({"game": "chess", "pgn": pgn}, 0.05)
    assert isinstance(answer, dict)
    assert (answer["reviewed"], answer["total"]) == (3, 6)
    assert [m["move"] for m in answer["moves"]] == ["e4", "e5", "Nf3"]  # type: ignore[index, union-attr]


def test_bad_requests_get_one_line(client: TestClient) -> None:
    for data, words in [
        ({"game": "chess", "pgn": "1. e4 e5 2. Ke3 *"}, "pgn, game 1, move 3 'Ke3'"),
        ({"game": "chess", "pgn": "1. e4 }"}, "closes no comment"),
        ({"game": "chess", "pgn": "1. e4 *", "index": 2}, "expected a game number from 1 to 1"),
        ({"game": "tictactoe", "moves": ["0"], "colour": 1}, "unknown field 'colour'"),
        ({"game": "tictactoe", "moves": ["0"], "time_ms": "fast"}, "time_ms"),
    ]:
        answer = client.post("/api/review", json=data)
        assert answer.status_code == 400, (data, answer.text)
        message = answer.json()["error"]["message"]
        assert words in message and "\n" not in message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(["game", "pgn", "index", "time_ms", "moves", "x"]),
        st.one_of(
            st.text(max_size=30),
            st.integers(-5, 5),
            st.sampled_from(["tictactoe", "chess", "1. 0 1 *", "1. e4 (", '[FEN "x"]']),
            st.lists(st.sampled_from(["0", "4", "e4", "zz"]), max_size=4),
        ),
        max_size=4,
    )
)
def test_fuzzed_requests_never_fail_the_server(client: TestClient, data: dict[str, object]) -> None:
    data.setdefault("time_ms", 20)
    answer = client.post("/api/review", json=data)
    assert answer.status_code in (200, 400, 404, 422, 503), answer.text
    if answer.status_code != 200:
        assert "\n" not in answer.json()["error"]["message"]
