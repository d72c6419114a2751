"""Threat classes of the lines of an m,n,k board, shared by evaluation and search.

A *line* is a maximal row, column or diagonal of the board that can hold ``k`` in a row. Its
contents are two bit masks in line-local positions (bit ``i`` is the ``i``-th point along the
line): the own stones ``a`` and the opponent's stones ``b``. For one side, a line has a
*class*: how close that side is to ``k`` in a row along the line, counted in moves that the
opponent must answer.

======  ===========  ================================================================
class   name         meaning (for gomoku, k = 5)
======  ===========  ================================================================
9       five         ``k`` in a row already (a won game)
8       open_four    two or more points each complete ``k`` in a row: unstoppable
7       four         exactly one point completes ``k`` in a row: must be answered
6       open_three   one move makes an open four
5       three        one move makes a four (but no move makes an open four)
4       open_two     one move makes an open three
3       two          one move makes a three
0       none         nothing closer than that (``one``, ``open_one``: not used)
======  ===========  ================================================================

The definition is recursive, so it covers broken shapes (``xx.x``), edges, opponents' stones and
any ``k`` alike, and it follows the overline rule: with the exactly-``k`` rule a point that would
make ``k + 1`` in a row completes nothing. Lines are classified once per distinct contents and
cached; search then pays one dictionary look-up per line that a move touches.
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

from zermelo.core import limits
from zermelo.games.mnk_rules import DIRECTIONS, Rules

__all__ = [
    "CLASS_NAMES",
    "FIVE",
    "FOUR",
    "OPEN_FOUR",
    "OPEN_THREE",
    "THREE",
    "LineInfo",
    "LineTable",
    "board_lines",
    "line_table",
]

NONE: Final = 0
ONE: Final = 1
OPEN_ONE: Final = 2
TWO: Final = 3
OPEN_TWO: Final = 4
THREE: Final = 5
OPEN_THREE: Final = 6
FOUR: Final = 7
OPEN_FOUR: Final = 8
FIVE: Final = 9
CLASS_NAMES: Final = (
    "none", "one", "open_one", "two", "open_two", "three",
    "open_three", "four", "open_four", "five",
)  # fmt: skip

ORDER_VALUE: Final = (0, 1, 3, 8, 30, 80, 800, 1500, 20000, 200000)
"""Move-ordering worth of reaching a class (not the evaluation's weights)."""


class LineInfo(NamedTuple):
    """What one line's contents mean to both sides. Index 0 is X (first player), 1 is O.

    ``cls[s]``: the class of side ``s``. ``wins[s]``: positions where ``s`` completes ``k``.
    ``after[s][i]``: the class of side ``s`` after it plays position ``i`` (-1 if taken).
    ``gain[s][i]``: move-ordering worth for side ``s`` of playing ``i``: what it builds plus what it
    spoils for the other side, in :data:`ORDER_VALUE` units.
    """

    cls: tuple[int, int]
    wins: tuple[tuple[int, ...], tuple[int, ...]]
    after: tuple[tuple[int, ...], tuple[int, ...]]
    gain: tuple[tuple[int, ...], tuple[int, ...]]


MAX_INFOS: Final = 50_000
"""Line contents whose :class:`LineInfo` a table keeps (each about 1 KB on a 19-point line); past
that the table starts again empty, so memory stays bounded however many boards it sees."""
MAX_CLASSES: Final = 200_000
"""Segments whose class a table keeps (least recently used ones are dropped)."""
_CHECK_EVERY: Final = 256


class LineTable:
    """Classifier and cache for lines of one ``(k, exact)`` rule.

    Building an entry checks the budget of :func:`zermelo.core.limits.limited` every few hundred
    classifications, so a search's deadline and memory ceiling hold while its tables grow."""

    def __init__(self, k: int, exact: bool) -> None:
        self.k = k
        self.exact = exact
        self._info: dict[tuple[int, int, int], LineInfo] = {}
        self._class = functools.lru_cache(maxsize=MAX_CLASSES)(self._classify)
        self._work = 0

    def _windows(self, length: int, a: int, b: int) -> list[tuple[int, int, int]]:
        """The k-windows free of ``b``: ``(start, mask, own stones in it)``."""
        k = self.k
        ones = (1 << k) - 1
        out = []
        for start in range(length - k + 1):
            mask = ones << start
            if not b & mask:
                out.append((start, mask, (a & mask).bit_count()))
        return out

    def _bounded(self, a: int, start: int) -> bool:
        """With the exactly-k rule: no own stone just before or just after the window."""
        if not self.exact:
            return True
        if start > 0 and a >> (start - 1) & 1:
            return False
        return not a >> (start + self.k) & 1

    def win_points(self, length: int, a: int, b: int) -> tuple[int, ...]:
        """Empty positions where the side with stones ``a`` completes ``k`` in a row."""
        return self._wins(self._windows(length, a, b), a)

    def _wins(self, windows: list[tuple[int, int, int]], a: int) -> tuple[int, ...]:
        target = self.k - 1
        points = 0
        for start, mask, count in windows:
            if count == target and self._bounded(a, start):
                points |= mask & ~a
        out = []
        while points:
            low = points & -points
            out.append(low.bit_length() - 1)
            points ^= low
        return tuple(out)

    def has_k(self, length: int, a: int) -> bool:
        """True when ``a`` holds a winning row (exactly k under the exact rule)."""
        k = self.k
        for start, _, count in self._windows(length, a, 0):
            if count == k and self._bounded(a, start):
                return True
        return False

    def _classify(self, length: int, a: int, b: int) -> int:
        self._work += 1
        if not self._work % _CHECK_EVERY:
            limits.check()
        k = self.k
        windows = self._windows(length, a, b)
        if not windows:
            return NONE
        if any(count == k for _, _, count in windows) and self.has_k(length, a):
            return FIVE
        wins = self._wins(windows, a)
        if len(wins) >= 2:
            return OPEN_FOUR
        if wins:
            return FOUR
        # Full windows (overlines under the exact rule) have no room left: they do not count.
        top = max((count for _, _, count in windows if count < k), default=-1)
        if top < 0:
            return NONE
        if top < k - 3:
            # Three or more stones short of a four in every window: below every class that
            # counts (two and up), so "one" and "open one" are folded into "none".
            return NONE
        # The best next stone lies in one of the fullest windows (or one short of them): a stone
        # elsewhere leaves every window short of what those give.
        spots = 0
        for _, mask, count in windows:
            if count >= top - 1:
                spots |= mask
        spots &= ~a
        best = NONE
        while spots:
            low = spots & -spots
            spots ^= low
            child = self._class(length, a | low, b)
            if child > best:
                best = child
                if best >= OPEN_FOUR:
                    break
        # A move takes a class two steps down the table: open four -> open three, four -> three...
        return best - 2 if best - 2 >= TWO else NONE

    def classify(self, length: int, a: int, b: int) -> int:
        """The class of the side with stones ``a`` against stones ``b`` on a line of ``length``.

        The opponent's stones cut the line into segments that cannot interact: a move changes one
        segment only, so the class is the best segment's, except that completion points add up
        across segments (two fours in one line make it as good as an open four). Segments are
        classified on their own and cached, so the same local shape is worked out once wherever
        it appears."""
        k = self.k
        if not b:
            result: int = self._class(length, a, 0)
            return result
        best = NONE
        wins = 0
        start = 0
        for i in range(length + 1):
            if i < length and not b >> i & 1:
                continue
            size = i - start
            if size >= k:
                own = a >> start & ((1 << size) - 1)
                if own or k < 4:  # with k >= 4 an empty segment is below "two"
                    cls: int = self._class(size, own, 0)
                    if cls == FIVE:
                        return FIVE
                    if cls == OPEN_FOUR:
                        wins += 2
                    elif cls == FOUR:
                        wins += 1
                    elif cls > best:
                        best = cls
            start = i + 1
        if wins >= 2:
            return OPEN_FOUR
        if wins:
            return FOUR
        return best

    def info(self, length: int, x: int, o: int) -> LineInfo:
        """The :class:`LineInfo` of a line holding X's stones ``x`` and O's stones ``o``."""
        key = (length, x, o)
        found = self._info.get(key)
        if found is None:
            self._work += 1
            if not self._work % _CHECK_EVERY:
                limits.check()
            found = self._build(length, x, o)
            if len(self._info) >= MAX_INFOS:
                self._info.clear()
            self._info[key] = found
        return found

    def _build(self, length: int, x: int, o: int) -> LineInfo:
        classify = self.classify
        cls = (classify(length, x, o), classify(length, o, x))
        wins = (self.win_points(length, x, o), self.win_points(length, o, x))
        taken = x | o
        after: list[tuple[int, ...]] = []
        gain: list[tuple[int, ...]] = []
        for side, own, other in ((0, x, o), (1, o, x)):
            own_after = []
            side_gain = []
            for i in range(length):
                if taken >> i & 1:
                    own_after.append(-1)
                    side_gain.append(0)
                    continue
                mine = classify(length, own | 1 << i, other)
                theirs = classify(length, other, own | 1 << i)
                own_after.append(mine)
                side_gain.append(
                    ORDER_VALUE[mine]
                    - ORDER_VALUE[cls[side]]
                    + ORDER_VALUE[cls[1 - side]]
                    - ORDER_VALUE[theirs]
                )
            after.append(tuple(own_after))
            gain.append(tuple(side_gain))
        return LineInfo(cls, wins, (after[0], after[1]), (gain[0], gain[1]))


@functools.lru_cache(maxsize=4)
def line_table(k: int, exact: bool) -> LineTable:
    """The shared (cached) classifier for ``(k, exact)``."""
    return LineTable(k, exact)


@functools.lru_cache(maxsize=16)
def board_lines(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Every maximal line of the board long enough to hold ``k`` in a row, as point tuples."""
    width, height, k = rules.width, rules.height, rules.k
    lines = []
    for dc, dr in DIRECTIONS:
        for row in range(height):
            for col in range(width):
                # Start only where the previous point along the direction is off the board.
                pc, pr = col - dc, row - dr
                if 0 <= pc < width and 0 <= pr < height:
                    continue
                points = []
                c, r = col, row
                while 0 <= c < width and 0 <= r < height:
                    points.append(r * width + c)
                    c, r = c + dc, r + dr
                if len(points) >= k:
                    lines.append(tuple(points))
    return tuple(lines)
