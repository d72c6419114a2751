"""What the benchmark scripts share: their progress bar and where the public test positions are."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

ROOT = Path(__file__).resolve().parents[1]


class RateColumn(ProgressColumn):
    """Items per second (per minute when slower than one a second)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("-/s")
        if speed < 1:
            return Text(f"{speed * 60:.1f}/min")
        return Text(f"{speed:,.1f}/s")


def progress_bar(console: Console) -> Progress:
    """A bar with the task's name, done/total, rate, elapsed time and time left; transient."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def connect4_data_dir() -> Path:
    """The public Connect Four test sets: ``$ZERMELO_C4_DATA``, else the first
    ``shared/benchmarks/connect4`` beside the repository or above it."""
    override = os.environ.get("ZERMELO_C4_DATA")
    if override:
        return Path(override)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "benchmarks" / "connect4"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "benchmarks" / "connect4"
