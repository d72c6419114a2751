"""What a game may offer beyond the State protocol, each as a typed protocol.

A front end asks the game's record whether the game has a capability (``spec.explainer is not
None``), never ``getattr`` on a state or a module. Each capability is a protocol here, and the
record (:class:`~zermelo.core.record.GameSpec`) holds it in a field of its own type, through a
:class:`~zermelo.core.record.Ref` when the implementation lives in a higher layer (``solvers/``).
The front ends hold one generic implementation per capability: they print, draw or serve what
these return, and none of them knows which game it is showing.

Every capability returns data, never text for a person: the rows of a table, a report, a count.
Labels meant for people are English message ids marked with ``N_`` where they are made; the front
end translates them where it shows them.

The capabilities:

* :class:`Perft` -- count the leaves of the legal move tree (``zermelo perft``).
* :class:`StartSolver` -- the exact value of a start position and a best first move.
* :class:`ExactAnalysis` -- every move's exact value (``zermelo analyze`` without a budget).
* :class:`EngineAnalysis` -- a game's own engine valuing every move under a budget.
* :class:`Explainer` -- the evaluation f(s) = w1*x1 + ... + wn*xn, term by term.
* :class:`Tuner` -- fit the evaluation's weights.
* :class:`GameSolver` -- solve a whole game whose value is a probability or an expectation
  (Pig by value iteration, poker by CFR): ``zermelo solve GAME`` with no positions to read.
* :class:`Saver` -- the game so far in the game's own file format (PGN).
* :class:`Openings` -- start positions for matches, from a file or built in.
* :class:`WebEngine` -- a game's own engines for the web page (an exact solver, a book).
* :class:`~zermelo.core.codec.Codec` -- numbered actions and board planes for OpenSpiel and
  PettingZoo (in :mod:`zermelo.core.codec`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from zermelo.core.errors import ZermeloError
from zermelo.core.limits import Limits
from zermelo.core.result import Choice, SearchResult
from zermelo.core.state import AnyState

__all__ = [
    "Breakdown",
    "EngineAnalysis",
    "ExactAnalysis",
    "ExactColumn",
    "ExactMoves",
    "Explainer",
    "GameSolution",
    "GameSolver",
    "Loads",
    "NetworkExplainer",
    "Openings",
    "Perft",
    "PolicyValue",
    "PositionSolver",
    "Progress",
    "Saver",
    "Series",
    "SolveRequest",
    "SolvedBlock",
    "SolvedLine",
    "StartSolution",
    "StartSolver",
    "Term",
    "TuneReport",
    "TuneRequest",
    "Tuner",
    "WebEngine",
]

S_contra = TypeVar("S_contra", bound=AnyState, contravariant=True)
S = TypeVar("S", bound=AnyState)

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: long work reports each step; ``stage`` is an English message
id (``"self-play"``, ``"fit"``, ``"match"``) that the front end translates."""


@runtime_checkable
class Perft(Protocol[S_contra]):
    """The move generator's check: the number of leaves ``depth`` plies below ``state``."""

    def count_leaves(self, state: S_contra, depth: int) -> int: ...


@dataclass(frozen=True, slots=True)
class StartSolution:
    """The exact value of a start position: ``winner`` is ``"first"``, ``"second"`` or ``"draw"``;
    ``move`` a best first move in the game's notation; ``label`` names the board when the rules
    have sizes (``"4x4, k=3"``), else ``""``; then what it cost."""

    winner: str
    move: str
    label: str
    nodes: int
    table_hits: int
    seconds: float


@runtime_checkable
class StartSolver(Protocol[S_contra]):
    """Solves a game from its start position, read to the end."""

    def solve_start(self, state: S_contra) -> StartSolution: ...


@dataclass(frozen=True, slots=True)
class SolveRequest:
    """What ``zermelo solve`` asks of a position solver: ``weak`` (win, draw or loss only),
    ``best`` (also the best moves), ``stats`` (nodes and time of each position, timed alone),
    and ``cluster``/``resume`` to spread the work over the executor (:mod:`zermelo.parallel`)
    and keep its results in a file. ``options`` are the game's rule options. ``watched`` says a
    person follows a progress bar, so answers should come in small blocks."""

    weak: bool = False
    best: bool = False
    stats: bool = False
    cluster: str | None = None
    resume: str | None = None
    options: tuple[tuple[str, int | bool], ...] = ()
    watched: bool = False


@dataclass(frozen=True, slots=True)
class SolvedLine:
    """One line of input, solved: ``fields`` are the words of the answer line (the position,
    its score, then the asked extras), or ``error`` says in one line why the line could not be
    solved (an error, which the face renders in its language, or a finished line).
    ``line_number`` counts from 1."""

    line_number: int
    fields: tuple[str, ...] | None
    error: ZermeloError | str | None = None


@dataclass(frozen=True, slots=True)
class SolvedBlock:
    """The answers of consecutive lines at once, ready to print (each line ended by a newline):
    the fast path of a solver that writes its answers in compiled code. ``line_number`` is the
    last line it covers."""

    line_number: int
    text: str


@runtime_checkable
class PositionSolver(Protocol):
    """Solves positions given as lines of text, in input order: a :class:`SolvedLine` for each
    line, or a :class:`SolvedBlock` for many at once. ``advance(n)`` is called as ``n`` more
    lines are done, for a progress bar. Options the solver cannot take raise
    :class:`~zermelo.core.errors.CapabilityError` before any work. ``ready(request)`` is called
    before the input is read, so that what the solver must build first (a table) is not counted
    against the positions."""

    def ready(self, request: SolveRequest) -> None: ...

    def solve_lines(
        self, lines: Sequence[str], request: SolveRequest, advance: Callable[[int], None]
    ) -> Iterator[SolvedLine | SolvedBlock]: ...


@dataclass(frozen=True, slots=True)
class ExactColumn:
    """One move of an exact analysis: ``move`` in notation, its ``value`` (negamax, for the side
    that plays it: see :mod:`zermelo.core.scores`) and the game's own ``score`` of it as text (the
    benchmark score of Connect Four), or ``None`` for a move that cannot be played (a full
    column)."""

    move: str
    value: float | None
    score: str | None


@dataclass(frozen=True, slots=True)
class ExactMoves:
    """Every move's exact value: ``moves`` in board order, ``best`` the best moves, ``value`` the
    position's value (``None`` when no move is possible), ``line`` a principal variation, and
    ``line_note`` an English message id shown under a shortened line (or ``""``)."""

    moves: tuple[ExactColumn, ...]
    best: tuple[str, ...]
    value: float | None
    line: tuple[str, ...]
    line_note: str
    nodes: int
    seconds: float


@runtime_checkable
class ExactAnalysis(Protocol[S_contra]):
    """Every move's exact game-theoretic value, from a perfect solver."""

    def exact_moves(self, state: S_contra) -> ExactMoves: ...


@runtime_checkable
class EngineAnalysis(Protocol[S_contra]):
    """A game's own engine valuing every move of ``state`` within ``limits``; values are in the
    game's display unit (chess: pawns)."""

    def analyze(self, state: S_contra, limits: Limits) -> SearchResult[object]: ...


@dataclass(frozen=True, slots=True)
class Term:
    """One term w*x of an evaluation: ``name`` and ``description`` are English message ids."""

    name: str
    description: str
    value: float
    weight: float

    @property
    def contribution(self) -> float:
        return self.value * self.weight


@dataclass(frozen=True, slots=True)
class Breakdown:
    """An evaluation term by term, from the side to move, and its total (which may be clamped or
    scaled by the game, so it is given rather than summed)."""

    terms: tuple[Term, ...]
    total: float
    decimals: int = 0
    extra: tuple[tuple[str, float], ...] = ()
    """Rows after the total: other evaluations of the same state (a learned network's), each a
    name marked for translation and its value, in the terms' unit."""
    note: str = ""
    """A sentence marked for translation, shown under the table: which evaluation plays."""


@runtime_checkable
class Explainer(Protocol[S_contra]):
    """The evaluation f(s) of a state term by term; ``weights`` is a file written by the game's
    :class:`Tuner`, or ``None`` for the shipped weights. A file for another game, or one that is
    not a weights file, raises :class:`~zermelo.core.errors.ParseError` in one line."""

    def explain(self, state: S_contra, weights: str | None) -> Breakdown: ...


@runtime_checkable
class NetworkExplainer(Explainer[S_contra], Protocol[S_contra]):
    """An :class:`Explainer` whose game can also evaluate with a learned network: the same
    breakdown plus the network's total (in ``Breakdown.extra``), the network read from the file
    ``network`` (a file that is not one raises an error of one line)."""

    def explain_with_network(
        self, state: S_contra, weights: str | None, network: str
    ) -> Breakdown: ...


@dataclass(frozen=True, slots=True)
class TuneRequest:
    """What ``zermelo tune`` asks: ``games`` of self-play (or the games of ``pgn_text``), a check
    match of ``match_games``, the ``seed``, and ``cluster``/``resume`` for games whose self-play
    runs on the executor (see :mod:`zermelo.parallel`)."""

    games: int
    match_games: int
    seed: int
    pgn_text: str | None = None
    cluster: str | None = None
    resume: str | None = None


@dataclass(frozen=True, slots=True)
class TuneReport:
    """What tuning found: ``rows`` of ``(English label, value text)`` for the report's table,
    under ``title`` (an English message id); ``weights_json`` the file to save (which names the
    game and each weight); ``match`` the check match's ``(wins, losses, draws)`` of the tuned
    weights, or ``None`` when none was played."""

    title: str
    rows: tuple[tuple[str, str], ...]
    weights_json: str
    match: tuple[int, int, int] | None = None

    @property
    def improved(self) -> bool:
        """True when the tuned weights won more of the check match than they lost (or no match
        was played, so nothing says otherwise)."""
        return self.match is None or self.match[0] > self.match[1]


@runtime_checkable
class Tuner(Protocol):
    """Fits a game's evaluation weights. ``uses`` says which optional parts of a
    :class:`TuneRequest` the game reads (``"pgn"``, ``"cluster"``)."""

    @property
    def uses(self) -> frozenset[str]: ...

    def tune(self, request: TuneRequest, progress: Progress) -> TuneReport: ...


@runtime_checkable
class Saver(Protocol[S_contra]):
    """The game so far in the game's own file format (chess: PGN). ``players`` names the first
    and the second player for the file's headers (``None``: unknown)."""

    def save(self, state: S_contra, players: tuple[str, str] | None = None) -> str: ...


@runtime_checkable
class Loads(Protocol):
    """A :class:`Saver` that also reads its file format back: ``load(text)`` gives the start
    position's notation (``""`` for the usual start) and the moves in the game's notation, or
    raises :class:`~zermelo.core.errors.ParseError` saying what is wrong."""

    def load(self, text: str) -> tuple[str, list[str]]: ...


@runtime_checkable
class Openings(Protocol):
    """Start positions for a match, in the game's notation: those of ``text`` (a file's contents
    in the game's format), or the game's built-in set for ``None``."""

    def openings(self, text: str | None) -> list[str]: ...


@dataclass(frozen=True)
class WebEngine(Generic[S]):
    """A game's own engines for the web page, in place of the generic engine.

    ``choose(state, level, seed, time_limit)`` is the AI's move and ``values(state, time_limit,
    node_limit)`` every move's value (``moves``, best first); both run in the server's search
    processes. The optional hooks answer in the server's fast lane when they can, before any
    search process is asked: ``book_choice(state, seed)`` and ``book_values(state)`` from an
    opening book at once, ``solver_choice(state, seed, seconds)`` and ``solver_values(state,
    seconds)`` from an exact solver under a deadline (each returns ``None`` when it cannot
    answer; the hard level only). ``warm_up`` runs when the server starts, ``stop`` when it
    stops, ``kill_now`` on SIGTERM.
    """

    choose: Callable[[S, str, int, float], Choice[Hashable]]
    values: Callable[[S, float, int], SearchResult[Hashable]]
    book_choice: Callable[[S, int], Choice[Hashable] | None] | None = None
    book_values: Callable[[S], SearchResult[Hashable] | None] | None = None
    solver_choice: Callable[[S, int, float], Choice[Hashable] | None] | None = None
    solver_values: Callable[[S, float], SearchResult[Hashable] | None] | None = None
    warm_up: Callable[[], None] | None = None
    stop: Callable[[], None] | None = None
    kill_now: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class Series:
    """One curve of a solution's plot: ``label`` an English message id, and the points' ``x``
    and ``y``, of equal length."""

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class GameSolution:
    """A whole game solved: ``facts`` are ``(English label, value text)`` rows (the first
    player's value, the exploitability reached, the iterations, the time); ``header`` and
    ``rows`` a table the face prints (the optimal policy), the header's words English message ids
    and the rows' cells plain text; ``plot_title``, ``x_label``, ``y_label`` (English message ids)
    and ``series`` the curves a face may draw (the hold boundary, exploitability against
    iterations), with ``log_y`` for a logarithmic y axis. ``value`` is the first player's value
    as a number, for tests and scripts."""

    value: float
    facts: tuple[tuple[str, str], ...]
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    plot_title: str = ""
    x_label: str = ""
    y_label: str = ""
    series: tuple[Series, ...] = ()
    log_y: bool = False


@runtime_checkable
class PolicyValue(Protocol[S_contra]):
    """A learned policy-value function, AlphaZero's net: for each state, the prior of each move of
    ``state.legal_moves()`` (in that order, summing to 1) and the value in [-1, 1] from the side
    to move. ``description`` says in English what it is (its size and training)."""

    description: str

    def evaluate(self, states: Sequence[S_contra]) -> list[tuple[list[float], float]]: ...


@runtime_checkable
class GameSolver(Protocol):
    """Solves a whole game with the rule ``options`` (``zermelo solve GAME`` reading no
    positions): ``iterations`` bounds an iterative method (``None``: the game's default), and
    ``progress`` reports each step. The work runs where it is asked and honours ``deadline``
    (a ``time.monotonic()`` value, or ``None``), raising
    :class:`~zermelo.core.errors.BudgetError` past it."""

    def solve_game(
        self,
        options: Mapping[str, int | bool],
        iterations: int | None,
        progress: Progress,
        deadline: float | None = None,
    ) -> GameSolution: ...
