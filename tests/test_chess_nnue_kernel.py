"""The learned evaluation inside the chess kernel: its incremental accumulators give exactly the
reference's integer (zermelo.solvers.chess.nnue.evaluate), compiled and plain, and the searches'
node counts are pinned, with PeSTO and with a fixed test network."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import chess
import numpy as np
import pytest

from chess_positions import KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6
from zermelo.solvers.chess import ChessEngine, kernel_module, nnue
from zermelo.solvers.chess import kernel as compiled_kernel
from zermelo.solvers.chess.engine import _accumulators, _array, _kernel_move, load_position

COMPILED = compiled_kernel.COMPILED
needs_compiled = pytest.mark.skipif(not COMPILED, reason="compares the compiled kernel")

PLAYOUT_FENS = (
    chess.STARTING_FEN,
    KIWIPETE,  # every castling right
    POSITION_3,  # en passant with a pin on the rank
    POSITION_4,  # promotions with capture, Black's castling
    POSITION_5,  # a promotion on d8, White's castling
    POSITION_6,
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant at once
    "8/1P4k1/8/8/8/8/6p1/1K6 b - - 0 1",  # both sides promote, Black to move
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",  # castling both ways, Black to move
)


def _network(seed: int, hidden: int) -> nnue.Network:
    """A network of seeded random float weights, quantised (for tests and speed runs)."""
    rng = np.random.default_rng(seed)
    return nnue.quantise(
        rng.normal(0, 0.15, (nnue.FEATURES, hidden)),
        rng.normal(0.3, 0.2, hidden),
        rng.normal(0, 0.5, 2 * hidden),
        rng.normal(0, 0.1),
        {"test": seed},
    )


def _extreme_network(seed: int, hidden: int) -> nnue.Network:
    """A network of int16 weights over their whole range: its accumulators pass 32767 (int16
    would wrap) and its values pass the mate bound (the reference does not clamp)."""
    rng = np.random.default_rng(seed)
    return nnue.Network(
        rng.integers(-32768, 32768, (nnue.FEATURES, hidden), dtype=np.int16),
        rng.integers(-32768, 32768, hidden, dtype=np.int16),
        rng.integers(-32768, 32768, 2 * hidden, dtype=np.int16),
        int(rng.integers(-(2**31), 2**31)),
    )


def _playout_checks(kernel: ModuleType, network: nnue.Network, seed: int, positions: int) -> int:
    """Random playouts through the kernel's own ``make_move``, evaluating most positions
    reached (some are skipped, so the lazy update spans several plies) and going back now and
    then (so stale plies above are recomputed): every value equals the reference's. Returns how
    many positions were compared."""
    engine = ChessEngine(hash_mb=1, compiled=kernel.COMPILED, network=network)
    k = engine.kernel
    assert k is kernel
    stack = _array(k, k.STACK_SIZE)
    moves = _array(k, k.MOVES_SIZE)
    work = _array(k, k.WORK_SIZE)
    acc = _accumulators(k, network)
    ft, out = engine._ft, engine._out
    rng = random.Random(seed)
    checked = 0
    while checked < positions:
        board = chess.Board(rng.choice(PLAYOUT_FENS))
        load_position(k, stack, board)
        ply = 0
        for _ in range(rng.randrange(20, 160)):
            if ply > 0 and rng.random() < 0.08:
                back = rng.randrange(1, ply + 1)
                for _ in range(back):
                    board.pop()
                ply -= back
            count = k.legal_moves(stack, ply * k.POS_SIZE, moves, 0)
            if count == 0 or ply >= k.MAX_PLY - 1 or board.is_insufficient_material():
                break
            move = int(moves[rng.randrange(count)])
            k.make_move(stack, ply * k.POS_SIZE, move)
            board.push(_kernel_move(move))
            ply += 1
            if rng.random() < 0.7:
                value = int(k.nnue_evaluate(stack, ply, ft, out, acc, work))
                assert value == nnue.evaluate(network, board), (board.fen(), ply)
                checked += 1
    return checked


def test_the_kernel_reads_the_contracts_scales() -> None:
    k = kernel_module(False)
    assert (k.NNUE_FEATURES, k.NNUE_QA, k.NNUE_QB, k.NNUE_SCALE) == (
        nnue.FEATURES,
        nnue.QA,
        nnue.QB,
        nnue.SCALE,
    )


@needs_compiled
@pytest.mark.parametrize("hidden", [32, 256])
def test_compiled_accumulators_equal_the_reference(hidden: int) -> None:
    assert _playout_checks(kernel_module(True), _network(7, hidden), hidden, 3000) >= 3000


@needs_compiled
def test_compiled_accumulators_do_not_wrap_in_int16() -> None:
    assert _playout_checks(kernel_module(True), _extreme_network(3, 24), 5, 1500) >= 1500


def test_plain_accumulators_equal_the_reference() -> None:
    kernel = kernel_module(False)
    assert kernel.COMPILED is False
    assert _playout_checks(kernel, _network(11, 16), 1, 600) >= 600
    assert _playout_checks(kernel, _extreme_network(4, 8), 2, 300) >= 300


def test_the_engine_evaluates_with_its_network() -> None:
    network = _network(5, 32)
    board = chess.Board(KIWIPETE)
    for compiled in {False, COMPILED}:
        engine = ChessEngine(hash_mb=1, compiled=compiled, network=network)
        assert [engine.network] == [network]
        assert engine.evaluate(board) == nnue.evaluate(network, board)
        engine.set_network(None)
        assert engine.network is None
        assert engine.evaluate(board) == ChessEngine(hash_mb=1, compiled=compiled).evaluate(board)


PINNED_FENS = (
    "startpos",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    POSITION_6,
    POSITION_3,
)
PESTO_NODES = {
    # (nodes, move) of a depth-6 search with a 1 MiB table, measured before the network existed
    PINNED_FENS[0]: (9976, "e2e4"),
    PINNED_FENS[1]: (5575, "b1c3"),
    PINNED_FENS[2]: (10792, "c3d5"),
    PINNED_FENS[3]: (4161, "b4f4"),
}


@needs_compiled
@pytest.mark.parametrize("fen", PINNED_FENS)
def test_pesto_node_counts_are_pinned(fen: str) -> None:
    result = ChessEngine(hash_mb=1).search(fen, depth=6)
    assert result.move is not None
    assert (result.stats.nodes, result.move.uci()) == PESTO_NODES[fen]


NETWORK_NODES = {
    # the same with the test network of seed 2026, hidden 32 (random weights: odd moves)
    PINNED_FENS[0]: (1252, "a2a3"),
    PINNED_FENS[1]: (4119, "a2a3"),
    PINNED_FENS[2]: (21866, "c4f7"),
    PINNED_FENS[3]: (4594, "b4f4"),
}


@needs_compiled
@pytest.mark.parametrize("fen", PINNED_FENS)
def test_network_node_counts_are_pinned(fen: str) -> None:
    engine = ChessEngine(hash_mb=1, network=_network(2026, 32))
    result = engine.search(fen, depth=6)
    assert result.move is not None
    assert (result.stats.nodes, result.move.uci()) == NETWORK_NODES[fen]


@needs_compiled
@pytest.mark.parametrize("fen", [PINNED_FENS[1], POSITION_5])
def test_plain_python_network_search_is_the_same_tree(fen: str) -> None:
    network = _network(2026, 32)
    compiled = ChessEngine(hash_mb=1, network=network).search(fen, depth=3)
    plain = ChessEngine(hash_mb=1, compiled=False, network=network).search(fen, depth=3)
    assert (plain.move, plain.value, plain.stats.nodes, plain.pv) == (
        compiled.move,
        compiled.value,
        compiled.stats.nodes,
        compiled.pv,
    )


def test_changing_the_network_empties_the_evaluation_cache() -> None:
    """A value the cache holds from one evaluation is never served by the other: the same
    engine, switched back and forth, searches exactly as fresh engines do."""
    network = _network(9, 16)
    fen = PINNED_FENS[1]
    engine = ChessEngine(hash_mb=1, compiled=False)
    fresh_pesto = ChessEngine(hash_mb=1, compiled=False).quiesce(fen)
    fresh_net = ChessEngine(hash_mb=1, compiled=False, network=network).quiesce(fen)
    assert fresh_pesto != fresh_net
    assert engine.quiesce(fen) == fresh_pesto
    engine.set_network(network)
    assert engine.quiesce(fen) == fresh_net
    engine.set_network(None)
    assert engine.quiesce(fen) == fresh_pesto


def test_a_file_that_unpacks_too_far_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A small archive of a huge array (zeros compress to almost nothing) is refused by its
    declared size, in one line, before numpy decompresses it."""
    path = tmp_path / "bomb.npz"
    hidden = 2 * nnue.MAX_HIDDEN
    np.savez_compressed(
        path,
        meta=np.frombuffer(b'{"format": "zermelo-nnue"}', dtype=np.uint8),
        ft_weights=np.zeros((nnue.FEATURES, hidden), dtype=np.int16),
        ft_bias=np.zeros(hidden, dtype=np.int16),
        out_weights=np.zeros(2 * hidden, dtype=np.int16),
        out_bias=np.zeros(1, dtype=np.int32),
    )
    assert path.stat().st_size < 100_000
    with pytest.raises(nnue.NnueError, match=r"bomb\.npz: unpacks to 12,6\d\d,\d\d\d bytes, more"):
        nnue.load(path)
