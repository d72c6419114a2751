"""zermelo's games and players inside OpenSpiel.

:func:`register` registers every zermelo game that has an action encoding
(:mod:`zermelo.interop.encoding`) as an OpenSpiel Python game named ``zermelo_NAME``
(``zermelo_tictactoe``, ``zermelo_connect4``, ``zermelo_checkers``, ...), so that OpenSpiel's
algorithms (``MCTSBot``, ``evaluate_bots``, minimax, the random simulation tests) run on them
unchanged. Player 0 is zermelo's first player. A checkers move is several actions of the same
player, one per square of its path, as in OpenSpiel's own checkers.

:class:`ZermeloBot` is a ``pyspiel.Bot`` that plays with any zermelo agent: a level (``easy``,
``medium``, ``hard``; Connect Four's ``hard`` is the perfect solver) or any agent text that
:func:`zermelo.agents.parse_agent` reads. It plays the ``zermelo_*`` games and also OpenSpiel's
own ``tic_tac_toe`` and ``connect_four``, whose actions are zermelo's squares and columns.
"""

from __future__ import annotations

from typing import Any, Final

from zermelo.agents.spec import parse_agent
from zermelo.core.errors import UnknownGameError
from zermelo.core.state import Player
from zermelo.games.registry import get_game
from zermelo.interop.encoding import CODEC_NAMES, GameCodec, Turn, codec_for, tokens_of
from zermelo.interop.openspiel import pyspiel

__all__ = [
    "NATIVE_GAMES",
    "SPIEL_PREFIX",
    "ZermeloBot",
    "register",
    "replay",
    "spiel_name",
]

SPIEL_PREFIX: Final = "zermelo_"

NATIVE_GAMES: Final = {"tic_tac_toe": "tictactoe", "connect_four": "connect4"}
"""OpenSpiel's own games whose actions are the zermelo game's moves."""

_MAX_LENGTH: Final = {"checkers": 20_000}

_REGISTERED: set[str] = set()


def spiel_name(game: str) -> str:
    """The OpenSpiel short name of the zermelo game ``game``."""
    return SPIEL_PREFIX + get_game(game).name


def register() -> list[str]:
    """Register every zermelo game with an encoding in OpenSpiel (once); their short names."""
    spiel = pyspiel()
    names = []
    for game in CODEC_NAMES:
        short = SPIEL_PREFIX + game
        names.append(short)
        if short in _REGISTERED or short in spiel.registered_names():
            _REGISTERED.add(short)
            continue
        spiel.register_game(*_game_class(game))
        _REGISTERED.add(short)
    return names


def _game_class(game: str) -> tuple[Any, type]:
    spiel = pyspiel()
    spec = get_game(game)
    codec = codec_for(game)
    start = spec.new()
    rows, cols, planes = codec.shape(start)
    game_type = spiel.GameType(
        short_name=SPIEL_PREFIX + game,
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
        max_game_length=_MAX_LENGTH.get(game, rows * cols),
    )

    class Observer:
        """The board planes from one player's side, and the board as text."""

        def __init__(self, params: Any) -> None:
            import numpy as np

            self.tensor = np.zeros(rows * cols * planes, np.float32)
            self.dict = {"observation": self.tensor.reshape(rows, cols, planes)}

        def set_from(self, state: Any, player: int) -> None:
            self.dict["observation"][...] = codec.planes(state.zermelo, Player(player))

        def string_from(self, state: Any, player: int) -> str:
            return str(state)

    class Game(spiel.Game):  # type: ignore[misc,name-defined]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> Any:
            return State(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return Observer(params)

    class State(spiel.State):  # type: ignore[misc,name-defined]
        def __init__(self, spiel_game: Any) -> None:
            super().__init__(spiel_game)
            self.zermelo = spec.new()
            self.turn = Turn(self.zermelo)

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
                self.turn = Turn(self.zermelo)

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


def _token_text(state: Any, turn: Turn, token: int) -> str:
    """A token as the game writes it: the move itself when the token is a whole move."""
    for move in state.legal_moves():
        if tokens_of(move) == (*turn.prefix, token):
            return str(state.format_move(move))
    return str(token)


def _text(codec: GameCodec, state: Any, turn: Turn) -> str:
    text = codec.text(state)
    if turn.prefix:
        text += " (" + "-".join(str(t) for t in turn.prefix) + ")"
    return text


def replay(game: str, actions: list[int]) -> tuple[Any, tuple[int, ...]]:
    """The zermelo state after OpenSpiel's ``actions`` in ``game`` (a zermelo name), and the
    tokens of the turn in progress."""
    state = get_game(game).new()
    turn = Turn(state)
    for action in actions:
        move = turn.add(int(action))
        if move is not None:
            state = state.play(move)
            turn = Turn(state)
    return state, turn.prefix


def _zermelo_game_of(spiel_state: Any) -> str:
    short = spiel_state.get_game().get_type().short_name
    if short.startswith(SPIEL_PREFIX):
        return str(short[len(SPIEL_PREFIX) :])
    if short in NATIVE_GAMES:
        return NATIVE_GAMES[short]
    raise UnknownGameError(
        f"OpenSpiel game {short!r} has no zermelo player: expected a zermelo_* game, "
        f"{', '.join(NATIVE_GAMES)}"
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
        self._agents: dict[str, Any] = {}
        self._plan: tuple[int, ...] = ()

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: Any) -> None:
        self._plan = ()

    def provides_policy(self) -> bool:
        return False

    def step(self, state: Any) -> int:
        game = _zermelo_game_of(state)
        zstate, prefix = replay(game, list(state.history()))
        if prefix and self._plan[: len(prefix)] == prefix and len(self._plan) > len(prefix):
            return self._plan[len(prefix)]
        agent = self._agents.get(game)
        if agent is None:
            agent = self._agents[game] = self.spec.build(game, self.seed)
        tokens = tokens_of(agent.choose(zstate))
        if tokens[: len(prefix)] != prefix:
            turn = Turn(zstate)
            for token in prefix:
                turn.add(token)
            return turn.legal_tokens()[0]
        self._plan = tokens
        return tokens[len(prefix)]
