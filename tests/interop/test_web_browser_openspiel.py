# ruff: noqa: F811 - the browser fixture is imported by name and taken as an argument
"""End-to-end: an OpenSpiel game on the page, its text board played by clicks in headless
Chromium. Needs what tests/web/test_web_browser.py needs (``scripts/install-browser.sh``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from tests.web.test_web_browser import WAIT_MS, browser, expect  # noqa: F401 - a fixture

from zermelo.ui.web import create_app

pytestmark = pytest.mark.browser

GAME = "openspiel:tic_tac_toe"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(games=[GAME])
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert errors == [], errors


def test_an_openspiel_game_is_played_by_clicking_its_moves(page: Any, server: str) -> None:
    page.goto(f"{server}/?game={quote(GAME)}&level=hard&seed=5")
    page.wait_for_selector("body[data-ready=true]")
    status = page.locator("[data-testid=status]")
    expect(status).to_have_text("Your turn (x)")  # the side as the board draws it
    assert page.locator("#board .cell").count() == 9  # OpenSpiel's drawing, a cell a character
    clicks = 0
    while True:
        page.wait_for_selector(
            '[data-testid=status][data-state="your-turn"], [data-testid=status][data-state="over"]'
        )
        if page.get_attribute("[data-testid=status]", "data-state") == "over":
            break
        page.locator("#extra-moves button").first.click()  # the legal moves, beside the board
        clicks += 1
        assert clicks <= 5
    expect(status).to_have_text("The AI wins.")  # the first free square each time loses
    marks = "".join(page.locator("#board .cell").all_inner_texts())
    assert marks.count("x") >= 3 and marks.count("o") >= 3


def test_the_thinking_panel_values_an_openspiel_position(page: Any, server: str) -> None:
    page.goto(f"{server}/?game={quote(GAME)}&moves=4&starts=ai&seed=1")
    page.wait_for_selector("body[data-ready=true]")
    page.check("#thinking")
    expect(page.locator("#best")).to_contain_text("draw")
    best = page.inner_text("#best").split(" ")[0]
    assert best in ("o(0,0)", "o(0,2)", "o(2,0)", "o(2,2)")  # only a corner holds the draw
