"""``zermelo serve``: the browser UI and its JSON API."""

from __future__ import annotations

import click

from zermelo.cli.common import Command, lang_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``serve`` command, with its help in the current language."""

    @click.command(
        "serve",
        cls=Command,
        help=_(
            "Serve the browser UI and its JSON API: play every game against the AI, see the value "
            "of each move and the minimax tree. Binds to 127.0.0.1 (this machine only) unless "
            "--host says otherwise."
        ),
        short_help=_("Play in the browser."),
    )
    @click.option(
        "--host",
        default="127.0.0.1",
        show_default=True,
        help=_("Address to listen on."),
    )
    @click.option(
        "--port",
        type=click.IntRange(min=0, max=65535),
        default=8000,
        show_default=True,
        help=_("Port to listen on."),
    )
    @click.option(
        "--allowed-host",
        "allowed_hosts",
        multiple=True,
        metavar="NAME",
        help=_(
            "Also answer requests for this host name (repeatable); localhost, 127.0.0.1, [::1] "
            "and --host are always allowed, any other name is refused."
        ),
    )
    @click.option(
        "--game",
        "games",
        multiple=True,
        metavar="NAME",
        help=_(
            "Also offer this game, drawn as text with its legal moves, for games without a board "
            "of their own (openspiel:breakthrough). May be given more than once."
        ),
    )
    @lang_option
    def serve(host: str, port: int, allowed_hosts: tuple[str, ...], games: tuple[str, ...]) -> None:
        from zermelo.games.registry import get_game
        from zermelo.ui.web import serve as run_server

        for name in games:
            get_game(name)  # a bad name is one line before the server starts

        from zermelo.cli.kernels import compile_in_background
        from zermelo.solvers.kernels import GAME_KERNELS

        for name in games or tuple(GAME_KERNELS):
            compile_in_background(get_game(name).name, lambda line: click.echo(line, err=True))
        shown = f"[{host}]" if ":" in host else host
        click.echo(
            _("Serving zermelo on http://{address}:{port}/ (Ctrl-C stops)").format(
                address=shown, port=port
            )
        )
        run_server(host, port, allowed_hosts=allowed_hosts, games=games)

    return serve
