"""The tutorial's "tree of possibilities", made visible for tic-tac-toe.

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

Scores follow :mod:`zermelo.core.scores`. Minimax values here are node-relative (from the side to
move at the node, a win ``p`` plies away is ``WIN - p``); the alpha-beta recording is root-relative,
as in :mod:`zermelo.search.alphabeta`, and converted back for display.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TypeAlias

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.jsontext import Json
from zermelo.core.scores import EVAL_LIMIT, WIN, outcome_of
from zermelo.core.state import Player
from zermelo.games.tictactoe import SYMBOLS, TicTacToeState
from zermelo.search.result import parent_score

__all__ = [
    "ABRecord",
    "ExplainNode",
    "explain",
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
