"""The message catalogs: complete, faithful to the code, compiled, and used by the front ends."""

from __future__ import annotations

import gettext
import io
import os
import re
import string
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from rich.console import Console

from zermelo import i18n
from zermelo.i18n import catalogs

ROOT = Path(__file__).resolve().parents[1]
CODES = catalogs.translated_languages()

# Entries whose translation is rightly the same as the English (compared case-insensitively).
SAME_AS_ENGLISH: set[tuple[str, str]] = {
    ("id", "optimal {percent:.1f}%"),  # "optimal" is Indonesian too
    ("nl", "training"),  # Dutch says "training" for a net's training
    ("nl", "Training"),
    ("nl", "labels"),  # the Dutch plural of "label"
    ("nl", "epochs"),  # Dutch machine learning says "epochs"
    ("id", "y"),  # "ya" starts with y, as the prompt "(y/t)" shows
    *((code, "w·x") for code in ("id", "nl", "vi", "tr")),  # a formula
    # Names: the project and a technical term.
    *((code, "zermelo") for code in ("id", "nl", "vi", "tr")),
    *((code, "API") for code in ("id", "nl", "vi", "tr")),
    # Game names as their players know them: the Indonesian tutorial says tic-tac-toe; gomoku
    # is vijf op een rij in Dutch and cờ ca-rô in Vietnamese; Connect Four has no other name in
    # Indonesian, Vietnamese or Turkish (Dutch: vier op een rij).
    ("id", "Tic-tac-toe"),
    ("id", "Gomoku"),
    ("tr", "Gomoku"),
    *((code, "Connect Four") for code in ("id", "vi", "tr")),
    # Othello is Othello to its players in Indonesian, Dutch and Turkish (Vietnamese: cờ lật).
    *((code, "Othello") for code in ("id", "nl", "tr")),
    ("nl", "exact"),  # the Dutch word
    # The Learn page: the tutorial's level names and alpha-beta's window are formulas; the
    # algorithms keep their names (Turkish spells them minimaks and alfa-beta).
    *((code, text) for code in ("id", "nl", "vi", "tr") for text in ("MAX", "MIN")),
    *((code, "[α = {alpha}, β = {beta}]") for code in ("id", "nl", "vi", "tr")),
    *(
        (code, text)
        for code in ("id", "nl", "vi")
        for text in ("minimax", "Minimax", "alpha-beta", "Alpha-beta")
    ),
    # Games of chance and cards: Pig and Leduc hold'em have no other names; backgammon is tavla
    # only in Turkish; gammon, pot and showdown are the players' own words (Dutch "pot" and
    # "pips" too); CFR and NashConv are the methods' names; "AI" is what Indonesian, Dutch and
    # Vietnamese players say; "p" marks points, which start with p in Dutch and Turkish.
    *((code, text) for code in ("id", "nl", "vi", "tr") for text in ("Pig", "Leduc hold'em")),
    *((code, text) for code in ("id", "nl", "vi", "tr") for text in ("CFR", "CFR+", "NashConv")),
    *((code, text) for code in ("id", "nl", "vi") for text in ("Backgammon", "backgammon")),
    *((code, text) for code in ("id", "nl", "vi") for text in ("gammon", "AI")),
    *((code, text) for code in ("id", "nl", "tr") for text in ("pot", "showdown")),
    ("nl", "pips"),
    *((code, "p") for code in ("nl", "tr")),
}


def _entries(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    assert isinstance(value, (list, tuple))
    return [str(text) for text in value]


def _pairs(message: Message) -> list[tuple[str, str, bool]]:
    """(English, translation, whether the translation may leave fields out) for each form.

    A plural entry's forms pair with the English plural, except the first of several, which is
    the singular ("one node"): it may leave out the count. Languages with one form (Indonesian,
    Vietnamese) use it for every number, so it pairs with the English plural.
    """
    ids, forms = _texts(message.id), _texts(message.string)
    if len(ids) == 1:
        return [(ids[0], forms[0], False)]
    return [
        (ids[0] if index == 0 and len(forms) > 1 else ids[1], form, index == 0 and len(forms) > 1)
        for index, form in enumerate(forms)
    ]


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.read_catalog(catalogs.TEMPLATE)


@pytest.fixture(scope="module", params=CODES)
def catalog(request: pytest.FixtureRequest) -> tuple[str, Catalog]:
    code: str = request.param
    return code, catalogs.read_catalog(catalogs.po_path(code), locale=code)


@pytest.fixture
def language() -> Iterator[None]:
    """Leave the process-wide language as English after a test that changes it."""
    yield
    i18n.setup("en")


# -- the catalogs against the template and the code -------------------------------------------


def test_the_languages_are_the_tutorials() -> None:
    assert sorted(i18n.LANGUAGES) == ["en", "id", "nl", "tr", "vi"]
    assert sorted(CODES) == ["id", "nl", "tr", "vi"]


def test_template_is_up_to_date_with_the_code(template: Catalog) -> None:
    """A string added to the code without running 'extract' fails here, and then in every
    language below: new strings cannot slip through untranslated."""
    in_code = catalogs.msgids(catalogs.template_from_sources(ROOT))
    in_template = catalogs.msgids(template)
    assert in_code - in_template == set(), "run: python scripts/catalogs.py extract"
    assert in_template - in_code == set(), "run: python scripts/catalogs.py extract"


def test_extraction_finds_the_strings_the_front_ends_show(template: Catalog) -> None:
    ids = catalogs.msgids(template)
    for english in (
        "Welcome to {game}!",
        "You are '{human}' and the AI is '{ai}'",
        "Tic Tac Toe",  # marked with N_, translated where it is shown
        "Your turn ({first}-{last}): ",
        "Invalid move! Try again.",
        "Please enter a number between {first} and {last}!",
        "It's a tie!",
        "AI wins!",
        "Congratulations! You win!",
        "AI's turn...",
        "Enter positions ({first}-{last}) as shown below:",
        "Play again? (y/n): ",
        "y",
        "yes",
        "win in {n}",
        "loss in {n}",
        "draw",
        "won",
        "lost",
        "Play a game against the AI.",
    ):
        assert english in ids


def test_every_catalog_has_exactly_the_template_messages(
    template: Catalog, catalog: tuple[str, Catalog]
) -> None:
    code, po = catalog
    assert catalogs.msgids(template) - catalogs.msgids(po) == set(), f"{code}: run 'update'"
    assert catalogs.msgids(po) - catalogs.msgids(template) == set(), f"{code}: stale entries"


def test_no_entry_is_fuzzy_or_untranslated(catalog: tuple[str, Catalog]) -> None:
    code, po = catalog
    fuzzy = [message.id for message in _entries(po) if message.fuzzy]
    empty = [message.id for message in _entries(po) if not all(_texts(message.string))]
    assert fuzzy == [], f"{code}: fuzzy entries"
    assert empty == [], f"{code}: untranslated entries"


def test_no_english_left(catalog: tuple[str, Catalog]) -> None:
    code, po = catalog
    left = [
        english
        for message in _entries(po)
        for english, translated, _ in _pairs(message)
        if re.search(r"[A-Za-z]", english)
        and translated.casefold() == english.casefold()
        and (code, english) not in SAME_AS_ENGLISH
    ]
    assert left == []


def test_the_allowlist_is_still_needed(template: Catalog) -> None:
    for code, english in SAME_AS_ENGLISH:
        assert english in catalogs.msgids(template), english
        translated = i18n.translation_for(code).gettext(english)
        assert translated.casefold() == english.casefold(), (code, english)


def _brace_fields(text: str) -> Counter[str]:
    return Counter(
        f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


def _percent_fields(text: str) -> Counter[str]:
    fields = re.findall(
        r"%(?:\([^)]*\))?[-#0+]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa](?![A-Za-z0-9])", text
    )
    return Counter(fields)


def test_placeholders_match(catalog: tuple[str, Catalog]) -> None:
    code, po = catalog
    for message in _entries(po):
        for english, translated, may_leave_out in _pairs(message):
            fields, expected = _brace_fields(translated), _brace_fields(english)
            if may_leave_out:
                assert fields <= expected, (code, english)
            else:
                assert fields == expected, (code, english)
            assert _percent_fields(translated) == _percent_fields(english), (code, english)


def test_translations_format_with_the_arguments_the_code_passes(
    catalog: tuple[str, Catalog],
) -> None:
    code, po = catalog
    for message in _entries(po):
        for english, translated, _ in _pairs(message):
            names = {
                name.strip("{}").split(":")[0].split("!")[0] for name in _brace_fields(english)
            }
            if names:
                assert translated.format(**dict.fromkeys(names, 1.5)), (code, english)
            if "%(" in english:
                assert translated % {"prog": "zermelo", "version": "1.0"}, (code, english)


def test_edges_and_markup_are_kept(catalog: tuple[str, Catalog]) -> None:
    """A prompt keeps its trailing space; no translation brings rich markup ("[...]") of its own."""
    code, po = catalog
    for message in _entries(po):
        for english, translated, _ in _pairs(message):
            leading = len(translated) - len(translated.lstrip())
            assert translated[:leading] == english[: len(english) - len(english.lstrip())], (
                code,
                english,
            )
            trailing = translated[len(translated.rstrip()) :]
            assert trailing == english[len(english.rstrip()) :], (code, english)
            assert translated.count("[") == english.count("["), (code, english)


def test_placeholder_helper() -> None:
    assert catalogs.placeholders("win in {n}") == ["{n}"]
    assert catalogs.placeholders("{ms:.2f} ms, {{literal}} {a}") == ["{a}", "{ms:.2f}"]
    assert catalogs.placeholders("%(prog)s, version %(version)s") == ["%(prog)s", "%(version)s"]
    assert catalogs.placeholders("100%% sure") == []
    assert catalogs.placeholders("skipped {percent}% of the tree") == ["{percent}"]
    assert catalogs.placeholders("ağacın %{percent} kadarı") == ["{percent}"]
    assert _percent_fields("skipped {percent}% of it") == Counter()
    assert _percent_fields("Elo [95%-interval]") == Counter()
    assert catalogs.placeholders("Elo [95%-interval], %d%%") == ["%d"]
    assert _percent_fields("%(prog)s, %d") == Counter({"%(prog)s": 1, "%d": 1})


def test_compiled_catalogs_match_the_po_files(tmp_path: Path) -> None:
    """The committed .mo files say what the .po files say (compared as catalogs, not bytes)."""
    catalogs.compile_catalogs(out_dir=tmp_path)
    for code in CODES:
        shipped = catalogs.mo_path(code)
        assert shipped.is_file(), f"{code}: run 'compile'"
        with shipped.open("rb") as file:
            committed = gettext.GNUTranslations(file)
        with catalogs.mo_path(code, tmp_path).open("rb") as file:
            fresh = gettext.GNUTranslations(file)
        assert committed._catalog == fresh._catalog, f"{code}: run 'compile'"  # type: ignore[attr-defined]
        assert len(fresh._catalog) > 40  # type: ignore[attr-defined]


def test_catalog_files_are_as_the_tool_writes_them(tmp_path: Path) -> None:
    """Running 'extract' and 'update' now changes nothing: the files are in the tool's form."""
    template = tmp_path / "zermelo.pot"
    template.write_bytes(catalogs.TEMPLATE.read_bytes())
    assert catalogs.extract(ROOT, template) is False
    assert template.read_bytes() == catalogs.TEMPLATE.read_bytes()
    for code in CODES:
        target = catalogs.po_path(code, tmp_path)
        target.parent.mkdir(parents=True)
        target.write_bytes(catalogs.po_path(code).read_bytes())
    assert catalogs.update(template_path=template, locale_dir=tmp_path) == []


def test_the_tool_sees_a_new_string(tmp_path: Path) -> None:
    (tmp_path / "src" / "zermelo").mkdir(parents=True)
    (tmp_path / "babel.cfg").write_bytes((ROOT / "babel.cfg").read_bytes())
    (tmp_path / "src" / "zermelo" / "new.py").write_text(
        "from zermelo.i18n import N_, gettext as _\n"
        "TITLE = N_('Connect Four')\n"
        "# TRANSLATORS: shown when the board is full.\n"
        "print(_('The board is full.'))\n",
        encoding="utf-8",
    )
    template = tmp_path / "zermelo.pot"
    assert catalogs.extract(tmp_path, template) is True
    extracted = catalogs.read_catalog(template)
    assert catalogs.msgids(extracted) == {"Connect Four", "The board is full."}
    full = extracted.get("The board is full.")
    assert full is not None
    assert full.auto_comments == ["shown when the board is full."]
    assert catalogs.extract(tmp_path, template) is False  # unchanged: not rewritten
    assert catalogs.update(["nl"], template_path=template, locale_dir=tmp_path) == ["nl"]
    started = catalogs.read_catalog(catalogs.po_path("nl", tmp_path), locale="nl")
    assert [message.string for message in _entries(started)] == ["", ""]


def test_the_check_command_finds_nothing_to_do() -> None:
    assert [str(problem) for problem in catalogs.check(ROOT)] == []


# -- choosing the language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "environ", "code"),
    [
        (None, {}, "en"),
        ("vi", {}, "vi"),
        ("NL", {}, "nl"),
        ("tr_TR.UTF-8", {}, "tr"),
        ("id-ID", {}, "id"),
        ("en", {"LANG": "nl_NL.UTF-8"}, "en"),
        ("vi", {"LC_ALL": "tr_TR.UTF-8"}, "vi"),
        (None, {"LANG": "nl_NL.UTF-8"}, "nl"),
        (None, {"LC_MESSAGES": "vi_VN.UTF-8", "LANG": "nl_NL.UTF-8"}, "vi"),
        (None, {"LC_ALL": "id_ID.UTF-8", "LC_MESSAGES": "vi_VN", "LANG": "nl_NL"}, "id"),
        (None, {"LC_ALL": "", "LANG": "tr_TR.UTF-8"}, "tr"),
        (None, {"LC_ALL": "C", "LANG": "nl_NL.UTF-8"}, "en"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "POSIX"}, "en"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {"LC_ALL": "de_DE.UTF-8", "LANG": "nl_NL.UTF-8"}, "en"),
    ],
)
def test_resolve_language(requested: str | None, environ: dict[str, str], code: str) -> None:
    assert i18n.resolve_language(requested, environ) == (code, None)


@pytest.mark.parametrize("requested", ["xx", "pt-BR", "", "english"])
def test_an_unknown_requested_language_is_english_with_a_warning(requested: str) -> None:
    code, warning = i18n.resolve_language(requested, {"LANG": "nl_NL.UTF-8"})
    assert code == "en"
    assert warning is not None
    assert repr(requested) in warning
    assert "en, id, nl, vi, tr" in warning


def test_setup_switches_and_translation_for_does_not(language: None) -> None:
    assert i18n.translation_for("nl").gettext("AI wins!") == "De AI wint!"
    assert i18n.gettext("AI wins!") == "AI wins!"
    i18n.setup("tr")
    assert i18n.current_language() == "tr"
    assert i18n.gettext("AI wins!") == "YZ kazandı!"
    i18n.setup("en")
    assert i18n.gettext("AI wins!") == "AI wins!"
    with pytest.raises(ValueError, match="'xx'"):
        i18n.setup("xx")


def test_every_language_translates_the_tutorials_words(language: None) -> None:
    words = [
        "Welcome to {game}!",
        "Your turn ({first}-{last}): ",
        "It's a tie!",
        "draw",
        "Tic Tac Toe",
    ]
    seen = {}
    for code in CODES:
        i18n.setup(code)
        seen[code] = [i18n.gettext(word) for word in words]
        assert all(got != word for got, word in zip(seen[code], words, strict=True)), code
    assert seen["nl"][4] == "Boter-kaas-en-eieren"
    assert seen["tr"][4] == "XOX"
    assert "ca-rô" in seen["vi"][4].lower()


# -- the front ends in each language -----------------------------------------------------------


def _run(
    args: list[str], stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
    }
    clean["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + clean.get("PYTHONPATH", "")
    clean["PYTHONIOENCODING"] = "utf-8"
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "zermelo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=clean,
        timeout=120,
        check=False,
    )


# Every square, in order, twice: taken squares are refused and asked again, so the game always
# reaches its end; "x" shows the not-a-number message first.
MOVES = "x\n" + "0\n1\n2\n3\n4\n5\n6\n7\n8\n" * 2
RESULTS = ["AI wins!", "It's a tie!", "Congratulations! You win!"]


@pytest.fixture(scope="module")
def english_game() -> str:
    done = _run(["play", "--lang", "en", "--seed", "7", "--first", "human", "--once"], MOVES)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_english_game_is_the_tutorials(english_game: str) -> None:
    lines = english_game.splitlines()
    assert lines[:3] == [
        "Welcome to Tic Tac Toe!",
        "You are 'O' and the AI is 'X'",
        "Enter positions (0-8) as shown below:",
    ]
    assert "Your turn (0-8): x" in lines
    assert "Please enter a number between 0 and 8!" in lines
    assert "Invalid move! Try again." in lines
    assert "AI's turn..." in lines
    assert [line for line in lines if line in RESULTS] != []


@pytest.mark.parametrize("code", CODES)
def test_a_whole_game_in_each_language(code: str, english_game: str) -> None:
    done = _run(["play", "--lang", code, "--seed", "7", "--first", "human", "--once"], MOVES)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    words = i18n.translation_for(code)
    lines = done.stdout.splitlines()
    title = words.gettext("Tic Tac Toe")
    assert lines[0] == words.gettext("Welcome to {game}!").format(game=title)
    assert lines[1] == words.gettext("You are '{human}' and the AI is '{ai}'").format(
        human="O", ai="X"
    )
    squares = {"first": "0", "last": "8"}
    assert lines[2] == words.gettext("Enter positions ({first}-{last}) as shown below:").format(
        **squares
    )
    # The same seed and moves give the same game; only the words differ.
    english_result = next(line for line in english_game.splitlines() if line in RESULTS)
    assert words.gettext(english_result) in lines
    assert english_result not in lines
    prompt = words.gettext("Your turn ({first}-{last}): ").format(**squares)
    assert english_game.count("Your turn (0-8): ") == done.stdout.count(prompt)
    assert (
        words.gettext("Please enter a number between {first} and {last}!").format(**squares)
        in lines
    )
    assert words.gettext("Invalid move! Try again.") in lines
    # The boards are the same drawings.
    board = [line for line in lines if "|" in line or line.startswith("---")]
    assert board == [line for line in english_game.splitlines() if "|" in line or "---" in line]


@pytest.mark.parametrize(
    ("args", "env", "code"),
    [
        (["--lang", "vi", "play"], {}, "vi"),
        (["play", "--lang", "vi"], {}, "vi"),
        (["play", "--lang=nl"], {}, "nl"),
        (["--lang", "nl", "play", "--lang", "tr"], {}, "tr"),
        (["play"], {"LANG": "id_ID.UTF-8"}, "id"),
        (["play"], {"LANG": "nl_NL.UTF-8", "LC_MESSAGES": "tr_TR.UTF-8"}, "tr"),
        (["play"], {"LANG": "nl_NL.UTF-8", "LC_ALL": "C"}, "en"),
        (["play", "--lang", "en"], {"LANG": "vi_VN.UTF-8"}, "en"),
        (["play"], {"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_cli_picks_the_language(args: list[str], env: dict[str, str], code: str) -> None:
    done = _run([*args, "--seed", "3", "--first", "human", "--once"], MOVES, env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = i18n.translation_for(code).gettext("Welcome to {game}!")
    title = i18n.translation_for(code).gettext("Tic Tac Toe")
    assert done.stdout.splitlines()[0] == expected.format(game=title)


@pytest.mark.parametrize("args", [["--lang", "xx", "play"], ["play", "--lang", "xx"]])
def test_an_unknown_language_plays_in_english_after_one_warning(args: list[str]) -> None:
    done = _run([*args, "--seed", "3", "--first", "human", "--once"], MOVES, {"LANG": "nl_NL"})
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "warning: unknown language 'xx'; using English (available: en, id, nl, vi, tr)"
    ]
    assert done.stdout.splitlines()[0] == "Welcome to Tic Tac Toe!"


def test_help_is_translated_with_clicks_headings() -> None:
    done = _run(["play", "--help", "--lang", "nl"])
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("Gebruik: zermelo play [OPTIONS] [GAME]")
    assert "\nOpties:\n" in text
    assert "Speel een spel tegen de AI" in text
    assert "[standaard: random]" in text
    assert "Toon dit bericht en stop." in text
    for english in ("Usage:", "Options:", "default:", "Show this message", "Who moves first."):
        assert english not in text
    group = _run(["--lang", "tr", "--help"]).stdout
    assert "Komutlar:" in group
    assert "Sürümü göster ve çık." in group
    assert "YZ'ye karşı bir oyun oyna." in group


def test_english_help_is_clicks_own() -> None:
    text = _run(["play", "--help"]).stdout
    assert text.startswith("Usage: zermelo play [OPTIONS] [GAME]")
    assert "\nOptions:\n" in text
    assert "[default: random]" in text
    assert "Show this message and exit." in text


def test_errors_are_one_translated_line() -> None:
    done = _run(["play", "--lang", "vi", "--first", "nobody"])
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("zermelo play: lỗi: ")
    assert lines[0].endswith("(xem 'zermelo play --help')")
    side = _run(["play", "--lang", "tr", "--human", "Z"])
    assert side.returncode == 2
    assert side.stderr.splitlines() == ["zermelo: hata: geçersiz taraf 'Z': X veya O bekleniyordu"]


def test_analysis_words_in_each_language(language: None) -> None:
    from zermelo.core.scores import WIN
    from zermelo.ui.words import score_words

    expected = {
        "en": ("win in 3", "loss in 2", "draw"),
        "id": ("menang dalam 3 langkah", "kalah dalam 2 langkah", "seri"),
        "nl": ("winst in 3", "verlies in 2", "gelijkspel"),
        "vi": ("thắng sau 3 nước", "thua sau 2 nước", "hòa"),
        "tr": ("3 hamlede galibiyet", "2 hamlede yenilgi", "berabere"),
    }
    for code, (win, loss, draw) in expected.items():
        i18n.setup(code)
        assert score_words(WIN - 5) == win
        assert score_words(-(WIN - 3)) == loss
        assert score_words(0) == draw


class _Typist:
    """Stdin for an in-process session: each game's moves (every square in turn, so that taken
    squares are asked again), and the next answer when the session asks to play again."""

    def __init__(self, out: io.StringIO, answers: list[str]) -> None:
        self.out = out
        self.answers = answers
        self.square = 0

    def readline(self) -> str:
        if self.out.getvalue().endswith(i18n.gettext("Play again? (y/n): ")):
            self.square = 0
            return self.answers.pop(0) + "\n" if self.answers else ""
        self.square += 1
        return f"{(self.square - 1) % 9}\n"

    def isatty(self) -> bool:
        return False


def _session(code: str, answers: list[str]) -> tuple[Any, io.StringIO]:
    from zermelo.ui.terminal.session import GameOptions, Session

    i18n.setup(code)
    out = io.StringIO()
    session = Session(
        GameOptions(seed=5, first="human"),
        stdin=_Typist(out, answers),  # type: ignore[arg-type]
        console=Console(file=out, width=100, highlight=False),
    )
    return session, out


@pytest.mark.parametrize(
    ("code", "answer"),
    [
        ("nl", "j"),
        ("nl", "ja"),
        ("tr", "evet"),
        ("tr", "E"),
        ("vi", "có"),
        ("id", "ya"),
        ("tr", "y"),
    ],
)
def test_play_again_takes_the_languages_yes(code: str, answer: str, language: None) -> None:
    session, out = _session(code, [answer, "n"])
    assert session.run() == 0
    text = out.getvalue()
    assert text.count(i18n.gettext("Play again? (y/n): ")) == 2
    welcome = i18n.gettext("Welcome to {game}!").format(game=i18n.gettext("Tic Tac Toe"))
    assert text.count(welcome) == 1
    assert session.score.human + session.score.ai + session.score.ties == 2
    assert text.rstrip().endswith(i18n.gettext("Thanks for playing!"))


@pytest.mark.parametrize(("code", "answer"), [("nl", "nee"), ("tr", "hayır"), ("vi", "không")])
def test_play_again_stops_on_the_languages_no(code: str, answer: str, language: None) -> None:
    session, out = _session(code, [answer, "y"])
    assert session.run() == 0
    assert session.score.human + session.score.ai + session.score.ties == 1
    assert out.getvalue().count(i18n.gettext("Play again? (y/n): ")) == 1


@pytest.mark.parametrize("side", ["black", "b", "zwart"])
def test_checkers_sides_are_shown_translated_and_typed_either_way(side: str) -> None:
    done = _run(["play", "checkers", "--lang", "nl", "--human", side, "--once"], "?\n")
    words = i18n.translation_for("nl")
    lines = done.stdout.splitlines()
    assert lines[0] == words.gettext("Welcome to {game}!").format(game=words.gettext("Checkers"))
    sides = words.gettext("You are '{human}' and the AI is '{ai}'").format(
        human=words.gettext("Black"), ai=words.gettext("White")
    )
    assert sides == "Jij bent 'Zwart' en de AI is 'Wit'"
    assert sides in lines
    assert any(
        line.startswith(words.gettext("Legal moves: {moves}").split("{")[0]) for line in lines
    )
