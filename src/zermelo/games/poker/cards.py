"""What Kuhn poker and Leduc hold'em share: card names, the position notation's reader, the
``cards`` board.

Cards are numbered as OpenSpiel numbers them, so that a deal here is the same chance outcome as
there: card ``c`` has rank ``c // suits`` (``J``, ``Q``, ``K``) and suit ``c % suits``. Kuhn poker
has one card of each rank, written ``J``, ``Q``, ``K``; Leduc hold'em has two suits, spades and
hearts, written ``Js``, ``Jh``, ``Qs``, ``Qh``, ``Ks``, ``Kh`` (OpenSpiel's cards 0 to 5).

A position is written as the moves from the start of the hand (the deals and the betting), in
move notation, separated by spaces: ``"K Q pass bet"``. The empty text is the start, before the
deal. :func:`read_moves` replays such a text through a game's ``parse_move`` and ``play``, so every
position it accepts was reached by legal play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol, Self, TypeVar

from zermelo.core.errors import InvalidOptionError, ParseError
from zermelo.core.record import N_, Grid
from zermelo.core.state import Player

__all__ = [
    "MAX_NOTATION",
    "RANKS",
    "SUITS",
    "card_name",
    "hand",
    "only_first",
    "parse_card",
    "read_moves",
    "signed",
    "stake_facts",
    "table_grid",
]

RANKS: Final = "JQK"
SUITS: Final = "sh"
MAX_NOTATION: Final = 200
"""The longest position text read: a hand of Leduc hold'em is at most 15 moves."""


def card_name(card: int, suits: int) -> str:
    """``J``/``Q``/``K`` for a one-suit deck (Kuhn), ``Js``..``Kh`` for two suits (Leduc)."""
    rank = RANKS[card // suits]
    return rank if suits == 1 else rank + SUITS[card % suits]


def parse_card(text: str, suits: int) -> int | None:
    """The card ``text`` names (``k``, ``Ks``, ``kS``), or ``None`` when it names none."""
    word = text.strip()
    if len(word) != (1 if suits == 1 else 2) or word[0].upper() not in tuple(RANKS):
        return None
    rank = RANKS.index(word[0].upper())
    if suits == 1:
        return rank
    suit = word[1].lower()
    if suit not in tuple(SUITS[:suits]):  # one letter, never a substring such as "sh"
        return None
    return rank * suits + SUITS.index(suit)


class _Replays(Protocol):
    def parse_move(self, text: str) -> str: ...

    def play(self, move: str) -> Self: ...


S = TypeVar("S", bound=_Replays)


def read_moves(text: str, start: S, game: str) -> S:
    """The state after the moves of ``text`` from ``start``: each token read by ``parse_move``
    and played by ``play``, whose errors (quoting the token) stop the reading."""
    if not isinstance(text, str):
        raise ParseError(N_("invalid position {text!r}: expected text"), text=text)
    if len(text) > MAX_NOTATION:
        raise ParseError(
            N_("invalid {game} position: {length} characters, expected at most {limit}"),
            game=game,
            length=len(text),
            limit=MAX_NOTATION,
        )
    state = start
    for token in text.replace(",", " ").split():
        state = state.play(state.parse_move(token))
    return state


def table_grid(
    top: Sequence[str],
    board: Sequence[str],
    bottom: Sequence[str],
    facts: Sequence[tuple[str, str]],
) -> Grid:
    """The ``cards`` board: the opponent's cards (``?`` face down), the board's cards, the
    viewer's cards; the facts beside it. The moves are buttons (no cell names a move)."""
    return Grid.of([list(top), list(board), list(bottom)], facts=facts)


def signed(chips: float) -> str:
    """A number of chips with its sign, as the facts show winnings: ``+2``, ``-1``, ``0``."""
    whole = int(chips)
    return f"{whole:+d}" if whole else "0"


FACT_POT: Final = N_("pot")
FACT_BETTING: Final = N_("betting")
FACT_YOURS: Final = N_("your chips in")
FACT_THEIRS: Final = N_("opponent's chips in")
FACT_FIRST: Final = N_("X's chips in")
FACT_SECOND: Final = N_("O's chips in")
FACT_WON: Final = N_("you win")
FACT_FIRST_WON: Final = N_("X wins")
FACT_ROUND: Final = N_("round")


class _Hand(Protocol):
    """What the facts and hands below read of a poker state."""

    @property
    def cards(self) -> tuple[int, ...]: ...

    def contributions(self) -> tuple[int, int]: ...

    def payoff(self) -> float: ...

    def is_terminal(self) -> bool: ...


def only_first(first: Player, game: str) -> None:
    """Refuse, in one line, a hand that would start with the second player acting."""
    if first is not Player.FIRST:
        raise InvalidOptionError(N_("in {game} the first player always acts first"), game=game)


def hand(names: Sequence[str], state: _Hand, seat: int, shown: bool) -> list[str]:
    """The card of ``seat`` (0 the first player) by its name, ``?`` face down; none before the
    deal."""
    if len(state.cards) <= seat:
        return []
    return [names[state.cards[seat]] if shown else "?"]


def stake_facts(
    state: _Hand, player: Player | None, leading: Sequence[tuple[str, str]], betting: str
) -> list[tuple[str, str]]:
    """The facts beside the table: ``leading`` ones, the pot, each side's chips in (as
    ``player`` sees them: yours and theirs; for a spectator the first's and the second's), the
    betting, and once the hand is over what was won."""
    first, second = state.contributions()
    facts = [*leading, (FACT_POT, str(first + second))]
    if player is None:
        facts += [(FACT_FIRST, str(first)), (FACT_SECOND, str(second))]
    else:
        mine, theirs = (first, second) if player is Player.FIRST else (second, first)
        facts += [(FACT_YOURS, str(mine)), (FACT_THEIRS, str(theirs))]
    facts.append((FACT_BETTING, betting))
    if state.is_terminal():
        payoff = state.payoff()
        if player is None:
            facts.append((FACT_FIRST_WON, signed(payoff)))
        else:
            facts.append((FACT_WON, signed(payoff if player is Player.FIRST else -payoff)))
    return facts
