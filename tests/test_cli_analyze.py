"""``zermelo analyze``: ``--time`` is the whole answer's budget in every game, each completed depth
is shown as it comes, and positions and rule options are taken as ``play`` and ``explain`` take
them."""

from __future__ import annotations

import re
import time

from conftest import run_cli
from zermelo.games.registry import get_game
from zermelo.search import analyze_position
from zermelo.search.alphabeta import alphabeta


def _seconds(command: tuple[str, ...]) -> tuple[float, str]:
    started = time.perf_counter()
    done = run_cli(*command)
    assert done.returncode == 0, done.stderr
    return time.perf_counter() - started, done.stdout


def test_the_time_is_the_whole_answers_budget_on_a_wide_board() -> None:
    # Each of the 221 moves searched for the whole --time took 49.5 s for --time 2. The start-up of
    # a Python process and the first build of gomoku's line tables come on top of the budget.
    startup, _ = _seconds(("analyze", "tictactoe", "X........", "--depth", "1"))
    elapsed, out = _seconds(("analyze", "gomoku", "h8 h9 i9 g7", "--time", "1"))
    assert elapsed < startup + 1 + 4, (elapsed, startup)
    depths = [int(d) for d in re.findall(r"^depth (\d+): ", out, re.MULTILINE)]
    assert depths and depths == list(range(1, len(depths) + 1))
    reached = re.search(r"depth (\d+), [\d.]+ ms$", out, re.MULTILINE)
    assert reached is not None and int(reached.group(1)) == depths[-1]


def test_every_depth_shown_is_the_answer_of_that_depth() -> None:
    spec = get_game("checkers")
    state = spec.new()
    seen = []
    result = analyze_position(state, time_limit=0.5, on_depth=seen.append)
    assert [found.depth for found in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].moves == result.moves and result.depth == seen[-1].depth
    # Each completed depth values every move as a fixed-depth search of that move would.
    depth = seen[-1].depth
    for entry in seen[-1].moves:
        alone = alphabeta(state.play(entry.move), depth=depth - 1) if depth > 1 else None
        if alone is not None and not entry.exact:
            assert entry.value == -alone.value


def test_the_budget_is_shared_in_games_without_an_evaluation() -> None:
    # Tic-tac-toe has no evaluation: each move gets its share of what is left, and the empty
    # board is still solved exactly well within a second.
    result = analyze_position(get_game("tictactoe").new(), time_limit=1.0)
    assert result.exact and result.value == 0 and len(result.moves) == 9
    assert result.stats.elapsed < 1.5


def test_moves_and_rule_options_are_taken_as_play_takes_them() -> None:
    done = run_cli("analyze", "connect4", "--width", "5", "--height", "4", "33")
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^│\s+(\d)\s+│", done.stdout, re.MULTILINE)
    assert rows == ["1", "2", "3", "4", "5"]
    bad = run_cli("analyze", "connect4", "--width", "99")
    assert bad.returncode == 2 and "expected a number from" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
