"""zermelo's bitboard move generator against the published perft counts and python-chess."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chess_positions import COUNTS, ISSUE_DEPTHS, NAMES, POSITION_5, POSITION_6
from zermelo.core.errors import BudgetError, IllegalMoveError, ParseError
from zermelo.solvers.chess import kernel as compiled_kernel
from zermelo.solvers.chess import kernel_module, legal_moves, perft
from zermelo.solvers.chess.engine import _array, load_position

needs_numba = pytest.mark.skipif(
    not compiled_kernel.COMPILED, reason="the compiled kernel needs numba"
)

SHALLOW = [(fen, 2 if fen in (POSITION_5, POSITION_6) else 3) for fen in COUNTS]


@pytest.mark.parametrize(("fen", "depth"), SHALLOW, ids=[NAMES[f] for f, _ in SHALLOW])
def test_perft_shallow_in_plain_python(fen: str, depth: int) -> None:
    assert perft(fen, depth, compiled=False) == COUNTS[fen][depth - 1]


@needs_numba
@pytest.mark.parametrize("fen", list(COUNTS), ids=list(NAMES.values()))
def test_perft_published_depths_compiled(fen: str) -> None:
    depth = ISSUE_DEPTHS[fen]
    assert perft(fen, depth) == COUNTS[fen][depth - 1]


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("fen", list(COUNTS), ids=list(NAMES.values()))
def test_perft_deeper_compiled(fen: str) -> None:
    depth = len(COUNTS[fen])
    assert perft(fen, depth) == COUNTS[fen][depth - 1]


def test_perft_depth_zero_and_moves() -> None:
    assert perft("startpos", 0, compiled=False) == 1
    assert perft("startpos", 1, moves=["e4", "e5"], compiled=False) == 29


def test_perft_rejects_bad_input() -> None:
    with pytest.raises(BudgetError, match="depth"):
        perft("startpos", -1)
    with pytest.raises(ParseError, match="'not a fen'"):
        perft("not a fen", 1)
    with pytest.raises(IllegalMoveError, match="'e2e5'"):
        perft("startpos", 1, moves=["e2e5"])


SPECIAL = [
    # en passant that would expose the king along the rank: not legal
    ("8/8/8/K2Pp2r/8/8/8/7k w - e6 0 2", {"d5e6"}, set()),
    # en passant that is legal
    ("8/8/8/3Pp3/8/8/8/K6k w - e6 0 2", set(), {"d5e6"}),
    # promotions to the four pieces, with and without capture
    ("1r5k/P7/8/8/8/8/8/K7 w - - 0 1", set(), {"a7a8q", "a7a8n", "a7b8r", "a7b8b"}),
    # a pinned knight cannot move
    ("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1", {"e2c3", "e2g1"}, {"e1d1"}),
    # castling through an attacked square is not legal, the other side is
    ("r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1", {"e1g1"}, {"e1c1"} - {"e1c1"}),
]


@pytest.mark.parametrize(("fen", "absent", "present"), SPECIAL)
def test_special_moves_match_python_chess(fen: str, absent: set[str], present: set[str]) -> None:
    board = chess.Board(fen)
    expected = {m.uci() for m in board.legal_moves}
    for compiled in (False, None):
        ours = set(legal_moves(fen, compiled=compiled))
        assert ours == expected
        assert not absent & ours
        assert present <= ours


def _random_positions(seed: int, plies: int) -> list[chess.Board]:
    import random

    rng = random.Random(seed)
    board = chess.Board()
    boards = [board.copy()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        # prefer captures and promotions now and then, to reach endgames with promotions
        promotions = [m for m in moves if m.promotion]
        board.push(
            rng.choice(promotions) if promotions and rng.random() < 0.5 else rng.choice(moves)
        )
        boards.append(board.copy())
    return boards


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_legal_moves_equal_python_chess_after_random_play(seed: int, plies: int) -> None:
    for board in _random_positions(seed, plies)[-12:]:
        expected = sorted(m.uci() for m in board.legal_moves)
        assert sorted(legal_moves(board)) == expected, board.fen()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 200))
def test_perfts_last_ply_counts_what_python_chess_lists(seed: int, plies: int) -> None:
    # perft's last ply counts most moves from bitboards without listing them (free pieces and
    # pawns, promotions four times); python-chess lists and counts every move.
    for board in _random_positions(seed, plies)[-8:]:
        assert perft(board.fen(), 1) == board.legal_moves.count(), board.fen()
    board = _random_positions(seed, plies)[-1]
    assert perft(board.fen(), 1, compiled=False) == board.legal_moves.count(), board.fen()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_plain_python_generator_agrees(seed: int) -> None:
    for board in _random_positions(seed, 120)[::15]:
        assert sorted(legal_moves(board, compiled=False)) == sorted(
            m.uci() for m in board.legal_moves
        )


@pytest.mark.parametrize("compiled", [False, None])
def test_incremental_hash_equals_hash_from_scratch(compiled: bool | None) -> None:
    kernel = kernel_module(compiled)
    for board in _random_positions(7, 160)[:-1]:
        if board.is_game_over():
            break
        stack = _array(kernel, kernel.STACK_SIZE)
        moves = _array(kernel, kernel.MOVES_SIZE)
        load_position(kernel, stack, board)
        count = kernel.legal_moves(stack, 0, moves, 0)
        for i in range(count):
            move = int(moves[i])
            kernel.make_move(stack, 0, move)
            child = board.copy(stack=False)
            child.push(
                chess.Move(
                    move & 63,
                    (move >> 6) & 63,
                    ((move >> 12) & 7) + 1 if (move >> 12) & 7 else None,
                )
            )
            other = _array(kernel, kernel.STACK_SIZE)
            load_position(kernel, other, child)
            size = kernel.POS_SIZE
            assert list(stack[size : 2 * size]) == list(other[0:size]), (board.fen(), child.fen())


@pytest.mark.parametrize("compiled", [False, None])
def test_slider_attacks_equal_attacks_walked_square_by_square(compiled: bool | None) -> None:
    import random

    kernel = kernel_module(compiled)
    rng = random.Random(11)
    straight = ((1, 0), (-1, 0), (0, 1), (0, -1))
    diagonal = ((1, 1), (-1, -1), (1, -1), (-1, 1))
    for _ in range(3000):
        occupied = rng.getrandbits(64) & rng.getrandbits(64)
        sq = rng.randrange(64)
        word = kernel._word(occupied)
        assert kernel._word(kernel._slide(sq, occupied, straight)) == kernel.rook_attacks(sq, word)
        assert kernel._word(kernel._slide(sq, occupied, diagonal)) == kernel.bishop_attacks(
            sq, word
        )
