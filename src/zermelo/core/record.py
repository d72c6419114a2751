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
* The board: a *kind* (``board``), which the terminal and the web page each know how to draw
  (``"grid"`` for any game, from :attr:`GameSpec.grid`; the built-in kinds for the built-in games).
  Front ends keep one drawing per kind, never per game, and a game that brings no drawing of its own
  is drawn as a grid of cells with a list of its legal moves.
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, cast

from typing_extensions import TypeVar

from zermelo.core.capabilities import (
    EngineAnalysis,
    ExactAnalysis,
    Explainer,
    Openings,
    Perft,
    PositionSolver,
    Saver,
    StartSolver,
    Tuner,
)
from zermelo.core.codec import Codec
from zermelo.core.errors import ParseError
from zermelo.core.state import AnyState, Player

__all__ = [
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


def N_(message: str) -> str:  # noqa: N802 - the name extraction tools look for
    """Mark a record's text (a title, an option's help) for the catalogs; front ends translate it
    where they show it. A no-op, so that games need not import the front ends' i18n."""
    return message


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
            raise ParseError(f"option {self.name}={value!r}: expected a whole number")
        if not self.low <= value <= self.high:
            raise ParseError(
                f"option {self.name}={value!r}: expected a number from {self.low} to {self.high}"
            )
        return value

    def parse(self, text: str) -> int:
        """The option from text (the command line), checked."""
        stripped = text.strip()
        if not (stripped.isascii() and stripped.lstrip("-").isdigit()) or len(stripped) > 9:
            raise ParseError(
                f"option {self.name}={text!r}: expected a whole number from {self.low} to "
                f"{self.high}"
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
            raise ParseError(f"option {self.name}={value!r}: expected true or false")
        return value

    def parse(self, text: str) -> bool:
        word = text.strip().lower()
        if word in ("yes", "true", "1", "on"):
            return True
        if word in ("no", "false", "0", "off"):
            return False
        raise ParseError(f"option {self.name}={text!r}: expected yes or no")

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


@dataclass(frozen=True)
class Grid:
    """A board as rows of cells, drawn alike by the terminal and the web page for games that bring
    no drawing of their own (board kind ``"grid"``).

    ``cells[row][col]`` is a short text (a mark, a number; ``""`` for an empty cell), rows from the
    top. ``moves[row][col]`` is the move notation a click on that cell plays, or ``None``; legal
    moves on no cell (a pass) are offered as buttons next to the board. ``line`` lists the
    ``(row, col)`` cells to highlight when the game is over (a winning line), if any.
    """

    cells: tuple[tuple[str, ...], ...]
    moves: tuple[tuple[str | None, ...], ...] | None = None
    line: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(
        cls,
        cells: Sequence[Sequence[str]],
        moves: Sequence[Sequence[str | None]] | None = None,
        line: Sequence[tuple[int, int]] = (),
    ) -> Grid:
        return cls(
            tuple(tuple(row) for row in cells),
            None if moves is None else tuple(tuple(row) for row in moves),
            tuple(line),
        )


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

    ``board`` names how front ends draw the game: ``"grid"`` (from ``grid(state)``, see
    :class:`Grid`) works for every game; the built-in games have kinds of their own. ``title_short``
    is the name the terminal greets with when it differs from ``title``. ``notation`` is a line of
    help for the move notation, quoted when a typed move cannot be read; ``intro`` lines are shown
    once before the first move of a terminal game.

    ``web_engine``, if given, names an object with ``choose(state, level, seed, time_limit)`` and
    ``values(state, time_limit, node_limit)`` that the web API uses instead of the generic engine;
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
    make (see :meth:`read`).
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
    web_engine: Ref[object] | None = None
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
    parse_on: Callable[..., S_co] | None = None

    def __post_init__(self) -> None:
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
)
"""The record's capability fields, in the order listings show them."""


def capability_names(spec: GameSpec) -> tuple[str, ...]:
    """The capabilities ``spec`` offers (the names of its fields that are not ``None``)."""
    return tuple(name for name in CAPABILITIES if getattr(spec, name) is not None)
