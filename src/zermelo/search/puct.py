"""PUCT: Monte Carlo tree search guided by a policy-value function, as AlphaZero searches.

Where :mod:`zermelo.search.mcts` estimates a new node by a random playout, PUCT asks an evaluator
(a learned net: :class:`~zermelo.core.capabilities.PolicyValue`) for the node's value ``v`` from
the side to move and a prior ``P(s, a)`` for each of its moves. One simulation walks down from the
root, at each node taking the move with the highest

    Q(s, a) + c_puct * P(s, a) * sqrt(N(s)) / (1 + N(s, a))

(``Q`` the mean value of the move for the side that plays it, ``N`` the visit counts), until it
reaches a node not yet evaluated or the end of the game. The leaf's value (the evaluator's, or the
exact result of a finished game) is added to every node on the path, changing sign wherever the
side to move changes. A move not yet tried has the value of its parent as far as known, less
``fpu`` (first-play urgency; AlphaZero's Go engine and Leela use such a reduction), so the search
widens only where the priors ask it to.

The tree is a stepping machine so that many searches can share one evaluator: :meth:`Puct.leaf`
walks down once and returns the state to evaluate (``None`` when the walk ended in a finished
game, already backed up), and :meth:`Puct.expand` hands over that state's evaluation. Self-play
steps many trees at once and evaluates their leaves in one batch; :meth:`Puct.run` is the loop for
one tree. :meth:`Puct.play` moves the root down the tree, keeping the subtree below.

With ``decisive`` (the default), a state that can name a move winning on the spot
(:class:`~zermelo.core.state.WinsAtOnce`: Connect Four, tic-tac-toe, m,n,k) is a proven win one
ply early, as :mod:`zermelo.search.mcts` does: the search need not evaluate the winning move's
child, a move that leaves the opponent such a win is seen to lose at once, and a root that can
win plays the winning move. This is the rules' knowledge, not a solver's.

At the root, ``noise=(alpha, epsilon)`` mixes Dirichlet(alpha) noise into the priors, as
AlphaZero's self-play does, so that it tries moves the net does not yet like. Every random draw
comes from the ``random.Random`` given.

Values are negamax values in [-1, 1] from the side to move (1 a win, 0 a draw). A search returns
a :class:`~zermelo.core.result.SearchResult` like :func:`zermelo.search.mcts.mcts`: the move most
visited (ties: the higher prior, then the game's move order), ``value`` its mean value, and every
root move with its visits, most visited first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import cast

from zermelo.core.errors import BudgetError, IllegalMoveError
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.scores import WIN
from zermelo.core.state import AnyState, WinsAtOnce, is_chance

__all__ = ["Evaluate", "Puct", "puct_search", "terminal_value"]

Evaluate = Callable[[Sequence[AnyState]], list[tuple[list[float], float]]]
"""A batch evaluator: for each state, the priors of its legal moves (in ``legal_moves()`` order)
and its value in [-1, 1] from the side to move."""

MAX_SIMULATIONS = 1_000_000
"""The most simulations one search runs (an ``az:sims=N`` beyond this is refused)."""


def terminal_value(state: AnyState) -> float:
    """The exact value of a finished game from the side to move: 1 won, 0 drawn, -1 lost."""
    winner = state.winner
    if winner is None:
        return 0.0
    return 1.0 if winner == state.to_move else -1.0


class _Node:
    """One position of the tree. ``total`` and ``count`` add up the values backed up through the
    node, from the node's own side to move; ``flip`` says that the side to move changed on the
    move into it (its values change sign for the parent)."""

    __slots__ = (
        "children",
        "count",
        "flip",
        "moves",
        "priors",
        "state",
        "terminal",
        "total",
        "win",
    )

    def __init__(self, state: AnyState, flip: bool, decisive: bool) -> None:
        self.state = state
        self.flip = flip
        self.moves: list[Hashable] | None = None
        self.priors: list[float] = []
        self.children: list[_Node | None] = []
        self.total = 0.0
        self.count = 0
        self.win: Hashable | None = None
        self.terminal: float | None = None
        if state.is_terminal():
            self.terminal = terminal_value(state)
        elif decisive:
            self.win = cast(WinsAtOnce[Hashable], state).winning_move()
            if self.win is not None:
                self.terminal = 1.0

    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


class Puct:
    """One PUCT tree over ``root``'s game (see the module's docstring).

    ``c_puct`` weighs the priors against the values, ``fpu`` is the reduction of an untried move's
    value below its parent's, ``noise=(alpha, epsilon)`` mixes Dirichlet noise into the root's
    priors, drawn from ``rng``."""

    def __init__(
        self,
        root: AnyState,
        *,
        c_puct: float = 1.5,
        fpu: float = 0.2,
        noise: tuple[float, float] | None = None,
        rng: random.Random | None = None,
        decisive: bool = True,
    ) -> None:
        if is_chance(root):
            raise IllegalMoveError(
                "PUCT searches games without chance nodes only (no net here judges dice)"
            )
        if not (math.isfinite(c_puct) and c_puct > 0):
            raise ValueError(f"c_puct {c_puct!r}: expected a positive number")
        self.c_puct = c_puct
        self.fpu = fpu
        self.noise = noise
        self.rng = rng if rng is not None else random.Random(0)
        # Where the state can name a move that wins on the spot (WinsAtOnce), a node with one is
        # a proven win one ply early: the search need not read the winning move's child.
        self.decisive = decisive and isinstance(root, WinsAtOnce)
        self.root = _Node(root, False, self.decisive)
        self._path: list[_Node] = []
        self.simulations = 0

    # -- one simulation in two halves --------------------------------------------------------

    def leaf(self) -> AnyState | None:
        """Walk down to the next leaf. Return its state to be evaluated (then call
        :meth:`expand`), or ``None`` when the walk ended in a finished game (backed up)."""
        if self._path:
            raise RuntimeError("the last leaf was not expanded")
        node = self.root
        path = [node]
        while node.moves is not None and node.terminal is None:
            index = self._select(node)
            child = node.children[index]
            if child is None:
                state = node.state.play(node.moves[index])
                child = _Node(state, state.to_move != node.state.to_move, self.decisive)
                node.children[index] = child
            node = child
            path.append(node)
        if node.terminal is not None:
            self._backup(path, node.terminal)
            return None
        if is_chance(node.state):
            raise IllegalMoveError(
                "PUCT searches games without chance nodes only (no net here judges dice)"
            )
        self._path = path
        return node.state

    def expand(self, priors: Sequence[float], value: float) -> None:
        """The evaluation of the state :meth:`leaf` returned: its moves' priors and its value."""
        if not self._path:
            raise RuntimeError("no leaf is waiting for its evaluation")
        node = self._path[-1]
        moves = list(node.state.legal_moves())
        if len(priors) != len(moves):
            raise ValueError(f"{len(priors)} priors for {len(moves)} legal moves")
        node.moves = moves
        node.priors = list(priors)
        node.children = [None] * len(moves)
        if node is self.root:
            self._add_noise()
        path, self._path = self._path, []
        self._backup(path, value)

    def run(self, simulations: int, evaluate: Evaluate) -> None:
        """Run ``simulations`` more simulations, evaluating each leaf alone."""
        for _ in range(simulations):
            state = self.leaf()
            if state is not None:
                ((priors, value),) = evaluate([state])
                self.expand(priors, value)

    # -- reading the tree ---------------------------------------------------------------------

    @property
    def expanded(self) -> bool:
        return self.root.moves is not None

    def visits(self) -> list[tuple[Hashable, int]]:
        """Each root move with its visit count, in the game's move order (a root that wins on
        the spot: its winning move alone, with every visit)."""
        root = self.root
        if root.win is not None:
            return [(root.win, root.count)]
        if root.moves is None:
            return []
        return [
            (move, 0 if child is None else child.count)
            for move, child in zip(root.moves, root.children, strict=True)
        ]

    def value(self) -> float:
        """The root's mean value from its side to move."""
        return self.root.mean()

    def best_move(self) -> Hashable:
        """The most visited root move (ties: the higher prior, then the move order); a move that
        wins on the spot where there is one."""
        root = self.root
        if root.win is not None:
            return root.win
        if root.moves is None:
            raise IllegalMoveError("the search has not looked at any move yet")
        best = max(
            range(len(root.moves)),
            key=lambda i: (_count(root.children[i]), root.priors[i], -i),
        )
        return root.moves[best]

    def sample_move(self, temperature: float) -> Hashable:
        """A root move drawn with probability proportional to visits ** (1 / temperature)."""
        pairs = self.visits()
        if not pairs:
            raise IllegalMoveError("the search has not looked at any move yet")
        if temperature <= 0:
            return self.best_move()
        weights = [count ** (1.0 / temperature) for _, count in pairs]
        if sum(weights) <= 0:
            return self.best_move()
        return self.rng.choices([move for move, _ in pairs], weights)[0]

    def play(self, move: Hashable) -> None:
        """Move the root to the position after ``move``, keeping its subtree; the new root gets
        fresh noise."""
        root = self.root
        if root.moves is None or move not in root.moves:
            self.root = _Node(root.state.play(move), False, self.decisive)
            return
        child = root.children[root.moves.index(move)]
        if child is None:
            child = _Node(root.state.play(move), False, self.decisive)
        child.flip = False
        self.root = child
        self._path = []
        if child.moves is not None:
            self._add_noise()

    def result(self, elapsed: float = 0.0) -> SearchResult[Hashable]:
        """The search as a :class:`SearchResult` (see the module's docstring)."""
        root = self.root
        if root.win is not None:
            won = MoveValue(root.win, WIN - 1, True, (root.win,), root.count)
            return SearchResult(
                move=root.win,
                value=WIN - 1,
                pv=(root.win,),
                depth=1,
                exact=True,
                stats=SearchStats(nodes=self.simulations, elapsed=elapsed),
                moves=(won,),
            )
        if root.terminal is not None or root.moves is None:
            return SearchResult(
                move=None,
                value=root.terminal or 0.0,
                pv=(),
                depth=0,
                exact=root.terminal is not None,
            )
        order = sorted(
            range(len(root.moves)),
            key=lambda i: (-_count(root.children[i]), -root.priors[i], i),
        )
        moves = tuple(
            MoveValue(
                root.moves[i],
                _edge_value(root.children[i]),
                False,
                (root.moves[i],),
                _count(root.children[i]),
            )
            for i in order
        )
        pv = self._principal_variation()
        return SearchResult(
            move=moves[0].move,
            value=moves[0].value,
            pv=pv,
            depth=len(pv),
            exact=False,
            stats=SearchStats(nodes=self.simulations, elapsed=elapsed, iterations=self.simulations),
            moves=moves,
        )

    # -- internals ----------------------------------------------------------------------------

    def _select(self, node: _Node) -> int:
        assert node.moves is not None
        children = node.children
        priors = node.priors
        visited = node.count - 1 if node.count > 0 else 0
        scale = self.c_puct * math.sqrt(max(visited, 1))
        fpu = node.mean() - self.fpu if node is not self.root or self.noise is None else 0.0
        # The parent's mean is from its own side: an untried move is worth that less the reduction.
        best = 0
        best_score = -math.inf
        for i, prior in enumerate(priors):
            child = children[i]
            if child is None or child.count == 0:
                score = fpu + scale * prior
            else:
                q = child.total / child.count
                score = (-q if child.flip else q) + scale * prior / (1 + child.count)
            if score > best_score:
                best_score = score
                best = i
        return best

    def _backup(self, path: list[_Node], value: float) -> None:
        for node in reversed(path):
            node.total += value
            node.count += 1
            if node.flip:
                value = -value
        self.simulations += 1

    def _add_noise(self) -> None:
        if self.noise is None or self.root.moves is None or not self.root.moves:
            return
        alpha, epsilon = self.noise
        draws = [self.rng.gammavariate(alpha, 1.0) for _ in self.root.moves]
        total = sum(draws) or 1.0
        self.root.priors = [
            (1 - epsilon) * prior + epsilon * draw / total
            for prior, draw in zip(self.root.priors, draws, strict=True)
        ]

    def _principal_variation(self) -> tuple[Hashable, ...]:
        line: list[Hashable] = []
        node: _Node | None = self.root
        while node is not None and node.moves is not None and node.count > 1:
            children = node.children
            index = max(range(len(node.moves)), key=lambda i: _count(children[i]))
            if _count(children[index]) == 0:
                break
            line.append(node.moves[index])
            node = children[index]
        return tuple(line)


def _count(node: _Node | None) -> int:
    return 0 if node is None else node.count


def _edge_value(node: _Node | None) -> float:
    """A root move's mean value for the side that plays it (0 for a move never tried)."""
    if node is None or node.count == 0:
        return 0.0
    q = node.mean()
    return -q if node.flip else q


def puct_search(
    state: AnyState,
    evaluate: Evaluate,
    simulations: int,
    *,
    c_puct: float = 1.5,
    rng: random.Random | None = None,
    decisive: bool = True,
) -> SearchResult[Hashable]:
    """One PUCT search of ``simulations`` simulations from ``state``, without noise."""
    if not 1 <= simulations <= MAX_SIMULATIONS:
        raise BudgetError(f"simulations {simulations}: expected 1 to {MAX_SIMULATIONS}")
    start = time.perf_counter()
    tree = Puct(state, c_puct=c_puct, rng=rng, decisive=decisive)
    if state.is_terminal():
        return tree.result()
    tree.run(simulations, evaluate)
    return tree.result(time.perf_counter() - start)
