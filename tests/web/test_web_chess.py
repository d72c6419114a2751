"""Chess on the page and through the API: the board's data, moves by clicks, a promotion picked,
the thinking overlay listing every move's value, and the game exported as PGN."""

# ruff: noqa: F811 - the browser tests' fixtures are imported by name and taken as arguments

from __future__ import annotations

import io
import re
from typing import Any

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tests.web.test_web_browser import (  # noqa: F401 - fixtures
    browser,
    open_page,
    page,
    wait_for_your_turn_or_end,
)

# -- the API -------------------------------------------------------------------------------------


def test_the_board_lists_every_legal_move_with_its_squares(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "chess", "moves": ["e4", "e5", "Nf3"]})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    board = view["board"]
    assert board["kind"] == "chess" and board["width"] == 8 and board["height"] == 8
    assert board["cells"][0] == "rnbqkbnr" and board["cells"][5] == ".....N.."
    assert board["points"][0][0] == "a8" and board["points"][7][7] == "h1"
    reference = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        reference.push_san(san)
    assert {m["move"] for m in board["moves"]} == {reference.san(m) for m in reference.legal_moves}
    assert {"from": "b8", "to": "c6", "promotion": None, "move": "Nc6"} in board["moves"]
    assert board["last"] == ["g1", "f3"]
    assert board["check"] is None
    game = chess.pgn.read_game(io.StringIO(board["pgn"]))
    assert game is not None and [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert view["last"] == [5, 5]


def test_the_ai_answers_and_the_analysis_values_every_move(client: TestClient) -> None:
    played = client.post(
        "/api/play",
        json={"game": "chess", "moves": ["e4"], "ai": True, "level": "easy", "seed": 3},
    )
    assert played.status_code == 200, played.text
    view = played.json()
    assert len(view["moves"]) == 2 and view["to_move"] == "White"
    analysis = client.post(
        "/api/analyze",
        json={"game": "chess", "moves": ["f3", "e5", "g4"], "budget": {"time_ms": 2000}},
    ).json()
    assert len(analysis["moves"]) == 30
    assert analysis["best"] == "Qh4#"
    assert analysis["moves"][0]["value"]["kind"] == "win"
    assert analysis["moves"][0]["value"]["moves"] == 1


def test_bad_chess_moves_are_one_clear_error(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "chess", "moves": ["e5"]})
    assert answer.status_code == 422
    assert "illegal move 'e5'" in answer.json()["error"]["message"]
    answer = client.post("/api/state", json={"game": "chess", "moves": ["Zz9"]})
    assert answer.status_code in (400, 422)
    assert "'Zz9'" in answer.json()["error"]["message"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(max_size=8) | st.sampled_from(["e4", "e5", "Nf3", "O-O", "e8=Q"]), max_size=6)
)
def test_fuzz_the_chess_endpoints_answer_json(client: TestClient, moves: list[str]) -> None:
    answer = client.post("/api/state", json={"game": "chess", "moves": moves})
    assert answer.status_code in (200, 400, 422), answer.text
    body: Any = answer.json()
    assert ("board" in body) == (answer.status_code == 200)


# -- the page ------------------------------------------------------------------------------------


def pieces(page: Any) -> dict[str, str]:
    found = {}
    for square in page.locator("#board [data-piece]").all():
        found[str(square.get_attribute("data-square"))] = str(square.get_attribute("data-piece"))
    return found


@pytest.mark.browser
def test_a_piece_moves_by_two_clicks_and_the_ai_replies(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=4")
    status = page.locator("[data-testid=status]")
    expect(status).to_have_text("Your turn (White)")
    assert page.locator("#board [data-square]").count() == 64
    page.click('#board [data-square="g1"]')
    expect(page.locator("#board .selected")).to_have_attribute("data-square", "g1")
    targets = page.locator("#board .target")
    expect(targets).to_have_count(2)
    assert {targets.nth(i).get_attribute("data-square") for i in range(2)} == {"f3", "h3"}
    page.click('#board [data-square="f3"]')
    wait_for_your_turn_or_end(page)
    expect(status).to_have_text("Your turn (White)")
    after = pieces(page)
    assert after["f3"] == "N" and "g1" not in after
    assert sum(piece.islower() for piece in after.values()) == 16
    expect(page.locator("#board .last")).to_have_count(2)
    page.click('#board [data-square="a8"]')
    expect(page.locator("[data-testid=message]")).to_have_text("Pick one of your pieces.")


@pytest.mark.browser
def test_a_promotion_asks_for_the_piece(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    from zermelo.games.chess import ChessState

    # A white pawn on b7 that promotes by taking the rook on a8, reached by moves so that the
    # page can start there.
    state = ChessState()
    line = ["a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6"]
    for san in line:
        state = state.play(state.parse_move(san))
    assert {m.promotion for m in state.legal_moves() if m.promotion} == {2, 3, 4, 5}
    open_page(page, live_server, "?game=chess&level=easy&seed=1&moves=" + ",".join(line))
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    page.click('#board [data-square="b7"]')
    page.click('#board [data-square="a8"]')
    picker = page.locator("[data-testid=promotion] button")
    expect(picker).to_have_count(4)
    page.click('[data-testid=promotion] button[data-promotion="n"]')
    wait_for_your_turn_or_end(page)
    assert pieces(page).get("a8") in ("N", "q")  # the knight, unless the queen took it at once
    text = page.locator("[data-testid=status]").text_content() or ""
    assert re.search(r"Your turn|win|draw", text)


@pytest.mark.browser
def test_thinking_lists_every_move_and_the_game_exports_as_pgn(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=1")
    page.locator("label.switch", has=page.locator("#thinking")).click()
    items = page.locator("[data-testid=move-values] li")
    expect(items).to_have_count(20)
    names = {str(items.nth(i).get_attribute("data-move-value")) for i in range(20)}
    assert names == {chess.Board().san(m) for m in chess.Board().legal_moves}
    expect(items.first).to_have_class(re.compile(r"\bbest\b"))
    page.click('#board [data-square="e2"]')
    page.click('#board [data-square="e4"]')
    wait_for_your_turn_or_end(page)
    with page.expect_download() as download:
        page.click("#save-pgn")
    path = download.value.path()
    with open(path, encoding="utf-8") as saved:
        game = chess.pgn.read_game(saved)
    assert game is not None
    moves = [m.uci() for m in game.mainline_moves()]
    assert moves[0] == "e2e4" and len(moves) == 2


@pytest.mark.browser
def test_chess_can_be_played_with_the_keyboard_and_black_sees_the_board_flipped(
    page: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=5")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    page.focus('#board [data-square="e2"]')
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#board :focus")).to_have_attribute("data-square", "e4")
    page.keyboard.press("Enter")
    wait_for_your_turn_or_end(page)
    assert pieces(page).get("e4") == "P"
    open_page(page, live_server, "?game=chess&level=easy&seed=5&starts=ai")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (Black)")
    first = page.locator("#board [data-square]").first
    expect(first).to_have_attribute("data-square", "h1")
