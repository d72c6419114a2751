"""Issue 21's web bugs at the level of the code: the search process rebuilds the whole game
(options and position, never a default), and the generic engine holds its budget for every
game, a plugin game (nim) and a slow one included. With fuzz tests of the rebuilt games and of
the endpoints over every game and its options."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.core.errors import ZermeloError
from zermelo.search.alphabeta import alphabeta
from zermelo.ui.web import create_app
from zermelo.ui.web.api import MAX_TIME, fingerprint, game_data, load_game, quick_values, replay
from zermelo.ui.web.engines import generic_values
from zermelo.workers import Worker, WorkerFailed

# Each built-in game (and the example plugin) built away from its defaults: by options where it
# has them, else from a position of its own.
BUILT_AWAY_FROM_DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {"position": "X...O....", "moves": ["8"]},
    "connect4": {"options": {"width": 5, "height": 4}, "moves": ["1", "2"]},
    "gomoku": {"options": {"exact": True}, "moves": ["h8"]},
    "mnk": {"options": {"width": 6, "height": 5, "k": 4, "exact": True}, "moves": ["c3"]},
    "checkers": {"position": "B:W18,24,27,28:B12,16,20", "moves": []},
    "chess": {"position": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "moves": ["e2e4"]},
    "nim": {"options": {"heaps": 2}, "moves": ["2-1"]},
}


@pytest.fixture(scope="module")
def nim_site(nim_path: Path) -> Iterator[Path]:
    """The example plugin on this process's import path and in its children's environment."""
    from conftest import nim_on_path

    with nim_on_path(nim_path, children=True):
        yield nim_path


@pytest.fixture(scope="module")
def search_process(nim_site: Path) -> Iterator[Worker]:
    worker = Worker("zermelo-test-search")
    yield worker
    worker.stop()


@pytest.mark.parametrize("name", sorted(BUILT_AWAY_FROM_DEFAULTS))
def test_every_game_is_rebuilt_in_the_search_process_as_it_was_built(
    search_process: Worker, name: str
) -> None:
    game = load_game({"game": name, **BUILT_AWAY_FROM_DEFAULTS[name]})
    data = game_data(game)
    assert data == json.loads(json.dumps(data)), "plain JSON"
    assert ("options" in data) != ("position" in data)
    assert replay(data).state == game.state
    # In a real search process, through the task the server calls; replay() there checks the
    # rebuilt position against the server's, so an answer at all means it was this game.
    answer = search_process.call("zermelo.ui.web.tasks:analyze", data, 0.3, 5000, True, timeout=60)
    legal = {game.state.format_move(move) for move in game.state.legal_moves()}
    assert answer.get("degraded") or {entry["move"] for entry in answer["moves"]} <= legal
    assert answer.get("degraded") or answer["moves"]


def test_a_game_rebuilt_with_defaults_is_refused(search_process: Worker) -> None:
    """What the server used to send: the start's notation and the moves. A 5x4 Connect Four
    board's start is written "" like the 7x6 one's, so the process searched a 7x6 board."""
    game = load_game({"game": "connect4", "options": {"width": 5, "height": 4}, "moves": ["1"]})
    old_style = {
        "game": "connect4",
        "position": game.start.notation(),
        "moves": ["1"],
        "expect": fingerprint(game.state),
    }
    with pytest.raises(WorkerFailed, match="rebuilt another position of connect4"):
        search_process.call("zermelo.ui.web.tasks:analyze", old_style, 0.3, 5000, True, timeout=60)


_leaf = st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(max_size=12)
_json = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(BUILT_AWAY_FROM_DEFAULTS)),
    changes=st.dictionaries(
        st.sampled_from(["game", "options", "position", "moves", "expect", "other"]),
        _json,
        max_size=3,
    ),
)
def test_fuzz_a_damaged_game_is_one_error(
    nim_site: Path, name: str, changes: dict[str, Any]
) -> None:
    """Whatever reaches the search process, it rebuilds the game or raises zermelo's error."""
    data = {**game_data(load_game({"game": name, **BUILT_AWAY_FROM_DEFAULTS[name]})), **changes}
    try:
        replay(data)
    except ZermeloError as error:
        assert "\n" not in str(error) and str(error)


# -- the budget is held inside the generic engine -------------------------------------------------


def _nim(nim_site: Path, heaps: int) -> Any:
    return load_game({"game": "nim", "options": {"heaps": heaps}}).state


def test_the_generic_values_hold_their_budget_for_all_moves(nim_site: Path) -> None:
    state = _nim(nim_site, 6)
    started = time.perf_counter()
    found = generic_values(state, time_limit=0.05, node_limit=400_000)
    elapsed = time.perf_counter() - started
    assert len(found.moves) == 36, "every move is valued, the late ones by evaluation"
    # It took 0.61 s: the budget was split per move, and each search read its clock only
    # every 1,024 nodes (17 ms of nim).
    assert elapsed < 0.25, elapsed


def test_a_slow_game_holds_its_budget(nim_site: Path) -> None:
    """A game whose every move costs half a millisecond: alpha-beta reads its clock by time,
    not every 1,024 nodes (half a second here)."""
    from zermelo_nim import NimState

    class SlowNim(NimState):
        def play(self, move: Any) -> SlowNim:
            time.sleep(0.0005)
            return SlowNim(*NimState.play(self, move))

    state = SlowNim(*_nim(nim_site, 5))
    started = time.perf_counter()
    result = alphabeta(state, time_limit=0.1)
    elapsed = time.perf_counter() - started
    assert result.move is not None and not result.exact
    assert elapsed < 0.35, elapsed


def test_a_quick_game_is_kept_only_once_solved(nim_site: Path) -> None:
    small = _nim(nim_site, 2)  # 1 and 3 stones: solved at once
    first, exact = quick_values("nim", small, 1.0, 200_000)
    assert exact and first["value"]["kind"] == "win"
    again, exact_again = quick_values("nim", small, 0.0001, 100)
    assert exact_again and again == first, "answered from memory (the first search's nodes)"
    big = _nim(nim_site, 6).play((5, 1))
    rough, solved = quick_values("nim", big, 0.02, 200_000)
    assert not solved and len(rough["moves"]) == 35
    _, still = quick_values("nim", big, 0.02, 200_000)
    assert not still, "an estimate is not kept as if it were solved"


# -- the fuzz test of the endpoints, over every game and its options --------------------------------


@pytest.fixture(scope="module")
def client(nim_site: Path) -> Iterator[TestClient]:
    with TestClient(create_app(), base_url="http://127.0.0.1") as test_client:
        yield test_client


_OPTION_VALUES = st.integers(-2, 22) | st.booleans() | _json


@st.composite
def _bodies(draw: Any) -> dict[str, Any]:
    name = draw(st.sampled_from(sorted(BUILT_AWAY_FROM_DEFAULTS)) | _json)
    body: dict[str, Any] = {"game": name}
    known = BUILT_AWAY_FROM_DEFAULTS.get(name) if isinstance(name, str) else None
    if draw(st.booleans()):
        names = st.sampled_from(["width", "height", "k", "exact", "heaps"]) | st.text(max_size=6)
        body["options"] = draw(st.dictionaries(names, _OPTION_VALUES, max_size=3) | _json)
    elif known is not None and draw(st.booleans()):
        body.update(known)
    if draw(st.booleans()):
        body["moves"] = draw(
            st.lists(st.sampled_from(["1", "4", "h8", "c3", "2-1", "e2e4", "9-13"]), max_size=4)
            | _json
        )
    body["budget"] = draw(
        st.fixed_dictionaries({"time_ms": st.integers(-10, 150)}, optional={"nodes": _json}) | _json
    )
    for key in ("level", "seed", "move", "ai"):
        if draw(st.booleans()):
            body[key] = draw(_json | st.sampled_from(["easy", "hard", "1", "h8"]))
    return body


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endpoint=st.sampled_from(["state", "play", "analyze"]), body=_bodies())
def test_fuzz_every_game_and_option_is_an_answer_or_one_error_line(
    client: TestClient, endpoint: str, body: dict[str, Any]
) -> None:
    started = time.monotonic()
    response = client.post(f"/api/{endpoint}", json=body)
    elapsed = time.monotonic() - started
    assert response.status_code < 500, (body, response.text)
    assert elapsed < MAX_TIME + 0.25 + 1.0, (body, elapsed)
    if response.status_code >= 400:
        message = response.json()["error"]["message"]
        assert message and "\n" not in message and "Traceback" not in message
    else:
        answer = response.json()
        assert "position" in answer
