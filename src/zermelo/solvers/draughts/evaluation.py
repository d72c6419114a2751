"""The draughts evaluation, term by term: f(s) = w1*x1 + ... + wn*xn, tapered by the phase.

Each feature ``xi`` is counted for White minus the same for Black, from masks built here from the
game's :class:`~zermelo.games.draughts.rules.Rules` (its squares' coordinates, rows and crowning
rows), so one evaluation serves international draughts (diagonal, 10x10) and Turkish dama
(orthogonal, every square of 8x8). Each term has a middle-game and an endgame weight
(:mod:`zermelo.solvers.draughts.weights`), blended by ``phase``, the share of the starting pieces
still on the board: the weight of term i is ``mg_i * phase + eg_i * (1 - phase)``. Values are in
hundredths of a man; the compiled kernel (:func:`zermelo.solvers.draughts.search.evaluate`) sums
them in the search, and :data:`EXPLAINER` shows them one by one, in men.

The terms (see :data:`TERMS`):

1. men, 2. kings (a king's worth): material;
3. tempo: the rows the men have advanced, summed;
4. back row: men still on their own back row (development kept back guards the crowning squares);
5. centre: men on the central squares;
6. outposts: men in the far half covered from behind by their own men;
7. locked men: men that have no free square to step to;
8. breakthroughs: men within three rows of crowning that still have an enemy in front;
9. running men: men in the far half with no enemy piece ahead in the widening path to their
   crowning row, counted by the rows they have advanced.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from zermelo.core.capabilities import Breakdown, Term
from zermelo.core.errors import InvalidPositionError, ParseError
from zermelo.core.jit import IntArray
from zermelo.core.state import Player
from zermelo.solvers.draughts import search as kernel
from zermelo.solvers.draughts.weights import DEFAULT_WEIGHTS

if TYPE_CHECKING:
    from zermelo.games.draughts.rules import Rules

__all__ = [
    "EXPLAINER",
    "TERMS",
    "DraughtsExplainer",
    "DraughtsLike",
    "default_weights",
    "explain",
    "flat_weights",
    "geometry",
    "position_of",
    "read_weights",
    "weight_names",
    "weights_json",
]


def N_(message: str) -> str:  # noqa: N802 - the name the catalogs' extraction looks for
    return message


TERMS: Final[tuple[tuple[str, str], ...]] = (
    (N_("men"), N_("men on the board")),
    (N_("kings"), N_("kings on the board")),
    (N_("tempo"), N_("rows the men have advanced, summed")),
    (N_("back row"), N_("men still guarding their own back row")),
    (N_("centre"), N_("men on the central squares")),
    (N_("outposts"), N_("men in the far half covered from behind")),
    (N_("locked men"), N_("men with no free square to step to")),
    (N_("breakthroughs"), N_("men near crowning with an enemy still in front")),
    (N_("running men"), N_("men with a free path to crowning, by rows advanced")),
)
"""Name and description of each term, in the kernel's order (``search.F_*``)."""

assert len(TERMS) == kernel.N_TERMS


def weight_names() -> list[str]:
    """The names of the weights in a weights file: each term's middle-game and endgame weight."""
    names = []
    for name, _ in TERMS:
        names += [f"{name} (middle game)", f"{name} (endgame)"]
    return names


def default_weights(game: str) -> tuple[float, ...]:
    """The shipped weights of ``game`` (its registry name), flat: mg, eg of each term."""
    return flat_weights(DEFAULT_WEIGHTS[game])


def flat_weights(pairs: Sequence[tuple[float, float]]) -> tuple[float, ...]:
    return tuple(float(w) for pair in pairs for w in pair)


def _word(value: int, compiled: bool) -> int:
    value &= (1 << 64) - 1
    if compiled and value >= 1 << 63:
        return value - (1 << 64)
    return value


def _mask(squares: Sequence[int | None]) -> int:
    mask = 0
    for sq in squares:
        if sq is not None:
            mask |= 1 << sq
    return mask


def _start_pieces(rules: Rules) -> int:
    """Pieces on the board at the start: two full rows a side when every square is playable
    (dama), else the rows below the two middle ones, half of each row playable."""
    half = rules.size // 2
    if rules.squares == rules.size * rules.size:
        return 4 * rules.size
    return 2 * (half - 1) * half


def geometry_values(rules: Rules) -> list[int]:
    """The geometry array's values (masks as non-negative ints); see ``search.G_*``."""
    values = [0] * kernel.GEO_SIZE
    size = rules.size
    orthogonal = rules.squares == size * size
    half = size // 2
    for side in (0, 1):
        forward = -1 if side == 0 else 1  # White moves up the board (towards row 0)
        for sq in range(rules.squares):
            row, col = rules.coords(sq)
            at = side * 64 + sq
            values[kernel.G_RANK + at] = rules.rank_of(sq, side)
            if orthogonal:
                steps = [(forward, 0), (0, -1), (0, 1)]
                behind = [(-forward, 0)]
            else:
                steps = [(forward, -1), (forward, 1)]
                behind = [(-forward, -1), (-forward, 1)]
            values[kernel.G_STEP + at] = _mask([rules.at(row + dr, col + dc) for dr, dc in steps])
            values[kernel.G_SUPPORT + at] = _mask(
                [rules.at(row + dr, col + dc) for dr, dc in behind]
            )
            cone = []
            for ahead in range(1, size):
                for dc in range(-ahead, ahead + 1):
                    cone.append(rules.at(row + forward * ahead, col + dc))
            values[kernel.G_CONE + at] = _mask(cone)
    centre_rows = (half - 1, half)
    values[kernel.G_CENTRE] = _mask(
        [
            sq
            for sq in range(rules.squares)
            if rules.coords(sq)[0] in centre_rows and 2 <= rules.coords(sq)[1] <= size - 3
        ]
    )
    values[kernel.G_PROMOTION] = rules.promotion[0]
    values[kernel.G_PROMOTION + 1] = rules.promotion[1]
    values[kernel.G_BACK] = _mask([sq for sq in range(rules.squares) if rules.rank_of(sq, 0) == 0])
    values[kernel.G_BACK + 1] = _mask(
        [sq for sq in range(rules.squares) if rules.rank_of(sq, 1) == 0]
    )
    values[kernel.G_SIZE] = size
    values[kernel.G_PIECES] = _start_pieces(rules)
    rng = random.Random(24_000 + rules.squares)
    for i in range(4 * 64 + 1):
        values[kernel.G_ZOBRIST + i] = rng.getrandbits(64)
    return values


_MASK_SLOTS: Final = frozenset(
    (
        kernel.G_CENTRE,
        kernel.G_PROMOTION,
        kernel.G_PROMOTION + 1,
        kernel.G_BACK,
        kernel.G_BACK + 1,
        *range(kernel.G_STEP, kernel.G_CENTRE),
        *range(kernel.G_ZOBRIST, kernel.GEO_SIZE),
    )
)


def geometry(rules: Rules, compiled: bool) -> IntArray:
    """The geometry array for a kernel copy: an int64 numpy array (masks as signed words) when
    ``compiled``, else a list of ints."""
    values = geometry_values(rules)
    if not compiled:
        return values
    import numpy as np

    words = [_word(v, True) if i in _MASK_SLOTS else v for i, v in enumerate(values)]
    return np.array(words, dtype=np.int64)


@runtime_checkable
class DraughtsLike(Protocol):
    """What the engine reads of a draughts state (``InternationalState``, ``DamaState``): the
    masks of 0-based squares, the side to move, and the mapping of the move generator's triples
    to the game's moves; its class holds ``RULES``."""

    @property
    def white(self) -> int: ...

    @property
    def black(self) -> int: ...

    @property
    def kings(self) -> int: ...

    @property
    def to_move(self) -> Player: ...

    def from_kernel(self, from_sq: int, to_sq: int, captured: int) -> Hashable: ...

    def play(self, move: Hashable) -> DraughtsLike: ...

    def is_terminal(self) -> bool: ...


def position_of(state: object) -> tuple[Rules, int, int, int, int]:
    """The rules, masks and side to move (0 White, 1 Black) of a draughts state: any
    :class:`DraughtsLike` state whose class has ``RULES``."""
    rules = getattr(type(state), "RULES", None)
    if rules is None or not isinstance(state, DraughtsLike):
        raise InvalidPositionError(
            f"the draughts engine plays international draughts and dama, not {type(state).__name__}"
        )
    side = 0 if int(state.to_move) == 0 else 1
    return rules, int(state.white), int(state.black), int(state.kings), side


def read_weights(path: str, game: str) -> tuple[float, ...]:
    """The weights of a file ``zermelo tune`` wrote for ``game``; anything else is one
    :class:`ParseError` line (:mod:`zermelo.solvers._weights`)."""
    from zermelo.solvers._weights import read_named_weights

    names = weight_names()
    weights, _label = read_named_weights(path, game, names)
    return tuple(weights[name] for name in names)


def weights_json(game: str, weights: Sequence[float]) -> str:
    """The weights file :func:`read_weights` reads back."""
    from zermelo.solvers._weights import weights_text

    names = weight_names()
    if len(weights) != len(names):
        raise ParseError(f"expected {len(names)} weights, got {len(weights)}")
    return weights_text(game, dict(zip(names, (float(w) for w in weights), strict=True)))


def explain(
    rules: Rules,
    white: int,
    black: int,
    kings: int,
    side: int,
    weights: Sequence[float] | None = None,
) -> Breakdown:
    """The evaluation of a position term by term, from the side to move, in men: each term's
    value (the side to move's count minus the other's), its weight at this phase (men per unit)
    and, as total, the kernel's own evaluation (which the contributions sum to, to its rounding
    of a hundredth)."""
    from zermelo.solvers.draughts.engine import DraughtsEngine

    engine = DraughtsEngine(rules, weights=weights, hash_mb=1)
    features = engine.features(white, black, kings, side)
    score = engine.evaluate(white, black, kings, side)
    flat = engine.weights
    middle = features[kernel.F_PHASE]
    sign = 1.0 if side == 0 else -1.0
    terms = tuple(
        Term(
            name,
            description,
            sign * features[i] + 0.0,
            (flat[2 * i] * middle + flat[2 * i + 1] * (1.0 - middle)) / 100.0,
        )
        for i, (name, description) in enumerate(TERMS)
    )
    return Breakdown(terms, score / 100.0, decimals=2)


class DraughtsExplainer:
    """The record's :class:`~zermelo.core.capabilities.Explainer` for both draughts games: the
    game is read from ``type(state).RULES``."""

    def explain(self, state: object, weights: str | None) -> Breakdown:
        rules, white, black, kings, side = position_of(state)
        chosen = None if weights is None else read_weights(weights, rules.name)
        return explain(rules, white, black, kings, side, chosen)


EXPLAINER: Final = DraughtsExplainer()
