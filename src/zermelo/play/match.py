"""One game between two agents, as a stream of events; game records and their replay.

:func:`play_game` yields a :class:`MovePlayed` for every move and finally a :class:`GameOver` that
carries the :class:`GameRecord`. Nothing here prints: a front end draws the events.

A record holds what it takes to see the game again: the game's registry name and options, the
start position in the game's notation, the moves in the game's move notation, the result, the agents
and the seed. It is one line of JSON (:meth:`GameRecord.to_json`); :func:`replay` rebuilds every
position from it, checking each move's legality and the result.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from zermelo.agents.base import Agent
from zermelo.core.errors import N_, IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.jsontext import Json, load_json
from zermelo.core.state import AnyState, Payoff, Player, is_chance, payoff_of, sample_outcome
from zermelo.games.registry import get_game

__all__ = [
    "CHANCE",
    "DRAW",
    "FIRST_WINS",
    "SECOND_WINS",
    "GameOver",
    "GameRecord",
    "MovePlayed",
    "RuleValue",
    "load_records",
    "play_game",
    "replay",
    "result_of",
    "run_game",
    "save_records",
    "start_state",
]

FIRST_WINS = "1-0"
SECOND_WINS = "0-1"
DRAW = "1/2-1/2"
_RESULTS = (FIRST_WINS, SECOND_WINS, DRAW)

CHANCE = "chance"
"""The name a chance outcome (a roll of the dice, a deal) is played under in the events: no agent
chooses it."""

RuleValue: TypeAlias = int | bool | str
"""The value of one of a game's rule options (``width=7``, ``exact=true``), as records keep them."""


def result_of(winner: Player | None) -> str:
    """The result string of a finished game: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"`` (first player's
    score first, whoever moved first in the start position)."""
    if winner is None:
        return DRAW
    return FIRST_WINS if winner is Player.FIRST else SECOND_WINS


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game. ``players`` are the labels of the agents playing :attr:`Player.FIRST` and
    :attr:`Player.SECOND`; ``times`` the seconds each move took; ``index`` the game's number in its
    tournament (or 0); ``adjudicated`` why the game was stopped before its end (``"move cap"``:
    scored a draw), empty when the rules ended it. ``payoff`` is what the first player won in a
    game scored in points (:class:`~zermelo.core.state.Payoff`: backgammon, poker), ``None``
    for a game scored by its winner alone.

    In a game of chance the dice are among the ``moves`` (Pig: ``roll``, ``4``, ``hold``), drawn
    from the game's ``seed``, so that :func:`replay` needs no randomness; their ``times`` are 0."""

    game: str
    start: str
    moves: tuple[str, ...]
    result: str
    players: tuple[str, str]
    seed: int | None = None
    options: Mapping[str, RuleValue] = field(default_factory=dict)
    times: tuple[float, ...] = ()
    index: int = 0
    adjudicated: str = ""
    payoff: float | None = None

    @property
    def winner(self) -> Player | None:
        if self.result == FIRST_WINS:
            return Player.FIRST
        if self.result == SECOND_WINS:
            return Player.SECOND
        return None

    def points(self, label: str) -> float:
        """Points of the agent ``label`` in this game: 1, 0.5 or 0."""
        if label not in self.players:
            players = " vs ".join(self.players)
            raise ValueError(f"agent {label!r} did not play this game ({players})")
        winner = self.winner
        if winner is None:
            return 0.5
        return 1.0 if self.players[winner] == label else 0.0

    def points_of(self, label: str) -> float:
        """What the agent ``label`` won in this game, in the game's points: its side's payoff
        where the game is scored in points, else 1 a win, -1 a loss, 0 a draw."""
        if label not in self.players:
            players = " vs ".join(self.players)
            raise ValueError(f"agent {label!r} did not play this game ({players})")
        if self.payoff is not None:
            first = self.payoff
        else:
            winner = self.winner
            first = 0.0 if winner is None else 1.0 if winner is Player.FIRST else -1.0
        return first if self.players[0] == label else -first

    def to_json(self) -> str:
        """One line of JSON."""
        data: dict[str, Json] = {
            "game": self.game,
            "options": dict(self.options),
            "start": self.start,
            "moves": list(self.moves),
            "result": self.result,
            "players": list(self.players),
            "seed": self.seed,
            "times": [round(t, 4) for t in self.times],
            "index": self.index,
        }
        if self.adjudicated:
            data["adjudicated"] = self.adjudicated
        if self.payoff is not None:
            data["payoff"] = self.payoff
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a line written by :meth:`to_json`; raises :class:`ParseError` quoting bad input."""
        shown = _clip(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        data = load_json(text, ParseError(N_("game record {shown!r}"), shown=shown))
        if not isinstance(data, dict):
            raise ParseError(
                N_("invalid game record {shown!r}: expected a JSON object"), shown=shown
            )
        unknown = sorted(set(data) - _FIELDS)
        if unknown:
            raise ParseError(
                f"invalid game record {shown!r}: unknown field {unknown[0]!r}; expected "
                f"{', '.join(sorted(_FIELDS))}"
            )
        try:
            players = _list(data, "players")
            if len(players) != 2:
                raise ParseError("'players' must name exactly two agents")
            seed = data.get("seed")
            if seed is not None and (type(seed) is not int or abs(seed) >= 2**64):
                raise ParseError("'seed' must be a whole number below 2**64, or null")
            index = data.get("index", 0)
            if type(index) is not int or not 0 <= index < 2**32:
                raise ParseError("'index' must be a whole number from 0 to 2**32 - 1")
            times = data.get("times") or []
            seconds = [
                float(t)
                for t in (times if isinstance(times, list) else [])
                if type(t) in (int, float) and isinstance(t, int | float) and t >= 0
            ]
            if not isinstance(times, list) or len(seconds) != len(times):
                raise ParseError("'times' must be a list of seconds of 0 or more")
            options = data.get("options") or {}
            rules = {
                name: value
                for name, value in (options.items() if isinstance(options, dict) else ())
                if type(value) in (int, bool, str) and isinstance(value, int | str)
            }
            if not isinstance(options, dict) or len(rules) != len(options):
                raise ParseError("'options' must map names to numbers, booleans or strings")
            adjudicated = data.get("adjudicated", "")
            payoff = data.get("payoff")
            if payoff is not None and (
                type(payoff) not in (int, float)
                or not isinstance(payoff, int | float)
                or not math.isfinite(payoff)
                or abs(payoff) > 1e9
            ):
                raise ParseError("'payoff' must be a finite number, or absent")
            game = _text(data, "game")
            start = _text(data, "start")
            moves = tuple(_strings(_list(data, "moves"), "moves"))
            result = _text(data, "result")
            names = _strings(players, "players")
            record = cls(
                game=game,
                start=start,
                moves=moves,
                result=result,
                players=(names[0], names[1]),
                seed=seed,
                options=rules,
                times=tuple(seconds),
                index=index,
                adjudicated=adjudicated if isinstance(adjudicated, str) else repr(adjudicated),
                payoff=None if payoff is None else float(payoff),
            )
            if record.adjudicated not in ("", MOVE_CAP):
                raise ParseError(f"'adjudicated' must be {MOVE_CAP!r} or absent")
        except ParseError as error:
            raise ParseError(
                N_("invalid game record {shown!r}: {error}"), shown=shown, error=error
            ) from None
        if record.result not in _RESULTS:
            raise ParseError(
                f"invalid game record {shown!r}: result {record.result!r} is not one of "
                f"{', '.join(_RESULTS)}"
            )
        return record


_FIELDS = {
    "game",
    "options",
    "start",
    "moves",
    "result",
    "players",
    "seed",
    "times",
    "index",
    "adjudicated",
    "payoff",
}

MOVE_CAP = "move cap"
"""Why a game stopped at its move cap (a draw by adjudication)."""


def _present(data: dict[str, Json], name: str) -> Json:
    if name not in data:
        raise ParseError(f"missing field {name!r}")
    return data[name]


def _text(data: dict[str, Json], name: str) -> str:
    value = _present(data, name)
    if not isinstance(value, str):
        raise ParseError(f"field {name!r} must be a JSON string")
    return value


def _list(data: dict[str, Json], name: str) -> list[Json]:
    value = _present(data, name)
    if not isinstance(value, list):
        raise ParseError(f"field {name!r} must be a JSON array")
    return value


def _strings(values: list[Json], name: str) -> list[str]:
    strings = [value for value in values if isinstance(value, str)]
    if len(strings) != len(values):
        raise ParseError(f"field {name!r} must hold strings only")
    return strings


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """``agent`` (playing ``player``) played ``move`` (``notation``) as the game's ``ply``-th move
    (from 1), after thinking ``seconds``; ``state`` is the position after it."""

    ply: int
    player: Player
    agent: str
    move: Hashable
    notation: str
    seconds: float
    state: AnyState


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; ``record`` is its record and ``state`` the final position."""

    record: GameRecord
    state: AnyState

    @property
    def winner(self) -> Player | None:
        return self.record.winner


Event = MovePlayed | GameOver


def start_state(
    game: str, options: Mapping[str, RuleValue] | None = None, start: str | None = None
) -> AnyState:
    """The start position: ``start`` in the game's notation, or the game's initial position."""
    spec = get_game(game)
    if start:
        return spec.parse(start)
    return spec.new(**dict(options or {}))


def play_game(
    state: AnyState,
    agents: Sequence[Agent],
    *,
    game: str,
    options: Mapping[str, RuleValue] | None = None,
    seed: int | None = None,
    index: int = 0,
    clock: Callable[[], float] = time.perf_counter,
    max_moves: int | None = None,
) -> Iterator[Event]:
    """Play from ``state`` to the end; ``agents[0]`` plays :attr:`Player.FIRST`, ``agents[1]``
    :attr:`Player.SECOND`. Yields a :class:`MovePlayed` per move, then a :class:`GameOver`.
    With ``max_moves``, a game still on after that many moves (plies) is adjudicated a draw.

    At a chance node no agent is asked: the outcome is drawn by
    :func:`~zermelo.core.state.sample_outcome` from a ``random.Random`` seeded from ``seed``
    alone (0 without one), and played as a move under the name :data:`CHANCE`; so a seed gives
    the same dice whoever plays, and the agents' own randomness never touches them.

    An agent that answers with an illegal move raises :class:`IllegalMoveError` naming it.
    """
    if len(agents) != 2:
        raise ValueError(f"a game needs two agents, got {len(agents)}")
    start = state.notation()
    moves: list[str] = []
    times: list[float] = []
    adjudicated = ""
    dice = random.Random(f"chance:{0 if seed is None else seed}")
    while not state.is_terminal():
        if max_moves is not None and len(moves) >= max_moves:
            adjudicated = MOVE_CAP
            break
        player = state.to_move
        if is_chance(state):
            outcome = sample_outcome(state, dice)
            text = state.format_move(outcome)
            state = state.play(outcome)
            moves.append(text)
            times.append(0.0)
            yield MovePlayed(len(moves), player, CHANCE, outcome, text, 0.0, state)
            continue
        agent = agents[player]
        began = clock()
        move: Hashable = agent.choose(state)
        seconds = clock() - began
        try:
            after = state.play(move)
        except ZermeloError as error:
            raise IllegalMoveError(
                f"agent {agent.name!r} played the illegal move {move!r} at ply {state.ply + 1}: "
                f"{error}"
            ) from error
        text = state.format_move(move)
        moves.append(text)
        times.append(seconds)
        state = after
        yield MovePlayed(len(moves), player, agent.name, move, text, seconds, state)
    record = GameRecord(
        game=game,
        start=start,
        moves=tuple(moves),
        result=result_of(None if adjudicated else state.winner),
        players=(agents[0].name, agents[1].name),
        seed=seed,
        options=dict(options or {}),
        times=tuple(times),
        index=index,
        adjudicated=adjudicated,
        payoff=payoff_of(state) if isinstance(state, Payoff) and not adjudicated else None,
    )
    yield GameOver(record, state)


def run_game(
    state: AnyState,
    agents: Sequence[Agent],
    *,
    game: str,
    options: Mapping[str, RuleValue] | None = None,
    seed: int | None = None,
    index: int = 0,
    on_event: Callable[[Event], None] | None = None,
    max_moves: int | None = None,
) -> GameRecord:
    """Play the game of :func:`play_game` through and return its record."""
    for event in play_game(
        state, agents, game=game, options=options, seed=seed, index=index, max_moves=max_moves
    ):
        if on_event is not None:
            on_event(event)
        if isinstance(event, GameOver):
            return event.record
    raise AssertionError("play_game ended without GameOver")  # pragma: no cover


def replay(record: GameRecord) -> list[AnyState]:
    """Every position of the game, the start first and the final one last.

    Raises :class:`IllegalMoveError` for a move the rules do not allow (naming its number) and
    :class:`InvalidPositionError` when the moves do not end the game with the recorded result.
    """
    try:
        state = start_state(record.game, record.options, record.start)
    except TypeError as error:
        raise ParseError(
            f"the record's options {dict(record.options)!r} do not fit: {error}"
        ) from None
    states = [state]
    for number, text in enumerate(record.moves, 1):
        try:
            state = state.play(state.parse_move(text))
        except ZermeloError as error:
            raise IllegalMoveError(f"move {number} {text!r} of the record: {error}") from error
        states.append(state)
    if record.adjudicated:
        if state.is_terminal() or record.result != result_of(None):
            raise InvalidPositionError(
                f"the record says the game was adjudicated ({record.adjudicated}) but it "
                f"{'ended by the rules' if state.is_terminal() else 'is not scored a draw'}"
            )
        return states
    if not state.is_terminal():
        raise InvalidPositionError(
            f"the record's {len(record.moves)} moves do not finish the game "
            f"(final position {state.notation()!r}, recorded result {record.result!r})"
        )
    actual = result_of(state.winner)
    if actual != record.result:
        raise InvalidPositionError(
            f"the record says {record.result!r} but its moves end in {actual!r}"
        )
    if record.payoff is not None and abs(record.payoff - payoff_of(state)) > 1e-9:
        raise InvalidPositionError(
            f"the record says the first player won {record.payoff:g} points but its moves end "
            f"in {payoff_of(state):g}"
        )
    return states


def save_records(path: str | Path, records: Iterable[GameRecord]) -> int:
    """Write ``records`` to ``path`` as JSON lines; returns how many."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for record in records:
            out.write(record.to_json() + "\n")
            count += 1
    return count


def load_records(path: str | Path) -> list[GameRecord]:
    """Read the JSON lines of :func:`save_records` (blank lines are skipped)."""
    records = []
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ParseError(
            N_("cannot read {path!r}: {reason}"), path=str(path), reason=error.strerror
        ) from None
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(GameRecord.from_json(line))
        except ParseError as error:
            raise ParseError(
                N_("{path}, line {number}: {error}"), path=str(path), number=number, error=error
            ) from None
    return records
