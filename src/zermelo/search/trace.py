"""Minimax and alpha-beta as the tutorial writes them, recording the tree they search.

The engine's searches (:mod:`zermelo.search.minimax`, :mod:`zermelo.search.alphabeta`) are written in
negamax form and score wins by their distance. A learner reads the tutorial's form instead: a MAX
level where the AI moves and a MIN level where the human moves, and the utilities +1 (the AI wins),
-1 (the human wins) and 0 (a draw). :func:`trace` searches that way, in the tutorial's move order
(the squares from low to high), and keeps the tree it read: every node's V(s), the window
``(alpha, beta)`` it was searched with, and for alpha-beta the moves it never looked at because
``alpha >= beta``.

The root's side is the AI (MAX). Among equal values the first move wins, as in the tutorial's
``get_best_move`` (it keeps a move only if its score is strictly better).

The trace holds at most ``keep`` plies of tree (the root's children always; deeper nodes are counted, not kept) and reads at
most ``node_limit`` nodes: a search that needs more raises :class:`BudgetError`. Nothing here
prints; the faces (``zermelo learn-minimax``, the Learn page) draw the trace.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Generic, TypeVar

from zermelo.core.errors import BudgetError
from zermelo.core.state import Player, SortableMove, State

__all__ = ["EXAMPLES", "MAX_MOVES_TEXT", "Cutoff", "Trace", "TraceNode", "played", "trace"]

M = TypeVar("M", bound=SortableMove)

INF = math.inf

TUTORIAL_GAME = "tictactoe"
"""The registry name of the tutorial's game, whose worked examples :data:`EXAMPLES` are."""

EXAMPLES = {1: "0 1", 2: "0 1 3 4"}
"""The tutorial's worked examples, as tic-tac-toe squares played from the empty board: X on 0 and
O on 1, where the AI (X) answers 3; then X on 3 and O on 4, where it answers 6."""

MAX_MOVES_TEXT = 200
"""The longest list of moves :func:`played` reads, in characters."""


def played(state: State[M], text: str) -> State[M]:
    """``state`` after the moves of ``text`` in the game's notation, separated by spaces or
    commas. Raises :class:`BudgetError` for a text longer than :data:`MAX_MOVES_TEXT`, and the
    game's own errors for a move that does not parse or is illegal."""
    if len(text) > MAX_MOVES_TEXT:
        raise BudgetError(
            f"a list of {len(text)} characters is too long: expected at most {MAX_MOVES_TEXT}"
        )
    for word in text.replace(",", " ").split():
        state = state.play(state.parse_move(word))
    return state


@dataclasses.dataclass(frozen=True)
class Cutoff(Generic[M]):
    """The moves of a node that alpha-beta never searched, and why: after the move ``after`` the
    window closed, ``alpha >= beta``."""

    after: M
    moves: tuple[M, ...]
    alpha: float
    beta: float


@dataclasses.dataclass
class TraceNode(Generic[M]):
    """One node of the searched tree.

    ``move`` is the move that led here (``None`` at the root); ``maximizing`` is true at a MAX
    level (the AI to move); ``value`` is V(s) as the search returned it (for alpha-beta, a bound
    when the node's own window closed: see :attr:`exact`); ``alpha`` and ``beta`` are the window
    the node was searched with (``-inf``/``inf`` for plain minimax); ``nodes`` counts the nodes of
    its subtree, itself included; ``children`` are the kept children in the order searched (empty
    below ``keep`` plies: then ``nodes`` still counts them); ``cutoff`` is the pruned rest.
    """

    move: M | None
    maximizing: bool
    value: float
    alpha: float
    beta: float
    nodes: int
    terminal: bool
    winner: Player | None
    children: list[TraceNode[M]]
    cutoff: Cutoff[M] | None

    @property
    def exact(self) -> bool:
        """True when ``value`` is V(s) itself, not just a bound: the value lies strictly inside the
        window it was searched with (or the node is terminal)."""
        return self.bound == "exact"

    @property
    def bound(self) -> str:
        """``"exact"`` when ``value`` is V(s); ``"upper"`` when the node failed low (V(s) is at
        most ``value``, which is at most ``alpha``); ``"lower"`` when it failed high (V(s) is at
        least ``value``, which is at least ``beta``)."""
        if self.terminal or self.alpha < self.value < self.beta:
            return "exact"
        return "upper" if self.value <= self.alpha else "lower"


@dataclasses.dataclass(frozen=True)
class Trace(Generic[M]):
    """A whole traced search: the root node, the algorithm, the move chosen and its value."""

    root: TraceNode[M]
    alphabeta: bool
    move: M | None
    value: float
    nodes: int


class _Counter:
    __slots__ = ("limit", "nodes")

    def __init__(self, limit: int) -> None:
        self.nodes = 0
        self.limit = limit


def trace(
    state: State[M],
    *,
    alphabeta: bool,
    keep: int = 9,
    node_limit: int = 1_000_000,
) -> Trace[M]:
    """Search ``state`` to the end with the tutorial's minimax (or alpha-beta), the side to move
    being the AI (MAX), and return the tree it read.

    Raises :class:`BudgetError` when ``keep`` is negative, ``node_limit`` is below 1, or the search
    would visit more than ``node_limit`` nodes.
    """
    if keep < 0:
        raise BudgetError(f"keep must be 0 or more plies, got {keep}")
    if node_limit < 1:
        raise BudgetError(f"node limit must be at least 1, got {node_limit}")
    ai = state.to_move
    counter = _Counter(node_limit)

    def visit(node: State[M], move: M | None, ply: int, alpha: float, beta: float) -> TraceNode[M]:
        counter.nodes += 1
        if counter.nodes > counter.limit:
            raise BudgetError(f"the search needs more than {counter.limit} nodes")
        before = counter.nodes
        maximizing = node.to_move == ai
        if node.is_terminal():
            winner = node.winner
            utility = 0.0 if winner is None else (1.0 if winner == ai else -1.0)
            return TraceNode(move, maximizing, utility, alpha, beta, 1, True, winner, [], None)
        moves: Sequence[M] = sorted(node.legal_moves())
        best = -INF if maximizing else INF
        kept: list[TraceNode[M]] = []
        cutoff: Cutoff[M] | None = None
        low, high = alpha, beta
        for index, child_move in enumerate(moves):
            child = visit(node.play(child_move), child_move, ply + 1, low, high)
            if ply < keep or ply == 0:
                kept.append(child)
            if maximizing:
                best = max(best, child.value)
                if alphabeta:
                    low = max(low, best)
            else:
                best = min(best, child.value)
                if alphabeta:
                    high = min(high, best)
            if alphabeta and low >= high and index + 1 < len(moves):
                cutoff = Cutoff(child_move, tuple(moves[index + 1 :]), low, high)
                break
        return TraceNode(
            move,
            maximizing,
            best,
            alpha,
            beta,
            counter.nodes - before + 1,
            False,
            None,
            kept,
            cutoff,
        )

    root = visit(state, None, 0, -INF, INF)
    chosen: M | None = None
    if not root.terminal:
        # The first child with the best value: the tutorial keeps a move only if it is strictly
        # better. (At the root the window never closes, so every child was searched and kept.)
        chosen = next((child.move for child in root.children if child.value == root.value), None)
    return Trace(root, alphabeta, chosen, root.value, counter.nodes)
