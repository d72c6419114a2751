"""The corrections of the fluent reading (../shared/i18n-corrections.md), applied as terms: once a
reader has said which word a language uses, no message of that catalog keeps the old one."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from zermelo.i18n import catalogs


def _catalog(code: str) -> Catalog:
    return catalogs.read_catalog(catalogs.po_path(code), code)


def _strings(code: str) -> dict[str, str]:
    """Every translation of the catalog ``code``, by msgid (plural forms joined)."""
    found = {}
    for message in _catalog(code):
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        value = (
            message.string if isinstance(message.string, str) else " | ".join(message.string or ())
        )
        found[key] = value
    return found


# (language, a word the reading replaced, the word it asked for)
OLD_TERMS = [
    ("id", r"\bbiji\b", "bidak"),
    ("id", r"\bjalur\b", "variasi"),  # a search's line; a file's "path" stays jalur
    ("id", r"Jalankan pertama", "Pertama kali dijalankan"),
    ("vi", r"[Hh]ạt giống", "seed"),
    ("vi", r"[Hh]oàn tác", "đi lại"),
    ("tr", r"\bhat(tın)?\b", "varyant"),
    ("tr", r"[Yy]apay zekâ", "YZ"),
    ("nl", r"\blijn \{line\}", "variant {line}"),
    ("nl", r"\bposities\b", "stellingen"),
    ("vi", r"[Tt]ự chơi", "tự đấu"),  # self-play, as tune's own title says
    ("id", r"permainan mandiri|bermain melawan diri sendiri", "self-play"),
]


@pytest.mark.parametrize(("code", "old", "new"), OLD_TERMS, ids=str)
def test_no_message_keeps_a_replaced_term(code: str, old: str, new: str) -> None:
    strings = _strings(code)
    if code == "id":
        strings.pop("path", None)  # a file path is a jalur
    keeping = {msgid: text for msgid, text in strings.items() if re.search(old, text)}
    assert keeping == {}, f"{code}: use {new!r}"


# The siz forms a Turkish reader met beside the bare imperative: a command's help, the game's
# prompts and the page speak to one person, as sen.
SIZ = re.compile(
    r"(?<![-{])\b(siz|sizde|size|sizin)\b|\b(?!henüz\b)\w+(niz|nız|nuz|nüz)\b"
    r"|\b(yazın|girin|seçin|deneyin|verin|kullanın|izleyin|sayın|getirin|açın|tıklayın"
    r"|yapıştırın|kaldırın|oynayın|dizin|kalın)\b",
    re.IGNORECASE,
)


def test_turkish_speaks_to_the_reader_as_sen() -> None:
    offending = {}
    for msgid, text in _strings("tr").items():
        if msgid in (
            "directory",
            "{name} {filename!r} is a directory.",
            "{path} is a directory: give --out a file name",
        ):
            continue  # "dizin" is a directory
        if SIZ.search(text):
            offending[msgid] = text
    assert offending == {}


def test_english_checkers_is_not_named_like_the_local_draughts_game() -> None:
    # A Dutch, Vietnamese, Indonesian or Turkish reader's plain "dammen", "cờ đam", "dam" and
    # "dama" are international draughts and Turkish dama: English checkers says it is English.
    local = {"nl": "dammen", "vi": "cờ đam", "id": "dam", "tr": "dama"}
    english = {"nl": "Engels", "vi": "Anh", "id": "Inggris", "tr": "İngiliz"}
    for code, word in local.items():
        title = _strings(code)["Checkers"]
        assert word in title.lower() and english[code] in title, (code, title)
        weights = _strings(code)["checkers has no weights file: its evaluation is fixed"]
        assert "checkers" in weights, (code, weights)  # the command-line name, as othello's line
