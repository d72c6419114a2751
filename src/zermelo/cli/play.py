"""``zermelo play``: a game against the AI on the terminal."""

from __future__ import annotations

import sys

import click

from zermelo.cli.common import Command, board_options, game_options, lang_option, time_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``play`` command, with its help in the current language."""

    @click.command(
        "play",
        cls=Command,
        help=_("Play a game against the AI (default: tic-tac-toe)."),
        short_help=_("Play a game against the AI."),
    )
    @click.argument("game", default="tictactoe")
    @click.option(
        "--first",
        type=click.Choice(["human", "ai", "random"]),
        default="random",
        show_default=True,
        help=_("Who moves first."),
    )
    @click.option("--human", "human", default=None, metavar="SIDE", help=_("Your side: O or X."))
    @click.option(
        "--level",
        type=click.Choice(["easy", "medium", "hard"]),
        default="hard",
        show_default=True,
        help=_("How strong the AI plays."),
    )
    @click.option("--seed", type=int, default=None, help=_("Seed, to replay the same games."))
    @time_option(_("Thinking time per AI move, for large games."))
    @click.option("--once", is_flag=True, help=_("Play one game, without offering another."))
    @board_options
    @lang_option
    def play(
        game: str,
        first: str,
        human: str | None,
        level: str,
        seed: int | None,
        time_limit: float | None,
        once: bool,
        size: tuple[int, int] | None,
        k: int | None,
        exact: bool,
    ) -> None:
        from zermelo.games.registry import get_game
        from zermelo.ui.terminal.session import GameOptions, Session

        options = GameOptions(
            game=game,
            first=first,
            human=human,
            level=level,
            seed=seed,
            time_limit=time_limit,
            repeat=not once,
            game_options=game_options(get_game(game).name, size, k, exact),
        )
        sys.exit(Session(options).run())

    return play
