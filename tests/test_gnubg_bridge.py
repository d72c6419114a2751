"""The gnubg bridge without gnubg: recorded answers, the board mapping, fake processes."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.gnubg import (
    GnubgError,
    GnubgProcess,
    apply_hops,
    gnubg_board,
    parse_eval_reply,
    parse_move_reply,
    request_line,
)
from zermelo.games.backgammon import kernel as rules

# gnubg.positionfromid("4HPwATDgc/ABMA"), the opening position, as gnubg 1.07 printed it
GNUBG_START_SIDE = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def test_the_start_maps_to_gnubgs_board() -> None:
    assert gnubg_board(rules.start_board()) == GNUBG_START_SIDE + GNUBG_START_SIDE


def test_an_asymmetric_board_maps_each_side_from_its_own_view() -> None:
    board = np.zeros(28, dtype=np.int8)
    board[6] = 2  # the roller's six point
    board[25] = 1  # the roller's bar
    board[1] = -2  # the opponent's 24 point (its own view)
    board[22] = -3  # the opponent's 3 point
    board[26] = 1  # the opponent's bar
    board[0], board[27] = 12, 9  # the trays: not gnubg's business
    theirs, mine = gnubg_board(board)[:25], gnubg_board(board)[25:]
    assert mine[5] == 2 and mine[24] == 1 and sum(mine) == 3
    assert theirs[23] == 2 and theirs[2] == 3 and theirs[24] == 1 and sum(theirs) == 6
    line = request_line(board, (6, 5))
    assert line.split()[0] == "move" and line.split()[-2:] == ["6", "5"]
    assert len(line.split()) == 53


# answers gnubg 1.07 gave at 0-ply from the opening position (and one bar entry)
RECORDED = {
    "ok 8 5 6 5": [(8, 5), (6, 5)],
    "ok 24 18 24 18 13 7 13 7": [(24, 18), (24, 18), (13, 7), (13, 7)],
    "ok 13 8 24 22": [(13, 8), (24, 22)],
    "ok 25 19 19 14": [(25, 19), (19, 14)],
    "ok 6 0 6 0 6 0 6 0": [(6, 0)] * 4,
    "ok 1 0 1 0 0 0 0 0": [(1, 0), (1, 0)],
    "ok": [],
}


@pytest.mark.parametrize("line", sorted(RECORDED))
def test_recorded_answers_parse(line: str) -> None:
    assert parse_move_reply(line) == RECORDED[line]


def test_recorded_hops_play_the_book_moves() -> None:
    start = rules.start_board()
    after = apply_hops(start, parse_move_reply("ok 8 5 6 5"))
    boards, _steps = rules.legal(start, 3, 1)
    assert after.tobytes() in {board.tobytes() for board in boards}
    assert after[5] == 2 and after[8] == 2 and after[6] == 4
    doubled = apply_hops(start, parse_move_reply("ok 24 18 24 18 13 7 13 7"))
    assert doubled[24] == 0 and doubled[18] == 2 and doubled[7] == 2 and doubled[13] == 3
    off = np.zeros(28, dtype=np.int8)
    off[3] = 1
    borne = apply_hops(off, [(3, 0)])
    assert borne[3] == 0 and borne[0] == 1


def test_a_hop_that_hits_sends_the_blot_to_the_bar() -> None:
    board = np.zeros(28, dtype=np.int8)
    board[8] = 1
    board[3] = -1
    after = apply_hops(board, [(8, 3)])
    assert after[3] == 1 and after[26] == 1 and after[8] == 0


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("error dice must be 1 to 6", "did not answer"),
        ("", "did not answer"),
        ("ok x y", "not numbers"),
        ("ok 8 5 6", "not 1 to 4 hops"),
        ("ok 3 8", "impossible hop"),
        ("ok 26 20", "impossible hop"),
        ("ok 13 2", "impossible hop"),
        ("ok 1 0 1 0 1 0 1 0 1 0", "not 1 to 4 hops"),
    ],
)
def test_bad_answers_are_one_line(line: str, words: str) -> None:
    with pytest.raises(GnubgError, match=words) as caught:
        parse_move_reply(line)
    assert "\n" not in str(caught.value)


def test_illegal_hops_are_refused() -> None:
    start = rules.start_board()
    with pytest.raises(GnubgError, match="has none"):
        apply_hops(start, [(20, 15)])
    with pytest.raises(GnubgError, match="holds"):
        apply_hops(start, [(13, 12)])  # the opponent's 13 point is the mover's 12: 5 there


def test_evaluation_answers() -> None:
    line = "ok 0.521483 0.153909 0.007563 0.129867 0.007548 0.067024"
    assert parse_eval_reply(line)[0] == pytest.approx(0.521483)
    with pytest.raises(GnubgError):
        parse_eval_reply("ok 1 2")
    with pytest.raises(GnubgError):
        parse_eval_reply("ok a b c d e f")


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=80)
    | st.lists(st.integers(-3, 30), max_size=10).map(lambda xs: "ok " + " ".join(map(str, xs)))
)
def test_fuzz_answers_parse_or_refuse(line: str) -> None:
    try:
        hops = parse_move_reply(line)
    except GnubgError as error:
        assert "\n" not in str(error)
    else:
        assert all(1 <= a <= 25 and 0 <= b < a and a - b <= 6 for a, b in hops)
    with contextlib.suppress(GnubgError):
        parse_eval_reply(line)


def _fake(tmp_path: Path, body: str) -> str:
    """An executable standing in for gnubg (a Python script ignoring gnubg's arguments)."""
    path = tmp_path / "fake-gnubg"
    path.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_a_missing_gnubg_is_one_line() -> None:
    with pytest.raises(GnubgError, match="not installed"):
        GnubgProcess(binary="/nonexistent/gnubg")


def test_a_gnubg_that_dies_is_one_line(tmp_path: Path) -> None:
    fake = _fake(tmp_path, 'print("zermelo-gnubg ready 1", flush=True)\nsys.stdin.readline()')
    process = GnubgProcess(binary=fake, timeout=20)
    with pytest.raises(GnubgError, match="gnubg exited"):
        process.best_move(rules.start_board(), (3, 1))
    process.close()


def test_a_silent_gnubg_times_out(tmp_path: Path) -> None:
    fake = _fake(tmp_path, 'print("zermelo-gnubg ready 1", flush=True)\ntime.sleep(30)')
    process = GnubgProcess(binary=fake, timeout=0.5)
    with pytest.raises(GnubgError, match="did not answer within"):
        process.best_move(rules.start_board(), (3, 1))
    process.close()


def test_a_gnubg_that_never_starts_times_out(tmp_path: Path) -> None:
    fake = _fake(tmp_path, "time.sleep(30)")
    with pytest.raises(GnubgError, match="did not start within"):
        GnubgProcess(binary=fake, start_timeout=0.5)


def test_a_fake_gnubg_answers_through_the_protocol(tmp_path: Path) -> None:
    body = (
        'print("zermelo-gnubg ready 1", flush=True)\n'
        "for line in sys.stdin:\n"
        "    words = line.split()\n"
        '    if words[0] == "quit": break\n'
        "    assert len(words) == 53, words\n"
        '    print("ok 8 5 6 5", flush=True)'
    )
    with GnubgProcess(binary=_fake(tmp_path, body), timeout=20) as process:
        assert process.best_move(rules.start_board(), (3, 1)) == [(8, 5), (6, 5)]
        script = process._script
        assert os.path.exists(script)
    assert not os.path.exists(script)


def test_recorded_cube_answers() -> None:
    # gnubg 1.07's cubeful 0-ply money equities of the opening position, cube centred
    _best, hold, take, drop = parse_eval_reply("ok 0.091955 0.091955 -0.191344 1.000000", 4)
    assert min(take, drop) < hold  # no double
    with pytest.raises(GnubgError):
        parse_eval_reply("ok nan 0.1 0.2 1.0", 4)
    with pytest.raises(GnubgError):
        parse_eval_reply("ok 0.1 0.2 1.0", 4)
