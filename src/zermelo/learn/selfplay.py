"""Self-play: many games at once, each searched by its own PUCT tree, their leaves evaluated by
the net in one batch.

A task (:func:`play_games`) is a plain function of picklable arguments, so that the executor of
:mod:`zermelo.parallel` runs it in a local process or on a Dask worker. It returns the games as
JSON-ready records: the actions played, the root visit counts of the moves searched in full, and
the root values; the trainer replays the moves to rebuild the positions.

Per move the search draws, with probability ``full_share``, a full search of ``sims``
simulations, whose visit counts become a policy target, else a fast one of ``fast_sims`` whose
only use is to pick the move (KataGo's playout cap randomisation: more games for the value head
at the same cost). Dirichlet noise goes into the root's priors, and over the first
``temperature_plies`` plies the move is drawn in proportion to the visits; after them the most
visited move is played.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import cast

import torch

from zermelo.agents.az import Encoder, learnable, softmax_over
from zermelo.core.record import GameSpec, OptionValue
from zermelo.core.state import AnyState, Player, payoff_of
from zermelo.games.registry import get_game
from zermelo.learn.net import PolicyValueNet, fused
from zermelo.search.puct import Puct

__all__ = ["Settings", "TorchEvaluator", "model_from_blob", "model_to_blob", "play_games"]

CACHE_LIMIT = 400_000
"""The most evaluations one task keeps (a position met again is not evaluated twice)."""


@dataclass(frozen=True)
class Settings:
    """How self-play searches (see the module's docstring)."""

    sims: int = 200
    fast_sims: int = 40
    full_share: float = 0.25
    c_puct: float = 1.5
    dirichlet: float = 1.0
    noise: float = 0.25
    temperature_plies: int = 10
    parallel: int = 128

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def model_to_blob(model: PolicyValueNet) -> bytes:
    """The model's architecture and weights as bytes (a task argument)."""
    buffer = io.BytesIO()
    planes, rows, columns = model.shape
    torch.save(
        {
            "arch": [planes, rows, columns, model.actions, model.channels, len(model.blocks)],
            "state": model.state_dict(),
        },
        buffer,
    )
    return buffer.getvalue()


def model_from_blob(blob: bytes, *, fuse: bool = True) -> PolicyValueNet:
    """The model in ``blob``, in evaluation mode; ``fuse`` folds its batch norms (inference)."""
    data = torch.load(io.BytesIO(blob), weights_only=True)
    model = PolicyValueNet(*[int(v) for v in data["arch"]])
    model.load_state_dict(data["state"])
    model.eval()
    return fused(model) if fuse else model


class TorchEvaluator:
    """A :data:`~zermelo.search.puct.Evaluate` over a torch model, with a cache by position."""

    description = "the net being trained"

    def __init__(self, model: PolicyValueNet, encoder: Encoder) -> None:
        self.model = model
        self.encoder = encoder
        self.cache: dict[object, tuple[list[float], float]] = {}
        self.evaluated = 0

    def __call__(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        fresh = [s for s in dict.fromkeys(states) if s not in self.cache]
        if fresh:
            if len(self.cache) + len(fresh) > CACHE_LIMIT:
                self.cache.clear()
            planes = torch.from_numpy(self.encoder.planes(fresh))
            with torch.inference_mode():
                logits, values = self.model(planes)
            logits_np = logits.numpy()
            for i, state in enumerate(fresh):
                actions = [self.encoder.action(m) for m in state.legal_moves()]
                self.cache[state] = (softmax_over(logits_np[i], actions), float(values[i]))
            self.evaluated += len(fresh)
        return [self.cache[s] for s in states]

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        return self(states)


def play_games(
    game: str,
    options: Mapping[str, OptionValue],
    blob: bytes,
    seed: int,
    games: int,
    settings: Mapping[str, object],
) -> dict[str, object]:
    """Play ``games`` games of self-play with the model in ``blob``; return them as records
    (``{"games": [...], "positions": n, "evaluations": n}``)."""
    torch.set_num_threads(1)
    spec = get_game(game)
    encoder = learnable(spec)
    config = Settings(**settings)  # type: ignore[arg-type]
    evaluate = TorchEvaluator(model_from_blob(blob), encoder)
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    start = dict(options)
    pending = games
    while pending > 0:
        batch = min(pending, config.parallel)
        pending -= batch
        records.extend(_play_batch(spec, start, encoder, evaluate, config, rng, batch))
    return {
        "games": records,
        "positions": sum(len(cast(list[int], r["moves"])) for r in records),
        "evaluations": evaluate.evaluated,
    }


class _Game:
    def __init__(self, state: AnyState, config: Settings, rng: random.Random) -> None:
        self.tree = Puct(
            state,
            c_puct=config.c_puct,
            noise=(config.dirichlet, config.noise),
            rng=random.Random(rng.getrandbits(64)),
        )
        self.rng = self.tree.rng
        self.moves: list[int] = []
        self.policy: list[list[list[int]] | None] = []
        self.values: list[float] = []
        self.ply = 0
        self.full = False
        self.target = 0
        self.done = 0
        self.config = config

    def begin_move(self) -> None:
        self.full = self.rng.random() < self.config.full_share
        self.target = self.config.sims if self.full else self.config.fast_sims
        self.done = 0


def _play_batch(
    spec: GameSpec,
    options: Mapping[str, OptionValue],
    encoder: Encoder,
    evaluate: TorchEvaluator,
    config: Settings,
    rng: random.Random,
    count: int,
) -> list[dict[str, object]]:
    live = [_Game(spec.new(**options), config, rng) for _ in range(count)]
    for g in live:
        g.begin_move()
    finished: list[dict[str, object]] = []
    while live:
        waiting: list[tuple[_Game, AnyState]] = []
        for g in live:
            state = g.tree.leaf()
            g.done += 1
            if state is not None:
                waiting.append((g, state))
        if waiting:
            for (g, _), (priors, value) in zip(
                waiting, evaluate([s for _, s in waiting]), strict=True
            ):
                g.tree.expand(priors, value)
        still: list[_Game] = []
        for g in live:
            if g.done < g.target:
                still.append(g)
                continue
            visits = g.tree.visits()
            if g.full:
                g.policy.append([[encoder.action(m), n] for m, n in visits if n > 0])
            else:
                g.policy.append(None)
            g.values.append(round(g.tree.value(), 4))
            temperature = 1.0 if g.ply < config.temperature_plies else 0.0
            move = g.tree.sample_move(temperature)
            g.moves.append(encoder.action(move))
            g.tree.play(move)
            g.ply += 1
            root = g.tree.root.state
            if root.is_terminal():
                finished.append(
                    {
                        "moves": g.moves,
                        "policy": g.policy,
                        "values": g.values,
                        "result": payoff_of(root),
                    }
                )
            else:
                g.begin_move()
                still.append(g)
        live = still
    return finished


def replay(
    spec: GameSpec, options: Mapping[str, OptionValue], encoder: Encoder, moves: Sequence[int]
) -> list[AnyState]:
    """The positions before each move of a self-play game (its actions ``moves``)."""
    state = spec.new(**options)
    states: list[AnyState] = []
    for action in moves:
        states.append(state)
        by_action = {encoder.action(m): m for m in state.legal_moves()}
        state = state.play(by_action[action])
    return states


def mover_sign(state: AnyState) -> float:
    """+1 when the first player moves in ``state``, else -1 (results are from the first player)."""
    return 1.0 if state.to_move is Player.FIRST else -1.0
