"""Turkish draughts (dama): the rules on hand-made positions, the end and draw rules at their exact
counts, the notation, and the game at the command line."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts  # pydraughts, the test-only oracle (GPL)
from conftest import run_cli, start_cli
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.games.draughts.dama import (
    BLACK,
    DRAW_PLIES,
    INITIAL_FEN,
    PERFT,
    SPEC,
    WHITE,
    DamaState,
    square_name,
    square_of,
)
from zermelo.games.registry import get_game


def sq(name: str) -> int:
    found = square_of(name)
    assert found is not None
    return found


def mask(*names: str) -> int:
    return sum(1 << sq(name) for name in names)


def texts(state: DamaState) -> list[str]:
    return [state.format_move(move) for move in state.legal_moves()]


def oracle(state: DamaState) -> set[tuple[int, int, int]]:
    """pydraughts' legal moves of ``state`` as (from, to, captured mask), 0-based squares. Its
    Turkish squares run 1 (a1) to 64 (h8) along the ranks from White's side: ours plus one."""

    def number(square: int) -> int:
        return square + 1

    def index(n: int) -> int:
        return n - 1

    def listing(pieces: int) -> str:
        return ",".join(
            ("K" if state.kings >> s & 1 else "") + str(number(s))
            for s in range(64)
            if pieces >> s & 1
        )

    side = "W" if state.to_move is WHITE else "B"
    board = draughts.Board(
        variant="turkish", fen=f"{side}:W{listing(state.white)}:B{listing(state.black)}"
    )
    found = set()
    occupied = state.white | state.black
    for move in board.legal_moves():
        steps = move.steps_move
        captured = sum(1 << index(n) for n in move.captures if n)
        origin, target = index(steps[0]), index(steps[-1])
        # pydraughts 0.6.7 lets a Turkish king's plain move pass over pieces (WK62,22 offers
        # 62-14: f8-f2 over its own f3); a move of ours never does, so leave those out.
        if not captured and any(occupied >> s & 1 for s in _between(origin, target)):
            continue
        found.add((origin, target, captured))
    return found


def _between(a: int, b: int) -> list[int]:
    """The squares strictly between ``a`` and ``b`` on one rank or file."""
    step = (1 if b > a else -1) if a // 8 == b // 8 else (8 if b > a else -8)
    return list(range(a + step, b, step))


def ours(state: DamaState) -> set[tuple[int, int, int]]:
    return {(m[0], m[-1], state.kernel_move(m).captured) for m in state.legal_moves()}


# -- moves ------------------------------------------------------------------------------------


def test_the_start() -> None:
    state = DamaState.initial()
    assert state.notation() == INITIAL_FEN
    assert INITIAL_FEN.startswith("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,")
    assert texts(state) == [f"{f}3-{f}4" for f in "abcdefgh"]
    assert state.to_move is WHITE and not state.is_terminal()
    assert [PERFT.count_leaves(state, depth) for depth in range(5)] == [1, 8, 64, 708, 7538]


def test_men_step_forward_or_sideways_never_back() -> None:
    white = DamaState.parse("W:Wd4:Bd6,a6")
    assert sorted(texts(white)) == ["d4-c4", "d4-d5", "d4-e4"]
    black = DamaState.parse("B:Wa2:Bd5,a6")
    assert sorted(texts(black)) == ["a6-a5", "a6-b6", "d5-c5", "d5-d4", "d5-e5"]
    assert ours(white) == oracle(white) and ours(black) == oracle(black)


def test_a_king_moves_along_ranks_and_files_at_any_distance() -> None:
    state = DamaState.parse("W:WKc3:Bh7,Kg8")
    expected = [f"c3-{f}3" for f in "abdefgh"] + [f"c3-c{r}" for r in "1245678"]
    assert sorted(texts(state)) == sorted(expected)


def test_the_maximum_capture_is_compulsory() -> None:
    state = DamaState.parse("W:Wc3,h3:Bc4,c6,h4")
    assert texts(state) == ["c3xc7"]
    assert ours(state) == oracle(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("h3xh5")
    assert str(caught.value) == (
        "move 'h3xh5' is not legal: a capture of 2 pieces is compulsory (c3xc7)"
    )
    with pytest.raises(IllegalMoveError) as caught:
        state.play((sq("h3"), sq("h5")))
    assert "a capture of 2 pieces is compulsory (c3xc7)" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("c3-d3")
    assert "a capture of 2 pieces is compulsory" in str(caught.value)
    one = DamaState.parse("W:Wh3:Bh4,a6")
    with pytest.raises(IllegalMoveError) as caught:
        one.parse_move("h3-g3")
    assert str(caught.value) == "move 'h3-g3' is not legal: a capture is compulsory (h3xh5)"
    after = state.play(state.parse_move("c3xc5xc7"))
    assert after.notation() == "B:Wh3,c7:Bh4"


def test_a_captured_piece_leaves_at_once_and_opens_a_longer_capture() -> None:
    # d8 takes d5 (down to d2), e2 (to h2), h4 (up to h5), then g5 along rank 5: the king passes
    # d5, taken on the way, and may land beyond it. Were d5 still there, three pieces at most.
    state = DamaState.parse("W:WKd8:Be2,h4,d5,g5")
    ends = sorted(square_name(m[-1]) for m in state.legal_moves())
    assert ends == ["a5", "b5", "c5", "d5", "e5", "f5"]
    move = state.parse_move("d8xd2xh2xh5xa5")
    assert state.kernel_move(move).captured == mask("d5", "e2", "h4", "g5")
    assert state.format_move(move) == "d8xa5"
    assert state.play(move).notation() == "B:WKa5:B"
    assert ours(state) == oracle(state)


def test_no_180_degree_turn_inside_a_capture() -> None:
    king = DamaState.parse("W:WKe4:Bc4,g4")
    # Taking c4 then turning back through e4 to take g4 would be two pieces: not allowed.
    assert sorted(texts(king)) == ["e4xa4", "e4xb4", "e4xh4"]
    man = DamaState.parse("W:Wd4:Bc4,e4")
    assert sorted(texts(man)) == ["d4xb4", "d4xf4"]
    assert ours(king) == oracle(king) and ours(man) == oracle(man)


def test_a_man_crowned_in_a_capture_goes_on_as_a_man_and_is_crowned_at_the_end() -> None:
    on = DamaState.parse("W:Wd6:Bd7,Ke8")
    assert texts(on) == ["d6xf8"]  # reaches d8, then takes e8 sideways as a man
    assert on.play(on.parse_move("d6xd8xf8")).notation() == "B:WKf8:B"
    # From d8 a king would fly over b8 to a8; a man cannot, so the move ends on d8, crowned.
    stops = DamaState.parse("W:Wd6:Bd7,Kb8")
    assert texts(stops) == ["d6xd8"]
    after = stops.play(stops.parse_move("d6xd8"))
    assert after.notation() == "B:WKd8:BKb8"
    assert after.piece(sq("d8")) == "W"
    assert ours(on) == oracle(on)


def test_a_king_captures_at_a_distance_and_lands_on_any_square_beyond() -> None:
    state = DamaState.parse("W:WKa1:Ba5,h7")
    assert texts(state) == ["a1xa6", "a1xa7", "a1xa8"]
    assert ours(state) == oracle(state)
    assert state.play(state.parse_move("a1xa7")).notation() == "B:WKa7:Bh7"


def test_the_moves_agree_with_pydraughts_along_seeded_games() -> None:
    rng = random.Random(24)
    for _ in range(3):
        state = DamaState.initial()
        for _ in range(60):
            if state.is_terminal():
                break
            if rng.random() < 0.3:
                assert ours(state) == oracle(state), state.notation()
            state = state.play(rng.choice(state.legal_moves()))


# -- the end and the draw rules ---------------------------------------------------------------


def test_no_pieces_and_no_moves_lose() -> None:
    empty = DamaState.parse("W:W:Ba7")
    assert empty.termination() == "no pieces" and empty.winner is BLACK
    assert empty.legal_moves() == ()
    blocked = DamaState.parse("W:Wa3:Ba4,a5,b3,c3")
    assert blocked.termination() == "no moves" and blocked.winner is BLACK
    with pytest.raises(IllegalMoveError) as caught:
        blocked.play((sq("a3"), sq("a4")))
    assert "the game is over" in str(caught.value)


def test_one_piece_each_is_drawn_unless_the_side_to_move_can_take() -> None:
    drawn = DamaState.parse("W:WKd4:Bf6")
    assert drawn.termination() == "one piece each"
    assert drawn.is_terminal() and drawn.winner is None and drawn.legal_moves() == ()
    takes = DamaState.parse("W:Wd4:Bd5")
    assert takes.termination() is None and texts(takes) == ["d4xd6"]
    won = takes.play(takes.parse_move("d4xd6"))
    assert won.termination() == "no pieces" and won.winner is WHITE
    # Reaching one piece each by a capture: drawn at once when the other cannot take back.
    two = DamaState.parse("W:Wd4,a2:Bd5,h7")
    after = two.play(two.parse_move("d4xd6"))
    assert after.termination() is None  # two white pieces still
    last = DamaState.parse("W:Wd4:Bd5,h7").play((sq("d4"), sq("d6")))
    assert last.termination() == "one piece each"


def _kings() -> DamaState:
    return DamaState.parse("W:WKa1,Kc1:BKh8,Kf8")


def test_the_third_repetition_draws_at_once() -> None:
    state = _kings()
    cycle = [("a1", "a2"), ("h8", "h7"), ("a2", "a1"), ("h7", "h8")]
    for round_ in range(2):
        for i, (a, b) in enumerate(cycle):
            assert state.termination() is None, (round_, i)
            assert state.repetitions() == (1 + round_ if i == 0 else 1 if round_ == 0 else 2)
            state = state.play((sq(a), sq(b)))
    assert state.repetitions() == 3
    assert state.termination() == "threefold repetition"
    assert state.winner is None and state.legal_moves() == ()
    assert state.notation() == _kings().notation() and state.quiet == 8


def test_a_capture_or_a_forward_step_forgets_the_positions_before() -> None:
    state = DamaState.parse("W:WKa1,d3:BKh8,e6")
    state = state.play((sq("a1"), sq("a2"))).play((sq("h8"), sq("h7")))
    assert state.quiet == 2 and len(state.seen) == 2
    stepped = state.play((sq("d3"), sq("d4")))
    assert stepped.quiet == 0 and stepped.seen == ()
    sideways = state.play((sq("d3"), sq("c3")))
    assert sideways.quiet == 3 and len(sideways.seen) == 3


def test_the_fifty_move_rule_draws_at_the_hundredth_quiet_ply() -> None:
    base = _kings()
    before = base._replace(quiet=DRAW_PLIES - 2)
    state = before.play((sq("a1"), sq("a2")))
    assert state.quiet == DRAW_PLIES - 1 and state.termination() is None
    state = state.play((sq("h8"), sq("h7")))
    assert state.quiet == DRAW_PLIES
    assert state.termination() == "fifty-move rule" and state.winner is None
    assert state.legal_moves() == ()
    # A man's sideways step does not reset the count; a forward step does.
    men = DamaState.parse("W:Wd3,Ka1:Be6,Kh8")._replace(quiet=DRAW_PLIES - 1)
    assert men.play((sq("d3"), sq("c3"))).termination() == "fifty-move rule"
    assert men.play((sq("d3"), sq("d4"))).termination() is None


def test_blocking_the_last_piece_wins_even_on_the_hundredth_quiet_ply() -> None:
    white = mask("a1", "b2", "a3", "c3")
    state = DamaState(white, mask("a2"), mask("a1", "b2", "c3"), WHITE, DRAW_PLIES - 1)
    assert state.termination() is None
    after = state.play((sq("c3"), sq("c2")))
    assert after.quiet == DRAW_PLIES
    assert after.termination() == "no moves" and after.winner is WHITE


# -- notation ---------------------------------------------------------------------------------


def test_positions_read_and_write() -> None:
    initial = DamaState.initial()
    assert DamaState.parse(INITIAL_FEN) == initial
    assert DamaState.parse("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7") == initial
    assert DamaState.parse(" w : w A2-H2 , a3-h3 : b a6-h6, A7-H7 . ") == initial
    kings = DamaState.parse("B:WKd4,e3,Ka1-a2:BKe8,a7")
    assert kings.notation() == "B:We3,Ka1,Ka2,Kd4:Ba7,Ke8"
    assert DamaState.parse(kings.notation()) == kings
    assert (
        kings.diagram()
        == "B:....B.../b......./......../......../...W..../....w.../W......./W......."
    )
    assert DamaState.parse(kings.diagram()) == kings
    lines = "\n".join(initial.rows())
    assert DamaState.parse("W\n" + lines) == initial
    assert repr(kings) == f"DamaState.parse({kings.notation()!r})"


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            "X:Wa2:Ba7",
            ParseError,
            "invalid position 'X:Wa2:Ba7': expected FEN such as 'W:Wa2,b2,Kd4:Ba7,b7' (side to "
            "move, then each colour's squares, K before a king) or a board diagram of 8 rows of "
            "8 squares",
        ),
        ("W:Wa2:Wa7", ParseError, "each colour once, as W... and B..."),
        (
            "W:Wa9:Ba7",
            ParseError,
            "invalid position 'W:Wa9:Ba7': 'a9' is not a square; expected a1 to h8, K before a "
            "king, or a range along a rank or a file such as a2-h2",
        ),
        (
            "W:Wa2-b3:Ba7",
            ParseError,
            "invalid position 'W:Wa2-b3:Ba7': the range 'a2-b3' is not along one rank or file",
        ),
        (
            "W:Wa2,a2:Ba7",
            InvalidPositionError,
            "impossible position 'W:Wa2,a2:Ba7': square a2 is listed twice",
        ),
        (
            "W:Wa2:Ba2",
            InvalidPositionError,
            "impossible position 'W:Wa2:Ba2': square a2 holds both a white and a black piece",
        ),
        (
            "W:Wa8:Ba7",
            InvalidPositionError,
            "impossible position 'W:Wa8:Ba7': White has a man on a8, its crowning row; it would "
            "be a king (write K before the square)",
        ),
        (
            "W:Wa2:Bh1",
            InvalidPositionError,
            "impossible position 'W:Wa2:Bh1': Black has a man on h1, its crowning row; it would "
            "be a king (write K before the square)",
        ),
        (
            "W:Wa1:Ba7",
            InvalidPositionError,
            "impossible position 'W:Wa1:Ba7': White has a man on a1, its own back row, where "
            "men never go",
        ),
        (
            "W:Wa2-h2,a3-h3,a4:Ba7",
            InvalidPositionError,
            "impossible position 'W:Wa2-h2,a3-h3,a4:Ba7': White has 17 pieces; at most 16",
        ),
    ],
)
def test_a_bad_position_gets_one_clear_line(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        DamaState.parse(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_moves_read_in_every_form_and_write_in_the_shortest() -> None:
    state = DamaState.parse("W:WKd8:Be2,h4,d5,g5")
    full = state.parse_move("d8xd2xh2xh5xa5")
    for text in ("d8xa5", "D8XA5", "d8 x d2 x h2 x h5 x a5", "d8-a5", "d8:h2:a5", "d8xh5xa5"):
        assert state.parse_move(text) == full
    step = DamaState.initial()
    assert step.parse_move("D3-D4") == (sq("d3"), sq("d4")) == step.parse_move("d3xd4")
    assert step.format_move((sq("d3"), sq("d4"))) == "d3-d4"


def test_an_ambiguous_short_capture_asks_for_the_squares_between() -> None:
    # f7 takes f5, then d4 along rank 4 or d3 along rank 3, then b7: two moves from f7 to b8.
    state = DamaState.parse("W:WKf7:Bd3,d4,f5,b7")
    assert sorted(texts(state)) == ["f7xf3xb8", "f7xf4xb8"]
    with pytest.raises(ParseError) as caught:
        state.parse_move("f7xb8")
    assert str(caught.value) == (
        "ambiguous move 'f7xb8': it fits f7xf3xb3xb8, f7xf4xb4xb8; give the squares in between"
    )
    assert state.kernel_move(state.parse_move("f7xb3xb8")).captured == mask("f5", "d3", "b7")
    assert state.kernel_move(state.parse_move("f7xf4xb8")).captured == mask("f5", "d4", "b7")
    assert ours(state) == oracle(state)


def test_every_move_round_trips_along_seeded_games() -> None:
    rng = random.Random(7)
    for _ in range(4):
        state = DamaState.initial()
        while not state.is_terminal() and state.plies < 150:
            for move in state.legal_moves():
                assert state.parse_move(state.format_move(move)) == move
                full = ("x" if state.has_capture() else "-").join(square_name(s) for s in move)
                assert state.parse_move(full) == move
            assert DamaState.parse(state.notation()).notation() == state.notation()
            assert DamaState.parse(state.diagram()).notation() == state.notation()
            state = state.play(rng.choice(state.legal_moves()))


def test_a_bad_move_gets_one_clear_line() -> None:
    state = DamaState.initial()
    with pytest.raises(ParseError) as caught:
        state.parse_move("d9-d4")
    assert str(caught.value) == (
        "invalid move 'd9-d4': expected squares a1-h8 joined by '-' for a move or 'x' for a "
        "capture, e.g. d3-d4 or d4xd6xf6"
    )
    with pytest.raises(IllegalMoveError) as illegal:
        state.parse_move("d2-d3")
    assert str(illegal.value) == (
        "move 'd2-d3' is not legal; legal moves: a3-a4, b3-b4, c3-c4, d3-d4, e3-e4, f3-f4, "
        "g3-g4, h3-h4"
    )
    with pytest.raises(IllegalMoveError):
        state.play((1, 2, 3))
    with pytest.raises(IllegalMoveError):
        state.play("d3-d4")  # type: ignore[arg-type]


@pytest.mark.parametrize("move", [([1], 2), (), (1,), (True, 3), (1.5, 2), (64, 65), (-1, 3)])
def test_a_move_that_is_not_squares_is_an_illegal_move_everywhere(move: object) -> None:
    # A list inside the tuple was a TypeError (unhashable) from play and kernel_move.
    state = DamaState.initial()
    with pytest.raises(IllegalMoveError):
        state.play(move)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        state.kernel_move(move)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        state.format_move(move)  # type: ignore[arg-type]


def test_numpy_squares_are_squares() -> None:
    import numpy as np

    state = DamaState.initial()
    move = (np.int64(sq("d3")), np.int64(sq("d4")))
    assert state.play(move) == state.play((sq("d3"), sq("d4")))  # type: ignore[arg-type]
    assert state.format_move(move) == "d3-d4"  # type: ignore[arg-type]


_NOTATION = st.text(alphabet="abcdefghKkWwBb12345678:-x,. \n/", max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_NOTATION, st.text(max_size=80)))
def test_reading_a_position_raises_only_its_own_errors(text: str) -> None:
    try:
        state = DamaState.parse(text)
    except (ParseError, InvalidPositionError) as error:
        assert "\n" not in str(error)
        return
    assert DamaState.parse(state.notation()) == state


_POSITIONS = [
    DamaState.initial(),
    DamaState.parse("W:WKd8:Be2,h4,d5,g5"),
    DamaState.parse("W:Wc3,h3:Bc4,c6,h4"),
    DamaState.parse("W:WKd4:Bf6"),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_POSITIONS), st.one_of(_NOTATION, st.text(max_size=80)))
def test_reading_a_move_raises_only_its_own_errors(state: DamaState, text: str) -> None:
    try:
        move = state.parse_move(text)
    except (ParseError, IllegalMoveError) as error:
        assert "\n" not in str(error)
        return
    assert move in state.legal_moves()


# -- the record and the command line ----------------------------------------------------------


def test_the_record() -> None:
    assert get_game("dama") is SPEC
    assert get_game("turkish") is SPEC and get_game("Turkish-Draughts") is SPEC
    assert SPEC.title == "Turkish draughts" and SPEC.sides == ("White", "Black")
    assert SPEC.first_mover is WHITE and SPEC.board == "draughts"
    assert DamaState.RULES.name == "dama"
    grid = SPEC.grid(DamaState.initial())
    assert grid.files == tuple("abcdefgh") and grid.ranks == tuple("87654321")
    assert grid.moves is not None
    assert grid.moves[0][0] == "a8" and grid.moves[7][7] == "h1"
    assert grid.cells[1] == ("b",) * 8 and grid.cells[6] == ("w",) * 8
    assert grid.cells[0] == ("",) * 8


def test_perft_at_the_command_line() -> None:
    done = run_cli("perft", "dama", "--depth", "4")
    assert done.returncode == 0, done.stderr
    assert "perft 4: 7,538 leaves" in done.stdout


PROMPT = re.compile(r"Your move \(e\.g\. (\S+)\): $")


def test_a_game_in_the_terminal_through_stdin() -> None:
    process = start_cli("play", "dama", "--first", "human", "--level", "easy", "--seed", "3")
    assert process.stdin is not None and process.stdout is not None
    replies = ["hello", "d2-d3", "?", "d3-d4", "quit"]
    transcript = line = ""
    while replies:
        char = process.stdout.read(1)
        if not char:
            break
        transcript += char
        line = "" if char == "\n" else line + char
        if PROMPT.search(line):
            process.stdin.write(replies.pop(0) + "\n")
            process.stdin.flush()
            line = ""
    process.stdin.close()
    transcript += process.stdout.read()
    process.wait(timeout=120)
    assert transcript.startswith("Welcome to Turkish draughts!\n"), transcript[:400]
    assert "You are 'White' and the AI is 'Black'" in transcript
    assert "'hello' is not a move" in transcript
    assert "d2-d3" in transcript and "legal moves: a3-a4, b3-b4" in transcript.lower()
    assert "AI's turn..." in transcript
