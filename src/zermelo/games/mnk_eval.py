"""Evaluation functions for m,n,k games as first-class objects: named features with weights.

An :class:`Evaluation` scores a position from the side to move as ``f(s) = w1*x1 + ... + wn*xn``.
The features count the board's lines by threat class (see :mod:`zermelo.games.mnk_lines`), once
for the side to move ("own") and once for the other side ("opp"): ``own_open_four``, ``own_four``,
``own_open_three``, ``own_three``, ``own_open_two``, ``own_two`` and the same six for ``opp``. A
line counts once per side, in its highest class. Separate weights for both sides let the
evaluation price the initiative: an own four, with the move, is worth more than the opponent's.

Weights are plain data: :meth:`Evaluation.to_json` / :meth:`Evaluation.from_json`. The default
weights are :data:`DEFAULT_WEIGHTS`; :mod:`zermelo.solvers.gomoku_tuning` refits them and saves
the result as a JSON file.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from zermelo.core.errors import ParseError
from zermelo.core.jsontext import load_json
from zermelo.core.scores import EVAL_LIMIT
from zermelo.core.state import Player
from zermelo.games.mnk_lines import (
    CLASS_NAMES,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    THREE,
    board_lines,
    line_table,
)
from zermelo.games.mnk_rules import Rules

__all__ = [
    "DEFAULT_WEIGHTS",
    "FEATURE_CLASSES",
    "FEATURE_DESCRIPTIONS",
    "FEATURE_NAMES",
    "Breakdown",
    "BreakdownRow",
    "Evaluation",
    "Position",
    "class_counts",
    "default_evaluation",
    "explain",
    "feature_vector",
    "weights_from_vector",
]

FEATURE_CLASSES: Final = (OPEN_FOUR, FOUR, OPEN_THREE, THREE, 4, 3)
"""The line classes that are features, strongest first (open four ... two)."""

FEATURE_NAMES: Final = tuple(
    f"{side}_{CLASS_NAMES[c]}" for side in ("own", "opp") for c in FEATURE_CLASSES
)
_SIDE_WORDS: Final = {"own": "side to move", "opp": "other side"}
_CLASS_WORDS: Final = {
    OPEN_FOUR: "open fours (two points complete the row)",
    FOUR: "fours (one point completes the row)",
    OPEN_THREE: "open threes (one move makes an open four)",
    THREE: "threes (one move makes a four)",
    4: "open twos (one move makes an open three)",
    3: "twos (one move makes a three)",
}
FEATURE_DESCRIPTIONS: Final = {
    f"{side}_{CLASS_NAMES[c]}": f"lines with {_CLASS_WORDS[c]}, {_SIDE_WORDS[side]}"
    for side in ("own", "opp")
    for c in FEATURE_CLASSES
}
FORMAT_VERSION: Final = 1

DEFAULT_WEIGHTS: Final = {
    "own_open_four": 20000.0,
    "own_four": 5000.0,
    "own_open_three": 1500.0,
    "own_three": 120.0,
    "own_open_two": 60.0,
    "own_two": 12.0,
    "opp_open_four": -20000.0,
    "opp_four": -3000.0,
    "opp_open_three": -900.0,
    "opp_three": -100.0,
    "opp_open_two": -50.0,
    "opp_two": -10.0,
}
"""The shipped weights ("handmade"): what :func:`default_evaluation` weighs."""


class Position(Protocol):
    """What an evaluation reads of an m,n,k position (:class:`zermelo.games.mnk.MnkState`)."""

    @property
    def x(self) -> int: ...
    @property
    def o(self) -> int: ...
    @property
    def to_move(self) -> Player: ...
    @property
    def rules(self) -> Rules: ...


@dataclass(frozen=True, slots=True)
class BreakdownRow:
    """One feature's part in an evaluation: ``contribution = value * weight``."""

    name: str
    description: str
    value: float
    weight: float
    contribution: float


@dataclass(frozen=True, slots=True)
class Breakdown:
    """An evaluation explained: one row per feature and the total (from the side to move).

    ``total`` is the sum of the contributions clamped inside ``±EVAL_LIMIT``, i.e. exactly what
    :meth:`Evaluation.evaluate` returns."""

    rows: tuple[BreakdownRow, ...]
    total: float
    to_move: str


def class_counts(state: Position) -> tuple[list[int], list[int]]:
    """For X and for O, the number of the board's lines in each class (index = class, 0-9);
    the same counts the engine keeps incrementally."""
    rules = state.rules
    table = line_table(rules.k, rules.exact)
    counts = ([0] * 10, [0] * 10)
    x, o = state.x, state.o
    taken = x | o
    for points, mask in _line_masks(rules):
        if not taken & mask:
            # An empty line: "none" for k >= 4, but with k <= 3 already a two or better.
            empty = table.info(len(points), 0, 0)
            counts[0][empty.cls[0]] += 1
            counts[1][empty.cls[1]] += 1
            continue
        lx = lo = 0
        for i, p in enumerate(points):
            if x >> p & 1:
                lx |= 1 << i
            elif o >> p & 1:
                lo |= 1 << i
        info = table.info(len(points), lx, lo)
        counts[0][info.cls[0]] += 1
        counts[1][info.cls[1]] += 1
    return counts


@functools.lru_cache(maxsize=16)
def _line_masks(rules: Rules) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple((points, sum(1 << p for p in points)) for points in board_lines(rules))


class Evaluation:
    """Named features with weights; ``evaluate(state)`` is their weighted sum from the side to move.

    Immutable: :meth:`with_weights` makes a new one. Equal names and weights compare equal.
    """

    __slots__ = ("_weights", "name")

    def __init__(self, weights: Mapping[str, object], name: str = "custom") -> None:
        missing = [f for f in FEATURE_NAMES if f not in weights]
        unknown = [f for f in weights if f not in FEATURE_NAMES]
        if missing or unknown:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if unknown:
                parts.append(f"unknown {', '.join(map(repr, unknown))}")
            raise ParseError(
                f"invalid weights ({'; '.join(parts)}): expected exactly the features "
                f"{', '.join(FEATURE_NAMES)}"
            )
        checked = {feature: _finite(feature, weight) for feature, weight in weights.items()}
        self._weights = tuple(checked[f] for f in FEATURE_NAMES)
        self.name = name

    @property
    def features(self) -> tuple[str, ...]:
        return FEATURE_NAMES

    @property
    def weights(self) -> dict[str, float]:
        return dict(zip(FEATURE_NAMES, self._weights, strict=True))

    @property
    def weight_vector(self) -> tuple[float, ...]:
        """The weights in :data:`FEATURE_NAMES` order."""
        return self._weights

    def side_weights(self) -> tuple[list[float], list[float]]:
        """Weights indexed by line class (0-9): for the side to move and for the other side.

        Classes that are not features weigh 0; search engines use this to update scores
        incrementally."""
        own = [0.0] * 10
        opp = [0.0] * 10
        n = len(FEATURE_CLASSES)
        for i, c in enumerate(FEATURE_CLASSES):
            own[c] = self._weights[i]
            opp[c] = self._weights[n + i]
        return own, opp

    def with_weights(self, weights: Mapping[str, float], name: str | None = None) -> Evaluation:
        merged = self.weights
        merged.update(weights)
        return Evaluation(merged, self.name if name is None else name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self._weights == other._weights and self.name == other.name

    def __hash__(self) -> int:
        return hash((self._weights, self.name))

    def __repr__(self) -> str:
        return f"Evaluation({self.weights!r}, name={self.name!r})"

    # -- evaluating -------------------------------------------------------------------------

    def feature_vector(self, state: Position) -> tuple[int, ...]:
        """The feature values of ``state`` in :data:`FEATURE_NAMES` order, own side = to move."""
        return feature_vector(state)

    def evaluate(self, state: Position) -> float:
        """``w1*x1 + ... + wn*xn`` from the side to move, clamped inside ``±EVAL_LIMIT``."""
        total = math.fsum(w * x for w, x in zip(self._weights, feature_vector(state), strict=True))
        return _clamp(total)

    __call__ = evaluate

    def breakdown(self, state: Position) -> Breakdown:
        """Each feature's value, weight and contribution, and the total (for ``explain``)."""
        values = feature_vector(state)
        rows = tuple(
            BreakdownRow(name, FEATURE_DESCRIPTIONS[name], float(v), w, v * w)
            for name, v, w in zip(FEATURE_NAMES, values, self._weights, strict=True)
        )
        total = _clamp(math.fsum(row.contribution for row in rows))
        return Breakdown(rows, total, "x" if state.to_move == 0 else "o")

    # -- storage ----------------------------------------------------------------------------

    def to_json(self) -> str:
        data = {"format": FORMAT_VERSION, "name": self.name, "weights": self.weights}
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> Evaluation:
        """Read weights written by :meth:`to_json`; errors quote what was wrong."""
        data = load_json(text, "weights file")
        weights = data.get("weights") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(weights, dict):
            raise ParseError(
                f"invalid weights file {_preview(_text(text))!r}: expected an object with a 'weights' "
                "object mapping feature names to numbers"
            )
        name = data.get("name", "custom")
        return cls(weights, str(name))


def _finite(feature: str, weight: object) -> float:
    """``weight`` as a float; :class:`ParseError` unless it is a finite number (not a bool)."""
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight):
        raise ParseError(f"invalid weight {weight!r} for {feature!r}: expected a finite number")
    return float(weight)


def _text(text: str | bytes) -> str:
    return text if isinstance(text, str) else text.decode("utf-8", "replace")


def _preview(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _clamp(total: float) -> float:
    limit = EVAL_LIMIT - 1
    return float(max(-limit, min(limit, total)))


def feature_vector(state: Position) -> tuple[int, ...]:
    """The features of ``state`` (see the module docstring), own side = side to move."""
    counts = class_counts(state)
    own = counts[int(state.to_move)]
    opp = counts[1 - int(state.to_move)]
    return tuple(own[c] for c in FEATURE_CLASSES) + tuple(opp[c] for c in FEATURE_CLASSES)


def explain(state: Position, evaluation: Evaluation | None = None) -> Breakdown:
    """The breakdown of ``state``'s evaluation (default weights unless ``evaluation`` is given):
    one row per feature with its value, weight and contribution, and the total."""
    return (default_evaluation() if evaluation is None else evaluation).breakdown(state)


@functools.cache
def default_evaluation() -> Evaluation:
    """The shipped weights, :data:`DEFAULT_WEIGHTS`."""
    return Evaluation(DEFAULT_WEIGHTS, "handmade")


def weights_from_vector(vector: Sequence[float], name: str) -> Evaluation:
    """An evaluation from weights in :data:`FEATURE_NAMES` order."""
    return Evaluation(dict(zip(FEATURE_NAMES, (float(v) for v in vector), strict=True)), name)
