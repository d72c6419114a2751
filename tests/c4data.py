"""Where the Connect Four benchmark data lives: ``<repo>/../shared/benchmarks/connect4`` or
``$ZERMELO_C4_DATA``; tests that need it skip cleanly when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


def data_dir() -> Path:
    override = os.environ.get("ZERMELO_C4_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "connect4"


def require(name: str) -> Path:
    """The path of a data file, or skip the test with the reason."""
    path = data_dir() / name
    if not path.is_file():
        pytest.skip(f"Connect Four data {name} not found at {path} (set ZERMELO_C4_DATA)")
    return path


def read_set(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    """(moves, score) pairs of a benchmark set."""
    rows = []
    for line in require(name).read_text().splitlines():
        if line.strip():
            moves, score = line.split()[:2]
            rows.append((moves, int(score)))
            if limit is not None and len(rows) >= limit:
                break
    return rows


def read_uci() -> list[tuple[int, int, int]]:
    """(current, mask, outcome of the first player) of every UCI row; the first player (x) is
    to move at ply 8. Attributes run a1..a6, b1..b6, ...: column by column from the bottom."""
    rows = []
    outcome = {"win": 1, "draw": 0, "loss": -1}
    for line in require("uci/connect-4.data").read_text().split():
        fields = line.split(",")
        current = mask = 0
        for index, value in enumerate(fields[:42]):
            column, row = divmod(index, 6)
            bit = 1 << (column * 7 + row)
            if value != "b":
                mask |= bit
            if value == "x":
                current |= bit
        rows.append((current, mask, outcome[fields[42]]))
    return rows
