"""End-to-end: the Learn page in headless Chromium, stepped with its buttons, against a live
server (the pattern of test_web_browser.py: Debian's chromium, every wait bounded).

``ZERMELO_SCREENSHOT=docs/learn-page.png`` also writes the page's screenshot for the docs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.test_web_browser import WAIT_MS, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.browser

CHART_MS = 90_000
"""The counts are measured live on the first request: seconds of search on a loaded machine."""


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Page]:  # noqa: F811 - the shared browser
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert errors == [], errors


def open_learn(page: Page, base: str, query: str = "") -> None:
    page.goto(f"{base}/learn{query}")
    page.wait_for_selector("body[data-ready=true]")


def test_stepping_example_2_reaches_the_tutorials_move_6(page: Page, live_server: str) -> None:
    open_learn(page, live_server)
    page.select_option("[data-testid=example]", "2")
    expect(page.locator("[data-testid=board] span").nth(3)).to_have_text("X")
    expect(page.locator("[data-testid=step-count]")).to_have_text("Step 1 of 7")
    expect(page.locator("[data-testid=previous]")).to_be_disabled()
    page.click("[data-testid=next]")
    expect(page.locator("[data-testid=step-title]")).to_have_text("X on 2")
    expect(page.locator("[data-testid=counts]")).to_contain_text("Minimax: 39 nodes")
    expect(page.locator("[data-testid=counts]")).to_contain_text("Alpha-beta: 29 nodes")
    # The newest move is drawn two plies deep, with its cut-off greyed and explained.
    cut = page.locator("[data-testid=cutoff]").first
    expect(cut).to_contain_text("pruned 6 7: α = -1 ≥ β = -1")
    assert "pruned" in (cut.get_attribute("class") or "")
    for _ in range(5):
        page.click("[data-testid=next]")
    expect(page.locator("[data-testid=step-title]")).to_have_text("The choice")
    expect(page.locator("[data-testid=step-text]")).to_contain_text(
        "The AI plays 6: V(s) = +1, the first square with the best value."
    )
    expect(page.locator("[data-testid=step-text]")).to_contain_text(
        "Minimax visited 157 nodes; alpha-beta visited 60"
    )
    expect(page.locator("[data-testid=next]")).to_be_disabled()
    page.click("[data-testid=previous]")
    expect(page.locator("[data-testid=step-title]")).to_have_text("X on 8")
    # Plain minimax: the same moves, no windows, nothing pruned.
    page.select_option("[data-testid=algorithm]", "minimax")
    expect(page.locator("[data-testid=cutoff]")).to_have_count(0)
    expect(page.locator("[data-testid=counts]")).to_contain_text("Minimax: 157 nodes")


def test_the_chart_is_drawn_from_live_counts(page: Page, live_server: str) -> None:
    open_learn(page, live_server)
    page.wait_for_selector("[data-testid=chart][data-ready=true]", timeout=CHART_MS)
    for series in ("minimax", "alphabeta", "table", "ordering", "b^d", "b^(d/2)"):
        expect(page.locator(f'#chart path[data-series="{series}"]')).to_have_count(1)
    expect(page.locator("#chart circle").first).to_be_attached()
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=step-title]")).to_have_text("X on 2")
    target = os.environ.get("ZERMELO_SCREENSHOT")
    if target:
        page.keyboard.press("ArrowRight")
        page.set_viewport_size({"width": 1100, "height": 900})
        page.screenshot(path=target, full_page=True)


def test_in_dutch(page: Page, live_server: str) -> None:
    open_learn(page, live_server, "?lang=nl")
    expect(page.locator("h1")).to_have_text("Minimax leren")
    expect(page.locator("[data-testid=next]")).to_have_text("Volgende")
    page.click("[data-testid=next]")
    expect(page.locator("[data-testid=step-count]")).to_have_text("Stap 2 van 9")
    expect(page.locator("[data-testid=step-title]")).to_have_text("X op 2")
    assert page.title() == "zermelo · Minimax leren"
