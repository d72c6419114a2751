"""The documentation as written: the README and every page of the site run as doctests, the README
stays a short guide, every relative link and anchor resolves, every page is in the site's nav,
and the site builds with ``mkdocs build --strict`` (CI runs the doctests and the build as steps of
their own too)."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

import zermelo.tutorial

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 250
# Pages whose examples another test file already runs (a slow one), so that they run once.
OWN_DOCTEST = {"interop.md": ROOT / "tests" / "interop" / "test_interop_docs.py"}


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def run_doctest(path: Path, monkeypatch: pytest.MonkeyPatch) -> doctest.TestResults:
    """``path``'s examples, run from the repository's root as CI runs them. What they add to the
    import path is undone afterwards, and so are the modules they import from ``examples/`` (the
    Nim plugin, which other tests install on purpose); zermelo's own modules and the libraries
    stay imported, since importing those twice would make two copies of their classes."""
    monkeypatch.chdir(ROOT)
    saved_path, saved_modules = sys.path[:], set(sys.modules)
    try:
        return doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            origin = getattr(sys.modules[name], "__file__", None)
            if origin and Path(origin).resolve().is_relative_to(ROOT / "examples"):
                del sys.modules[name]


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_doctest(README, monkeypatch)
    assert result.attempted >= 10
    assert result.failed == 0


def test_tutorial_examples() -> None:
    result = doctest.testmod(zermelo.tutorial)
    assert result.attempted >= 5
    assert result.failed == 0


@pytest.mark.parametrize(
    "page", [p for p in pages() if p.name not in OWN_DOCTEST], ids=lambda p: p.name
)
def test_every_page_runs_as_a_doctest(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_doctest(page, monkeypatch)
    assert result.failed == 0


def test_pages_with_a_doctest_of_their_own_have_it() -> None:
    for name, test_file in OWN_DOCTEST.items():
        assert (DOCS / name).is_file()
        assert name in test_file.read_text(encoding="utf-8")


def test_the_pages_with_examples_have_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # A page whose examples silently stopped being examples (a lost ">>>") would still pass.
    for name, at_least in {
        "getting-started.md": 8,
        "adding-a-game.md": 5,
        "tictactoe.md": 4,
    }.items():
        assert run_doctest(DOCS / name, monkeypatch).attempted >= at_least, name


def test_readme_is_a_short_guide() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES
    # The two commands at the top are CI's and the newcomer's: exactly these, in this order.
    assert lines[7:11] == [
        "```sh",
        "python3 -m pip install . && zermelo play",
        "python3 -m pip install -e '.[test]' && python3 -m pytest",
        "```",
    ]


def test_ci_runs_the_readme_test_command_as_written() -> None:
    command = README.read_text(encoding="utf-8").splitlines()[9]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()
    assert "mkdocs build --strict" in ci
    assert "--doctest-glob='*.md' docs README.md" in ci


# --- links -----------------------------------------------------------------------------------

_FENCE = re.compile(r"^(```|~~~)")
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose(text: str) -> Iterator[str]:
    """The lines of ``text`` outside fenced code blocks."""
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            yield line


def slug(heading: str) -> str:
    """The anchor Python-Markdown's table of contents (MkDocs) gives a heading, as GitHub does for
    these headings: markup dropped, lower case, punctuation removed, spaces as hyphens."""
    text = _LINK.sub(
        lambda m: m.group(0)[m.group(0).index("[") + 1 : m.group(0).index("]")], heading
    )
    text = text.replace("`", "").replace("*", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            name, n = base, 0
            while name in found:
                n += 1
                name = f"{base}_{n}"
            found.add(name)
    return found


def broken_links(path: Path) -> list[str]:
    """Every relative link or image of the Markdown file ``path`` whose file, folder or anchor
    does not exist, as ``target: why``."""
    broken = []
    for line in _prose(path.read_text(encoding="utf-8")):
        for match in _LINK.finditer(_CODE_SPAN.sub("", line)):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{target}: no heading #{anchor} in {linked.name}")
            elif anchor and linked.suffix != ".md":
                broken.append(f"{target}: an anchor in a file that is not Markdown")
    return broken


@pytest.mark.parametrize(
    "path", [README, ROOT / "CHANGELOG.md", *pages()], ids=lambda p: str(p.relative_to(ROOT))
)
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken_links(path) == []


def test_the_link_check_finds_broken_links(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## The `uci` part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Here, too\n\n"
        "[ok](other.md) [ok](other.md#the-uci-part) [ok](#here-too) [web](https://example.org/x)\n"
        "[gone](missing.md) [no anchor](other.md#uci) ![picture](nowhere.png) [self](#nothing)\n"
        "`[in code](missing-too.md)`\n\n```\n[fenced](missing-three.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#uci: no heading #uci in other.md",
        "nowhere.png: no such file",
        "#nothing: no heading #nothing in page.md",
    ]


def test_slugs_are_mkdocs_anchors() -> None:
    assert slug("Measurements (29 November 2026)") == "measurements-29-november-2026"
    assert slug("The tutorial's class") == "the-tutorials-class"
    assert slug("5. A game inside zermelo") == "5-a-game-inside-zermelo"
    assert slug("The browser UI: `zermelo serve`") == "the-browser-ui-zermelo-serve"


# --- the site --------------------------------------------------------------------------------


def nav_pages(entries: object) -> Iterator[str]:
    if isinstance(entries, str):
        yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from nav_pages(entry)
    elif isinstance(entries, dict):
        for value in entries.values():
            yield from nav_pages(value)


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = list(nav_pages(config["nav"]))
    assert len(in_nav) == len(set(in_nav))
    on_disk = {str(p.relative_to(DOCS)) for p in pages()}
    assert sorted(set(in_nav) - on_disk) == []  # a nav entry with no page
    assert sorted(on_disk - set(in_nav)) == []  # a page the nav does not reach


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    # The API reference is generated from the docstrings: the tutorial's class is there, with the
    # reStructuredText roles of its docstrings turned into Markdown.
    api = (site / "api" / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert 'id="zermelo.tutorial.TicTacToe.get_best_move"' in api
    registry = (site / "api" / "registry" / "index.html").read_text(encoding="utf-8")
    assert ":class:" not in registry
    assert "<code>GameSpec</code>" in registry


def test_the_api_reference_turns_rest_into_markdown() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import griffe_rst
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert doctest.testmod(griffe_rst).failed == 0
    assert griffe_rst.markdown(
        "Named by :class:`Ref <zermelo.core.record.Ref>`, :py:func:`zermelo.get_game` and\n"
        ":attr:`~GameSpec.levels`; a block::\n\n    x = 1\n\nand an opener alone:\n\n::\n\n    y\n"
    ) == (
        "Named by `Ref`, `zermelo.get_game` and\n"
        "`levels`; a block:\n\n    x = 1\n\nand an opener alone:\n\n\n\n    y\n"
    )


def test_a_page_leaves_no_plugin_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    # adding-a-game.md imports the Nim example from its source; the plugin tests expect it not to
    # be importable unless they install it.
    run_doctest(DOCS / "adding-a-game.md", monkeypatch)
    assert "zermelo_nim" not in sys.modules
    assert str(ROOT / "examples" / "zermelo-nim" / "src") not in sys.path
    assert "examples/zermelo-nim/src" not in sys.path
