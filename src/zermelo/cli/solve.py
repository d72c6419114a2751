"""``zermelo solve``: exact values, from the game's position solver (positions read as lines) or
its start-position solver (see :mod:`zermelo.core.capabilities`)."""

from __future__ import annotations

import dataclasses
import sys

import click
from rich.console import Console
from rich.markup import escape

from zermelo.cli.common import (
    Command,
    RateColumn,
    cluster_options,
    console,
    game_options,
    lang_option,
    missing_capability,
    read_text_lines,
    rule_options,
)
from zermelo.core.capabilities import PositionSolver, SolvedBlock, SolveRequest
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
        cluster: str | None,
        resume: str | None,
        **rules: object,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        options = game_options(spec, rules, size, rule_texts)
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(spec.name)
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
