"""``zermelo analyze backgammon``: every move's cubeless equity by the trained net.

With the dice rolled, each play of the roll is valued at 2-ply (``Limits.depth`` 1 asks for
1-ply), best first; the 2-ply filter's leftovers keep their 1-ply value. Before the roll, each
roll is valued by the best play it allows (1-ply) with its chance. At the cube: ``roll`` is the
cubeless equity and ``double`` the better for the taker of taking (twice the equity) or dropping
(one point); after a double, ``take`` and ``drop`` from the taker's side. Values are points for the
side to move, cubeless (times the cube's value where the cube is held).
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from zermelo.core.limits import Limits
from zermelo.core.result import MoveValue, SearchResult
from zermelo.games.backgammon import kernel as rules
from zermelo.solvers.backgammon.net import trained_net
from zermelo.solvers.backgammon.search import position_equity, rank_moves

__all__ = ["ANALYSIS", "BackgammonAnalysis"]


class BackgammonAnalysis:
    """The :class:`~zermelo.core.capabilities.EngineAnalysis` of backgammon."""

    def analyze(self, state: object, limits: Limits) -> SearchResult[object]:
        from zermelo.games.backgammon.state import BackgammonState, Phase

        if not isinstance(state, BackgammonState):
            raise TypeError("backgammon's analysis reads backgammon states")
        if state.is_terminal():
            return SearchResult(None, 0.0, (), 0, True)
        net = trained_net()
        board = state.mover_board()
        cube = float(state.cube)
        values: list[tuple[Hashable, float]] = []
        depth = 1
        if state.phase is Phase.MOVE:
            plays = {b.tobytes(): p for p, b in state.afterstates()}
            depth = 1 if limits.depth == 1 else 2
            ranked = rank_moves(net, board, state.dice, depth)
            deep = ranked.deep if ranked.deep is not None else ranked.values
            for k in range(len(ranked.boards)):
                value = deep[k] if np.isfinite(deep[k]) else ranked.values[k]
                play = plays.get(ranked.boards[k].tobytes())
                if play is not None:
                    values.append((play, float(value) * cube))
        elif state.is_chance():
            for roll, _chance in state.chance_outcomes():
                dice = (int(roll[0]), int(roll[1]))
                if state.phase is Phase.OPENING:
                    # the opening roll: X's die then O's; the higher side moves with both
                    ranked = rank_moves(net, board, (max(dice), min(dice)), 1)
                    sign = 1.0 if dice[0] > dice[1] else -1.0
                    values.append((roll, sign * float(ranked.values[ranked.best]) * cube))
                else:
                    ranked = rank_moves(net, board, dice, 1)
                    values.append((roll, float(ranked.values[ranked.best]) * cube))
            mean = sum(
                value * chance
                for (_, value), (_, chance) in zip(values, state.chance_outcomes(), strict=True)
            )
            moves = tuple(MoveValue(move, value, False) for move, value in values)
            return SearchResult(None, mean, (), 1, False, moves=moves)
        elif state.phase is Phase.DECIDE:
            equity = position_equity(net, board)
            values = [("roll", equity * cube), ("double", min(2 * equity, 1.0) * cube)]
        elif state.phase is Phase.DOUBLED:
            doubler = position_equity(net, rules.swapped(board))
            values = [("take", -2 * doubler * cube), ("drop", -cube)]
        values.sort(key=lambda pair: -pair[1])
        moves = tuple(MoveValue(move, value, False, (move,)) for move, value in values)
        best = moves[0] if moves else None
        return SearchResult(
            None if best is None else best.move,
            0.0 if best is None else best.value,
            () if best is None else (best.move,),
            depth,
            False,
            moves=moves,
        )


ANALYSIS = BackgammonAnalysis()
