"""Backgammon's players: the TD net at 1-ply or 2-ply, and GNU Backgammon.

Levels (the record's ``levels``):

- ``easy``: the untrained net (seeded random weights) at 1-ply;
- ``medium``: the trained net (:data:`zermelo.solvers.backgammon.net.TRAINED`) at 1-ply;
- ``hard``: the trained net at 2-ply (gnubg's "1-ply"; see :mod:`.solvers.backgammon.search`).

Every agent also answers the cube: before its roll it doubles by the money-play rule of
:mod:`zermelo.solvers.backgammon.search` from its net's cubeless equity, and it takes or drops a
double by the same equity. Dice are never the agent's: the referee rolls them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, cast

import numpy as np
from numpy.typing import NDArray

from zermelo.agents.base import Agent
from zermelo.agents.gnubg import DEFAULT_BINARY, GnubgError, GnubgProcess, apply_hops
from zermelo.core.errors import N_, IllegalMoveError
from zermelo.core.state import AnyState, is_chance
from zermelo.games.backgammon import kernel as rules
from zermelo.solvers.backgammon.net import Net, random_net, trained_net
from zermelo.solvers.backgammon.search import (
    position_equity,
    rank_moves,
    should_double,
    should_take,
)

__all__ = ["EASY_SEED", "GnubgAgent", "NetAgent", "easy", "hard", "medium"]

EASY_SEED = 1
"""The seed of the untrained net the easy level plays."""

Board = NDArray[np.int8]


class _Backgammon(Protocol):
    """What the players read of a backgammon state (:mod:`zermelo.games.backgammon`)."""

    dice: tuple[int, int]

    def mover_board(self) -> Board: ...

    def afterstates(self) -> Sequence[tuple[Hashable, Board]]: ...

    def legal_moves(self) -> Sequence[Hashable]: ...

    def is_terminal(self) -> bool: ...


def _mover(state: _Backgammon) -> Board:
    return state.mover_board()


def _plays_by_board(state: _Backgammon) -> dict[bytes, Hashable]:
    """Each play of the dice keyed by the mover's ``int8[28]`` afterstate."""
    return {board.tobytes(): play for play, board in state.afterstates()}


def _check_game(state: AnyState) -> _Backgammon:
    if not hasattr(state, "afterstates") or not hasattr(state, "mover_board"):
        raise IllegalMoveError(N_("the backgammon players play backgammon, not this game"))
    if state.is_terminal():
        raise IllegalMoveError("the game is over; there is no move to choose")
    if is_chance(state):
        raise IllegalMoveError(
            N_("the dice are rolled by the referee, not chosen by a player: roll them first")
        )
    return cast(_Backgammon, state)


class NetAgent:
    """The TD net searching ``plies`` (1 or 2) deep; ``cube`` decisions from its equity."""

    def __init__(self, net: Net, plies: int = 1, name: str = "net") -> None:
        self.net = net
        self.plies = plies
        self.name = name

    def choose(self, position: AnyState) -> Hashable:
        state = _check_game(position)
        moves = list(state.legal_moves())
        if "double" in moves:
            equity = position_equity(self.net, _mover(state))
            return "double" if should_double(equity) else "roll"
        if "take" in moves:
            doubler = rules.swapped(_mover(state))
            return "take" if should_take(position_equity(self.net, doubler)) else "drop"
        if len(moves) == 1:
            return moves[0]
        dice = state.dice
        ranked = rank_moves(self.net, _mover(state), (int(dice[0]), int(dice[1])), self.plies)
        plays = _plays_by_board(state)
        play = plays.get(ranked.boards[ranked.best].tobytes())
        if play is None:  # pragma: no cover - one generator: the rules'
            raise IllegalMoveError("the engine's move generator disagrees with the rules")
        return play


class GnubgAgent:
    """GNU Backgammon at its ``plies`` (0: its static evaluation) through
    :class:`~zermelo.agents.gnubg.GnubgProcess`: its cubeless play of the dice, and its cubeful
    money-play cube decisions (double when doubling is worth more than holding; take when a take
    costs the doubler more than a drop)."""

    def __init__(self, plies: int = 0, binary: str = DEFAULT_BINARY, timeout: float = 30.0) -> None:
        self.name = f"gnubg-{plies}ply"
        self.process = GnubgProcess(binary, plies, timeout)

    def choose(self, position: AnyState) -> Hashable:
        state = _check_game(position)
        moves = list(state.legal_moves())
        owner = getattr(state, "owner", None)
        value = int(getattr(state, "cube", 1))
        if "double" in moves:
            held = -1 if owner is None else 1
            _, hold, take, drop = self.process.cube(_mover(state), value, held)
            return "double" if min(take, drop) > hold else "roll"
        if "take" in moves:
            held = (
                -1 if owner is None else 1
            )  # the doubler's view: it doubled from the middle or its own
            _, _, take, drop = self.process.cube(rules.swapped(_mover(state)), value, held)
            return "take" if take <= drop else "drop"
        if len(moves) == 1:
            return moves[0]
        board = _mover(state)
        dice = state.dice
        after = apply_hops(board, self.process.best_move(board, (int(dice[0]), int(dice[1]))))
        play = _plays_by_board(state).get(after.tobytes())
        if play is None:
            raise GnubgError(N_("gnubg's play is not one of the legal plays of the roll"))
        return play

    def close(self) -> None:
        self.process.close()


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return NetAgent(random_net(EASY_SEED), 1, "easy")


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return NetAgent(trained_net(), 1, "medium")


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return NetAgent(trained_net(), 2, "hard")
