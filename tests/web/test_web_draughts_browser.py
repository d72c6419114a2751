"""International draughts' and Turkish dama's boards in headless Chromium: click-click moves that
follow the maximum capture, captures chosen square by square where they share their ends, drag
and drop, the flip, and every move's value. Same fixtures and bounded waits as
test_web_browser.py. The moves the page sends are played by the real server without the AI's
reply (the request is passed on with ``ai`` off), so these tests need the games' states only."""

# ruff: noqa: F811 - the browser tests' fixtures are imported by name and taken as arguments
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.test_web_browser import (  # noqa: F401 - fixtures
    browser,
    open_page,
    page,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/faces")  # the screenshots of the boards, for a person to look at

# White men on 49 and 38: only 38x27x18 takes the most (two); 49x40 takes one and is not offered.
INTL_MAX = "W:W38,49:B22,30,32,44"
# A white king on 21: 21x32x23x1 and 21x38x29x1 end on the same square by different ones.
INTL_TWO_WAYS = "W:WK21:B12,15,27,28,33"
# Dama: f4xf8 (over f5 and f7, landing on f6 in between) takes two; d2xb2 takes one, not offered.
DAMA_MAX = "W:Wf4,d2:Bc2,f5,c4,f7"
# A white king on e6: e6xa2xh8 and e6xa3xh8 end on h8, by a6-a2-h2 or a6-a3-h3.
DAMA_TWO_WAYS = "W:WKe6:Bd6,a4,f2,h7,d3"


@pytest.fixture(autouse=True)
def shots() -> Iterator[None]:
    SHOTS.mkdir(exist_ok=True)
    yield


def without_ai(page: Page) -> list[str]:
    """Pass the page's moves on to /api/play with the AI's reply off; the moves sent, in order."""
    sent: list[str] = []

    def play(route: Any) -> None:
        body = route.request.post_data_json
        sent.append(str(body["move"]))
        route.continue_(post_data=json.dumps({**body, "ai": False}))

    page.route("**/api/play", play)
    return sent


def pieces(page: Page) -> dict[str, str]:
    found: dict[str, str] = {}
    for element in page.query_selector_all("#board [data-move][data-piece]"):
        found[str(element.get_attribute("data-move"))] = str(element.get_attribute("data-piece"))
    return found


def names(page: Page, selector: str) -> set[str]:
    locator = page.locator(selector)
    return {str(locator.nth(i).get_attribute("data-move")) for i in range(locator.count())}


def wait_until_played(page: Page, sent: list[str], count: int) -> None:
    expect(page.locator("#move-list .move-item")).to_have_count(count)
    assert len(sent) == count


def test_international_is_played_by_two_clicks_on_its_10x10_board(
    page: Page, live_server: str
) -> None:
    sent = without_ai(page)
    open_page(page, live_server, "?game=international&level=easy&seed=1")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    assert page.locator("#board [data-move]").count() == 50
    assert page.locator("#board .row").count() == 10
    assert page.locator("#board .number").all_inner_texts() == [str(n) for n in range(1, 51)]
    assert page.locator("#board [data-coord=file]").all_inner_texts() == list("abcdefghij")
    ranks = page.locator("#board [data-coord=rank]").all_inner_texts()
    assert ranks == [str(n) for n in range(10, 0, -1)]
    assert sorted(pieces(page), key=int) == [str(n) for n in [*range(1, 21), *range(31, 51)]]
    # Only the men that can move are highlighted: 31-35.
    assert names(page, "#board .movable") == {"31", "32", "33", "34", "35"}
    page.screenshot(path=f"{SHOTS}/international-start.png")
    page.click('#board [data-move="32"]')
    expect(page.locator("#board .selected")).to_have_attribute("data-move", "32")
    assert names(page, "#board .target") == {"27", "28"}
    page.click('#board [data-move="28"]')
    wait_until_played(page, sent, 1)
    assert sent == ["32-28"]
    after = pieces(page)
    assert after["28"] == "w" and "32" not in after
    # The last move is marked on both its squares.
    assert names(page, "#board .last") == {"32", "28"}
    expect(page.locator("#move-list .move-item")).to_have_text(["32-28"])
    page.screenshot(path=f"{SHOTS}/international-after-32-28.png")


def test_international_offers_only_the_maximum_capture(page: Page, live_server: str) -> None:
    sent = without_ai(page)
    open_page(page, live_server, f"?game=international&seed=1&position={INTL_MAX}")
    message = page.locator("[data-testid=message]")
    assert names(page, "#board .movable") == {"38"}
    page.click('#board [data-move="49"]')
    expect(message).to_have_text("A capture is mandatory: pick a piece that can jump.")
    page.click('#board [data-move="38"]')
    assert names(page, "#board .target") == {"18"}
    page.click('#board [data-move="18"]')
    wait_until_played(page, sent, 1)
    assert sent == ["38x27x18"]  # the full path, though the game writes it 38x18
    after = pieces(page)
    assert after.get("18") == "w" and "32" not in after and "22" not in after
    expect(page.locator("#move-list .move-item")).to_have_text(["38x18"])


def test_international_captures_that_share_their_ends_are_chosen_square_by_square(
    page: Page, live_server: str
) -> None:
    sent = without_ai(page)
    open_page(page, live_server, f"?game=international&seed=1&position={INTL_TWO_WAYS}")
    message = page.locator("[data-testid=message]")
    expect(page.locator('#board [data-move="21"] .piece')).to_have_class(re.compile(r"\bking\b"))
    page.click('#board [data-move="21"]')
    assert names(page, "#board .target") == {"1", "7"}
    # Where they split, the next landing squares are highlighted.
    assert names(page, "#board .next") == {"32", "38"}
    page.click('#board [data-move="1"]')
    expect(message).to_have_text(
        "Several captures end there: click the squares it jumps through, in order."
    )
    page.click('#board [data-move="38"]')
    expect(page.locator("#board .chosen")).to_have_attribute("data-move", "38")
    page.screenshot(path=f"{SHOTS}/international-two-ways.png")
    page.click('#board [data-move="1"]')
    wait_until_played(page, sent, 1)
    assert sent == ["21x38x29x1"]
    assert pieces(page).get("1") == "W"


def test_dama_is_played_by_two_clicks_on_its_plain_board(page: Page, live_server: str) -> None:
    sent = without_ai(page)
    open_page(page, live_server, "?game=dama&level=easy&seed=1")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-plain", "true")
    assert page.locator("#board [data-move]").count() == 64
    assert page.locator("#board .light").count() == 0
    assert page.locator("#board .number").count() == 0
    assert page.locator("#board [data-coord=file]").all_inner_texts() == list("abcdefgh")
    assert page.locator("#board [data-coord=rank]").all_inner_texts() == list("87654321")
    assert page.inner_text('#board [data-move="a1"] [data-coord=file]') == "a"
    assert names(page, "#board .movable") == {f"{f}3" for f in "abcdefgh"}
    page.screenshot(path=f"{SHOTS}/dama-start.png")
    page.click('#board [data-move="d3"]')
    assert names(page, "#board .target") == {"d4"}
    page.click('#board [data-move="d4"]')
    wait_until_played(page, sent, 1)
    assert sent == ["d3-d4"]
    after = pieces(page)
    assert after["d4"] == "w" and "d3" not in after
    assert names(page, "#board .last") == {"d3", "d4"}


def test_dama_offers_only_the_maximum_capture_and_sends_its_path(
    page: Page, live_server: str
) -> None:
    sent = without_ai(page)
    open_page(page, live_server, f"?game=dama&seed=1&position={DAMA_MAX}")
    assert names(page, "#board .movable") == {"f4"}
    page.click('#board [data-move="d2"]')
    expect(page.locator("[data-testid=message]")).to_have_text(
        "A capture is mandatory: pick a piece that can jump."
    )
    page.click('#board [data-move="f4"]')
    assert names(page, "#board .target") == {"f8"}
    page.click('#board [data-move="f8"]')
    wait_until_played(page, sent, 1)
    assert sent == ["f4xf6xf8"]
    after = pieces(page)
    # The man that reached the last row is crowned when the capture ends.
    assert after.get("f8") == "W" and "f5" not in after and "f7" not in after


def test_dama_king_captures_are_chosen_square_by_square(page: Page, live_server: str) -> None:
    sent = without_ai(page)
    open_page(page, live_server, f"?game=dama&seed=1&position={DAMA_TWO_WAYS}")
    page.click('#board [data-move="e6"]')
    assert names(page, "#board .target") == {"h8", "f1"}
    page.click('#board [data-move="a6"]')
    assert names(page, "#board .next") == {"a2", "a3"}
    page.click('#board [data-move="a3"]')
    assert names(page, "#board .next") == {"h3", "f3"}  # on to h8, or to f1
    page.screenshot(path=f"{SHOTS}/dama-two-ways.png")
    page.click('#board [data-move="h8"]')
    wait_until_played(page, sent, 1)
    assert sent == ["e6xa6xa3xh3xh8"]
    expect(page.locator("#move-list .move-item")).to_have_text(["e6xa3xh8"])


def test_a_man_is_dragged_and_the_board_flips(page: Page, live_server: str) -> None:
    sent = without_ai(page)
    open_page(page, live_server, "?game=international&seed=1")
    first = page.locator("#board .row").first.locator("[data-move]").first
    expect(first).to_have_attribute("data-move", "1")
    expect(page.locator("#flip")).to_be_visible()
    page.click("#flip")
    expect(first).to_have_attribute("data-move", "50")
    assert page.locator("#board [data-coord=file]").all_inner_texts() == list("jihgfedcba")
    box_from = page.locator('#board [data-move="33"]').bounding_box()
    box_to = page.locator('#board [data-move="29"]').bounding_box()
    assert box_from and box_to
    page.mouse.move(box_from["x"] + box_from["width"] / 2, box_from["y"] + box_from["height"] / 2)
    page.mouse.down()
    page.mouse.move(box_to["x"] + 5, box_to["y"] + 5, steps=6)
    page.mouse.move(box_to["x"] + box_to["width"] / 2, box_to["y"] + box_to["height"] / 2)
    page.mouse.up()
    wait_until_played(page, sent, 1)
    assert sent == ["33-29"]
    page.click("#flip")
    expect(first).to_have_attribute("data-move", "1")


def fake_values(client: Any, game: str, position: str | None = None) -> dict[str, Any]:
    """An /api/analyze answer for the position: each legal move valued, best first (the page's
    drawing is tested here, not the engine)."""
    request: dict[str, Any] = {"game": game}
    if position:
        request["position"] = position
    legal = client.post("/api/state", json=request).json()["legal"]
    moves = []
    for index, move in enumerate(legal):
        estimate = round(0.5 - 0.25 * index, 2)
        moves.append(
            {
                "move": move,
                "value": {
                    "score": estimate * 100,
                    "exact": False,
                    "kind": "estimate",
                    "moves": None,
                    "estimate": estimate,
                    "unit": "men",
                    "words": f"estimate {estimate:+.2f}",
                },
                "pv": [move],
            }
        )
    return {
        "moves": moves,
        "best": legal[0],
        "pv": [legal[0]],
        "value": moves[0]["value"],
        "nodes": 1234,
        "time_ms": 5.0,
    }


@pytest.mark.parametrize(
    ("game", "piece", "landings"),
    [("international", "31", {"26", "27"}), ("dama", "b3", {"b4"})],
)
def test_every_moves_value_is_listed_and_shown_on_its_landing_square(
    page: Page, live_server: str, client: Any, game: str, piece: str, landings: set[str]
) -> None:
    answer = fake_values(client, game)
    page.route("**/api/analyze", lambda route: route.fulfill(json=answer))
    open_page(page, live_server, f"?game={game}&seed=1")
    page.locator("label.switch", has=page.locator("#thinking")).click()
    items = page.locator("[data-testid=move-values] li")
    expect(items).to_have_count(len(answer["moves"]))
    expect(items.first).to_have_class(re.compile(r"\bbest\b"))
    assert items.first.get_attribute("data-move-value") == answer["best"]
    # The best move's arrow runs along its path, and its landing square shows its value.
    arrow = page.locator("#board [data-testid=best-arrow]")
    expect(arrow).to_have_count(1)
    best_path = answer["best"].replace("x", "-").split("-")
    assert arrow.get_attribute("data-from") == best_path[0]
    assert arrow.get_attribute("data-to") == best_path[-1]
    expect(page.locator(f'#board [data-move="{best_path[-1]}"] .value')).to_have_text("+0.50")
    # A selected piece shows the value of each of its moves on the square it lands on.
    page.click(f'#board [data-move="{piece}"]')
    shown = page.locator("#board .value:not(:empty)")
    expect(shown).to_have_count(len(landings))
    values = {
        str(shown.nth(i).locator("xpath=..").get_attribute("data-move")): shown.nth(i).inner_text()
        for i in range(shown.count())
    }
    assert values == {
        square: f"{entry['value']['estimate']:+.2f}".replace("+0.00", "0.00")
        for entry in answer["moves"]
        for square in landings
        if entry["move"].startswith(f"{piece}-") and entry["move"].endswith(f"-{square}")
    }
    page.screenshot(path=f"{SHOTS}/{game}-values.png")


# -- against the real engine: the AI replies, and its values are shown -------------------------


@pytest.mark.parametrize(
    ("game", "piece", "landing", "men"),
    [("international", "32", "28", 20), ("dama", "d3", "d4", 16)],
)
def test_a_move_by_clicks_gets_the_ais_reply(
    page: Page, live_server: str, game: str, piece: str, landing: str, men: int
) -> None:
    open_page(page, live_server, f"?game={game}&level=easy&seed=3")
    status = page.locator("[data-testid=status]")
    expect(status).to_have_text("Your turn (White)")
    before = pieces(page)
    page.click(f'#board [data-move="{piece}"]')
    page.click(f'#board [data-move="{landing}"]')
    expect(page.locator("#move-list .move-item")).to_have_count(2, timeout=30_000)
    expect(status).to_have_text("Your turn (White)")
    after = pieces(page)
    assert after[landing] == "w" and piece not in after
    black_before = {square for square, p in before.items() if p == "b"}
    black_after = {square for square, p in after.items() if p == "b"}
    assert len(black_after) == men and black_after != black_before  # Black moved one man
    assert len(black_after - black_before) == 1
    # The AI's move is the last one marked.
    reply = page.locator("#move-list .move-item").nth(1).inner_text()
    assert names(page, "#board .last") == set(re.split("[-x]", reply))


@pytest.mark.parametrize("game", ["international", "dama"])
def test_the_engines_values_are_listed_for_every_legal_move(
    page: Page, live_server: str, client: Any, game: str
) -> None:
    legal = client.post("/api/state", json={"game": game}).json()["legal"]
    open_page(page, live_server, f"?game={game}&seed=1")
    page.locator("label.switch", has=page.locator("#thinking")).click()
    items = page.locator("[data-testid=move-values] li")
    expect(items).to_have_count(len(legal), timeout=30_000)
    assert {str(items.nth(i).get_attribute("data-move-value")) for i in range(len(legal))} == set(
        legal
    )
    for text in items.locator(".words").all_inner_texts():
        assert re.fullmatch(r"[+-]?\d+\.\d\d men \(heuristic\)", text), text
    best = str(items.first.get_attribute("data-move-value"))
    expect(page.locator("#board [data-testid=best-arrow]")).to_have_attribute(
        "data-from", re.split("[-x]", best)[0]
    )
    badge = page.locator("#board .value:not(:empty)")
    expect(badge).to_have_count(1)
    assert re.fullmatch(r"[+-]?\d+\.\d\d", badge.inner_text())


def test_the_boards_are_played_with_the_keyboard(page: Page, live_server: str) -> None:
    sent = without_ai(page)
    # Dama: every square is a point, so the arrows go to the neighbour.
    open_page(page, live_server, "?game=dama&seed=1")
    page.focus('#board [data-move="d3"]')
    page.keyboard.press("Enter")
    expect(page.locator("#board .selected")).to_have_attribute("data-move", "d3")
    page.keyboard.press("ArrowUp")
    expect(page.locator('#board [data-move="d4"]')).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator('#board [data-move="e4"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator("#move-list .move-item")).to_have_count(1)
    # International: from dark square to dark square; flipped, up is towards White's side.
    open_page(page, live_server, "?game=international&seed=1")
    page.focus('#board [data-move="32"]')
    page.keyboard.press("ArrowUp")
    expect(page.locator('#board [data-move="28"]')).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator('#board [data-move="29"]')).to_be_focused()
    page.keyboard.press("f")
    expect(page.locator("#board")).to_have_attribute("data-orientation", "turned")
    page.screenshot(path=f"{SHOTS}/international-flipped.png")
    page.focus('#board [data-move="28"]')
    page.keyboard.press("ArrowUp")
    expect(page.locator('#board [data-move="33"]')).to_be_focused()
    page.keyboard.press("f")
    assert sent == ["d3-d4"]
