"""The Learn page's endpoints: the traced examples and nodes against depth, bounded and fuzzed."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.ui.web import STATIC_DIR
from zermelo.ui.web.messages import WEB_MESSAGES, messages_for

_DATA_I18N = re.compile(r'data-i18n="([^"]*)"')


def test_the_learn_page_is_served(client: TestClient) -> None:
    answer = client.get("/learn")
    assert answer.status_code == 200
    assert '<script type="module" src="/static/js/learn.js">' in answer.text
    assert client.get("/static/js/learn.js").status_code == 200
    assert client.get("/static/learn.css").status_code == 200
    assert 'href="/learn"' in client.get("/").text


def test_example_1_the_ai_plays_3(client: TestClient) -> None:
    answer = client.get("/api/learn/trace", params={"example": "1"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["position"] == "XO......."
    assert data["moves"] == [0, 1]
    assert (data["ai"], data["move"], data["value"]) == ("X", 3, 1.0)
    assert data["nodes"] == {"minimax": 8232, "alphabeta": 749}
    root = data["alphabeta"]
    assert [child["move"] for child in root["children"]] == [2, 3, 4, 5, 6, 7, 8]
    assert root["alpha"] == "-inf" and root["beta"] == "inf"
    assert all(not child["max"] for child in root["children"])


def test_example_2_the_ai_plays_6_and_cutoffs_say_why(client: TestClient) -> None:
    data = client.get("/api/learn/trace", params={"example": "2"}).json()
    assert (data["move"], data["value"]) == (6, 1.0)
    cuts: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        if node["cutoff"] is not None:
            cuts.append(node["cutoff"])
        for child in node["children"]:
            walk(child)

    walk(data["alphabeta"])
    assert cuts
    for cut in cuts:
        alpha = float(cut["alpha"]) if cut["alpha"] not in ("inf", "-inf") else None
        beta = float(cut["beta"]) if cut["beta"] not in ("inf", "-inf") else None
        assert alpha is not None and beta is not None and alpha >= beta
        assert cut["moves"]
    walk_minimax: list[dict[str, Any]] = []
    stack = [data["minimax"]]
    while stack:
        node = stack.pop()
        walk_minimax.append(node)
        stack.extend(node["children"])
    assert all(node["cutoff"] is None and node["bound"] == "exact" for node in walk_minimax)


def test_the_trace_is_bounded(client: TestClient) -> None:
    empty = client.get("/api/learn/trace", params={"moves": ""})
    assert empty.status_code == 400
    assert "more than 100,000 nodes" in empty.json()["error"]["message"]
    long = client.get("/api/learn/trace", params={"moves": "0 " * 500})
    assert long.status_code == 400 and "too long" in long.json()["error"]["message"]
    both = client.get("/api/learn/trace", params={"moves": "0", "example": "1"})
    assert both.status_code == 400
    # Three plies at most: the root's moves and two below.
    root = client.get("/api/learn/trace", params={"moves": "4"}).json()["minimax"]
    replies = [reply for child in root["children"] for reply in child["children"]]
    assert replies and all(reply["children"] for reply in replies)
    third = [node for reply in replies for node in reply["children"]]
    assert third and all(not node["children"] and node["nodes"] > 1 for node in third)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(["moves", "example", "x"]),
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(["0 1", "4,0", "8 8", "1 2 3 4 5 6 7 8 0", "1", "2", "-1", "1e9"]),
        ),
        max_size=3,
    )
)
def test_fuzzed_queries_get_an_answer_or_a_4xx(client: TestClient, query: dict[str, str]) -> None:
    if query.get("moves", "x").replace(",", " ").split() == [] and "example" not in query:
        query["moves"] = "4"  # the empty board is refused above after 100,000 nodes
    answer = client.get("/api/learn/trace", params=query)
    assert answer.status_code in (200, 400, 422), answer.text
    if answer.status_code != 200:
        # the message in the request's language, and in English
        assert set(answer.json()["error"]) == {"type", "message", "english"}


def test_nodes_against_depth_are_measured_and_kept(client: TestClient) -> None:
    first = client.get("/api/learn/nodes", params={"game": "tictactoe"})
    assert first.status_code == 200
    data = first.json()
    assert data["b"] == 9 and data["variants"] == ["minimax", "alphabeta", "table", "ordering"]
    minimax = [c["nodes"] for c in data["counts"] if c["variant"] == "minimax"]
    assert minimax[:3] == [10, 82, 586]
    assert all(c["nodes"] <= data["node_limit"] for c in data["counts"])
    assert client.get("/api/learn/nodes", params={"game": "tictactoe"}).json() == data
    bad = client.get("/api/learn/nodes", params={"game": "gomoku"})
    assert bad.status_code == 400 and "expected one of" in bad.json()["error"]["message"]


def test_every_word_of_the_learn_page_is_a_served_message() -> None:
    page = (STATIC_DIR / "learn.html").read_text(encoding="utf-8")
    used = set(_DATA_I18N.findall(page))
    assert {"Learn minimax", "Next", "Previous", "Nodes against depth"} <= used
    assert sorted(used - set(messages_for("en"))) == []
    assert "Learn" in WEB_MESSAGES
    dutch = messages_for("nl")
    for message in used:
        assert dutch[message] != message or message in ("Minimax", "Alpha-beta", "API"), message


def test_the_learn_page_holds_no_inline_script_or_style() -> None:
    page = (STATIC_DIR / "learn.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts and all("src=" in tag for tag in scripts)
    assert re.search(r"<script\b[^>]*>\s*[^<\s]", page) is None
    assert " style=" not in page and "<style" not in page
    script = (STATIC_DIR / "js" / "learn.js").read_text(encoding="utf-8")
    assert '"style"' not in script and "innerHTML" not in script
