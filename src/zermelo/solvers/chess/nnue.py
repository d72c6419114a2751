"""The chess engine's learned evaluation: an NNUE-style network, its file format and a reference.

The network is the simplest of the efficiently updatable kind: 768 inputs, one per (piece kind,
colour, square), seen from each side. A feature transformer (768 -> ``hidden``, shared by both
sides) gives two accumulators, the side to move's and the other's; each is clipped to [0, 1]
(in integers, to [0, ``QA``]) and the two are joined, side to move first, into one output:

    value = (crelu(acc_us) . w_us + crelu(acc_them) . w_them + bias) * SCALE / (QA * QB)

in centipawns from the side to move. A move changes two to four inputs, so the search updates the
accumulators instead of recomputing them (the kernel does; this module recomputes, as the
reference the kernel is tested against).

Weights are stored quantised: the transformer's as int16 scaled by ``QA``, the output's as int16
scaled by ``QB``, the output bias as int32 scaled by ``QA * QB``. A file is an ``.npz`` with arrays
``ft_weights`` (768 x hidden), ``ft_bias`` (hidden), ``out_weights`` (2 hidden), ``out_bias`` (1)
and a JSON ``meta`` entry with ``format`` = :data:`FORMAT`, ``version`` = :data:`VERSION`,
``hidden``, ``qa``, ``qb``, ``scale`` and free-form provenance (how it was trained).

Input index, for perspective ``p`` (0 White, 1 Black) of a piece of colour ``c``, kind ``k``
(0 pawn ... 5 king) on square ``s`` (0 = a1 ... 63 = h8)::

    ((0 if c == p else 1) * 6 + k) * 64 + (s if p == 0 else s ^ 56)

so each side sees the board from its own first rank, its own pieces first.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import chess
import numpy as np
from numpy.typing import NDArray

from zermelo.core.errors import InvalidOptionError

__all__ = [
    "FEATURES",
    "FORMAT",
    "QA",
    "QB",
    "SCALE",
    "VERSION",
    "Network",
    "NnueError",
    "evaluate",
    "feature",
    "features",
    "load",
    "quantise",
    "save",
]

FORMAT: Final = "zermelo-nnue"
VERSION: Final = 1
FEATURES: Final = 768
QA: Final = 255
"""The transformer's scale: an accumulator of ``QA`` is the float network's 1.0."""
QB: Final = 64
"""The output layer's scale."""
SCALE: Final = 400
"""Centipawns per unit of the float network's output."""
MAX_HIDDEN: Final = 4096
"""The widest transformer a file may declare (a 768 x 4096 int16 matrix is 6 MB)."""
MAX_UNPACKED: Final = 2 * (FEATURES + 3) * MAX_HIDDEN + (1 << 20)
"""The most bytes a network file may unpack to: every array of the widest network, and a
megabyte for the headers and the provenance. A file claiming more is refused before any array
is decompressed (a small archive can unpack to gigabytes)."""

Int16s = NDArray[np.int16]


class NnueError(InvalidOptionError):
    """A network file that cannot be used: missing, unreadable, not a network, or malformed."""


@dataclass(frozen=True, eq=False)
class Network:
    """A quantised network (see the module's doc for the layout and the scales)."""

    ft_weights: Int16s
    ft_bias: Int16s
    out_weights: Int16s
    out_bias: int
    meta: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        hidden = self.ft_bias.shape[0] if self.ft_bias.ndim == 1 else -1
        if not 1 <= hidden <= MAX_HIDDEN:
            raise NnueError(f"the transformer has {hidden} outputs: expected 1 to {MAX_HIDDEN}")
        expected = {
            "ft_weights": (self.ft_weights, (FEATURES, hidden)),
            "ft_bias": (self.ft_bias, (hidden,)),
            "out_weights": (self.out_weights, (2 * hidden,)),
        }
        for name, (array, shape) in expected.items():
            if array.dtype != np.int16 or array.shape != shape:
                raise NnueError(
                    f"{name} is {array.dtype} {tuple(array.shape)}: expected int16 {shape}"
                )
        if not -(2**31) <= self.out_bias < 2**31:
            raise NnueError(f"the output bias {self.out_bias} does not fit in 32 bits")

    @property
    def hidden(self) -> int:
        """The width of each accumulator."""
        return int(self.ft_bias.shape[0])


def feature(perspective: int, colour: int, piece: int, square: int) -> int:
    """The input index of a piece (see the module's doc)."""
    side = 0 if colour == perspective else 1
    return (side * 6 + piece) * 64 + (square if perspective == 0 else square ^ 56)


def features(board: chess.Board, perspective: int) -> list[int]:
    """The active inputs of ``board`` seen by ``perspective`` (0 White, 1 Black), sorted."""
    found = []
    for square, piece in board.piece_map().items():
        colour = 0 if piece.color == chess.WHITE else 1
        found.append(feature(perspective, colour, piece.piece_type - 1, square))
    return sorted(found)


def accumulator(network: Network, active: list[int]) -> NDArray[np.int32]:
    """The accumulator of the active inputs, recomputed (wide integers: no overflow hidden)."""
    total = network.ft_bias.astype(np.int32)
    if active:
        total = total + network.ft_weights[active].astype(np.int32).sum(axis=0)
    return total


def evaluate(network: Network, board: chess.Board) -> int:
    """The network's value of ``board`` in centipawns from the side to move, recomputed from
    scratch: the reference for the kernel's incremental one (which must give the same integer)."""
    us = 0 if board.turn == chess.WHITE else 1
    hidden = network.hidden
    mine = np.clip(accumulator(network, features(board, us)), 0, QA).astype(np.int64)
    theirs = np.clip(accumulator(network, features(board, 1 - us)), 0, QA).astype(np.int64)
    weights = network.out_weights.astype(np.int64)
    total = int(mine @ weights[:hidden] + theirs @ weights[hidden:]) + network.out_bias
    return _to_centipawns(total)


def _to_centipawns(total: int) -> int:
    """Integer division towards zero, as the kernel does it."""
    scaled = total * SCALE
    value = abs(scaled) // (QA * QB)
    return value if scaled >= 0 else -value


def quantise(
    ft_weights: NDArray[np.floating],
    ft_bias: NDArray[np.floating],
    out_weights: NDArray[np.floating],
    out_bias: float,
    meta: dict[str, object] | None = None,
) -> Network:
    """The quantised network of float weights (the float network's output times ``SCALE`` is
    centipawns; its hidden activations are clipped to [0, 1])."""

    def to_int16(values: NDArray[np.floating], scale: int) -> Int16s:
        scaled = np.rint(np.asarray(values, dtype=np.float64) * scale)
        return np.clip(scaled, -32768, 32767).astype(np.int16)

    return Network(
        to_int16(ft_weights, QA),
        to_int16(ft_bias, QA),
        to_int16(out_weights, QB),
        round(float(out_bias) * QA * QB),
        dict(meta or {}),
    )


def save(network: Network, path: str | Path) -> None:
    """Write ``network`` to ``path`` (a compressed ``.npz``)."""
    meta = dict(
        network.meta,
        format=FORMAT,
        version=VERSION,
        hidden=network.hidden,
        qa=QA,
        qb=QB,
        scale=SCALE,
    )
    blob = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    np.savez_compressed(
        path,
        allow_pickle=False,
        meta=blob,
        ft_weights=network.ft_weights,
        ft_bias=network.ft_bias,
        out_weights=network.out_weights,
        out_bias=np.array([network.out_bias], dtype=np.int32),
    )


def load(path: str | Path) -> Network:
    """The network saved at ``path``; a file that is not one raises :class:`NnueError` in one
    line that says what is wrong."""
    where = Path(path)
    try:
        with np.load(where, allow_pickle=False) as data:
            names = set(data.files)
            wanted = {"meta", "ft_weights", "ft_bias", "out_weights", "out_bias"}
            if not wanted <= names:
                missing = ", ".join(sorted(wanted - names))
                raise NnueError(f"{where}: not a zermelo chess network (it has no {missing})")
            unpacked = sum(entry.file_size for entry in data.zip.infolist())
            if unpacked > MAX_UNPACKED:
                raise NnueError(
                    f"{where}: unpacks to {unpacked:,} bytes, more than a network of "
                    f"{MAX_HIDDEN} hidden units ({MAX_UNPACKED:,})"
                )
            meta = json.loads(bytes(data["meta"]).decode("utf-8"))
            arrays = {name: data[name] for name in wanted - {"meta"}}
    except FileNotFoundError:
        raise NnueError(f"{where}: no such network file") from None
    except IsADirectoryError:
        raise NnueError(f"{where}: a directory, not a network file") from None
    except NnueError:
        raise
    except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as error:
        raise NnueError(f"{where}: not a zermelo chess network ({type(error).__name__})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise NnueError(f"{where}: not a zermelo chess network (format {FORMAT!r} expected)")
    scales = {"version": VERSION, "qa": QA, "qb": QB, "scale": SCALE}
    for name, value in scales.items():
        if meta.get(name) != value:
            raise NnueError(f"{where}: {name} is {meta.get(name)!r}, this engine reads {value}")
    bias = arrays["out_bias"]
    if bias.dtype != np.int32 or bias.shape != (1,):
        raise NnueError(
            f"{where}: out_bias is {bias.dtype} {tuple(bias.shape)}: expected int32 (1,)"
        )
    provenance = {k: v for k, v in meta.items() if k not in {*scales, "format", "hidden"}}
    try:
        return Network(
            arrays["ft_weights"],
            arrays["ft_bias"],
            arrays["out_weights"],
            int(bias[0]),
            provenance,
        )
    except NnueError as error:
        raise NnueError(f"{where}: {error}") from None
