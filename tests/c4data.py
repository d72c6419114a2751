"""The Connect Four oracle data of the tests, shipped in ``tests/data/connect4`` (its README says
where it comes from). A missing or short file fails the test that needs it: it never skips."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "connect4"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
UCI_SAMPLE = "uci/connect-4-sample.data"


def require(name: str) -> Path:
    """The path of a data file; fails the test when it is absent."""
    path = DATA / name
    if not path.is_file():
        pytest.fail(f"Connect Four test data {name} is missing: expected {path}", pytrace=False)
    return path


def read_set(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    """(moves, score) pairs of a benchmark set: the first ``limit`` ones, which must exist."""
    rows = []
    for line in require(name).read_text().splitlines():
        if line.strip():
            moves, score = line.split()[:2]
            rows.append((moves, int(score)))
            if limit is not None and len(rows) >= limit:
                break
    if limit is not None and len(rows) < limit:
        pytest.fail(f"{name} has {len(rows)} positions; the test needs {limit}", pytrace=False)
    return rows


def read_uci() -> list[tuple[int, int, int]]:
    """(current, mask, outcome of the first player) of every row of the UCI sample; the first
    player (x) is to move at ply 8. Attributes run a1..a6, b1..b6, ...: column by column from
    the bottom."""
    rows = []
    outcome = {"win": 1, "draw": 0, "loss": -1}
    for line in require(UCI_SAMPLE).read_text().split():
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
