"""Weights files, as ``zermelo tune`` writes them and ``--weights FILE`` reads them: one JSON
object naming the game (``"game"``), the format and each weight by name (``"weights"``).

Every refusal is one :class:`~zermelo.core.errors.ParseError` line that names the file and never
quotes its bytes: a file that cannot be read, is not UTF-8 JSON, is for another game, or does
not hold one number for each weight the game has.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

from zermelo.core.errors import N_, ParseError

__all__ = ["MAX_BYTES", "read_named_weights", "weights_text"]

MAX_BYTES = 1 << 20
"""A weights file is a few hundred bytes; anything over this is not one."""

FORMAT = 1
"""The version of the weights files written."""


def weights_text(game: str, weights: Mapping[str, float], name: str = "tuned") -> str:
    """The file :func:`read_named_weights` reads back for ``game``."""
    data = {
        "game": game,
        "format": FORMAT,
        "name": name,
        "weights": {key: float(value) for key, value in weights.items()},
    }
    return json.dumps(data, indent=2) + "\n"


def read_named_weights(
    path: str, game: str, names: Sequence[str], *, accepted: Sequence[str] = ()
) -> tuple[dict[str, float], str]:
    """The weights of the file ``path`` for ``game`` (or one of the ``accepted`` games that share
    its weights), as ``({name: weight}, the file's name for them)``. A file without ``"game"``
    (the older form) is read when its weights are right."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise ParseError(
            N_("cannot read weights file {path!r}: {reason}"),
            path=path,
            reason=error.strerror or type(error).__name__,
        ) from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError
        data: object = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ParseError(
            N_("{path!r} is not a weights file: expected the JSON that 'zermelo tune' writes"),
            path=path,
        ) from None
    if isinstance(data, list):
        data = {"weights": data}
    if not isinstance(data, dict):
        raise ParseError(
            N_("{path!r} is not a weights file: expected the JSON that 'zermelo tune' writes"),
            path=path,
        )
    other = data.get("game")
    if other is not None and other != game and other not in accepted:
        raise ParseError(
            N_("weights file {path!r} holds weights for {other!r}, not {game}"),
            path=path,
            other=str(other)[:40],
            game=game,
        )
    weights = data.get("weights")
    if isinstance(weights, list) and len(weights) == len(names):
        weights = dict(zip(names, weights, strict=True))
    if not (
        isinstance(weights, dict)
        and sorted(map(str, weights)) == sorted(names)
        and all(
            isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
            for w in weights.values()
        )
    ):
        raise ParseError(
            N_("weights file {path!r}: expected a number for each of: {names}"),
            path=path,
            names=", ".join(names),
        )
    label = data.get("name")
    return {name: float(weights[name]) for name in names}, str(label)[:40] if label else "custom"
