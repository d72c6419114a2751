"""A run's metrics: one line per generation of ``metrics.jsonl`` (see :mod:`zermelo.learn.loop`).

Read without PyTorch, so that the plot and the table of a run need only this module."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path

from zermelo.games.registry import get_game

__all__ = ["Checkpoint", "read_metrics", "run_directory"]


@dataclass(frozen=True)
class Checkpoint:
    """One generation's line of ``metrics.jsonl``."""

    generation: int
    elapsed: float
    games: int
    positions: int
    loss: float
    policy_loss: float
    value_loss: float
    accepted: bool
    gate_score: float | None
    alone: float | None = None
    alone_best: float | None = None
    searched: float | None = None
    value_error: float | None = None
    measured: dict[str, float] = field(default_factory=dict)
    arena: dict[str, dict[str, float | None]] = field(default_factory=dict)
    games_per_second: float = 0.0
    training: dict[str, object] = field(default_factory=dict)


_FIELDS = {f.name for f in fields(Checkpoint)}


def read_metrics(run_dir: Path) -> list[Checkpoint]:
    """The run's checkpoints, one per generation finished, in order. A line that is not a whole
    checkpoint (cut short by a kill, or damaged) is left out: its generation is redone."""
    path = Path(run_dir) / "metrics.jsonl"
    if not path.exists():
        return []
    rows: list[Checkpoint] = []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    continue
                rows.append(Checkpoint(**{k: v for k, v in data.items() if k in _FIELDS}))
            except (ValueError, TypeError, RecursionError):
                continue
    return rows


def run_directory(game: str) -> Path:
    """The default run directory of ``game``: ``$ZERMELO_CACHE_DIR/learn/<game>``, else the
    user's cache directory (``$XDG_CACHE_HOME/zermelo`` or ``~/.cache/zermelo``)."""
    override = os.environ.get("ZERMELO_CACHE_DIR")
    base = (
        Path(override)
        if override
        else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "zermelo"
    )
    return base / "learn" / get_game(game).name
