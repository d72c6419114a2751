"""Training the chess engine's learned evaluation (:mod:`zermelo.solvers.chess.nnue`) with PyTorch.

A run lives in one directory and goes on where it stopped:

- ``run.json``: the settings that make the data (seed, label depth and engine, games per task);
  a run with other ones is refused rather than mixed in;
- ``data/task-NNNNNN.npz``: one shard per self-play task (:mod:`zermelo.solvers.chess.nnue_data`),
  written whole (to a temporary name, then renamed) as each task finishes. A task whose shard is
  there is never played again. The training set is the positions of tasks 0, 1, 2, ... in order,
  up to the number asked for, so the same seed gives the same set however the work was split or
  stopped;
- ``checkpoint.pt``: the model, the optimizer's state and where the training is (epoch and
  batch), written whole before it replaces the last one, at the end of every epoch and when the
  run is stopped.

The model is exactly the file format's float network: one ``Linear(768, H)`` feature transformer
shared by both sides, its two accumulators clipped to [0, 1], the side to move's first, then
``Linear(2H, 1)``; the output times :data:`nnue.SCALE` is centipawns from the side to move. The
inputs are sparse (about 30 of 768 are on), so the transformer is an ``embedding_bag`` sum of the
weight rows of the active inputs.

The loss is the mean squared error between ``sigmoid(output * SCALE / K)`` and the target
``(1 - RESULT_SHARE) * sigmoid(score / K) + RESULT_SHARE * (result + 1) / 2``, with ``K`` =
:data:`K` centipawns and the game's result from the side to move. After every step the weights
are clipped so that the quantised network cannot overflow: the transformer's weights and biases
within :data:`FT_CLIP` (33 of them, times ``QA``, stay within int16), the output weights within
127 / ``QB``. One position in :data:`HOLD_OUT` (every 20th of the set) is held out of training
and measures the loss on positions not learnt from.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn
from torch.nn import functional

from zermelo.core.errors import InvalidOptionError
from zermelo.core.version import VERSION
from zermelo.parallel import Executor
from zermelo.solvers.chess import nnue, nnue_data
from zermelo.solvers.chess.nnue_data import Positions

__all__ = [
    "FT_CLIP",
    "HOLD_OUT",
    "OUT_CLIP",
    "RESULT_SHARE",
    "K",
    "NnueModel",
    "NnueRunError",
    "Outcome",
    "Settings",
    "check_match",
    "export",
    "generate",
    "load_positions",
    "run",
    "train",
]

K: Final = 400.0
RESULT_SHARE: Final = 0.25
FT_CLIP: Final = 1.98
OUT_CLIP: Final = 127 / nnue.QB
HOLD_OUT: Final = 20
FORMAT: Final = "zermelo-nnue-run"
CHECKPOINT: Final = "checkpoint.pt"

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stage ``"positions"`` (positions stored of those asked for)
or ``"training"`` (batches done of the run's) or ``"match"`` (games of the check match)."""
Stop = Callable[[], bool]
"""Asked between tasks and between batches: true stops the run there, everything kept."""


class NnueRunError(InvalidOptionError):
    """A run directory that cannot be used, in one line."""


@dataclass(frozen=True)
class Settings:
    """What a run makes: ``positions`` labelled at ``label_depth`` (by ``label_engine`` when
    given, a path), a network of ``hidden`` trained for ``epochs``."""

    positions: int = 100_000
    label_depth: int = 8
    label_engine: str | None = None
    hidden: int = 256
    epochs: int = 20
    seed: int = 0
    games_per_task: int = 2
    random_plies: int = 8
    max_plies: int = 300
    batch: int = 2048
    learning_rate: float = 1e-3

    def data_identity(self) -> dict[str, object]:
        """The settings the data depends on (a run's ``run.json``)."""
        return {
            "format": FORMAT,
            "seed": self.seed,
            "label_depth": self.label_depth,
            "label_engine": self.label_engine,
            "games_per_task": self.games_per_task,
            "random_plies": self.random_plies,
            "max_plies": self.max_plies,
        }


@dataclass
class Outcome:
    """What a run did."""

    positions: int = 0
    tasks: int = 0
    epoch: int = 0
    batches: int = 0
    train_loss: float = math.nan
    held_out_loss: float = math.nan
    held_out: int = 0
    stopped: bool = False
    history: list[dict[str, float]] = field(default_factory=list)
    network: nnue.Network | None = None


# -- the data ----------------------------------------------------------------------------------


def _shard_path(run_dir: Path, number: int) -> Path:
    return run_dir / "data" / f"task-{number:06d}.npz"


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` is never half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _check_run(run_dir: Path, settings: Settings) -> None:
    """Start ``run_dir`` for ``settings``, or check that it holds a run of the same data."""
    if run_dir.exists() and not run_dir.is_dir():
        raise NnueRunError(f"{run_dir} is not a directory: expected a run directory")
    info = run_dir / "run.json"
    wanted = settings.data_identity()
    if info.exists():
        try:
            held = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            held = None
        if not isinstance(held, dict) or held.get("format") != FORMAT:
            raise NnueRunError(
                f"{run_dir} holds no chess network run (its run.json is not one): give another "
                "run directory, or start afresh there"
            )
        for key, value in wanted.items():
            if held.get(key) != value:
                raise NnueRunError(
                    f"{run_dir} holds a run with other settings ({key} {held.get(key)!r}, not "
                    f"{value!r}): give another run directory, or start afresh there"
                )
        return
    if run_dir.exists() and any(run_dir.iterdir()):
        raise NnueRunError(
            f"{run_dir} is not empty and holds no chess network run: give another run directory"
        )
    _write_whole(info, (json.dumps(wanted, sort_keys=True, indent=1) + "\n").encode())


def _stored(run_dir: Path) -> dict[int, int]:
    """The tasks whose shard is stored, with their position counts."""
    found: dict[int, int] = {}
    folder = run_dir / "data"
    if not folder.is_dir():
        return found
    for path in folder.glob("task-*.npz"):
        stem = path.stem.removeprefix("task-")
        if stem.isdigit():
            found[int(stem)] = len(nnue_data.decode_shard(path, str(path)))
    return found


def _prefix(stored: Mapping[int, int]) -> tuple[int, int]:
    """The tasks 0, 1, ... stored without a gap, and their positions."""
    tasks = positions = 0
    while tasks in stored:
        positions += stored[tasks]
        tasks += 1
    return tasks, positions


def generate(
    settings: Settings,
    run_dir: Path,
    executor: Executor,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> tuple[int, int, bool]:
    """Play the tasks the run still needs for ``settings.positions`` positions, each stored as it
    finishes; return the tasks and positions of the training set's prefix, and whether ``stop``
    ended it first."""
    _check_run(run_dir, settings)
    stored = _stored(run_dir)
    tasks, have = _prefix(stored)
    wanted = settings.positions
    if progress is not None:
        progress("positions", min(have, wanted), wanted)
    while have < wanted:
        if stop is not None and stop():
            return tasks, have, True
        per_task = (have / tasks) if tasks else 60.0 * settings.games_per_task
        count = max(1, min(math.ceil((wanted - have) / max(per_task, 1.0)), 4 * executor.workers))
        numbers: list[int] = []
        number = tasks
        while len(numbers) < count:
            if number not in stored:
                numbers.append(number)
            number += 1
        jobs = {
            str(n): (
                settings.seed,
                n,
                settings.games_per_task,
                settings.label_depth,
                settings.label_engine,
                settings.random_plies,
                settings.max_plies,
            )
            for n in numbers
        }
        results = executor.run(nnue_data.play_task, jobs)
        try:
            for key, shard in results:
                number = int(key)
                _write_whole(_shard_path(run_dir, number), shard)
                stored[number] = len(nnue_data.decode_shard(shard))
                tasks, have = _prefix(stored)
                if progress is not None:
                    progress("positions", min(have, wanted), wanted)
                if stop is not None and stop():
                    return tasks, have, True
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
    return tasks, have, False


def load_positions(run_dir: Path, count: int) -> Positions:
    """The first ``count`` positions of the run's training set (tasks 0, 1, ... in order)."""
    parts: list[Positions] = []
    total = 0
    number = 0
    while total < count:
        path = _shard_path(run_dir, number)
        if not path.exists():
            break
        part = nnue_data.decode_shard(path, str(path))
        parts.append(part)
        total += len(part)
        number += 1
    return Positions.join(parts).head(count)


# -- the model ---------------------------------------------------------------------------------


class NnueModel(nn.Module):
    """The file format's float network (see the module's doc)."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.ft = nn.Linear(nnue.FEATURES, hidden)
        self.out = nn.Linear(2 * hidden, 1)

    def accumulate(self, active: torch.Tensor) -> torch.Tensor:
        """The transformer's output for rows of active inputs (padded with ``FEATURES``)."""
        table = torch.cat([self.ft.weight.t(), self.ft.weight.new_zeros(1, self.hidden)])
        summed = functional.embedding_bag(active, table, mode="sum", padding_idx=nnue.FEATURES)
        return summed + self.ft.bias

    def forward(self, us: torch.Tensor, them: torch.Tensor) -> torch.Tensor:
        """The output (centipawns / ``SCALE``) from the side to move's and the other's inputs."""
        hidden = torch.cat(
            [self.accumulate(us).clamp(0.0, 1.0), self.accumulate(them).clamp(0.0, 1.0)], dim=1
        )
        output: torch.Tensor = self.out(hidden)
        return output.squeeze(1)

    def clip(self) -> None:
        """Keep the weights where the quantised network cannot overflow."""
        with torch.no_grad():
            self.ft.weight.clamp_(-FT_CLIP, FT_CLIP)
            self.ft.bias.clamp_(-FT_CLIP, FT_CLIP)
            self.out.weight.clamp_(-OUT_CLIP, OUT_CLIP)


def inputs(positions: Positions) -> tuple[torch.Tensor, torch.Tensor]:
    """The side to move's and the other side's active inputs of each position."""
    white, black = nnue_data.features_of(positions.board)
    black_to_move = positions.stm.astype(bool)[:, None]
    us = np.where(black_to_move, black, white).astype(np.int32)
    them = np.where(black_to_move, white, black).astype(np.int32)
    return torch.from_numpy(us), torch.from_numpy(them)


def targets(positions: Positions) -> torch.Tensor:
    score = torch.from_numpy(positions.score.astype(np.float32))
    result = torch.from_numpy(positions.result.astype(np.float32))
    return (1 - RESULT_SHARE) * torch.sigmoid(score / K) + RESULT_SHARE * (result + 1) / 2


def _loss(
    model: NnueModel, us: torch.Tensor, them: torch.Tensor, target: torch.Tensor
) -> torch.Tensor:
    predicted = torch.sigmoid(model(us, them) * (nnue.SCALE / K))
    return torch.mean((predicted - target) ** 2)


def centipawns(model: NnueModel, positions: Positions) -> NDArray[np.float64]:
    """The float network's values of ``positions``, centipawns from the side to move."""
    us, them = inputs(positions)
    with torch.no_grad():
        values: NDArray[np.float64] = (model(us, them) * nnue.SCALE).double().numpy()
    return values


def _save_checkpoint(path: Path, state: Mapping[str, object]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    torch.save(dict(state), temporary)
    with open(temporary, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _load_checkpoint(path: Path) -> dict[str, object] | None:
    if not path.exists():
        return None
    try:
        data = torch.load(path, weights_only=True)
    except Exception as error:  # a damaged file: pickle, zip and torch errors alike
        raise NnueRunError(
            f"{path}: not a checkpoint of a chess network ({type(error).__name__}); delete it "
            "to train afresh"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NnueRunError(f"{path}: not a checkpoint of a chess network; delete it")
    return data


def split(count: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The training and held-out indices of a set of ``count`` positions."""
    index = np.arange(count, dtype=np.int64)
    held = index % HOLD_OUT == HOLD_OUT - 1
    return index[~held], index[held]


def train(
    settings: Settings,
    run_dir: Path,
    positions: Positions,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> tuple[NnueModel, Outcome]:
    """Train (or go on training) the run's model on ``positions`` to ``settings.epochs``."""
    torch.set_num_threads(1)
    path = run_dir / CHECKPOINT
    held = _load_checkpoint(path)
    model = NnueModel(settings.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    outcome = Outcome(positions=len(positions))
    epoch = batch = 0
    if held is not None:
        if held.get("hidden") != settings.hidden:
            raise NnueRunError(
                f"{path} is a network of {held.get('hidden')} hidden units, not "
                f"{settings.hidden}: give the same hidden size, or delete it to train afresh"
            )
        model.load_state_dict(held["model"])  # type: ignore[arg-type]
        optimizer.load_state_dict(held["optimizer"])  # type: ignore[arg-type]
        epoch = int(held["epoch"])  # type: ignore[call-overload]
        same_set = held.get("positions") == len(positions)
        batch = int(held["batch"]) if same_set else 0  # type: ignore[call-overload]
        outcome.history = list(held.get("history", []))  # type: ignore[call-overload]
    else:
        torch.manual_seed(settings.seed)
        model = NnueModel(settings.hidden)
        model.clip()
        optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    us, them = inputs(positions)
    target = targets(positions)
    learn, check = split(len(positions))
    outcome.held_out = len(check)
    per_epoch = max(1, math.ceil(len(learn) / settings.batch))
    total = per_epoch * settings.epochs

    def save() -> None:
        _save_checkpoint(
            path,
            {
                "format": FORMAT,
                "hidden": settings.hidden,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "epoch": epoch,
                "batch": batch,
                "positions": len(positions),
                "history": outcome.history,
            },
        )

    def held_out_loss() -> float:
        if not len(check):
            return math.nan
        with torch.no_grad():
            picked = torch.from_numpy(check)
            return float(_loss(model, us[picked], them[picked], target[picked]))

    if progress is not None:
        progress("training", min(epoch * per_epoch + batch, total), total)
    running = 0.0
    while epoch < settings.epochs and len(learn):
        generator = torch.Generator().manual_seed(settings.seed * 100_003 + epoch)
        order = torch.from_numpy(learn)[torch.randperm(len(learn), generator=generator)]
        seen = 0
        while batch < per_epoch:
            if stop is not None and stop():
                save()
                outcome.stopped = True
                outcome.epoch, outcome.batches = epoch, batch
                return model, outcome
            picked = order[batch * settings.batch : (batch + 1) * settings.batch]
            optimizer.zero_grad()
            loss = _loss(model, us[picked], them[picked], target[picked])
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            model.clip()
            running += float(loss.detach()) * len(picked)
            seen += len(picked)
            batch += 1
            if progress is not None:
                progress("training", epoch * per_epoch + batch, total)
        outcome.train_loss = running / seen if seen else math.nan
        running = 0.0
        epoch, batch = epoch + 1, 0
        outcome.history.append(
            {"epoch": epoch, "train_loss": outcome.train_loss, "held_out_loss": held_out_loss()}
        )
        save()
    if held is None and not outcome.history:
        save()
    outcome.epoch, outcome.batches = epoch, batch
    if outcome.history:
        outcome.train_loss = outcome.history[-1]["train_loss"]
    outcome.held_out_loss = held_out_loss()
    return model, outcome


def export(model: NnueModel, meta: Mapping[str, object] | None = None) -> nnue.Network:
    """The quantised network of ``model``."""
    with torch.no_grad():
        return nnue.quantise(
            model.ft.weight.t().double().numpy(),
            model.ft.bias.double().numpy(),
            model.out.weight[0].double().numpy(),
            float(model.out.bias[0]),
            dict(meta or {}),
        )


def save_network(network: nnue.Network, path: Path) -> None:
    """Write ``network`` to ``path`` whole (whatever its name ends with)."""
    temporary = path.with_name(path.name + ".tmp.npz")
    try:
        nnue.save(network, temporary)
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def run(
    settings: Settings,
    run_dir: Path,
    executor: Executor,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> Outcome:
    """Data, then training, then the quantised network (in ``Outcome.network``; ``None`` when
    ``stop`` ended the run first). Every step kept in ``run_dir``."""
    tasks, have, stopped = generate(settings, run_dir, executor, progress, stop)
    if stopped:
        return Outcome(positions=have, tasks=tasks, stopped=True)
    positions = load_positions(run_dir, settings.positions)
    model, outcome = train(settings, run_dir, positions, progress, stop)
    outcome.tasks = tasks
    if outcome.stopped:
        return outcome
    provenance = {key: value for key, value in asdict(settings).items() if key not in {"batch"}}
    outcome.network = export(
        model,
        {
            "trained": "zermelo tune chess --nnue",
            "zermelo": VERSION,
            "settings": provenance,
            "positions": len(positions),
            "held_out_loss": outcome.held_out_loss,
        },
    )
    return outcome


def check_match(
    network: nnue.Network,
    games: int,
    executor: Executor,
    openings: list[str],
    progress: Progress | None = None,
    stop: Stop | None = None,
    nodes: int = nnue_data.MATCH_NODES,
) -> tuple[int, int, int, bool]:
    """Wins, draws and losses of the engine with ``network`` against the built-in evaluation,
    ``games`` games from ``openings`` (each opening twice, colours swapped) at ``nodes`` per
    move; and whether ``stop`` ended the match first (the games so far counted)."""
    jobs = {
        str(index): (network, openings[(index // 2) % len(openings)], index % 2 == 0, nodes)
        for index in range(games)
    }
    wins = draws = losses = 0
    if progress is not None:
        progress("match", 0, games)
    results = executor.run(nnue_data.match_game, jobs)
    try:
        for done, (_key, points) in enumerate(results, 1):
            wins += points == 1.0
            draws += points == 0.5
            losses += points == 0.0
            if progress is not None:
                progress("match", done, games)
            if stop is not None and stop() and done < games:
                return wins, draws, losses, True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return wins, draws, losses, False


def kept(run_dir: Path) -> tuple[int, int]:
    """The positions of the run's training set stored so far, and its epochs trained."""
    try:
        _tasks, positions = _prefix(_stored(run_dir))
        held = _load_checkpoint(run_dir / CHECKPOINT)
    except (OSError, InvalidOptionError):
        return 0, 0
    epoch = held.get("epoch", 0) if held is not None else 0
    return positions, epoch if isinstance(epoch, int) else 0
