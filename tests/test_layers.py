"""The layering rules of DESIGN.md that a machine can check for the arena's packages."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import zermelo

PACKAGE = Path(zermelo.__file__).resolve().parent
QUIET = ("search", "agents", "play")
FRONT_ENDS = ("zermelo.ui", "zermelo.cli", "rich", "click")


def _modules(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


@pytest.mark.parametrize("package", QUIET)
def test_no_printing_or_reading_below_the_front_ends(package: str) -> None:
    for path in _modules(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("print", "input"), f"{path.name}:{node.lineno}"


@pytest.mark.parametrize("package", QUIET)
def test_no_front_end_imports_below_the_front_ends(package: str) -> None:
    for path in _modules(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(FRONT_ENDS), f"{path.name}:{node.lineno} {name}"
