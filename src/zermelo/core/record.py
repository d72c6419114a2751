"""The game record: everything a front end needs to know about one game, in one value.

A game is a module of ``games/`` (or of another package) with its states and one :class:`GameSpec`.
The command line, the terminal game, the web API and page, the arena and the agents read the
record; none of them branches on a game's name.

What the record holds, and why each part has the shape it has:

* The rules' entry points: ``new(**options)`` and ``parse(text)``; states bring their own
  ``parse_move``/``format_move``/``notation``.
* Typed options (:class:`IntOption`, :class:`BoolOption`) with ranges and defaults. The CLI makes
  its ``--NAME`` options from them, the web API checks a request with them, the arena keeps them in
  game records: one declaration, three uses.
* Levels and MCTS defaults, as *data*: a level is an agent written in the arena's syntax
  (``"engine:depth=2,noise=1"``), or a :class:`Ref` to a factory when the game has an engine of its
  own. Games sit below agents in the layers, so a game never imports an agent; the agents layer reads
  the text or resolves the reference when it builds the player.
* The board: a *kind* (``board``, one of :data:`BOARD_KINDS`: a drawing such as ``place`` or
  ``drop``, never a game) and the data it draws, ``grid(state)`` (a :class:`Grid`). The terminal
  and the web page each keep one drawing per kind and read everything from the grid; a game that
  brings no grid of its own is drawn as its notation in one cell with a list of its legal moves.
* Who moves first, the default times, and ``notation``: one line of help for the move notation,
  which error messages and prompts quote.

* What the game can do beyond the State protocol: one typed field per capability of
  :mod:`zermelo.core.capabilities` (``perft``, ``start_solver``, ``explainer``, ...), ``None``
  when the game lacks it. Front ends ask these fields and hold one generic implementation of
  each; none of them branches on a game's name.

An implementation above ``games/`` in the layers (an engine in ``solvers/``, a level in
``agents/``) is named by a :class:`Ref`: a ``"module:attribute"`` string resolved on first use.
That keeps the layers (a record never imports what sits above it) and keeps ``import zermelo``
light. A test resolves every reference of every record, checks that it is what its field's type
says, and that none points into ``cli/`` or ``ui/``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Generic, Protocol, cast, runtime_checkable

from typing_extensions import TypeVar

from zermelo.core.capabilities import (
    EngineAnalysis,
    ExactAnalysis,
    Explainer,
    GameSolver,
    Openings,
    Perft,
    PolicyValue,
    PositionSolver,
    Saver,
    StartSolver,
    Tuner,
    WebEngine,
)
from zermelo.core.codec import Codec, Numbering
from zermelo.core.errors import N_, ParseError
from zermelo.core.state import AnyState, Player

__all__ = [
    "BOARD_KINDS",
    "LEVELS",
    "N_",
    "BoolOption",
    "GameSpec",
    "Grid",
    "IntOption",
    "LevelFactory",
    "Option",
    "OptionValue",
    "Ref",
    "capability_names",
    "draughts_path",
    "winning_line",
]

# Covariant, so that the record of one game (``GameSpec[ChessState]``) is a record of a game
# (``GameSpec``): front ends hold records of any game. The parts that take a state (``grid``, the
# capabilities) are only ever given states that the same record made.
S_co = TypeVar("S_co", bound=AnyState, default=AnyState, covariant=True)
T = TypeVar("T")

OptionValue = int | bool
"""The value of a rule option."""

LevelFactory = Callable[[int | None, float | None], object]
"""A game's own level: ``factory(seed, time_limit)`` makes the agent (an
:class:`~zermelo.agents.base.Agent`; the agents layer checks it)."""


LEVELS = ("easy", "medium", "hard")
"""The named strength levels every game offers, weakest first."""


@dataclass(frozen=True)
class IntOption:
    """A whole-number rule option within ``[low, high]``. ``default`` is the value ``new`` uses
    when the option is not given (``None``: it depends on the other options, which ``help`` says)."""

    name: str
    help: str
    low: int
    high: int
    default: int | None = None

    def check(self, value: object) -> int:
        """``value`` if it is a whole number in range, else a :class:`ParseError` saying so."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParseError(
                N_("option {name}={value!r}: expected a whole number"), name=self.name, value=value
            )
        if not self.low <= value <= self.high:
            raise ParseError(
                N_("option {name}={value!r}: expected a number from {low} to {high}"),
                name=self.name,
                value=value,
                low=self.low,
                high=self.high,
            )
        return value

    def parse(self, text: str) -> int:
        """The option from text (the command line), checked."""
        stripped = text.strip()
        if not (stripped.isascii() and stripped.lstrip("-").isdigit()) or len(stripped) > 9:
            raise ParseError(
                N_("option {name}={value!r}: expected a whole number from {low} to {high}"),
                name=self.name,
                value=text[:40],
                low=self.low,
                high=self.high,
            )
        return self.check(int(stripped))

    def describe(self) -> dict[str, int | bool | str | None]:
        """The option as JSON, for the web API's list of games."""
        return {"type": "integer", "min": self.low, "max": self.high, "default": self.default}


@dataclass(frozen=True)
class BoolOption:
    """A yes/no rule option (a flag on the command line)."""

    name: str
    help: str
    default: bool = False

    def check(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise ParseError(
                N_("option {name}={value!r}: expected true or false"), name=self.name, value=value
            )
        return value

    def parse(self, text: str) -> bool:
        word = text.strip().lower()
        if word in ("yes", "true", "1", "on"):
            return True
        if word in ("no", "false", "0", "off"):
            return False
        raise ParseError(
            N_("option {name}={value!r}: expected yes or no"), name=self.name, value=text[:40]
        )

    def describe(self) -> dict[str, int | bool | str | None]:
        return {"type": "boolean", "default": self.default}


Option = IntOption | BoolOption


@dataclass(frozen=True)
class Ref(Generic[T]):
    """A reference to an object in a higher layer or another package, ``"module:attribute"``,
    imported when first resolved (for example a game's own agent factory). ``Ref[T]`` promises
    a ``T``; the record's test resolves every reference and checks the promise."""

    target: str

    def __post_init__(self) -> None:
        module, colon, attribute = self.target.partition(":")
        if not (module and colon and attribute):
            raise ValueError(f"reference {self.target!r}: expected 'module:attribute'")

    def resolve(self) -> T:
        module, _, attribute = self.target.partition(":")
        value: object = importlib.import_module(module)
        for part in attribute.split("."):
            value = getattr(value, part)
        return cast(T, value)


BOARD_KINDS: tuple[str, ...] = (
    "grid",
    "place",
    "drop",
    "draughts",
    "chess",
    "dice",
    "backgammon",
    "cards",
)
"""The board kinds, the one vocabulary of the records, the terminal and the web page. A kind is
a drawing, never a game; each draws a :class:`Grid` (see there for what each kind reads):

* ``grid``: cells with short texts, moves typed in the game's notation (any game);
* ``place``: a click on a cell puts a mark or a stone there (tic-tac-toe, m,n,k, gomoku);
* ``drop``: columns, a click anywhere in a column plays its move (Connect Four, any size);
* ``draughts``: a board of squares where a move visits squares one after another (any size: 8x8
  with the dark squares numbered as in checkers, 10x10 numbered 1-50 as in international draughts,
  8x8 with every square playable and named ``a1``..``h8`` as in Turkish dama); a move is the
  names of the squares it visits joined by ``-`` (a step) or ``x`` (a capture), as in ``11-15``,
  ``28x19x8`` or ``d4xd6xf6`` (see :func:`draughts_path`);
* ``chess``: a move goes from one cell to another, named by file and rank (UCI);
* ``dice``: a race of scores with a die (Pig): the totals, the turn's total and the last roll,
  the moves as buttons;
* ``backgammon``: the 24 points, the bar and the borne-off checkers, with the dice and the cube;
* ``cards``: a card table (poker): the hands, the board's cards, the pot, the moves as buttons.

What each kind reads from its :class:`Grid` is set out there."""


@dataclass(frozen=True)
class Grid:
    """A board as rows of cells: what every board kind draws, on the terminal and the page alike.

    ``cells[row][col]`` is a short text (a mark, a piece letter, a number; ``""`` for an empty
    cell), rows from the top. ``moves[row][col]`` is the move notation a click on that cell plays,
    or ``None``; legal moves on no cell (a pass) are offered as buttons next to a ``grid`` board.
    ``line`` lists the ``(row, col)`` cells to highlight when the game is over (a winning line),
    if any. ``files`` and ``ranks`` label the columns (left to right) and the rows (from the top)
    when the board has coordinates; ``last`` are the cells of the last move and ``alert`` a cell
    in danger (a king in check), when the state knows them.

    What each kind (:data:`BOARD_KINDS`) reads: a ``place`` board's cells hold the sides' marks
    (``X`` for the first player, ``O`` for the second) and every cell names its move; with
    coordinates it is drawn as a board of stones, without them as ruled cells of letters, each
    named by its move. A ``drop`` board's cells hold the marks too, and each column's cells name
    that column's move. On a
    ``draughts`` board the playable cells name their squares (``"32"`` or ``"d3"``) and the others
    ``None``; its cells hold ``b``/``w`` (men) and ``B``/``W`` (kings). A board whose every cell is
    playable is drawn in one plain colour (Turkish dama), one with numbered squares with the
    number small in the corner (checkers, international draughts); ``files`` and ``ranks``, when
    given, are drawn around it. A ``chess`` board's cells hold the
    pieces' letters (``PNBRQK`` White, ``pnbrqk`` Black) and name their squares (``e4``).

    ``facts`` are labelled values shown beside any board: ``(label, value)`` with the label an
    English message id marked ``N_`` (``("to roll", "X")``, ``("pot", "4")``) that the face
    translates, and the value a short text in the game's notation.

    A ``dice`` board (Pig) has one row, ``(first player's total, second player's total, turn
    total, last roll)`` as numbers (the last roll ``""`` before any); ``files`` names the sides;
    the moves are buttons. A ``backgammon`` board has two rows of 14 cells, the top row points 13
    to 24 and then the first player's bar (``"bar"``) and borne-off tray (``"off"``), the bottom
    row points 12 down to 1 and then the second player's bar and tray, points numbered from the
    first player's side. A cell holds ``""`` or the owner's mark and the count (``"X5"``,
    ``"O2"``); ``moves`` name each cell's point from the side to move's view (``"24"``, ``"bar"``,
    ``"off"``), the words of its move notation (``"24/18 13/11"``); the dice and the cube are
    facts. A ``cards`` board has three rows: the opponent's cards (``"?"`` for one face down),
    the board's cards, the viewer's cards, each a card in the game's notation (``"Ks"``); pot,
    bets and the betting so far are facts; the moves are buttons.
    """

    cells: tuple[tuple[str, ...], ...]
    moves: tuple[tuple[str | None, ...], ...] | None = None
    line: tuple[tuple[int, int], ...] = ()
    files: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    last: tuple[tuple[int, int], ...] = ()
    alert: tuple[int, int] | None = None
    facts: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(
        cls,
        cells: Sequence[Sequence[str]],
        moves: Sequence[Sequence[str | None]] | None = None,
        line: Sequence[tuple[int, int]] = (),
        *,
        files: Sequence[str] = (),
        ranks: Sequence[str] = (),
        last: Sequence[tuple[int, int]] = (),
        alert: tuple[int, int] | None = None,
        facts: Sequence[tuple[str, str]] = (),
    ) -> Grid:
        return cls(
            tuple(tuple(row) for row in cells),
            None if moves is None else tuple(tuple(row) for row in moves),
            tuple(line),
            tuple(files),
            tuple(ranks),
            tuple(last),
            alert,
            tuple(facts),
        )

    def move_at(self, row: int, col: int) -> str | None:
        """The move a click on ``(row, col)`` plays, or ``None``."""
        if self.moves is None or not 0 <= row < len(self.moves):
            return None
        moves = self.moves[row]
        return moves[col] if 0 <= col < len(moves) else None

    def cell_of(self, move: str) -> tuple[int, int] | None:
        """The first cell (rows from the top) whose move is ``move``, or ``None``."""
        for row, moves in enumerate(self.moves or ()):
            for col, text in enumerate(moves):
                if text == move:
                    return row, col
        return None


@runtime_checkable
class _KernelMove(Protocol):
    @property
    def path(self) -> Sequence[int]: ...


@runtime_checkable
class _SquareNames(Protocol):
    def square_name(self, sq: int, /) -> str: ...


def draughts_path(state: AnyState, move: object, names: Set[str]) -> tuple[str, ...] | None:
    """The names of the squares a ``draughts`` move visits, origin first (``("28", "19", "8")``,
    ``("d4", "d6", "f6")``), or ``None`` when they cannot be read. ``names`` are the board's
    square names (its :class:`Grid`'s ``moves``).

    A draughts move is the sequence of the squares it visits. When each of them, written as a
    number, is a square of the board (checkers' and international draughts' squares are their
    numbers), those are the names. Otherwise (Turkish dama's moves are 0-based indices, its squares
    named ``a1``..``h8``) the state names them: ``type(state).RULES.square_name(sq)`` of each
    square of ``state.kernel_move(move).path`` (0-based squares; see the draughts kernel)."""
    if isinstance(move, tuple) and len(move) >= 2 and all(isinstance(sq, int) for sq in move):
        plain = tuple(str(sq) for sq in move)
        if all(name in names for name in plain):
            return plain
    rules = getattr(type(state), "RULES", None)
    kernel_move = getattr(state, "kernel_move", None)
    if not isinstance(rules, _SquareNames) or not callable(kernel_move):
        return None
    try:
        kernel = kernel_move(move)
        if not isinstance(kernel, _KernelMove):
            return None
        path = tuple(rules.square_name(int(sq)) for sq in kernel.path)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    return path if len(path) >= 2 and all(name in names for name in path) else None


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def winning_line(rows: Sequence[Sequence[str]], mark: str, k: int) -> list[tuple[int, int]]:
    """Every ``(row, col)`` of ``rows`` (rows of cells from the top) on a run of ``k`` or more
    ``mark`` across, down or diagonally: the line a record's :class:`Grid` highlights. Sorted;
    empty when there is no such run."""
    height = len(rows)
    width = len(rows[0]) if rows else 0

    def owned(row: int, col: int) -> bool:
        return 0 <= row < height and 0 <= col < len(rows[row]) and rows[row][col] == mark

    found: set[tuple[int, int]] = set()
    for row in range(height):
        for col in range(width):
            if not owned(row, col):
                continue
            for d_row, d_col in _DIRECTIONS:
                if owned(row - d_row, col - d_col):
                    continue  # counted from the start of its run
                run = []
                r, c = row, col
                while owned(r, c):
                    run.append((r, c))
                    r, c = r + d_row, c + d_col
                if len(run) >= k:
                    found.update(run)
    return sorted(found)


def _no_grid(state: AnyState) -> Grid:
    return Grid(((state.notation(),),))


@dataclass(frozen=True)
class GameSpec(Generic[S_co]):
    """One game's record. Only ``name``, ``title``, ``new`` and ``parse`` are required; every
    other part has a default that works for any game of the State protocol.

    ``new(**options)`` makes the initial state; it also takes ``first`` (a :class:`Player`) when
    a front end lets a person choose who starts. ``parse(text)`` reads the position notation.
    ``options`` are the rule options ``new`` takes (typed, with ranges). ``aliases`` are other
    names the game answers to on the command line and in the API.

    ``first_mover`` is the side the rules make move first (checkers: Black), or ``None`` when either
    side may start; with a fixed first mover, a front end that lets a person choose who starts gives
    that person the first mover's side instead. ``sides`` names the two players for the generic
    board (:attr:`Player.FIRST` first). ``default_time`` is the search time in seconds for
    analysis when none was asked for, for games too deep to search to the end (``None``: to the
    end); ``move_time`` is the AI's thinking time per move in the browser.

    ``levels`` maps ``easy``, ``medium`` and ``hard`` to an agent in the arena's syntax (see
    :mod:`zermelo.agents.spec`) or to a :class:`Ref` of a factory ``(seed, time_limit) -> Agent``;
    a level left out plays the engine at the generic strength of that level. A requested thinking
    time replaces the ``time`` of a level that has one. ``mcts`` holds the MCTS options (``cutoff``,
    ``scale``, ``c``) used when an ``mcts`` agent does not give them.

    ``board`` names how front ends draw the game, one of :data:`BOARD_KINDS` (``"grid"`` works
    for every game), and ``grid(state)`` gives the board that kind draws (see :class:`Grid`); a
    kind the front ends do not know is drawn as a grid. ``title_short``
    is the name the terminal greets with when it differs from ``title``. ``notation`` is a line of
    help for the move notation, quoted when a typed move cannot be read; ``intro`` lines are shown
    once before the first move of a terminal game.

    ``web_engine``, if given, names the game's own engines for the web page
    (:class:`~zermelo.core.capabilities.WebEngine`), which the web API uses instead of the generic
    engine;
    ``analysis_depth`` caps the depth of the web's analysis overlay (``1``: one ply and the
    evaluation, for boards too wide to search every move); ``explain_tree`` says whether the
    minimax-tree explainer supports the game. ``quick`` says that every search of the game ends in
    milliseconds, so the web server answers it in its fast lane, without a search process.

    The capability fields (see :mod:`zermelo.core.capabilities`), each ``None`` when the game
    lacks it: ``perft`` counts the legal move tree; ``start_solver`` solves the start position;
    ``position_solver`` solves positions in bulk (``zermelo solve`` reading lines);
    ``exact_analysis`` values every move exactly (``zermelo analyze`` without a budget);
    ``engine_analysis`` is the game's own engine valuing every move under a budget;
    ``explainer`` shows the evaluation term by term; ``tuner`` fits its weights; ``saver``
    writes the game so far in the game's own file format (without it a saved game is its start
    position and its moves); ``openings`` gives start positions for matches; ``codec`` maps the
    game onto numbered actions and board planes for OpenSpiel and PettingZoo. ``parse_on``, for
    a game whose notation leaves its rule options out, reads a position on the board the options
    make (see :meth:`read`). ``hub_variant`` is the name the Hub protocol of draughts GUIs gives
    the game (``normal`` for international draughts), for a game ``zermelo hub`` plays.

    What the game is, as OpenSpiel's ``GameType`` says it: ``chance`` is true for a game with
    chance nodes (its states offer :class:`~zermelo.core.state.Chance`), ``hidden`` for a game
    where a player cannot see everything (its states offer
    :class:`~zermelo.core.state.HiddenInfo`). A hidden game must give ``view(state, player)``: the
    board as ``player`` sees it, which every face shows a person playing that side; its ``grid``
    shows only what both sides see. ``game_solver`` solves the whole game (``zermelo solve GAME``
    with nothing to read: Pig's optimal policy, poker's equilibrium); ``numbering`` numbers a
    game of chance or hidden information's moves for OpenSpiel (:class:`~zermelo.core.codec.
    Numbering`), which exports the games that have one. ``scored`` is true when a game ends in points
    (:class:`~zermelo.core.state.Payoff`: gammons, a cube, chips) rather than a win or a draw.
    ``learned`` is the net shipped for the game (:class:`~zermelo.core.capabilities.PolicyValue`),
    trained by self-play (``zermelo learn``); the faces offer it as the ``az`` player.
    """

    name: str
    title: str
    new: Callable[..., S_co]
    parse: Callable[[str], S_co]
    options: tuple[Option, ...] = ()
    aliases: tuple[str, ...] = ()
    first_mover: Player | None = None
    sides: tuple[str, str] = ("X", "O")
    default_time: float | None = None
    move_time: float = 1.0
    levels: Mapping[str, str | Ref[LevelFactory]] = field(default_factory=dict)
    mcts: Mapping[str, float] = field(default_factory=dict)
    board: str = "grid"
    grid: Callable[[S_co], Grid] = _no_grid
    title_short: str | None = None
    notation: str = ""
    intro: tuple[str, ...] = ()
    web_engine: Ref[WebEngine[S_co]] | None = None
    analysis_depth: int | None = None
    explain_tree: bool = False
    quick: bool = False
    perft: Ref[Perft[S_co]] | None = None
    start_solver: Ref[StartSolver[S_co]] | None = None
    position_solver: Ref[PositionSolver] | None = None
    exact_analysis: Ref[ExactAnalysis[S_co]] | None = None
    engine_analysis: Ref[EngineAnalysis[S_co]] | None = None
    explainer: Ref[Explainer[S_co]] | None = None
    tuner: Ref[Tuner] | None = None
    saver: Ref[Saver[S_co]] | None = None
    openings: Ref[Openings] | None = None
    codec: Codec[S_co] | None = None
    hub_variant: str | None = None
    parse_on: Callable[..., S_co] | None = None
    chance: bool = False
    hidden: bool = False
    scored: bool = False
    view: Callable[[S_co, Player], Grid] | None = None
    game_solver: Ref[GameSolver] | None = None
    learned: Ref[PolicyValue[S_co]] | None = None
    numbering: Numbering | None = None

    def __post_init__(self) -> None:
        if self.hidden and self.view is None:
            raise ValueError(f"game {self.name!r}: a game with hidden information needs a view")
        unknown = set(self.levels) - set(LEVELS)
        if unknown:
            raise ValueError(
                f"game {self.name!r}: unknown levels {sorted(unknown)}; expected {LEVELS}"
            )
        names = [option.name for option in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"game {self.name!r}: an option is declared twice in {names}")
        for key in ("c", "scale"):
            value = self.mcts.get(key)
            if value is not None and not (isinstance(value, int | float) and math.isfinite(value)):
                raise ValueError(f"game {self.name!r}: mcts {key}={value!r} is not a number")

    def read(self, text: str, options: Mapping[str, OptionValue]) -> S_co:
        """The position ``text`` in the game's notation, on the board the rule ``options`` make:
        ``parse_on(text, **options)`` for a game whose notation leaves its rule options out
        (Connect Four's moves say nothing of the board's width), else ``parse(text)``."""
        if options and self.parse_on is not None:
            return self.parse_on(text, **options)
        return self.parse(text)

    def option(self, name: str) -> Option | None:
        """The option called ``name``, or ``None``."""
        return next((option for option in self.options if option.name == name), None)

    def check_options(self, options: object) -> dict[str, OptionValue]:
        """The options for :attr:`new` from untrusted input (a JSON object), each checked against
        its declaration; an unknown option is an error naming the ones there are."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise ParseError(f"options {options!r}: expected an object of option names to values")
        checked: dict[str, OptionValue] = {}
        for name, value in options.items():
            option = self.option(name) if isinstance(name, str) else None
            if option is None:
                allowed = ", ".join(o.name for o in self.options) or "none"
                raise ParseError(
                    f"unknown option {name!r} for {self.name}: expected one of: {allowed}"
                )
            checked[name] = option.check(value)
        return checked


CAPABILITIES: tuple[str, ...] = (
    "perft",
    "start_solver",
    "position_solver",
    "exact_analysis",
    "engine_analysis",
    "explainer",
    "tuner",
    "saver",
    "openings",
    "codec",
    "web_engine",
    "game_solver",
    "learned",
)
"""The record's capability fields, in the order listings show them."""


def capability_names(spec: GameSpec) -> tuple[str, ...]:
    """The capabilities ``spec`` offers (the names of its fields that are not ``None``)."""
    return tuple(name for name in CAPABILITIES if getattr(spec, name) is not None)
