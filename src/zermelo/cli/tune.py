"""``zermelo tune``: fit the evaluation weights to self-play results."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import Command, cluster_options, console, lang_option
from zermelo.core.errors import ZermeloError
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
        default="gomoku_weights.json",
        show_default=True,
        help=_("Where to save the tuned weights."),
    )
    @lang_option
    @cluster_options
    def tune(
        game: str,
        games: int,
        match_games: int,
        seed: int,
        out: str,
        cluster: str | None,
        resume: str | None,
    ) -> None:
        from zermelo.games.registry import get_game

        if get_game(game).name != "gomoku":
            raise ZermeloError(f"tune works on gomoku, not on {game!r}")
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
            if resume is not None:
                from pathlib import Path

                from zermelo.parallel import ResultStore

                meta = {"job": "gomoku-self-play", "games": games, "seed": seed}
                store = ResultStore(Path(resume), meta)
            if cluster is None:
                report = tune_weights(games, seed=seed, path=out, progress=progress, store=store)
            else:
                from zermelo.parallel import open_executor

                with open_executor(cluster) as executor:
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

    return tune
