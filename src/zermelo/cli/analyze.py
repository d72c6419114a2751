"""``zermelo analyze``: the value of every legal move of a position."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, cast

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    console,
    fail,
    format_line,
    game_options,
    lang_option,
    position_or_moves,
    rule_options,
    time_option,
)
from zermelo.core.capabilities import ExactMoves
from zermelo.core.errors import BudgetError
from zermelo.core.record import GameSpec
from zermelo.core.result import SearchResult
from zermelo.core.state import GAME_OVER, AnyState, Chance, ExplainsItself, end_reason, is_chance
from zermelo.i18n import gettext as _

if TYPE_CHECKING:
    from zermelo.search.expectimax import ChanceAnalysis

CHANCE_DEPTH = 4
"""The depth of the analysis of a chance game when neither ``--depth`` nor ``--time`` is given
(the game's ``analysis_depth`` when it is smaller): expectiminimax multiplies the tree by every
roll, so a game of chance is read a few moves deep."""

CHANCE_NODES = 300_000
"""At most this many nodes for one depth of a chance game's analysis."""


def command() -> click.Command:
    """The ``analyze`` command, with its help in the current language."""

    @click.command(
        "analyze",
        cls=Command,
        help=_(
            "Show the value of every legal move in POSITION (the game's notation, or a list of "
            "moves from the start such as 'h8 h9 i9'), the best move, the principal variation "
            "and the search statistics."
        ),
        short_help=_("Value every move of a position."),
    )
    @rule_options
    @click.argument("game")
    @click.argument("position", default="")
    @click.option(
        "--depth",
        type=click.IntRange(min=1, max=99),
        default=None,
        help=_("Depth limit in plies."),
    )
    @time_option(_("Time budget of the whole analysis, shared by every move."))
    @lang_option
    def analyze(
        game: str,
        position: str,
        depth: int | None,
        time_limit: float | None,
        size: tuple[int, int] | None,
        rule_texts: tuple[str, ...],
        **rules: object,
    ) -> None:
        from zermelo.core.scores import unit_of
        from zermelo.games.registry import get_game
        from zermelo.play.review import deepen
        from zermelo.ui.words import score_words

        spec = get_game(game)
        if spec.hidden:
            fail(
                _(
                    "{game} hides each side's cards, so a position has no value for one side to "
                    "analyse; 'zermelo solve {name}' computes the equilibrium strategy instead"
                ).format(game=_(spec.title), name=spec.name)
            )
        state = position_or_moves(spec, position, game_options(spec, rules, size, rule_texts))
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(spec.name)
        unit = unit_of(state)
        out = console()
        out.print(_("Position: {position}").format(position=escape(state.notation() or "-")))
        if state.is_terminal():
            reason = end_reason(state)
            if reason and reason != GAME_OVER:
                out.print(_("The game is over: {reason}.").format(reason=_(reason)))
            elif state.winner is None:
                out.print(_("The game is over: a draw."))
            else:
                out.print(_("The game is over: the side to move has lost."))
            return
        if spec.chance:
            _analyze_chance(out, spec, state, depth, time_limit)
            return
        if spec.exact_analysis is not None and depth is None and time_limit is None:
            with out.status(_("Solving every move exactly...")):
                exact = spec.exact_analysis.resolve().exact_moves(state)
            _print_exact(out, exact)
            return
        if depth is None and time_limit is None and spec.default_time is not None:
            time_limit = spec.default_time
            out.print(
                _("No --depth or --time given: searching for {seconds:g} s.").format(
                    seconds=time_limit
                )
            )
        own_engine = spec.engine_analysis
        best_so_far: list[SearchResult[object]] = []

        # Every depth that every move completed is shown as it comes (depth, value, nodes, line),
        # and kept: Ctrl-C prints the deepest one and ends with 130.
        def completed(found: SearchResult[object]) -> None:
            best_so_far[:] = [found]
            if found.exact and found.depth == 0:
                return
            out.print(
                _(
                    "depth {depth}: {move} {value}, {nodes} nodes, {seconds:.2f} s, line {line}"
                ).format(
                    depth=found.depth,
                    move=state.format_move(found.move),
                    value=score_words(found.value, exact=found.exact, unit=unit),
                    nodes=f"{found.stats.nodes:,}",
                    seconds=found.stats.elapsed,
                    line=" ".join(format_line(state, found.pv)),
                )
            )

        interrupted = False
        try:
            with out.status(_("Searching...")):
                result = deepen(
                    spec,
                    state,
                    depth=depth,
                    time_limit=time_limit,
                    on_depth=completed if time_limit is not None or own_engine else None,
                )
        except KeyboardInterrupt:
            if not best_so_far:
                out.print(_("Interrupted before the first depth was complete: no answer yet."))
                raise
            interrupted = True
            result = best_so_far[0]
            out.print(
                _("Interrupted: the best so far, from depth {depth}.").format(depth=result.depth)
            )
        table = Table(title=_("Moves for the side to move"))
        table.add_column(_("move"), justify="right")
        table.add_column(_("value"))
        table.add_column(_("line"))
        for value in result.moves:
            table.add_row(
                state.format_move(value.move),
                score_words(value.value, exact=value.exact, unit=unit),
                " ".join(format_line(state, value.pv)),
            )
        out.print(table)
        out.print(_("Best move: {move}").format(move=state.format_move(result.move)))
        out.print(
            _("Value: {value}").format(
                value=score_words(result.value, exact=result.exact, unit=unit)
            )
        )
        out.print(
            _("Principal variation: {line}").format(line=" ".join(format_line(state, result.pv)))
        )
        if isinstance(state, ExplainsItself):
            terms = state.explain()
            total = sum(weight * value for _, weight, value in terms)
            out.print(
                _("Evaluation f(s) = {total:+g}, from the side to move: {terms}").format(
                    total=total,
                    terms=", ".join(
                        f"{name} {value:+d} (w={weight:g})" for name, weight, value in terms
                    ),
                )
            )
        stats = result.stats
        if interrupted:
            raise KeyboardInterrupt
        if own_engine is not None:
            out.print(
                _("Search: depth {depth}, {nodes} nodes, {seconds:.2f} s, {rate} nodes/s").format(
                    depth=result.depth,
                    nodes=f"{stats.nodes:,}",
                    seconds=stats.elapsed,
                    rate=f"{stats.nodes_per_second:,.0f}",
                )
            )
            return
        out.print(
            _(
                "Search: {nodes} nodes, {cutoffs} cutoffs, {hits} table hits, depth {depth}, "
                "{ms:.2f} ms"
            ).format(
                nodes=f"{stats.nodes:,}",
                cutoffs=f"{stats.cutoffs:,}",
                hits=f"{stats.table_hits:,}",
                depth=result.depth,
                ms=stats.elapsed * 1000,
            )
        )

    return analyze


def _print_exact(out: Console, exact: ExactMoves) -> None:
    """Every move's exact value as a table, then the best moves, the value and the line."""
    from zermelo.ui.words import score_words

    table = Table(title=_("Moves for the side to move (exact)"))
    table.add_column(_("move"), justify="right")
    # One scale with the page: the words of the value only ("loss in 18"). The solver's own score
    # (Pascal Pons's, -2 for that move) ran the other way from the page's moves to the end.
    table.add_column(_("value"))
    for column in exact.moves:
        value = _("full") if column.value is None else score_words(column.value)
        table.add_row(column.move, value)
    out.print(table)
    out.print(_("Best move: {move}").format(move=", ".join(exact.best)))
    if exact.value is not None:
        out.print(_("Value: {value}").format(value=score_words(exact.value)))
    out.print(_("Principal variation: {line}").format(line=" ".join(exact.line)))
    if exact.line_note:
        out.print(_(exact.line_note))
    out.print(
        _("Search: {nodes} nodes, {ms:.2f} ms").format(
            nodes=f"{exact.nodes:,}", ms=exact.seconds * 1000
        )
    )


def _signed(value: float) -> str:
    """An expected value with its sign, to four places (``+0.0262``; ``+0.0000``, never
    ``-0.0000``)."""
    return f"{round(value, 4) + 0.0:+.4f}"


def _analyze_chance(
    out: Console, spec: GameSpec, state: AnyState, depth: int | None, time_limit: float | None
) -> None:
    """A position of a game of chance valued by expectiminimax (``chance_analysis``): each move's
    expected value for the side to move, or at a chance node each outcome with its probability
    and value; with P(win) beside a value for a game won or lost (values ``2·P(win) - 1``), the
    points for a scored game. With ``--time``, depth after depth until the time is spent."""
    import time

    from zermelo.search.expectimax import chance_analysis

    if spec.engine_analysis is not None:
        _print_chance(out, spec, _engine_lines(out, spec, state, depth, time_limit), engine=True)
        return
    if depth is not None:
        depths = [depth]
    elif time_limit is not None:
        depths = list(range(1, 100))
    else:
        depths = [min(CHANCE_DEPTH, spec.analysis_depth or CHANCE_DEPTH)]
    start = time.perf_counter()
    found: ChanceAnalysis | None = None
    with out.status(_("Searching...")):
        for wanted in depths:
            try:
                found = chance_analysis(state, wanted, node_limit=CHANCE_NODES)
            except BudgetError:
                if found is None:
                    fail(
                        _(
                            "depth {depth} needs more than {nodes} nodes in this position: "
                            "ask for a smaller --depth"
                        ).format(depth=wanted, nodes=f"{CHANCE_NODES:,}")
                    )
                break
            spent = time.perf_counter() - start
            if found.exact or (time_limit is not None and spent * 3 > time_limit):
                break
    assert found is not None
    _print_chance(out, spec, found, seconds=time.perf_counter() - start)


def _engine_lines(
    out: Console, spec: GameSpec, state: AnyState, depth: int | None, time_limit: float | None
) -> ChanceAnalysis:
    """The game's own engine (``engine_analysis``: backgammon's net) on a position of a chance
    game, as the lines of an expectiminimax analysis: at a chance node each outcome with its
    probability (from the state) and the engine's value."""
    from zermelo.core.limits import Limits
    from zermelo.search.expectimax import ChanceAnalysis, ChanceLine

    assert spec.engine_analysis is not None
    with out.status(_("Searching...")):
        result = spec.engine_analysis.resolve().analyze(
            state, Limits(time=time_limit, depth=depth).started()
        )
    chance = is_chance(state)
    odds = (
        {state.format_move(o): p for o, p in cast(Chance[Hashable], state).chance_outcomes()}
        if chance
        else {}
    )
    lines = []
    for value in result.moves:
        text = state.format_move(value.move)
        lines.append(ChanceLine(text, value.value, odds.get(text) if chance else None))
    best = None if chance or result.move is None else state.format_move(result.move)
    nodes = result.stats.nodes if result.stats.nodes else len(lines)
    return ChanceAnalysis(
        state.to_move, chance, result.value, tuple(lines), best, result.depth, result.exact, nodes
    )


def _print_chance(
    out: Console,
    spec: GameSpec,
    found: ChanceAnalysis,
    *,
    seconds: float | None = None,
    engine: bool = False,
) -> None:
    """The lines of a chance game's analysis as a table, then the best move and the value."""

    def cells(value: float) -> list[str]:
        """The value, and beside it P(win) for a game won or lost (in a scored game the value
        is the points)."""
        shown = _signed(value)
        return [shown] if spec.scored else [shown, f"{50 * (value + 1):.1f}%"]

    heads = [_("points")] if spec.scored else [_("value"), _("P(win)")]
    side = _(spec.sides[found.to_move])
    if found.chance:
        table = Table(title=_("Chance node: each outcome for {side}").format(side=escape(side)))
        table.add_column(_("outcome"), justify="right")
        table.add_column(_("probability"), justify="right")
    else:
        table = Table(title=_("Moves for {side} (expected value)").format(side=escape(side)))
        table.add_column(_("move"), justify="right")
    for head in heads:
        table.add_column(head, justify="right")
    for line in found.lines:
        odds = "?" if line.probability is None else f"{line.probability:.4f}"
        known = [odds] if found.chance else []
        table.add_row(escape(line.move), *known, *cells(line.value))
    out.print(table)
    if found.best is not None:
        out.print(_("Best move: {move}").format(move=escape(found.best)))
    if spec.scored:
        out.print(
            _("Expected points for {side}: {value}").format(
                side=escape(side), value=_signed(found.value)
            )
        )
    else:
        out.print(
            _("Expected value for {side}: {value} (P(win) {chance})").format(
                side=escape(side),
                value=_signed(found.value),
                chance=f"{50 * (found.value + 1):.1f}%",
            )
        )
    if engine and found.exact and not spec.scored:
        out.print(
            _("Exact, from the game's solved table: P(win) {chance}.").format(
                chance=f"{(found.value + 1) / 2:.4f}"
            )
        )
        return
    if engine:
        out.print(_("By the game's own engine, depth {depth}.").format(depth=found.depth))
        return
    how = _("exact") if found.exact else _("estimated by the evaluation at the horizon")
    out.print(
        _("Expectiminimax: depth {depth}, {nodes} nodes, {seconds:.2f} s, {how}").format(
            depth=found.depth, nodes=f"{found.nodes:,}", seconds=seconds or 0.0, how=how
        )
    )
