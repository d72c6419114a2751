"""Nodes against depth: what alpha-beta, the transposition table and move ordering save.

The tutorial says minimax costs O(b^m) and that alpha-beta, at best, O(b^(m/2)). These are the
engine's own searches, counted live to a fixed depth ``d`` from one position, in four variants:

* ``minimax`` -- :func:`zermelo.search.minimax`: every node, no pruning;
* ``alphabeta`` -- :func:`zermelo.search.alphabeta` in one pass, with no table (nothing is
  remembered), no iterative deepening and no killer or history moves;
* ``table`` -- the same with a transposition table: a position met again is not searched again;
* ``ordering`` -- the engine as it plays to a depth: the table, iterative deepening (the previous
  depth's best move first) and the killer and history heuristics.

Every variant searches every move in the game's own order (``search_moves()``); the shortcuts that
take a win on the spot or leave out a move that loses at once are off in all of them, so that the
four differ only by what they are named after. The heuristic leaves are scored by the game's
evaluation.

Each measurement reads at most ``node_limit`` nodes; a depth that needs more is not measured (the
series stops there), and so is every deeper one. A series also stops where the next depth would
take more than ``seconds``, foreseen from the growth of the counts so far.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Hashable

from zermelo.core.errors import BudgetError
from zermelo.core.state import AnyState
from zermelo.search.alphabeta import alphabeta
from zermelo.search.minimax import minimax
from zermelo.search.moves import moves_rule
from zermelo.search.table import TranspositionTable

__all__ = ["VARIANTS", "DepthCount", "NoTable", "count_nodes", "nodes_by_depth"]

VARIANTS = ("minimax", "alphabeta", "table", "ordering")

NODE_GAMES = ("tictactoe", "connect4", "chess")
"""The games nodes are counted on: a small tree, a middling one and a wide one."""

MAX_DEPTHS = {"tictactoe": 9, "connect4": 12, "chess": 6}
"""How deep ``zermelo learn-minimax --nodes`` counts each game, at most."""

QUICK_MAX_DEPTHS = {"tictactoe": 9, "connect4": 10, "chess": 5}
"""How deep the Learn page's counts go, measured on a request: less than the command's."""
"""The four searches compared, from the plainest to the engine's own."""


class NoTable(TranspositionTable):
    """A transposition table that remembers nothing: every probe misses."""

    __slots__ = ()

    def store(self, key: Hashable, depth: int, bound: int, score: float, move: Hashable) -> None:
        return None


@dataclasses.dataclass(frozen=True)
class DepthCount:
    """The nodes one variant visited to ``depth`` plies, and the seconds it took."""

    variant: str
    depth: int
    nodes: int
    seconds: float


def count_nodes(state: AnyState, variant: str, depth: int, node_limit: int) -> int:
    """The nodes ``variant`` visits searching ``state`` to ``depth`` plies.

    Raises :class:`BudgetError` when the search needs more than ``node_limit`` nodes, or for an
    unknown variant or a depth below 1.
    """
    if variant not in VARIANTS:
        raise BudgetError(f"unknown search {variant!r}: expected one of {', '.join(VARIANTS)}")
    if depth < 1:
        raise BudgetError(f"depth must be at least 1 ply, got {depth}")
    if variant == "minimax":
        return minimax(state, depth, node_limit=node_limit).stats.nodes
    if variant == "ordering":
        result = alphabeta(
            state, depth=depth, node_limit=node_limit, history=True, iterate=True, shortcuts=False
        )
        if result.depth < depth and not result.exact:
            raise BudgetError(f"the search needs more than {node_limit} nodes")
        return result.stats.nodes + 1
    table = NoTable() if variant == "alphabeta" else TranspositionTable()
    result = alphabeta(
        state,
        depth=depth,
        node_limit=node_limit,
        table=table,
        history=False,
        iterate=False,
        shortcuts=False,
    )
    return result.stats.nodes + 1


def branching(state: AnyState) -> int:
    """The number of moves searched at ``state``: the ``b`` of the reference lines."""
    return len(moves_rule(type(state))(state))


def nodes_by_depth(
    state: AnyState,
    *,
    max_depth: int,
    node_limit: int,
    seconds: float,
    variants: tuple[str, ...] = VARIANTS,
    on_count: Callable[[DepthCount], None] | None = None,
) -> list[DepthCount]:
    """Every variant's node count at depths 1, 2, ... ``max_depth``, each series stopping at the
    first depth that needs more than ``node_limit`` nodes or whose next depth would take more than
    ``seconds`` (foreseen from the growth of the counts so far). ``on_count`` hears of each count as it is measured."""
    if max_depth < 1:
        raise BudgetError(f"depth must be at least 1 ply, got {max_depth}")
    if node_limit < 1:
        raise BudgetError(f"node limit must be at least 1, got {node_limit}")
    if not seconds > 0:
        raise BudgetError(f"time must be a positive number of seconds, got {seconds}")
    for variant in variants:
        if variant not in VARIANTS:
            raise BudgetError(f"unknown search {variant!r}: expected one of {', '.join(VARIANTS)}")
    counts: list[DepthCount] = []
    for variant in variants:
        series: list[DepthCount] = []
        for depth in range(1, max_depth + 1):
            started = time.perf_counter()
            try:
                nodes = count_nodes(state, variant, depth, node_limit)
            except BudgetError:
                break
            count = DepthCount(variant, depth, nodes, time.perf_counter() - started)
            counts.append(count)
            if on_count is not None:
                on_count(count)
            # The next depth costs about this many times as much: the growth of the last two
            # depths (alpha-beta's alternates between odd and even depths), or b at first.
            series.append(count)
            steps = [b.nodes / max(1, a.nodes) for a, b in itertools.pairwise(series[-3:])]
            growth = max(steps) if steps else float(branching(state))
            if count.seconds * growth > seconds:
                break
    return counts
