"""GNU Backgammon as an outside player: one long-lived ``gnubg -t -q -p`` process.

gnubg runs a small Python script (:data:`BRIDGE`, written to a temporary file) inside its own
interpreter; the script reads one request a line on stdin and answers one line on stdout, with
gnubg's module doing the work (``gnubg.findbestmove(board, cubeinfo, evalcontext, dice)``,
``gnubg.evaluate``). zermelo stays the referee: it rolls the dice, sends the position and the
roll, and checks that the answer is one of the legal plays.

The protocol (space-separated words, one line each way):

- ``move B0 … B49 D1 D2`` → ``ok F T F T …`` (each pair one checker's hop, gnubg's 1-based
  points: 25 the bar, 0 off; ``ok`` alone when the roll cannot be played);
- ``eval B0 … B49`` → ``ok P0 P1 P2 P3 P4 E`` (gnubg's cubeless chances for the side on roll:
  win, win gammon, win backgammon, lose gammon, lose backgammon, and the cubeless equity);
- ``cube B0 … B49 VALUE OWNER`` → ``ok BEST NODOUBLE TAKE DROP`` (gnubg's cubeful money
  equities at 0-ply for the side on roll, without the Jacoby rule: the best, no double, double
  and take, double and drop; ``OWNER`` is 1 when the roller owns the cube, 0 the opponent, -1
  centred);
- ``quit``; a request gnubg cannot serve → ``error TEXT``.

``B0 … B24`` are the opponent's checkers and ``B25 … B49`` the roller's, each from its own side
(index ``i`` is its point ``i + 1``, index 24 its bar): gnubg's ``TanBoard``. The zermelo side of
this is :func:`gnubg_board` (from the mover's ``int8[28]`` board of the rules' kernel,
:mod:`zermelo.games.backgammon.kernel`) and :func:`apply_hops`.

Every wait is bounded (``timeout`` seconds per answer, longer for the start); a gnubg that is
missing, dies or answers nonsense is one :class:`GnubgError` line.

gnubg's *n-ply* counts the plies looked ahead *beyond* the move: its 0-ply is a static
evaluation of each afterstate (zermelo's 1-ply), its 1-ply averages the opponent's replies over
the 21 rolls (zermelo's 2-ply).
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from zermelo.core.errors import N_, ZermeloError

__all__ = [
    "BRIDGE",
    "DEFAULT_BINARY",
    "GnubgError",
    "GnubgProcess",
    "apply_hops",
    "gnubg_board",
    "parse_eval_reply",
    "parse_move_reply",
    "request_line",
]

DEFAULT_BINARY = "/usr/games/gnubg"
READY = "zermelo-gnubg ready 1"
MAX_LINE = 4096
"""No answer of the bridge is longer than this."""

BRIDGE = """\
import sys
import gnubg

PLIES = int(sys.argv[-1]) if sys.argv and sys.argv[-1].isdigit() else 0
CUBE = gnubg.cubeinfo(1, -1, 1, 0)
CONTEXT = {"cubeful": 0, "plies": PLIES, "deterministic": 1, "prune": 0, "noise": 0.0}
CUBEFUL = dict(CONTEXT, cubeful=1)


def board_of(words):
    numbers = [int(w) for w in words]
    if len(numbers) != 50 or min(numbers) < 0 or max(numbers) > 15:
        raise ValueError("expected 50 checker counts from 0 to 15")
    return (numbers[:25], numbers[25:])


def answer(line):
    words = line.split()
    if not words:
        return "error empty request"
    if words[0] == "move" and len(words) == 53:
        dice = (int(words[51]), int(words[52]))
        if not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            return "error dice must be 1 to 6"
        hops = gnubg.findbestmove(board_of(words[1:51]), CUBE, CONTEXT, dice)
        return " ".join(["ok"] + [str(int(n)) for n in hops])
    if words[0] == "cube" and len(words) == 53:
        value, owner = int(words[51]), int(words[52])
        if value < 1 or owner not in (-1, 0, 1):
            return "error cube value 1 or more, owner -1, 0 or 1"
        cube = gnubg.cubeinfo(value, owner, 1, 0)
        cube["jacoby"] = 0
        out = gnubg.cfevaluate(board_of(words[1:51]), cube, CUBEFUL)
        return " ".join(["ok"] + ["%.6f" % x for x in out[:4]])
    if words[0] == "eval" and len(words) == 51:
        out = gnubg.evaluate(board_of(words[1:51]), CUBE, CONTEXT)
        return " ".join(["ok"] + ["%.6f" % x for x in out])
    return "error unknown request"


sys.stdout.write("zermelo-gnubg ready 1\\n")
sys.stdout.flush()
for line in sys.stdin:
    if line.strip() == "quit":
        break
    try:
        reply = answer(line)
    except Exception as error:
        reply = "error " + " ".join(str(error).split())[:200]
    sys.stdout.write(reply + "\\n")
    sys.stdout.flush()
"""


class GnubgError(ZermeloError):
    """gnubg could not be started, died, or answered what the bridge does not expect."""


Board = NDArray[np.int8]


def gnubg_board(board: Board) -> list[int]:
    """gnubg's 50 counts (opponent's 25, then the roller's) for a mover's ``int8[28]`` board."""
    mine = [max(int(board[p]), 0) for p in range(1, 25)] + [int(board[25])]
    theirs = [max(-int(board[24 - j]), 0) for j in range(24)] + [int(board[26])]
    return theirs + mine


def request_line(board: Board, dice: tuple[int, int]) -> str:
    """The ``move`` request for ``board`` (the roller's) and ``dice``."""
    return " ".join(["move", *map(str, gnubg_board(board)), str(dice[0]), str(dice[1])])


def parse_move_reply(line: str) -> list[tuple[int, int]]:
    """The hops of an ``ok F T …`` answer: ``(from, to)`` in gnubg's points (25 the bar, 0 off);
    zero pairs after the last hop are padding. Anything else is a :class:`GnubgError`."""
    words = line.split()
    if not words or words[0] != "ok":
        detail = " ".join(words[1:] if words and words[0] == "error" else words)[:200]
        raise GnubgError(N_("gnubg did not answer the move request: {detail}"), detail=detail)
    try:
        numbers = [int(w) for w in words[1:]]
    except ValueError:
        raise GnubgError(
            N_("gnubg's move answer is not numbers: {line!r}"), line=line[:80]
        ) from None
    if len(numbers) % 2 or len(numbers) > 8:
        raise GnubgError(N_("gnubg's move answer is not 1 to 4 hops: {line!r}"), line=line[:80])
    hops: list[tuple[int, int]] = []
    for k in range(0, len(numbers), 2):
        source, target = numbers[k], numbers[k + 1]
        if source == 0 and target == 0:
            continue
        if not (1 <= source <= 25 and 0 <= target < source and source - target <= 6):
            raise GnubgError(
                N_("gnubg's move answer has an impossible hop: {line!r}"), line=line[:80]
            )
        hops.append((source, target))
    return hops


def parse_eval_reply(line: str, count: int = 6) -> tuple[float, ...]:
    """The ``count`` numbers of an ``ok`` answer to ``eval`` (six) or ``cube`` (four)."""
    words = line.split()
    if len(words) != count + 1 or words[0] != "ok":
        raise GnubgError(
            N_("gnubg did not answer the evaluation request: {line!r}"), line=line[:80]
        )
    try:
        numbers = tuple(float(w) for w in words[1:])
        if not all(math.isfinite(x) for x in numbers):
            raise ValueError
        return numbers
    except ValueError:
        raise GnubgError(
            N_("gnubg's evaluation is not numbers: {line!r}"), line=line[:80]
        ) from None


def apply_hops(board: Board, hops: Sequence[tuple[int, int]]) -> Board:
    """The mover's board after gnubg's hops (checked one by one: a checker must be there and
    its landing point must not be held by two or more of the opponent's)."""
    result = board.copy()
    for source, target in hops:
        index = source  # 25: the bar, the kernel's index of it too
        if not 1 <= index <= 25 or result[index] <= 0:
            raise GnubgError(
                N_("gnubg moved a checker from point {point}, where the mover has none"),
                point=source,
            )
        result[index] -= 1
        if target == 0:
            result[0] += 1
            continue
        landing = target
        if not 1 <= landing <= 24 or result[landing] <= -2:
            raise GnubgError(
                N_("gnubg moved a checker to point {point}, which the opponent holds"),
                point=target,
            )
        if result[landing] == -1:
            result[landing] = 1
            result[26] += 1
        else:
            result[landing] += 1
    return result


class GnubgProcess:
    """One gnubg subprocess running :data:`BRIDGE` at ``plies`` (gnubg's count: 0 = static).

    ``timeout`` bounds each answer; ``start_timeout`` the start (gnubg loads its nets and
    bear-off databases first)."""

    def __init__(
        self,
        binary: str = DEFAULT_BINARY,
        plies: int = 0,
        timeout: float = 30.0,
        start_timeout: float = 60.0,
    ) -> None:
        if not 0 <= plies <= 4:
            raise GnubgError(N_("gnubg plies must be 0 to 4, not {plies}"), plies=plies)
        self.binary = binary
        self.plies = plies
        self.timeout = timeout
        found = shutil.which(binary)
        if found is None:
            raise GnubgError(
                N_("gnubg is not installed (no {binary!r}): apt install gnubg"), binary=binary
            )
        handle, self._script = tempfile.mkstemp(prefix="zermelo-gnubg-", suffix=".py")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(BRIDGE)
        try:
            self._process = subprocess.Popen(
                [found, "-t", "-q", "-p", self._script, str(plies)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            os.unlink(self._script)
            raise GnubgError(
                N_("cannot start gnubg ({binary}): {reason}"),
                binary=binary,
                reason=error.strerror or type(error).__name__,
            ) from None
        deadline = time.monotonic() + start_timeout
        while True:
            line = self._read_line(
                deadline, N_("gnubg did not start within {seconds} s"), start_timeout
            )
            if line.strip() == READY:
                break

    def _read_line(self, deadline: float, late: str, seconds: float) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close(wait=0.0)
                raise GnubgError(late, seconds=round(seconds))
            ready, _, _ = select.select([stdout], [], [], min(left, 1.0))
            if ready:
                line = stdout.readline(MAX_LINE)
                if not line:
                    code = self._process.poll()
                    self.close()
                    raise GnubgError(N_("gnubg exited (code {code})"), code=code)
                return line

    def ask(self, request: str) -> str:
        """Send one request line and return gnubg's answer line."""
        stdin = self._process.stdin
        if stdin is None or self._process.poll() is not None:
            raise GnubgError(N_("gnubg exited (code {code})"), code=self._process.poll())
        try:
            stdin.write(request + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            code = self._process.poll()
            self.close()
            raise GnubgError(N_("gnubg exited (code {code})"), code=code) from None
        late = N_("gnubg did not answer within {seconds} s")
        return self._read_line(time.monotonic() + self.timeout, late, self.timeout).strip()

    def best_move(self, board: Board, dice: tuple[int, int]) -> list[tuple[int, int]]:
        """gnubg's play for the roller of ``board`` with ``dice``, as hops."""
        return parse_move_reply(self.ask(request_line(board, dice)))

    def evaluate(self, board: Board) -> tuple[float, ...]:
        """gnubg's cubeless chances and equity for the side to move in ``board``."""
        words = " ".join(map(str, gnubg_board(board)))
        return parse_eval_reply(self.ask("eval " + words))

    def cube(self, board: Board, value: int, owner: int) -> tuple[float, ...]:
        """gnubg's cubeful equities ``(best, no double, double/take, double/drop)`` for the roller
        of ``board`` with the cube at ``value``, owned by the roller (1), the opponent (0) or
        nobody (-1)."""
        words = " ".join(map(str, gnubg_board(board)))
        line = self.ask(f"cube {words} {value} {owner}")
        return parse_eval_reply(line, 4)

    def close(self, wait: float = 5.0) -> None:
        """Stop gnubg (asking it to quit, then killing it after ``wait`` seconds) and remove the
        script; idempotent."""
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            try:
                if process.stdin is not None:
                    process.stdin.write("quit\n")
                    process.stdin.flush()
                process.wait(timeout=wait)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                process.kill()
                process.wait(timeout=5)
        script = getattr(self, "_script", None)
        if script is not None and os.path.exists(script):
            os.unlink(script)

    def __enter__(self) -> GnubgProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
