"""docs/interop.md runs as written: its examples are a doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def test_interop_examples_run_as_written() -> None:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=flags, verbose=False)
    assert result.attempted >= 40
    assert result.failed == 0
