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
        from zermelo.cli.kernels import compile_in_background
        from zermelo.ui.uci import run_uci

        # stderr only: standard output is the protocol's
        compile_in_background("chess", lambda line: click.echo(line, err=True), ready=True)

        sys.exit(run_uci(sys.stdin, sys.stdout))

    return uci
