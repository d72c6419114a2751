"""A whole game judged move by move, and the deepening analysis of one position. No I/O.

:func:`read_games` reads the games of a file: PGN (chess; PDN-style text works the same way for
any game whose moves and start position the game's own notation reads) or the JSON lines of
``zermelo arena --save``. :func:`review_game` then values every position before a move with the
game's own capability (:class:`~zermelo.core.capabilities.ExactAnalysis` when the game has a
perfect solver, :class:`~zermelo.core.capabilities.EngineAnalysis` when it has its own engine,
the generic alpha-beta otherwise) and compares the played move with the best one.

The marks. Every value is turned into *winning chances* ``c`` in [-1, 1] for the side that
moves, as lichess does: a decided win is +1, a decided loss -1, a draw 0, and an estimate ``v``
becomes ``2 / (1 + exp(-0.00368208 * cp)) - 1`` with ``cp`` the value in centipawns (the
engine's pawns times 100; the generic search's evaluation units as they are). A move that loses
at least 0.1 of winning chances against the best move is an *inaccuracy*, 0.2 a *mistake*, 0.3
a *blunder* (lichess's thresholds: 5, 10 and 15 points of win percentage). When both values are
exact (a solver's, or a search read to the end), a move that turns a win into a draw or a loss,
or a draw into a loss, is a *blunder*, and nothing else is marked.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zermelo.core.errors import ParseError, ZermeloError
from zermelo.core.limits import Limits
from zermelo.core.record import GameSpec
from zermelo.core.result import MoveValue, SearchResult, SearchStats
from zermelo.core.scores import is_decided, unit_of
from zermelo.core.state import AnyState, HasQuiet, Player

if TYPE_CHECKING:
    from zermelo.play.match import GameRecord

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "THRESHOLDS",
    "GameReview",
    "GameToReview",
    "MoveReview",
    "deepen",
    "mark_of",
    "read_games",
    "review_game",
    "winning_chances",
]

INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
MARKS = (INACCURACY, MISTAKE, BLUNDER)
THRESHOLDS = (0.1, 0.2, 0.3)
"""The loss of winning chances (in [-1, 1]) from which a move is an inaccuracy, a mistake and a
blunder: lichess's."""

LOGISTIC = 0.00368208
"""lichess's slope of winning chances per centipawn."""

MAX_FILE_BYTES = 20_000_000
MAX_GAME_MOVES = 2_000

OnDepth = Callable[[SearchResult[Hashable]], None]


# -- the deepening analysis of one position ------------------------------------------------------


def deepen(
    spec: GameSpec,
    state: AnyState,
    *,
    depth: int | None,
    time_limit: float | None,
    on_depth: OnDepth | None = None,
) -> SearchResult[Hashable]:
    """Every legal move's value within ``time_limit`` (the whole answer's budget) and ``depth``,
    deepened one ply at a time; ``on_depth`` hears each completed depth (the deepest one heard
    is the answer so far, which a caller keeps when it is interrupted). The game's own engine
    when it has one, else the generic alpha-beta (with quiescence for games that say when a
    position is not quiet)."""
    engine = spec.engine_analysis
    if engine is None:
        from zermelo.search import analyze_position
        from zermelo.search.quiescence import quiescent

        evaluator = quiescent() if isinstance(state, HasQuiet) else None
        return analyze_position(
            state,
            depth=depth,
            time_limit=time_limit,
            evaluator=evaluator,
            on_depth=on_depth,
        )
    analysis = engine.resolve()
    started = time.perf_counter()
    last: SearchResult[Hashable] | None = None
    nodes = 0
    ceiling = depth if depth is not None else 99
    if time_limit is None and depth is None:
        time_limit = 1.0
    for ply in range(1, ceiling + 1):
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if left is not None and left <= 0.0 and last is not None:
            break
        found: SearchResult[Hashable] = analysis.analyze(
            state, Limits(time=None if left is None else max(left, 1e-3), depth=ply)
        )
        nodes += found.stats.nodes
        if last is not None and found.depth < ply:
            break  # the budget ran out inside this depth: the last completed one stands
        # the statistics of the whole answer so far, every depth's search counted
        whole = dataclasses.replace(found.stats, nodes=nodes, elapsed=time.perf_counter() - started)
        found = dataclasses.replace(found, stats=whole)
        last = found
        if on_depth is not None:
            on_depth(found)
        if not found.moves or (found.exact and is_decided(found.value)):
            break
    assert last is not None
    return last


# -- the games of a file ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameToReview:
    """One game of a file: ``label`` names it in messages ("game 2"), ``start`` the start
    position, ``moves`` as written, ``headers`` the PGN tags (or the record's fields)."""

    label: str
    start: AnyState
    moves: tuple[str, ...]
    headers: dict[str, str] = field(default_factory=dict)
    source: str = ""


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"})


def read_games(spec: GameSpec, text: str, source: str) -> list[GameToReview]:
    """The games of ``text`` (a file's contents, named ``source`` in errors): JSON lines when
    the first non-blank character is ``{``, else PGN. Raises :class:`ParseError` in one line that
    names the file, the game and the move."""
    if len(text) > MAX_FILE_BYTES:
        raise ParseError(f"{source}: the file is over {MAX_FILE_BYTES:,} characters")
    stripped = text.lstrip()
    if not stripped:
        raise ParseError(f"{source}: the file holds no game")
    games = _json_lines(spec, text, source) if stripped[0] == "{" else _pgn(spec, text, source)
    if not games:
        raise ParseError(f"{source}: the file holds no game")
    return games


def _json_lines(spec: GameSpec, text: str, source: str) -> list[GameToReview]:
    from zermelo.play.match import GameRecord

    games: list[GameToReview] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        label = f"game {len(games) + 1} (line {number})"
        try:
            record = GameRecord.from_json(line)
        except ZermeloError as error:
            raise ParseError(f"{source}, {label}: {error}") from None
        if record.game != spec.name:
            raise ParseError(
                f"{source}, {label}: the record is a game of {record.game!r}, not {spec.name!r}"
            )
        try:
            start = spec.parse(record.start) if record.start else spec.new(**dict(record.options))
        except (ZermeloError, TypeError, ValueError) as error:
            raise ParseError(f"{source}, {label}: bad start position: {error}") from None
        headers = {
            "White": record.players[0],
            "Black": record.players[1],
            "Result": record.result,
        }
        games.append(GameToReview(label, start, record.moves, headers, source))
    return games


def _pgn(spec: GameSpec, text: str, source: str) -> list[GameToReview]:
    games: list[GameToReview] = []
    headers: dict[str, str] = {}
    tokens: list[str] = []
    in_moves = False

    def close() -> None:
        nonlocal headers, tokens, in_moves
        if headers or tokens:
            games.append(_pgn_game(spec, headers, tokens, source, len(games) + 1))
        headers, tokens, in_moves = {}, [], False

    comment = False
    variation = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not comment and variation == 0 and line.startswith("%"):
            continue
        if not comment and variation == 0 and line.startswith("["):
            if in_moves:
                close()
            tag = _TAG.fullmatch(line)
            if tag is None:
                raise ParseError(
                    f"{source}, game {len(games) + 1}: bad tag line {_clip(line)!r}: "
                    'expected [Name "value"]'
                )
            headers[tag.group(1)] = tag.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        index = 0
        while index < len(line):
            char = line[index]
            if comment:
                end = line.find("}", index)
                if end < 0:
                    break
                comment, index = False, end + 1
                continue
            if char == "{":
                comment, index = True, index + 1
                continue
            if char == ";":
                break
            if char == "}":
                raise ParseError(f"{source}, game {len(games) + 1}: a '}}' closes no comment")
            if char == "(":
                variation, index = variation + 1, index + 1
                continue
            if char == ")":
                if variation == 0:
                    raise ParseError(f"{source}, game {len(games) + 1}: a ')' closes no variation")
                variation, index = variation - 1, index + 1
                continue
            if char.isspace():
                index += 1
                continue
            end = index
            while end < len(line) and not line[end].isspace() and line[end] not in "{}();":
                end += 1
            word = line[index:end]
            index = end
            if variation:
                continue
            in_moves = True
            word = _MOVE_NUMBER.sub("", word)
            if not word or word.startswith("$") or word in ("!", "?", "!!", "??", "!?", "?!"):
                continue
            word = word.rstrip("!?")
            if word in _RESULTS:
                tokens.append(word)
                close()
                continue
            tokens.append(word)
    if comment:
        raise ParseError(f"{source}, game {len(games) + 1}: a '{{' comment is never closed")
    if variation:
        raise ParseError(f"{source}, game {len(games) + 1}: a '(' variation is never closed")
    close()
    return games


def _pgn_game(
    spec: GameSpec, headers: dict[str, str], tokens: list[str], source: str, number: int
) -> GameToReview:
    label = f"game {number}"
    names = " vs ".join(headers[tag] for tag in ("White", "Black") if tag in headers)
    if names:
        label += f" ({names})"
    moves = tuple(word for word in tokens if word not in _RESULTS)
    if len(moves) > MAX_GAME_MOVES:
        raise ParseError(f"{source}, {label}: over {MAX_GAME_MOVES} moves")
    named = headers.get("Game")
    if named and named != spec.name:
        raise ParseError(f"{source}, {label}: the file is a game of {named!r}, not {spec.name!r}")
    options: dict[str, object] = {}
    if "Options" in headers:
        try:
            loaded = json.loads(headers["Options"])
        except ValueError:
            loaded = None
        if not isinstance(loaded, dict):
            raise ParseError(
                f"{source}, {label}: bad Options tag {_clip(headers['Options'])!r}: expected "
                'a JSON object such as {"width":8}'
            )
        options = loaded
    fen = headers.get("FEN")
    try:
        start = spec.parse(fen) if fen else spec.new(**options)
    except (ZermeloError, ValueError, TypeError) as error:
        what = f"FEN {_clip(fen)!r}" if fen else f"options {_clip(headers.get('Options', ''))}"
        raise ParseError(f"{source}, {label}: bad {what}: {error}") from None
    if "Result" not in headers and tokens and tokens[-1] in _RESULTS:
        headers = {**headers, "Result": tokens[-1]}
    return GameToReview(label, start, moves, headers, source)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


# -- judging the moves ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a review. ``ply`` counts from 1; ``side`` moved; ``value`` is the played
    move's value and ``best_value`` the best move's, both for ``side`` in the game's unit
    (negamax: see :mod:`zermelo.core.scores`); ``loss`` is the winning chances the move gave
    away (0 for a best move), ``mark`` one of :data:`MARKS` or ``""``; ``chances`` the first
    player's winning chances after the move (the graph), in [-1, 1]."""

    ply: int
    side: Player
    move: str
    value: float
    exact: bool
    best: str
    best_value: float
    best_exact: bool
    loss: float
    mark: str
    chances: float
    depth: int
    nodes: int

    def to_json(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "side": "first" if self.side is Player.FIRST else "second",
            "move": self.move,
            "value": _finite(self.value),
            "exact": self.exact,
            "best": self.best,
            "best_value": _finite(self.best_value),
            "best_exact": self.best_exact,
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "chances": round(self.chances, 4),
            "depth": self.depth,
            "nodes": self.nodes,
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """A reviewed game: its label and headers, and every move judged."""

    label: str
    headers: dict[str, str]
    moves: tuple[MoveReview, ...]
    seconds: float

    def counts(self, side: Player) -> dict[str, int]:
        """How many of each mark ``side`` got."""
        return {mark: sum(m.mark == mark and m.side is side for m in self.moves) for mark in MARKS}

    def to_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "headers": dict(self.headers),
            "moves": [move.to_json() for move in self.moves],
            "seconds": round(self.seconds, 3),
        }


def _finite(value: float) -> float:
    return round(value, 4) if math.isfinite(value) else 0.0


def winning_chances(value: float, exact: bool, centipawns: float) -> float:
    """``value`` (for the side to move) as winning chances in [-1, 1]: a decided score is +1 or
    -1, an exact 0 a draw's 0, an estimate lichess's logistic of ``value * centipawns``."""
    if is_decided(value):
        return 1.0 if value > 0 else -1.0
    if exact and value == 0:
        return 0.0
    return 2.0 / (1.0 + math.exp(-LOGISTIC * value * centipawns)) - 1.0


def _kind(value: float) -> int:
    return (value > 0) - (value < 0)


def mark_of(
    value: float, exact: bool, best: float, best_exact: bool, centipawns: float
) -> tuple[float, str]:
    """The winning chances a move of ``value`` gave away against the ``best`` move, and its mark
    (see the module)."""
    loss = max(
        0.0,
        winning_chances(best, best_exact, centipawns) - winning_chances(value, exact, centipawns),
    )
    if exact and best_exact:
        return loss, BLUNDER if _kind(value) < _kind(best) else ""
    mark = ""
    for name, threshold in zip(MARKS, THRESHOLDS, strict=True):
        if loss >= threshold - 1e-12:
            mark = name
    return loss, mark


@dataclass(frozen=True, slots=True)
class _Valued:
    """Every move of a position, by its notation: (value, exact) and the best move."""

    values: dict[str, tuple[float, bool]]
    best: str
    depth: int
    nodes: int


def _value_position(
    spec: GameSpec, state: AnyState, time_limit: float | None, depth: int | None
) -> _Valued:
    exact = spec.exact_analysis
    if exact is not None and time_limit is None and depth is None:
        found = exact.resolve().exact_moves(state)
        values = {c.move: (c.value, True) for c in found.moves if c.value is not None}
        best = found.best[0] if found.best else next(iter(values))
        return _Valued(values, best, 0, found.nodes)
    if time_limit is None and depth is None and spec.default_time is not None:
        time_limit = spec.default_time
    result = deepen(spec, state, depth=depth, time_limit=time_limit)
    moves: Sequence[MoveValue[Hashable]] = result.moves
    values = {state.format_move(m.move): (float(m.value), m.exact) for m in moves}
    stats: SearchStats = result.stats
    return _Valued(values, state.format_move(result.move), result.depth, stats.nodes)


def review_game(
    spec: GameSpec,
    game: GameToReview,
    *,
    time_per_move: float | None = None,
    depth: int | None = None,
    max_moves: int | None = None,
    on_move: Callable[[MoveReview], None] | None = None,
) -> GameReview:
    """Every move of ``game`` judged (see the module): with the game's exact analysis when it
    has one and neither ``time_per_move`` nor ``depth`` is given, else a search of
    ``time_per_move`` seconds (the game's default time without either) per position. Raises
    :class:`ParseError` naming the game and the move for a move the rules do not allow."""
    started = time.perf_counter()
    # an engine's value in centipawns: chess's are pawns (its unit, 1 a pawn), draughts' are
    # hundredths of a man (100 a man, as a man is worth about a pawn)
    centipawns = 100.0 / unit_of(game.start).per if spec.engine_analysis is not None else 1.0
    state = game.start
    reviewed: list[MoveReview] = []
    moves = game.moves if max_moves is None else game.moves[:max_moves]
    for ply, text in enumerate(moves, 1):
        where = f"{game.label}, move {ply} {_clip(text, 20)!r}"
        if game.source:
            where = f"{game.source}, {where}"
        if state.is_terminal():
            raise ParseError(f"{where}: the game is already over")
        try:
            move = state.parse_move(text)
            if move not in state.legal_moves():
                raise ParseError("not a legal move here")
        except ZermeloError as error:
            raise ParseError(f"{where}: {error}") from None
        played = state.format_move(move)
        valued = _value_position(spec, state, time_per_move, depth)
        if played not in valued.values or valued.best not in valued.values:
            raise ParseError(f"{where}: the analysis has no value for it")
        value, exact = valued.values[played]
        best_value, best_exact = valued.values[valued.best]
        if value >= best_value:
            best_value, best_exact, best = value, exact, played
        else:
            best = valued.best
        loss, mark = mark_of(value, exact, best_value, best_exact, centipawns)
        side = state.to_move
        mine = winning_chances(value, exact, centipawns)
        chances = mine if side is Player.FIRST else -mine
        review = MoveReview(
            ply,
            side,
            played,
            value,
            exact,
            best,
            best_value,
            best_exact,
            loss,
            mark,
            chances,
            valued.depth,
            valued.nodes,
        )
        reviewed.append(review)
        if on_move is not None:
            on_move(review)
        state = state.play(move)
    return GameReview(
        game.label, dict(game.headers), tuple(reviewed), time.perf_counter() - started
    )


def reviews_json(reviews: Sequence[GameReview]) -> str:
    """The reviews as one JSON document."""
    return json.dumps([review.to_json() for review in reviews], ensure_ascii=False, indent=1)


# -- writing games as PGN ------------------------------------------------------------------------

_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def _tag_line(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'[{name} "{escaped}"]'


def record_pgn(
    spec: GameSpec,
    record: GameRecord,
    *,
    event: str,
    site: str,
    date: str,
    round_number: str,
    time_control: str | None = None,
) -> str:
    """One arena game as PGN text with its headers filled: the Seven Tag Roster, ``TimeControl``
    when known, and for a game that is not chess a ``Game`` tag naming it (PDN-like text that
    :func:`read_games` reads back). A game whose record has a
    :class:`~zermelo.core.capabilities.Saver` gets the saver's movetext (chess: SAN with the
    start position's FEN); others their moves in the game's notation, numbered in pairs."""
    from zermelo.play.match import replay

    states = replay(record)
    tags: dict[str, str] = {
        "Event": event,
        "Site": site,
        "Date": date,
        "Round": round_number,
        "White": record.players[0],
        "Black": record.players[1],
        "Result": record.result,
    }
    if time_control:
        tags["TimeControl"] = time_control
    if record.options:
        tags["Options"] = json.dumps(dict(record.options), separators=(",", ":"), sort_keys=True)
    if record.adjudicated:
        tags["Termination"] = "adjudication"
    body = ""
    if spec.saver is not None:
        saved = spec.saver.resolve().save(states[-1])
        kept = {}
        for line in saved.splitlines():
            tag = _TAG.fullmatch(line.strip())
            if tag is not None:
                kept[tag.group(1)] = tag.group(2)
        for extra in ("SetUp", "FEN", "Termination"):
            if extra in kept and extra not in tags:
                tags[extra] = kept[extra]
        body = "\n".join(line for line in saved.splitlines() if not line.startswith("["))
        body = body.strip()
        # the saver knows the board's result; a record may be adjudicated a draw
        for result in ("1-0", "0-1", "1/2-1/2", "*"):
            if body.endswith(result):
                body = body[: -len(result)].rstrip() + " " + record.result
                break
    else:
        tags["Game"] = spec.name
        if record.start:
            tags["FEN"] = record.start
        words = []
        for index, (state, text) in enumerate(zip(states, record.moves, strict=False)):
            if index % 2 == 0:
                words.append(f"{index // 2 + 1}.")
            words.append(state.format_move(state.parse_move(text)))
        words.append(record.result)
        body = _wrap(" ".join(words))
    ordered = [name for name in _ROSTER if name in tags] + [n for n in tags if n not in _ROSTER]
    head = "\n".join(_tag_line(name, tags[name]) for name in ordered)
    return f"{head}\n\n{body.strip()}\n"


def _wrap(text: str, width: int = 79) -> str:
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return "\n".join(lines)
