"""``zermelo hub``: the draughts engine behind the Hub protocol (Hub, lidraughts-bot, Scan's GUI)."""

from __future__ import annotations

import sys

import click

from zermelo.cli.common import Command, lang_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``hub`` command, with its help in the current language."""

    @click.command(
        "hub",
        cls=Command,
        help=_(
            "Run the draughts engine as a Hub engine on standard input and output, for draughts "
            "GUIs such as Hub and for lidraughts-bot. Its parameters: variant (normal, the "
            "international game, or dama) and level (easy, medium, hard). See docs/hub.md."
        ),
        short_help=_("Speak the Hub protocol of draughts GUIs."),
    )
    @click.option(
        "--game",
        metavar="GAME",
        default=None,
        help=_(
            "The game to play until a GUI sets the variant parameter: a game that speaks Hub "
            "(international draughts unless given)."
        ),
    )
    @lang_option
    def hub(game: str | None) -> None:
        from zermelo.cli.kernels import compile_in_background
        from zermelo.core.errors import ZermeloError
        from zermelo.ui.hub import hub_game, run_hub

        try:
            game = hub_game(game)
        except ZermeloError as error:
            raise click.UsageError(error.render(_)) from None

        # stderr only: standard output is the protocol's
        compile_in_background(game, lambda line: click.echo(line, err=True), ready=True)

        sys.exit(run_hub(sys.stdin, sys.stdout, game))

    return hub
