"""The State protocol: the one shape every game fits.

A state is an immutable, hashable value. ``state.play(move)`` returns a new state and never changes
the old one, so search code can keep positions in tables and share them between threads. Moves are
small hashable values (ints for drop and place games). Each game owns its notation through
``parse_move`` / ``format_move`` and a parse/format pair for whole positions.

Conventions the search relies on:

* ``legal_moves()`` lists moves in the game's preferred search order (best guesses first). It is
  empty exactly when ``is_terminal()`` is true.
* ``winner`` is the player who has won, or ``None`` (game still running, or drawn).
* ``evaluate()`` is a heuristic from the side to move, strictly inside ``±EVAL_LIMIT`` (see
  :mod:`zermelo.core.scores`); games that are always searched to the end may omit it.
* ``key()`` is what the transposition table stores the state under: the state itself by default,
  or a canonical form under the game's symmetries.

Optional capabilities. A state class may offer more than the protocol; each extra is a
``runtime_checkable`` protocol below, and code asks for it with ``isinstance(state, Evaluates)``
(``issubclass(type(state), ...)`` where it is asked often: a protocol's ``isinstance`` costs
microseconds, its ``issubclass`` is cached), never with ``getattr`` and a string:

* :class:`Evaluates` -- ``evaluate()``, a heuristic for depth-limited search;
* :class:`WinsAtOnce` -- ``winning_move()``, a move that wins on the spot, or ``None``;
* :class:`AvoidsLosses` -- ``non_losing_moves()``, the moves after which the opponent cannot win
  on the spot;
* :class:`NarrowsMoves` -- ``search_moves()``, the moves worth searching (a non-empty subset of
  ``legal_moves()`` while the game runs): the one rule of which moves a search considers is
  :func:`zermelo.search.moves.search_moves`;
* :class:`HasQuiet` -- ``is_quiet()``, false while a forced sequence (a pending capture) runs;
* :class:`Terminates` -- ``termination()``, why the game is over, as an English message id
  marked for translation (``N_("checkmate")``); every built-in game offers it, and
  :func:`end_reason` gives a generic reason for a game that does not;
* :class:`ExplainsItself` -- ``explain()``, the evaluation term by term;
* :class:`Chance` -- ``is_chance()`` and ``chance_outcomes()``: the state is a chance node (a roll
  of the dice, a deal) whose outcomes are played like moves (see below);
* :class:`Payoff` -- ``payoff()``, what the first player wins at the end when a game is scored
  in points (backgammon's gammons and cube, poker's chips) rather than by a winner alone;
* :class:`HiddenInfo` -- ``information_set(player)`` and ``observation(player)``: what one player
  can tell apart, and what that player sees, when a game hides something (the other side's cards).

Chance nodes, as OpenSpiel has them. A chance node's ``legal_moves()`` are its outcomes, in the
order of ``chance_outcomes()``, and ``play(outcome)`` plays one, like a move; so a game record
lists the dice with the moves, and a replay needs no randomness. Randomness is never hidden
inside ``play``: whoever runs the game draws the outcome with :func:`sample_outcome` from an
explicit, seeded ``random.Random``. At a chance node ``to_move`` is the player whose turn the event
belongs to (the one about to roll); turns need not alternate (a Pig player keeps rolling), so code
that turns a value from one side to the other compares ``to_move`` of parent and child rather than
assuming alternation (:func:`same_side`). Games without chance are untouched: :func:`is_chance` is
false for every state that does not offer :class:`Chance`.

Hidden information. A state of a game with hidden information knows the whole truth (every card).
``information_set(player)`` is a key equal for exactly the states that ``player`` cannot tell apart
(their own cards, the public actions), so a strategy keyed by it can use only what the player
knows; ``observation(player)`` is that knowledge as text. A face that shows the game to a person
playing one side renders only that side's view (the record's ``view``), never ``notation()``, which
holds the truth.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeAlias, TypeVar, cast, runtime_checkable

__all__ = [
    "GAME_OVER",
    "AnyState",
    "AvoidsLosses",
    "Chance",
    "Evaluates",
    "ExplainsItself",
    "HasQuiet",
    "HiddenInfo",
    "Move",
    "NarrowsMoves",
    "Payoff",
    "Player",
    "SortableMove",
    "State",
    "Terminates",
    "WinsAtOnce",
    "end_reason",
    "information_set",
    "is_chance",
    "payoff_of",
    "same_side",
    "sample_outcome",
    "supports_evaluation",
]

GAME_OVER = "game over"
"""The generic reason of :func:`end_reason`, for a game that does not say why it ended (the
message id is marked for translation in :mod:`zermelo.ui.words`)."""

Move = TypeVar("Move", bound=Hashable)
Move_co = TypeVar("Move_co", bound=Hashable, covariant=True)


class SortableMove(Hashable, Protocol):
    """A move that orders among the moves of its game (ints, tuples, chess moves): the searches
    break ties to the lowest move, so the moves they compare must sort."""

    def __lt__(self, other: Self, /) -> bool: ...


class Player(enum.IntEnum):
    """The two sides of a two-player game. ``FIRST`` moves first from the initial position."""

    FIRST = 0
    SECOND = 1

    @property
    def opponent(self) -> Player:
        return Player(1 - self)


class State(Protocol[Move]):
    """A position of a two-player, zero-sum game of perfect information."""

    @property
    def to_move(self) -> Player:
        """The side to move (in a terminal state: the side that would move next)."""
        ...

    @property
    def winner(self) -> Player | None:
        """The player who has won, or ``None``."""
        ...

    @property
    def ply(self) -> int:
        """Number of moves played from the initial position."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """Legal moves in the game's preferred search order; empty when terminal."""
        ...

    def play(self, move: Move) -> Self:
        """The state after ``move``. Raises :class:`IllegalMoveError` for an illegal move."""
        ...

    def is_terminal(self) -> bool:
        """True when the game is over (a win or a draw)."""
        ...

    def key(self) -> Hashable:
        """Transposition-table key; equal keys must have equal game values."""
        ...

    def notation(self) -> str:
        """The position in the game's notation; the game's ``parse`` reads it back."""
        ...

    def parse_move(self, text: str) -> Move:
        """A move from the game's move notation. Raises :class:`ParseError` quoting ``text``.

        Parsing checks the notation only; ``play`` checks legality."""
        ...

    def format_move(self, move: Move) -> str:
        """The move in the game's move notation."""
        ...


AnyState: TypeAlias = State[Any]  # Any: each game has its own move type; see the note below.
"""A state of any game. ``State`` is generic in its move type, and invariant in it (moves are
both taken and returned), so code that works for every game (the faces, the generic searches'
callers) names ``AnyState``; code for one game names its own state class."""


@runtime_checkable
class Evaluates(Protocol):
    """A state with a heuristic for depth-limited search: ``evaluate()`` from the side to move,
    strictly inside ``±EVAL_LIMIT``."""

    def evaluate(self) -> float: ...


@runtime_checkable
class WinsAtOnce(Protocol[Move_co]):
    """A state that finds a move winning on the spot: the first in search order, or ``None``."""

    def winning_move(self) -> Move_co | None: ...


@runtime_checkable
class AvoidsLosses(Protocol[Move_co]):
    """A state that lists the moves after which the opponent cannot win on its next move (empty
    when every move loses so)."""

    def non_losing_moves(self) -> Sequence[Move_co]: ...


@runtime_checkable
class NarrowsMoves(Protocol[Move_co]):
    """A state whose search should try only some of its legal moves (the points near the stones
    on a big board), most preferred first; never empty while the game runs. Read it through
    :func:`zermelo.search.moves.search_moves`, the one rule of which moves a search considers."""

    def search_moves(self) -> Sequence[Move_co]: ...


@runtime_checkable
class HasQuiet(Protocol):
    """A state that says whether it is quiet: false while a forced sequence runs (checkers: a
    capture is pending), where every legal move belongs to the sequence. Searches judge such a
    state only at the end of the sequence (:func:`zermelo.search.quiescence.quiescent`)."""

    def is_quiet(self) -> bool: ...


@runtime_checkable
class Terminates(Protocol):
    """A state that says why the game is over: an English message id marked for translation
    (``"checkmate"``, ``"four in a row"``, ``"board full"``), which the faces translate; ``None``
    while it runs."""

    def termination(self) -> str | None: ...


@runtime_checkable
class ExplainsItself(Protocol):
    """A state whose evaluation comes term by term: ``(feature, weight w_i, value x_i)``, and
    ``evaluate()`` is the sum of the ``w_i * x_i``."""

    def explain(self) -> list[tuple[str, float, int]]: ...


def supports_evaluation(state: object) -> bool:
    """True when ``state`` offers a heuristic ``evaluate()`` for depth-limited search."""
    return issubclass(type(state), Evaluates)


def end_reason(state: AnyState) -> str | None:
    """Why ``state``'s game is over, as a message id for the faces to translate: the game's own
    :meth:`Terminates.termination`, else the generic :data:`GAME_OVER`; ``None`` while it runs."""
    if not state.is_terminal():
        return None
    reason = state.termination() if isinstance(state, Terminates) else None
    return reason or GAME_OVER


@runtime_checkable
class Chance(Protocol[Move_co]):
    """A state that may be a chance node (dice, a deal). On a chance node, ``chance_outcomes()``
    lists each outcome with its probability (all above 0, summing to 1), in the order of
    ``legal_moves()``; ``play(outcome)`` plays one. On any other state ``is_chance()`` is false and
    ``chance_outcomes()`` empty."""

    def is_chance(self) -> bool: ...

    def chance_outcomes(self) -> Sequence[tuple[Move_co, float]]: ...


@runtime_checkable
class Payoff(Protocol):
    """A game scored in points: ``payoff()`` is what :attr:`Player.FIRST` wins in a terminal state
    (the second player wins its negative; zero-sum), 0.0 while the game runs. ``winner`` is the
    side with a positive payoff, ``None`` at zero."""

    def payoff(self) -> float: ...


@runtime_checkable
class HiddenInfo(Protocol):
    """A state of a game where a player cannot see everything. ``information_set(player)`` is
    equal for two states exactly when ``player`` cannot tell them apart (same own cards, same
    public history); ``observation(player)`` is what ``player`` sees, as text in the game's
    notation, with what is hidden from that player left out."""

    def information_set(self, player: Player) -> Hashable: ...

    def observation(self, player: Player) -> str: ...


def is_chance(state: object) -> bool:
    """True when ``state`` is a chance node (false for every game without chance)."""
    return issubclass(type(state), Chance) and cast(Chance[Hashable], state).is_chance()


def sample_outcome(state: AnyState, rng: random.Random) -> Hashable:
    """One outcome of the chance node ``state``, drawn by ``rng`` with the outcomes'
    probabilities: the only way zermelo rolls dice or deals cards. One ``rng.random()`` per call,
    so a seeded game replays exactly."""
    if not is_chance(state):
        raise ValueError("sample_outcome: the state is not a chance node")
    outcomes = cast(Chance[Hashable], state).chance_outcomes()
    point = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if point < total:
            return outcome
    return outcomes[-1][0]  # rounding: the probabilities sum to 1 within a few ulps


def payoff_of(state: AnyState) -> float:
    """What :attr:`Player.FIRST` wins in the terminal ``state``: the game's :meth:`Payoff.payoff`
    where it scores points, else 1, -1 or 0 by the winner."""
    if issubclass(type(state), Payoff):
        return cast(Payoff, state).payoff()
    winner = state.winner
    if winner is None:
        return 0.0
    return 1.0 if winner is Player.FIRST else -1.0


def same_side(parent: AnyState, child: AnyState) -> bool:
    """True when ``child`` (a state after one move or outcome of ``parent``) has the same side to
    move as ``parent``: a negamax value then carries over unchanged, else it changes sign."""
    return parent.to_move == child.to_move


def information_set(state: AnyState, player: Player) -> Hashable:
    """What ``player`` can tell apart: the game's :meth:`HiddenInfo.information_set`, else (a game
    of perfect information) the state's own key."""
    if issubclass(type(state), HiddenInfo):
        return cast(HiddenInfo, state).information_set(player)
    return state.key()
