"""The gomoku engine's mutable board: one board per search, updated stone by stone.

Per stone only the four lines through it change (:mod:`zermelo.games.mnk_lines`): the class counts
that the evaluation weighs, the set of lines holding fours (win points) and the lines holding
threes (four-making moves). A node then costs a handful of dictionary look-ups.
"""

from __future__ import annotations

import functools
import random

from zermelo.games.mnk import MnkState, Rules, geometry
from zermelo.games.mnk_eval import Evaluation
from zermelo.games.mnk_lines import (
    FIVE,
    FOUR,
    OPEN_THREE,
    THREE,
    LineInfo,
    board_lines,
    line_table,
)

__all__ = ["Board"]


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


class Board:
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
        moves that may win first). Every other move lets the open three become an open four.
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
