"""``zermelo solve connect4``: positions from arguments or standard input."""

from __future__ import annotations

from conftest import run_cli


def test_solve_positions_from_arguments() -> None:
    done = run_cli(
        "solve", "connect4", "2252576253462244111563365343671351441", "--best", "--stats"
    )
    assert done.returncode == 0, done.stderr
    text, score, best, nodes, micros = done.stdout.split()
    assert (text, score, best) == ("2252576253462244111563365343671351441", "-1", "6")
    assert int(nodes) > 0 and float(micros) >= 0


def test_output_matches_the_benchmark_files_format() -> None:
    lines = [
        "2252576253462244111563365343671351441 -1",
        "7422341735647741166133573473242566 1",
        "23163416124767223154467471272416755633 0",
    ]
    done = run_cli("solve", "c4", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == lines


def test_solve_lines_from_stdin_reports_bad_lines_and_goes_on() -> None:
    stdin = "7422341735647741166133573473242566 1\n44x\n\n1212121\n"
    done = run_cli("solve", "connect4", "--weak", stdin=stdin)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "7422341735647741166133573473242566 1"
    assert done.stdout.splitlines()[-1].startswith("1212121 ")
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1
    assert errors[0].startswith("line 2:") and "'44x'" in errors[0]


def test_analyze_connect4_gives_every_column_in_words() -> None:
    done = run_cli("analyze", "connect4", "2252576253462244111563365343671351441")
    assert done.returncode == 0, done.stderr
    rows = {
        cells[0]: cells[1:]
        for line in done.stdout.splitlines()
        if line.count("│") == 3
        for cells in [[c.strip() for c in line.split("│")[1:-1]]]
    }
    # One scale with the page: the moves to the end, not the solver's own score (-1, -2).
    assert rows["1"] == ["full"]
    assert rows["6"] == ["loss in 2"]
    assert rows["7"] == ["loss in 1"]
    assert "Best move: 6" in done.stdout
    assert "Principal variation: 6 7" in done.stdout


def test_analyze_the_empty_board_answers_from_the_book() -> None:
    done = run_cli("analyze", "connect4", "", timeout=30)
    assert done.returncode == 0, done.stderr
    assert "Best move: 4" in done.stdout
    assert "Value: win in 21" in done.stdout
    from zermelo.solvers.connect4.kernel import COMPILED

    line = next(t for t in done.stdout.splitlines() if t.startswith("Principal variation:"))
    if COMPILED:  # the depth-6 book leaves only seconds of search: the whole line is shown
        moves = line.split(":")[1].split()
        assert moves[0] == "4" and len(moves) == 41  # the first player's 21st disc wins
        assert "would take minutes" not in done.stdout
    else:
        assert line == "Principal variation: 4" and "would take minutes" in done.stdout


def test_play_connect4_with_piped_input() -> None:
    # Column 4 over and over: the seventh disc finds the column full and is refused.
    moves = "4\n" * 7 + "x\n" + "".join(f"{c}\n" for c in [3, 3, 3, 5, 5, 5, 2, 6, 1, 7] * 4)
    done = run_cli(
        "play", "connect4", "--first", "human", "--once", "--level", "easy", "--seed", "3",
        stdin=moves,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out[-800:]
    assert out.startswith("Welcome to Connect Four!\n")
    assert "You are 'X' and the AI is 'O'" in out
    assert " 1 2 3 4 5 6 7" in out and "+-------------+" in out
    assert "That column is full! Try again." in out
    assert "Please enter a number between 1 and 7!" in out
    assert out.rstrip().endswith(("AI wins!", "Congratulations! You win!", "It's a tie!"))


def test_a_side_and_a_contradicting_first_are_refused_before_the_game() -> None:
    done = run_cli("play", "connect4", "--human", "O", "--first", "human")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (
        "zermelo: error: in Connect Four, X always moves first: drop --first, or choose the other side"
    )


def test_a_chosen_side_decides_who_starts() -> None:
    done = run_cli("play", "connect4", "--human", "O", "--once", "--seed", "9", stdin="")
    assert "You are 'O' and the AI is 'X'" in done.stdout
    assert done.stdout.index("AI's turn...") < done.stdout.index("Your turn (1-7): ")
