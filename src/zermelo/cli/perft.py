"""``zermelo perft``: count the legal move tree of a position, the move generator's check."""

from __future__ import annotations

import time

import click
from rich.markup import escape

from zermelo.cli.common import Command, capability, console, lang_option, position_or_moves
from zermelo.i18n import gettext as _

MAX_DEPTH = 20


def command() -> click.Command:
    """The ``perft`` command, with its help in the current language."""

    @click.command(
        "perft",
        cls=Command,
        help=_(
            "Count the leaves of the legal move tree DEPTH plies below POSITION (the game's "
            "notation, default: the start), with the time and the nodes per second: the standard "
            "check of a move generator."
        ),
        short_help=_("Count the legal move tree of a position."),
    )
    @click.argument("game")
    @click.argument("position", default="")
    @click.option(
        "--depth",
        type=click.IntRange(min=0, max=MAX_DEPTH),
        required=True,
        help=_("Depth in plies."),
    )
    @lang_option
    def perft(game: str, position: str, depth: int) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        counter = capability(spec, spec.perft, "perft", "perft")
        state = position_or_moves(spec, position, {})
        out = console()
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(spec.name)
        out.print(_("Position: {position}").format(position=escape(state.notation() or "-")))
        started = time.perf_counter()
        with out.status(_("Counting...")):
            leaves = counter.count_leaves(state, depth)
        elapsed = time.perf_counter() - started
        rate = leaves / elapsed if elapsed > 0 else 0.0
        out.print(_("perft {depth}: {leaves} leaves").format(depth=depth, leaves=f"{leaves:,}"))
        out.print(
            _("Time: {seconds:.3f} s, {rate} nodes/s").format(seconds=elapsed, rate=f"{rate:,.0f}")
        )

    return perft
