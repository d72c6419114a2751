"""``zermelo tune``: fit the evaluation weights to self-play results."""

from __future__ import annotations

import click
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from zermelo.cli.common import (
    Command,
    RateColumn,
    budget_options,
    capability,
    cluster_options,
    console,
    lang_option,
    read_text_lines,
    time_budget,
)
from zermelo.cli.common import (
    tune_verdict as _verdict,
)
from zermelo.core.capabilities import Tuner, TuneReport, TuneRequest
from zermelo.core.errors import N_, ZermeloError
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``tune`` command, with its help in the current language."""

    @click.command(
        "tune",
        cls=Command,
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
        type=click.IntRange(min=2, max=100_000),
        default=40,
        show_default=True,
        help=_("Self-play games."),
    )
    @click.option(
        "--match",
        "match_games",
        type=click.IntRange(min=0, max=100_000),
        default=20,
        show_default=True,
        help=_("Games of the tuned against the current weights (0: none)."),
    )
    @click.option("--seed", type=int, default=0, show_default=True, help=_("Seed of the games."))
    @click.option(
        "--out",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        help=_("Where to save the tuned weights (default: GAME_weights.json)."),
    )
    @click.option(
        "--pgn",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        metavar="FILE",
        help=_("Learn from the games of this PGN file instead of self-play (chess)."),
    )
    @click.option(
        "--force",
        is_flag=True,
        help=_("Save the tuned weights even when they lost their check match."),
    )
    @click.option(
        "--nnue",
        is_flag=True,
        help=_(
            "Chess: train the engine's learned evaluation (an NNUE network) instead: self-play "
            "positions labelled by a deeper search and the game results, a network trained on "
            "them with PyTorch (pip install 'zermelo[learn]'), kept in a run directory that the "
            "same command goes on with."
        ),
    )
    @click.option(
        "--positions",
        type=click.IntRange(min=100, max=100_000_000),
        default=100_000,
        show_default=True,
        help=_("--nnue: positions to learn from."),
    )
    @click.option(
        "--label-depth",
        type=click.IntRange(min=1, max=30),
        default=8,
        show_default=True,
        help=_("--nnue: depth of the search that labels each position."),
    )
    @click.option(
        "--label-engine",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="PATH",
        help=_(
            "--nnue: label the positions with this UCI engine (such as /usr/games/stockfish) "
            "at --label-depth instead of zermelo's own search."
        ),
    )
    @click.option(
        "--hidden",
        type=click.IntRange(min=1, max=1024),
        default=256,
        show_default=True,
        help=_("--nnue: width of the network's feature transformer."),
    )
    @click.option(
        "--epochs",
        type=click.IntRange(min=1, max=10_000),
        default=20,
        show_default=True,
        help=_("--nnue: passes over the positions."),
    )
    @click.option(
        "--run-dir",
        type=click.Path(),
        default=None,
        metavar="DIR",
        help=_("--nnue: where the run's data and checkpoint are kept (default: in the cache)."),
    )
    @click.option("--fresh", is_flag=True, help=_("--nnue: delete the run and start over."))
    @click.option(
        "--jobs",
        type=click.IntRange(min=1, max=1024),
        default=None,
        help=_("--nnue: local processes for self-play (default: one per core)."),
    )
    @budget_options(
        _("--nnue: stop after S seconds (everything kept; the same command goes on)."),
        _("--nnue: stop after M minutes."),
        _("--nnue: stop after H hours."),
    )
    @cluster_options
    @lang_option
    @click.pass_context
    def tune(
        ctx: click.Context,
        game: str,
        games: int,
        match_games: int,
        seed: int,
        out: str | None,
        pgn: str | None,
        force: bool,
        nnue: bool,
        positions: int,
        label_depth: int,
        label_engine: str | None,
        hidden: int,
        epochs: int,
        run_dir: str | None,
        fresh: bool,
        jobs: int | None,
        seconds: float | None,
        minutes: float | None,
        hours: float | None,
        cluster: str | None,
        resume: str | None,
    ) -> None:
        from zermelo.cli import tune_nnue
        from zermelo.games.registry import get_game

        spec = get_game(game)
        if not nnue:
            tune_nnue.refuse_unless_nnue(ctx)
        else:
            tune_nnue.check_nnue_request(ctx, spec.name)
            tune_nnue.tune_nnue(
                tune_nnue.NnueOptions(
                    positions,
                    label_depth,
                    label_engine,
                    hidden,
                    epochs,
                    seed,
                    run_dir,
                    fresh,
                    out,
                    jobs,
                    cluster,
                    match_games,
                    force,
                    time_budget(seconds, minutes, hours),
                )
            )
            return
        tuner = capability(spec, spec.tuner, "tuner", "tune")
        path = out if out is not None else f"{spec.name}_weights.json"
        if (cluster is not None or resume is not None) and "cluster" not in tuner.uses:
            raise click.UsageError(
                _("--cluster and --resume spread self-play; {game} takes neither").format(
                    game=spec.name
                )
            )
        if pgn is not None and "pgn" not in tuner.uses:
            from zermelo.games.registry import all_games

            readers = [
                other.name
                for other in all_games()
                if other.tuner is not None and "pgn" in other.tuner.resolve().uses
            ]
            raise click.UsageError(
                _("{game} learns by self-play only; --pgn is for {games}").format(
                    game=spec.name, games=", ".join(readers)
                )
            )
        text = None
        if pgn is not None:
            with open(pgn, "rb") as source:
                text = "\n".join(read_text_lines(source, pgn))
        request = TuneRequest(games, match_games, seed, text, cluster, resume)
        report = _run(tuner, request)
        table = Table(title=_(report.title))
        table.add_column(_("measure"))
        table.add_column(_("value"), justify="right")
        for label, value in report.rows:
            table.add_row(_(label), value)
        if report.match is not None:
            wins, losses, draws = report.match
            table.add_row(
                _("tuned vs current weights"),
                _("{wins}-{losses}-{draws} (won-lost-drawn)").format(
                    wins=wins, losses=losses, draws=draws
                ),
            )
        shown = console()
        shown.print(table)
        shown.print(_verdict(report, force, path))
        if not report.improved and not force:
            return
        try:
            with open(path, "w", encoding="utf-8") as written:
                written.write(report.weights_json)
        except OSError as error:
            raise ZermeloError(
                N_("cannot write {path!r}: {reason}"), path=path, reason=error.strerror
            ) from None

    return tune


_STAGES = {"self-play": N_("Self-play"), "fit": N_("Fitting"), "match": N_("Match")}


def _run(tuner: Tuner, request: TuneRequest) -> TuneReport:
    """The tuner's report, with a progress bar for each stage of its work."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_(_STAGES.get(stage, stage)), total=total)
            bar.update(tasks[stage], completed=done, total=total)

        return tuner.tune(request, progress)
