"""The page's Review panel in headless Chromium: the graph is drawn as SVG and marks are listed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tests.web.test_web_browser import browser, open_page, page  # noqa: F401 - the fixtures

pytestmark = pytest.mark.browser


def test_review_draws_the_graph_and_marks_the_blunder(page: Page, live_server: str) -> None:  # noqa: F811
    # O (the person, who starts) on 0, then the AI (X) answers: review the two moves. The page
    # sends who started ("first"), which the review endpoint must accept.
    open_page(page, live_server, "?game=tictactoe&level=hard&seed=11")
    page.click('#board [data-move="0"]')
    page.wait_for_selector('[data-testid=status][data-state="your-turn"]')
    page.click("[data-testid=review-button]")
    graph = page.locator("[data-testid=review-graph]")
    expect(graph).to_be_visible()
    expect(page.locator("[data-testid=review-status]")).to_contain_text("2 moves:")
    # the curve has the start and one point per move; the hard AI never blunders here
    points = graph.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == 3
    assert page.locator("[data-testid=review-marks] li").count() == 0
