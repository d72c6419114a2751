"""``zermelo explain``: the evaluation function f(s) = w1*x1 + ... + wn*xn, term by term."""

from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    board_options,
    console,
    game_options,
    lang_option,
    position_or_moves,
)
from zermelo.core.errors import ZermeloError
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``explain`` command, with its help in the current language."""

    @click.command(
        "explain",
        cls=Command,
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
    @board_options
    @lang_option
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
        from zermelo.solvers.gomoku.weights import load_evaluation

        state = position_or_moves(spec, position, game_options(spec.name, size, k, exact))
        evaluation = load_evaluation(weights) if weights else None
        breakdown = explain_state(state, evaluation)
        out = console()
        out.print(_("Position: {position}").format(position=escape(state.notation())))
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
        out.print(table)

    return explain
