"""A griffe extension for the documentation site's API reference (``mkdocs.yml`` loads it).

zermelo's docstrings are written for Sphinx: cross-references as roles (``:class:`~a.b.C```) and
literal blocks introduced by ``::``. mkdocstrings renders docstrings as Markdown, where both would
show as raw markup. This extension rewrites them as Markdown when griffe loads each object: a role
becomes inline code of its target (the last name only when the target starts with ``~``, as Sphinx
shows it), and a paragraph's closing ``::`` becomes ``:`` (the indented block after it is already a
Markdown code block). Nothing else is touched: ``field lists`` are read by the Sphinx docstring
parser, and ````double backticks```` are code in both languages.
"""

from __future__ import annotations

import re

import griffe

__all__ = ["RestToMarkdown", "markdown"]

_ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|const|type|term|ref):`(?P<target>[^`]+)`"
)
_LITERAL_OPENER = re.compile(r"(?<=\S)::(?=\n)")
_LONE_OPENER = re.compile(r"^[ \t]*::[ \t]*$", re.MULTILINE)


def _role(match: re.Match[str]) -> str:
    target = match["target"].strip()
    if target.endswith(">") and "<" in target:  # :class:`text <target>`
        return f"`{target[: target.index('<')].strip()}`"
    if target.startswith("~"):
        return f"`{target[1:].rsplit('.', 1)[-1]}`"
    return f"`{target}`"


def markdown(text: str) -> str:
    """The docstring ``text`` with its Sphinx roles and literal-block openers as Markdown.

    >>> markdown("A :class:`~zermelo.core.record.GameSpec`, see :func:`get_game`.")
    'A `GameSpec`, see `get_game`.'
    >>> markdown("In TOML::\\n\\n    x = 1")
    'In TOML:\\n\\n    x = 1'
    """
    text = _ROLE.sub(_role, text)
    text = _LITERAL_OPENER.sub(":", text)
    return _LONE_OPENER.sub("", text)


class RestToMarkdown(griffe.Extension):
    """Rewrite every loaded object's docstring with :func:`markdown`."""

    def on_object(
        self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: object
    ) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
