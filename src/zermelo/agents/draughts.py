"""The draughts levels (international draughts and Turkish dama), played by the engine of
:mod:`zermelo.solvers.draughts`; the game is read from the state each agent is given.

* easy: every legal move valued two plies deep (plus the forced captures), each value blurred
  with seeded Gaussian noise of 0.8 men: it takes what hangs and sees a one-move shot, and often
  plays a loose move;
* medium: six plies, noise of 0.15 men;
* hard: iterative deepening for the time per move (1 s unless asked otherwise), without noise.

Wins and losses are never blurred. A requested thinking time caps easy and medium too. Without a
seed the noise comes from a generator seeded with 0: every level is deterministic unless asked
for variety. The levels mean the same in every face (the arena, the page, the Hub protocol).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final

from zermelo.agents.base import Agent
from zermelo.core.errors import IllegalMoveError
from zermelo.core.result import SearchResult
from zermelo.core.state import AnyState
from zermelo.solvers.draughts.engine import (
    MATE_BOUND,
    DraughtsEngine,
    MoveScore,
    game_history,
    result_of,
)
from zermelo.solvers.draughts.evaluation import DraughtsLike, position_of

__all__ = ["AGENT_HASH_MB", "LEVELS", "DraughtsAgent", "Level", "easy", "hard", "medium"]

AGENT_HASH_MB: Final = 16
"""The transposition table of each agent's engine, in MiB."""


@dataclass(frozen=True, slots=True)
class Level:
    """A depth cap in plies (``None``: as deep as the time allows) and the Gaussian noise, in
    hundredths of a man, on each move's value before the choice (0: none)."""

    depth: int | None
    noise: float


LEVELS: Final = {
    "easy": Level(2, 80.0),
    "medium": Level(6, 15.0),
    "hard": Level(None, 0.0),
}
"""The one definition of the draughts levels behind every face."""


def noisy_choice(values: Sequence[MoveScore], rng: random.Random, noise: float) -> MoveScore:
    """The move whose score plus Gaussian noise of ``noise`` is highest; wins and losses are
    never blurred. ``values`` must not be empty."""

    def blurred(entry: MoveScore) -> float:
        if abs(entry.score) > MATE_BOUND:
            return float(entry.score)
        return entry.score + rng.gauss(0.0, noise)

    return max(values, key=blurred)


class DraughtsAgent:
    """Plays international draughts or dama with the engine at ``depth`` plies (``None``: as
    deep as ``time_limit`` allows), blurring each move's value with ``noise`` hundredths of a man
    when above 0. ``last`` is the search behind the last move (values in hundredths of a man),
    ``None`` after a noisy choice."""

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_limit: float | None = None,
        noise: float = 0.0,
        seed: int | None = None,
        name: str = "draughts",
        hash_mb: int = AGENT_HASH_MB,
    ) -> None:
        if depth is None and time_limit is None:
            time_limit = 1.0
        self.depth = depth
        self.time_limit = time_limit
        self.noise = noise
        self.rng = random.Random(0 if seed is None else seed)
        self.name = name
        self.hash_mb = hash_mb
        self._engines: dict[str, DraughtsEngine] = {}
        self.last: SearchResult[Hashable] | None = None

    def engine_for(self, state: AnyState) -> DraughtsEngine:
        rules = position_of(state)[0]
        engine = self._engines.get(rules.name)
        if engine is None:
            engine = self._engines[rules.name] = DraughtsEngine(rules, hash_mb=self.hash_mb)
        return engine

    def choose(self, state: AnyState) -> Hashable:
        _rules, white, black, kings, side = position_of(state)
        assert isinstance(state, DraughtsLike)  # position_of said so
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        engine = self.engine_for(state)
        if self.noise > 0:
            found = engine.analyze_moves(
                white,
                black,
                kings,
                side,
                depth=self.depth,
                time_limit=self.time_limit,
                history=game_history(state),
            )
            self.last = None
            if found.moves:
                frm, to, captured = noisy_choice(found.moves, self.rng, self.noise).move
                return state.from_kernel(frm, to, captured)
        found = engine.search(
            white,
            black,
            kings,
            side,
            depth=self.depth,
            time_limit=self.time_limit,
            history=game_history(state),
        )
        if found.move is None:
            raise IllegalMoveError("the game is over; there is no move to choose")
        self.last = result_of(state, found, in_men=False)
        frm, to, captured = found.move
        return state.from_kernel(frm, to, captured)


def _level(level: str, seed: int | None, time_limit: float | None) -> Agent:
    chosen = LEVELS[level]
    if chosen.depth is None and time_limit is None:
        time_limit = 1.0
    return DraughtsAgent(
        depth=chosen.depth, time_limit=time_limit, noise=chosen.noise, seed=seed, name=level
    )


def easy(seed: int | None, time_limit: float | None) -> Agent:
    return _level("easy", seed, time_limit)


def medium(seed: int | None, time_limit: float | None) -> Agent:
    return _level("medium", seed, time_limit)


def hard(seed: int | None, time_limit: float | None) -> Agent:
    return _level("hard", seed, time_limit)
