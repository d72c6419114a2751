"""``zermelo uci``: the chess engine behind the Universal Chess Interface."""

from __future__ import annotations

import sys

import click

from zermelo.cli.common import Command, lang_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``uci`` command, with its help in the current language."""

    @click.command(
        "uci",
        cls=Command,
        help=_(
            "Run the chess engine as a UCI engine on standard input and output, for chess GUIs, "
            "cutechess and lichess-bot. Its options: Hash (MiB), Level (easy, medium, hard), "
            "MultiPV (lines per depth) and Ponder."
        ),
        short_help=_("Speak the Universal Chess Interface."),
    )
    @lang_option
    def uci() -> None:
        from zermelo.ui.uci import run_uci

        sys.exit(run_uci(sys.stdin, sys.stdout))

    return uci
