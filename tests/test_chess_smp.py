"""Lazy SMP: the chess engine's helper threads and the lock-free table they share (issue 26)."""

from __future__ import annotations

import threading

import chess
import chess.engine
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import english_env
from zermelo.core.errors import BudgetError
from zermelo.core.scores import WIN
from zermelo.solvers.chess import ChessEngine, kernel_module
from zermelo.solvers.chess import kernel as compiled_kernel
from zermelo.solvers.chess.engine import MAX_THREADS

needs_compiled = pytest.mark.skipif(
    not compiled_kernel.COMPILED, reason="helper threads run with the compiled kernel only"
)

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MATE_IN_THREE = "4R3/1k6/bp6/1p1P4/1K6/8/1B6/3Q4 w - - 0 1"
# Win At Chess 3: the rook lift Rg3 (its key move, found at depth 7 on one thread and on two)
WAC_003 = "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1"


def _helpers_alive() -> int:
    return sum(t.name == "zermelo-chess-helper" and t.is_alive() for t in threading.enumerate())


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_compiled), False])
def test_a_slot_written_half_by_another_thread_is_not_read(compiled: bool) -> None:
    k = kernel_module(compiled)
    table = np.zeros(16, dtype=np.int64) if compiled else [0] * 16
    key = 0x1234_5678_9ABC_DEF3
    k.tt_store(table, key, 777, 5, 1, 42, 0)
    data = k.tt_probe(table, key)
    assert data & ((1 << 18) - 1) == 777 and (data >> 18) & 127 == 5
    slot = (key & 7) << 1
    other = 0x0FED_CBA9_8765_4323  # same slot, another position
    # another thread's store of ``other`` got as far as the data word only
    table[slot + 1] = 888 | 3 << 18 | 1 << 25 | (compiled_kernel.SCORE_OFFSET + 9) << 32
    assert k.tt_probe(table, key) == -1
    assert k.tt_probe(table, other) == -1


@needs_compiled
def test_two_threads_find_the_shortest_mate() -> None:
    engine = ChessEngine(hash_mb=8, threads=2)
    result = engine.search(MATE_IN_THREE, depth=7)
    assert result.value == WIN - 5 and result.exact
    board = chess.Board(MATE_IN_THREE)
    for move in result.pv:
        board.push(move)
    assert board.is_checkmate() and len(result.pv) == 5
    assert _helpers_alive() == 0


@needs_compiled
def test_two_threads_find_the_tactic_and_count_the_helpers_nodes() -> None:
    engine = ChessEngine(hash_mb=8, threads=2)
    result = engine.search(WAC_003, depth=7)
    assert result.move is not None and result.move.uci() == "e3g3"
    main = int(engine._work[engine.kernel.W_NODES])
    assert result.stats.nodes > main > 0  # the helper's nodes are in the count
    assert _helpers_alive() == 0


@needs_compiled
def test_a_search_bound_by_nodes_stays_reproducible_on_many_threads() -> None:
    one = ChessEngine(hash_mb=8).search(KIWIPETE, nodes=30_000)
    many = ChessEngine(hash_mb=8, threads=4).search(KIWIPETE, nodes=30_000)
    assert (many.move, many.value, many.stats.nodes) == (one.move, one.value, one.stats.nodes)


def test_one_thread_searches_as_before() -> None:
    # the pinned count of tests/test_node_counts.py: the lock-free slots changed no search
    result = ChessEngine(hash_mb=1, threads=1).search(KIWIPETE, depth=4)
    if compiled_kernel.COMPILED:
        assert result.stats.nodes == 1915


@pytest.mark.parametrize("bad", [0, -1, MAX_THREADS + 1, True, 2.0, "2", None])
def test_a_bad_thread_count_is_one_line(bad: object) -> None:
    with pytest.raises(BudgetError, match=f"expected 1 to {MAX_THREADS}") as caught:
        ChessEngine(hash_mb=1, threads=bad)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)
    engine = ChessEngine(hash_mb=1)
    with pytest.raises(BudgetError):
        engine.set_threads(bad)  # type: ignore[arg-type]
    assert engine.threads == 1


@needs_compiled
@settings(max_examples=25, deadline=None)
@given(
    threads=st.integers(1, 4),
    limits=st.lists(
        st.one_of(
            st.tuples(st.just("depth"), st.integers(1, 6)),
            st.tuples(st.just("movetime"), st.floats(0.001, 0.05)),
            st.tuples(st.just("stop"), st.just(0)),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_fuzz_threads_and_limits_always_answer_and_leave_no_thread(
    threads: int, limits: list[tuple[str, float]]
) -> None:
    engine = ChessEngine(hash_mb=2, threads=threads)
    board = chess.Board(KIWIPETE)
    for kind, amount in limits:
        if kind == "depth":
            result = engine.search(board, depth=int(amount))
        elif kind == "movetime":
            result = engine.search(board, movetime=amount)
        else:
            stop = threading.Event()
            stop.set()
            result = engine.search(board, stop_event=stop)
        assert result.move is not None and result.move in board.legal_moves
        assert result.depth >= 1
        assert _helpers_alive() == 0
        board.push(result.move)
        if board.is_game_over():
            break


@needs_compiled
def test_the_threads_option_as_a_gui_sets_it() -> None:
    import sys

    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zermelo", "uci"], env=english_env(), timeout=180
    )
    try:
        option = engine.options["Threads"]
        assert (option.default, option.min, option.max) == (1, 1, MAX_THREADS)
        engine.configure({"Threads": 2})
        board = chess.Board(MATE_IN_THREE)
        result = engine.play(board, chess.engine.Limit(depth=7), info=chess.engine.INFO_ALL)
        assert result.info["score"].relative == chess.engine.Mate(3)
        assert result.move == result.info["pv"][0]
    finally:
        engine.quit()


@needs_compiled
def test_helpers_evaluate_with_the_network_on_their_own_accumulators() -> None:
    from zermelo.solvers.chess import nnue

    rng = np.random.default_rng(26)
    network = nnue.quantise(
        rng.normal(0, 0.05, (nnue.FEATURES, 32)),
        rng.normal(0, 0.05, 32),
        rng.normal(0, 0.3, 64),
        0.0,
    )
    engine = ChessEngine(hash_mb=8, threads=3, network=network)
    result = engine.search(KIWIPETE, depth=6)
    assert result.move is not None and result.move in chess.Board(KIWIPETE).legal_moves
    assert result.stats.nodes > int(engine._work[engine.kernel.W_NODES])
    assert all(int(helper.work[engine.kernel.W_NODES]) > 0 for helper in engine._helpers)
    board = chess.Board(KIWIPETE)
    board.push(result.move)
    assert engine.evaluate(board) == nnue.evaluate(network, board)
    # back to the built-in evaluation: no helper keeps a value of the network
    engine.set_network(None)
    k = engine.kernel
    assert not any(any(helper.work[k.EVAL_BASE : k.WORK_SIZE]) for helper in engine._helpers)
    engine.new_game()
    one = ChessEngine(hash_mb=8).search(KIWIPETE, nodes=20_000)
    again = engine.search(KIWIPETE, nodes=20_000)
    assert (again.move, again.value) == (one.move, one.value)
    assert _helpers_alive() == 0
