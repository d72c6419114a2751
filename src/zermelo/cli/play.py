"""``zermelo play``: a game against the AI on the terminal."""

from __future__ import annotations

import sys

import click

from zermelo.cli.common import Command, game_options, lang_option, rule_options, time_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``play`` command, with its help in the current language."""

    @click.command(
        "play",
        cls=Command,
        help=_("Play a game against the AI (default: tic-tac-toe)."),
        short_help=_("Play a game against the AI."),
    )
    @rule_options
    @click.argument("game", default=_default_game())
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
        type=click.Choice(["easy", "medium", "hard", "az"]),
        default="hard",
        show_default=True,
        help=_("How strong the AI plays; az is the learned net, for the games that ship one."),
    )
    @click.option("--seed", type=int, default=None, help=_("Seed, to replay the same games."))
    @time_option(_("Thinking time per AI move, for large games."))
    @click.option("--once", is_flag=True, help=_("Play one game, without offering another."))
    @click.option(
        "--fen",
        "--position",
        "start",
        default=None,
        metavar="POSITION",
        help=_("Start from this position, in the game's notation (chess: FEN)."),
    )
    @click.option(
        "--pgn",
        "--save",
        "save",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help=_("Save each finished game to FILE (chess: as PGN); 'save FILE' does it mid-game."),
    )
    @lang_option
    def play(
        game: str,
        first: str,
        human: str | None,
        level: str,
        seed: int | None,
        time_limit: float | None,
        once: bool,
        start: str | None,
        save: str | None,
        size: tuple[int, int] | None,
        rule_texts: tuple[str, ...],
        **rules: object,
    ) -> None:
        from zermelo.games.registry import get_game
        from zermelo.ui.terminal.session import GameOptions, Session

        spec = get_game(game)
        from zermelo.cli.kernels import compile_in_background

        # on stderr: standard output is the game's conversation, which scripts read
        compile_in_background(spec.name, lambda line: click.echo(line, err=True))
        options = GameOptions(
            game=game,
            first=first,
            human=human,
            level=level,
            seed=seed,
            time_limit=time_limit,
            repeat=not once,
            game_options=game_options(spec, rules, size, rule_texts),
            start=start,
            save=save,
        )
        sys.exit(Session(options).run())

    return play


def _default_game() -> str:
    from zermelo.games.registry import game_names

    return game_names()[0]
