"""Leduc hold'em, with OpenSpiel's rules (``leduc_poker``, two players, no suit isomorphism).

A deck of six cards, two suits of ``J`` < ``Q`` < ``K``: ``Js``, ``Jh``, ``Qs``, ``Qh``, ``Ks``,
``Kh`` (spades and hearts; OpenSpiel's cards 0 to 5, rank ``card // 2``). Each player antes 1
chip and is dealt one private card, the first player (:attr:`Player.FIRST`, ``X``) first, one
chance outcome each. Two betting rounds follow, the first player acting first in each; between
them one public card is dealt. In a round a player may ``call`` (check when nothing is owed),
``raise`` (match what is owed and add 2 chips in the first round, 4 in the second; at most two
raises per round) or, only when owing chips, ``fold`` (and lose what they put in). A round ends
when a call answers a raise, or both check. At the showdown a private card that pairs the public
card wins; otherwise the higher rank; equal ranks split the pot.

The first player's value with both sides playing an equilibrium is about -0.0856.

Moves: the deals are the cards (``Ks``), the decisions ``fold``, ``call`` and ``raise`` (``f``,
``c``, ``r`` are read too, and ``check`` as call, ``bet`` as raise). A position is the moves so far
separated by spaces: ``"Ks Qh raise call Jh call"``; the empty text is the start, before the deal
(see :mod:`zermelo.games.poker.cards`).

What each player knows (``information_set``): their own card, the public card and the betting,
written ``"Ks:rc/Jh:c"``: the private card, the first round's betting (``f``/``c``/``r``), then
``/``, the public card and the second round's; at a showdown ``|`` and the other card.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, NamedTuple

from zermelo.core.codec import Numbering
from zermelo.core.errors import IllegalMoveError, ParseError, Phrase
from zermelo.core.record import N_, GameSpec, Grid, Ref
from zermelo.core.state import Player
from zermelo.games.poker import cards as _cards

__all__ = ["CARDS", "LeducState", "parse"]

SUITS: Final = 2
CARDS: Final = tuple(_cards.card_name(card, SUITS) for card in range(6))
FOLD: Final = "fold"
CALL: Final = "call"
RAISE: Final = "raise"
ANTE: Final = 1
RAISE_SIZES: Final = (2, 4)
MAX_RAISES: Final = 2
_WORDS: Final = {
    "f": FOLD,
    "c": CALL,
    "r": RAISE,
    "fold": FOLD,
    "call": CALL,
    "raise": RAISE,
    "check": CALL,
    "bet": RAISE,
}
_LETTER: Final = {FOLD: "f", CALL: "c", RAISE: "r"}
_WORD: Final = {letter: word for word, letter in _LETTER.items()}
_GAME: Final = Phrase(N_("Leduc hold'em"))


class _Round(NamedTuple):
    """Where one betting round stands: each side's chips in, who acts next, whether the round is
    over, who folded (or ``None``) and the raises made."""

    first: int
    second: int
    to_act: int
    over: bool
    folded: int | None
    raises: int


def _betting(actions: str, start: int, size: int) -> _Round:
    chips = [start, start]
    player = 0
    raises = 0
    over = False
    folded: int | None = None
    for index, letter in enumerate(actions):
        other = 1 - player
        owing = chips[player] < chips[other]
        if letter == "f":
            folded, over = player, True
        elif letter == "c":
            chips[player] = chips[other]
            over = owing or index > 0
        else:
            chips[player] = chips[other] + size
            raises += 1
        player = other
    return _Round(chips[0], chips[1], player, over, folded, raises)


class LeducState:
    """A state of a hand of Leduc hold'em: the cards dealt (the first player's, the second's,
    then the public card, as OpenSpiel's card numbers 0-5) and each round's betting (``f``,
    ``c``, ``r`` in order). Immutable and hashable."""

    __slots__ = ("_round", "cards", "rounds")

    cards: tuple[int, ...]
    rounds: tuple[str, str]
    _round: _Round

    def __init__(self, cards: tuple[int, ...] = (), rounds: tuple[str, str] = ("", "")) -> None:
        self.cards = cards
        self.rounds = rounds
        first = _betting(rounds[0], ANTE, RAISE_SIZES[0])
        if len(cards) < 3:
            self._round = first
        else:
            self._round = _betting(rounds[1], first.first, RAISE_SIZES[1])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LeducState)
            and self.cards == other.cards
            and self.rounds == other.rounds
        )

    def __hash__(self) -> int:
        return hash((self.cards, self.rounds))

    def __repr__(self) -> str:
        return f"leduc.parse({self.notation()!r})"

    # -- the State protocol -----------------------------------------------------------------

    @property
    def round(self) -> int:
        """The betting round, 1 or 2 (2 once the public card is out)."""
        return 2 if len(self.cards) == 3 else 1

    @property
    def to_move(self) -> Player:
        """The side to act; during a deal the first player (who acts after it)."""
        if self.is_chance():
            return Player.FIRST
        return Player(self._round.to_act)

    @property
    def ply(self) -> int:
        return len(self.cards) + len(self.rounds[0]) + len(self.rounds[1])

    def is_chance(self) -> bool:
        cards = len(self.cards)
        return cards < 2 or (cards == 2 and self._round.over and self._round.folded is None)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if not self.is_chance():
            return []
        left = [card for card in range(6) if card not in self.cards]
        return [(CARDS[card], 1.0 / len(left)) for card in left]

    def is_terminal(self) -> bool:
        return self._round.folded is not None or (len(self.cards) == 3 and self._round.over)

    def legal_moves(self) -> list[str]:
        if self.is_chance():
            return [CARDS[card] for card in range(6) if card not in self.cards]
        if self.is_terminal():
            return []
        bet = self._round
        moves = []
        chips = (bet.first, bet.second)
        if chips[bet.to_act] < chips[1 - bet.to_act]:
            moves.append(FOLD)
        moves.append(CALL)
        if bet.raises < MAX_RAISES:
            moves.append(RAISE)
        return moves

    def play(self, move: str) -> LeducState:
        if self.is_chance():
            card = CARDS.index(move) if move in CARDS else -1
            if card < 0 or card in self.cards:
                raise IllegalMoveError(
                    N_("{move!r} cannot be dealt now; expected one of: {legal}"),
                    move=move,
                    legal=", ".join(self.legal_moves()),
                )
            return LeducState((*self.cards, card), self.rounds)
        if self.is_terminal():
            raise IllegalMoveError(
                N_("the hand is over; no move is possible ({position})"),
                position=self.notation(),
            )
        if move not in self.legal_moves():
            raise IllegalMoveError(
                N_("{move!r} is not a move now; expected one of: {legal}"),
                move=move,
                legal=", ".join(self.legal_moves()),
            )
        letter = _LETTER[move]
        if len(self.cards) == 3:
            return LeducState(self.cards, (self.rounds[0], self.rounds[1] + letter))
        return LeducState(self.cards, (self.rounds[0] + letter, ""))

    def contributions(self) -> tuple[int, int]:
        """The chips each side has put in the pot so far."""
        return self._round.first, self._round.second

    def showdown(self) -> bool:
        """True at the end of a hand decided by showing the cards."""
        return self.is_terminal() and self._round.folded is None

    def payoff(self) -> float:
        """The chips the first player wins (the second loses them); 0 while the hand runs."""
        bet = self._round
        if bet.folded is not None:
            return float(-bet.first if bet.folded == 0 else bet.second)
        if not self.is_terminal():
            return 0.0
        strength = [self._strength(seat) for seat in (0, 1)]
        if strength[0] == strength[1]:
            return 0.0
        return float(bet.second if strength[0] > strength[1] else -bet.first)

    def _strength(self, seat: int) -> int:
        rank, public = self.cards[seat] // SUITS, self.cards[2] // SUITS
        return 10 + rank if rank == public else rank

    @property
    def winner(self) -> Player | None:
        payoff = self.payoff()
        if payoff > 0:
            return Player.FIRST
        return Player.SECOND if payoff < 0 else None

    def termination(self) -> str | None:
        if self._round.folded is not None:
            return N_("folded")
        if self.is_terminal():
            return N_("showdown")
        return None

    def key(self) -> Hashable:
        return self

    # -- hidden information -----------------------------------------------------------------

    def information_set(self, player: Player) -> str:
        """``"Ks:rc/Jh:c"``: the player's card (``?`` before it is dealt), the first round's
        betting, then ``/``, the public card and the second round's; at a showdown ``|`` and
        the other card."""
        own = CARDS[self.cards[player]] if len(self.cards) > player else "?"
        text = f"{own}:{self.rounds[0]}"
        if len(self.cards) == 3:
            text += f"/{CARDS[self.cards[2]]}:{self.rounds[1]}"
        if self.showdown():
            text += f"|{CARDS[self.cards[1 - player]]}"
        return text

    def _words(self, player: Player | None) -> list[str]:
        shown = player is None or self.showdown()
        deal = [
            CARDS[card] if shown or seat == player else "?"
            for seat, card in enumerate(self.cards[:2])
        ]
        words = deal + [_WORD[letter] for letter in self.rounds[0]]
        if len(self.cards) == 3:
            words.append(CARDS[self.cards[2]])
            words += [_WORD[letter] for letter in self.rounds[1]]
        return words

    def observation(self, player: Player) -> str:
        """The position as ``player`` sees it: the other side's card is ``?`` until a showdown."""
        return " ".join(self._words(player))

    # -- notation ---------------------------------------------------------------------------

    def notation(self) -> str:
        return " ".join(self._words(None))

    @staticmethod
    def parse_move(text: str) -> str:
        """``fold``/``call``/``raise`` (or ``f``, ``c``, ``r``, ``check``, ``bet``) or a card
        such as ``Ks``; raises :class:`ParseError` quoting anything else."""
        if isinstance(text, str):
            word = text.strip()
            if word.lower() in _WORDS:
                return _WORDS[word.lower()]
            card = _cards.parse_card(word, SUITS)
            if card is not None:
                return CARDS[card]
        raise ParseError(
            N_(
                "invalid Leduc hold'em move {text!r}: expected fold, call or raise, "
                "or a card such as Ks (J, Q or K and the suit s or h)"
            ),
            text=str(text)[:40],
        )

    @staticmethod
    def format_move(move: str) -> str:
        return move

    def betting(self) -> str:
        """The betting so far in move notation, the rounds separated by ``/``."""
        first = " ".join(_WORD[letter] for letter in self.rounds[0])
        if len(self.cards) < 3:
            return first
        return first + " / " + " ".join(_WORD[letter] for letter in self.rounds[1])


def parse(text: str) -> LeducState:
    """The position after the moves of ``text`` (``"Ks Qh raise call Jh"``; ``""`` is the
    start)."""
    return _cards.read_moves(text, LeducState(), _GAME)


def _new(first: Player = Player.FIRST) -> LeducState:
    _cards.only_first(first, _GAME)
    return LeducState()


def _facts(state: LeducState, player: Player | None) -> list[tuple[str, str]]:
    leading = ((_cards.FACT_ROUND, str(state.round)),)
    return _cards.stake_facts(state, player, leading, state.betting())


def _hand(state: LeducState, seat: int, shown: bool) -> list[str]:
    return _cards.hand(CARDS, state, seat, shown)


def _board(state: LeducState) -> list[str]:
    return [CARDS[state.cards[2]]] if len(state.cards) == 3 else []


def grid(state: LeducState) -> Grid:
    """The table as a spectator sees it: both hands face down (``?``) until a showdown, the
    public card once dealt; the second player's hand on top, the first player's at the bottom."""
    shown = state.showdown()
    return _cards.table_grid(
        _hand(state, 1, shown), _board(state), _hand(state, 0, shown), _facts(state, None)
    )


def view(state: LeducState, player: Player) -> Grid:
    """The table as ``player`` sees it: their own card at the bottom, the public card, the
    other's card face down on top until a showdown (a fold shows nothing)."""
    shown = state.showdown()
    return _cards.table_grid(
        _hand(state, 1 - player, shown),
        _board(state),
        _hand(state, player, True),
        _facts(state, player),
    )


SPEC: Final = GameSpec(
    name="leduc",
    title=_GAME,
    new=_new,
    parse=parse,
    aliases=("leduc-poker", "leduc-holdem"),
    first_mover=Player.FIRST,
    # easy: uniformly random; medium: CFR+ stopped early; hard: the converged equilibrium
    levels={
        "easy": Ref("zermelo.agents.poker:leduc_easy"),
        "medium": Ref("zermelo.agents.poker:leduc_medium"),
        "hard": Ref("zermelo.agents.poker:leduc_hard"),
    },
    board="cards",
    grid=grid,
    notation=N_("fold, call or raise (a deal: a card such as Ks, Jh)"),
    quick=True,
    chance=True,
    hidden=True,
    scored=True,
    view=view,
    game_solver=Ref("zermelo.solvers.poker:LEDUC"),
    # numbered as OpenSpiel's leduc_poker: fold 0, call 1, raise 2; the deck in order
    numbering=Numbering(("fold", "call", "raise")),
)
