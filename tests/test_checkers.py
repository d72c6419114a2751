"""English draughts: move generation against the published perft counts, the rules one by one, the
notation, and the engine on it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents import EngineAgent, make_agent
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.scores import EVAL_LIMIT, describe, is_decided
from zermelo.core.state import Player
from zermelo.games.checkers import (
    BLACK,
    DRAW_PLIES,
    FEATURES,
    INITIAL_FEN,
    WHITE,
    CheckersState,
    perft,
)
from zermelo.games.registry import get_game
from zermelo.search import alphabeta, analyze, minimax
from zermelo.search.quiescence import quiescent

START = CheckersState.initial()
SHOT = "B:W17,19,21,23,25,27,28,29,30,32:B1,2,3,4,6,7,10,11,12,18"
"""Black to move gives a man (10-14, 17x10) and takes three with a crowning triple jump."""


def moves(state: CheckersState) -> list[str]:
    return [state.format_move(m) for m in state.legal_moves()]


def pieces(state: CheckersState) -> dict[int, str]:
    return {square: state.piece(square) for square in range(1, 33) if state.piece(square)}


# -- move generation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("depth", "count"), [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768)]
)
def test_perft_from_the_initial_position(depth: int, count: int) -> None:
    assert perft(START, depth) == count


@pytest.mark.slow
def test_perft_depth_7() -> None:
    assert perft(START, 7) == 179740


def test_opening_moves_and_numbering() -> None:
    assert moves(START) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert START.notation() == INITIAL_FEN
    white = START.play((11, 15))
    assert white.to_move is WHITE
    assert moves(white) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


def test_the_state_protocol_and_the_registry() -> None:
    spec = get_game("draughts")
    assert spec.name == "checkers" and get_game("checkers") is spec
    assert spec.new() == START
    assert spec.new(first=Player.FIRST) == START
    # Front ends may let White start; the men stand where they always do.
    assert spec.new(first=Player.SECOND) == START._replace(to_move=WHITE)
    assert spec.parse("B:W21-32:B1-12") == START


# -- captures -------------------------------------------------------------------------------------


def test_capture_is_mandatory() -> None:
    state = CheckersState.parse("B:W18,30:B14,1")
    assert moves(state) == ["14x23"]
    assert state.has_capture() and not state.is_quiet()
    with pytest.raises(
        IllegalMoveError, match=r"'14-17' is not legal: a capture is mandatory \(14x23\)"
    ):
        state.play(state.parse_move("14-17"))


def test_multi_jumps_must_be_completed_and_every_branch_is_offered() -> None:
    state = CheckersState.parse("B:W14,22,23,30:B9,1")
    assert sorted(moves(state)) == ["9x18x25", "9x18x27"]
    with pytest.raises(IllegalMoveError, match=r"'9x18' must go on jumping: 9x18x25 / 9x18x27"):
        state.play(state.parse_move("9x18"))
    after = state.play((9, 18, 27))
    assert pieces(after) == {1: "b", 22: "w", 27: "b", 30: "w"}
    assert after.to_move is WHITE and after.quiet == 0


def test_longer_captures_are_searched_first() -> None:
    # The king may take one piece (over 6) or two (over 7 and 15); the double comes first.
    state = CheckersState.parse("B:W6,7,15,24:BK2")
    assert state.legal_moves() == ((2, 11, 18), (2, 9))


def test_a_king_captures_backwards_and_a_man_does_not() -> None:
    king = CheckersState.parse("B:W14:BK18")
    assert moves(king) == ["18x9"]
    man = CheckersState.parse("B:W14:B18")
    assert "18x9" not in moves(man) and moves(man) == ["18-22", "18-23"]


def test_crowning_ends_the_move() -> None:
    # Black's man jumps to 31 and is crowned; as a king it could jump 27 next, but its move is over.
    state = CheckersState.parse("B:W26,27:B22")
    assert moves(state) == ["22x31"]
    after = state.play((22, 31))
    assert after.piece(31) == "B" and after.piece(27) == "w"
    assert after.to_move is WHITE
    # And a plain step onto the last row crowns too, for White on 1-4.
    white = CheckersState.parse("W:W5:B20")
    assert moves(white) == ["5-1"]
    assert white.play((5, 1)).piece(1) == "W"


def test_shortened_captures() -> None:
    state = CheckersState.parse("B:W14,22,23,30:B9,1")
    assert state.parse_move("9x27") == (9, 18, 27)
    assert state.parse_move("9 x 18 x 25") == (9, 18, 25)
    assert state.parse_move("9-25") == (9, 18, 25)
    # A king that can reach the same square by two paths needs the square in between.
    king = CheckersState.parse("B:W14,15,22,23:BK10")
    with pytest.raises(ParseError, match=r"ambiguous move '10x10'"):
        king.parse_move("10x10")
    assert king.parse_move("10x19x26x10") == (10, 19, 26, 17, 10)


# -- the end of the game --------------------------------------------------------------------------


def test_a_side_without_moves_loses() -> None:
    blocked = CheckersState.parse("W:W29:B25,22")
    assert blocked.legal_moves() == () and blocked.is_terminal()
    assert blocked.winner is BLACK
    wiped_out = CheckersState.parse("W:W:B1")
    assert wiped_out.is_terminal() and wiped_out.winner is BLACK
    # The last capture ends the game.
    last = CheckersState.parse("B:W18:B14").play((14, 23))
    assert last.is_terminal() and last.winner is BLACK
    result = alphabeta(last)
    assert result.value < -EVAL_LIMIT and result.move is None


def test_the_draw_rule() -> None:
    kings = CheckersState.parse("B:WK32:BK1")
    near = kings._replace(quiet=DRAW_PLIES - 1)
    assert not near.is_terminal()
    drawn = near.play((1, 6))
    assert drawn.quiet == DRAW_PLIES
    assert drawn.is_terminal() and drawn.winner is None and drawn.legal_moves() == ()
    assert alphabeta(drawn).value == 0
    # King moves count, a man move or a capture resets the count.
    assert kings.play((1, 6)).quiet == 1
    with_man = CheckersState.parse("B:WK32:BK1,9")._replace(quiet=DRAW_PLIES - 1)
    assert with_man.play((9, 13)).quiet == 0
    capture = CheckersState.parse("B:WK14:BK10")._replace(quiet=DRAW_PLIES - 1)
    assert capture.play((10, 17)).quiet == 0


def test_a_move_that_leaves_no_reply_wins_even_on_the_last_quiet_ply() -> None:
    # White's man on 29 is stuck once Black's king steps to 22 behind the man on 25.
    state = CheckersState.parse("B:W29:B25,K18")._replace(quiet=DRAW_PLIES - 1)
    after = state.play((18, 22))
    assert after.quiet == DRAW_PLIES and after.is_terminal()
    assert after.winner is BLACK


def test_random_games_end() -> None:
    rng = random.Random(7)
    for _ in range(20):
        state = START
        while not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        assert state.ply < 600
        assert state.winner is not None or state.quiet == DRAW_PLIES


# -- notation -------------------------------------------------------------------------------------


def test_fen_example_round_trips() -> None:
    fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    state = CheckersState.parse(fen)
    assert state.notation() == fen
    assert pieces(state)[10] == "W" and pieces(state)[12] == "b" and pieces(state)[29] == "B"
    assert CheckersState.parse(" b:bk29,K25,20,16,12,k22:w28,27,24,18,K15,K10. ") == state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_fen_round_trips_along_random_games(seed: int, length: int) -> None:
    rng = random.Random(seed)
    state = START
    for _ in range(length):
        if state.is_terminal():
            break
        back = CheckersState.parse(state.notation())
        assert back == state._replace(quiet=0, plies=0)
        assert back.notation() == state.notation()
        move = rng.choice(state.legal_moves())
        assert state.parse_move(state.format_move(move)) == move
        state = state.play(move)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("", ParseError, "invalid position ''"),
        ("B:W21-32", ParseError, "expected FEN such as 'B:W21-32:B1-12'"),
        ("X:W21-32:B1-12", ParseError, "expected FEN"),
        ("B:W21-32:W1-12", ParseError, "each colour once"),
        ("B:W21,33:B1", ParseError, "square 33 is off the board"),
        ("B:W21,ab:B1", ParseError, "'AB' is not a square"),
        ("B:W12-1:B20", ParseError, "runs backwards"),
        ("B:W21,21:B1", InvalidPositionError, "square 21 is listed twice"),
        ("B:W21:B21", InvalidPositionError, "square 21 holds both"),
        ("B:W1-13:B20", InvalidPositionError, "White has 13 pieces"),
        ("B:W21:B30", InvalidPositionError, "Black has a man on 30, its crowning row"),
    ],
)
def test_bad_positions_quote_the_input(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as raised:
        CheckersState.parse(text)
    assert repr(text) in str(raised.value)
    assert fragment in str(raised.value)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("11", ParseError, "invalid move '11': expected squares 1-32 joined by '-'"),
        ("11-15-", ParseError, "invalid move '11-15-'"),
        ("0-4", ParseError, "square 0 is off the board"),
        ("11-40", ParseError, "square 40 is off the board"),
        ("e3-f4", ParseError, "invalid move 'e3-f4'"),
        ("11-20", IllegalMoveError, "legal moves: 9-13, 9-14, 10-14"),
    ],
)
def test_bad_moves_quote_the_input(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as raised:
        START.play(START.parse_move(text))
    assert fragment in str(raised.value)


def test_an_illegal_step_lists_the_legal_moves() -> None:
    with pytest.raises(IllegalMoveError, match=r"'22-18' is not legal; legal moves: 9-13, 9-14"):
        START.play((22, 18))


# -- evaluation and search ------------------------------------------------------------------------


def test_evaluation_is_the_weighted_sum_of_its_named_features() -> None:
    rng = random.Random(3)
    state = START
    for _ in range(60):
        if state.is_terminal():
            break
        features = state.features()
        assert list(features) == [name for name, _, _ in FEATURES]
        total = sum(weight * features[name] for name, weight, _ in FEATURES)
        assert state.evaluate() == total
        assert state.explain() == [(name, w, features[name]) for name, w, _ in FEATURES]
        assert abs(total) < EVAL_LIMIT
        # From the side to move: the same board with the other side to move is seen from there.
        flipped = state._replace(to_move=state.to_move.opponent)
        assert flipped.features()["men"] == -features["men"]
        state = state.play(rng.choice(state.legal_moves()))
    assert START.evaluate() == 0
    up_a_man = CheckersState.parse("B:W21-31:B1-12")
    assert up_a_man.features()["men"] == 1 and up_a_man.evaluate() > 100


POSITIONS = [
    INITIAL_FEN,
    "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    "B:W17,19,21,23,25,27,28,29,30,32:B1,2,3,4,6,7,10,11,12,18",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_alphabeta_equals_depth_limited_minimax(fen: str) -> None:
    state = CheckersState.parse(fen)
    for depth in (1, 2, 3):
        expected = minimax(state, depth)
        result = alphabeta(state, depth=depth)
        assert result.value == expected.value, (fen, depth)
        # The move it picks keeps that value.
        assert minimax(state.play(result.move), depth - 1).value == -expected.value


def test_a_shot_one_man_for_three() -> None:
    # Black gives the man on 10 (10-14, 17x10) and takes three back with a crowning triple jump.
    state = CheckersState.parse(SHOT)
    result = alphabeta(state, depth=2, evaluator=quiescent())
    assert result.move == (10, 14)
    line = alphabeta(state, depth=4, evaluator=quiescent())
    assert line.pv[:3] == ((10, 14), (17, 10), (6, 15, 24, 31))
    final = state
    for move in line.pv[:3]:
        final = final.play(move)
    assert (final.black.bit_count(), final.white.bit_count()) == (9, 7)
    assert final.piece(31) == "B"
    # Without the quiescence the same shallow search stops in the middle of the exchange and
    # prefers another move: the horizon effect this evaluator exists for.
    assert alphabeta(state, depth=2).move != (10, 14)


@pytest.mark.parametrize(
    ("fen", "first"),
    [("B:WK7:BK12,K19", (19, 15)), ("B:WK26:BK11,K15", (15, 18))],
)
def test_two_kings_trap_one_king(fen: str, first: tuple[int, int]) -> None:
    state = CheckersState.parse(fen)
    oracle = minimax(state, 5)
    result = alphabeta(state, depth=7)
    assert describe(oracle.value) == "win in 3"
    assert result.value == oracle.value and is_decided(result.value)
    assert result.move == first == oracle.move


def test_analyze_values_every_move() -> None:
    state = CheckersState.parse(SHOT)
    values = analyze(state, depth=2, evaluator=quiescent())
    assert {v.move for v in values} == set(state.legal_moves())
    assert values[0].move == (10, 14)


def test_the_quiescent_evaluator_plays_out_the_captures() -> None:
    evaluate = quiescent()
    quiet = CheckersState.parse("B:W21-32:B1-12")
    assert evaluate(quiet) == quiet.evaluate()
    # Black to move must take 14x23; the value is the position after it, from Black's side.
    pending = CheckersState.parse("B:W18,30:B14,1")
    assert evaluate(pending) == -pending.play((14, 23)).evaluate()
    # A forced line that ends the game stays a (large) heuristic value.
    last = CheckersState.parse("B:W18:B14")
    value = evaluate(last)
    assert 0 < value < EVAL_LIMIT and value > 10_000


# -- levels ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_legal_moves_and_takes_what_it_must(level: str) -> None:
    agent = make_agent("checkers", level, seed=1, time_limit=0.05)
    assert agent.choose(START) in START.legal_moves()
    capture = CheckersState.parse("B:W18,30:B14,1")
    assert agent.choose(capture) == (14, 23)


def test_the_levels_search_with_quiescence_and_hard_keeps_to_its_time() -> None:
    easy, medium = make_agent("checkers", "easy", seed=1), make_agent("checkers", "medium", seed=1)
    hard = make_agent("checkers", "hard", seed=1)
    timed = make_agent("checkers", "hard", seed=1, time_limit=0.25)
    assert isinstance(easy, EngineAgent) and isinstance(medium, EngineAgent)
    assert isinstance(hard, EngineAgent) and isinstance(timed, EngineAgent)
    assert (easy.depth, medium.depth, hard.depth) == (2, 4, None)
    assert easy.noise > medium.noise > hard.noise == 0
    assert hard.time_limit == 1.0 and timed.time_limit == 0.25
    assert all(agent.evaluator is not None for agent in (easy, medium, hard))
    assert timed.choose(CheckersState.parse(SHOT)) in CheckersState.parse(SHOT).legal_moves()
    assert timed.last is not None and timed.last.stats.elapsed < 0.25 * 4
    # What it finds does not depend on the clock at a fixed depth: 10-14 starts the shot.
    capped = EngineAgent(depth=2, evaluator=hard.evaluator)
    assert capped.choose(CheckersState.parse(SHOT)) == (10, 14)


# -- an independent move generator, on coordinates, as a cross-check ------------------------------


def reference_moves(state: CheckersState) -> set[tuple[int, ...]]:
    """The rules read literally on (row, column) coordinates, without bitboards or tables."""

    def square_of(row: int, col: int) -> int | None:
        if 0 <= row < 8 and 0 <= col < 8 and (row + col) % 2 == 1:
            return row * 4 + col // 2 + 1
        return None

    def coords(square: int) -> tuple[int, int]:
        row = (square - 1) // 4
        return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)

    board = {s: state.piece(s) for s in range(1, 33)}
    mine = "b" if state.to_move is BLACK else "w"
    forward = 1 if mine == "b" else -1
    last_row = 7 if mine == "b" else 0
    captures: set[tuple[int, ...]] = set()
    steps: set[tuple[int, ...]] = set()
    for square, piece in board.items():
        if piece.lower() != mine:
            continue
        king = piece.isupper()
        rows = (1, -1) if king else (forward,)
        board[square] = ""  # the moving piece leaves its square

        def jumps(at: int, taken: frozenset[int], path: tuple[int, ...], king: bool) -> None:
            row, col = coords(at)
            extended = False
            for dr in (1, -1) if king else (forward,):
                for dc in (1, -1):
                    over = square_of(row + dr, col + dc)
                    land = square_of(row + 2 * dr, col + 2 * dc)
                    if over is None or land is None or over in taken or board[land]:
                        continue
                    if board[over] and board[over].lower() != mine:
                        extended = True
                        if not king and coords(land)[0] == last_row:
                            captures.add((*path, land))
                        else:
                            jumps(land, taken | {over}, (*path, land), king)
            if not extended and len(path) > 1:
                captures.add(path)

        jumps(square, frozenset(), (square,), king)
        board[square] = piece
        row, col = coords(square)
        for dr in rows:
            for dc in (1, -1):
                target = square_of(row + dr, col + dc)
                if target is not None and not board[target]:
                    steps.add((square, target))
    return captures or steps


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_move_generation_matches_the_rules_read_literally(seed: int) -> None:
    rng = random.Random(seed)
    state = START
    while not state.is_terminal() and state.ply < 250:
        assert set(state.legal_moves()) == reference_moves(state), state.notation()
        assert len(set(state.legal_moves())) == len(state.legal_moves())
        state = state.play(rng.choice(state.legal_moves()))
    if state.quiet < DRAW_PLIES:
        assert reference_moves(state) == set() or state.ply >= 250


def test_three_kings_beat_two() -> None:
    # A won ending that needs a plan. Without the pursuit term both searches below draw it by the
    # 80-ply rule (checked when the term was added); with it, Black wins. Fixed depth and a fixed
    # seed for the tie-breaks between equal moves, so the game is the same on every machine.
    state = CheckersState.parse("W:WK32,K28:BK10,K14,K15")
    players = {side: EngineAgent(depth=4, evaluator=quiescent(), seed=3) for side in Player}
    while not state.is_terminal():
        state = state.play(players[state.to_move].choose(state))
    assert state.winner is BLACK
