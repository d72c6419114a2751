"""The examples of the README and of the tutorial module run as written (CI runs them with
pytest's doctest options too; here they are part of the ordinary test run)."""

from __future__ import annotations

import doctest
from pathlib import Path

import zermelo.tutorial

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_tutorial_examples() -> None:
    result = doctest.testmod(zermelo.tutorial)
    assert result.attempted >= 5
    assert result.failed == 0
