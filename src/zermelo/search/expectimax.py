"""Search with chance nodes: expectiminimax and Ballard's *-minimax (Star1 and Star2).

Minimax assumes that every move is chosen by a player who wants the best for itself. A roll of
the dice is chosen by nobody: each outcome comes with a probability. *Expectiminimax* (Michie,
1966) handles that by giving a chance node the **expected value** of its children, the mean of
their values weighted by their probabilities, while decision nodes keep taking the best child as
in minimax::

    V(s) = payoff(s)                        if s is terminal
    V(s) = max over moves m of  V(s·m)      at a decision node (negamax: seen from the mover)
    V(s) = sum over outcomes o of  P(o)·V(s·o)   at a chance node

Values here are expected payoffs in the game's points, from the side to move (Pig: +1 a win,
-1 a loss, so a value is ``2·P(win) - 1``). Turns need not alternate (a Pig player who rolls a
4 rolls again), so a child's value becomes its parent's by :func:`~zermelo.core.state.same_side`:
kept when the same side moves at both, negated otherwise.

:func:`expectiminimax` is the plain reference: every node, no pruning, as slow as the tree is
big. It is the oracle the faster search is tested against.

Why alpha-beta alone cannot prune a chance node: a mean depends on *every* child, so one bad
child does not settle it the way one refutation settles a decision node. But when the values are
known to lie in ``[L, U]`` (Pig: ``[-1, 1]``), the children already searched bound the mean:
after children 1..i-1 with values v_j, the mean lies between
``sum p_j v_j + (1 - sum p_j)·L`` and ``sum p_j v_j + (1 - sum p_j)·U``. Bruce Ballard's
*-minimax (1983) uses that:

* **Star1** stops a chance node as soon as these bounds fall outside the window
  ``(alpha, beta)`` its parent asked about, and searches each child with the narrowest window
  that can still change the answer.
* **Star2** first *probes* each child: it searches only the child's first move. That is a bound
  on the child (the mover will do at least that well), often enough to cut the chance node off
  before any child is searched in full; the bounds it found also narrow Star1's windows.

Both give exactly the reference's value at the root; they only visit fewer nodes.
:func:`chance_analysis` values each move of a position, and at a chance node each outcome with
its probability, for the faces.

Depth counts every edge, a move or an outcome alike: depth 2 below a Pig decision is "roll, then
the die". Pig's game tree is infinite (two players rolling 1 forever), so it is always searched
to a depth with an evaluation at the cut-off, in the same scale as the payoffs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast, runtime_checkable

from zermelo.core.errors import BudgetError
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.state import (
    AnyState,
    Chance,
    Evaluates,
    Player,
    SortableMove,
    State,
    is_chance,
    payoff_of,
    same_side,
)
from zermelo.search.alphabeta import OWN_EVALUATION, Evaluator

__all__ = [
    "Bounded",
    "ChanceAnalysis",
    "ChanceLine",
    "chance_analysis",
    "expectiminimax",
    "star_minimax",
    "terminal_value",
    "value_bounds",
]

M = TypeVar("M", bound=SortableMove)

_INF = math.inf


@runtime_checkable
class Bounded(Protocol):
    """A state whose values (payoffs and evaluations, from the side to move) always lie in
    ``value_bounds() = (L, U)``: what *-minimax needs to prune a chance node."""

    def value_bounds(self) -> tuple[float, float]: ...


def value_bounds(state: object) -> tuple[float, float] | None:
    """The game's declared ``(L, U)`` (:class:`Bounded`), or ``None``."""
    if issubclass(type(state), Bounded):
        return cast(Bounded, state).value_bounds()
    return None


def terminal_value(state: AnyState) -> float:
    """The payoff of the terminal ``state`` from its side to move (``payoff_of`` is the first
    player's)."""
    payoff = payoff_of(state)
    return payoff if state.to_move is Player.FIRST else -payoff


def _outcomes(state: AnyState) -> Sequence[tuple[Hashable, float]]:
    return cast(Chance[Hashable], state).chance_outcomes()


def _checked(
    state: AnyState, depth: int | None, evaluator: Evaluator | None, node_limit: int | None
) -> Evaluator | None:
    if depth is not None and depth < 0:
        raise BudgetError(f"depth must be 0 or more, got {depth}")
    if node_limit is not None and node_limit < 1:
        raise BudgetError(f"node limit must be at least 1, got {node_limit}")
    if depth is None or evaluator is not None:
        return evaluator
    if not issubclass(type(state), Evaluates):
        raise BudgetError(
            f"a depth limit needs an evaluation function, and {type(state).__name__} has none"
        )
    return OWN_EVALUATION


class _Counter:
    """Nodes visited against the node limit."""

    __slots__ = ("limit", "nodes")

    def __init__(self, node_limit: int | None) -> None:
        self.nodes = 0
        self.limit = node_limit if node_limit is not None else -1

    def visit(self) -> None:
        self.nodes += 1
        if self.nodes == self.limit + 1:
            raise BudgetError(f"the search needs more than {self.limit} nodes")


_TOO_DEEP = (
    "the game tree is too deep to read to its end (a game of dice may never end); "
    "give a depth, or a node limit"
)


def expectiminimax(
    state: State[M],
    depth: int | None = None,
    *,
    evaluator: Evaluator | None = None,
    node_limit: int | None = None,
) -> SearchResult[M]:
    """Value and best move of ``state`` by plain expectiminimax: the reference.

    Terminal states score their payoff from the side to move; with ``depth`` (edges, moves and
    outcomes alike), other states at the cut-off are scored by ``evaluator`` (default: the
    state's own ``evaluate``). A decision node takes its best child (the lowest move among equal
    ones), a chance node the probability-weighted mean of its children. ``moves`` holds every
    root move's value for the side to move at the root (at a chance root: each outcome's, in the
    order of ``chance_outcomes()``, and ``move`` is ``None``). With ``node_limit``, a search that
    would visit more nodes raises :class:`BudgetError`, and so does a search without a depth
    whose tree is deeper than Python's stack (a game of dice may never end).
    """
    try:
        return _expectiminimax(state, depth, evaluator, node_limit)
    except RecursionError:
        raise BudgetError(_TOO_DEEP) from None


def _expectiminimax(
    state: State[M], depth: int | None, evaluator: Evaluator | None, node_limit: int | None
) -> SearchResult[M]:
    evaluate = _checked(state, depth, evaluator, node_limit)
    counter = _Counter(node_limit)
    started = time.perf_counter()
    heuristic = False

    def value(node: AnyState, left: int | None) -> float:
        nonlocal heuristic
        counter.visit()
        if node.is_terminal():
            return terminal_value(node)
        if left is not None and left <= 0:
            heuristic = True
            assert evaluate is not None
            return evaluate(node)
        below = None if left is None else left - 1
        if is_chance(node):
            total = 0.0
            for outcome, probability in _outcomes(node):
                child = node.play(outcome)
                v = value(child, below)
                total += probability * (v if same_side(node, child) else -v)
            return total
        best = -_INF
        for move in node.legal_moves():
            child = node.play(move)
            v = value(child, below)
            v = v if same_side(node, child) else -v
            best = max(best, v)
        return best

    counter.visit()
    root_values: list[MoveValue[M]] = []
    root_value: float
    best_move: M | None = None
    below = None if depth is None else depth - 1
    if state.is_terminal():
        root_value = terminal_value(state)
    elif depth == 0:
        assert evaluate is not None
        heuristic = True
        root_value = evaluate(state)
    elif is_chance(state):
        root_value = 0.0
        for outcome, probability in _outcomes(state):
            child = state.play(cast(M, outcome))
            v = value(child, below)
            v = v if same_side(state, child) else -v
            root_value += probability * v
            root_values.append(MoveValue(cast(M, outcome), v, False, (cast(M, outcome),)))
    else:
        root_value = -_INF
        for move in state.legal_moves():
            child = state.play(move)
            v = value(child, below)
            v = v if same_side(state, child) else -v
            root_values.append(MoveValue(move, v, False, (move,)))
            if v > root_value or (v == root_value and best_move is not None and move < best_move):
                root_value, best_move = v, move
    moves = tuple(root_values)
    if not is_chance(state):
        moves = tuple(sorted(moves, key=lambda m: -m.value))
    stats = SearchStats(nodes=counter.nodes, elapsed=time.perf_counter() - started)
    return _result(best_move, root_value, depth, not heuristic, moves, stats)


def _result(
    best_move: M | None,
    value: float,
    depth: int | None,
    exact: bool,
    moves: tuple[MoveValue[M], ...],
    stats: SearchStats,
) -> SearchResult[M]:
    """A search's answer at its root: the best move as its line, each of ``moves`` marked
    ``exact`` as the search as a whole (no horizon was reached), the depth 0 without one."""
    return SearchResult(
        move=best_move,
        value=value,
        pv=() if best_move is None else (best_move,),
        depth=0 if depth is None else depth,
        exact=exact,
        stats=stats,
        moves=tuple(MoveValue(m.move, m.value, exact, m.pv) for m in moves),
    )


@dataclass(frozen=True, slots=True)
class _Probe:
    """A Star2 probe of a decision node's first move: searched with the window ``(alpha,
    beta)``, in the node's view, it returned the fail-soft ``value``."""

    alpha: float
    beta: float
    value: float

    def reuse(self, alpha: float, beta: float) -> float | None:
        """The first move's fail-soft value for the window ``(alpha, beta)`` when the probe
        already answers it, else ``None`` (search it again)."""
        v = self.value
        if self.alpha < v < self.beta:
            return v  # exact
        if v >= self.beta and v >= beta:
            return v  # at least v, and that fails high here too
        if v <= self.alpha and v <= alpha:
            return v  # at most v, and that fails low here too
        return None


class _Star:
    """One *-minimax search: its bounds, evaluation, counters and which pruning it uses."""

    def __init__(
        self,
        lower: float,
        upper: float,
        evaluate: Evaluator | None,
        counter: _Counter,
        probe: bool,
    ) -> None:
        self.lower = lower
        self.upper = upper
        self.evaluate = evaluate
        self.counter = counter
        self.probe = probe
        self.heuristic = False
        self.cutoffs = 0

    def leaf(self, node: AnyState, left: int | None) -> float | None:
        """The value of a terminal or cut-off node, or ``None`` for a node to search below."""
        if node.is_terminal():
            return terminal_value(node)
        if left is not None and left <= 0:
            self.heuristic = True
            assert self.evaluate is not None
            return self.evaluate(node)
        return None

    def seen_from(
        self,
        parent: AnyState,
        child: AnyState,
        alpha: float,
        beta: float,
        left: int | None,
        probed: _Probe | None = None,
    ) -> float:
        """The child's fail-soft value in the parent's view, for the parent's window."""
        if same_side(parent, child):
            return self.search(child, alpha, beta, left, probed)
        return -self.search(child, -beta, -alpha, left, probed)

    def search(
        self,
        node: AnyState,
        alpha: float,
        beta: float,
        left: int | None,
        probed: _Probe | None = None,
    ) -> float:
        """Fail-soft: ``s <= alpha`` means the value is at most ``s``, ``s >= beta`` at least
        ``s``; in between ``s`` is the value. ``probed`` is what a Star2 probe found about this
        node's first move, so that it is not searched twice."""
        self.counter.visit()
        done = self.leaf(node, left)
        if done is not None:
            return done
        below = None if left is None else left - 1
        if is_chance(node):
            return self.chance(node, alpha, beta, below)
        best = -_INF
        for number, move in enumerate(node.legal_moves()):
            a = max(alpha, best)
            v = probed.reuse(a, beta) if probed is not None and number == 0 else None
            if v is None:
                v = self.seen_from(node, node.play(move), a, beta, below)
            if v > best:
                best = v
                if best >= beta:
                    self.cutoffs += 1
                    break
        return best

    def chance(self, node: AnyState, alpha: float, beta: float, below: int | None) -> float:
        """A chance node by Star1, after Star2's probes when asked."""
        outcomes = _outcomes(node)
        children = [node.play(outcome) for outcome, _ in outcomes]
        p = [probability for _, probability in outcomes]
        count = len(children)
        lo = [self.lower] * count
        hi = [self.upper] * count
        probes: list[_Probe | None] = [None] * count
        if self.probe:
            cut = self.probe_children(node, children, p, lo, hi, probes, alpha, beta, below)
            if cut is not None:
                return cut
        known = 0.0  # sum of p_j v_j over the children searched
        rest_lo = sum(p[j] * lo[j] for j in range(count))
        rest_hi = sum(p[j] * hi[j] for j in range(count))
        for i, child in enumerate(children):
            rest_lo -= p[i] * lo[i]
            rest_hi -= p[i] * hi[i]
            # The child's value that would make the mean reach alpha or beta.
            alpha_i = (alpha - known - rest_hi) / p[i]
            beta_i = (beta - known - rest_lo) / p[i]
            if alpha_i >= hi[i]:  # even the child's best leaves the mean at most alpha
                self.cutoffs += 1
                return min(known + p[i] * hi[i] + rest_hi, alpha)
            if beta_i <= lo[i]:  # even the child's worst leaves the mean at least beta
                self.cutoffs += 1
                return max(known + p[i] * lo[i] + rest_lo, beta)
            if lo[i] == hi[i]:
                known += p[i] * lo[i]
                continue
            a, b = max(alpha_i, lo[i]), min(beta_i, hi[i])
            w = self.seen_from(node, child, a, b, below, probes[i])
            if w >= b:
                if b == beta_i:
                    self.cutoffs += 1
                    return max(known + p[i] * w + rest_lo, beta)
                w = hi[i]  # at least its upper bound: exactly it
            elif w <= a:
                if a == alpha_i:
                    self.cutoffs += 1
                    return min(known + p[i] * w + rest_hi, alpha)
                w = lo[i]
            known += p[i] * w
        return known

    def probe_children(
        self,
        node: AnyState,
        children: list[AnyState],
        p: list[float],
        lo: list[float],
        hi: list[float],
        probes: list[_Probe | None],
        alpha: float,
        beta: float,
        below: int | None,
    ) -> float | None:
        """Star2: bound each child by its first move alone; the mean if that already settles
        the chance node (fail high or low), else ``None`` with ``lo``/``hi`` narrowed."""
        count = len(children)
        for i, child in enumerate(children):
            if child.is_terminal() or (below is not None and below <= 0):
                # A leaf costs one visit either way: take its value now.
                self.counter.visit()
                done = self.leaf(child, below)
                assert done is not None
                v = done if same_side(node, child) else -done
                lo[i] = hi[i] = v
            elif not is_chance(child):
                own = same_side(node, child)
                others_lo = sum(p[j] * lo[j] for j in range(count) if j != i)
                others_hi = sum(p[j] * hi[j] for j in range(count) if j != i)
                # In the child's own view: a value its first move must reach to settle the node.
                if own:
                    floor, goal = lo[i], (beta - others_lo) / p[i]
                else:
                    floor, goal = -hi[i], -(alpha - others_hi) / p[i]
                # A probe whose goal lies beyond the bounds could not settle the node however
                # well the first move did; it would be a full search, so it is left to Star1.
                top = goal
                if floor < top <= self.upper:
                    self.counter.visit()
                    grand_below = None if below is None else below - 1
                    first = child.legal_moves()[0]
                    w = self.seen_from(child, child.play(first), floor, top, grand_below)
                    probes[i] = _Probe(floor, top, w)
                    if w > floor:  # the first move is worth at least w to the child's mover
                        if own:
                            lo[i] = max(lo[i], w)
                        else:
                            hi[i] = min(hi[i], -w)
            low_mean = sum(p[j] * lo[j] for j in range(count))
            if low_mean >= beta:
                self.cutoffs += 1
                return low_mean
            high_mean = sum(p[j] * hi[j] for j in range(count))
            if high_mean <= alpha:
                self.cutoffs += 1
                return high_mean
        return None


def star_minimax(
    state: State[M],
    depth: int | None = None,
    *,
    lower: float | None = None,
    upper: float | None = None,
    star: int = 2,
    evaluator: Evaluator | None = None,
    node_limit: int | None = None,
) -> SearchResult[M]:
    """Value and best move of ``state`` by *-minimax: the reference's value, fewer nodes.

    ``lower`` and ``upper`` bound every value from the side to move (payoffs and evaluations
    alike); by default the game's own (:class:`Bounded`). ``star`` is 1 (Star1: a chance node
    stops once its searched children settle it) or 2 (Star2: each child is first probed by its
    first move). Decision nodes search with an alpha-beta window. Depth, evaluation, node limit
    and the tie rule (the lowest of equal moves) are as in :func:`expectiminimax`; ``moves``
    holds the value of the best root move only, as a search that prunes does not know the others.
    """
    try:
        return _star_minimax(state, depth, lower, upper, star, evaluator, node_limit)
    except RecursionError:
        raise BudgetError(_TOO_DEEP) from None


def _star_minimax(
    state: State[M],
    depth: int | None,
    lower: float | None,
    upper: float | None,
    star: int,
    evaluator: Evaluator | None,
    node_limit: int | None,
) -> SearchResult[M]:
    if star not in (1, 2):
        raise BudgetError(f"star must be 1 or 2, got {star}")
    bounds = value_bounds(state)
    if lower is None or upper is None:
        if bounds is None:
            raise BudgetError(
                f"*-minimax needs bounds on the values, and {type(state).__name__} declares none"
            )
        lower = bounds[0] if lower is None else lower
        upper = bounds[1] if upper is None else upper
    if not (math.isfinite(lower) and math.isfinite(upper) and lower < upper):
        raise BudgetError(f"value bounds must be finite with lower < upper, got {lower}, {upper}")
    evaluate = _checked(state, depth, evaluator, node_limit)
    counter = _Counter(node_limit)
    started = time.perf_counter()
    search = _Star(lower, upper, evaluate, counter, probe=star == 2)
    best_move: M | None = None
    if not state.is_terminal() and depth != 0 and not is_chance(state):
        counter.visit()
        below = None if depth is None else depth - 1
        value = -_INF
        # The root's moves in their own order; ties go to the lowest move, as in the reference,
        # by searching a move that sorts lower with the window just wide enough to tie.
        for move in state.legal_moves():
            child = state.play(move)
            if best_move is None:
                v = search.seen_from(state, child, -_INF, _INF, below)
            elif move < best_move:
                v = search.seen_from(state, child, math.nextafter(value, -_INF), _INF, below)
                if v < value:
                    continue
            else:
                v = search.seen_from(state, child, value, _INF, below)
                if v <= value:
                    continue
            if best_move is None or v > value or move < best_move:
                value, best_move = v, move
        assert best_move is not None
        moves: tuple[MoveValue[M], ...] = (MoveValue(best_move, value, False, (best_move,)),)
    else:
        value = search.search(state, -_INF, _INF, depth)
        moves = ()
    stats = SearchStats(
        nodes=counter.nodes, cutoffs=search.cutoffs, elapsed=time.perf_counter() - started
    )
    return _result(best_move, value, depth, not search.heuristic, moves, stats)


@dataclass(frozen=True, slots=True)
class ChanceLine:
    """One move or outcome of an analysis: ``move`` in the game's notation, its ``value`` (the
    expected payoff for the side to move at the analysed position, whether it chooses the move
    or the dice choose the outcome), and the outcome's ``probability`` (``None`` for a move
    someone chooses)."""

    move: str
    value: float
    probability: float | None = None


@dataclass(frozen=True, slots=True)
class ChanceAnalysis:
    """Every move of a position valued by expectiminimax to ``depth``: at a decision node each
    move (best first) and the ``best`` one; at a chance node (``chance``) each outcome with its
    probability, in the game's order, and ``value`` their weighted mean. ``to_move`` is the side
    the values are for; ``exact`` is false when an evaluation decided some leaf."""

    to_move: Player
    chance: bool
    value: float
    lines: tuple[ChanceLine, ...]
    best: str | None
    depth: int
    exact: bool
    nodes: int


def chance_analysis(
    state: AnyState,
    depth: int,
    *,
    evaluator: Evaluator | None = None,
    node_limit: int | None = None,
) -> ChanceAnalysis:
    """Each move's expected value (or, at a chance node, each outcome's probability and value)
    to ``depth`` edges below ``state``: by Star2 where the game declares bounds on its values,
    else by the reference. ``node_limit`` bounds the whole analysis."""
    try:
        return _chance_analysis(state, depth, evaluator, node_limit)
    except RecursionError:
        raise BudgetError(_TOO_DEEP) from None


def _chance_analysis(
    state: AnyState, depth: int, evaluator: Evaluator | None, node_limit: int | None
) -> ChanceAnalysis:
    if depth < 1:
        raise BudgetError(f"depth must be at least 1, got {depth}")
    evaluate = _checked(state, depth, evaluator, node_limit)
    counter = _Counter(node_limit)
    bounds = value_bounds(state)
    counter.visit()
    heuristic = False

    def child_value(child: AnyState) -> float:
        nonlocal heuristic
        if bounds is not None:
            search = _Star(bounds[0], bounds[1], evaluate, counter, probe=True)
            v = search.search(child, -_INF, _INF, depth - 1)
            heuristic = heuristic or search.heuristic
        else:
            left = node_limit - counter.nodes if node_limit is not None else None
            if left is not None and left < 1:
                raise BudgetError(f"the search needs more than {node_limit} nodes")
            result = expectiminimax(child, depth - 1, evaluator=evaluate, node_limit=left)
            counter.nodes += result.stats.nodes
            heuristic = heuristic or not result.exact
            v = result.value
        return v if same_side(state, child) else -v

    lines: list[ChanceLine] = []
    if state.is_terminal():
        return ChanceAnalysis(
            state.to_move, False, terminal_value(state), (), None, depth, True, counter.nodes
        )
    if is_chance(state):
        mean = 0.0
        for outcome, probability in _outcomes(state):
            v = child_value(state.play(outcome))
            mean += probability * v
            lines.append(ChanceLine(state.format_move(outcome), v, probability))
        return ChanceAnalysis(
            state.to_move, True, mean, tuple(lines), None, depth, not heuristic, counter.nodes
        )
    valued = [(move, child_value(state.play(move))) for move in state.legal_moves()]
    valued.sort(key=lambda pair: -pair[1])
    lines = [ChanceLine(state.format_move(move), v) for move, v in valued]
    return ChanceAnalysis(
        state.to_move,
        False,
        valued[0][1],
        tuple(lines),
        lines[0].move,
        depth,
        not heuristic,
        counter.nodes,
    )
