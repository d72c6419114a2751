"""Every string the page shows goes through the translated messages."""

from __future__ import annotations

import re

from zermelo.ui.web import STATIC_DIR
from zermelo.ui.web.messages import WEB_MESSAGES, WEB_PLURALS, messages_for, plurals_for

# t("...") calls in the script, possibly split over lines after "t(".
_T_CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
_TN_CALL = re.compile(r'\btn\(\s*"((?:[^"\\]|\\.)*)"')
_DATA_I18N = re.compile(r'data-i18n="([^"]*)"')


def _page_script() -> str:
    """The page's script: app.js and its modules under js/."""
    files = [STATIC_DIR / "app.js", *sorted((STATIC_DIR / "js").rglob("*.js"))]
    assert len(files) >= 10
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def test_every_string_the_script_translates_is_a_listed_message() -> None:
    script = _page_script()
    used = set(_T_CALL.findall(script))
    assert len(used) > 30
    missing = sorted(used - set(WEB_MESSAGES))
    assert missing == []


def test_every_translated_element_of_the_page_is_a_listed_message() -> None:
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    used = set(_DATA_I18N.findall(page))
    assert {"New game", "Undo", "Show thinking", "Explain", "Language"} <= used
    assert sorted(used - set(WEB_MESSAGES)) == []


def test_the_title_of_every_built_in_game_is_a_listed_message() -> None:
    from zermelo.games.registry import all_games

    built_in = [spec for spec in all_games() if spec.new.__module__.startswith("zermelo.")]
    assert "tictactoe" in [spec.name for spec in built_in]
    # The records give the page their words: a new game needs no line in the face.
    shown = messages_for("nl")
    for spec in built_in:
        assert spec.title in shown, spec.name
    assert shown["Chess"] == "Schaken" and shown["Black"] == "Zwart"


def test_every_counted_string_of_the_script_is_a_listed_plural() -> None:
    script = _page_script()
    used = set(_TN_CALL.findall(script))
    assert len(used) == 4
    assert used == {plural for _, plural in WEB_PLURALS}


def test_plurals_give_english_the_singular_for_one() -> None:
    plurals = plurals_for("en")
    assert plurals["Minimax: {nodes} nodes"] == ["Minimax: {nodes} node", "Minimax: {nodes} nodes"]
    for code in ("id", "nl", "vi", "tr"):
        assert set(plurals_for(code)) == set(plurals)


def test_babel_extracts_every_message_and_pair_with_its_default_keywords() -> None:
    from babel.messages import extract

    source = STATIC_DIR.parent / "messages.py"
    found = list(
        extract.extract_from_file("python", str(source), keywords=extract.DEFAULT_KEYWORDS)
    )
    singles = {message for _, message, _, _ in found if isinstance(message, str)}
    pairs = {tuple(message) for _, message, _, _ in found if isinstance(message, tuple)}
    assert singles == set(WEB_MESSAGES)
    assert pairs == set(WEB_PLURALS)


def test_the_pages_hold_no_inline_script_or_style_so_the_strict_csp_holds() -> None:
    for name in ("index.html", "api.html"):
        page = (STATIC_DIR / name).read_text(encoding="utf-8")
        scripts = re.findall(r"<script\b[^>]*>", page)
        assert scripts and all("src=" in tag for tag in scripts), name
        assert re.search(r"<script\b[^>]*>\s*[^<\s]", page) is None, name
        assert " style=" not in page and "<style" not in page, name
        assert re.search(r"\son[a-z]+=", page) is None, f"inline event handler in {name}"
