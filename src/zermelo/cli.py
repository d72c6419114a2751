"""The ``zermelo`` command: play, analyse, solve and benchmark.

Every mistake in what a person types ends as one line on stderr that says what was wrong and what
was expected, with exit status 2; never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
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


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _fail(message: str) -> NoReturn:
    raise click.ClickException(message)


def build_cli() -> click.Group:
    """The command tree, with help texts in the current language."""

    @click.group(
        context_settings={"help_option_names": ["-h", "--help"]},
        help=_("Game search from the minimax tutorial: play, analyse and solve games."),
    )
    @click.version_option(version=__version__, prog_name="zermelo")
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

    @cli.command(
        "serve",
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
    @_lang_option
    def serve(host: str, port: int) -> None:
        try:
            from zermelo.ui.web import serve as run_server
        except ImportError as error:
            _fail(
                _("the web UI needs starlette and uvicorn ({error}); install zermelo[web]").format(
                    error=error
                )
            )
        shown = f"[{host}]" if ":" in host else host
        click.echo(
            _("Serving zermelo on http://{address}:{port}/ (Ctrl-C stops)").format(
                address=shown, port=port
            )
        )
        run_server(host, port)

    @cli.command(
        "solve",
        help=_(
            "Solve Connect Four positions exactly. Each POSITION is the moves played, one column "
            "digit per move (1 = leftmost), e.g. 4453; without POSITIONS, one per line is read "
            "from standard input (anything after the moves is ignored). Prints each position, "
            "its score (0 draw; positive: the side to move wins, 22 minus the stones the winner "
            "has played when it connects; negative: it loses) and the score in words."
        ),
        short_help=_("Solve Connect Four positions exactly."),
    )
    @click.argument("positions", nargs=-1)
    @click.option("--weak", is_flag=True, help=_("Only win, draw or loss (1, 0, -1): faster."))
    @click.option("--best", is_flag=True, help=_("Also print the best moves."))
    @click.option(
        "--stats", is_flag=True, help=_("Also print the nodes searched and the microseconds.")
    )
    @_lang_option
    def solve(positions: tuple[str, ...], weak: bool, best: bool, stats: bool) -> None:
        from zermelo.solvers.connect4 import solve_lines

        lines: Any = positions if positions else sys.stdin
        failed = False
        for outcome in solve_lines(lines, weak=weak, best_moves=best):
            if outcome.result is None:
                failed = True
                click.echo(
                    _("line {number}: {message}").format(
                        number=outcome.line_number, message=outcome.error
                    ),
                    err=True,
                )
                continue
            result = outcome.result
            fields = [outcome.text or "-", str(result.score), result.describe()]
            if best:
                fields.append("".join(str(move + 1) for move in result.best_moves) or "-")
            if stats:
                fields += [str(result.nodes), f"{result.microseconds:.0f}"]
            click.echo(" ".join(fields))
        if failed:
            sys.exit(EXIT_USAGE)

    return cli


def _format_line(state: Any, line: Sequence[Any]) -> list[str]:
    words = []
    for move in line:
        words.append(state.format_move(move))
        state = state.play(move)
    return words


def _requested_language(argv: Sequence[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


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
