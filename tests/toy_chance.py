"""Two tiny games with chance and hidden cards, written against the shared protocol only, so that
the terminal's chance and hidden-information paths are tested without the real games; and
:func:`replay_session`, a terminal game of chance replayed without the terminal.

* ``toydice``: Pig on a 3-sided die to a goal of 8 (board ``dice``): ``roll`` or ``hold``; a roll
  of 1 loses the turn total and passes the turn.
* ``toycards``: Kuhn poker (board ``cards``): one card each from J, Q, K (two chance nodes: the
  first player's card, then the second's), ante 1, one bet of 1; ``pass``/``bet``; showdown or fold.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.record import GameSpec, Grid, IntOption
from zermelo.core.result import MoveValue, SearchResult
from zermelo.core.state import AnyState, Player, is_chance, sample_outcome
from zermelo.i18n import N_

__all__ = ["CARDS_SPEC", "DICE_SPEC", "CardsState", "DiceState", "install", "replay_session"]

GOAL = 8
DIE = 3


@dataclass(frozen=True)
class DiceState:
    totals: tuple[int, int] = (0, 0)
    turn: int = 0
    to_move: Player = Player.FIRST
    rolling: bool = False
    last_roll: int | None = None
    ply: int = 0
    goal: int = GOAL

    @property
    def winner(self) -> Player | None:
        for player in Player:
            if self.totals[player] >= self.goal:
                return player
        return None

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance(self) -> bool:
        return self.rolling and not self.is_terminal()

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        return [(face, 1 / DIE) for face in range(1, DIE + 1)] if self.is_chance() else []

    def legal_moves(self) -> Sequence[object]:
        if self.is_terminal():
            return []
        if self.rolling:
            return list(range(1, DIE + 1))
        return ["roll", "hold"]

    def play(self, move: object) -> DiceState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move!r}")
        side = self.to_move
        if move == "roll":
            return DiceState(
                self.totals, self.turn, side, True, self.last_roll, self.ply + 1, self.goal
            )
        if move == "hold":
            totals = list(self.totals)
            totals[side] += self.turn
            nxt = side if totals[side] >= self.goal else side.opponent
            return DiceState(
                (totals[0], totals[1]), 0, nxt, False, self.last_roll, self.ply + 1, self.goal
            )
        assert isinstance(move, int)
        if move == 1:
            return DiceState(self.totals, 0, side.opponent, False, 1, self.ply + 1, self.goal)
        return DiceState(self.totals, self.turn + move, side, False, move, self.ply + 1, self.goal)

    def key(self) -> object:
        return (self.totals, self.turn, self.to_move, self.rolling)

    def notation(self) -> str:
        side = "XO"[self.to_move]
        return f"{self.totals[0]} {self.totals[1]} {self.turn} {side}{'r' if self.rolling else ''}"

    def parse_move(self, text: str) -> object:
        word = text.strip().lower()
        if word in ("roll", "hold"):
            return word
        if word.isdigit() and 1 <= int(word) <= DIE:
            return int(word)
        raise ParseError(f"{text!r} is not a move: expected roll, hold or a die 1-{DIE}")

    def format_move(self, move: object) -> str:
        return str(move)

    def termination(self) -> str | None:
        return N_("goal reached") if self.is_terminal() else None


def _dice_new(first: Player = Player.FIRST, goal: int = GOAL) -> DiceState:
    return DiceState(to_move=first, goal=goal)


def _dice_parse(text: str) -> DiceState:
    try:
        first, second, turn, side = text.split()
        rolling = side.endswith("r")
        return DiceState((int(first), int(second)), int(turn), Player("XO".index(side[0])), rolling)
    except (ValueError, IndexError):
        raise ParseError(f"{text!r} is not a toydice position") from None


def _dice_grid(state: DiceState) -> Grid:
    last = "" if state.last_roll is None else str(state.last_roll)
    return Grid.of(
        [[str(state.totals[0]), str(state.totals[1]), str(state.turn), last]],
        files=("X", "O"),
        facts=((N_("goal"), str(state.goal)),),
    )


DICE_SPEC: GameSpec[DiceState] = GameSpec(
    name="toydice",
    title="Toy dice",
    new=_dice_new,
    parse=_dice_parse,
    options=(IntOption("goal", "points to win", 2, 100, GOAL),),
    board="dice",
    grid=_dice_grid,
    levels={"easy": "random", "medium": "random", "hard": "random"},
    chance=True,
)


CARDS = "JQK"


@dataclass(frozen=True)
class CardsState:
    deal: tuple[str, ...] = ()  # the first player's card, then the second's
    bets: tuple[str, ...] = ()
    ply: int = 0

    @property
    def to_move(self) -> Player:
        if len(self.deal) < 2:
            return Player.FIRST
        return Player(len(self.bets) % 2)

    def is_chance(self) -> bool:
        return len(self.deal) < 2

    def chance_outcomes(self) -> Sequence[tuple[str, float]]:
        if not self.is_chance():
            return []
        left = [card for card in CARDS if card not in self.deal]
        return [(card, 1 / len(left)) for card in left]

    def _over(self) -> str | None:
        bets = "".join(b[0] for b in self.bets)
        if bets in ("pp", "bb", "pbb"):
            return "showdown"
        if bets in ("bp", "pbp"):
            return "fold"
        return None

    def is_terminal(self) -> bool:
        return self._over() is not None

    def payoff(self) -> float:
        over = self._over()
        if over is None:
            return 0.0
        bets = "".join(b[0] for b in self.bets)
        if over == "fold":
            return 1.0 if bets == "bp" else -1.0  # the side that did not fold wins the ante
        stake = 1.0 if bets == "pp" else 2.0
        return stake if CARDS.index(self.deal[0]) > CARDS.index(self.deal[1]) else -stake

    @property
    def winner(self) -> Player | None:
        pay = self.payoff()
        return None if pay == 0 else (Player.FIRST if pay > 0 else Player.SECOND)

    def legal_moves(self) -> Sequence[str]:
        if self.is_terminal():
            return []
        if self.is_chance():
            return [card for card, _p in self.chance_outcomes()]
        return ["pass", "bet"]

    def play(self, move: str) -> CardsState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move!r}")
        if self.is_chance():
            return CardsState((*self.deal, move), self.bets, self.ply + 1)
        return CardsState(self.deal, (*self.bets, move), self.ply + 1)

    def key(self) -> object:
        return (self.deal, self.bets)

    def notation(self) -> str:
        return "".join(self.deal) + ":" + "".join(b[0] for b in self.bets)

    def parse_move(self, text: str) -> str:
        word = text.strip()
        if word.lower() in ("pass", "bet"):
            return word.lower()
        if word.upper() in tuple(CARDS):
            return word.upper()
        raise ParseError(f"{text!r} is not a move: expected pass or bet")

    def format_move(self, move: str) -> str:
        return move

    def information_set(self, player: Player) -> object:
        own = self.deal[player] if len(self.deal) > player else None
        return (player, own, len(self.deal), self.bets)

    def observation(self, player: Player) -> str:
        own = self.deal[player] if len(self.deal) > player else "?"
        return f"{own}:" + "".join(b[0] for b in self.bets)

    def termination(self) -> str | None:
        return self._over()


def _cards_new(first: Player = Player.FIRST) -> CardsState:
    return CardsState()


def _cards_parse(text: str) -> CardsState:
    deal, colon, bets = text.partition(":")
    if not colon or any(c not in CARDS for c in deal) or len(deal) > 2:
        raise ParseError(f"{text!r} is not a toycards position")
    words = {"p": "pass", "b": "bet"}
    if any(b not in words for b in bets):
        raise ParseError(f"{text!r} is not a toycards position")
    return CardsState(tuple(deal), tuple(words[b] for b in bets), len(deal) + len(bets))


def _pot(state: CardsState) -> int:
    return 2 + sum(1 for b in state.bets if b == "bet")


def _cards_grid(state: CardsState) -> Grid:
    return _cards_view(state, None)


def _cards_view(state: CardsState, player: Player | None) -> Grid:
    shown = state._over() == "showdown"

    def card(side: Player) -> str:
        if len(state.deal) <= side:
            return ""
        return state.deal[side] if shown or side == player else "?"

    me = player if player is not None else Player.FIRST
    return Grid.of(
        [[card(me.opponent)], [], [card(me)]],
        facts=((N_("pot"), str(_pot(state))), (N_("bets"), " ".join(state.bets) or "-")),
    )


CARDS_SPEC: GameSpec[CardsState] = GameSpec(
    name="toycards",
    title="Toy cards",
    new=_cards_new,
    parse=_cards_parse,
    board="cards",
    grid=_cards_grid,
    view=_cards_view,
    levels={"easy": "random", "medium": "random", "hard": "random"},
    first_mover=Player.FIRST,
    chance=True,
    hidden=True,
    scored=True,
)


class ToyEngine:
    """An :class:`~zermelo.core.capabilities.EngineAnalysis` of the dice game for the tests: a
    face is worth its number over ten, ``roll`` 0.25 and ``hold`` -0.5 (made-up values that
    only an engine would give)."""

    def analyze(self, state: object, limits: object) -> SearchResult[object]:
        assert isinstance(state, DiceState)
        if state.is_chance():
            moves = tuple(MoveValue(face, face / 10, False) for face in range(1, DIE + 1))
            return SearchResult(None, 0.2, (), 1, False, moves=moves)
        values = (MoveValue("roll", 0.25, False, ("roll",)), MoveValue("hold", -0.5, False))
        return SearchResult("roll", 0.25, ("roll",), 1, False, moves=values)


ENGINE = ToyEngine()


def install(monkeypatch: object) -> None:
    """Register both games for the length of one test (``monkeypatch`` is pytest's)."""
    from zermelo.games import registry

    games = {
        **registry._BUILT_IN,
        "toydice": "toy_chance:DICE_SPEC",
        "toycards": "toy_chance:CARDS_SPEC",
    }
    monkeypatch.setattr(registry, "_BUILT_IN", games)  # type: ignore[attr-defined]
    registry._load.cache_clear()


def replay_session(
    game: str,
    seed: int,
    pick: Callable[[AnyState, int], Hashable],
    *,
    level: str = "easy",
    agent_of: Callable[[int], object] | None = None,
    options: dict[str, int] | None = None,
) -> tuple[list[tuple[bool, str]], AnyState, Player, int]:
    """A terminal game replayed without the terminal, as the session plays it: its generator
    (``random.Random(seed)``) gives the AI's seed, then who starts (``--first random``), then one
    draw per chance node; the person, the second player, plays ``pick(state, n)`` at their
    ``n``-th decision (from 0); the AI is ``level`` (or ``agent_of(seed)``); the game has ``options``. The rolls (the
    person's?, the outcome), the final state, the person's side and the number of the person's
    decisions."""
    from zermelo.agents.spec import make_agent
    from zermelo.games.registry import get_game

    spec = get_game(game)
    rng = random.Random(seed)
    agent_seed = rng.randrange(2**32)
    agent = agent_of(agent_seed) if agent_of else make_agent(spec, level, seed=agent_seed)
    human = Player.SECOND
    human_first = rng.choice([True, False])
    first = human if human_first else human.opponent
    if spec.first_mover is not None:  # the choice of who starts is a choice of sides
        human = spec.first_mover if human_first else spec.first_mover.opponent
        first = spec.first_mover
    state: AnyState = spec.new(first=first, **(options or {}))
    rolls = []
    asked = 0
    while not state.is_terminal():
        if is_chance(state):
            outcome = sample_outcome(state, rng)
            rolls.append((state.to_move == human, state.format_move(outcome)))
            state = state.play(outcome)
        elif state.to_move == human:
            state = state.play(pick(state, asked))
            asked += 1
        else:
            state = state.play(agent.choose(state))  # type: ignore[attr-defined]
    return rolls, state, human, asked
