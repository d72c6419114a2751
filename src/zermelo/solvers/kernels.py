"""The compiled kernels' first run: which are built, building them, and what serves meanwhile.

numba compiles a kernel on its first use and keeps the machine code in its cache
(``NUMBA_CACHE_DIR``, else a ``__pycache__`` beside the source, else the user's cache folder);
every later process loads it in about a second. The first compile takes 10-30 s. This module
lets a face know that before it happens (:func:`is_built`, which reads numba's cache index and
compiles nothing) and choose between two ways through it:

* :func:`build`, in the foreground: compile now, reporting each step through a callback, for a
  face that needs the real kernel at once (perft counts with it, a timed benchmark times it);
* :func:`build_in_background`: a child process compiles while this one plays with the plain-Python
  copy of the same kernel source (:func:`zermelo.core.jit.kernel_variant`: same moves and
  values at a given depth, fewer nodes in a given time), then this process loads the compiled code
  from the cache and switches (engines and solvers made with ``compiled=None`` follow it at their
  next search).

Nothing here prints: progress goes to the :data:`Listener` a face gives, as :class:`KernelEvent`.
``python -m zermelo.solvers.kernels NAME...`` is the child's entry point (silent, exit status 0
when every kernel was built).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal

from zermelo.core import jit as _jit
from zermelo.core.record import N_

if TYPE_CHECKING:
    from zermelo.games.draughts.rules import Rules

__all__ = [
    "GAME_KERNELS",
    "KERNELS",
    "PLAY_KERNELS",
    "KernelEvent",
    "Listener",
    "available",
    "build",
    "build_in_background",
    "is_built",
    "kernels_for",
    "preparing",
    "serve_while_cold",
    "wait_background",
]

EventKind = Literal["background", "ready", "failed", "step", "done"]


@dataclass(frozen=True, slots=True)
class KernelEvent:
    """What happened to kernel ``kernel``: ``background`` (a child builds it; the plain copy plays
    meanwhile), ``ready`` (the compiled one now serves), ``failed`` (it could not be built: the
    plain copy goes on), ``step`` (``done`` of ``total`` steps of a foreground build) or ``done``
    (a foreground build finished)."""

    kind: EventKind
    kernel: str
    done: int = 0
    total: int = 0
    detail: str = ""


Listener = Callable[[KernelEvent], None]
"""Where progress goes: a face renders it (on stderr, as ``info string``, as a bar)."""


def _chess_steps() -> list[Callable[[], object]]:
    from zermelo.solvers.chess import engine

    def search() -> object:
        player = engine.ChessEngine(hash_mb=1, compiled=True)
        player.search("startpos", depth=3)
        player.analyze_moves("startpos", depth=1)
        return player.evaluate("startpos")

    def network() -> object:
        # the learned evaluation's entry point, with the types an engine gives it (the search's
        # own path through it is compiled with negamax, whose signature covers the network)
        import numpy as np

        from zermelo.solvers.chess import nnue

        hidden = 8
        tiny = nnue.Network(
            np.zeros((nnue.FEATURES, hidden), dtype=np.int16),
            np.zeros(hidden, dtype=np.int16),
            np.zeros(2 * hidden, dtype=np.int16),
            0,
        )
        player = engine.ChessEngine(hash_mb=1, compiled=True, network=tiny)
        player.search("startpos", depth=2)
        return player.evaluate("startpos")

    return [
        lambda: engine.perft("startpos", 2, compiled=True),
        lambda: engine.legal_moves("startpos", compiled=True),
        search,
        network,
    ]


def _connect4_steps() -> list[Callable[[], object]]:
    from zermelo.solvers.connect4.solver import Connect4Solver

    def batch() -> object:
        solver = Connect4Solver(compiled=True, table_bits=10, book=False)
        return solver.score_text(b"121212\n", 1)

    def search() -> object:
        solver = Connect4Solver(compiled=True, table_bits=10, book=False)
        solver.warm_up()  # every entry point on a position decided at once
        return solver.solve("121212")

    return [search, batch]


def _draughts_start(rules: Rules) -> tuple[int, int]:
    """White's and Black's men at the start: the first two rows of dama, four of international."""
    rows = 2 if rules.squares == rules.size * rules.size else rules.size // 2 - 1
    white = sum(1 << sq for sq in range(rules.squares) if rules.rank_of(sq, 0) < rows)
    black = sum(1 << sq for sq in range(rules.squares) if rules.rank_of(sq, 1) < rows)
    return white, black


def _draughts_moves_steps() -> list[Callable[[], object]]:
    from zermelo.games.draughts import kernel
    from zermelo.games.draughts.rules import DAMA, INTERNATIONAL

    def moves() -> object:
        for rules in (INTERNATIONAL, DAMA):
            white, black = _draughts_start(rules)
            kernel.legal(rules, white, black, 0, 0)
        return None

    def perft() -> object:
        for rules in (INTERNATIONAL, DAMA):
            white, black = _draughts_start(rules)
            kernel.count(rules, white, black, 0, 0, 3)
        return None

    return [moves, perft]


def _draughts_steps() -> list[Callable[[], object]]:
    from zermelo.games.draughts.rules import DAMA, INTERNATIONAL
    from zermelo.solvers.draughts import engine

    def search() -> object:
        for rules in (INTERNATIONAL, DAMA):
            player = engine.DraughtsEngine(rules, hash_mb=1, compiled=True)
            white, black = _draughts_start(rules)
            player.search(white, black, 0, 0, depth=3)
            player.analyze_moves(white, black, 0, 0, depth=1)
            player.quiesce(white, black, 0, 0)
            player.legal_moves(white, black, 0, 0)
        return player.evaluate(white, black, 0, 0)

    return [search]


def _backgammon_moves_steps() -> list[Callable[[], object]]:
    from zermelo.games.backgammon import kernel

    def moves() -> object:
        buffers = kernel.new_buffers()
        board = kernel.start_board()
        for dice in ((3, 1), (4, 4)):
            n = kernel.gen_moves(board, dice[0], dice[1], *buffers)
            kernel.pips(kernel.swapped(buffers[0][n - 1]))
        out = kernel.swapped(board)
        kernel.swap(board, out)
        return kernel.result(out)

    return [moves]


def _backgammon_steps() -> list[Callable[[], object]]:
    from zermelo.games.backgammon import kernel
    from zermelo.solvers.backgammon import net, search

    def search_steps() -> object:
        trained = net.trained_net()
        board = kernel.start_board()
        search.rank_moves(trained, board, (3, 1), 1)
        search.rank_moves(trained, board, (3, 1), 2)
        return search.position_equity(trained, board)

    return [search_steps]


@dataclass(frozen=True, slots=True)
class _Kernel:
    title: str
    """Its name for people, marked for translation (the faces translate it)."""
    module: str
    entry_points: tuple[str, ...]
    """The functions Python calls: the kernel is built when numba's cache holds each of them."""
    steps: Callable[[], list[Callable[[], object]]]
    """Calls that compile every entry point, with the types play gives them, one step each."""


KERNELS: Final = {
    "chess": _Kernel(
        N_("the chess engine"),
        "zermelo.solvers.chess.kernel",
        ("negamax", "perft", "quiesce", "legal_moves", "compute_hash", "evaluate", "nnue_evaluate"),
        _chess_steps,
    ),
    "connect4": _Kernel(
        N_("the Connect Four solver"),
        "zermelo.solvers.connect4.kernel",
        ("solve", "at_most", "mirror", "has_alignment", "canonical", "solve_many"),
        _connect4_steps,
    ),
    "draughts-moves": _Kernel(
        N_("the draughts move generator"),
        "zermelo.games.draughts.kernel",
        ("gen_moves", "perft"),
        _draughts_moves_steps,
    ),
    "draughts": _Kernel(
        N_("the draughts engine"),
        "zermelo.solvers.draughts.search",
        ("negamax", "quiesce", "evaluate", "set_position", "make_move", "generate"),
        _draughts_steps,
    ),
    "backgammon-moves": _Kernel(
        N_("the backgammon move generator"),
        "zermelo.games.backgammon.kernel",
        ("gen_moves", "new_buffers", "start_board", "swap", "swapped", "pips", "result"),
        _backgammon_moves_steps,
    ),
    "backgammon": _Kernel(
        N_("the backgammon engine"),
        "zermelo.solvers.backgammon.fast",
        ("one_ply", "two_ply_values", "forward"),
        _backgammon_steps,
    ),
}
"""The compiled kernels by name."""

GAME_KERNELS: Final = {
    "chess": ("chess",),
    "connect4": ("connect4",),
    "international": ("draughts-moves", "draughts"),
    "dama": ("draughts-moves", "draughts"),
    "backgammon": ("backgammon-moves", "backgammon"),
}
"""The kernels each game's play uses (the other games are plain Python)."""

PLAY_KERNELS: Final = (
    "chess",
    "connect4",
    "draughts-moves",
    "draughts",
    "backgammon-moves",
    "backgammon",
)
"""What ``zermelo warm-up`` builds by default: the kernels play uses."""


def kernels_for(game: str) -> tuple[str, ...]:
    """The kernels game ``game`` (its registry name) plays with."""
    return GAME_KERNELS.get(game, ())


def _module(name: str) -> ModuleType:
    return importlib.import_module(KERNELS[name].module)


def available() -> bool:
    """Whether there is anything to compile: numba installed and not switched off."""
    return _jit.NUMBA_AVAILABLE and not _jit.numba_disabled()


def is_built(name: str) -> bool:
    """Whether kernel ``name``'s compiled code is ready to load (numba's cache, or Connect Four's
    ahead-of-time extension) or there is nothing to compile (no numba): compiles nothing."""
    if not available():
        return True
    module = _module(name)
    if getattr(module, "AHEAD_OF_TIME", False):
        return True
    return _jit.cached(module, KERNELS[name].entry_points)


def build(names: Sequence[str], listener: Listener | None = None) -> None:
    """Compile kernels ``names`` now (a no-op for each already built, bar loading it), with a
    ``step`` event after each step and ``done`` after each kernel."""
    for name in names:
        if not available():
            break
        module = _module(name)
        steps = KERNELS[name].steps()
        total = _jit.pending(module) + len(steps)
        done = 0

        def step(_function: str, name: str = name, total: int = total) -> None:
            nonlocal done
            done += 1
            if listener is not None:
                listener(KernelEvent("step", name, done, total))

        if listener is not None:
            listener(KernelEvent("step", name, 0, total))
        _jit.finish(module, step)
        for call in steps:
            call()
            step("")
        if listener is not None:
            listener(KernelEvent("done", name, total, total))


_BACKGROUND: dict[str, threading.Thread] = {}
_BACKGROUND_LOCK = threading.Lock()


def build_in_background(names: Sequence[str], listener: Listener | None = None) -> tuple[str, ...]:
    """Start building those of ``names`` that are not built, in a child process, and serve their
    plain copies until the child is done; then load the compiled code here (a second or so, in a
    thread) and serve it. The built ones are loaded in a thread too, the plain copy serving
    until they are. Returns the kernels it started (each announced with a ``background``
    event, then ``ready`` or ``failed`` from the watching thread)."""
    fresh = [name for name in names if name not in _BACKGROUND and available()]
    cold = tuple(name for name in fresh if not is_built(name))
    for name in fresh:
        if name not in cold:
            _load_in_background(name)
    if not cold:
        return ()
    for name in cold:
        _jit.serve_plain(KERNELS[name].module, True)
    environment = dict(os.environ, ZERMELO_NO_AOT="1")
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "zermelo.solvers.kernels", *cold],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # it outlives this process if this one ends first
            env=environment,
        )
    except OSError as error:
        for name in cold:
            _jit.serve_plain(KERNELS[name].module, False)
        if listener is not None:
            for name in cold:
                listener(KernelEvent("failed", name, detail=str(error)))
        return ()

    def watch() -> None:
        child.wait()
        for name in cold:
            module = KERNELS[name].module
            if child.returncode == 0:
                try:
                    _jit.finish(_module(name))  # loads from the cache the child filled
                except Exception as error:
                    if listener is not None:
                        listener(KernelEvent("failed", name, detail=str(error)))
                    continue
                _jit.serve_plain(module, False)
                if listener is not None:
                    listener(KernelEvent("ready", name))
            elif listener is not None:
                listener(KernelEvent("failed", name, detail=f"exit status {child.returncode}"))

    thread = threading.Thread(target=watch, name="zermelo-kernel-build", daemon=True)
    with _BACKGROUND_LOCK:
        for name in cold:
            _BACKGROUND[name] = thread
    if listener is not None:
        for name in cold:
            listener(KernelEvent("background", name))
    thread.start()
    return cold


def _load_in_background(name: str) -> None:
    """Load built kernel ``name``'s compiled code (a second or two) in a thread, serving the plain
    copy until it is loaded: the first move need not wait for it either."""
    module = _module(name)
    if not _jit.pending(module):
        return
    _jit.serve_plain(module.__name__, True)

    def load() -> None:
        try:
            _jit.finish(module)
        finally:
            _jit.serve_plain(module.__name__, False)

    thread = threading.Thread(target=load, name="zermelo-kernel-load", daemon=True)
    with _BACKGROUND_LOCK:
        _BACKGROUND[name] = thread
    thread.start()


def wait_background(timeout: float | None = None) -> bool:
    """Wait for the background builds started here; whether they all finished."""
    with _BACKGROUND_LOCK:
        threads = set(_BACKGROUND.values())
    for thread in threads:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in threads)


_CHECK_EVERY: Final = 1.0
"""Seconds between two looks at numba's cache by :func:`serve_while_cold` for one kernel."""
_NEXT_LOOK: dict[str, float] = {}
_LOADED: set[str] = set()


def serve_while_cold(names: Sequence[str] = PLAY_KERNELS, *, wait: bool = False) -> tuple[str, ...]:
    """For a process that must never compile, since its calls have deadlines (a web server's
    search processes): hold each of kernels ``names`` that numba's cache does not hold yet on its
    plain copy (engines made with ``compiled=None`` play with it), and once the cache holds it
    (someone else's :func:`build_in_background`; looked at no more than once a second, reading
    the index files only), load it in a thread and let the engines follow it. With ``wait``, a
    built kernel is loaded here and now instead (a second or two: for a process's start, which
    has no deadline). Returns the kernels still served plain.

    Cheap enough to call at the start of every search: a kernel already loaded costs a set
    lookup."""
    if not available():
        return ()
    plain: list[str] = []
    for name in names:
        with _BACKGROUND_LOCK:
            if name in _LOADED:
                continue
            thread = _BACKGROUND.get(name)
            now = time.monotonic()
            if (thread is not None and thread.is_alive()) or now < _NEXT_LOOK.get(name, 0.0):
                plain.append(name)
                continue
            module_name = KERNELS[name].module
            if not is_built(name):
                _jit.serve_plain(module_name, True)
                _NEXT_LOOK[name] = now + _CHECK_EVERY
                plain.append(name)
                continue
            _jit.serve_plain(module_name, True)
            thread = threading.Thread(
                target=_load_built, args=(name,), name="zermelo-kernel-load", daemon=True
            )
            _BACKGROUND[name] = thread
            thread.start()
        if wait:
            thread.join()
        if not wait or _jit.serving_plain(KERNELS[name].module):
            plain.append(name)
    return tuple(plain)


def _load_built(name: str) -> None:
    """Load built kernel ``name`` (every entry point with the types play gives it, from the
    cache), then serve it; the plain copy serves until then, and on if loading fails."""
    try:
        build([name])
    except Exception:
        with _BACKGROUND_LOCK:
            _NEXT_LOOK[name] = float("inf")  # the plain copy goes on: no second try
        return
    _jit.serve_plain(KERNELS[name].module, False)
    with _BACKGROUND_LOCK:
        _LOADED.add(name)


def preparing(game: str) -> tuple[str, ...]:
    """The kernels game ``game`` plays with whose compiled code is not built yet (read from
    numba's cache index, compiling nothing): its engines play with the plain copies meanwhile."""
    cold = []
    for name in kernels_for(game):
        if name in _BUILT_SEEN:
            continue
        if is_built(name):
            _BUILT_SEEN.add(name)
        else:
            cold.append(name)
    return tuple(cold)


_BUILT_SEEN: set[str] = set()
"""Kernels :func:`preparing` found built (a cache stays built: no second look)."""


def _main(argv: Sequence[str]) -> int:
    unknown = [name for name in argv if name not in KERNELS]
    if unknown:
        return 2
    build(argv)
    return 0


if __name__ == "__main__":  # pragma: no cover - the background child
    sys.exit(_main(sys.argv[1:]))
