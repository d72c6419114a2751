"""zermelo's games as PettingZoo environments, and zermelo's players as PettingZoo policies.

:func:`env` makes an AEC environment for any zermelo game with an action encoding
(:mod:`zermelo.interop.encoding`): agents ``player_0`` (zermelo's first player) and ``player_1``,
observations ``{"observation": board planes, "action_mask": legal actions}``, rewards +1, -1 or 0 at
the end, render modes ``"ansi"`` (the board as text) and ``"human"`` (the same text, printed).

:func:`parallel_env` is the same game as a turn-based PettingZoo parallel environment, where an
illegal action ends the game with -1 for the player who chose it (PettingZoo's own convention,
so that random actions are safe).

:func:`policy` turns a zermelo agent into a function ``(observation, action_mask) -> action`` that
plays PettingZoo's own environments that are a zermelo game (the record's
``codec.pettingzoo_native``: ``connect_four_v3``, ``tictactoe_v3``), reading their boards, as well
as the environments made here of those games::

    from pettingzoo.classic import connect_four_v3
    perfect = policy("connect_four_v3", "hard")
    action = perfect(observation["observation"], observation["action_mask"])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

from zermelo.agents.spec import parse_agent
from zermelo.core.errors import (
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
)
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.interop import require
from zermelo.interop.encoding import GameCodec, Turn, codec_for, native_codec, native_names, reach

require("pettingzoo", "pettingzoo", "a PettingZoo environment")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from numpy.typing import NDArray  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

__all__ = [
    "AGENTS",
    "ZermeloEnv",
    "decode",
    "env",
    "opponent",
    "parallel_env",
    "pettingzoo_games",
    "policy",
]

AGENTS: Final = ("player_0", "player_1")

Policy = Callable[[object, object], int]
"""``(observation, action_mask) -> action``; both as PettingZoo gives them (arrays)."""

Observation = dict[str, NDArray[np.int8]]
"""``{"observation": board planes, "action_mask": legal actions}``."""


def pettingzoo_games() -> dict[str, str]:
    """PettingZoo's own environments that :func:`policy` reads, and the zermelo game of each
    (from the records' codecs)."""
    return native_names("pettingzoo")


class ZermeloEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A zermelo game as a PettingZoo AEC environment (see the module's help).

    ``options`` go to the game's ``new`` (``width=5`` for Connect Four, ``k=4`` for m,n,k). An
    action is one token of :mod:`zermelo.interop.encoding`; in checkers the agent keeps the turn
    until the squares it chose make a whole move. An illegal action raises
    :class:`~zermelo.core.errors.IllegalMoveError`, unless ``illegal_reward`` is given: then it
    ends the game, that reward going to the player who chose it and 0 to the other.
    """

    def __init__(
        self,
        game: str = "tictactoe",
        render_mode: str | None = None,
        *,
        illegal_reward: float | None = None,
        **options: int | bool,
    ) -> None:
        super().__init__()
        self.codec: GameCodec = codec_for(game)
        self.spec = self.codec.spec
        self.options = self.spec.check_options(options)
        if render_mode not in (None, "ansi", "human"):
            raise ParseError(f"render mode {render_mode!r}: expected ansi, human or None")
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"zermelo_{self.spec.name}_v0",
            "is_parallelizable": False,
        }
        self.state: AnyState = self.spec.new(**self.options)
        self.turn = Turn(self.state, self.codec.tokens)
        rows, cols, planes = self.codec.shape(self.state)
        count = self.codec.actions(self.state)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(count) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (rows, cols, planes), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self.reset()

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        self.state = self.spec.new(**self.options)
        self.turn = Turn(self.state, self.codec.tokens)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[int(self.state.to_move)]

    def observe(self, agent: str) -> Observation:
        player = Player(AGENTS.index(agent))
        mask = np.zeros(self.codec.actions(self.state), dtype=np.int8)
        if not self._over() and self.state.to_move is player:
            mask[self.turn.legal_tokens()] = 1
        return {"observation": self.codec.planes(self.state, player), "action_mask": mask}

    def _over(self) -> bool:
        return any(self.terminations.values()) or self.state.is_terminal()

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        token = _token(action)
        if self.illegal_reward is not None and token not in self.turn.legal_tokens():
            self._lose_by(agent, self.illegal_reward)
            return
        move = self.turn.add(token)
        if move is not None:
            self.state = self.state.play(move)
            self.turn = Turn(self.state, self.codec.tokens)
            if self.state.is_terminal():
                winner = self.state.winner
                for index, name in enumerate(AGENTS):
                    self.terminations[name] = True
                    if winner is not None:
                        self.rewards[name] = 1.0 if index == int(winner) else -1.0
            else:
                self.agent_selection = AGENTS[int(self.state.to_move)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _lose_by(self, agent: str, reward: float) -> None:
        """End the game on ``agent``'s illegal action, as PettingZoo's TerminateIllegalWrapper."""
        self.terminations = dict.fromkeys(AGENTS, True)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self.rewards[agent] = float(reward)
        self.infos[agent] = {"illegal_action": True}
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.codec.text(self.state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def _token(action: object) -> int:
    """An action as a token: a whole number (a NumPy one too), else one line saying so."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise IllegalMoveError(f"action {action!r}: expected a whole number")
    return int(action)


def env(
    game: str = "tictactoe", render_mode: str | None = None, **options: int | bool
) -> ZermeloEnv:
    """A new :class:`ZermeloEnv` (an illegal action raises :class:`IllegalMoveError`)."""
    return ZermeloEnv(game, render_mode=render_mode, **options)


def parallel_env(
    game: str = "tictactoe", render_mode: str | None = None, **options: int | bool
) -> object:
    """The game as a turn-based PettingZoo ``ParallelEnv``: only the agent to act's action is
    played, and an illegal one ends the game with -1 for that agent."""
    aec = ZermeloEnv(game, render_mode=render_mode, illegal_reward=-1.0, **options)
    # object: pettingzoo's ParallelEnv carries no type information.
    parallel: object = turn_based_aec_to_parallel(aec)
    return parallel


def _native(env_name: str) -> GameCodec:
    found = native_codec("pettingzoo", env_name)
    if found is None:
        raise UnknownGameError(
            f"environment {env_name!r}: expected one of {', '.join(pettingzoo_games())}"
        )
    return found


def decode(env_name: str, observation: object) -> AnyState:
    """The zermelo state of PettingZoo's own board ``observation`` in the environment
    ``env_name`` (one of :func:`pettingzoo_games`): planes of the side to move's stones and the
    other's, laid out as the zermelo game's codec lays them (``connect_four_v3``: rows from the
    top; ``tictactoe_v3``: ``observation[i][j]`` is action ``3 * i + j``, taken as zermelo's
    square ``3 * i + j``, the board seen in a mirror along its diagonal, a symmetry that changes
    no value). The side to move is the one with no more stones; the state is found by playing
    the game's moves towards the board (:func:`~zermelo.interop.encoding.reach`)."""
    game = _native(env_name)
    start = game.spec.new()
    shape = game.shape(start)
    try:
        board = np.asarray(observation, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        board = None
    if board is None or board.shape != shape or not np.isin(board, (0, 1)).all():
        raise InvalidPositionError(
            f"a {env_name} observation of shape {getattr(board, 'shape', None)}: "
            f"expected an array of 0 and 1 of shape {shape}"
        )
    own, other = board[..., 0], board[..., 1]
    if (own & other).any():
        raise InvalidPositionError("a board with two stones on one cell: expected one at most")
    n_own, n_other = int(own.sum()), int(other.sum())
    if n_own not in (n_other, n_other - 1):
        raise InvalidPositionError(
            f"a board where the side to move has {n_own} stones and the other {n_other}: "
            "expected as many, or one fewer"
        )
    first, second = (own, other) if n_own == n_other else (other, own)
    mine, theirs = game.codec.pieces
    target = [
        "".join(mine if first[r, c] else theirs if second[r, c] else "." for c in range(shape[1]))
        for r in range(shape[0])
    ]
    state = reach(game, start, target, _DECODE_BUDGET)
    if state is None:
        raise InvalidPositionError(f"a {env_name} board that no game reaches")
    return state


def _board_reader(game: str) -> str | None:
    """The PettingZoo environment whose boards :func:`policy` reads for ``game``: a PettingZoo
    name, or a zermelo game whose record names its PettingZoo twin."""
    names = pettingzoo_games()
    if game in names:
        return game
    try:
        name = get_game(game).name
    except UnknownGameError:
        return None
    return next((native for native, zermelo in names.items() if zermelo == name), None)


def policy(game: str, agent: str = "hard", seed: int | None = None) -> Policy:
    """A zermelo agent as ``(observation, action_mask) -> action``.

    ``game`` is the environment whose boards it reads: one of PettingZoo's own
    (:func:`pettingzoo_games`), or zermelo's environment of :func:`env` of the same game (same
    layout). ``agent`` is a level or any agent text of :func:`zermelo.agents.parse_agent`; for
    other zermelo environments use :func:`opponent`."""
    board = _board_reader(game)
    if board is None:
        raise UnknownGameError(
            f"no board reader for {game!r}: expected one of "
            f"{', '.join([*pettingzoo_games(), *pettingzoo_games().values()])}; "
            "for zermelo's other environments use opponent(env)"
        )
    codec = _native(board)
    built = parse_agent(agent).build(codec.spec, seed)

    def play(observation: object, action_mask: object) -> int:
        tokens = codec.tokens(built.choose(decode(board, observation)))
        return _checked(tokens[0], action_mask)

    return play


_DECODE_BUDGET: Final = 20_000


def _checked(action: int, mask: object) -> int:
    if mask is not None and not np.asarray(mask)[action]:
        raise InvalidPositionError(
            f"the agent chose action {action}, which the action mask forbids: "
            "the board and the mask disagree"
        )
    return action


def opponent(
    environment: ZermeloEnv, agent: str = "hard", seed: int | None = None
) -> Callable[[], int]:
    """A zermelo agent playing in ``environment``: call it for the action of the agent to act."""
    built = parse_agent(agent).build(environment.spec, seed)
    plan: dict[str, tuple[int, ...]] = {"tokens": ()}

    def act() -> int:
        turn = environment.turn
        prefix = turn.prefix
        tokens = plan["tokens"]
        if not (prefix and tokens[: len(prefix)] == prefix and len(tokens) > len(prefix)):
            move: Hashable = built.choose(environment.state)
            tokens = environment.codec.tokens(move)
            plan["tokens"] = tokens
        return tokens[len(prefix)]

    return act
