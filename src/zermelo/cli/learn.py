"""``zermelo learn-minimax``: the tutorial's worked examples, stepped through, and nodes against depth.

The steps: the position, then each move of the AI's (MAX's) searched in the tutorial's order, the
subtree it needed drawn as a tree with V(s) coming back up, and, for alpha-beta, the moves it cut
off and why (alpha >= beta); minimax's and alpha-beta's node counts side by side. On a terminal it
waits for Enter between steps (q quits); piped, or with ``--no-pause``, it prints them all.

``--nodes`` counts the nodes the engine's searches visit to each depth in tic-tac-toe, Connect
Four and chess (see :mod:`zermelo.search.depth_nodes`), prints the table and, with ``--plot``,
draws it on a log scale (matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from zermelo.cli.common import (
    Command,
    cannot_write_plot,
    check_plot_writable,
    console,
    fail,
    lang_option,
)
from zermelo.core.state import AnyState
from zermelo.i18n import gettext as _
from zermelo.i18n import ngettext
from zermelo.search.depth_nodes import (
    MAX_DEPTHS,
    NODE_GAMES,
    VARIANTS,
    DepthCount,
    branching,
    nodes_by_depth,
)
from zermelo.search.trace import EXAMPLES, TUTORIAL_GAME, Trace, TraceNode, played, trace

__all__ = ["command", "draw_plot", "node_table", "variant_label"]

NODE_LIMIT = 400_000
"""The most nodes one measurement of ``--nodes`` may read."""

TRACE_LIMIT = 1_000_000
"""The most nodes a traced search may read (the whole tic-tac-toe tree is 549,946)."""

SHOWN_PLIES = 2
"""How deep below each of the root's moves the tree is drawn."""


def variant_label(variant: str) -> str:
    """The variant's name for a person."""
    labels = {
        "minimax": _("minimax"),
        "alphabeta": _("alpha-beta"),
        "table": _("alpha-beta + table"),
        "ordering": _("alpha-beta + table + ordering"),
    }
    return labels[variant]


def _number(value: float) -> str:
    if value == math.inf:
        return "+∞"
    if value == -math.inf:
        return "-∞"
    return f"{value:+g}" if value else "0"


def _value(node: TraceNode[int]) -> str:
    """V(s) as the search knows it: the value, or a bound where the window closed."""
    shown = _number(node.value)
    if node.bound == "upper":
        return f"≤ {shown}"
    if node.bound == "lower":
        return f"≥ {shown}"
    return f"= {shown}"


def _level(node: TraceNode[int]) -> str:
    return _("MAX") if node.maximizing else _("MIN")


def _mover_name(state: AnyState, ai_moves: bool) -> str:
    """X or O: the mark of the side that moves, the AI being the side to move at the root."""
    side = state.to_move if ai_moves else state.to_move.opponent
    return "X" if int(side) == 0 else "O"


def _label(node: TraceNode[int], root_state: AnyState, alphabeta: bool) -> str:
    mover = _mover_name(root_state, not node.maximizing)
    text = ngettext(
        "{mark} on {square}: V(s) {value}, {level} to move, {nodes} node",
        "{mark} on {square}: V(s) {value}, {level} to move, {nodes} nodes",
        node.nodes,
    ).format(
        mark=mover,
        square=node.move,
        value=_value(node),
        level=_level(node),
        nodes=f"{node.nodes:,}",
    )
    if alphabeta:
        text += "  " + _("[α = {alpha}, β = {beta}]").format(
            alpha=_number(node.alpha), beta=_number(node.beta)
        )
    style = "bold green" if node.value > 0 else "bold red" if node.value < 0 else "bold"
    return f"[{style}]{escape(text)}[/{style}]"


def cutoff_reason(node: TraceNode[int]) -> str:
    """Why alpha-beta stopped at ``node``, in words."""
    cut = node.cutoff
    assert cut is not None
    squares = " ".join(str(m) for m in cut.moves)
    values = {"alpha": _number(cut.alpha), "beta": _number(cut.beta), "moves": squares}
    if node.maximizing:
        return _(
            "pruned {moves}: α = {alpha} ≥ β = {beta}; MAX already has {alpha} here, and MIN "
            "will not allow more than {beta}, so the other moves cannot matter"
        ).format(**values)
    return _(
        "pruned {moves}: α = {alpha} ≥ β = {beta}; MIN can already hold MAX to {beta} here, and "
        "MAX has {alpha} elsewhere, so the other moves cannot matter"
    ).format(**values)


def _grow(branch: Tree, node: TraceNode[int], root: AnyState, alphabeta: bool, plies: int) -> None:
    if plies <= 0 or not node.children:
        return
    for child in node.children:
        sub = branch.add(_label(child, root, alphabeta))
        _grow(sub, child, root, alphabeta, plies - 1)
    if node.cutoff is not None:
        branch.add(f"[dim]✂ {escape(cutoff_reason(node))}[/dim]")


def step_tree(result: Trace[int], state: AnyState, shown: int) -> Tree:
    """The root with its first ``shown`` moves searched, the last one drawn to
    :data:`SHOWN_PLIES` below it."""
    root = result.root
    title = _("Root: {mark} to move (MAX), best V(s) so far = {value}").format(
        mark=_mover_name(state, True),
        value=_number(max(c.value for c in root.children[:shown])) if shown else "?",
    )
    tree = Tree(f"[bold]{escape(title)}[/bold]")
    for index, child in enumerate(root.children[:shown]):
        branch = tree.add(_label(child, state, result.alphabeta))
        if index == shown - 1:
            _grow(branch, child, state, result.alphabeta, SHOWN_PLIES)
    return tree


def _board(state: AnyState) -> str:
    cells = []
    text = state.notation()
    for square in range(9):
        cell = text[square] if square < len(text) else "."
        cells.append(cell if cell in "XO" else str(square))
    rows = [" | ".join(cells[row * 3 : row * 3 + 3]) for row in range(3)]
    return "\n---------\n".join(rows)


def _counts(minimax: Trace[int], alphabeta: Trace[int], shown: int) -> str:
    mm = 1 + sum(c.nodes for c in minimax.root.children[:shown])
    ab = 1 + sum(c.nodes for c in alphabeta.root.children[:shown])
    return _("Nodes so far: minimax {minimax}, alpha-beta {alphabeta}").format(
        minimax=f"{mm:,}", alphabeta=f"{ab:,}"
    )


def _pause(interactive: bool) -> bool:
    """Wait for Enter; False when the reader asked to quit (q, or the end of the input)."""
    if not interactive:
        return True
    click.echo(_("Enter: next step, q: quit"), nl=False)
    line = sys.stdin.readline()
    return bool(line) and line.strip().lower() != "q"


def run_steps(out: Console, state: AnyState, show_alphabeta: bool, interactive: bool) -> None:
    """Print the steps of the search of ``state``."""
    minimax_trace = trace(state, alphabeta=False, keep=SHOWN_PLIES + 1, node_limit=TRACE_LIMIT)
    alphabeta_trace = trace(state, alphabeta=True, keep=SHOWN_PLIES + 1, node_limit=TRACE_LIMIT)
    shown_trace = alphabeta_trace if show_alphabeta else minimax_trace
    ai = _mover_name(state, True)
    out.print(_board(state))
    if state.is_terminal():
        out.print(_("The game is over: there is nothing to search."))
        return
    moves = " ".join(str(c.move) for c in shown_trace.root.children)
    out.print(
        _(
            "{mark} (the AI, MAX) is to move. Like the tutorial's get_best_move, the search tries "
            "every free square in order: {moves}. V(s) is +1 when X wins, -1 when O wins, 0 for "
            "a draw."
        ).format(mark=ai, moves=moves)
    )
    total = len(shown_trace.root.children)
    for shown in range(1, total + 1):
        if not _pause(interactive):
            return
        child = shown_trace.root.children[shown - 1]
        out.rule(
            _("Step {step} of {steps}: {mark} on {square}").format(
                step=shown, steps=total, mark=ai, square=child.move
            )
        )
        out.print(step_tree(shown_trace, state, shown), soft_wrap=False)
        out.print(_counts(minimax_trace, alphabeta_trace, shown))
    if not _pause(interactive):
        return
    out.rule(_("The choice"))
    out.print(
        _("The AI plays {square}: V(s) = {value}, the first square with the best value.").format(
            square=shown_trace.move, value=_number(shown_trace.value)
        )
    )
    saved = 100 * (1 - alphabeta_trace.nodes / minimax_trace.nodes)
    out.print(
        _(
            "Minimax visited {minimax} nodes; alpha-beta visited {alphabeta} and found the same "
            "value, skipping {percent}% of the tree."
        ).format(
            minimax=f"{minimax_trace.nodes:,}",
            alphabeta=f"{alphabeta_trace.nodes:,}",
            percent=round(saved),
        )
    )


def node_table(game: str, counts: Sequence[DepthCount], b: int) -> Table:
    """The nodes of each variant at each depth, with ``b^d`` and ``b^(d/2)``."""
    table = Table(title=_("{game}: nodes searched to depth d (b = {b})").format(game=game, b=b))
    table.add_column("d", justify="right")
    for variant in VARIANTS:
        table.add_column(variant_label(variant), justify="right")
    table.add_column("b^d", justify="right")
    table.add_column("b^(d/2)", justify="right")
    depths = sorted({c.depth for c in counts})
    by_key = {(c.variant, c.depth): c.nodes for c in counts}
    for depth in depths:
        cells = [str(depth)]
        for variant in VARIANTS:
            nodes = by_key.get((variant, depth))
            cells.append("—" if nodes is None else f"{nodes:,}")
        cells.append(f"{b**depth:,}")
        cells.append(f"{round(b ** (depth / 2)):,}")
        table.add_row(*cells)
    return table


def draw_plot(series: dict[str, tuple[int, list[DepthCount]]], path: Path) -> None:
    """Nodes against depth, one panel per game, on a log scale; written to ``path`` (PNG or
    SVG). Raises :class:`ImportError` without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(1, len(series), figsize=(4.2 * len(series), 3.8), squeeze=False)
    for axis, (game, (b, counts)) in zip(axes[0], series.items(), strict=True):
        for variant in VARIANTS:
            points = [(c.depth, c.nodes) for c in counts if c.variant == variant]
            if points:
                xs, ys = zip(*points, strict=True)
                axis.plot(xs, ys, marker="o", label=variant_label(variant))
        depths = sorted({c.depth for c in counts})
        if depths:
            axis.plot(depths, [b**d for d in depths], "k--", linewidth=1, label="b^d")
            axis.plot(depths, [b ** (d / 2) for d in depths], "k:", linewidth=1, label="b^(d/2)")
        axis.set_yscale("log")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_title(f"{game} (b = {b})")
        axis.set_xlabel(_("depth d (plies)"))
        axis.set_ylabel(_("nodes visited"))
        axis.grid(True, which="major", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, format=path.suffix.lstrip(".").lower(), dpi=90)
    plt.close(figure)


def run_nodes(out: Console, games: Sequence[str], seconds: float, plot: Path | None) -> None:
    """Measure, print the tables and draw the plot."""
    from zermelo.games.registry import get_game

    series: dict[str, tuple[int, list[DepthCount]]] = {}
    for game in games:
        state = get_game(game).new()
        with out.status(_("Counting the nodes of {game}...").format(game=game)):
            counts = nodes_by_depth(
                state, max_depth=MAX_DEPTHS[game], node_limit=NODE_LIMIT, seconds=seconds
            )
        b = branching(state)
        series[game] = (b, counts)
        out.print(node_table(game, counts, b))
    if plot is not None:
        try:
            draw_plot(series, plot)
        except OSError as error:
            fail(cannot_write_plot(plot, error))
        out.print(_("Plot written to {path}").format(path=escape(str(plot))))


def command() -> click.Command:
    """The ``learn-minimax`` command, with its help in the current language."""

    @click.command(
        "learn-minimax",
        cls=Command,
        help=_(
            "Step through the tutorial's worked examples: the game tree being searched, the values "
            "V(s) coming back up the MAX and MIN levels, and alpha-beta's cut-offs, with minimax's "
            "and alpha-beta's node counts side by side. With --nodes, count the nodes that "
            "minimax, alpha-beta, alpha-beta with the table and with move ordering visit to each "
            "depth in tic-tac-toe, Connect Four and chess."
        ),
        short_help=_("Watch minimax and alpha-beta at work on the tutorial's examples."),
    )
    @click.option(
        "--example",
        type=click.Choice(sorted(str(n) for n in EXAMPLES)),
        default=None,
        help=_(
            "The tutorial's worked example: 1 (X on 0, O on 1) or 2 (then X on 3, O on 4); "
            "default: 1."
        ),
    )
    @click.option(
        "--moves",
        default=None,
        metavar="MOVES",
        help=_("Any tic-tac-toe position instead, as squares 0-8 played from the empty board."),
    )
    @click.option(
        "--alphabeta/--minimax",
        "show_alphabeta",
        default=True,
        help=_("Draw alpha-beta's tree (the default) or plain minimax's."),
    )
    @click.option(
        "--no-pause",
        is_flag=True,
        help=_("Print every step at once (the default when the output is not a terminal)."),
    )
    @click.option(
        "--nodes",
        "nodes_mode",
        is_flag=True,
        help=_("Count nodes against depth instead of stepping through an example."),
    )
    @click.option(
        "--game",
        type=click.Choice(NODE_GAMES),
        default=None,
        help=_("With --nodes: one game only (default: all three)."),
    )
    @click.option(
        "--plot",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help=_("With --nodes: draw the counts on a log scale to FILE (.png or .svg)."),
    )
    @click.option(
        "--seconds",
        type=click.FloatRange(min=0.1, max=60.0),
        default=2.0,
        show_default=True,
        help=_("With --nodes: stop each series before a depth that would take longer than this."),
    )
    @lang_option
    def learn(
        example: str | None,
        moves: str | None,
        show_alphabeta: bool,
        no_pause: bool,
        nodes_mode: bool,
        game: str | None,
        plot: str | None,
        seconds: float,
    ) -> None:
        out = console()
        if example is not None and moves is not None:
            fail(_("--example and --moves: give one of them"))
        if nodes_mode and (example is not None or moves is not None):
            fail(_("--example and --moves do not go with --nodes"))
        if nodes_mode:
            plot_path = None
            if plot is not None:
                plot_path = Path(plot)
                if plot_path.suffix.lower() not in (".png", ".svg"):
                    fail(_("{path}: expected a file name ending in .png or .svg").format(path=plot))
                check_plot_writable(plot_path)
                try:
                    import matplotlib  # noqa: F401
                except ImportError:
                    fail(
                        _(
                            "--plot needs matplotlib: pip install 'zermelo[plot]' "
                            "(or pip install matplotlib)"
                        )
                    )
            run_nodes(out, (game,) if game else NODE_GAMES, seconds, plot_path)
            return
        if game is not None or plot is not None:
            fail(_("--game and --plot go with --nodes"))
        from zermelo.games.registry import get_game

        text = EXAMPLES[int(example or "1")] if moves is None else moves
        state = played(get_game(TUTORIAL_GAME).new(), text)
        interactive = not no_pause and sys.stdin.isatty() and sys.stdout.isatty()
        run_steps(out, state, show_alphabeta, interactive)

    return learn
