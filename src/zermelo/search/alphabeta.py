"""Negamax alpha-beta with a transposition table, move ordering and iterative deepening.

The contract of :meth:`_Search.negamax` (fail-soft): for a node with true value ``v`` searched
with the window ``(alpha, beta)`` it returns ``s`` such that

* ``s <= alpha`` means ``v <= s`` (it failed low: an upper bound),
* ``s >= beta`` means ``v >= s`` (it failed high: a lower bound),
* otherwise ``s == v``.

Scores are from the side to move and root-relative: a win found ``p`` plies below the root is
``WIN - p`` (see :mod:`zermelo.core.scores`). The table stores them node-relative.

Optional capabilities of the state's class (protocols of :mod:`zermelo.core.state`, looked up
once per search by :mod:`zermelo.search.moves`): ``winning_move()`` (:class:`WinsAtOnce`: a move
that wins on the spot, or None) lets a node stop at once; ``non_losing_moves()``
(:class:`AvoidsLosses`) leaves out the moves that lose on the spot; and the moves searched, in
the tree and at the root, are those of :func:`zermelo.search.moves.search_moves` (a state's
``search_moves()``, such as the points near the stones on a big board, else its legal moves). A
value read over ``search_moves()`` is exact for that narrower game.

Move ordering: the table's move first, then (in heuristic searches) the killer moves of the ply, then
the rest in the game's own order, stably sorted by the history heuristic.

Iterative deepening runs depth 1, 2, ... until the requested depth, until an iteration reads the
whole tree (its value is then exact and deeper iterations would change nothing), or until the time or
node budget runs out. Then the last completed iteration's answer is returned; the first iteration is
always completed so that there is always a move.

Among moves of equal value the lowest is chosen, unless a ``random.Random`` is given, in which case
one of the equal moves is drawn from it.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Protocol, TypeVar, cast

from zermelo.core.errors import BudgetError, CapabilityError
from zermelo.core.result import MoveValue, SearchResult, SearchStats, parent_score
from zermelo.core.scores import EVAL_LIMIT, MAX_PLY, WIN
from zermelo.core.state import AnyState, Chance, Evaluates, SortableMove, State, is_chance
from zermelo.search.moves import MovesRule, moves_rule, non_losing_rule, winning_move_rule
from zermelo.search.table import EXACT_DEPTH, LOWER, UPPER, VALUE, TranspositionTable

__all__ = [
    "OWN_EVALUATION",
    "Evaluator",
    "alphabeta",
    "analyze",
    "analyze_position",
    "refuse_chance",
]

Evaluator = Callable[[AnyState], float]
"""``evaluate(state)``: a heuristic value from the side to move, strictly inside ``±EVAL_LIMIT``.
It takes a state of any game, as the searches are generic (a game's own evaluator narrows the
state it is given with ``isinstance``)."""

M = TypeVar("M", bound=SortableMove)
M_co = TypeVar("M_co", bound=SortableMove, covariant=True)

INF = float(2 * WIN)
_UNLIMITED = EXACT_DEPTH - 1
_CHECK_EVERY = 1024
_CHECK_FIRST = 16
_CHECK_SECONDS = 0.001
"""Under a deadline the clock is read about this often: the nodes between two readings follow
the game's speed (from :data:`_CHECK_FIRST` to :data:`_CHECK_EVERY`), so that a game whose moves
cost a millisecond each holds its budget as well as one that searches a million nodes a second."""


class _Stored(Protocol[M_co]):
    """A table entry read by a search of one game (an :class:`Entry` whose move is an ``M``)."""

    @property
    def depth(self) -> int: ...
    @property
    def bound(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def move(self) -> M_co | None: ...


class _OutOfBudget(Exception):
    """Raised inside the search when the time or node budget is spent."""


def _own_evaluation(state: Evaluates) -> float:
    return float(state.evaluate())


OWN_EVALUATION = cast(Evaluator, _own_evaluation)
"""The state's own ``evaluate()``, as an :class:`Evaluator`: for states that are
:class:`~zermelo.core.state.Evaluates` (the searches check the root's class before they use it;
the cast saves a call at every leaf)."""


def _no_evaluation(state: AnyState) -> float:
    return 0.0


def _to_table(score: float, ply: int) -> float:
    if score > EVAL_LIMIT:
        return score + ply
    if score < -EVAL_LIMIT:
        return score - ply
    return score


def _from_table(score: float, ply: int) -> float:
    if score > EVAL_LIMIT:
        return score - ply
    if score < -EVAL_LIMIT:
        return score + ply
    return score


class _Search(Generic[M]):
    """One search: its budget, counters and the tables it owns for its duration."""

    def __init__(
        self,
        table: TranspositionTable,
        evaluate: Evaluator,
        deadline: float | None,
        node_limit: int | None,
        use_history: bool,
        winning_move: Callable[[State[M]], M | None] | None,
        non_losing_moves: Callable[[State[M]], Sequence[M]] | None,
        moves_of: MovesRule[M],
    ) -> None:
        self.table = table
        # The table holds the moves of this search's game: read them as M.
        self.table_get = cast(Callable[[Hashable], _Stored[M] | None], table.fast_get())
        self.evaluate = evaluate
        self.deadline = deadline
        self.node_limit = node_limit
        self.use_history = use_history
        self.winning_move = winning_move
        self.non_losing_moves = non_losing_moves
        self.moves_of = moves_of
        self.stats = SearchStats()
        self.heuristic_leaves = 0
        self.abortable = False
        self.check_every = _CHECK_EVERY if deadline is None else _CHECK_FIRST
        self.next_check = (
            self.check_every if node_limit is None else min(self.check_every, node_limit)
        )
        self.checked_at = time.perf_counter()
        self.checked_nodes = 0
        self.killers: dict[int, list[M]] = {}
        self.history: dict[tuple[int, M], int] = {}

    def _check_budget(self) -> None:
        nodes = self.stats.nodes
        now = 0.0
        if self.deadline is not None:
            now = time.perf_counter()
            spent, done = now - self.checked_at, nodes - self.checked_nodes
            if done > 0:
                rate = done * _CHECK_SECONDS / spent if spent > 0 else _CHECK_EVERY
                self.check_every = int(min(max(rate, _CHECK_FIRST), _CHECK_EVERY))
            self.checked_at, self.checked_nodes = now, nodes
        self.next_check = nodes + self.check_every
        if self.node_limit is not None:
            self.next_check = min(self.next_check, self.node_limit)
        if not self.abortable:
            return
        if self.node_limit is not None and nodes >= self.node_limit:
            raise _OutOfBudget
        if self.deadline is not None and now >= self.deadline:
            raise _OutOfBudget

    def _ordered(self, node: State[M], moves: Sequence[M], first: M | None, ply: int) -> list[M]:
        if self.use_history:
            side = int(node.to_move)
            history = self.history
            ordered = sorted(moves, key=lambda m: -history.get((side, m), 0))
            front = [m for m in self.killers.get(ply, ()) if m != first and m in moves]
            if front:
                ordered = front + [m for m in ordered if m not in front]
        else:
            ordered = list(moves)
        if first is not None and first in moves:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def _reward(self, node: State[M], move: M, depth: int, ply: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        key = (int(node.to_move), move)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def negamax(self, node: State[M], depth: int, ply: int, alpha: float, beta: float) -> float:
        stats = self.stats
        stats.nodes += 1
        if stats.nodes >= self.next_check:
            self._check_budget()
        if node.is_terminal():
            winner = node.winner
            if winner is None:
                return 0.0
            return WIN - ply if winner == node.to_move else ply - WIN
        # Mate-distance pruning: nothing here beats a win on the next move or loses faster than
        # right now. (Plain comparisons: this is the hottest code in the package.)
        alpha = max(alpha, ply - WIN)
        if beta > WIN - ply - 1:
            beta = WIN - ply - 1
            if alpha >= beta:
                return alpha
        key = node.key()
        entry = self.table_get(key)
        first: M | None = None
        if entry is not None:
            first = entry.move
            if entry.depth >= depth:
                score = _from_table(entry.score, ply)
                bound = entry.bound
                if (
                    bound == VALUE
                    or (bound == LOWER and score >= beta)
                    or (bound == UPPER and score <= alpha)
                ):
                    stats.table_hits += 1
                    if entry.depth != EXACT_DEPTH:
                        self.heuristic_leaves += 1
                    return score
                if bound == LOWER:
                    alpha = max(alpha, score)
                elif score < beta:
                    beta = score
        if depth <= 0:
            self.heuristic_leaves += 1
            return self.evaluate(node)
        if self.winning_move is not None and self.winning_move(node) is not None:
            return WIN - ply - 1
        moves: Sequence[M]
        if self.non_losing_moves is not None:
            moves = self.non_losing_moves(node)
            if not moves:
                # Every move lets the opponent win on its next move.
                return ply + 2 - WIN
        else:
            moves = self.moves_of(node)
        leaves_before = self.heuristic_leaves
        best = -INF
        best_move: M | None = None
        if self.use_history:
            moves = self._ordered(node, moves, first, ply)
        elif first is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        for move in moves:
            score = -self.negamax(
                node.play(move), depth - 1, ply + 1, -beta, -(alpha if alpha > best else best)
            )
            if score > best:
                best = score
                best_move = move
                if score >= beta:
                    stats.cutoffs += 1
                    if self.use_history:
                        self._reward(node, move, depth, ply)
                    break
        if best >= beta:
            bound = LOWER
        elif best <= alpha:
            bound = UPPER
        else:
            bound = VALUE
        stored_depth = EXACT_DEPTH if self.heuristic_leaves == leaves_before else depth
        self.table.store(key, stored_depth, bound, _to_table(best, ply), best_move)
        return best

    def root(
        self, state: State[M], depth: int, moves: list[M], rng: random.Random | None
    ) -> tuple[M, float, bool]:
        """One iteration at the root: best move, its value, and whether it is exact."""
        leaves_before = self.heuristic_leaves
        best = -INF
        ties: list[M] = []
        for move in moves:
            child = state.play(move)
            # A move that could win a tie (a lower one, or any when drawing among equals) is
            # searched with a window just below the best so far, which tells equal from worse.
            tie_window = best > -INF and (rng is not None or move < ties[0])
            floor = math.nextafter(best, -INF) if tie_window else best
            score = -self.negamax(child, depth - 1, 1, -INF, -floor)
            if score > best:
                best, ties = score, [move]
            elif score == best and tie_window:
                if rng is None:
                    ties[0] = move
                else:
                    ties.append(move)
        chosen = rng.choice(sorted(ties)) if rng is not None else min(ties)
        exact = self.heuristic_leaves == leaves_before or abs(best) > EVAL_LIMIT
        stored_depth = EXACT_DEPTH if self.heuristic_leaves == leaves_before else depth
        self.table.store(state.key(), stored_depth, VALUE, best, chosen)
        return chosen, best, exact


def _child_target(value: float) -> float:
    """The value a child must have (from its side) for the move to it to keep ``value``."""
    if value > EVAL_LIMIT:
        return -value - 1
    if value < -EVAL_LIMIT:
        return 1 - value
    return -value


def _principal_variation(
    state: State[M],
    first: M,
    value: float,
    table: TranspositionTable,
    limit: int,
    exact: bool,
) -> tuple[M, ...]:
    """Follow moves that provably keep the value, starting with ``first``.

    A table move is only a hint (keys may be shared by symmetric positions), so each step is
    confirmed: the child's stored value or upper bound must be no better for the child than the
    value the line needs. The line stops where the table cannot confirm a move.
    """
    line = [first]
    node = state.play(first)
    value = _child_target(value)
    kind = type(state)
    winning_move = winning_move_rule(kind)
    non_losing_moves = non_losing_rule(kind)
    moves_of = moves_rule(kind)
    while len(line) < limit and not node.is_terminal():
        # The search's shortcuts store nothing, so read them again here.
        win = winning_move(node) if winning_move is not None else None
        if win is not None and value == WIN - 1:
            line.append(win)
            break
        forced = non_losing_moves(node) if non_losing_moves is not None else None
        if forced is not None and len(forced) <= 1:
            # One move left that does not lose at once; or none, and then any move will do.
            move = forced[0] if forced else min(node.legal_moves())
            line.append(move)
            node = node.play(move)
            value = _child_target(value)
            continue
        entry = table.get(node.key())
        hint = cast("M | None", entry.move) if entry is not None else None
        moves = list(node.legal_moves())
        if hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        target = _child_target(value)
        for move in moves:
            child = node.play(move)
            if child.is_terminal():
                winner = child.winner
                child_value = 0.0 if winner is None else (WIN if winner == child.to_move else -WIN)
                if child_value <= target:
                    break
                continue
            child_entry = table.get(child.key())
            if (
                child_entry is not None
                and child_entry.bound != LOWER
                and child_entry.score <= target
            ):
                break
        else:
            if not exact:
                break
            search = _Search(
                table, _no_evaluation, None, None, False, winning_move, non_losing_moves, moves_of
            )
            move, _, _ = search.root(node, _UNLIMITED, list(moves_of(node)), None)
            child = node.play(move)
        line.append(move)
        node = child
        value = target
    return tuple(line)


def refuse_chance(state: AnyState, search: str) -> None:
    """Refuse, in one line, to search a game with chance nodes by minimax or alpha-beta: they
    would take the dice for a player's choice and answer a wrong value. Such a game is searched
    by :mod:`zermelo.search.expectimax` (or sampled by MCTS).

    Only a state whose class offers :class:`~zermelo.core.state.Chance` is looked at (so the
    games without chance pay one class check per search), and it is refused when it or one of its
    children is a chance node: a class that wraps many games (OpenSpiel's) may offer the protocol
    for games that have no chance at all."""
    if issubclass(type(state), Chance) and (
        is_chance(state) or any(is_chance(state.play(move)) for move in state.legal_moves())
    ):
        raise CapabilityError(
            f"{search} cannot search {type(state).__name__}: it has chance nodes (dice, a deal) "
            "that no player chooses; use expectiminimax (zermelo.search.expectimax) or MCTS"
        )


def _resolve_budget(
    state: AnyState,
    depth: int | None,
    time_limit: float | None,
    node_limit: int | None,
    evaluator: Evaluator | None,
) -> Evaluator:
    refuse_chance(state, "alpha-beta")
    if depth is not None and depth < 1:
        raise BudgetError(f"depth must be at least 1 ply, got {depth}")
    if time_limit is not None and not time_limit > 0:
        raise BudgetError(f"time limit must be a positive number of seconds, got {time_limit}")
    if node_limit is not None and node_limit < 1:
        raise BudgetError(f"node limit must be at least 1, got {node_limit}")
    if evaluator is not None:
        return evaluator
    if issubclass(type(state), Evaluates):
        return OWN_EVALUATION
    if depth is not None:
        raise BudgetError(
            f"a depth limit needs an evaluation function, and {type(state).__name__} has none"
        )
    # Without an evaluation a cut-off node is simply "unknown" (0); only budgets cut.
    return _no_evaluation


def alphabeta(
    state: State[M],
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table: TranspositionTable | None = None,
    evaluator: Evaluator | None = None,
    rng: random.Random | None = None,
    history: bool | None = None,
    iterate: bool | None = None,
    shortcuts: bool = True,
) -> SearchResult[M]:
    """Search ``state`` and return its best move and value.

    ``depth`` limits the search to that many plies, scoring the cut-off states with ``evaluator``
    (default: ``state.evaluate``). With no depth the search reads to the end of the game when it can.
    ``time_limit`` (seconds) and ``node_limit`` bound the work: iterative deepening then returns the
    last completed iteration. ``table`` can be shared between searches. ``history`` turns the killer
    and history move-ordering heuristics on or off (default: on for heuristic searches).

    Two switches take the search apart, for measuring what each part saves (the defaults are the
    engine as it plays): ``iterate=False`` searches ``depth`` in one pass, with no iterative
    deepening (and then a ``node_limit`` that runs out raises :class:`BudgetError` instead of
    returning a shallower answer); ``shortcuts=False`` ignores the state's ``winning_move()`` and
    ``non_losing_moves()``, so that every node is searched move by move.
    """
    evaluate = _resolve_budget(state, depth, time_limit, node_limit, evaluator)
    started = time.perf_counter()
    if table is None:
        table = TranspositionTable()
    table.new_search()
    budgeted = time_limit is not None or node_limit is not None
    if iterate is None:
        iterate = budgeted or depth is not None
    kind = type(state)
    search = _Search(
        table,
        evaluate,
        None if time_limit is None else started + time_limit,
        node_limit,
        use_history=iterate if history is None else history,
        winning_move=winning_move_rule(kind) if shortcuts else None,
        non_losing_moves=non_losing_rule(kind) if shortcuts else None,
        moves_of=moves_rule(kind),
    )
    # One pass under a budget: the pass itself must stop when the budget is spent.
    search.abortable = budgeted and not iterate
    if state.is_terminal():
        search.stats.nodes = 1
        value = search.negamax(state, 0, 0, -INF, INF)
        search.stats.elapsed = time.perf_counter() - started
        return SearchResult(None, value, (), 0, True, search.stats)

    max_depth = depth if depth is not None else _UNLIMITED
    moves = list(search.moves_of(state))
    result: tuple[M, float, bool, int] | None = None
    current = 1 if iterate else max_depth
    while True:
        if result is not None:
            moves.remove(result[0])
            moves.insert(0, result[0])
        try:
            move, value, exact = search.root(state, current, moves, rng)
        except _OutOfBudget:
            if result is None:
                raise BudgetError(
                    f"the budget ran out before the {current}-ply search completed"
                ) from None
            break
        result = (move, value, exact, current)
        search.abortable = budgeted
        if exact or current >= max_depth:
            break
        current += 1
    assert result is not None
    move, value, exact, reached = result
    pv = _principal_variation(
        state, move, value, table, reached if reached < _UNLIMITED else MAX_PLY, exact
    )
    if reached >= _UNLIMITED:
        reached = len(pv)
    search.stats.elapsed = time.perf_counter() - started
    return SearchResult(move, value + 0.0, pv, reached, exact, search.stats)


def analyze(
    state: State[M],
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table: TranspositionTable | None = None,
    evaluator: Evaluator | None = None,
) -> list[MoveValue[M]]:
    """The value of every legal move of ``state`` (every move of ``search_moves()`` where the
    state offers it) for the side to move, best first.

    Each move is searched on its own with a full window; the budget applies to each move. Ties keep
    the lowest move first.
    """
    return list(
        analyze_position(
            state,
            depth=depth,
            time_limit=time_limit,
            node_limit=node_limit,
            table=table,
            evaluator=evaluator,
        ).moves
    )


def analyze_position(
    state: State[M],
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    table: TranspositionTable | None = None,
    evaluator: Evaluator | None = None,
    on_depth: Callable[[SearchResult[M]], None] | None = None,
) -> SearchResult[M]:
    """Every legal move valued as :func:`analyze` does, as one :class:`SearchResult`: the best
    move (ties to the lowest), its value and line, the deepest depth reached, exact when the best
    move's value is, the statistics of all the searches together, and ``moves``, best first.

    ``time_limit`` and ``node_limit`` are the whole answer's budget, shared by all the moves. With
    an evaluation, the moves are deepened together: every move at depth 1, then every move at
    depth 2, and so on, and the answer is the last depth that every move completed (depth 1
    always completes); ``on_depth`` is called with the answer of each completed depth. A game
    without an evaluation gives each move an equal share of what is left of the budget.
    """
    evaluate = _resolve_budget(state, depth, time_limit, node_limit, evaluator)
    if table is None:
        table = TranspositionTable()
    started = time.perf_counter()
    moves = list(moves_rule(type(state))(state))
    if not moves:
        terminal = alphabeta(state, table=table)
        stats = SearchStats(1, elapsed=time.perf_counter() - started)
        return SearchResult(None, terminal.value, (), 0, terminal.exact, stats)
    budgeted = time_limit is not None or node_limit is not None
    if budgeted and (evaluator is not None or issubclass(type(state), Evaluates)):
        return _deepen_together(
            state, moves, depth, time_limit, node_limit, table, evaluate, evaluator, on_depth
        )
    deadline = None if time_limit is None else started + time_limit
    stats = SearchStats()
    values: list[MoveValue[M]] = []
    reached = 0
    for index, move in enumerate(moves):
        child = state.play(move)
        share_time = share_nodes = None
        if deadline is not None:
            share_time = max(1e-3, (deadline - time.perf_counter()) / (len(moves) - index))
        if node_limit is not None:
            share_nodes = max(1, (node_limit - stats.nodes) // (len(moves) - index))
        child_result = _child_search(
            child, depth, share_time, share_nodes, table, evaluate, evaluator
        )
        _add(stats, child_result.stats)
        reached = max(reached, child_result.depth + 1)
        values.append(_valued(move, child_result))
    result = _answer(values, reached, stats, started)
    if on_depth is not None:
        on_depth(result)
    return result


def _child_search(
    child: State[M],
    depth: int | None,
    time_limit: float | None,
    node_limit: int | None,
    table: TranspositionTable,
    evaluate: Evaluator,
    evaluator: Evaluator | None,
) -> SearchResult[M]:
    """The search of one move's child for a root ``depth`` plies deep: read to the end when the
    game is over there, scored where it stands when the move is the whole horizon (``depth``
    1), else searched ``depth - 1`` plies within the budget."""
    if child.is_terminal():
        return alphabeta(child, table=table)
    if depth == 1:
        return SearchResult(None, evaluate(child), (), 0, False, SearchStats(1))
    return alphabeta(
        child,
        depth=None if depth is None else depth - 1,
        time_limit=time_limit,
        node_limit=node_limit,
        table=table,
        evaluator=evaluator,
    )


def _add(total: SearchStats, part: SearchStats) -> None:
    total.nodes += part.nodes
    total.cutoffs += part.cutoffs
    total.table_hits += part.table_hits


def _valued(move: M, child: SearchResult[M]) -> MoveValue[M]:
    """The move's value for the side that plays it, from its child's search."""
    return MoveValue(move, parent_score(child.value) + 0.0, child.exact, (move, *child.pv))


def _answer(
    values: list[MoveValue[M]], reached: int, stats: SearchStats, started: float
) -> SearchResult[M]:
    ordered = sorted(values, key=lambda mv: (-mv.value, mv.move))
    done = dataclasses.replace(stats, nodes=stats.nodes + 1)
    done.elapsed = time.perf_counter() - started
    best = ordered[0]
    return SearchResult(best.move, best.value, best.pv, reached, best.exact, done, tuple(ordered))


def _deepen_together(
    state: State[M],
    moves: list[M],
    depth: int | None,
    time_limit: float | None,
    node_limit: int | None,
    table: TranspositionTable,
    evaluate: Evaluator,
    evaluator: Evaluator | None,
    on_depth: Callable[[SearchResult[M]], None] | None,
) -> SearchResult[M]:
    """:func:`analyze_position` under a budget, for a game with an evaluation: iterative
    deepening over all the moves together, keeping the last depth every move completed."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    stats = SearchStats()
    done: dict[M, SearchResult[M]] = {}
    answer: SearchResult[M] | None = None
    limit = depth if depth is not None else MAX_PLY
    current = 1
    while current <= limit:
        found: dict[M, SearchResult[M]] = {}
        complete = True
        for move in moves:
            previous = done.get(move)
            if previous is not None and previous.exact:
                found[move] = previous
                continue
            over_time = deadline is not None and time.perf_counter() >= deadline
            over_nodes = node_limit is not None and stats.nodes >= node_limit
            if current > 1 and (over_time or over_nodes):
                complete = False
                break
            child = state.play(move)
            child_result = _child_search(
                child,
                current,
                None if deadline is None else max(1e-3, deadline - time.perf_counter()),
                None if node_limit is None else max(1, node_limit - stats.nodes),
                table,
                evaluate,
                evaluator,
            )
            _add(stats, child_result.stats)
            if current > 1 and not child_result.exact and child_result.depth < current - 1:
                complete = False
                break
            found[move] = child_result
        if not complete:
            break
        done = found
        values = [_valued(move, done[move]) for move in moves]
        answer = _answer(values, current, stats, started)
        if on_depth is not None:
            on_depth(answer)
        if all(result.exact for result in done.values()):
            break
        current += 1
    assert answer is not None  # depth 1 always completes
    final = dataclasses.replace(answer, stats=dataclasses.replace(stats, nodes=stats.nodes + 1))
    final.stats.elapsed = time.perf_counter() - started
    return final
