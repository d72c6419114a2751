"""What each part of zermelo's chess engine is worth, in games: the full engine against copies of it
with one search technique switched off or one evaluation term zeroed.

Search switches (``ChessEngine(switches=...)``, see ``zermelo.solvers.chess.SWITCHES``): null-move
pruning, late-move reductions, the check extension, killer moves, the history heuristic, aspiration
windows, the transposition table's cutoffs, its move tried first, quiescence's capture order
(most valuable victim, least valuable attacker), futility pruning and late-move pruning.
Evaluation terms (``set_weights``, see ``zermelo.solvers.chess.evaluation.TERMS``): mobility, king
safety (shelter and attack), pawn structure (passed, doubled and isolated pawns), the bishop pair,
and the material and piece-square tables alone.

Both engines play in this process (no UCI), with a fixed number of nodes per move. A node budget
makes every game independent of the machine's load and speed: the same seed replays the same
games on a busy shared machine or an idle one, and a loaded core cannot hand either side less
search. It also means the table measures what a technique is worth per node searched, not per
second: a technique that costs time per node is not charged for it here. Each move's budget is
the ``--nodes`` value scaled by a factor within ``±--jitter`` drawn from the seed, so that the
games of one opening do not repeat; the openings are a sample of the built-in balanced set drawn
from the seed, each played with both colours. All ablations get the same openings and the same
budgets.

A game ends as in benchmarks/chess.py: by the rules (threefold repetition and fifty moves
included), as a draw after ``--max-plies`` plies, or by resignation: when the full engine's score
is beyond ±10 pawns (or a mate) for three of its moves in a row, the side it favours is given the
win. Scores are the full engine's: ``+`` is a win of the full engine, and the Elo difference with
its 95% interval is what the switched-off part is worth.

    python benchmarks/chess_ablation.py --nodes 20000 --games 25 --jobs 2
    python benchmarks/chess_ablation.py --only null-move,mobility --games 10 --progress /tmp/a.txt

``--games N`` is the number of openings per ablation (2N games: each opening with both colours).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

# benchmarks/ holds a script named chess.py: this folder must not hide the python-chess package.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != HERE]
ROOT = HERE.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

import chess  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

sys.path.append(str(HERE))
from bench_common import progress_bar  # noqa: E402  (beside this script, after python-chess)
from zermelo.core.scores import WIN  # noqa: E402
from zermelo.games.chess_openings import OPENINGS, opening_board  # noqa: E402
from zermelo.play.ratings import Tally, elo_estimate  # noqa: E402
from zermelo.solvers.chess import SWITCHES, ChessEngine  # noqa: E402
from zermelo.solvers.chess import kernel as chess_kernel  # noqa: E402
from zermelo.solvers.chess.evaluation import DEFAULT_WEIGHTS, TERMS  # noqa: E402

RESIGN_CP = 1000
RESIGN_MOVES = 3
FULL = chess_kernel.SW_ALL


@dataclass(frozen=True, slots=True)
class Ablation:
    """One engine to measure: the full engine with ``switches`` and ``weights`` instead."""

    name: str
    what: str
    switches: int = FULL
    weights: tuple[float, ...] = tuple(DEFAULT_WEIGHTS)


def _without_switch(name: str, what: str) -> Ablation:
    return Ablation(name, what, switches=FULL & ~SWITCHES[name])


def _without_terms(name: str, what: str, terms: Sequence[str]) -> Ablation:
    weights = list(DEFAULT_WEIGHTS)
    for term in terms:
        weights[TERMS.index(term)] = 0.0
    return Ablation(name, what, weights=tuple(weights))


ABLATIONS: tuple[Ablation, ...] = (
    _without_switch("null-move", "no null-move pruning"),
    _without_switch("late-move-reductions", "no late-move reductions"),
    _without_switch("check-extension", "no check extension"),
    _without_switch("killers", "no killer moves"),
    _without_switch("history", "no history heuristic"),
    _without_switch("aspiration", "no aspiration windows"),
    _without_switch("tt-cutoffs", "no transposition-table cutoffs"),
    _without_switch("tt-move", "no transposition-table move first"),
    _without_switch("quiescence-order", "quiescence captures unordered (no MVV-LVA)"),
    _without_switch("futility", "no futility pruning"),
    _without_switch("late-move-pruning", "no late-move pruning"),
    _without_terms("mobility", "no mobility", ("mobility",)),
    _without_terms("king-safety", "no king safety", ("king shelter", "king attack")),
    _without_terms(
        "pawn-structure",
        "no pawn structure",
        ("passed pawns", "doubled pawns", "isolated pawns"),
    ),
    _without_terms("bishop-pair", "no bishop pair", ("bishop pair",)),
    _without_terms(
        "material-psqt",
        "material and piece-square tables only",
        [t for t in TERMS if t != "material and piece-square tables"],
    ),
)
BY_NAME = {a.name: a for a in ABLATIONS}


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a match: the ablation, the opening, the full engine's colour and the seed of
    its node budgets."""

    ablation: str
    opening: str
    moves: str
    full_white: bool
    seed: int


@dataclass(frozen=True, slots=True)
class GameResult:
    spec: GameSpec
    points: float
    """The full engine's points: 1, 1/2 or 0."""
    plies: int
    reason: str


def play_game(
    full: ChessEngine,
    ablated: ChessEngine,
    spec: GameSpec,
    nodes: int,
    jitter: float,
    max_plies: int,
) -> GameResult:
    """One game between two in-process engines at about ``nodes`` nodes per move."""
    board = opening_board(spec.moves)
    full.new_game()
    ablated.new_game()
    rng = random.Random(spec.seed)
    full_colour = chess.WHITE if spec.full_white else chess.BLACK
    streak = 0

    def result(points: float, reason: str) -> GameResult:
        return GameResult(spec, points, len(board.move_stack), reason)

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            reason = outcome.termination.name.lower().replace("_", " ")
            if outcome.winner is None:
                return result(0.5, reason)
            return result(1.0 if outcome.winner == full_colour else 0.0, reason)
        if len(board.move_stack) >= max_plies:
            return result(0.5, "move cap")
        budget = max(1, round(nodes * (1.0 + jitter * (2.0 * rng.random() - 1.0))))
        full_turn = board.turn == full_colour
        engine = full if full_turn else ablated
        answer = engine.search(board, nodes=budget)
        if answer.move is None:
            if answer.value == -WIN:
                return result(0.0 if full_turn else 1.0, "checkmate")
            return result(0.5, "draw")
        if full_turn:
            value = answer.value
            if abs(value) >= RESIGN_CP:
                sign = 1 if value > 0 else -1
                streak = streak + sign if streak * sign > 0 else sign
            else:
                streak = 0
            if abs(streak) >= RESIGN_MOVES:
                return result(1.0 if streak > 0 else 0.0, "resignation")
        board.push(answer.move)


def schedule(ablations: Sequence[Ablation], games: int, seed: int) -> list[GameSpec]:
    """Every game to play: ``games`` openings drawn from the built-in set by ``seed`` (the same for
    every ablation), each with both colours; each game's budgets get their own seed."""
    rng = random.Random(seed)
    count = min(games, len(OPENINGS))
    openings = rng.sample(OPENINGS, count)
    while len(openings) < games:
        openings.append(OPENINGS[len(openings) % len(OPENINGS)])
    budgets = [rng.getrandbits(32) for _ in range(2 * games)]
    specs = []
    for ablation in ablations:
        for i, (name, moves) in enumerate(openings):
            for colour, full_white in enumerate((True, False)):
                specs.append(
                    GameSpec(ablation.name, name, moves, full_white, budgets[2 * i + colour])
                )
    return specs


class _Players:
    """The engines of one process: the full engine, and the ablated one of the last ablation."""

    def __init__(self, hash_mb: int) -> None:
        self.hash_mb = hash_mb
        self.full = ChessEngine(hash_mb=hash_mb)
        self.name = ""
        self.ablated = self.full

    def against(self, name: str) -> tuple[ChessEngine, ChessEngine]:
        if name != self.name:
            ablation = BY_NAME[name]
            self.ablated = ChessEngine(
                hash_mb=self.hash_mb, weights=ablation.weights, switches=ablation.switches
            )
            self.name = name
        return self.full, self.ablated


_WORKER: _Players | None = None
_SETTINGS: tuple[int, float, int] = (0, 0.0, 0)


def _start_worker(hash_mb: int, nodes: int, jitter: float, max_plies: int) -> None:
    global _WORKER, _SETTINGS
    _WORKER = _Players(hash_mb)
    _SETTINGS = (nodes, jitter, max_plies)


def _worker_game(spec: GameSpec) -> GameResult:
    assert _WORKER is not None
    full, ablated = _WORKER.against(spec.ablation)
    return play_game(full, ablated, spec, *_SETTINGS)


def play_all(
    specs: Sequence[GameSpec],
    *,
    nodes: int,
    jitter: float,
    max_plies: int,
    hash_mb: int,
    jobs: int,
) -> Iterator[GameResult]:
    """The games' results as they finish: in this process, or on ``jobs`` worker processes."""
    if jobs <= 1:
        players = _Players(hash_mb)
        for spec in specs:
            full, ablated = players.against(spec.ablation)
            yield play_game(full, ablated, spec, nodes, jitter, max_plies)
        return
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=get_context("spawn"),
        initializer=_start_worker,
        initargs=(hash_mb, nodes, jitter, max_plies),
    ) as pool:
        queue = list(reversed(specs))
        running: set[Future[GameResult]] = set()
        while queue or running:
            while queue and len(running) < 2 * jobs:
                running.add(pool.submit(_worker_game, queue.pop()))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


def tallies(results: Sequence[GameResult]) -> dict[str, Tally]:
    """The full engine's wins, draws and losses against each ablation."""
    table: dict[str, Tally] = {}
    for game in results:
        table[game.spec.ablation] = table.get(game.spec.ablation, Tally()).add(game.points)
    return table


def result_table(ablations: Sequence[Ablation], scores: dict[str, Tally], nodes: int) -> Table:
    """One row per ablation, the largest effect first."""
    table = Table(
        title=f"the full engine against itself without one part, {nodes:,} nodes per move "
        "(+ = a win of the full engine; the Elo difference is what the part is worth)"
    )
    for column in ("ablation", "games", "+", "=", "-", "score", "Elo [95%]"):
        table.add_column(column, justify="left" if column == "ablation" else "right")
    rows = [(a, scores.get(a.name, Tally())) for a in ablations]
    rows.sort(key=lambda row: -row[1].score)
    for ablation, tally in rows:
        table.add_row(ablation.what, *tally.cells(), elo_estimate(tally).describe())
    return table


def run(
    console: Console,
    ablations: Sequence[Ablation],
    *,
    games: int,
    nodes: int,
    seed: int,
    jitter: float = 0.1,
    max_plies: int = 300,
    hash_mb: int = 16,
    jobs: int = 1,
    progress: Path | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> dict[str, Tally]:
    """Play every ablation's match and print the table; the tallies by ablation name."""
    specs = schedule(ablations, games, seed)
    results: list[GameResult] = []
    with progress_bar(console) as bar:
        task = bar.add_task("ablation games", total=len(specs))
        for game in play_all(
            specs, nodes=nodes, jitter=jitter, max_plies=max_plies, hash_mb=hash_mb, jobs=jobs
        ):
            results.append(game)
            bar.advance(task)
            if on_game is not None:
                on_game(game)
            if progress is not None:
                tally = tallies(results)[game.spec.ablation]
                colour = "white" if game.spec.full_white else "black"
                with progress.open("a") as handle:
                    handle.write(
                        f"{time.strftime('%H:%M:%S')} {game.spec.ablation}: {game.spec.opening}, "
                        f"full engine {colour}: {game.points} ({game.reason}, {game.plies} plies) "
                        f"(+{tally.wins} ={tally.draws} -{tally.losses})\n"
                    )
    scores = tallies(results)
    console.print(result_table(ablations, scores, nodes))
    return scores


def main(argv: list[str] | None = None) -> None:
    names = ", ".join(a.name for a in ABLATIONS)
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"ablations: {names}",
    )
    parser.add_argument(
        "--only", help="comma-separated ablations (default all; see the list below)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=25,
        help="openings per ablation, each played with both colours (default 25: 50 games)",
    )
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes per move (default 20000)")
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.1,
        help="each move's budget varies within this fraction of --nodes (default 0.1)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings and budgets")
    parser.add_argument("--max-plies", type=int, default=300, help="plies before a game is drawn")
    parser.add_argument("--hash", type=int, default=16, help="MiB of hash per engine (default 16)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--progress", type=Path, help="append one line per finished game here")
    args = parser.parse_args(argv)
    if args.only is None:
        chosen = list(ABLATIONS)
    else:
        wanted = [s.strip() for s in args.only.split(",") if s.strip()]
        unknown = [s for s in wanted if s not in BY_NAME]
        if unknown or not wanted:
            parser.error(
                f"unknown ablation {', '.join(unknown) or repr(args.only)}: expected some of "
                f"{names}"
            )
        chosen = [BY_NAME[s] for s in dict.fromkeys(wanted)]
    for option, value, low in (
        ("--games", args.games, 1),
        ("--nodes", args.nodes, 1),
        ("--jobs", args.jobs, 1),
        ("--max-plies", args.max_plies, 1),
        ("--hash", args.hash, 1),
    ):
        if value < low:
            parser.error(f"{option} must be at least {low}, got {value}")
    if not 0.0 <= args.jitter < 1.0:
        parser.error(f"--jitter must be from 0 to below 1, got {args.jitter}")
    console = Console()
    console.print(
        f"zermelo chess kernel compiled with numba: {chess_kernel.COMPILED}; "
        f"{len(chosen)} ablations x {2 * args.games} games, {args.nodes:,} nodes per move "
        f"(±{100 * args.jitter:g}%), seed {args.seed}, {args.jobs} job(s)"
    )
    started = time.perf_counter()
    run(
        console,
        chosen,
        games=args.games,
        nodes=args.nodes,
        seed=args.seed,
        jitter=args.jitter,
        max_plies=args.max_plies,
        hash_mb=args.hash,
        jobs=args.jobs,
        progress=args.progress,
    )
    console.print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
