"""End-to-end: the page's level select offers the learned level (az) for the games that ship a
net, plays it, and hides it for the others (the pattern of test_web_browser.py). The game with a
net is the test plugin ``aztoe`` (tests/azplugin.py), served by a live server of this module's
own, started with the plugin on its search processes' path."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Page, expect
from tests.web.conftest import STARTUP_SECONDS, _free_port
from tests.web.test_web_browser import (  # noqa: F401 - the fixtures
    WAIT_MS,
    board_notation,
    browser,
    open_page,
    wait_for_your_turn_or_end,
)

import azplugin
from zermelo.agents.spec import make_agent
from zermelo.core.state import Player
from zermelo.games.registry import get_game

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def az_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server (as tests/web/conftest.py's) that has the plugin game with a net."""
    from zermelo.ui.web import create_app

    root: Path = azplugin.install(tmp_path_factory.mktemp("aztoe"))
    with azplugin.on_path(root):
        port = _free_port()
        config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="zermelo-az-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + STARTUP_SECONDS
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                server.should_exit = True
                pytest.fail(f"the test server did not start within {STARTUP_SECONDS} s")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
        server.should_exit = True
        thread.join(timeout=STARTUP_SECONDS)


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:  # noqa: F811 - the shared browser
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def test_the_learned_level_is_offered_played_and_hidden_where_there_is_no_net(
    page: Page, az_server: str
) -> None:
    seed = 2
    open_page(page, az_server, f"?game={azplugin.NAME}&level=az&starts=ai&seed={seed}")
    learned = page.locator('#level option[value="az"]')
    expect(learned).to_have_text("learned")
    assert page.eval_on_selector("#level", "select => select.value") == "az"
    assert learned.evaluate("option => !option.hidden && !option.disabled")
    wait_for_your_turn_or_end(page)
    spec = get_game(azplugin.NAME)
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
