"""zermelo's games as PettingZoo environments, and zermelo's players as PettingZoo policies.

:func:`env` makes an AEC environment for any zermelo game with an action encoding
(:mod:`zermelo.interop.encoding`): agents ``player_0`` (zermelo's first player) and ``player_1``,
observations ``{"observation": board planes, "action_mask": legal actions}``, rewards +1, -1 or 0 at
the end, render modes ``"ansi"`` (the board as text) and ``"human"`` (the same text, printed).

:func:`policy` turns a zermelo agent into a function ``(observation, action_mask) -> action`` that
plays PettingZoo's own ``connect_four_v3`` and ``tictactoe_v3`` (reading their boards) as well as
the environments made here::

    from pettingzoo.classic import connect_four_v3
    perfect = policy("connect_four_v3", "hard")
    action = perfect(observation["observation"], observation["action_mask"])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from zermelo.agents.spec import parse_agent
from zermelo.core.errors import InvalidPositionError, ParseError, UnknownGameError, ZermeloError
from zermelo.core.state import Player
from zermelo.games.registry import get_game
from zermelo.interop import require
from zermelo.interop.encoding import Turn, codec_for, tokens_of

require("pettingzoo", "pettingzoo", "a PettingZoo environment")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

__all__ = ["AGENTS", "PETTINGZOO_GAMES", "ZermeloEnv", "decode", "env", "opponent", "policy"]

AGENTS: Final = ("player_0", "player_1")

PETTINGZOO_GAMES: Final = {"connect_four_v3": "connect4", "tictactoe_v3": "tictactoe"}
"""PettingZoo's own environments that :func:`policy` reads, and the zermelo game of each."""

Policy = Callable[[Any, Any], int]


class ZermeloEnv(AECEnv):  # type: ignore[misc]
    """A zermelo game as a PettingZoo AEC environment (see the module's help).

    ``options`` go to the game's ``new`` (``width=5`` for Connect Four, ``k=4`` for m,n,k). An
    action is one token of :mod:`zermelo.interop.encoding`; in checkers the agent keeps the turn
    until the squares it chose make a whole move.
    """

    def __init__(self, game: str = "tictactoe", render_mode: str | None = None, **options: Any):
        super().__init__()
        self.spec = get_game(game)
        self.codec = codec_for(game)
        self.options = options
        if render_mode not in (None, "ansi", "human"):
            raise ParseError(f"render mode {render_mode!r}: expected ansi, human or None")
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"zermelo_{self.spec.name}_v0",
            "is_parallelizable": False,
        }
        self.state = self.spec.new(**options)
        self.turn = Turn(self.state)
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

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state = self.spec.new(**self.options)
        self.turn = Turn(self.state)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[int(self.state.to_move)]

    def observe(self, agent: str) -> dict[str, Any]:
        player = Player(AGENTS.index(agent))
        mask = np.zeros(self.codec.actions(self.state), dtype=np.int8)
        if not self.state.is_terminal() and self.state.to_move is player:
            mask[self.turn.legal_tokens()] = 1
        return {"observation": self.codec.planes(self.state, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        move = self.turn.add(int(action))
        if move is not None:
            self.state = self.state.play(move)
            self.turn = Turn(self.state)
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


def env(game: str = "tictactoe", render_mode: str | None = None, **options: Any) -> ZermeloEnv:
    """A new :class:`ZermeloEnv`."""
    return ZermeloEnv(game, render_mode=render_mode, **options)


def decode(env_name: str, observation: Any) -> Any:
    """The zermelo state of PettingZoo's own board ``observation`` (``connect_four_v3``: rows from
    the top, plane 0 the mover's stones; ``tictactoe_v3``: ``observation[i][j]`` is action
    ``3 * i + j``, taken as zermelo's square ``3 * i + j``, the board seen in a mirror along its
    diagonal, a symmetry that changes no value). The side to move is the one with no more stones."""
    shape = _SHAPES.get(env_name)
    if shape is None:
        raise UnknownGameError(
            f"environment {env_name!r}: expected one of {', '.join(PETTINGZOO_GAMES)}"
        )
    try:
        board = np.asarray(observation, dtype=np.int64)
    except (TypeError, ValueError):
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
    first = n_own == n_other
    if env_name == "tictactoe_v3":
        from zermelo.games.tictactoe import TicTacToeState

        mine, theirs = ("X", "O") if first else ("O", "X")
        cells = "".join(
            mine if own.reshape(9)[s] else theirs if other.reshape(9)[s] else "." for s in range(9)
        )
        return TicTacToeState.parse(cells + " " + mine)
    return _connect4_from_board(own, other, first)


def _connect4_from_board(own: Any, other: Any, first: bool) -> Any:
    """A Connect Four state with these stones: a move order that reaches them with no win before
    the last move, found by taking top stones off alternately (depth-first, within a budget)."""
    from zermelo.games.connect4 import Connect4State

    height, width = own.shape
    columns: list[list[bool]] = []  # per column from the bottom: True for the first player's stone
    for c in range(width):
        column = []
        for r in reversed(range(height)):
            if not (own[r, c] or other[r, c]):
                if own[:r, c].any() or other[:r, c].any():
                    raise InvalidPositionError(
                        f"a Connect Four board with a stone floating in column {c + 1}: "
                        "expected stones to rest on the ones below"
                    )
                break
            column.append(bool(own[r, c]) == first)
        columns.append(column)
    tops = [len(c) for c in columns]
    order: list[int] = []  # columns from the last move back to the first
    budget = [_DECODE_BUDGET]

    def undo(left: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if left == 0:
            try:
                return Connect4State.parse(
                    "".join(str(c + 1) for c in reversed(order)), width, height
                )
            except ZermeloError:
                return None
        first_moved = left % 2 == 1
        for c in range(width):
            if tops[c] and columns[c][tops[c] - 1] == first_moved:
                tops[c] -= 1
                order.append(c)
                found = undo(left - 1)
                if found is not None:
                    return found
                order.pop()
                tops[c] += 1
        return None

    state = undo(sum(tops))
    if state is None:
        raise InvalidPositionError("a Connect Four board that no game reaches")
    return state


def policy(game: str, agent: str = "hard", seed: int | None = None) -> Policy:
    """A zermelo agent as ``(observation, action_mask) -> action``.

    ``game`` is the environment whose boards it reads: PettingZoo's own ``connect_four_v3`` or
    ``tictactoe_v3``, or zermelo's ``connect4`` or ``tictactoe`` environment of :func:`env` (same
    layout). ``agent`` is a level or any agent text of :func:`zermelo.agents.parse_agent`; for other
    zermelo environments use :func:`opponent`."""
    board = _READERS.get(game)
    if board is None:
        raise UnknownGameError(
            f"no board reader for {game!r}: expected one of {', '.join(_READERS)}; "
            "for zermelo's other environments use opponent(env)"
        )
    built = parse_agent(agent).build(PETTINGZOO_GAMES[board], seed)

    def play(observation: Any, action_mask: Any) -> int:
        return _checked(int(built.choose(decode(board, observation))), action_mask)

    return play


_READERS: Final = {
    "connect_four_v3": "connect_four_v3",
    "tictactoe_v3": "tictactoe_v3",
    "connect4": "connect_four_v3",
    "tictactoe": "tictactoe_v3",
}
_DECODE_BUDGET: Final = 20_000
_SHAPES: Final = {"connect_four_v3": (6, 7, 2), "tictactoe_v3": (3, 3, 2)}


def _checked(action: int, mask: Any) -> int:
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
    built = parse_agent(agent).build(environment.spec.name, seed)
    plan: dict[str, tuple[int, ...]] = {"tokens": ()}

    def act() -> int:
        turn = environment.turn
        prefix = turn.prefix
        tokens = plan["tokens"]
        if not (prefix and tokens[: len(prefix)] == prefix and len(tokens) > len(prefix)):
            tokens = tokens_of(built.choose(environment.state))
            plan["tokens"] = tokens
        return tokens[len(prefix)]

    return act
