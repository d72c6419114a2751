"""Click's own words in a usage error ("No such option", "'x' is not one of ..."), in the
user's language.

Click asks :mod:`gettext` for its words through the names ``_`` and ``ngettext`` of its
modules, in the global domain that nothing installs. :func:`install` points those names of the
modules that word usage errors at zermelo's catalogs instead, for this process's command line
only; a word that is not in the catalogs stays click's English. :data:`WORDS` lists the words
(those of click 8.x), marked for extraction, so the catalogs carry them; click's plural pairs are
two entries, chosen by the English rule (Indonesian and Vietnamese have one form; Dutch and
Turkish the English two).
"""

from __future__ import annotations

from types import ModuleType

from zermelo.core.errors import N_
from zermelo.i18n import gettext

__all__ = ["WORDS", "install"]

WORDS: tuple[str, ...] = (
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing parameter: {param_name}"),
    N_("Missing command."),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Did you mean {possibility}?"),
    N_("(Did you mean one of: {possibilities}?)"),
    N_("{value!r} is not {choice}."),
    N_("{value!r} is not one of {choices}."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("Option {name!r} requires an argument."),
    N_("Option {name!r} requires {nargs} arguments."),
    N_("Option {name!r} does not take a value."),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("Could not open file {filename!r}: {message}"),
)


def _ngettext(singular: str, plural: str, count: int) -> str:
    return gettext(singular if count == 1 else plural)


def install() -> None:
    """Click's usage errors in the current language (see the module's docstring)."""
    import click.core
    import click.exceptions
    import click.parser
    import click.types

    modules: tuple[ModuleType, ...] = (click.core, click.exceptions, click.parser, click.types)
    for module in modules:
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = _ngettext  # type: ignore[attr-defined]
