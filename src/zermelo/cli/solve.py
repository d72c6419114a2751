"""``zermelo solve``: exact values of Connect Four positions and small m,n,k boards."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from zermelo.cli.common import (
    Command,
    RateColumn,
    cluster_options,
    console,
    game_options,
    game_tool,
    lang_option,
    read_text_lines,
    rule_options,
)
from zermelo.core.errors import ZermeloError
from zermelo.core.record import GameSpec
from zermelo.core.state import Player
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
        **rules: Any,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        solver = game_tool(spec, "solve", "solve")
        options = game_options(spec, rules, size, rule_texts)
        extra: dict[str, Any] = {}
        if cluster is not None or resume is not None:
            if not {"cluster", "resume"} <= inspect.signature(solver).parameters.keys():
                raise click.UsageError(
                    _("--cluster and --resume solve connect4 positions; {game} takes neither")
                    .format(game=spec.name)
                )  # fmt: skip
            if stats:
                raise click.UsageError(
                    _(
                        "--stats times each position in this process; leave out --cluster and --resume"
                    )
                )
            extra = {"cluster": cluster, "resume": resume}
        sys.exit(solver(spec, options, positions, weak=weak, best=best, stats=stats, **extra))

    return solve


def _start_only(spec: GameSpec, positions: tuple[str, ...], *flags: bool) -> None:
    if positions or any(flags):
        raise click.UsageError(
            _(
                "{game} is solved from its starting position: it takes no positions, "
                "--weak, --best or --stats"
            ).format(game=spec.name)
        )


def solve_game(
    spec: GameSpec,
    options: dict[str, Any],
    positions: tuple[str, ...],
    *,
    weak: bool,
    best: bool,
    stats: bool,
) -> int:
    """The value of the starting position and a best first move, by alpha-beta to the end (the
    ``solve`` tool of games small enough to read whole)."""
    from zermelo.core.scores import outcome_of
    from zermelo.search import alphabeta

    _start_only(spec, positions, weak, best, stats)
    state = spec.new(**options)
    out = console()
    with out.status(_("Solving...")):
        result = alphabeta(state)
    outcome = outcome_of(result.value, exact=True)
    first = state.to_move is Player.FIRST
    words = {
        "win": _("first player wins") if first else _("second player wins"),
        "loss": _("second player wins") if first else _("first player wins"),
        "draw": _("draw"),
    }
    out.print(
        _("{game}: {value}; a best first move: {move}").format(
            game=spec.name,
            value=words[outcome.kind],
            move=state.format_move(result.move),
        )
    )
    _print_cost(out, result.stats)
    return 0


def _print_cost(out: Console, solved: Any) -> None:
    """What solving the start position cost: nodes, table hits and seconds."""
    out.print(
        _("{nodes} nodes, {hits} table hits, {seconds:.2f} s").format(
            nodes=f"{solved.nodes:,}", hits=f"{solved.table_hits:,}", seconds=solved.elapsed
        )
    )


def solve_mnk_board(
    spec: GameSpec,
    options: dict[str, Any],
    positions: tuple[str, ...],
    *,
    weak: bool,
    best: bool,
    stats: bool,
) -> int:
    """The value of the empty m,n,k board for the first player and a best first move, from the
    m,n,k solver (the ``solve`` tool of m,n,k games; the board is 3x3 unless given)."""
    from zermelo.solvers.mnk import solve_mnk

    _start_only(spec, positions, weak, best, stats)
    width = options.get("width", 3)
    height = options.get("height", width if "width" in options else 3)
    k = options.get("k", min(width, height))
    out = console()
    with out.status(_("Solving...")):
        solution = solve_mnk(width, height, k, exact=options.get("exact", False))
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
    _print_cost(out, solution.stats)
    return 0


def solve_lines(
    spec: GameSpec,
    options: dict[str, Any],
    positions: tuple[str, ...],
    *,
    weak: bool,
    best: bool,
    stats: bool,
    cluster: str | None = None,
    resume: str | None = None,
) -> int:
    """Solve Connect Four lines (the ``solve`` tool of Connect Four)."""
    if options:
        raise click.UsageError(
            _("{game} solves positions of its standard board: it takes no rule options").format(
                game=spec.name
            )
        )
    return _solve_connect4(
        positions, weak=weak, best=best, stats=stats, cluster=cluster, resume=resume
    )


_CHUNK = 64
"""Lines per kernel call when solving a stream (the progress bar moves once per chunk)."""
_CLUSTER_CHUNK = 256
"""Positions per task on a cluster: enough work to outweigh sending it."""


def _solve_connect4(
    positions: tuple[str, ...],
    *,
    weak: bool,
    best: bool,
    stats: bool,
    cluster: str | None = None,
    resume: str | None = None,
) -> int:
    """Solve Connect Four lines; ``MOVES SCORE`` per line on stdout, errors by line on stderr.

    Without ``stats`` or ``best`` the kernel reads, solves and answers blocks of lines
    (:func:`zermelo.solvers.connect4.answer_lines`); with ``best`` the positions are solved in
    batches, one kernel call each; with ``stats`` one at a time, each timed on its own, after the table's pages are touched and the kernel is loaded
    (so that neither counts as solving time). The exit status is 1 when any line was bad (the
    others are still solved), else 0.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from zermelo.solvers.connect4 import (
        AnswerBlock,
        answer_lines,
        default_solver,
        solve_chunks,
        solve_lines,
    )

    batch = not (stats or best or cluster is not None or resume is not None)
    if batch:
        default_solver().prefault()  # ready before the input arrives, as the reference's table is
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
        if cluster is not None or resume is not None:
            outcomes: Iterable[Any] = _solve_on_cluster(
                lines, weak, best, cluster, resume, lambda n: bar.advance(task, n)
            )
        elif stats:
            solver = default_solver()
            solver.prefault()
            solver.warm_up()
            outcomes = solve_lines(lines, weak=weak, best_moves=best, solver=solver)
        elif best:
            chunks = (lines[i : i + _CHUNK] for i in range(0, len(lines), _CHUNK))
            outcomes = solve_chunks(chunks, weak=weak, best_moves=best)
        else:  # batch: parsed, solved and answered in the kernel, a block of lines at a time
            outcomes = answer_lines(lines, weak=weak, chunk_lines=_CHUNK if show_bar else 4096)
        for outcome in outcomes:
            if isinstance(outcome, AnswerBlock):
                bar.update(task, completed=outcome.line_number)
                click.echo(outcome.text, nl=False)
                continue
            if cluster is None and resume is None:
                bar.update(task, completed=outcome.line_number)
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
            fields = [outcome.text or "-", str(outcome.score)]
            if best:
                fields.append("".join(str(entry.move + 1) for entry in result.moves) or "-")
            if stats:
                fields += [str(result.stats.nodes), f"{result.stats.elapsed * 1e6:.0f}"]
            click.echo(" ".join(fields))
    return 1 if failed else 0


def _solve_on_cluster(
    lines: list[str],
    weak: bool,
    best: bool,
    cluster: str | None,
    resume: str | None,
    advance: Callable[[int], None],
) -> Iterator[Any]:
    """The outcomes of ``lines`` solved as tasks of ``_CLUSTER_CHUNK`` positions on the
    executor, in input order; with ``resume`` the tasks already in that file are not redone."""
    import hashlib
    from pathlib import Path

    from zermelo.games.connect4 import Connect4State
    from zermelo.parallel import ResultStore, open_executor, run_job
    from zermelo.solvers.connect4 import LineOutcome
    from zermelo.solvers.connect4.api import solve_texts
    from zermelo.solvers.connect4.solver import solved

    parsed: list[tuple[int, str, Any]] = []
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        text = stripped.split()[0]
        try:
            parsed.append((number, text, Connect4State.parse(text)))
        except ZermeloError as error:
            parsed.append((number, text, error))
    texts = [item.notation() for _n, _t, item in parsed if not isinstance(item, ZermeloError)]
    tasks = {
        f"{i // _CLUSTER_CHUNK:06d}": (texts[i : i + _CLUSTER_CHUNK], 7, 6, weak, best)
        for i in range(0, len(texts), _CLUSTER_CHUNK)
    }
    store = None
    if resume is not None:
        digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
        meta = {"job": "connect4-solve", "positions": digest, "weak": weak, "best": best}
        store = ResultStore(Path(resume), meta)
    with open_executor(cluster) as executor:
        results = run_job(
            executor, solve_texts, tasks, store=store,
            on_result=lambda key, value, done, total: advance(len(value)),
        )  # fmt: skip
    answers = iter([answer for key in tasks for answer in results[key]])
    for number, text, item in parsed:
        if isinstance(item, ZermeloError):
            yield LineOutcome(number, text, None, item)
            continue
        answer = next(answers)
        score, moves = (answer[0], tuple(answer[1])) if best else (answer, ())
        result = solved(item, score, weak=weak, best_moves=moves)
        yield LineOutcome(number, text, result, None, score)
