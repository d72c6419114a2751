"""Take docs/screenshot.png: the page mid-game with the thinking overlay and the explainer on.

Usage: python scripts/screenshot.py [BASE_URL] (default http://127.0.0.1:8000, a running
``zermelo serve``). Needs the playwright package and Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshot.png"


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1240}, locale="en-US")
        page.set_default_timeout(15_000)
        page.goto(f"{base}/?game=tictactoe&level=hard&moves=4,1&seed=3")
        page.wait_for_selector("body[data-ready=true]")
        page.locator("label.switch", has=page.locator("#thinking")).click()
        page.wait_for_selector("#board [data-value]")
        page.locator("label.switch", has=page.locator("#explain")).click()
        page.wait_for_selector('#tree li[data-path="0"]')
        page.locator('#tree li[data-path="2"] > .node-row .toggle').click()
        page.wait_for_selector('#tree li[data-path="2,0"]')
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        OUT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT), clip={"x": 0, "y": 0, "width": 1280, "height": 1240})
        browser.close()
    print(OUT)


if __name__ == "__main__":
    main()
