"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m zermelo ARGS`` in a subprocess with ``stdin``; English unless ``env`` says."""
    environment = {
        k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")
    }
    environment["PYTHONPATH"] = str(SRC) + os.pathsep + environment.get("PYTHONPATH", "")
    environment["COLUMNS"] = "120"
    if env:
        environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "zermelo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def cli() -> object:
    return run_cli
