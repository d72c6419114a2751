"""Kuhn poker, with OpenSpiel's rules (``kuhn_poker``, two players).

A deck of three cards, ``J`` < ``Q`` < ``K``. Each player antes 1 chip; the first player
(:attr:`Player.FIRST`, ``X``) is dealt a card, then the second (``O``), one chance outcome each.
Then each in turn may ``pass`` or ``bet`` one chip, with one bet in all:

* pass, pass: showdown for the pot of 2 (the higher card wins 1);
* bet, pass (or pass, bet, pass): the side that passed on the bet folds and loses its ante;
* bet, bet (or pass, bet, bet): showdown for the pot of 4 (the higher card wins 2).

The first player's value with both sides playing the equilibrium is -1/18.

Moves: the deals are the cards ``J``, ``Q``, ``K``; the decisions are ``pass`` and ``bet``
(``p`` and ``b`` are read too, and ``check``/``fold`` as pass, ``call`` as bet). A position is
the moves so far separated by spaces, the deals first: ``"K Q pass bet"``; the empty text is the
start, before the deal (see :mod:`zermelo.games.poker.cards`).

What each player knows (``information_set``): their own card and the betting, written as
``"K:pb"`` (the card, a colon, ``p`` and ``b`` for the passes and bets so far); at a showdown the
other card is seen too (``"K:pb/Q"``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from zermelo.core.codec import Numbering
from zermelo.core.errors import IllegalMoveError, ParseError, Phrase
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.state import Player
from zermelo.games.poker import cards as _cards

__all__ = ["CARDS", "KuhnState", "parse"]

CARDS: Final = ("J", "Q", "K")
PASS: Final = "pass"
BET: Final = "bet"
_WORDS: Final = {
    "p": PASS,
    "b": BET,
    "pass": PASS,
    "bet": BET,
    "check": PASS,
    "fold": PASS,
    "call": BET,
}
_LETTER: Final = {PASS: "p", BET: "b"}
_TERMINAL: Final = frozenset(("pp", "bp", "bb", "pbp", "pbb"))
_SHOWDOWN_STAKE: Final = {"pp": 1, "bb": 2, "pbb": 2}
_FOLD_PAYOFF: Final = {"bp": 1, "pbp": -1}
"""What the first player wins when a side folds: after ``bp`` the second folded."""
_GAME: Final = Phrase(N_("Kuhn poker"))


class KuhnState:
    """A state of a hand of Kuhn poker: the cards dealt (``cards[0]`` the first player's, as
    OpenSpiel's card numbers 0-2) and the betting, ``p`` and ``b`` in order. Immutable and
    hashable."""

    __slots__ = ("bets", "cards")

    cards: tuple[int, ...]
    bets: str

    def __init__(self, cards: tuple[int, ...] = (), bets: str = "") -> None:
        self.cards = cards
        self.bets = bets

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, KuhnState) and self.cards == other.cards and self.bets == other.bets
        )

    def __hash__(self) -> int:
        return hash((self.cards, self.bets))

    def __repr__(self) -> str:
        return f"kuhn.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        """The side to act; during the deal the first player (who acts after it)."""
        return Player(len(self.bets) % 2)

    @property
    def ply(self) -> int:
        return len(self.cards) + len(self.bets)

    def is_chance(self) -> bool:
        return len(self.cards) < 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if len(self.cards) >= 2:
            return []
        left = [card for card in range(3) if card not in self.cards]
        return [(CARDS[card], 1.0 / len(left)) for card in left]

    def is_terminal(self) -> bool:
        return self.bets in _TERMINAL

    def legal_moves(self) -> list[str]:
        if len(self.cards) < 2:
            return [CARDS[card] for card in range(3) if card not in self.cards]
        if self.bets in _TERMINAL:
            return []
        return [PASS, BET]

    def play(self, move: str) -> KuhnState:
        if len(self.cards) < 2:
            card = CARDS.index(move) if move in CARDS else -1
            if card < 0 or card in self.cards:
                raise IllegalMoveError(
                    N_("{move!r} cannot be dealt now; expected one of: {legal}"),
                    move=move,
                    legal=", ".join(self.legal_moves()),
                )
            return KuhnState((*self.cards, card), self.bets)
        if self.bets in _TERMINAL:
            raise IllegalMoveError(
                N_("the hand is over; no move is possible ({position})"),
                position=self.notation(),
            )
        if move not in _LETTER:
            raise IllegalMoveError(
                N_("{move!r} is not a move now; expected one of: {legal}"),
                move=move,
                legal=", ".join(self.legal_moves()),
            )
        return KuhnState(self.cards, self.bets + _LETTER[move])

    def payoff(self) -> float:
        """The chips the first player wins (the second loses them); 0 while the hand runs."""
        bets = self.bets
        if bets in _FOLD_PAYOFF:
            return float(_FOLD_PAYOFF[bets])
        stake = _SHOWDOWN_STAKE.get(bets)
        if stake is None:
            return 0.0
        return float(stake if self.cards[0] > self.cards[1] else -stake)

    @property
    def winner(self) -> Player | None:
        payoff = self.payoff()
        if payoff > 0:
            return Player.FIRST
        return Player.SECOND if payoff < 0 else None

    def termination(self) -> str | None:
        if self.bets in _FOLD_PAYOFF:
            return N_("folded")
        if self.bets in _SHOWDOWN_STAKE:
            return N_("showdown")
        return None

    def showdown(self) -> bool:
        """True at the end of a hand decided by showing the cards."""
        return self.bets in _SHOWDOWN_STAKE

    def key(self) -> Hashable:
        return self

    # -- hidden information -----------------------------------------------------------------

    def information_set(self, player: Player) -> str:
        """``"K:pb"``: the player's card (``?`` before it is dealt) and the betting; at a
        showdown ``/`` and the other card."""
        own = CARDS[self.cards[player]] if len(self.cards) > player else "?"
        if self.showdown():
            return f"{own}:{self.bets}/{CARDS[self.cards[1 - player]]}"
        return f"{own}:{self.bets}"

    def observation(self, player: Player) -> str:
        """The position as ``player`` sees it: the other side's card is ``?`` until a showdown."""
        shown = self.showdown()
        words = [
            CARDS[card] if shown or seat == player else "?" for seat, card in enumerate(self.cards)
        ]
        words += [PASS if letter == "p" else BET for letter in self.bets]
        return " ".join(words)

    # -- notation ---------------------------------------------------------------------------

    def notation(self) -> str:
        words = [CARDS[card] for card in self.cards]
        words += [PASS if letter == "p" else BET for letter in self.bets]
        return " ".join(words)

    @staticmethod
    def parse_move(text: str) -> str:
        """``pass``/``bet`` (or ``p``, ``b``, ``check``, ``fold``, ``call``) or a card ``J``,
        ``Q``, ``K``; raises :class:`ParseError` quoting anything else."""
        if isinstance(text, str):
            word = text.strip().lower()
            if word in _WORDS:
                return _WORDS[word]
            card = _cards.parse_card(word, 1)
            if card is not None:
                return CARDS[card]
        raise ParseError(
            N_("invalid Kuhn poker move {text!r}: expected pass or bet, or a card J, Q or K"),
            text=str(text)[:40],
        )

    @staticmethod
    def format_move(move: str) -> str:
        return move

    def contributions(self) -> tuple[int, int]:
        """The chips each side has put in the pot (the ante and its bet)."""
        first = 1 + sum(1 for i in range(0, len(self.bets), 2) if self.bets[i] == "b")
        second = 1 + sum(1 for i in range(1, len(self.bets), 2) if self.bets[i] == "b")
        return first, second


def parse(text: str) -> KuhnState:
    """The position after the moves of ``text`` (``"K Q pass bet"``; ``""`` is the start)."""
    return _cards.read_moves(text, KuhnState(), _GAME)


def _new(first: Player = Player.FIRST) -> KuhnState:
    _cards.only_first(first, _GAME)
    return KuhnState()


def _facts(state: KuhnState, player: Player | None) -> list[tuple[str, str]]:
    betting = " ".join(PASS if letter == "p" else BET for letter in state.bets)
    return _cards.stake_facts(state, player, (), betting)


def _card(state: KuhnState, seat: int, shown: bool) -> list[str]:
    return _cards.hand(CARDS, state, seat, shown)


def grid(state: KuhnState) -> Grid:
    """The table as a spectator sees it: both hands face down (``?``) until a showdown; the
    second player's hand on top, the first player's at the bottom."""
    shown = state.showdown()
    return _cards.table_grid(
        _card(state, 1, shown), [], _card(state, 0, shown), _facts(state, None)
    )


def view(state: KuhnState, player: Player) -> Grid:
    """The table as ``player`` sees it: their own card at the bottom, the other's face down on
    top until a showdown (a fold shows nothing)."""
    shown = state.showdown()
    return _cards.table_grid(
        _card(state, 1 - player, shown), [], _card(state, player, True), _facts(state, player)
    )


SPEC: Final = GameSpec(
    name="kuhn",
    title=_GAME,
    new=_new,
    parse=parse,
    aliases=("kuhn-poker",),
    first_mover=Player.FIRST,
    # easy: uniformly random; medium: CFR+ stopped early; hard: the converged equilibrium
    levels={
        "easy": Ref("zermelo.agents.poker:kuhn_easy"),
        "medium": Ref("zermelo.agents.poker:kuhn_medium"),
        "hard": Ref("zermelo.agents.poker:kuhn_hard"),
    },
    board="cards",
    grid=grid,
    notation=N_("pass or bet (a deal: the card J, Q or K)"),
    quick=True,
    chance=True,
    hidden=True,
    scored=True,
    view=view,
    game_solver=Ref("zermelo.solvers.poker:KUHN"),
    # numbered as OpenSpiel's kuhn_poker: pass 0, bet 1; the cards in order
    numbering=Numbering(("pass", "bet")),
)
