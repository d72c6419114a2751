"""OpenSpiel interop: what wrapping costs, and zermelo's MCTS against OpenSpiel's, in one run.

    python benchmarks/interop.py [--repeat N] [--positions N] [--game NAME] [--iterations N]
                                 [--games N] [--seed N]

1. Wrapping overhead. The same positions of OpenSpiel's ``tic_tac_toe`` (the start, then
   ``--positions`` more, reached by seeded random moves) are solved by zermelo's alpha-beta on the
   wrapped game (:mod:`zermelo.interop.openspiel`, a fresh transposition table each run) and by
   OpenSpiel's own alpha-beta, ``open_spiel.python.algorithms.minimax.alpha_beta_search``, called
   from Python on the C++ game. (The C++ ``AlphaBetaSearch`` is compiled into the PyPI wheel of
   open_spiel 2.0 but has no Python binding there, so this Python driver over C++ states is the
   alpha-beta OpenSpiel offers from Python.) Zermelo's alpha-beta on its own tic-tac-toe states
   is shown for scale. Times are medians of the CPU time over ``--repeat`` runs (the machine is
   shared, and wall time would count the other processes); the values must agree. Target:
   the wrapped search costs at most 3x OpenSpiel's.

2. MCTS at equal iterations. zermelo's MCTS on the wrapped ``--game`` (default Connect Four)
   against OpenSpiel's C++ ``MCTSBot``, both with ``--iterations`` simulations per move, random
   rollouts to the end, and the same exploration (zermelo's c = sqrt 2 for rewards in [0, 1] is
   OpenSpiel's uct_c = 2 sqrt 2 for rewards in [-1, 1]); colours alternate. The table gives
   zermelo's score with the Elo difference and its 95% interval (:mod:`zermelo.play.ratings`).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyspiel
from open_spiel.python.algorithms import minimax
from rich.console import Console
from rich.table import Table

from bench_common import progress_bar
from zermelo.agents.mcts import MctsAgent
from zermelo.games.tictactoe import TicTacToeState
from zermelo.interop.openspiel import load
from zermelo.play.ratings import Tally, elo_estimate
from zermelo.search import alphabeta


def _positions(count: int, seed: int) -> list[list[int]]:
    """The start, then ``count`` non-terminal positions after 1 to 6 seeded random moves."""
    game = pyspiel.load_game("tic_tac_toe")
    rng = random.Random(seed)
    found: list[list[int]] = [[]]
    while len(found) < count + 1:
        state = game.new_initial_state()
        history = []
        for _ in range(rng.randint(1, 6)):
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            history.append(action)
            if state.is_terminal():
                break
        if not state.is_terminal() and history not in found:
            found.append(history)
    return found


def _median_time(run: Any, repeat: int) -> tuple[float, Any]:
    """The median CPU time of ``run()`` (the machine is shared: wall time counts the others)."""
    times, answer = [], None
    for _ in range(repeat):
        started = time.process_time()
        answer = run()
        times.append(time.process_time() - started)
    return statistics.median(times), answer


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def overhead(console: Console, repeat: int, count: int, seed: int) -> None:
    game = pyspiel.load_game("tic_tac_toe")
    wrapped = load("tic_tac_toe")
    table = Table(title=f"Tic-tac-toe, exact value (median CPU time of {repeat} runs)")
    for column in ("position", "value", "OpenSpiel alpha-beta", "zermelo on OpenSpiel", "ratio"):
        table.add_column(column, justify="right")
    table.add_column("zermelo native", justify="right")
    totals = [0.0, 0.0, 0.0]
    positions = _positions(count, seed)
    with progress_bar(console) as bar:
        task = bar.add_task("alpha-beta", total=len(positions))
        for history in positions:
            state = game.new_initial_state()
            for action in history:
                state.apply_action(action)
            mover = state.current_player()
            theirs_time, (theirs, _) = _median_time(
                lambda s=state, m=mover: minimax.alpha_beta_search(
                    game, state=s.clone(), maximizing_player_id=m
                ),
                repeat,
            )
            start = wrapped.parse(" ".join(map(str, history)))
            ours_time, ours = _median_time(lambda s=start: alphabeta(s), repeat)
            native = TicTacToeState.initial()
            for action in history:
                native = native.play(action)
            native_time, native_result = _median_time(lambda s=native: alphabeta(s), repeat)
            if not (_sign(ours.value) == _sign(theirs) == _sign(native_result.value)):
                raise SystemExit(f"values disagree after {history}: {ours.value} vs {theirs}")
            totals[0] += theirs_time
            totals[1] += ours_time
            totals[2] += native_time
            table.add_row(
                " ".join(map(str, history)) or "start",
                ours.describe(),
                f"{1000 * theirs_time:.2f} ms",
                f"{1000 * ours_time:.2f} ms ({ours.stats.nodes} nodes)",
                f"{ours_time / theirs_time:.2f}x",
                f"{1000 * native_time:.2f} ms",
            )
            bar.advance(task)
    table.add_section()
    table.add_row(
        "total",
        "",
        f"{1000 * totals[0]:.1f} ms",
        f"{1000 * totals[1]:.1f} ms",
        f"{totals[1] / totals[0]:.2f}x",
        f"{1000 * totals[2]:.1f} ms",
    )
    console.print(table)
    verdict = "met" if totals[1] <= 3 * totals[0] else "NOT met"
    console.print(
        f"Target (wrapped search at most 3x OpenSpiel's): {verdict}, "
        f"{totals[1] / totals[0]:.2f}x over {len(positions)} positions."
    )


def _mcts_game(
    name: str, iterations: int, zermelo_first: bool, seed: int
) -> tuple[float, float, float]:
    """One game; zermelo's points and the seconds each side thought."""
    game = pyspiel.load_game(name)
    wrapped = load(name)
    ours = MctsAgent(iterations=iterations, seed=seed, reuse=False, name="zermelo")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    theirs = pyspiel.MCTSBot(
        game, evaluator, 2 * math.sqrt(2), iterations, 1000, False, seed, False
    )
    state = wrapped.new()
    spiel = game.new_initial_state()
    ours_id = wrapped.first_id if zermelo_first else 1 - wrapped.first_id
    spent = [0.0, 0.0]
    while not spiel.is_terminal():
        started = time.process_time()
        if spiel.current_player() == ours_id:
            move = ours.choose(state)
            actions = move if isinstance(move, tuple) else (move,)
            spent[0] += time.process_time() - started
        else:
            actions = (theirs.step(spiel),)
            spent[1] += time.process_time() - started
        for action in actions:
            spiel.apply_action(action)
        state = wrapped.parse(" ".join(map(str, spiel.history())))
    result = spiel.returns()[ours_id]
    return (1.0 if result > 0 else 0.5 if result == 0 else 0.0), spent[0], spent[1]


def mcts_match(console: Console, name: str, iterations: int, games: int, seed: int) -> None:
    tally = Tally()
    ours_time = theirs_time = 0.0
    with progress_bar(console) as bar:
        task = bar.add_task(f"MCTS games on {name}", total=games)
        for index in range(games):
            points, ours, theirs = _mcts_game(name, iterations, index % 2 == 0, seed + index)
            tally = tally.add(points)
            ours_time += ours
            theirs_time += theirs
            bar.advance(task)
    table = Table(title=f"MCTS at {iterations} iterations per move on {name}, {games} games")
    for column in ("agent", "opponent", "games", "wins", "draws", "losses", "score"):
        table.add_column(column, justify="right")
    table.add_column("Elo [95% interval]", justify="right")
    table.add_column("CPU seconds (zermelo / OpenSpiel)", justify="right")
    table.add_row(
        "zermelo MCTS",
        "OpenSpiel MCTSBot (C++)",
        *tally.cells(),
        elo_estimate(tally).describe(),
        f"{ours_time:.1f} / {theirs_time:.1f}",
    )
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in ("repeat", "positions", "iterations", "games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    console = Console()
    console.print(f"open_spiel {_version()}, Python {sys.version.split()[0]}")
    overhead(console, args.repeat, args.positions, args.seed)
    mcts_match(console, args.game, args.iterations, args.games, args.seed)


def _version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


if __name__ == "__main__":
    main()
