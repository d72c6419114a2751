"""The boards in headless Chromium: coordinates in each game's notation, chess drag and drop, the
flip, the best move's arrow, and the layout faults of issue 23 (check colour, Connect Four's
replayed drops, hex overflowing its card, nim's squeezed option label).

Same fixtures and bounded waits as test_web_browser.py.
"""

# ruff: noqa: F811 - the browser tests' fixtures are imported by name and taken as arguments

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from chess import FILE_NAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tests.web.test_web_browser import (  # noqa: F401 - fixtures
    browser,
    open_page,
    page,
    wait_for_your_turn_or_end,
)

from zermelo.games.registry import get_game
from zermelo.ui.web import create_app

pytestmark = pytest.mark.browser


def texts(page: Any, selector: str) -> list[str]:
    return [str(text) for text in page.locator(selector).all_inner_texts()]


def reference_grid(name: str) -> Any:
    """The game's own board (what the terminal draws, with its files and ranks)."""
    spec = get_game(name)
    return spec.grid(spec.new())


# -- coordinates ---------------------------------------------------------------------------------


def test_chess_has_files_and_ranks_as_its_notation_names_them(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=chess&level=easy&seed=1")
    grid = reference_grid("chess")
    assert texts(page, "#board [data-coord=file]") == list(FILE_NAMES) == list(grid.files)
    # The ranks down the left edge, 8 at the top, as the terminal's board (its ranks from the top).
    assert texts(page, "#board [data-coord=rank]") == list(grid.ranks) == list("87654321")
    # Each label sits on the square it names: file e on e1, rank 4 on a4.
    assert page.inner_text('#board [data-square="e1"] [data-coord=file]') == "e"
    assert page.inner_text('#board [data-square="a4"] [data-coord=rank]') == "4"


@pytest.mark.parametrize("game", ["gomoku", "mnk"])
def test_stone_boards_have_the_files_and_ranks_of_their_moves(
    page: Any, live_server: str, game: str
) -> None:
    open_page(page, live_server, f"?game={game}&level=easy&seed=1")
    grid = reference_grid(game)
    assert texts(page, "#board [data-coord=file]") == list(grid.files)
    assert texts(page, "#board [data-coord=rank]") == list(grid.ranks)
    assert grid.files[7] == "h" and grid.ranks[7] == "8"
    assert page.inner_text('#board [data-move="a8"] [data-coord=rank]') == "8"
    assert page.inner_text('#board [data-move="h1"] [data-coord=file]') == "h"


def test_othello_is_labelled_from_its_moves_with_1_at_the_top(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=othello&level=easy&seed=1")
    assert texts(page, "#board [data-coord=file]") == list("abcdefgh")
    assert texts(page, "#board [data-coord=rank]") == list("12345678")
    # d3, one of Black's first moves, is the cell in file d and rank 3.
    cells = page.locator("#board .row").nth(2).locator(".cell")
    assert cells.nth(3).get_attribute("data-move") == "d3"
    assert cells.nth(0).locator("[data-coord=rank]").inner_text() == "3"


def test_tictactoe_squares_show_their_numbers(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe&seed=1")
    assert texts(page, "#board [data-coord=number]") == [str(n) for n in range(9)]
    for square in range(9):
        label = page.inner_text(f'#board [data-move="{square}"] [data-coord=number]')
        assert label == str(square)


def test_connect_four_columns_are_numbered_as_its_moves(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=connect4&level=easy&seed=1")
    assert texts(page, "#board [data-coord=column]") == [str(n) for n in range(1, 8)]
    assert page.inner_text('#board [data-move="4"] [data-coord=column]') == "4"


def test_checkers_squares_keep_their_numbers(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=checkers&level=easy&seed=1")
    assert texts(page, "#board .number") == [str(n) for n in range(1, 33)]


# -- chess: drag and drop, flip, arrow, check ---------------------------------------------------


def drag(page: Any, source: str, target: str) -> None:
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def test_a_chess_piece_dragged_to_its_square_plays_the_move(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=4")
    drag(page, '#board [data-square="g1"]', '#board [data-square="f3"]')
    expect(page.locator('#board [data-square="f3"]')).to_have_attribute("data-piece", "N")
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator('#board [data-square="f3"]')).to_have_attribute("data-piece", "N")
    assert page.get_attribute('#board [data-square="g1"]', "data-piece") is None
    expect(page.locator("[data-testid=drag-ghost]")).to_have_count(0)
    # The AI answered: Black has moved a piece of its own.
    expect(page.locator("#board .last")).to_have_count(2)


def test_a_drag_to_a_square_the_piece_cannot_reach_plays_nothing(
    page: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=4")
    drag(page, '#board [data-square="g1"]', '#board [data-square="g4"]')
    expect(page.locator('#board [data-square="g1"]')).to_have_attribute("data-piece", "N")
    assert page.get_attribute('#board [data-square="g4"]', "data-piece") is None
    expect(page.locator("#board .selected")).to_have_count(0)
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    # Click-click still works after a drag.
    page.click('#board [data-square="e2"]')
    expect(page.locator("#board .selected")).to_have_attribute("data-square", "e2")


def test_a_pawn_dragged_to_the_last_rank_asks_for_the_piece(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    # The position of test_web_chess's promotion test: b7xa8 promotes, to any of four pieces.
    line = "a4,b5,axb5,a6,bxa6,Bb7,axb7,Nc6"
    open_page(page, live_server, f"?game=chess&level=easy&seed=1&moves={line}")
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    drag(page, '#board [data-square="b7"]', '#board [data-square="a8"]')
    picker = page.locator("[data-testid=promotion] button")
    expect(picker).to_have_count(4)
    assert {picker.nth(i).get_attribute("data-promotion") for i in range(4)} == set("qrbn")
    page.click('[data-testid=promotion] button[data-promotion="n"]')
    wait_for_your_turn_or_end(page)
    assert page.get_attribute('#board [data-square="b7"]', "data-piece") is None


def test_a_checkers_man_dragged_forward_plays_the_move(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=checkers&level=easy&seed=9")
    drag(page, '#board [data-move="11"]', '#board [data-move="15"]')
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator('#board [data-move="15"]')).to_have_attribute("data-piece", "b")
    assert page.get_attribute('#board [data-move="11"]', "data-piece") is None


def first_squares(page: Any) -> list[str]:
    return [
        str(
            page.locator("#board .row")
            .first.locator("[data-square]")
            .nth(i)
            .get_attribute("data-square")
        )
        for i in (0, 7)
    ]


def test_the_board_flips_with_the_button_and_the_f_key(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=1")
    assert first_squares(page) == ["a8", "h8"]
    expect(page.locator("#flip")).to_be_visible()
    page.click("#flip")
    assert first_squares(page) == ["h1", "a1"]
    assert texts(page, "#board [data-coord=file]") == list(reversed(FILE_NAMES))
    assert texts(page, "#board [data-coord=rank]") == list("12345678")
    page.locator("#board").focus()
    page.keyboard.press("f")
    assert first_squares(page) == ["a8", "h8"]
    assert texts(page, "#board [data-coord=file]") == list(FILE_NAMES)
    # The tools are the chess board's: another game hides them.
    page.select_option("#game", "tictactoe")
    expect(page.locator("#flip")).to_be_hidden()


def test_the_best_move_arrow_joins_the_analysis_best_moves_squares(
    page: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    # 1. e4 e5 2. Qh5 Nc6 3. Qxf7+: Black, in check, has one legal move, Kxf7.
    open_page(
        page, live_server, "?game=chess&starts=ai&level=easy&seed=1&moves=e4,e5,Qh5,Nc6,Qxf7%2B"
    )
    assert wait_for_your_turn_or_end(page) == "your-turn"
    page.locator("label.switch", has=page.locator("#thinking")).click()
    arrow = page.locator("#board [data-testid=best-arrow]")
    expect(arrow).to_have_count(1, timeout=60_000)
    expect(page.locator("[data-testid=best]")).to_contain_text("Kxf7")
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == ("e8", "f7")
    # Black plays from the bottom: e8 is in the bottom row, f7 one row up and one file left.
    line = page.locator("#board .arrow")
    x1, y1, x2, y2 = (float(str(line.get_attribute(a))) for a in ("x1", "y1", "x2", "y2"))
    assert (x1, y1) == (3.5, 7.5)
    assert x2 < x1 and y2 < y1  # towards f7: left (the files run h..a) and up
    page.uncheck("#arrow")
    expect(arrow).to_have_count(0)
    page.check("#arrow")
    expect(arrow).to_have_count(1)
    page.locator("label.switch", has=page.locator("#thinking")).click()
    expect(arrow).to_have_count(0)


def test_the_checked_kings_dark_square_keeps_its_colour(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    # 1. e4 e5 2. f4 Qh4+: White's king on e1, a dark square, is in check.
    open_page(page, live_server, "?game=chess&level=easy&seed=1&moves=e4,e5,f4,Qh4%2B")
    king = page.locator('#board [data-square="e1"]')
    expect(king).to_have_class(re.compile(r"\bdark\b.*\bcheck\b"))
    colour = "getComputedStyle(document.querySelector('#board [data-square=\"{}\"]')).{}"
    checked = page.evaluate(colour.format("e1", "backgroundColor"))
    plain = page.evaluate(colour.format("a1", "backgroundColor"))
    assert checked == plain == "rgb(181, 136, 99)"
    assert "radial-gradient" in page.evaluate(colour.format("e1", "backgroundImage"))
    assert page.evaluate(colour.format("a1", "backgroundImage")) == "none"


# -- Connect Four: only the disc just played falls ---------------------------------------------

ANIMATED = """() => [...document.querySelectorAll('#board .slot .mark')]
  .filter((mark) => getComputedStyle(mark).animationName !== 'none').length"""


def test_a_page_opened_from_a_link_does_not_replay_the_drops(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=connect4&level=easy&seed=1&moves=4,4,3,3")
    expect(page.locator("#board .slot .mark")).to_have_count(4)
    assert page.evaluate(ANIMATED) == 0
    page.click('#board [data-move="5"]')
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator("#board .slot .mark")).to_have_count(6)
    # The person's disc and the AI's reply fall; the four discs of the link do not.
    assert page.locator("#board .mark.dropping").count() == 2
    assert page.evaluate(ANIMATED) == 2
    assert page.locator('#board [data-move="5"] .slot').last.locator(".mark.dropping").count() == 1


# -- the generic grid and the options ----------------------------------------------------------


@pytest.fixture(scope="module")
def hex_game() -> dict[str, Any]:
    """The game entry of OpenSpiel's 11x11 hex, as a server started with --game openspiel:hex
    lists it."""
    with TestClient(create_app(games=["openspiel:hex"]), base_url="http://127.0.0.1") as client:
        games = client.get("/api/games").json()["games"]
    entry: dict[str, Any] = next(game for game in games if game["name"] == "openspiel:hex")
    return entry


def test_hex_11x11_fits_its_card(page: Any, live_server: str, hex_game: dict[str, Any]) -> None:
    def games(route: Any) -> None:
        answer = route.fetch().json()
        answer["games"].append(hex_game)
        route.fulfill(json=answer)

    page.route("**/api/games", games)
    open_page(page, live_server, "?game=openspiel:hex")
    assert page.get_attribute("#board", "data-kind") == "grid"
    assert page.locator("#board .row").first.locator(".cell").count() == 32
    card = page.locator(".play.card").bounding_box()
    board = page.locator("#board").bounding_box()
    last = page.locator("#board .row").first.locator(".cell").last.bounding_box()
    assert card is not None and board is not None and last is not None
    assert last["x"] + last["width"] <= board["x"] + board["width"] + 0.5
    assert board["x"] >= card["x"] and board["x"] + board["width"] <= card["x"] + card["width"]
    scroll = page.evaluate("document.querySelector('.play.card').scrollWidth")
    client = page.evaluate("document.querySelector('.play.card').clientWidth")
    assert scroll <= client


def test_the_nim_option_label_gets_the_whole_row(
    page: Any, live_server: str, with_nim: Path
) -> None:
    open_page(page, live_server, "?game=nim&level=easy&seed=1")
    label = page.locator('#options label:has([data-option="heaps"])')
    text = label.locator("span").inner_text()
    assert text == "number of heaps, of 1, 3, 5, ... stones"
    box = page.locator("#options").bounding_box()
    width = label.bounding_box()
    assert box is not None and width is not None
    assert width["width"] >= box["width"] - 1, (width, box)
    # The short labels of m,n,k still share a row.
    page.select_option("#game", "mnk")
    columns = page.locator('#options label:has([data-option="width"])').bounding_box()
    rows = page.locator('#options label:has([data-option="height"])').bounding_box()
    assert columns is not None and rows is not None
    assert columns["y"] == rows["y"] and columns["width"] < box["width"] / 2


# -- the coordinates' reading of point names, fuzzed in the page's own JavaScript -------------

EDGE_NAMES = """async ([points, key]) => {
  const { edgeNames } = await import('/static/js/boards/coords.js');
  return edgeNames(points, key);
}"""

point = st.one_of(
    st.none(),
    st.just(""),
    # Few letters and digits, so that names often agree on a file or a rank and often do not.
    st.from_regex(r"[abc][1-4]", fullmatch=True),
    st.from_regex(r"[a-z][0-9]{1,2}", fullmatch=True),
    st.from_regex(r"[0-9]{1,2}(-[0-9])?", fullmatch=True),
    st.text(max_size=4),
)
boards = st.integers(1, 6).flatmap(
    lambda width: st.lists(st.lists(point, min_size=width, max_size=width), min_size=1, max_size=6)
)


@st.composite
def named_boards(draw: st.DrawFn) -> tuple[list[list[str | None]], list[str], list[str]]:
    """A board whose points are named by files and ranks (some left unnamed, as othello's), with
    those files and ranks."""
    width = draw(st.integers(1, 19))
    height = draw(st.integers(1, 19))
    first = draw(st.integers(0, 26 - width))
    top_is_one = draw(st.booleans())
    files = [chr(97 + first + c) for c in range(width)]
    ranks = [str(r + 1 if top_is_one else height - r) for r in range(height)]
    # Mostly sparse, as othello's board, which names only the legal moves.
    sparse = st.sampled_from([True, False, False, False])
    shown = draw(st.lists(sparse, min_size=width * height, max_size=width * height))
    if not any(shown):
        shown[draw(st.integers(0, len(shown) - 1))] = True
    # One named row alone cannot say which way the ranks run unless it names rank 1 at the top
    # or the bottom: such boards are drawn with at least two rows named.
    rows = {i // width for i, on in enumerate(shown) if on}
    if len(rows) == 1 and height > 1:
        other = (next(iter(rows)) + 1) % height
        shown[other * width] = True
    points: list[list[str | None]] = [
        [files[c] + ranks[r] if shown[r * width + c] else None for c in range(width)]
        for r in range(height)
    ]
    return points, files, ranks


@st.composite
def corrupted_boards(draw: st.DrawFn) -> list[list[str | None]]:
    """A named board with one point renamed: mostly a name that no longer fits its row or
    column."""
    points, files, _ = draw(named_boards())
    named = [(r, c) for r, row in enumerate(points) for c, name in enumerate(row) if name]
    # A point alone in its row, where a wrong rank is seen only against the other rows.
    alone = [(r, c) for r, c in named if sum(bool(name) for name in points[r]) == 1]
    r, c = draw(st.sampled_from(alone or named))
    wrong_rank = st.integers(1, 25).map(lambda rank: f"{files[c]}{rank}")
    wrong = st.one_of(wrong_rank, wrong_rank, point, st.from_regex(r"[a-e][1-9]", fullmatch=True))
    points[r][c] = draw(wrong)
    return points


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(points=st.one_of(boards, corrupted_boards()))
def test_fuzz_edge_names_never_mislabel_a_point(page: Any, live_server: str, points: Any) -> None:
    if page.url == "about:blank":
        open_page(page, live_server, "?game=tictactoe&seed=1")
    names = page.evaluate(EDGE_NAMES, [points, None])
    if names is None:
        return
    assert len(names["files"]) == max(len(row) for row in points)
    assert len(names["ranks"]) == len(points)
    for r, row in enumerate(points):
        for c, name in enumerate(row):
            if name:
                assert names["files"][c] + names["ranks"][r] == name


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(board=named_boards())
def test_fuzz_edge_names_read_every_named_board(page: Any, live_server: str, board: Any) -> None:
    points, files, ranks = board
    if page.url == "about:blank":
        open_page(page, live_server, "?game=tictactoe&seed=1")
    assert page.evaluate(EDGE_NAMES, [points, None]) == {"files": files, "ranks": ranks}


def test_a_chess_piece_can_be_dragged_by_touch(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_page(page, live_server, "?game=chess&level=easy&seed=4")
        page.locator('#board [data-square="e1"]').scroll_into_view_if_needed()
        start = page.locator('#board [data-square="e2"]').bounding_box()
        end = page.locator('#board [data-square="e4"]').bounding_box()
        assert start is not None and end is not None
        x1, y1 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
        x2, y2 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
        # A finger: touch events through the DevTools protocol, as a phone's screen sends them.
        cdp = context.new_cdp_session(page)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x1, "y": y1}]}
        )
        for step in range(1, 9):
            x, y = x1 + (x2 - x1) * step / 8, y1 + (y2 - y1) * step / 8
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert wait_for_your_turn_or_end(page) == "your-turn"
        expect(page.locator('#board [data-square="e4"]')).to_have_attribute("data-piece", "P")
        assert page.get_attribute('#board [data-square="e2"]', "data-piece") is None
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()
