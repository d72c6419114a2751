"""Monte Carlo tree search (UCT) over the State protocol.

One iteration walks down the tree from the root, at each fully expanded node taking the child with
the highest upper confidence bound

    mean reward of the child + c * sqrt(ln(visits of the node) / visits of the child),

expands one untried move of the node it stops at, estimates the new node by a playout, and adds the
reward to every node on the path. Rewards are in [0, 1]: 1 a win, 0.5 a draw, 0 a loss, each node
holding them from the side of the player who made the move into it (the side that chooses it).

Playouts follow a pluggable policy (uniformly random by default; :func:`epsilon_greedy` uses the
state's ``evaluate()``). With ``cutoff`` a playout stops after that many plies and the position is
scored by the evaluation, squashed into a win probability by a logistic curve of scale
``eval_scale``. With ``decisive`` (the default), a state that offers ``winning_move()`` plays its
immediate win both in the tree (a node that can win has only that move) and in playouts.

Moves: the tree and the playouts consider the moves of :func:`zermelo.search.moves.search_moves`,
the rule alpha-beta follows too: a state's ``search_moves()`` where it offers them (big boards:
the empty points near stones), otherwise ``legal_moves()``.

Proven values (in the manner of MCTS-Solver): a terminal node is proven; a node is proven lost for
the player who moved into it as soon as one child is proven won for the side to move, and proven
once every move from it is proven. The search never walks into a child proven lost for the side
choosing it, treats a proven node like a terminal one, and stops as soon as the root is proven.

Chance nodes (dice: :class:`~zermelo.core.state.Chance`). In a game with chance nodes the
search draws each chance node's outcome with the search's own ``random.Random``, by the outcomes'
probabilities, in the tree and in the playouts: a chance node's value is then the mean of the
children it sampled, which tends to the expectation. Turns need not alternate there (a Pig player
rolls again), so each node's reward is kept from the side of the player who chose the move into
it (its parent's side to move), whoever that is. Only terminal nodes are proven in such a game: a
win one move away is taken, but proofs do not climb through the dice. Games without chance
nodes are searched exactly as before.

The move chosen is a proven win if there is one, else the most visited root move not proven lost
(ties: the higher mean reward, then the game's move order). All randomness comes from the
``random.Random`` given to the search. :class:`Mcts` keeps its tree between searches, so that the
subtree of the position reached two plies later is reused.

A search returns a :class:`~zermelo.core.result.SearchResult` like every other search. An
unproven value is ``2 * mean reward - 1``: an estimate in [-1, 1], 0 for even chances, which
changes sign with the side as negamax values do, so front ends and ``parent_score`` treat it like
any evaluation; :func:`win_rate` reads it back. A proven value is exact: a draw's 0, or ``WIN -
plies`` with ``plies`` the length of the forced line the tree proved. The root moves come with
their visits, most visited first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar, cast

from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidOptionError
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.scores import WIN
from zermelo.core.state import (
    AnyState,
    Chance,
    Evaluates,
    Player,
    State,
    is_chance,
    sample_outcome,
)
from zermelo.search.moves import moves_rule, search_moves, winning_move_rule

__all__ = [
    "DEFAULT_EXPLORATION",
    "Mcts",
    "PlayoutPolicy",
    "epsilon_greedy",
    "mcts",
    "random_playout",
    "search_moves",
    "win_rate",
]

DEFAULT_EXPLORATION = math.sqrt(2.0)
"""The UCT constant c of Kocsis and Szepesvári for rewards in [0, 1]."""

M = TypeVar("M", bound=Hashable)

PlayoutPolicy = Callable[[AnyState, Sequence[Hashable], random.Random], Hashable]
"""``policy(state, moves, rng) -> move``: the move a playout makes among ``moves`` of ``state``
(a state of any game; the move is one of ``moves``)."""


def random_playout(state: AnyState, moves: Sequence[Hashable], rng: random.Random) -> Hashable:
    """A uniformly random move."""
    return moves[int(rng.random() * len(moves))]


def epsilon_greedy(epsilon: float = 0.25) -> PlayoutPolicy:
    """A policy that plays a random move with probability ``epsilon`` and otherwise the move whose
    resulting position the state's ``evaluate()`` likes least for the opponent."""
    if not 0.0 <= epsilon <= 1.0:
        raise InvalidOptionError(f"epsilon must be between 0 and 1, got {epsilon}")

    def policy(state: AnyState, moves: Sequence[Hashable], rng: random.Random) -> Hashable:
        if rng.random() < epsilon:
            return moves[int(rng.random() * len(moves))]
        best = moves[0]
        best_value = math.inf
        for move in moves:
            child = state.play(move)
            value = -1e18 if child.is_terminal() else cast(Evaluates, child).evaluate()
            if value < best_value:
                best, best_value = move, value
        return best

    return policy


class _Node:
    """A tree node. ``reward`` sums the rewards of the player who moved into this node;
    ``proven`` is that player's game-theoretic reward once the subtree proves it (1, 0.5 or 0)."""

    __slots__ = ("children", "move", "plies", "proven", "reward", "state", "untried", "visits")

    def __init__(self, state: AnyState, move: Hashable, decisive: bool) -> None:
        self.state = state
        self.move = move
        self.visits = 0
        self.reward = 0.0
        self.children: list[_Node] = []
        self.plies = -1
        if state.is_terminal():
            winner = state.winner
            # Only the player who just moved can have won.
            self.proven: float | None = 0.5 if winner is None else 1.0
            self.untried: list[Hashable] = []
            return
        self.proven = None
        # Looked up for each node's own class: a game's play() may return another class.
        finder = winning_move_rule(type(state)) if decisive else None
        win = finder(state) if finder is not None else None
        if win is not None:
            self.untried = [win]
        else:
            # Reversed, so that pop() expands the game's preferred moves first.
            self.untried = list(search_moves(state))[::-1]


class Mcts:
    """A UCT searcher that keeps its tree between calls to :meth:`search`.

    ``playout`` is the playout policy (default: uniformly random), ``cutoff`` the playout length
    after which the evaluation scores the position (``None``: play to the end), ``eval_scale`` the
    evaluation difference that makes odds of e to 1, ``exploration`` the UCT constant, ``decisive``
    whether immediate wins are always taken, ``reuse`` whether the tree is kept between searches.
    """

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        playout: PlayoutPolicy | None = None,
        cutoff: int | None = None,
        eval_scale: float = 1.0,
        decisive: bool = True,
        reuse: bool = True,
    ) -> None:
        if exploration < 0:
            raise InvalidOptionError(f"exploration constant must be 0 or more, got {exploration}")
        if cutoff is not None and cutoff < 0:
            raise InvalidOptionError(f"playout cut-off must be 0 plies or more, got {cutoff}")
        if not eval_scale > 0:
            raise InvalidOptionError(f"evaluation scale must be positive, got {eval_scale}")
        self.rng = rng if rng is not None else random.Random(0)
        self.exploration = exploration
        self.playout_policy = playout if playout is not None else random_playout
        self.cutoff = cutoff
        self.eval_scale = eval_scale
        self.decisive = decisive
        self.reuse = reuse
        self._root: _Node | None = None

    # -- the tree -----------------------------------------------------------------------------

    def _root_for(self, state: AnyState) -> tuple[_Node, int]:
        """The node of ``state`` from the kept tree (up to two plies below the old root), or new."""
        old = self._root
        if self.reuse and old is not None:
            frontier = [old]
            for _ in range(3):
                for node in frontier:
                    if node.state == state:
                        return node, node.visits
                frontier = [child for node in frontier for child in node.children]
        return _Node(state, None, self.decisive), 0

    def _playout(self, state: AnyState, mover: Player) -> float:
        """Reward for ``mover`` of a playout from ``state``."""
        rng = self.rng
        policy = self.playout_policy
        kind = type(state)
        winning = winning_move_rule(kind) if self.decisive else None
        moves_of = moves_rule(kind)
        limit = -1 if self.cutoff is None else self.cutoff
        plies = 0
        while not state.is_terminal():
            if plies == limit:
                value = cast(Evaluates, state).evaluate() / self.eval_scale
                value = max(-50.0, min(50.0, value))
                chance = 1.0 / (1.0 + math.exp(-value))
                return chance if state.to_move == mover else 1.0 - chance
            if winning is not None and winning(state) is not None:
                # The side to move wins on the spot; no need to play it.
                return 1.0 if state.to_move == mover else 0.0
            state = state.play(policy(state, moves_of(state), rng))
            plies += 1
        winner = state.winner
        if winner is None:
            return 0.5
        return 1.0 if winner == mover else 0.0

    def search(
        self,
        state: State[M],
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        progress: Callable[[SearchResult[M]], None] | None = None,
        progress_every: int = 1000,
    ) -> SearchResult[M]:
        """Search ``state`` for ``iterations`` iterations or ``time_limit`` seconds, whichever ends
        first (at least one must be given), and return the move, its value and the root moves
        with their visits (see the module's notes for how the values read).

        ``progress`` is called with the result so far every ``progress_every`` iterations.
        """
        if iterations is None and time_limit is None:
            raise BudgetError("an MCTS search needs a budget: iterations or a time limit")
        if iterations is not None and iterations < 1:
            raise BudgetError(f"iterations must be at least 1, got {iterations}")
        if time_limit is not None and not time_limit > 0:
            raise BudgetError(f"time limit must be a positive number of seconds, got {time_limit}")
        if self.cutoff is not None and not issubclass(type(state), Evaluates):
            raise BudgetError(
                "a playout cut-off needs an evaluation function, "
                f"and {type(state).__name__} has none"
            )
        started = time.perf_counter()
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to search")
        root, reused = self._root_for(state)
        self._root = root
        deadline = None if time_limit is None else started + time_limit
        limit = iterations if iterations is not None else -1
        if issubclass(type(state), Chance):
            if is_chance(state):
                raise IllegalMoveError(
                    "the dice decide at a chance node; there is no move to search"
                )
            heard = cast(Callable[[SearchResult[Hashable]], None] | None, progress)
            result = self._search_chance(
                root, reused, started, deadline, limit, heard, progress_every
            )
            return cast(SearchResult[M], result)
        done = 0
        added = 0
        single = root.proven is None and len(root.untried) + len(root.children) == 1
        clock = time.perf_counter
        log = math.log
        sqrt = math.sqrt
        c = self.exploration
        playout = self._playout
        decisive = self.decisive
        while done != limit and root.proven is None and not (single and done > 0):
            if deadline is not None and done and clock() >= deadline:
                break
            node = root
            path = [root]
            # Selection: descend through fully expanded nodes whose value is not yet proven,
            # never into a child proven lost for the side that would choose it.
            while node.proven is None and not node.untried:
                scale = c * sqrt(log(node.visits))
                best = None
                best_score = -1.0
                for child in node.children:
                    if child.proven == 0.0:
                        continue
                    visits = child.visits
                    score = child.reward / visits + scale / sqrt(visits)
                    if score > best_score:
                        best, best_score = child, score
                assert best is not None, "a node with only lost children is proven"
                node = best
                path.append(node)
            # Expansion.
            if node.proven is None:
                move = node.untried.pop()
                child = _Node(node.state.play(move), move, decisive)
                node.children.append(child)
                node = child
                path.append(node)
                added += 1
            # Simulation: a proven node needs none.
            proven = node.proven
            if proven is not None:
                reward = proven
            else:
                reward = playout(node.state, node.state.to_move.opponent)
            # Backpropagation: alternate the point of view on the way up, and prove what the
            # children now prove: a node is lost for the player who moved into it as soon as one
            # child is won for the side to move, and valued once every child is proven.
            for index in range(len(path) - 1, -1, -1):
                visited = path[index]
                visited.visits += 1
                visited.reward += reward
                reward = 1.0 - reward
                if proven is not None and index < len(path) - 1 and visited.proven is None:
                    if proven == 1.0:
                        visited.proven = 0.0
                    elif not visited.untried:
                        values = [child.proven for child in visited.children]
                        if None not in values:
                            visited.proven = 1.0 - max(v for v in values if v is not None)
                    proven = visited.proven
            done += 1
            if progress is not None and done % progress_every == 0:
                stats = SearchStats(
                    added, elapsed=clock() - started, iterations=done, reused=reused
                )
                progress(cast(SearchResult[M], _result(root, stats)))
        stats = SearchStats(
            added, elapsed=time.perf_counter() - started, iterations=done, reused=reused
        )
        # The tree holds the moves of the searched state's game (M), kept as Hashable in nodes
        # that hold their states as states of any game.
        return cast(SearchResult[M], _result(root, stats))

    # -- games with chance nodes ----------------------------------------------------------------

    def _playout_chance(self, state: AnyState) -> float:
        """The first player's reward of a playout from ``state``, the dice drawn by the rng."""
        rng = self.rng
        policy = self.playout_policy
        moves_of = moves_rule(type(state))
        limit = -1 if self.cutoff is None else self.cutoff
        plies = 0
        while not state.is_terminal():
            if plies == limit:
                value = cast(Evaluates, state).evaluate() / self.eval_scale
                value = max(-50.0, min(50.0, value))
                chance = 1.0 / (1.0 + math.exp(-value))
                return chance if state.to_move is Player.FIRST else 1.0 - chance
            if is_chance(state):
                state = state.play(sample_outcome(state, rng))
            else:
                state = state.play(policy(state, moves_of(state), rng))
            plies += 1
        return _first_reward(state)

    def _child(self, node: _Node, move: Hashable) -> _Node:
        """A new child of ``node`` by ``move``; a terminal one proven from the chooser's side."""
        child = _Node(node.state.play(move), move, self.decisive)
        if child.state.is_terminal():
            first = _first_reward(child.state)
            child.proven = first if node.state.to_move is Player.FIRST else 1.0 - first
        node.children.append(child)
        return child

    def _search_chance(
        self,
        root: _Node,
        reused: int,
        started: float,
        deadline: float | None,
        limit: int,
        progress: Callable[[SearchResult[Hashable]], None] | None,
        progress_every: int,
    ) -> SearchResult[Hashable]:
        """The search loop of a game with chance nodes (see the module's notes)."""
        done = 0
        added = 0
        single = len(root.untried) + len(root.children) == 1
        clock = time.perf_counter
        c = self.exploration
        rng = self.rng
        while done != limit and not (single and done > 0):
            if deadline is not None and done and clock() >= deadline:
                break
            node = root
            path = [root]
            expanded = False
            while node.proven is None and not expanded:
                state = node.state
                if state.is_terminal():
                    break
                if is_chance(state):
                    outcome = sample_outcome(state, rng)
                    found = next((ch for ch in node.children if ch.move == outcome), None)
                    if found is None:
                        found = self._child(node, outcome)
                        node.untried = [m for m in node.untried if m != outcome]
                        added += 1
                        expanded = True
                    node = found
                elif node.untried:
                    node = self._child(node, node.untried.pop())
                    added += 1
                    expanded = True
                else:
                    scale = c * math.sqrt(math.log(node.visits))
                    node = max(
                        node.children,
                        key=lambda ch: ch.reward / ch.visits + scale / math.sqrt(ch.visits),
                    )
                path.append(node)
            if node.proven is not None:
                mover = path[-2].state.to_move if len(path) > 1 else node.state.to_move.opponent
                first = node.proven if mover is Player.FIRST else 1.0 - node.proven
            else:
                first = self._playout_chance(node.state)
            for index, visited in enumerate(path):
                mover = path[index - 1].state.to_move if index else root.state.to_move.opponent
                visited.visits += 1
                visited.reward += first if mover is Player.FIRST else 1.0 - first
            done += 1
            if progress is not None and done % progress_every == 0:
                stats = SearchStats(
                    added, elapsed=clock() - started, iterations=done, reused=reused
                )
                progress(_result(root, stats))
        stats = SearchStats(
            added, elapsed=time.perf_counter() - started, iterations=done, reused=reused
        )
        return _result(root, stats)


def _first_reward(state: AnyState) -> float:
    """The first player's reward in the terminal ``state``: 1 a win, 0.5 a draw, 0 a loss."""
    winner = state.winner
    if winner is None:
        return 0.5
    return 1.0 if winner is Player.FIRST else 0.0


def win_rate(entry: MoveValue[object] | SearchResult[object]) -> float:
    """The mean reward (1 a win, 0.5 a draw, 0 a loss) behind an MCTS value, from the side of
    the player it values: of the move for a :class:`MoveValue`, of the side to move for a
    :class:`SearchResult`. A proven value reads as 1, 0.5 or 0."""
    if entry.exact:
        return 0.5 if entry.value == 0 else float(entry.value > 0)
    return (entry.value + 1.0) / 2.0


def _proven_plies(node: _Node) -> int:
    """Plies of the forced line that proves ``node``'s value: the winner takes its shortest proved
    win, the loser its longest proved loss. Proven subtrees never change, so each node's count
    is kept."""
    stack = [node]
    while stack:
        top = stack[-1]
        if top.plies >= 0:
            stack.pop()
            continue
        if not top.children:  # a terminal node
            top.plies = 0
            stack.pop()
            continue
        if top.proven == 0.0:
            # The side to move here wins: through the children proven won for it.
            relevant = [child for child in top.children if child.proven == 1.0]
        else:
            relevant = top.children
        waiting = [child for child in relevant if child.plies < 0]
        if waiting:
            stack.extend(waiting)
            continue
        counts = [child.plies for child in relevant]
        top.plies = 1 + (min(counts) if top.proven == 0.0 else max(counts))
        stack.pop()
    return node.plies


def _value_of(node: _Node) -> tuple[float, bool]:
    """The value of the move into ``node`` for the player who made it, and whether it is exact."""
    if node.proven is None:
        return 2.0 * node.reward / node.visits - 1.0, False
    if node.proven == 0.5:
        return 0.0, True
    plies = WIN - 1 - _proven_plies(node)
    return (float(plies) if node.proven == 1.0 else -float(plies)), True


def _choose(node: _Node) -> _Node | None:
    """The child the search plays from ``node``: a proven win; else, when ``node`` is proven, a
    child that keeps its value; else the most visited child not proven lost; else the most
    visited (every move loses: the one the search looked at longest)."""
    tried = _tried(node)
    if not tried:
        return None
    best = next((c for c in tried if c.proven == 1.0), None)
    if best is None and node.proven is not None:
        best = next((c for c in tried if c.proven == 1.0 - node.proven), None)
    if best is None:
        best = next((c for c in tried if c.proven != 0.0), tried[0])
    return best


def _tried(node: _Node) -> list[_Node]:
    """The children of ``node`` the search visited, most visited first (ties: the higher mean
    reward, then the game's move order)."""
    order = {id(child): index for index, child in enumerate(node.children)}
    return sorted(
        (child for child in node.children if child.visits),
        key=lambda c: (-c.visits, -c.reward / c.visits, order[id(c)]),
    )


def _result(root: _Node, stats: SearchStats) -> SearchResult[Hashable]:
    moves: list[MoveValue[Hashable]] = []
    for child in _tried(root):
        value, exact = _value_of(child)
        moves.append(MoveValue(child.move, value, exact, (child.move,), child.visits))
    chosen = _choose(root)
    if chosen is None:
        return SearchResult(None, 0.0, (), 0, False, stats)
    pv: list[Hashable] = []
    node: _Node | None = chosen
    while node is not None:
        pv.append(node.move)
        node = _choose(node)
    if root.proven is None:
        value, exact = 2.0 * chosen.reward / chosen.visits - 1.0, False
    elif root.proven == 0.5:
        value, exact = 0.0, True
    else:
        plies = float(WIN - _proven_plies(root))
        value, exact = (plies if root.proven == 0.0 else -plies), True
    return SearchResult(pv[0], value, tuple(pv), len(pv), exact, stats, tuple(moves))


def mcts(
    state: State[M],
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    rng: random.Random | None = None,
    exploration: float = DEFAULT_EXPLORATION,
    playout: PlayoutPolicy | None = None,
    cutoff: int | None = None,
    eval_scale: float = 1.0,
    decisive: bool = True,
    reuse: bool = True,
) -> SearchResult[M]:
    """One search of ``state`` with a fresh tree; the other options are those of :class:`Mcts`."""
    searcher = Mcts(
        rng=rng,
        exploration=exploration,
        playout=playout,
        cutoff=cutoff,
        eval_scale=eval_scale,
        decisive=decisive,
        reuse=reuse,
    )
    return searcher.search(state, iterations=iterations, time_limit=time_limit)
