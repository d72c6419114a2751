"""Take docs/screenshot.png (the page mid-game with the thinking overlay and the explainer on) and
docs/chess-page.png (a chess game mid-game: coordinates, values and the best move's arrow).

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
CHESS = OUT.with_name("chess-page.png")
# A quiet Italian game (giuoco pianissimo), White to move after 8... Ba7.
CHESS_MOVES = "e4,e5,Nf3,Nc6,Bc4,Bc5,c3,Nf6,d3,d6,O-O,O-O,Re1,a6,Bb3,Ba7"


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
        page.set_viewport_size({"width": 1280, "height": 860})
        page.goto(f"{base}/?game=chess&level=hard&moves={CHESS_MOVES}&seed=3")
        page.wait_for_selector("body[data-ready=true]")
        page.locator("label.switch", has=page.locator("#thinking")).click()
        # The first analysis of a fresh server may compile the engine: wait for the arrow longer.
        page.wait_for_selector("#board [data-testid=best-arrow]", timeout=120_000)
        page.mouse.move(0, 0)
        page.screenshot(path=str(CHESS), clip={"x": 0, "y": 0, "width": 1280, "height": 860})
        browser.close()
    print(OUT)
    print(CHESS)


if __name__ == "__main__":
    main()
