"""Two tiny games for the web's tests of chance and hidden information, registered for tests only
(see ``registered`` in the tests): a dice race ("minipig", board ``dice``) and a three-card poker
("minicards", board ``cards``, hidden), built on the shared protocol alone, so that the web's tests
never wait for the real games."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.record import GameSpec, Grid, IntOption, Ref
from zermelo.core.state import Player, information_set

# -- a dice race: roll to add the die to your turn's total, hold to bank it; a 1 loses it ------


@dataclass(frozen=True)
class DiceState:
    goal: int = 12
    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    side: Player = Player.FIRST
    rolling: bool = False  # a chance node: the die is in the air
    roll: int = 0  # the last roll (0 before any)
    ply: int = 0

    @property
    def to_move(self) -> Player:
        return self.side

    @property
    def winner(self) -> Player | None:
        for player in Player:
            if self.scores[player] >= self.goal:
                return player
        return None

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance(self) -> bool:
        return self.rolling and not self.is_terminal()

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        return [(face, 1 / 6) for face in range(1, 7)] if self.is_chance() else []

    def legal_moves(self) -> Sequence[Hashable]:
        if self.is_terminal():
            return []
        if self.rolling:
            return list(range(1, 7))
        return ["hold", "roll"]

    def play(self, move: Hashable) -> DiceState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here")
        ply = self.ply + 1
        if move == "roll":
            return replace(self, rolling=True, ply=ply)
        if move == "hold":
            scores = list(self.scores)
            scores[self.side] += self.turn
            done = scores[self.side] >= self.goal
            side = self.side if done else self.side.opponent
            return replace(self, scores=(scores[0], scores[1]), turn=0, side=side, ply=ply)
        assert isinstance(move, int)
        if move == 1:
            return replace(self, turn=0, side=self.side.opponent, rolling=False, roll=1, ply=ply)
        return replace(self, turn=self.turn + move, rolling=False, roll=move, ply=ply)

    def key(self) -> Hashable:
        return self

    def notation(self) -> str:
        mark = "XO"[self.side]
        return f"{self.scores[0]} {self.scores[1]} {self.turn} {mark}{'*' if self.rolling else ''}"

    def parse_move(self, text: str) -> Hashable:
        word = text.strip().lower()
        if word in ("roll", "hold"):
            return word
        if word in ("1", "2", "3", "4", "5", "6"):
            return int(word)
        raise ParseError(f"move {text[:20]!r}: expected roll or hold")

    def format_move(self, move: Hashable) -> str:
        return str(move)

    def evaluate(self) -> float:
        lead = self.scores[self.side] + self.turn - self.scores[self.side.opponent]
        return max(-0.9, min(0.9, lead / (2 * self.goal)))


def dice_new(goal: int = 12) -> DiceState:
    return DiceState(goal=goal)


def dice_parse(text: str) -> DiceState:
    parts = text.split()
    if len(parts) != 4 or not all(p.isdigit() for p in parts[:3]) or parts[3][:1] not in "XO":
        raise ParseError(f"position {text[:40]!r}: expected 'X-total O-total turn X|O'")
    side = Player.FIRST if parts[3][0] == "X" else Player.SECOND
    return DiceState(
        12, (int(parts[0]), int(parts[1])), int(parts[2]), side, parts[3].endswith("*")
    )


def dice_grid(state: DiceState) -> Grid:
    roll = str(state.roll) if state.roll else ""
    return Grid.of(
        [[str(state.scores[0]), str(state.scores[1]), str(state.turn), roll]],
        files=("X", "O"),
        facts=(("goal", str(state.goal)),),
    )


class HoldAt:
    """Holds once the turn's total reaches ``limit`` (or would win)."""

    def __init__(self, limit: int = 4) -> None:
        self.name = f"hold at {limit}"
        self.limit = limit

    def choose(self, state: object) -> Hashable:
        assert isinstance(state, DiceState)
        banked = state.scores[state.side] + state.turn
        return "hold" if state.turn >= self.limit or banked >= state.goal else "roll"


def hold_level(seed: int | None, time_limit: float | None) -> HoldAt:
    return HoldAt(4)


DICE_SPEC: GameSpec[DiceState] = GameSpec(
    name="minipig",
    title="Mini Pig",
    new=dice_new,
    parse=dice_parse,
    options=(IntOption("goal", "points to win", 4, 40, 12),),
    board="dice",
    grid=dice_grid,
    chance=True,
    explain_tree=True,
    quick=True,
    levels={level: Ref(f"{__name__}:hold_level") for level in ("easy", "medium", "hard")},
)


# -- a hidden-card game: each side gets one of J, Q, K; check, bet, call or fold ---------------

CARDS = ("J", "Q", "K")
BETS = ("check", "bet", "call", "fold")


@dataclass(frozen=True)
class CardState:
    hands: tuple[str, ...] = ()
    history: tuple[str, ...] = ()

    @property
    def ply(self) -> int:
        return len(self.hands) + len(self.history)

    @property
    def to_move(self) -> Player:
        if len(self.hands) < 2:
            return Player.FIRST
        return Player(len(self.history) % 2)

    def is_chance(self) -> bool:
        return len(self.hands) < 2

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        if not self.is_chance():
            return []
        left = [card for card in CARDS if card not in self.hands]
        return [(card, 1 / len(left)) for card in left]

    def is_terminal(self) -> bool:
        return self.history in (
            ("check", "check"),
            ("bet", "call"),
            ("bet", "fold"),
            ("check", "bet", "call"),
            ("check", "bet", "fold"),
        )

    def showdown(self) -> bool:
        return self.is_terminal() and self.history[-1] != "fold"

    def payoff(self) -> float:
        if not self.is_terminal():
            return 0.0
        if self.history[-1] == "fold":
            folder = Player((len(self.history) - 1) % 2)
            return 1.0 if folder is Player.SECOND else -1.0
        stake = 2.0 if "bet" in self.history else 1.0
        return stake if CARDS.index(self.hands[0]) > CARDS.index(self.hands[1]) else -stake

    @property
    def winner(self) -> Player | None:
        pay = self.payoff()
        return None if pay == 0 else Player.FIRST if pay > 0 else Player.SECOND

    def legal_moves(self) -> Sequence[Hashable]:
        if self.is_terminal():
            return []
        if self.is_chance():
            return [card for card, _ in self.chance_outcomes()]
        if self.history and self.history[-1] == "bet":
            return ["call", "fold"]
        return ["bet", "check"]

    def play(self, move: Hashable) -> CardState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here")
        if self.is_chance():
            return CardState((*self.hands, str(move)), self.history)
        return CardState(self.hands, (*self.history, str(move)))

    def key(self) -> Hashable:
        return self

    def notation(self) -> str:
        return f"{''.join(self.hands) or '-'} {' '.join(self.history)}".strip()

    def parse_move(self, text: str) -> Hashable:
        word = text.strip()
        if word.lower() in BETS:
            return word.lower()
        if word.upper() in CARDS:
            return word.upper()
        raise ParseError(f"move {text[:20]!r}: expected check, bet, call or fold")

    def format_move(self, move: Hashable) -> str:
        return str(move)

    def information_set(self, player: Player) -> Hashable:
        own = self.hands[player] if len(self.hands) > player else ""
        return (player, own, len(self.hands), self.history)

    def observation(self, player: Player) -> str:
        own = self.hands[player] if len(self.hands) > player else "-"
        other = self.hands[1 - player] if self.showdown() else "?"
        return f"{own} {other} {' '.join(self.history)}".strip()


def cards_new() -> CardState:
    return CardState()


def cards_parse(text: str) -> CardState:
    raise ParseError("minicards has no position notation to read")


def _pot(state: CardState) -> str:
    return str(2 + sum(1 for word in state.history if word in ("bet", "call")))


def cards_view(state: CardState, player: Player) -> Grid:
    own = state.hands[player] if len(state.hands) > player else ""
    other = ""
    if len(state.hands) > 1 - player:
        other = state.hands[1 - player] if state.showdown() else "?"
    return Grid.of(
        [[other], [], [own]],
        facts=(("pot", _pot(state)), ("betting", " ".join(state.history) or "-")),
    )


def cards_grid(state: CardState) -> Grid:
    hidden = ["?"] * min(len(state.hands), 1)
    return Grid.of([hidden, [], hidden], facts=(("pot", _pot(state)),))


class InfoSetAgent:
    """Bets with a king, calls with a queen or better, checks or folds otherwise: it reads only
    ``information_set(to_move)``, never the other hand."""

    name = "infoset"

    def choose(self, state: object) -> Hashable:
        assert isinstance(state, CardState)
        _, own, _, history = information_set(state, state.to_move)  # type: ignore[misc]
        if history and history[-1] == "bet":
            return "call" if own in ("Q", "K") else "fold"
        return "bet" if own == "K" else "check"


def card_level(seed: int | None, time_limit: float | None) -> InfoSetAgent:
    return InfoSetAgent()


CARDS_SPEC: GameSpec[CardState] = GameSpec(
    name="minicards",
    title="Mini cards",
    new=cards_new,
    parse=cards_parse,
    board="cards",
    grid=cards_grid,
    view=cards_view,
    chance=True,
    hidden=True,
    scored=True,
    quick=True,
    levels={level: Ref(f"{__name__}:card_level") for level in ("easy", "medium", "hard")},
)


# -- a backgammon on the bgrules kernel: no cube, the first player rolls first ------------------

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


def _kernel() -> object:
    from zermelo.core.jit import kernel_variant
    from zermelo.games.backgammon import kernel

    return kernel_variant(kernel, False, "backgammon kernel")  # the plain copy: no compile wait


def _name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def _number(name: str) -> int:
    return 25 if name == "bar" else 0 if name == "off" else int(name)


@functools.lru_cache(maxsize=4096)
def _gammon_moves(
    board_of: tuple[int, ...], dice: tuple[int, int]
) -> list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]:
    import numpy as np

    k = _kernel()
    buffers = k.new_buffers()  # type: ignore[attr-defined]
    board = np.array(board_of, np.int8)
    n = k.gen_moves(board, dice[0], dice[1], *buffers)  # type: ignore[attr-defined]
    found = []
    for i in range(n):
        row = [int(x) for x in buffers[1][i]]
        steps = tuple((row[j], row[j + 1]) for j in range(0, 8, 2) if row[j] >= 0)
        after = np.empty(28, np.int8)
        k.swap(buffers[0][i], after)  # type: ignore[attr-defined]
        found.append((steps, tuple(int(x) for x in after)))
    return found


@dataclass(frozen=True)
class GammonState:
    board: tuple[int, ...]  # the kernel's int8[28], from the mover's view
    mover: Player = Player.FIRST
    dice: tuple[int, int] | None = None  # None: a chance node, the dice to roll
    ply: int = 0

    @property
    def to_move(self) -> Player:
        return self.mover

    def _result(self) -> int:
        import numpy as np

        return int(_kernel().result(np.array(self.board, np.int8)))  # type: ignore[attr-defined]

    def payoff(self) -> float:
        points = self._result()
        return float(points if self.mover is Player.FIRST else -points)

    @property
    def winner(self) -> Player | None:
        pay = self.payoff()
        return None if pay == 0 else Player.FIRST if pay > 0 else Player.SECOND

    def is_terminal(self) -> bool:
        return self._result() != 0

    def is_chance(self) -> bool:
        return self.dice is None and not self.is_terminal()

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        if not self.is_chance():
            return []
        return [(f"{a}{b}", (1 if a == b else 2) / 36) for a, b in ROLLS]

    def _moves(self) -> list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]:
        assert self.dice is not None
        return _gammon_moves(self.board, self.dice)

    def legal_moves(self) -> Sequence[Hashable]:
        if self.is_terminal():
            return []
        if self.dice is None:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return sorted(steps for steps, _ in self._moves())

    def play(self, move: Hashable) -> GammonState:
        if self.dice is None:
            if move not in self.legal_moves():
                raise IllegalMoveError(f"{move!r} is not a roll")
            text = str(move)
            return replace(self, dice=(int(text[0]), int(text[1])), ply=self.ply + 1)
        for steps, after in self._moves():
            if steps == move:
                return GammonState(after, self.mover.opponent, None, self.ply + 1)
        raise IllegalMoveError(f"{move!r} is not legal with {self.dice}")

    def key(self) -> Hashable:
        return self

    def notation(self) -> str:
        dice = "" if self.dice is None else f" {self.dice[0]}{self.dice[1]}"
        return f"{','.join(map(str, self.board))} {'XO'[self.mover]}{dice}"

    def parse_move(self, text: str) -> Hashable:
        word = text.strip()
        if self.dice is None:
            return word
        if word == "pass":
            return ()
        try:
            steps = tuple(
                (_number(a), _number(b))
                for token in word.split()
                for a, b in [token.replace("*", "").split("/")]
            )
        except ValueError:
            raise ParseError(f"move {text[:20]!r}: expected steps such as 24/18 13/11") from None
        for steps_of, _ in self._moves():
            if sorted(steps_of) == sorted(steps):
                return steps_of
        return steps

    def format_move(self, move: Hashable) -> str:
        if isinstance(move, str):
            return move
        assert isinstance(move, tuple)
        return " ".join(f"{_name(a)}/{_name(b)}" for a, b in move) or "pass"


def gammon_new() -> GammonState:
    from zermelo.games.backgammon import kernel

    return GammonState(tuple(int(x) for x in kernel.start_board()))


def gammon_parse(text: str) -> GammonState:
    raise ParseError("minigammon reads no positions")


def gammon_grid(state: GammonState) -> Grid:
    # The first player's view of the board: the mover's, or its swap.
    b = list(state.board)
    if state.mover is Player.SECOND:
        b = [b[27], *(-b[25 - p] for p in range(1, 25)), b[26], b[25], b[0]]
    first_bar, second_bar, first_off, second_off = b[25], b[26], b[0], b[27]

    def cell(point: int) -> str:
        v = b[point]
        return f"X{v}" if v > 0 else f"O{-v}" if v < 0 else ""

    def name(point: int) -> str:  # the side to move's numbering
        return str(point if state.mover is Player.FIRST else 25 - point)

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    cells = [
        [
            *(cell(p) for p in top),
            f"X{first_bar}" if first_bar else "",
            f"X{first_off}" if first_off else "",
        ],
        [
            *(cell(p) for p in bottom),
            f"O{second_bar}" if second_bar else "",
            f"O{second_off}" if second_off else "",
        ],
    ]
    mine = state.mover is Player.FIRST
    moves = [
        [*(name(p) for p in top), "bar" if mine else None, "off" if mine else None],
        [*(name(p) for p in bottom), None if mine else "bar", None if mine else "off"],
    ]
    dice = "" if state.dice is None else f"{state.dice[0]}{state.dice[1]}"
    return Grid.of(cells, moves, facts=(("dice", dice), ("cube", "1")))


class FirstMove:
    """Plays the first of the legal moves in the generator's order."""

    name = "first"

    def choose(self, state: object) -> Hashable:
        assert isinstance(state, GammonState)
        return state.legal_moves()[0]


def first_level(seed: int | None, time_limit: float | None) -> FirstMove:
    return FirstMove()


GAMMON_SPEC: GameSpec[GammonState] = GameSpec(
    name="minigammon",
    title="Mini backgammon",
    new=gammon_new,
    parse=gammon_parse,
    first_mover=Player.FIRST,
    board="backgammon",
    grid=gammon_grid,
    chance=True,
    scored=True,
    quick=True,
    levels={level: Ref(f"{__name__}:first_level") for level in ("easy", "medium", "hard")},
)
