"""Backgammon's rules as a zermelo state: dice as chance nodes, gammons, and the doubling cube.

**Sides.** X is :attr:`Player.FIRST`, O :attr:`Player.SECOND`. Each side numbers the points from
its own side: it moves from its 24-point towards its 1-point and bears off below it, so X's point
``p`` is O's point ``25 - p``. Moves are written in the mover's numbering (gnubg's notation), the
position notation lists each side's checkers in its own numbering, and the board (:func:`grid`)
numbers the points from X's side.

**A turn.** With the cube in play (the ``cube`` option, default on: money play), a side that may
double (the cube is in the middle or its own, and below 64) first chooses ``roll`` or
``double``; the opponent answers a double with ``take`` (the cube's value doubles and the taker
owns it) or ``drop`` (the game ends and the doubler wins the cube's value before the double).
Then the dice: a chance node whose outcomes are the 21 rolls, written ``52`` (the larger die
first) or ``66``, 1/18 each for two different dice and 1/36 for a double. Then the side plays
the roll (:mod:`.kernel` generates the moves): a move such as ``24/18 13/11``, ``bar/22``,
``6/off``, ``13/7(2)``, ``8/4*`` (a hit), or ``pass`` when the roll cannot be played.

**The opening roll**, as OpenSpiel has it: each side throws one die, equal dice are thrown again,
and the higher die starts, playing both dice at once (no cube decision before it). Its 30
outcomes, 1/30 each, are written as X's die then O's: ``52`` is X 5 and O 2 (X plays 52), ``25``
is X 2 and O 5 (O plays 52). At the opening chance node ``to_move`` is X.

**Scoring.** The side that bears off its 15 checkers first wins 1 point, 2 for a gammon (the
loser bore none off), 3 for a backgammon (and still has a checker on the bar or in the winner's
home board), times the cube's value; a dropped double wins the cube's value. :meth:`payoff` is
what X wins. No Jacoby rule, no beavers, no Crawford rule (money play).

**Position notation**, one line of four parts separated by ``;``::

    X 24:2 13:5 8:3 6:5; O 24:2 13:5 8:3 6:5; cube 1; X to roll

each side's checkers as ``point:count`` in its own numbering (``bar:N`` and ``off:N`` for the bar
and the borne-off tray), the cube (``cube 1`` in the middle, ``cube 4 O`` owned by O, ``no cube``
without the cube), and the phase: ``opening`` (the opening roll is next), ``X to roll`` (X may
double or roll), ``X rolls`` (the dice are next: no cube decision), ``X to play 52``, ``X
doubles`` (O takes or drops), ``X drops`` (over: O won the cube) or ``X wins`` (over: X bore
off).
"""

from __future__ import annotations

import itertools
import math
import re
import threading
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Final, NamedTuple, TypeAlias

import numpy as np

from zermelo.core.errors import N_, IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.state import Player
from zermelo.games.backgammon import kernel

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "CUBE_ACTIONS",
    "MARKS",
    "MAX_CUBE",
    "BackgammonMove",
    "BackgammonState",
    "Phase",
    "Play",
    "Roll",
    "perft",
]

MAX_CUBE: Final = 64
"""The cube's highest value: a side may not double a cube of 64."""

CUBE_ACTIONS: Final = ("roll", "double", "take", "drop")
"""The cube's decisions: before the dice ``roll`` or ``double``; after a double ``take`` or
``drop``."""

MARKS: Final = ("X", "O")


class Phase(IntEnum):
    """Where a turn is."""

    OPENING = 0
    """The opening roll (chance, 30 outcomes) decides who starts."""
    DECIDE = 1
    """The side to move may double before its roll: ``roll`` or ``double``."""
    ROLL = 2
    """The dice (chance, 21 outcomes)."""
    MOVE = 3
    """The side to move plays its dice."""
    DOUBLED = 4
    """The side to move answers a double: ``take`` or ``drop``."""
    DROPPED = 5
    """Over: the side not to move dropped a double; the side to move (the doubler, who would roll
    next) won the cube."""
    OVER = 6
    """Over: a side bore off its 15 checkers."""


class Roll(NamedTuple):
    """A roll of the dice: the larger die first (``Roll(5, 2)``, ``Roll(6, 6)``); at the opening,
    X's die then O's."""

    first: int
    second: int


class Play(NamedTuple):
    """A play of the dice: one step ``(from, to)`` per die used, in the mover's numbering (25 the
    bar, 0 off), the highest first; ``Play(())`` when the roll cannot be played."""

    steps: tuple[tuple[int, int], ...]


BackgammonMove: TypeAlias = Play | Roll | str
"""A move: a :class:`Play`, a :class:`Roll` at a chance node, or a cube decision (a word of
:data:`CUBE_ACTIONS`)."""

# OpenSpiel's order of the 21 rolls: the 15 with two different dice, then the doubles.
_PAIRS: Final = tuple((a, b) for a in range(1, 7) for b in range(a + 1, 7))
_ROLLS: Final = tuple(Roll(b, a) for a, b in _PAIRS) + tuple(Roll(d, d) for d in range(1, 7))
_ROLL_OUTCOMES: Final = tuple(
    (roll, 1 / 36 if roll.first == roll.second else 1 / 18) for roll in _ROLLS
)
_OPENING: Final = tuple(Roll(b, a) for a, b in _PAIRS) + tuple(Roll(a, b) for a, b in _PAIRS)
_OPENING_OUTCOMES: Final = tuple((roll, 1 / 30) for roll in _OPENING)

_START: Final = bytes(
    v & 0xFF
    for v in (
        0,
        -2,
        0,
        0,
        0,
        0,
        5,
        0,
        3,
        0,
        0,
        0,
        -5,
        5,
        0,
        0,
        0,
        -3,
        0,
        -5,
        0,
        0,
        0,
        0,
        2,
        0,
        0,
        0,
    )
)
"""The start (kernel layout, either side's view): built without the kernel, so importing the
rules compiles nothing."""

_local = threading.local()


def _buffers() -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int8], NDArray[np.int64]]:
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = kernel.new_buffers()
        _local.buffers = buffers
    return buffers


def _array(board: bytes) -> NDArray[np.int8]:
    return np.frombuffer(board, np.int8).copy()


def _swap_bytes(board: bytes) -> bytes:
    """A board (28 bytes) as the other side sees it."""
    b = board
    out = bytearray(28)
    out[0], out[27], out[25], out[26] = b[27], b[0], b[26], b[25]
    for p in range(1, 25):
        out[p] = (-_signed(b[25 - p])) & 0xFF
    return bytes(out)


def _signed(byte: int) -> int:
    return byte - 256 if byte > 127 else byte


def _values(board: bytes) -> list[int]:
    return [_signed(x) for x in board]


@dataclass(frozen=True, slots=True)
class BackgammonState:
    """An immutable backgammon position with its turn, dice and cube (see the module's
    docstring). ``board`` is the kernel's 28 bytes from X's side (:mod:`.kernel`'s layout, X the
    mover); ``dice`` is ``(0, 0)`` outside the move phase; ``cube`` is the cube's value (1 when
    the game has no cube) and ``owner`` its owner (``None``: in the middle)."""

    board: bytes = _START
    to_move: Player = Player.FIRST
    phase: Phase = Phase.OPENING
    dice: tuple[int, int] = (0, 0)
    cube: int = 1
    owner: Player | None = None
    cubeful: bool = True
    ply: int = 0
    _cache: dict[str, object] = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def initial(cls, cube: bool = True) -> BackgammonState:
        """The start: both sides' checkers in place, the opening roll next (X "to move" at that
        chance node; the roll decides who plays first)."""
        return cls(_START, Player.FIRST, Phase.OPENING, (0, 0), 1, None, cube, 0)

    def may_double(self, side: Player) -> bool:
        """Whether ``side`` may double now, by the cube (money play: it owns the cube or the cube
        is in the middle, and its value is below :data:`MAX_CUBE`)."""
        return self.cubeful and (self.owner is None or self.owner is side) and self.cube < MAX_CUBE

    def _turn(
        self, side: Player, board: bytes, ply: int, cube: int, owner: Player | None
    ) -> BackgammonState:
        """``side``'s turn starting: the cube decision when it may double, else the dice."""
        state = BackgammonState(board, side, Phase.ROLL, (0, 0), cube, owner, self.cubeful, ply)
        if state.may_double(side):
            return BackgammonState(
                board, side, Phase.DECIDE, (0, 0), cube, owner, self.cubeful, ply
            )
        return state

    # -- the mover's view ---------------------------------------------------------------------

    def mover_board(self) -> NDArray[np.int8]:
        """The board from the side to move's view (the kernel's layout), a new array."""
        board = self.board if self.to_move is Player.FIRST else _swap_bytes(self.board)
        return _array(board)

    def _mover_bytes(self) -> bytes:
        return self.board if self.to_move is Player.FIRST else _swap_bytes(self.board)

    def _from_mover(self, board: bytes) -> bytes:
        return board if self.to_move is Player.FIRST else _swap_bytes(board)

    def pips(self) -> tuple[int, int]:
        """The pip counts ``(X, O)``."""
        values = _values(self.board)
        x = 25 * values[25] + sum(p * v for p, v in enumerate(values[1:25], 1) if v > 0)
        o = 25 * values[26] - sum((25 - p) * v for p, v in enumerate(values[1:25], 1) if v < 0)
        return x, o

    # -- the State protocol -------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase >= Phase.DROPPED

    def is_chance(self) -> bool:
        return self.phase in (Phase.OPENING, Phase.ROLL)

    def chance_outcomes(self) -> tuple[tuple[Roll, float], ...]:
        if self.phase is Phase.OPENING:
            return _OPENING_OUTCOMES
        if self.phase is Phase.ROLL:
            return _ROLL_OUTCOMES
        return ()

    def _points(self) -> int:
        """What the winner of a finished game wins, the cube included (0 while it runs)."""
        if self.phase is Phase.DROPPED:
            return self.cube
        if self.phase is not Phase.OVER:
            return 0
        return abs(int(kernel.result(_array(self.board)))) * self.cube

    @property
    def winner(self) -> Player | None:
        if self.phase is Phase.DROPPED:
            return self.to_move
        if self.phase is Phase.OVER:
            return Player.FIRST if self.board[0] >= kernel.CHECKERS else Player.SECOND
        return None

    def payoff(self) -> float:
        """What X wins: ± 1, 2 or 3 (single game, gammon, backgammon) times the cube, or the
        cube's value after a dropped double; 0.0 while the game runs."""
        winner = self.winner
        if winner is None:
            return 0.0
        points = float(self._points())
        return points if winner is Player.FIRST else -points

    def termination(self) -> str | None:
        """Why the game is over, as a message id: a drop, a backgammon, a gammon or a single game
        (``None`` while it runs)."""
        if self.phase is Phase.DROPPED:
            return N_("double dropped")
        if self.phase is not Phase.OVER:
            return None
        points = self._points() // self.cube
        if points == 3:
            return N_("backgammon")
        if points == 2:
            return N_("gammon")
        return N_("all checkers borne off")

    def _moves(self) -> tuple[list[Play], dict[Play, bytes], dict[bytes, Play]]:
        """The plays of the dice: the list, each play's afterstate (from X's side) and the play
        of each afterstate; cached."""
        cached = self._cache.get("moves")
        if cached is None:
            boards, steps, work, table = _buffers()
            n = kernel.gen_moves(
                self.mover_board(), self.dice[0], self.dice[1], boards, steps, work, table
            )
            plays: list[Play] = []
            after: dict[Play, bytes] = {}
            by_board: dict[bytes, Play] = {}
            for i in range(n):
                row = steps[i]
                pairs = sorted(
                    ((int(row[2 * k]), int(row[2 * k + 1])) for k in range(4) if row[2 * k] >= 0),
                    reverse=True,
                )
                play = Play(tuple(pairs))
                board = self._from_mover(boards[i].tobytes())
                plays.append(play)
                after[play] = board
                by_board[board] = play
            cached = (plays, after, by_board)
            self._cache["moves"] = cached
        return cached  # type: ignore[return-value]

    def legal_moves(self) -> list[BackgammonMove]:
        """The chance outcomes at a chance node; ``roll`` then ``double`` before the dice (when
        the side may double); ``take`` then ``drop`` after a double; the plays of the dice (one
        per position they reach); nothing when the game is over."""
        phase = self.phase
        if phase is Phase.MOVE:
            return list(self._moves()[0])
        if phase is Phase.OPENING:
            return list(_OPENING)
        if phase is Phase.ROLL:
            return list(_ROLLS)
        if phase is Phase.DECIDE:
            return ["roll", "double"]
        if phase is Phase.DOUBLED:
            return ["take", "drop"]
        return []

    def afterstates(self) -> list[tuple[Play, NDArray[np.int8]]]:
        """Each play of the dice with the board it leaves, from the mover's view (the kernel's
        layout): what a 1-ply search values."""
        plays, after, _ = self._moves()
        return [(play, _array(self._to_mover(after[play]))) for play in plays]

    def _to_mover(self, board: bytes) -> bytes:
        return board if self.to_move is Player.FIRST else _swap_bytes(board)

    def play(self, move: BackgammonMove) -> BackgammonState:
        phase = self.phase
        ply = self.ply + 1
        if phase is Phase.MOVE:
            if not isinstance(move, Play):
                raise IllegalMoveError(
                    N_(
                        "{move!r} is not a play of the dice {dice}; expected one such as 24/18 13/11"
                    ),
                    move=move if isinstance(move, str) else self._describe(move),
                    dice=self._dice_text(),
                )
            _, after, _ = self._moves()
            board = after.get(move)
            if board is None:
                board = self._route(move)
            if board is None:
                raise IllegalMoveError(
                    N_("{move} is not a legal play of {dice}; legal plays: {legal}"),
                    move=self._steps_text(move.steps),
                    dice=self._dice_text(),
                    legal=self._legal_text(),
                )
            if board[0] >= kernel.CHECKERS or board[27] >= kernel.CHECKERS:
                return BackgammonState(
                    board,
                    self.to_move.opponent,
                    Phase.OVER,
                    (0, 0),
                    self.cube,
                    self.owner,
                    self.cubeful,
                    ply,
                )
            return self._turn(self.to_move.opponent, board, ply, self.cube, self.owner)
        if phase is Phase.OPENING or phase is Phase.ROLL:
            if not isinstance(move, Roll) or move not in (
                _OPENING if phase is Phase.OPENING else _ROLLS
            ):
                if isinstance(move, tuple) and len(move) == 2 and not isinstance(move, Play):
                    a, b = move
                    if phase is Phase.ROLL and isinstance(a, int) and isinstance(b, int):
                        normal = Roll(max(a, b), min(a, b))
                        if normal in _ROLLS:
                            return self.play(normal)
                raise IllegalMoveError(
                    N_("{move!r} is not a roll of the dice; expected two dice such as 52"),
                    move=move if isinstance(move, str) else self._describe(move),
                )
            if phase is Phase.OPENING:
                side = Player.FIRST if move.first > move.second else Player.SECOND
                dice = (max(move), min(move))
            else:
                side, dice = self.to_move, (move.first, move.second)
            return BackgammonState(
                self.board, side, Phase.MOVE, dice, self.cube, self.owner, self.cubeful, ply
            )
        if phase is Phase.DECIDE and move in ("roll", "double"):
            if move == "roll":
                return BackgammonState(
                    self.board,
                    self.to_move,
                    Phase.ROLL,
                    (0, 0),
                    self.cube,
                    self.owner,
                    self.cubeful,
                    ply,
                )
            return BackgammonState(
                self.board,
                self.to_move.opponent,
                Phase.DOUBLED,
                (0, 0),
                self.cube,
                self.owner,
                self.cubeful,
                ply,
            )
        if phase is Phase.DOUBLED and move in ("take", "drop"):
            if move == "drop":
                return BackgammonState(
                    self.board,
                    self.to_move.opponent,
                    Phase.DROPPED,
                    (0, 0),
                    self.cube,
                    self.owner,
                    self.cubeful,
                    ply,
                )
            return BackgammonState(
                self.board,
                self.to_move.opponent,
                Phase.ROLL,
                (0, 0),
                self.cube * 2,
                self.to_move,
                self.cubeful,
                ply,
            )
        if self.is_terminal():
            raise IllegalMoveError(N_("the game is over: no move is legal"))
        raise IllegalMoveError(
            N_("{move!r} is not legal now; legal: {legal}"),
            move=move if isinstance(move, str) else self._describe(move),
            legal=self._legal_text(),
        )

    def key(self) -> Hashable:
        """Everything but the number of moves played."""
        return (
            self.board,
            self.to_move,
            self.phase,
            self.dice,
            self.cube,
            self.owner,
            self.cubeful,
        )

    # -- evaluation ---------------------------------------------------------------------------

    def race_chance(self) -> float:
        """A rough chance that the side to move wins: a logistic of its lead in pips (the roll of
        the side on roll counted as 8 pips), less 4 pips for each of its blots that an opposing
        checker could reach, plus 2 for each point it holds among its 1- to 7-points, and the
        same for the opponent the other way. A heuristic for the generic levels only."""
        values = _values(self._mover_bytes())
        mine, theirs = _shape(values)
        lead = theirs - mine
        on_roll = self.phase in (Phase.DECIDE, Phase.ROLL, Phase.MOVE)
        if self.phase is Phase.MOVE:
            lead += self.dice[0] + self.dice[1] * (3 if self.dice[0] == self.dice[1] else 1)
            on_roll = False
        if on_roll:
            lead += 8
        elif self.phase is Phase.DOUBLED:
            lead -= 8  # the doubler rolls next
        pips = sum(kernel.pips(np.array(values, np.int8)))
        scale = 4.0 + 0.08 * pips
        return 1.0 / (1.0 + math.exp(-lead / scale))

    def evaluate(self) -> float:
        """Expected points from the side to move, by :meth:`race_chance` (a heuristic for the
        generic levels): the payoff at the end; after a double the better of taking (twice the
        stake) and dropping."""
        if self.is_terminal():
            value = self.payoff()
            return value if self.to_move is Player.FIRST else -value
        p = self.race_chance()
        equity = self.cube * (2.0 * p - 1.0)
        if self.phase is Phase.DOUBLED:
            return max(2.0 * equity, -float(self.cube))
        return equity

    # -- notation -----------------------------------------------------------------------------

    def _dice_text(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}"

    def _legal_text(self) -> str:
        moves = self.legal_moves()
        shown = ", ".join(self.format_move(m) for m in moves[:12])
        return shown + (", ..." if len(moves) > 12 else "")

    @staticmethod
    def _describe(move: object) -> str:
        return repr(move)[:60]

    def _hits(self, steps: Iterable[tuple[int, int]]) -> set[int]:
        """The points (mover's numbering) where ``steps`` hit a blot."""
        mover = _values(self._mover_bytes())
        return {to for _, to in steps if 1 <= to <= 24 and mover[to] == -1}

    def _steps_text(self, steps: tuple[tuple[int, int], ...]) -> str:
        """gnubg's form of a play: one checker's steps joined (``24/16``, with a point shown
        where it hits: ``24/18*/16``), equal ones counted (``13/7(2)``), the highest first."""
        if not steps:
            return "pass"
        hits = self._hits(steps)
        chains: list[list[int]] = []
        for start, to in sorted(steps, reverse=True):
            for chain in chains:
                if chain[-1] == start and start > 0:
                    chain.append(to)
                    break
            else:
                chains.append([start, to])
        shown: list[tuple[int, ...]] = []
        for chain in chains:
            points = [chain[0]] + [p for p in chain[1:-1] if p in hits] + [chain[-1]]
            shown.append(tuple(points))
        shown.sort(key=lambda points: (points[0], points[-1], points), reverse=True)
        words = []
        for shape, group in itertools.groupby(shown):
            count = len(list(group))
            text = "/".join(_point_name(p) + ("*" if p in hits else "") for p in shape)
            words.append(text + (f"({count})" if count > 1 else ""))
        return " ".join(words)

    def format_move(self, move: BackgammonMove) -> str:
        """``24/18 13/11``, ``bar/22*``, ``6/off``, ``13/7(2)``, ``pass``; a roll ``52`` (at the
        opening X's die then O's); ``roll``, ``double``, ``take``, ``drop``."""
        if isinstance(move, str):
            return move
        if isinstance(move, Play):
            return self._steps_text(move.steps)
        return f"{move.first}{move.second}"

    def parse_move(self, text: str) -> BackgammonMove:
        """A move in gnubg's notation: a play (any spelling of a legal one: ``24/16``,
        ``24/18/16``, ``24/18 18/16``, ``bar/22``, ``25/22``, ``6/off``, ``6/0``, ``13/7(2)``,
        ``8/4*``), ``pass`` (a roll that cannot be played; after a double, gnubg's word for
        ``drop``), a roll ``52`` / ``5-2``, or ``roll``, ``double``, ``take``, ``drop``."""
        if not isinstance(text, str):
            raise ParseError(N_("invalid backgammon move {text!r}: expected text"), text=text)
        word = " ".join(text.strip().lower().split())
        if len(word) > 80:
            raise ParseError(
                N_("invalid backgammon move {text!r}: too long"), text=text[:40] + "..."
            )
        if word in CUBE_ACTIONS:
            return word
        if word == "pass" and self.phase is Phase.DOUBLED:
            return "drop"
        roll = _ROLL_TEXT.fullmatch(word)
        if roll:
            a, b = int(roll.group(1)), int(roll.group(2))
            if self.phase is Phase.OPENING:
                if a == b:
                    raise ParseError(
                        N_(
                            "invalid opening roll {text!r}: the dice differ (equal ones are "
                            "thrown again)"
                        ),
                        text=text,
                    )
                return Roll(a, b)
            return Roll(max(a, b), min(a, b))
        if word in ("pass", "cannot move", "no move"):
            return Play(())
        hops = _parse_hops(text, word)
        if self.phase is not Phase.MOVE:
            # notation only: play() says why a play is not legal now
            return Play(tuple(sorted(((h.start, h.end) for h in hops), reverse=True)))
        return self._resolve(text, hops)

    def _resolve(self, text: str, hops: list[_Hop]) -> Play:
        """The legal play that ``hops`` spell, whatever the route and the order they take."""
        plays, _, by_board = self._moves()
        written = {self._steps_text(p.steps): p for p in plays}
        canonical = written.get(" ".join(text.strip().lower().split()))
        if canonical is not None:
            return canonical
        marked = {h.end for h in hops if h.hit}
        found: dict[Play, list[set[int]]] = {}
        for route in self._routes(hops):
            board = self._walk(route)
            if board is None:
                continue
            play = by_board.get(self._from_mover(board))
            if play is not None:
                found.setdefault(play, []).append(self._hits((s, t) for s, t, _ in route))
        if not found:
            # well written but no legal play: play() says so (parsing checks the notation)
            return Play(tuple(sorted(((h.start, h.end) for h in hops), reverse=True)))
        exact = [play for play, hits in found.items() if marked in hits]
        if len(exact) == 1:
            return exact[0]
        fitting = [play for play, hits in found.items() if any(marked <= h for h in hits)]
        if len(fitting) == 1:
            return fitting[0]
        if not fitting:
            raise ParseError(
                N_("{text!r}: no play of {dice} hits where the * marks say; legal plays: {legal}"),
                text=text.strip()[:60],
                dice=self._dice_text(),
                legal=self._legal_text(),
            )
        raise ParseError(
            N_("{text!r} could be {choices}: mark the hits with * to choose"),
            text=text.strip()[:60],
            choices=" or ".join(sorted(self._steps_text(p.steps) for p in fitting)),
        )

    def _routes(self, hops: list[_Hop]) -> Iterable[tuple[tuple[int, int, int], ...]]:
        """Every way the dice can take the checkers along ``hops``: steps ``(from, to, die)``."""
        d1, d2 = self.dice
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        seen: set[tuple[tuple[int, int, int], ...]] = set()
        for count in range(len(hops), len(dice) + 1):
            for chosen in sorted(set(itertools.permutations(dice, count))):
                for cut in _cuts(count, len(hops)):
                    route = _route(hops, chosen, cut)
                    if route is not None and route not in seen:
                        seen.add(route)
                        yield route

    def _walk(self, route: tuple[tuple[int, int, int], ...]) -> bytes | None:
        """The mover's board after the steps of ``route``, played in some order the rules allow
        step by step, or ``None`` when none does."""
        start = _values(self._mover_bytes())
        for order in sorted(set(itertools.permutations(route))):
            board = list(start)
            for s, to, die in order:
                if _target(board, s, die) != to:
                    break
                _step(board, s, to)
            else:
                return bytes(v & 0xFF for v in board)
        return None

    def _route(self, move: Play) -> bytes | None:
        """The afterstate (from X's side) of a play given by steps other than the ones
        :meth:`legal_moves` holds (another route to the same position), or ``None``."""
        steps = move.steps
        if not isinstance(steps, tuple) or len(steps) > 4:
            return None
        hops = []
        for step in steps:
            if (
                not isinstance(step, tuple)
                or len(step) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in step)
                or not 0 <= step[1] < step[0] <= 25
            ):
                return None
            hops.append(_Hop(step[0], step[1], False))
        if not hops:
            return None
        _, after, by_board = self._moves()
        found = set()
        for route in self._routes(hops):
            board = self._walk(route)
            if board is not None:
                play = by_board.get(self._from_mover(board))
                if play is not None:
                    found.add(after[play])
        return found.pop() if len(found) == 1 else None

    def notation(self) -> str:
        values = _values(self.board)
        x = [(p, v) for p, v in enumerate(values[1:25], 1) if v > 0]
        o = [(25 - p, -v) for p, v in enumerate(values[1:25], 1) if v < 0]
        parts = [
            _side_text("X", x, values[25], values[0]),
            _side_text("O", o, values[26], values[27]),
        ]
        if not self.cubeful:
            parts.append("no cube")
        elif self.owner is None:
            parts.append(f"cube {self.cube}")
        else:
            parts.append(f"cube {self.cube} {MARKS[self.owner]}")
        mark = MARKS[self.to_move]
        phase = self.phase
        if phase is Phase.OPENING:
            parts.append("opening")
        elif phase is Phase.DECIDE:
            parts.append(f"{mark} to roll")
        elif phase is Phase.ROLL:
            parts.append(f"{mark} rolls")
        elif phase is Phase.MOVE:
            parts.append(f"{mark} to play {self._dice_text()}")
        elif phase is Phase.DOUBLED:
            parts.append(f"{MARKS[self.to_move.opponent]} doubles")
        elif phase is Phase.DROPPED:
            parts.append(f"{MARKS[self.to_move.opponent]} drops")
        else:
            winner = self.winner
            parts.append(f"{MARKS[winner if winner is not None else 0]} wins")
        return "; ".join(parts)

    def __str__(self) -> str:
        return self.notation()

    @classmethod
    def parse(cls, text: str) -> BackgammonState:
        """The position notation (see the module's docstring)."""
        return _parse_position(text)


class _Hop(NamedTuple):
    start: int
    end: int
    hit: bool


_ROLL_TEXT: Final = re.compile(r"([1-6])[- ]?([1-6])")
_HOP_POINT: Final = re.compile(r"(bar|off|\d{1,2})(\*?)")
_SEGMENT: Final = re.compile(r"([a-z0-9*/]+?)(?:\((\d)\))?")


def _point_name(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def _parse_hops(text: str, word: str) -> list[_Hop]:
    """The hops a play's text names, each checker's hops in order, counts expanded."""
    expected = N_(
        "invalid backgammon move {text!r}: expected plays such as 24/18 13/11, bar/22, 6/off, "
        "13/7(2) or 8/4*, a roll such as 52, pass, roll, double, take or drop"
    )
    hops: list[_Hop] = []
    segments = [s for s in re.split(r"[ ,]+", word) if s]
    if not segments:
        raise ParseError(expected, text=text[:60])
    for segment in segments:
        match = _SEGMENT.fullmatch(segment)
        if match is None:
            raise ParseError(expected, text=text[:60])
        body, count_text = match.group(1), match.group(2)
        count = int(count_text) if count_text else 1
        names = body.split("/")
        if len(names) < 2 or not 1 <= count <= 4:
            raise ParseError(expected, text=text[:60])
        points: list[tuple[int, bool]] = []
        for name in names:
            point = _HOP_POINT.fullmatch(name)
            if point is None:
                raise ParseError(expected, text=text[:60])
            label, star = point.group(1), point.group(2) == "*"
            value = 25 if label == "bar" else 0 if label == "off" else int(label)
            if value > 25:
                raise ParseError(
                    N_(
                        "invalid backgammon move {text!r}: points run from 1 to 24 (25 the bar, "
                        "0 off)"
                    ),
                    text=text[:60],
                )
            points.append((value, star))
        for (a, _), (b, star) in itertools.pairwise(points):
            if b >= a or b == 25 or (a == 0):
                raise ParseError(
                    N_(
                        "invalid backgammon move {text!r}: a checker moves from a higher point to a "
                        "lower one (from the bar, to off)"
                    ),
                    text=text[:60],
                )
            if star and b == 0:
                raise ParseError(expected, text=text[:60])
        for _ in range(count):
            for (a, _), (b, star) in itertools.pairwise(points):
                hops.append(_Hop(a, b, star))
    if len(hops) > 4:
        raise ParseError(
            N_("invalid backgammon move {text!r}: a play has at most four steps"), text=text[:60]
        )
    return hops


def _shape(values: list[int]) -> tuple[float, float]:
    """Pips plus the positional terms of :meth:`BackgammonState.race_chance`, for the mover and
    the opponent of a mover's board (kernel layout)."""
    scores = [25.0 * values[25], 25.0 * values[26]]
    # the opponent's rearmost checker, in the mover's numbering (it moves from 1 up): on the bar
    # it comes in from 0
    opp_back = 0 if values[26] else min((p for p in range(1, 25) if values[p] < 0), default=25)
    my_back = 25 if values[25] else max((p for p in range(1, 25) if values[p] > 0), default=0)
    for p in range(1, 25):
        v = values[p]
        if v > 0:
            scores[0] += p * v
            if v == 1 and opp_back < p:
                scores[0] += 4
            if v >= 2 and p <= 7:
                scores[0] -= 2
        elif v < 0:
            scores[1] -= (25 - p) * v
            if v == -1 and my_back > p:
                scores[1] += 4
            if v <= -2 and p >= 18:
                scores[1] -= 2
    return scores[0], scores[1]


def _route(
    hops: list[_Hop], dice: tuple[int, ...], cut: tuple[int, ...]
) -> tuple[tuple[int, int, int], ...] | None:
    """The steps ``(from, to, die)`` that take each hop with its share (``cut``) of ``dice`` in
    order, or ``None`` when the dice do not add up to the hops."""
    steps: list[tuple[int, int, int]] = []
    at = 0
    for hop, size in zip(hops, cut, strict=True):
        point = hop.start
        for k, die in enumerate(dice[at : at + size]):
            to = point - die
            if k == size - 1:
                if hop.end == 0 and to <= 0:
                    to = 0
                elif to != hop.end:
                    return None
            elif to <= 0:
                return None
            steps.append((point, to, die))
            point = to
        at += size
    return tuple(steps)


def _target(board: list[int], s: int, d: int) -> int:
    """:func:`kernel._target` on a list: where the checker on ``s`` goes with ``d``, or -1."""
    if not 1 <= s <= 25 or not 1 <= d <= 6:
        return -1
    hi = 25 if board[25] > 0 else max((p for p in range(1, 25) if board[p] > 0), default=0)
    if s == 25:
        if board[25] <= 0:
            return -1
        return 25 - d if board[25 - d] >= -1 else -1
    if board[25] > 0 or board[s] <= 0:
        return -1
    to = s - d
    if to >= 1:
        return to if board[to] >= -1 else -1
    if hi > 6:
        return -1
    return 0 if to == 0 or s == hi else -1


def _step(board: list[int], s: int, to: int) -> None:
    board[s] -= 1
    if to == 0:
        board[0] += 1
    elif board[to] == -1:
        board[to] = 1
        board[26] += 1
    else:
        board[to] += 1


def _cuts(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` counts of at least 1, in order."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(1, total - parts + 2):
        for rest in _cuts(total - first, parts - 1):
            yield (first, *rest)


def _side_text(mark: str, points: list[tuple[int, int]], bar: int, off: int) -> str:
    words = [mark]
    if bar:
        words.append(f"bar:{bar}")
    words.extend(f"{p}:{n}" for p, n in sorted(points, reverse=True))
    if off:
        words.append(f"off:{off}")
    return " ".join(words)


_POSITION_HELP: Final = N_(
    "invalid backgammon position {text!r}: expected four parts separated by ';' such as "
    "'X 24:2 13:5 8:3 6:5; O 24:2 13:5 8:3 6:5; cube 1; X to roll' (each side's checkers as "
    "point:count in its own numbering, bar:N, off:N; the cube: cube 1, cube 2 X or no cube; the "
    "phase: opening, X to roll, X rolls, X to play 52, X doubles, X drops or X wins)"
)


def _parse_side(text: str, part: str, mark: str) -> tuple[dict[int, int], int, int]:
    words = part.split()
    if not words or words[0].upper() != mark:
        raise ParseError(_POSITION_HELP, text=text[:100])
    points: dict[int, int] = {}
    bar = off = 0
    for word in words[1:]:
        name, colon, count_text = word.lower().partition(":")
        if not colon or not count_text.isdigit() or len(count_text) > 2:
            raise ParseError(_POSITION_HELP, text=text[:100])
        count = int(count_text)
        if name == "bar":
            bar += count
        elif name == "off":
            off += count
        elif name.isdigit() and len(name) <= 2 and 1 <= int(name) <= 24:
            if int(name) in points:
                raise InvalidPositionError(
                    N_("invalid backgammon position: {side}'s point {point} is listed twice"),
                    side=mark,
                    point=int(name),
                )
            points[int(name)] = count
        else:
            raise ParseError(_POSITION_HELP, text=text[:100])
    total = sum(points.values()) + bar + off
    if total != kernel.CHECKERS:
        raise InvalidPositionError(
            N_("invalid backgammon position: {side} has {count} checkers; each side has 15"),
            side=mark,
            count=total,
        )
    return points, bar, off


_PHASE_TEXT: Final = re.compile(
    r"(?:([xo]) (to roll|rolls|to play ([1-6])([1-6])|doubles|drops|wins)|opening)"
)


def _parse_position(text: str) -> BackgammonState:
    if not isinstance(text, str):
        raise ParseError(_POSITION_HELP, text=str(text)[:100])
    if len(text) > 400:
        raise ParseError(_POSITION_HELP, text=text[:100])
    parts = [p.strip() for p in text.split(";")]
    if len(parts) != 4:
        raise ParseError(_POSITION_HELP, text=text[:100])
    x_points, x_bar, x_off = _parse_side(text, parts[0], "X")
    o_points, o_bar, o_off = _parse_side(text, parts[1], "O")
    values = [0] * 28
    values[0], values[25], values[26], values[27] = x_off, x_bar, o_bar, o_off
    for p, n in x_points.items():
        values[p] = n
    for p, n in o_points.items():
        q = 25 - p
        if values[q] and n:
            raise InvalidPositionError(
                N_("invalid backgammon position: X's point {point} also holds O's checkers"),
                point=q,
            )
        values[q] -= n
    board = bytes(v & 0xFF for v in values)
    cube_words = parts[2].lower().split()
    cubeful = True
    owner: Player | None = None
    if cube_words == ["no", "cube"]:
        cubeful, cube = False, 1
    elif len(cube_words) in (2, 3) and cube_words[0] == "cube" and cube_words[1].isdigit():
        cube = int(cube_words[1]) if len(cube_words[1]) <= 3 else 0
        if cube not in (1, 2, 4, 8, 16, 32, 64):
            raise InvalidPositionError(
                N_("invalid backgammon position: the cube is 1, 2, 4, ... or 64, not {cube}"),
                cube=cube_words[1][:6],
            )
        if len(cube_words) == 3:
            if cube_words[2] not in ("x", "o"):
                raise ParseError(_POSITION_HELP, text=text[:100])
            owner = Player.FIRST if cube_words[2] == "x" else Player.SECOND
        if (owner is None) != (cube == 1):
            raise InvalidPositionError(
                N_(
                    "invalid backgammon position: a cube of 1 is in the middle; a higher one has "
                    "an owner (cube 2 X)"
                )
            )
    else:
        raise ParseError(_POSITION_HELP, text=text[:100])
    match = _PHASE_TEXT.fullmatch(" ".join(parts[3].lower().split()))
    if match is None:
        raise ParseError(_POSITION_HELP, text=text[:100])
    side = Player.SECOND if match.group(1) == "o" else Player.FIRST
    what = match.group(2) or "opening"
    done = x_off >= kernel.CHECKERS or o_off >= kernel.CHECKERS
    base = BackgammonState(board, side, Phase.ROLL, (0, 0), cube, owner, cubeful, 0)
    if what == "wins":
        if (x_off if side is Player.FIRST else o_off) < kernel.CHECKERS:
            raise InvalidPositionError(
                N_("invalid backgammon position: {side} wins only with 15 checkers off"),
                side=MARKS[side],
            )
        return BackgammonState(board, side.opponent, Phase.OVER, (0, 0), cube, owner, cubeful, 0)
    if done:
        raise InvalidPositionError(
            N_(
                "invalid backgammon position: a side has borne off every checker, so the game "
                "is over ('X wins')"
            )
        )
    if what == "opening":
        return BackgammonState(board, Player.FIRST, Phase.OPENING, (0, 0), cube, owner, cubeful, 0)
    if what == "to roll":
        return base._turn(side, board, 0, cube, owner)
    if what == "rolls":
        return base
    if what.startswith("to play"):
        a, b = int(match.group(3)), int(match.group(4))
        return BackgammonState(
            board, side, Phase.MOVE, (max(a, b), min(a, b)), cube, owner, cubeful, 0
        )
    # a double offered (side doubled) or dropped (side dropped)
    doubler = side if what == "doubles" else side.opponent
    if not base.may_double(doubler):
        raise InvalidPositionError(
            N_("invalid backgammon position: {side} may not double with this cube"),
            side=MARKS[doubler],
        )
    if what == "doubles":
        return BackgammonState(board, doubler.opponent, Phase.DOUBLED, (0, 0), cube, owner, cubeful)
    return BackgammonState(board, doubler, Phase.DROPPED, (0, 0), cube, owner, cubeful, 0)


def perft(state: BackgammonState, rolls: str, depth: int | None = None) -> int:
    """The number of ways to play the rolls ``rolls`` (``"52 66 31"``: one per turn, each side
    in turn from the side to move of a move or dice phase): leaves at the last roll's plays, a
    game over sooner counted once, like chess perft with the dice fixed."""
    words = rolls.split()
    if not words or len(words) > 6 or any(_ROLL_TEXT.fullmatch(w) is None for w in words):
        raise ParseError(
            N_("invalid roll sequence {text!r}: expected 1 to 6 rolls such as '52 66 31'"),
            text=rolls[:60],
        )
    dice = [(int(w[0]), int(w[-1])) for w in words]
    if depth is not None:
        dice = dice[:depth]
    if state.is_terminal() or state.phase not in (Phase.MOVE, Phase.ROLL, Phase.DECIDE):
        raise InvalidPositionError(N_("perft: expected a position of a side to roll or to play"))
    board = state.mover_board()
    buffers = [kernel.new_buffers() for _ in dice]
    return _count(board, dice, 0, buffers)


def _count(
    board: NDArray[np.int8],
    dice: list[tuple[int, int]],
    level: int,
    buffers: list[tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int8], NDArray[np.int64]]],
) -> int:
    if level == len(dice) or kernel.result(board) != 0:
        return 1
    boards, steps, work, table = buffers[level]
    d1, d2 = dice[level]
    n = kernel.gen_moves(board, d1, d2, boards, steps, work, table)
    if level == len(dice) - 1:
        return int(n)
    total = 0
    after = boards[:n].copy()
    for i in range(n):
        total += _count(kernel.swapped(after[i]), dice, level + 1, buffers)
    return total
