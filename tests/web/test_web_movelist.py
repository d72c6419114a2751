"""The page's move list, its reasons at the end, its values and its position as text, in
headless Chromium against a live server."""

# ruff: noqa: F811 - the browser tests' fixtures are imported by name and taken as arguments

from __future__ import annotations

import re
from typing import Any

import chess
import pytest
from tests.web.test_web_browser import (  # noqa: F401 - fixtures
    browser,
    open_page,
    page,
    wait_for_your_turn_or_end,
)

from zermelo.core.scores import POINTS, WIN, Unit, describe
from zermelo.ui.web.api import value_json

pytestmark = pytest.mark.browser

STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


def fen_after(*moves: str) -> str:
    board = chess.Board()
    for move in moves:
        board.push_san(move)
    return board.fen()


def test_the_move_list_numbers_pairs_and_the_arrow_keys_step_through_it(
    page: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=1&moves=e4,e5,Nf3,Nc6")
    status = page.locator("[data-testid=status]")
    expect(status).to_have_text("Your turn (White)")
    rows = page.locator("#move-list li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_text("1.e4e5")
    expect(rows.nth(1)).to_have_text("2.Nf3Nc6")
    expect(page.locator('#move-list [aria-current="step"]')).to_have_attribute("data-ply", "4")
    page.locator("h1").click()  # the keys work anywhere but on the board and in fields
    page.keyboard.press("ArrowLeft")
    expect(status).to_have_text("Move 3 of 4")
    expect(page.locator('#move-list [aria-current="step"]')).to_have_attribute("data-ply", "3")
    expect(page.locator("#export-position")).to_have_value(fen_after("e4", "e5", "Nf3"))
    assert "ply=3" in page.url
    # Viewing is view-only: the board takes no move.
    expect(page.locator("#board")).to_have_class(re.compile(r"\bwaiting\b"))
    page.keyboard.press("Home")
    expect(status).to_have_text("Move 0 of 4")
    expect(page.locator("#export-position")).to_have_value(chess.STARTING_FEN)
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text("Move 1 of 4")
    page.keyboard.press("End")
    expect(status).to_have_text("Your turn (White)")
    assert "ply=" not in page.url and "moves=e4%2Ce5%2CNf3%2CNc6" in page.url
    # A click on a move views it; "Play from here" drops the moves after it.
    page.click('#move-list [data-ply="2"]')
    expect(status).to_have_text("Move 2 of 4")
    expect(page.locator("#play-here")).to_be_visible()
    page.click("#play-here")
    expect(status).to_have_text("Your turn (White)")
    expect(page.locator("#move-list .move-item")).to_have_count(2)
    expect(page.locator("#play-here")).to_be_hidden()
    expect(page.locator("#export-position")).to_have_value(fen_after("e4", "e5"))


def test_a_shared_link_opens_at_its_viewed_move(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=connect4&level=easy&seed=1&moves=4,4,3&ply=1")
    expect(page.locator("[data-testid=status]")).to_have_text("Move 1 of 3")
    expect(page.locator("#board .mark-X")).to_have_count(1)
    expect(page.locator("#board .mark-O")).to_have_count(0)


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?game=chess&moves=f3,e5,g4,Qh4%23", "Game over: checkmate. The AI wins."),
        ("?game=connect4&moves=1,2,1,2,1,2,1", "Game over: four in a row. You win!"),
        (
            "?game=tictactoe&starts=ai&moves=0,1,2,4,3,5,7,6,8",
            "Game over: board full. It's a draw.",
        ),
    ],
)
def test_the_end_says_why(page: Any, live_server: str, query: str, status: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, query)
    expect(page.locator("[data-testid=status]")).to_have_text(status)
    expect(page.locator("[data-testid=status]")).to_have_attribute("data-state", "over")


def test_a_stalemate_fen_imported_ends_the_game(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=1")
    page.click("#text-io summary")
    page.fill("#import-text", STALEMATE)
    page.click("#import")
    expect(page.locator("[data-testid=status]")).to_have_text("Game over: stalemate. It's a draw.")
    expect(page.locator("#export-position")).to_have_value(STALEMATE)
    assert "position=" in page.url
    page.fill("#import-text", "1. e4 e9")
    page.click("#import")
    expect(page.locator("[data-testid=message]")).to_contain_text(
        "Could not import: '1. e4 e9' is neither a position of Chess"
    )
    expect(page.locator("[data-testid=message]")).to_contain_text("'e9' is not a move")


def test_fen_and_pgn_round_trip(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=chess&level=easy&seed=3&starts=ai&moves=e4,c5,Nf3")
    wait_for_your_turn_or_end(page)  # you play Black, and the AI (White) has played Nf3
    page.click("#text-io summary")
    fen = page.input_value("#export-position")
    pgn = page.input_value("#export-record")
    assert fen == fen_after("e4", "c5", "Nf3")
    assert "1. e4 c5 2. Nf3" in pgn
    page.check('input[name="starts"][value="you"]')
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (White)")
    expect(page.locator("#move-list .move-item")).to_have_count(0)
    page.fill("#import-text", pgn)
    page.click("#import")
    expect(page.locator("#move-list .move-item")).to_have_count(3)
    expect(page.locator("#export-position")).to_have_value(fen)
    expect(page.locator("#export-record")).to_have_value(pgn)
    # You take the side to move of what you import: Black here.
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (Black)")
    page.fill("#import-text", fen)
    page.click("#import")
    expect(page.locator("#move-list .move-item")).to_have_count(0)
    expect(page.locator("#export-position")).to_have_value(fen)
    expect(page.locator("[data-testid=status]")).to_have_text("Your turn (Black)")


def test_the_page_words_a_value_as_the_terminal_does(page: Any, live_server: str) -> None:
    open_page(page, live_server, "?game=tictactoe")
    cases = [
        (WIN - 1, True, POINTS),
        (WIN - 36, True, POINTS),
        (-(WIN - 35), True, POINTS),
        (WIN, True, POINTS),
        (0, True, POINTS),
        (0, False, POINTS),
        (169, False, Unit("{value} men", 100)),
        (-35, False, Unit("{value} pawns", 100)),
        (1234.5, False, POINTS),
    ]
    values = [value_json(score, exact, unit) for score, exact, unit in cases]
    shown = page.evaluate(
        "async (values) => { const m = await import('/static/js/overlay.js');"
        " return values.map((value) => m.valueWords(value)); }",
        values,
    )
    assert shown == [describe(score, exact=exact, unit=unit) for score, exact, unit in cases]


def test_a_book_value_shows_no_node_count(page: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    open_page(page, live_server, "?game=connect4&level=easy&seed=2")
    page.locator("label.switch", has=page.locator("#thinking")).click()
    expect(page.locator("[data-testid=best]")).to_contain_text("4 · win in")
    expect(page.locator("[data-testid=stats]")).to_have_text("\u2013")
