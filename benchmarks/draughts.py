"""zermelo's draughts against its peers, in one run: the perft speed table and the strength table.

* perft: zermelo's move generator (numba) against py-draughts (``draughts.engines.turbo.perft``,
  international draughts; py-draughts has no Turkish dama, so dama's peer is pydraughts'
  ``turkish`` variant, a plain recursive perft over its ``legal_moves``), exact counts checked
  against the published tables, leaves per CPU second (CPU time of each process: on a loaded
  machine wall time measures the other processes) and the ratio at the same depth (6 with
  ``--quick``, else 7), then zermelo alone deeper;
* strength: zermelo's ``hard`` against py-draughts' ``TurboEngine`` at the same time per move, and
  ``hard`` against ``medium``, from the international record's openings (every first move and
  answer, shuffled by ``--seed``), each opening played with both colours; W-D-L, the score with
  its Wilson interval and the Elo difference with its interval (``zermelo.play.ratings``).

py-draughts runs in its own virtual environment (``--peer-python``, default
``/work/venvs/pydr/bin/python``; when that is missing, one is made under the cache folder and
``pip install py-draughts`` fills it) as a child process that speaks a line protocol written here
(:data:`PEER`): ``perft <fen> <depth>``, ``new <fen>``, ``push <from> <to> <captured...>``, ``go
<seconds>`` (answers ``move <from> <to> <captured...>``, 0-based squares) and ``quit``. A game ends
by zermelo's rules (the draw rules of the FMJD included) or as a draw after ``--max-plies``.

    python benchmarks/draughts.py --quick
    python benchmarks/draughts.py --games 100 --time 0.1
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from rich.console import Console
from rich.table import Table

# This script is named draughts.py: its folder must not hide pydraughts' package of that name.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != HERE]
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.append(str(HERE))

from bench_common import progress_bar  # noqa: E402  (beside this script)
from zermelo.agents.draughts import hard, medium  # noqa: E402
from zermelo.core.state import AnyState, Player  # noqa: E402
from zermelo.games.draughts import kernel  # noqa: E402
from zermelo.games.draughts.dama import DamaState  # noqa: E402
from zermelo.games.draughts.international import InternationalState  # noqa: E402
from zermelo.games.draughts.openings import INTERNATIONAL_OPENINGS  # noqa: E402
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL  # noqa: E402
from zermelo.play.ratings import Tally, elo_estimate, wilson_interval  # noqa: E402

DEFAULT_PEER = Path("/work/venvs/pydr/bin/python")
INTERNATIONAL_PERFT = (1, 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423)
DAMA_PERFT = (1, 8, 64, 708, 7538, 85090, 931312, 10782382)

PEER = r"""
import sys, time
from draughts import StandardBoard
from draughts.engines.turbo import TurboEngine, perft_from_board

board = StandardBoard()


def find(origin, target, captured):
    for move in board.legal_moves:
        squares = move.square_list
        if squares[0] == origin and squares[-1] == target and set(move.captured_list) == captured:
            return move
    return None


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        if words[0] == "quit":
            break
        if words[0] == "perft":
            started = time.process_time()
            leaves = perft_from_board(StandardBoard.from_fen(words[1]), int(words[2]))
            print("perft", leaves, time.process_time() - started, flush=True)
        elif words[0] == "new":
            board = StandardBoard.from_fen(words[1])
            print("ok", flush=True)
        elif words[0] == "push":
            move = find(int(words[1]), int(words[2]), {int(w) for w in words[3:]})
            if move is None:
                print("error no such move", flush=True)
            else:
                board.push(move)
                print("ok", flush=True)
        elif words[0] == "go":
            move = TurboEngine(time_limit=float(words[1])).get_best_move(board)
            board.push(move)
            squares = move.square_list
            print("move", squares[0], squares[-1], *move.captured_list, flush=True)
        else:
            print("error unknown command", flush=True)
    except Exception as error:  # one line back, whatever went wrong
        print("error", type(error).__name__, str(error).replace("\n", " "), flush=True)
"""


class PeerError(Exception):
    """The peer process answered with an error or not at all."""


class Peer:
    """py-draughts in its own interpreter, driven through :data:`PEER`'s lines."""

    def __init__(self, python: Path) -> None:
        self.python = python
        self.process = subprocess.Popen(
            [str(python), "-c", PEER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, line: str) -> list[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if not answer or answer[0] == "error":
            raise PeerError(f"py-draughts answered {' '.join(answer) or 'nothing'} to {line!r}")
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def peer_python(requested: Path | None, console: Console) -> Path:
    """``--peer-python``, else the default venv's, else a venv made under the cache folder."""
    if requested is not None:
        return requested
    if DEFAULT_PEER.exists():
        return DEFAULT_PEER
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "zermelo" / "pydr"
    python = base / "bin" / "python"
    if not python.exists():
        console.print(f"making a virtual environment for py-draughts in {base}")
        subprocess.run([sys.executable, "-m", "venv", str(base)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "py-draughts"], check=True)
    return python


# --- perft ------------------------------------------------------------------------------------


def zermelo_perft(rules: object, state: object, depth: int) -> tuple[int, float]:
    """Leaves and the CPU seconds of the best of three runs (after one run that compiles)."""
    assert isinstance(state, InternationalState | DamaState)
    args = (state.white, state.black, state.kings, 0 if state.to_move == Player.FIRST else 1)
    kernel.count(rules, *args, 2)  # type: ignore[arg-type]
    best = float("inf")
    leaves = 0
    for _ in range(3):
        started = time.process_time()
        leaves = kernel.count(rules, *args, depth)  # type: ignore[arg-type]
        best = min(best, time.process_time() - started)
    return leaves, best


def pydraughts_turkish_perft(depth: int) -> tuple[int, float] | None:
    """pydraughts' Turkish draughts perft (in this interpreter: it is zermelo's test oracle)."""
    try:
        import draughts  # pydraughts (untyped)
    except ImportError:
        return None
    board = draughts.Board(variant="turkish")  # type: ignore[attr-defined]

    def count(d: int) -> int:
        moves = board.legal_moves()
        if d == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    started = time.process_time()
    leaves = count(depth)
    return leaves, time.process_time() - started


def section_perft(
    console: Console, peer: Peer | None, depth: int, dama_depth: int, deep: tuple[int, int]
) -> Table:
    table = Table(title="perft from the start position: leaves per CPU second")
    for column in (
        "game", "depth", "leaves", "exact", "zermelo s", "zermelo leaves/s",
        "peer", "peer s", "peer leaves/s", "ratio",
    ):  # fmt: skip
        table.add_column(column, justify="right")
    start = InternationalState.initial()
    leaves, seconds = zermelo_perft(INTERNATIONAL, start, depth)
    row = ["international", str(depth), f"{leaves:,}", str(leaves == INTERNATIONAL_PERFT[depth])]
    row += [f"{seconds:.3f}", f"{leaves / seconds:,.0f}"]
    if peer is not None:
        answer = peer.ask(f"perft {start.notation()} {depth}")
        peer_seconds = float(answer[2])
        rate = int(answer[1]) / peer_seconds
        row += ["py-draughts turbo", f"{peer_seconds:.3f}", f"{rate:,.0f}"]
        if int(answer[1]) != leaves:
            row[3] += f" (peer {int(answer[1]):,})"
        row.append(f"{leaves / seconds / rate:,.0f}x")
    else:
        row += ["(py-draughts absent)", "-", "-", "-"]
    table.add_row(*row)
    dama = DamaState.initial()
    leaves, seconds = zermelo_perft(DAMA, dama, dama_depth)
    row = ["dama", str(dama_depth), f"{leaves:,}", str(leaves == DAMA_PERFT[dama_depth])]
    row += [f"{seconds:.3f}", f"{leaves / seconds:,.0f}"]
    found = pydraughts_turkish_perft(dama_depth)
    if found is not None:
        peer_leaves, peer_seconds = found
        rate = peer_leaves / peer_seconds
        row += ["pydraughts turkish", f"{peer_seconds:.3f}", f"{rate:,.0f}"]
        row.append(f"{leaves / seconds / rate:,.0f}x")
        if peer_leaves != leaves:
            row[3] += f" (peer {peer_leaves:,})"
    else:
        row += ["(pydraughts absent)", "-", "-", "-"]
    table.add_row(*row)
    for name, rules, state, at, published in (
        ("international", INTERNATIONAL, start, deep[0], INTERNATIONAL_PERFT),
        ("dama", DAMA, dama, deep[1], DAMA_PERFT),
    ):
        leaves, seconds = zermelo_perft(rules, state, at)
        table.add_row(
            name, str(at), f"{leaves:,}", str(leaves == published[at]), f"{seconds:.3f}",
            f"{leaves / seconds:,.0f}", "(zermelo only)", "-", "-", "-",
        )  # fmt: skip
    return table


# --- strength ---------------------------------------------------------------------------------


class Chooser(Protocol):
    def choose(self, state: AnyState) -> Hashable: ...


@dataclass
class MatchResult:
    tally: Tally
    adjudicated: int
    plies: int


def peer_move(peer: Peer, state: InternationalState, seconds: float) -> tuple[int, ...]:
    answer = peer.ask(f"go {seconds}")
    origin, target = int(answer[1]), int(answer[2])
    captured = sum(1 << int(w) for w in answer[3:])
    return state.from_kernel(origin, target, captured)


def push(peer: Peer, state: InternationalState, move: tuple[int, ...]) -> None:
    path, captured = state.kernel_move(move)
    taken = " ".join(str(s) for s in range(50) if captured >> s & 1)
    peer.ask(f"push {path[0]} {path[-1]} {taken}".rstrip())


def play_game(
    ours: Chooser,
    theirs: Chooser | None,
    peer: Peer | None,
    fen: str,
    ours_white: bool,
    seconds: float,
    max_plies: int,
) -> tuple[float, bool, int]:
    """One game from ``fen``: zermelo's points, whether it was adjudicated, its plies. The
    opponent is ``theirs`` (an agent) or, when ``None``, the peer process."""
    state = InternationalState.parse(fen)
    if peer is not None and theirs is None:
        peer.ask(f"new {fen}")
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        our_turn = (state.to_move == Player.FIRST) == ours_white
        if our_turn:
            move = cast(tuple[int, ...], ours.choose(state))
            if theirs is None and peer is not None:
                push(peer, state, move)
        elif theirs is not None:
            move = cast(tuple[int, ...], theirs.choose(state))
        else:
            assert peer is not None
            move = peer_move(peer, state, seconds)
        state = state.play(move)
        plies += 1
    if not state.is_terminal():
        return 0.5, True, plies
    winner = state.winner
    if winner is None:
        return 0.5, False, plies
    return (1.0 if (winner == Player.FIRST) == ours_white else 0.0), False, plies


def run_match(
    console: Console,
    label: str,
    opponent: str,
    peer: Peer | None,
    games: int,
    seconds: float,
    max_plies: int,
    openings: list[str],
    seed: int,
) -> MatchResult:
    tally = Tally()
    adjudicated = 0
    plies = 0
    with progress_bar(console) as bar:
        task = bar.add_task(label, total=games)
        for game in range(games):
            fen = openings[(game // 2) % len(openings)]
            ours = hard(seed + game, seconds)
            theirs = medium(seed + 1000 + game, seconds) if opponent == "medium" else None
            points, stopped, length = play_game(
                ours, theirs, peer, fen, game % 2 == 0, seconds, max_plies
            )
            tally = tally.add(points)
            adjudicated += stopped
            plies += length
            bar.advance(task)
    return MatchResult(tally, adjudicated, plies)


def strength_table(title: str, rows: list[tuple[str, MatchResult]]) -> Table:
    table = Table(title=title)
    for column in (
        "match", "games", "+", "=", "-", "score", "score [95% Wilson]", "Elo difference [95%]",
        "adjudicated", "plies/game",
    ):  # fmt: skip
        table.add_column(column, justify="right")
    for name, result in rows:
        tally = result.tally
        low, high = wilson_interval(tally.score, tally.games)
        table.add_row(
            name,
            str(tally.games),
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            f"{100 * tally.score:.1f}%",
            f"[{100 * low:.1f}%, {100 * high:.1f}%]",
            elo_estimate(tally).describe(),
            str(result.adjudicated),
            f"{result.plies / max(tally.games, 1):.0f}",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="2 games a match, zermelo's deep perft one ply less"
    )
    parser.add_argument("--games", type=int, default=None, help="games per match (default 20)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move, both sides")
    parser.add_argument("--max-plies", type=int, default=300, help="a draw after this many")
    parser.add_argument("--depth", type=int, default=None, help="international perft depth")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--only", default="perft,strength", help="perft, strength or both")
    parser.add_argument(
        "--matches", default="turbo,medium", help="hard against: turbo, medium or both"
    )
    parser.add_argument("--peer-python", type=Path, default=None, help="py-draughts' interpreter")
    args = parser.parse_args(argv)
    console = Console(width=170)
    sections = {s.strip() for s in args.only.split(",") if s.strip()}
    if not sections <= {"perft", "strength"} or not sections:
        console.print(f"--only {args.only!r}: expected perft, strength or perft,strength")
        return 2
    matches = {m.strip() for m in args.matches.split(",") if m.strip()}
    if not matches <= {"turbo", "medium"} or not matches:
        console.print(f"--matches {args.matches!r}: expected turbo, medium or turbo,medium")
        return 2
    games = args.games if args.games is not None else (2 if args.quick else 20)
    if games < 1 or not 0 < args.time <= 60 or args.max_plies < 1:
        console.print("--games, --max-plies must be at least 1 and --time from 0 to 60 seconds")
        return 2
    depth = args.depth if args.depth is not None else (6 if args.quick else 7)
    if not 1 <= depth < len(INTERNATIONAL_PERFT):
        console.print(f"--depth {depth}: expected 1 to {len(INTERNATIONAL_PERFT) - 1}")
        return 2
    dama_depth = 3
    deep = (7, 5) if args.quick else (8, 6)
    python = peer_python(args.peer_python, console)
    peer = Peer(python) if python.exists() else None
    version = ""
    if peer is not None:
        version = subprocess.run(
            [str(python), "-c", "import draughts; print(draughts.__version__)"],
            capture_output=True, text=True, check=False,
        ).stdout.strip()  # fmt: skip
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(
        f"run: {' '.join(sys.argv)}; Python {platform.python_version()}, zermelo's draughts "
        f"kernel compiled: {kernel.COMPILED}; py-draughts {version or 'absent'} in "
        f"{python}, a child process on the line protocol of this script; load {load:.1f} on "
        f"{os.cpu_count()} CPUs; seed {args.seed}"
    )
    tables: list[Table] = []
    try:
        if "perft" in sections:
            tables.append(section_perft(console, peer, depth, dama_depth, deep))
        if "strength" in sections:
            openings = INTERNATIONAL_OPENINGS.openings(None)
            random.Random(args.seed).shuffle(openings)
            rows: list[tuple[str, MatchResult]] = []
            if peer is not None and "turbo" in matches:
                rows.append(
                    (
                        "hard - TurboEngine",
                        run_match(
                            console, "hard - TurboEngine", "turbo", peer, games, args.time,
                            args.max_plies, openings, args.seed,
                        ),
                    )
                )  # fmt: skip
            if "medium" in matches:
                rows.append(
                    (
                        "hard - medium",
                        run_match(
                            console, "hard - medium", "medium", None, games, args.time,
                            args.max_plies, openings, args.seed,
                        ),
                    )
                )  # fmt: skip
            tables.append(
                strength_table(
                    f"international draughts, {args.time:g} s per move, from {len(openings)} "
                    "two-ply openings (each with both colours)",
                    rows,
                )
            )
    except PeerError as error:
        console.print(str(error))
        return 1
    finally:
        if peer is not None:
            peer.close()
    for table in tables:
        console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
