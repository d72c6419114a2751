"""The Hub protocol: zermelo's draughts engine for draughts GUIs (Hub, lidraughts-bot, Scan's GUI).

:func:`run_hub` speaks version 2 of the protocol (Fabien Letouzey's ``protocol.txt``, as Scan 3.1
and Hub 2.1 use it) on any pair of text streams. Every line, both ways, is ``<command>
<name>=<value> ...``; a value with a space, an ``=`` or a ``"`` in it, or an empty one, is
written in double quotes; a name without ``=value`` is a flag. What the engine understands:

* ``hub`` -> ``id name=... version=... author=... country=...``, one ``param`` line per
  setting (``variant``, ``level``), then ``wait``; ``set-param name=N value=V``; ``init`` ->
  ``ready``;
* ``new-game`` (forget the previous searches); ``ping`` -> ``pong`` (also while searching);
* ``pos pos=<position> [moves="<m1> <m2> ..."]`` (or ``pos start``): the position is the side to
  move (``W`` or ``B``) and one character per square (``w`` ``b`` man, ``W`` ``B`` king, ``e``
  empty): 51 for international draughts, squares 1-50 in order; for dama (an extension: the
  protocol has no 8x8 variant) 65, the squares a8..h8, a7..h7, ..., a1..h1 (the board read from
  the top, as the 10x10 numbering reads it);
* ``level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite``; each ``level``
  replaces the previous one, which holds until the next;
* ``go think | ponder | analyze``; ``ponder-hit``; ``stop``; ``quit``.

The engine answers ``info depth=... score=... nodes=... time=... nps=... pv="..."`` after each
completed depth (score in men, from the side to move; ``time`` in seconds; ``nps`` in millions
of nodes per second, as Scan writes it) and ``done move=... [ponder=...]`` at the end of every
search. Moves are in Hub's notation (:func:`hub_move`): a step as ``32-28``, a capture as
``from x to`` followed by every captured square in ascending order (``28x19x23``; dama:
``d4xd6xd5``, ascending by index a1=0..h8=63); a capture read may list them in any order.

What the engine does with lines it cannot use, as Scan does: one ``error message="..."`` line
that says what was wrong and what was expected, and it keeps running. A command it does not know
is an error; an argument it does not know is ignored (the protocol's rule, so that it can grow).
A ``pos`` whose position is unusable leaves no position (a ``go`` then answers an error and a
bare ``done``); a ``pos`` whose moves run into one that is not legal keeps the moves before it.
The protocol is for programs, so its words are the protocol's and stay in English.
"""

from __future__ import annotations

import functools
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple, Protocol, TextIO, cast

from zermelo.core.errors import N_, UnknownGameError, ZermeloError
from zermelo.core.record import LEVELS, GameSpec
from zermelo.core.state import AnyState, Player
from zermelo.games.draughts.rules import Rules
from zermelo.games.registry import all_games, get_game
from zermelo.ui.protocol import MAX_LINE, serve_lines

__all__ = [
    "ENGINE_NAME",
    "MAX_LINE",
    "HubBoard",
    "HubLine",
    "HubSession",
    "HubSyntaxError",
    "Level",
    "format_line",
    "hub_game",
    "hub_move",
    "hub_to_pdn",
    "main",
    "parse_level",
    "parse_line",
    "pdn_to_hub",
    "run_hub",
    "variants",
]

ENGINE_NAME = "zermelo"
AUTHOR = "The zermelo team"
COUNTRY = ""
MAX_DEPTH = 64
MAX_NODES = 1 << 62
MAX_SECONDS = 10.0**7
DEFAULT_MOVE_TIME = 1.0
"""Seconds per move of a ``go think`` with no ``level`` before it."""
MOVES_LEFT = 30
"""The moves a sudden-death clock (``level time=... [inc=...]``) is shared over."""
MIN_SECONDS = 0.01
"""The least time a search is given (the engine completes depth 1 whatever the clock says)."""
CLOCK_MARGIN = 0.05
"""Seconds kept back on every clock for the protocol's own time (reading, writing, Python)."""


@functools.cache
def variants() -> Mapping[str, str]:
    """Hub's variant names and the zermelo games behind them, from the records that declare one
    (``GameSpec.hub_variant``: ``normal`` is Hub's and Scan's name of international draughts)."""
    return {spec.hub_variant: spec.name for spec in all_games() if spec.hub_variant is not None}


def hub_game(name: str | None) -> str:
    """The registry name of the game ``name`` (a name or an alias; ``None``: the one Hub calls
    ``normal``), checked to speak Hub; raises :class:`~zermelo.core.errors.UnknownGameError`."""
    known = variants()
    if name is None:
        return known["normal"]
    spec = get_game(name)
    if spec.hub_variant is None:
        raise UnknownGameError(
            N_("the Hub protocol plays {games}, not {name!r}"),
            games=", ".join(known.values()),
            name=name[:60],
        )
    return spec.name


DraughtsMove = tuple[int, ...]
"""A move of the draughts games: the squares visited (international: 1-based numbers; dama:
0-based indices)."""
Triple = tuple[int, int, int]
"""A move as the kernel and the engine give it: 0-based origin, destination, captured mask."""


class HubSyntaxError(ValueError):
    """A line that is not ``<command> <name>=<value> ...``."""


# -- the line syntax ------------------------------------------------------------------------------


def _shown(char: str) -> str:
    """``char`` named in a message (a double quote would be rewritten in a quoted value)."""
    return "a double quote" if char == '"' else repr(char)


def _is_id(char: str) -> bool:
    return not char.isspace() and char not in '="' and char.isprintable()


@dataclass(frozen=True)
class HubLine:
    """One line: its command and its arguments in order (a flag's value is ``""``)."""

    command: str
    args: tuple[tuple[str, str], ...] = ()

    def get(self, name: str) -> str | None:
        """The value of the last argument called ``name``, or ``None``."""
        found = None
        for key, value in self.args:
            if key == name:
                found = value
        return found

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.args)


def parse_line(line: str) -> HubLine | None:
    """The command and arguments of ``line``; ``None`` for a blank line. Raises
    :class:`HubSyntaxError` (with what was wrong and what was expected) and nothing else."""
    text = line.strip()
    if not text:
        return None
    i, n = 0, len(text)

    def name_at(start: int) -> int:
        end = start
        while end < n and _is_id(text[end]):
            end += 1
        return end

    end = name_at(0)
    if end == 0:
        raise HubSyntaxError(
            f"a line must start with a command name, not {_shown(text[0])} (expected <command> "
            "<name>=<value> ...)"
        )
    command, i = text[:end], end
    args: list[tuple[str, str]] = []
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        end = name_at(i)
        if end == i:
            raise HubSyntaxError(
                f"expected an argument name at column {i + 1}, not {_shown(text[i])} (expected "
                "<name>=<value>, with the value in double quotes if it holds spaces)"
            )
        key, i = text[i:end], end
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] == "=":
            i += 1
            while i < n and text[i].isspace():
                i += 1
            if i < n and text[i] == '"':
                close = text.find('"', i + 1)
                if close < 0:
                    raise HubSyntaxError(f"the value of {key!r} has no closing double quote")
                value, i = text[i + 1 : close], close + 1
            else:
                end = name_at(i)
                if end == i:
                    raise HubSyntaxError(f'{key}= has no value (write {key}="" for an empty one)')
                value, i = text[i:end], end
        else:
            value = ""
        args.append((key, value))
    return HubLine(command, tuple(args))


def _value(value: str) -> str:
    if value and all(_is_id(char) for char in value):
        return value
    # a double quote cannot be written inside one; a line break would end the line
    clean = "".join(char if char.isprintable() else " " for char in value).replace('"', "'")
    return f'"{clean}"'


def format_line(command: str, *pairs: tuple[str, str | int | float]) -> str:
    """``command name=value ...``, each value quoted when it must be."""
    parts = [command]
    for name, value in pairs:
        parts.append(f"{name}={_value(value if isinstance(value, str) else _number(value))}")
    return " ".join(parts)


def _number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    return "0" if math.isnan(value) else f"{value:.3f}".rstrip("0").rstrip(".")


# -- the board: positions and moves in Hub's notation ---------------------------------------------


class _KMove(Protocol):
    @property
    def path(self) -> tuple[int, ...]: ...
    @property
    def captured(self) -> int: ...


class DraughtsState(Protocol):
    """What the protocol uses of a draughts game's state (the design's InternationalState and
    DamaState)."""

    @property
    def white(self) -> int: ...
    @property
    def black(self) -> int: ...
    @property
    def kings(self) -> int: ...
    @property
    def to_move(self) -> Player: ...

    RULES: ClassVar[Rules]

    def legal_moves(self) -> Sequence[DraughtsMove]: ...
    def play(self, move: DraughtsMove) -> DraughtsState: ...
    def is_terminal(self) -> bool: ...
    def kernel_move(self, move: DraughtsMove) -> _KMove: ...
    def format_move(self, move: DraughtsMove) -> str: ...
    def parse_move(self, text: str) -> DraughtsMove: ...


def _position_key(state: DraughtsState) -> tuple[int, int, int, int]:
    return (state.white, state.black, state.kings, 0 if state.to_move is Player.FIRST else 1)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class HubBoard:
    """Hub's position string and move notation for one game (international or dama)."""

    def __init__(self, spec: GameSpec[AnyState]) -> None:
        self.spec = spec
        start = cast(DraughtsState, spec.new())
        self.rules: Rules = type(start).RULES
        self.start = start
        squares = self.rules.squares
        if squares == 64:  # dama: the board read from the top (a8..h8, ..., a1..h1)
            self.order = tuple(rank * 8 + file for rank in range(7, -1, -1) for file in range(8))
        else:
            self.order = tuple(range(squares))
        self.length = 1 + len(self.order)

    def name(self, sq: int) -> str:
        return self.rules.square_name(sq)

    # positions

    def position(self, state: DraughtsState) -> str:
        """``state`` as Hub's position string."""
        chars = ["W" if state.to_move is Player.FIRST else "B"]
        for sq in self.order:
            bit = 1 << sq
            king = bool(state.kings & bit)
            if state.white & bit:
                chars.append("W" if king else "w")
            elif state.black & bit:
                chars.append("B" if king else "b")
            else:
                chars.append("e")
        return "".join(chars)

    def read_position(self, text: str) -> DraughtsState:
        """The state of Hub's position string; raises :class:`ValueError` saying what is wrong."""
        if len(text) != self.length:
            raise ValueError(
                f"a position has {self.length} characters in {self.rules.name} (the side to "
                f"move, then one per square), not {len(text)}"
            )
        if text[0] not in "WB":
            raise ValueError(f"the side to move must be W or B, not {_shown(text[0])}")
        white = black = kings = 0
        for index, (sq, char) in enumerate(zip(self.order, text[1:], strict=True)):
            if char not in "wbWBe":
                raise ValueError(
                    f"character {index + 2} is {_shown(char)}: expected w, b (men), W, B (kings) or e"
                )
            bit = 1 << sq
            if char in "wW":
                white |= bit
            elif char in "bB":
                black |= bit
            if char in "WB":
                kings |= bit
        if not white | black:
            raise ValueError("the position has no pieces")
        side = Player.FIRST if text[0] == "W" else Player.SECOND

        def pieces(mask: int) -> str:
            return ",".join(("K" if kings >> sq & 1 else "") + self.name(sq) for sq in _bits(mask))

        fen = f"{text[0]}:W{pieces(white)}:B{pieces(black)}"
        try:
            state = cast(DraughtsState, self.spec.parse(fen))
        except ZermeloError as error:
            raise ValueError(f"not a legal {self.rules.name} position: {error}") from None
        if (state.white, state.black, state.kings, state.to_move) != (white, black, kings, side):
            raise ValueError(f"not a legal {self.rules.name} position (read as {fen})")
        return state

    # moves

    def move_text(self, triple: Triple) -> str:
        """Hub's notation of a kernel move."""
        origin, dest, captured = triple
        return hub_move(self.name, origin, dest, captured)

    def triple(self, state: DraughtsState, move: DraughtsMove) -> Triple:
        kmove = state.kernel_move(move)
        return (kmove.path[0], kmove.path[-1], kmove.captured)

    def read_move(self, state: DraughtsState, text: str) -> DraughtsMove:
        """The legal move of ``state`` that Hub's ``text`` names; :class:`ValueError` else."""
        separator = "x" if "x" in text else "-"
        if (separator == "-" and "x" in text) or not text:
            raise ValueError(f"bad move {text!r}: expected from-to or fromxto[xcaptured...]")
        squares: list[int] = []
        for part in text.split(separator):
            sq = self.rules.square_of(part)
            if sq is None:
                raise ValueError(
                    f"bad move {text!r}: {part!r} is not a square (expected from-to or "
                    "fromxto[xcaptured...])"
                )
            squares.append(sq)
        if len(squares) < 2 or (separator == "-" and len(squares) != 2):
            raise ValueError(f"bad move {text!r}: expected from-to or fromxto[xcaptured...]")
        origin, dest, taken = squares[0], squares[1], squares[2:]
        mask = 0
        for sq in taken:
            if mask >> sq & 1:
                raise ValueError(f"bad move {text!r}: square {self.name(sq)} is captured twice")
            mask |= 1 << sq
        matches, fuller = [], []
        for move in state.legal_moves():
            f, t, c = self.triple(state, move)
            if f != origin or t != dest or (separator == "x") != (c != 0):
                continue
            if c == mask:
                return move
            if not taken:
                matches.append(move)
            elif c & mask == mask:
                fuller.append((move, c))
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ValueError(f"ambiguous move {text!r}: name every captured square")
        if fuller:
            names = " or ".join(self.move_text((origin, dest, c)) for _, c in fuller)
            raise ValueError(
                f"illegal move {text!r}: a capture names every captured square ({names})"
            )
        raise ValueError(f"illegal move {text!r} in this position")


def hub_move(name: Callable[[int], str], origin: int, dest: int, captured: int) -> str:
    """Hub's notation: ``from-to`` for a step, ``fromxto`` then ``x`` and each captured square
    in ascending order for a capture (``name`` names a 0-based square)."""
    if not captured:
        return f"{name(origin)}-{name(dest)}"
    return "x".join([name(origin), name(dest), *(name(sq) for sq in _bits(captured))])


def hub_to_pdn(board: HubBoard, state: DraughtsState, text: str) -> str:
    """The PDN notation (the game's own, as ``format_move`` writes it) of Hub's move ``text``."""
    return state.format_move(board.read_move(state, text))


def pdn_to_hub(board: HubBoard, state: DraughtsState, text: str) -> str:
    """Hub's notation of the PDN move ``text`` (``32-28``, ``28x19``, ``28x19x8``)."""
    return board.move_text(board.triple(state, state.parse_move(text)))


# -- the level: what bounds a search --------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """A parsed ``level`` line; ``problems`` describe the arguments that could not be used."""

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    time: float | None = None
    moves: int | None = None
    inc: float = 0.0
    infinite: bool = False
    problems: tuple[str, ...] = ()

    def budget(self) -> float | None:
        """Seconds for this move; ``None``: no clock."""
        if self.infinite:
            return None
        if self.move_time is not None:
            return max(self.move_time, MIN_SECONDS)  # no time at all still gets depth 1
        if self.time is not None:
            # the increment is added before every move (the protocol's rule)
            left = self.time + self.inc
            share = self.time / (self.moves if self.moves else MOVES_LEFT) + self.inc
            return max(MIN_SECONDS, min(share, 0.8 * left - CLOCK_MARGIN))
        return None

    def bounded(self) -> bool:
        return self.infinite or self.budget() is not None or bool(self.depth or self.nodes)


def _whole(text: str, low: int, high: int) -> int:
    if not text.strip().lstrip("+-").isdigit():
        raise ValueError(f"expected a whole number, not {text!r}")
    return min(max(int(text), low), high)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number of seconds, not {text!r}") from None
    if math.isnan(value):
        raise ValueError(f"expected a number of seconds, not {text!r}")
    return min(max(value, 0.0), MAX_SECONDS)


def parse_level(line: HubLine) -> Level:
    """``level``'s arguments: what is usable, and a description of each that is not."""
    whole: dict[str, int] = {}
    seconds: dict[str, float] = {}
    problems: list[str] = []
    bounds = {"depth": (1, MAX_DEPTH), "nodes": (1, MAX_NODES), "moves": (0, 10**6)}
    for key, text in line.args:
        try:
            if key in bounds:
                whole[key] = _whole(text, *bounds[key])
            elif key in ("move-time", "time", "inc"):
                seconds[key] = _seconds(text)
        except ValueError as error:
            problems.append(f"{key}: {error}")
    return Level(
        depth=whole.get("depth"),
        nodes=whole.get("nodes"),
        move_time=seconds.get("move-time"),
        time=seconds.get("time"),
        moves=whole.get("moves"),
        inc=seconds.get("inc", 0.0),
        infinite=line.has("infinite"),
        problems=tuple(problems),
    )


# -- the search -----------------------------------------------------------------------------------


class Found(NamedTuple):
    """One completed depth of a search."""

    move: Triple | None
    score: float  # men, from the side to move; a win in p plies is 100 - p/100 (Scan's 99.xx)
    depth: int
    nodes: int
    pv: tuple[Triple, ...]


Position = tuple[int, int, int, int]
"""``(white, black, kings, side)``: a position as the engine's repetition history holds it."""


def hub_score(score: int, win: int, bound: int) -> float:
    """An engine score (hundredths of a man, or ``win - plies`` past ``bound``) in Hub's men:
    a win in ``p`` plies is ``100 - p/100``, as Scan's 99.xx (pydraughts reads it back as a
    win), a loss its negative."""
    if abs(score) > bound:
        plies = win - abs(score)
        return round((100.0 - plies / 100.0) * (1 if score > 0 else -1), 2)
    return score / 100.0


class Searcher:
    """The engine behind the protocol: ENGINE's :class:`DraughtsEngine` (iterative deepening
    with a ``progress`` call per depth, a stop event, the game's earlier positions for
    repetitions)."""

    def __init__(self, rules: Rules) -> None:
        from zermelo.solvers.draughts.engine import DraughtsEngine

        self.engine = DraughtsEngine(rules)

    def new_game(self) -> None:
        self.engine.new_game()

    def search(
        self,
        state: DraughtsState,
        depth: int | None,
        nodes: int | None,
        time_limit: float | None,
        history: Sequence[Position],
        stop: threading.Event,
        progress: Callable[[Found, float], None],
    ) -> Found | None:
        """Search ``state`` until ``depth``, ``nodes``, ``time_limit`` seconds or ``stop`` (the
        engine completes depth 1 whatever happens), calling ``progress`` after every depth."""
        from zermelo.core.scores import WIN
        from zermelo.solvers.draughts.engine import MATE_BOUND, EngineResult

        start = time.monotonic()

        def found(result: EngineResult) -> Found:
            return Found(
                result.move,
                hub_score(result.score, WIN, MATE_BOUND),
                result.depth,
                result.nodes,
                tuple(result.pv),
            )

        def report(result: EngineResult) -> None:
            progress(found(result), time.monotonic() - start)

        result = self.engine.search(
            state.white,
            state.black,
            state.kings,
            0 if state.to_move is Player.FIRST else 1,
            depth=depth,
            time_limit=time_limit,
            nodes=nodes,
            history=tuple(history),
            stop_event=stop,
            progress=report,
        )
        return found(result) if result.move is not None else None


# -- the session ----------------------------------------------------------------------------------


@dataclass
class _Settings:
    variant: str
    level: str = "hard"


@dataclass
class _Search:
    """One running search: ``stop`` from the GUI, ``halt`` for the engine (stop or the clock),
    ``finished`` once its ``done`` is on its way (the GUI may then send anything)."""

    thread: threading.Thread
    stop: threading.Event = field(default_factory=threading.Event)
    halt: threading.Event = field(default_factory=threading.Event)
    ponderhit: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    ponderhit_at: float = 0.0


class HubSession:
    """One engine behind the protocol; :meth:`handle` takes one line, output goes to ``write``."""

    def __init__(
        self,
        write: Callable[[str], None],
        game: str | None = None,
        searcher_factory: Callable[[Rules], Searcher] | None = None,
    ) -> None:
        self._write_line = write
        self._output_lock = threading.Lock()
        game = hub_game(game)
        variant = next(v for v, g in variants().items() if g == game)
        self._settings = _Settings(variant)
        self._searcher_factory = searcher_factory or Searcher
        self._board: HubBoard | None = None
        self._searcher: Searcher | None = None
        self._state: DraughtsState | None = None
        self._history: list[Position] = []
        self._level = Level()
        self._search: _Search | None = None
        self._build_lock = threading.Lock()
        # the game and the engine are built (and the kernels loaded or compiled) while the GUI
        # reads the handshake; every command that needs them waits for this first
        self._warm = threading.Thread(target=self._warm_up, name="zermelo-hub-start", daemon=True)
        self._warm.start()

    def _warm_up(self) -> None:
        try:
            board = self._ready()
            assert self._searcher is not None
            # the move generator behind the states, then the engine: both loaded before `ready`
            start = board.start
            start.is_terminal()
            for move in start.legal_moves():
                board.move_text(board.triple(start, move))
                start.play(move).is_terminal()
            self._searcher.search(
                board.start, 1, None, None, (), threading.Event(), lambda found, spent: None
            )
        except Exception:  # the command that needs the engine says what is wrong
            pass

    # output

    def _send(self, line: str) -> None:
        with self._output_lock:
            self._write_line(line)

    def error(self, message: str) -> None:
        """One ``error message="..."`` line."""
        self._send(format_line("error", ("message", " ".join(message.split()))))

    # the game, built on first use (``init``, or the first command that needs it)

    def _ready(self) -> HubBoard:
        with self._build_lock:
            if self._board is None:
                spec = get_game(variants()[self._settings.variant])
                board = HubBoard(spec)
                self._searcher = self._searcher_factory(board.rules)
                self._state, self._history = board.start, []
                self._board = board
            return self._board

    # commands

    def handle(self, line: str) -> bool:
        """Act on one line; False after ``quit``."""
        try:
            parsed = parse_line(line)
        except HubSyntaxError as error:
            self.error(str(error))
            return True
        if parsed is None:
            return True
        command = parsed.command
        if command == "quit":
            self._stop_search()
            return False
        searching = self._search is not None and not self._search.finished.is_set()
        if searching and command in _COMMANDS and command not in ("ping", "stop", "ponder-hit"):
            self.error(
                f"{command!r} during a search: only ping, ponder-hit and stop are allowed "
                "until 'done' (send stop first)"
            )
            return True
        handler = _COMMANDS.get(command)
        if command not in ("hub", "ping", "stop", "ponder-hit"):
            self._warm.join()
        if handler is None:
            self.error(
                f"unknown command {command!r}: expected hub, set-param, init, new-game, pos, "
                "level, go, ponder-hit, stop, ping or quit"
            )
            return True
        try:
            handler(self, parsed)
        except ZermeloError as error:
            self.error(str(error))
        except ValueError as error:
            self.error(f"{command}: {error}")
        except Exception as error:  # a defect: said in one line, and the engine keeps running
            self.error(f"{command}: internal error: {type(error).__name__}: {error}")
        return True

    def _hub(self, line: HubLine) -> None:
        from zermelo import __version__

        self._send(
            format_line(
                "id",
                ("name", ENGINE_NAME),
                ("version", __version__),
                ("author", AUTHOR),
                ("country", COUNTRY),
            )
        )
        self._send(
            format_line(
                "param",
                ("name", "variant"),
                ("value", self._settings.variant),
                ("type", "enum"),
                ("values", " ".join(variants())),
            )
        )
        self._send(
            format_line(
                "param",
                ("name", "level"),
                ("value", self._settings.level),
                ("type", "enum"),
                ("values", " ".join(LEVELS)),
            )
        )
        self._send("wait")

    def _set_param(self, line: HubLine) -> None:
        name, value = line.get("name"), line.get("value")
        if not name:
            raise ValueError("expected set-param name=<name> value=<value> (variant or level)")
        value = value or ""
        if name == "variant":
            if value not in variants():
                raise ValueError(f"variant must be one of {' '.join(variants())}, not {value!r}")
            if value != self._settings.variant:
                self._settings.variant = value
                self._board = self._searcher = self._state = None
        elif name == "level":
            if value not in LEVELS:
                raise ValueError(f"level must be one of {' '.join(LEVELS)}, not {value!r}")
            self._settings.level = value
        else:
            raise ValueError(f"unknown parameter {name!r}: expected variant or level")

    def _init(self, line: HubLine) -> None:
        self._ready()
        self._send("ready")

    def _new_game(self, line: HubLine) -> None:
        board = self._ready()
        if self._searcher is not None:
            self._searcher.new_game()
        self._state, self._history = board.start, []

    def _ping(self, line: HubLine) -> None:
        self._send("pong")

    def _pos(self, line: HubLine) -> None:
        board = self._ready()
        text = line.get("pos")
        self._state, self._history = None, []
        if text is None and not line.has("start"):
            raise ValueError('expected pos pos=<position> [moves="..."]; no position now')
        state = board.start if text is None else board.read_position(text)
        history: list[Position] = []
        moves = (line.get("moves") or "").split()
        try:
            for move_text in moves:
                if state.is_terminal():
                    raise ValueError(f"the game is over before {move_text!r}")
                move = board.read_move(state, move_text)
                history.append(_position_key(state))
                state = state.play(move)
        except (ValueError, ZermeloError) as error:
            raise ValueError(
                f"{error}; using the position after the {len(history)} moves before it, "
                f"{board.position(state)}"
            ) from None
        finally:
            self._state, self._history = state, history

    def _level_command(self, line: HubLine) -> None:
        level = parse_level(line)
        self._level = level
        if level.problems:
            raise ValueError(
                "; ".join(level.problems) + ": using the rest (level depth=N | nodes=N | "
                "move-time=S | [moves=N] time=S [inc=S] | infinite)"
            )

    def _ponder_hit(self, line: HubLine) -> None:
        search = self._search
        if search is not None and not search.ponderhit.is_set():
            search.ponderhit_at = time.monotonic()
            search.ponderhit.set()

    def _stop_command(self, line: HubLine) -> None:
        self._stop_search()

    def _stop_search(self) -> None:
        search = self._search
        if search is not None:
            search.stop.set()
            search.thread.join()
            self._search = None

    def close(self) -> None:
        self._stop_search()

    def _go(self, line: HubLine) -> None:
        board = self._ready()
        searcher = self._searcher
        assert searcher is not None
        mode = next((m for m in ("analyze", "ponder", "think") if line.has(m)), None)
        if mode is None:
            raise ValueError("expected go think, go ponder or go analyze")
        self._stop_search()
        state = self._state
        if state is None:
            self.error("no position to search: send pos pos=<position> first")
            self._send("done")
            return
        if state.is_terminal():
            self.error("the position has no legal move: the game is over")
            self._send("done")
            return
        level = self._level
        budget = level.budget()
        if budget is None and mode == "think" and not level.bounded():
            budget = DEFAULT_MOVE_TIME
        started = time.monotonic()
        search = _Search(threading.Thread(target=lambda: None))
        legal = state.legal_moves()
        hard = self._settings.level == "hard"
        history = tuple(self._history)
        chosen_level = self._settings.level

        def deadline() -> float | None:
            if budget is None:
                return None
            if mode == "ponder":
                return search.ponderhit_at + budget if search.ponderhit.is_set() else None
            return started + budget

        def info(found: Found, elapsed: float) -> None:
            pairs: list[tuple[str, str | int | float]] = [
                ("depth", found.depth),
                ("score", round(found.score, 2)),
                ("nodes", found.nodes),
                ("time", round(elapsed, 3)),
                ("nps", round(found.nodes / max(elapsed, 1e-6) / 1e6, 3)),
            ]
            if found.pv:
                pairs.append(("pv", " ".join(board.move_text(m) for m in found.pv)))
            self._send(format_line("info", *pairs))

        def done(move: Triple | None, pv: tuple[Triple, ...]) -> None:
            pairs: list[tuple[str, str | int | float]] = []
            if move is not None:
                pairs.append(("move", board.move_text(move)))
                if len(pv) > 1 and pv[0] == move:
                    pairs.append(("ponder", board.move_text(pv[1])))
            with self._output_lock:
                search.finished.set()
                search.halt.set()
                self._write_line(format_line("done", *pairs))

        def clock() -> None:
            """Halt the engine at ``stop`` or when the clock runs out."""
            while not search.halt.is_set():
                end = deadline()
                if search.stop.is_set() or (end is not None and time.monotonic() >= end):
                    search.halt.set()
                    return
                search.halt.wait(0.005)

        def run_engine() -> None:
            # a forced move is played at once (after one depth, for its score): no clock spent
            forced = mode == "think" and len(legal) == 1
            found = searcher.search(
                state,
                1 if forced else level.depth,
                level.nodes,
                # pondering has no clock until ponder-hit: the clock thread halts it then
                None if mode == "ponder" else budget,
                history,
                search.halt,
                info,
            )
            if found is None or found.move is None:
                done(board.triple(state, legal[0]), ())
            else:
                done(found.move, found.pv)

        def run_level() -> None:
            from zermelo.agents.levels import make_agent

            seconds = budget if budget is not None else DEFAULT_MOVE_TIME
            agent = make_agent(board.spec, chosen_level, seed=0, time_limit=seconds)
            # the levels' agents report no search here: the protocol's info lines are optional
            done(board.triple(state, cast(DraughtsMove, agent.choose(cast(AnyState, state)))), ())

        def run() -> None:
            threading.Thread(target=clock, name="zermelo-hub-clock", daemon=True).start()
            try:
                if hard:
                    run_engine()
                else:
                    run_level()
            except ZermeloError as error:
                self.error(str(error))
                done(None, ())
            except Exception as error:  # pragma: no cover - a defect: a done still comes
                self.error(f"internal error: {type(error).__name__}: {error}")
                done(None, ())

        search.thread = threading.Thread(target=run, name="zermelo-hub-search", daemon=True)
        self._search = search
        search.thread.start()


_COMMANDS: dict[str, Callable[[HubSession, HubLine], None]] = {
    "hub": HubSession._hub,
    "set-param": HubSession._set_param,
    "init": HubSession._init,
    "new-game": HubSession._new_game,
    "ping": HubSession._ping,
    "pos": HubSession._pos,
    "level": HubSession._level_command,
    "go": HubSession._go,
    "ponder-hit": HubSession._ponder_hit,
    "stop": HubSession._stop_command,
}


def run_hub(
    input_stream: TextIO,
    output_stream: TextIO,
    game: str | None = None,
    searcher_factory: Callable[[Rules], Searcher] | None = None,
) -> int:
    """Run the protocol until ``quit`` or the end of ``input_stream``; return the exit status."""
    return serve_lines(
        input_stream,
        output_stream,
        lambda write: HubSession(write, game, searcher_factory),
        lambda session, note: cast(HubSession, session).error(note),
    )


def main() -> None:
    """``python -m zermelo.ui.hub``: the protocol on standard input and output."""
    sys.exit(run_hub(sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
