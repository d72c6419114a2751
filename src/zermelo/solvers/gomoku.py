"""A gomoku (and any m,n,k) engine: threat search plus alpha-beta under a clock.

The generic :func:`zermelo.search.alphabeta` works on immutable states and every legal move; on a
15x15 board that is too slow and too wide. This engine keeps one *mutable* board for the duration of
a search and updates, per stone, only the four lines through it (:mod:`zermelo.games.mnk_lines`):
the class counts that the evaluation weighs, the set of lines holding fours (win points) and the
lines holding threes (four-making moves). A node then costs a handful of dictionary look-ups.

How a move is chosen (:meth:`Engine.search`):

1. a point that completes ``k`` in a row is played at once;
2. if the opponent has a point that completes ``k``, it is blocked;
3. a VCF search (victory by continuous fours: every attacking move makes a four, so the defender's
   reply is forced) looks for a forced win;
4. otherwise iterative-deepening negamax alpha-beta (fail-soft, transposition table, killer and
   history move ordering) over the moves near the stones, best ``width`` by a threat-based
   ordering score. Forced replies (blocking a four) do not use up depth, so sequences of fours are
   read to the end; at the horizon a short VCF search looks for forced wins of the side to move
   before the evaluation is trusted. The search stops when the time is up and returns the best
   move of the last completed iteration.

Scores follow :mod:`zermelo.core.scores` (from the side to move; a win ``p`` plies away is
``WIN - p``). Levels (:data:`LEVELS`) trade depth, width and threat reading for speed, and the
weaker ones add seeded noise to the root scores so that they make believable mistakes: they always
complete a five and block a four, but may miss an open three or a quiet attack.
"""

from __future__ import annotations

import contextlib
import functools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Final

from zermelo.core import limits
from zermelo.core.errors import BudgetError, IllegalMoveError, ZermeloError
from zermelo.core.scores import EVAL_LIMIT, WIN, describe
from zermelo.games.mnk import MnkState, Rules, geometry
from zermelo.games.mnk_eval import Evaluation, default_evaluation
from zermelo.games.mnk_lines import (
    FIVE,
    FOUR,
    OPEN_THREE,
    THREE,
    LineInfo,
    board_lines,
    line_table,
)

__all__ = [
    "LEVELS",
    "Engine",
    "EngineResult",
    "GomokuPlayer",
    "Level",
    "choose",
    "find_vcf",
]

INF: Final = float(2 * WIN)
_CHECK_EVERY: Final = 256
_VCT_NODES: Final = 4000


_TimeoutError = limits.TimeUp
"""The clock ran out inside the search: the engine's own check, or its tables'."""


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


@dataclass(slots=True)
class EngineResult:
    """What a search found: the move, its value from the mover's side and how it got there.

    ``pv``: for ``"search"`` the expected line, both sides' moves in turn; for ``"vcf"`` and
    ``"vct"`` the attacker's moves only (the defender's replies are forced or do not matter).
    ``scores``: the root moves' scores from the last completed iteration (a move that failed
    low has an upper bound there, not its exact score)."""

    move: int
    value: float
    depth: int
    nodes: int
    elapsed: float
    reason: str
    """``"win"`` (completes k), ``"block"`` (stops a k), ``"vcf"`` (forced win by fours),
    ``"vct"`` (forced win by threes and fours), ``"search"`` (alpha-beta)."""
    pv: tuple[int, ...] = ()
    scores: dict[int, float] = field(default_factory=dict)

    def describe(self) -> str:
        """The value in words: "win in 3", "loss in 2" or an estimate such as "+120.00"."""
        return describe(self.value, exact=False)


@functools.lru_cache(maxsize=16)
def _zobrist(size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    rng = random.Random(0x5A0B215 + size)
    return (
        tuple(rng.getrandbits(64) for _ in range(size)),
        tuple(rng.getrandbits(64) for _ in range(size)),
    )


@functools.lru_cache(maxsize=16)
def _layout(
    rules: Rules,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int, int], ...], ...]]:
    """Lines and, per point, the lines through it as ``(line, bit, position)``."""
    lines = board_lines(rules)
    through: list[list[tuple[int, int, int]]] = [[] for _ in range(rules.width * rules.height)]
    for index, points in enumerate(lines):
        for pos, p in enumerate(points):
            through[p].append((index, 1 << pos, pos))
    return lines, tuple(tuple(t) for t in through)


@functools.lru_cache(maxsize=16)
def _neighbours(rules: Rules) -> tuple[tuple[int, ...], ...]:
    geo = geometry(rules)
    out = []
    for p in range(geo.size):
        mask = geo.near[p]
        out.append(tuple(q for q in range(geo.size) if mask >> q & 1))
    return tuple(out)


class _Board:
    """A mutable board with incrementally maintained line classes. Side 0 is X, 1 is O."""

    def __init__(self, state: MnkState, evaluation: Evaluation) -> None:
        rules = state.rules
        self.rules = rules
        self.size = rules.width * rules.height
        self.table = line_table(rules.k, rules.exact)
        self.lines, self.through = _layout(rules)
        self.lengths = [len(points) for points in self.lines]
        self.neighbours = _neighbours(rules)
        self.zobrist = _zobrist(self.size)
        self.order = geometry(rules).order
        self.centre = geometry(rules).centre
        count = len(self.lines)
        self.bits = ([0] * count, [0] * count)
        self.info: list[LineInfo] = [self.table.info(n, 0, 0) for n in self.lengths]
        self.counts = ([0] * 10, [0] * 10)
        self.hot: tuple[set[int], set[int]] = (set(), set())
        self.warm: tuple[set[int], set[int]] = (set(), set())
        for line, info in enumerate(self.info):
            for side in (0, 1):
                self._count(side, line, info.cls[side], 1)
        self.cells = [0] * self.size
        self.undo: list[list[LineInfo]] = []
        self.through3 = tuple(
            tuple((line, bit, self.lengths[line]) for line, bit, _ in through)
            for through in self.through
        )
        self.near = [0] * self.size
        self.stones = 0
        self.hash = 0
        own, opp = evaluation.side_weights()
        self.own_weights = own
        self.opp_weights = opp
        self.classes = [c for c in range(10) if own[c] or opp[c]]
        self.side = int(state.to_move)
        # Stones go on in any order: the updates only look at line contents.
        for p in range(self.size):
            if state.x >> p & 1:
                self.place(p, 0)
            elif state.o >> p & 1:
                self.place(p, 1)
        self.side = int(state.to_move)

    def _count(self, side: int, line: int, cls: int, delta: int) -> None:
        self.counts[side][cls] += delta
        if cls >= FOUR:
            if delta > 0:
                self.hot[side].add(line)
            else:
                self.hot[side].discard(line)
        elif cls >= THREE:
            if delta > 0:
                self.warm[side].add(line)
            else:
                self.warm[side].discard(line)

    def _shift(self, line: int, old: tuple[int, int], new: tuple[int, int]) -> None:
        """Move ``line`` from its old classes to its new ones in the counts and line sets."""
        count = self._count
        if old[0] != new[0]:
            count(0, line, old[0], -1)
            count(0, line, new[0], 1)
        if old[1] != new[1]:
            count(1, line, old[1], -1)
            count(1, line, new[1], 1)

    def place(self, p: int, side: int) -> None:
        """Put a stone of ``side`` on ``p``; :meth:`remove` takes the last one placed back.

        The lines' new classes are looked up (or built, which may run out of time) before the
        board changes, so a :class:`~zermelo.core.limits.TimeUp` leaves the board as it was."""
        mine = self.bits[side]
        xs, os_ = self.bits
        cache = self.table._info
        build = self.table.info
        news = []
        for line, bit, length in self.through3[p]:
            key = (
                (length, xs[line] | bit, os_[line])
                if side == 0
                else (length, xs[line], os_[line] | bit)
            )
            new = cache.get(key)
            if new is None:
                new = build(*key)
            news.append(new)
        self.cells[p] = side + 1
        self.stones += 1
        self.hash ^= self.zobrist[side][p]
        infos = self.info
        saved = []
        for (line, bit, _), new in zip(self.through3[p], news, strict=True):
            old = infos[line]
            mine[line] |= bit
            infos[line] = new
            if old.cls != new.cls:
                self._shift(line, old.cls, new.cls)
            saved.append(old)
        self.undo.append(saved)
        near = self.near
        for q in self.neighbours[p]:
            near[q] += 1
        self.side = 1 - side

    def remove(self, p: int) -> None:
        """Take back the stone on ``p``, which must be the last one placed."""
        side = self.cells[p] - 1
        self.cells[p] = 0
        self.stones -= 1
        self.hash ^= self.zobrist[side][p]
        mine = self.bits[side]
        infos = self.info
        saved = self.undo.pop()
        for (line, bit, _), old in zip(self.through3[p], saved, strict=True):
            mine[line] &= ~bit
            current = infos[line]
            infos[line] = old
            if old.cls != current.cls:
                self._shift(line, current.cls, old.cls)
        near = self.near
        for q in self.neighbours[p]:
            near[q] -= 1
        self.side = side

    # -- what the position offers -------------------------------------------------------------

    def evaluate(self) -> float:
        """The evaluation's weighted sum from the side to move."""
        side = self.side
        own = self.counts[side]
        opp = self.counts[1 - side]
        ow = self.own_weights
        pw = self.opp_weights
        total = 0.0
        for c in self.classes:
            total += ow[c] * own[c] + pw[c] * opp[c]
        return total

    def win_points(self, side: int) -> set[int]:
        """Empty points where ``side`` completes k in a row."""
        points: set[int] = set()
        for line in self.hot[side]:
            info = self.info[line]
            if info.cls[side] >= FIVE:
                continue
            pts = self.lines[line]
            for pos in info.wins[side]:
                points.add(pts[pos])
        return points

    def four_moves(self, side: int) -> list[int]:
        """Empty points where ``side`` makes a four or better, best ordering score first."""
        found: set[int] = set()
        for line in self.warm[side]:
            after = self.info[line].after[side]
            pts = self.lines[line]
            for pos, cls in enumerate(after):
                if cls >= FOUR:
                    found.add(pts[pos])
        if len(found) <= 1:
            return list(found)
        return sorted(found, key=lambda p: (-self.move_score(p, side), p))

    def defences(self, side: int) -> list[int] | None:
        """When the other side has an open three, every move that can save ``side``: the points
        that turn each open three into less, and ``side``'s own four-making moves (forcing
        moves that may win first). Any other move lets the open three become an open four.
        ``None`` when the other side has no open three."""
        other = 1 - side
        if not self.counts[other][OPEN_THREE]:
            return None
        found: set[int] = set(self.four_moves(side))
        bits = self.bits
        info_of = self.table.info
        for line in self.warm[other]:
            if self.info[line].cls[other] != OPEN_THREE:
                continue
            length = self.lengths[line]
            mine = bits[side][line]
            taken = mine | bits[other][line]
            points = self.lines[line]
            for pos in range(length):
                if taken >> pos & 1:
                    continue
                blocked = mine | 1 << pos
                after = (
                    info_of(length, blocked, bits[1][line])
                    if side == 0
                    else info_of(length, bits[0][line], blocked)
                )
                if after.cls[other] < OPEN_THREE:
                    found.add(points[pos])
        return sorted(found, key=lambda p: (-self.move_score(p, side), p))

    def move_score(self, p: int, side: int) -> int:
        infos = self.info
        score = 0
        for line, _, pos in self.through[p]:
            score += infos[line].gain[side][pos]
        return score

    def candidates(self) -> list[int]:
        """Empty points within distance 2 of a stone; the centre on an empty board."""
        if not self.stones:
            return [self.centre]
        cells = self.cells
        near = self.near
        return [p for p in range(self.size) if near[p] and not cells[p]]

    def ordered(self, side: int) -> list[tuple[int, int]]:
        """``(score, point)`` of the candidates, best first (ties: lower point first)."""
        infos = self.info
        through = self.through
        scored = []
        for p in self.candidates():
            score = 0
            for line, _, pos in through[p]:
                score += infos[line].gain[side][pos]
            scored.append((-score, p))
        scored.sort()
        return [(-s, p) for s, p in scored]


_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


class Engine:
    """A gomoku / m,n,k engine at one :class:`Level` with one :class:`Evaluation`."""

    def __init__(self, level: Level | str = "hard", evaluation: Evaluation | None = None) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ZermeloError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
            level = LEVELS[level]
        self.level = level
        self.evaluation = default_evaluation() if evaluation is None else evaluation
        self.nodes = 0
        self._deadline = math.inf
        self._next_check = _CHECK_EVERY
        self._table: dict[int, tuple[int, int, float, int]] = {}
        self._killers: dict[int, list[int]] = {}
        self._history: dict[tuple[int, int], int] = {}
        self._board: _Board | None = None
        self._vcf_failed: set[tuple[int, int]] = set()
        self._started = 0.0
        self._node_limit: int | None = None
        self._refuted: dict[int, float] = {}
        self._vct_nodes = 0
        self._vct_failed: set[tuple[int, int]] = set()

    # -- the public entry point -----------------------------------------------------------

    def search(
        self,
        state: MnkState,
        time_limit: float | None = 1.0,
        rng: random.Random | None = None,
        node_limit: int | None = None,
    ) -> EngineResult:
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
    ) -> EngineResult:
        if state.is_terminal():
            raise IllegalMoveError(f"the game is over; no move to choose ({state.notation()!r})")
        if time_limit is not None and not time_limit > 0:
            raise BudgetError(f"time limit must be a positive number of seconds, got {time_limit}")
        started = time.perf_counter()
        self._deadline = math.inf if time_limit is None else started + time_limit
        self._node_limit = node_limit
        self.nodes = 0
        self._next_check = _CHECK_EVERY
        self._table = {}
        self._killers = {}
        self._history = {}
        self._vcf_failed = set()
        board = _Board(state, self.evaluation)
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
            except _TimeoutError:
                found = None
            if found is not None:
                reason, line, plies = found
                return self._result(line[0], float(WIN - plies), plies, reason, pv=tuple(line))
        return self._deepen(board, rng)

    def _threat_search(self, board: _Board, me: int) -> tuple[str, list[int], int] | None:
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

    # -- victory by continuous threats (threes and fours) -----------------------------------

    def _vct_attack(self, board: _Board, attacker: int, depth: int) -> tuple[list[int], int] | None:
        """Attacker to move: a line of attacker moves that wins against every defence, with
        the number of plies it takes at most; ``None`` if none is found."""
        wins = board.win_points(attacker)
        if wins:
            return [min(wins)], 1
        defender = 1 - attacker
        blocks = board.win_points(defender)
        if len(blocks) >= 2 or depth <= 0:
            return None
        key = (board.hash, depth)
        if key in self._vct_failed:
            return None
        self._vct_nodes += 1
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        if self._vct_nodes > _VCT_NODES:
            return None
        if blocks:
            moves = list(blocks)
        elif board.counts[defender][OPEN_THREE]:
            # A mere three would be too slow: the defender's open three becomes an open four.
            moves = board.four_moves(attacker)
        else:
            moves = self._threat_moves(board, attacker)
        for move in moves:
            board.place(move, attacker)
            try:
                if board.hot[attacker] or board.counts[attacker][OPEN_THREE]:
                    rest = self._vct_defend(board, attacker, depth - (0 if blocks else 1))
                else:
                    rest = None
            finally:
                board.remove(move)
            if rest is not None:
                return [move, *rest[0]], rest[1] + 1
        self._vct_failed.add(key)
        return None

    def _vct_defend(self, board: _Board, attacker: int, depth: int) -> tuple[list[int], int] | None:
        """Defender to move after a threat: the attacker's continuation against the defence
        that holds out longest, or ``None`` if some defence refutes the attack."""
        defender = 1 - attacker
        if board.win_points(defender):
            return None
        wins = board.win_points(attacker)
        if len(wins) >= 2:
            return [min(wins)], 2
        if wins:
            replies = list(wins)
        else:
            forced = board.defences(defender)
            if not forced:
                return None
            replies = forced
        longest: tuple[list[int], int] | None = None
        for reply in replies:
            board.place(reply, defender)
            try:
                line = self._vct_attack(board, attacker, depth)
            finally:
                board.remove(reply)
            if line is None:
                return None
            if longest is None or line[1] + 1 > longest[1]:
                longest = (line[0], line[1] + 1)
        return longest

    def _threat_moves(self, board: _Board, side: int) -> list[int]:
        """Moves that make a four or an open three for ``side``, best first, at most 8."""
        found = []
        through = board.through
        infos = board.info
        for p in board.candidates():
            for line, _, pos in through[p]:
                if infos[line].after[side][pos] >= OPEN_THREE:
                    found.append((-board.move_score(p, side), p))
                    break
        found.sort()
        return [p for _, p in found[:8]]

    def find_vcf(self, state: MnkState, max_fours: int = 12) -> list[int] | None:
        """The side to move's forced win by continuous fours (its moves, the last one making
        k in a row), or ``None`` when there is none within ``max_fours`` fours. No clock."""
        if state.is_terminal():
            return None
        self._board = _Board(state, self.evaluation)
        self._deadline = math.inf
        self._node_limit = None
        self._next_check = self.nodes + _CHECK_EVERY
        self._vcf_failed = set()
        return self._vcf_line(int(state.to_move), max_fours)

    # -- iterative deepening at the root ---------------------------------------------------

    def _root_moves(self, board: _Board, rng: random.Random | None) -> list[int]:
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
    def _own_gain(board: _Board, p: int, side: int) -> int:
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
    ) -> EngineResult:
        elapsed = time.perf_counter() - self._started
        return EngineResult(
            move, value, depth, self.nodes, elapsed, reason, pv or (move,), scores or {}
        )

    def _deepen(self, board: _Board, rng: random.Random | None) -> EngineResult:
        level = self.level
        moves = self._root_moves(board, rng)
        noisy = rng is not None and level.noise > 0
        best_move = moves[0]
        best_value = -INF
        reached = 0
        scores: dict[int, float] = {}
        self._refuted = {}
        if level.root_vcf:
            with contextlib.suppress(_TimeoutError):
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
            except _TimeoutError:
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
        self, board: _Board, moves: list[int], depth: int, full_window: bool
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

    def _refute(self, board: _Board, moves: list[int]) -> dict[int, float]:
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

    def _tick(self) -> None:
        self._next_check = self.nodes + _CHECK_EVERY
        if time.perf_counter() >= self._deadline:
            raise _TimeoutError
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _TimeoutError

    def _negamax(self, board: _Board, depth: int, ply: int, alpha: float, beta: float) -> float:
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

    def _moves(self, board: _Board, me: int, ply: int, first: int) -> list[int]:
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

    def _leaf(self, board: _Board, ply: int) -> float:
        depth = self.level.leaf_vcf
        if depth and board.warm[board.side]:
            line = self._vcf_line(board.side, depth)
            if line:
                return float(WIN - ply - 2 * len(line) + 1)
        value = board.evaluate()
        return max(-EVAL_LIMIT + 1, min(EVAL_LIMIT - 1, value))

    # -- victory by continuous fours --------------------------------------------------------

    def _vcf_line(self, attacker: int, depth: int) -> list[int] | None:
        """Attacker's moves of a forced win by fours (the attacker is to move), or None."""
        board = self._board
        assert board is not None
        return self._vcf(board, attacker, depth)

    def _vcf(self, board: _Board, attacker: int, depth: int) -> list[int] | None:
        defender = 1 - attacker
        if board.win_points(attacker):
            return [min(board.win_points(attacker))]
        if depth <= 0:
            return None
        key = (board.hash, depth)
        if key in self._vcf_failed:
            return None
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        blocks = board.win_points(defender)
        if len(blocks) >= 2:
            return None
        candidates = board.four_moves(attacker)
        if blocks:
            candidates = [p for p in candidates if p in blocks]
        for move in candidates:
            board.place(move, attacker)
            try:
                replies = board.win_points(attacker)
                if len(replies) >= 2 and not board.win_points(defender):
                    return [move, min(replies)]
                if len(replies) == 1:
                    reply = next(iter(replies))
                    if board.win_points(defender):
                        continue  # the defender completes k instead of blocking
                    board.place(reply, defender)
                    try:
                        rest = self._vcf(board, attacker, depth - 1)
                    finally:
                        board.remove(reply)
                    if rest is not None:
                        return [move, *rest]
            finally:
                board.remove(move)
        self._vcf_failed.add(key)
        return None

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

    def _pv(self, board: _Board, move: int, limit: int) -> tuple[int, ...]:
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
        except _TimeoutError:
            pass
        finally:
            for p in reversed(played):
                board.remove(p)
        return tuple(line)


def find_vcf(state: MnkState, max_fours: int = 12) -> list[int] | None:
    """A forced win for the side to move by continuous fours, as the attacker's moves (the last
    completes k), or ``None`` when there is none within ``max_fours`` fours."""
    if state.is_terminal():
        return None
    return Engine("hard").find_vcf(state, max_fours)


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

    def analyse(self, state: MnkState, time_limit: float | None = None) -> EngineResult:
        return self.engine.search(
            state, self.time_limit if time_limit is None else time_limit, self.rng
        )

    def choose(
        self, state: MnkState, time_limit: float | None = None, rng: random.Random | None = None
    ) -> int:
        limit = self.time_limit if time_limit is None else time_limit
        return self.engine.search(state, limit, rng if rng is not None else self.rng).move


def choose(
    state: MnkState,
    time_limit: float = 1.0,
    rng: random.Random | None = None,
    *,
    level: str = "hard",
    evaluation: Evaluation | None = None,
) -> int:
    """The move a ``level`` engine plays in ``state`` within ``time_limit`` seconds."""
    return Engine(level, evaluation).search(state, time_limit, rng).move
