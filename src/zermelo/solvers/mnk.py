"""Exact values of small m,n,k games (3x3 k3, 4x4 k3, 4x4 k4, 5x5 k4, ...).

A negamax over win / draw / loss (1, 0, -1) on two bit masks, with the knowledge that makes these
boards fast:

* a side to move that has a point completing ``k`` wins; an opponent with two such points wins
  (a loss), with one it must be blocked (the only move searched);
* a side that has no ``k``-window free of the other's stones can at best draw: the window is
  narrowed to ``(alpha, 0)``, and to ``(0, beta)`` when the other side has none;
* positions are stored under a canonical key, the smallest image of the board under its
  symmetries (8 for a square, 4 for a rectangle), computed with byte tables;
* the table keeps win/draw/loss bounds, so the null-window probes that the alpha-beta makes are
  reused by later ones;
* moves are ordered by the threats they make and stop, the table's move first.

The side to move is implied by the stone counts (X, the first player, moves when they are equal).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

from zermelo.core.errors import BudgetError
from zermelo.games.mnk import MnkState, Rules, format_point, geometry, new_game

__all__ = ["MnkSolution", "SolveStats", "solve_mnk", "solve_position"]


@dataclass(slots=True)
class SolveStats:
    nodes: int = 0
    table_hits: int = 0
    table_size: int = 0
    elapsed: float = 0.0


@dataclass(frozen=True, slots=True)
class MnkSolution:
    """The game-theoretic value for the side to move (1 win, 0 draw, -1 loss) and a best move.

    For :func:`solve_mnk` the side to move is the first player on the empty board. ``move`` is
    ``None`` when the position is over."""

    value: int
    move: int | None
    move_text: str | None
    stats: SolveStats

    @property
    def outcome(self) -> str:
        return {1: "win", 0: "draw", -1: "loss"}[self.value]


class _Solver:
    def __init__(self, rules: Rules, node_limit: int | None) -> None:
        geo = geometry(rules)
        self.rules = rules
        self.size = geo.size
        self.full = geo.full
        self.node_limit = node_limit
        windows = []
        width, height, k = rules.width, rules.height, rules.k
        for row in range(height):
            for col in range(width):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = col + (k - 1) * dc, row + (k - 1) * dr
                    if 0 <= end_c < width and 0 <= end_r < height:
                        mask = 0
                        for step in range(k):
                            mask |= 1 << ((row + step * dr) * width + col + step * dc)
                        windows.append(mask)
        self.windows = tuple(windows)
        self.exact = rules.exact
        self.geo = geo
        self.through = tuple(tuple(w for w in windows if w >> p & 1) for p in range(self.size))
        self.order = geo.order
        chunks = (self.size + 7) // 8
        self.chunks = chunks
        self.sym_tables = tuple(
            tuple(
                tuple(_image(byte << (8 * c), perm) for byte in range(256)) for c in range(chunks)
            )
            for perm in geo.symmetries
        )
        self.table: dict[int, tuple[int, int, int]] = {}
        self.stats = SolveStats()

    # -- facts about a position --------------------------------------------------------------

    def wins(self, own: int, other: int) -> int:
        """Mask of empty points where ``own`` completes k."""
        points = 0
        k1 = self.rules.k - 1
        for w in self.windows:
            if not w & other and (w & own).bit_count() == k1:
                points |= w & ~own
        if self.exact and points:
            exact_points = 0
            rest = points
            while rest:
                low = rest & -rest
                rest ^= low
                if self.geo.wins_at(own | low, low.bit_length() - 1):
                    exact_points |= low
            return exact_points
        return points

    def alive(self, own: int, other: int) -> bool:
        """True when some k-window holds none of ``other``'s stones."""
        return any(not w & other for w in self.windows)

    def key(self, own: int, other: int) -> int:
        packed_own = own
        packed_other = other
        best = -1
        for tables in self.sym_tables:
            a = b = 0
            for c in range(self.chunks):
                table = tables[c]
                a |= table[packed_own >> (8 * c) & 255]
                b |= table[packed_other >> (8 * c) & 255]
            image = a << self.size | b
            if best < 0 or image < best:
                best = image
        return best

    # -- the search --------------------------------------------------------------------------

    def negamax(self, own: int, other: int, alpha: int, beta: int) -> int:
        """Value for the side to move (stones ``own``), fail-hard inside ``[alpha, beta]``."""
        stats = self.stats
        stats.nodes += 1
        if self.node_limit is not None and stats.nodes > self.node_limit:
            raise BudgetError(f"the solver went past its node limit of {self.node_limit}")
        empty = self.full & ~(own | other)
        if self.wins(own, other) & empty:
            return 1
        threats = self.wins(other, own) & empty
        if threats & (threats - 1):
            return -1
        if not empty:
            return 0
        if not self.alive(own, other):
            beta = min(beta, 0)
        if not self.alive(other, own):
            alpha = max(alpha, 0)
        if alpha >= beta:
            return alpha
        key = self.key(own, other)
        entry = self.table.get(key)
        if entry is not None:
            lower, upper, _ = entry
            if lower >= beta or lower == upper:
                stats.table_hits += 1
                return lower
            if upper <= alpha:
                stats.table_hits += 1
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        moves = [threats] if threats else self.ordered(own, other, empty)
        best = -2
        a = alpha
        for bit in moves:
            score = -self.negamax(other, own | bit, -beta, -a)
            if score > best:
                best = score
                a = max(a, score)
                if a >= beta:
                    break
        lower, upper = (-1, 1) if entry is None else (entry[0], entry[1])
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper, 0)
        return best

    def ordered(self, own: int, other: int, empty: int) -> list[int]:
        """Empty points as bits, the ones on the most live and fullest windows first."""
        scored = []
        dead = False
        for p in self.order:
            bit = 1 << p
            if not empty & bit:
                continue
            score = 0
            for w in self.through[p]:
                if not w & other:
                    score += 1 + 4 * (w & own).bit_count() ** 2
                if not w & own:
                    score += 1 + 3 * (w & other).bit_count() ** 2
            if not score:
                # On no window either side can still fill: a stone here changes nothing but
                # whose turn it is, so all such points are one move. Keep the first.
                if dead:
                    continue
                dead = True
            scored.append((-score, p, bit))
        scored.sort()
        return [bit for _, _, bit in scored]


def _image(mask: int, perm: tuple[int, ...]) -> int:
    image = 0
    while mask:
        low = mask & -mask
        p = low.bit_length() - 1
        if p < len(perm):
            image |= 1 << perm[p]
        mask ^= low
    return image


@functools.lru_cache(maxsize=4)
def _solver(rules: Rules) -> _Solver:
    return _Solver(rules, None)


def solve_position(state: MnkState, *, node_limit: int | None = None) -> MnkSolution:
    """Solve ``state`` exactly: its value for the side to move and a best move.

    Meant for boards of up to about 25 points; ``node_limit`` makes the solver give up with a
    :class:`BudgetError` instead of running for hours on a bigger one."""
    started = time.perf_counter()
    solver = _Solver(state.rules, node_limit)
    own, other = (state.x, state.o) if state.to_move == 0 else (state.o, state.x)
    if state.is_terminal():
        value = 0 if state.winner is None else -1
        solver.stats.elapsed = time.perf_counter() - started
        return MnkSolution(value, None, None, solver.stats)
    empty = solver.full & ~(own | other)
    best_value = -2
    best_move = -1
    seen: set[int] = set()
    immediate = solver.wins(own, other) & empty
    if immediate:
        best_move = (immediate & -immediate).bit_length() - 1
        best_value = 1
    else:
        for bit in solver.ordered(own, other, empty):
            child_key = solver.key(other, own | bit)
            if child_key in seen:
                continue  # a symmetric twin of a move already searched
            seen.add(child_key)
            # Probe with a window that only tells "better than the best so far".
            lo = max(best_value, -1)
            score = -solver.negamax(other, own | bit, -1, -lo) if best_value < 1 else -2
            if score > best_value:
                best_value = score
                best_move = bit.bit_length() - 1
            if best_value == 1:
                break
    solver.stats.table_size = len(solver.table)
    solver.stats.elapsed = time.perf_counter() - started
    return MnkSolution(best_value, best_move, format_point(state.rules, best_move), solver.stats)


def solve_mnk(
    m: int, n: int, k: int, *, exact: bool = False, node_limit: int | None = None
) -> MnkSolution:
    """The value of the m,n,k game (``m`` columns, ``n`` rows) for the first player, and a best
    first move: 3,3,3 is a draw, 4,4,3 a first-player win, 4,4,4 and 5,5,4 draws."""
    return solve_position(new_game(m, n, k, exact), node_limit=node_limit)
