"""The page shows the note of an AI move played while the compiled engine is being prepared
(``/api/play``'s ``preparing``), in the page's language, and nothing when it is not."""

# ruff: noqa: F811 - the browser tests' fixtures are imported by name and taken as arguments

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tests.web.test_web_browser import (  # noqa: F401 - the fixtures
    browser,
    open_page,
    page,
    wait_for_your_turn_or_end,
)

from zermelo.ui.web import api
from zermelo.ui.web.messages import PREPARING

pytestmark = pytest.mark.browser


def test_the_page_shows_that_the_fast_engine_is_being_prepared(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_page(page, live_server, "?game=tictactoe&seed=3")
    message = page.locator("[data-testid=message]")
    page.click('#board [data-move="4"]')
    wait_for_your_turn_or_end(page)
    expect(message).to_have_text("")
    # tic-tac-toe compiles nothing: the note is faked, as while chess's kernel is built
    monkeypatch.setattr(api, "preparing", lambda game: ("chess",))
    page.click('#board [data-move="0"]')
    wait_for_your_turn_or_end(page)
    expect(message).to_have_text(PREPARING)
