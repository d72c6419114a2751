"""The helpers the compiled kernels share: one popcount for both, one attack set per chess piece,
and the ahead-of-time Connect Four build named after the shared code it is compiled from."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from zermelo.core import jit as _jit
from zermelo.solvers.chess import kernel_module as chess_kernel_module
from zermelo.solvers.connect4 import aot
from zermelo.solvers.connect4 import kernel_module as connect4_kernel_module

_RNG = random.Random(21)
WORDS = [0, 1, 2**62, 2**63 - 1, 2**63, 2**64 - 1, *(_RNG.getrandbits(64) for _ in range(200))]


def signed(word: int) -> int:
    return word - 2**64 if word >= 2**63 else word


@pytest.mark.parametrize("compiled", [False, True])
def test_popcount_counts_the_bits_of_every_word(compiled: bool) -> None:
    if compiled and not _jit.NUMBA_AVAILABLE:
        pytest.skip("numba is not installed")
    popcount = _jit.make_popcount(compiled)
    # compiled words are signed 64-bit (the sign bit is h8 in chess); plain ones non-negative ints
    counted = [popcount(signed(w) if compiled else w) for w in WORDS]
    assert counted == [w.bit_count() for w in WORDS]


def test_both_kernels_call_the_same_popcount() -> None:
    chess_kernel = chess_kernel_module(None)
    connect4_kernel = connect4_kernel_module(None)
    if chess_kernel.COMPILED and not connect4_kernel.AHEAD_OF_TIME:
        assert chess_kernel.popcount is connect4_kernel.popcount is _jit.make_popcount(True)
    plain = chess_kernel_module(False), connect4_kernel_module(False)
    assert plain[0].popcount is plain[1].popcount is _jit.make_popcount(False)


PIECES = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4, chess.KING: 5}


def boards(count: int) -> list[chess.Board]:
    """Positions of seeded random games, from the opening to crowded and sparse middle games."""
    rng = random.Random(4)
    found: list[chess.Board] = []
    while len(found) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        found.append(board)
    return found


@pytest.mark.parametrize("compiled", [None, False])
def test_piece_attacks_are_python_chess_attacks(compiled: bool | None) -> None:
    kernel = chess_kernel_module(compiled)
    checked = 0
    for board in boards(40):
        occupied = board.occupied
        word = signed(occupied) if kernel.COMPILED else occupied
        for square, piece in board.piece_map().items():
            if piece.piece_type == chess.PAWN:
                continue
            attacks = kernel.piece_attacks(PIECES[piece.piece_type], square, word) % 2**64
            assert attacks == int(board.attacks_mask(square)), (board.fen(), square)
            checked += 1
    assert checked > 300


def test_the_ahead_of_time_build_is_named_after_the_shared_jit_code_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = aot._module_name()
    shared = Path(_jit.__file__).resolve()
    real = Path.read_bytes

    def read_bytes(path: Path) -> bytes:
        data = real(path)
        return data + b"# changed\n" if path.resolve() == shared else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert aot._module_name() != before
