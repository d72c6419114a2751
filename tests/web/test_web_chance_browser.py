"""The page with games of chance and hidden cards, in headless Chromium (the tiny games of
tests/web/chancegames.py, registered for these tests): a dice game played to the end by its
buttons, and a card game whose AI card is in no element of the page before the showdown."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect
from tests.web import chancegames
from tests.web.test_web_browser import (  # noqa: F401 - the fixtures
    browser,
    open_page,
    page,
    wait_for_your_turn_or_end,
)
from tests.web.test_web_chance import register, unregister

from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.ui.web.adapters import backgammon_steps
from zermelo.ui.web.api import load_game

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    register()
    yield
    unregister()


def game_id(tab: Page) -> str:
    ids = parse_qs(urlparse(tab.url).query).get("id")
    assert ids, tab.url
    return ids[0]


def test_a_dice_game_plays_to_the_end_by_its_buttons(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=minipig&seed=4")
    status = page.locator("[data-testid=status]")
    expect(page.locator('#board [data-move="roll"]')).to_be_visible()
    decisions = 0
    while wait_for_your_turn_or_end(page) == "your-turn":
        turn = int(page.inner_text("[data-testid=turn-total]"))
        page.click(f'#board [data-move="{"hold" if turn >= 4 else "roll"}"]')
        decisions += 1
        assert decisions < 400, "a game to 12 ends long before"
    expect(status).to_have_text(re.compile(r"(You win!|The AI wins\.)"))
    totals = [int(page.inner_text(f"[data-testid=total-{mark}] .total")) for mark in "XO"]
    assert max(totals) >= 12
    # The dice rolled are in the move list, and the game as the server replays it agrees.
    rolls = page.locator("#move-list .move-item.chance")
    assert rolls.count() >= 1
    assert rolls.first.inner_text().startswith("rolled ")
    state = load_game({"game": "minipig", "game_id": game_id(page), "moves": moves(page)}).state
    assert state.is_terminal() and list(state.scores) == totals  # type: ignore[attr-defined]


def moves(tab: Page) -> list[str]:
    return [item.inner_text() for item in tab.locator("#move-list button.move-item").all()]


def test_undo_in_a_dice_game_replays_the_same_dice(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=minipig&seed=5")
    wait_for_your_turn_or_end(page)
    page.click('#board [data-move="roll"]')
    wait_for_your_turn_or_end(page)
    first = page.inner_text("#move-list")
    page.click("#undo")
    expect(page.locator("#move-list .move-item")).to_have_count(0)
    page.click('#board [data-move="roll"]')
    wait_for_your_turn_or_end(page)
    assert page.inner_text("#move-list").split("\n")[:2] == first.split("\n")[:2]


def test_the_ais_card_is_in_no_element_before_the_showdown(page: Page, live_server: str) -> None:  # noqa: F811
    showdowns = 0
    for hand in range(6):
        open_page(page, live_server, f"?game=minicards&seed={hand}")
        wait_for_your_turn_or_end(page)
        state = load_game({"game": "minicards", "game_id": game_id(page), "moves": []}).state
        assert isinstance(state, chancegames.CardState)
        mine, theirs = state.hands[Player.FIRST], state.hands[Player.SECOND]
        while True:
            cards = {c.get_attribute("data-card") for c in page.locator("[data-card]").all()}
            over = wait_for_your_turn_or_end(page) == "over"
            words = set(re.split(r"[\s,.:;()]+", page.inner_text("body")))
            record = page.input_value("[data-testid=export-record]").split()
            if over and page.inner_text("#move-list").split()[-1] != "fold":
                break
            assert cards == {mine, "?"}, (hand, cards)
            assert theirs not in words and theirs not in record, hand
            if over:
                break
            buttons = page.locator("#board .move-button")
            # Call with a king, else check or fold: a hand that reaches a showdown now and then.
            names = [b.get_attribute("data-move") for b in buttons.all()]
            wanted = "call" if "call" in names and mine == "K" else names[-1]
            page.click(f'#board [data-move="{wanted}"]')
        if page.locator("[data-testid=their-cards] [data-card]").count():
            shown = page.get_attribute("[data-testid=their-cards] [data-card]", "data-card")
            if shown == theirs:
                showdowns += 1
    assert showdowns >= 1, "some hand went to a showdown, which shows the AI's card"


# -- the real games ---------------------------------------------------------------------------------


def test_pig_plays_to_the_end_in_the_page(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=pig&level=easy&seed=2")
    page.fill('[data-option="goal"]', "20")
    page.dispatch_event('[data-option="goal"]', "change")
    expect(page.locator("[data-fact=goal] dd")).to_have_text("20")
    decisions = 0
    while wait_for_your_turn_or_end(page) == "your-turn":
        turn = int(page.inner_text("[data-testid=turn-total]"))
        page.click(f'#board [data-move="{"hold" if turn >= 8 else "roll"}"]')
        decisions += 1
        assert decisions < 400
    expect(page.locator("[data-testid=status]")).to_have_text(
        re.compile(r"(You win!|The AI wins\.)")
    )
    totals = [int(page.inner_text(f"[data-testid=total-{mark}] .total")) for mark in "XO"]
    assert max(totals) >= 20
    state = load_game(
        {"game": "pig", "options": {"goal": 20}, "game_id": game_id(page), "moves": moves(page)}
    ).state
    assert state.is_terminal()


def test_the_pig_tree_shows_each_outcome_with_its_probability(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=pig&seed=3")
    page.fill('[data-option="goal"]', "10")
    page.dispatch_event('[data-option="goal"]', "change")
    expect(page.locator("[data-fact=goal] dd")).to_have_text("10")
    page.check("#explain")
    roll = page.locator('#tree li[data-path="roll"]')
    expect(roll).to_have_class(re.compile("chance-node"))
    roll.locator(".toggle").first.click()
    outcomes = page.locator('#tree li[data-path^="roll,"] .probability')
    expect(outcomes).to_have_count(6)
    assert {o.get_attribute("data-probability") for o in outcomes.all()} == {str(1 / 6)}
    assert outcomes.first.inner_text() == "probability 16.7%"
    # The value of the roll is the mean of its outcomes' values (the first player's chance).
    share = [
        float(t.inner_text().rsplit(" ", 1)[1].rstrip("%"))
        for t in page.locator(
            '#tree li[data-path^="roll,"] > .node-row .tag.win, #tree li[data-path^="roll,"] > .node-row .tag.loss'
        ).all()
    ]
    mean = float(
        roll.locator("> .node-row .tag.win, > .node-row .tag.loss")
        .first.inner_text()
        .rsplit(" ", 1)[1]
        .rstrip("%")
    )
    assert len(share) == 6 and abs(sum(share) / 6 - mean) < 0.1


def _play_poker(page: Page, live_server: str, game: str, hands: int) -> int:  # noqa: F811
    """Hands of ``game`` played to the end by the buttons; before each one's end, the AI's
    cards are in no element of the page. The number of showdowns, where they are."""
    showdowns = 0
    for hand in range(hands):
        open_page(page, live_server, f"?game={game}&level=easy&seed={hand}")
        state = load_game({"game": game, "game_id": game_id(page), "moves": []}).state
        theirs = _hand(state, game, Player.SECOND)
        mine = _hand(state, game, Player.FIRST)
        assert theirs and mine and not set(theirs) & set(mine)
        for _ in range(40):
            over = wait_for_your_turn_or_end(page) == "over"
            if over:
                break
            shown = {c.get_attribute("data-card") for c in page.locator("[data-card]").all()}
            seen = set(re.split(r"[\s,.:;()]+", page.inner_text("body")))
            assert not (set(theirs) & (shown | seen)) - set(mine) - _board(page), (hand, theirs)
            names = [
                b.get_attribute("data-move") for b in page.locator("#board .move-button").all()
            ]
            wanted = next((m for m in ("call", "check", "pass") if m in names), names[0])
            page.click(f'#board [data-move="{wanted}"]')
        else:
            pytest.fail(f"{game}: hand {hand} did not end in 40 decisions")
        expect(page.locator("[data-testid=status]")).to_contain_text("Points for you:")
        expect(page.locator("#undo")).to_be_disabled()  # a hand is never replayed knowing it
        cards = page.locator("[data-testid=their-cards] [data-card]")
        if cards.count() and cards.first.get_attribute("data-card") != "?":
            assert cards.first.get_attribute("data-card") == theirs[0]
            showdowns += 1
    return showdowns


def _hand(state: AnyState, game: str, player: Player) -> list[str]:
    """``player``'s own cards, as ``player`` sees them (the record's view: its last row)."""
    view = get_game(game).view
    assert view is not None
    return [card for card in view(state, player).cells[2] if card]


def _board(tab: Page) -> set[str]:
    return {
        str(c.get_attribute("data-card"))
        for c in tab.locator("[data-testid=board-cards] [data-card]").all()
    }


def test_kuhn_plays_to_the_end_and_hides_the_ais_card(page: Page, live_server: str) -> None:  # noqa: F811
    assert _play_poker(page, live_server, "kuhn", 4) >= 1


def test_leduc_plays_to_the_end_and_hides_the_ais_card(page: Page, live_server: str) -> None:  # noqa: F811
    assert _play_poker(page, live_server, "leduc", 3) >= 1


def _legal(tab: Page, game: str) -> list[str]:
    state = load_game({"game": game, "game_id": game_id(tab), "moves": moves(tab)}).state
    return [state.format_move(move) for move in state.legal_moves()]


def test_backgammon_moves_by_clicks_die_by_die(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=minigammon&seed=1")
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator("#board .bg-half .point")).to_have_count(24)
    legal = _legal(page, "minigammon")
    wanted = next(move for move in legal if len(backgammon_steps(move)) >= 2)
    steps = backgammon_steps(wanted)
    for index, (source, target) in enumerate(steps):
        page.click(f'#board [data-point="{source}"]')
        expect(page.locator(f'#board [data-point="{source}"]')).to_have_class(re.compile("picked"))
        page.click(f'#board [data-point="{target}"]')
        if index < len(steps) - 1:
            expect(page.locator("[data-testid=partial-move]")).to_contain_text(f"{source}/{target}")
    wait_for_your_turn_or_end(page)
    assert moves(page)[0] == wanted
    # The rest by the typed box, to the end.
    for _ in range(300):
        if wait_for_your_turn_or_end(page) == "over":
            break
        page.fill("[data-testid=typed-move]", _legal(page, "minigammon")[-1])
        page.press("[data-testid=typed-move]", "Enter")
    else:
        pytest.fail("the game did not end in 300 turns")
    expect(page.locator("[data-testid=status]")).to_contain_text("Points for you:")
    state = load_game({"game": "minigammon", "game_id": game_id(page), "moves": moves(page)}).state
    assert state.is_terminal()


def test_backgammon_plays_to_the_end_in_the_page(page: Page, live_server: str) -> None:  # noqa: F811
    open_page(page, live_server, "?game=backgammon&level=easy&seed=7")
    assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator("#board .bg-half .point")).to_have_count(24)
    if page.locator('#extra-moves [data-extra="roll"]').count():
        # The cube's turn first: roll rather than double (the cube's moves are buttons).
        page.click('#extra-moves [data-extra="roll"]')
        assert wait_for_your_turn_or_end(page) == "your-turn"
    expect(page.locator("#board .bg-dice .die")).to_have_count(2)
    # The first play die by die, by clicks: each step's checker, then where it lands.
    state = load_game({"game": "backgammon", "game_id": game_id(page), "moves": moves(page)}).state
    play = next(m for m in state.legal_moves() if len(getattr(m, "steps", ())) >= 2)
    for source, target in play.steps:  # type: ignore[attr-defined]
        names = ["bar" if p == 25 else "off" if p == 0 else str(p) for p in (source, target)]
        page.click(f'#board [data-point="{names[0]}"]')
        page.click(f'#board [data-point="{names[1]}"]')
    wait_for_your_turn_or_end(page)
    assert state.format_move(play) in moves(page)
    # Then typed plays (the cube taken when offered) to the end.
    for _ in range(400):
        if wait_for_your_turn_or_end(page) == "over":
            break
        legal = [m for m in _legal(page, "backgammon") if m not in ("double", "drop")]
        page.fill("[data-testid=typed-move]", legal[0])
        page.press("[data-testid=typed-move]", "Enter")
    else:
        pytest.fail("the backgammon game did not end in 400 turns")
    expect(page.locator("[data-testid=status]")).to_contain_text("Points for you:")
    final = load_game({"game": "backgammon", "game_id": game_id(page), "moves": moves(page)})
    assert final.state.is_terminal()
