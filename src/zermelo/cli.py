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
from rich.progress import ProgressColumn, Task
from rich.table import Table
from rich.text import Text

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
    @_board_options
    @_lang_option
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
            game_options=_game_options(get_game(game).name, size, k, exact),
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
        if spec.name == "connect4" and depth is None and time_limit is None:
            _analyze_connect4(console, state)
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
        "explain",
        help=_(
            "Show the evaluation function f(s) = w1*x1 + ... + wn*xn on POSITION, feature by "
            "feature: each feature's value, its weight and its part of the total. POSITION is the "
            "game's notation or a list of moves from the empty board, such as 'h8 h9 i9'."
        ),
        short_help=_("Show the evaluation of a position, term by term."),
    )
    @click.argument("game")
    @click.argument("position", default="")
    @click.option(
        "--weights",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help=_("A weights file written by 'zermelo tune'."),
    )
    @_board_options
    @_lang_option
    def explain(
        game: str,
        position: str,
        weights: str | None,
        size: tuple[int, int] | None,
        k: int | None,
        exact: bool,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        if spec.name not in ("gomoku", "mnk"):
            raise ZermeloError(
                f"explain works on gomoku and mnk; for {spec.name} use 'zermelo analyze'"
            )
        from zermelo.games.mnk_eval import explain as explain_state
        from zermelo.games.mnk_eval import load_evaluation

        state = _position_or_moves(spec, position, _game_options(spec.name, size, k, exact))
        evaluation = load_evaluation(weights) if weights else None
        breakdown = explain_state(state, evaluation)
        console = _console()
        console.print(_("Position: {position}").format(position=escape(state.notation())))
        table = Table(title=_("f(s) from the side to move ({side})").format(side=breakdown.to_move))
        table.add_column(_("feature"))
        table.add_column(_("x (value)"), justify="right")
        table.add_column(_("w (weight)"), justify="right")
        table.add_column(_("w·x"), justify="right")
        for row in breakdown.rows:
            table.add_row(
                f"{row.name}\n[dim]{escape(row.description)}[/dim]",
                f"{row.value:g}",
                f"{row.weight:g}",
                f"{row.contribution + 0.0:+g}",
            )
        table.add_section()
        table.add_row(_("total f(s)"), "", "", f"{breakdown.total:+g}")
        console.print(table)

    @cli.command(
        "tune",
        help=_(
            "Fit the evaluation weights to the results of seeded self-play games (logistic "
            "regression on positions labelled with their game's result), save them, and compare "
            "the tuned weights with the current ones in a short match."
        ),
        short_help=_("Tune the evaluation weights by self-play."),
    )
    @click.argument("game")
    @click.option(
        "--games",
        type=click.IntRange(min=2),
        default=40,
        show_default=True,
        help=_("Self-play games."),
    )
    @click.option(
        "--match",
        "match_games",
        type=click.IntRange(min=0),
        default=20,
        show_default=True,
        help=_("Games of the tuned against the current weights (0: none)."),
    )
    @click.option("--seed", type=int, default=0, show_default=True, help=_("Seed of the games."))
    @click.option(
        "--out",
        type=click.Path(dir_okay=False, writable=True),
        default="gomoku_weights.json",
        show_default=True,
        help=_("Where to save the tuned weights."),
    )
    @_lang_option
    def tune(game: str, games: int, match_games: int, seed: int, out: str) -> None:
        from zermelo.games.registry import get_game

        if get_game(game).name != "gomoku":
            raise ZermeloError(f"tune works on gomoku, not on {game!r}")
        from rich.progress import Progress as Bar

        from zermelo.games.mnk_eval import default_evaluation
        from zermelo.solvers.gomoku_tuning import play_match
        from zermelo.solvers.gomoku_tuning import tune as tune_weights

        console = _console()
        with Bar(console=Console(stderr=True), transient=True) as bar:
            tasks: dict[str, Any] = {}

            def progress(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done, total=total)

            report = tune_weights(games, seed=seed, path=out, progress=progress)
            result = None
            if match_games:
                result = play_match(
                    report.evaluation,
                    default_evaluation(),
                    match_games,
                    seed=seed,
                    progress=progress,
                )
        table = Table(title=_("Tuning by self-play"))
        table.add_column(_("measure"))
        table.add_column(_("value"), justify="right")
        table.add_row(_("games / positions"), f"{report.games} / {report.positions}")
        table.add_row(_("log loss before"), f"{report.log_loss_before:.4f}")
        table.add_row(_("log loss after"), f"{report.log_loss_after:.4f}")
        table.add_row(_("accuracy after"), f"{report.accuracy_after:.1%}")
        if result is not None:
            wins, losses, draws = result
            table.add_row(
                _("tuned vs current weights"),
                _("{wins} wins, {losses} losses, {draws} draws").format(
                    wins=wins, losses=losses, draws=draws
                ),
            )
        console.print(table)
        console.print(_("Weights saved to {path}").format(path=escape(out)))

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
    @_lang_option
    def serve(host: str, port: int, allowed_hosts: tuple[str, ...]) -> None:
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
        run_server(host, port, allowed_hosts=allowed_hosts)

    @cli.command(
        "solve",
        help=_(
            "Solve games exactly. connect4: each POSITION is the moves played, one column digit "
            "per move (1 = leftmost), e.g. 4453; without POSITIONS, one per line is read from "
            "standard input (anything after the moves is ignored) and each is printed with its "
            "score: 0 for a draw; positive when the side to move wins (22 minus the stones the "
            "winner has played when it connects), negative when it loses. mnk: the value of the "
            "empty board for the first player and a best first move (use --size and --k)."
        ),
        short_help=_("Solve games exactly."),
    )
    @click.argument("game")
    @click.argument("positions", nargs=-1)
    @click.option("--weak", is_flag=True, help=_("Only win, draw or loss (1, 0, -1): faster."))
    @click.option("--best", is_flag=True, help=_("Also print the best moves."))
    @click.option(
        "--stats", is_flag=True, help=_("Also print the nodes searched and the microseconds.")
    )
    @_board_options
    @_lang_option
    def solve(
        game: str,
        positions: tuple[str, ...],
        weak: bool,
        best: bool,
        stats: bool,
        size: tuple[int, int] | None,
        k: int | None,
        exact: bool,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        if spec.name == "connect4":
            _game_options(spec.name, size, k, exact)
            sys.exit(_solve_connect4(positions, weak=weak, best=best, stats=stats))
        if spec.name not in ("mnk", "tictactoe"):
            raise ZermeloError(f"solve knows connect4, mnk and tictactoe, not {spec.name!r}")
        if positions or weak or best or stats:
            raise click.UsageError(
                _(
                    "positions, --weak, --best and --stats are for connect4; mnk solves the empty board"
                )
            )
        from zermelo.solvers.mnk import solve_mnk

        console = _console()
        width, height = size if size is not None else (3, 3)
        k = k if k is not None else min(width, height)
        if spec.name == "tictactoe" and (size, k) != (None, 3):
            raise click.UsageError(_("tic-tac-toe is 3x3 with three in a row; use 'mnk'"))
        with console.status(_("Solving...")):
            solution = solve_mnk(width, height, k, exact=exact)
        words = {1: _("first player wins"), 0: _("draw"), -1: _("second player wins")}
        console.print(
            _("{width}x{height}, k={k}: {value}; a best first move: {move}").format(
                width=width,
                height=height,
                k=k,
                value=words[solution.value],
                move=solution.move_text,
            )
        )
        solved = solution.stats
        console.print(
            _("{nodes} nodes, {hits} table hits, {seconds:.2f} s").format(
                nodes=f"{solved.nodes:,}", hits=f"{solved.table_hits:,}", seconds=solved.elapsed
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
            overall.add_row(escape(label), *tally.cells())
        console.print(overall)
        pairs = Table(title=_("Pairs (results of the first agent)"))
        pairs.add_column(_("agent"), no_wrap=True)
        pairs.add_column(_("opponent"), no_wrap=True)
        for heading in (_("games"), _("wins"), _("draws"), _("losses"), _("score")):
            pairs.add_column(heading, justify="right")
        pairs.add_column(_("Elo [95% interval]"), justify="right", no_wrap=True)
        for (first, second), tally in pair_tallies(records).items():
            pairs.add_row(
                escape(first), escape(second), *tally.cells(), elo_estimate(tally).describe()
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


class _RateColumn(ProgressColumn):
    """Positions per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")


_C4_BOOK_PLIES = 2


def _analyze_connect4(console: Console, state: Any) -> None:
    """Every column's exact score in words, from the perfect solver."""
    from zermelo.solvers.connect4 import analyze as solve_columns
    from zermelo.solvers.connect4.scores import to_negamax
    from zermelo.ui.words import score_words

    # Near the empty board the columns come from the opening book at once, but a principal
    # variation would have to solve the opening itself (minutes): show the best move alone there.
    full_line = state.ply > _C4_BOOK_PLIES
    with console.status(_("Solving every column exactly...")):
        analysis = solve_columns(state, pv=full_line)
    table = Table(title=_("Columns for the side to move (exact)"))
    table.add_column(_("column"), justify="right")
    table.add_column(_("score"), justify="right")
    table.add_column(_("value"))
    for column, score in enumerate(analysis.scores):
        if score is None:
            table.add_row(str(column + 1), "-", _("full"))
            continue
        words = score_words(to_negamax(score, state.ply, state.width, state.height))
        table.add_row(str(column + 1), str(score), words)
    console.print(table)
    best = ", ".join(str(move + 1) for move in analysis.best_moves)
    console.print(_("Best move: {move}").format(move=best))
    if analysis.score is not None:
        value = to_negamax(analysis.score, state.ply, state.width, state.height)
        console.print(_("Value: {value}").format(value=score_words(value)))
    line = analysis.pv if full_line else analysis.best_moves[:1]
    console.print(_("Principal variation: {line}").format(line=" ".join(str(m + 1) for m in line)))
    if not full_line:
        console.print(_("(From the opening book; the rest of the line would take minutes.)"))
    console.print(
        _("Search: {nodes} nodes, {ms:.2f} ms").format(
            nodes=f"{analysis.nodes:,}", ms=analysis.elapsed * 1000
        )
    )


def _solve_connect4(positions: tuple[str, ...], *, weak: bool, best: bool, stats: bool) -> int:
    """Solve Connect Four lines; ``MOVES SCORE`` per line on stdout, errors by line on stderr.

    The exit status is 1 when any line was bad (the others are still solved), else 0.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from zermelo.solvers.connect4 import solve_lines

    lines = list(positions) if positions else sys.stdin.read().splitlines()
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    show_bar = errors.is_terminal and len(lines) > 1
    failed = False
    with Progress(
        TextColumn(_("solving")),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not show_bar,
    ) as bar:
        task = bar.add_task("solve", total=len(lines))
        for outcome in solve_lines(lines, weak=weak, best_moves=best):
            bar.advance(task)
            if outcome.result is None:
                failed = True
                bar.console.print(
                    escape(
                        _("line {number}: {message}").format(
                            number=outcome.line_number, message=outcome.error
                        )
                    )
                )
                continue
            result = outcome.result
            fields = [outcome.text or "-", str(result.score)]
            if best:
                fields.append("".join(str(move + 1) for move in result.best_moves) or "-")
            if stats:
                fields += [str(result.nodes), f"{result.microseconds:.0f}"]
            click.echo(" ".join(fields))
    return 1 if failed else 0


def _position_or_moves(spec: Any, text: str, options: dict[str, Any]) -> Any:
    """A position from the game's notation, or from moves played from the empty board."""
    if not text.strip():
        return spec.new(**options)
    try:
        return spec.parse(text)
    except ZermeloError as notation_error:
        state = spec.new(**options)
        try:
            for word in text.replace(",", " ").split():
                state = state.play(state.parse_move(word))
        except ZermeloError as move_error:
            raise ZermeloError(
                f"{text!r} is neither a position ({notation_error}) nor a list of moves "
                f"({move_error})"
            ) from None
        return state


def _parse_size(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    text = value.strip().lower()
    parts = text.split("x")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise click.BadParameter(
            _(
                "{value!r} is not a board size: expected COLUMNSxROWS such as 7x7, or one number"
            ).format(value=value)
        )
    return int(parts[0]), int(parts[1])


def _board_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--size``, ``--k`` and ``--exact``: the rules of m,n,k games and gomoku."""
    command = click.option(
        "--exact",
        is_flag=True,
        help=_("m,n,k and gomoku: only exactly k in a row wins (no overlines)."),
    )(command)
    command = click.option(
        "--k",
        "k",
        type=click.IntRange(min=1),
        default=None,
        help=_("m,n,k: stones in a row that win (default 5, or the board's side if smaller)."),
    )(command)
    return click.option(
        "--size",
        callback=_parse_size,
        default=None,
        metavar="WxH",
        help=_("m,n,k: board size such as 7x7 (default 15x15)."),
    )(command)


def _game_options(
    game: str, size: tuple[int, int] | None, k: int | None, exact: bool
) -> dict[str, Any]:
    """The rule options for ``game``; rules a game does not have are an error, not ignored."""
    if game == "mnk":
        options: dict[str, Any] = {"exact": exact}
        width, height = size if size is not None else (15, 15)
        options.update(width=width, height=height, k=k if k is not None else min(5, width, height))
        return options
    if game == "gomoku":
        if size is not None or k is not None:
            raise click.UsageError(
                _("gomoku is 15x15 with five in a row; use 'mnk' for --size and --k")
            )
        return {"exact": exact}
    if size is not None or k is not None or exact:
        raise click.UsageError(
            _("--size, --k and --exact are rules of mnk and gomoku, not of {game}").format(
                game=game
            )
        )
    return {}


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
