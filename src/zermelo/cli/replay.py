"""``zermelo replay``: a saved game, move by move."""

from __future__ import annotations

import click
from rich.markup import escape

from zermelo.cli.common import Command, console, fail, lang_option, print_board
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``replay`` command, with its help in the current language."""

    @click.command(
        "replay",
        cls=Command,
        help=_(
            "Print a game saved by 'zermelo arena --save' move by move, checking every move. "
            "FILE holds one game per line; --game picks one (default: the first)."
        ),
        short_help=_("Show a saved game move by move."),
    )
    @click.argument("file", type=click.Path(exists=True, dir_okay=False))
    @click.option(
        "--game",
        "-g",
        "number",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help=_("Which game of the file, counting from 1."),
    )
    @lang_option
    def replay_command(file: str, number: int) -> None:
        from zermelo.games.registry import get_game
        from zermelo.play import load_records, replay

        records = load_records(file)
        if not records:
            fail(_("{file} holds no games").format(file=file))
        if number > len(records):
            fail(
                _("there is no game {number} in {file}: it holds {count}").format(
                    number=number, file=file, count=len(records)
                )
            )
        record = records[number - 1]
        states = replay(record)
        out = console()
        out.print(
            _("Game {number} of {count}: {game}, {first} (first) vs {second}").format(
                number=number,
                count=len(records),
                game=record.game,
                first=escape(record.players[0]),
                second=escape(record.players[1]),
            )
        )
        out.print(_("Start: {position}").format(position=escape(record.start or "-")))
        for ply, text in enumerate(record.moves, 1):
            mover = states[ply - 1].to_move
            seconds = record.times[ply - 1] if ply - 1 < len(record.times) else None
            line = f"{ply:>3}. {escape(record.players[mover])}: {escape(text)}"
            if seconds is not None:
                line += f"  ({seconds:.2f} s)"
            out.print(line)
        final = states[-1]
        out.print(_("Final position: {position}").format(position=escape(final.notation())))
        print_board(out, get_game(record.game), final)
        winner = record.winner
        if winner is None:
            out.print(_("Result: {result}, a draw").format(result=record.result))
        else:
            out.print(
                _("Result: {result}, {agent} wins").format(
                    result=record.result, agent=escape(record.players[winner])
                )
            )

    return replay_command
