"""The JSON API behind the page: validation, search budgets and the answers.

The API is stateless: every request names the game, an optional start position in the game's
notation and the list of moves played since, and the server replays them. So concurrent games can
never mix, undo is the client dropping moves, nothing grows on the server, and a restart loses
nothing. Replaying a few hundred moves costs far less than any search.

Every field is checked before use; the only things a client's text reaches are the games' own
parsers (``GameSpec.parse``, ``state.parse_move``). A mistake becomes a 4xx answer with a JSON body
``{"error": {"type": ..., "message": ...}}`` whose message is the one of zermelo's own error.

Work runs off the event loop (see :mod:`zermelo.ui.web.lanes`): replaying and drawing a game,
tic-tac-toe and Connect Four's opening book in the fast lane of threads; every other search in a
pool of search processes that can be stopped from outside. A request's budget (``time_ms``) is the
time of the whole request: the search gets what is left of it, and an answer that a search cannot
give in time comes from the fast lane instead (the opening book, or each move's static value),
marked ``"degraded": true``. The answer is sent within the budget plus a tenth of it (a quarter
second at most).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NoReturn, NotRequired, TypedDict, cast

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse

from zermelo.agents.spec import AZ, check_level, levels_for
from zermelo.core.capabilities import Loads
from zermelo.core.errors import (
    N_,
    BudgetError,
    CapabilityError,
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
    ZermeloError,
)
from zermelo.core.jsontext import Json
from zermelo.core.record import LEVELS, OptionValue
from zermelo.core.scores import POINTS, Unit, describe, outcome_of, unit_of, value_text
from zermelo.core.state import (
    AnyState,
    HiddenInfo,
    Player,
    end_reason,
    is_chance,
    payoff_of,
    sample_outcome,
)
from zermelo.games.registry import game_names
from zermelo.games.tictactoe import TicTacToeState
from zermelo.i18n import LANGUAGES, translation_for
from zermelo.search.result import SearchResult
from zermelo.solvers.kernels import preparing
from zermelo.ui.web.adapters import (
    Adapter,
    Board,
    adapter_for,
    available_games,
)
from zermelo.ui.web.chance import ServerKeyError, issue_id, outcome_rng, verify_id
from zermelo.ui.web.engines import Choice, generic_values, search_order, static_values, valued
from zermelo.ui.web.explain import ExplainNode, explain, explain_chance
from zermelo.ui.web.lanes import BusyError, FastLane, SearchPool
from zermelo.ui.web.messages import PREPARING, best_language, messages_for, plurals_for
from zermelo.workers import WorkerFailed, WorkerTimeout

__all__ = [
    "BODY_SECONDS",
    "MAX_BODY",
    "MAX_MOVES",
    "AnalysisJson",
    "Budget",
    "ChoiceAnswer",
    "Clock",
    "Degraded",
    "GameData",
    "GameJson",
    "Lanes",
    "SearchJson",
    "ValueJson",
]


class TextJson(TypedDict):
    """Words for the page to translate: an English message id and the fields it fills in."""

    id: str
    fields: dict[str, str]


class ValueJson(TypedDict):
    """A score from the side to move, as numbers and as words: ``words`` in English, ``text``
    the same words for the page to translate (:func:`zermelo.core.scores.value_text`, the one
    rule of the terminal and the page); ``estimate`` is in the game's ``unit``."""

    score: float
    exact: bool
    kind: str
    moves: int
    estimate: float
    unit: str
    words: str
    text: TextJson


class SearchJson(TypedDict):
    """What a search found: its move, value, line and totals (an answer's ``thinking``); the
    learned level's search (az) says its ``simulations`` too."""

    move: str | None
    value: ValueJson
    pv: list[str]
    depth: int
    nodes: int
    time_ms: float
    simulations: NotRequired[int]


class MoveJson(TypedDict):
    """One move's value in an analysis."""

    move: str
    value: ValueJson
    pv: list[str]
    expected: NotRequired[float]
    p_win: NotRequired[float | None]


class AnalysisJson(TypedDict):
    """``/api/analyze``'s answer: every move's value, best first; the endpoint adds the
    position, the side to move and whether the answer is degraded."""

    moves: list[MoveJson]
    best: str | None
    pv: list[str]
    value: ValueJson | None
    nodes: int
    time_ms: float
    position: NotRequired[str]
    to_move: NotRequired[str]
    degraded: NotRequired[bool]


class GameJson(TypedDict):
    """A position as the page needs it; ``/api/play`` adds the moves played, the AI's
    thinking, whether its move is degraded, and ``preparing``: the page's note while the game's
    compiled engine is being built (the plain copy played), else ``None``."""

    game: str
    title: str
    start: str
    start_to_move: str
    moves: list[str]
    position: str
    to_move: str
    ply: int
    terminal: bool
    winner: str | None
    reason: str | None
    record: str
    legal: list[str]
    board: Board
    last: list[int] | None
    line: list[list[int]]
    game_id: NotRequired[str]
    human: NotRequired[str]
    history: NotRequired[list[HistoryJson]]
    payoff: NotRequired[float | None]
    played: NotRequired[list[dict[str, str]]]
    thinking: NotRequired[SearchJson | None]
    degraded: NotRequired[bool]
    preparing: NotRequired[str | None]


class HistoryJson(TypedDict):
    """One move of a game of chance as the person may see it: who it belongs to (the side whose
    turn it is), its notation (``"?"`` for a deal of a hidden game), and whether it is a chance
    outcome (a roll, a deal) rather than a decision."""

    side: str
    move: str
    chance: bool


class GameData(TypedDict):
    """A game as a search process rebuilds it (see :func:`game_data`)."""

    game: str
    moves: list[str]
    position: NotRequired[str]
    options: NotRequired[dict[str, OptionValue]]
    expect: list[str | list[str]]


class Degraded(TypedDict):
    """A search process's answer when its search ran out of budget."""

    degraded: Literal[True]


class ChoiceAnswer(TypedDict):
    """A search process's AI move (see :func:`zermelo.ui.web.tasks.choose`)."""

    move: str
    thinking: SearchJson | None


MAX_BODY = 64 * 1024
"""Largest request body read, in bytes."""
BODY_SECONDS = 5.0
"""Longest time a client may take to send its request body."""
MAX_MOVES = 512
"""Longest move list accepted (more than any supported board has points)."""
MIN_TIME, MAX_TIME, DEFAULT_TIME = 0.05, 3.0, 1.0
MIN_NODES, MAX_NODES, DEFAULT_NODES = 100, 400_000, 200_000
MAX_ACCEPTED = 10**12
"""Budget numbers beyond plus or minus this are refused rather than clamped: no client means
them, and a bigger integer need not fit a float."""
MAX_SEED = 2**32 - 1
SYMBOLS = {Player.FIRST: "X", Player.SECOND: "O"}
"""The marks the boards draw the sides with (the API names the sides by the game's names)."""
_log = logging.getLogger("zermelo.web")
URGENT_THREADS = 16
MIN_SEARCH = 0.15
"""A search is not started with less time than this left: the fast lane answers instead.
Handing a position to a search process and its answer back costs tens of milliseconds on a
loaded machine (more when the process must first build the tables of a new board size), so a
shorter search would mostly spend its budget in transit and overrun it."""
QUICK_TIME = 0.05
"""Longest the fast lane spends on a degraded answer (each move's static value)."""
FAST_SEARCH = 0.1
"""Longest the fast lane searches a game whose record says it is quick (tic-tac-toe, nim); a
search that needs longer goes on in a search process."""


class PayloadError(ParseError):
    """A request body that is not a JSON object."""


class TooLargeError(PayloadError):
    """A request body over :data:`MAX_BODY` bytes."""


class MediaTypeError(PayloadError):
    """A request body that is not declared as ``application/json``."""


class SlowBodyError(PayloadError):
    """A request body that took longer than :data:`BODY_SECONDS` to arrive."""


_STATUS: list[tuple[type[ZermeloError], int]] = [
    (BusyError, 503),
    (WorkerFailed, 503),
    (ServerKeyError, 503),
    (CapabilityError, 422),
    (TooLargeError, 413),
    (MediaTypeError, 415),
    (SlowBodyError, 408),
    (PayloadError, 400),
    (UnknownGameError, 404),
    (IllegalMoveError, 422),
    (InvalidPositionError, 422),
    (ParseError, 400),
    (BudgetError, 400),
    (ZermeloError, 400),
]


def error_response(error: ZermeloError, language: str = "en") -> JSONResponse:
    """The error as JSON: its ``message`` in ``language`` (the request's), ``english`` as is."""
    status = next(code for kind, code in _STATUS if isinstance(error, kind))
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, BusyError) else None
    message = error.render(translation_for(language).gettext)
    return JSONResponse(
        {"error": {"type": type(error).__name__, "message": message, "english": str(error)}},
        status_code=status,
        headers=headers,
    )


def _urgent_lane() -> FastLane:
    return FastLane(threads=URGENT_THREADS, waiting=URGENT_THREADS)


@dataclass
class Lanes:
    """The lanes the endpoints share: ``fast`` for bounded work, ``search`` for searches, and
    ``urgent`` for the threads of requests whose search is over or under way: waiting for the
    Connect Four solver's process, and the answer after a search (so that neither holds a
    fast-lane thread, nor waits behind the many cheap requests in its queue)."""

    fast: FastLane = field(default_factory=FastLane)
    search: SearchPool = field(default_factory=SearchPool)
    urgent: FastLane = field(default_factory=_urgent_lane)


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _bounded_number(name: str, number: object, low: int, high: int) -> float | int:
    """``number`` when it is a finite JSON number from ``low`` to ``high``; checked before any
    conversion, so that a 400-digit integer is a mistake to report, not an overflow."""
    if isinstance(number, bool) or not isinstance(number, int | float):
        raise BudgetError(f"budget {name}={_short(number)}: expected a number")
    if not (low <= number <= high):  # int and float compare exactly, without converting
        raise BudgetError(f"budget {name}={_short(number)}: expected a number from {low} to {high}")
    return number


@dataclass(frozen=True)
class Budget:
    """A clamped search budget: seconds and nodes for the whole request."""

    time: float = DEFAULT_TIME
    nodes: int = DEFAULT_NODES

    @classmethod
    def from_json(cls, value: object) -> Budget:
        """Read ``{"time_ms": ..., "nodes": ...}``: numbers beyond what any client means are
        refused, the others clamped to :data:`MIN_TIME`-:data:`MAX_TIME` seconds and
        :data:`MIN_NODES`-:data:`MAX_NODES` nodes."""
        if value is None:
            return cls()
        if not isinstance(value, dict):
            raise BudgetError(f"budget {_short(value)}: expected an object with time_ms and nodes")
        unknown = sorted(str(key) for key in value if key not in ("time_ms", "nodes"))
        if unknown:
            raise BudgetError(
                f"budget: unknown field {_short(unknown[0])}: expected time_ms, nodes"
            )
        time_ms = _bounded_number(
            "time_ms", value.get("time_ms", DEFAULT_TIME * 1000), -MAX_ACCEPTED, MAX_ACCEPTED
        )
        nodes = _bounded_number(
            "nodes", value.get("nodes", DEFAULT_NODES), -MAX_ACCEPTED, MAX_ACCEPTED
        )
        seconds = min(max(float(time_ms) / 1000, MIN_TIME), MAX_TIME)
        count = int(min(max(nodes, MIN_NODES), MAX_NODES))
        return cls(seconds, count)


@dataclass(frozen=True)
class Clock:
    """One request's deadline: its budget counts from when the server started on it."""

    budget: float
    started: float = field(default_factory=time.monotonic)

    def left(self) -> float:
        """Seconds left of the budget."""
        return self.started + self.budget - time.monotonic()

    @property
    def hard(self) -> float:
        """The ``time.monotonic()`` by which the answer must be on its way."""
        return self.started + self.budget + min(0.1 * self.budget, 0.25)

    @property
    def search_deadline(self) -> float:
        """When a search process that has not answered is stopped: early enough for the fast
        lane's quick answer to follow within :attr:`hard`."""
        return self.hard - min(QUICK_TIME + 0.1, 0.05 + 0.1 * self.budget)

    def fast_time(self) -> float:
        """What a quick game's search in the fast lane may take: :data:`FAST_SEARCH` at most,
        and at most three fifths of what is left before :attr:`hard` (the rest is for handing
        the answer over and writing it)."""
        return min(FAST_SEARCH, max((self.hard - time.monotonic()) * 0.6, 0.005))

    def quick_time(self) -> float:
        """What the quick answer may take of what is left: at most a third of it, since on a
        busy machine the threads that turn it into an answer wait their turn too."""
        return min(QUICK_TIME, max((self.hard - time.monotonic()) / 3, 0.005))

    def search_time(self) -> float:
        """What a search may take of what is left: it must have answered by
        :attr:`search_deadline`, with a margin for handing over the position and the answer
        and for a loaded machine (a fifth of the budget, at most 300 ms)."""
        return self.search_deadline - time.monotonic() - min(0.2 * self.budget, 0.3)


# -- reading requests -----------------------------------------------------------------------------


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def is_json_type(content_type: str | None) -> bool:
    """True for ``application/json`` (any parameters, any case)."""
    if content_type is None:
        return False
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


async def read_json(request: Request) -> dict[str, Json]:
    """The request body as a JSON object: declared as ``application/json``, at most
    :data:`MAX_BODY` bytes, sent within :data:`BODY_SECONDS`."""
    if not is_json_type(request.headers.get("content-type")):
        raise MediaTypeError(
            f"content type {_short(request.headers.get('content-type'))}: expected application/json"
        )
    declared = request.headers.get("content-length")
    if declared is not None and (
        not (declared.isascii() and declared.isdigit())
        or len(declared) > 12
        or int(declared) > MAX_BODY
    ):
        raise TooLargeError(f"request body is larger than {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_BODY:
                    raise TooLargeError(f"request body is larger than {MAX_BODY} bytes")
    except TimeoutError:
        raise SlowBodyError(f"the request body took longer than {BODY_SECONDS:g} s") from None
    body = b"".join(chunks)
    try:
        data = json.loads(body or b"{}", parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise PayloadError(f"request body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise PayloadError(f"request body {str(data)[:60]!r}: expected a JSON object")
    return data


@dataclass(frozen=True)
class Game:
    """A replayed game: its adapter, start state, the moves played and the current state, with
    what the start was built from (the checked ``options``, or the ``position`` in notation), so
    that a search process rebuilds exactly this game (see :func:`game_data`).

    A game of chance also has the id the server issued for it (``game_id``), the side the person
    plays (``human``: whose view a hidden game shows) and, for each move, whether it was a chance
    outcome the server drew (``chance``)."""

    adapter: Adapter
    start: AnyState
    moves: tuple[Hashable, ...]
    states: tuple[AnyState, ...]
    options: dict[str, OptionValue] = field(default_factory=dict)
    position: str | None = None
    game_id: str | None = None
    human: Player | None = None
    chance: tuple[bool, ...] = ()

    @property
    def state(self) -> AnyState:
        return self.states[-1]

    @property
    def hidden(self) -> bool:
        return self.adapter.spec.hidden

    @property
    def viewer(self) -> Player | None:
        """The side whose view the answers show: the person's in a hidden game, else ``None``
        (the whole board)."""
        return self.human if self.hidden else None

    @property
    def chance_events(self) -> int:
        return sum(self.chance)


MAX_CHANCE = 4 * MAX_MOVES + 64
"""Most chance events a replay draws: far more than any game here rolls between its decisions."""


def load_game(data: Mapping[str, object], *, trusted: bool = False) -> Game:
    """Replay ``data``'s game: ``game``, optional ``options`` or ``position``, and ``moves``.

    For a game of chance, ``moves`` are the decisions only, and ``game_id`` the id the server
    issued (none for a new game: one is issued, for the side ``human`` names): the server draws
    every chance outcome (:mod:`zermelo.ui.web.chance`), before, between and after them, until a
    decision is due or the game ends. ``trusted`` is for a search process rebuilding the server's
    own game (:func:`replay`), whose ``moves`` hold the outcomes too: never for a client's
    request."""
    adapter = adapter_for(data.get("game", game_names()[0]))
    spec = adapter.spec
    position = data.get("position")
    options = adapter.check_options(data.get("options"))
    first = _first(spec.sides, spec.first_mover, data.get("first"))
    given: str | None = None
    if position is not None and position != "":
        if not isinstance(position, str) or len(position) > 2000:
            raise ParseError(f"position {str(position)[:60]!r}: expected the game's notation")
        if options and spec.parse_on is None:
            raise ParseError("give either a position or options, not both")
        given = position
        start = spec.read(position, options)
    else:
        position = None
        start = spec.new(**options) if first is None else spec.new(first=first, **options)
        if first is not None:
            # A search process rebuilds this start from its notation (see game_data).
            position = start.notation()
    moves_text = data.get("moves", [])
    if not isinstance(moves_text, list) or len(moves_text) > MAX_MOVES:
        raise ParseError(f"moves: expected a list of at most {MAX_MOVES} moves in notation")
    if spec.chance and not trusted:
        return _replay_chance(adapter, start, moves_text, data, options, position, given, first)
    state = start
    states = [start]
    moves: list[Hashable] = []
    flags: list[bool] = []
    for index, text in enumerate(moves_text):
        flags.append(is_chance(state))
        state, move = _play_text(state, text, index)
        states.append(state)
        moves.append(move)
    chance = tuple(flags) if spec.chance else ()
    return Game(adapter, start, tuple(moves), tuple(states), options, position, chance=chance)


def _bound(
    adapter: Adapter,
    options: Mapping[str, OptionValue],
    given: str | None,
    first: Player | None,
) -> Json:
    """What a game id is issued for: the game, its options and its start (see chance.py)."""
    return {
        "game": adapter.name,
        "options": dict(options),
        "position": given,
        "first": None if first is None else int(first),
    }


def _human(sides: tuple[str, str], value: object) -> Player | None:
    if value is None:
        return None
    names = {name.lower(): Player(index) for index, name in enumerate(sides)}
    if not isinstance(value, str) or value.lower() not in names:
        raise ParseError(f"human {_short(value)}: expected one of {', '.join(sides)}")
    return names[value.lower()]


def _replay_chance(
    adapter: Adapter,
    start: AnyState,
    decisions: list[object],
    data: Mapping[str, object],
    options: dict[str, OptionValue],
    position: str | None,
    given: str | None,
    first: Player | None,
) -> Game:
    """A client's game of chance: its decisions replayed, every outcome drawn by the server."""
    spec = adapter.spec
    bound = _bound(adapter, options, given, first)
    asked = _human(spec.sides, data.get("human"))
    game_id = data.get("game_id")
    if game_id is None:
        if decisions:
            raise ParseError(
                "moves of a game of chance need the game_id the server issued for the game "
                "(ask /api/state without moves for a new game)"
            )
        human = Player.FIRST if asked is None else asked
        game_id = issue_id(human, bound)
    else:
        human = verify_id(game_id, bound)
        if asked is not None and asked != human:
            raise ParseError(
                f"human {spec.sides[asked]!r}: this game was issued to {spec.sides[human]}"
            )
    assert isinstance(game_id, str)
    game = Game(adapter, start, (), (start,), options, position, game_id, human)
    for index, text in enumerate(decisions):
        game, _ = settle(game)
        state = game.state
        where = f" (decision {index + 1})"
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise ParseError(
                f"move {str(text)[:20]!r}{where}: expected a move in the game's notation"
            )
        if state.is_terminal():
            raise IllegalMoveError(f"move {text!r}{where}: the game is already over")
        move = state.parse_move(text)
        legal = state.legal_moves()
        if move not in legal:
            # Said without the position: a hidden game's notation holds the other side's cards.
            raise IllegalMoveError(
                f"move {text!r}{where} is illegal: expected one of "
                + ", ".join(state.format_move(m) for m in sorted(legal))
            )
        game = _extended(game, move, state.play(move), chance=False)
    game, _ = settle(game)
    return game


def settle(game: Game) -> tuple[Game, list[dict[str, str]]]:
    """Draw the chance outcomes due in ``game`` (none unless it is a client's game of chance),
    until a decision is due or the game ends; with the ``played`` entries they make."""
    played: list[dict[str, str]] = []
    if game.game_id is None:
        return game, played
    while is_chance(game.state) and not game.state.is_terminal():
        index = game.chance_events
        if index >= MAX_CHANCE:
            raise InvalidPositionError(
                f"{game.adapter.name}: more than {MAX_CHANCE} chance events in one game"
            )
        state = game.state
        outcome = sample_outcome(state, outcome_rng(game.game_id, index))
        played.append({"by": "chance", "move": "?" if game.hidden else state.format_move(outcome)})
        game = _extended(game, outcome, state.play(outcome), chance=True)
    return game, played


def _first(sides: tuple[str, str], fixed: Player | None, first: object) -> Player | None:
    """The side that starts, from a request's ``first`` (a side's name): only a game whose rules
    let either side start takes it; ``None`` for the game's usual start."""
    if first is None:
        return None
    names = {name.lower(): Player(index) for index, name in enumerate(sides)}
    if not isinstance(first, str) or first.lower() not in names:
        raise ParseError(f"first {_short(first)}: expected one of {', '.join(sides)}")
    player = names[first.lower()]
    if fixed is not None and player != fixed:
        raise ParseError(f"first {first!r}: in this game {sides[fixed]} always moves first")
    return None if fixed is not None else player


MAX_MOVE_TEXT = 80
"""Longest move text accepted: OpenSpiel's amazons writes a move in about 45 characters."""


def _play_text(
    state: AnyState, text: object, index: int | None = None
) -> tuple[AnyState, Hashable]:
    where = "" if index is None else f" (move {index + 1})"
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        raise ParseError(f"move {str(text)[:20]!r}{where}: expected a move in the game's notation")
    move = state.parse_move(text)
    if state.is_terminal():
        raise IllegalMoveError(f"move {text!r}{where}: the game is already over")
    try:
        return state.play(move), move
    except IllegalMoveError as error:
        raise IllegalMoveError(f"move {text!r}{where} is illegal: {error}") from None


def _seed(data: Mapping[str, object]) -> int:
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ParseError(f"seed {seed!r}: expected a whole number from 0 to {MAX_SEED}")
    return seed


def _level(data: Mapping[str, object]) -> str:
    """The request's level: easy, medium, hard, or az (checked against the game once it is
    loaded, see :func:`~zermelo.agents.spec.check_level`)."""
    level = data.get("level", "hard")
    if level not in (*LEVELS, AZ):
        raise ParseError(
            N_("unknown level {level}: expected one of {levels}"),
            level=_short(level),
            levels=", ".join((*LEVELS, AZ)),
        )
    return str(level)


# -- answers --------------------------------------------------------------------------------------


def board_of(game: Game, state: AnyState) -> Board:
    """``state``'s board as the page draws it: a hidden game's as the person sees it (the
    record's ``view``), any other game's whole."""
    return game.adapter.board(state, game.viewer)


def _cell_of_last_move(game: Game, before: AnyState, after: AnyState) -> list[int] | None:
    """Row (from the top) and column of the cell the last move changed, if the board kept its
    shape and one cell changed first."""
    old, new = board_of(game, before)["cells"], board_of(game, after)["cells"]
    if len(old) != len(new):
        return None
    for row, (a, b) in enumerate(zip(old, new, strict=True)):
        if len(a) != len(b):
            return None
        for col, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return [row, col]
    return None


def _notations(game: Game) -> list[str]:
    return [before.format_move(move) for before, move in zip(game.states, game.moves, strict=False)]


def decisions(game: Game) -> list[str]:
    """The decisions of a game of chance in notation: what its client sends back."""
    return [text for text, chance in zip(_notations(game), game.chance, strict=True) if not chance]


def history(game: Game) -> list[HistoryJson]:
    """Every move of a game of chance as the person may see it: a hidden game's deals as ``?``."""
    sides = game.adapter.spec.sides
    return [
        {
            "side": sides[before.to_move],
            "move": "?" if chance and game.hidden else text,
            "chance": chance,
        }
        for before, text, chance in zip(game.states, _notations(game), game.chance, strict=False)
    ]


def _seen(game: Game, state: AnyState) -> str:
    """A position as the answers write it: a hidden game's as the person observes it, never its
    notation (which holds the other side's cards)."""
    if game.hidden and game.human is not None and isinstance(state, HiddenInfo):
        return state.observation(game.human)
    if game.hidden:
        return ""
    return state.notation()


def game_json(game: Game) -> GameJson:
    """The current position as the page needs it."""
    state = game.state
    winner = state.winner
    spec = game.adapter.spec
    sides = spec.sides
    moves = _notations(game)
    answer: GameJson = {
        "game": game.adapter.name,
        "title": spec.title,
        "start": _seen(game, game.start),
        "start_to_move": sides[game.start.to_move],
        "moves": decisions(game) if game.game_id is not None else moves,
        "position": _seen(game, state),
        "to_move": sides[state.to_move],
        "ply": state.ply,
        "terminal": state.is_terminal(),
        "winner": None if winner is None else sides[winner],
        "reason": end_reason(state),
        "record": game_record(game, moves),
        "legal": [state.format_move(m) for m in sorted(state.legal_moves())],
        "board": board_of(game, state),
        "last": None,
        "line": [],
    }
    if game.game_id is not None and game.human is not None:
        answer["game_id"] = game.game_id
        answer["human"] = sides[game.human]
        answer["history"] = history(game)
    if spec.scored or spec.chance:
        # What the first player has won (a scored game's points; +1/-1 by the winner else).
        answer["payoff"] = payoff_of(state) if state.is_terminal() else None
    if winner is not None:
        answer["line"] = game.adapter.line(state, answer["board"], SYMBOLS[winner], game.viewer)
    if game.moves and game.adapter.last_cell is not None:
        answer["last"] = game.adapter.last_cell(game.states[-2], game.moves[-1])
        if answer["board"]["kind"] == "draughts" and not answer["board"].get("last"):
            answer["board"]["last"] = list(
                game.adapter.last_squares(game.states[-2], game.moves[-1])
            )
    elif game.moves:
        answer["last"] = _cell_of_last_move(game, game.states[-2], state)
    return answer


def game_record(game: Game, moves: Sequence[str]) -> str:
    """The game so far as text the page exports and :func:`import_game` reads back: the game's
    own file format where it has one (chess: PGN), else the start position's notation on one
    line and the moves on the next (the terminal's saved game)."""
    if game.hidden:
        # Only what the person saw: the position as observed, and the public decisions.
        return f"{_seen(game, game.state)}\n{' '.join(decisions(game))}\n"
    saver = game.adapter.spec.saver
    if saver is not None:
        return saver.resolve().save(game.state)
    return f"{game.start.notation()}\n{' '.join(moves)}\n"


def value_json(value: float, exact: bool, unit: Unit = POINTS) -> ValueJson:
    """A score from the side to move, as numbers and as words (:func:`value_text`)."""
    outcome = outcome_of(value, exact=exact)
    words, fields = value_text(value, exact=exact, unit=unit)
    return {
        "score": value,
        "exact": exact,
        "kind": outcome.kind,
        "moves": outcome.moves,
        "estimate": outcome.estimate / unit.per,
        "unit": unit.words,
        "words": describe(value, exact=exact, unit=unit),
        "text": {"id": words, "fields": fields},
    }


def _line(state: AnyState, line: tuple[Hashable, ...]) -> list[str]:
    words = []
    for move in line:
        words.append(state.format_move(move))
        state = state.play(move)
    return words


def search_json(state: AnyState, result: SearchResult[Hashable]) -> SearchJson:
    return {
        "move": None if result.move is None else state.format_move(result.move),
        "value": value_json(result.value, result.exact, unit_of(state)),
        "pv": _line(state, result.pv),
        "depth": result.depth,
        "nodes": result.stats.nodes,
        "time_ms": round(result.stats.elapsed * 1000, 3),
    }


def analysis_json(state: AnyState, analysis: SearchResult[Hashable]) -> AnalysisJson:
    """A search's values of the moves (its ``moves``, best first) as ``/api/analyze`` answers
    them: the best is the first of them."""
    if not analysis.moves:
        return {"moves": [], "best": None, "pv": [], "value": None, "nodes": 0, "time_ms": 0.0}
    best = analysis.moves[0]
    unit = unit_of(state)
    return {
        "moves": [
            {
                "move": state.format_move(entry.move),
                "value": value_json(entry.value, entry.exact, unit),
                "pv": _line(state, entry.pv),
            }
            for entry in analysis.moves
        ],
        "best": state.format_move(best.move),
        "pv": _line(state, best.pv),
        "value": value_json(best.value, best.exact, unit),
        "nodes": analysis.stats.nodes,
        "time_ms": round(analysis.stats.elapsed * 1000, 3),
    }


def analyze_position(
    state: AnyState, adapter: Adapter, budget: Budget, *, generic: bool = False
) -> AnalysisJson:
    """Every legal move's value for the side to move, best first, with the search's totals.
    ``generic``: alpha-beta's values, not the game's own engine's. A finished game has no
    moves, and its answer costs nothing (no engine is loaded for it)."""
    if state.is_terminal():
        return analysis_json(state, valued(()))
    if generic:
        analysis = generic_values(
            state, time_limit=budget.time, node_limit=budget.nodes, depth=adapter.analysis_depth
        )
    else:
        analysis = adapter.analyze(state, budget.time, budget.nodes)
    return analysis_json(state, analysis)


SOLVED_POSITIONS = 6000
"""Solved positions of quick games kept (tic-tac-toe's 5,478 all fit)."""
_SOLVED: collections.OrderedDict[tuple[str, AnyState], AnalysisJson] = collections.OrderedDict()
_SOLVED_LOCK = threading.Lock()


def quick_values(
    name: str, state: AnyState, seconds: float, nodes: int
) -> tuple[AnalysisJson, bool]:
    """Every move's value in a position of a game whose record says it is quick to solve, within
    ``seconds`` and ``nodes``, and whether all of them are exact. A solved position is kept (the
    last :data:`SOLVED_POSITIONS` of them), and answered at once the next time, with the nodes
    and time of its first search."""
    key = (name, state)
    with _SOLVED_LOCK:
        kept = _SOLVED.get(key)
        if kept is not None:
            _SOLVED.move_to_end(key)
            return kept.copy(), True  # a copy: the endpoint adds the position to its answer
    analysis = adapter_for(name).analyze(state, seconds, nodes)
    answer = analysis_json(state, analysis)
    exact = bool(analysis.moves) and all(entry.exact for entry in analysis.moves)
    if exact:
        with _SOLVED_LOCK:
            _SOLVED[key] = answer.copy()
            while len(_SOLVED) > SOLVED_POSITIONS:
                _SOLVED.popitem(last=False)
    return answer, exact


def quick_analysis(state: AnyState, seconds: float = QUICK_TIME) -> AnalysisJson:
    """The degraded answer: each move's static value (a win on the spot is exact), for as many
    moves as ``seconds`` allow, in the game's search order."""
    return analysis_json(state, static_values(state, seconds))


def quick_move(state: AnyState, seconds: float = QUICK_TIME) -> tuple[Hashable, SearchJson | None]:
    """The degraded AI move: the best static value found in ``seconds``, else the first move of
    the game's search order."""
    analysis = static_values(state, seconds)
    if analysis.move is not None:
        return analysis.move, search_json(state, analysis)
    return search_order(state)[0], None


def ai_move(
    game: Game, level: str, seed: int, budget: Budget
) -> tuple[Hashable, SearchJson | None]:
    """The AI's move in the game's current state, and what its search found (when it says)."""
    state = game.state
    choice = game.adapter.ai_choice(state, level, seed, budget.time)
    thinking = None if choice.result is None else search_json(state, choice.result)
    return choice.move, thinking


# -- endpoints ------------------------------------------------------------------------------------


def game_data(game: Game) -> GameData:
    """The whole game as a search process rebuilds it: the game, what its start was built from
    (its options, or the position it was given) and the moves, in notation, with what the
    rebuilt game must show (:func:`fingerprint`), so that nothing falls back to a default on the
    way (a start position's notation alone may not say the board's size)."""
    moves = _notations(game)  # a game of chance's outcomes too: the process replays them
    name, expect = game.adapter.name, fingerprint(game.state)
    if game.position is not None:
        data: GameData = {"game": name, "moves": moves, "position": game.position, "expect": expect}
        if game.options:  # a position on the board the options make (see GameSpec.read)
            data["options"] = dict(game.options)
        return data
    return {"game": name, "moves": moves, "options": dict(game.options), "expect": expect}


def fingerprint(state: AnyState) -> list[str | list[str]]:
    """What two copies of one position share: its notation and its legal moves in notation."""
    return [state.notation(), sorted(state.format_move(move) for move in state.legal_moves())]


def replay(data: Mapping[str, object]) -> Game:
    """The game of :func:`game_data`, checked against its fingerprint."""
    expected = data.get("expect")
    game = load_game({key: value for key, value in data.items() if key != "expect"}, trusted=True)
    if expected is not None and fingerprint(game.state) != expected:
        raise InvalidPositionError(
            f"the search process rebuilt another position of {game.adapter.name}: "
            f"{game.state.notation()!r}"
        )
    return game


def _answer(
    game: Game, played: list[dict[str, str]], thinking: SearchJson | None, degraded: bool
) -> GameJson:
    answer = game_json(game)
    answer["played"] = played
    answer["thinking"] = thinking
    answer["degraded"] = degraded
    return answer


def _play_checked(game: Game, move_text: object) -> tuple[Game, list[dict[str, str]]]:
    """The person's move played, then (a game of chance) the outcomes it leads to drawn."""
    before = game.state
    if game.game_id is not None:
        # Checked here, with a message that never quotes the position (a hidden game's notation
        # holds the other side's cards).
        game = _replay_chance_move(game, move_text)
        state, move = game.state, game.moves[-1]
    else:
        state, move = _play_text(before, move_text)
        game = _extended(game, move, state)
    played = [{"by": "you", "move": before.format_move(move)}]
    game, drawn = settle(game)
    return game, played + drawn


def _replay_chance_move(game: Game, text: object) -> Game:
    state = game.state
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        raise ParseError(f"move {str(text)[:20]!r}: expected a move in the game's notation")
    if state.is_terminal():
        raise IllegalMoveError(f"move {text!r}: the game is already over")
    move = state.parse_move(text)
    legal = state.legal_moves()
    if move not in legal:
        raise IllegalMoveError(
            f"move {text!r} is illegal: expected one of "
            + ", ".join(state.format_move(m) for m in sorted(legal))
        )
    return _extended(game, move, state.play(move))


def _with_ai_move(game: Game, move_text: str) -> tuple[Game, list[dict[str, str]]]:
    before = game.state
    move = before.parse_move(move_text)
    after = before.play(move)
    played = [{"by": "ai", "move": before.format_move(move)}]
    game, drawn = settle(_extended(game, move, after))
    return game, played + drawn


MAX_IMPORT = 32 * 1024
"""Longest text a person may import (a long PGN game is a few kilobytes)."""


class ImportJson(TypedDict):
    """``/api/import``'s answer: what the page sends from now on to replay the imported game
    (``position`` ``None`` for the usual start), and the game's position as ``/api/state``
    gives it."""

    request: dict[str, Json]
    state: GameJson


def import_game(data: Mapping[str, object]) -> ImportJson:
    """Read ``data["text"]`` as a game of ``data["game"]`` (on the board of its ``options``):
    a position in the game's notation (a FEN), the game's own file format (a PGN), the
    terminal's saved game (a position's line, then a line of moves), or a list of moves from the
    usual start. The first reading whose replay the game accepts is the answer; when none is,
    one line says what the text is not."""
    text = data.get("text")
    if not isinstance(text, str) or len(text) > MAX_IMPORT:
        raise ParseError(f"text {str(text)[:40]!r}: expected a position or a game, as text")
    text = text.strip()
    if not text:
        raise ParseError("nothing to import: paste a position or a list of moves")
    adapter = adapter_for(data.get("game", game_names()[0]))
    spec = adapter.spec
    if spec.hidden:
        raise CapabilityError(
            f"{spec.title} hides cards: a game of it cannot be imported, since the deal is the "
            "server's to make; its export holds only what you saw"
        )
    options = adapter.check_options(data.get("options"))
    base: dict[str, Json] = {"game": adapter.name, "options": dict(options)}
    if spec.parse_on is None and options:
        base_position: dict[str, Json] = {"game": adapter.name}
    else:
        base_position = base
    readings: list[dict[str, Json]] = [{**base_position, "position": text, "moves": []}]
    saver: object = spec.saver.resolve() if spec.saver is not None else None
    if isinstance(saver, Loads):
        try:
            start, moves = saver.load(text)
        except ZermeloError as error:
            readings.append({"error": str(error)})
        else:
            readings.append({**base_position, "position": start or None, "moves": list(moves)})
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) == 2:
        readings.append({**base_position, "position": lines[0], "moves": _words(lines[1])})
    readings.append({**base, "moves": _words(text)})
    problems: list[str] = []
    file_problem: str | None = None  # the game's own file format's, which says most
    for request in readings:
        if "error" in request:
            file_problem = str(request["error"])
            continue
        if request.get("position") is None:
            request.pop("position", None)
        try:
            if spec.chance:
                request = _chance_import(request)  # noqa: PLW2901 - the reading to answer
            game = load_game(request)
        except ZermeloError as error:
            problems.append(str(error))
            continue
        if game.game_id is not None:
            request["game_id"] = game.game_id
        return {"request": request, "state": game_json(game)}
    first, last = problems[0], file_problem or problems[-1]
    raise ParseError(
        f"{text[:40]!r} is neither a position of {spec.title} ({first}) nor its moves ({last})"
    )


def _chance_import(request: dict[str, Json]) -> dict[str, Json]:
    """A game of chance read from text starts afresh from its last position: the outcomes in the
    text are the text's, and from here on the server draws them (with a new game id)."""
    game = load_game(request, trusted=True)
    state = game.state
    if state.is_terminal():
        raise IllegalMoveError(f"the game in the text is already over ({state.notation()})")
    fresh: dict[str, Json] = {"game": request["game"], "moves": [], "position": state.notation()}
    if "options" in request and game.adapter.spec.parse_on is not None:
        fresh["options"] = request["options"]
    return fresh


def _words(text: str) -> list[Json]:
    """A list of moves written with spaces or commas between them, and move numbers ("1.",
    "12...") left out."""
    words = text.replace(",", " ").split()
    moves: list[Json] = []
    for word in words:
        cleaned = (
            word.lstrip("0123456789").lstrip(".") if word[:1].isdigit() and "." in word else word
        )
        if cleaned:
            moves.append(cleaned)
    return moves


def _extended(game: Game, move: Hashable, state: AnyState, *, chance: bool = False) -> Game:
    flags = (*game.chance, chance) if game.adapter.spec.chance else ()
    return dataclasses.replace(
        game, moves=(*game.moves, move), states=(*game.states, state), chance=flags
    )


class Api:
    """The endpoints, sharing one :class:`Lanes`."""

    def __init__(self, lanes: Lanes | None = None, games: Sequence[str] = ()) -> None:
        self.lanes = lanes or Lanes()
        self.extra_games = tuple(games)

    def games_json(self) -> dict[str, list[dict[str, object]]]:
        games: list[dict[str, object]] = []
        for name in available_games(self.extra_games):
            adapter = adapter_for(name)
            spec = adapter.spec
            try:
                initial = game_json(load_game({"game": name}))
            except ServerKeyError as error:
                # The games of chance need the server's key; the others play on without it.
                _log.warning("%s is left out of the games: %s", name, error)
                continue
            games.append(
                {
                    "name": name,
                    "title": spec.title,
                    "kind": adapter.kind,
                    "marks": adapter.board_kind.marks,
                    "sides": list(spec.sides),
                    # Who must start (the first side's name), or null when either side may.
                    "first_mover": None
                    if spec.first_mover is None
                    else spec.sides[spec.first_mover],
                    "notation": spec.notation,
                    "options": {
                        option.name: {**option.describe(), "help": option.help}
                        for option in spec.options
                    },
                    "levels": list(levels_for(spec)),
                    "explain": adapter.tree,
                    "chance": spec.chance,
                    "hidden": spec.hidden,
                    "scored": spec.scored,
                    "initial": initial,
                }
            )
        return {"games": games}

    async def games(self, request: Request) -> JSONResponse:
        return JSONResponse(await self.lanes.fast.run(self.games_json))

    async def messages(self, request: Request) -> JSONResponse:
        lang = best_language(
            request.query_params.get("lang"), request.headers.get("accept-language")
        )
        return JSONResponse(
            {
                "lang": lang,
                "languages": LANGUAGES,
                "messages": messages_for(lang),
                "plurals": plurals_for(lang),
            },
            headers={"Vary": "Accept-Language"},
        )

    async def state(self, request: Request) -> JSONResponse:
        data = await read_json(request)
        return JSONResponse(await self.lanes.fast.run(lambda: game_json(load_game(data))))

    async def import_(self, request: Request) -> JSONResponse:
        """Read a pasted position or game (see :func:`import_game`)."""
        data = await read_json(request)
        return JSONResponse(await self.lanes.fast.run(lambda: import_game(data)))

    async def play(self, request: Request) -> JSONResponse:
        """Play the person's ``move`` (if any), then let the AI reply when ``ai`` is true."""
        data = await read_json(request)
        budget = Budget.from_json(data.get("budget"))
        clock = Clock(budget.time)
        level = _level(data)
        seed = _seed(data)
        reply = data.get("ai", True)
        if not isinstance(reply, bool):
            raise ParseError(f"ai {_short(reply)}: expected true or false")
        move_text = data.get("move")

        def prepare() -> tuple[Game, list[dict[str, str]]]:
            game = load_game(data)
            check_level(game.adapter.spec, level)
            played: list[dict[str, str]] = []
            if move_text is not None:
                game, played = _play_checked(game, move_text)
            return game, played

        game, played = await self.lanes.fast.run(prepare, deadline=clock.hard)
        # In a game of chance a turn need not pass (a Pig player keeps rolling): the AI moves
        # only when the decision due is its own.
        yours = game.human is not None and game.state.to_move == game.human
        if not reply or game.state.is_terminal() or yours:
            return JSONResponse(
                await self.lanes.fast.run(_answer, game, played, None, False, deadline=clock.hard)
            )
        move_text_ai, thinking, degraded = await self._ai_move(game, level, seed, budget, clock)

        def finish() -> GameJson:
            after, theirs = _with_ai_move(game, move_text_ai)
            # A hidden game's AI says nothing of its search: its values would tell its cards.
            shown = None if game.hidden else thinking
            answer = _answer(after, [*played, *theirs], shown, degraded)
            answer["preparing"] = PREPARING if preparing(game.adapter.name) else None
            return answer

        return JSONResponse(await self.lanes.urgent.run(finish))

    async def _ai_move(
        self, game: Game, level: str, seed: int, budget: Budget, clock: Clock
    ) -> tuple[str, SearchJson | None, bool]:
        """The AI's move (notation), its search, and whether the answer is degraded."""
        state = game.state
        name = game.adapter.name
        fast = self.lanes.fast
        fallback: tuple[str, SearchJson | None, bool] | None = None
        if game.adapter.spec.quick and level != AZ:
            # A quick game's search starts in the fast lane, for at most FAST_SEARCH: the record
            # says it ends in milliseconds, but a plugin's record may be wrong, and no game may
            # hold the fast lane for longer. The learned level's simulations, bounded by count
            # and not by time, run in a search process only.
            quick = Budget(clock.fast_time(), budget.nodes)
            move, thinking = await fast.run(ai_move, game, level, seed, quick, deadline=clock.hard)
            fallback = state.format_move(move), thinking, False
            if thinking is None or thinking["value"]["exact"] or clock.search_time() < MIN_SEARCH:
                return fallback
        alphabeta_only = False
        engine = game.adapter.engine
        if engine is not None and engine.book_choice is not None and level == "hard":
            booked = await fast.run(engine.book_choice, state, seed, deadline=clock.hard)
            if booked is not None:
                return state.format_move(booked.move), _thinking(state, booked), False
            if engine.solver_choice is not None and clock.search_time() >= MIN_SEARCH:
                solved = await self.lanes.urgent.run(
                    engine.solver_choice, state, seed, clock.search_time()
                )
                if solved is not None:
                    return state.format_move(solved.move), _thinking(state, solved), False
            alphabeta_only = True
        seconds = clock.search_time()
        if seconds >= MIN_SEARCH:
            try:
                answer = await self.lanes.search.call(
                    "zermelo.ui.web.tasks:choose",
                    game_data(game),
                    level,
                    seed,
                    seconds,
                    alphabeta_only,
                    deadline=clock.search_deadline,
                )
            except (WorkerTimeout, WorkerFailed) as error:
                _log.warning("search for %s gave no move in time: %s", name, error)
            else:
                if isinstance(answer, dict) and not answer.get("degraded"):
                    # Our own search process's answer: tasks.choose's ChoiceAnswer, as JSON.
                    chosen = cast(ChoiceAnswer, answer)
                    return chosen["move"], chosen["thinking"], False
        if fallback is not None:
            return fallback
        move, thinking = await self.lanes.urgent.run(quick_move, state, clock.quick_time())
        return state.format_move(move), thinking, True

    async def analyze(self, request: Request) -> JSONResponse:
        data = await read_json(request)
        budget = Budget.from_json(data.get("budget"))
        clock = Clock(budget.time)
        game = await self.lanes.fast.run(load_game, data, deadline=clock.hard)
        if game.hidden:
            raise CapabilityError(
                f"{game.adapter.spec.title} hides cards: its moves are not valued here, since "
                "their values would tell the cards you cannot see"
            )
        result, degraded = await self._analysis(game, budget, clock)
        if game.adapter.spec.chance:
            _expected(result, scored=game.adapter.spec.scored)
        result["position"] = game.state.notation()
        result["to_move"] = game.adapter.spec.sides[game.state.to_move]
        result["degraded"] = degraded
        return JSONResponse(result)

    async def _analysis(
        self, game: Game, budget: Budget, clock: Clock
    ) -> tuple[AnalysisJson, bool]:
        state = game.state
        name = game.adapter.name
        fast = self.lanes.fast
        if state.is_terminal():
            return analysis_json(state, valued(())), False
        fallback: AnalysisJson | None = None
        if game.adapter.spec.quick:
            # As in _ai_move: the fast lane searches for at most FAST_SEARCH, then a process.
            found, exact = await fast.run(
                quick_values, name, state, clock.fast_time(), budget.nodes, deadline=clock.hard
            )
            if exact or clock.search_time() < MIN_SEARCH:
                return found, False
            fallback = found
        generic = False
        engine = game.adapter.engine
        if engine is not None and engine.book_values is not None:
            booked = await fast.run(engine.book_values, state, deadline=clock.hard)
            if (
                booked is None
                and engine.solver_values is not None
                and clock.search_time() >= MIN_SEARCH
            ):
                booked = await self.lanes.urgent.run(
                    engine.solver_values, state, clock.search_time() * 2 / 3
                )
            if booked is not None:
                return await self.lanes.urgent.run(analysis_json, state, booked), False
            generic = True
        seconds = clock.search_time()
        if seconds >= MIN_SEARCH:
            try:
                answer = await self.lanes.search.call(
                    "zermelo.ui.web.tasks:analyze",
                    game_data(game),
                    seconds,
                    budget.nodes,
                    generic,
                    deadline=clock.search_deadline,
                )
            except (WorkerTimeout, WorkerFailed) as error:
                _log.warning("analysis of %s gave no values in time: %s", name, error)
            else:
                if isinstance(answer, dict) and not answer.get("degraded"):
                    # Our own search process's answer: tasks.analyze's AnalysisJson, as JSON.
                    return cast(AnalysisJson, answer), False
        if fallback is not None:
            return fallback, False
        return await self.lanes.urgent.run(quick_analysis, state, clock.quick_time()), True

    async def tree(self, request: Request) -> JSONResponse:
        data = await read_json(request)
        path = data.get("path", [])

        def node() -> ExplainNode:
            game = load_game(data)
            state = game.state
            if game.adapter.tree and game.adapter.spec.chance and not game.hidden:
                return explain_chance(state, path, game.adapter.spec.sides)
            if not game.adapter.tree or not isinstance(state, TicTacToeState):
                raise UnknownGameError(
                    f"the minimax tree is not drawn for {game.adapter.name!r}: expected one of "
                    + ", ".join(name for name in available_games() if adapter_for(name).tree)
                )
            return explain(state, path)

        return JSONResponse(await self.lanes.fast.run(node))


def _expected(result: AnalysisJson, *, scored: bool) -> None:
    """A game of chance's values as what they are: the expected payoff of each move from the
    side to move (``expected``), and for a game won or lost (+1/-1) the chance to win,
    ``(value + 1) / 2`` (``p_win``; ``None`` for a game scored in points)."""
    for entry in result["moves"]:
        value = entry["value"]["score"]
        entry["expected"] = value
        entry["p_win"] = None if scored else min(max((value + 1) / 2, 0.0), 1.0)


def _thinking(state: AnyState, choice: Choice[Hashable]) -> SearchJson | None:
    return None if choice.result is None else search_json(state, choice.result)
