"""Pig: the rules, the notation (fuzzed), the record and the board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.record import Grid, IntOption
from zermelo.core.state import (
    Chance,
    Player,
    Terminates,
    is_chance,
    payoff_of,
    same_side,
    sample_outcome,
)
from zermelo.games.pig import SPEC, PigState
from zermelo.games.registry import get_game

X, O = Player.FIRST, Player.SECOND  # noqa: E741 - the sides' marks


def test_the_registry_knows_pig_as_a_chance_game() -> None:
    spec = get_game("pig")
    assert spec is SPEC
    assert spec.chance and not spec.hidden and not spec.scored
    assert spec.board == "dice"
    assert [
        (o.name, o.low, o.high, o.default) for o in spec.options if isinstance(o, IntOption)
    ] == [
        ("goal", 2, 1000, 100),
        ("die", 2, 20, 6),
    ]
    assert spec.game_solver is not None
    state = spec.new(goal=50, die=4, first=O)
    assert state == PigState(0, 0, 0, O, False, 50, 4)


def test_a_turn_rolls_banks_and_passes() -> None:
    state = PigState.initial()
    assert state.legal_moves() == ["roll", "hold"]
    assert not is_chance(state)
    rolling = state.play("roll")
    assert is_chance(rolling) and isinstance(rolling, Chance)
    assert rolling.to_move is X  # the roller
    assert rolling.legal_moves() == ["1", "2", "3", "4", "5", "6"]
    assert [o for o, _ in rolling.chance_outcomes()] == rolling.legal_moves()
    assert sum(p for _, p in rolling.chance_outcomes()) == pytest.approx(1.0)
    four = rolling.play("4")
    assert (four.turn, four.to_move, four.last) == (4, X, 4)
    assert same_side(rolling, four)
    five = four.play("roll").play("5")
    assert five.turn == 9
    held = five.play("hold")
    assert (held.first, held.second, held.turn, held.to_move) == (9, 0, 0, O)
    assert not same_side(five, held)
    pig_out = held.play("roll").play("3").play("roll").play("1")
    assert (pig_out.first, pig_out.second, pig_out.turn, pig_out.to_move) == (9, 0, 0, X)
    assert pig_out.ply == 9


def test_the_first_to_bank_the_goal_wins() -> None:
    state = PigState.parse("8 3 4 X goal=10")
    assert not state.is_terminal()
    won = state.play("hold")
    assert won.is_terminal() and won.winner is X and won.to_move is O
    assert won.legal_moves() == []
    assert payoff_of(won) == 1.0
    assert isinstance(won, Terminates) and won.termination() == "reached the goal"
    with pytest.raises(IllegalMoveError, match="game is over"):
        won.play("roll")
    # Rolling past the goal does not win: the points count once banked.
    past = PigState.parse("8 3 4 X roll goal=10").play("6")
    assert not past.is_terminal() and past.turn == 10


def test_illegal_moves_are_one_line_errors() -> None:
    state = PigState.initial()
    with pytest.raises(IllegalMoveError, match="expected roll or hold"):
        state.play("3")
    with pytest.raises(IllegalMoveError, match="face from 1 to 6"):
        state.play("roll").play("7")
    with pytest.raises(IllegalMoveError, match="face from 1 to 6"):
        state.play("roll").play("hold")


def test_notation_reads_back_and_says_what_is_wrong() -> None:
    assert PigState.initial().notation() == "0 0 0 X"
    state = PigState.parse("35 60 12 O roll last=5 goal=80")
    assert (state.first, state.second, state.turn, state.to_move, state.rolling) == (
        35, 60, 12, O, True,
    )  # fmt: skip
    assert (state.goal, state.die, state.last) == (80, 6, 5)
    assert state.notation() == "35 60 12 O roll last=5 goal=80"
    assert PigState.parse("1 2 0 x die=3").die == 3
    for text, expected in [
        ("", "expected FIRST SECOND"),
        ("1 2 3", "expected FIRST SECOND"),
        ("a 2 3 X", "'a' is not a score"),
        ("1 2 3 Z", "side to move 'Z'"),
        ("1 2 3 X goal=1", "goal must be from 2 to 1000"),
        ("1 2 3 X die=21", "die must have from 2 to 20"),
        ("1 2 3 X last=7", "last roll 7"),
        ("1 2 3 X goal=5 goal=6", "unexpected 'goal=6'"),
        ("1 2 3 X roll roll", "unexpected 'roll'"),
        ("100 100 0 X", "both players"),
        ("100 3 0 X", "the loser is to move"),
        ("100 3 5 O", "the loser is to move"),
    ]:
        with pytest.raises((ParseError, InvalidPositionError), match=expected):
            PigState.parse(text)


def test_moves_read_in_words_and_letters() -> None:
    state = PigState.initial()
    assert [state.parse_move(t) for t in ("roll", "R", " h ", "HOLD", "6", "06")] == [
        "roll", "roll", "hold", "hold", "6", "6",
    ]  # fmt: skip
    for text in ("", "0", "21", "rolls", "٣", "1.0"):
        with pytest.raises(ParseError, match="expected roll, hold or a face"):
            state.parse_move(text)


def test_the_dice_board_and_its_facts() -> None:
    state = PigState.parse("12 30 7 O roll last=3")
    grid = SPEC.grid(state)
    assert isinstance(grid, Grid)
    assert grid.cells == (("12", "30", "7", "3"),)
    assert grid.files == ("X", "O")
    facts = dict(grid.facts)
    assert facts["to move"] == "O" and facts["turn total"] == "7" and facts["goal"] == "100"
    assert facts["the die"] == "rolling"
    assert SPEC.grid(PigState.initial()).cells == (("0", "0", "0", ""),)


def test_the_options_board_reads_a_position_on_its_rules() -> None:
    state = SPEC.read("3 4 0 X", {"goal": 20, "die": 4})
    assert (state.goal, state.die) == (20, 4)
    assert SPEC.read("3 4 0 X goal=30", {"goal": 20}).goal == 30
    with pytest.raises(InvalidPositionError, match="loser is to move"):
        SPEC.read("25 4 0 X", {"goal": 20})


def test_the_evaluation_is_a_value_in_the_payoff_scale() -> None:
    assert PigState.parse("0 0 0 X").evaluate() == pytest.approx(0.0)
    assert PigState.parse("95 0 5 X").evaluate() == 1.0  # hold and win
    assert PigState.parse("0 50 0 X").evaluate() == pytest.approx(2 * 50 / 150 - 1)
    assert PigState.parse("0 50 0 X").value_bounds() == (-1.0, 1.0)


def test_a_seeded_game_plays_to_the_end_and_replays() -> None:
    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        state = PigState.initial(goal=30)
        moves = []
        while not state.is_terminal():
            if is_chance(state):
                move = str(sample_outcome(state, rng))
            else:
                move = "hold" if state.turn >= 10 else "roll"
            moves.append(move)
            state = state.play(move)
        return moves

    moves = play(7)
    assert moves == play(7)
    state = PigState.initial(goal=30)
    for move in moves:
        state = state.play(state.parse_move(state.format_move(move)))
    assert state.is_terminal() and state.winner is not None


states = st.builds(
    PigState,
    first=st.integers(0, 99),
    second=st.integers(0, 99),
    turn=st.integers(0, 120),
    to_move=st.sampled_from(list(Player)),
    rolling=st.booleans(),
    goal=st.just(100),
    die=st.integers(2, 20),
    last=st.integers(0, 2),
)


@settings(max_examples=300, deadline=None)
@given(states)
def test_every_position_reads_back_from_its_notation(state: PigState) -> None:
    again = PigState.parse(state.notation())
    assert again == state and again.last == state.last
    assert again.key() == state.key()


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_fuzz_positions_parse_or_fail_in_one_line(text: str) -> None:
    try:
        state = PigState.parse(text)
    except ZermeloError as error:
        assert "\n" not in str(error)
    else:
        assert PigState.parse(state.notation()) == state


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["0", "1", "2", "3", "X", "O", "x", "roll", "goal=", "die=", "last="])
        | st.integers(0, 10**8).map(str),
        max_size=9,
    )
)
def test_fuzz_position_words(words: list[str]) -> None:
    text = " ".join(words).replace("= ", "=")
    try:
        state = PigState.parse(text)
    except ZermeloError as error:
        assert "\n" not in str(error)
    else:
        assert PigState.parse(state.notation()) == state


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_fuzz_moves_parse_or_fail_in_one_line(text: str) -> None:
    state = PigState.initial()
    try:
        move = state.parse_move(text)
    except ParseError as error:
        assert "\n" not in str(error)
    else:
        assert move in {"roll", "hold"} | {str(face) for face in range(1, 21)}
