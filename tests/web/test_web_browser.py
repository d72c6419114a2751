"""End-to-end: the page in headless Chromium, played by clicks, against a live server.

These need Debian's ``chromium`` at /usr/bin/chromium (``scripts/install-browser.sh``) and the
``playwright`` package; without them they are skipped with the reason. Every wait is bounded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zermelo.games.tictactoe import TicTacToeState
from zermelo.ui.web.messages import messages_for

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("ZERMELO_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 15_000

try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if sync_playwright is None:
        pytest.fail("the playwright package is not installed (pip install zermelo[test])")
    if not CHROMIUM.exists():
        # CI installs Chromium (.ci/run): there a missing browser is a failure, never a skip.
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM}: scripts/install-browser.sh did not install it")
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install-browser.sh")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=WAIT_MS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def open_page(page: Page, base: str, query: str = "") -> None:
    page.goto(f"{base}/{query}")
    page.wait_for_selector("body[data-ready=true]")


def wait_for_your_turn_or_end(page: Page) -> str:
    page.wait_for_selector(
        '[data-testid=status][data-state="your-turn"], [data-testid=status][data-state="over"]'
    )
    return str(page.get_attribute("[data-testid=status]", "data-state"))


def board_notation(page: Page) -> str:
    cells = []
    for square in range(9):
        text = (
            page.inner_text(f'#board [data-move="{square}"] .mark')
            if page.query_selector(f'#board [data-move="{square}"] .mark')
            else "."
        )
        cells.append(text.strip() or ".")
    return "".join(cells)


def test_a_whole_game_by_clicks_ends_with_the_right_result(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&level=hard&seed=11")
    status = page.locator("[data-testid=status]")
    # You play O, as in the terminal and the tutorial, and O starts when you do.
    expect(status).to_have_text("Your turn (O)")
    preference = [0, 1, 2, 3, 5, 6, 7, 8, 4]
    clicks = 0
    while wait_for_your_turn_or_end(page) == "your-turn":
        free = [s for s in preference if not page.query_selector(f'#board [data-move="{s}"] .mark')]
        page.click(f'#board [data-move="{free[0]}"]')
        clicks += 1
        assert clicks <= 5, "a tic-tac-toe game has at most five moves per side"
    state = TicTacToeState.parse(board_notation(page))
    assert state.is_terminal()
    winner = state.winner
    # You are O (the second player, who moved first here); the hard AI never loses.
    assert winner != 1, "the hard AI never loses"
    expected = (
        "Game over: board full. It's a draw."
        if winner is None
        else "Game over: three in a row. The AI wins."
    )
    expect(status).to_have_text(expected)
    assert clicks >= 3
    highlighted = page.locator("#board .winning").count()
    assert highlighted >= 3 if winner is not None else highlighted == 0


def test_a_click_on_a_taken_square_is_refused_with_a_message(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&seed=3")
    page.click('#board [data-move="4"]')
    wait_for_your_turn_or_end(page)
    before = board_notation(page)
    assert before[4] == "O" and before.count("X") == 1
    # A taken square is aria-disabled, which Playwright's own checks honour; a person's mouse does
    # not, so click it anyway.
    page.click('#board [data-move="4"]', force=True)
    expect(page.locator("[data-testid=message]")).to_contain_text("square 4 is already taken")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (O)")
    assert board_notation(page) == before


def test_undo_takes_back_your_move_and_the_reply(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&seed=5")
    page.click('#board [data-move="0"]')
    wait_for_your_turn_or_end(page)
    assert board_notation(page).count(".") == 7
    page.click("#undo")
    expect(page.locator("#board .mark")).to_have_count(0)
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (O)")


def test_the_ai_can_start(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&starts=ai&seed=2")
    wait_for_your_turn_or_end(page)
    notation = board_notation(page)
    assert notation.count("X") == 1 and notation.count("O") == 0
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (O)")


def test_the_thinking_overlay_shows_the_value_of_each_move(page: Page, live_server: str) -> None:
    # X: 0 1, O: 3 4; X to move: 2 wins at once, 5 blocks, anything else loses to 5.
    open_page(page, live_server, "?game=tictactoe&moves=0,3,1,4&seed=1")
    wait_for_your_turn_or_end(page)
    page.locator("label.switch", has=page.locator("#thinking")).click()
    win = page.locator('#board [data-move="2"]')
    expect(win).to_have_attribute("data-value", "win in 1")
    expect(win).to_have_class(re.compile(r"\bwin\b"))
    expect(win).to_have_class(re.compile(r"\bbest\b"))
    expect(win).to_have_attribute("title", "2: win in 1")
    expect(page.locator('#board [data-move="6"]')).to_have_attribute("data-value", "loss in 1")
    expect(page.locator('#board [data-move="6"]')).to_have_class(re.compile(r"\bloss\b"))
    expect(page.locator("[data-testid=best]")).to_have_text("2 · win in 1")
    expect(page.locator("[data-testid=pv]")).to_have_text(re.compile(r"^2\b"))
    expect(page.locator("[data-testid=stats]")).to_have_text(
        re.compile(r"^[\d,]+ nodes in [\d.]+ ms$")
    )
    # Taken squares carry no value; switching off removes the overlay.
    assert page.get_attribute('#board [data-move="0"]', "data-value") is None
    page.locator("label.switch", has=page.locator("#thinking")).click()
    expect(page.locator("#board [data-value]")).to_have_count(0)
    expect(page.locator("[data-testid=thinking]")).to_be_hidden()


def test_the_explainer_draws_the_tree_with_counts_and_cut_branches(
    page: Page, live_server: str
) -> None:
    open_page(page, live_server, "?game=tictactoe&moves=0,3,1,4&seed=1")
    wait_for_your_turn_or_end(page)
    page.locator("label.switch", has=page.locator("#explain")).click()
    totals = page.locator("[data-testid=tree-totals]")
    expect(totals).to_contain_text("Minimax: ")
    expect(totals).to_contain_text("Alpha-beta: ")
    root = page.locator('#tree li[data-path=""]')
    expect(root).to_have_attribute("aria-expanded", "true")
    # X's 2 ends the game: one node for either search, counted in the singular.
    expect(page.locator('#tree li[data-path="2"] .node-facts')).to_have_text(
        "Minimax: 1 node · Alpha-beta: 1 node"
    )
    child = page.locator('#tree li[data-path="6"]')
    expect(child).to_be_visible()
    child.locator(":scope > .node-row .toggle").click()
    expect(child).to_have_attribute("aria-expanded", "true")
    for pruned in ("6,8", "6,5", "6,7"):
        expect(page.locator(f'#tree li[data-path="{pruned}"]')).to_have_class(re.compile("pruned"))
    expect(page.locator('#tree li[data-path="6,2"]')).not_to_have_class(re.compile("pruned"))


def test_the_language_menu_translates_the_page(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe")
    page.select_option("#lang", "nl")
    expected = messages_for("nl")["Your turn ({mark})"].replace("{mark}", "O")
    expect(page.locator("[data-testid=status]")).to_have_text(expected)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("#new")).to_have_text(messages_for("nl")["New game"])


def test_the_board_fits_a_phone_screen(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        open_page(page, live_server, "?game=tictactoe")
        box = page.locator("#board").bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, "the page scrolls sideways on a phone"
        cell = page.locator('#board [data-move="4"]').bounding_box()
        assert cell is not None and cell["width"] >= 44, "touch targets of at least 44 px"
    finally:
        context.close()


def test_a_connect_four_click_drops_the_disc_into_that_column(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=connect4&level=easy&seed=4")
    expect(page.locator("#board .column")).to_have_count(7)
    page.click('#board [data-move="3"]')
    wait_for_your_turn_or_end(page)
    column = page.locator('#board [data-move="3"]')
    # The person's disc lies at the bottom of column 3, whatever the AI answered.
    expect(column.locator(".slot").last.locator(".mark-X")).to_have_count(1)
    expect(page.locator("#board .mark-X")).to_have_count(1)
    expect(page.locator("#board .mark-O")).to_have_count(1)


def test_the_board_can_be_played_with_the_keyboard(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&seed=8")
    page.focus('#board [data-move="0"]')
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.move") == "4"
    page.keyboard.press("Enter")
    wait_for_your_turn_or_end(page)
    assert board_notation(page)[4] == "O"
    assert page.evaluate("document.activeElement.dataset.move") == "4"


def test_the_page_follows_the_browsers_language(browser: Any, live_server: str) -> None:
    context = browser.new_context(
        locale="tr-TR", extra_http_headers={"Accept-Language": "tr-TR,tr;q=0.9"}
    )
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        open_page(page, live_server, "?game=tictactoe")
        expect(page.locator("html")).to_have_attribute("lang", "tr")
        assert page.input_value("#lang") == "tr"
        expected = messages_for("tr")["Your turn ({mark})"].replace("{mark}", "O")
        expect(page.locator("[data-testid=status]")).to_have_text(expected)
    finally:
        context.close()


def test_game_options_change_the_board(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=mnk&level=easy")
    expect(page.locator("#board .cell")).to_have_count(15 * 15)
    page.fill('#options [data-option="width"]', "7")
    page.press('#options [data-option="width"]', "Enter")
    page.fill('#options [data-option="height"]', "6")
    page.press('#options [data-option="height"]', "Enter")
    page.fill('#options [data-option="k"]', "4")
    page.press('#options [data-option="k"]', "Enter")
    expect(page.locator("#board .cell")).to_have_count(7 * 6)
    expect(page.locator('#board [data-move="a1"]')).to_have_count(1)
    page.click('#board [data-move="d1"]')
    wait_for_your_turn_or_end(page)
    expect(page.locator("#board .mark")).to_have_count(2)
    # A size the game refuses is named, and the board stays playable.
    page.fill('#options [data-option="k"]', "19")
    page.press('#options [data-option="k"]', "Enter")
    expect(page.locator("[data-testid=message]")).to_contain_text("19")
    expect(page.locator('#options [data-option="k"]')).to_have_value("4")
    expect(page.locator("#board .cell")).to_have_count(7 * 6)


def checkers_pieces(page: Page) -> dict[int, str]:
    """The pieces on the page's checkers board, by square number."""
    pieces: dict[int, str] = {}
    for element in page.query_selector_all("#board [data-move][data-piece]"):
        pieces[int(str(element.get_attribute("data-move")))] = str(
            element.get_attribute("data-piece")
        )
    return pieces


def test_checkers_a_piece_is_moved_by_two_clicks_and_the_ai_replies(
    page: Page, live_server: str
) -> None:
    open_page(page, live_server, "?game=checkers&level=easy&seed=9")
    status = page.locator("[data-testid=status]")
    expect(status).to_have_text("Your turn (Black)")
    assert page.locator("#board [data-move]").count() == 32
    before = checkers_pieces(page)
    assert sorted(before) == [*range(1, 13), *range(21, 33)]
    page.click('#board [data-move="11"]')
    expect(page.locator("#board .selected")).to_have_attribute("data-move", "11")
    targets = page.locator("#board .target")
    expect(targets).to_have_count(2)
    assert {targets.nth(i).get_attribute("data-move") for i in range(2)} == {"15", "16"}
    page.click('#board [data-move="15"]')
    wait_for_your_turn_or_end(page)
    expect(status).to_have_text("Your turn (Black)")
    after = checkers_pieces(page)
    assert after[15] == "b" and 11 not in after
    moved = set(before) ^ set(after)
    assert {11, 15} < moved and len(moved) == 4, moved  # the AI moved one white man too
    assert sum(piece == "w" for piece in after.values()) == 12


def test_checkers_refused_clicks_say_why_and_a_capture_is_played(
    page: Page, live_server: str
) -> None:
    # After 11-15 22-18, Black must take: 15x22.
    open_page(page, live_server, "?game=checkers&level=easy&seed=2&moves=11-15,22-18")
    message = page.locator("[data-testid=message]")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (Black)")
    page.click('#board [data-move="21"]')
    expect(message).to_have_text("Pick one of your pieces.")
    page.click('#board [data-move="9"]')
    expect(message).to_have_text("A capture is mandatory: pick a piece that can jump.")
    expect(page.locator("#board .selected")).to_have_count(0)
    page.click('#board [data-move="15"]')
    expect(message).to_have_text("")
    page.click('#board [data-move="19"]')
    expect(message).to_have_text("That is not a move for this piece: pick a highlighted square.")
    page.click('#board [data-move="22"]')
    wait_for_your_turn_or_end(page)
    pieces = checkers_pieces(page)
    # Black took the man on 18; White had to take back on 22 (25x18 or 26x17).
    assert sum(piece == "w" for piece in pieces.values()) == 11
    assert sum(piece == "b" for piece in pieces.values()) == 11
    assert 15 not in pieces and 22 not in pieces


def test_checkers_thinking_lists_every_legal_move_with_its_value(
    page: Page, live_server: str
) -> None:
    open_page(page, live_server, "?game=checkers&seed=1")
    page.locator("label.switch", has=page.locator("#thinking")).click()
    items = page.locator("[data-testid=move-values] li")
    expect(items).to_have_count(7)
    names = {str(items.nth(i).get_attribute("data-move-value")) for i in range(7)}
    assert names == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    expect(items.first).to_have_class(re.compile(r"\bbest\b"))
    expect(items.first).to_contain_text("(heuristic)")


# A black king on 3 with two jumps that both end on 17: 3x10x17 and 3x12x19x10x17.
TWO_WAYS = "B:W7,8,14,15,16,30:BK3"


def test_checkers_clicks_through_a_square_pick_between_jumps_to_the_same_square(
    page: Page, live_server: str, client: Any
) -> None:
    # The page has no control for a start position: it gets one as the game's initial position
    # from /api/games, and the move it then sends to /api/play is caught.
    two_ways = client.post("/api/state", json={"game": "checkers", "position": TWO_WAYS}).json()

    def games(route: Any) -> None:
        answer = route.fetch().json()
        for game in answer["games"]:
            if game["name"] == "checkers":
                game["initial"] = two_ways
        route.fulfill(json=answer)

    sent: list[str] = []

    def play(route: Any) -> None:
        sent.append(str(route.request.post_data_json["move"]))
        route.fulfill(status=422, json={"error": {"type": "Caught", "message": "caught"}})

    page.route("**/api/games", games)
    page.route("**/api/play", play)
    open_page(page, live_server, "?game=checkers&seed=1")
    message = page.locator("[data-testid=message]")
    page.click('#board [data-move="3"]')
    expect(page.locator("#board .target")).to_have_count(2)  # 17, and 3 itself (a loop)
    expect(page.locator('#board [data-move="12"]')).to_have_class(re.compile(r"\bvia\b"))
    page.click('#board [data-move="17"]')
    expect(message).to_have_text(
        "Several captures end there: click the squares it jumps through, in order."
    )
    page.click('#board [data-move="12"]')
    expect(page.locator("#board .target")).to_have_count(2)
    page.click('#board [data-move="17"]')
    expect(message).to_contain_text("caught")
    page.click('#board [data-move="3"]')
    expect(message).to_have_text("")
    page.click('#board [data-move="10"]')
    page.click('#board [data-move="17"]')
    expect(message).to_contain_text("caught")
    assert sent == ["3x12x19x10x17", "3x10x17"]


def test_checkers_can_be_played_with_the_keyboard(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=checkers&level=easy&seed=3")
    page.focus('#board [data-move="11"]')
    page.keyboard.press("Enter")
    expect(page.locator("#board .selected")).to_have_attribute("data-move", "11")
    page.keyboard.press("ArrowDown")  # to 16, the nearest dark square below on the right
    expect(page.locator('#board [data-move="16"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator('#board [data-move="15"]')).to_be_focused()
    page.keyboard.press("Enter")
    wait_for_your_turn_or_end(page)
    pieces = checkers_pieces(page)
    assert pieces[15] == "b" and 11 not in pieces


def test_checkers_when_the_ai_starts_you_play_white(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=checkers&level=medium&starts=ai&seed=4")
    wait_for_your_turn_or_end(page)
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    pieces = checkers_pieces(page)
    assert sorted(s for s, piece in pieces.items() if piece == "b") != list(range(1, 13))
    page.click('#board [data-move="11"]')
    expect(page.locator("[data-testid=message]")).to_have_text("Pick one of your pieces.")


def test_a_plugin_game_is_played_on_the_generic_grid(
    page: Page, live_server: str, with_nim: Path
) -> None:
    # Nim from examples/zermelo-nim: heaps 1, 3, 5, 7, one row of stones each. A click on the first
    # stone of the fourth heap takes all seven; the hard AI answers 3-3, the one move that leaves
    # a nim-sum of 0 (1 ^ 3 ^ 2 = 0).
    open_page(page, live_server, "?game=nim&level=hard&seed=1")
    expect(page.locator("#board .cell")).to_have_count(28)
    page.click('#board [data-move="4-7"]')
    expect(page.locator("#board [data-move='3-2']")).to_have_count(1)
    expect(page.locator("#board [data-move='3-3']")).to_have_count(0)
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator("#board .row")).to_have_count(4)
