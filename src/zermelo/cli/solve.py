"""``zermelo solve``: exact values of Connect Four positions and small m,n,k boards."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.markup import escape

from zermelo.cli.common import (
    Command,
    RateColumn,
    board_options,
    console,
    game_options,
    lang_option,
    read_text_lines,
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
    @board_options
    @lang_option
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
            game_options(spec.name, size, k, exact)
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

        out = console()
        width, height = size if size is not None else (3, 3)
        k = k if k is not None else min(width, height)
        if spec.name == "tictactoe" and (size, k) != (None, 3):
            raise click.UsageError(_("tic-tac-toe is 3x3 with three in a row; use 'mnk'"))
        with out.status(_("Solving...")):
            solution = solve_mnk(width, height, k, exact=exact)
        words = {1: _("first player wins"), 0: _("draw"), -1: _("second player wins")}
        out.print(
            _("{width}x{height}, k={k}: {value}; a best first move: {move}").format(
                width=width,
                height=height,
                k=k,
                value=words[solution.value],
                move=solution.move_text,
            )
        )
        solved = solution.stats
        out.print(
            _("{nodes} nodes, {hits} table hits, {seconds:.2f} s").format(
                nodes=f"{solved.nodes:,}", hits=f"{solved.table_hits:,}", seconds=solved.elapsed
            )
        )

    return solve


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

    lines = list(positions) if positions else read_text_lines(sys.stdin.buffer, "standard input")
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    show_bar = errors.is_terminal and len(lines) > 1
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
