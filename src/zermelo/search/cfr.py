"""Counterfactual regret minimisation (CFR and CFR+) for two-player zero-sum games of chance and
hidden information, with exact best responses, NashConv and exploitability.

Any game of the State protocol works whose states offer
:class:`~zermelo.core.state.Chance` (the deals), :class:`~zermelo.core.state.HiddenInfo` (what each
player knows) and end in points (:func:`~zermelo.core.state.payoff_of`: the first player's
winnings). A game of perfect information works too: each state is then its own information set.

The game tree is walked once by :func:`build_tree` into flat numpy arrays (nodes, edges, one slot
per information set and move), so an iteration of CFR is a handful of array operations per depth
of the tree rather than a walk of Python objects: Leduc hold'em's 9,457 histories take about a
millisecond an iteration.

* **CFR** (Zinkevich et al., 2007): each player's regrets are updated from the current strategy
  (regret matching), the first player's and then the second's against the first player's new
  strategy (alternating updates, as OpenSpiel's solvers do), and the *average* strategy, each
  iteration weighted by the player's own reach probability, converges to a Nash equilibrium.
* **CFR+** (Tammelin, 2014): regret matching+ (cumulative regrets are floored at zero after every
  update) and a linear average (iteration ``t`` weighs ``t``). Much faster in practice.
  Both give the very strategies of OpenSpiel's ``CFRSolver`` and ``CFRPlusSolver``.

A *policy* is a mapping from information set (``information_set(state, state.to_move)``) to a
mapping from move to probability. An information set a policy leaves out is played uniformly.

Figures, as OpenSpiel defines them: ``best_response_value(tree, policy, p)`` is what player ``p``
wins on average by the best reply to the other side's part of ``policy``; ``nash_conv`` is the sum
over both players of (best response value - value under ``policy``), zero exactly at a Nash
equilibrium; ``exploitability`` is ``nash_conv / 2``. Values are in the game's points (chips),
from the first player's side unless said otherwise.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from zermelo.core.errors import BudgetError
from zermelo.core.state import AnyState, Chance, HiddenInfo, Player, information_set, payoff_of

__all__ = [
    "DEFAULT_NODE_LIMIT",
    "CfrSolver",
    "GameTree",
    "Policy",
    "Span",
    "Strategies",
    "best_response_value",
    "build_tree",
    "cfr",
    "expected_value",
    "exploitability",
    "nash_conv",
    "uniform_policy",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

Policy = Mapping[Hashable, Mapping[Hashable, float]] | Mapping[str, Mapping[str, float]]
"""Information set -> move -> probability (text keys too: a table read from JSON, for a game
whose information sets and moves are text, as poker's are)."""

Strategies = Policy | FloatArray | tuple[Policy | FloatArray, Policy | FloatArray]
"""What the figures take: one policy for both sides (each plays its part: the policy at its own
information sets), the same as one probability per slot of the tree, or a pair (the first
player's policy, the second's)."""


DEFAULT_NODE_LIMIT: Final = 2_000_000
"""The most histories :func:`build_tree` walks unless told otherwise (Leduc hold'em has 9,457)."""

_DECISION: Final = 0
_CHANCE: Final = 1
_TERMINAL: Final = 2


@dataclass(frozen=True, eq=False)
class Span:
    """The edges leaving one depth of a tree: ``lo .. hi - 1`` (consecutive, grouped by
    parent), each edge's ``parents``, the distinct parent ``nodes`` and where each one's edges
    begin (``first``, relative to ``lo``)."""

    lo: int
    hi: int
    parents: IntArray
    nodes: IntArray
    first: IntArray


@dataclass(frozen=True, eq=False)
class GameTree:
    """A game's whole tree, walked once, as arrays.

    Nodes are numbered ``0..n-1`` from the root in breadth-first order; ``kind[n]`` is decision,
    chance or terminal, ``payoff[n]`` the first player's winnings at a terminal node. Edges join a
    node to each child: ``parent[e]``, ``child[e]``, ``owner[e]`` (0 or 1: the player who moves;
    2: chance), ``chance[e]`` the outcome's probability, and ``slot[e]`` the index of the
    edge's (information set, move) among the ``slots`` (``-1`` for a chance edge). The slots of
    information set ``i`` are ``start[i] .. start[i] + width[i] - 1``, in the order of
    ``moves[i]``; ``keys[i]`` is the information set and ``player[i]`` the player to move in it.
    ``spans`` are the edges leaving each depth of the tree, root first (:class:`Span`).
    """

    kind: IntArray
    payoff: FloatArray
    parent: IntArray
    child: IntArray
    owner: IntArray
    chance: FloatArray
    slot: IntArray
    spans: tuple[Span, ...]
    keys: tuple[Hashable, ...]
    player: tuple[Player, ...]
    moves: tuple[tuple[Hashable, ...], ...]
    start: IntArray
    width: IntArray
    slot_set: IntArray
    """The information set of each slot."""
    members: tuple[tuple[int, ...], ...]
    """The decision nodes of each information set."""
    node_edges: tuple[tuple[int, ...], ...]
    """Each node's edges (to its children), in move or outcome order."""
    chance_reach: FloatArray
    """Each node's probability under chance alone (the product of the outcomes above it)."""

    @property
    def nodes(self) -> int:
        return len(self.kind)

    @property
    def slots(self) -> int:
        return len(self.slot_set)

    @property
    def slot_player(self) -> IntArray:
        """The player to move at each slot."""
        return np.array(self.player, dtype=np.int64)[self.slot_set]

    def index(self) -> dict[Hashable, int]:
        """Information set -> its number."""
        return {key: number for number, key in enumerate(self.keys)}

    def uniform(self) -> FloatArray:
        """The uniform strategy, as one probability per slot."""
        return np.asarray(1.0 / self.width[self.slot_set], dtype=np.float64)

    def to_array(self, policy: Policy) -> FloatArray:
        """``policy`` as one probability per slot (uniform where it says nothing); each
        information set's probabilities are checked and normalised."""
        probs = self.uniform()
        table = cast(Mapping[Hashable, Mapping[Hashable, float]], policy)
        for number, key in enumerate(self.keys):
            given = table.get(key)
            if given is None:
                continue
            start = int(self.start[number])
            row = [float(given.get(move, 0.0)) for move in self.moves[number]]
            unknown = set(given) - set(self.moves[number])
            if unknown:
                raise ValueError(
                    f"policy at {key!r}: {sorted(map(str, unknown))} are not moves there"
                )
            total = sum(row)
            if not all(math.isfinite(p) and p >= 0 for p in row) or total <= 0:
                raise ValueError(f"policy at {key!r}: expected probabilities, got {row}")
            probs[start : start + len(row)] = [p / total for p in row]
        return probs

    def to_policy(self, probs: FloatArray) -> dict[Hashable, dict[Hashable, float]]:
        """One probability per slot as a policy (information set -> move -> probability)."""
        policy: dict[Hashable, dict[Hashable, float]] = {}
        for number, key in enumerate(self.keys):
            start = int(self.start[number])
            policy[key] = {
                move: float(probs[start + i]) for i, move in enumerate(self.moves[number])
            }
        return policy


def build_tree(root: AnyState, node_limit: int = DEFAULT_NODE_LIMIT) -> GameTree:
    """Walk the whole tree below ``root`` once, breadth first, into a :class:`GameTree`.

    Raises :class:`BudgetError` when the tree has more than ``node_limit`` nodes, and
    ``ValueError`` when two histories of one information set offer different moves."""
    kind: list[int] = []
    payoff: list[float] = []
    parent: list[int] = []
    owner: list[int] = []
    chance: list[float] = []
    slot: list[int] = []
    depth_of: list[int] = []
    index: dict[tuple[Player, Hashable], int] = {}
    keys: list[Hashable] = []
    players: list[Player] = []
    moves: list[tuple[Hashable, ...]] = []
    starts: list[int] = []
    members: list[list[int]] = []
    node_edges: list[tuple[int, ...]] = []
    hidden = issubclass(type(root), HiddenInfo)
    frontier: list[AnyState] = [root]
    depth = 0
    while frontier:
        following: list[AnyState] = []
        for state in frontier:
            node = len(kind)
            edges: list[int] = []
            if state.is_terminal():
                kind.append(_TERMINAL)
                payoff.append(float(payoff_of(state)))
            elif issubclass(type(state), Chance) and cast(Chance[Hashable], state).is_chance():
                kind.append(_CHANCE)
                payoff.append(0.0)
                for outcome, probability in cast(Chance[Hashable], state).chance_outcomes():
                    edges.append(len(parent))
                    parent.append(node)
                    owner.append(2)
                    chance.append(float(probability))
                    slot.append(-1)
                    following.append(state.play(outcome))
            else:
                kind.append(_DECISION)
                payoff.append(0.0)
                player = state.to_move
                # a game of perfect information: each state is its own information set (its
                # key() may merge symmetric states, whose moves differ)
                key = information_set(state, player) if hidden else cast(Hashable, state)
                legal = tuple(state.legal_moves())
                number = index.get((player, key))
                if number is None:
                    number = len(keys)
                    index[(player, key)] = number
                    keys.append(key)
                    players.append(player)
                    moves.append(legal)
                    starts.append(sum(len(m) for m in moves[:-1]) if number else 0)
                    members.append([])
                elif moves[number] != legal:
                    raise ValueError(
                        f"information set {key!r}: one history offers {list(legal)}, "
                        f"another {list(moves[number])}"
                    )
                members[number].append(node)
                for position, move in enumerate(legal):
                    edges.append(len(parent))
                    parent.append(node)
                    owner.append(int(player))
                    chance.append(1.0)
                    slot.append(starts[number] + position)
                    following.append(state.play(move))
            depth_of.append(depth)
            node_edges.append(tuple(edges))
            if len(kind) + len(following) > node_limit:
                raise BudgetError(
                    f"the game tree has more than {node_limit} nodes; CFR walks it whole"
                )
        frontier = following
        depth += 1
    # every node but the root has one edge in, and nodes are numbered breadth first in the
    # order their edges were made: edge e leads to node e + 1
    child = [1 + e for e in range(len(parent))]
    parent_array = np.array(parent, dtype=np.int64)
    edge_depth = np.array(depth_of, dtype=np.int64)[parent_array] if parent else np.zeros(0, int)
    spans = []
    for d in range(max(depth - 1, 0)):
        level_edges = np.flatnonzero(edge_depth == d)
        lo, hi = int(level_edges[0]), int(level_edges[-1]) + 1
        parents = parent_array[lo:hi]
        first = np.flatnonzero(np.r_[True, parents[1:] != parents[:-1]])
        spans.append(Span(lo, hi, parents, parents[first], first.astype(np.int64)))
    widths = [len(m) for m in moves]
    slot_set = np.repeat(np.arange(len(keys), dtype=np.int64), widths)
    chance_reach = np.ones(len(kind))
    tree = GameTree(
        kind=np.array(kind, dtype=np.int64),
        payoff=np.array(payoff, dtype=np.float64),
        parent=parent_array,
        child=np.array(child, dtype=np.int64),
        owner=np.array(owner, dtype=np.int64),
        chance=np.array(chance, dtype=np.float64),
        slot=np.array(slot, dtype=np.int64),
        spans=tuple(spans),
        keys=tuple(keys),
        player=tuple(players),
        moves=tuple(moves),
        start=np.array(starts, dtype=np.int64),
        width=np.array(widths, dtype=np.int64),
        slot_set=slot_set,
        members=tuple(tuple(m) for m in members),
        node_edges=tuple(node_edges),
        chance_reach=chance_reach,
    )
    _reach_of(tree, 2, tree.chance, chance_reach)
    return tree


def _edge_probs(tree: GameTree, probs: FloatArray) -> FloatArray:
    """Each edge's probability: the strategy's at a decision, the outcome's at chance."""
    out = tree.chance.copy()
    decision = tree.slot >= 0
    out[decision] = probs[tree.slot[decision]]
    return out


def _reach_of(tree: GameTree, who: int, factor: FloatArray, row: FloatArray) -> None:
    for level in tree.spans:
        # edge e leads to node e + 1, and a level's edges are consecutive
        np.multiply(
            row[level.parents], factor[level.lo : level.hi], out=row[level.lo + 1 : level.hi + 1]
        )


def _reach(tree: GameTree, edge_probs: FloatArray) -> FloatArray:
    """Each node's reach probability split by contributor: rows player 0, player 1, chance."""
    reach = np.ones((3, tree.nodes))
    for who in (0, 1):
        _reach_of(tree, who, np.where(tree.owner == who, edge_probs, 1.0), reach[who])
    reach[2] = tree.chance_reach
    return reach


def _values(tree: GameTree, edge_probs: FloatArray) -> FloatArray:
    """Each node's expected payoff to the first player when both play ``edge_probs``."""
    values = tree.payoff.copy()
    for level in reversed(tree.spans):
        lo, hi = level.lo, level.hi
        weighted = edge_probs[lo:hi] * values[lo + 1 : hi + 1]
        values[level.nodes] = np.add.reduceat(weighted, level.first)
    return values


def _regret_matching(tree: GameTree, regrets: FloatArray) -> FloatArray:
    positive = np.maximum(regrets, 0.0)
    totals = np.add.reduceat(positive, tree.start) if tree.slots else positive
    total = totals[tree.slot_set]
    uniform = 1.0 / tree.width[tree.slot_set]
    safe = np.where(total > 0, total, 1.0)
    return cast(FloatArray, np.where(total > 0, positive / safe, uniform))


def _normalise(tree: GameTree, weights: FloatArray) -> FloatArray:
    totals = (np.add.reduceat(weights, tree.start) if tree.slots else weights)[tree.slot_set]
    uniform = 1.0 / tree.width[tree.slot_set]
    safe = np.where(totals > 0, totals, 1.0)
    return cast(FloatArray, np.where(totals > 0, weights / safe, uniform))


class CfrSolver:
    """CFR (``plus=False``) or CFR+ (``plus=True``) on a :class:`GameTree`; :meth:`iterate` runs
    iterations, :meth:`average` is the average strategy (the one that converges), as a policy
    or (:meth:`average_array`) one probability per slot."""

    def __init__(self, tree: GameTree, *, plus: bool = True) -> None:
        self.tree = tree
        self.plus = plus
        self.iterations = 0
        self.regrets = np.zeros(tree.slots)
        self.weights = np.zeros(tree.slots)
        decision = tree.slot >= 0
        self._edges = [np.flatnonzero(decision & (tree.owner == p)) for p in (0, 1)]

    def current(self) -> FloatArray:
        """The current strategy (regret matching on the cumulative regrets)."""
        return _regret_matching(self.tree, self.regrets)

    def _update(self, player: int, weight: float) -> None:
        tree = self.tree
        probs = self.current()
        edge_probs = _edge_probs(tree, probs)
        reach = _reach(tree, edge_probs)
        values = _values(tree, edge_probs)
        edges = self._edges[player]
        parents = tree.parent[edges]
        sign = 1.0 if player == 0 else -1.0
        counterfactual = reach[1 - player, parents] * reach[2, parents]
        gain = sign * counterfactual * (values[tree.child[edges]] - values[parents])
        slots = tree.slot[edges]
        self.regrets += np.bincount(slots, weights=gain, minlength=tree.slots)
        own = reach[player, parents] * probs[slots]
        self.weights += weight * np.bincount(slots, weights=own, minlength=tree.slots)
        if self.plus:
            np.maximum(self.regrets, 0.0, out=self.regrets)

    def iterate(self, count: int = 1) -> None:
        """Run ``count`` more iterations."""
        for _ in range(count):
            self.iterations += 1
            weight = float(self.iterations) if self.plus else 1.0
            for player in (0, 1):
                self._update(player, weight)

    def average_array(self) -> FloatArray:
        """The average strategy, one probability per slot (uniform before any iteration)."""
        return _normalise(self.tree, self.weights)

    def average(self) -> dict[Hashable, dict[Hashable, float]]:
        """The average strategy as a policy."""
        return self.tree.to_policy(self.average_array())


def _tree_of(game: GameTree | AnyState) -> GameTree:
    return game if isinstance(game, GameTree) else build_tree(game)


def _array_of(tree: GameTree, policy: Strategies) -> FloatArray:
    if isinstance(policy, tuple):
        # a pair: each player's information sets from that player's policy
        first, second = (_array_of(tree, part) for part in policy)
        return np.where(tree.slot_player == 0, first, second)
    if isinstance(policy, np.ndarray):
        if policy.shape != (tree.slots,):
            raise ValueError(f"policy: expected {tree.slots} probabilities, got {policy.shape}")
        return policy
    return tree.to_array(policy)


def uniform_policy(game: GameTree | AnyState) -> dict[Hashable, dict[Hashable, float]]:
    """Every information set's moves equally likely."""
    tree = _tree_of(game)
    return tree.to_policy(tree.uniform())


def expected_value(game: GameTree | AnyState, policy: Strategies) -> float:
    """The first player's expected payoff when both sides play ``policy`` (a policy pair: each
    side's part is at its own information sets)."""
    tree = _tree_of(game)
    return float(_values(tree, _edge_probs(tree, _array_of(tree, policy)))[0])


def best_response_value(game: GameTree | AnyState, policy: Strategies, player: Player) -> float:
    """What ``player`` wins on average by the best reply to the other side's part of
    ``policy``, computed exactly: each of ``player``'s information sets takes the move with the
    best counterfactual value summed over its histories, deepest choices first."""
    tree = _tree_of(game)
    probs = _array_of(tree, policy)
    edge_probs = _edge_probs(tree, probs)
    reach = _reach(tree, edge_probs)
    weight: list[float] = (reach[1 - player] * reach[2]).tolist()
    sign = 1.0 if player is Player.FIRST else -1.0
    kind: list[int] = tree.kind.tolist()
    payoff: list[float] = tree.payoff.tolist()
    child: list[int] = tree.child.tolist()
    edge_p: list[float] = edge_probs.tolist()
    owner: list[int] = tree.owner.tolist()
    slot: list[int] = tree.slot.tolist()
    node_edges = tree.node_edges
    slot_set: list[int] = tree.slot_set.tolist()
    value: dict[int, float] = {}
    choice: dict[int, int] = {}

    def best(infoset: int) -> int:
        found = choice.get(infoset)
        if found is not None:
            return found
        totals = [0.0] * len(tree.moves[infoset])
        for node in tree.members[infoset]:
            w = weight[node]
            for position, edge in enumerate(node_edges[node]):
                totals[position] += w * node_value(child[edge])
        found = max(range(len(totals)), key=totals.__getitem__)
        choice[infoset] = found
        return found

    def node_value(node: int) -> float:
        known = value.get(node)
        if known is not None:
            return known
        node_kind = kind[node]
        edges = node_edges[node]
        if node_kind == _TERMINAL:
            result = sign * payoff[node]
        elif node_kind == _DECISION and owner[edges[0]] == player:
            infoset = slot_set[slot[edges[0]]]
            result = node_value(child[edges[best(infoset)]])
        else:
            result = sum(edge_p[edge] * node_value(child[edge]) for edge in edges)
        value[node] = result
        return result

    return node_value(0)


def nash_conv(game: GameTree | AnyState, policy: Strategies) -> float:
    """Sum over both players of what the best reply gains over ``policy``: 0 at an equilibrium."""
    tree = _tree_of(game)
    probs = _array_of(tree, policy)
    on_policy = expected_value(tree, probs)
    first = best_response_value(tree, probs, Player.FIRST) - on_policy
    second = best_response_value(tree, probs, Player.SECOND) + on_policy
    return first + second


def exploitability(game: GameTree | AnyState, policy: Strategies) -> float:
    """``nash_conv / 2``, OpenSpiel's exploitability of a two-player zero-sum policy."""
    return nash_conv(game, policy) / 2.0


def cfr(
    game: GameTree | AnyState,
    iterations: int,
    *,
    plus: bool = True,
    progress: Callable[[int, int], None] | None = None,
    deadline: float | None = None,
) -> dict[Hashable, dict[Hashable, float]]:
    """The average strategy after ``iterations`` of CFR+ (or CFR, ``plus=False``) on the whole
    game below ``game``. ``progress(done, total)`` is told after each iteration; past
    ``deadline`` (a ``time.monotonic()`` value) it raises :class:`BudgetError`."""
    if iterations < 0:
        raise BudgetError(f"cfr: iterations={iterations}; expected 0 or more")
    solver = CfrSolver(_tree_of(game), plus=plus)
    for done in range(1, iterations + 1):
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetError(f"cfr: out of time after {done - 1} of {iterations} iterations")
        solver.iterate()
        if progress is not None:
            progress(done, iterations)
    return solver.average()
