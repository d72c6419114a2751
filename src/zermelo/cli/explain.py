"""``zermelo explain``: the evaluation function f(s) = w1*x1 + ... + wn*xn, term by term."""

from __future__ import annotations

import math
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    console,
    game_options,
    game_tool,
    lang_option,
    position_or_moves,
    rule_options,
)
from zermelo.core.errors import ZermeloError
from zermelo.core.record import GameSpec
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
    @lang_option
    def explain(
        game: str,
        position: str,
        weights: str | None,
        size: tuple[int, int] | None,
        rule_texts: tuple[str, ...],
        **rules: Any,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        explain_tool = game_tool(spec, "explain", "explain")
        state = position_or_moves(spec, position, game_options(spec, rules, size, rule_texts))
        explain_tool(spec, state, weights)

    return explain


def explain_features(spec: GameSpec, state: Any, weights: str | None) -> None:
    """The m,n,k evaluation of ``state`` feature by feature (the ``explain`` tool of m,n,k games
    and gomoku)."""
    from zermelo.games.mnk_eval import explain as explain_state
    from zermelo.solvers.gomoku.weights import load_evaluation

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


def explain_terms(spec: GameSpec, state: Any, weights: str | None) -> None:
    """A game's own evaluation term by term (the ``explain`` tool of games whose record names a
    ``terms`` function: ``(state, weights_path) -> (rows, total)``, each row with ``name``,
    ``description``, ``value``, ``weight`` and ``contribution``), from the side to move."""
    rows, total = game_tool(spec, "terms", "explain")(state, read_weights(weights))
    out = console()
    out.print(_("Position: {position}").format(position=escape(state.notation())))
    side = _(spec.sides[state.to_move])
    table = Table(title=_("f(s) from the side to move ({side})").format(side=side))
    table.add_column(_("feature"))
    table.add_column(_("x (value)"), justify="right")
    table.add_column(_("w (weight)"), justify="right")
    table.add_column(_("w·x"), justify="right")
    for row in rows:
        table.add_row(
            f"{escape(_(row.name))}\n[dim]{escape(_(row.description))}[/dim]",
            f"{row.value:g}",
            f"{row.weight:g}",
            f"{row.contribution + 0.0:+.1f}",
        )
    table.add_section()
    shown = f"{total:+d}" if isinstance(total, int) else f"{total:+g}"
    table.add_row(_("total f(s)"), "", "", shown)
    out.print(table)


def read_weights(path: str | None) -> tuple[float, ...] | None:
    """Weights from a JSON file written by ``zermelo tune``: a list of numbers, or an object with
    one under ``weights``; ``None`` without a path."""
    import json

    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ZermeloError(f"weights file {path!r}: {error}") from None
    weights = data.get("weights") if isinstance(data, dict) else data
    if not isinstance(weights, list) or not all(
        isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w) for w in weights
    ):
        raise ZermeloError(
            f"weights file {path!r}: expected a list of numbers, or an object with one under "
            "'weights'"
        )
    return tuple(float(w) for w in weights)
