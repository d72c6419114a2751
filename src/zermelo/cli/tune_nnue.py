"""``zermelo tune chess --nnue``: train the chess engine's learned evaluation.

Self-play positions labelled by a deeper search, kept in a run directory; a network trained on
them with PyTorch (:mod:`zermelo.learn.chess_nnue`), checkpointed; the quantised network saved.
Ctrl-C stops between tasks or batches, keeps everything, and says how to go on."""

from __future__ import annotations

import math
import os
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from zermelo.cli.common import RateColumn, console, fail, tune_verdict
from zermelo.core.capabilities import TuneReport
from zermelo.core.errors import N_, InvalidOptionError
from zermelo.i18n import gettext as _

__all__ = ["NnueOptions", "default_run_dir", "tune_nnue"]

INSTALL = "pip install 'zermelo[learn]'"


@dataclass(frozen=True)
class NnueOptions:
    """The command's options for ``--nnue``."""

    positions: int
    label_depth: int
    label_engine: str | None
    hidden: int
    epochs: int
    seed: int
    run_dir: str | None
    fresh: bool
    out: str | None
    jobs: int | None
    cluster: str | None
    match_games: int
    force: bool
    seconds: float | None = None


def default_run_dir() -> Path:
    """``$ZERMELO_CACHE_DIR/learn/chess-nnue`` (or the user's cache directory's)."""
    from zermelo.learn.metrics import run_directory

    return run_directory("chess").with_name("chess-nnue")


def _has_torch() -> bool:
    from zermelo.cli.learn_az import _has_torch as has_torch

    return has_torch()


def _again(options: NnueOptions, run_dir: Path) -> str:
    """The command that goes on with this run."""
    words = ["zermelo", "tune", "chess", "--nnue"]
    pairs = {
        "--positions": options.positions,
        "--label-depth": options.label_depth,
        "--label-engine": options.label_engine,
        "--hidden": options.hidden,
        "--epochs": options.epochs,
        "--seed": options.seed,
        "--run-dir": str(run_dir),
        "--out": options.out,
        "--jobs": options.jobs,
        "--cluster": options.cluster,
        "--match": options.match_games,
    }
    for name, value in pairs.items():
        if value is not None:
            words += [name, str(value)]
    return shlex.join(words)


_STAGES = {"positions": N_("Positions"), "training": N_("Training"), "match": N_("Match")}
_TITLE = N_("Training the learned evaluation")
NETWORK = "network.npz"
"""The run's last network, in the run directory (kept even when --out is not written)."""


def tune_nnue(options: NnueOptions) -> None:
    """Run (or go on with) the run of ``options``; see the module's doc."""
    if not _has_torch():
        fail(_("training needs PyTorch: {install}").format(install=INSTALL))
    from zermelo.cli.learn_az import _Interrupt
    from zermelo.learn import chess_nnue
    from zermelo.parallel import ClusterError, open_executor
    from zermelo.solvers.chess import nnue_data

    run_dir = Path(options.run_dir) if options.run_dir is not None else default_run_dir()
    out = Path(options.out if options.out is not None else "chess_nnue.npz")
    if out.exists() and out.is_dir():
        fail(_("{path} is a directory: give --out a file name").format(path=out))
    if options.label_engine is not None:
        try:
            nnue_data.check_label_engine(options.label_engine)
        except InvalidOptionError as error:
            fail(str(error))
    if options.fresh:
        _clear(run_dir)
    if (run_dir / "run.json").is_file():
        positions, epochs = chess_nnue.kept(run_dir)
        console().print(
            escape(
                _(
                    "Going on with the run in {dir}: {positions} positions, epochs trained: "
                    "{epochs}."
                ).format(dir=run_dir, positions=f"{positions:,}", epochs=epochs)
            )
        )
    settings = chess_nnue.Settings(
        positions=options.positions,
        label_depth=options.label_depth,
        # absolute: a run goes on from any directory, and workers find the same file
        label_engine=None
        if options.label_engine is None
        else os.path.abspath(options.label_engine),
        hidden=options.hidden,
        epochs=options.epochs,
        seed=options.seed,
    )
    err = Console(stderr=True, highlight=False)
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    interrupt = _Interrupt()
    deadline = None if options.seconds is None else time.monotonic() + options.seconds
    timed_out = [False]

    def stop() -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            timed_out[0] = True
        return interrupt.asked() or timed_out[0]

    stopped_hard = False
    outcome = chess_nnue.Outcome()
    tasks: dict[str, TaskID] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(_(_STAGES.get(stage, stage)), total=total)
        bar.update(tasks[stage], completed=done, total=total)

    match: tuple[int, int, int] | None = None
    try:
        with bar, interrupt.installed():
            try:
                with open_executor(options.cluster, options.jobs, nnue_data.warm_up) as executor:
                    outcome = chess_nnue.run(settings, run_dir, executor, progress, stop)
                    if outcome.network is not None:
                        # kept in the run whatever the match says: nothing trained is lost
                        chess_nnue.save_network(outcome.network, run_dir / NETWORK)
                    if outcome.network is not None and options.match_games:
                        from zermelo.solvers.chess.tools import opening_positions

                        wins, draws, losses, cut = chess_nnue.check_match(
                            outcome.network,
                            options.match_games,
                            executor,
                            opening_positions(),
                            progress,
                            stop,
                        )
                        match = None if cut else (wins, draws, losses)
            except KeyboardInterrupt:
                stopped_hard = True
            finally:
                nnue_data.close_labellers()
    except ClusterError as error:
        fail(str(error))
    except InvalidOptionError as error:
        fail(str(error))
    except OSError as error:
        fail(
            _("cannot keep the run in {dir}: {reason}").format(
                dir=run_dir, reason=error.strerror or error
            )
        )
    shown = console()
    stopped = outcome.stopped or stopped_hard or interrupt.requested
    if stopped or timed_out[0] or outcome.network is None:
        positions, epochs = chess_nnue.kept(run_dir)
        line = (
            _(
                "Time is up. Kept in {dir}: {positions} positions, epochs trained: {epochs}. "
                "To go on: {command}"
            )
            if timed_out[0] and not (interrupt.requested or stopped_hard)
            else _(
                "Stopped. Kept in {dir}: {positions} positions, epochs trained: {epochs}. "
                "To go on: {command}"
            )
        )
        shown.print(
            escape(
                line.format(
                    dir=run_dir,
                    positions=f"{positions:,}",
                    epochs=epochs,
                    command=_again(options, run_dir),
                )
            )
        )
        sys.exit(0 if timed_out[0] and not (interrupt.requested or stopped_hard) else 130)
    network = outcome.network
    table = Table(title=_("Training the learned evaluation"))
    table.add_column(_("measure"))
    table.add_column(_("value"), justify="right")
    table.add_row(_("positions / tasks"), f"{outcome.positions:,} / {outcome.tasks:,}")
    labeller = options.label_engine or _("zermelo's search")
    table.add_row(
        _("labels"),
        escape(_("{engine}, depth {depth}").format(engine=labeller, depth=options.label_depth)),
    )
    table.add_row(_("network"), f"(768 -> {network.hidden}) x 2 -> 1")
    table.add_row(_("epochs"), str(outcome.epoch))
    table.add_row(_("training loss"), _number(outcome.train_loss))
    table.add_row(
        _("held-out loss ({count} positions)").format(count=f"{outcome.held_out:,}"),
        _number(outcome.held_out_loss),
    )
    report = TuneReport(_TITLE, (), "", None)
    if match is not None:
        from zermelo.play.ratings import Tally, elo_estimate

        wins, draws, losses = match
        table.add_row(
            _("network vs built-in evaluation"),
            _("{wins}-{losses}-{draws} (won-lost-drawn)").format(
                wins=wins, losses=losses, draws=draws
            ),
        )
        table.add_row(
            _("Elo difference (95% interval)"), elo_estimate(Tally(wins, draws, losses)).describe()
        )
        report = TuneReport(_TITLE, (), "", (wins, losses, draws))
    shown.print(table)
    shown.print(tune_verdict(report, options.force, str(out)))
    if report.improved or options.force:
        try:
            chess_nnue.save_network(network, out)
        except OSError as error:
            fail(
                _("cannot write {path}: {reason}").format(path=out, reason=error.strerror or error)
            )
    shown.print(
        escape(
            _("Run kept in {dir} (its network: {file})").format(dir=run_dir, file=run_dir / NETWORK)
        )
    )


def _number(value: float) -> str:
    return "-" if not math.isfinite(value) else f"{value:.5f}"


def _clear(run_dir: Path) -> None:
    """Delete a run for ``--fresh``; refuse to delete a directory that holds no run."""
    if not run_dir.exists():
        return
    if not run_dir.is_dir():
        fail(_("{dir} is not a directory; give another --run-dir").format(dir=run_dir))
    if not (run_dir / "run.json").exists() and any(run_dir.iterdir()):
        fail(_("{dir} holds no run: --fresh deletes only a run directory").format(dir=run_dir))
    try:
        shutil.rmtree(run_dir)
    except OSError as error:
        fail(_("cannot delete {dir}: {reason}").format(dir=run_dir, reason=error.strerror or error))


def options_for_nnue() -> list[str]:
    """The options of ``tune`` that only ``--nnue`` takes (their parameter names)."""
    return [
        "positions",
        "label_depth",
        "label_engine",
        "hidden",
        "epochs",
        "run_dir",
        "fresh",
        "jobs",
        "seconds",
        "minutes",
        "hours",
    ]


def refuse_unless_nnue(ctx: click.Context) -> None:
    """One line if an option of ``--nnue`` is given without it."""
    for name in options_for_nnue():
        if ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT):
            raise click.UsageError(
                _("{option} is for --nnue (the learned evaluation of chess)").format(
                    option="--" + name.replace("_", "-")
                )
            )


def check_nnue_request(ctx: click.Context, game: str) -> None:
    """One line if ``--nnue`` is asked for another game, or with an option it does not take."""
    if game != "chess":
        raise click.UsageError(
            _("--nnue trains the chess engine's evaluation; {game} has none").format(game=game)
        )
    for name in ("games", "pgn", "resume"):
        if ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT):
            raise click.UsageError(
                _("{option} is not for --nnue (it learns from its own self-play)").format(
                    option="--" + name
                )
            )
