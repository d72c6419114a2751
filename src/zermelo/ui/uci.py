"""The Universal Chess Interface: zermelo's chess engine for chess GUIs, cutechess and lichess-bot.

:func:`run_uci` speaks the protocol on any pair of text streams; ``python -m zermelo.ui.uci`` runs
it on standard input and output. Commands: ``uci``, ``isready``, ``ucinewgame``, ``position
startpos|fen FEN [moves M...]``, ``go`` (``wtime btime winc binc movestogo movetime depth nodes
infinite``), ``stop``, ``quit``, ``setoption name Hash|Level value V``; ``debug``, ``register`` and
``ponderhit`` are accepted and ignored. The search runs in a thread, so ``stop`` and ``isready``
are answered while it thinks. A line the engine cannot use gets one ``info string`` line saying
why; the engine never stops on bad input.

The protocol is for programs, so its words are the protocol's and stay in English.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

import chess

from zermelo.core.errors import ZermeloError
from zermelo.games.chess import ChessMove
from zermelo.search.result import SearchResult
from zermelo.solvers.chess import LEVELS, ChessEngine, board_of, mate_in

__all__ = ["ENGINE_NAME", "UciSession", "main", "run_uci"]

ENGINE_NAME = "zermelo"
_GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")
_GO_FLAGS = ("infinite", "ponder")


def _score_words(score: float) -> str:
    mate = mate_in(score)
    return f"mate {mate}" if mate is not None else f"cp {int(score)}"


def _info_line(progress: SearchResult[ChessMove]) -> str:
    """The ``info`` line of one completed iteration."""
    stats = progress.stats
    return (
        f"info depth {progress.depth} seldepth {stats.seldepth}"
        f" score {_score_words(progress.value)} nodes {stats.nodes}"
        f" nps {int(stats.nodes_per_second)} time {int(stats.elapsed * 1000)}"
        + (" pv " + " ".join(move.uci() for move in progress.pv) if progress.pv else "")
    )


def _bestmove_line(result: SearchResult[ChessMove]) -> str:
    """``bestmove``, with the move to ponder on (the second of the line) when there is one."""
    if result.move is None:
        return "bestmove 0000"
    if len(result.pv) > 1:
        return f"bestmove {result.move.uci()} ponder {result.pv[1].uci()}"
    return f"bestmove {result.move.uci()}"


class UciSession:
    """One engine behind the protocol; :meth:`handle` takes one line, output goes to ``write``."""

    def __init__(
        self, write: Callable[[str], None], engine_factory: Callable[[], ChessEngine] = ChessEngine
    ) -> None:
        self._write_line = write
        self._output_lock = threading.Lock()
        self._engine: ChessEngine | None = None
        self._engine_error: str | None = None
        self._ready = threading.Event()
        self._factory = engine_factory
        self._board = chess.Board()
        self._level = "hard"
        self._hash_mb = 64
        self._search: threading.Thread | None = None
        self._stop = threading.Event()
        self._infinite_done = threading.Event()
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

    def _info_string(self, text: str) -> None:
        self._send("info string " + " ".join(text.split()))

    def _engine_ready(self) -> ChessEngine | None:
        self._ready.wait()
        if self._engine is None:
            self._info_string(f"the engine could not start: {self._engine_error}")
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
                self._info_string(
                    f"unknown command {line.strip()!r}: expected uci, isready, ucinewgame, "
                    "position, go, stop, setoption or quit"
                )
            else:
                handler(self, arguments)
        except ZermeloError as error:
            self._info_string(str(error))
        except (ValueError, IndexError) as error:
            self._info_string(f"cannot use {line.strip()!r}: {error}")
        return True

    def _uci(self, arguments: list[str]) -> None:
        from zermelo import __version__

        self._send(f"id name {ENGINE_NAME} {__version__}")
        self._send("id author The zermelo team")
        self._send("option name Hash type spin default 64 min 1 max 4096")
        self._send("option name Level type combo default hard var easy var medium var hard")
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

    def _setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        if not text.startswith("name ") or " value " not in text + " ":
            raise ValueError("expected 'setoption name NAME value VALUE'")
        name, _, value = text[len("name ") :].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            if not value.isdigit():
                raise ValueError(f"Hash must be a number of MiB from 1 to 4096, not {value!r}")
            self._stop_search()
            engine = self._engine_ready()
            if engine is not None:
                engine.resize(int(value))
            self._hash_mb = int(value)
        elif name == "level":
            if value.lower() not in LEVELS:
                raise ValueError(f"Level must be easy, medium or hard, not {value!r}")
            self._level = value.lower()
        else:
            raise ValueError(f"unknown option {name!r}: expected Hash or Level")

    def _position(self, arguments: list[str]) -> None:
        if not arguments:
            raise ValueError("expected 'position startpos|fen FEN [moves ...]'")
        if "moves" in arguments:
            split = arguments.index("moves")
            setup, moves = arguments[:split], arguments[split + 1 :]
        else:
            setup, moves = arguments, []
        if setup[0] == "startpos" and len(setup) == 1:
            fen = "startpos"
        elif setup[0] == "fen" and len(setup) > 1:
            fen = " ".join(setup[1:])
        else:
            raise ValueError("expected 'position startpos|fen FEN [moves ...]'")
        self._board = board_of(fen, moves)

    def _go(self, arguments: list[str]) -> None:
        self._stop_search()
        options: dict[str, int] = {}
        flags: set[str] = set()
        i = 0
        while i < len(arguments):
            word = arguments[i]
            if word in _GO_NUMBERS:
                if i + 1 >= len(arguments):
                    raise ValueError(f"'{word}' needs a number")
                try:
                    options[word] = int(arguments[i + 1])
                except ValueError:
                    raise ValueError(
                        f"'{word}' needs a whole number, not {arguments[i + 1]!r}"
                    ) from None
                i += 2
            elif word in _GO_FLAGS:
                flags.add(word)
                i += 1
            elif word == "searchmoves":
                raise ValueError("searchmoves is not supported")
            else:
                raise ValueError(f"unknown go parameter {word!r}")
        engine = self._engine_ready()
        if engine is None:
            self._send("bestmove 0000")
            return
        depth = options.get("depth")
        if "mate" in options:
            depth = min(100, max(1, 2 * options["mate"] + 1))
        cap = LEVELS[self._level]
        if cap is not None:
            depth = cap if depth is None else min(depth, cap)
        infinite = "infinite" in flags or "ponder" in flags

        def seconds(name: str) -> float | None:
            value = options.get(name)
            return None if value is None else max(0, value) / 1000.0

        limits = {
            "depth": depth if depth is None or depth >= 1 else 1,
            "movetime": seconds("movetime"),
            "nodes": options.get("nodes"),
            "wtime": None if infinite else seconds("wtime"),
            "btime": None if infinite else seconds("btime"),
            "winc": seconds("winc") or 0.0,
            "binc": seconds("binc") or 0.0,
            "movestogo": options.get("movestogo"),
        }
        if limits["movetime"] is not None and limits["movetime"] <= 0:
            limits["movetime"] = 0.001
        self._stop = threading.Event()
        stop = self._stop
        board = self._board.copy()

        def progress(found: SearchResult[ChessMove]) -> None:
            self._send(_info_line(found))

        def run() -> None:
            try:
                result = engine.search(board, stop_event=stop, progress=progress, **limits)  # type: ignore[arg-type]
            except ZermeloError as error:
                self._info_string(str(error))
                self._send("bestmove 0000")
                return
            if infinite:
                stop.wait()
            self._send(_bestmove_line(result))

        self._search = threading.Thread(target=run, name="zermelo-uci-search", daemon=True)
        self._search.start()

    def _stop_command(self, arguments: list[str]) -> None:
        self._stop_search()

    def _ponderhit(self, arguments: list[str]) -> None:
        self._stop_search()

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
    "ponderhit": UciSession._ponderhit,
    "debug": UciSession._ignore,
    "register": UciSession._ignore,
}


def run_uci(
    input_stream: TextIO,
    output_stream: TextIO,
    engine_factory: Callable[[], ChessEngine] = ChessEngine,
) -> int:
    """Run the protocol until ``quit`` or the end of ``input_stream``; return the exit status."""

    def write(line: str) -> None:
        output_stream.write(line + "\n")
        output_stream.flush()

    session = UciSession(write, engine_factory)
    try:
        for line in input_stream:
            if not session.handle(line):
                break
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
    return 0


def main() -> None:
    """``python -m zermelo.ui.uci``: the protocol on standard input and output."""
    sys.exit(run_uci(sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
