"""The tutorial's "tree of possibilities", made visible for tic-tac-toe, and for games of chance.

Two searches of the same tree from a root position:

* plain minimax, which visits every node; its values and node counts depend only on the position,
  so they are memoised per state (tic-tac-toe has 5,478 reachable positions);
* plain alpha-beta (fail-soft negamax, no transposition table, the game's own move order), run once
  per root and instrumented: for every node it visited it records the window it got, the score it
  returned (exact, or only a bound when the window cut it short), the children it read and the
  children it skipped because a sibling already refuted the position.

The page expands the tree lazily: :func:`explain` returns one node and its children, addressed by
the path of moves from the root, so a request from the empty board stays small (alpha-beta visits
7,865 nodes there; the recording is cached per root).

A game of chance (Pig with a small goal) has a tree of its own (:func:`explain_chance`): its
decision nodes take the best child, its chance nodes average their outcomes weighted by their
probabilities, each child shown with its probability; values are expected payoffs, from a
depth-limited expectiminimax (:func:`expectimax`) with the game's evaluation at the horizon.

Scores follow :mod:`zermelo.core.scores`. Minimax values here are node-relative (from the side to
move at the node, a win ``p`` plies away is ``WIN - p``); the alpha-beta recording is root-relative,
as in :mod:`zermelo.search.alphabeta`, and converted back for display.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeAlias, cast

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.jsontext import Json
from zermelo.core.result import MoveValue, SearchResult, SearchStats, sort_values, valued
from zermelo.core.scores import EVAL_LIMIT, WIN, outcome_of
from zermelo.core.state import (
    AnyState,
    Chance,
    Evaluates,
    Player,
    is_chance,
    payoff_of,
    same_side,
)
from zermelo.games.tictactoe import SYMBOLS, TicTacToeState
from zermelo.search.result import parent_score

__all__ = [
    "ABRecord",
    "ExplainNode",
    "chance_values",
    "expectimax",
    "explain",
    "explain_chance",
    "minimax_nodes",
    "minimax_value",
    "record_alphabeta",
]

INF = float(2 * WIN)
MAX_PATH = 9


@functools.lru_cache(maxsize=8192)
def minimax_value(state: TicTacToeState) -> float:
    """The exact node-relative value of ``state`` for its side to move."""
    if state.is_terminal():
        return 0.0 if state.winner is None else float(-WIN)
    return max(parent_score(minimax_value(state.play(m))) for m in state.legal_moves())


@functools.lru_cache(maxsize=8192)
def minimax_nodes(state: TicTacToeState) -> int:
    """How many nodes plain minimax visits below and including ``state``."""
    if state.is_terminal():
        return 1
    return 1 + sum(minimax_nodes(state.play(m)) for m in state.legal_moves())


@dataclass(frozen=True, slots=True)
class ABRecord:
    """What alpha-beta did at one node. Scores are root-relative, from the node's side to move."""

    alpha: float
    beta: float
    score: float
    nodes: int
    visited: tuple[int, ...]
    pruned: tuple[int, ...]

    @property
    def bound(self) -> str:
        """``exact``, ``lower`` (failed high: the value is at least the score) or ``upper``."""
        if self.score >= self.beta:
            return "lower"
        if self.score <= self.alpha:
            return "upper"
        return "exact"


@functools.lru_cache(maxsize=16)
def record_alphabeta(root: TicTacToeState) -> dict[tuple[int, ...], ABRecord]:
    """Run alpha-beta from ``root`` and record every visited node under its path of moves."""
    records: dict[tuple[int, ...], ABRecord] = {}

    def search(
        node: TicTacToeState, path: tuple[int, ...], alpha: float, beta: float
    ) -> tuple[float, int]:
        ply = len(path)
        if node.is_terminal():
            score = 0.0 if node.winner is None else float(ply - WIN)
            records[path] = ABRecord(alpha, beta, score, 1, (), ())
            return score, 1
        nodes = 1
        best = -INF
        moves = node.legal_moves()
        visited: list[int] = []
        for move in moves:
            visited.append(move)
            child_score, child_nodes = search(
                node.play(move), (*path, move), -beta, -max(alpha, best)
            )
            nodes += child_nodes
            score = -child_score
            if score > best:
                best = score
                if score >= beta:
                    break
        pruned = tuple(m for m in moves if m not in visited)
        records[path] = ABRecord(alpha, beta, best, nodes, tuple(visited), pruned)
        return best, nodes

    search(root, (), -INF, INF)
    return records


ExplainNode: TypeAlias = dict[str, Json]
"""A node of the drawn tree as JSON: its position, values, node counts and (at the top) children."""


def _node_relative(score: float, ply: int) -> float:
    if score > EVAL_LIMIT:
        return score + ply
    if score < -EVAL_LIMIT:
        return score - ply
    return score


def _value_json(state: TicTacToeState, score: float) -> dict[str, Json]:
    """A node-relative score as the winner's mark and moves, from X's and O's point of view."""
    outcome = outcome_of(score)
    mover = state.to_move
    if outcome.kind == "draw":
        return {"score": score, "kind": "draw", "winner": None, "moves": 0}
    winner = mover if outcome.kind == "win" else Player(1 - mover)
    return {
        "score": score,
        "kind": "win",
        "winner": SYMBOLS[winner],
        "moves": outcome.moves,
    }


def _node_json(
    state: TicTacToeState,
    path: tuple[int, ...],
    records: dict[tuple[int, ...], ABRecord],
    pruned: bool,
) -> ExplainNode:
    record = records.get(path)
    node: ExplainNode = {
        "path": [state.format_move(m) for m in path],
        "move": state.format_move(path[-1]) if path else None,
        "position": state.notation(with_side=True),
        "to_move": SYMBOLS[state.to_move],
        "terminal": state.is_terminal(),
        "value": _value_json(state, minimax_value(state)),
        "minimax_nodes": minimax_nodes(state),
        "children_count": len(state.legal_moves()),
        "pruned": pruned,
        "alphabeta": None,
    }
    if record is not None:
        node["alphabeta"] = {
            "nodes": record.nodes,
            "bound": record.bound,
            "value": _value_json(state, _node_relative(record.score, len(path))),
            "visited": [state.format_move(m) for m in record.visited],
            "pruned": [state.format_move(m) for m in record.pruned],
        }
    return node


def explain(root: TicTacToeState, path: object) -> ExplainNode:
    """The node reached from ``root`` by ``path`` (move notations) and its children.

    A child is ``pruned`` when alpha-beta never visited it: either its parent's search was cut off
    before reaching it, or the parent itself lies in a skipped branch.
    """
    if not isinstance(path, list) or len(path) > MAX_PATH:
        raise ParseError(f"path {path!r}: expected a list of at most {MAX_PATH} moves")
    records = record_alphabeta(root)
    state = root
    moves: list[int] = []
    for text in path:
        if not isinstance(text, str):
            raise ParseError(f"move {text!r} in the path: expected a square number as text")
        move = state.parse_move(text)
        if move not in state.legal_moves():
            raise IllegalMoveError(
                f"move {text!r} in the path is not legal in {state.notation(with_side=True)}"
            )
        state = state.play(move)
        moves.append(move)
    here = tuple(moves)
    node = _node_json(state, here, records, pruned=here not in records)
    node["children"] = [
        _node_json(
            state.play(move),
            (*here, move),
            records,
            pruned=(*here, move) not in records,
        )
        for move in state.legal_moves()
    ]
    root_record = records[()]
    node["totals"] = {"minimax": minimax_nodes(root), "alphabeta": root_record.nodes}
    return node


# -- games of chance -----------------------------------------------------------------------------

CHANCE_DEPTH = 4
"""Plies (decisions and chance events alike) each node of a game of chance's tree looks ahead."""
MAX_CHANCE_PATH = 40
"""Longest path of moves from the root of a chance tree."""
CHANCE_DEPTHS = 12
"""Deepest iteration of :func:`chance_values`."""


class _Budget(Exception):
    """The budget of a search ran out."""


def _terminal_value(state: AnyState) -> float:
    payoff = payoff_of(state)
    return payoff if state.to_move is Player.FIRST else -payoff


def expectimax(
    state: AnyState,
    depth: int,
    memo: dict[tuple[Hashable, int], float] | None = None,
    counter: list[int] | None = None,
    stop: float | None = None,
    nodes: int | None = None,
) -> float:
    """The expected payoff of ``state`` for its side to move, searched ``depth`` plies: the
    best child at a decision, the probability-weighted mean at a chance node, the payoff at the
    end and the game's evaluation (0 without one) at the horizon. A child's value turns into
    its parent's by :func:`~zermelo.core.state.same_side`. ``stop`` (a ``time.monotonic()``)
    and ``nodes`` bound the work (:class:`_Budget` past them)."""
    memo = {} if memo is None else memo
    counter = [0] if counter is None else counter

    def search(node: AnyState, left: int) -> float:
        counter[0] += 1
        if nodes is not None and counter[0] > nodes:
            raise _Budget
        if stop is not None and counter[0] % 256 == 0 and time.monotonic() > stop:
            raise _Budget
        if node.is_terminal():
            return _terminal_value(node)
        if left <= 0:
            return node.evaluate() if isinstance(node, Evaluates) else 0.0
        key = (node.key(), left)
        known = memo.get(key)
        if known is not None:
            return known
        if is_chance(node):
            total = 0.0
            for outcome, probability in cast(Chance[Hashable], node).chance_outcomes():
                child = node.play(outcome)
                value = search(child, left - 1)
                total += probability * (value if same_side(node, child) else -value)
            found = total
        else:
            found = max(
                value if same_side(node, child) else -value
                for child in (node.play(move) for move in node.legal_moves())
                for value in (search(child, left - 1),)
            )
        memo[key] = found
        return found

    return search(state, depth)


def chance_values(state: AnyState, time_limit: float, node_limit: int) -> SearchResult[Hashable]:
    """Every legal move's expected payoff for the side to move (best first), by
    :func:`expectimax` deepened one ply at a time while ``time_limit`` and ``node_limit`` last;
    the last complete depth answers (1 ply at least)."""
    started = time.monotonic()
    stop = started + time_limit
    counter = [0]
    best: list[MoveValue[Hashable]] = []
    depth = 0
    for depth_wanted in range(1, CHANCE_DEPTHS + 1):
        memo: dict[tuple[Hashable, int], float] = {}
        try:
            values: list[MoveValue[Hashable]] = []
            for move in state.legal_moves():
                child = state.play(move)
                limit = None if depth_wanted == 1 else node_limit
                value = expectimax(child, depth_wanted - 1, memo, counter, stop, limit)
                values.append(
                    MoveValue(move, value if same_side(state, child) else -value, False, (move,))
                )
        except _Budget:
            break
        best, depth = sort_values(values), depth_wanted
        if time.monotonic() > stop:
            break
    result = valued(best, nodes=counter[0], elapsed=time.monotonic() - started, depth=depth)
    return SearchResult(
        result.move,
        result.value,
        result.pv,
        depth,
        False,
        SearchStats(nodes=counter[0], elapsed=time.monotonic() - started),
        result.moves,
    )


def _chance_node(
    state: AnyState,
    path: list[str],
    sides: tuple[str, str],
    probability: float | None,
    memo: dict[tuple[Hashable, int], float],
    counter: list[int],
    depth: int,
) -> ExplainNode:
    value = expectimax(state, depth, memo, counter)
    first = value if state.to_move is Player.FIRST else -value
    return {
        "path": list[Json](path),
        "move": path[-1] if path else None,
        "position": state.notation(),
        "to_move": sides[state.to_move],
        "terminal": state.is_terminal(),
        "chance": is_chance(state),
        "probability": probability,
        "value": {
            "expected": value,
            "first": first,
            "p_first": min(max((first + 1) / 2, 0.0), 1.0),
        },
        "children_count": len(state.legal_moves()),
    }


def explain_chance(root: AnyState, path: object, sides: tuple[str, str]) -> ExplainNode:
    """The node of a game of chance reached from ``root`` by ``path`` (moves and outcomes in
    notation), valued by :func:`expectimax` over :data:`CHANCE_DEPTH` plies, with its children
    (one ply less, so that the node's value is their best, or their mean by probability):
    a chance node's each with its probability. ``value`` holds the expected payoff for the
    node's side to move, the first player's, and the first player's chance to win read from it
    (for a game won or lost, ``(v + 1) / 2``)."""
    if not isinstance(path, list) or len(path) > MAX_CHANCE_PATH:
        raise ParseError(
            f"path {str(path)[:40]!r}: expected a list of at most {MAX_CHANCE_PATH} moves"
        )
    state = root
    words: list[str] = []
    for text in path:
        if not isinstance(text, str) or len(text) > 80:
            raise ParseError(f"move {str(text)[:20]!r} in the path: expected a move as text")
        move = state.parse_move(text)
        if move not in state.legal_moves():
            raise IllegalMoveError(f"move {text!r} in the path is not legal in {state.notation()}")
        words.append(state.format_move(move))
        state = state.play(move)
    memo: dict[tuple[Hashable, int], float] = {}
    counter = [0]
    node = _chance_node(state, words, sides, None, memo, counter, CHANCE_DEPTH)
    outcomes = dict(cast(Chance[Hashable], state).chance_outcomes()) if is_chance(state) else {}
    node["children"] = [
        _chance_node(
            state.play(move),
            [*words, state.format_move(move)],
            sides,
            outcomes.get(move),
            memo,
            counter,
            CHANCE_DEPTH - 1,  # so that the node's value is its children's best or mean
        )
        for move in state.legal_moves()
    ]
    node["totals"] = {"expectimax": counter[0], "depth": CHANCE_DEPTH}
    return node
