"""Backgammon's rules: the kernel's plays in positions built for each rule, the cube's money
play, gammon and backgammon payoffs, the notations (read back, any spelling, fuzzed), perft."""

from __future__ import annotations

import dataclasses
import random
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.jit import kernel_variant
from zermelo.core.state import Chance, Payoff, Player, Terminates, payoff_of, sample_outcome
from zermelo.games.backgammon import SPEC, BackgammonMove, Phase, Play, Roll, grid, kernel, perft
from zermelo.games.backgammon.state import BackgammonState
from zermelo.games.registry import get_game

parse = BackgammonState.parse
START = "X 24:2 13:5 8:3 6:5; O 24:2 13:5 8:3 6:5"


def plays(text: str) -> list[str]:
    state = parse(text)
    return sorted(state.format_move(move) for move in state.legal_moves())


# -- the kernel's rules ---------------------------------------------------------------------------


def test_the_opening_rolls_have_the_published_numbers_of_plays() -> None:
    board = kernel.start_board()
    counts = {
        f"{a}{b}": len(kernel.legal(board, a, b)[0]) for a in range(1, 7) for b in range(1, a + 1)
    }
    # the same as OpenSpiel's (tests/test_backgammon_openspiel.py compares every roll)
    assert counts == {
        "11": 42, "21": 15, "22": 75, "31": 16, "32": 17, "33": 73, "41": 14, "42": 18, "43": 17,
        "44": 52, "51": 8, "52": 8, "53": 9, "54": 9, "55": 4, "61": 10, "62": 14, "63": 14,
        "64": 14, "65": 7, "66": 11,
    }  # fmt: skip


def test_swap_pips_and_result() -> None:
    board = kernel.start_board()
    assert kernel.pips(board) == (167, 167)
    assert kernel.swapped(board).tolist() == board.tolist()
    boards, _ = kernel.legal(board, 6, 5)
    run = next(b for b in boards if b[13] == 6 and b[24] == 1)  # 24/13
    assert kernel.pips(run) == (156, 167)
    assert kernel.pips(kernel.swapped(run)) == (167, 156)
    assert kernel.swapped(kernel.swapped(run)).tolist() == run.tolist()
    assert kernel.result(board) == 0


def test_when_only_one_die_can_be_played_it_is_the_larger() -> None:
    # 24/18 or 24/19, never both: O's point (X's 13) stops the second die either way
    assert plays("X 24:1 off:14; O 12:2 3:13; no cube; X to play 65") == ["24/18"]


def test_the_smaller_die_is_played_when_the_larger_cannot_be() -> None:
    # O holds X's 18 and 17: the 6 cannot be played, before or after the 1
    assert plays("X 24:1 off:14; O 7:2 8:2 3:11; no cube; X to play 61") == ["24/23"]


def test_a_roll_that_cannot_be_played_is_a_pass() -> None:
    state = parse("X 24:1 off:14; O 2:2 7:2 3:11; no cube; X to play 61")
    assert state.legal_moves() == [Play(())]
    assert state.format_move(Play(())) == "pass" and state.parse_move("pass") == Play(())
    after = state.play(Play(()))
    assert after.board == state.board and after.to_move is Player.SECOND


def test_checkers_on_the_bar_enter_first() -> None:
    # a closed board: nothing enters, so nothing moves, though 13/7 13/12 would be free
    closed = "X bar:1 13:14; O 24:3 6:2 5:2 4:2 3:2 2:2 1:2; no cube; X to play 61"
    assert plays(closed) == ["pass"]
    # the 1 cannot enter (O holds X's 24); the 6 enters and then the 1 is free
    assert plays("X bar:1 13:14; O 2:13 1:2; no cube; X to play 61") == ["bar/18", "bar/19 13/12"]
    # two on the bar and a 6-5: both dice enter
    assert plays("X bar:2 13:13; O 24:15; no cube; X to play 65") == ["bar/20 bar/19"]


def test_bearing_off_with_a_larger_die_only_from_the_highest_point() -> None:
    # 6-1 with checkers on 5 and 3: the 6 takes the 5 off; or 5/4 and the 6 takes the 4
    assert plays("X 5:1 3:1 off:13; O 24:15; no cube; X to play 61") == ["5/off", "5/off 3/2"]
    # a checker outside the home board bears nothing off until it is home
    assert plays("X 7:1 3:1 off:13; O 13:15; no cube; X to play 65") == ["7/1 3/off", "7/2 3/off"]


def test_a_double_is_played_four_times_and_as_often_as_it_can() -> None:
    four = parse(f"{START}; no cube; X to play 66")
    assert "24/18(2) 13/7(2)" in [four.format_move(m) for m in four.legal_moves()]
    assert all(len(m.steps) == 4 for m in four.legal_moves() if isinstance(m, Play))
    # O holds X's 1: two sixes can be played (13/7 twice), and must be
    assert plays("X 13:2 off:13; O 24:2 13:13; no cube; X to play 66") == ["13/7(2)"]


def test_a_hit_sends_the_blot_to_the_bar_and_is_marked() -> None:
    state = parse("X 8:1 6:14; O 21:1 1:14; no cube; X to play 41")
    assert plays(state.notation()) == [
        "6/1", "6/5 6/2", "8/3", "8/4* 6/5", "8/4*/3", "8/7 6/2"
    ]  # fmt: skip
    hit = state.parse_move("8/4* 6/5")
    after = state.play(hit)
    assert after.notation().startswith("X 6:13 5:1 4:1; O bar:1 1:14;")
    assert state.format_move(hit) == "8/4* 6/5"
    assert state.parse_move("8/4 6/5") == hit  # the hit need not be marked when nothing else fits
    assert state.parse_move("8/4*/3") != state.parse_move("8/7/3") == state.parse_move("8/3")


# -- the cube ------------------------------------------------------------------------------------


def _after_opening(cube: bool = True) -> BackgammonState:
    state = SPEC.new(cube=cube).play(Roll(3, 1))
    assert state.to_move is Player.FIRST and state.dice == (3, 1)
    return state.play(state.parse_move("8/5 6/5"))


def test_no_cube_decision_before_the_opening_roll_and_one_before_each_later_roll() -> None:
    start = SPEC.new()
    assert start.is_chance() and start.phase is Phase.OPENING and len(start.legal_moves()) == 30
    state = _after_opening()
    assert state.to_move is Player.SECOND and state.phase is Phase.DECIDE
    assert state.legal_moves() == ["roll", "double"] and not state.is_chance()
    rolled = state.play("roll")
    assert (
        rolled.is_chance() and rolled.to_move is Player.SECOND and len(rolled.legal_moves()) == 21
    )


def test_a_taken_double_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    state = _after_opening().play("double")
    assert state.phase is Phase.DOUBLED and state.to_move is Player.FIRST
    assert state.legal_moves() == ["take", "drop"]
    taken = state.play("take")
    assert (taken.cube, taken.owner) == (2, Player.FIRST)
    # the doubler rolls at once, and may not double again: the taker owns the cube
    assert taken.phase is Phase.ROLL and taken.to_move is Player.SECOND
    moved = taken.play(Roll(2, 1))
    moved = moved.play(moved.legal_moves()[0])
    assert moved.to_move is Player.FIRST and moved.phase is Phase.DECIDE  # the owner may redouble
    redoubled = moved.play("double").play("take")
    assert (redoubled.cube, redoubled.owner) == (4, Player.SECOND)
    assert "cube 4 O" in redoubled.notation()
    again = redoubled.play(Roll(6, 5))
    again = again.play(again.legal_moves()[0])
    assert again.to_move is Player.SECOND and again.phase is Phase.DECIDE


def test_a_dropped_double_loses_the_cube_before_the_double() -> None:
    state = _after_opening().play("double").play("take")  # 2, X owns
    state = state.play(Roll(2, 1))
    state = state.play(state.legal_moves()[0]).play("double")  # X redoubles to 4
    assert state.to_move is Player.SECOND
    dropped = state.play("drop")
    assert dropped.is_terminal() and dropped.legal_moves() == []
    assert dropped.winner is Player.FIRST and dropped.payoff() == 2.0 and payoff_of(dropped) == 2
    # the side to move of the finished game is the doubler, who would roll next: searches that
    # turn a child's value by the side to move see a won game for the side that doubled
    assert dropped.to_move is Player.FIRST and dropped.evaluate() == 2.0
    assert dropped.termination() == "double dropped"
    assert dropped.notation().endswith("cube 2 X; O drops")
    assert parse(dropped.notation()).key() == dropped.key()
    with pytest.raises(IllegalMoveError):
        dropped.play("take")


def test_the_cube_stops_at_64_and_is_absent_without_the_option() -> None:
    top = parse(f"{START}; cube 64 O; O to roll")
    assert top.phase is Phase.ROLL and top.is_chance()
    with pytest.raises(IllegalMoveError):
        top.play("double")
    assert not parse(f"{START}; cube 32 O; O to roll").is_chance()
    plain = _after_opening(cube=False)
    assert plain.phase is Phase.ROLL and "no cube" in plain.notation()
    with pytest.raises(IllegalMoveError):
        plain.play("double")
    with pytest.raises(InvalidPositionError):
        parse(f"{START}; no cube; X doubles")
    with pytest.raises(InvalidPositionError):
        parse(f"{START}; cube 2 X; O doubles")  # X owns the cube: O may not double


@pytest.mark.parametrize(
    ("text", "points", "reason"),
    [
        ("X off:15; O 6:14 off:1; cube 1; X wins", 1, "all checkers borne off"),
        ("X off:15; O 6:15; cube 1; X wins", 2, "gammon"),
        ("X off:15; O 24:1 6:14; cube 1; X wins", 3, "backgammon"),  # O's 24: X's home
        ("X off:15; O bar:1 6:14; cube 1; X wins", 3, "backgammon"),
        ("X off:15; O 6:15; cube 4 O; X wins", 8, "gammon"),
        ("X 19:15; O off:15; cube 2 X; O wins", -6, "backgammon"),
        ("X 6:1 5:14; O off:15; no cube; O wins", -2, "gammon"),
    ],
)
def test_payoffs_count_gammons_backgammons_and_the_cube(
    text: str, points: int, reason: str
) -> None:
    state = parse(text)
    assert isinstance(state, Payoff) and isinstance(state, Terminates)
    assert state.is_terminal() and state.payoff() == points and state.termination() == reason
    assert state.winner is (Player.FIRST if points > 0 else Player.SECOND)
    assert state.notation() == text


def test_bearing_off_the_last_checker_ends_the_game() -> None:
    state = parse("X 2:1 off:14; O 6:15; cube 2 O; X to play 21")
    assert [state.format_move(m) for m in state.legal_moves()] == ["2/off"]
    over = state.play(state.legal_moves()[0])
    assert over.is_terminal() and over.payoff() == 4.0 and over.termination() == "gammon"


# -- notation ------------------------------------------------------------------------------------


def test_any_spelling_of_a_legal_play_reads_as_it() -> None:
    state = parse(f"{START}; cube 1; X to play 62")
    for spelling in ("24/16", "24/18/16", "24/22/16", "24/18 18/16", "24/22 22/16", " 24/16 "):
        assert state.format_move(state.parse_move(spelling)) == "24/16"
    assert state.parse_move("13/7, 24/22") == state.parse_move("24/22 13/7")
    doubles = parse(f"{START}; cube 1; X to play 66")
    assert doubles.format_move(doubles.parse_move("13/7 13/7 24/18 24/18")) == "24/18(2) 13/7(2)"
    assert doubles.parse_move("8/2(2) 24/18(2)") == doubles.parse_move("24/18 8/2, 8/2 24/18")
    entering = parse("X bar:1 24:1 6:13; O 24:2 13:13; cube 1; X to play 31")
    assert entering.parse_move("bar/22 24/23") == entering.parse_move("25/22 24/23")
    off = parse("X 6:1 5:14; O 1:15; cube 1; X to play 61")
    assert off.parse_move("6/off 5/4") == off.parse_move("6/0 5/4")


def test_a_hit_on_the_way_is_shown_and_chooses_between_routes() -> None:
    # 24/18*/16 hits the blot on 18; 24/22/16 does not: two plays, told apart by the *
    state = parse("X 24:1 6:14; O 7:1 2:14; cube 1; X to play 62")
    texts = [state.format_move(m) for m in state.legal_moves()]
    assert "24/18*/16" in texts and "24/16" in texts
    assert state.parse_move("24/18*/16") != state.parse_move("24/16")
    assert state.format_move(state.parse_move("24/16")) == "24/16"
    assert state.format_move(state.parse_move("24/18*/16")) == "24/18*/16"
    # both ways hit (blots on 18 and 22): the text must say where
    both = parse("X 24:1 6:14; O 7:1 3:1 2:13; cube 1; X to play 62")
    with pytest.raises(ParseError, match="could be 24/18\\*/16 or 24/22\\*/16"):
        both.parse_move("24/16")
    assert both.format_move(both.parse_move("24/22*/16")) == "24/22*/16"


def test_illegal_and_unreadable_plays_get_one_line() -> None:
    state = parse(f"{START}; cube 1; X to play 62")
    # parsing reads the notation; playing says the play is not legal
    assert state.parse_move("24/20") == Play(((24, 20),))
    with pytest.raises(IllegalMoveError, match="24/20 is not a legal play of 62; legal plays: "):
        state.play(state.parse_move("24/20"))
    with pytest.raises(IllegalMoveError, match="bar/22 is not a legal play"):
        state.play(state.parse_move("bar/22"))
    with pytest.raises(ParseError, match="hits where the"):
        state.parse_move("24/16*")
    for bad in ("24-18", "24/30", "18/24", "off/3", "24/18(7)", "", "24/18*/off*"):
        with pytest.raises(ParseError):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError):
        state.play("double")
    with pytest.raises(IllegalMoveError):
        state.play(Play(((24, 20),)))
    with pytest.raises(IllegalMoveError):
        state.play(Roll(3, 3))


def test_rolls_and_cube_words() -> None:
    opening = SPEC.new()
    assert opening.parse_move("25") == Roll(2, 5) and opening.parse_move("52") == Roll(5, 2)
    assert opening.play(Roll(2, 5)).to_move is Player.SECOND
    with pytest.raises(ParseError):
        opening.parse_move("33")
    rolling = parse(f"{START}; cube 1; O rolls")
    assert rolling.parse_move("25") == Roll(5, 2) == rolling.parse_move("5-2")
    assert rolling.format_move(Roll(5, 2)) == "52"
    doubled = parse(f"{START}; cube 1; X doubles")
    assert doubled.parse_move("pass") == "drop" and doubled.parse_move("Take") == "take"


def test_positions_read_back_along_random_games() -> None:
    rng = random.Random(11)
    for _ in range(12):
        state = SPEC.new()
        while not state.is_terminal():
            text = state.notation()
            again = parse(text)
            assert again.key() == state.key() and again.notation() == text
            assert again.legal_moves() == state.legal_moves()
            move: BackgammonMove
            if state.is_chance():
                move = cast(Roll, sample_outcome(state, rng))
            else:
                moves = state.legal_moves()
                move = rng.choice(moves)
                if move == "double" and rng.random() < 0.7:
                    move = "roll"
                if move == "drop" and rng.random() < 0.7:
                    move = "take"
            assert state.parse_move(state.format_move(move)) == move
            state = state.play(move)
        assert parse(state.notation()).key() == state.key()


def test_the_record_and_the_board() -> None:
    assert get_game("bg") is SPEC and SPEC.chance and SPEC.scored and SPEC.board == "backgammon"
    state = SPEC.new()
    assert isinstance(state, Chance)
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    board = grid(
        parse("X bar:1 24:1 13:5 8:3 6:5; O 24:2 13:5 8:3 6:4 off:1; cube 2 O; O to play 52")
    )
    assert len(board.cells) == 2 and all(len(row) == 14 for row in board.cells)
    assert board.cells[0][11] == "X1" and board.cells[0][12] == "X1"  # X's 24, X's bar
    assert board.cells[1][11] == "O2" and board.cells[1][13] == "O1"  # X's 1 is O's 24; O's tray
    assert board.cells[0][0] == "X5" and board.cells[1][0] == "O5"  # X's 12 is O's 13
    assert board.moves is not None
    assert board.moves[1][11] == "24" and board.moves[1][12] == "bar" and board.moves[0][12] is None
    assert dict(board.facts) == {
        "to move": "O",
        "dice": "52",
        "cube": "2 O",
        "pips": "X 168, O 161",
    }


def test_evaluate_is_in_points_from_the_side_to_move() -> None:
    ahead = parse("X 6:15; O 24:15; cube 2 X; X to roll")
    behind = parse("X 6:15; O 24:15; cube 2 X; O rolls")
    assert 0 < ahead.evaluate() <= 2 and -2 <= behind.evaluate() < 0
    over = parse("X off:15; O 6:15; cube 2 X; X wins")
    assert over.evaluate() == -4.0  # O would move next, and lost a gammon at 2


# -- perft ---------------------------------------------------------------------------------------


def test_perft_with_fixed_rolls() -> None:
    """The rolls replace the dice of the position; each side plays the next one in turn."""
    start = parse(f"{START}; no cube; X to play 31")
    assert perft(start, "31") == 16
    assert perft(start, "31 52") == 157 == perft_reference(start, ["31", "52"])
    assert perft(start, "31 52 66") == 1982
    assert perft(start, "21 11 66 54") == 115849


def perft_reference(state: BackgammonState, rolls: list[str]) -> int:
    """perft by the state's own moves (no cube): the count the kernel's perft must equal."""
    if not rolls or state.is_terminal():
        return 1
    high, low = sorted((int(rolls[0][0]), int(rolls[0][1])), reverse=True)
    if state.phase is Phase.ROLL:
        state = state.play(Roll(high, low))
    else:
        state = dataclasses.replace(state, dice=(high, low), _cache={})
    return sum(perft_reference(state.play(move), rolls[1:]) for move in state.legal_moves())


def test_perft_refuses_bad_input() -> None:
    start = parse(f"{START}; no cube; X rolls")
    for bad in ("", "77", "31 5", "1 2 3 4 5 6 7"):
        with pytest.raises(ParseError):
            perft(start, bad)


# -- fuzz ----------------------------------------------------------------------------------------

MOVE_WORDS = st.sampled_from(
    ["24", "18", "13", "8", "6", "5", "1", "0", "25", "bar", "off", "/", "*", "(2)", "(4)", " ",
     ",", "roll", "double", "take", "drop", "pass", "5", "2", "-", "((", "x", "99", "/off*"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=40), st.lists(MOVE_WORDS, max_size=12).map("".join)))
def test_fuzz_the_move_parser(text: str) -> None:
    for state in FUZZ_STATES:
        try:
            move = state.parse_move(text)
        except ZermeloError as error:
            assert isinstance(error, ParseError | IllegalMoveError)
            assert "\n" not in str(error) and str(error)
            continue
        try:
            state.play(move)
        except IllegalMoveError as error:
            assert "\n" not in str(error)


FUZZ_STATES = [
    parse(f"{START}; cube 1; X to play 62"),
    parse(f"{START}; cube 1; X to play 33"),
    parse("X bar:2 6:13; O 24:2 18:2 13:11; cube 1; X to play 61"),
    parse(f"{START}; cube 1; X doubles"),
    parse(f"{START}; cube 1; opening"),
    parse(f"{START}; cube 1; O rolls"),
]

POSITION_WORDS = st.sampled_from(
    ["X", "O", " ", ";", "24:2", "13:5", "8:3", "6:5", "bar:1", "off:15", "off:1", "cube", "1",
     "2", "64", "no cube", "to roll", "rolls", "to play 52", "doubles", "drops", "wins",
     "opening", ":", "6:15", "24:99", "0:1"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=80),
        st.lists(POSITION_WORDS, max_size=25).map(" ".join),
        st.lists(POSITION_WORDS, max_size=8).map(lambda w: f"{START}; " + " ".join(w)),
    )
)
def test_fuzz_the_position_parser(text: str) -> None:
    try:
        state = parse(text)
    except ZermeloError as error:
        assert isinstance(error, ParseError | InvalidPositionError)
        assert "\n" not in str(error) and str(error)
        return
    assert parse(state.notation()).key() == state.key()
    values = np.frombuffer(state.board, np.int8)
    assert int(values[[0, 25]].sum() + values[1:25][values[1:25] > 0].sum()) == 15


def test_the_plain_python_kernel_agrees_with_the_compiled_one() -> None:
    plain = kernel_variant(kernel, False, "backgammon kernel")
    assert not plain.COMPILED
    rng = random.Random(5)
    fast_buffers, slow_buffers = kernel.new_buffers(), plain.new_buffers()
    board = kernel.start_board()
    for _ in range(150):
        if kernel.result(board) != 0:
            board = kernel.start_board()
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        n = kernel.gen_moves(board, d1, d2, *fast_buffers)
        m = plain.gen_moves(board, d1, d2, *slow_buffers)
        assert n == m
        assert fast_buffers[0][:n].tolist() == slow_buffers[0][:n].tolist()
        assert fast_buffers[1][:n].tolist() == slow_buffers[1][:n].tolist()
        assert plain.pips(board) == kernel.pips(board)
        board = kernel.swapped(fast_buffers[0][rng.randrange(n)])


def test_the_start_is_the_kernels() -> None:
    assert BackgammonState.initial().board == kernel.start_board().tobytes()
