"""An external chess engine as a player, through the Universal Chess Interface (python-chess's
:mod:`chess.engine`).

``UciAgent("stockfish", elo=1800, time_limit=1)`` starts the engine on its first move and keeps it
for the agent's life. With ``elo`` it sets the engine's ``UCI_LimitStrength`` and ``UCI_Elo``
(clamped to the range the engine offers) when the engine has them; an engine without them plays
at full strength, which :attr:`UciAgent.limited` tells.
"""

from __future__ import annotations

import shlex
import weakref

import chess
import chess.engine

from zermelo.core.errors import IllegalMoveError, ZermeloError
from zermelo.core.state import AnyState
from zermelo.games.chess import ChessMove, ChessState

__all__ = ["UciAgent"]

START_TIMEOUT = 30.0
"""Seconds an engine may take to start and answer ``uci``."""


class UciAgent:
    """Plays the moves of the UCI engine started by the command line ``command``, under
    ``time_limit`` seconds (default 1) or ``depth`` plies per move."""

    def __init__(
        self,
        command: str,
        *,
        elo: int | None = None,
        time_limit: float | None = None,
        depth: int | None = None,
        name: str = "uci",
    ) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ZermeloError(f"uci agent: the command {command!r} is empty")
        self.elo = elo
        self.limit = chess.engine.Limit(
            time=time_limit if time_limit is not None or depth is not None else 1.0, depth=depth
        )
        self.name = name
        self.limited = False
        self._engine: chess.engine.SimpleEngine | None = None

    def _start(self) -> chess.engine.SimpleEngine:
        try:
            engine = chess.engine.SimpleEngine.popen_uci(self.argv, timeout=START_TIMEOUT)
        except (OSError, chess.engine.EngineError, TimeoutError) as error:
            raise ZermeloError(
                f"uci agent: cannot start {shlex.join(self.argv)!r}: {error}; expected the "
                "command of a UCI chess engine"
            ) from None
        weakref.finalize(self, _quit, engine)
        if self.elo is not None and "UCI_Elo" in engine.options:
            option = engine.options["UCI_Elo"]
            elo = self.elo
            if option.min is not None:
                elo = max(elo, int(option.min))
            if option.max is not None:
                elo = min(elo, int(option.max))
            settings: dict[str, chess.engine.ConfigValue] = {"UCI_Elo": elo}
            if "UCI_LimitStrength" in engine.options:
                settings["UCI_LimitStrength"] = True
            engine.configure(settings)
            self.limited = True
        return engine

    def choose(self, state: AnyState) -> ChessMove:
        if not isinstance(state, ChessState):
            raise ZermeloError("uci agents play chess only")
        board = state.board
        if state.is_terminal():
            raise IllegalMoveError("the game is over; there is no move to choose")
        if self._engine is None:
            self._engine = self._start()
        try:
            played = self._engine.play(board, self.limit)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise ZermeloError(f"uci agent {self.name!r}: the engine failed: {error}") from None
        if played.move is None:
            raise IllegalMoveError(f"uci agent {self.name!r} gave no move in {board.fen()}")
        return ChessMove.of(played.move)

    def close(self) -> None:
        """Stop the engine (it is stopped anyway when the agent is collected)."""
        if self._engine is not None:
            _quit(self._engine)
            self._engine = None


def _quit(engine: chess.engine.SimpleEngine) -> None:
    try:
        engine.quit()
    except Exception:
        engine.close()
