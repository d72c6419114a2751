"""The JSON API behind the page: validation, search budgets and the answers.

The API is stateless: every request names the game, an optional start position in the game's
notation and the list of moves played since, and the server replays them. So concurrent games can
never mix, undo is the client dropping moves, nothing grows on the server, and a restart loses
nothing. Replaying a few hundred moves costs far less than any search.

Every field is checked before use; the only things a client's text reaches are the games' own
parsers (``GameSpec.parse``, ``state.parse_move``). A mistake becomes a 4xx answer with a JSON body
``{"error": {"type": ..., "message": ...}}`` whose message is the one of zermelo's own error.

Searches run in worker threads, at most :data:`SEARCH_THREADS` at a time, each under a budget the
server clamps (time and nodes), and at most :data:`MAX_WAITING` requests may wait for a thread; the
rest are told to come back (503).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse

from zermelo.agents.levels import LEVELS
from zermelo.core.errors import (
    BudgetError,
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    UnknownGameError,
    ZermeloError,
)
from zermelo.core.scores import describe, outcome_of
from zermelo.core.state import Player
from zermelo.i18n import LANGUAGES
from zermelo.search.result import SearchResult
from zermelo.ui.web.adapters import (
    Adapter,
    IntOption,
    adapter_for,
    available_games,
    winning_cells,
)
from zermelo.ui.web.explain import explain
from zermelo.ui.web.messages import best_language, messages_for, plurals_for

__all__ = [
    "MAX_BODY",
    "MAX_MOVES",
    "MAX_WAITING",
    "SEARCH_THREADS",
    "Budget",
    "SearchGate",
]

MAX_BODY = 64 * 1024
"""Largest request body read, in bytes."""
MAX_MOVES = 512
"""Longest move list accepted (more than any supported board has points)."""
SEARCH_THREADS = 2
MAX_WAITING = 8
MIN_TIME, MAX_TIME, DEFAULT_TIME = 0.01, 3.0, 1.0
MIN_NODES, MAX_NODES, DEFAULT_NODES = 100, 400_000, 200_000
MAX_SEED = 2**32 - 1
SYMBOLS = {Player.FIRST: "X", Player.SECOND: "O"}


class BusyError(ZermeloError):
    """Too many searches are waiting for a thread."""


class PayloadError(ParseError):
    """A request body that is not a JSON object."""


class TooLargeError(PayloadError):
    """A request body over :data:`MAX_BODY` bytes."""


_STATUS: list[tuple[type[ZermeloError], int]] = [
    (BusyError, 503),
    (TooLargeError, 413),
    (PayloadError, 400),
    (UnknownGameError, 404),
    (IllegalMoveError, 422),
    (InvalidPositionError, 422),
    (ParseError, 400),
    (BudgetError, 400),
    (ZermeloError, 400),
]


def error_response(error: ZermeloError) -> JSONResponse:
    status = next(code for kind, code in _STATUS if isinstance(error, kind))
    return JSONResponse(
        {"error": {"type": type(error).__name__, "message": str(error)}}, status_code=status
    )


class SearchGate:
    """At most ``threads`` searches at once, at most ``waiting`` more in the queue."""

    def __init__(self, threads: int = SEARCH_THREADS, waiting: int = MAX_WAITING) -> None:
        self.threads = threads
        self.waiting = waiting
        self.queued = 0
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, function: Callable[[], Any]) -> Any:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        if self.queued >= self.threads + self.waiting:
            raise BusyError("the server is busy with other searches; try again in a moment")
        self.queued += 1
        try:
            return await anyio.to_thread.run_sync(function, limiter=self._limiter)
        finally:
            self.queued -= 1


@dataclass(frozen=True)
class Budget:
    """A clamped search budget: seconds and nodes for the whole request."""

    time: float = DEFAULT_TIME
    nodes: int = DEFAULT_NODES

    @classmethod
    def from_json(cls, value: Any) -> Budget:
        """Read ``{"time_ms": ..., "nodes": ...}``; numbers out of range are clamped."""
        if value is None:
            return cls()
        if not isinstance(value, dict):
            raise BudgetError(f"budget {value!r}: expected an object with time_ms and nodes")
        time_ms = value.get("time_ms", DEFAULT_TIME * 1000)
        nodes = value.get("nodes", DEFAULT_NODES)
        for name, number in (("time_ms", time_ms), ("nodes", nodes)):
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise BudgetError(f"budget {name}={number!r}: expected a number")
        seconds = min(max(float(time_ms) / 1000, MIN_TIME), MAX_TIME)
        count = int(min(max(nodes, MIN_NODES), MAX_NODES))
        return cls(seconds, count)


# -- reading requests -----------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, refusing bodies over :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise TooLargeError(f"request body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLargeError(f"request body is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"{}", parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise PayloadError(f"request body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise PayloadError(f"request body {str(data)[:60]!r}: expected a JSON object")
    return data


@dataclass(frozen=True)
class Game:
    """A replayed game: its adapter, start state, the moves played and the current state."""

    adapter: Adapter
    start: Any
    moves: tuple[Any, ...]
    states: tuple[Any, ...]

    @property
    def state(self) -> Any:
        return self.states[-1]


def load_game(data: dict[str, Any]) -> Game:
    """Replay ``data``'s game: ``game``, optional ``options`` or ``position``, and ``moves``."""
    adapter = adapter_for(data.get("game", "tictactoe"))
    spec = adapter.spec()
    position = data.get("position")
    options = adapter.check_options(data.get("options"))
    if position is not None and position != "":
        if not isinstance(position, str) or len(position) > 2000:
            raise ParseError(f"position {str(position)[:60]!r}: expected the game's notation")
        if options:
            raise ParseError("give either a position or options, not both")
        start = spec.parse(position)
    else:
        start = spec.new(**options)
    moves_text = data.get("moves", [])
    if not isinstance(moves_text, list) or len(moves_text) > MAX_MOVES:
        raise ParseError(f"moves: expected a list of at most {MAX_MOVES} moves in notation")
    state = start
    states = [start]
    moves = []
    for index, text in enumerate(moves_text):
        state, move = _play_text(state, text, index)
        states.append(state)
        moves.append(move)
    return Game(adapter, start, tuple(moves), tuple(states))


MAX_MOVE_TEXT = 80
"""Longest move text accepted: OpenSpiel's amazons writes a move in about 45 characters."""


def _play_text(state: Any, text: Any, index: int | None = None) -> tuple[Any, Any]:
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


def _seed(data: dict[str, Any]) -> int:
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ParseError(f"seed {seed!r}: expected a whole number from 0 to {MAX_SEED}")
    return seed


def _level(data: dict[str, Any]) -> str:
    level = data.get("level", "hard")
    if level not in LEVELS:
        raise ParseError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    return str(level)


# -- answers --------------------------------------------------------------------------------------


def _cell_of_last_move(adapter: Adapter, before: Any, after: Any) -> list[int] | None:
    """Row (from the top) and column of the cell the last move filled: the one that changed."""
    old, new = adapter.board(before)["cells"], adapter.board(after)["cells"]
    for row, (a, b) in enumerate(zip(old, new, strict=True)):
        for col, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return [row, col]
    return None


def game_json(game: Game) -> dict[str, Any]:
    """The current position as the page needs it."""
    state = game.state
    winner = state.winner
    answer: dict[str, Any] = {
        "game": game.adapter.name,
        "title": game.adapter.spec().title,
        "start": game.start.notation(),
        "moves": [
            before.format_move(move) for before, move in zip(game.states, game.moves, strict=False)
        ],
        "position": state.notation(),
        "to_move": SYMBOLS[state.to_move],
        "ply": state.ply,
        "terminal": state.is_terminal(),
        "winner": None if winner is None else SYMBOLS[winner],
        "legal": [state.format_move(m) for m in sorted(state.legal_moves())],
        "board": game.adapter.board(state),
        "last": None,
        "line": [],
    }
    if winner is not None:
        answer["line"] = winning_cells(
            answer["board"]["cells"], SYMBOLS[winner], game.adapter.in_a_row(state)
        )
    if game.moves and game.adapter.last_cell is not None:
        answer["last"] = game.adapter.last_cell(game.moves[-1])
    elif game.moves:
        answer["last"] = _cell_of_last_move(game.adapter, game.states[-2], state)
    return answer


def value_json(value: float, exact: bool) -> dict[str, Any]:
    """A score from the side to move, as numbers and as English words."""
    outcome = outcome_of(value, exact=exact)
    return {
        "score": value,
        "exact": exact,
        "kind": outcome.kind,
        "moves": outcome.moves,
        "estimate": outcome.estimate,
        "words": describe(value, exact=exact),
    }


def _line(state: Any, line: tuple[Any, ...]) -> list[str]:
    words = []
    for move in line:
        words.append(state.format_move(move))
        state = state.play(move)
    return words


def search_json(state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    return {
        "move": None if result.move is None else state.format_move(result.move),
        "value": value_json(result.value, result.exact),
        "pv": _line(state, result.pv),
        "depth": result.depth,
        "nodes": result.stats.nodes,
        "time_ms": round(result.stats.elapsed * 1000, 3),
    }


def analyze_position(state: Any, adapter: Adapter, budget: Budget) -> dict[str, Any]:
    """Every legal move's value for the side to move, best first, with the search's totals."""
    analysis = adapter.analyze(state, budget.time, budget.nodes)
    if not analysis.moves:
        return {"moves": [], "best": None, "pv": [], "value": None, "nodes": 0, "time_ms": 0.0}
    best = analysis.moves[0]
    return {
        "moves": [
            {
                "move": state.format_move(entry.move),
                "value": value_json(entry.value, entry.exact),
                "pv": _line(state, entry.line),
            }
            for entry in analysis.moves
        ],
        "best": state.format_move(best.move),
        "pv": _line(state, best.line),
        "value": value_json(best.value, best.exact),
        "nodes": analysis.nodes,
        "time_ms": round(analysis.elapsed * 1000, 3),
    }


def ai_move(game: Game, level: str, seed: int, budget: Budget) -> tuple[Any, dict[str, Any] | None]:
    """The AI's move in the game's current state, and what its search found (when it says)."""
    state = game.state
    choice = game.adapter.ai_choice(state, level, seed, budget.time)
    thinking = None if choice.result is None else search_json(state, choice.result)
    return choice.move, thinking


# -- endpoints ------------------------------------------------------------------------------------


class Api:
    """The endpoints, sharing one :class:`SearchGate`."""

    def __init__(self, gate: SearchGate | None = None, games: Sequence[str] = ()) -> None:
        self.gate = gate or SearchGate()
        self.extra_games = tuple(games)

    async def games(self, request: Request) -> JSONResponse:
        games = []
        for name in available_games(self.extra_games):
            adapter = adapter_for(name)
            spec = adapter.spec()
            games.append(
                {
                    "name": name,
                    "title": spec.title,
                    "kind": adapter.kind,
                    "options": {
                        key: (
                            {
                                "type": "integer",
                                "min": option.low,
                                "max": option.high,
                                "default": option.default,
                            }
                            if isinstance(option, IntOption)
                            else {"type": "boolean", "default": option.default}
                        )
                        for key, option in adapter.options.items()
                    },
                    "levels": list(LEVELS),
                    "explain": adapter.tree,
                    "initial": game_json(load_game({"game": name})),
                }
            )
        return JSONResponse({"games": games})

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
        return JSONResponse(game_json(load_game(data)))

    async def play(self, request: Request) -> JSONResponse:
        """Play the person's ``move`` (if any), then let the AI reply when ``ai`` is true."""
        data = await read_json(request)
        game = load_game(data)
        level = _level(data)
        seed = _seed(data)
        budget = Budget.from_json(data.get("budget"))
        reply = data.get("ai", True)
        if not isinstance(reply, bool):
            raise ParseError(f"ai {reply!r}: expected true or false")
        move_text = data.get("move")
        played: list[dict[str, str]] = []
        if move_text is not None:
            state, move = _play_text(game.state, move_text)
            played.append({"by": "you", "move": game.state.format_move(move)})
            game = Game(game.adapter, game.start, (*game.moves, move), (*game.states, state))
        thinking = None
        if reply and not game.state.is_terminal():
            current = game
            move, thinking = await self.gate.run(lambda: ai_move(current, level, seed, budget))
            before = game.state
            played.append({"by": "ai", "move": before.format_move(move)})
            game = Game(
                game.adapter, game.start, (*game.moves, move), (*game.states, before.play(move))
            )
        answer = game_json(game)
        answer["played"] = played
        answer["thinking"] = thinking
        return JSONResponse(answer)

    async def analyze(self, request: Request) -> JSONResponse:
        data = await read_json(request)
        game = load_game(data)
        budget = Budget.from_json(data.get("budget"))
        result = await self.gate.run(lambda: analyze_position(game.state, game.adapter, budget))
        result["position"] = game.state.notation()
        result["to_move"] = SYMBOLS[game.state.to_move]
        return JSONResponse(result)

    async def tree(self, request: Request) -> JSONResponse:
        data = await read_json(request)
        game = load_game(data)
        if not game.adapter.tree:
            raise UnknownGameError(
                f"the minimax tree is drawn for tic-tac-toe only, not for {game.adapter.name!r}"
            )
        path = data.get("path", [])
        state = game.state
        node = await self.gate.run(lambda: explain(state, path))
        return JSONResponse(node)
