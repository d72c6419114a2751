"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from zermelo.ui.uci import UciSession

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
EXAMPLE = REPO / "examples" / "zermelo-nim"


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the numba kernels once, before any test (and before pytest-xdist starts its
    workers: this runs in the controller only). On a cold cache, every test process that
    touched a kernel would otherwise start its own background build, and the builds, the two
    test processes and the plain-Python copies playing meanwhile would share two cores: a
    clock test flags. The tests of the cold path use caches of their own."""
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker
        return
    from zermelo.solvers.kernels import PLAY_KERNELS, available, is_built

    if not available() or all(is_built(name) for name in PLAY_KERNELS):
        return
    print("\nCompiling the numba kernels once for the tests (zermelo warm-up)...", flush=True)
    # On two processes, one per core: the draughts kernels (the search compiles the move
    # generator it calls) in one, the others in the other.
    draughts = [name for name in PLAY_KERNELS if name.startswith("draughts")]
    groups = [
        group for group in (draughts, [n for n in PLAY_KERNELS if n not in draughts]) if group
    ]
    builds = [
        subprocess.Popen(
            [sys.executable, "-m", "zermelo", "warm-up", *group],
            env=english_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for group in groups
    ]
    for build in builds:
        try:
            build.wait(timeout=900)
        except subprocess.TimeoutExpired:
            build.kill()


def english_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment, without locale settings (so English), running ``src``."""
    environment = {
        k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")
    }
    environment["PYTHONPATH"] = str(SRC) + os.pathsep + environment.get("PYTHONPATH", "")
    environment["COLUMNS"] = "120"
    if extra:
        environment.update(extra)
    return environment


def start_cli(*args: str) -> subprocess.Popen[str]:
    """Start ``python -m zermelo ARGS`` with pipes, for tests that answer prompts as they come."""
    return subprocess.Popen(
        [sys.executable, "-m", "zermelo", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=english_env(),
    )


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m zermelo ARGS`` in a subprocess with ``stdin``; English unless ``env`` says."""
    environment = english_env(env)
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


def reachable(start: Any) -> set[Any]:
    """Every state reachable from ``start`` by legal moves, ``start`` included."""
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen


def forget_games() -> None:
    """Make the game registry read the installed plugins afresh."""
    from zermelo.games import registry

    registry._plugins.cache_clear()
    registry._load.cache_clear()
    registry._failed.clear()


# What installing the example wrote into examples/zermelo-nim itself (none of its files should
# change): the regression check of tests/test_plugins.py reads it.
NIM_SOURCES_WRITTEN: list[str] = []


def _tree(root: Path) -> dict[str, int]:
    """Each file and folder under ``root`` and its modification time; Python's byte-code caches
    left out (the doctests import the example from its sources)."""
    return {
        str(p.relative_to(root)): p.stat().st_mtime_ns
        for p in root.rglob("*")
        if "__pycache__" not in p.parts
    }


@pytest.fixture(scope="session")
def nim_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plugin ``examples/zermelo-nim``, installed by pip into a directory of its own
    (never into the test environment). pip builds a local project in place (setuptools writes
    ``build/`` and ``*.egg-info`` beside the sources, then deletes ``build/bdist.*``), so two
    xdist workers building the one example at once broke each other's build now and then (an
    ERROR in the first test of a worker to ask for the plugin): each process builds a copy of
    the sources of its own."""
    work = tmp_path_factory.mktemp("nim")
    source, target = work / "source", work / "site"
    before = _tree(EXAMPLE)
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
         str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )  # fmt: skip
    after = _tree(EXAMPLE)
    NIM_SOURCES_WRITTEN[:] = sorted(
        n for n in before.keys() | after.keys() if before.get(n) != after.get(n)
    )
    assert (target / "zermelo_nim" / "__init__.py").is_file()
    return target


@contextlib.contextmanager
def nim_on_path(nim_path: Path, *, children: bool = False) -> Iterator[Path]:
    """The example on this process's import path (and, with ``children``, in the environment of
    the processes it starts), the registry reading it afresh; all undone on leaving."""
    old = os.environ.get("PYTHONPATH", "")
    if children:
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(nim_path), old) if p)
    sys.path.insert(0, str(nim_path))
    forget_games()
    try:
        yield nim_path
    finally:
        sys.path.remove(str(nim_path))
        sys.modules.pop("zermelo_nim", None)
        if children:
            os.environ["PYTHONPATH"] = old
        forget_games()


@pytest.fixture
def with_nim(nim_path: Path) -> Iterator[Path]:
    """The example on this process's import path, the registry reading it afresh."""
    with nim_on_path(nim_path):
        yield nim_path


def recording_uci() -> tuple[UciSession, list[str]]:
    """A UCI session on a small engine whose output lines are kept, in order, in the list."""
    import threading

    from zermelo.solvers.chess import ChessEngine
    from zermelo.ui.uci import UciSession

    lines: list[str] = []
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            lines.append(line)

    return UciSession(write, lambda: ChessEngine(hash_mb=1)), lines
