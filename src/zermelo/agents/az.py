"""The learned player: a policy-value net, evaluated with numpy alone, guiding PUCT.

A net trained by :mod:`zermelo.learn` (PyTorch) is exported to an ``.npz`` file: its arrays (the
batch norms folded into the convolutions) and a JSON ``meta`` entry saying which game and rule
options it was trained for, its shape and how it was trained. :class:`Net` evaluates it here with
numpy, so ``pip install zermelo`` plays it without PyTorch.

What the net sees (:func:`encode`): the board of the game's :class:`~zermelo.core.codec.Codec`
from the side to move, one plane per kind of piece, the mover's own pieces first, then a plane of
ones (so the convolutions, padded with zeros, can tell the edge of the board). What it says: a
logit for each action (a move written as one token of the codec: Connect Four's column,
tic-tac-toe's cell), turned into priors over the legal moves by a softmax, and a value in [-1, 1]
from the side to move (tanh).

The network: a 3x3 convolution to ``channels`` planes, ``blocks`` residual blocks of two 3x3
convolutions, then AlphaZero's two heads: a 1x1 convolution to 2 planes and a linear layer to the
actions (policy); a 1x1 convolution to 1 plane, a hidden layer and tanh (value).

:class:`AzAgent` searches with :func:`zermelo.search.puct.puct_search` guided by a net (the
arena's ``az:sims=N``).
"""

from __future__ import annotations

import json
import math
import random
import zipfile
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from zermelo.core.capabilities import PolicyValue
from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError
from zermelo.core.record import GameSpec
from zermelo.core.result import SearchResult
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.search.puct import MAX_SIMULATIONS, Evaluate, puct_search

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Floats = NDArray[np.float32]

__all__ = [
    "AzAgent",
    "Encoder",
    "Net",
    "NetError",
    "ShippedNet",
    "encode",
    "learnable",
    "shipped_net",
]

FORMAT = 1
"""The version of the ``.npz`` layout :meth:`Net.load` reads."""

NETS = Path(__file__).with_name("nets")
"""Where the nets shipped in the package live."""


class NetError(InvalidOptionError):
    """A net file that cannot be used: missing, unreadable, not a net, or for another game."""


@dataclass(frozen=True)
class Encoder:
    """How one game's states become the net's input planes and its moves the net's actions."""

    spec: GameSpec
    codec: Codec

    @property
    def marks(self) -> tuple[str, str]:
        return self.codec.pieces

    def shape(self, state: AnyState) -> tuple[int, int, int]:
        rows = self.codec.rows(state)
        return 2 * len(self.codec.pieces[0]) + len(self.codec.shared) + 1, len(rows), len(rows[0])

    def actions(self, state: AnyState) -> int:
        return self.codec.count(state)

    def action(self, move: Hashable) -> int:
        """The net's action for ``move``: its one token."""
        tokens = (
            self.codec.tokens(move)
            if self.codec.tokens is not None
            else ((move,) if isinstance(move, int) else ())
        )
        if len(tokens) != 1:
            raise IllegalMoveError(
                f"move {move!r} is not one token of the game's codec: the learned player plays "
                "games whose every move is one action"
            )
        return int(tokens[0])

    def planes(self, states: Sequence[AnyState]) -> Floats:
        """The states as a ``(batch, planes, rows, columns)`` float32 array (see the module)."""
        first = states[0]
        rows = self.codec.rows(first)
        height, width = len(rows), len(rows[0])
        text = "".join("".join(self.codec.rows(state)) for state in states).encode("latin-1")
        cells = np.frombuffer(text, dtype=np.uint8)
        if cells.size != len(states) * height * width:
            raise InvalidPositionError("the positions of one batch must share one board size")
        cells = cells.reshape(len(states), height, width)
        own, other = self.codec.pieces
        first_moves = np.array([state.to_move is Player.FIRST for state in states])[:, None, None]
        planes: list[NDArray[np.bool_]] = []
        for mine, theirs in ((own, other), (other, own)):
            for a, b in zip(mine, theirs, strict=True):
                planes.append(np.where(first_moves, cells == ord(a), cells == ord(b)))
        for mark in self.codec.shared:
            planes.append(cells == ord(mark))
        planes.append(np.ones_like(cells, dtype=np.bool_))
        return np.stack(planes, axis=1).astype(np.float32)


def learnable(spec: GameSpec) -> Encoder:
    """The encoder of ``spec``'s game, or a one-line error when the net cannot learn it."""
    if spec.codec is None:
        raise InvalidOptionError(
            f"game {spec.name!r} has no board encoding (codec), so no net can see it"
        )
    if spec.chance or spec.hidden:
        raise InvalidOptionError(
            f"game {spec.name!r} has dice or hidden cards: the learned player plays games of "
            "perfect information without chance"
        )
    encoder = Encoder(spec, spec.codec)
    start = spec.new()
    for move in start.legal_moves():
        encoder.action(move)
    return encoder


def encode(spec: GameSpec, states: Sequence[AnyState]) -> Floats:
    """The input planes of ``states`` of ``spec``'s game."""
    return learnable(spec).planes(states)


def _conv3(x: Floats, weight: Floats, bias: Floats) -> Floats:
    """A 3x3 convolution with zero padding of NHWC ``x``; ``weight`` is (9 * in, out)."""
    batch, height, width, channels = x.shape
    padded = np.zeros((batch, height + 2, width + 2, channels), dtype=np.float32)
    padded[:, 1:-1, 1:-1, :] = x
    columns = np.concatenate(
        [padded[:, dy : dy + height, dx : dx + width, :] for dy in range(3) for dx in range(3)],
        axis=3,
    )
    out = columns.reshape(batch * height * width, 9 * channels) @ weight + bias
    return cast("Floats", out.reshape(batch, height, width, -1))


def _relu(x: Floats) -> Floats:
    return cast("Floats", np.maximum(x, 0, out=x))


class Net:
    """A trained policy-value net, evaluated with numpy (a :class:`PolicyValue`)."""

    def __init__(self, arrays: Mapping[str, Floats], meta: Mapping[str, object]) -> None:
        self.arrays = {
            name: np.ascontiguousarray(a, dtype=np.float32) for name, a in arrays.items()
        }
        self.meta = dict(meta)
        game = str(meta.get("game", ""))
        try:
            self.spec: GameSpec = get_game(game)
        except Exception as error:  # an unknown game name: the file is for no game here
            raise NetError(f"the net is for game {game!r}, which zermelo does not have") from error
        self.encoder = learnable(self.spec)
        self.blocks = int(cast(int, meta.get("blocks", 0)))
        self.description = str(meta.get("description", f"a net for {self.spec.title}"))
        self.options = dict(cast(Mapping[str, object], meta.get("options", {})))
        shape = cast(Sequence[int], meta.get("shape", ()))
        self.shape = tuple(int(v) for v in shape)
        self.actions = int(cast(int, meta.get("actions", 0)))
        needed = ["stem.w", "stem.b", "policy.conv.w", "policy.conv.b", "policy.fc.w"]
        needed += ["policy.fc.b", "value.conv.w", "value.conv.b", "value.fc1.w", "value.fc1.b"]
        needed += ["value.fc2.w", "value.fc2.b"]
        needed += [f"block{i}.{j}.{p}" for i in range(self.blocks) for j in (1, 2) for p in "wb"]
        missing = [name for name in needed if name not in self.arrays]
        if missing or len(self.shape) != 3 or self.actions < 1:
            raise NetError(f"not a zermelo net: {', '.join(missing) or 'its shape'} missing")

    @property
    def game(self) -> str:
        return self.spec.name

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """The net saved at ``path`` (an ``.npz`` written by :func:`zermelo.learn` or :meth:`save`)."""
        where = Path(path)
        try:
            with np.load(where, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files if name != "meta"}
                if "meta" not in data.files:
                    raise NetError(f"{where}: not a zermelo net (it has no meta entry)")
                meta = json.loads(bytes(data["meta"]).decode("utf-8"))
        except FileNotFoundError:
            raise NetError(f"{where}: no such net file") from None
        except NetError:
            raise
        except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as error:
            raise NetError(f"{where}: not a zermelo net ({type(error).__name__})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise NetError(f"{where}: not a zermelo net of format {FORMAT}")
        try:
            return cls(arrays, meta)
        except InvalidOptionError as error:  # NetError, or a game no net can learn
            raise NetError(f"{where}: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the net to ``path`` (float16 where that loses nothing the play needs)."""
        meta = dict(self.meta, format=FORMAT)
        blob = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8)
        arrays: dict[str, NDArray[np.generic]] = {"meta": blob}
        arrays.update((name, a.astype(np.float16)) for name, a in self.arrays.items())
        np.savez_compressed(path, allow_pickle=False, **arrays)

    def forward(self, planes: Floats) -> tuple[Floats, Floats]:
        """Policy logits ``(batch, actions)`` and values ``(batch,)`` of input planes
        ``(batch, planes, rows, columns)``."""
        a = self.arrays
        x = np.ascontiguousarray(planes.transpose(0, 2, 3, 1))
        batch, height, width, _ = x.shape
        x = _relu(_conv3(x, a["stem.w"], a["stem.b"]))
        for i in range(self.blocks):
            y = _relu(_conv3(x, a[f"block{i}.1.w"], a[f"block{i}.1.b"]))
            y = _conv3(y, a[f"block{i}.2.w"], a[f"block{i}.2.b"])
            x = _relu(cast("Floats", y + x))
        flat = x.reshape(batch * height * width, -1)
        p = _relu(cast("Floats", flat @ a["policy.conv.w"] + a["policy.conv.b"]))
        p = p.reshape(batch, height, width, -1).transpose(0, 3, 1, 2).reshape(batch, -1)
        logits = p @ a["policy.fc.w"] + a["policy.fc.b"]
        v = _relu(cast("Floats", flat @ a["value.conv.w"] + a["value.conv.b"]))
        v = v.reshape(batch, height * width)
        v = _relu(cast("Floats", v @ a["value.fc1.w"] + a["value.fc1.b"]))
        value = np.tanh(v @ a["value.fc2.w"] + a["value.fc2.b"]).reshape(batch)
        return cast("Floats", logits), cast("Floats", value)

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        """The priors over each state's legal moves and its value (see :class:`PolicyValue`)."""
        if not states:
            return []
        planes = self.encoder.planes(states)
        if tuple(planes.shape[1:]) != self.shape:
            raise InvalidPositionError(
                f"this net plays a board of {self.shape[1]}x{self.shape[2]}, not "
                f"{planes.shape[2]}x{planes.shape[3]}"
            )
        logits, values = self.forward(planes)
        return [
            (
                softmax_over(logits[i], [self.encoder.action(m) for m in state.legal_moves()]),
                float(v),
            )
            for i, (state, v) in enumerate(zip(states, values, strict=True))
        ]


def softmax_over(logits: Floats, actions: Sequence[int]) -> list[float]:
    """The softmax of ``logits`` restricted to ``actions``, in their order."""
    if not actions:
        return []
    chosen = [float(logits[a]) for a in actions]
    top = max(chosen)
    weights = [math.exp(x - top) for x in chosen]
    total = sum(weights)
    return [w / total for w in weights]


class ShippedNet:
    """A net shipped in the package, loaded on first use (a record's ``learned`` field)."""

    def __init__(self, filename: str, description: str) -> None:
        self.filename = filename
        self.description = description
        self._net: Net | None = None

    @property
    def path(self) -> Path:
        return NETS / self.filename

    def net(self) -> Net:
        if self._net is None:
            self._net = Net.load(self.path)
        return self._net

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        return self.net().evaluate(states)


def shipped_net(spec: GameSpec) -> PolicyValue[AnyState] | None:
    """The net shipped for ``spec``'s game, or ``None`` when it has none."""
    if spec.learned is None:
        return None
    return spec.learned.resolve()


CONNECT4 = ShippedNet("connect4.npz", "a net trained by self-play for Connect Four (7x6)")
TICTACTOE = ShippedNet("tictactoe.npz", "a net trained by self-play for tic-tac-toe")


class AzAgent:
    """Plays with ``sims`` PUCT simulations guided by ``net`` (no noise; deterministic for a
    seed: the search draws nothing at random, the seed only breaks nothing)."""

    def __init__(
        self,
        net: PolicyValue[AnyState],
        sims: int = 200,
        seed: int | None = None,
        c_puct: float = 1.5,
    ) -> None:
        if not 1 <= sims <= MAX_SIMULATIONS:
            raise InvalidOptionError(f"sims={sims}: expected 1 to {MAX_SIMULATIONS}")
        self.net = net
        self.sims = sims
        self.c_puct = c_puct
        self.rng = random.Random(seed)
        self.name = f"az:sims={sims}"
        self._last: SearchResult[Hashable] | None = None

    def choose(self, state: AnyState) -> Hashable:
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        evaluate: Evaluate = self.net.evaluate
        result = puct_search(state, evaluate, self.sims, c_puct=self.c_puct, rng=self.rng)
        self._last = result
        assert result.move is not None
        return result.move

    @property
    def last(self) -> SearchResult[Hashable] | None:
        """The search behind the last move (:class:`~zermelo.agents.base.Reports`): its value
        is the net-guided mean value in [-1, 1], its ``nodes`` the simulations."""
        return self._last
