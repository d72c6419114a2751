"""Keep the message catalogs in step with the code: extract, update, compile and check.

The steps as functions, which return what they did and print nothing. ``scripts/catalogs.py`` is
the command that runs them, from a source checkout (it needs ``babel.cfg`` and the sources; Babel
comes with the ``test`` extra)::

    python scripts/catalogs.py extract    # the code -> src/zermelo/i18n/zermelo.pot
    python scripts/catalogs.py update     # the .pot -> locale/<code>/LC_MESSAGES/zermelo.po
    python scripts/catalogs.py compile    # each zermelo.po -> zermelo.mo, in the package
    python scripts/catalogs.py check      # missing, fuzzy or stale entries; status 1 if any
    python scripts/catalogs.py all        # extract, update and compile, then check
    python scripts/catalogs.py init CODE  # start the catalog of a new language

The same steps with plain ``pybabel``, from the repository root::

    pybabel extract -F babel.cfg --no-location -o src/zermelo/i18n/zermelo.pot .
    pybabel update -D zermelo -i src/zermelo/i18n/zermelo.pot -d src/zermelo/i18n/locale
    pybabel compile -D zermelo -d src/zermelo/i18n/locale

This module writes files only when their content changes (the creation date of an unchanged
template stays as it was), so running it twice leaves a clean ``git status``. Locations in the
catalogs name the file but not the line, which keeps the diffs of unrelated edits out of them.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from zermelo.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

__all__ = [
    "PACKAGE_DIR",
    "TEMPLATE",
    "Problem",
    "check",
    "compile_catalogs",
    "extract",
    "find_root",
    "init_catalog",
    "mo_path",
    "placeholders",
    "po_path",
    "read_catalog",
    "template_from_sources",
    "translated_languages",
    "update",
]

PACKAGE_DIR = LOCALE_DIR.parent
TEMPLATE = PACKAGE_DIR / f"{DOMAIN}.pot"
PROJECT = "zermelo"
COPYRIGHT_HOLDER = "The zermelo team"
TEMPLATE_HEADER = """\
# The messages of zermelo, extracted from the code. Do not edit: it is rewritten by
# python scripts/catalogs.py extract (see docs/i18n.md).
#"""
CATALOG_HEADER = """\
# {language} translations of zermelo's messages. Translate the msgstr lines; then
# python scripts/catalogs.py compile (see docs/i18n.md).
#"""
WIDTH = 100

# ``{name}``, ``{0}``, ``{n:,}``, ``{ms:.2f}`` (``{{`` is a literal brace), and ``%s``/``%(name)d``.
_BRACE_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
# A percent sign in text is no format: "50% of" (no space flag), "95%-interval" (a format is not
# followed by a letter or digit; Babel's own python-format check has the same rule).
_PERCENT_FIELD = re.compile(
    r"%(?:\([^)]*\))?[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%](?![A-Za-z0-9])"
)


def translated_languages() -> list[str]:
    """The codes that have a catalog (every supported language except English, the source)."""
    return [code for code in LANGUAGES if code != "en"]


def po_path(code: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(code: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def find_root(start: Path | None = None) -> Path:
    """The source checkout this package lives in: the directory with ``babel.cfg``."""
    here = (start or PACKAGE_DIR).resolve()
    for directory in (here, *here.parents):
        if (directory / "babel.cfg").is_file() and (directory / "src").is_dir():
            return directory
    raise FileNotFoundError(
        f"no babel.cfg above {here}: the catalog tools run in a source checkout of zermelo"
    )


def placeholders(text: str) -> list[str]:
    """The format fields of ``text``, sorted: ``{name}`` fields by name, ``%`` formats as written.

    ``"win in {n}"`` -> ``["{n}"]``; ``"{ms:.2f} ms"`` -> ``["{ms:.2f}"]``. A translation must have
    the same list as its message id (the order may change, the fields may not).
    """
    fields = [
        "{" + match.group(1) + "}"
        for match in _BRACE_FIELD.finditer(text)
        if match.group(1) is not None
    ]
    fields += [match.group(0) for match in _PERCENT_FIELD.finditer(text) if match.group(0) != "%%"]
    return sorted(fields)


def _same_placeholders(ids: Sequence[str], strings: Sequence[str]) -> bool:
    if len(ids) == 1:
        return placeholders(ids[0]) == placeholders(strings[0])
    # Plural forms: a form may leave out the count ("one move"), but brings no field of its own.
    allowed = {field for text in ids for field in placeholders(text)}
    return all(set(placeholders(text)) <= allowed for text in strings)


# -- reading and writing ------------------------------------------------------------------------


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


def _po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(
        buffer, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True, sort_by_file=False
    )
    return buffer.getvalue()


def _mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _write_if_changed(path: Path, content: bytes) -> bool:
    if path.is_file() and path.read_bytes() == content:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def _messages(catalog: Catalog) -> Iterable[Message]:
    return (message for message in catalog if message.id)


def msgids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    """The message ids of ``catalog`` (a plural message's id is its (singular, plural) pair)."""
    return {
        tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id
        for message in _messages(catalog)
    }


# -- the steps ----------------------------------------------------------------------------------


def template_from_sources(root: Path | None = None) -> Catalog:
    """A fresh template of every translatable string in the sources (nothing is written)."""
    root = find_root() if root is None else root
    with (root / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file, str(root / "babel.cfg"))  # type: ignore[no-untyped-call]
    template = Catalog(
        project=PROJECT,
        copyright_holder=COPYRIGHT_HOLDER,
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
        header_comment=TEMPLATE_HEADER,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=DEFAULT_KEYWORDS, strip_comment_tags=True
    ):
        template.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def extract(root: Path | None = None, template_path: Path = TEMPLATE) -> bool:
    """Write the template from the sources; whether it changed."""
    template = template_from_sources(root)
    if template_path.is_file():
        # Keep the old creation date when nothing else changed, so that the file stays the same.
        template.creation_date = read_catalog(template_path).creation_date
        if _po_bytes(template) == template_path.read_bytes():
            return False
        template.creation_date = datetime.now(UTC)
    return _write_if_changed(template_path, _po_bytes(template))


def init_catalog(code: str, template_path: Path = TEMPLATE, locale_dir: Path = LOCALE_DIR) -> Path:
    """Start the catalog of the language ``code`` from the template (every entry untranslated)."""
    path = po_path(code, locale_dir)
    if path.exists():
        raise FileExistsError(f"{path} exists already: use 'update' to bring it up to date")
    template = read_catalog(template_path)
    catalog = Catalog(
        locale=code,
        project=PROJECT,
        copyright_holder=COPYRIGHT_HOLDER,
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
    )
    _tidy_header(catalog, code)
    catalog.update(template)
    catalog.creation_date = template.creation_date
    _write_if_changed(path, _po_bytes(catalog))
    return path


def _tidy_header(catalog: Catalog, code: str) -> None:
    english_name = Locale.parse(code).english_name or code
    catalog.header_comment = CATALOG_HEADER.format(language=english_name)
    catalog.last_translator = COPYRIGHT_HOLDER
    catalog.language_team = LANGUAGES.get(code, code)
    catalog.fuzzy = False


def update(
    codes: Sequence[str] | None = None,
    template_path: Path = TEMPLATE,
    locale_dir: Path = LOCALE_DIR,
) -> list[str]:
    """Merge the template into each language's catalog (new entries empty, changed ones fuzzy).

    Catalogs that do not exist yet are started. Returns the codes whose catalog changed.
    """
    template = read_catalog(template_path)
    changed = []
    for code in codes or translated_languages():
        path = po_path(code, locale_dir)
        if not path.is_file():
            init_catalog(code, template_path, locale_dir)
            changed.append(code)
            continue
        catalog = read_catalog(path, locale=code)
        catalog.update(template, update_creation_date=True)
        _tidy_header(catalog, code)
        if _write_if_changed(path, _po_bytes(catalog)):
            changed.append(code)
    return changed


def compile_catalogs(
    codes: Sequence[str] | None = None, locale_dir: Path = LOCALE_DIR, out_dir: Path | None = None
) -> list[str]:
    """Compile each ``.po`` to its ``.mo`` (into ``out_dir``, default beside it); fuzzy entries are
    left out. Returns the codes whose ``.mo`` changed."""
    changed = []
    for code in codes or translated_languages():
        catalog = read_catalog(po_path(code, locale_dir), locale=code)
        if _write_if_changed(mo_path(code, out_dir or locale_dir), _mo_bytes(catalog)):
            changed.append(code)
    return changed


@dataclass(frozen=True)
class Problem:
    """Something about a catalog that needs a person: ``where`` (a code or file) and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def check(
    root: Path | None = None, template_path: Path = TEMPLATE, locale_dir: Path = LOCALE_DIR
) -> list[Problem]:
    """Everything that keeps the catalogs from being complete and up to date."""
    problems: list[Problem] = []
    template = read_catalog(template_path)
    expected = msgids(template_from_sources(root))
    if msgids(template) != expected:
        problems.append(Problem(template_path.name, "out of date with the code: run 'extract'"))
    for code in translated_languages():
        path = po_path(code, locale_dir)
        if not path.is_file():
            problems.append(Problem(code, f"no catalog {path}: run 'update'"))
            continue
        catalog = read_catalog(path, locale=code)
        missing = msgids(template) - msgids(catalog)
        if missing:
            problems.append(Problem(code, f"{len(missing)} message(s) missing: run 'update'"))
        for message in _messages(catalog):
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            strings = (
                [message.string] if isinstance(message.string, str) else list(message.string or ())
            )
            if message.fuzzy:
                problems.append(Problem(code, f"fuzzy: {ids[0]!r}"))
            elif not all(strings):
                problems.append(Problem(code, f"untranslated: {ids[0]!r}"))
            elif not _same_placeholders(ids, strings):
                problems.append(Problem(code, f"placeholders differ: {ids[0]!r}"))
        mo = mo_path(code, locale_dir)
        if not mo.is_file() or mo.read_bytes() != _mo_bytes(catalog):
            problems.append(Problem(code, f"{mo.name} out of date: run 'compile'"))
    return problems
