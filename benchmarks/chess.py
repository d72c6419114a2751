"""zermelo's chess engine against its peers, in one run: one table per section.

* perft: zermelo's move generator (numba) against python-chess's own move generation on the six
  perft positions of the Chess Programming Wiki, exact counts checked, in CPU seconds;
* nps: search speed in middle-game positions (nodes per CPU second, fixed node budgets);
* nnue: search speed with the learned evaluation beside PeSTO's, in the same run, at a fixed
  depth from the same positions (a network of seeded random weights, hidden 256, unless
  ``--nnue-file`` names one; random weights search other trees, so compare nodes per second);
* wac: the Win At Chess suite (300 positions, benchmarks/data/wac.epd, as shipped by
  thomasahle/sunfish in tests/files/win_at_chess_test.epd) at a time per position;
* bk: the Bratko-Kopec test (24 positions, benchmarks/data/bk.epd, from the same folder of
  sunfish) at a time per position;
* mates: sunfish's mate problems (benchmarks/data/mate2.fen, mate3.fen, mate4.fen): how many
  got a mate and how many the shortest;
* sunfish: a match against sunfish (``pip install sunfish``; its ``sunfish-uci``) at a time per
  move, from the built-in balanced openings, each played with both colours;
* stockfish: matches against Stockfish (``/usr/games/stockfish``) with ``UCI_LimitStrength`` at
  several ``UCI_Elo`` levels;
* smp: Lazy SMP, two threads against one: the wall time to reach a depth in the middle games,
  then a match of zermelo on ``Threads`` 2 against zermelo on one thread at a time per move.

``--threads N`` sets zermelo's threads in the suites and in the sunfish and Stockfish matches
(default 1).

Both engines of a match are UCI processes driven by python-chess (zermelo is
``python -m zermelo.ui.uci``). A game ends by the rules (threefold repetition and fifty moves
included), as a draw after ``--max-plies`` plies, or by resignation: when zermelo's score is beyond
±10 pawns (or a mate) for three of its moves in a row, the side it favours is given the win.

    python benchmarks/chess.py --only perft,nps,wac --wac-count 100
    nice -n 19 python benchmarks/chess.py --only nnue --nnue-depth 9
    python benchmarks/chess.py --only sunfish --games 20 --progress /tmp/sunfish.txt
    python benchmarks/chess.py --only stockfish --games 10 --levels 1350,1800
    python benchmarks/chess.py --only smp --smp-depth 11 --games 20 --smp-time 0.2

``--games N`` is the number of openings per match (2N games: each opening with both colours).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# This script is named chess.py: its folder must not hide the python-chess package.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != HERE]

import chess  # noqa: E402
import chess.engine  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.append(str(HERE))

from bench_common import progress_bar  # noqa: E402  (beside this script)
from zermelo.games.chess_openings import OPENINGS, opening_board  # noqa: E402
from zermelo.play.ratings import Tally, elo_estimate  # noqa: E402
from zermelo.solvers.chess import ChessEngine, mate_in, perft  # noqa: E402
from zermelo.solvers.chess import kernel as chess_kernel  # noqa: E402
from zermelo.solvers.chess.nnue import FEATURES, Network, load, quantise  # noqa: E402

SECTIONS = ("perft", "nps", "nnue", "wac", "bk", "mates", "sunfish", "stockfish", "smp")
PERFT = (
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2_103_487),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
        3_894_594,
    ),
)
MIDDLE_GAMES = (
    ("Italian", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 b - - 0 6"),
    ("Queen's Gambit", "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2Q1RK1 w - - 0 9"),
    ("Sicilian", "r1b1kb1r/1pqp1ppp/p1n1pn2/8/3NP3/2N1B3/PPP1BPPP/R2QK2R w KQkq - 4 8"),
    ("King's Indian", "r1bq1rk1/pppnn1bp/3p2p1/3Ppp2/2P1P3/2N2P2/PP2BBPP/R2QNRK1 w - - 0 11"),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
)
RESIGN_CP = 1000
RESIGN_MOVES = 3


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess's move generation, counted the same way (legal moves at the last ply)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def section_perft(console: Console) -> None:
    table = Table(title="perft: zermelo (numba) and python-chess, CPU seconds")
    for column in ("position", "depth", "leaves", "exact", "zermelo s", "zermelo leaves/s"):
        table.add_column(column, justify="right")
    for column in ("python-chess s", "python-chess leaves/s", "speed-up"):
        table.add_column(column, justify="right")
    perft("startpos", 2)
    total_ours = total_theirs = 0.0
    with progress_bar(console) as bar:
        task = bar.add_task("perft", total=len(PERFT))
        for name, fen, depth, expected in PERFT:
            start = time.process_time()
            leaves = perft(fen, depth)
            ours = time.process_time() - start
            start = time.process_time()
            theirs_leaves = python_chess_perft(chess.Board(fen), depth)
            theirs = time.process_time() - start
            total_ours += ours
            total_theirs += theirs
            exact = leaves == expected and theirs_leaves == expected
            table.add_row(
                name,
                str(depth),
                f"{leaves:,}",
                "yes" if exact else "NO",
                f"{ours:.2f}",
                f"{leaves / ours:,.0f}",
                f"{theirs:.1f}",
                f"{theirs_leaves / theirs:,.0f}",
                f"{theirs / ours:.0f}x",
            )
            bar.advance(task)
    table.add_row(
        "all",
        "",
        "",
        "",
        f"{total_ours:.2f}",
        "",
        f"{total_theirs:.1f}",
        "",
        f"{total_theirs / total_ours:.0f}x",
    )
    console.print(table)


def section_nps(console: Console, nodes: int) -> None:
    table = Table(title=f"search speed: {nodes:,} nodes per position, one thread")
    for column in ("position", "depth", "nodes", "CPU s", "nodes/CPU s", "wall nodes/s"):
        table.add_column(column, justify="right")
    engine = ChessEngine()
    engine.search("startpos", depth=4)
    all_nodes = 0
    all_cpu = 0.0
    for name, fen in MIDDLE_GAMES:
        engine.new_game()
        cpu = time.process_time()
        result = engine.search(fen, nodes=nodes)
        cpu = time.process_time() - cpu
        all_nodes += result.stats.nodes
        all_cpu += cpu
        table.add_row(
            name,
            str(result.depth),
            f"{result.stats.nodes:,}",
            f"{cpu:.2f}",
            f"{result.stats.nodes / cpu:,.0f}",
            f"{int(result.stats.nodes_per_second):,}",
        )
    table.add_row("all", "", f"{all_nodes:,}", f"{all_cpu:.2f}", f"{all_nodes / all_cpu:,.0f}", "")
    console.print(table)


def random_network(hidden: int, seed: int = 2026) -> Network:
    """A network of seeded random weights: the speed of a real one, not its strength."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return quantise(
        rng.normal(0, 0.15, (FEATURES, hidden)),
        rng.normal(0.3, 0.2, hidden),
        rng.normal(0, 0.5, 2 * hidden),
        rng.normal(0, 0.1),
        {"benchmark": "seeded random weights", "seed": seed},
    )


def section_nnue(console: Console, depth: int, network_file: Path | None) -> None:
    network = load(network_file) if network_file else random_network(256)
    title = (
        f"search speed, PeSTO and the network (hidden {network.hidden}), depth {depth}, one "
        "thread, same run"
    )
    table = Table(title=title)
    for column in (
        "position",
        "PeSTO nodes",
        "PeSTO nodes/CPU s",
        "network nodes",
        "network nodes/CPU s",
        "network / PeSTO",
    ):
        table.add_column(column, justify="right")
    engines = {"pesto": ChessEngine(), "network": ChessEngine(network=network)}
    for engine in engines.values():
        engine.search("startpos", depth=3)
    totals = {name: [0, 0.0] for name in engines}
    for name, fen in MIDDLE_GAMES:
        row = [name]
        speeds = []
        for label, engine in engines.items():
            engine.new_game()
            cpu = time.process_time()
            result = engine.search(fen, depth=depth)
            cpu = max(time.process_time() - cpu, 1e-9)
            totals[label][0] += result.stats.nodes
            totals[label][1] += cpu
            speeds.append(result.stats.nodes / cpu)
            row += [f"{result.stats.nodes:,}", f"{result.stats.nodes / cpu:,.0f}"]
        table.add_row(*row, f"{speeds[1] / speeds[0]:.2f}")
    pesto = totals["pesto"][0] / totals["pesto"][1]
    learned = totals["network"][0] / totals["network"][1]
    table.add_row(
        "all",
        f"{totals['pesto'][0]:,}",
        f"{pesto:,.0f}",
        f"{totals['network'][0]:,}",
        f"{learned:,.0f}",
        f"{learned / pesto:.2f}",
    )
    console.print(table)


def section_wac(
    console: Console,
    count: int,
    seconds: float,
    nodes: int | None,
    progress: Path | None,
    suite: str = "Win At Chess",
    file: str = "wac.epd",
    threads: int = 1,
) -> None:
    lines = (ROOT / "benchmarks" / "data" / file).read_text().splitlines()[:count]
    lines = [line for line in lines if line.strip()]
    engine = ChessEngine(threads=threads)
    engine.search("startpos", depth=4)
    solved = 0
    missed: list[str] = []
    depths = 0
    with progress_bar(console) as bar:
        task = bar.add_task(suite, total=len(lines))
        for line in lines:
            board, operations = chess.Board.from_epd(line)
            if nodes is not None:
                result = engine.search(board, nodes=nodes)
            else:
                result = engine.search(board, movetime=seconds)
            depths += result.depth
            best = operations.get("bm", [])
            avoid = operations.get("am", [])
            move = result.move
            ok = (not best or move in best) and move not in avoid
            solved += ok
            if not ok:
                missed.append(str(operations.get("id", "?")))
            bar.advance(task)
            if progress is not None:
                with progress.open("a") as handle:
                    handle.write(
                        f"{time.strftime('%H:%M:%S')} {suite} {operations.get('id')}: "
                        f"{solved} solved so far\n"
                    )
    budget = f"{nodes:,} nodes" if nodes is not None else f"{seconds:g} s"
    on = f", {threads} threads" if threads > 1 else ""
    table = Table(title=f"{suite}, {budget} per position{on}")
    for column in ("positions", "solved", "mean depth", "missed"):
        table.add_column(column)
    shown = ", ".join(m.replace("WAC.", "").replace("BK.", "") for m in missed[:40])
    table.add_row(
        str(len(lines)),
        str(solved),
        f"{depths / max(1, len(lines)):.1f}",
        shown + (" ..." if len(missed) > 40 else ""),
    )
    console.print(table)


def section_mates(console: Console, seconds: float, threads: int) -> None:
    """The mate problems of sunfish's tests/files (mate2.fen, mate3.fen, mate4.fen: mates in 2,
    3 and 4 for the side to move), each from an empty table at ``seconds`` per position: how many
    got a mate, how many the shortest (the problem's), and how many a key move that mates that
    fast (checked by a mate search of the position after it)."""
    table = Table(title=f"mate problems, {seconds:g} s per position, {threads} thread(s)")
    for column in ("problems", "positions", "a mate", "the shortest", "longest answer"):
        table.add_column(column, justify="right")
    warm = ChessEngine(threads=threads)
    warm.search("startpos", depth=4)
    with progress_bar(console) as bar:
        for moves in (2, 3, 4):
            path = ROOT / "benchmarks" / "data" / f"mate{moves}.fen"
            fens = [line.strip() for line in path.read_text().splitlines() if line.strip()]
            task = bar.add_task(f"mate in {moves}", total=len(fens))
            mates = shortest = 0
            longest = 0
            for fen in fens:
                engine = ChessEngine(threads=threads)
                result = engine.search(fen, movetime=seconds)
                found = mate_in(result.value)
                if found is not None and found > 0:
                    mates += 1
                    shortest += found == moves
                    longest = max(longest, found)
                bar.advance(task)
            table.add_row(
                f"mate in {moves}", str(len(fens)), str(mates), str(shortest), str(longest or "")
            )
    console.print(table)


@dataclass
class MatchResult:
    tally: Tally
    adjudicated: int
    longest_move: float
    games: int


def zermelo_command() -> list[str]:
    return [sys.executable, "-m", "zermelo.ui.uci"]


def open_engine(command: list[str], options: dict[str, object]) -> chess.engine.SimpleEngine:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + environment.get("PYTHONPATH", "")
    engine = chess.engine.SimpleEngine.popen_uci(command, env=environment, timeout=120)
    if options:
        engine.configure(options)
    engine.ping()
    return engine


def play_game(
    ours: chess.engine.SimpleEngine,
    theirs: chess.engine.SimpleEngine,
    opening: str,
    ours_white: bool,
    seconds: float,
    max_plies: int,
) -> tuple[float, bool, float]:
    """One game; returns zermelo's points, whether it was adjudicated, its longest move (s)."""
    board = opening_board(opening)
    ours.protocol.send_line("ucinewgame")
    streak = 0
    longest = 0.0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is None:
                return 0.5, False, longest
            return (
                (1.0 if outcome.winner == (chess.WHITE if ours_white else chess.BLACK) else 0.0),
                False,
                longest,
            )
        if len(board.move_stack) >= max_plies:
            return 0.5, True, longest
        our_turn = board.turn == (chess.WHITE if ours_white else chess.BLACK)
        engine = ours if our_turn else theirs
        start = time.perf_counter()
        result = engine.play(board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_SCORE)
        spent = time.perf_counter() - start
        if our_turn:
            longest = max(longest, spent)
            score = result.info.get("score")
            if score is not None:
                value = score.relative.score(mate_score=100_000)
                if value is not None and abs(value) >= RESIGN_CP:
                    sign = 1 if value > 0 else -1
                    streak = streak + sign if streak * sign > 0 else sign
                else:
                    streak = 0
                if abs(streak) >= RESIGN_MOVES:
                    return (1.0 if streak > 0 else 0.0), True, longest
        if result.move is None:
            return (0.0 if our_turn else 1.0), True, longest
        board.push(result.move)


def run_match(
    console: Console,
    name: str,
    command: list[str],
    options: dict[str, object],
    games: int,
    seconds: float,
    max_plies: int,
    progress: Path | None,
    first: int = 0,
    our_options: dict[str, object] | None = None,
) -> MatchResult:
    ours = open_engine(zermelo_command(), our_options or {})
    theirs = open_engine(command, options)
    tally = Tally()
    adjudicated = 0
    longest = 0.0
    openings = [OPENINGS[(first + i) % len(OPENINGS)] for i in range(games)]
    try:
        with progress_bar(console) as bar:
            task = bar.add_task(name, total=2 * len(openings))
            for opening_name, moves in openings:
                for ours_white in (True, False):
                    points, judged, slowest = play_game(
                        ours, theirs, moves, ours_white, seconds, max_plies
                    )
                    tally = tally.add(points)
                    adjudicated += judged
                    longest = max(longest, slowest)
                    if progress is not None:
                        with progress.open("a") as handle:
                            handle.write(
                                f"{time.strftime('%H:%M:%S')} {name}: {opening_name}, zermelo "
                                f"{'white' if ours_white else 'black'}: {points} "
                                f"(+{tally.wins} ={tally.draws} -{tally.losses})\n"
                            )
                    bar.advance(task)
    finally:
        ours.quit()
        theirs.quit()
    return MatchResult(tally, adjudicated, longest, tally.games)


def section_smp(console: Console, depth: int) -> None:
    """Wall seconds to complete ``depth`` plies on one thread and on two, each position from an
    empty table (a fresh engine), and the nodes each searched."""
    table = Table(title=f"Lazy SMP: wall seconds to depth {depth}, fresh table each time")
    for column in ("position", "1 thread s", "nodes", "2 threads s", "nodes", "speed-up"):
        table.add_column(column, justify="right")
    warm = ChessEngine(threads=2)
    warm.search("startpos", depth=4)
    totals = [0.0, 0.0]
    for name, fen in MIDDLE_GAMES:
        cells = [name]
        spent = []
        for threads in (1, 2):
            engine = ChessEngine(threads=threads)
            start = time.perf_counter()
            result = engine.search(fen, depth=depth)
            spent.append(time.perf_counter() - start)
            cells += [f"{spent[-1]:.2f}", f"{result.stats.nodes:,}"]
        totals[0] += spent[0]
        totals[1] += spent[1]
        table.add_row(*cells, f"{spent[0] / spent[1]:.2f}x")
    table.add_row(
        "all", f"{totals[0]:.2f}", "", f"{totals[1]:.2f}", "", f"{totals[0] / totals[1]:.2f}x"
    )
    console.print(table)


def match_table(title: str, rows: list[tuple[str, MatchResult]]) -> Table:
    table = Table(title=title)
    for column in (
        "opponent",
        "games",
        "+",
        "=",
        "-",
        "score",
        "Elo difference [95%]",
        "adjudicated",
        "longest move s",
    ):
        table.add_column(column, justify="right")
    for name, result in rows:
        tally = result.tally
        table.add_row(
            name,
            str(tally.games),
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            f"{100 * tally.score:.1f}%",
            elo_estimate(tally).describe(),
            str(result.adjudicated),
            f"{result.longest_move:.2f}",
        )
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections (default all: {','.join(SECTIONS)})",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=50,
        help="openings per match, each played with both colours (default 50)",
    )
    parser.add_argument(
        "--first-opening",
        type=int,
        default=0,
        help="index of the first opening used (to split a match over runs)",
    )
    parser.add_argument("--nodes", type=int, default=2_000_000, help="nodes per position for nps")
    parser.add_argument("--nnue-depth", type=int, default=9, help="search depth for nnue")
    parser.add_argument("--nnue-file", type=Path, help="a network file for nnue (default random)")
    parser.add_argument("--wac-count", type=int, default=300, help="WAC positions (default 300)")
    parser.add_argument("--wac-time", type=float, default=0.5, help="seconds per WAC position")
    parser.add_argument(
        "--wac-nodes", type=int, help="nodes per WAC position instead of a time (a loaded machine)"
    )
    parser.add_argument("--bk-time", type=float, default=1.0, help="seconds per BK position")
    parser.add_argument("--mate-time", type=float, default=1.0, help="seconds per mate problem")
    parser.add_argument(
        "--sunfish-time", type=float, default=0.5, help="seconds per move vs sunfish"
    )
    parser.add_argument(
        "--stockfish-time", type=float, default=1.0, help="seconds per move vs Stockfish"
    )
    parser.add_argument("--levels", default="1350,1600,1800,2000", help="Stockfish UCI_Elo levels")
    parser.add_argument("--max-plies", type=int, default=300, help="plies before a game is drawn")
    parser.add_argument("--progress", type=Path, help="append one line per finished game here")
    parser.add_argument(
        "--threads", type=int, default=1, help="zermelo's Threads in the matches (default 1)"
    )
    parser.add_argument("--smp-depth", type=int, default=11, help="depth of the smp timing")
    parser.add_argument(
        "--smp-time", type=float, default=0.2, help="seconds per move of the smp match"
    )
    args = parser.parse_args(argv)
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error(
            f"unknown section {', '.join(unknown)}: expected some of {', '.join(SECTIONS)}"
        )
    if args.games < 1:
        parser.error("--games must be at least 1")
    console = Console()
    console.print(
        f"zermelo chess kernel compiled with numba: {chess_kernel.COMPILED}; "
        f"python-chess {chess.__version__}; {os.cpu_count()} CPUs (shared)"
    )
    if "perft" in sections:
        section_perft(console)
    if "nps" in sections:
        section_nps(console, args.nodes)
    if "nnue" in sections:
        section_nnue(console, args.nnue_depth, args.nnue_file)
    if "wac" in sections:
        section_wac(
            console,
            args.wac_count,
            args.wac_time,
            args.wac_nodes,
            args.progress,
            threads=args.threads,
        )
    if "bk" in sections:
        section_wac(
            console,
            24,
            args.bk_time,
            None,
            args.progress,
            "Bratko-Kopec",
            "bk.epd",
            args.threads,
        )
    if "mates" in sections:
        section_mates(console, args.mate_time, args.threads)
    if "sunfish" in sections:
        command = shutil.which("sunfish-uci")
        if command is None:
            console.print("sunfish: not installed (pip install sunfish); skipped")
        else:
            result = run_match(
                console,
                "sunfish",
                [command],
                {},
                args.games,
                args.sunfish_time,
                args.max_plies,
                args.progress,
                args.first_opening,
                {"Threads": args.threads},
            )
            console.print(
                match_table(
                    f"zermelo against sunfish, {args.sunfish_time:g} s per move",
                    [("sunfish", result)],
                )
            )
    if "stockfish" in sections:
        command = shutil.which("stockfish") or "/usr/games/stockfish"
        if not Path(command).exists():
            console.print("stockfish: not installed (apt-get install stockfish); skipped")
        else:
            rows = []
            for level in [int(x) for x in args.levels.split(",")]:
                options = {"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1, "Hash": 16}
                result = run_match(
                    console,
                    f"Stockfish {level}",
                    [command],
                    options,
                    args.games,
                    args.stockfish_time,
                    args.max_plies,
                    args.progress,
                    args.first_opening,
                    {"Threads": args.threads},
                )
                rows.append((f"Stockfish UCI_Elo {level}", result))
                console.print(
                    match_table(
                        f"zermelo against Stockfish, {args.stockfish_time:g} s per move", rows
                    )
                )

    if "smp" in sections:
        section_smp(console, args.smp_depth)
        result = run_match(
            console,
            "zermelo, 1 thread",
            zermelo_command(),
            {"Threads": 1},
            args.games,
            args.smp_time,
            args.max_plies,
            args.progress,
            args.first_opening,
            {"Threads": 2},
        )
        console.print(
            match_table(
                f"zermelo on 2 threads against zermelo on 1, {args.smp_time:g} s per move",
                [("zermelo, 1 thread", result)],
            )
        )


if __name__ == "__main__":
    main()
