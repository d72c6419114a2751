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
        "arena",
        help=_(
            "Round robin between AGENTS at GAME: every pair plays --games games with colours "
            "alternated, then a table of wins, draws, losses, score and the Elo difference with "
            "its 95% interval. Agents: random, easy, medium, hard, hard:time=SECONDS, "
            "engine:depth=PLIES, engine:time=SECONDS, mcts:iterations=N, mcts:time=SECONDS "
            "(more in docs/arena.md). Write them after --agents or after GAME."
        ),
        short_help=_("Let agents play each other and rate them."),
    )
    @click.argument("game")
    @click.argument("more_agents", nargs=-1, metavar="[AGENTS]...")
    @click.option(
        "--agents",
        "-a",
        "agent_options",
        multiple=True,
        metavar="AGENT",
        help=_("An agent; the ones after it need no --agents of their own."),
    )
    @click.option(
        "--games",
        "-n",
        type=click.IntRange(min=1),
        default=10,
        show_default=True,
        help=_("Games per pair of agents."),
    )
    @click.option("--seed", type=int, default=0, show_default=True, help=_("Tournament seed."))
    @click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=None,
        help=_("Games played at once (default: the number of cores)."),
    )
    @click.option(
        "--start",
        default=None,
        metavar="POSITION",
        help=_("Start position in the game's notation (default: the initial position)."),
    )
    @click.option(
        "--save",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help=_("Save the games to FILE as JSON lines."),
    )
    @_lang_option
    def arena(
        game: str,
        more_agents: tuple[str, ...],
        agent_options: tuple[str, ...],
        games: int,
        seed: int,
        jobs: int | None,
        start: str | None,
        save: str | None,
    ) -> None:
        import time

        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from zermelo.agents.spec import parse_agent
        from zermelo.games.registry import get_game
        from zermelo.play import (
            GameRecord,
            elo_estimate,
            pair_tallies,
            round_robin,
            run_tasks,
            save_records,
            standings,
            start_state,
        )

        name = get_game(game).name
        texts = [*agent_options, *more_agents]
        if len(texts) < 2:
            _fail(_("the arena needs at least two agents, got {count}").format(count=len(texts)))
        specs = [parse_agent(text) for text in texts]
        if start:
            start_state(name, None, start)  # a bad position fails here, before any game
        tasks = round_robin(name, specs, games, seed=seed, start=start)
        workers = jobs if jobs is not None else os.cpu_count() or 1
        err = Console(stderr=True, highlight=False)
        began = time.perf_counter()
        progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=False,
        )
        with progress:
            bar = progress.add_task(_("Games"), total=len(tasks), rate="")

            def finished(record: GameRecord) -> None:
                done = progress.tasks[0].completed + 1
                per_minute = 60.0 * done / max(time.perf_counter() - began, 1e-9)
                rate = _("{rate:.1f} games/min").format(rate=per_minute)
                progress.update(bar, advance=1, rate=rate)

            records = run_tasks(tasks, jobs=workers, on_record=finished)
        elapsed = time.perf_counter() - began
        console = _console()
        if not console.is_terminal:
            console.width = max(console.width, 120)
        overall = Table(title=_("Standings: {game}").format(game=name))
        overall.add_column(_("agent"), no_wrap=True)
        for heading in (_("games"), _("wins"), _("draws"), _("losses"), _("score")):
            overall.add_column(heading, justify="right")
        ranked = sorted(standings(records).items(), key=lambda item: -item[1].score)
        for label, tally in ranked:
            overall.add_row(
                escape(label),
                str(tally.games),
                str(tally.wins),
                str(tally.draws),
                str(tally.losses),
                f"{100 * tally.score:.1f}%",
            )
        console.print(overall)
        pairs = Table(title=_("Pairs (results of the first agent)"))
        pairs.add_column(_("agent"), no_wrap=True)
        pairs.add_column(_("opponent"), no_wrap=True)
        for heading in (_("games"), _("wins"), _("draws"), _("losses"), _("score")):
            pairs.add_column(heading, justify="right")
        pairs.add_column(_("Elo [95% interval]"), justify="right", no_wrap=True)
        for (first, second), tally in pair_tallies(records).items():
            pairs.add_row(
                escape(first),
                escape(second),
                str(tally.games),
                str(tally.wins),
                str(tally.draws),
                str(tally.losses),
                f"{100 * tally.score:.1f}%",
                elo_estimate(tally).describe(),
            )
        console.print(pairs)
        console.print(
            _("{count} games, seed {seed}, {jobs} jobs, {seconds:.1f} s").format(
                count=len(records), seed=seed, jobs=workers, seconds=elapsed
            )
        )
        if save:
            try:
                written = save_records(save, records)
            except OSError as error:
                _fail(_("cannot write {file}: {reason}").format(file=save, reason=error.strerror))
            console.print(_("Saved {count} games to {file}").format(count=written, file=save))

    @cli.command(
        "replay",
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
    @_lang_option
    def replay_command(file: str, number: int) -> None:
        from zermelo.play import load_records, replay

        records = load_records(file)
        if not records:
            _fail(_("{file} holds no games").format(file=file))
        if number > len(records):
            _fail(
                _("there is no game {number} in {file}: it holds {count}").format(
                    number=number, file=file, count=len(records)
                )
            )
        record = records[number - 1]
        states = replay(record)
        console = _console()
        console.print(
            _("Game {number} of {count}: {game}, {first} (first) vs {second}").format(
                number=number,
                count=len(records),
                game=record.game,
                first=escape(record.players[0]),
                second=escape(record.players[1]),
            )
        )
        console.print(_("Start: {position}").format(position=escape(record.start or "-")))
        for ply, text in enumerate(record.moves, 1):
            mover = states[ply - 1].to_move
            seconds = record.times[ply - 1] if ply - 1 < len(record.times) else None
            line = f"{ply:>3}. {escape(record.players[mover])}: {escape(text)}"
            if seconds is not None:
                line += f"  ({seconds:.2f} s)"
            console.print(line)
        final = states[-1]
        console.print(_("Final position: {position}").format(position=escape(final.notation())))
        _print_board(console, record.game, final)
        winner = record.winner
        if winner is None:
            console.print(_("Result: {result}, a draw").format(result=record.result))
        else:
            console.print(
                _("Result: {result}, {agent} wins").format(
                    result=record.result, agent=escape(record.players[winner])
                )
            )

    return cli


def _print_board(console: Console, game: str, state: Any) -> None:
    """The final board, for games the terminal can draw."""
    from zermelo.ui.terminal.boards import view_for

    try:
        view = view_for(game)
    except ZermeloError:
        return
    console.print(view.render(state, None, rich=console.is_terminal))


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
