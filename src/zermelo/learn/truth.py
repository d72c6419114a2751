"""Measuring a player against the truth: held-out positions labelled with every move's exact
outcome, and the shares of them where a player's move is optimal.

Words, as the plan of :mod:`zermelo.learn` uses them:

* a move is **optimal** when it keeps the position's exact outcome (a win stays a win, a draw a
  draw). In a lost position every move keeps the loss, so lost positions are left out of both
  shares (their count is reported as ``lost``);
* a move has the **best score** when its exact score is the best the solver gives (Connect Four:
  Pascal Pons' score, which rewards a quicker win; a game without its own score: the negamax
  value of :mod:`zermelo.core.scores`, which does the same);
* the **value error** of a policy-value net is the mean of ``|v - outcome|``, with ``outcome``
  1, 0 or -1 from the side to move.

The labels come from the game's record alone: its ``exact_analysis`` capability where it has one,
else, for a ``quick`` game (every search ends in milliseconds), a search of the whole game with a
table. No game is named here; the shipped label files are found by the record's name.

Label files are text, one position a line (see :func:`read_labels`)::

    # zermelo truth labels 1
    # game connect4
    # options {}
    Test_L2_R1<TAB>2252576253462244111563365343671351441<TAB>1<TAB>1<TAB>1:-1:-3 2:1:1 ...

``group`` (the held-out set), the position in the game's notation, its outcome and score, and
each legal move as ``move:outcome:score``.
"""

from __future__ import annotations

import collections
import hashlib
import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Final, TypeAlias, cast

from zermelo.core.capabilities import ExactAnalysis, PolicyValue
from zermelo.core.errors import (
    BudgetError,
    CapabilityError,
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
)
from zermelo.core.record import GameSpec, OptionValue
from zermelo.core.result import parent_score
from zermelo.core.scores import EVAL_LIMIT, WIN
from zermelo.core.state import AnyState, Player, payoff_of

__all__ = [
    "FORMAT",
    "PLY_BUCKETS",
    "Chooser",
    "Failure",
    "Label",
    "LabelFile",
    "MoveLabel",
    "Shares",
    "Truth",
    "by_ply",
    "by_set",
    "cached_labels",
    "held_out",
    "label_lines",
    "labels_text",
    "losses",
    "measure",
    "move_shares",
    "never_loses",
    "perfect_chooser",
    "policy_chooser",
    "policy_moves",
    "random_chooser",
    "random_positions",
    "read_labels",
    "shipped_labels",
    "to_move_positions",
    "value_error",
    "write_labels",
]

FORMAT: Final = "# zermelo truth labels 1"
"""The first line of a label file."""

QUICK_NODE_LIMIT: Final = 2_000_000
"""The most positions a quick game's exact search may store before it gives up."""

BATCH: Final = 256
"""States per call of a policy-value net's ``evaluate``."""

Chooser: TypeAlias = Callable[[AnyState], Hashable]
"""A player: the move it makes in a non-terminal state."""


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


@dataclass(frozen=True, slots=True)
class MoveLabel:
    """One legal move of a labelled position: ``move`` in the game's notation, its exact
    ``outcome`` (1, 0 or -1) and ``score`` for the side that plays it."""

    move: str
    outcome: int
    score: float


@dataclass(frozen=True, slots=True)
class Label:
    """A position (``position``, in the game's notation) with its exact ``outcome`` and ``score``
    from the side to move, every legal move's (``moves``, in the order of ``legal_moves()``), and
    the held-out set it belongs to (``group``)."""

    position: str
    outcome: int
    score: float
    moves: tuple[MoveLabel, ...]
    group: str = ""
    _index: dict[str, MoveLabel] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._index.update((entry.move, entry) for entry in self.moves)

    @property
    def lost(self) -> bool:
        """True when every move loses: the position counts in no share."""
        return self.outcome < 0

    def move(self, move: str) -> MoveLabel:
        """The label of ``move`` (in notation); a move that is not legal here is an error."""
        entry = self._index.get(move)
        if entry is None:
            legal = " ".join(self._index)
            raise IllegalMoveError(
                f"move {move!r} is not legal in {self.position!r}: expected one of {legal}"
            )
        return entry

    def optimal(self, move: str) -> bool:
        """True when ``move`` keeps the position's exact outcome."""
        return self.move(move).outcome == self.outcome

    def best_score(self, move: str) -> bool:
        """True when ``move`` has the solver's best exact score."""
        return self.move(move).score == self.score

    def best_moves(self) -> tuple[str, ...]:
        """The moves with the best score, in the order of ``legal_moves()``."""
        return tuple(entry.move for entry in self.moves if entry.score == self.score)

    def state(self, spec: GameSpec[AnyState], options: Mapping[str, OptionValue] = {}) -> AnyState:
        """The position as a state of ``spec``'s game."""
        return spec.read(self.position, options)


def _label_of(position: str, group: str, moves: Sequence[MoveLabel]) -> Label:
    if not moves:
        raise ValueError(f"position {position!r} has no legal move to label")
    best = max(entry.score for entry in moves)
    outcome = max(entry.outcome for entry in moves)
    return Label(position, outcome, best, tuple(moves), group)


class Truth:
    """Labels positions of ``spec``'s game exactly, from its record: ``exact_analysis`` where the
    game has it, else (a ``quick`` game) a search of the whole game that keeps every position's
    value in a table, shared by every label this object makes."""

    def __init__(
        self,
        spec: GameSpec[AnyState],
        options: Mapping[str, OptionValue] | None = None,
        *,
        node_limit: int = QUICK_NODE_LIMIT,
    ) -> None:
        self.spec = spec
        self.options: dict[str, OptionValue] = dict(options or {})
        if spec.chance or spec.hidden:
            raise CapabilityError(
                f"{spec.name} has chance or hidden information: its moves have no exact outcome"
            )
        self._exact: ExactAnalysis[AnyState] | None = (
            spec.exact_analysis.resolve() if spec.exact_analysis is not None else None
        )
        if self._exact is None and not spec.quick:
            raise CapabilityError(
                f"{spec.name} has no exact analysis and is not a quick game: "
                "its positions cannot be labelled exactly"
            )
        self.node_limit = node_limit
        self._values: dict[Hashable, float] = {}

    def read(self, text: str) -> AnyState:
        """The position ``text`` in the game's notation."""
        return self.spec.read(text, self.options)

    def label(self, state: AnyState, group: str = "") -> Label:
        """Every legal move of the non-terminal ``state`` valued exactly."""
        if state.is_terminal():
            raise InvalidPositionError(f"position {state.notation()!r} is over: nothing to label")
        legal = [state.format_move(move) for move in state.legal_moves()]
        if self._exact is not None:
            analysis = self._exact.exact_moves(state)
            found: dict[str, MoveLabel] = {}
            for column in analysis.moves:
                if column.value is None:
                    continue
                score = column.value
                if column.score is not None:
                    try:
                        score = _number(column.score)
                    except ValueError:
                        score = column.value
                found[column.move] = MoveLabel(column.move, _sign(column.value), score)
            if set(found) != set(legal):
                raise CapabilityError(
                    f"the exact analysis of {state.notation()!r} valued the moves "
                    f"{sorted(found)}, not the legal moves {sorted(legal)}"
                )
            return _label_of(state.notation(), group, [found[move] for move in legal])
        entries = []
        for move, text in zip(state.legal_moves(), legal, strict=True):
            child = state.play(move)
            value = _seen_from(state, child, self.value(child))
            entries.append(MoveLabel(text, _sign(value), value))
        return _label_of(state.notation(), group, entries)

    def value(self, state: AnyState) -> float:
        """The exact negamax value of ``state`` (from its side to move; see
        :mod:`zermelo.core.scores`) by a search of the whole game below it."""
        if self._exact is not None:
            if state.is_terminal():
                return _terminal(state)
            analysis = self._exact.exact_moves(state)
            if analysis.value is None:
                raise CapabilityError(f"the exact analysis gave {state.notation()!r} no value")
            return analysis.value
        return self._search(state)

    def _search(self, root: AnyState) -> float:
        # Depth-first with an explicit stack (no recursion limit): a node is pushed, its
        # children are valued, then it takes the best of them. The nodes pushed back to be
        # valued (``path``) are the line from the root: meeting one again is a repetition.
        values = self._values
        path: set[Hashable] = set()
        stack: list[tuple[AnyState, bool]] = [(root, False)]
        while stack:
            state, expanded = stack.pop()
            key = state.key()
            if key in values:
                continue
            if state.is_terminal():
                values[key] = _terminal(state)
                continue
            children = [state.play(move) for move in state.legal_moves()]
            if expanded:
                values[key] = max(
                    _seen_from(state, child, values[child.key()]) for child in children
                )
                path.discard(key)
                continue
            if key in path:
                raise CapabilityError(
                    f"the game of {self.spec.name} reaches {state.notation()!r} again below "
                    "itself: a game that repeats positions cannot be labelled by this search"
                )
            path.add(key)
            if len(values) >= self.node_limit:
                raise BudgetError(
                    f"the exact search of {self.spec.name} stored {self.node_limit} positions "
                    "without reaching the end: the game is too big to label this way"
                )
            stack.append((state, True))
            stack.extend((child, False) for child in children if child.key() not in values)
        return values[root.key()]


def _seen_from(parent: AnyState, child: AnyState, value: float) -> float:
    """The negamax ``value`` of ``child`` from the side to move in ``parent``, one ply further
    away (the same side where a move keeps the turn)."""
    if child.to_move != parent.to_move:
        return parent_score(value) + 0.0
    if value > EVAL_LIMIT:
        return value - 1
    if value < -EVAL_LIMIT:
        return value + 1
    return value + 0.0


def _terminal(state: AnyState) -> float:
    payoff = payoff_of(state)
    mine = payoff if state.to_move is Player.FIRST else -payoff
    return float(_sign(mine) * WIN)


def label_lines(truth: Truth, lines: Iterable[str], group: str) -> list[Label]:
    """The labels of benchmark lines ``POSITION SCORE`` (Pascal Pons' test sets: the moves, then
    the exact score), each checked against its line: a score the solver does not give is an
    error naming the line. Blank lines and ``#`` comments are skipped."""
    labels: list[Label] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.rsplit(None, 1)
        if len(parts) != 2:
            raise ParseError(f"line {number}: {line!r}: expected a position and its score")
        position, expected = parts
        label = truth.label(truth.read(position), group)
        if label.score != _score(expected, number):
            raise CapabilityError(
                f"line {number}: {position!r} scores {_text(label.score)} exactly, "
                f"not {expected} as the line says"
            )
        labels.append(label)
    return labels


def cached_labels(truth: Truth, source: Path, group: str, cache: Path) -> list[Label]:
    """The labels of the benchmark file ``source`` (see :func:`label_lines`), kept in the label
    file ``cache``: read from it when it was made from the same text of ``source``, else labelled
    afresh (every child of every position solved) and written there."""
    text = source.read_text(encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    mark = f"# source sha256 {digest} {group}"
    if cache.is_file():
        kept = cache.read_text(encoding="utf-8")
        if mark in kept.split("\n")[:4]:
            return read_labels(kept).labels
    labels = label_lines(truth, text.splitlines(), group)
    cache.parent.mkdir(parents=True, exist_ok=True)
    written = labels_text(truth.spec.name, labels, truth.options).split("\n", 1)
    partial = cache.with_name(cache.name + ".partial")
    partial.write_text(f"{written[0]}\n{mark}\n{written[1]}", encoding="utf-8")
    partial.replace(cache)
    return labels


def random_positions(
    truth: Truth,
    rng: random.Random,
    plies: Sequence[int],
    keep: Callable[[Label], bool] = lambda label: True,
    group: Callable[[int], str] = lambda ply: f"ply {ply}",
    tries: int = 100,
) -> list[Label]:
    """For each number in ``plies``, the label of a position that many random moves (drawn from
    ``rng``) from the start, not over, seen once, and kept by ``keep``; its set is ``group(ply)``.
    A ply where ``tries`` games find none is an error."""
    seen: set[str] = set()
    labels: list[Label] = []
    start = truth.spec.new(**truth.options)
    for ply in plies:
        for _ in range(tries):
            state = start
            for _move in range(ply):
                if state.is_terminal():
                    break
                state = state.play(rng.choice(list(state.legal_moves())))
            text = state.notation()
            if state.is_terminal() or state.ply != ply or text in seen:
                continue
            label = truth.label(state, group(ply))
            if keep(label):
                seen.add(text)
                labels.append(label)
                break
        else:
            raise BudgetError(f"{tries} random games found no new position to keep at ply {ply}")
    return labels


# -- label files ---------------------------------------------------------------------------


def labels_text(game: str, labels: Iterable[Label], options: Mapping[str, OptionValue] = {}) -> str:
    """The label file of ``labels`` of ``game`` (see the module's docstring)."""
    lines = [FORMAT, f"# game {game}", f"# options {json.dumps(dict(options), sort_keys=True)}"]
    for label in labels:
        for part in (label.group, label.position):
            if "\t" in part or "\n" in part:
                raise ValueError(f"{part!r}: a label file's field holds no tab or line break")
        moves = " ".join(
            f"{entry.move}:{entry.outcome}:{_text(entry.score)}" for entry in label.moves
        )
        lines.append(
            "\t".join((label.group, label.position, str(label.outcome), _text(label.score), moves))
        )
    return "\n".join(lines) + "\n"


def write_labels(
    path: Path, game: str, labels: Iterable[Label], options: Mapping[str, OptionValue] = {}
) -> None:
    """Write ``labels`` of ``game`` to ``path``."""
    path.write_text(labels_text(game, labels, options), encoding="utf-8")


@dataclass(frozen=True, slots=True)
class LabelFile:
    """What a label file holds: the game's name, its rule options and the labels."""

    game: str
    options: dict[str, OptionValue]
    labels: list[Label]


def read_labels(text: str) -> LabelFile:
    """The labels of a label file's ``text``; anything malformed is a :class:`ParseError` naming
    the line and what was expected."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != FORMAT:
        raise ParseError(f"not a label file: the first line must be {FORMAT!r}")
    game = ""
    options: dict[str, OptionValue] = {}
    labels: list[Label] = []
    for number, raw in enumerate(lines[1:], 2):
        line = raw.rstrip("\r")
        if not line:
            continue
        if line.startswith("# game "):
            game = line[len("# game ") :].strip()
            continue
        if line.startswith("# options "):
            options = _options(line[len("# options ") :], number)
            continue
        if line.startswith("#"):
            continue
        labels.append(_parse_label(line, number))
    if not game:
        raise ParseError("the label file names no game: expected a line '# game NAME'")
    return LabelFile(game, options, labels)


def _options(text: str, number: int) -> dict[str, OptionValue]:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict) or not all(
        isinstance(v, int | bool) and not isinstance(v, float) for v in value.values()
    ):
        raise ParseError(
            f"line {number}: the options must be a JSON object of integers or booleans"
        )
    return cast(dict[str, OptionValue], value)


def _outcome(text: str, number: int) -> int:
    if text not in ("1", "0", "-1"):
        raise ParseError(f"line {number}: outcome {text!r}: expected 1, 0 or -1")
    return int(text)


def _score(text: str, number: int) -> float:
    try:
        return _number(text)
    except ValueError:
        raise ParseError(f"line {number}: score {text!r}: expected a number") from None


def _parse_label(line: str, number: int) -> Label:
    fields = line.split("\t")
    if len(fields) != 5:
        raise ParseError(
            f"line {number}: expected 5 tab-separated fields "
            "(group, position, outcome, score, moves), found {len(fields)}"
        )
    group, position, outcome_text, score_text, moves_text = fields
    outcome = _outcome(outcome_text, number)
    score = _score(score_text, number)
    moves: list[MoveLabel] = []
    for item in moves_text.split():
        parts = item.rsplit(":", 2)
        if len(parts) != 3 or not parts[0]:
            raise ParseError(f"line {number}: move {item!r}: expected MOVE:OUTCOME:SCORE")
        moves.append(MoveLabel(parts[0], _outcome(parts[1], number), _score(parts[2], number)))
    if not moves:
        raise ParseError(f"line {number}: the position {position!r} has no move")
    if len({entry.move for entry in moves}) != len(moves):
        raise ParseError(f"line {number}: a move is listed twice")
    if max(entry.outcome for entry in moves) != outcome:
        raise ParseError(f"line {number}: outcome {outcome} is not its best move's outcome")
    if max(entry.score for entry in moves) != score:
        raise ParseError(f"line {number}: score {score_text} is not its best move's score")
    if any(_sign(entry.score) != entry.outcome for entry in moves if abs(entry.score) > EVAL_LIMIT):
        raise ParseError(f"line {number}: a move's outcome contradicts its score")
    return Label(position, outcome, score, tuple(moves), group)


def shipped_labels(spec: GameSpec[AnyState]) -> LabelFile | None:
    """The labelled held-out positions shipped for ``spec``'s game, or ``None``."""
    resource = resources.files("zermelo.learn").joinpath("data", f"{spec.name}.labels")
    if not resource.is_file():
        return None
    found = read_labels(resource.read_text(encoding="utf-8"))
    if found.game != spec.name:
        raise ParseError(f"the shipped labels of {spec.name} are labelled {found.game!r}")
    return found


# -- players -------------------------------------------------------------------------------


def policy_moves(policy: PolicyValue[AnyState], states: Sequence[AnyState]) -> list[Hashable]:
    """The move of the net's policy alone in each state: the legal move of the highest prior
    (ties: the first in ``legal_moves()``), ``BATCH`` states per call of ``evaluate``."""
    chosen: list[Hashable] = []
    for start in range(0, len(states), BATCH):
        batch = states[start : start + BATCH]
        answers = policy.evaluate(batch)
        if len(answers) != len(batch):
            raise ValueError(f"the net answered {len(answers)} states of {len(batch)}")
        for state, (priors, _value) in zip(batch, answers, strict=True):
            moves = state.legal_moves()
            if len(priors) != len(moves):
                raise ValueError(
                    f"the net gave {len(priors)} priors for the {len(moves)} moves of "
                    f"{state.notation()!r}"
                )
            best = max(range(len(moves)), key=lambda i: (priors[i], -i))
            chosen.append(moves[best])
    return chosen


def policy_chooser(policy: PolicyValue[AnyState]) -> Chooser:
    """The net's policy alone as a player."""
    return lambda state: policy_moves(policy, [state])[0]


def random_chooser(seed: int) -> Chooser:
    """A uniformly random legal move, from a generator seeded with ``seed``."""
    rng = random.Random(seed)
    return lambda state: rng.choice(list(state.legal_moves()))


def perfect_chooser(truth: Truth) -> Chooser:
    """The exact best move (the first of the best score, in ``legal_moves()`` order)."""

    def choose(state: AnyState) -> Hashable:
        best = truth.label(state).best_moves()[0]
        moves: list[Hashable] = list(state.legal_moves())
        return next(move for move in moves if state.format_move(move) == best)

    return choose


# -- measures ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shares:
    """Of ``positions`` positions that are not lost, the share where the move is ``optimal`` and
    where it has the ``best_score`` (both NaN when there is none); ``lost`` positions were left
    out."""

    optimal: float
    best_score: float
    positions: int
    optimal_moves: int
    best_score_moves: int
    lost: int


def _states(
    labels: Sequence[Label], spec: GameSpec[AnyState], options: Mapping[str, OptionValue]
) -> list[AnyState]:
    return [label.state(spec, options) for label in labels]


def _moves_of(
    states: Sequence[AnyState], choose: Chooser | PolicyValue[AnyState]
) -> list[Hashable]:
    if isinstance(choose, PolicyValue):
        return policy_moves(choose, states)
    return [choose(state) for state in states]


def move_shares(
    labels: Sequence[Label],
    choose: Chooser | PolicyValue[AnyState],
    spec: GameSpec[AnyState],
    options: Mapping[str, OptionValue] = {},
) -> Shares:
    """How often ``choose`` (a player, or a net's policy alone, evaluated in batches) plays an
    optimal move and a best-score move in the labelled positions that are not lost."""
    counted = [label for label in labels if not label.lost]
    states = _states(counted, spec, options)
    moves = _moves_of(states, choose)
    optimal = best = 0
    for label, state, move in zip(counted, states, moves, strict=True):
        text = state.format_move(move)
        optimal += label.optimal(text)
        best += label.best_score(text)
    n = len(counted)
    return Shares(
        optimal / n if n else math.nan,
        best / n if n else math.nan,
        n,
        optimal,
        best,
        len(labels) - n,
    )


def value_error(
    labels: Sequence[Label],
    policy: PolicyValue[AnyState],
    spec: GameSpec[AnyState],
    options: Mapping[str, OptionValue] = {},
) -> float:
    """The mean of ``|v - outcome|`` over ``labels`` (NaN for none): ``v`` the net's value,
    ``outcome`` the exact one (1, 0, -1), both from the side to move."""
    if not labels:
        return math.nan
    states = _states(labels, spec, options)
    total = 0.0
    for start in range(0, len(states), BATCH):
        batch = states[start : start + BATCH]
        answers = policy.evaluate(batch)
        if len(answers) != len(batch):
            raise ValueError(f"the net answered {len(answers)} states of {len(batch)}")
        for label, (_priors, value) in zip(labels[start : start + BATCH], answers, strict=True):
            total += abs(value - label.outcome)
    return total / len(labels)


def by_set(labels: Iterable[Label]) -> dict[str, list[Label]]:
    """The labels grouped by their held-out set, in the order the sets first appear."""
    groups: dict[str, list[Label]] = {}
    for label in labels:
        groups.setdefault(label.group, []).append(label)
    return groups


PLY_BUCKETS: Final = ((0, 3), (4, 11), (12, 19), (20, 27), (28, 36), (37, 10_000))
"""The ply buckets of :func:`by_ply`."""


def by_ply(
    labels: Iterable[Label],
    spec: GameSpec[AnyState],
    options: Mapping[str, OptionValue] = {},
    buckets: Sequence[tuple[int, int]] = PLY_BUCKETS,
) -> dict[str, list[Label]]:
    """The labels grouped by the ply of their position (``"ply 4-11"``, ...), in the order of
    ``buckets``, empty buckets left out; a ply in no bucket is an error."""
    groups: dict[str, list[Label]] = {f"ply {low}-{high}": [] for low, high in buckets}
    for label in labels:
        ply = label.state(spec, options).ply
        name = next((f"ply {lo}-{hi}" for lo, hi in buckets if lo <= ply <= hi), None)
        if name is None:
            raise ValueError(f"ply {ply} of {label.position!r} is in no bucket of {buckets}")
        groups[name].append(label)
    return {name: group for name, group in groups.items() if group}


# -- never losing against the perfect player ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Failure:
    """A start position (``position``, the player to move) where the player ended worse than the
    exact ``outcome``: ``ended`` is its result (1, 0, -1) after ``line``, the moves played (in
    notation), the player's and the perfect replies' in turn."""

    position: str
    outcome: int
    ended: int
    line: tuple[str, ...]


def to_move_positions(starts: Iterable[AnyState], side: Player) -> list[AnyState]:
    """Every non-terminal position reachable from ``starts`` with ``side`` (a Player) to move,
    each once, in the order first reached."""
    seen: set[str] = set()
    found: list[AnyState] = []
    frontier = collections.deque(starts)
    while frontier:
        state = frontier.popleft()
        text = state.notation()
        if text in seen or state.is_terminal():
            continue
        seen.add(text)
        if state.to_move == side:
            found.append(state)
        frontier.extend(state.play(move) for move in state.legal_moves())
    return found


def never_loses(
    choose: Chooser,
    truth: Truth | GameSpec[AnyState],
    starts: Iterable[AnyState],
) -> list[Failure]:
    """Every start position where ``choose``, playing the side to move against the perfect
    player, can end worse than the position's exact outcome. The perfect player tries every
    reply that keeps its own exact outcome (a tree, not one line); ``choose`` is asked once per
    position (a position reached again reuses its answer). Each failure gives one such line.
    ``truth`` labels the positions (a game's record: a new :class:`Truth` of it)."""
    if not isinstance(truth, Truth):
        truth = Truth(truth)
    # Per side the player takes: each position's worst end below it and a line to it.
    memos: dict[Player, dict[str, tuple[int, tuple[str, ...]]]] = {}
    failures: list[Failure] = []
    for start in starts:
        if start.is_terminal():
            continue
        side = start.to_move
        memo = memos.setdefault(side, {})
        worst, line = _worst(start, side, choose, truth, memo)
        outcome = truth.label(start).outcome
        if worst < outcome:
            failures.append(Failure(start.notation(), outcome, worst, line))
    return failures


def losses(failures: Iterable[Failure]) -> list[Failure]:
    """The failures where the player lost a position it could draw or win: what "never loses"
    forbids. (A won position only drawn is a failure of :func:`never_loses`, not a loss.)"""
    return [failure for failure in failures if failure.ended < 0 <= failure.outcome]


def _end(state: AnyState, side: Player) -> int:
    payoff = _sign(payoff_of(state))
    return payoff if side is Player.FIRST else -payoff


def _worst(
    state: AnyState,
    side: Player,
    choose: Chooser,
    truth: Truth,
    memo: dict[str, tuple[int, tuple[str, ...]]],
) -> tuple[int, tuple[str, ...]]:
    """The worst result for ``side`` from ``state`` on, ``side`` playing ``choose`` and the
    other side every reply that keeps its exact outcome, with a line to it."""
    if state.is_terminal():
        return _end(state, side), ()
    key = state.notation()
    known = memo.get(key)
    if known is not None:
        if known[0] > 1:  # still being explored: the line came back to it
            raise CapabilityError(f"never_loses: the game reaches {key!r} again below itself")
        return known
    memo[key] = (3, ())
    answer: tuple[int, tuple[str, ...]]
    if state.to_move == side:
        move = choose(state)
        if move not in state.legal_moves():
            raise IllegalMoveError(
                f"the player chose {move!r}, not a legal move of {state.notation()!r}"
            )
        worst, line = _worst(state.play(move), side, choose, truth, memo)
        answer = (worst, (state.format_move(move), *line))
    else:
        label = truth.label(state)
        answer = (2, ())
        for reply in state.legal_moves():
            text = state.format_move(reply)
            if not label.optimal(text):
                continue
            worst, line = _worst(state.play(reply), side, choose, truth, memo)
            if worst < answer[0]:
                answer = (worst, (text, *line))
    memo[key] = answer
    return answer


# -- the measure of a checkpoint -----------------------------------------------------------

_HELD_OUT: dict[tuple[str, str], list[Label]] = {}


def held_out(spec: GameSpec[AnyState], options: Mapping[str, OptionValue] = {}) -> list[Label]:
    """The labelled positions a net of ``spec``'s game is measured on: the labels the package
    ships for it (on the standard board, without options), else, for a quick game, every position
    with the first player to move that play reaches from the start (both starters where either
    side may start: tic-tac-toe's 4,520), labelled exactly. Empty for any other game. Labelled
    once per process."""
    key = (spec.name, json.dumps(dict(options), sort_keys=True))
    known = _HELD_OUT.get(key)
    if known is not None:
        return known
    labels: list[Label] = []
    found = shipped_labels(spec) if not options else None
    if found is not None and found.options == dict(options):
        labels = found.labels
    elif spec.quick and not (spec.chance or spec.hidden):
        truth = Truth(spec, options)
        starts = [spec.new(**options)]
        if spec.first_mover is None:
            starts.append(spec.new(**options, first=Player.SECOND))
        labels = [truth.label(state) for state in to_move_positions(starts, Player.FIRST)]
    _HELD_OUT[key] = labels
    return labels


def _put(out: dict[str, float], name: str, value: float) -> None:
    if not math.isnan(value):
        out[name] = value


def measure(
    spec: GameSpec[AnyState],
    options: Mapping[str, OptionValue],
    net: PolicyValue[AnyState],
    *,
    sims: int,
    positions: int,
    seed: int,
) -> dict[str, float]:
    """The truth of one checkpoint on the positions of :func:`held_out` (nothing where there
    are none): ``alone`` and ``alone_best`` (the shares of the net's move alone that are optimal
    and best-score), ``value_error``, and the same per held-out set (``alone SET``,
    ``value_error SET``); ``searched`` and ``searched_best`` the shares of the move after
    ``sims`` PUCT simulations on ``positions`` of the positions that are not lost, drawn once
    with ``seed`` (the same ones at every checkpoint); ``positions`` and ``searched_positions``
    count them."""
    from zermelo.agents.az import AzAgent

    labels = held_out(spec, options)
    if not labels:
        return {}
    out: dict[str, float] = {}
    alone = move_shares(labels, net, spec, options)
    _put(out, "alone", alone.optimal)
    _put(out, "alone_best", alone.best_score)
    _put(out, "value_error", value_error(labels, net, spec, options))
    out["positions"] = float(alone.positions)
    groups = by_set(labels)
    if len(groups) > 1:
        for name, group in groups.items():
            _put(out, f"alone {name}", move_shares(group, net, spec, options).optimal)
            _put(out, f"value_error {name}", value_error(group, net, spec, options))
    counted = [label for label in labels if not label.lost]
    if sims > 0 and positions > 0 and counted:
        rng = random.Random(seed)
        chosen = sorted(rng.sample(range(len(counted)), min(positions, len(counted))))
        sample = [counted[i] for i in chosen]
        searched = move_shares(sample, AzAgent(net, sims=sims, seed=seed).choose, spec, options)
        _put(out, "searched", searched.optimal)
        _put(out, "searched_best", searched.best_score)
        out["searched_positions"] = float(searched.positions)
    return out
