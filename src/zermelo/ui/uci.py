"""The Universal Chess Interface: zermelo's chess engine for chess GUIs, cutechess and lichess-bot.

A :class:`UciSession` reads one command line at a time (:meth:`UciSession.handle`) and writes its
answers through a callback, so that it runs on standard input and output (:func:`run`) as well as
inside tests. The search runs in a thread of its own, so ``stop``, ``isready`` and ``quit`` are
answered while it thinks.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``position startpos|fen FEN [moves M...]``,
``go`` with ``wtime btime winc binc movestogo movetime depth nodes infinite``, ``stop``,
``quit``, and ``setoption name Hash|Level value V``. Every completed iteration prints an ``info``
line (depth, seldepth, score ``cp`` or ``mate``, nodes, nps, time and pv). A line that cannot be
read is answered with one ``info string`` line saying what was wrong; the engine keeps going.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import IO

import chess

from zermelo import __version__
from zermelo.agents.chess import LEVEL_SETTINGS, noisy_choice
from zermelo.core.errors import ZermeloError
from zermelo.solvers.chess import DEFAULT_HASH_MB, ChessEngine, ChessSearchInfo
from zermelo.solvers.chess.engine import MAX_HASH_MB, board_of, mate_in

__all__ = ["UciSession", "run"]

_GO_NUMBERS = {
    "wtime": 1000.0,
    "btime": 1000.0,
    "winc": 1000.0,
    "binc": 1000.0,
    "movetime": 1000.0,
    "movestogo": 1,
    "depth": 1,
    "nodes": 1,
}
"""``go`` parameter -> its divisor to seconds (1000 for milliseconds) or 1 for counts."""


class UciSession:
    """One conversation with a chess GUI. ``write`` receives every line the engine sends."""

    def __init__(self, write: Callable[[str], None], *, seed: int = 0) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.engine = ChessEngine()
        self.board = chess.Board()
        self.level = "hard"
        self.rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    # -- commands --------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line; ``False`` once the GUI said ``quit``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                self.stop()
                return False
            if command == "uci":
                self._uci()
            elif command == "isready":
                self.send("readyok")
            elif command == "ucinewgame":
                self.stop()
                self.engine.new_game()
                self.board = chess.Board()
            elif command == "position":
                self.stop()
                self.board = _position(args)
            elif command == "go":
                self._go(args)
            elif command == "stop":
                self.stop()
            elif command == "setoption":
                self.stop()
                self._setoption(args)
            elif command in ("debug", "ponderhit", "register"):
                pass
            else:
                self.send(f"info string unknown command {command!r}")
        except ZermeloError as error:
            self.send(f"info string error: {error}")
        return True

    def _uci(self) -> None:
        self.send(f"id name zermelo {__version__}")
        self.send("id author the zermelo developers")
        self.send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self.send("option name Level type combo default hard var easy var medium var hard")
        self.send("uciok")

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise ZermeloError(f"setoption {text!r}: expected 'setoption name NAME value VALUE'")
        name, _, value = text[len("name ") :].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            if not value.isdigit() or not 1 <= int(value) <= MAX_HASH_MB:
                raise ZermeloError(f"Hash {value!r}: expected a whole number of MiB, 1 to 4096")
            self.engine.resize(int(value))
        elif name == "level":
            if value.lower() not in LEVEL_SETTINGS:
                raise ZermeloError(f"Level {value!r}: expected easy, medium or hard")
            self.level = value.lower()
        else:
            raise ZermeloError(f"unknown option {name!r}: expected Hash or Level")

    def _go(self, args: list[str]) -> None:
        self.stop()
        limits: dict[str, float | int] = {}
        infinite = False
        index = 0
        while index < len(args):
            word = args[index]
            if word == "infinite":
                infinite = True
            elif word == "ponder":
                pass
            elif word in _GO_NUMBERS:
                if index + 1 >= len(args):
                    raise ZermeloError(f"go {word}: expected a number after it")
                raw = args[index + 1]
                try:
                    number = int(raw)
                except ValueError:
                    raise ZermeloError(f"go {word} {raw!r}: expected a whole number") from None
                divisor = _GO_NUMBERS[word]
                if divisor == 1:
                    if number < 1:
                        raise ZermeloError(f"go {word} {raw!r}: expected a number above 0")
                    limits[word] = number
                else:
                    limits[word] = max(0.0, number / divisor)
                index += 1
            elif word == "searchmoves":
                break
            else:
                raise ZermeloError(f"go: unknown parameter {word!r}")
            index += 1
        if limits.get("movetime") == 0:
            limits["movetime"] = 0.001
        self._stop = threading.Event()
        board = self.board.copy()
        self._thread = threading.Thread(
            target=self._think, args=(board, limits, infinite, self._stop), daemon=True
        )
        self._thread.start()

    def _think(
        self,
        board: chess.Board,
        limits: dict[str, float | int],
        infinite: bool,
        stop: threading.Event,
    ) -> None:
        try:
            move = self._best(board, limits, infinite, stop)
        except ZermeloError as error:
            self.send(f"info string error: {error}")
            move = None
        if infinite:
            stop.wait()
        self.send(f"bestmove {move or '0000'}")

    def _best(
        self,
        board: chess.Board,
        limits: dict[str, float | int],
        infinite: bool,
        stop: threading.Event,
    ) -> str | None:
        depth_cap, noise = LEVEL_SETTINGS[self.level]
        depth = limits.get("depth")
        if depth_cap is not None:
            depth = depth_cap if depth is None else min(int(depth), depth_cap)
        if noise > 0:
            values = self.engine.analyze_moves(
                board,
                depth=None if depth is None else int(depth),
                movetime=_float(limits.get("movetime")),
                stop_event=stop,
            )
            if values:
                best = noisy_choice(values, self.rng, noise)
                self.send(
                    f"info depth {best.depth} score {_score(best.score)} pv {' '.join(best.pv)}"
                )
                return best.move
        result = self.engine.search(
            board,
            depth=None if depth is None else int(depth),
            movetime=_float(limits.get("movetime")),
            nodes=None if "nodes" not in limits else int(limits["nodes"]),
            wtime=_float(limits.get("wtime")),
            btime=_float(limits.get("btime")),
            winc=float(limits.get("winc", 0)),
            binc=float(limits.get("binc", 0)),
            movestogo=None if "movestogo" not in limits else int(limits["movestogo"]),
            stop_event=stop,
            on_info=self._info,
        )
        return result.move

    def _info(self, info: ChessSearchInfo) -> None:
        self.send(
            f"info depth {info.depth} seldepth {info.seldepth} score {_score(info.score)} "
            f"nodes {info.nodes} nps {info.nps} time {int(info.time * 1000)} pv {' '.join(info.pv)}"
        )

    def stop(self) -> None:
        """Stop a running search; its ``bestmove`` line is sent before this returns."""
        thread = self._thread
        if thread is not None:
            self._stop.set()
            thread.join()
            self._thread = None


def _float(value: float | int | None) -> float | None:
    return None if value is None else float(value)


def _score(score: int) -> str:
    mate = mate_in(score)
    return f"mate {mate}" if mate is not None else f"cp {score}"


def _position(args: list[str]) -> chess.Board:
    """The board of ``position startpos|fen FEN [moves ...]``."""
    if not args:
        raise ZermeloError("position: expected 'startpos' or 'fen FEN', then 'moves ...'")
    moves: list[str] = []
    if "moves" in args:
        at = args.index("moves")
        args, moves = args[:at], args[at + 1 :]
    if args == ["startpos"]:
        fen = chess.STARTING_FEN
    elif args[0] == "fen" and len(args) > 1:
        fen = " ".join(args[1:])
    else:
        raise ZermeloError(
            f"position {' '.join(args)!r}: expected 'startpos' or 'fen FEN', then 'moves ...'"
        )
    return board_of(fen, moves)


def run(stdin: IO[str], stdout: IO[str]) -> int:
    """Speak UCI on ``stdin`` and ``stdout`` until ``quit`` or the end of input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    session = UciSession(write)
    for line in stdin:
        if not session.handle(line):
            return 0
    session.stop()
    return 0
