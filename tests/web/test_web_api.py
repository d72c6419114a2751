"""The JSON API: answers, validation and budgets, through Starlette's test client."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.core.errors import BudgetError
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import minimax, parent_score
from zermelo.ui.lines import winning_line
from zermelo.ui.web import create_app
from zermelo.ui.web.api import (
    MAX_BODY,
    MAX_NODES,
    MAX_TIME,
    MIN_NODES,
    MIN_TIME,
    Budget,
)
from zermelo.ui.web.lanes import BusyError, FastLane
from zermelo.ui.web.messages import WEB_MESSAGES, best_language, game_messages

_APP = create_app()
LOCAL = "http://127.0.0.1"


def error_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]


# -- the games and the page -----------------------------------------------------------------------


def test_games_lists_tictactoe_with_an_empty_three_by_three_grid(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    ttt = games["tictactoe"]
    assert ttt["kind"] == "place"
    assert ttt["explain"] is True
    board = ttt["initial"]["board"]
    assert (board["width"], board["height"]) == (3, 3)
    assert board["cells"] == ["...", "...", "..."]
    assert board["points"] == [["0", "1", "2"], ["3", "4", "5"], ["6", "7", "8"]]
    assert ttt["initial"]["legal"] == [str(s) for s in range(9)]
    assert ttt["initial"]["to_move"] == "X"


def test_the_page_and_its_assets_are_served_with_the_stable_hooks(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'data-testid="status"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    script = client.get("/static/app.js")
    assert script.status_code == 200
    assert "data-move" in script.text or "dataset.move" in script.text
    assert client.get("/static/style.css").status_code == 200


@pytest.mark.parametrize(
    "path", ["/static/../api.py", "/static/%2e%2e/api.py", "/static/..%2f__init__.py"]
)
def test_static_files_do_not_reach_outside_their_directory(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "import" not in response.text


def test_openapi_documents_every_api_route(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {
        "/api/games",
        "/api/messages",
        "/api/state",
        "/api/import",
        "/api/play",
        "/api/analyze",
        "/api/tree",
        "/api/learn/trace",
        "/api/learn/nodes",
        "/api/review",
    }
    for path, methods in spec["paths"].items():
        for operation in methods.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            for name, field in body.get("schema", {}).get("properties", {}).items():
                assert field.get("description"), (path, name)
            for parameter in operation.get("parameters", []):
                assert parameter.get("description"), (path, parameter["name"])
    docs = client.get("/api")
    assert docs.status_code == 200
    assert "openapi.json" in docs.text


# -- playing --------------------------------------------------------------------------------------


def test_state_replays_moves_and_reports_the_last_cell(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "tictactoe", "moves": ["4", "0", "8"]}).json()
    assert answer["board"]["cells"] == ["O..", ".X.", "..X"]
    assert answer["to_move"] == "O"
    assert answer["last"] == [2, 2]
    assert answer["legal"] == ["1", "2", "3", "5", "6", "7"]


def test_hard_ai_answers_a_corner_opening_with_the_centre(client: TestClient) -> None:
    # The only reply to a corner that does not lose is the centre.
    for seed in (0, 1, 2):
        answer = client.post(
            "/api/play",
            json={"game": "tictactoe", "moves": [], "move": "0", "level": "hard", "seed": seed},
        ).json()
        assert answer["played"] == [{"by": "you", "move": "0"}, {"by": "ai", "move": "4"}]
        assert answer["moves"] == ["0", "4"]
        assert answer["thinking"]["value"]["kind"] == "draw"
        assert answer["thinking"]["nodes"] > 0


def test_hard_ai_takes_an_immediate_win(client: TestClient) -> None:
    # X: 0 1, O: 3 4, X played 8; O wins at 5.
    answer = client.post(
        "/api/play", json={"game": "tictactoe", "moves": ["0", "3", "1", "4"], "move": "8"}
    ).json()
    assert answer["played"][-1] == {"by": "ai", "move": "5"}
    assert answer["terminal"] is True
    assert answer["winner"] == "O"
    assert answer["legal"] == []
    assert answer["line"] == [[1, 0], [1, 1], [1, 2]]


def test_winning_line_finds_every_run_of_k_or_more() -> None:
    cells = ["XXXX.", "O.O..", "OX...", "O.X..", "O..X."]
    assert winning_line(cells, "X", 4) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert winning_line(cells, "O", 4) == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert winning_line(cells, "O", 5) == []
    assert winning_line(["X..", ".X.", "..X"], "X", 3) == [(0, 0), (1, 1), (2, 2)]
    assert winning_line(["..X", ".X.", "X.."], "X", 3) == [(0, 2), (1, 1), (2, 0)]
    assert winning_line(["XO.", "OX.", "..."], "X", 3) == []


def test_a_running_or_drawn_game_has_no_winning_line(client: TestClient) -> None:
    running = client.post("/api/state", json={"game": "tictactoe", "moves": ["4"]}).json()
    assert running["line"] == []
    drawn = client.post("/api/state", json={"game": "tictactoe", "position": "XOXXOOOXX"}).json()
    assert drawn["terminal"] is True and drawn["winner"] is None and drawn["line"] == []


def test_the_ai_can_make_the_first_move(client: TestClient) -> None:
    answer = client.post("/api/play", json={"game": "tictactoe", "moves": []}).json()
    assert [p["by"] for p in answer["played"]] == ["ai"]
    assert answer["ply"] == 1
    assert answer["to_move"] == "O"


def test_without_ai_only_the_move_is_played(client: TestClient) -> None:
    answer = client.post(
        "/api/play", json={"game": "tictactoe", "moves": [], "move": "4", "ai": False}
    ).json()
    assert answer["moves"] == ["4"]
    assert answer["thinking"] is None


# -- validation: every mistake is a 4xx naming the problem, never a 500 -------------------------


@pytest.mark.parametrize(
    ("body", "status", "kind", "words"),
    [
        ({"game": "shogi"}, 404, "UnknownGameError", "unknown game 'shogi'"),
        ({"game": 7}, 404, "UnknownGameError", "unknown game 7"),
        ({"game": "tictactoe", "moves": ["9"]}, 400, "ParseError", "invalid square '9'"),
        ({"game": "tictactoe", "moves": ["4", "4"]}, 422, "IllegalMoveError", "already taken"),
        ({"game": "tictactoe", "moves": "4"}, 400, "ParseError", "expected a list"),
        ({"game": "tictactoe", "moves": [4]}, 400, "ParseError", "in the game's notation"),
        ({"game": "tictactoe", "moves": ["0"] * 600}, 400, "ParseError", "at most 512"),
        (
            {"game": "tictactoe", "position": "XXX......"},
            422,
            "InvalidPositionError",
            "impossible position 'XXX......'",
        ),
        ({"game": "tictactoe", "position": "XO"}, 400, "ParseError", "expected 9 squares"),
        (
            {"game": "tictactoe", "moves": ["0", "3", "1", "4", "2", "5"]},
            422,
            "IllegalMoveError",
            "the game is already over",
        ),
        ({"game": "tictactoe", "options": {"size": 4}}, 400, "ParseError", "unknown option"),
        ({"game": "tictactoe", "options": "big"}, 400, "ParseError", "expected an object"),
    ],
)
def test_bad_games_are_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], status: int, kind: str, words: str
) -> None:
    for endpoint in ("/api/state", "/api/analyze", "/api/tree"):
        response = client.post(endpoint, json=body)
        assert response.status_code == status, (endpoint, response.text)
        error = error_of(response)
        assert error["type"] == kind
        assert words in error["message"]


@pytest.mark.parametrize(
    ("body", "kind", "words"),
    [
        ({"move": "4"}, "IllegalMoveError", "square 4 is already taken"),
        ({"move": "x"}, "ParseError", "invalid square 'x'"),
        ({"move": "0", "level": "genius"}, "ParseError", "unknown level 'genius'"),
        ({"move": "0", "seed": -1}, "ParseError", "seed -1"),
        ({"move": "0", "seed": "7"}, "ParseError", "seed '7'"),
        ({"move": "0", "ai": "yes"}, "ParseError", "ai 'yes'"),
        ({"move": "0", "budget": {"time_ms": "soon"}}, "BudgetError", "time_ms='soon'"),
        ({"move": "0", "budget": 5}, "BudgetError", "budget 5"),
    ],
)
def test_bad_plays_are_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], kind: str, words: str
) -> None:
    response = client.post("/api/play", json={"game": "tictactoe", "moves": ["4"], **body})
    assert 400 <= response.status_code < 500
    error = error_of(response)
    assert error["type"] == kind
    assert words in error["message"]


def test_bodies_that_are_not_json_objects_are_refused(client: TestClient) -> None:
    for content in (b"not json", b"[1, 2]", b'{"game": NaN}', b"\xff\xfe"):
        response = client.post(
            "/api/state", content=content, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400, content
        assert error_of(response)["type"] == "PayloadError"


def test_oversized_bodies_are_refused_before_parsing(client: TestClient) -> None:
    body = json.dumps({"game": "tictactoe", "pad": "x" * MAX_BODY})
    response = client.post("/api/state", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    error = error_of(response)
    assert error["type"] == "TooLargeError"
    assert "larger than" in error["message"]


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404
    assert error_of(missing)["type"] == "HTTPError"
    wrong = client.get("/api/play")
    assert wrong.status_code == 405


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_bodies = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["tictactoe", "ttt", "chess", "shogi", ""]) | _json_values,
        "moves": st.lists(st.sampled_from([str(i) for i in range(-1, 11)]), max_size=10)
        | _json_values,
        "position": st.text(alphabet="XO. xo", max_size=12) | _json_values,
        "move": st.sampled_from([str(i) for i in range(10)]) | _json_values,
        "level": st.sampled_from(["easy", "medium", "hard", "x"]) | _json_values,
        "budget": st.fixed_dictionaries(
            {}, optional={"time_ms": _json_values, "nodes": _json_values}
        )
        | _json_values,
        "path": st.lists(st.sampled_from([str(i) for i in range(10)]), max_size=4) | _json_values,
        "seed": _json_values,
        "ai": _json_values,
    },
)


@pytest.fixture(scope="module")
def shared_client() -> Iterator[TestClient]:
    """One client (and one set of search processes) for every example of a fuzz test."""
    with TestClient(_APP, base_url=LOCAL) as client:
        yield client


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endpoint=st.sampled_from(["state", "play", "analyze", "tree"]), body=_bodies)
def test_no_request_body_makes_the_server_fail(
    shared_client: TestClient, endpoint: str, body: dict[str, Any]
) -> None:
    response = shared_client.post(f"/api/{endpoint}", json=body)
    assert response.status_code < 500, (body, response.text)
    if response.status_code >= 400:
        assert error_of(response)["message"]


# -- budgets and the thread pool ------------------------------------------------------------------


def test_budgets_are_clamped_to_the_server_limits() -> None:
    assert Budget.from_json({"time_ms": 10**9, "nodes": 10**12}) == Budget(MAX_TIME, MAX_NODES)
    assert Budget.from_json({"time_ms": -5, "nodes": 0}) == Budget(MIN_TIME, MIN_NODES)
    assert Budget.from_json({"time_ms": 250}).time == 0.25
    with pytest.raises(BudgetError):
        Budget.from_json({"nodes": True})
    assert math.isfinite(Budget.from_json(None).time)


def test_the_fast_lane_refuses_work_beyond_its_queue() -> None:
    gate = FastLane(threads=1, waiting=0)
    results: list[object] = []

    async def scenario() -> None:
        started = anyio.Event()
        release = anyio.Event()
        token = anyio.lowlevel.current_token()

        def slow() -> str:
            anyio.from_thread.run_sync(started.set, token=token)
            anyio.from_thread.run(release.wait, token=token)
            return "done"

        async def first() -> None:
            results.append(await gate.run(slow))

        async with anyio.create_task_group() as group:
            group.start_soon(first)
            with anyio.fail_after(5):
                await started.wait()
            try:
                await gate.run(lambda: "second")
            except BusyError as error:
                results.append(error)
            release.set()

    anyio.run(scenario)
    assert isinstance(results[0], BusyError)
    assert results[1] == "done"
    assert gate.active == 0


def test_the_fast_lane_serves_the_earliest_deadline_first() -> None:
    gate = FastLane(threads=1, waiting=8)
    order: list[str] = []

    async def scenario() -> None:
        started = anyio.Event()
        release = anyio.Event()
        token = anyio.lowlevel.current_token()

        def slow() -> None:
            anyio.from_thread.run_sync(started.set, token=token)
            anyio.from_thread.run(release.wait, token=token)
            order.append("first")

        async def queued(name: str, deadline: float | None, cancel: bool = False) -> None:
            with anyio.CancelScope() as scope:
                if cancel:
                    scope.cancel()
                await gate.run(order.append, name, deadline=deadline)

        now = time.monotonic()
        async with anyio.create_task_group() as group:
            group.start_soon(gate.run, slow)
            with anyio.fail_after(5):
                await started.wait()
            group.start_soon(queued, "untimed", None)
            group.start_soon(queued, "gone", now + 0.01, True)
            group.start_soon(queued, "later", now + 0.5)
            group.start_soon(queued, "soon", now + 0.1)
            await anyio.sleep(0.05)
            release.set()

    anyio.run(scenario)
    # Work due first runs first; cancelled work gives its turn away; nothing is left holding a thread.
    assert order == ["first", "soon", "later", "untimed"]
    assert gate.active == 0 and gate.running == 0


# -- the thinking overlay's numbers ----------------------------------------------------------------


@pytest.mark.parametrize("moves", [[], ["4"], ["0", "4", "8"], ["0", "3", "1", "4"]])
def test_analysis_values_agree_with_plain_minimax(client: TestClient, moves: list[str]) -> None:
    answer = client.post("/api/analyze", json={"game": "tictactoe", "moves": moves}).json()
    state = TicTacToeState.initial()
    for text in moves:
        state = state.play(int(text))
    values = {entry["move"]: entry["value"] for entry in answer["moves"]}
    assert set(values) == {str(m) for m in state.legal_moves()}
    for move in state.legal_moves():
        expected = parent_score(minimax(state.play(move)).value)
        assert values[str(move)]["score"] == expected
        assert values[str(move)]["exact"] is True
    scores = [entry["value"]["score"] for entry in answer["moves"]]
    assert scores == sorted(scores, reverse=True)
    assert answer["pv"][0] == answer["best"] == answer["moves"][0]["move"]
    assert answer["nodes"] > 0


def test_analysis_words_name_the_win_and_the_losses(client: TestClient) -> None:
    # X: 0 1, O: 3 4, X to move: 2 wins now; anything but 2 or 5 lets O win at 5.
    answer = client.post(
        "/api/analyze", json={"game": "tictactoe", "moves": ["0", "3", "1", "4"]}
    ).json()
    words = {entry["move"]: entry["value"]["words"] for entry in answer["moves"]}
    assert words["2"] == "win in 1"
    assert words["6"] == "loss in 1"
    assert answer["best"] == "2"


def test_analysis_of_a_finished_game_is_empty(client: TestClient) -> None:
    answer = client.post("/api/analyze", json={"game": "tictactoe", "position": "XXXOO...."}).json()
    assert answer["moves"] == []
    assert answer["best"] is None


# -- languages -------------------------------------------------------------------------------------


def test_messages_follow_the_lang_parameter_then_accept_language(client: TestClient) -> None:
    assert client.get("/api/messages?lang=vi").json()["lang"] == "vi"
    answer = client.get("/api/messages", headers={"Accept-Language": "de-DE, tr;q=0.8, en;q=0.5"})
    assert answer.json()["lang"] == "tr"
    assert answer.headers["vary"] == "Accept-Language"
    assert client.get("/api/messages?lang=xx").json()["lang"] == "en"


def test_english_messages_are_every_msgid_unchanged(client: TestClient) -> None:
    answer = client.get("/api/messages?lang=en").json()
    words = (*WEB_MESSAGES, *game_messages())
    assert answer["messages"] == {message: message for message in words}
    assert "Othello" in answer["messages"]  # the records' titles, with no list in the face
    assert set(answer["languages"]) == {"en", "id", "nl", "vi", "tr"}


def test_every_translated_catalogue_answers_every_message(client: TestClient) -> None:
    for code in ("id", "nl", "vi", "tr"):
        messages = client.get(f"/api/messages?lang={code}").json()["messages"]
        assert list(messages) == list(dict.fromkeys([*WEB_MESSAGES, *game_messages()]))
        assert all(isinstance(text, str) and text for text in messages.values())


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("nl-BE,nl;q=0.9,en;q=0.5", "nl"),
        ("en;q=0.2, id;q=0.9", "id"),
        ("fr, de", "en"),
        ("vi;q=0, tr;q=0.1", "tr"),
        ("nl;q=abc, tr", "tr"),
    ],
)
def test_accept_language_is_ranked_by_weight(header: str | None, expected: str) -> None:
    assert best_language(None, header) == expected


def test_every_placeholder_in_the_messages_is_a_name() -> None:
    import string

    for message in WEB_MESSAGES:
        for _, field, _, _ in string.Formatter().parse(message):
            assert field is None or field.isidentifier(), message
