"""TD-Gammon's network for backgammon: 198 inputs, one hidden layer of sigmoids, five outputs.

The inputs are Tesauro's encoding (see :func:`zermelo.solvers.backgammon.fast.encode`): for each
of the 24 points and each side, four units (one checker or more, two or more, three or more, and
half the checkers beyond three), each side's bar (halved) and checkers off (over 15), and two
units for the side to move. The board is always seen by the side to move, so those two units are
constant (one on, one off) and act as a bias; the encoding keeps them so that its 198 units are
TD-Gammon's.

The five sigmoid outputs are the chances, for the side to move before it rolls, of winning, of
winning a gammon (or better), of winning a backgammon, of losing a gammon (or worse) and of
losing a backgammon, as gnubg's evaluations give them. The cubeless equity is
``2·P(win) - 1 + P(win gammon) - P(lose gammon) + P(win bg) - P(lose bg)`` points.

Weights are shipped as a small ``.npz`` (float32) in this package: :data:`TRAINED` is the file
the training script (``scripts/train_backgammon.py``) writes as it improves.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from zermelo.core.errors import N_, ParseError

__all__ = [
    "HIDDEN",
    "TRAINED",
    "Net",
    "encode_dense",
    "load_net",
    "random_net",
    "reference_forward",
    "save_net",
    "trained_net",
]

HIDDEN = 80
"""The hidden units of the shipped net."""
TRAINED = Path(__file__).with_name("weights.npz")
"""The shipped trained weights."""
MAX_BYTES = 8 << 20
"""A weights file larger than this is not one of ours."""

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class Net:
    """The weights: ``w1`` (198, H), ``b1`` (H), ``w2`` (H, 5), ``b2`` (5), all float64 and
    C-contiguous (the compiled forward pass reads them as they are); ``games`` is how many
    self-play games trained them (0: untrained)."""

    w1: Floats
    b1: Floats
    w2: Floats
    b2: Floats
    games: int = 0
    name: str = "net"

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def copy(self) -> Net:
        return Net(
            self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(), self.games, self.name
        )

    def arrays(self) -> tuple[Floats, Floats, Floats, Floats]:
        return self.w1, self.b1, self.w2, self.b2


def random_net(seed: int = 0, hidden: int = HIDDEN, scale: float = 0.1) -> Net:
    """An untrained net: every weight uniform in ``[-scale, scale]`` from ``seed``."""
    rng = np.random.default_rng(seed)
    w1 = rng.uniform(-scale, scale, size=(198, hidden))
    b1 = rng.uniform(-scale, scale, size=hidden)
    w2 = rng.uniform(-scale, scale, size=(hidden, 5))
    b2 = rng.uniform(-scale, scale, size=5)
    return Net(w1, b1, w2, b2, 0, f"untrained (seed {seed})")


def save_net(net: Net, path: str | Path, exact: bool = False) -> None:
    """Write ``net`` as a compressed ``.npz`` (and its games count): float32 arrays to ship,
    float64 when ``exact`` (a checkpoint that training resumes from bit for bit)."""
    buffer = io.BytesIO()
    kind = np.float64 if exact else np.float32
    np.savez_compressed(
        buffer,
        w1=net.w1.astype(kind),
        b1=net.b1.astype(kind),
        w2=net.w2.astype(kind),
        b2=net.b2.astype(kind),
        games=np.array([net.games], dtype=np.int64),
    )
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_bytes(buffer.getvalue())
    temporary.replace(target)


def load_net(path: str | Path, name: str | None = None) -> Net:
    """The net in the ``.npz`` file ``path`` (as :func:`save_net` writes it); anything else is
    one :class:`ParseError` line."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise ParseError(
            N_("cannot read weights file {path!r}: {reason}"),
            path=str(path),
            reason=error.strerror or type(error).__name__,
        ) from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            w1 = np.ascontiguousarray(data["w1"], dtype=np.float64)
            b1 = np.ascontiguousarray(data["b1"], dtype=np.float64)
            w2 = np.ascontiguousarray(data["w2"], dtype=np.float64)
            b2 = np.ascontiguousarray(data["b2"], dtype=np.float64)
            games = int(data["games"][0]) if "games" in data else 0
    except (ValueError, KeyError, OSError, EOFError, IndexError, zipfile.BadZipFile):
        raise ParseError(
            N_("{path!r} is not a backgammon weights file: expected the .npz the training writes"),
            path=str(path),
        ) from None
    hidden = b1.shape[0] if b1.ndim == 1 else -1
    if (
        hidden < 1
        or w1.shape != (198, hidden)
        or w2.shape != (hidden, 5)
        or b2.shape != (5,)
        or not all(np.isfinite(a).all() for a in (w1, b1, w2, b2))
    ):
        raise ParseError(
            N_("{path!r} is not a backgammon weights file: expected the .npz the training writes"),
            path=str(path),
        )
    return Net(w1, b1, w2, b2, games, name or f"trained ({games} games)")


_TRAINED_CACHE: list[Net] = []


def trained_net() -> Net:
    """The shipped trained net (read once)."""
    if not _TRAINED_CACHE:
        _TRAINED_CACHE.append(load_net(TRAINED))
    return _TRAINED_CACHE[0]


def encode_dense(board: NDArray[np.int8]) -> Floats:
    """The 198 inputs of a mover's board (the rules' ``int8[28]``, see
    :mod:`zermelo.games.backgammon.kernel`), written plainly from the counts on the board: the
    reference the compiled sparse encoding is tested against."""
    x = np.zeros(198)
    for p in range(1, 25):
        c = int(board[p])
        if c == 0:
            continue
        base = 4 * (p - 1) if c > 0 else 96 + 4 * (24 - p)
        c = abs(c)
        x[base] = 1.0
        x[base + 1] = 1.0 if c >= 2 else 0.0
        x[base + 2] = 1.0 if c >= 3 else 0.0
        x[base + 3] = (c - 3) / 2.0 if c > 3 else 0.0
    points = board[1:25]
    mine = int(points[points > 0].sum()) + int(board[25])
    theirs = -int(points[points < 0].sum()) + int(board[26])
    x[192] = board[25] / 2.0
    x[193] = board[26] / 2.0
    x[194] = (15 - mine) / 15.0
    x[195] = (15 - theirs) / 15.0
    x[196] = 1.0
    return x


def reference_forward(net: Net, board: NDArray[np.int8]) -> Floats:
    """The five outputs by plain numpy matrix products (the compiled pass's reference)."""
    x = encode_dense(board)
    hidden = 1.0 / (1.0 + np.exp(-(x @ net.w1 + net.b1)))
    result: Floats = 1.0 / (1.0 + np.exp(-(hidden @ net.w2 + net.b2)))
    return result
