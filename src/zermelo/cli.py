"""The ``zermelo`` command: play, analyse, solve and benchmark.

Every mistake in what a person types ends as one line on stderr that says what was wrong and what
was expected, with exit status 2; never a traceback.

Help texts and messages are ours and translated. Click's own words are not in our catalogs: click
asks Python's ``gettext`` for them in the global domain ``messages``, which no one installs. We
translate the ones a help screen shows through click's public hooks (the help and version options,
the "Usage:", "Options" and "Commands" headings, "[default: ...]"); the detail of a usage error
("No such option: --x", "'x' is not one of ...") stays in English inside our translated error line.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from zermelo import __version__, i18n
from zermelo.core.errors import ZermeloError
from zermelo.i18n import gettext as _

__all__ = ["build_cli", "main"]

EXIT_USAGE = 2


def _lang_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--lang`` on every command; the language itself is set before the CLI is built."""
    return click.option(
        "--lang",
        "lang",
        default=None,
        metavar="CODE",
        expose_value=False,
        help=_("Language: en, id, nl, vi or tr (default: from LC_ALL, LC_MESSAGES or LANG)."),
    )(command)


class _Formatter(click.HelpFormatter):
    """Click's help layout with the words click brings itself in the current language."""

    _DEFAULT = re.compile(r"(?<=\[)default: ([^;\]]*)|(?<=; )default: ([^;\]]*)")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        headings = {"Options": _("Options"), "Commands": _("Commands")}
        with super().section(headings.get(name, name)):
            yield

    def write_dl(
        self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        def translate(match: re.Match[str]) -> str:
            value = match.group(1) if match.group(1) is not None else match.group(2)
            return _("default: {default}").format(default=value)

        super().write_dl(
            [(term, self._DEFAULT.sub(translate, text)) for term, text in rows],
            col_max,
            col_spacing,
        )


class _Context(click.Context):
    formatter_class = _Formatter


class _Command(click.Command):
    context_class = _Context

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


class _Group(click.Group):
    """The ``zermelo`` group: its commands (``@cli.command``) get the translated help chrome."""

    context_class = _Context
    command_class = _Command

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _fail(message: str) -> NoReturn:
    raise click.ClickException(message)


def build_cli() -> click.Group:
    """The command tree, with help texts in the current language."""

    @click.group(
        cls=_Group,
        context_settings={"help_option_names": ["-h", "--help"]},
        help=_("Game search from the minimax tutorial: play, analyse and solve games."),
    )
    @click.version_option(
        version=__version__,
        prog_name="zermelo",
        help=_("Show the version and exit."),
        message=_("%(prog)s, version %(version)s"),
    )
    @_lang_option
    def cli() -> None:
        pass

    @cli.command(
        "play",
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
    @click.option(
        "--time",
        "time_limit",
        type=click.FloatRange(min=0.01),
        default=None,
        metavar="SECONDS",
        help=_("Thinking time per AI move, for large games."),
    )
    @click.option("--once", is_flag=True, help=_("Play one game, without offering another."))
    @_lang_option
    def play(
        game: str,
        first: str,
        human: str | None,
        level: str,
        seed: int | None,
        time_limit: float | None,
        once: bool,
    ) -> None:
        from zermelo.ui.terminal.session import GameOptions, Session

        options = GameOptions(
            game=game,
            first=first,
            human=human,
            level=level,
            seed=seed,
            time_limit=time_limit,
            repeat=not once,
        )
        sys.exit(Session(options).run())

    @cli.command(
        "analyze",
        help=_(
            "Show the value of every legal move in POSITION (the game's notation), the best "
            "move, the principal variation and the search statistics."
        ),
        short_help=_("Value every move of a position."),
    )
    @click.argument("game")
    @click.argument("position", default="")
    @click.option(
        "--depth", type=click.IntRange(min=1), default=None, help=_("Depth limit in plies.")
    )
    @click.option(
        "--time",
        "time_limit",
        type=click.FloatRange(min=0.01),
        default=None,
        metavar="SECONDS",
        help=_("Time budget per move."),
    )
    @_lang_option
    def analyze(game: str, position: str, depth: int | None, time_limit: float | None) -> None:
        from zermelo.games.registry import get_game
        from zermelo.search import alphabeta
        from zermelo.search import analyze as analyze_moves
        from zermelo.search.quiescence import quiescent
        from zermelo.ui.words import score_words

        spec = get_game(game)
        state = spec.parse(position) if position.strip() else spec.new()
        console = _console()
        console.print(
            _("Position: {position}").format(position=escape(state.notation() or "-")),
        )
        if state.is_terminal():
            winner = state.winner
            if winner is None:
                console.print(_("The game is over: a draw."))
            else:
                console.print(_("The game is over: the side to move has lost."))
            return
        if depth is None and time_limit is None and spec.default_time is not None:
            time_limit = spec.default_time
            console.print(
                _("No --depth or --time given: searching {seconds:g} s per move.").format(
                    seconds=time_limit
                )
            )
        # Games that say when a position is not quiet (checkers: a capture is pending) are judged
        # at the horizon only once the forced moves are played out, as their AI levels do.
        evaluator = quiescent() if callable(getattr(state, "is_quiet", None)) else None
        values = analyze_moves(state, depth=depth, time_limit=time_limit, evaluator=evaluator)
        result = alphabeta(state, depth=depth, time_limit=time_limit, evaluator=evaluator)
        table = Table(title=_("Moves for the side to move"))
        table.add_column(_("move"), justify="right")
        table.add_column(_("value"))
        table.add_column(_("line"))
        for value in values:
            table.add_row(
                state.format_move(value.move),
                score_words(value.value, exact=value.exact),
                " ".join(_format_line(state, value.pv)),
            )
        console.print(table)
        console.print(_("Best move: {move}").format(move=state.format_move(result.move)))
        console.print(
            _("Value: {value}").format(value=score_words(result.value, exact=result.exact))
        )
        console.print(
            _("Principal variation: {line}").format(line=" ".join(_format_line(state, result.pv)))
        )
        explain = getattr(state, "explain", None)
        if callable(explain):
            terms = explain()
            total = sum(weight * value for _, weight, value in terms)
            console.print(
                _("Evaluation f(s) = {total:+g}, from the side to move: {terms}").format(
                    total=total,
                    terms=", ".join(
                        f"{name} {value:+d} (w={weight:g})" for name, weight, value in terms
                    ),
                )
            )
        stats = result.stats
        console.print(
            _(
                "Search: {nodes} nodes, {cutoffs} cutoffs, {hits} table hits, depth {depth}, "
                "{ms:.2f} ms"
            ).format(
                nodes=f"{stats.nodes:,}",
                cutoffs=f"{stats.cutoffs:,}",
                hits=f"{stats.table_hits:,}",
                depth=result.depth,
                ms=stats.elapsed * 1000,
            )
        )

    return cli


def _format_line(state: Any, line: Sequence[Any]) -> list[str]:
    words = []
    for move in line:
        words.append(state.format_move(move))
        state = state.play(move)
    return words


def _requested_language(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` before ``--`` (click lets a later option win, too)."""
    requested = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            requested = argv[index + 1]
        elif arg.startswith("--lang="):
            requested = arg.split("=", 1)[1]
    return requested


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``zermelo`` command."""
    args = list(sys.argv[1:] if argv is None else argv)
    code, warning = i18n.resolve_language(_requested_language(args), os.environ)
    i18n.setup(code)
    if warning:
        click.echo(warning, err=True)
    cli = build_cli()
    try:
        cli.main(args=args, prog_name="zermelo", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else str(error))
        sys.exit(0)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "zermelo"
        click.echo(
            _("{command}: error: {message} (see '{command} --help')").format(
                command=command, message=error.format_message()
            ),
            err=True,
        )
        sys.exit(EXIT_USAGE)
    except click.ClickException as error:
        click.echo(_("zermelo: error: {message}").format(message=error.format_message()), err=True)
        sys.exit(error.exit_code)
    except ZermeloError as error:
        click.echo(_("zermelo: error: {message}").format(message=error), err=True)
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo(_("Interrupted; goodbye."), err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo(_("Interrupted; goodbye."), err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (``| head``); nothing more to say.
        sys.stderr.close()
        sys.exit(0)
