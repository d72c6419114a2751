"""A zermelo game as a single-agent Gymnasium environment, zermelo's opponent built in.

``env = OpponentEnv("connect4", opponent="hard")``: ``env.step(action)`` plays the learner's action
and then the opponent's reply, and returns the observation of the learner's next turn. The reward
is +1 for a win, -1 for a loss, 0 otherwise; ``info["action_mask"]`` marks the legal actions.
The learner plays ``player_0`` (moves first) unless ``learner="player_1"``; then the opponent's
first move is already played after :meth:`reset`. Observations are those of
:class:`zermelo.interop.pettingzoo.ZermeloEnv`.
"""

from __future__ import annotations

from typing import Any

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.interop import require
from zermelo.interop.pettingzoo import AGENTS, ZermeloEnv, opponent

require("gymnasium", "pettingzoo", "a Gymnasium environment")

import gymnasium  # noqa: E402

__all__ = ["OpponentEnv"]


class OpponentEnv(gymnasium.Env[Any, Any]):
    """See the module's help. ``options`` go to the game's ``new``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str = "tictactoe",
        opponent_agent: str = "hard",
        *,
        learner: str = "player_0",
        seed: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if learner not in AGENTS:
            raise ParseError(f"learner {learner!r}: expected one of {', '.join(AGENTS)}")
        self.game = ZermeloEnv(game, render_mode=render_mode, **options)
        self.learner = learner
        self.opponent_agent = opponent_agent
        self.opponent_seed = seed
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(learner)["observation"]
        self.action_space = self.game.action_space(learner)
        self._reply = opponent(self.game, opponent_agent, seed)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        self._reply = opponent(
            self.game, self.opponent_agent, self.opponent_seed if seed is None else seed
        )
        self._opponent_moves()
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.game.agent_selection != self.learner or self._over():
            raise IllegalMoveError("the game is over: call reset() before step()")
        self.game.step(int(action))
        self._opponent_moves()
        observation, info = self._observe()
        reward = float(self.game.rewards[self.learner]) if self._over() else 0.0
        return observation, reward, self._over(), False, info

    def render(self) -> str | None:
        return self.game.render()

    def _over(self) -> bool:
        return bool(self.game.terminations[self.learner])

    def _opponent_moves(self) -> None:
        while not self._over() and self.game.agent_selection != self.learner:
            self.game.step(self._reply())

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        seen = self.game.observe(self.learner)
        return seen["observation"], {"action_mask": seen["action_mask"]}
