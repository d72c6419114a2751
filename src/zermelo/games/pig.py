"""Pig: the dice game of risk, the smallest game where minimax alone does not do.

Two players race to bank ``goal`` points (100 by default). On a turn the player rolls a die
(``die`` faces, 6 by default) as often as they like, adding each roll to the *turn total*, and
then either

* ``roll`` again: a 1 loses the whole turn total and passes the turn; any other face adds to it;
* ``hold``: the turn total is banked, and the turn passes.

The first to bank ``goal`` or more wins. Each roll is a *chance node*: after ``roll`` the state
waits for the die (:meth:`PigState.is_chance`), whose faces ``1`` .. ``die`` are its outcomes,
each with probability ``1/die``, played like moves. So a record lists the rolls with the
decisions (``roll 4 roll 1 hold ...``), and a replay needs no dice. Turns do not alternate: a
player who rolls a 4 moves again.

Position notation: ``FIRST SECOND TURN SIDE`` (the banked scores of X and O, the turn total, who
is to move), then ``roll`` when the die is in the air, ``last=N`` for the last roll, and
``goal=N`` / ``die=N`` when they differ from 100 and 6: ``"0 0 0 X"``,
``"35 60 12 O roll last=5 goal=80"``. Move notation: ``roll`` (``r``), ``hold`` (``h``), and at
a chance node the face rolled, ``1`` .. ``die``.

Values are expected payoffs from the side to move, +1 a win and -1 a loss, so ``2·P(win) - 1``;
the solver (:mod:`zermelo.solvers.pig`) finds them exactly by value iteration.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Final

from zermelo.core.codec import Numbering
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import N_, GameSpec, Grid, IntOption, Ref
from zermelo.core.state import Player

__all__ = [
    "DEFAULT_DIE",
    "DEFAULT_GOAL",
    "HOLD",
    "MAX_DIE",
    "MAX_GOAL",
    "ROLL",
    "SPEC",
    "PigState",
]

ROLL: Final = "roll"
HOLD: Final = "hold"
DEFAULT_GOAL: Final = 100
DEFAULT_DIE: Final = 6
MIN_GOAL: Final = 2
MAX_GOAL: Final = 1000
MIN_DIE: Final = 2
MAX_DIE: Final = 20
SYMBOLS: Final = {Player.FIRST: "X", Player.SECOND: "O"}
_MAX_DIGITS: Final = 7
_NOTATION_HELP: Final = (
    "FIRST SECOND TURN SIDE [roll] [last=N] [goal=N] [die=N], e.g. '0 0 0 X' or '35 60 12 O roll'"
)


@dataclass(frozen=True, slots=True)
class PigState:
    """A Pig position: the banked scores, the turn total, the side to move, and whether the die
    is rolling (a chance node). ``last`` (the last face rolled, 0 before any) and ``ply`` are
    for the faces and do not take part in equality: two states are equal when the game ahead of
    them is the same."""

    first: int
    second: int
    turn: int
    to_move: Player
    rolling: bool = False
    goal: int = DEFAULT_GOAL
    die: int = DEFAULT_DIE
    last: int = field(default=0, compare=False)
    ply: int = field(default=0, compare=False)

    @classmethod
    def initial(
        cls, goal: int = DEFAULT_GOAL, die: int = DEFAULT_DIE, first: Player = Player.FIRST
    ) -> PigState:
        return cls(0, 0, 0, Player(first), False, goal, die)

    def __repr__(self) -> str:
        return f"PigState.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    def banked(self, player: Player) -> int:
        return self.first if player is Player.FIRST else self.second

    @property
    def winner(self) -> Player | None:
        if self.first >= self.goal:
            return Player.FIRST
        if self.second >= self.goal:
            return Player.SECOND
        return None

    def is_terminal(self) -> bool:
        return self.first >= self.goal or self.second >= self.goal

    def termination(self) -> str | None:
        return N_("reached the goal") if self.is_terminal() else None

    def is_chance(self) -> bool:
        return self.rolling and not self.is_terminal()

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if not self.is_chance():
            return []
        probability = 1.0 / self.die
        return [(str(face), probability) for face in range(1, self.die + 1)]

    def legal_moves(self) -> list[str]:
        if self.is_terminal():
            return []
        if self.rolling:
            return [str(face) for face in range(1, self.die + 1)]
        return [ROLL, HOLD]

    def play(self, move: str) -> PigState:
        if self.is_terminal():
            raise IllegalMoveError(
                N_("the game is over; no move is possible ({position})"),
                position=self.notation(),
            )
        ply = self.ply + 1
        if self.rolling:
            face = int(move) if isinstance(move, str) and move.isdigit() and len(move) <= 2 else 0
            if not 1 <= face <= self.die:
                raise IllegalMoveError(
                    N_("the die is rolling: expected a face from 1 to {die}, got {move!r}"),
                    die=self.die,
                    move=move,
                )
            if face == 1:
                return PigState(
                    self.first, self.second, 0, self.to_move.opponent, False, self.goal,
                    self.die, 1, ply,
                )  # fmt: skip
            return PigState(
                self.first, self.second, self.turn + face, self.to_move, False, self.goal,
                self.die, face, ply,
            )  # fmt: skip
        if move == ROLL:
            return PigState(
                self.first, self.second, self.turn, self.to_move, True, self.goal, self.die,
                self.last, ply,
            )  # fmt: skip
        if move == HOLD:
            first, second = self.first, self.second
            if self.to_move is Player.FIRST:
                first += self.turn
            else:
                second += self.turn
            return PigState(
                first, second, 0, self.to_move.opponent, False, self.goal, self.die, self.last, ply
            )
        raise IllegalMoveError(N_("expected roll or hold, got {move!r}"), move=move)

    def key(self) -> Hashable:
        return (self.first, self.second, self.turn, self.to_move, self.rolling, self.goal, self.die)

    def value_bounds(self) -> tuple[float, float]:
        """Every value, payoff or evaluation, lies in [-1, 1] (a loss, a win)."""
        return (-1.0, 1.0)

    def evaluate(self) -> float:
        """A simple estimate of ``2·P(win) - 1`` for the side to move, for depth-limited search:
        the share of the race the opponent still has to run, counting the turn total as banked
        (holding would bank it): ``p = theirs / (mine + theirs)`` with ``mine`` and ``theirs`` the
        points each side still needs. The search's dice decide whether the turn total survives."""
        mine = max(0, self.goal - self.banked(self.to_move) - self.turn)
        theirs = max(1, self.goal - self.banked(self.to_move.opponent))
        return 2.0 * theirs / (mine + theirs) - 1.0

    # -- notation ---------------------------------------------------------------------------

    def notation(self) -> str:
        words = [str(self.first), str(self.second), str(self.turn), SYMBOLS[self.to_move]]
        if self.rolling:
            words.append(ROLL)
        if self.last:
            words.append(f"last={self.last}")
        if self.goal != DEFAULT_GOAL:
            words.append(f"goal={self.goal}")
        if self.die != DEFAULT_DIE:
            words.append(f"die={self.die}")
        return " ".join(words)

    @staticmethod
    def parse_move(text: str) -> str:
        """``roll``/``r``, ``hold``/``h`` or a face ``1``..``20``; ``play`` checks legality."""
        word = text.strip().lower()
        if word in (ROLL, "r"):
            return ROLL
        if word in (HOLD, "h"):
            return HOLD
        if word.isascii() and word.isdigit() and len(word) <= 2 and 1 <= int(word) <= MAX_DIE:
            return str(int(word))
        raise ParseError(
            N_("invalid move {text!r}: expected roll, hold or a face of the die"), text=text[:40]
        )

    @staticmethod
    def format_move(move: str) -> str:
        return move

    @classmethod
    def parse(cls, text: str) -> PigState:
        """A position in Pig's notation (see the module); raises :class:`ParseError` or
        :class:`InvalidPositionError` saying what is wrong."""
        words = text.split()
        if len(words) < 4 or len(words) > 8:
            raise ParseError(
                N_("invalid position {text!r}: expected {form}"),
                text=text[:80],
                form=_NOTATION_HELP,
            )
        numbers = []
        for word in words[:3]:
            if not (word.isascii() and word.isdigit() and len(word) <= _MAX_DIGITS):
                raise ParseError(
                    N_("invalid position {text!r}: {word!r} is not a score; expected {form}"),
                    text=text[:80],
                    word=word[:20],
                    form=_NOTATION_HELP,
                )
            numbers.append(int(word))
        side_word = words[3].upper()
        if side_word not in ("X", "O"):
            raise ParseError(
                N_("invalid side to move {side!r} in {text!r}: expected X or O"),
                side=words[3][:20],
                text=text[:80],
            )
        side = Player.FIRST if side_word == "X" else Player.SECOND
        rolling = False
        extra = {"last": 0, "goal": DEFAULT_GOAL, "die": DEFAULT_DIE}
        seen: set[str] = set()
        for word in words[4:]:
            lowered = word.lower()
            if lowered == ROLL and not rolling and not seen:
                rolling = True
                continue
            name, equals, value = lowered.partition("=")
            if (
                not equals
                or name not in extra
                or name in seen
                or not (value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS)
            ):
                raise ParseError(
                    N_("invalid position {text!r}: unexpected {word!r}; expected {form}"),
                    text=text[:80],
                    word=word[:20],
                    form=_NOTATION_HELP,
                )
            seen.add(name)
            extra[name] = int(value)
        goal, die, last = extra["goal"], extra["die"], extra["last"]
        if not MIN_GOAL <= goal <= MAX_GOAL:
            raise InvalidPositionError(
                N_("invalid position {text!r}: the goal must be from {low} to {high}"),
                text=text[:80],
                low=MIN_GOAL,
                high=MAX_GOAL,
            )
        if not MIN_DIE <= die <= MAX_DIE:
            raise InvalidPositionError(
                N_("invalid position {text!r}: the die must have from {low} to {high} faces"),
                text=text[:80],
                low=MIN_DIE,
                high=MAX_DIE,
            )
        if last > die:
            raise InvalidPositionError(
                N_("invalid position {text!r}: the last roll {last} is not a face of the die"),
                text=text[:80],
                last=last,
            )
        first, second, turn = numbers
        if first >= goal and second >= goal:
            raise InvalidPositionError(
                N_("impossible position {text!r}: both players have reached the goal"),
                text=text[:80],
            )
        winner = Player.FIRST if first >= goal else Player.SECOND if second >= goal else None
        if winner is not None and (winner is side or turn or rolling):
            raise InvalidPositionError(
                N_(
                    "impossible position {text!r}: the game is over, so the loser is to move "
                    "with no turn total and no die rolling"
                ),
                text=text[:80],
            )
        if first > goal + MAX_GOAL * 2 or second > goal + MAX_GOAL * 2 or turn > 4 * MAX_GOAL:
            raise InvalidPositionError(
                N_("impossible position {text!r}: the scores are far beyond the goal"),
                text=text[:80],
            )
        return cls(first, second, turn, side, rolling, goal, die, last)


def _new(
    goal: int = DEFAULT_GOAL, die: int = DEFAULT_DIE, first: Player = Player.FIRST
) -> PigState:
    return PigState.initial(goal, die, first)


def _parse_on(text: str, goal: int = DEFAULT_GOAL, die: int = DEFAULT_DIE) -> PigState:
    """A position read on the rules of the options, when its notation does not name them."""
    state = PigState.parse(text)
    words = text.lower().split()
    if not any(word.startswith("goal=") for word in words):
        state = PigState(
            state.first, state.second, state.turn, state.to_move, state.rolling, goal,
            state.die, state.last,
        )  # fmt: skip
    if not any(word.startswith("die=") for word in words):
        state = PigState(
            state.first, state.second, state.turn, state.to_move, state.rolling, state.goal,
            die, state.last,
        )  # fmt: skip
    return PigState.parse(state.notation())  # checked on those rules


def _grid(state: PigState) -> Grid:
    """The ``dice`` board: one row (X's total, O's total, the turn total, the last roll)."""
    facts = [
        (N_("to move"), SYMBOLS[state.to_move]),
        (N_("turn total"), str(state.turn)),
        (N_("goal"), str(state.goal)),
        (N_("die"), f"d{state.die}"),
    ]
    if state.is_chance():
        facts.append((N_("the die"), N_("rolling")))
    cells = (str(state.first), str(state.second), str(state.turn), str(state.last or ""))
    return Grid.of([cells], files=("X", "O"), facts=facts)


SPEC: Final = GameSpec(
    name="pig",
    title=N_("Pig"),
    new=_new,
    parse=PigState.parse,
    parse_on=_parse_on,
    options=(
        IntOption("goal", N_("points to win"), MIN_GOAL, MAX_GOAL, DEFAULT_GOAL),
        IntOption("die", N_("faces of the die"), MIN_DIE, MAX_DIE, DEFAULT_DIE),
    ),
    levels={
        "easy": Ref("zermelo.agents.pig:easy"),
        "medium": Ref("zermelo.agents.pig:medium"),
        "hard": Ref("zermelo.agents.pig:hard"),
    },
    board="dice",
    # The page's tree explainer draws Pig's chance nodes, each outcome with its probability.
    explain_tree=True,
    grid=_grid,
    notation="roll or hold (r, h); when the die is rolling, the face: 1 to 6",
    intro=(
        N_(
            "Roll as often as you like, adding each roll to your turn total; a 1 loses it and "
            "passes the turn. Hold to bank the turn total. The first to the goal wins."
        ),
    ),
    # Not quick: the hard level solves the game (a few seconds) the first time it plays.
    chance=True,
    game_solver=Ref("zermelo.solvers.pig:SOLVER"),
    # exact values from the solved table (an estimate only for a goal too big to solve)
    engine_analysis=Ref("zermelo.solvers.pig_analysis:ANALYSIS"),
    # numbered as OpenSpiel's own pig: roll 0, hold 1
    numbering=Numbering(("roll", "hold")),
)
