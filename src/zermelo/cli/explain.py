"""``zermelo explain``: the evaluation function f(s) = w1*x1 + ... + wn*xn, term by term."""

from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    capability,
    console,
    game_options,
    lang_option,
    position_or_moves,
    rule_options,
)
from zermelo.core.capabilities import NetworkExplainer
from zermelo.core.errors import CapabilityError
from zermelo.core.record import N_
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
    @rule_options
    @click.argument("game")
    @click.argument("position", default="")
    @click.option(
        "--weights",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help=_("A weights file written by 'zermelo tune'."),
    )
    @click.option(
        "--nnue",
        "network",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help=_("A learned network file (chess): its total is shown after the terms."),
    )
    @lang_option
    def explain(
        game: str,
        position: str,
        weights: str | None,
        network: str | None,
        size: tuple[int, int] | None,
        rule_texts: tuple[str, ...],
        **rules: object,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        explainer = capability(spec, spec.explainer, "explainer", "explain")
        state = position_or_moves(spec, position, game_options(spec, rules, size, rule_texts))
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(spec.name)
        if network is None:
            breakdown = explainer.explain(state, weights)
        else:
            if not isinstance(explainer, NetworkExplainer):
                from zermelo.games.registry import all_games

                raise CapabilityError(
                    N_("{command} works on {games}, not on {game}"),
                    command="explain --nnue",
                    games=", ".join(
                        other.name
                        for other in all_games()
                        if other.explainer is not None
                        and isinstance(other.explainer.resolve(), NetworkExplainer)
                    ),
                    game=spec.name,
                )
            breakdown = explainer.explain_with_network(state, weights, network)
        out = console()
        out.print(_("Position: {position}").format(position=escape(state.notation())))
        side = _(spec.sides[state.to_move])
        table = Table(title=_("f(s) from the side to move ({side})").format(side=side))
        table.add_column(_("feature"))
        table.add_column(_("x (value)"), justify="right")
        table.add_column(_("w (weight)"), justify="right")
        table.add_column(_("w·x"), justify="right")
        places = breakdown.decimals

        def signed(number: float) -> str:
            return f"{number + 0.0:+.{places}f}" if places else f"{number + 0.0:+g}"

        for term in breakdown.terms:
            table.add_row(
                f"{escape(_(term.name))}\n[dim]{escape(_(term.description))}[/dim]",
                f"{term.value:g}",
                f"{term.weight:g}",
                signed(term.contribution),
            )
        table.add_section()
        table.add_row(_("total f(s)"), "", "", signed(breakdown.total))
        for name, value in breakdown.extra:
            table.add_row(escape(_(name)), "", "", signed(value))
        out.print(table)
        if breakdown.note:
            out.print(escape(_(breakdown.note)))

    return explain
