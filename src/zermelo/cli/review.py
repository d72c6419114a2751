"""``zermelo review``: every move of a game judged, with marks and an evaluation graph."""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    console,
    fail,
    lang_option,
    rated_progress,
    read_text_lines,
    time_option,
)
from zermelo.core.errors import ZermeloError
from zermelo.core.record import GameSpec
from zermelo.core.state import Player
from zermelo.i18n import gettext as _
from zermelo.play.review import MARKS, GameReview, GameToReview

_MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def command() -> click.Command:
    """The ``review`` command, with its help in the current language."""

    @click.command(
        "review",
        cls=Command,
        help=_(
            "Judge every move of the games in FILE: PGN (chess; one or many games) or the JSON "
            "lines of 'zermelo arena --save'. For each move: its value, the best move and its "
            "value, the winning chances lost, and a mark (?! inaccuracy, ? mistake, ?? "
            "blunder). See docs/review.md."
        ),
        short_help=_("Judge every move of a game."),
    )
    @click.argument("game")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option(
        "--game",
        "game_number",
        type=click.IntRange(min=1, max=1_000_000),
        default=None,
        metavar="N",
        help=_("Review only the N-th game of the file (default: every game)."),
    )
    @time_option(_("Search time per move (default: exact where the game has a solver)."))
    @click.option(
        "--depth",
        type=click.IntRange(min=1, max=99),
        default=None,
        help=_("Depth limit in plies, per move."),
    )
    @click.option(
        "--plot",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help=_("Draw the evaluation graph to FILE (.png or .svg; needs matplotlib)."),
    )
    @click.option("--json", "as_json", is_flag=True, help=_("Print the review as JSON."))
    @lang_option
    def review(
        game: str,
        file: str,
        game_number: int | None,
        time_limit: float | None,
        depth: int | None,
        plot: str | None,
        as_json: bool,
    ) -> None:
        from zermelo.games.registry import get_game
        from zermelo.play.review import read_games, reviews_json

        spec = get_game(game)
        if plot is not None and Path(plot).suffix.lower() not in (".png", ".svg"):
            fail(_("--plot {file}: expected a file name ending in .png or .svg").format(file=plot))
        if plot is not None:
            try:
                import matplotlib  # noqa: F401
            except ImportError:
                fail(_("--plot needs matplotlib: pip install 'zermelo[plot]'"))
        try:
            with open(file, "rb") as stream:
                text = "\n".join(read_text_lines(stream, file))
        except OSError as error:
            fail(_("cannot read {file}: {reason}").format(file=file, reason=error.strerror))
        try:
            games = read_games(spec, text, file)
        except ZermeloError as error:
            fail(str(error))
        if game_number is not None:
            if game_number > len(games):
                fail(
                    _("{file} holds {count} games; there is no game {number}").format(
                        file=file, count=len(games), number=game_number
                    )
                )
            games = [games[game_number - 1]]
        reviews = _run(spec, games, time_limit, depth, quiet=as_json)
        if as_json:
            click.echo(reviews_json(reviews))
        else:
            for one in reviews:
                _print(one)
        if plot is not None:
            _plot(reviews, plot, spec.title)
            if not as_json:
                console().print(_("Graph written to {file}").format(file=escape(plot)))

    return review


def _run(
    spec: GameSpec,
    games: list[GameToReview],
    time_limit: float | None,
    depth: int | None,
    *,
    quiet: bool,
) -> list[GameReview]:
    from rich.console import Console

    from zermelo.play.review import MoveReview, review_game

    err = Console(stderr=True, highlight=False)
    total = sum(len(game.moves) for game in games)
    progress = rated_progress(err, transient=True, disable=quiet)
    began = time.perf_counter()
    reviews = []
    with progress:
        bar = progress.add_task(_("Moves"), total=total, rate="")
        done = [0]

        def advance(_move: MoveReview) -> None:
            done[0] += 1
            per_second = done[0] / max(time.perf_counter() - began, 1e-9)
            rate = _("{rate:.2f} moves/s").format(rate=per_second)
            progress.update(bar, advance=1, rate=rate)

        for game in games:
            try:
                reviews.append(
                    review_game(spec, game, time_per_move=time_limit, depth=depth, on_move=advance)
                )
            except ZermeloError as error:
                fail(str(error))
    return reviews


def _value_text(value: float, exact: bool) -> str:
    from zermelo.ui.words import score_words

    return score_words(value, exact=exact)


def _print(one: GameReview) -> None:
    out = console()
    headers = one.headers
    table = Table(title=escape(one.label))
    table.add_column(_("ply"), justify="right")
    table.add_column(_("move"), justify="right")
    table.add_column(_("value"), justify="right")
    table.add_column(_("best"), justify="right")
    table.add_column(_("best value"), justify="right")
    table.add_column(_("win % lost"), justify="right")
    table.add_column(_("mark"))
    words = {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}
    for move in one.moves:
        mark = f"{_MARK_SIGNS[move.mark]} {words[move.mark]}" if move.mark else ""
        table.add_row(
            str(move.ply),
            escape(move.move),
            _value_text(move.value, move.exact),
            escape(move.best) if move.best != move.move else "=",
            _value_text(move.best_value, move.best_exact),
            f"{50 * move.loss:.0f}" if move.loss >= 0.01 else "",
            mark,
        )
    out.print(table)
    for side, name in ((Player.FIRST, _("first player")), (Player.SECOND, _("second player"))):
        counts = one.counts(side)
        shown = headers.get("White" if side is Player.FIRST else "Black") or name
        out.print(
            _(
                "{side}: {inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders"
            ).format(
                side=escape(shown),
                inaccuracies=counts[MARKS[0]],
                mistakes=counts[MARKS[1]],
                blunders=counts[MARKS[2]],
            )
        )


def _plot(reviews: list[GameReview], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(9, 3.2))
    for one in reviews:
        plies = [0, *(move.ply for move in one.moves)]
        chances = [50.0, *(100 * (move.chances + 1) / 2 for move in one.moves)]
        axis.plot(plies, chances, linewidth=1.4, label=one.label)
        axis.fill_between(plies, 50, chances, alpha=0.15)
        for move in one.moves:
            if move.mark:
                colour = {"inaccuracy": "#d4a017", "mistake": "#e67e22", "blunder": "#c0392b"}
                axis.scatter(
                    [move.ply], [100 * (move.chances + 1) / 2], color=colour[move.mark], zorder=3
                )
    axis.axhline(50, color="grey", linewidth=0.8)
    axis.set_ylim(0, 100)
    axis.set_xlabel(_("ply"))
    axis.set_ylabel(_("winning chances of the first player (%)"))
    axis.set_title(_("Evaluation: {game}").format(game=title))
    if len(reviews) > 1:
        axis.legend(fontsize="small")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        fail(_("cannot write {file}: {reason}").format(file=path, reason=error.strerror))
    finally:
        plt.close(figure)
