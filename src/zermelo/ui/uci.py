"""The Universal Chess Interface: zermelo's chess engine for chess GUIs, cutechess and lichess-bot.

:func:`run_uci` speaks the protocol on any pair of text streams; ``python -m zermelo.ui.uci`` runs
it on standard input and output. Commands: ``uci``, ``isready``, ``ucinewgame``, ``position
startpos|fen FEN [moves M...]``, ``go`` (``wtime btime winc binc movestogo movetime depth nodes
mate infinite ponder searchmoves``), ``stop``, ``ponderhit``, ``quit``, ``setoption name
Hash|Threads|Level|MultiPV|Ponder|EvalFile value V``; ``debug`` and ``register`` are accepted and
ignored. ``EvalFile`` names a learned network (:mod:`zermelo.solvers.chess.nnue`) the engine evaluates
with; empty (or ``<empty>``) is the built-in evaluation, and a file that is not a network gets one
``info string`` saying why, the engine keeping the evaluation it had. The
search runs in a thread, so ``stop``, ``ponderhit`` and ``isready`` are answered while it thinks.

What the engine does with lines it cannot use, as Stockfish does:

* a ``position`` whose moves run into one that is not legal keeps the moves before it and says so
  in an ``info string``; a ``position`` whose setup is unusable (bad FEN) leaves no position, and
  ``go`` then answers ``bestmove 0000`` after an ``info string``;
* a ``go`` with words it cannot use (unknown words, a missing or bad number) says which in an
  ``info string`` and searches with the rest: every ``go`` gets its ``bestmove``;
* numbers beyond what the engine can use are clamped (``nodes`` to 2^62, ``depth`` to 100,
  ``Hash`` to :data:`zermelo.solvers.chess.MAX_HASH_MB`); bytes that are not UTF-8 are read as
  U+FFFD; a line longer than :data:`MAX_LINE` characters is dropped with an ``info string``.

Every search completes at least one ply before its ``bestmove``, which is always the first move
of the last ``info ... pv`` line. A finished game (checkmate, stalemate, insufficient material,
75 moves, fivefold repetition: a draw that can only be claimed is not the end) gets ``info depth
0 score mate 0`` (or ``cp 0``) and ``bestmove 0000``.

The protocol is for programs, so its words are the protocol's and stay in English.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, cast

import chess

from zermelo.agents.chess import noisy_choice
from zermelo.core.errors import ZermeloError
from zermelo.games.chess import ChessMove, board_from_text, move_from_text
from zermelo.search.result import SearchResult
from zermelo.solvers.chess import LEVELS, MAX_HASH_MB, ChessEngine, mate_in, nnue
from zermelo.solvers.chess.engine import MAX_THREADS, NO_LIMIT
from zermelo.ui.protocol import MAX_LINE, serve_lines

__all__ = ["ENGINE_NAME", "MAX_LINE", "MAX_MULTIPV", "UciSession", "main", "run_uci"]

ENGINE_NAME = "zermelo"
MAX_MULTIPV = 500
DEFAULT_HASH_MB = 64
_GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")
_GO_FLAGS = ("infinite", "ponder")
_GO_WORDS = (*_GO_NUMBERS, *_GO_FLAGS, "searchmoves")


def _score_words(score: float) -> str:
    mate = mate_in(score)
    return f"mate {mate}" if mate is not None else f"cp {int(score)}"


def _info_line(
    progress: SearchResult[ChessMove],
    hashfull: int,
    multipv: int | None = None,
    line: tuple[float, tuple[ChessMove, ...]] | None = None,
) -> str:
    """The ``info`` line of one completed iteration (of its ``multipv``-th line, when given)."""
    stats = progress.stats
    value, pv = line if line is not None else (progress.value, progress.pv)
    return (
        f"info depth {progress.depth} seldepth {max(stats.seldepth, len(pv))}"
        + (f" multipv {multipv}" if multipv is not None else "")
        + f" score {_score_words(value)} nodes {stats.nodes}"
        f" nps {int(stats.nodes_per_second)} hashfull {hashfull} time {int(stats.elapsed * 1000)}"
        + (" pv " + " ".join(move.uci() for move in pv) if pv else "")
    )


def _bestmove_line(move: ChessMove | None, pv: tuple[ChessMove, ...]) -> str:
    """``bestmove``, with the move to ponder on (the second of the line) when there is one."""
    if move is None:
        return "bestmove 0000"
    if len(pv) > 1 and pv[0] == move:
        return f"bestmove {move.uci()} ponder {pv[1].uci()}"
    return f"bestmove {move.uci()}"


def _whole(word: str, text: str) -> int:
    """The whole number ``text`` for ``go``'s ``word`` (any size; its user clamps it)."""
    if not text.lstrip("+-").isdigit():
        raise ValueError(f"'{word}' needs a whole number, not {text!r}")
    return int(text)


@dataclass
class _Go:
    """A parsed ``go`` line: its numbers, its flags, its root moves and what was wrong in it."""

    numbers: dict[str, int] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    searchmoves: list[str] | None = None
    problems: list[str] = field(default_factory=list)


def parse_go(arguments: list[str]) -> _Go:
    """``go``'s words: what is usable, and a description of each word that is not."""
    go = _Go()
    i = 0
    while i < len(arguments):
        word = arguments[i]
        if word in _GO_NUMBERS:
            if i + 1 >= len(arguments) or arguments[i + 1] in _GO_WORDS:
                go.problems.append(f"'{word}' needs a number")
                i += 1
                continue
            try:
                go.numbers[word] = _whole(word, arguments[i + 1])
            except ValueError as error:
                go.problems.append(str(error))
            i += 2
        elif word in _GO_FLAGS:
            go.flags.add(word)
            i += 1
        elif word == "searchmoves":
            go.searchmoves = []
            i += 1
            while i < len(arguments) and arguments[i] not in _GO_WORDS:
                go.searchmoves.append(arguments[i])
                i += 1
        else:
            go.problems.append(f"unknown go parameter {word!r}")
            i += 1
    return go


class UciSession:
    """One engine behind the protocol; :meth:`handle` takes one line, output goes to ``write``."""

    def __init__(
        self,
        write: Callable[[str], None],
        engine_factory: Callable[[], ChessEngine] | None = None,
    ) -> None:
        self._write_line = write
        self._output_lock = threading.Lock()
        self._engine: ChessEngine | None = None
        self._engine_error: str | None = None
        self._ready = threading.Event()
        self._factory = engine_factory or (lambda: ChessEngine(hash_mb=DEFAULT_HASH_MB))
        self._board: chess.Board | None = chess.Board()
        self._level = "hard"
        self._multipv = 1
        self._rng = random.Random(0)
        self._search: threading.Thread | None = None
        self._stop = threading.Event()
        self._ponderhit = threading.Event()
        threading.Thread(target=self._start_engine, name="zermelo-uci-start", daemon=True).start()

    def _start_engine(self) -> None:
        try:
            engine = self._factory()
            engine.search(chess.Board(), depth=2)
            self._engine = engine
        except Exception as error:  # pragma: no cover - a broken installation
            self._engine_error = f"{type(error).__name__}: {error}"
        finally:
            self._ready.set()

    def _send(self, line: str) -> None:
        with self._output_lock:
            self._write_line(line)

    def info_string(self, text: str) -> None:
        """One ``info string`` line (its text on one line)."""
        self._send("info string " + " ".join(text.split()))

    def _engine_ready(self) -> ChessEngine | None:
        self._ready.wait()
        if self._engine is None:
            self.info_string(f"the engine could not start: {self._engine_error}")
        return self._engine

    # -- commands --------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command, arguments = tokens[0], tokens[1:]
        try:
            if command == "quit":
                self._stop_search()
                return False
            handler = _COMMANDS.get(command)
            if handler is None:
                self.info_string(
                    f"unknown command {line.strip()!r}: expected uci, isready, ucinewgame, "
                    "position, go, stop, ponderhit, setoption or quit"
                )
            else:
                handler(self, arguments)
        except ZermeloError as error:
            self.info_string(str(error))
        except (ValueError, IndexError) as error:
            self.info_string(f"cannot use {line.strip()!r}: {error}")
        return True

    def _uci(self, arguments: list[str]) -> None:
        from zermelo import __version__

        self._send(f"id name {ENGINE_NAME} {__version__}")
        self._send("id author The zermelo team")
        self._send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self._send(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self._send("option name Level type combo default hard var easy var medium var hard")
        self._send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self._send("option name Ponder type check default false")
        self._send("option name EvalFile type string default <empty>")
        self._send("uciok")

    def _isready(self, arguments: list[str]) -> None:
        self._ready.wait()
        self._send("readyok")

    def _ucinewgame(self, arguments: list[str]) -> None:
        self._stop_search()
        engine = self._engine_ready()
        if engine is not None:
            engine.new_game()
        self._board = chess.Board()
        self._rng = random.Random(0)

    def _spin(self, name: str, value: str, low: int, high: int) -> int:
        if not value.lstrip("+-").isdigit():
            raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
        number = int(value)
        if not low <= number <= high:
            clamped = min(max(number, low), high)
            self.info_string(f"{name} must be from {low} to {high}: using {clamped}")
            return clamped
        return number

    def _setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        if not text.startswith("name ") or " value " not in text + " ":
            raise ValueError("expected 'setoption name NAME value VALUE'")
        # a trailing space keeps an empty value apart from the name ("... value" at the end)
        name, _, value = (text + " ")[len("name ") :].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            size = self._spin("Hash", value, 1, MAX_HASH_MB)
            self._stop_search()
            engine = self._engine_ready()
            if engine is not None and engine.hash_mb != size:
                engine.resize(size)
        elif name == "threads":
            threads = self._spin("Threads", value, 1, MAX_THREADS)
            self._stop_search()
            engine = self._engine_ready()
            if engine is not None:
                engine.set_threads(threads)
        elif name == "level":
            if value.lower() not in LEVELS:
                raise ValueError(f"Level must be easy, medium or hard, not {value!r}")
            self._level = value.lower()
        elif name == "multipv":
            self._multipv = self._spin("MultiPV", value, 1, MAX_MULTIPV)
        elif name == "ponder":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"Ponder must be true or false, not {value!r}")
        elif name == "evalfile":
            self._eval_file(value)
        else:
            raise ValueError(
                f"unknown option {name!r}: expected Hash, Threads, Level, MultiPV, Ponder or "
                "EvalFile"
            )

    def _eval_file(self, value: str) -> None:
        """Evaluate with the network in file ``value`` (empty: the built-in evaluation). A file
        that is not one raises :class:`nnue.NnueError` before anything changes."""
        network = None
        if value not in ("", "<empty>"):
            path = Path(value)
            try:
                special = path.exists() and not path.is_file() and not path.is_dir()
            except OSError as error:  # a name too long, say
                raise nnue.NnueError(f"{value}: cannot be read ({error.strerror})") from None
            if special:
                # a device or a pipe (the engine's own standard input, say) would be read forever
                raise nnue.NnueError(f"{path}: not a regular file, so not a network file")
            network = nnue.load(path)
        self._stop_search()
        engine = self._engine_ready()
        if engine is None:
            return
        engine.set_network(network)
        if network is not None:
            self.info_string(f"EvalFile {value}: a network of {network.hidden} hidden units")

    def _position(self, arguments: list[str]) -> None:
        if "moves" in arguments:
            split = arguments.index("moves")
            setup, moves = arguments[:split], arguments[split + 1 :]
        else:
            setup, moves = arguments, []
        if setup == ["startpos"]:
            fen = "startpos"
        elif len(setup) > 1 and setup[0] == "fen":
            fen = " ".join(setup[1:])
        else:
            self._board = None
            raise ValueError("expected 'position startpos|fen FEN [moves ...]'; no position now")
        try:
            board = board_from_text(fen)
        except ZermeloError:
            self._board = None
            raise
        self._board = board
        for i, text in enumerate(moves):
            try:
                board.push(move_from_text(board, text))
            except ZermeloError as error:
                self.info_string(
                    f"{error}; using the position after the {i} moves before it, "
                    f"{board.fen()}, and none of the {len(moves) - i} from it on"
                )
                return

    def _go(self, arguments: list[str]) -> None:
        self._stop_search()
        go = parse_go(arguments)
        if go.problems:
            self.info_string(
                "; ".join(go.problems) + ": searching with the rest of the line "
                "(go wtime|btime|winc|binc|movestogo|movetime|depth|nodes|mate N, infinite, "
                "ponder, searchmoves M...)"
            )
        engine = self._engine_ready()
        if engine is None or self._board is None:
            if self._board is None:
                self.info_string("no position to search: send 'position startpos|fen FEN'")
            self._send("bestmove 0000")
            return
        numbers = go.numbers
        level = LEVELS[self._level]
        depth = numbers.get("depth")
        if "mate" in numbers and numbers["mate"] > 0:
            depth = min(100, 2 * numbers["mate"] + 1)
        if depth is not None:
            depth = min(max(depth, 1), 100)
        if level.depth is not None:
            depth = level.depth if depth is None else min(depth, level.depth)
        infinite = "infinite" in go.flags
        ponder = "ponder" in go.flags and not infinite

        def seconds(name: str) -> float | None:
            value = numbers.get(name)
            return None if value is None else min(max(0, value), 10**12) / 1000.0

        movetime = seconds("movetime")
        if movetime is not None and movetime <= 0:
            movetime = 0.001
        nodes = numbers.get("nodes")
        if nodes is not None:
            nodes = min(max(nodes, 1), NO_LIMIT)
        movestogo = numbers.get("movestogo")
        if movestogo is not None and movestogo < 1:
            movestogo = None
        if infinite:
            movetime = None
        wtime = None if infinite else seconds("wtime")
        btime = None if infinite else seconds("btime")
        winc = seconds("winc") or 0.0
        binc = seconds("binc") or 0.0
        self._stop = threading.Event()
        self._ponderhit = threading.Event()
        stop, ponderhit = self._stop, self._ponderhit
        board = self._board.copy()
        multipv = self._multipv

        last: list[str] = []
        fresh: list[bool] = []  # for each progress: whether it came after ponderhit or stop

        def progress(found: SearchResult[ChessMove]) -> None:
            full = engine.hashfull()
            if multipv > 1 and found.moves:
                lines = [
                    _info_line(found, full, k, (entry.value, entry.pv))
                    for k, entry in enumerate(found.moves, 1)
                ]
            else:
                lines = [_info_line(found, full)]
            last[:] = lines
            fresh.append(ponderhit.is_set() or stop.is_set())
            for line in lines:
                self._send(line)

        def hold() -> None:
            """The protocol's rule: no ``bestmove`` before ``stop`` (or ``ponderhit``). A search
            with no line since then repeats its last lines, for a GUI that reads only what
            follows its ``stop`` or ``ponderhit`` (python-chess's ``play`` does)."""
            if infinite:
                stop.wait()
            elif ponder:
                while not stop.is_set() and not ponderhit.is_set():
                    stop.wait(0.005)
            if (infinite or ponder) and not any(fresh):
                for line in last:
                    self._send(line)

        def finished(result: SearchResult[ChessMove]) -> None:
            last[:] = [f"info depth 0 score {'mate 0' if result.value < 0 else 'cp 0'}"]
            self._send(last[0])

        def run_search() -> None:
            result = engine.search(
                board,
                stop_event=stop,
                progress=progress,
                multipv=multipv,
                searchmoves=go.searchmoves,
                ponderhit=ponderhit if ponder else None,
                depth=depth,
                movetime=movetime,
                nodes=nodes,
                wtime=wtime,
                btime=btime,
                winc=winc,
                binc=binc,
                movestogo=movestogo,
            )
            if result.move is None:
                finished(result)
            hold()
            self._send(_bestmove_line(result.move, result.pv))

        def run_noisy() -> None:
            # a ponder search of a level with noise is bound by the level's depth alone
            values = engine.analyze_moves(
                board,
                depth=depth,
                movetime=None if ponder else movetime,
                nodes=nodes,
                stop_event=stop,
                wtime=None if ponder else wtime,
                btime=None if ponder else btime,
                winc=winc,
                binc=binc,
                movestogo=movestogo,
            )
            if values.move is None or not values.moves:
                finished(values)
                hold()
                self._send("bestmove 0000")
                return
            choice = noisy_choice(values.moves, self._rng, level.noise)
            shown = SearchResult(
                choice.move, choice.value, choice.pv, values.depth, choice.exact, values.stats
            )
            last[:] = [_info_line(shown, engine.hashfull())]
            self._send(last[0])
            hold()
            self._send(_bestmove_line(choice.move, choice.pv))

        def run() -> None:
            try:
                if level.noise > 0:
                    run_noisy()
                else:
                    run_search()
            except ZermeloError as error:
                self.info_string(str(error))
                self._send("bestmove 0000")
            except Exception as error:  # pragma: no cover - a defect: a bestmove still comes
                self.info_string(f"internal error: {type(error).__name__}: {error}")
                self._send("bestmove 0000")

        self._search = threading.Thread(target=run, name="zermelo-uci-search", daemon=True)
        self._search.start()

    def _stop_command(self, arguments: list[str]) -> None:
        self._stop_search()

    def _ponderhit_command(self, arguments: list[str]) -> None:
        self._ponderhit.set()

    def _ignore(self, arguments: list[str]) -> None:
        return None

    def _stop_search(self) -> None:
        if self._search is not None:
            self._stop.set()
            self._search.join()
            self._search = None

    def close(self) -> None:
        self._stop_search()


_COMMANDS: dict[str, Callable[[UciSession, list[str]], None]] = {
    "uci": UciSession._uci,
    "isready": UciSession._isready,
    "ucinewgame": UciSession._ucinewgame,
    "setoption": UciSession._setoption,
    "position": UciSession._position,
    "go": UciSession._go,
    "stop": UciSession._stop_command,
    "ponderhit": UciSession._ponderhit_command,
    "debug": UciSession._ignore,
    "register": UciSession._ignore,
}


def run_uci(
    input_stream: TextIO,
    output_stream: TextIO,
    engine_factory: Callable[[], ChessEngine] | None = None,
) -> int:
    """Run the protocol until ``quit`` or the end of ``input_stream``; return the exit status."""
    return serve_lines(
        input_stream,
        output_stream,
        lambda write: UciSession(write, engine_factory),
        lambda session, note: cast(UciSession, session).info_string(note),
    )


def main() -> None:
    """``python -m zermelo.ui.uci``: the protocol on standard input and output."""
    sys.exit(run_uci(sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
