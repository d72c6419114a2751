"""A plugin game for the tests of the learned level's faces: tic-tac-toe under the name ``aztoe``,
whose record ships a tiny net with seeded random weights (``learned``). It is installed as a
package with an entry point in a directory of its own, so that the web server's search processes
and the command line (other processes) find it too, whatever nets the real games ship."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.agents.fakenet import tiny_net

NAME = "aztoe"
SEED = 1

_SOURCE = '''"""Tic-tac-toe with a tiny learned net, for tests."""

import dataclasses
from pathlib import Path

from zermelo.core.record import Ref
from zermelo.games.tictactoe import SPEC as _TICTACTOE


class _Shipped:
    """The net beside this file, loaded on first use."""

    description = "a tiny random net (a test's stand-in)"

    def __init__(self):
        self._net = None

    def evaluate(self, states):
        if self._net is None:
            from zermelo.agents.az import Net

            self._net = Net.load(Path(__file__).with_name("aztoe.npz"))
        return self._net.evaluate(states)


NET = _Shipped()
SPEC = dataclasses.replace(
    _TICTACTOE,
    name="aztoe",
    title="Tic-tac-toe (learned)",
    aliases=(),
    learned=Ref("zermelo_aztoe:NET"),
)
'''


def install(root: Path) -> Path:
    """Write the plugin under ``root`` (a package and its distribution's entry point)."""
    package = root / "zermelo_aztoe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(_SOURCE)
    net = tiny_net("tictactoe", seed=SEED)
    net.meta["game"] = NAME
    net.save(package / "aztoe.npz")
    info = root / "zermelo_aztoe-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zermelo-aztoe\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[zermelo.games]\n{NAME} = zermelo_aztoe:SPEC\n")
    return root


def _forget_games() -> None:
    from zermelo.games import registry

    registry._plugins.cache_clear()
    registry._load.cache_clear()
    registry._failed.clear()


@contextlib.contextmanager
def on_path(root: Path) -> Iterator[Path]:
    """The plugin on this process's import path and in the environment of the processes it
    starts, the registry reading it afresh; all undone on leaving."""
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), old) if p)
    sys.path.insert(0, str(root))
    _forget_games()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        sys.modules.pop("zermelo_aztoe", None)
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
        _forget_games()
