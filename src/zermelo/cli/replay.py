"""``zermelo replay``: a saved game, move by move."""

from __future__ import annotations

import re

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
            "FILE holds one game per line; --game picks one (default: the first). FILE may also "
            "be a game in a game's own file format (PGN, PDN): its first game is shown."
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
    @click.option(
        "--rules",
        "rules",
        metavar="GAME",
        default=None,
        help=_(
            "The game of a file in a game's own format (PGN, PDN); without it every game "
            "that reads files is tried."
        ),
    )
    @lang_option
    def replay_command(file: str, number: int, rules: str | None) -> None:
        from zermelo.games.registry import get_game
        from zermelo.play import load_records, replay

        if rules is not None or not _is_records(file):
            if number != 1:
                fail(
                    _(
                        "--game counts the games of a file saved by the arena; of a PGN or PDN "
                        "file, the first game is shown"
                    )
                )
            _replay_game_file(file, rules)
            return
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


def _is_records(file: str) -> bool:
    """True when ``file`` looks like saved games (JSON lines, or text that is not UTF-8, which
    :func:`~zermelo.play.load_records` refuses in its own words), not a game's own file format
    (PGN, PDN: text that starts with a tag pair ``[Event ...``, a comment or moves)."""
    try:
        with open(file, "rb") as stream:
            head = stream.read(4096)
    except OSError:
        return True  # load_records says why it cannot be read
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:
            return True
        text = head[: error.start].decode("utf-8")
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        return True
    if stripped.startswith("{"):  # a JSON object, or a PGN/PDN comment
        return re.match(r'\{\s*("|\}|$)', stripped) is not None
    if stripped.startswith("["):
        return re.match(r"\[\s*[A-Za-z]", stripped) is None
    return False


def _replay_game_file(file: str, rules: str | None) -> None:
    """``zermelo replay`` of a game's own file (PGN, PDN): the first game that one of the games'
    :class:`~zermelo.core.capabilities.Loads` savers reads, every move checked and printed."""
    from zermelo.core.capabilities import Loads
    from zermelo.core.errors import ZermeloError
    from zermelo.core.state import end_reason
    from zermelo.games.registry import all_games, get_game

    try:
        with open(file, "rb") as stream:
            text = stream.read(8_000_001).decode("utf-8", errors="replace")
    except OSError as error:
        fail(_("cannot read {file}: {reason}").format(file=file, reason=error.strerror))
    try:
        specs = [get_game(rules)] if rules is not None else all_games()
    except ZermeloError as error:
        fail(error.render(_))
    problems: list[str] = []
    for spec in specs:
        saver: object = spec.saver.resolve() if spec.saver is not None else None
        if not isinstance(saver, Loads):
            if rules is not None:
                fail(_("{game} reads no game files").format(game=spec.name))
            continue
        try:
            start, moves = saver.load(text)
            state = spec.parse(start) if start else spec.new()
            states = [state]
            for move in moves:
                state = state.play(state.parse_move(move))
                states.append(state)
        except ZermeloError as error:
            problems.append(f"{spec.name}: {error.render(_)}")
            continue
        out = console()
        out.print(_("{file}: {game}").format(file=escape(file), game=_(spec.title)))
        out.print(_("Start: {position}").format(position=escape(start or "-")))
        for ply, text_move in enumerate(moves, 1):
            side = _(spec.sides[states[ply - 1].to_move])
            out.print(f"{ply:>3}. {escape(side)}: {escape(text_move)}")
        final = states[-1]
        out.print(_("Final position: {position}").format(position=escape(final.notation())))
        print_board(out, spec, final)
        reason = end_reason(final)
        if reason is None:
            out.print(_("The game is not over."))
        elif final.winner is None:
            out.print(
                _("The game is over: {reason}.").format(reason=_(reason)) + " " + _("A draw.")
            )
        else:
            out.print(
                _("The game is over: {reason}.").format(reason=_(reason))
                + " "
                + _("{side} wins.").format(side=_(spec.sides[final.winner]))
            )
        return
    if not problems:
        fail(_("{file}: no game reads files of this kind").format(file=file))
    fail(_("{file} cannot be replayed: {problems}").format(file=file, problems="; ".join(problems)))
