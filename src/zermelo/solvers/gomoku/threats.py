"""Forced wins for the gomoku engine: victory by continuous fours (VCF) and by threes and fours
(VCT), and the node count and clock that the whole engine shares.

A VCF attack plays only fours, so every defence is forced; a VCT attack may also make open threes,
and then every defence the board allows is tried (:meth:`Board.defences`). Failed attacks are
remembered per (position, depth) for the rest of the search.
"""

from __future__ import annotations

import math
import time
from typing import Final

from zermelo.core import limits
from zermelo.games.mnk import MnkState
from zermelo.games.mnk_eval import Evaluation, default_evaluation
from zermelo.games.mnk_lines import OPEN_THREE
from zermelo.solvers.gomoku.board import Board

__all__ = ["ThreatSearch", "find_vcf"]

CHECK_EVERY: Final = 256
_VCT_NODES: Final = 4000


SearchTimeoutError = limits.TimeUp
"""The clock (or the node limit) ran out inside the search: the engine's own check, or the
tables' it builds (:func:`zermelo.core.limits.check`)."""


class ThreatSearch:
    """The threat searches over one :class:`Board`, with the node count and the clock (a
    deadline and an optional node limit) that the engine built on it shares."""

    def __init__(self, evaluation: Evaluation | None = None) -> None:
        self.evaluation = default_evaluation() if evaluation is None else evaluation
        self.nodes = 0
        self._deadline = math.inf
        self._next_check = CHECK_EVERY
        self._node_limit: int | None = None
        self._board: Board | None = None
        self._vcf_failed: set[tuple[int, int]] = set()
        self._vct_nodes = 0
        self._vct_failed: set[tuple[int, int]] = set()

    def _tick(self) -> None:
        self._next_check = self.nodes + CHECK_EVERY
        if time.perf_counter() >= self._deadline:
            raise SearchTimeoutError
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchTimeoutError

    # -- victory by continuous threats (threes and fours) -----------------------------------

    def _vct_attack(self, board: Board, attacker: int, depth: int) -> tuple[list[int], int] | None:
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

    def _vct_defend(self, board: Board, attacker: int, depth: int) -> tuple[list[int], int] | None:
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

    def _threat_moves(self, board: Board, side: int) -> list[int]:
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
        self._board = Board(state, self.evaluation)
        self._deadline = math.inf
        self._node_limit = None
        self._next_check = self.nodes + CHECK_EVERY
        self._vcf_failed = set()
        return self._vcf_line(int(state.to_move), max_fours)

    # -- victory by continuous fours --------------------------------------------------------

    def _vcf_line(self, attacker: int, depth: int) -> list[int] | None:
        """Attacker's moves of a forced win by fours (the attacker is to move), or None."""
        board = self._board
        assert board is not None
        return self._vcf(board, attacker, depth)

    def _vcf(self, board: Board, attacker: int, depth: int) -> list[int] | None:
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


def find_vcf(state: MnkState, max_fours: int = 12) -> list[int] | None:
    """A forced win for the side to move by continuous fours, as the attacker's moves (the last
    completes k), or ``None`` when there is none within ``max_fours`` fours."""
    if state.is_terminal():
        return None
    return ThreatSearch().find_vcf(state, max_fours)
