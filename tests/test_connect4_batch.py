"""Batch solving in the kernel (``answer_lines``, what ``zermelo solve connect4`` runs): the same
answers as reading each line in Python, every score the shipped one, and no Python per line."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from c4data import SETS, read_set
from conftest import english_env, run_cli
from zermelo.solvers.connect4 import (
    AnswerBlock,
    Connect4Solver,
    LineOutcome,
    answer_lines,
    solve_lines,
)


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return Connect4Solver(table_bits=18)


def _printed(items: Iterable[AnswerBlock | LineOutcome]) -> str:
    """What the command line prints for these answers (errors marked, with their line)."""
    parts = []
    for item in items:
        if isinstance(item, AnswerBlock):
            parts.append(item.text.decode("ascii"))
        elif item.error is not None:
            parts.append(f"! line {item.line_number}: {item.error}\n")
        else:
            parts.append(f"{item.text} {item.score}\n")
    return "".join(parts)


def _quick_rows() -> list[tuple[str, int]]:
    """Every shipped position that solves in milliseconds: the late and middle sets, the first
    lines of Test_L1_R1, and the positions of Test_L1_R3 the book holds (at most 7 stones)."""
    rows = [row for name in SETS[:3] for row in read_set(name)]
    rows += read_set("Test_L1_R1", 150)
    rows += [row for row in read_set("Test_L1_R3") if len(row[0]) <= 7]
    return rows


def test_the_command_gives_the_shipped_score_of_every_line() -> None:
    rows = _quick_rows()
    stdin = "".join(f"{moves} {score}\n" for moves, score in rows)
    done = run_cli("solve", "connect4", stdin=stdin, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{moves} {score}" for moves, score in rows]
    weak = run_cli("solve", "connect4", "--weak", stdin=stdin, timeout=300)
    signs = [f"{moves} {(score > 0) - (score < 0)}" for moves, score in rows]
    assert weak.returncode == 0 and weak.stdout.splitlines() == signs


def test_answers_come_from_the_kernel_with_no_python_per_line(
    solver: Connect4Solver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Valid ASCII lines are never parsed by Python, nor answered one by one.
    from zermelo.games.connect4 import Connect4State
    from zermelo.solvers.connect4 import batch

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a line went through Python")

    monkeypatch.setattr(Connect4State, "parse", refuse)
    monkeypatch.setattr(batch, "line_outcome", refuse)
    rows = read_set("Test_L3_R1") + read_set("Test_L2_R1", 100)
    lines = [f"{moves} {score}" for moves, score in rows] + ["", "# a comment"]
    items = list(answer_lines(lines, solver=solver, chunk_lines=97))
    assert all(isinstance(item, AnswerBlock) for item in items)
    assert _printed(items).splitlines() == [f"{moves} {score}" for moves, score in rows]
    assert items[-1].line_number == len(lines)


def test_the_command_reads_lines_in_the_kernel() -> None:
    # The same through the command: Python's parser is switched off in the child process.
    rows = read_set("Test_L3_R1", 200)
    code = (
        "import sys\n"
        "from zermelo.games.connect4 import Connect4State\n"
        "def refuse(*args, **kwargs):\n"
        "    raise SystemExit('a line went through Python')\n"
        "Connect4State.parse = refuse\n"
        "from zermelo.cli import main\n"
        "main(['solve', 'connect4'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input="".join(f"{moves}\n" for moves, _ in rows),
        capture_output=True,
        text=True,
        env=english_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{moves} {score}" for moves, score in rows]


def test_bad_and_unusual_lines_keep_their_place(solver: Connect4Solver) -> None:
    late = read_set("Test_L3_R1", 3)
    lines = [
        f"  {late[0][0]}\t{late[0][1]}  ",
        "44x",
        "",
        "   # 123",
        "\u00a04453\u3000junk",  # Unicode spaces: Python's reading of the line
        "1111111",  # the seventh stone in a full column
        "12121212",  # a move after the game was won
        "1212121",  # won by the last move: lost for the side to move
        f"{late[1][0]}\x00",
        "4453\n77",  # an argument with a newline inside: one line
        late[2][0],
    ]
    items = list(answer_lines(lines, solver=solver))
    assert _printed(items) == _printed(solve_lines(lines, solver=solver))
    outcomes = [item for item in items if isinstance(item, LineOutcome)]
    assert [(o.line_number, o.ok) for o in outcomes] == [
        (2, False), (5, True), (6, False), (7, False), (9, False),
    ]  # fmt: skip
    printed = _printed(items).splitlines()
    assert printed[0] == f"{late[0][0]} {late[0][1]}"
    assert printed[2] == "4453 -2" and printed[5] == "1212121 -18"
    assert printed[-2:] == ["4453 -2", f"{late[2][0]} {late[2][1]}"]


def test_the_plain_python_kernel_gives_the_same_answers() -> None:
    rows = read_set("Test_L3_R1", 60) + [r for r in read_set("Test_L1_R3") if len(r[0]) <= 7][:20]
    lines = [moves for moves, _ in rows] + ["44x", "1212121", "\u00a04"]
    compiled = Connect4Solver(table_bits=16)
    plain = Connect4Solver(compiled=False, table_bits=16)
    assert not plain.compiled
    expected = _printed(answer_lines(lines, solver=compiled))
    assert _printed(answer_lines(lines, solver=plain, chunk_lines=7)) == expected
    assert expected.splitlines()[: len(rows)] == [f"{moves} {score}" for moves, score in rows]


_LATE = [moves for moves, _ in read_set("Test_L3_R1")]
_SPACES = " \t\x1f\x0b\x0c\r\u00a0\u2003\u3000\x85"
_FUZZ_SOLVER = Connect4Solver(table_bits=16)
_NO_MIDDLE_DIGITS = st.characters(blacklist_characters="1234567")


def _cheap(lines: list[str]) -> bool:
    """Whether no line is a position of 8 to 19 stones (seconds to solve, each)."""
    words = [line.split()[0] for line in lines if line.split()]
    return not any(8 <= len(w) <= 19 and set(w) <= set("1234567") for w in words)


@st.composite
def _line(draw: st.DrawFn) -> str:
    """A line of a position file, or something like one: a late position (cheap to solve),
    perhaps damaged (characters changed, dropped or added, any Unicode), between spaces of all
    kinds, perhaps followed by a score or anything else, or a comment, or noise."""
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a column digit here and there: never a middle game, which takes seconds
        return draw(st.text(st.one_of(_NO_MIDDLE_DIGITS, st.sampled_from("1234567 ")), max_size=9))
    if kind == 1:
        return draw(st.sampled_from(["", "#", "# 4453", "  #x"]))
    moves = list(draw(st.sampled_from(_LATE)))
    for _ in range(draw(st.integers(0, 3)) if kind >= 3 else 0):
        at = draw(st.integers(0, len(moves) - 1))
        change = draw(st.integers(0, 2))
        char = draw(st.one_of(st.sampled_from("0123456789#"), st.characters()))
        if change == 0:
            moves[at] = char
        elif change == 1:
            del moves[at]
        else:
            moves.insert(at, char)
    if kind == 5:  # cut short, 20 stones or more
        moves = moves[: draw(st.integers(20, len(moves)))]
    before = draw(st.text(_SPACES, max_size=2))
    after = draw(st.one_of(st.just(""), st.text(_SPACES, min_size=1, max_size=2)))
    tail = draw(st.text(max_size=6)) if after else ""
    return before + "".join(moves) + after + tail


@settings(max_examples=150, deadline=None)
@given(st.lists(_line(), max_size=12), st.integers(1, 5))
def test_fuzzed_lines_read_as_python_reads_them(lines: list[str], chunk: int) -> None:
    got = _printed(answer_lines(lines, solver=_FUZZ_SOLVER, chunk_lines=chunk))
    assert got == _printed(solve_lines(lines, solver=_FUZZ_SOLVER))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_fuzzed_bytes_never_give_a_traceback_or_a_wrong_score(data: bytes) -> None:
    # Bytes as the command reads them: UTF-8 lines (the command refuses other bytes first).
    text = data.decode("utf-8", "replace")
    lines = text.splitlines()
    assume(_cheap(lines))
    got = _printed(answer_lines(lines, solver=_FUZZ_SOLVER))
    assert got == _printed(solve_lines(lines, solver=_FUZZ_SOLVER))


def test_random_late_positions_score_as_the_python_reading_does(solver: Connect4Solver) -> None:
    rng = random.Random(22)
    lines = []
    for moves in _LATE[:150]:
        cut = rng.randrange(24, len(moves) + 1)
        lines.append(moves[:cut] + rng.choice(["", " 5", "\t", " x"]))
    assert _printed(answer_lines(lines, solver=solver)) == _printed(
        solve_lines(lines, solver=solver)
    )


def test_a_chunk_size_below_one_is_refused(solver: Connect4Solver) -> None:
    from zermelo.core.errors import BudgetError

    with pytest.raises(BudgetError, match="chunk_lines must be at least 1"):
        list(answer_lines(["4"], solver=solver, chunk_lines=0))
