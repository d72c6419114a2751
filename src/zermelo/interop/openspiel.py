"""OpenSpiel games as zermelo states.

Every OpenSpiel game that is two-player, zero-sum, sequential, deterministic and of perfect
information fits the :class:`~zermelo.core.state.State` protocol, so zermelo's alpha-beta, MCTS,
levels, arena and front ends run on it. :func:`load` checks the game type's fields and refuses a
game that misses one, naming what is missing.

Turns and moves
    zermelo's search is negamax: the sides alternate. Most OpenSpiel games alternate action by
    action, and there a move is one OpenSpiel action (an ``int``). Some split a turn into several
    actions of the same player (amazons: the queen's start, its end, the arrow; checkers: the hops
    of a multiple jump). There a move is the tuple of actions up to the next change of player,
    and :meth:`OpenSpielState.legal_moves` lists every such tuple.

Notation
    A move is written with OpenSpiel's action strings (``"x(1,1)"``, ``"a2a3"``; the actions of a
    compound move joined by ``"; "``); :meth:`~OpenSpielState.parse_move` also takes the action
    numbers. A position is the game's history of actions, numbers separated by spaces (``""`` for
    the start); :func:`OpenSpielGame.parse` reads it back, action strings allowed too.

Keys and values
    The transposition key is the side to move, the move number and OpenSpiel's observation string
    (the whole position in a perfect-information game), or the state's string where the game has
    no observation string. There is no heuristic evaluation: alpha-beta reads to the end (or stops
    at its time or node budget, calling unread leaves unknown), and MCTS plays out. The winner is
    the player with the positive return.

Players
    :attr:`Player.FIRST` is the OpenSpiel player who moves in the initial state (white in chess is
    OpenSpiel's player 1, and it is zermelo's first player).
"""

from __future__ import annotations

import functools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Self, TypeAlias, cast

from zermelo.core.errors import (
    BudgetError,
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
    ZermeloError,
)
from zermelo.core.record import N_, GameSpec, Grid, LevelFactory, Ref
from zermelo.core.state import AnyState, Player, information_set, is_chance
from zermelo.interop import require
from zermelo.search.alphabeta import alphabeta
from zermelo.search.mcts import Mcts
from zermelo.search.result import SearchResult
from zermelo.search.table import TranspositionTable

__all__ = [
    "PREFIX",
    "ChanceSpielState",
    "HiddenSpielState",
    "NotSupportedError",
    "OpenSpielGame",
    "OpenSpielState",
    "SolveOrMctsAgent",
    "SpielMove",
    "fitting_games",
    "load",
    "missing_properties",
    "openspiel_spec",
    "pyspiel",
]

PREFIX: Final = "openspiel:"
"""Registry names of wrapped games start with this: ``openspiel:NAME[(params)]``."""

MAX_COMPOUND_MOVES: Final = 100_000
"""At most this many moves are listed for one turn made of several actions."""

MAX_SIZE: Final = 1_000_000
"""At most this many distinct actions, and actions in one game (parameters can ask for more)."""

MAX_HISTORIES: Final = 30_000
"""At most this many histories (states of the game tree) in a game of hidden information:
Leduc hold'em has 9,457, Kuhn poker 58. Counting a bigger game stops at this budget."""

_NUMBER = re.compile(r"[0-9]{1,9}")

SpielObject: TypeAlias = Any
"""A pyspiel object (a game, a state, a game type, the module): made by OpenSpiel's C++
extension, which ships no type information, so it is dynamic here."""

Policy: TypeAlias = Mapping[Hashable, Mapping[Hashable, float]]
"""A strategy of a game of hidden information: information set -> move -> probability."""

SpielMove: TypeAlias = int | tuple[int, ...]
"""A move of a wrapped game: one action, or the actions of one player's whole turn."""


def pyspiel() -> SpielObject:
    """The ``pyspiel`` module, or :class:`~zermelo.interop.MissingExtraError`."""
    return require("pyspiel", "openspiel", "an OpenSpiel game")


class NotSupportedError(ZermeloError):
    """An OpenSpiel game outside the class zermelo's search handles."""


def missing_properties(game: SpielObject) -> list[str]:
    """What keeps the OpenSpiel ``game`` out of the class zermelo searches (empty: it fits)."""
    missing = [] if game.num_players() == 2 else [f"two players (it has {game.num_players()})"]
    return missing + _kind_misses(game.get_type())


class OpenSpielGame:
    """One loaded OpenSpiel game that fits: builds and parses its states."""

    def __init__(self, game: SpielObject, name: str) -> None:
        self.game = game
        self.name = name
        kind = game.get_type()
        spiel = pyspiel()
        self.title: str = kind.long_name
        self.observes: bool = bool(kind.provides_observation_string)
        self.chance: bool = kind.chance_mode == spiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        self.hidden: bool = kind.information != spiel.GameType.Information.PERFECT_INFORMATION
        self.state_class: type[OpenSpielState] = (
            HiddenSpielState if self.hidden else ChanceSpielState if self.chance else OpenSpielState
        )
        start = game.new_initial_state()
        if start.is_chance_node():
            deciders = _next_deciders(start)
            self.first_id: int = deciders.pop() if len(deciders) == 1 else 0
        else:
            self.first_id = start.current_player()
        self.sides = {self.first_id: Player.FIRST, 1 - self.first_id: Player.SECOND}
        self.utility: float = float(max(abs(game.min_utility()), abs(game.max_utility())))

    def new(self, first: Player = Player.FIRST) -> OpenSpielState:
        """The initial state. OpenSpiel's rules fix who starts, so ``first`` must be FIRST."""
        if Player(first) is not Player.FIRST:
            raise InvalidPositionError(
                f"in {self.name} the rules say who moves first; it cannot be the second player"
            )
        return self.state_class(self, self.game.new_initial_state(), ())

    def parse(self, text: str) -> OpenSpielState:
        """A position from its history of actions (numbers or action strings, space-separated).

        Action strings that contain spaces are not readable here; write their numbers."""
        if not isinstance(text, str):
            raise ParseError(f"position {text!r}: expected the actions played, separated by spaces")
        state = self.new()
        for token in text.split():
            if state.is_terminal():
                raise IllegalMoveError(
                    f"position {text!r}: the game is over before {token!r}; "
                    "expected no more actions"
                )
            action = state._parse_action(token, text)
            state = state._apply_actions((action,))
        return state

    def side_of(self, player_id: int) -> Player:
        return Player.FIRST if player_id == self.first_id else Player.SECOND

    def id_of(self, side: Player) -> int:
        return self.first_id if side is Player.FIRST else 1 - self.first_id

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.name!r})"


class OpenSpielState:
    """An OpenSpiel state at the start of a turn, as an immutable zermelo state.

    ``history`` is the tuple of actions played from the start. The wrapped ``pyspiel.State`` is
    never changed once wrapped: :meth:`play` works on a clone.
    """

    __slots__ = (
        "_children",
        "_key",
        "_last",
        "_moves",
        "_side",
        "_terminal",
        "game",
        "history",
        "spiel",
    )

    def __init__(
        self,
        game: OpenSpielGame,
        spiel_state: SpielObject,
        history: tuple[int, ...],
        last: Player | None = None,
    ) -> None:
        self.game = game
        self.spiel = spiel_state
        self.history = history
        # The side that made the last decision before this state (None before any).
        self._last = last
        self._terminal: bool = spiel_state.is_terminal()
        self._key: Hashable | None = None
        self._moves: list[SpielMove] | None = None
        # The states after single actions, made while listing the moves; never changed, so they
        # are shared with the states that play() makes from them.
        self._children: dict[int, SpielObject] = {}
        if self._terminal:
            self._side = Player.FIRST if last is None else last.opponent
        elif spiel_state.is_chance_node():
            self._side = self._roller()
        else:
            self._side = game.sides[spiel_state.current_player()]

    # -- the State protocol -----------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return self._side

    @property
    def winner(self) -> Player | None:
        if not self._terminal:
            return None
        returns = self.spiel.returns()
        first = returns[self.game.first_id]
        if first > 0:
            return Player.FIRST
        if first < 0:
            return Player.SECOND
        return None

    @property
    def ply(self) -> int:
        return int(self.spiel.move_number())

    def is_terminal(self) -> bool:
        return self._terminal

    def legal_moves(self) -> list[SpielMove]:
        if self._moves is None:
            self._moves = self._list_moves()
        return self._moves

    def play(self, move: SpielMove) -> Self:
        if self._terminal:
            raise IllegalMoveError(f"the game is over; no move is possible ({self.notation()!r})")
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"{self._describe(move)} is not a legal move here; expected one of "
                f"{self._some_moves()}"
            )
        child = self._children.get(move) if isinstance(move, int) else None
        if child is not None and isinstance(move, int):
            return type(self)(self.game, child, (*self.history, move), self._decider())
        actions = move if isinstance(move, tuple) else (move,)
        return self._apply_actions(actions)

    def key(self) -> Hashable:
        if self._key is None:
            spiel = self.spiel
            chance = bool(spiel.is_chance_node())
            text: object
            if self.game.hidden:
                text = self.history  # the truth: no string of OpenSpiel's is sure to hold it all
            elif self.game.observes and not self._terminal and not chance:
                text = spiel.observation_string(spiel.current_player())
            else:
                text = str(spiel)
            self._key = (int(self._side), chance, spiel.move_number(), text)
        return self._key

    def notation(self) -> str:
        return " ".join(str(action) for action in self.history)

    def parse_move(self, text: str) -> SpielMove:
        if not isinstance(text, str) or not text.strip():
            raise ParseError(f"move {text!r}: expected one of {self._some_moves()}")
        wanted = _normal(text)
        for move in self.legal_moves():
            if _normal(self.format_move(move)) == wanted:
                return move
        numbers = re.split(r"[\s,;]+", text.strip())
        if all(_NUMBER.fullmatch(n) for n in numbers):
            actions = tuple(int(n) for n in numbers)
            if len(actions) == 1 and actions not in self.legal_moves():
                return actions[0]
            return actions
        raise ParseError(f"move {text!r}: expected one of {self._some_moves()}")

    def format_move(self, move: SpielMove) -> str:
        """``move`` in OpenSpiel's words: a move of this position, or the move that led to it
        (front ends name the last move from the position after it)."""
        actions = move if isinstance(move, tuple) else (move,)
        if self._terminal or actions[0] not in self.spiel.legal_actions():
            k = len(actions)
            if k <= len(self.history) and self.history[-k:] == actions:
                before = self.game.new()._apply_actions(self.history[:-k])
                return before.format_move(move)
            return " ".join(str(action) for action in actions)
        state = self.spiel.clone()
        words = []
        for action in actions:
            words.append(state.action_to_string(state.current_player(), action))
            state.apply_action(action)
        return "; ".join(words)

    # -- more -------------------------------------------------------------------------------

    def render(self) -> str:
        """OpenSpiel's drawing of the position (its ``str``)."""
        return str(self.spiel)

    def returns(self) -> tuple[float, float]:
        """OpenSpiel's returns of the first and the second player (0, 0 before the end)."""
        values = self.spiel.returns()
        first = self.game.first_id
        return float(values[first]), float(values[1 - first])

    def __hash__(self) -> int:
        return hash((self.game.name, self.history))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OpenSpielState):
            return NotImplemented
        return self.game.name == other.game.name and self.history == other.history

    def __repr__(self) -> str:
        return f"OpenSpielState({self.game.name!r}, {self.notation()!r})"

    def __getstate__(self) -> tuple[str, tuple[int, ...]]:
        return self.game.name, self.history

    def __setstate__(self, data: tuple[str, tuple[int, ...]]) -> None:
        name, history = data
        state = load(name).new()._apply_actions(history)
        for slot in OpenSpielState.__slots__:
            setattr(self, slot, getattr(state, slot))

    # -- inside -----------------------------------------------------------------------------

    def _apply_actions(self, actions: tuple[int, ...]) -> Self:
        child = self.spiel.clone()
        last = self._last
        for action in actions:
            player = child.current_player()
            if player >= 0:
                last = self.game.sides[player]
            child.apply_action(action)
        return type(self)(self.game, child, self.history + actions, last)

    def _decider(self) -> Player | None:
        """The side that made the last decision once this state's move is played."""
        return self._last if self.spiel.is_chance_node() else self._side

    def _roller(self) -> Player:
        """Who a chance node belongs to (see :class:`ChanceSpielState`)."""
        deciders = _next_deciders(self.spiel, self._children)
        if len(deciders) == 1:
            return self.game.sides[deciders.pop()]
        return Player.FIRST if self._last is None else self._last

    def _list_moves(self) -> list[SpielMove]:
        spiel = self.spiel
        if self._terminal:
            return []
        if spiel.is_chance_node():
            outcomes: list[SpielMove] = []
            for action, _ in spiel.chance_outcomes():
                if action not in self._children:
                    self._children[action] = spiel.child(action)
                outcomes.append(int(action))
            return outcomes
        player = spiel.current_player()
        moves: list[SpielMove] = []
        inside: list[tuple[SpielObject, tuple[int, ...]]] = []
        children = self._children
        for action in spiel.legal_actions():
            child = spiel.child(action)
            if child.is_terminal() or child.current_player() != player:
                moves.append(action)
                children[action] = child
            else:
                inside.append((child, (action,)))
        if inside:
            children.clear()
            # One kind of move per list (so that it sorts): single actions become 1-tuples.
            turns: list[SpielMove] = [m if isinstance(m, tuple) else (m,) for m in moves]
            turns.extend(self._whole_turns(player, inside))
            return turns
        return moves

    def _whole_turns(
        self, player: int, frontier: list[tuple[SpielObject, tuple[int, ...]]]
    ) -> list[tuple[int, ...]]:
        """The shortest action sequences of ``player`` from ``frontier`` to each distinct position
        where the turn ends (breadth first; a turn that can wander, like a cursor, ends too)."""
        seen = {str(state) for state, _ in frontier}
        ends: set[str] = set()
        moves: list[tuple[int, ...]] = []
        while frontier:
            following: list[tuple[SpielObject, tuple[int, ...]]] = []
            for state, prefix in frontier:
                for action in state.legal_actions():
                    child = state.child(action)
                    text = str(child)
                    actions = (*prefix, action)
                    if child.is_terminal() or child.current_player() != player:
                        if text not in ends:
                            ends.add(text)
                            moves.append(actions)
                    elif text not in seen:
                        seen.add(text)
                        following.append((child, actions))
                    if len(moves) + len(seen) > MAX_COMPOUND_MOVES:
                        raise NotSupportedError(
                            f"{self.game.name}: one turn reaches more than "
                            f"{MAX_COMPOUND_MOVES} positions; expected fewer"
                        )
            frontier = following
        return moves

    def _parse_action(self, token: str, text: str) -> int:
        """One action of the history ``text``: a number or an action string of the player."""
        spiel = self.spiel
        legal = spiel.legal_actions()
        if _NUMBER.fullmatch(token):
            action = int(token)
            if action not in legal:
                raise IllegalMoveError(
                    f"position {text!r}: action {action} is not legal after "
                    f"{self.notation()!r}; expected one of {legal[:20]}"
                )
            return action
        wanted = _normal(token)
        for action in legal:
            if _normal(spiel.action_to_string(spiel.current_player(), action)) == wanted:
                return int(action)
        raise ParseError(
            f"position {text!r}: {token!r} is not a legal action after {self.notation()!r}; "
            "expected action numbers or action strings separated by spaces"
        )

    def _describe(self, move: object) -> str:
        return f"move {move!r}"

    def _some_moves(self, limit: int = 12) -> str:
        words = [self.format_move(m) for m in self.legal_moves()[:limit]]
        more = len(self.legal_moves()) - len(words)
        return ", ".join(words) + (f" (and {more} more)" if more > 0 else "")


class ChanceSpielState(OpenSpielState):
    """A state of an OpenSpiel game with explicit chance (pig, backgammon): a chance node offers
    :class:`~zermelo.core.state.Chance`, its outcomes, in the order of OpenSpiel's
    ``chance_outcomes()``, being its moves (written with OpenSpiel's action strings, ``"Roll 3"``,
    ``"chance outcome 15 (roll: 52)"``, or their numbers), and the game is scored by
    OpenSpiel's ``returns()`` (:class:`~zermelo.core.state.Payoff`).

    OpenSpiel gives a chance node no player, so ``to_move`` there is found so: the player who
    decides first after it, when every outcome leads to the same player (backgammon's roller,
    the first to bet after a deal; chance nodes that follow at once are looked through); else the
    side that made the last decision (Pig's roller, who keeps the turn unless a 1 comes up); else,
    at a start where neither says (backgammon's opening roll), :attr:`Player.FIRST`, which is
    OpenSpiel's player 0 in a game that starts with a chance node whose outcomes let either side
    begin.
    """

    __slots__ = ()

    def is_chance(self) -> bool:
        return not self._terminal and bool(self.spiel.is_chance_node())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance():
            return []
        return [(int(action), float(p)) for action, p in self.spiel.chance_outcomes()]

    def payoff(self) -> float:
        if not self._terminal:
            return 0.0
        return float(self.spiel.returns()[self.game.first_id])

    def value_bounds(self) -> tuple[float, float]:
        """Every payoff lies within OpenSpiel's utility bounds, from either side (what
        *-minimax prunes chance nodes with)."""
        return -self.game.utility, self.game.utility

    def evaluate(self) -> float:
        """OpenSpiel has no heuristic: a depth-limited search counts a position it does not read
        to the end as even, 0, as alpha-beta counts an unread leaf of a wrapped game."""
        return 0.0


class HiddenSpielState(ChanceSpielState):
    """A state of a two-player zero-sum OpenSpiel game of imperfect information (kuhn_poker,
    leduc_poker): :class:`~zermelo.core.state.HiddenInfo` from OpenSpiel's information states.
    ``information_set(player)`` is the player's ``information_state_string``, which OpenSpiel
    makes equal exactly for the histories that player cannot tell apart; ``observation(player)``
    is that string too (OpenSpiel's observation strings forget the past and are at times only a
    tensor written out, Kuhn's ``"111"``). ``notation()``, the actions played, is the whole
    truth, deals included, as for every hidden game."""

    __slots__ = ()

    def information_set(self, player: Player) -> Hashable:
        return int(player), self.observation(player)

    def observation(self, player: Player) -> str:
        return str(self.spiel.information_state_string(self.game.id_of(Player(player))))


MAX_LOOKAHEAD: Final = 2_000
"""At most this many states are looked through to find who a chance node belongs to."""


def _next_deciders(node: SpielObject, children: dict[int, SpielObject] | None = None) -> set[int]:
    """The OpenSpiel players who decide first after the chance node ``node``, over all its
    outcomes (chance nodes that follow are looked through; terminal outcomes count no one).
    Stops as soon as two are found. ``children`` keeps ``node``'s children for its moves."""
    found: set[int] = set()
    frontier = [node]
    seen = 0
    while frontier:
        current = frontier.pop()
        for action, _ in current.chance_outcomes():
            child = None if children is None or current is not node else children.get(action)
            if child is None:
                child = current.child(action)
                if children is not None and current is node:
                    children[int(action)] = child
            seen += 1
            if child.is_terminal():
                continue
            if child.is_chance_node():
                if seen < MAX_LOOKAHEAD:
                    frontier.append(child)
                continue
            found.add(int(child.current_player()))
            if len(found) > 1:
                return found
    return found


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


@dataclass(frozen=True)
class FloatRange:
    """A real-valued OpenSpiel parameter within ``[low, high]``."""

    low: float
    high: float


@dataclass(frozen=True)
class Choice:
    """A text OpenSpiel parameter: one of ``words``, or text that ``pattern`` matches whole."""

    words: tuple[str, ...] = ()
    pattern: str | None = None


Declared = tuple[int, int] | FloatRange | Choice
"""What values an OpenSpiel parameter may take: whole numbers from ``low`` to ``high``, a real
range, or a choice of texts. Yes/no parameters need no declaration."""

PARAMETERS: Final[dict[str, dict[str, Declared]]] = {
    # Each range keeps the game small and quick to build, and holds the default. Outside them
    # OpenSpiel builds boards of gigabytes (gomoku(dims=27)), aborts with an exception the
    # bindings do not translate (gomoku(dims=-1)), or crashes the process
    # (connect_four(rows=0)). Keyed by registry name: ``openspiel:`` and OpenSpiel's name.
    "openspiel:amazons": {"board_size": (6, 10)},
    "openspiel:breakthrough": {"rows": (3, 10), "columns": (2, 10)},
    "openspiel:checkers": {"rows": (4, 10), "columns": (4, 10)},
    "openspiel:chinese_checkers": {"max_moves": (10, 1000), "players": (2, 2)},
    "openspiel:clobber": {"rows": (2, 10), "columns": (2, 10)},
    "openspiel:connect_four": {"rows": (4, 10), "columns": (4, 10), "x_in_row": (3, 6)},
    "openspiel:cursor_go": {
        "board_size": (2, 13),
        "handicap": (0, 9),
        "komi": FloatRange(-50.0, 50.0),
        "max_cursor_moves": (1, 100),
    },
    "openspiel:dots_and_boxes": {"num_rows": (1, 5), "num_cols": (1, 5)},
    "openspiel:go": {
        "board_size": (2, 19),
        "handicap": (0, 9),
        "komi": FloatRange(-50.0, 50.0),
        "max_game_length": (10, 1000),
    },
    "openspiel:gomoku": {"size": (3, 19), "connect": (3, 6), "dims": (1, 2)},
    "openspiel:havannah": {"board_size": (2, 10)},
    "openspiel:hex": {
        "board_size": (2, 13),
        "num_rows": (2, 13),
        "num_cols": (2, 13),
        "string_rep": Choice(("standard", "explicit")),
    },
    "openspiel:hive": {"board_size": (6, 12)},
    "openspiel:lines_of_action": {"max_game_length": (10, 1000)},
    "openspiel:mnk": {"m": (3, 15), "n": (3, 15), "k": (3, 15)},
    "openspiel:pig": {
        "winscore": (1, 1000),
        "diceoutcomes": (2, 20),
        "horizon": (1, 10_000),
        "players": (2, 2),
    },
    "openspiel:backgammon": {
        "max_player_turns": (1, 1000),
        "scoring_type": Choice(("winloss_scoring", "enable_gammons", "full_scoring")),
    },
    "openspiel:kuhn_poker": {"players": (2, 2)},
    "openspiel:leduc_poker": {"players": (2, 2), "starting_player": (0, 1)},
    "openspiel:liars_dice": {"numdice": (1, 2), "dice_sides": (2, 6), "players": (2, 2)},
    "openspiel:nim": {"pile_sizes": Choice(pattern=r"[1-9][0-9]?(;[1-9][0-9]?){0,7}")},
    "openspiel:oware": {"num_houses_per_player": (2, 8), "num_seeds_per_house": (1, 8)},
    "openspiel:quoridor": {"board_size": (3, 11), "wall_count": (0, 20), "players": (2, 2)},
    "openspiel:twixt": {"board_size": (5, 12)},
    "openspiel:y": {"board_size": (2, 19)},
}
"""The OpenSpiel family's declared parameters: registry name -> parameter -> allowed values.
A parameter of OpenSpiel's specification that is not declared here keeps its default (yes/no
parameters excepted); a name with any other parameter is refused before anything is built."""

MAX_NAME: Final = 200
"""Longest OpenSpiel game name read, parameters included."""

MAX_BUILT: Final = 16
"""At most this many built OpenSpiel games are kept (least recently used go first)."""

_PARAMS = re.compile(r"^([a-z][a-z0-9_]*)\s*(?:\((.*)\))?$", re.DOTALL)
_PARAM = re.compile(r"^([a-z][a-z0-9_]*)\s*=\s*(.*)$", re.DOTALL)
_INTEGER = re.compile(r"[+-]?[0-9]{1,12}")
_REAL = re.compile(r"[+-]?([0-9]{1,6}(\.[0-9]{0,6})?|\.[0-9]{1,6})")


@functools.cache
def _game_types() -> dict[str, SpielObject]:
    """OpenSpiel's registered game types by short name (no game is built)."""
    return {kind.short_name: kind for kind in pyspiel().registered_games()}


def _type_misses(kind: SpielObject) -> list[str]:
    """What the game type (before any game is built) says keeps it out of zermelo's class."""
    missing = []
    if not kind.min_num_players <= 2 <= kind.max_num_players:
        missing.append(f"two players (it has {kind.min_num_players} to {kind.max_num_players})")
    return missing + _kind_misses(kind)


def _kind_misses(kind: SpielObject) -> list[str]:
    """What a game type's utility, dynamics, chance and information keep out of zermelo's class."""
    spiel = pyspiel()
    missing = []
    if kind.utility != spiel.GameType.Utility.ZERO_SUM:
        missing.append(f"zero-sum utility (it is {kind.utility.name.lower()})")
    if kind.dynamics != spiel.GameType.Dynamics.SEQUENTIAL:
        missing.append(f"sequential moves (it has {kind.dynamics.name.lower()} moves)")
    if kind.chance_mode == spiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        missing.append("explicit chance outcomes (it only samples its chance events)")
    if kind.information != spiel.GameType.Information.PERFECT_INFORMATION:
        if kind.reward_model != spiel.GameType.RewardModel.TERMINAL:
            missing.append("rewards at the end only (it gives rewards along the way)")
        if not kind.provides_information_state_string:
            missing.append("information state strings (it provides none)")
    return missing


ParamValue = bool | int | float | str


def _value(game: str, name: str, text: str, default: ParamValue) -> ParamValue:
    """The parameter ``name=text`` of ``game`` read and checked against its declaration."""
    declared = PARAMETERS.get(game, {}).get(name)
    text = text.strip()
    if isinstance(default, bool):
        if text not in ("true", "false"):
            raise ParseError(f"{game}: parameter {name}={text!r}: expected true or false")
        return text == "true"
    if declared is None:
        raise ParseError(
            f"{game}: parameter {name} cannot be changed here; expected its default "
            f"{_spelled(default)} (or leave it out)"
        )
    if isinstance(declared, tuple):
        low, high = declared
        if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
            raise ParseError(
                f"{game}: parameter {name}={text!r}: expected a whole number from {low} to {high}"
            )
        return int(text)
    if isinstance(declared, FloatRange):
        if not _REAL.fullmatch(text) or not declared.low <= float(text) <= declared.high:
            raise ParseError(
                f"{game}: parameter {name}={text!r}: expected a number from {declared.low} to "
                f"{declared.high}"
            )
        return float(text)
    if text in declared.words or (
        declared.pattern is not None and re.fullmatch(declared.pattern, text)
    ):
        return text
    expected = ", ".join(declared.words) or f"text matching {declared.pattern}"
    raise ParseError(f"{game}: parameter {name}={text!r}: expected {expected}")


def _spelled(value: ParamValue) -> str:
    """A parameter's value as OpenSpiel's game strings write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def canonical_name(name: object) -> str:
    """The registry name (``openspiel:hex(board_size=5)``) of the OpenSpiel game ``name``,
    checked against OpenSpiel's parameter specification and :data:`PARAMETERS` before anything
    is built: parameters sorted, written as OpenSpiel writes them (no zero padding, no spaces),
    those equal to their default left out, so that one game has one name. Raises
    :class:`UnknownGameError` (no such game), :class:`ParseError` (a bad parameter) or
    :class:`NotSupportedError` (a game type outside zermelo's class)."""
    if not isinstance(name, str) or len(name) > MAX_NAME:
        shown = name[:40] + "..." if isinstance(name, str) else name
        raise UnknownGameError(
            f"OpenSpiel game {shown!r}: expected a name such as tic_tac_toe or "
            f"hex(board_size=5), at most {MAX_NAME} characters"
        )
    short = name.strip()
    if short.lower().startswith(PREFIX):
        short = short[len(PREFIX) :].strip()
    found = _PARAMS.match(short)
    if found is None:
        raise UnknownGameError(
            f"OpenSpiel game {name!r}: expected NAME or NAME(param=value,...), e.g. hex(board_size=5)"
        )
    base, inside = found.group(1), found.group(2)
    kind = _game_types().get(base)
    if kind is None:
        raise UnknownGameError(
            f"unknown OpenSpiel game {base!r}: expected a name from pyspiel.registered_names(), "
            "e.g. tic_tac_toe, connect_four, breakthrough, hex"
        )
    game = PREFIX + base
    spec: dict[str, ParamValue] = dict(kind.parameter_specification)
    given: dict[str, str] = {}
    for part in [] if inside is None or not inside.strip() else inside.split(","):
        pair = _PARAM.match(part.strip())
        if pair is None:
            raise ParseError(f"{game}: parameter {part.strip()!r}: expected name=value")
        key, text = pair.groups()
        if key in given:
            raise ParseError(f"{game}: parameter {key!r} is given twice; expected it once")
        given[key] = text.strip()
    missing = _type_misses(kind)
    players = given.get("players", "2")
    if players != "2" and not any(miss.startswith("two players") for miss in missing):
        missing.insert(0, f"two players (it asks for {players})")
    if missing:
        raise NotSupportedError(
            f"OpenSpiel game {base!r} does not fit zermelo's search: it needs " + "; ".join(missing)
        )
    values: dict[str, ParamValue] = {}
    for key, text in given.items():
        if key not in spec:
            allowed = ", ".join(sorted(spec)) or "none"
            raise ParseError(f"{game}: unknown parameter {key!r}; expected one of: {allowed}")
        values[key] = _value(game, key, text, spec[key])
    changed = sorted((key, value) for key, value in values.items() if value != spec[key])
    if not changed:
        return game
    return game + "(" + ",".join(f"{key}={_spelled(value)}" for key, value in changed) + ")"


def load(name: str) -> OpenSpielGame:
    """The OpenSpiel game ``name`` (``"hex(board_size=5)"``; ``"openspiel:"`` in front is allowed),
    checked (:func:`canonical_name`) before it is built, and checked to fit once built. Raises
    :class:`UnknownGameError`, :class:`ParseError` or :class:`NotSupportedError`. The games
    built are kept, at most :data:`MAX_BUILT` of them."""
    return _build(canonical_name(name))


@functools.lru_cache(maxsize=MAX_BUILT)
def _build(registered: str) -> OpenSpielGame:
    spiel = pyspiel()
    short = registered[len(PREFIX) :]
    try:
        game = spiel.load_game(short)
        start = game.new_initial_state()
        str(start)
        opening = None if start.is_terminal() else int(start.current_player())
        if opening == int(spiel.PlayerId.CHANCE):
            opening = 0  # a deal or a roll opens the game; its outcomes say who moves
    except (spiel.SpielError, RuntimeError, ValueError) as error:
        raise ParseError(f"OpenSpiel game {short!r}: {_first_line(error)}") from None
    if opening not in (0, 1):
        raise ParseError(
            f"OpenSpiel game {short!r}: its start has no move for either player "
            "(these parameters leave no game to play); expected other parameters"
        )
    _check_size(short, game)
    missing = missing_properties(game)
    if missing:
        raise NotSupportedError(
            f"OpenSpiel game {short!r} does not fit zermelo's search: it needs "
            + "; ".join(missing)
        )
    if game.get_type().information != spiel.GameType.Information.PERFECT_INFORMATION:
        _check_tree(short, start)
    return OpenSpielGame(game, registered)


def _check_size(name: str, game: SpielObject) -> None:
    """Refuse parameters that make a game with no move or beyond the size budget."""
    actions, length = game.num_distinct_actions(), game.max_game_length()
    if not 0 < actions <= MAX_SIZE or not 0 < length <= MAX_SIZE:
        raise NotSupportedError(
            f"OpenSpiel game {name!r} has {actions} distinct actions and games of up to "
            f"{length} actions: expected from 1 to {MAX_SIZE} of each"
        )


def _check_tree(name: str, start: SpielObject) -> None:
    """Refuse a game of hidden information with more than :data:`MAX_HISTORIES` histories:
    zermelo plays and solves such a game whole (CFR visits every history), so it must be small.
    Counting stops at the budget."""
    count = 1
    stack = [start]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        actions = state.legal_actions()
        count += len(actions)  # counted before they are made: a big game stops early
        if count > MAX_HISTORIES:
            raise NotSupportedError(
                f"OpenSpiel game {name!r} is too large for zermelo's solvers of hidden "
                f"information: more than {MAX_HISTORIES} histories; expected at most that many"
            )
        stack.extend(state.child(action) for action in actions)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[-1] if lines else type(error).__name__


def fitting_games() -> list[str]:
    """Names of the registered OpenSpiel games that fit, loaded with default parameters (each
    checked as :func:`load` checks it)."""
    spiel = pyspiel()
    names = []
    for kind in spiel.registered_games():
        if not kind.default_loadable or _type_misses(kind):
            continue
        try:
            load(kind.short_name)
        except (ZermeloError, spiel.SpielError):
            continue
        names.append(kind.short_name)
    return sorted(names)


class SolveOrMctsAgent:
    """The ``hard`` level of a wrapped game: alpha-beta within ``node_limit`` nodes and a quarter
    of the move's time, played when it proves the value; otherwise MCTS for the rest of
    ``time_limit`` seconds (or ``iterations``). Without an evaluation an unfinished alpha-beta
    knows only the wins and losses it saw, which MCTS weighs better."""

    def __init__(
        self,
        *,
        node_limit: int = 20_000,
        time_limit: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        name: str = "hard",
    ) -> None:
        if time_limit is None and iterations is None:
            time_limit = 1.0
        if time_limit is not None and not time_limit > 0:
            raise BudgetError(f"time limit must be a positive number of seconds, got {time_limit}")
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.iterations = iterations
        self.name = name
        self.table = TranspositionTable()
        self.search = Mcts(rng=random.Random(seed))
        self.last: SearchResult[Hashable] | None = None

    def choose(self, state: AnyState) -> Hashable:
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        started = time.perf_counter()
        solving = None if self.time_limit is None else self.time_limit / 4
        result = alphabeta(state, node_limit=self.node_limit, time_limit=solving, table=self.table)
        if result.exact:
            self.last = result
            return result.move
        left = None
        if self.time_limit is not None:
            left = max(self.time_limit - (time.perf_counter() - started), 0.001)
        self.last = self.search.search(state, iterations=self.iterations, time_limit=left)
        return self.last.move


class PolicyAgent:
    """Plays a game of hidden information by a policy (information set -> move -> probability,
    as :mod:`zermelo.search.cfr` makes), reading only ``information_set(to_move)`` and the legal
    moves, never the other side's cards; a move drawn with its own seeded generator. An
    information set the policy does not know is played uniformly."""

    def __init__(self, policy: Policy, seed: int | None = None, name: str = "cfr") -> None:
        self.policy = policy
        self.rng = random.Random(seed)
        self.name = name

    def choose(self, state: AnyState) -> Hashable:
        if state.is_terminal() or is_chance(state):
            raise IllegalMoveError("no player chooses here: the game is over or chance decides")
        moves = list(state.legal_moves())
        known = self.policy.get(information_set(state, state.to_move), {})
        weights = [max(float(known.get(move, 0.0)), 0.0) for move in moves]
        if not sum(weights) > 0:
            weights = [1.0] * len(moves)
        chosen: Hashable = self.rng.choices(moves, weights=weights)[0]
        return chosen


CFR_MEDIUM: Final = 10
"""CFR+ iterations of the ``medium`` level of a wrapped game of hidden information."""

CFR_HARD: Final = 300
"""CFR+ iterations of the ``hard`` level (Kuhn poker's exploitability is then 0.0004, Leduc
hold'em's 0.002)."""


@functools.lru_cache(maxsize=8)
def solved(name: str, iterations: int) -> Policy:
    """The average strategy of ``iterations`` of CFR+ on the wrapped game ``name``, computed once
    (the game is small: :data:`MAX_HISTORIES`)."""
    from zermelo.search.cfr import cfr

    return cfr(load(name).new(), iterations)


def _cfr_level(iterations: int, name: str) -> Callable[[int | None, float | None], PolicyAgent]:
    def make(seed: int | None, time_limit: float | None) -> PolicyAgent:
        return _PendingPolicy(iterations, seed, name)

    return make


class _PendingPolicy(PolicyAgent):
    """A :class:`PolicyAgent` whose game is known at its first move (a level factory is given
    only a seed and a time)."""

    def __init__(self, iterations: int, seed: int | None, name: str) -> None:
        super().__init__({}, seed, name)
        self.iterations = iterations
        self.game: str | None = None

    def choose(self, state: AnyState) -> Hashable:
        if isinstance(state, OpenSpielState) and state.game.name != self.game:
            self.game = state.game.name
            self.policy = solved(state.game.name, self.iterations)
        return super().choose(state)


cfr_medium = _cfr_level(CFR_MEDIUM, "medium")
"""The ``medium`` level of a wrapped game of hidden information: CFR+ after a few iterations."""

cfr_hard = _cfr_level(CFR_HARD, "hard")
"""The ``hard`` level: CFR+ near its equilibrium."""


def hard_level(seed: int | None, time_limit: float | None) -> SolveOrMctsAgent:
    """The ``hard`` level of every wrapped game (the record's level factory)."""
    return SolveOrMctsAgent(time_limit=time_limit, seed=seed, name="hard")


def grid(state: OpenSpielState) -> Grid:
    """The generic board of a wrapped game: OpenSpiel's drawing, one character a cell; no cell
    stands for a move, so front ends offer the legal moves beside it."""
    lines = state.render().splitlines() or [""]
    width = max(len(line) for line in lines)
    return Grid.of([list(line.ljust(width)) for line in lines])


def _changed_marks(before: str, after: str, empty: str) -> set[str]:
    """The characters ``after`` holds where it differs from ``before``, line by line, leaving out
    ``empty`` and lines that changed in more than three places (a caption such as "Black (x) to
    play" that names the side to move)."""
    marks: set[str] = set()
    for old, new in zip(before.splitlines(), after.splitlines(), strict=False):
        changed = [b for a, b in zip(old, new, strict=False) if a != b]
        if len(old) == len(new) and len(changed) <= 3:
            marks.update(c for c in changed if c != empty and not c.isspace())
    return marks


def side_symbols(start: OpenSpielState) -> tuple[str, str] | None:
    """The characters that stand for each side's pieces on OpenSpiel's drawing (``b`` and ``w`` in
    breakthrough, ``x`` and ``o`` in hex), found by playing each side's first legal move and
    reading what the move draws; ``None`` when that is not one clear character for each side.
    Cheap: two moves and three drawings, once per game."""
    try:
        first_board = start.render()
        counts = Counter(c for c in first_board if not c.isspace())
        if not counts or start.is_terminal():
            return None
        empty = counts.most_common(1)[0][0]
        first_state = start.play(start.legal_moves()[0])
        if first_state.is_terminal():
            return None
        second_state = first_state.play(first_state.legal_moves()[0])
        first = _changed_marks(first_board, first_state.render(), empty)
        second = _changed_marks(first_state.render(), second_state.render(), empty)
    except Exception:
        return None
    if len(first) == 1 and len(second) == 1 and first != second:
        return first.pop(), second.pop()
    return None


def hidden_grid(state: OpenSpielState) -> Grid:
    """The board of a wrapped game of hidden information as both sides see it: OpenSpiel does
    not say which parts of its drawing are public, so nothing of it is shown, only how many
    actions (deals included) have been played; each side's own view is :func:`view`."""
    return Grid.of([[""]], facts=[(N_("actions played"), str(len(state.history)))])


def view(state: OpenSpielState, player: Player) -> Grid:
    """What ``player`` sees of a wrapped game of hidden information: the player's information
    state string (its own cards and the public actions), one line a row (OpenSpiel's bracketed
    ``[Round 1][Pot: 2]`` parts split into rows), never the other side's cards."""
    text = cast(HiddenSpielState, state).observation(player) if state.game.hidden else ""
    lines = [line for line in text.replace("][", "]\n[").splitlines() if line] or [""]
    return Grid.of([[line] for line in lines])


def chance_level(iterations: int, seconds: float) -> str:
    """The MCTS level of a wrapped chance game (the search samples its chance nodes): at most
    ``iterations``, and at most ``seconds`` a move, since a playout of a long game through
    OpenSpiel (backgammon) is slow."""
    return f"mcts:iterations={iterations},time={seconds:g}"


def openspiel_spec(name: str) -> GameSpec:
    """The record of ``openspiel:NAME[(params)]``, the hook of
    :func:`zermelo.games.registry.get_game`: MCTS for the easy and medium levels, solve-or-MCTS
    for hard (:class:`SolveOrMctsAgent`), the generic grid board drawn from OpenSpiel's text.

    A game with chance (pig, backgammon) plays MCTS at every level (it samples the chance nodes;
    alpha-beta does not know them). A game of hidden information (kuhn_poker, leduc_poker) shows
    each side only :func:`view` and its board nothing hidden (:func:`hidden_grid`); its levels
    are a uniformly random player (easy) and the game solved by CFR (medium, hard), never a
    search that would read the other side's cards. A game whose returns go beyond ±1 is scored
    in points."""
    wrapped = load(name)
    game = wrapped.game
    levels: dict[str, str | Ref[LevelFactory]]
    if wrapped.hidden:
        levels = {
            "easy": "random",
            "medium": Ref("zermelo.interop.openspiel:cfr_medium"),
            "hard": Ref("zermelo.interop.openspiel:cfr_hard"),
        }
    elif wrapped.chance:
        levels = {
            "easy": chance_level(50, 1),
            "medium": chance_level(400, 2),
            "hard": chance_level(2000, 4),
        }
    else:
        levels = {
            "easy": "mcts:iterations=50",
            "medium": "mcts:iterations=400",
            "hard": Ref("zermelo.interop.openspiel:hard_level"),
        }
    symbols = None if wrapped.hidden else side_symbols(wrapped.new())
    return GameSpec(
        name=wrapped.name,
        title=wrapped.title,
        sides=symbols if symbols is not None else ("X", "O"),
        new=wrapped.new,
        parse=wrapped.parse,
        first_mover=Player.FIRST,
        default_time=1.0,
        levels=levels,
        board="grid",
        grid=hidden_grid if wrapped.hidden else grid,
        notation="OpenSpiel's action strings, or the action numbers",
        chance=wrapped.chance,
        hidden=wrapped.hidden,
        scored=max(abs(game.min_utility()), abs(game.max_utility())) > 1,
        view=view if wrapped.hidden else None,
    )
