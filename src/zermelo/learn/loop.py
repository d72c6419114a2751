"""The learning loop: self-play, training, gating, measuring; generation after generation.

One generation:

1. **Self-play.** The best net so far plays ``games`` games against itself
   (:func:`zermelo.learn.selfplay.play_games`), spread over the executor of
   :mod:`zermelo.parallel` (local processes, or a Dask cluster with ``cluster``). The games are
   stored as they arrive, one JSON line per task, in ``selfplay/gen-NNNN.jsonl``: the replay
   buffer is these files.
2. **Training.** The candidate net (the last one trained, accepted or not) takes ``steps`` steps
   of Adam on batches drawn from the last ``window`` generations' positions, each drawn as itself
   or one of its images under the board's symmetries (``mirror``: Connect Four's mirror,
   tic-tac-toe's eight). The loss is AlphaZero's: the cross-entropy of the policy against the visit counts of the moves searched in full, plus the
   squared error of the value against the target, ``(1 - q_weight) * z + q_weight * q`` (``z``
   the game's result, ``q`` the search's root value; mixing in ``q`` lowers the noise of ``z``
   while the games are few).
3. **Gating.** The candidate plays ``gate_games`` games against the best net, colours
   alternated, the first ``gate_random_plies`` plies random (seeded) so that the games differ. It
   becomes the best net when it scores at least ``gate_score``; self-play always uses the best.
4. **Measuring** (:mod:`zermelo.learn.truth`): on held-out positions scored exactly by the
   game's solver, the share of optimal moves of the net's move alone and with ``measure_sims``
   simulations, and the value error; every ``arena_every`` generations a short match against
   the game's medium and hard levels, with the Elo difference and its interval.

Everything lands in the run directory as it is made (``checkpoints/gen-NNNN.pt`` with the
optimizer, ``gen-NNNN.npz`` the numpy net, ``best.npz``, ``metrics.jsonl`` one line per
generation, ``run.json`` the settings and the clock), each file written whole before it replaces
the last. Run :func:`learn` again with the same directory and it goes on from the last
generation finished: the self-play tasks already stored are not played again (they are seeded,
so a rerun gives the same games), and at most one generation's training is redone.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import cast

import numpy as np
import torch
from torch import nn

from zermelo.agents.az import AzAgent, Encoder, Net, learnable
from zermelo.agents.spec import parse_agent
from zermelo.core.errors import InvalidOptionError, ZermeloError
from zermelo.core.record import GameSpec, OptionValue
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.learn import truth
from zermelo.learn.metrics import Checkpoint, read_metrics, run_directory
from zermelo.learn.net import PolicyValueNet, export
from zermelo.learn.selfplay import (
    Settings,
    TorchEvaluator,
    model_from_blob,
    model_to_blob,
    play_games,
    replay,
)
from zermelo.parallel import ResultStore, open_executor, run_job
from zermelo.play.ratings import Tally, elo_estimate

__all__ = [
    "Checkpoint",
    "LearnConfig",
    "Progress",
    "RunError",
    "Summary",
    "default_config",
    "learn",
    "read_metrics",
    "run_directory",
]


class RunError(ZermeloError):
    """A run directory that cannot be used for this run."""


@dataclass(frozen=True)
class LearnConfig:
    """What to learn and how (each game has its defaults: :func:`default_config`)."""

    game: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seconds: float = 300.0
    generations: int = 0
    seed: int = 0
    games: int = 256
    sims: int = 200
    fast_sims: int = 40
    full_share: float = 0.25
    temperature_plies: int = 10
    dirichlet: float = 1.0
    channels: int = 32
    blocks: int = 3
    batch: int = 256
    reuse: float = 6.0
    window: int = 12
    learning_rate: float = 2e-3
    weight_decay: float = 1e-4
    q_weight: float = 0.5
    gate_games: int = 40
    gate_sims: int = 32
    gate_score: float = 0.5
    gate_random_plies: int = 2
    measure_sims: int = 50
    measure_positions: int = 200
    arena_every: int = 5
    arena_games: int = 20
    arena_sims: int = 50
    cluster: str | None = None
    jobs: int = 2
    mirror: bool = True
    # Training's torch threads. One: on a machine whose cores are busy (self-play workers, other
    # programs) two threads wait on each other, and a step took ten times longer here.
    threads: int = 1

    def identity(self) -> dict[str, object]:
        """The settings a resumed run must share: the game, the net's shape and how self-play
        makes the games. Not the budgets, where it runs, nor how the stored games are trained
        on, gated and measured (:data:`TRAINING`): a run may go on with more training steps per
        game, say, and each generation's line of the metrics records the ones it used."""
        data = asdict(self)
        for name in ("seconds", "generations", "cluster", "jobs", "threads", *TRAINING):
            data.pop(name)
        data["options"] = dict(self.options)
        return data

    def training(self) -> dict[str, object]:
        """The settings of training, gating and measuring (:data:`TRAINING`)."""
        return {name: getattr(self, name) for name in TRAINING}

    def settings(self) -> Settings:
        return Settings(
            sims=self.sims,
            fast_sims=self.fast_sims,
            full_share=self.full_share,
            temperature_plies=self.temperature_plies,
            dirichlet=self.dirichlet,
        )


TRAINING = (
    "batch",
    "reuse",
    "window",
    "learning_rate",
    "weight_decay",
    "q_weight",
    "gate_games",
    "gate_sims",
    "gate_score",
    "gate_random_plies",
    "measure_sims",
    "measure_positions",
    "arena_every",
    "arena_games",
    "arena_sims",
)
"""The settings that say how the stored games are trained on, gated and measured; a resumed
run may change them."""

_DEFAULTS: dict[str, dict[str, object]] = {
    # The shipped net's recipe (docs/learning.md): 256 games a generation, half the moves
    # searched in full with 80 simulations, the other half with 20.
    "connect4": {
        # Twelve training steps' worth of samples per new position: the policy trailed its own
        # search at six (the shipped run's first 18 generations, as its metrics record).
        "reuse": 12.0,
        "games": 256,
        "sims": 80,
        "fast_sims": 20,
        "full_share": 0.5,
        "temperature_plies": 8,
        "arena_every": 4,
        "arena_games": 20,
    },
    # Tiny boards learn in minutes: small nets, small generations, few simulations.
    "tictactoe": {
        "games": 128,
        "sims": 64,
        "fast_sims": 16,
        "full_share": 0.5,
        "temperature_plies": 6,
        "channels": 32,
        "blocks": 2,
        "batch": 128,
        "window": 8,
        "gate_games": 20,
        "gate_sims": 16,
        "measure_sims": 50,
        "arena_games": 10,
        "arena_sims": 50,
        "dirichlet": 1.0,
    },
}


def default_config(game: str, **overrides: object) -> LearnConfig:
    """The learning settings of ``game`` (its record's name), with ``overrides``."""
    spec = get_game(game)
    values: dict[str, object] = dict(_DEFAULTS.get(spec.name, {}))
    values.update(overrides)
    known = {f.name for f in fields(LearnConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise InvalidOptionError(f"unknown learning settings: {', '.join(unknown)}")
    return LearnConfig(game=spec.name, **values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Progress:
    """Where a run is, for a progress bar."""

    generation: int
    games: int
    games_per_second: float
    loss: float | None
    accuracy: float | None
    elapsed: float
    seconds: float
    phase: str


@dataclass(frozen=True)
class Summary:
    """What a call of :func:`learn` did."""

    generation: int
    games: int
    elapsed: float
    best: Path
    resumed: bool
    stopped: bool


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


class _Positions:
    """One generation's training positions as arrays."""

    def __init__(
        self, planes: np.ndarray, policy: np.ndarray, has_policy: np.ndarray, value: np.ndarray
    ) -> None:
        self.planes = planes
        self.policy = policy
        self.has_policy = has_policy
        self.value = value

    def __len__(self) -> int:
        return len(self.value)


def _positions(
    spec: GameSpec,
    options: Mapping[str, OptionValue],
    encoder: Encoder,
    actions: int,
    games: Sequence[Mapping[str, object]],
    q_weight: float,
) -> _Positions:
    states: list[AnyState] = []
    policies: list[np.ndarray] = []
    has: list[bool] = []
    values: list[float] = []
    for game in games:
        moves = [int(a) for a in game["moves"]]  # type: ignore[attr-defined]
        result = float(cast(float, game["result"]))
        for state, visits, q in zip(
            replay(spec, options, encoder, moves),
            game["policy"],  # type: ignore[call-overload]
            game["values"],
            strict=True,
        ):
            states.append(state)
            target = np.zeros(actions, dtype=np.float32)
            if visits:
                for action, count in visits:
                    target[int(action)] = float(count)
                target /= target.sum()
            policies.append(target)
            has.append(bool(visits))
            z = result if state.to_move is Player.FIRST else -result
            values.append((1 - q_weight) * z + q_weight * float(q))
    planes = encoder.planes(states) if states else np.zeros((0, 1, 1, 1), np.float32)
    return _Positions(
        planes,
        np.stack(policies) if policies else np.zeros((0, actions), np.float32),
        np.array(has, dtype=bool),
        np.array(values, dtype=np.float32),
    )


def _mirrored(planes: np.ndarray) -> np.ndarray:
    return planes[..., ::-1]


Transform = tuple[Callable[[np.ndarray], np.ndarray], np.ndarray]
"""A symmetry of the board: what it does to ``(..., rows, columns)`` planes, and the action each
action of the transformed board comes from (``policy[:, perm]``)."""


def _symmetries(actions: int, rows: int, columns: int) -> list[Transform]:
    """The board's symmetries, for training on each position as its images too.

    Actions that are columns (a drop game: Connect Four): the mirror left to right only, gravity
    keeping the rest. Actions that are cells (tic-tac-toe, m,n,k): every symmetry of the
    rectangle, eight for a square board. Any other actions: none. (The rules of zermelo's games
    of either kind look the same in every such image.)"""

    def grid_perm(turn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        return np.ascontiguousarray(turn(np.arange(actions).reshape(rows, columns))).reshape(-1)

    if actions == columns:
        return [(_mirrored, np.arange(columns)[::-1].copy())]
    if actions != rows * columns:
        return []
    turns: list[Callable[[np.ndarray], np.ndarray]] = [
        lambda a: a[..., ::-1],
        lambda a: a[..., ::-1, :],
        lambda a: a[..., ::-1, ::-1],
    ]
    if rows == columns:
        turns += [
            lambda a: np.swapaxes(a, -1, -2),
            lambda a: np.swapaxes(a, -1, -2)[..., ::-1],
            lambda a: np.swapaxes(a, -1, -2)[..., ::-1, :],
            lambda a: np.swapaxes(a, -1, -2)[..., ::-1, ::-1],
        ]
    return [(turn, grid_perm(turn)) for turn in turns]


class _Run:
    """A run directory and what is in it."""

    def __init__(self, config: LearnConfig, run_dir: Path) -> None:
        self.config = config
        self.dir = Path(run_dir)
        self.spec = get_game(config.game)
        self.encoder = learnable(self.spec)
        start = self.spec.new(**dict(config.options))
        self.shape = self.encoder.shape(start)
        self.actions = self.encoder.actions(start)
        _planes, rows, columns = self.shape
        self.symmetries = _symmetries(self.actions, rows, columns) if config.mirror else []
        self.meta_path = self.dir / "run.json"

    def model(self) -> PolicyValueNet:
        torch.manual_seed(self.config.seed)
        return PolicyValueNet(*self.shape, self.actions, self.config.channels, self.config.blocks)

    def load_meta(self) -> dict[str, object] | None:
        if not self.meta_path.exists():
            return None
        try:
            data = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except ValueError:
            raise RunError(f"{self.meta_path}: not a zermelo learning run") from None
        if not isinstance(data, dict) or "identity" not in data:
            raise RunError(f"{self.meta_path}: not a zermelo learning run")
        stored = data["identity"]
        if isinstance(stored, dict):  # a run begun when these were part of its identity
            stored = {k: v for k, v in stored.items() if k not in TRAINING}
        if stored != json.loads(json.dumps(self.config.identity())):
            theirs = data["identity"].get("game") if isinstance(data["identity"], dict) else "?"
            raise RunError(
                f"{self.dir} holds a run of {theirs} with other settings: "
                "give another run directory, or start over with --fresh"
            )
        return data

    def save_meta(self, generation: int, elapsed: float, games: int) -> None:
        _write(
            self.meta_path,
            json.dumps(
                {
                    "zermelo": "learn",
                    "identity": self.config.identity(),
                    "generation": generation,
                    "elapsed": elapsed,
                    "games": games,
                },
                indent=1,
            ),
        )

    def checkpoint(self, generation: int) -> Path:
        return self.dir / "checkpoints" / f"gen-{generation:04d}.pt"

    def selfplay_store(self, generation: int) -> ResultStore:
        return ResultStore(
            self.dir / "selfplay" / f"gen-{generation:04d}.jsonl",
            meta={"game": self.config.game, "generation": generation},
        )


def _describe(config: LearnConfig, generation: int, games: int, elapsed: float) -> str:
    return (
        f"{config.channels} channels x {config.blocks} residual blocks, trained by self-play "
        f"alone: {generation} generations, {games} games, {elapsed / 60:.0f} minutes"
    )


def learn(
    config: LearnConfig,
    run_dir: Path,
    report: Callable[[Progress], None] = lambda progress: None,
    stop: Callable[[], bool] = lambda: False,
) -> Summary:
    """Learn ``config.game`` for ``config.seconds`` more seconds in ``run_dir`` (see the module),
    and up to ``config.generations`` generations in all when that is not 0. Returns when the time
    is up, the generations are done, or ``stop()`` says so (it is asked between phases)."""
    run = _Run(config, run_dir)
    meta = run.load_meta()
    resumed = meta is not None
    generation = int(meta["generation"]) if meta else 0  # type: ignore[call-overload]
    elapsed_before = float(meta["elapsed"]) if meta else 0.0  # type: ignore[arg-type]
    games_total = int(meta["games"]) if meta else 0  # type: ignore[call-overload]
    run.dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(max(1, config.threads))

    model = run.model()
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
    )
    best_blob = model_to_blob(model)
    if generation:
        saved = torch.load(run.checkpoint(generation), weights_only=True)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        # The saved state holds the rate and decay it ran with; a resumed run trains with its
        # own (TRAINING settings may change on resume, and the metrics record these).
        for group in optimizer.param_groups:
            group["lr"] = config.learning_rate
            group["weight_decay"] = config.weight_decay
        best_blob = bytes(saved["best"])
    else:
        run.save_meta(0, 0.0, 0)

    buffer: dict[int, _Positions] = {}
    truth = _Truth(run)
    if resumed:
        _measure_missing(run, truth)
    history = {c.generation: c for c in read_metrics(run.dir)}
    started = time.perf_counter()
    stopped = False

    def elapsed() -> float:
        return elapsed_before + time.perf_counter() - started

    budget_end = elapsed_before + config.seconds
    last = history.get(generation)

    def tell(phase: str, rate: float = 0.0) -> None:
        report(
            Progress(
                generation=generation,
                games=games_total,
                games_per_second=rate,
                loss=last.loss if last else None,
                accuracy=last.alone if last else None,
                elapsed=elapsed() - elapsed_before,
                seconds=config.seconds,
                phase=phase,
            )
        )

    with open_executor(config.cluster, config.jobs) as executor:
        while elapsed() < budget_end:
            if config.generations and generation >= config.generations:
                break
            if stop():
                stopped = True
                break
            g = generation + 1
            tell("self-play")
            played_before = time.perf_counter()
            tasks_count = max(1, config.jobs)
            per_task = math.ceil(config.games / tasks_count)
            tasks = {
                f"gen{g}-task{i}": (
                    config.game,
                    dict(config.options),
                    best_blob,
                    (config.seed * 1_000_003 + g) * 1009 + i,
                    per_task,
                    config.settings().to_json(),
                )
                for i in range(tasks_count)
            }
            arrived = _Arrivals(tell, played_before)
            results = run_job(
                executor, play_games, tasks, store=run.selfplay_store(g), on_result=arrived
            )
            new_games = [game for r in results.values() for game in r["games"]]  # type: ignore[attr-defined]
            # Games per second of the games played now (not those read back from the store).
            rate = arrived.games / max(1e-9, time.perf_counter() - played_before)
            if not arrived.games and last is not None:
                rate = last.games_per_second
            buffer[g] = _positions(
                run.spec, config.options, run.encoder, run.actions, new_games, config.q_weight
            )
            for old in range(max(1, g - config.window + 1), g):
                if old not in buffer:
                    stored = run.selfplay_store(old)
                    old_games = [
                        game
                        for key in stored.results
                        for game in stored.results[key]["games"]  # type: ignore[index]
                    ]
                    buffer[old] = _positions(
                        run.spec,
                        config.options,
                        run.encoder,
                        run.actions,
                        old_games,
                        config.q_weight,
                    )
            for old in [k for k in buffer if k <= g - config.window]:
                del buffer[old]
            if stop():
                stopped = True
                break
            tell("training", rate)
            losses = _train(model, optimizer, run, buffer, len(buffer[g]), g)
            tell("gating", rate)
            candidate = model_to_blob(model)
            gate = _gate(executor, config, candidate, best_blob, g)
            accepted = gate >= config.gate_score
            if accepted:
                best_blob = candidate
            games_total += len(new_games)
            tell("measuring", rate)
            net = export(
                model,
                {
                    "game": config.game,
                    "options": dict(config.options),
                    "description": _describe(config, g, games_total, elapsed()),
                },
            )
            measured = truth.measure(net)
            arena: dict[str, dict[str, float | None]] = {}
            if config.arena_every > 0 and g % config.arena_every == 0:
                arena = _arena(executor, config, net, g)
            # Write the checkpoint, then the numpy nets, then the metrics and the clock.
            checkpoint = run.checkpoint(g)
            checkpoint.parent.mkdir(parents=True, exist_ok=True)
            partial = checkpoint.with_name(checkpoint.name + ".partial")
            torch.save(
                {
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "best": best_blob,
                },
                partial,
            )
            os.replace(partial, checkpoint)
            _save_net(net, checkpoint.with_suffix(".npz"))
            best_net = export(
                model_from_blob(best_blob, fuse=False),
                {
                    "game": config.game,
                    "options": dict(config.options),
                    "description": _describe(config, g, games_total, elapsed()),
                },
            )
            _save_net(best_net, run.dir / "best.npz")
            row = Checkpoint(
                generation=g,
                elapsed=round(elapsed(), 1),
                games=games_total,
                positions=sum(len(p) for p in buffer.values()),
                loss=losses[0],
                policy_loss=losses[1],
                value_loss=losses[2],
                accepted=accepted,
                gate_score=gate,
                alone=measured.get("alone"),
                alone_best=measured.get("alone_best"),
                searched=measured.get("searched"),
                value_error=measured.get("value_error"),
                measured=measured,
                arena=arena,
                games_per_second=round(rate, 3),
                training=config.training(),
            )
            with (run.dir / "metrics.jsonl").open("a", encoding="utf-8") as out:
                out.write(json.dumps(asdict(row)) + "\n")
            generation = g
            last = row
            run.save_meta(generation, elapsed(), games_total)
            tell("self-play", rate)
    best = run.dir / "best.npz"
    return Summary(generation, games_total, elapsed(), best, resumed, stopped)


def _measure_missing(run: _Run, judge: _Truth) -> None:
    """Measure the generations whose line lacks the measures (a run begun before its game had
    held-out positions), from their saved nets; rewrite the metrics whole."""
    rows = read_metrics(run.dir)
    if not judge.labels or all(row.alone is not None for row in rows):
        return
    lines: list[str] = []
    for old in rows:
        row = old
        path = run.checkpoint(row.generation).with_suffix(".npz")
        if row.alone is None and path.exists():
            measured = judge.measure(Net.load(path))
            row = replace(
                old,
                alone=measured.get("alone"),
                alone_best=measured.get("alone_best"),
                searched=measured.get("searched"),
                value_error=measured.get("value_error"),
                measured=measured,
            )
        lines.append(json.dumps(asdict(row)))
    _write(run.dir / "metrics.jsonl", "\n".join(lines) + "\n")


class _Arrivals:
    """Tells the progress bar of each self-play task that arrives."""

    def __init__(self, tell: Callable[[str, float], None], since: float) -> None:
        self.tell = tell
        self.since = since
        self.games = 0

    def __call__(self, key: str, result: Mapping[str, object], done: int, total: int) -> None:
        self.games += len(result["games"])  # type: ignore[arg-type]
        self.tell("self-play", self.games / max(1e-9, time.perf_counter() - self.since))


def _save_net(net: Net, path: Path) -> None:
    partial = path.with_name(path.stem + ".partial.npz")
    net.save(partial)
    os.replace(partial, path)


def _train(
    model: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    run: _Run,
    buffer: Mapping[int, _Positions],
    fresh: int,
    generation: int,
) -> tuple[float, float, float]:
    config = run.config
    planes = np.concatenate([p.planes for p in buffer.values()])
    policy = np.concatenate([p.policy for p in buffer.values()])
    has = np.concatenate([p.has_policy for p in buffer.values()])
    value = np.concatenate([p.value for p in buffer.values()])
    count = len(value)
    if count == 0:
        return (math.nan, math.nan, math.nan)
    torch.set_num_threads(max(1, config.threads))
    rng = np.random.default_rng(config.seed * 7919 + generation)
    steps = max(10, int(fresh * config.reuse / config.batch))
    model.train()
    totals = np.zeros(3)
    for _ in range(steps):
        index = rng.integers(0, count, size=min(config.batch, count))
        x = planes[index]
        p = policy[index]
        if run.symmetries:
            # Each position as itself or one of its images, drawn with equal chances.
            if len(run.symmetries) == 1:
                which = (rng.random(len(index)) < 0.5).astype(np.int64)
            else:
                which = rng.integers(0, len(run.symmetries) + 1, size=len(index))
            x = x.copy()
            p = p.copy()
            for k, (turn, perm) in enumerate(run.symmetries, start=1):
                chosen = which == k
                if chosen.any():
                    x[chosen] = turn(x[chosen])
                    p[chosen] = p[chosen][:, perm]
        xt = torch.from_numpy(np.ascontiguousarray(x))
        pt = torch.from_numpy(np.ascontiguousarray(p))
        mask = torch.from_numpy(has[index].astype(np.float32))
        vt = torch.from_numpy(value[index])
        logits, v = model(xt)
        log_p = torch.log_softmax(logits, dim=1)
        policy_loss = -(pt * log_p).sum(dim=1)
        policy_loss = (policy_loss * mask).sum() / mask.sum().clamp(min=1.0)
        value_loss = nn.functional.mse_loss(v, vt)
        loss = policy_loss + value_loss
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        totals += (loss.item(), policy_loss.item(), value_loss.item())
    model.eval()
    mean = totals / steps
    return (round(float(mean[0]), 4), round(float(mean[1]), 4), round(float(mean[2]), 4))


def match_nets(
    game: str,
    options: Mapping[str, OptionValue],
    blob_a: bytes,
    blob_b: bytes,
    seed: int,
    games: int,
    sims: int,
    random_plies: int,
) -> list[float]:
    """``games`` games of net ``a`` against net ``b`` (``a`` first in even games): ``a``'s points
    per game (1, 0.5, 0)."""
    torch.set_num_threads(1)
    spec = get_game(game)
    encoder = learnable(spec)
    evaluators = [TorchEvaluator(model_from_blob(b), encoder) for b in (blob_a, blob_b)]
    rng = random.Random(seed)
    points: list[float] = []
    for index in range(games):
        state = spec.new(**dict(options))
        for _ in range(random_plies):
            if state.is_terminal():
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        a_first = index % 2 == 0
        agents = [AzAgent(evaluators[0], sims), AzAgent(evaluators[1], sims)]
        while not state.is_terminal():
            mover_is_a = (state.to_move is Player.FIRST) == a_first
            state = state.play(agents[0 if mover_is_a else 1].choose(state))
        winner = state.winner
        if winner is None:
            points.append(0.5)
        else:
            a_side = Player.FIRST if a_first else Player.SECOND
            points.append(1.0 if winner is a_side else 0.0)
    return points


def _gate(executor: object, config: LearnConfig, candidate: bytes, best: bytes, g: int) -> float:
    if config.gate_games <= 0:
        return 1.0
    chunks = max(1, config.jobs)
    per = math.ceil(config.gate_games / chunks)
    per += per % 2
    tasks = {
        f"gate{g}-{i}": (
            config.game,
            dict(config.options),
            candidate,
            best,
            (config.seed * 31 + g) * 131 + i,
            per,
            config.gate_sims,
            config.gate_random_plies,
        )
        for i in range(chunks)
    }
    results = run_job(executor, match_nets, tasks)  # type: ignore[arg-type]
    points = [p for r in results.values() for p in r]
    return round(sum(points) / len(points), 4)


def arena_games(
    game: str,
    options: Mapping[str, OptionValue],
    net_arrays: dict[str, np.ndarray],
    net_meta: dict[str, object],
    opponent: str,
    seed: int,
    games: int,
    sims: int,
) -> list[float]:
    """The net (with ``sims`` simulations) against the agent ``opponent`` (a spec such as
    ``medium``), colours alternated, the first two plies random: the net's points per game."""
    spec = get_game(game)
    net = Net(net_arrays, net_meta)
    rng = random.Random(seed)
    points: list[float] = []
    for index in range(games):
        state = spec.new(**dict(options))
        for _ in range(2):
            state = state.play(rng.choice(list(state.legal_moves())))
        az_first = index % 2 == 0
        me = AzAgent(net, sims)
        other = parse_agent(opponent).build(spec, seed=seed + index)
        while not state.is_terminal():
            mine = (state.to_move is Player.FIRST) == az_first
            state = state.play((me if mine else other).choose(state))
        winner = state.winner
        if winner is None:
            points.append(0.5)
        else:
            points.append(1.0 if (winner is Player.FIRST) == az_first else 0.0)
    return points


def _arena(
    executor: object, config: LearnConfig, net: Net, g: int
) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for opponent in ("medium", "hard"):
        chunks = max(1, config.jobs)
        per = math.ceil(config.arena_games / chunks)
        per += per % 2
        tasks = {
            f"arena{g}-{opponent}-{i}": (
                config.game,
                dict(config.options),
                net.arrays,
                net.meta,
                opponent,
                (config.seed * 37 + g) * 101 + i,
                per,
                config.arena_sims,
            )
            for i in range(chunks)
        }
        results = run_job(executor, arena_games, tasks)  # type: ignore[arg-type]
        points = [p for r in results.values() for p in r]
        wins = sum(1 for p in points if p == 1.0)
        draws = sum(1 for p in points if p == 0.5)
        tally = Tally(wins, draws, len(points) - wins - draws)
        estimate = elo_estimate(tally)
        out[opponent] = {
            "games": len(points),
            "score": round(tally.score, 4),
            "elo": _finite(estimate.value),
            "low": _finite(estimate.low),
            "high": _finite(estimate.high),
        }
    return out


def _finite(value: float | None) -> float | None:
    """An Elo figure for the metrics: ``None`` where it is infinite (a score of 0% or 100%)."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, 1)


class _Truth:
    """The held-out positions of the run's game, labelled exactly, and the measures of a net on
    them (:func:`zermelo.learn.truth.held_out`, :func:`zermelo.learn.truth.measure`). A game with
    none is not measured: its metrics hold the losses and the gating only."""

    def __init__(self, run: _Run) -> None:
        self.run = run
        self.labels = truth.held_out(run.spec, dict(run.config.options))

    def measure(self, net: Net) -> dict[str, float]:
        config = self.run.config
        return truth.measure(
            self.run.spec,
            dict(config.options),
            net,
            sims=config.measure_sims,
            positions=config.measure_positions,
            seed=config.seed,
        )
