"""zermelo's games and players inside OpenSpiel.

:func:`register` registers every zermelo game whose record has a codec
(:mod:`zermelo.interop.encoding`), a plugin's too, as an OpenSpiel Python game named
``zermelo_NAME`` (``zermelo_tictactoe``, ``zermelo_connect4``, ``zermelo_checkers``, ...), so that OpenSpiel's
algorithms (``MCTSBot``, ``evaluate_bots``, minimax, the random simulation tests) run on them
unchanged. Player 0 is zermelo's first player. A checkers move is several actions of the same
player, one per square of its path, as in OpenSpiel's own checkers.

:class:`ZermeloBot` is a ``pyspiel.Bot`` that plays with any zermelo agent: a level (``easy``,
``medium``, ``hard``; Connect Four's ``hard`` is the perfect solver) or any agent text that
:func:`zermelo.agents.parse_agent` reads. It plays the ``zermelo_*`` games and also OpenSpiel's
own games that a record's ``codec.openspiel_native`` names (``tic_tac_toe``, ``connect_four``),
whose actions are the zermelo game's tokens.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Final, cast

from zermelo.agents.base import Agent
from zermelo.agents.spec import parse_agent
from zermelo.core.errors import UnknownGameError
from zermelo.core.record import GameSpec, OptionValue
from zermelo.core.state import AnyState, Chance, HiddenInfo, Player, is_chance, payoff_of
from zermelo.games.registry import get_game
from zermelo.interop.encoding import GameCodec, Turn, codec_for, codec_games, native_names
from zermelo.interop.openspiel import SpielObject, pyspiel

__all__ = [
    "SPIEL_PREFIX",
    "ZermeloBot",
    "native_games",
    "register",
    "replay",
    "spiel_name",
]

SPIEL_PREFIX: Final = "zermelo_"

_REGISTERED: set[str] = set()


def native_games() -> dict[str, str]:
    """OpenSpiel's own games whose actions are a zermelo game's tokens, and that game's name
    (from the records' codecs)."""
    return native_names("openspiel")


def spiel_name(game: str) -> str:
    """The OpenSpiel short name of the zermelo game ``game``."""
    return SPIEL_PREFIX + get_game(game).name


def register() -> list[str]:
    """Register every zermelo game with a codec in OpenSpiel (once), then the games of chance
    and hidden information of :data:`EXPORTS`; their short names."""
    spiel = pyspiel()
    names = []
    makers: list[tuple[str, Callable[[], tuple[SpielObject, type]]]] = [
        (game, functools.partial(_game_class, codec_for(game))) for game in codec_games()
    ]
    makers += [
        (game, functools.partial(_chance_game_class, get_game(game), numbering))
        for game, numbering in EXPORTS.items()
        if _known(game)
    ]
    for game, make in makers:
        short = SPIEL_PREFIX + game
        names.append(short)
        if short in _REGISTERED or short in spiel.registered_names():
            _REGISTERED.add(short)
            continue
        spiel.register_game(*make())
        _REGISTERED.add(short)
    return names


@dataclass(frozen=True)
class Numbering:
    """How an exported game's moves become OpenSpiel's action numbers. Action ``i`` is the move
    written ``words[i]``; a move not among the words (a backgammon play) is numbered after them
    by its place among such moves of its position, in the state's own order, of which there are
    at most ``plays``. A chance outcome's action is its place in ``outcomes``: by default the
    outcomes of the game's first chance node (Pig's faces ``1``..``die``; a poker deck in
    order, so that a card's action is OpenSpiel's card number)."""

    words: tuple[str, ...]
    outcomes: tuple[str, ...] | None = None
    plays: int = 0
    utility: float | None = None

    def actions(self) -> int:
        return len(self.words) + self.plays


MAX_PLAYS: Final = 23_751
"""The most distinct backgammon plays of one roll: a play is told apart by the position it
reaches, which the multiset of the points its (at most four) checker steps start from fixes, and
there are sum(C(24 + k, k), k = 0..4) = 23,751 such multisets of 25 points (the bar and 24)."""

EXPORTS: Final[dict[str, Numbering]] = {
    "pig": Numbering(("roll", "hold")),
    "kuhn": Numbering(("pass", "bet")),
    "leduc": Numbering(("fold", "call", "raise")),
    "backgammon": Numbering(
        ("roll", "double", "take", "drop"),
        outcomes=tuple(f"{a}{b}" for a in range(1, 7) for b in range(1, 7)),
        plays=MAX_PLAYS,
        utility=3.0 * 64,
    ),
}
"""zermelo's games of chance and hidden information exported to OpenSpiel, numbered as OpenSpiel's
own pig, kuhn_poker and leduc_poker are (roll 0, hold 1; pass 0, bet 1; fold 0, call 1, raise
2). Backgammon's cube actions come first, its plays after them; its rolls are the 36 ordered
pairs of faces (``"52"``; the opening roll's order says who starts); a gammon or backgammon
times a cube of at most 64 bounds the points."""

MAX_EXPORT_LENGTH: Final = 100_000
"""The longest game declared to OpenSpiel for an exported game whose rules set no bound (Pig
can go on as long as the dice say)."""


def _known(game: str) -> bool:
    try:
        get_game(game)
    except UnknownGameError:
        return False
    return True


def _first_outcomes(spec: GameSpec, options: dict[str, OptionValue]) -> tuple[str, ...]:
    """The outcomes of the first chance node of ``spec``'s game (its first moves played)."""
    state: AnyState = spec.new(**options)
    for _ in range(1000):
        if is_chance(state):
            outcomes = cast(Chance[Hashable], state).chance_outcomes()
            return tuple(state.format_move(outcome) for outcome, _ in outcomes)
        if state.is_terminal():
            break
        state = state.play(state.legal_moves()[0])
    raise ValueError(f"game {spec.name!r}: no chance node found to number its outcomes")


def _game_length(spec: GameSpec, budget: int = 200_000) -> int:
    """The most actions (deals included) in a game of ``spec`` when its tree is small enough to
    walk within ``budget`` states; else :data:`MAX_EXPORT_LENGTH`."""
    stack: list[tuple[AnyState, int]] = [(spec.new(), 0)]
    longest = 0
    seen = 0
    while stack:
        state, depth = stack.pop()
        seen += 1
        if seen > budget:
            return MAX_EXPORT_LENGTH
        longest = max(longest, depth)
        stack.extend((state.play(move), depth + 1) for move in state.legal_moves())
    return longest


def _chance_game_class(spec: GameSpec, numbering: Numbering) -> tuple[SpielObject, type]:
    """The OpenSpiel game type and class of a zermelo game of chance (and of hidden
    information when the record says so), numbered as :data:`EXPORTS` says. The record's rule
    options are the game's parameters (``zermelo_pig(goal=10,die=4)``), checked as the record
    checks them."""
    spiel = pyspiel()
    hidden = spec.hidden
    defaults = {o.name: o.default for o in spec.options if o.default is not None}
    game_type = spiel.GameType(
        short_name=SPIEL_PREFIX + spec.name,
        long_name=f"zermelo {spec.title}",
        dynamics=spiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=spiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            spiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else spiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=spiel.GameType.Utility.ZERO_SUM,
        reward_model=spiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=hidden,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=defaults,
    )
    bound = numbering.utility if numbering.utility is not None else _utility_bound(spec)
    words = numbering.words

    def info(options: dict[str, OptionValue]) -> tuple[SpielObject, tuple[str, ...]]:
        outcomes = numbering.outcomes or _first_outcomes(spec, options)
        length = _game_length(spec) if hidden else MAX_EXPORT_LENGTH
        game_info = spiel.GameInfo(
            num_distinct_actions=numbering.actions(),
            max_chance_outcomes=len(outcomes),
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length,
        )
        return game_info, outcomes

    class Observer:
        """What a player sees, as text: the information set (``perfect_recall``) or the
        observation of a hidden game, the position of a game of perfect information. No
        tensor."""

        def __init__(self, recall: bool) -> None:
            import numpy as np

            self.recall = recall
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, object] = {}

        def set_from(self, state: State, player: int) -> None:
            pass

        def string_from(self, state: State, player: int) -> str:
            zstate = state.zermelo
            if not hidden:
                return str(zstate.notation())
            seen = cast(HiddenInfo, zstate)
            if self.recall:
                return str(seen.information_set(Player(player)))
            return str(seen.observation(Player(player)))

    class Game(spiel.Game):  # type: ignore[misc,name-defined]
        def __init__(self, params: SpielObject = None) -> None:
            given = dict(params or {})
            self.options = spec.check_options({**defaults, **given})
            game_info, self.outcomes = info(self.options)
            super().__init__(game_type, game_info, given)

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(
            self, iig_obs_type: SpielObject = None, params: SpielObject = None
        ) -> Observer:
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return Observer(recall)

    class State(spiel.State):  # type: ignore[misc,name-defined]
        def __init__(self, spiel_game: Game) -> None:
            super().__init__(spiel_game)
            self.zermelo: AnyState = spec.new(**spiel_game.options)
            self.outcomes: tuple[str, ...] = spiel_game.outcomes

        def _actions(self) -> dict[int, Hashable]:
            """The current state's moves (or outcomes) by action number."""
            zstate = self.zermelo
            chance = is_chance(zstate)
            vocabulary = self.outcomes if chance else words
            found: dict[int, Hashable] = {}
            others = 0
            for move in zstate.legal_moves():
                text = zstate.format_move(move)
                if text in vocabulary:
                    found[vocabulary.index(text)] = move
                elif not chance and others < numbering.plays:
                    found[len(words) + others] = move
                    others += 1
                else:
                    raise ValueError(
                        f"{spec.name}: move {text!r} has no action number; expected one of "
                        f"{', '.join(vocabulary)}"
                        + (f" or at most {numbering.plays} plays" if numbering.plays else "")
                    )
            return found

        def current_player(self) -> int:
            zstate = self.zermelo
            if zstate.is_terminal():
                return int(spiel.PlayerId.TERMINAL)
            if is_chance(zstate):
                return int(spiel.PlayerId.CHANCE)
            return int(zstate.to_move)

        def _legal_actions(self, player: int) -> list[int]:
            return sorted(self._actions())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            zstate = cast(Chance[Hashable], self.zermelo)
            numbers = {move: action for action, move in self._actions().items()}
            return sorted((numbers[move], float(p)) for move, p in zstate.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            self.zermelo = self.zermelo.play(self._actions()[int(action)])

        def _action_to_string(self, player: int, action: int) -> str:
            vocabulary = self.outcomes if player == int(spiel.PlayerId.CHANCE) else words
            if 0 <= action < len(vocabulary):
                return vocabulary[action]
            move = self._actions().get(int(action)) if not self.zermelo.is_terminal() else None
            return str(action) if move is None else str(self.zermelo.format_move(move))

        def is_terminal(self) -> bool:
            return bool(self.zermelo.is_terminal())

        def returns(self) -> list[float]:
            if not self.zermelo.is_terminal():
                return [0.0, 0.0]
            first = payoff_of(self.zermelo)
            return [first, -first]

        def __str__(self) -> str:
            return str(self.zermelo.notation())

    return game_type, Game


def _utility_bound(spec: GameSpec) -> float:
    """The most a player can win: 1 for a game won or lost, else found by walking the tree
    (poker; a game too big to walk declares its bound in its :class:`Numbering`)."""
    if not spec.scored:
        return 1.0
    stack: list[AnyState] = [spec.new()]
    bound = 0.0
    while stack:
        state = stack.pop()
        if state.is_terminal():
            bound = max(bound, abs(payoff_of(state)))
        stack.extend(state.play(move) for move in state.legal_moves())
        if len(stack) > 200_000:
            raise ValueError(f"game {spec.name!r}: too large to find its utility bound")
    return bound


# SpielObject below (dynamic): pyspiel's types (GameType, Game, State, parameters) are made by its
# C++ extension, which ships no type information.
def _game_class(codec: GameCodec) -> tuple[SpielObject, type]:
    spiel = pyspiel()
    spec = codec.spec
    start = spec.new()
    rows, cols, planes = codec.shape(start)
    game_type = spiel.GameType(
        short_name=SPIEL_PREFIX + spec.name,
        long_name=f"zermelo {spec.title}",
        dynamics=spiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=spiel.GameType.ChanceMode.DETERMINISTIC,
        information=spiel.GameType.Information.PERFECT_INFORMATION,
        utility=spiel.GameType.Utility.ZERO_SUM,
        reward_model=spiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    game_info = spiel.GameInfo(
        num_distinct_actions=codec.actions(start),
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=codec.max_length(start),
    )

    class Observer:
        """The board planes from one player's side, and the board as text."""

        def __init__(self, params: SpielObject) -> None:
            import numpy as np

            self.tensor = np.zeros(rows * cols * planes, np.float32)
            self.dict = {"observation": self.tensor.reshape(rows, cols, planes)}

        def set_from(self, state: State, player: int) -> None:
            self.dict["observation"][...] = codec.planes(state.zermelo, Player(player))

        def string_from(self, state: State, player: int) -> str:
            return str(state)

    class Game(spiel.Game):  # type: ignore[misc,name-defined]
        def __init__(self, params: SpielObject = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(
            self, iig_obs_type: SpielObject = None, params: SpielObject = None
        ) -> Observer:
            return Observer(params)

    class State(spiel.State):  # type: ignore[misc,name-defined]
        def __init__(self, spiel_game: SpielObject) -> None:
            super().__init__(spiel_game)
            self.zermelo: AnyState = spec.new()
            self.turn = Turn(self.zermelo, codec.tokens)

        def current_player(self) -> int:
            if self.zermelo.is_terminal():
                return int(spiel.PlayerId.TERMINAL)
            return int(self.zermelo.to_move)

        def _legal_actions(self, player: int) -> list[int]:
            return self.turn.legal_tokens()

        def _apply_action(self, action: int) -> None:
            move = self.turn.add(int(action))
            if move is not None:
                self.zermelo = self.zermelo.play(move)
                self.turn = Turn(self.zermelo, codec.tokens)

        def _action_to_string(self, player: int, action: int) -> str:
            return _token_text(self.zermelo, self.turn, int(action))

        def is_terminal(self) -> bool:
            return bool(self.zermelo.is_terminal())

        def returns(self) -> list[float]:
            winner = self.zermelo.winner if self.zermelo.is_terminal() else None
            if winner is None:
                return [0.0, 0.0]
            return [1.0, -1.0] if winner is Player.FIRST else [-1.0, 1.0]

        def __str__(self) -> str:
            return _text(codec, self.zermelo, self.turn)

    return game_type, Game


def _token_text(state: AnyState, turn: Turn, token: int) -> str:
    """A token as the game writes it: the move itself when the token is a whole move."""
    move = turn.move_of(token)
    return str(token) if move is None else str(state.format_move(move))


def _text(codec: GameCodec, state: AnyState, turn: Turn) -> str:
    text = codec.text(state)
    if turn.prefix:
        text += " (" + "-".join(str(t) for t in turn.prefix) + ")"
    return text


def replay(game: str, actions: list[int]) -> tuple[AnyState, tuple[int, ...]]:
    """The zermelo state after OpenSpiel's ``actions`` in ``game`` (a zermelo name), and the
    tokens of the turn in progress."""
    codec = codec_for(game)
    state = codec.spec.new()
    turn = Turn(state, codec.tokens)
    for action in actions:
        move = turn.add(int(action))
        if move is not None:
            state = state.play(move)
            turn = Turn(state, codec.tokens)
    return state, turn.prefix


def _zermelo_game_of(spiel_state: SpielObject) -> str:
    short = str(spiel_state.get_game().get_type().short_name)
    if short.startswith(SPIEL_PREFIX):
        return short[len(SPIEL_PREFIX) :]
    natives = native_games()
    if short in natives:
        return natives[short]
    raise UnknownGameError(
        f"OpenSpiel game {short!r} has no zermelo player: expected a zermelo_* game, "
        f"{', '.join(natives)}"
    )


_spiel = pyspiel()


class ZermeloBot(_spiel.Bot):  # type: ignore[misc,name-defined]
    """A zermelo agent as an OpenSpiel bot for player ``player_id``: ``agent`` is a level or any
    agent text (``"hard"``, ``"mcts:iterations=500"``), its randomness drawn from ``seed``."""

    def __init__(self, player_id: int, agent: str = "hard", seed: int | None = None) -> None:
        _spiel.Bot.__init__(self)
        self._player_id = player_id
        self.spec = parse_agent(agent)
        self.seed = seed
        self._agents: dict[str, Agent] = {}
        self._plan: tuple[int, ...] = ()

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: SpielObject) -> None:
        self._plan = ()

    def provides_policy(self) -> bool:
        return False

    def step(self, state: SpielObject) -> int:
        game = _zermelo_game_of(state)
        codec = codec_for(game)
        zstate, prefix = replay(game, list(state.history()))
        if prefix and self._plan[: len(prefix)] == prefix and len(self._plan) > len(prefix):
            return self._plan[len(prefix)]
        agent = self._agents.get(game)
        if agent is None:
            agent = self._agents[game] = self.spec.build(codec.spec, self.seed)
        move: Hashable = agent.choose(zstate)
        tokens = codec.tokens(move)
        if tokens[: len(prefix)] != prefix:
            turn = Turn(zstate, codec.tokens)
            for token in prefix:
                turn.add(token)
            return turn.legal_tokens()[0]
        self._plan = tokens
        return tokens[len(prefix)]
