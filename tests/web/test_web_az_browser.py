"""End-to-end: the page's level select offers the learned level (az) for the games that ship a
net, plays it, and hides it for the others (the pattern of test_web_browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.test_web_browser import (  # noqa: F401 - the fixtures
    WAIT_MS,
    board_notation,
    browser,
    open_page,
    wait_for_your_turn_or_end,
)

from zermelo.agents.spec import make_agent
from zermelo.core.state import Player
from zermelo.games.registry import get_game

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Page]:  # noqa: F811 - the shared browser
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def test_the_learned_level_is_offered_played_and_hidden_where_there_is_no_net(
    page: Page, live_server: str
) -> None:
    seed = 2
    open_page(page, live_server, f"?game=tictactoe&level=az&starts=ai&seed={seed}")
    learned = page.locator('#level option[value="az"]')
    expect(learned).to_have_text("learned (AlphaZero-style net)")
    assert page.eval_on_selector("#level", "select => select.value") == "az"
    assert learned.evaluate("option => !option.hidden && !option.disabled")
    wait_for_your_turn_or_end(page)
    spec = get_game("tictactoe")
    state = spec.new(first=Player.FIRST)
    reply = make_agent(spec, "az", seed=seed).choose(state)
    expected = "".join("X" if square == reply else "." for square in range(9))
    assert board_notation(page) == expected
    expect(page.locator("#ai-last")).to_contain_text(
        f"The AI's last move: {reply} · ", timeout=WAIT_MS
    )
    expect(page.locator("#ai-last")).to_contain_text(" · 200 simulations in ")
    page.select_option("#game", "mnk")
    wait_for_your_turn_or_end(page)
    assert learned.evaluate("option => option.hidden && option.disabled")
    assert page.eval_on_selector("#level", "select => select.value") == "hard"


def test_a_link_asking_az_for_a_game_without_a_net_plays_hard(page: Page, live_server: str) -> None:
    open_page(page, live_server, "?game=chess&level=az")
    assert page.eval_on_selector("#level", "select => select.value") == "hard"
    learned = page.locator('#level option[value="az"]')
    assert learned.evaluate("option => option.hidden && option.disabled")
