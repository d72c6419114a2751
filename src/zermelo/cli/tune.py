"""``zermelo tune``: fit the evaluation weights to self-play results."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import Command, cluster_options, console, game_tool, lang_option
from zermelo.core.errors import ZermeloError
from zermelo.core.record import GameSpec
from zermelo.i18n import N_
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
    @cluster_options
    @lang_option
    def tune(
        game: str,
        games: int,
        match_games: int,
        seed: int,
        out: str | None,
        pgn: str | None,
        cluster: str | None,
        resume: str | None,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        tool = game_tool(spec, "tune", "tune")
        path = out if out is not None else f"{spec.name}_weights.json"
        if (cluster is not None or resume is not None) and tool is not tune_gomoku:
            raise click.UsageError(
                _("--cluster and --resume tune gomoku by self-play; {game} takes neither")
                .format(game=spec.name)
            )  # fmt: skip
        if pgn is not None:
            tool(games, match_games, seed, path, pgn=pgn, spec=spec)
        elif cluster is not None or resume is not None:
            tool(games, match_games, seed, path, cluster=cluster, resume=resume)
        else:
            tool(games, match_games, seed, path)

    return tune


def tune_gomoku(games: int, match_games: int, seed: int, out: str, **more: Any) -> None:
    """Tune the gomoku evaluation by self-play (the ``tune`` tool of gomoku)."""
    if more.get("pgn") is not None:
        raise ZermeloError("gomoku learns by self-play only; --pgn is for chess games")
    from rich.progress import Progress as Bar

    from zermelo.games.mnk_eval import default_evaluation
    from zermelo.solvers.gomoku_tuning import play_match
    from zermelo.solvers.gomoku_tuning import tune as tune_weights

    with Bar(console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        store = None
        if more.get("resume") is not None:
            from pathlib import Path

            from zermelo.parallel import ResultStore

            meta = {"job": "gomoku-self-play", "games": games, "seed": seed}
            store = ResultStore(Path(more["resume"]), meta)
        if more.get("cluster") is None:
            report = tune_weights(games, seed=seed, path=out, progress=progress, store=store)
        else:
            from zermelo.parallel import open_executor

            with open_executor(more["cluster"]) as executor:
                report = tune_weights(
                    games, seed=seed, path=out, progress=progress, executor=executor,
                    store=store,
                )  # fmt: skip
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
    shown = console()
    shown.print(table)
    shown.print(_("Weights saved to {path}").format(path=escape(out)))


_STAGES = {"self-play": N_("Self-play"), "fit": N_("Fitting"), "match": N_("Match")}


def tune_fit(
    games: int,
    match_games: int,
    seed: int,
    out: str,
    *,
    pgn: str | None = None,
    spec: GameSpec | None = None,
    game: str = "chess",
) -> None:
    """Fit a game's evaluation weights by Texel's method (the ``tune`` tool of games whose
    record names a ``fit`` function, such as chess): from self-play or from a PGN file, with a
    progress bar, then a match of the tuned weights against the current ones."""
    import json

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from zermelo.cli.common import RateColumn, read_text_lines
    from zermelo.games.registry import get_game

    record = spec if spec is not None else get_game(game)
    fit = game_tool(record, "fit", "tune")
    text = None
    if pgn is not None:
        with open(pgn, "rb") as source:
            text = "\n".join(read_text_lines(source, pgn))
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
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_(_STAGES.get(stage, stage)), total=total)
            bar.update(tasks[stage], completed=done, total=total)

        report = fit(games, match_games, seed, text, progress=progress)
    try:
        with open(out, "w", encoding="utf-8") as written:
            written.write(json.dumps({"weights": list(report.weights)}, indent=2) + "\n")
    except OSError as error:
        raise ZermeloError(f"cannot write {out!r}: {error.strerror}") from None
    table = Table(title=_("Tuning by Texel's method"))
    table.add_column(_("measure"))
    table.add_column(_("value"), justify="right")
    table.add_row(_("games / positions"), f"{report.games} / {report.positions}")
    table.add_row(_("mean squared error before"), f"{report.error_before:.5f}")
    table.add_row(_("mean squared error after"), f"{report.error_after:.5f}")
    table.add_row(_("weights"), " ".join(f"{w:g}" for w in report.weights))
    if report.match is not None:
        wins, losses, draws = report.match
        table.add_row(
            _("tuned vs current weights"),
            _("{wins} wins, {losses} losses, {draws} draws").format(
                wins=wins, losses=losses, draws=draws
            ),
        )
    shown = console()
    shown.print(table)
    shown.print(_("Weights saved to {path}").format(path=escape(out)))
