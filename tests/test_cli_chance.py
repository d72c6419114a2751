"""The command line on the games of chance and hidden information: ``zermelo play`` end to end on
scripted input, ``zermelo analyze`` (expected values, outcome probabilities; hidden games refused
with one line), ``zermelo games`` marking them."""

from __future__ import annotations

import re
from collections.abc import Hashable

import pytest

from conftest import run_cli
from toy_chance import replay_session
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_analyze_refuses_a_hidden_game_with_one_line_naming_solve(game: str) -> None:
    done = run_cli("analyze", game, "")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "hides each side's cards" in done.stderr
    assert f"'zermelo solve {game}'" in done.stderr


def test_a_hidden_game_refuses_save_before_it_starts() -> None:
    done = run_cli("play", "kuhn", "--save", "hand.txt", "--once")
    assert done.returncode == 2
    assert done.stderr == (
        "zermelo: error: Kuhn poker hides the other side's cards, which a saved game would show: "
        "it cannot be saved\n"
    )


def test_the_games_table_marks_chance_hidden_and_points() -> None:
    done = run_cli("games")
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["kuhn"][-1] == "c,h,p"
    assert rows["pig"][-1] == "c"
    assert rows["chess"][-1] == "-"
    assert rows["kuhn"][3] == "·"  # no analyze for a hidden game
    assert re.search(r"^ leduc .* c,h,p\s*$", done.stdout, flags=re.M)
    assert "kind: c chance (dice, deals), h hidden information, p scored in points" in done.stdout
    assert "international-draughts" in done.stdout  # the aliases keep their width


def _replay(
    game: str, seed: int, level: str, script: list[int], **options: int
) -> tuple[list[tuple[bool, str]], Player | None, int, AnyState, Player]:
    """A terminal game replayed without the terminal (:func:`toy_chance.replay_session`), the
    person answering the numbered choices of ``script`` (cycled): the rolls, the winner, the
    number of the person's decisions, the final state and the person's side."""

    def pick(state: AnyState, asked: int) -> Hashable:
        move: Hashable = list(state.legal_moves())[script[asked % len(script)] - 1]
        return move

    rolls, state, human, asked = replay_session(game, seed, pick, level=level, options=options)
    return rolls, state.winner, asked, state, human


@pytest.mark.parametrize(("seed", "level"), [(1, "easy"), (2, "easy"), (3, "medium")])
def test_play_pig_to_the_end_with_the_dice_of_the_seed(seed: int, level: str) -> None:
    script = [1, 1, 2]  # roll, roll, hold
    answers = "".join(f"{n}\n" for n in script * 100)
    done = run_cli(
        "play", "pig", "--goal", "30", "--seed", str(seed), "--level", level, "--once",
        stdin=answers,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    rolls, winner, asked, final, _human = _replay("pig", seed, level, script, goal=30)
    said = [
        (who == "You", face)
        for who, face in re.findall(r"^(You|The AI) rolled (\d+)", out, flags=re.M)
    ]
    assert said == rolls
    assert out.count("Your move (1=roll, 2=hold): ") == asked
    assert ("Congratulations! You win!" in out) == (winner == Player.SECOND)
    assert ("AI wins!" in out) == (winner == Player.FIRST)
    assert "Game over: reached the goal." in out
    totals = re.findall(r"^[ >] [XO] \((?:you|AI)\) +(\d+)", out, flags=re.M)[-2:]
    assert [int(t) for t in totals] == [final.banked(Player.FIRST), final.banked(Player.SECOND)]  # type: ignore[attr-defined]


def test_pig_bad_input_gets_one_line_and_the_game_goes_on() -> None:
    done = run_cli(
        "play", "pig", "--goal", "10", "--seed", "4", "--level", "easy", "--once", "--first",
        "human", stdin="roll dice\n3\n\nh\n" + "1\n2\n" * 40,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'roll dice' is not a choice: type a number 1-2 or one of: roll, hold\n" in out
    assert "'3' is not a choice: type a number 1-2 or one of: roll, hold\n" in out
    assert "Traceback" not in out + done.stderr


def _analysis_rows(out: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in out.splitlines()
        if line.startswith("│")
    ]


def test_analyze_pig_values_each_move_exactly_from_the_solved_table() -> None:
    from zermelo.games.pig import PigState
    from zermelo.solvers.pig import solved_table, win_probability

    done = run_cli("analyze", "pig", "10 15 4 X", "--goal", "20")
    assert done.returncode == 0, done.stderr
    state = get_game("pig").read("10 15 4 X", {"goal": 20})
    assert isinstance(state, PigState)
    table = solved_table(20, 6)
    rows = _analysis_rows(done.stdout)
    assert sorted(row[0] for row in rows) == ["hold", "roll"]
    for row in rows:
        child = state.play(row[0])
        chance = win_probability(table, child)
        value = 2 * (chance if child.to_move is state.to_move else 1 - chance) - 1
        assert row[1] == f"{value:+.4f}"
        assert row[2] == f"{50 * (value + 1):.1f}%"  # P(win) = (v + 1) / 2
    assert "Best move: roll\n" in done.stdout
    chance = win_probability(table, state)
    assert f"Exact, from the game's solved table: P(win) {chance:.4f}.\n" in done.stdout


def test_analyze_pig_at_a_roll_lists_each_face_with_its_probability() -> None:
    done = run_cli("analyze", "pig", "roll", "--goal", "10", "--depth", "3")
    assert done.returncode == 0, done.stderr
    assert "Chance node: each outcome for X" in done.stdout
    rows = _analysis_rows(done.stdout)
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    assert all(row[1] == "0.1667" for row in rows)
    values = [float(row[2]) for row in rows]
    mean = sum(values) / 6
    said = re.search(r"Expected value for X: ([+-][\d.]+)", done.stdout)
    assert said is not None and abs(float(said.group(1)) - mean) < 1e-3
    assert values[0] < 0 < values[-1]  # a 1 loses the turn; a 6 is the best face


def test_analyze_pig_needs_no_depth_since_the_game_is_solved() -> None:
    # A depth expectiminimax could not reach (it refused 40) is no obstacle to the table.
    done = run_cli("analyze", "pig", "", "--goal", "10", "--depth", "40")
    assert done.returncode == 0, done.stderr
    assert "Exact, from the game's solved table: P(win) " in done.stdout


def test_play_backgammon_on_the_command_line_lists_the_plays_and_reads_one() -> None:
    done = run_cli(
        "play", "bg", "--seed", "5", "--level", "easy", "--once", stdin="?\n24/23 24/17\n24/22 24/18\n"
    )  # fmt: skip
    assert done.returncode == 1  # the input ends before the game does
    out = done.stdout
    assert "Opening roll: you 6, the AI 2; you play first.\n" in out
    assert "Legal moves: 24/22 24/18, " in out
    # a play the notation reads but the roll does not allow: one line with the legal plays
    assert "'24/23 24/17' is not legal here; legal moves: 24/22 24/18, 24/16, " in out
    assert re.search(r"\nAI.s turn...\nAI plays (roll|double)\.\n", out)
    assert out.endswith("Input ended before the game was over; goodbye.\n")
    assert " 13 14 15 16 17 18      19 20 21 22 23 24\n" in out
    assert "O (you): 167 pips, 0 on the bar, 0 off\nX (AI): 167 pips, 0 on the bar, 0 off\n" in out


def test_analyze_backgammon_at_the_opening_roll_lists_the_thirty_rolls() -> None:
    done = run_cli("analyze", "backgammon", "")
    assert done.returncode == 0, done.stderr
    rows = _analysis_rows(done.stdout)
    assert len(rows) == 30 and all(row[1] == "0.0333" for row in rows)
    assert "Expected points for X: " in done.stdout  # scored: the value is in points
    assert "-0.0000" not in done.stdout and "P(win)" not in done.stdout


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize(("seed", "level"), [(1, "easy"), (2, "easy"), (3, "hard")])
def test_play_poker_to_the_end_with_the_deal_of_the_seed(game: str, seed: int, level: str) -> None:
    script = [2, 1]  # bet or raise, then pass or call
    answers = "".join(f"{n}\n" for n in script * 20)
    done = run_cli("play", game, "--seed", str(seed), "--level", level, "--once", stdin=answers)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    _rolls, _winner, asked, final, human = _replay(game, seed, level, script)
    assert out.count("Your move (") == asked
    side = get_game(game).sides[human]
    assert f"You are '{side}' and the AI is " in out
    assert "Cards are dealt." in out
    mine = final.payoff() if human == Player.FIRST else -final.payoff()  # type: ignore[attr-defined]
    if mine > 0:
        assert f"Congratulations! You win!\nYou win {mine:g} point" in out
    elif mine < 0:
        assert f"AI wins!\nThe AI wins {-mine:g} point" in out
    else:  # a split pot
        assert "It's a tie!" in out and " point" not in out.split("It's a tie!")[-1]
    assert final.notation() not in out


def test_a_chance_game_with_its_own_engine_is_analysed_by_it() -> None:
    import dataclasses
    import io
    import sys
    from pathlib import Path

    from rich.console import Console

    sys.path.insert(0, str(Path(__file__).parent))
    import toy_chance
    from zermelo.cli.analyze import _analyze_chance
    from zermelo.core.record import Ref

    spec = dataclasses.replace(toy_chance.DICE_SPEC, engine_analysis=Ref("toy_chance:ENGINE"))
    text = io.StringIO()
    out = Console(file=text, force_terminal=False, width=100)
    _analyze_chance(out, spec, toy_chance.DiceState(rolling=True), None, None)
    rows = _analysis_rows(text.getvalue())
    assert rows == [
        ["1", "0.3333", "+0.1000", "55.0%"],
        ["2", "0.3333", "+0.2000", "60.0%"],
        ["3", "0.3333", "+0.3000", "65.0%"],
    ]
    assert "By the game's own engine, depth 1." in text.getvalue()
    text.truncate(0)
    _analyze_chance(out, spec, toy_chance.DiceState(), None, None)
    assert _analysis_rows(text.getvalue()) == [
        ["roll", "+0.2500", "62.5%"],
        ["hold", "-0.5000", "25.0%"],
    ]
    assert "Best move: roll\n" in text.getvalue()
