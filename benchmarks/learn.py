"""The learned players against perfect play, and the targets of issue 27, side by side in one run.

    python benchmarks/learn.py                                   # every section, ~10-15 min
    python benchmarks/learn.py --only accuracy --sets Test_L2_R1 # one section, one set
    python benchmarks/learn.py --only speed --openspiel-python /tmp/osaz/bin/python

Sections (``--only accuracy,arena,tictactoe,speed``; the summary closes every run):

accuracy
    The shipped Connect Four net on Pascal Pons' test sets (tests/data/connect4), each position's
    columns scored by the exact solver. A move is *optimal* when it keeps the position's exact
    outcome (lost positions, where every move is, are left out of that share); *best-score* when
    it has the solver's best exact score (every position). Rows: the net's move alone (the argmax
    of its policy over the legal moves, ties in the game's move order), the AzAgent after N PUCT
    simulations (no noise), and as references the ``medium`` and ``hard`` levels and a uniformly
    random move (its expected share, exact). The value error is the mean |v - outcome| with the
    outcome in {-1, 0, 1} from the side to move. Intervals: Wilson, 95%.
arena
    ``az:sims=200`` against ``medium`` and against ``hard`` through zermelo.play's round robin:
    colours alternated, each opening (every 2-ply start, in a seeded order) played twice with the
    colours swapped; score and Elo with the 95% Wilson interval of zermelo.play.ratings.
tictactoe
    The shipped tic-tac-toe net with 50 simulations from all 4,520 positions with the AI to move
    (the tutorial's rules, both starters), played out against the perfect player: the positions it
    lost (target 0), and the share of its move alone.
speed
    Self-play games per second of zermelo.learn on this machine, and of OpenSpiel's
    ``alpha_zero`` example run beside it (``--openspiel-python``: a Python with open_spiel 2.0.2
    and its JAX/Flax dependencies, never zermelo's environment), both from a freshly initialised
    net of the same size with the same simulations per move, for ``--speed-seconds`` each. Without
    OpenSpiel the table shows alpha-zero-general's published figures instead, and says so.

Every random choice is seeded from ``--seed``. The machine and the net's training time are printed
with the summary.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

# benchmarks/chess.py would shadow python-chess for the agents' imports: not this folder.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from zermelo.agents.connect4 import Connect4Agent  # noqa: E402
from zermelo.agents.spec import parse_agent  # noqa: E402
from zermelo.games.connect4 import Connect4State  # noqa: E402
from zermelo.play import elo_estimate, pair_tallies, round_robin, run_tasks  # noqa: E402
from zermelo.play.ratings import wilson_interval  # noqa: E402
from zermelo.play.tournament import derive_seed  # noqa: E402
from zermelo.solvers.connect4.solver import default_solver  # noqa: E402

sys.path.append(str(HERE))
from bench_common import ROOT, progress_bar  # noqa: E402  (beside this script)

SECTIONS = ("accuracy", "arena", "tictactoe", "speed")
DATA = ROOT / "tests" / "data" / "connect4"
DEFAULT_SETS = "Test_L2_R1,Test_L3_R1,Test_L2_R2,Test_L1_R1"
TARGET_SET = "Test_L2_R1"
TARGET_MOVE_ALONE = 0.90
TARGET_SIMS = 200
TARGET_WITH_SIMS = 0.97
TARGET_ARENA = 0.90
TARGET_ARENA_GAMES = 100

# alpha-zero-general (github.com/suragnair/alpha-zero-general), what its authors and users wrote:
AZG_PUBLISHED = (
    "alpha-zero-general, Connect Four, published (not measured here): 50% against a one-step "
    "look-ahead player after about 5 hours of CPU (issue 27's summary of its README/paper); one "
    "iteration of 100 self-play games at 200 simulations per move, several days for 20 "
    "iterations on a CPU-only cloud machine (PR #56), i.e. roughly 0.01 games/s"
)


# -- the truth: every Connect Four position's columns, scored exactly --------------------------


@dataclass(frozen=True, slots=True)
class Labelled:
    """A position and its columns' exact scores (``None``: full), for the side to move."""

    text: str
    state: Connect4State
    scores: tuple[int | None, ...]

    @property
    def best(self) -> int:
        return max(s for s in self.scores if s is not None)

    @property
    def outcome(self) -> int:
        """-1, 0 or 1 for the side to move."""
        return (self.best > 0) - (self.best < 0)

    def optimal(self, move: int) -> bool:
        score = self.scores[move]
        return score is not None and (score > 0) - (score < 0) == self.outcome

    def best_score(self, move: int) -> bool:
        return self.scores[move] == self.best


def read_set(name: str, limit: int | None) -> list[str]:
    path = DATA / name
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise SystemExit(f"cannot read the test set {path}: {error.strerror}") from None
    texts = [line.split()[0] for line in lines if line.strip()]
    return texts[:limit] if limit else texts


def label(texts: Sequence[str], console: Console, name: str) -> list[Labelled]:
    solver = default_solver()
    labelled = []
    with progress_bar(console) as bar:
        task = bar.add_task(f"{name}: solving every column", total=len(texts))
        for text in texts:
            state = Connect4State.parse(text)
            scores = tuple(solver.analyze(solver.position(text)))
            labelled.append(Labelled(text, state, scores))
            bar.advance(task)
    return labelled


@dataclass(slots=True)
class Shares:
    """Counts of one row of the accuracy table."""

    optimal: float = 0.0  # a float: the random row counts expectations
    decided: int = 0  # positions not lost (the optimal share's denominator)
    best: float = 0.0
    positions: int = 0
    value_error: float | None = None
    seconds: float = 0.0

    def add(self, position: Labelled, chance_optimal: float, chance_best: float) -> None:
        self.positions += 1
        self.best += chance_best
        if position.outcome >= 0:
            self.decided += 1
            self.optimal += chance_optimal

    @property
    def optimal_share(self) -> float:
        return self.optimal / self.decided if self.decided else math.nan

    @property
    def best_share(self) -> float:
        return self.best / self.positions if self.positions else math.nan


def share_cell(count: float, total: int) -> str:
    if not total:
        return "-"
    share = count / total
    low, high = wilson_interval(share, total)
    return f"{100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def score_moves(
    positions: Sequence[Labelled], choose: Callable[[Labelled], int], console: Console, name: str
) -> Shares:
    shares = Shares()
    began = time.perf_counter()
    with progress_bar(console) as bar:
        task = bar.add_task(name, total=len(positions))
        for position in positions:
            move = choose(position)
            shares.add(position, float(position.optimal(move)), float(position.best_score(move)))
            bar.advance(task)
    shares.seconds = time.perf_counter() - began
    return shares


def random_shares(positions: Sequence[Labelled]) -> Shares:
    """A uniformly random legal move: its expected shares, exactly."""
    shares = Shares()
    for position in positions:
        legal = position.state.legal_moves()
        shares.add(
            position,
            sum(position.optimal(m) for m in legal) / len(legal),
            sum(position.best_score(m) for m in legal) / len(legal),
        )
    return shares


# -- the learned players (the lead's zermelo.agents.az) -----------------------------------------


def load_net(game: str, path: Path | None) -> object:
    """The net to measure: ``path``, else the one shipped with ``game``'s record."""
    from zermelo.agents.az import Net, shipped_net

    from zermelo.games.registry import get_game

    if path is not None:
        return Net.load(path)
    net = shipped_net(get_game(game))
    if net is None:
        raise SystemExit(f"{game} ships no learned net; give one with --net")
    return net


def net_description(net: object) -> str:
    """What the net says of itself: its description and, when its meta has it, training time."""
    parts = [str(getattr(net, "description", "") or "")]
    meta = getattr(net, "meta", None)
    if isinstance(meta, dict):
        for key in ("training_seconds", "seconds", "elapsed", "training_time", "hours"):
            if key in meta:
                parts.append(f"{key}={meta[key]}")
        for key in ("games", "generations", "machine", "trained"):
            if key in meta:
                parts.append(f"{key}={meta[key]}")
    return "; ".join(p for p in parts if p) or "(the net carries no description)"


def move_alone(net: object, positions: Sequence[Labelled]) -> tuple[Shares, list[float]]:
    """The argmax of the policy (ties: the game's move order) and the values, one batch."""
    evaluate = net.evaluate  # type: ignore[attr-defined]
    began = time.perf_counter()
    results = evaluate([p.state for p in positions])
    shares = Shares()
    values = []
    for position, (priors, value) in zip(positions, results, strict=True):
        legal = position.state.legal_moves()
        move = legal[max(range(len(legal)), key=priors.__getitem__)]
        shares.add(position, float(position.optimal(move)), float(position.best_score(move)))
        values.append(float(value))
    shares.seconds = time.perf_counter() - began
    shares.value_error = sum(
        abs(v - p.outcome) for v, p in zip(values, positions, strict=True)
    ) / max(len(positions), 1)
    return shares, values


def az_chooser(net: object, sims: int, seed: int) -> Callable[[Labelled], int]:
    from zermelo.agents.az import AzAgent

    def choose(position: Labelled) -> int:
        index = int(position.state.ply) * 1_000_003 + sum(map(ord, position.text))
        agent = AzAgent(net, sims=sims, seed=derive_seed(seed, sims, index))  # type: ignore[arg-type]
        return int(agent.choose(position.state))

    return choose


def level_chooser(level: str, seed: int) -> Callable[[Labelled], int]:
    def choose(position: Labelled) -> int:
        agent = Connect4Agent(level, seed=derive_seed(seed, len(position.text)))
        return agent.choose(position.state)

    return choose


@dataclass(slots=True)
class Results:
    """What the summary reads."""

    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # target, got, ±, verdict
    notes: list[str] = field(default_factory=list)

    def target(self, name: str, measured: str, interval: str, passed: bool | None) -> None:
        verdict = "-" if passed is None else ("PASS" if passed else "FAIL")
        self.rows.append((name, measured, interval, verdict))


def accuracy_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    net = load_net("connect4", args.net)
    console.print(f"Connect Four net: {net_description(net)}")
    sims_list = [int(s) for s in args.sims.split(",") if s.strip()]
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        positions = label(read_set(name, args.positions), console, name)
        lost = sum(p.outcome < 0 for p in positions)
        table = Table(
            title=(
                f"{name}: {len(positions)} positions ({lost} lost, left out of the optimal "
                f"share); 95% Wilson intervals"
            )
        )
        for heading in ("player", "optimal", "best-score", "value error", "s/position"):
            table.add_column(heading, justify="right" if heading != "player" else "left")
        rows: list[tuple[str, Shares]] = []
        alone, _values = move_alone(net, positions)
        rows.append(("net, move alone", alone))
        for sims in sims_list:
            label_text = f"net + {sims} simulations"
            chooser = az_chooser(net, sims, args.seed)
            rows.append(
                (label_text, score_moves(positions, chooser, console, f"{name} {label_text}"))
            )
        for level in ("medium", "hard"):
            chooser = level_chooser(level, args.seed)
            rows.append((level, score_moves(positions, chooser, console, f"{name} {level}")))
        rows.append(("uniformly random (expected)", random_shares(positions)))
        for player, shares in rows:
            table.add_row(
                player,
                share_cell(shares.optimal, shares.decided),
                share_cell(shares.best, shares.positions),
                "-" if shares.value_error is None else f"{shares.value_error:.3f}",
                f"{shares.seconds / max(shares.positions, 1):.4f}" if shares.seconds else "-",
            )
        console.print(table)
        if name == TARGET_SET:
            for player, shares, goal in (
                ("net, move alone", alone, TARGET_MOVE_ALONE),
                (f"net + {TARGET_SIMS} simulations", None, TARGET_WITH_SIMS),
            ):
                found = shares or dict(rows).get(player)
                if found is None:
                    continue
                low, high = wilson_interval(found.optimal_share, found.decided)
                results.target(
                    f"{player} optimal on {TARGET_SET} >= {goal:.0%}",
                    f"{100 * found.optimal_share:.1f}%",
                    f"[{100 * low:.1f}, {100 * high:.1f}]",
                    found.optimal_share >= goal,
                )


# -- arena ------------------------------------------------------------------------------------


def openings(plies: int, count: int, seed: int) -> list[str]:
    """``count`` start positions: every ``plies``-move start in a seeded order, repeated as
    needed (none for 0 plies: the empty board)."""
    if plies <= 0:
        return []
    starts = [""]
    for _ in range(plies):
        starts = [s + str(c) for s in starts for c in range(1, 8)]
    random.Random(seed).shuffle(starts)
    return [starts[i % len(starts)] for i in range(count)]


def arena_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    az = f"az:sims={args.arena_sims}" + (f",net={args.net}" if args.net else "")
    table = Table(
        title=f"Connect Four arena, seed {args.seed}, openings of {args.opening_plies} plies"
    )
    for heading in (
        "agent",
        "opponent",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "Elo [95%]",
        "s",
    ):
        table.add_column(heading, justify="left" if heading in ("agent", "opponent") else "right")
    for opponent, games in (("medium", args.games), ("hard", args.hard_games)):
        if games <= 0:
            continue
        specs = [parse_agent(az), parse_agent(opponent)]
        starts = openings(args.opening_plies, (games + 1) // 2, args.seed)
        tasks = round_robin("connect4", specs, games, seed=args.seed, openings=starts)
        began = time.perf_counter()
        with progress_bar(console) as bar:
            task = bar.add_task(f"{specs[0].label} vs {opponent}", total=len(tasks))
            records = run_tasks(
                tasks, jobs=args.jobs, on_record=lambda _r, b=bar, t=task: b.advance(t)
            )
        seconds = time.perf_counter() - began
        for (first, second), tally in pair_tallies(records).items():
            table.add_row(
                first, second, *tally.cells(), elo_estimate(tally).describe(), f"{seconds:.0f}"
            )
            if opponent == "medium":
                low, high = wilson_interval(tally.score, tally.games)
                results.target(
                    f"{first} vs medium >= {TARGET_ARENA:.0%} over >= {TARGET_ARENA_GAMES} games",
                    f"{100 * tally.score:.1f}% of {tally.games}",
                    f"[{100 * low:.1f}, {100 * high:.1f}]",
                    tally.score >= TARGET_ARENA and tally.games >= TARGET_ARENA_GAMES,
                )
    console.print(table)


# -- tic-tac-toe ------------------------------------------------------------------------------


def tictactoe_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    # TODO(azbench): zermelo.learn.truth (branch truth) provides the 4,520 positions and
    # never_loses; wired in once its API is merged.
    raise SystemExit("the tic-tac-toe section needs zermelo.learn.truth")


# -- speed ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Rate:
    """Self-play games over a measured window (after the first game: warm-up excluded)."""

    games: int
    seconds: float
    note: str = ""

    @property
    def per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.nan


def zermelo_selfplay(args: argparse.Namespace) -> Rate:
    """HOOK(lead): zermelo.learn's self-play games per second from a fresh net.

    Runs ``zermelo.learn.loop.learn`` for ``--speed-seconds`` in a temporary run directory and
    reads its progress reports during the self-play phase."""
    from zermelo.learn.loop import LearnConfig, learn

    config = LearnConfig(game="connect4")  # type: ignore[call-arg]
    for name, value in (
        ("seconds", float(args.speed_seconds) * 4),
        ("sims", args.speed_sims),
        ("seed", args.seed),
        ("jobs", args.speed_actors),
        ("channels", args.channels),
        ("blocks", args.blocks),
    ):
        if value is not None and hasattr(config, name):
            setattr(config, name, value)
    seen: list[tuple[float, int]] = []
    began = time.perf_counter()

    def report(progress: object) -> None:
        if getattr(progress, "phase", "self-play") == "self-play":
            seen.append((time.perf_counter() - began, int(getattr(progress, "games", 0))))

    def stop() -> bool:
        return time.perf_counter() - began > args.speed_seconds

    with tempfile.TemporaryDirectory(prefix="zermelo-learn-speed-") as run_dir:
        learn(config, Path(run_dir), report, stop)
    played = [(t, g) for t, g in seen if g > 0]
    if len(played) >= 2 and played[-1][1] > played[0][1]:
        return Rate(played[-1][1] - played[0][1], played[-1][0] - played[0][0])
    if played:
        return Rate(played[-1][1], played[-1][0], "warm-up included")
    return Rate(0, time.perf_counter() - began, "no game finished")


_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\] (.*)$")


def parse_actor_log(text: str) -> tuple[datetime | None, list[datetime]]:
    """The time an OpenSpiel actor's bots were ready, and the end time of each of its games."""
    ready = None
    games = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        stamp = datetime.fromisoformat(match.group(1))
        if match.group(2).startswith("Loading checkpoint") and ready is None:
            ready = stamp
        elif match.group(2).startswith("Game "):
            games.append(stamp)
    return ready, games


def openspiel_selfplay(args: argparse.Namespace, console: Console) -> Rate:
    """OpenSpiel's ``alpha_zero`` example for ``--speed-seconds`` after its actors are ready."""
    with tempfile.TemporaryDirectory(prefix="openspiel-az-") as path:
        command = [
            args.openspiel_python, "-m", "open_spiel.python.examples.alpha_zero",
            "--game", "connect_four", "--path", path, "--quiet",
            "--actors", str(args.speed_actors), "--evaluators", "0",
            "--max_simulations", str(args.speed_sims),
            "--nn_model", "resnet", "--nn_width", str(args.channels), "--nn_depth", str(args.blocks),
        ]  # fmt: skip
        env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH="")
        log = Path(path) / "stdout.txt"
        with log.open("w") as out:
            process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        logs = [Path(path) / f"log-actor-{i}.txt" for i in range(args.speed_actors)]
        deadline = time.monotonic() + args.speed_seconds + args.openspiel_startup
        measured_until: float | None = None
        try:
            with progress_bar(console) as bar:
                task = bar.add_task("OpenSpiel alpha_zero", total=None)
                while time.monotonic() < deadline and process.poll() is None:
                    time.sleep(1.0)
                    bar.advance(task)
                    if measured_until is None and all(
                        p.exists() and parse_actor_log(p.read_text())[0] for p in logs
                    ):
                        measured_until = time.monotonic() + args.speed_seconds
                        deadline = min(deadline, measured_until)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        games = 0
        seconds = 0.0
        note = ""
        for p in logs:
            ready, ends = parse_actor_log(p.read_text()) if p.exists() else (None, [])
            if len(ends) >= 2:
                games += len(ends) - 1
                seconds = max(seconds, (ends[-1] - ends[0]).total_seconds())
            elif ends and ready is not None:
                games += len(ends)
                seconds = max(seconds, (ends[-1] - ready).total_seconds())
                note = "warm-up included"
        if process.returncode not in (None, 0, -signal.SIGTERM) and not games:
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(" / ".join(tail) or f"exit code {process.returncode}")
        if not games:
            note = "no game finished"
            seconds = float(args.speed_seconds)
        # games/s over the actors together: each actor's count over the longest window
        return Rate(games, seconds, note)


def speed_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    table = Table(
        title=(
            f"Self-play, Connect Four, fresh net ({args.channels} channels, {args.blocks} residual "
            f"blocks), {args.speed_sims} simulations per move, {args.speed_actors} actor(s), "
            f"~{args.speed_seconds} s each"
        )
    )
    for heading in ("program", "games", "seconds", "games/s", "note"):
        table.add_column(heading, justify="left" if heading in ("program", "note") else "right")
    ours: Rate | None = None
    try:
        ours = zermelo_selfplay(args)
        table.add_row(
            "zermelo.learn",
            str(ours.games),
            f"{ours.seconds:.1f}",
            f"{ours.per_second:.3f}",
            ours.note,
        )
    except ImportError as error:
        table.add_row("zermelo.learn", "-", "-", "-", f"not available: {error}")
    theirs: Rate | None = None
    if args.openspiel_python:
        try:
            theirs = openspiel_selfplay(args, console)
            table.add_row(
                "OpenSpiel 2.0.2 alpha_zero (Python, JAX)", str(theirs.games),
                f"{theirs.seconds:.1f}", f"{theirs.per_second:.3f}", theirs.note,
            )  # fmt: skip
        except (OSError, RuntimeError) as error:
            table.add_row("OpenSpiel alpha_zero", "-", "-", "-", f"did not run: {error}")
    if theirs is None:
        table.add_row("alpha-zero-general (published)", "-", "-", "~0.01", "not run here")
        results.notes.append(AZG_PUBLISHED)
    console.print(table)
    if ours is not None and theirs is not None and theirs.per_second > 0:
        ratio = ours.per_second / theirs.per_second
        results.target(
            "self-play games/s, zermelo.learn / OpenSpiel alpha_zero",
            f"{ratio:.2f}x",
            f"{ours.per_second:.3f} vs {theirs.per_second:.3f} games/s",
            None,
        )


# -- the machine and the summary --------------------------------------------------------------


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "-"
    return f"{model}, {os.cpu_count()} cores, load average {load}"


def summary(console: Console, results: Results, began: float) -> None:
    table = Table(title="Targets of issue 27")
    for heading in ("target", "measured", "95% interval", "verdict"):
        table.add_column(heading, justify="left" if heading == "target" else "right")
    for row in results.rows:
        table.add_row(*row)
    console.print(table)
    for note in results.notes:
        console.print(note)
    console.print(f"Machine: {machine()}; this run took {time.perf_counter() - began:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument(
        "--net", type=Path, default=None, help="a Connect Four .npz (default: shipped)"
    )
    parser.add_argument("--sets", default=DEFAULT_SETS, help="Pons' test sets, comma-separated")
    parser.add_argument("--positions", type=int, default=None, help="first N positions of each set")
    parser.add_argument("--sims", default="50,200,800", help="simulations of the accuracy rows")
    parser.add_argument("--games", type=int, default=100, help="games of az against medium")
    parser.add_argument("--hard-games", type=int, default=40, help="games of az against hard")
    parser.add_argument("--arena-sims", type=int, default=TARGET_SIMS)
    parser.add_argument("--opening-plies", type=int, default=2, help="0: the empty board")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the arena's games")
    parser.add_argument("--ttt-net", type=Path, default=None, help="a tic-tac-toe .npz")
    parser.add_argument("--ttt-sims", type=int, default=50)
    parser.add_argument("--speed-seconds", type=int, default=60)
    parser.add_argument("--speed-sims", type=int, default=50, help="simulations per self-play move")
    parser.add_argument("--speed-actors", type=int, default=1)
    parser.add_argument("--channels", type=int, default=32, help="net width of both programs")
    parser.add_argument("--blocks", type=int, default=2, help="residual blocks of both programs")
    parser.add_argument("--openspiel-python", default=None, help="a Python with open_spiel + jax")
    parser.add_argument(
        "--openspiel-startup", type=int, default=300, help="seconds OpenSpiel may take to start"
    )
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}: expected some of {', '.join(SECTIONS)}")
    console = Console(width=130)
    results = Results()
    began = time.perf_counter()
    sections = {
        "accuracy": accuracy_section,
        "arena": arena_section,
        "tictactoe": tictactoe_section,
        "speed": speed_section,
    }
    for name in SECTIONS:
        if name in chosen:
            sections[name](args, console, results)
    summary(console, results, began)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
