"""Message catalogs: English, Indonesian, Dutch, Vietnamese and Turkish.

English strings are the message ids (the tutorial's own words); the other languages come from
gettext catalogs under ``i18n/locale/<code>/LC_MESSAGES/zermelo.po``, compiled to ``.mo`` files that
ship inside the package (``python scripts/catalogs.py`` extracts, updates and compiles them,
and tests check that they are complete and up to date; see ``docs/i18n.md``).

Front ends call :func:`setup` once with the ``--lang`` option, then use :func:`_` (``gettext``) and
:func:`ngettext`. A string that must be translated later, where it is shown (a class attribute, a
table of page texts), is marked with :func:`N_` so that extraction finds it. Library code below the
front ends never translates: it raises errors in English.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "current_language",
    "gettext",
    "ngettext",
    "resolve_language",
    "setup",
]

DOMAIN = "zermelo"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "id": "Bahasa Indonesia",
    "nl": "Nederlands",
    "vi": "Tiếng Việt",
    "tr": "Türkçe",
}
"""Supported language codes and each language's name in itself."""

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def _normalize(code: str) -> str:
    """``"nl_NL.UTF-8"`` -> ``"nl"``; ``"pt-BR"`` -> ``"pt"``."""
    return code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def resolve_language(
    requested: str | None, environ: Mapping[str, str] | None = None
) -> tuple[str, str | None]:
    """Pick the language: ``requested``, else ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, else English.

    Returns the code and, when ``requested`` names no supported language, a warning (English; the
    caller prints it once). The first locale variable that is set decides, as in POSIX; ``C`` and
    ``POSIX`` mean English, and so does a locale we have no catalog for, without a warning: a
    person who did not ask for a language should not hear about it on every command.
    """
    env = os.environ if environ is None else environ
    if requested is not None:
        code = _normalize(requested)
        if code in LANGUAGES:
            return code, None
        return "en", (
            f"warning: unknown language {requested!r}; using English "
            f"(available: {', '.join(LANGUAGES)})"
        )
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        code = _normalize(value)
        return (code if code in LANGUAGES else "en"), None
    return "en", None


def setup(code: str) -> None:
    """Switch the process-wide translations to the language ``code`` (one of :data:`LANGUAGES`)."""
    global _translation, _language
    if code not in LANGUAGES:
        raise ValueError(f"unsupported language {code!r}: expected one of {', '.join(LANGUAGES)}")
    _language = code
    if code == "en":
        _translation = _gettext.NullTranslations()
    else:
        _translation = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def translation_for(code: str) -> _gettext.NullTranslations:
    """Translations for ``code`` that leave the process-wide language alone (for servers)."""
    if code == "en" or code not in LANGUAGES:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def current_language() -> str:
    return _language


def gettext(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the name extraction tools look for
    """Mark ``message`` for extraction without translating it; :func:`_` translates it later."""
    return message


_ = gettext
