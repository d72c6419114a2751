"""The learned players against perfect play, and the targets of issue 27, side by side in one run.

    python benchmarks/learn.py                                   # every section, ~10-15 min
    python benchmarks/learn.py --only accuracy --sets Test_L2_R1 # one section, one set
    python benchmarks/learn.py --only speed --openspiel-python /tmp/osaz/bin/python

Sections (``--only accuracy,arena,tictactoe,speed``; the summary closes every run):

accuracy
    The shipped Connect Four net (or ``--net``) on Pascal Pons' test sets (tests/data/connect4)
    and the shipped random positions by ply, labelled exactly by :mod:`zermelo.learn.truth`. A
    move is *optimal* when it keeps the position's exact outcome, *best-score* when it has the
    solver's best exact score; lost positions (where every move keeps the loss) are left out of
    both shares. Rows: the net's move alone (the argmax of its policy over the legal moves, ties
    in the game's move order), the AzAgent after N PUCT simulations (no noise), and as references
    the ``medium`` and ``hard`` levels and a uniformly random move (its expected share, exactly).
    The value error is the mean |v - outcome| with the outcome in {-1, 0, 1} from the side to
    move. Intervals: Wilson, 95%.
arena
    ``az:sims=200`` against ``medium`` and against ``hard`` through zermelo.play's round robin:
    colours alternated, each opening (every 2-ply start, in a seeded order) played twice with the
    colours swapped; score and Elo with the 95% Wilson interval of zermelo.play.ratings.
tictactoe
    The shipped tic-tac-toe net (or ``--ttt-net``) with 50 simulations from all 4,520 positions
    with X (the AI) to move, either side starting, played out against the perfect player (every
    reply that keeps its exact outcome): the positions it lost (target 0), and the shares of its
    move alone.
speed
    Self-play of zermelo.learn (:func:`zermelo.learn.selfplay.play_games` on a fresh net, every
    move with ``--speed-sims``, and with the loop's own searches) and of OpenSpiel's
    ``alpha_zero`` example (``--openspiel-python``: a Python with open_spiel 2.0.2 and its
    JAX/Flax dependencies, never zermelo's environment) with the same simulations, net shape and
    search constants, OpenSpiel timed for ``--speed-seconds`` from its first move. Without
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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import cast

# benchmarks/chess.py would shadow python-chess for the agents' imports: not this folder.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from rich.console import Console  # noqa: E402
from rich.progress import Progress, TaskID  # noqa: E402
from rich.table import Table  # noqa: E402

from zermelo.agents.connect4 import Connect4Agent  # noqa: E402
from zermelo.agents.spec import parse_agent  # noqa: E402
from zermelo.core.capabilities import PolicyValue  # noqa: E402
from zermelo.core.errors import ZermeloError  # noqa: E402
from zermelo.core.state import AnyState  # noqa: E402
from zermelo.games.registry import get_game  # noqa: E402
from zermelo.learn.truth import (  # noqa: E402
    Chooser,
    Label,
    Shares,
    Truth,
    label_lines,
    losses,
    move_shares,
    never_loses,
    policy_chooser,
    read_labels,
    shipped_labels,
    to_move_positions,
    value_error,
)
from zermelo.play import GameRecord, elo_estimate, pair_tallies, round_robin, run_tasks  # noqa: E402
from zermelo.play.ratings import wilson_interval  # noqa: E402
from zermelo.play.tournament import derive_seed  # noqa: E402

sys.path.append(str(HERE))
from bench_common import ROOT, progress_bar  # noqa: E402  (beside this script)

SECTIONS = ("accuracy", "arena", "tictactoe", "speed")
DATA = ROOT / "tests" / "data" / "connect4"
DEFAULT_SETS = "Test_L2_R1,Test_L3_R1,Test_L2_R2,Test_L1_R1,random"
TARGET_SET = "Test_L2_R1"
TARGET_MOVE_ALONE = 0.90
TARGET_SIMS = 200
TARGET_WITH_SIMS = 0.97
TARGET_ARENA = 0.90
TARGET_ARENA_GAMES = 100

# alpha-zero-general (github.com/suragnair/alpha-zero-general) publishes no self-play speed; what
# its threads say, shown when OpenSpiel does not run here:
AZG_PUBLISHED = (
    "alpha-zero-general (published, not measured here): on Connect Four, 50% against a one-step "
    "look-ahead player after about 5 hours of CPU (issue 27); its Connect Four PR #56: 20 "
    "iterations of 100 self-play games at 200 simulations per move took 'several days' on a "
    "CPU-only cloud machine, of the order of 0.01 games/s; its issue #175: arena games of about "
    "10 s each"
)


# -- the truth: held-out positions labelled exactly (zermelo.learn.truth) ----------------------


def connect4_sets(
    names: Sequence[str], limits: Callable[[str], int], console: Console
) -> dict[str, list[Label]]:
    """Each set's labels: ``random`` the shipped random positions by ply, a set with a
    ``.labels`` file beside it (Test_L2_R1: all 1000) from that file, any other Pons set labelled
    here by the solver (each line's score checked)."""
    spec = get_game("connect4")
    truth = Truth(spec)
    sets: dict[str, list[Label]] = {}
    for name in names:
        limit = limits(name)
        if name == "random":
            shipped = shipped_labels(spec)
            labels = [
                x for x in (shipped.labels if shipped else []) if x.group.startswith("random")
            ]
            labels = labels[:: max(1, len(labels) // limit)]  # every ply bucket, not the first
        elif (DATA / f"{name}.labels").is_file():
            labels = read_labels((DATA / f"{name}.labels").read_text(encoding="utf-8")).labels
        else:
            try:
                lines = (DATA / name).read_text(encoding="utf-8").splitlines()
            except OSError as error:
                raise SystemExit(
                    f"cannot read the test set {DATA / name}: {error.strerror}"
                ) from None
            lines = [line for line in lines if line.strip()][:limit]
            began = time.perf_counter()
            with console.status(f"{name}: solving every column of {len(lines)} positions"):
                labels = label_lines(truth, lines, name)
            console.print(
                f"{name}: {len(labels)} positions labelled in {time.perf_counter() - began:.0f} s"
            )
        sets[name] = labels[:limit] if limit else labels
    return sets


def share_cell(count: int, total: int) -> str:
    if not total:
        return "-"
    share = count / total
    low, high = wilson_interval(share, total)
    return f"{100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def random_expected(labels: Sequence[Label]) -> tuple[float, float, int]:
    """A uniformly random legal move's expected optimal and best-score shares, exactly."""
    counted = [x for x in labels if not x.lost]
    if not counted:
        return math.nan, math.nan, 0
    optimal = sum(sum(m.outcome == x.outcome for m in x.moves) / len(x.moves) for x in counted)
    best = sum(sum(m.score == x.score for m in x.moves) / len(x.moves) for x in counted)
    return optimal / len(counted), best / len(counted), len(counted)


def with_bar(choose: Chooser, console: Console, name: str, total: int) -> tuple[Chooser, Progress]:
    bar = progress_bar(console)
    task = bar.add_task(name, total=total)

    def chosen(state: AnyState) -> Hashable:
        move = choose(state)
        bar.advance(task)
        return move

    return chosen, bar


# -- the learned players (the lead's zermelo.agents.az) -----------------------------------------


def load_net(game: str, path: Path | None) -> PolicyValue[AnyState]:
    """The net to measure: ``path``, else the one shipped with ``game``'s record."""
    from zermelo.agents.az import Net, ShippedNet, shipped_net

    try:
        if path is not None:
            return Net.load(path)
        net = shipped_net(get_game(game))
        if net is None:
            raise SystemExit(f"{game} ships no learned net; give one with --net")
        return net.net() if isinstance(net, ShippedNet) else net
    except (OSError, ZermeloError, ValueError) as error:
        where = path or f"the net shipped with {game}"
        raise SystemExit(f"cannot load {where}: {error}") from None


def training_time(run_dir: Path | None) -> str:
    """The training of a run directory, from its metrics (``--run-dir``)."""
    if run_dir is None:
        return ""
    from zermelo.learn.loop import read_metrics

    try:
        rows = read_metrics(run_dir)
    except (OSError, ZermeloError, ValueError) as error:
        return f"(cannot read the metrics of {run_dir}: {error})"
    if not rows:
        return f"({run_dir} has no metrics yet)"
    last = rows[-1]
    return (
        f"run {run_dir}: {last.generation} generations, {last.games:,} self-play games, "
        f"{last.elapsed / 3600:.2f} h of training"
    )


def net_description(net: object) -> str:
    """What the net says of itself: its description and, when its meta has them, how long and
    on what it trained."""
    parts = [str(getattr(net, "description", "") or "")]
    meta = getattr(net, "meta", None)
    if isinstance(meta, dict):
        for key in sorted(meta):
            if any(
                word in key
                for word in (
                    "second",
                    "time",
                    "hour",
                    "elapsed",
                    "games",
                    "machine",
                    "cpu",
                    "generation",
                )
            ):
                parts.append(f"{key}={meta[key]}")
    return "; ".join(p for p in parts if p) or "(the net carries no description)"


def az_chooser(net: PolicyValue[AnyState], sims: int, seed: int) -> Chooser:
    """The AzAgent after ``sims`` simulations, no noise; a fresh agent (and tree) per position."""
    from zermelo.agents.az import AzAgent

    def choose(state: AnyState) -> Hashable:
        agent = AzAgent(net, sims=sims, seed=derive_seed(seed, sims, state.ply))
        move: Hashable = agent.choose(state)
        return move

    return choose


def level_chooser(level: str, seed: int) -> Chooser:
    def choose(state: AnyState) -> Hashable:
        return Connect4Agent(level, seed=derive_seed(seed, state.ply)).choose(state)

    return choose


@dataclass(slots=True)
class Results:
    """What the summary reads."""

    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # target, got, ±, verdict
    notes: list[str] = field(default_factory=list)

    def target(
        self, name: str, measured: str, interval: str, passed: bool | None, sure: bool = True
    ) -> None:
        """A row of the summary; ``sure`` is False when the 95% interval reaches across the
        target's line (the verdict then says so)."""
        verdict = "-" if passed is None else ("PASS" if passed else "FAIL")
        if passed is not None and not sure:
            verdict += " (interval crosses the line)"
        self.rows.append((name, measured, interval, verdict))


def accuracy_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    spec = get_game("connect4")
    net = load_net("connect4", args.net)
    console.print(f"Connect Four net: {net_description(net)}")
    trained = training_time(args.run_dir)
    if trained:
        console.print(trained)
        results.notes.append(f"Connect Four net: {net_description(net)}; {trained}")
    else:
        results.notes.append(f"Connect Four net: {net_description(net)}")
    sims_list: list[int] = args.sims_list
    names = [s.strip() for s in args.sets.split(",") if s.strip()]

    def limit(name: str) -> int:
        return int(args.positions if name == TARGET_SET else args.other_positions)

    for name, labels in connect4_sets(names, limit, console).items():
        lost = sum(x.lost for x in labels)
        table = Table(
            title=(
                f"{name}: {len(labels)} positions, {lost} lost (left out of the shares); "
                "95% Wilson intervals"
            )
        )
        for heading in ("player", "optimal", "best-score", "value error", "ms/position"):
            table.add_column(heading, justify="left" if heading == "player" else "right")
        began = time.perf_counter()
        alone = move_shares(labels, net, spec)
        alone_ms = 1000 * (time.perf_counter() - began) / max(alone.positions, 1)
        error = value_error(labels, net, spec)
        rows: list[tuple[str, Shares, float]] = [("net, move alone", alone, alone_ms)]
        players = [(f"net + {n} simulations", az_chooser(net, n, args.seed)) for n in sims_list]
        players += [(level, level_chooser(level, args.seed)) for level in ("medium", "hard")]
        for player, choose in players:
            counted = len(labels) - lost
            chooser, bar = with_bar(choose, console, f"{name}: {player}", counted)
            began = time.perf_counter()
            with bar:
                shares = move_shares(labels, chooser, spec)
            rows.append((player, shares, 1000 * (time.perf_counter() - began) / max(counted, 1)))
        for player, shares, ms in rows:
            table.add_row(
                player,
                share_cell(shares.optimal_moves, shares.positions),
                share_cell(shares.best_score_moves, shares.positions),
                f"{error:.3f}" if player == "net, move alone" else "-",
                f"{ms:.1f}",
            )
        optimal, best, counted = random_expected(labels)
        table.add_row(
            "uniformly random (expected)", f"{100 * optimal:.1f}%", f"{100 * best:.1f}%", "-", "-"
        )
        console.print(table)
        if name != TARGET_SET:
            continue
        found = dict((player, shares) for player, shares, _ms in rows)
        results.target(
            f"value error on {TARGET_SET} (no target; {len(labels)} positions)",
            f"{error:.3f}",
            "-",
            None,
        )
        for player, goal in (
            ("net, move alone", TARGET_MOVE_ALONE),
            (f"net + {TARGET_SIMS} simulations", TARGET_WITH_SIMS),
        ):
            if player not in found:
                continue
            shares = found[player]
            low, high = wilson_interval(shares.optimal, shares.positions)
            results.target(
                f"{player} optimal on {TARGET_SET} >= {goal:.0%} ({shares.positions} positions)",
                f"{100 * shares.optimal:.1f}%",
                f"[{100 * low:.1f}, {100 * high:.1f}]",
                shares.optimal >= goal,
                sure=not low < goal <= high,
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


def advancing(bar: Progress, task: TaskID) -> Callable[[GameRecord], None]:
    return lambda _record: bar.advance(task)


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
            records = run_tasks(tasks, jobs=args.jobs, on_record=advancing(bar, task))
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
                    sure=not low < TARGET_ARENA <= high,
                )
    console.print(table)


# -- tic-tac-toe ------------------------------------------------------------------------------


def remembered(choose: Chooser) -> Chooser:
    """``choose``, asked once per position: the shares and the games against the perfect player
    see the same move (and a search is not run twice)."""
    memo: dict[tuple[str, object], Hashable] = {}

    def chosen(state: AnyState) -> Hashable:
        key = (state.notation(), state.to_move)
        if key not in memo:
            memo[key] = choose(state)
        return memo[key]

    return chosen


def tictactoe_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    from zermelo.core.state import Player
    from zermelo.games.tictactoe import TicTacToeState
    from zermelo.learn.truth import perfect_chooser, random_chooser

    spec = get_game("tictactoe")
    truth = Truth(spec)
    net = load_net("tictactoe", args.ttt_net)
    console.print(f"Tic-tac-toe net: {net_description(net)}")
    results.notes.append(f"Tic-tac-toe net: {net_description(net)}")
    starts = [TicTacToeState.initial(Player.FIRST), TicTacToeState.initial(Player.SECOND)]
    positions = to_move_positions(starts, Player.FIRST)
    labels = [truth.label(state) for state in positions]
    lost = sum(x.lost for x in labels)
    table = Table(
        title=(
            f"Tic-tac-toe: all {len(positions):,} positions with X (the AI) to move, either side "
            f"starting; {lost} lost already (left out of the shares); against the perfect player"
        )
    )
    for heading in (
        "player",
        "positions lost",
        "below the exact value",
        "optimal",
        "best-score",
        "s",
    ):
        table.add_column(heading, justify="left" if heading == "player" else "right")
    players: list[tuple[str, Chooser | PolicyValue[AnyState]]] = [
        (f"net + {args.ttt_sims} simulations", az_chooser(net, args.ttt_sims, args.seed)),
        ("net, move alone", net),
        ("perfect (the check)", perfect_chooser(truth)),
        ("uniformly random", random_chooser(args.seed)),
    ]
    for player, given in players:
        began = time.perf_counter()
        choose = given if isinstance(given, PolicyValue) else remembered(given)
        shares = move_shares(labels, choose, spec)
        chooser = policy_chooser(choose) if isinstance(choose, PolicyValue) else choose
        with console.status(f"tic-tac-toe: {player} against the perfect player"):
            failures = never_loses(chooser, truth, positions)
        seconds = time.perf_counter() - began
        lost_ones = losses(failures)
        table.add_row(
            player,
            f"{len(lost_ones):,}",
            f"{len(failures):,}",
            share_cell(shares.optimal_moves, shares.positions),
            share_cell(shares.best_score_moves, shares.positions),
            f"{seconds:.1f}",
        )
        if player.startswith("net +"):
            results.target(
                f"tic-tac-toe net + {args.ttt_sims} simulations: positions lost = 0 "
                f"(of {len(positions):,})",
                f"{len(lost_ones)} (and {len(failures)} ended below the exact value)",
                "-",
                not lost_ones,
            )
            if failures:
                first = (lost_ones or failures)[0]
                results.notes.append(
                    f"tic-tac-toe: e.g. from {first.position!r} (exact {first.outcome:+d}) the net "
                    f"ended {first.ended:+d} after {' '.join(first.line)}"
                )
        if player == "net, move alone":
            low, high = wilson_interval(shares.optimal, shares.positions)
            results.target(
                "tic-tac-toe net, move alone optimal (no target)",
                f"{100 * shares.optimal:.1f}%",
                f"[{100 * low:.1f}, {100 * high:.1f}]",
                None,
            )
    console.print(table)


# -- speed ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Rate:
    """Self-play over a measured window: games per second, and moves per second with the mean
    game length where the program's records show them."""

    games_per_second: float
    moves_per_second: float | None = None
    length: float | None = None  # mean plies of the games it finished
    games: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def zermelo_selfplay(args: argparse.Namespace, loop_settings: bool) -> Rate:
    """zermelo.learn's self-play (:func:`zermelo.learn.selfplay.play_games`, the function its
    loop sends to each process) from a freshly initialised net: ``--speed-games`` games played
    together in one process (one torch thread), timed after a one-game warm-up. With
    ``loop_settings`` the searches are the loop's for Connect Four (a share of the moves with
    the full simulations, the rest with fewer); else every move gets ``--speed-sims``."""
    import torch

    from zermelo.agents.az import learnable
    from zermelo.learn.loop import default_config
    from zermelo.learn.net import PolicyValueNet
    from zermelo.learn.selfplay import Settings, model_to_blob, play_games

    spec = get_game("connect4")
    encoder = learnable(spec)
    start = spec.new()
    torch.manual_seed(args.seed)
    model = PolicyValueNet(
        *encoder.shape(start), encoder.actions(start), args.channels, args.blocks
    )
    blob = model_to_blob(model)
    if loop_settings:
        settings = dict(default_config("connect4").settings().to_json())
    else:
        sims = args.speed_sims
        settings = Settings(sims=sims, fast_sims=sims, full_share=1.0).to_json()
    settings["parallel"] = args.speed_games
    play_games(spec.name, {}, blob, args.seed + 1, 1, dict(settings, sims=2, fast_sims=2))
    began = time.perf_counter()
    played = play_games(spec.name, {}, blob, args.seed, args.speed_games, settings)
    seconds = time.perf_counter() - began
    games = cast(list[dict[str, object]], played["games"])
    lengths = [len(cast(list[int], g["moves"])) for g in games]
    rate = Rate(len(games) / seconds, sum(lengths) / seconds, None, len(games), seconds)
    if lengths:
        rate.length = sum(lengths) / len(lengths)
    if loop_settings:
        rate.notes.append(
            f"{settings['full_share']:.0%} of moves {settings['sims']} sims, else "
            f"{settings['fast_sims']}"
        )
    rate.notes.append(f"{args.speed_games} games in lockstep, leaves batched")
    return rate


_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\] (.*)$")


@dataclass(slots=True)
class ActorLog:
    """What an OpenSpiel actor's log says: when its bots were ready, when it made each move,
    and the length of each game it finished."""

    ready: datetime | None = None
    moves: list[datetime] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)


def parse_actor_log(text: str) -> ActorLog:
    log = ActorLog()
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        stamp, message = datetime.fromisoformat(match.group(1)), match.group(2)
        if message.startswith("Loading checkpoint") and log.ready is None:
            log.ready = stamp
        elif " sampled action: " in message:
            log.moves.append(stamp)
        elif message.startswith("Game ") and "Actions:" in message:
            log.lengths.append(len(message.split("Actions:", 1)[1].split()))
    return log


def openspiel_selfplay(args: argparse.Namespace, console: Console) -> Rate:
    """OpenSpiel's ``alpha_zero`` example, measured for ``--speed-seconds`` from its actors'
    first move (its start-up and first inference left out): moves per second from the actors'
    logs (``--noquiet`` logs every move with its time), games per second from them and the mean
    length of the games it finished."""
    with tempfile.TemporaryDirectory(prefix="openspiel-az-") as path:
        command = [
            args.openspiel_python, "-m", "open_spiel.python.examples.alpha_zero",
            "--game", "connect_four", "--path", path, "--noquiet",
            "--actors", "1", "--evaluators", "0",
            "--max_simulations", str(args.speed_sims), "--nn_api", "nnx",
            "--uct_c", "1.5", "--temperature_drop", "10",
            "--nn_model", "resnet", "--nn_width", str(args.channels), "--nn_depth", str(args.blocks),
        ]  # fmt: skip
        env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH="")
        out_path = Path(path) / "stdout.txt"
        logs = [Path(path) / "log-actor-0.txt"]

        def read() -> list[ActorLog]:
            return [
                parse_actor_log(p.read_text(errors="replace")) if p.exists() else ActorLog()
                for p in logs
            ]

        with out_path.open("w") as out:
            process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        deadline = time.monotonic() + args.openspiel_startup
        started = False
        try:
            with console.status("OpenSpiel alpha_zero: starting"):
                while time.monotonic() < deadline and process.poll() is None:
                    time.sleep(1.0)
                    if not started and all(log.moves for log in read()):
                        started = True
                        deadline = time.monotonic() + args.speed_seconds
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        actors = read()
        if not any(len(log.moves) >= 2 for log in actors):
            tail = out_path.read_text(errors="replace").strip().splitlines()[-2:]
            why = (
                "no moves within --openspiel-startup"
                if process.returncode in (None, -signal.SIGTERM)
                else " / ".join(tail)
            )
            raise RuntimeError(why[:200])
        moves_per_second = 0.0
        seconds = 0.0
        lengths: list[int] = []
        for log in actors:
            if len(log.moves) >= 2:
                window = (log.moves[-1] - log.moves[0]).total_seconds()
                moves_per_second += (len(log.moves) - 1) / window
                seconds = max(seconds, window)
            lengths += log.lengths
        rate = Rate(math.nan, moves_per_second, None, len(lengths), seconds)
        if lengths:
            rate.length = sum(lengths) / len(lengths)
            rate.games_per_second = moves_per_second / rate.length
        return rate


def speed_section(args: argparse.Namespace, console: Console, results: Results) -> None:
    table = Table(
        title=(
            f"Self-play, Connect Four, a fresh net of the same shape ({args.channels} channels, "
            f"{args.blocks} residual blocks), one process each (one at a time), no GPU"
        )
    )
    for heading in ("program", "games/s", "moves/s", "mean plies", "games", "seconds", "note"):
        table.add_column(heading, justify="left" if heading in ("program", "note") else "right")

    def row(name: str, rate: Rate) -> None:
        table.add_row(
            name,
            f"{rate.games_per_second:.3g}",
            "-" if rate.moves_per_second is None else f"{rate.moves_per_second:.3g}",
            "-" if rate.length is None else f"{rate.length:.1f}",
            str(rate.games),
            f"{rate.seconds:.0f}",
            "; ".join(rate.notes),
        )

    ours: Rate | None = None
    try:
        ours = zermelo_selfplay(args, loop_settings=False)
        row(f"zermelo.learn, {args.speed_sims} sims every move", ours)
        row("zermelo.learn, its loop's Connect Four searches", zermelo_selfplay(args, True))
    except ImportError as error:
        table.add_row("zermelo.learn", "-", "-", "-", "-", "-", f"needs zermelo[learn]: {error}")
    theirs: Rate | None = None
    if args.openspiel_python:
        try:
            theirs = openspiel_selfplay(args, console)
            if theirs.length is None and ours is not None and ours.length:
                theirs.games_per_second = (theirs.moves_per_second or 0.0) / ours.length
                theirs.notes.append("no game finished: games/s from zermelo's mean length")
            row("OpenSpiel 2.0.2 alpha_zero (Python MCTS, JAX/Flax nnx)", theirs)
        except (OSError, RuntimeError) as error:
            table.add_row("OpenSpiel alpha_zero", "-", "-", "-", "-", "-", f"did not run: {error}")
            theirs = None
    if theirs is None:
        table.add_row("alpha-zero-general (published)", "~0.01", "-", "-", "-", "-", "not run here")
        results.notes.append(AZG_PUBLISHED)
    console.print(table)
    if ours is not None and theirs is not None and theirs.games_per_second > 0:
        results.target(
            "self-play games/s, zermelo.learn / OpenSpiel alpha_zero (no target)",
            f"{ours.games_per_second / theirs.games_per_second:.1f}x",
            f"{ours.games_per_second:.3f} vs {theirs.games_per_second:.4f} games/s",
            None,
        )
        results.notes.append(
            "Speed: the same simulations per move and net shape (a ResNet of the given width and "
            "depth, freshly initialised), CPU only, one process each, one after the other. "
            "zermelo.learn plays --speed-games games in lockstep and evaluates their pending "
            "leaves in one batch (as its loop's processes do); OpenSpiel's actor plays one game "
            "at a time and evaluates one state per call (with a cache), its learner process "
            "waiting beside it; its moves/s is measured from its log from its first move, games/s "
            "is that over the mean length of its finished games (or zermelo's when none "
            "finished). Both: PUCT constant 1.5, Dirichlet noise at the root, moves drawn by "
            "visit count for the first 10 plies, then the most visited."
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


def whole(text: str) -> int:
    """A whole number of at least 0 (an option's type)."""
    return count(text, 0)


def count(text: str, least: int = 1) -> int:
    """A whole number of at least 1 (an option's type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} is below {least}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument(
        "--net", type=Path, default=None, help="a Connect Four .npz (default: shipped)"
    )
    parser.add_argument(
        "--run-dir", type=Path, default=None, help="the net's training run, for its training time"
    )
    parser.add_argument("--sets", default=DEFAULT_SETS, help="Pons' test sets, comma-separated")
    parser.add_argument(
        "--positions", type=count, default=400, help=f"first N positions of {TARGET_SET}"
    )
    parser.add_argument(
        "--other-positions", type=count, default=60, help="first N positions of the other sets"
    )
    parser.add_argument("--sims", default="50,200,800", help="simulations of the accuracy rows")
    parser.add_argument("--games", type=whole, default=100, help="games of az against medium")
    parser.add_argument("--hard-games", type=whole, default=20, help="games of az against hard")
    parser.add_argument("--arena-sims", type=count, default=TARGET_SIMS)
    parser.add_argument("--opening-plies", type=whole, default=2, help="0: the empty board")
    parser.add_argument("--jobs", type=count, default=2, help="processes for the arena's games")
    parser.add_argument("--ttt-net", type=Path, default=None, help="a tic-tac-toe .npz")
    parser.add_argument("--ttt-sims", type=count, default=50)
    parser.add_argument("--speed-seconds", type=count, default=60)
    parser.add_argument(
        "--speed-sims",
        type=count,
        default=80,
        help="simulations per self-play move (80: the full search of the Connect Four recipe)",
    )
    parser.add_argument("--speed-games", type=count, default=32, help="games of zermelo's rows")
    parser.add_argument("--channels", type=count, default=32, help="net width of both programs")
    parser.add_argument("--blocks", type=count, default=3, help="residual blocks of both programs")
    parser.add_argument("--openspiel-python", default=None, help="a Python with open_spiel + jax")
    parser.add_argument(
        "--openspiel-startup", type=int, default=300, help="seconds OpenSpiel may take to start"
    )
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}: expected some of {', '.join(SECTIONS)}")
    try:
        args.sims_list = [count(part) for part in args.sims.split(",") if part.strip()]
    except argparse.ArgumentTypeError as error:
        parser.error(f"--sims {args.sims!r}: {error}; expected numbers such as 50,200,800")
    if args.opening_plies > 4:
        parser.error(f"--opening-plies {args.opening_plies}: expected 0 to 4")
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
            try:
                sections[name](args, console, results)
            except ZermeloError as error:
                raise SystemExit(f"{name}: {error}") from None
    summary(console, results, began)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
