"""``zermelo solve``: exact values, from the game's position solver (positions read as lines),
its start-position solver, or its whole-game solver (Pig by value iteration, poker by CFR: no
positions to read; see :mod:`zermelo.core.capabilities`)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from zermelo.cli.common import (
    Command,
    RateColumn,
    cluster_options,
    console,
    fail,
    game_options,
    lang_option,
    missing_capability,
    read_text_lines,
    rule_options,
)
from zermelo.core.capabilities import (
    GameSolution,
    GameSolver,
    PositionSolver,
    SolvedBlock,
    SolveRequest,
)
from zermelo.core.errors import ZermeloError
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``solve`` command, with its help in the current language."""

    @click.command(
        "solve",
        cls=Command,
        help=_(
            "Solve games exactly. connect4: each POSITION is the moves played, one column digit "
            "per move (1 = leftmost), e.g. 4453; without POSITIONS, one per line is read from "
            "standard input (anything after the moves is ignored) and each is printed with its "
            "score: 0 for a draw; positive when the side to move wins (22 minus the stones the "
            "winner has played when it connects), negative when it loses. mnk: the value of the "
            "empty board for the first player and a best first move (use --size and --k)."
        )
        + " "
        + _(
            "pig, kuhn, leduc: the whole game, with no positions: the first player's value, the "
            "optimal policy or strategy as a table, and --plot FILE for its curves."
        ),
        short_help=_("Solve games exactly."),
    )
    @rule_options
    @click.argument("game")
    @click.argument("positions", nargs=-1)
    @click.option("--weak", is_flag=True, help=_("Only win, draw or loss (1, 0, -1): faster."))
    @click.option("--best", is_flag=True, help=_("Also print the best moves."))
    @click.option(
        "--stats", is_flag=True, help=_("Also print the nodes searched and the microseconds.")
    )
    @click.option(
        "--iterations",
        type=click.IntRange(1, 10_000_000),
        default=None,
        metavar="N",
        help=_("Games solved whole: at most N iterations (default: until converged)."),
    )
    @click.option(
        "--plot",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help=_("Games solved whole: draw the solution's curves to FILE (.png or .svg)."),
    )
    @click.option(
        "--full", is_flag=True, help=_("Games solved whole: print every row of the table.")
    )
    @cluster_options
    @lang_option
    def solve(
        game: str,
        positions: tuple[str, ...],
        weak: bool,
        best: bool,
        stats: bool,
        size: tuple[int, int] | None,
        rule_texts: tuple[str, ...],
        iterations: int | None,
        plot: str | None,
        full: bool,
        cluster: str | None,
        resume: str | None,
        **rules: object,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        options = game_options(spec, rules, size, rule_texts)
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(spec.name)
        whole = iterations is not None or plot is not None or full
        if spec.game_solver is not None and not (positions and spec.position_solver):
            if positions or weak or best or stats or cluster is not None or resume is not None:
                raise click.UsageError(
                    _(
                        "{game} is solved whole: it takes no positions, --weak, --best, "
                        "--stats, --cluster or --resume"
                    ).format(game=spec.name)
                )
            _solve_game(spec.game_solver.resolve(), options, iterations, plot, full)
            return
        if whole:
            raise click.UsageError(
                _(
                    "--iterations, --plot and --full are for games solved whole; {game} is not one"
                ).format(game=spec.name)
            )
        request = SolveRequest(
            weak=weak,
            best=best,
            stats=stats,
            cluster=cluster,
            resume=resume,
            options=tuple(sorted(options.items())),
        )
        if spec.position_solver is not None:
            lines_solver = spec.position_solver.resolve()
            sys.exit(_solve_lines(lines_solver, positions, request))
        if spec.start_solver is None:
            raise missing_capability(spec, "solve", "start_solver", "position_solver")
        start_solver = spec.start_solver.resolve()
        if positions or weak or best or stats:
            raise click.UsageError(
                _(
                    "{game} is solved from its starting position: it takes no positions, "
                    "--weak, --best or --stats"
                ).format(game=spec.name)
            )
        if cluster is not None or resume is not None:
            raise click.UsageError(
                _("--cluster and --resume solve positions in bulk; {game} takes neither").format(
                    game=spec.name
                )
            )
        state = spec.new(**options)
        out = console()
        with out.status(_("Solving...")):
            solution = start_solver.solve_start(state)
        words = {
            "first": _("first player wins"),
            "second": _("second player wins"),
            "draw": _("draw"),
        }
        out.print(
            _("{game}: {value}; a best first move: {move}").format(
                game=solution.label or spec.name,
                value=words[solution.winner],
                move=solution.move,
            )
        )
        out.print(
            _("{nodes} nodes, {hits} table hits, {seconds:.2f} s").format(
                nodes=f"{solution.nodes:,}",
                hits=f"{solution.table_hits:,}",
                seconds=solution.seconds,
            )
        )

    return solve


def _solve_lines(solver: PositionSolver, positions: tuple[str, ...], request: SolveRequest) -> int:
    """Solve positions given as lines (the arguments, else one per line of standard input): one
    answer line each on stdout, errors by line on stderr. The exit status is 1 when any line was
    bad (the others are still solved), else 0."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    solver.ready(request)
    lines = list(positions) if positions else read_text_lines(sys.stdin.buffer, "standard input")
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    show_bar = errors.is_terminal and len(lines) > 1
    request = dataclasses.replace(request, watched=show_bar)
    failed = False
    with Progress(
        TextColumn(_("solving")),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not show_bar,
    ) as bar:
        task = bar.add_task("solve", total=len(lines))
        for answer in solver.solve_lines(lines, request, lambda n: bar.advance(task, n)):
            if isinstance(answer, SolvedBlock):
                click.echo(answer.text, nl=False)
                continue
            if answer.fields is None:
                failed = True
                bar.console.print(
                    escape(
                        _("line {number}: {message}").format(
                            number=answer.line_number,
                            message=answer.error.render(_)
                            if isinstance(answer.error, ZermeloError)
                            else answer.error,
                        )
                    )
                )
                continue
            click.echo(" ".join(answer.fields))
    return 1 if failed else 0


SUMMARY_ROWS = 21
"""A table longer than this is shown as this many rows spread evenly over it (the first and the
last among them), unless ``--full`` asks for every row."""


def _solve_game(
    solver: GameSolver,
    options: dict[str, int | bool],
    iterations: int | None,
    plot: str | None,
    full: bool,
) -> None:
    """Solve a whole game with a progress bar, print its facts and its table, draw its plot."""
    from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
    from rich.table import Table

    if plot is not None:
        if Path(plot).suffix.lower() not in (".png", ".svg"):
            fail(_("--plot {file}: expected a file name ending in .png or .svg").format(file=plot))
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail(_("--plot needs matplotlib: pip install 'zermelo[plot]'"))
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    tasks: dict[str, TaskID] = {}
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    ) as bar:

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_(stage), total=max(total, 1))
            bar.update(tasks[stage], completed=done, total=max(total, 1))

        try:
            solution = solver.solve_game(options, iterations, progress)
        except ZermeloError as error:
            fail(error.render(_))
    out = console()
    facts = Table(show_header=False, box=None, pad_edge=False)
    facts.add_column(style="bold")
    facts.add_column()
    for label, value in solution.facts:
        facts.add_row(escape(_(label)), escape(_(value)))
    out.print(facts)
    if solution.rows:
        out.print()
        out.print(_table(solution, full))
        if not full and len(solution.rows) > SUMMARY_ROWS:
            out.print(
                _("{shown} of {total} rows; --full prints them all").format(
                    shown=SUMMARY_ROWS, total=len(solution.rows)
                )
            )
    if plot is not None:
        if not solution.series:
            fail(_("--plot: this solution has no curves to draw"))
        _draw(solution, plot)
        out.print(_("plot written to {file}").format(file=escape(plot)))


def _table(solution: GameSolution, full: bool) -> object:
    from rich.table import Table

    table = Table(*(escape(_(word)) for word in solution.header))
    rows = solution.rows
    if not full and len(rows) > SUMMARY_ROWS:
        last = len(rows) - 1
        picked = sorted({round(n * last / (SUMMARY_ROWS - 1)) for n in range(SUMMARY_ROWS)})
        rows = tuple(rows[n] for n in picked)
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    return table


def _draw(solution: GameSolution, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(8, 4.5))
    for series in solution.series:
        axis.plot(series.x, series.y, linewidth=1.4, label=_(series.label))
    if solution.log_y:
        axis.set_yscale("log")
    axis.set_xlabel(_(solution.x_label))
    axis.set_ylabel(_(solution.y_label))
    axis.set_title(_(solution.plot_title), fontsize="medium")
    if len(solution.series) > 1:
        axis.legend(fontsize="small")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        fail(_("cannot write {file}: {reason}").format(file=path, reason=error.strerror))
    finally:
        plt.close(figure)
