"""``zermelo games``: every game, its aliases, and which commands it supports."""

from __future__ import annotations

import click
from rich import box
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import Command, console, game_commands, lang_option
from zermelo.core.record import GameSpec
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

COLUMNS = ("play", "analyze", "solve", "explain", "tune", "perft", "uci", "hub")
"""The commands the table has a column for, in the order of ``zermelo --help``."""

LEARNED_COLUMN = "az"
"""The column that marks the games whose record ships a learned net (``learned``): the agent
``az`` of the arena and the level ``az`` of ``zermelo play`` and the page."""

# TRANSLATORS: a column of 'zermelo games': what the game is beyond a board game of pure skill,
# in one-letter marks explained under the table.
_KIND = N_("kind")
# TRANSLATORS: the one-letter marks of the 'kind' column of 'zermelo games' (chance, hidden
# information, points), each one letter, and the line under the table that explains them.
_CHANCE = N_("c")
_HIDDEN = N_("h")
_POINTS = N_("p")
_LEGEND = N_(
    "kind: {chance} chance (dice, deals), {hidden} hidden information, {points} scored in points"
)


def kind_marks(spec: GameSpec) -> str:
    """What the game is beyond perfect information, from its record, in one-letter marks (short,
    so that the aliases keep their width in a pipe): ``c`` chance nodes (dice, deals), ``h``
    hidden information, ``p`` scored in points, comma-separated; ``-`` for none."""
    marks = [
        _(_CHANCE) if spec.chance else "",
        _(_HIDDEN) if spec.hidden else "",
        _(_POINTS) if spec.scored else "",
    ]
    return ",".join(mark for mark in marks if mark) or "-"


def command() -> click.Command:
    """The ``games`` command, with its help in the current language."""

    @click.command(
        "games",
        cls=Command,
        help=_(
            "List the games: each one's name, its other names (aliases) and the commands it "
            "supports. Any command that takes GAME takes a name or an alias."
        ),
        short_help=_("List the games and what each supports."),
    )
    @lang_option
    def games() -> None:
        from zermelo.games.registry import all_games

        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column(_("game"), no_wrap=True)
        # The aliases wrap (international draughts has four), so the command columns keep their names.
        table.add_column(_("aliases"))
        for column in (*COLUMNS, LEARNED_COLUMN):
            table.add_column(column, justify="center", no_wrap=True)
        # Last, so that the command columns stay where they were; no spaces in it, so that a
        # pipe's reader splits the row into its columns.
        table.add_column(_(_KIND), no_wrap=True)
        for spec in all_games():
            supported = game_commands(spec)
            table.add_row(
                spec.name,
                escape(", ".join(spec.aliases)) or "-",
                *("✓" if column in supported else "·" for column in COLUMNS),
                "✓" if spec.learned is not None else "·",
                escape(kind_marks(spec)),
            )
        out = console()
        if not out.is_terminal:
            out.width = max(out.width, 120)
        out.print(table)
        out.print(
            escape(_(_LEGEND).format(chance=_(_CHANCE), hidden=_(_HIDDEN), points=_(_POINTS)))
        )
        out.print(
            escape(
                _(
                    "az: a learned net plays the game (zermelo play GAME --level az; the "
                    "arena's agent az:sims=N)."
                )
            )
        )
        out.print(
            escape(
                _(
                    "OpenSpiel's games too, with zermelo[openspiel]: openspiel:NAME, such as "
                    "{example}."
                ).format(example="openspiel:hex(board_size=5)")
            )
        )

    return games
