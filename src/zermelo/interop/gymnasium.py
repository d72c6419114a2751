"""A zermelo game as a single-agent Gymnasium environment, zermelo's opponent built in.

``env = OpponentEnv("connect4", opponent="hard")``: ``env.step(action)`` plays the learner's action
and then the opponent's reply, and returns the observation of the learner's next turn. The reward
is +1 for a win, -1 for a loss, 0 otherwise; ``info["action_mask"]`` marks the legal actions.
The learner plays ``player_0`` (moves first) unless ``learner="player_1"``; then the opponent's
first move is already played after :meth:`reset`. Observations are those of
:class:`zermelo.interop.pettingzoo.ZermeloEnv`.

An illegal action ends the episode: reward -1, ``terminated``, and ``info["illegal_action"]``
(PettingZoo's convention; Gymnasium's checker and random exploration draw actions without the
mask). Only a step after the end raises, asking for :meth:`reset`.
"""

from __future__ import annotations

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.interop import require
from zermelo.interop.pettingzoo import AGENTS, Observation, ZermeloEnv, opponent

require("gymnasium", "pettingzoo", "a Gymnasium environment")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

__all__ = ["OpponentEnv"]

Planes = NDArray[np.int8]
Info = dict[str, object]


class OpponentEnv(gymnasium.Env[Planes, np.int64]):
    """See the module's help. ``options`` go to the game's ``new``."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - Gymnasium's own shape

    def __init__(
        self,
        game: str = "tictactoe",
        opponent_agent: str = "hard",
        *,
        learner: str = "player_0",
        seed: int | None = None,
        render_mode: str | None = None,
        **options: int | bool,
    ) -> None:
        if learner not in AGENTS:
            raise ParseError(f"learner {learner!r}: expected one of {', '.join(AGENTS)}")
        self.game = ZermeloEnv(game, render_mode=render_mode, illegal_reward=-1.0, **options)
        self.learner = learner
        self.opponent_agent = opponent_agent
        self.opponent_seed = seed
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(learner)["observation"]
        self.action_space = self.game.action_space(learner)
        self._reply = opponent(self.game, opponent_agent, seed)

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Planes, Info]:
        super().reset(seed=seed)
        self.game.reset(seed=seed)
        self._reply = opponent(
            self.game, self.opponent_agent, self.opponent_seed if seed is None else seed
        )
        self._opponent_moves()
        return self._observe()

    def step(self, action: np.int64) -> tuple[Planes, float, bool, bool, Info]:
        if self.game.agent_selection != self.learner or self._over():
            raise IllegalMoveError("the game is over: call reset() before step()")
        self.game.step(action)
        if self._over() and self.game.infos[self.learner].get("illegal_action"):
            observation, info = self._observe()
            info["illegal_action"] = True
            return observation, float(self.game.rewards[self.learner]), True, False, info
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

    def _observe(self) -> tuple[Planes, Info]:
        seen: Observation = self.game.observe(self.learner)
        return seen["observation"], {"action_mask": seen["action_mask"]}
