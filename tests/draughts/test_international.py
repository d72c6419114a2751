"""International draughts as a zermelo game: the FMJD draw rules, the maximum capture, the
notation, PDN FEN, PDN files and the commands that read them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zermelo.cli import main
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.games.draughts.international import (
    ENDGAME_5,
    ENDGAME_16,
    INITIAL_FEN,
    QUIET_PLIES,
    SPEC,
    InternationalState,
)
from zermelo.games.draughts.openings import INTERNATIONAL_OPENINGS
from zermelo.games.draughts.pdn import INTERNATIONAL_PDN
from zermelo.games.registry import get_game

S = InternationalState


def _quiet_walk(state: S, plies: int, *, kings_only: bool = False) -> list[S]:
    """``plies`` moves from ``state``, none a capture, none allowing one, none repeating a
    position (and only king moves with ``kings_only``): the first such move in move order each
    time, so the walk is the same on every run."""
    states = [state]
    seen = {(state.white, state.black, state.kings, state.to_move)}
    for _ in range(plies):
        current = states[-1]
        for move in current.legal_moves():
            if kings_only and not current.kings >> (move[0] - 1) & 1:
                continue
            after = current.play(move)
            key = (after.white, after.black, after.kings, after.to_move)
            if key in seen or current.has_capture() or after.has_capture():
                continue
            seen.add(key)
            states.append(after)
            break
        else:
            raise AssertionError(f"no quiet move from {current.notation()}")
    return states


def _random_game(seed: int, plies: int = 400) -> S:
    rng = random.Random(seed)
    state = S.initial()
    while not state.is_terminal() and state.ply < plies:
        state = state.play(rng.choice(state.legal_moves()))
    return state


# -- the start, the record -----------------------------------------------------------------------


def test_start_position_and_record() -> None:
    state = SPEC.new()
    assert state.notation() == INITIAL_FEN
    assert S.parse("W:W31-50:B1-20") == state
    assert len(state.legal_moves()) == 9
    assert get_game("dammen") is SPEC and get_game("co-dam") is SPEC
    assert get_game("draughts").name == "checkers"  # draughts stays English checkers
    assert SPEC.perft is not None
    counter = SPEC.perft.resolve()
    assert [counter.count_leaves(state, d) for d in (1, 2, 3, 4)] == [9, 81, 658, 4265]


# -- the draw rules -------------------------------------------------------------------------------


def test_third_repetition_fires_at_the_third_occurrence() -> None:
    start = S.parse("W:WK48,K43:BK20,K17")
    shuttle = ["43-16", "17-3", "16-43", "3-17"] * 2
    state = start
    states = [state]
    for text in shuttle:
        state = state.play(state.parse_move(text))
        states.append(state)
    # The start position occurs after 0, 4 and 8 plies.
    assert not any(s.is_terminal() for s in states[:-1])
    assert states[4].notation() == start.notation() and not states[4].is_terminal()
    assert states[8].is_terminal()
    assert states[8].termination() == "third repetition"
    assert states[8].winner is None and states[8].legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        states[8].play((43, 16))


def test_repetition_needs_the_same_side_to_move() -> None:
    state = S.parse("W:WK48,K43:BK20,K17")
    here = (state.white, state.black, state.kings)
    other = (state.white, state.black ^ (1 << 16) ^ (1 << 2), state.kings ^ (1 << 16) ^ (1 << 2))
    # The same placement 2 and 4 plies back (the same side to move): drawn.
    assert state._replace(history=(here, other, here, other)).draw_reason() == "third repetition"
    # 1 and 3 plies back (the other side to move): not a repetition.
    assert state._replace(history=(other, here, other, here)).draw_reason() is None
    # Twice before is the second occurrence, not the third.
    assert state._replace(history=(here, other)).draw_reason() is None


def test_25_move_rule_fires_at_50_king_plies() -> None:
    # Two kings and a man each (no endgame rule), the men blocked by their own kings' side.
    start = S.parse("W:WK28,K33,45:BK3,K18,6")
    states = _quiet_walk(start, QUIET_PLIES, kings_only=True)
    assert all(s.quiet == i for i, s in enumerate(states))
    assert not any(s.is_terminal() for s in states[:QUIET_PLIES])
    assert states[QUIET_PLIES - 1].legal_moves()
    assert states[QUIET_PLIES].is_terminal()
    assert states[QUIET_PLIES].termination() == "25-move rule"
    assert states[QUIET_PLIES].winner is None


def test_a_man_move_or_a_capture_resets_the_25_move_count() -> None:
    history = tuple((1 << i, 1 << (i + 10), 0) for i in range(QUIET_PLIES - 1))
    state = S.parse("W:WK28,K33,45:BK3,K18,6")._replace(history=history)
    assert state.quiet == QUIET_PLIES - 1 and not state.is_terminal()
    king = state.play(state.parse_move("28-22"))
    assert king.is_terminal() and king.termination() == "25-move rule"
    man = state.play(state.parse_move("45-40"))
    assert man.quiet == 0 and not man.is_terminal()
    # A capture resets it too: White's king takes on 23.
    capture = S.parse("W:WK28,45:BK3,K18,6,23")._replace(history=history)
    after = capture.play(capture.parse_move("28x19"))
    assert after.quiet == 0 and not after.is_terminal()


def test_16_move_rule_fires_after_16_moves_each() -> None:
    start = S.parse("W:WK46,K47,K48:BK3")
    states = _quiet_walk(start, ENDGAME_16)
    assert [s.endgame for s in states] == list(range(ENDGAME_16 + 1))
    assert not any(s.is_terminal() for s in states[:ENDGAME_16])
    assert states[ENDGAME_16].termination() == "16-move rule"
    assert states[ENDGAME_16].winner is None


def test_16_move_rule_counts_man_moves_too() -> None:
    # A king and two men against a king: the men's moves do not stop the count.
    state = S.parse("W:WK46,36,37:BK5")
    after = state.play(state.parse_move("36-31"))
    assert after.endgame == 1
    assert after._replace(endgame=ENDGAME_16).termination() == "16-move rule"
    assert after._replace(endgame=ENDGAME_16 - 1).termination() is None


def test_5_move_rule_fires_after_5_moves_each() -> None:
    for fen in ("W:WK46,K50:BK3", "W:WK47,36:BK5", "W:WK46:BK3", "B:WK46:BK3,K4"):
        states = _quiet_walk(S.parse(fen), ENDGAME_5)
        assert not any(s.is_terminal() for s in states[:ENDGAME_5]), fen
        assert states[ENDGAME_5].termination() == "5-move rule", fen


def test_a_capture_in_the_16_move_ending_starts_the_5_move_count() -> None:
    # The lone black king takes one of three white kings: two against one, 5 moves from here.
    state = S.parse("B:WK28,K47,K48:BK6")._replace(endgame=20)
    after = state.play(state.parse_move("6x33"))
    assert after.endgame == 0
    assert after._replace(endgame=ENDGAME_5 - 1).termination() is None
    assert after._replace(endgame=ENDGAME_5).termination() == "5-move rule"


def test_no_endgame_rule_without_a_king_on_the_strong_side() -> None:
    # Two men against a king is not a 5-move ending, nor three men a 16-move one.
    assert S.parse("W:W36,37:BK5")._replace(endgame=99).termination() is None
    assert S.parse("W:W36,37,38:BK5")._replace(endgame=99).termination() is None


def test_a_side_that_cannot_move_loses_first() -> None:
    blocked = S.parse("B:W30,34:B25")  # Black's man on 25 is blocked by 30 with 34 behind
    assert blocked.legal_moves() == ()
    assert blocked.termination() == "no moves" and blocked.winner == SPEC.first_mover
    # Even on the ply the 25-move rule would end the game.
    history = tuple((1 << i, 0, 0) for i in range(QUIET_PLIES))
    assert blocked._replace(history=history).termination() == "no moves"
    empty = S.parse("B:W30:B")
    assert empty.termination() == "no pieces" and empty.winner == SPEC.first_mover


# -- the maximum capture ----------------------------------------------------------------------


def test_the_maximum_capture_is_compulsory() -> None:
    state = S.parse("W:W14,18:B20,23,30,42")
    assert state.legal_moves() == ((14, 25, 34),)
    assert state.format_move((14, 25, 34)) == "14x34"
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("18x29")
    line = str(caught.value)
    assert line == ("move '18x29' is not legal: a capture of 2 pieces is compulsory (14x34)"), line
    with pytest.raises(IllegalMoveError, match="a capture of 2 pieces is compulsory"):
        state.play((18, 29))
    with pytest.raises(IllegalMoveError, match="a capture of 2 pieces is compulsory"):
        state.parse_move("18-22")
    start = S.initial()
    with pytest.raises(IllegalMoveError, match=r"^move '19-23' is not legal: White has no piece"):
        start.parse_move("19-23")
    with pytest.raises(IllegalMoveError, match=r"^move '32-26' is not legal; legal moves: 31-26"):
        start.parse_move("32-26")
    one = S.parse("W:W28:B23")
    with pytest.raises(IllegalMoveError, match=r"a capture is mandatory \(28x19\)"):
        one.parse_move("28-22")


def test_a_king_flies_and_captures_the_most() -> None:
    state = S.parse("W:W28,K46:B23,22,12,13,32,33")
    moves = state.legal_moves()
    assert {state.kernel_move(m).captured.bit_count() for m in moves} == {5}
    assert [state.format_move(m) for m in moves] == ["28x37", "28x39"]


# -- notation -----------------------------------------------------------------------------------


def test_long_form_only_where_two_captures_share_their_ends() -> None:
    state = S.parse("W:WK16:B3,4,21,22,28,29")
    texts = sorted(state.format_move(m) for m in state.legal_moves())
    assert "16x27x18x34" in texts and "16x32x23x34" in texts
    with pytest.raises(ParseError, match="ambiguous move '16x34'"):
        state.parse_move("16x34")
    assert state.parse_move("16x27x18x34") == (16, 27, 18, 34)
    assert state.parse_move("16-27-18-34") == (16, 27, 18, 34)
    assert state.parse_move("16x27x34") == (16, 27, 18, 34)  # a square left out


def test_every_path_of_one_capture_is_the_same_move() -> None:
    state = S.parse("W:WK11:B7,16,25,28,44")
    canonical = state.parse_move("11x33x50")
    assert state.parse_move("11x39x50") == canonical
    assert state.play((11, 39, 50)) == state.play(canonical)
    assert state.format_move(canonical) == "11x50"


def test_notation_round_trips_on_random_games() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = S.initial()
        while not state.is_terminal():
            for move in state.legal_moves():
                assert state.parse_move(state.format_move(move)) == move
                assert state.parse_move("x".join(map(str, move))) == move
            again = S.parse(state.notation())
            assert (again.white, again.black, again.kings, again.to_move) == state[:4]
            assert again.notation() == state.notation()
            kmove = state.kernel_move(move)
            assert state.from_kernel(kmove.path[0], kmove.path[-1], kmove.captured) == move
            state = state.play(rng.choice(state.legal_moves()))


def test_fen_reading() -> None:
    state = S.parse(" w : wk46 , 31-33 : b 1-3, K10 .")
    assert state.notation() == "W:W31,32,33,K46:B1,2,3,K10"
    assert state.piece(45) == "W" and state.piece(30) == "w" and state.piece(9) == "B"
    assert state.piece(0) == "b" and state.piece(20) == ""
    assert S.parse('[FEN "B:W31:B1."]').to_move == SPEC.sides.index("Black")


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("W:W31-50", ParseError, "expected FEN such as 'W:W31-50:B1-20'"),
        ("X:W31:B1", ParseError, "expected FEN"),
        ("W:W31:W32", ParseError, "each colour once"),
        ("W:W51:B1", ParseError, "square 51 is off the board"),
        ("W:Wx:B1", ParseError, "'X' is not a square"),
        ("W:W40-31:B1", ParseError, "runs backwards"),
        ("W:W31,31:B1", InvalidPositionError, "listed twice"),
        ("W:W31:B31", InvalidPositionError, "holds both"),
        ("W:W3:B10", InvalidPositionError, "a man on 3, its crowning row"),
        ("W:W30:B47", InvalidPositionError, "a man on 47, its crowning row"),
        ("W:W1-25:B30", InvalidPositionError, "at most 20"),
    ],
)
def test_bad_fen_is_one_line(text: str, kind: type[Exception], words: str) -> None:
    with pytest.raises(kind) as caught:
        S.parse(text)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


_STATES = [S.initial(), S.parse("W:WK16:B3,4,21,22,28,29"), _random_game(3, 60)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(range(len(_STATES))),
    st.one_of(st.text(max_size=30), st.from_regex(r"\d{1,3}([-xX: ]{1,2}\d{1,3}){1,5}")),
)
def test_fuzz_parse_move(index: int, text: str) -> None:
    state = _STATES[index]
    try:
        move = state.parse_move(text)
    except (ParseError, IllegalMoveError) as error:
        assert "\n" not in str(error)
        return
    assert move in state.legal_moves()


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.from_regex(r"[WBwbx]:[WBK]?[K\d,\-]{0,20}:[WBK]?[K\d,\- ]{0,20}\.?", fullmatch=True),
    )
)
def test_fuzz_parse(text: str) -> None:
    try:
        state = S.parse(text)
    except (ParseError, InvalidPositionError) as error:
        assert "\n" not in str(error)
        return
    assert S.parse(state.notation()) == state


# -- PDN ----------------------------------------------------------------------------------------


def test_pdn_write_read_round_trip() -> None:
    final = _random_game(11)
    assert final.is_terminal()
    text = INTERNATIONAL_PDN.save(final, ("Alice", "Bob"))
    assert '[GameType "20"]' in text and '[White "Alice"]' in text and '[Black "Bob"]' in text
    assert "[FEN" not in text
    result = {None: "1-1", 0: "2-0", 1: "0-2"}[final.winner]
    assert f'[Result "{result}"]' in text and text.rstrip().endswith(result)
    assert text.splitlines()[7].startswith("1. ")
    start, moves = INTERNATIONAL_PDN.load(text)
    assert start == ""
    state = S.initial()
    for move in moves:
        state = state.play(state.parse_move(move))
    assert state == final


def test_pdn_tags_keep_odd_player_names_on_one_line() -> None:
    played = S.initial().play((32, 28))
    text = INTERNATIONAL_PDN.save(played, ('say "hi"\nthen \\ go', "B"))
    assert '[White "say \\"hi\\" then \\\\ go"]' in text
    game = INTERNATIONAL_PDN.read(text)
    assert game.tags["White"] == 'say "hi" then \\ go'


def test_pdn_from_a_position_with_black_to_move() -> None:
    state = S.parse("B:W31-50:B1-20")
    state = state.play(state.parse_move("19-23")).play(state.play((19, 23)).parse_move("32-28"))
    text = INTERNATIONAL_PDN.save(state)
    assert '[FEN "B:W31,' in text and "1... 19-23 2. 32-28 *" in text
    start, moves = INTERNATIONAL_PDN.load(text)
    assert start.startswith("B:W31,") and moves == ["19-23", "32-28"]


def test_pdn_reading_skips_comments_variations_and_numbers() -> None:
    text = """[Event "x"]
[GameType "20,W,10,10,N2,0"]
; a comment line
1. 32-28 {a comment} 19-23 (1... 18-23 (2. 37-32) 2. 31-27) 2.28x19 14x23! $1
3. 37-32?? 10-14 1-1

[Event "second"]
1. 33-28 *
"""
    start, moves = INTERNATIONAL_PDN.load(text)
    assert start == "" and moves == ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]
    assert len(INTERNATIONAL_PDN.read_all(text)) == 2
    assert len(INTERNATIONAL_OPENINGS.openings(text)) == 2


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1. 32-28 19-23 2. 28-22 *", "PDN game 1, move 2. 28-22: move '28-22' is not legal"),
        ("1. 32-28 18-23 2. 28x17 *", "move 2. 28x17"),
        ("1. 32-28 2-8 2. 28-22 *", "PDN game 1, move 1... 2-8:"),
        ("1. 32-28 foo *", "move 1... foo: invalid move 'foo'"),
        ('[GameType "30"]\n1. c3-c4 *', "GameType 30 is not International draughts"),
        ('[FEN "W:W3:B1"]\n1. 3-9 *', "the FEN tag: impossible position"),
        ("1. 32-28 ( 19-23", "a '(' is never closed"),
        ("1. 32-28 ) 19-23", "a ')' closes no variation"),
        ("1. 32-28 { 19-23", "'{' is not closed or opened"),
        ("", "no PDN game"),
        ('[Event "x"]', "no moves and no FEN tag"),
    ],
)
def test_pdn_mistakes_are_one_line(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        INTERNATIONAL_PDN.load(text)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ['[Event "a"]', "1.", "2...", "32-28", "19-23", "28x19", "14x23", "{c}", "(", ")",
             "{", "}", "[", "]", "*", "2-0", "1-1", ";", "\n", "$3", "x", "33-28!", '[FEN "W:W', '"]']
        ),
        max_size=25,
    ).map(" ".join)
    | st.text(max_size=60)
)  # fmt: skip
def test_fuzz_pdn_load(text: str) -> None:
    try:
        start, moves = INTERNATIONAL_PDN.load(text)
    except ParseError as error:
        assert "\n" not in str(error)
        return
    state = S.parse(start) if start else S.initial()
    for move in moves:
        state = state.play(state.parse_move(move))


# -- openings ---------------------------------------------------------------------------------


def test_openings_are_every_first_move_and_answer() -> None:
    positions = INTERNATIONAL_OPENINGS.openings(None)
    assert len(positions) == 81 == len(set(positions))
    assert all(S.parse(p).to_move == S.initial().to_move for p in positions)
    assert INTERNATIONAL_OPENINGS.openings("# two\nW:W31-50:B1-20\n\nB:W31-50:B1-20\n") == [
        INITIAL_FEN,
        "B" + INITIAL_FEN[1:],
    ]
    with pytest.raises(ParseError, match="line 2: invalid position"):
        INTERNATIONAL_OPENINGS.openings("W:W31-50:B1-20\nW:W31-50\n")


# -- the commands -----------------------------------------------------------------------------


def test_cli_perft_5(capsys: pytest.CaptureFixture[str]) -> None:
    main(["perft", "international", "--depth", "5"])
    out = capsys.readouterr().out
    assert "perft 5: 27,117 leaves" in out


def test_cli_replay_of_a_pdn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    final = _random_game(4)
    path = tmp_path / "game.pdn"
    path.write_text(INTERNATIONAL_PDN.save(final, ("A", "B")), encoding="utf-8")
    main(["replay", str(path)])
    out = capsys.readouterr().out
    assert "International draughts" in out
    assert f"Final position: {final.notation()}" in out
    assert f"{final.ply:>3}. " in out
    assert "The game is over" in out
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--game", "2"])
    assert "the first game is shown" in capsys.readouterr().err
    # A PDN that opens with a comment is a game file too, not saved games.
    path.write_text("{from a book}\n1. 32-28 19-23 *\n", encoding="utf-8")
    main(["replay", str(path)])
    assert "  2. Black: 19-23" in capsys.readouterr().out
    # A wrong move: one line naming it.
    path.write_text("1. 32-28 19-23 2. 28-22 *\n", encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["replay", str(path), "--rules", "dammen"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "move 2. 28-22: move '28-22' is not legal" in err
    assert len(err.strip().splitlines()) == 1
