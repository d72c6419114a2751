"""The gomoku engine: levels, iterative-deepening alpha-beta over a :class:`Board`, and the
players built on it. How a move is chosen is told in :mod:`zermelo.solvers.gomoku`."""

from __future__ import annotations

import contextlib
import math
import random
import time
from dataclasses import dataclass
from typing import Final

from zermelo.core import limits
from zermelo.core.errors import BudgetError, IllegalMoveError, ZermeloError
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.scores import EVAL_LIMIT, WIN, is_decided
from zermelo.games.mnk import MnkState
from zermelo.games.mnk_eval import Evaluation
from zermelo.games.mnk_lines import FIVE
from zermelo.solvers.gomoku.board import Board
from zermelo.solvers.gomoku.threats import CHECK_EVERY, SearchTimeoutError, ThreatSearch

__all__ = ["LEVELS", "Engine", "GomokuPlayer", "Level", "choose", "move_of"]

INF: Final = float(2 * WIN)


@dataclass(frozen=True, slots=True)
class Level:
    """How hard an engine tries.

    ``max_depth``: deepest iteration (plies). ``width``: moves searched per inner node.
    ``root_vcf`` / ``leaf_vcf``: how many own fours the VCF search may play at the root and at the
    horizon (0: none). ``noise``: standard deviation of the seeded noise added to root scores that
    are not proven. ``blunder``: chance of answering an opponent's open three only by luck (the
    engine then ignores the opponent's threats below a four when choosing its move).
    ``root_vct``: how many own threats (threes or fours) the VCT search at the root may make.
    """

    name: str
    max_depth: int
    width: int
    root_vcf: int
    leaf_vcf: int
    noise: float
    blunder: float = 0.0
    root_vct: int = 0


LEVELS: Final = {
    "easy": Level("easy", max_depth=1, width=8, root_vcf=0, leaf_vcf=0, noise=400.0, blunder=0.5),
    "medium": Level("medium", max_depth=2, width=8, root_vcf=3, leaf_vcf=0, noise=80.0),
    "hard": Level("hard", max_depth=64, width=5, root_vcf=12, leaf_vcf=3, noise=0.0, root_vct=3),
}


_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


class Engine(ThreatSearch):
    """A gomoku / m,n,k engine at one :class:`Level` with one :class:`Evaluation`."""

    def __init__(self, level: Level | str = "hard", evaluation: Evaluation | None = None) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ZermeloError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
            level = LEVELS[level]
        super().__init__(evaluation)
        self.level = level
        self._table: dict[int, tuple[int, int, float, int]] = {}
        self._killers: dict[int, list[int]] = {}
        self._history: dict[tuple[int, int], int] = {}
        self._started = 0.0
        self._refuted: dict[int, float] = {}

    # -- the public entry point -----------------------------------------------------------

    def search(
        self,
        state: MnkState,
        time_limit: float | None = 1.0,
        rng: random.Random | None = None,
        node_limit: int | None = None,
    ) -> SearchResult[int]:
        """The engine's move for ``state`` within ``time_limit`` seconds (``None``: no clock,
        only the level's depth and ``node_limit``). ``rng`` drives the weaker levels' noise and
        oversights; the hard level has neither. Among equal scores the first move in the
        engine's order wins, so without a clock (or with the easy and medium levels' fixed
        depth) the choice is reproducible.

        The tables the search builds on the way check a clock too: the first moves on a new
        board build most of them (half a second is not rare), so they may take as long again
        plus half a second before the search gives up with :class:`~zermelo.core.limits.TimeUp`
        (a caller with a tighter deadline sets its own with :func:`zermelo.core.limits.limited`,
        as the web server does)."""
        if time_limit is None or not time_limit > 0 or math.isinf(time_limit):
            return self._search(state, time_limit, rng, node_limit)
        with limits.limited(time.perf_counter() + 2 * time_limit + 0.5):
            return self._search(state, time_limit, rng, node_limit)

    def _search(
        self,
        state: MnkState,
        time_limit: float | None,
        rng: random.Random | None,
        node_limit: int | None,
    ) -> SearchResult[int]:
        if state.is_terminal():
            raise IllegalMoveError(f"the game is over; no move to choose ({state.notation()!r})")
        if time_limit is not None and not time_limit > 0:
            raise BudgetError(f"time limit must be a positive number of seconds, got {time_limit}")
        started = time.perf_counter()
        self._deadline = math.inf if time_limit is None else started + time_limit
        self._node_limit = node_limit
        self.nodes = 0
        self._next_check = CHECK_EVERY
        self._table = {}
        self._killers = {}
        self._history = {}
        self._vcf_failed = set()
        board = Board(state, self.evaluation)
        self._board = board
        me = board.side

        self._started = started

        wins = board.win_points(me)
        if wins:
            move = min(wins)
            return self._result(move, float(WIN - 1), 1, "win")
        threats = board.win_points(1 - me)
        if threats:
            if len(threats) == 1:
                move = next(iter(threats))
                return self._result(move, self._quick_value(move), 1, "block")
        else:
            try:
                found = self._threat_search(board, me)
            except SearchTimeoutError:
                found = None
            if found is not None:
                reason, line, plies = found
                return self._result(line[0], float(WIN - plies), plies, reason, pv=tuple(line))
        return self._deepen(board, rng)

    def _threat_search(self, board: Board, me: int) -> tuple[str, list[int], int] | None:
        """A forced win by fours (VCF), else by threes and fours (VCT), within the level's
        limits: ``(reason, attacker's moves, plies to the win)``."""
        level = self.level
        if level.root_vcf:
            line = self._vcf_line(me, level.root_vcf)
            if line:
                return "vcf", line, 2 * len(line) - 1
        if level.root_vct:
            self._vct_nodes = 0
            self._vct_failed = set()
            vct = self._vct_attack(board, me, level.root_vct)
            if vct is not None:
                return "vct", vct[0], vct[1]
        return None

    # -- iterative deepening at the root ---------------------------------------------------

    def _root_moves(self, board: Board, rng: random.Random | None) -> list[int]:
        me = board.side
        threats = board.win_points(1 - me)
        if threats:
            return sorted(threats)
        blunder = rng is not None and self.level.blunder and rng.random() < self.level.blunder
        forced = None if blunder else board.defences(me)
        if forced:
            return forced
        ordered = board.ordered(me)
        if blunder:
            # Look only at one's own chances: a believable oversight of a quiet threat.
            ordered = sorted(
                ((self._own_gain(board, p, me), p) for _, p in ordered), key=lambda t: (-t[0], t[1])
            )
        width = max(self.level.width, 12)
        return [p for _, p in ordered[:width]]

    @staticmethod
    def _own_gain(board: Board, p: int, side: int) -> int:
        score = 0
        for line, _, pos in board.through[p]:
            score += board.info[line].after[side][pos]
        return score

    def _result(
        self,
        move: int,
        value: float,
        depth: int,
        reason: str,
        *,
        pv: tuple[int, ...] = (),
        scores: dict[int, float] | None = None,
    ) -> SearchResult[int]:
        stats = SearchStats(nodes=self.nodes, elapsed=time.perf_counter() - self._started)
        line = pv or (move,)
        # A root move that failed low has an upper bound, not its score: only decided scores are
        # exact.
        values = sorted(
            (
                MoveValue(
                    other, float(score), is_decided(score), line if other == move else (other,)
                )
                for other, score in (scores or {}).items()
            ),
            key=lambda mv: (-mv.value, mv.move),
        )
        return SearchResult(
            move, float(value), line, depth, is_decided(value), stats, tuple(values), reason
        )

    def _deepen(self, board: Board, rng: random.Random | None) -> SearchResult[int]:
        level = self.level
        moves = self._root_moves(board, rng)
        noisy = rng is not None and level.noise > 0
        best_move = moves[0]
        best_value = -INF
        reached = 0
        scores: dict[int, float] = {}
        self._refuted = {}
        if level.root_vcf:
            with contextlib.suppress(SearchTimeoutError):
                self._refuted = self._refute(board, moves)
        for depth in range(1, level.max_depth + 1):
            if depth > 1 and self._deadline < math.inf:
                # An iteration costs several times the one before: do not start one that
                # would most likely be cut off.
                used = time.perf_counter() - self._started
                if used > 0.5 * (self._deadline - self._started):
                    break
            try:
                iteration = self._root_iteration(board, moves, depth, full_window=noisy)
            except SearchTimeoutError:
                break
            reached = depth
            scores = iteration
            ranked = sorted(moves, key=lambda m: (-iteration[m], m))
            best_move, best_value = ranked[0], iteration[ranked[0]]
            moves = ranked
            if abs(best_value) > EVAL_LIMIT:
                break
            if all(abs(v) > EVAL_LIMIT for v in iteration.values()):
                break
        if noisy and scores:
            assert rng is not None
            noisy_scores = {
                m: v if abs(v) > EVAL_LIMIT else v + rng.gauss(0.0, level.noise)
                for m, v in scores.items()
            }
            best_move = max(sorted(noisy_scores), key=lambda m: noisy_scores[m])
            best_value = scores[best_move]
        pv = self._pv(board, best_move, reached)
        return self._result(best_move, best_value, reached, "search", pv=pv, scores=scores)

    def _root_iteration(
        self, board: Board, moves: list[int], depth: int, full_window: bool
    ) -> dict[int, float]:
        me = board.side
        alpha = -INF
        scores: dict[int, float] = {}
        for move in moves:
            refuted = self._refuted.get(move)
            if refuted is not None:
                scores[move] = refuted
                alpha = max(alpha, refuted)
                continue
            board.place(move, me)
            try:
                window = -INF if full_window else alpha
                score = -self._negamax(board, depth - 1, 1, -INF, -window)
            finally:
                board.remove(move)
            scores[move] = score
            alpha = max(alpha, score)
        return scores

    def _refute(self, board: Board, moves: list[int]) -> dict[int, float]:
        """Root moves after which the opponent wins by continuous fours, with that loss's score.

        The opponent's fours often reach past the horizon of the alpha-beta; reading them once
        per root move, before the deepening, keeps the engine out of them."""
        me = board.side
        refuted: dict[int, float] = {}
        for move in moves:
            board.place(move, me)
            try:
                if board.warm[1 - me] or board.hot[1 - me]:
                    line = self._vcf(board, 1 - me, self.level.root_vcf)
                    if line is not None:
                        refuted[move] = float(2 * len(line) - WIN)
            finally:
                board.remove(move)
        return refuted

    # -- the tree ---------------------------------------------------------------------------

    # -- the tree ---------------------------------------------------------------------------
    def _negamax(self, board: Board, depth: int, ply: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        me = board.side
        you = 1 - me
        if board.counts[you][FIVE]:
            return float(ply - WIN)
        if board.hot[me] and board.win_points(me):
            return float(WIN - ply - 1)
        threats = board.win_points(you) if board.hot[you] else ()
        if len(threats) >= 2:
            return float(ply + 2 - WIN)
        if board.stones == board.size:
            return 0.0
        key = board.hash ^ me
        entry = self._table.get(key)
        first = -1
        if entry is not None:
            e_depth, bound, e_score, first = entry
            if e_depth >= depth:
                score = e_score
                if score > EVAL_LIMIT:
                    score -= ply
                elif score < -EVAL_LIMIT:
                    score += ply
                if (
                    bound == _EXACT
                    or (bound == _LOWER and score >= beta)
                    or (bound == _UPPER and score <= alpha)
                ):
                    return score
        if threats:
            moves = list(threats)
            child_depth = depth  # a forced reply does not use up depth
        else:
            if depth <= 0:
                return self._leaf(board, ply)
            moves = self._moves(board, me, ply, first)
            child_depth = depth - 1
        best = -INF
        best_move = moves[0] if moves else -1
        for move in moves:
            board.place(move, me)
            try:
                score = -self._negamax(board, child_depth, ply + 1, -beta, -max(alpha, best))
            finally:
                board.remove(move)
            if score > best:
                best = score
                best_move = move
                if score >= beta:
                    killers = self._killers.setdefault(ply, [])
                    if move not in killers:
                        killers.insert(0, move)
                        del killers[2:]
                    hkey = (me, move)
                    self._history[hkey] = self._history.get(hkey, 0) + depth * depth + 1
                    break
        if best == -INF:
            return 0.0
        bound = _LOWER if best >= beta else _UPPER if best <= alpha else _EXACT
        stored = best
        if stored > EVAL_LIMIT:
            stored += ply
        elif stored < -EVAL_LIMIT:
            stored -= ply
        self._table[key] = (depth, bound, stored, best_move)
        return best

    def _moves(self, board: Board, me: int, ply: int, first: int) -> list[int]:
        forced = board.defences(me)
        if forced is not None:
            # Against an open three the defences are all the moves there are: no beam cut, so
            # a win claimed over this node is a real one.
            if first >= 0 and first in forced:
                forced.remove(first)
                forced.insert(0, first)
            return forced
        ordered = board.ordered(me)
        width = self.level.width
        history = self._history
        # History and killers re-rank within the threat-ordered front of the list only, so a
        # quiet move never pushes out a move that makes or stops a threat.
        front = ordered[: width + 4]
        boosted = sorted(front, key=lambda t: (-(t[0] + min(history.get((me, t[1]), 0), 50)), t[1]))
        moves = [p for _, p in boosted[:width]]
        for killer in self._killers.get(ply, ()):
            if killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        elif first >= 0 and not board.cells[first]:
            moves.insert(0, first)
        return moves

    def _leaf(self, board: Board, ply: int) -> float:
        depth = self.level.leaf_vcf
        if depth and board.warm[board.side]:
            line = self._vcf_line(board.side, depth)
            if line:
                return float(WIN - ply - 2 * len(line) + 1)
        value = board.evaluate()
        return max(-EVAL_LIMIT + 1, min(EVAL_LIMIT - 1, value))

    # -- reporting --------------------------------------------------------------------------

    def _quick_value(self, move: int) -> float:
        board = self._board
        assert board is not None
        board.place(move, board.side)
        try:
            value = -board.evaluate()
        finally:
            board.remove(move)
        return max(-EVAL_LIMIT + 1, min(EVAL_LIMIT - 1, value))

    def _pv(self, board: Board, move: int, limit: int) -> tuple[int, ...]:
        line = [move]
        played: list[int] = []
        try:
            board.place(move, board.side)
            played.append(move)
            while len(line) < max(limit, 1):
                entry = self._table.get(board.hash ^ board.side)
                if entry is None or entry[3] < 0 or board.cells[entry[3]]:
                    break
                line.append(entry[3])
                board.place(entry[3], board.side)
                played.append(entry[3])
                if board.counts[0][FIVE] or board.counts[1][FIVE]:
                    break
        except SearchTimeoutError:
            pass
        finally:
            for p in reversed(played):
                board.remove(p)
        return tuple(line)


class GomokuPlayer:
    """A player for the agents layer: ``choose(state)`` at a level, with a seeded ``rng``."""

    def __init__(
        self,
        level: str = "hard",
        *,
        time_limit: float = 1.0,
        evaluation: Evaluation | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.engine = Engine(level, evaluation)
        self.time_limit = time_limit
        self.rng = rng

    @property
    def level(self) -> str:
        return self.engine.level.name

    def choose(
        self, state: MnkState, time_limit: float | None = None, rng: random.Random | None = None
    ) -> int:
        limit = self.time_limit if time_limit is None else time_limit
        return move_of(self.engine.search(state, limit, rng if rng is not None else self.rng))


def choose(
    state: MnkState,
    time_limit: float = 1.0,
    rng: random.Random | None = None,
    *,
    level: str = "hard",
    evaluation: Evaluation | None = None,
) -> int:
    """The move a ``level`` engine plays in ``state`` within ``time_limit`` seconds."""
    return move_of(Engine(level, evaluation).search(state, time_limit, rng))


def move_of(result: SearchResult[int]) -> int:
    """The move of an engine's result: never ``None``, as the engine refuses a finished game."""
    if result.move is None:
        raise IllegalMoveError("the game is over; there is no move to choose")
    return result.move
