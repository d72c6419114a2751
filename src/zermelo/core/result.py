"""What a search returns, and what an agent or an engine chooses."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic

from typing_extensions import TypeVar

from zermelo.core.scores import EVAL_LIMIT, describe

__all__ = [
    "Choice",
    "MoveValue",
    "SearchResult",
    "SearchStats",
    "parent_score",
    "sort_values",
    "valued",
]

M_co = TypeVar("M_co", covariant=True)
M = TypeVar("M")
C_co = TypeVar("C_co", covariant=True, default=Hashable)


@dataclass(slots=True)
class SearchStats:
    """Counters of one search. ``elapsed`` is in seconds.

    A sampling search (MCTS) also counts its ``iterations`` and the visits of the tree it kept
    from the previous search (``reused``); its ``nodes`` are the nodes it added to its tree.
    ``seldepth`` is the deepest ply below the root that a depth-limited search reached, its
    extensions and quiescence search included (UCI's ``seldepth``; the chess engine counts it);
    searches that do not count it leave it 0.
    """

    nodes: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    elapsed: float = 0.0
    iterations: int = 0
    reused: int = 0
    seldepth: int = 0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


@dataclass(frozen=True, slots=True)
class MoveValue(Generic[M_co]):
    """One legal move with its value for the side that plays it, and the line it starts (the move
    first). ``visits`` is how often a sampling search (MCTS) tried the move; searches that do not
    sample leave it 0."""

    move: M_co
    value: float
    exact: bool
    pv: tuple[M_co, ...] = ()
    visits: int = 0

    def describe(self) -> str:
        return describe(self.value, exact=self.exact)


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[M_co]):
    """The outcome of a search from the side to move.

    ``value`` follows the negamax convention of :mod:`zermelo.core.scores`. ``exact`` is true when the
    value is the game-theoretic value (no heuristic leaf decided it). ``move`` is ``None`` only for a
    terminal position. ``depth`` is the depth of the last completed iteration in plies (for an exact
    search, the length of the longest line it had to read). ``moves`` holds the value of every
    legal move, best first, when the search valued them all (:func:`zermelo.search.analyze_position`,
    the exact solvers' analyses), or the root moves it scored (Connect Four's ``solve``: the moves
    that keep the value, centre first); else it is empty. ``reason`` says how an engine with
    several methods found the move (gomoku: ``"win"``, ``"block"``, ``"vcf"``, ``"vct"``,
    ``"search"``; Connect Four's solver: ``"book"``, ``"search"``, ``"weak"``); plain searches
    leave it empty.

    Searches that do not read every line to its end fill it in their own way, still in the
    negamax convention:

    * MCTS (:mod:`zermelo.search.mcts`): ``value`` is ``2 * win_rate - 1`` of the move it chose
      (its mean reward: 1 a win, 0.5 a draw, 0 a loss), an estimate in [-1, 1] that is 0 when
      the sides are even and changes sign with the side, like any evaluation. Once the tree
      proves the position, ``exact`` is true and ``value`` is the draw's 0 or a win or loss
      ``WIN - plies``, ``plies`` the length of the forced line the tree proved (a search that
      does not minimise lengths may prove a longer win than the fastest). ``moves`` are the root
      moves it tried, most visited first, each with its ``visits``; ``depth`` is the length of
      ``pv``, the line of most visited moves.
    * A weak solve (only win, draw or loss: Connect Four's ``weak=True``): ``exact`` is true,
      ``reason`` is ``"weak"``, a draw is 0, and a win or loss is the slowest one the board
      still allows: a bound, the outcome being all that was proved.

    The searches and solvers (the chess engine too) answer front ends with this one type, so that
    they show any of them the same way.
    """

    move: M_co | None
    value: float
    pv: tuple[M_co, ...]
    depth: int
    exact: bool
    stats: SearchStats = field(default_factory=SearchStats)
    moves: tuple[MoveValue[M_co], ...] = ()
    reason: str = ""

    def describe(self) -> str:
        """The value in English words, e.g. "win in 3"."""
        return describe(self.value, exact=self.exact)


def parent_score(child_score: float) -> float:
    """A child's score (from the child's side to move) seen from its parent, one ply further away."""
    if child_score > EVAL_LIMIT:
        return -child_score + 1
    if child_score < -EVAL_LIMIT:
        return -child_score - 1
    return -child_score


@dataclass(frozen=True)
class Choice(Generic[C_co]):
    """An agent's or an engine's move and, when it says, the search behind it (a level that
    plays without searching, such as a random move, has none)."""

    move: C_co
    result: SearchResult[C_co] | None = None


def sort_values(values: Sequence[MoveValue[M]]) -> list[MoveValue[M]]:
    """Best first; equal values keep the lowest move first (the searches' documented order)."""
    return sorted(values, key=lambda mv: (-mv.value, mv.move))


def valued(
    moves: Sequence[MoveValue[M]], nodes: int = 0, elapsed: float = 0.0, depth: int = 1
) -> SearchResult[M]:
    """The result of valuing ``moves`` (best first) one by one: the first is the move, its value
    and its line the result's; ``nodes`` and ``elapsed`` are what it cost, ``depth`` how deep
    the deepest of the moves' searches read (the move included)."""
    stats = SearchStats(nodes=nodes, elapsed=elapsed)
    if not moves:
        return SearchResult(None, 0.0, (), 0, False, stats)
    best = moves[0]
    return SearchResult(best.move, best.value, best.pv, depth, best.exact, stats, tuple(moves))
