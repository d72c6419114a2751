"""The chess engine: mates found with the right score, tactics, budgets, draws and the API."""

from __future__ import annotations

import random
import threading
import time

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import BudgetError, IllegalMoveError, ParseError
from zermelo.core.scores import WIN
from zermelo.solvers.chess import ChessEngine, kernel_module
from zermelo.solvers.chess import kernel as compiled_kernel
from zermelo.solvers.chess.evaluation import TERMS, Sample, explain, tune

# Problems from thomasahle/sunfish tests/files/mate2.fen and mate3.fen (White or Black mates).
MATE_IN_2 = (
    "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0",
    "3rrk2/2p2pR1/p4n2/1p1PpP2/2p2q1P/3P1BQ1/PPP5/6RK w - - 1 0",
    "r4kr1/1b2R1n1/pq4p1/4Q3/1p4P1/5P2/PPP4P/1K2R3 w - - 1 0",
    "3n4/1R6/p5k1/2B5/1P3PK1/r7/8/8 w - - 1 0",
    "1r3rk1/1pnnq1bR/p1pp2B1/P2P1p2/1PP1pP2/2B3P1/5PK1/2Q4R w - - 1 0",
    "b3r1k1/5ppp/p2p4/p4qN1/Q2b4/6R1/5PPP/5RK1 b - - 0 1",
)
MATE_IN_3 = (
    "1K3RQ1/ppn3p1/r3N1pq/2pN4/2b1kPB1/b5r1/8/2BR4 w - - 0 1",
    "1r4k1/8/5PP1/K7/6NR/7B/1r6/7R w - - 0 1",
    "2q5/4B2p/7n/4p1pk/P2n1b2/R3P2P/2r3P1/1Q3R1K b - - 0 1",
)


@pytest.fixture(scope="module")
def engine() -> ChessEngine:
    return ChessEngine(hash_mb=8)


def _ends_in_mate(fen: str, pv: tuple[str, ...]) -> bool:
    board = chess.Board(fen)
    for move in pv:
        board.push(chess.Move.from_uci(move))
    return board.is_checkmate()


@pytest.mark.parametrize("fen", MATE_IN_2)
def test_mate_in_two(engine: ChessEngine, fen: str) -> None:
    engine.new_game()
    result = engine.search(fen, depth=5)
    assert result.mate == 2
    assert result.score == WIN - 3
    assert len(result.pv) == 3 and _ends_in_mate(fen, result.pv)
    assert result.describe() == "win in 2"


@pytest.mark.parametrize("fen", MATE_IN_3)
def test_mate_in_three(engine: ChessEngine, fen: str) -> None:
    engine.new_game()
    result = engine.search(fen, depth=7)
    assert result.mate == 3
    assert result.score == WIN - 5
    assert _ends_in_mate(fen, result.pv)


def test_mated_side_sees_the_loss(engine: ChessEngine) -> None:
    # Black's only move is Kb8, and Rh8 mates
    fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
    result = engine.search(fen, depth=4)
    assert result.mate == -1
    assert result.score == -(WIN - 2)


def test_game_over_positions_have_no_move(engine: ChessEngine) -> None:
    mated = engine.search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert mated.move is None and mated.score == -WIN
    stalemate = engine.search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert stalemate.move is None and stalemate.score == 0


@pytest.mark.parametrize(
    ("fen", "best"),
    [
        ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", {"g3g6"}),  # WAC.001
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", {"f8c5"}),  # WAC.004
        ("5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1", {"e3g3"}),  # WAC.003
    ],
)
def test_known_tactics(engine: ChessEngine, fen: str, best: set[str]) -> None:
    engine.new_game()
    assert engine.search(fen, depth=12).move in best


def test_depth_and_node_caps(engine: ChessEngine) -> None:
    result = engine.search("startpos", depth=4)
    assert result.depth == 4
    assert [info.depth for info in result.infos] == [1, 2, 3, 4]
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    capped = engine.search(kiwipete, nodes=5_000)
    assert capped.nodes <= 5_000
    assert capped.move in {m.uci() for m in chess.Board(kiwipete).legal_moves}


def test_time_limits_are_kept(engine: ChessEngine) -> None:
    start = time.perf_counter()
    result = engine.search("startpos", movetime=0.3)
    assert time.perf_counter() - start < 2.0
    assert result.move is not None
    start = time.perf_counter()
    # 0.5 s left on White's clock: a move well inside it
    engine.search("startpos", wtime=0.5, btime=60, winc=0, binc=0)
    assert time.perf_counter() - start < 0.5


def test_stop_event_ends_an_infinite_search(engine: ChessEngine) -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    start = time.perf_counter()
    result = engine.search("startpos", stop_event=stop)
    assert time.perf_counter() - start < 5.0
    assert result.move in {m.uci() for m in chess.Board().legal_moves}


def test_repetition_is_a_draw_inside_the_search(engine: ChessEngine) -> None:
    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    values = {a.move: a.score for a in engine.analyze_moves("startpos", moves=moves, depth=3)}
    assert values["f6g8"] == 0  # the start position a third time
    assert values["e7e5"] != 0 or values["d7d5"] != 0


def test_fifty_move_rule_inside_the_search(engine: ChessEngine) -> None:
    # a rook up, but the next quiet move ends the game by the fifty-move rule
    analyses = engine.analyze_moves("8/8/8/8/8/5k2/8/R3K3 w - - 99 80", depth=3)
    assert analyses and all(a.score == 0 for a in analyses)
    fresh = engine.analyze_moves("8/8/8/8/8/5k2/8/R3K3 w - - 0 80", depth=3)
    assert max(a.score for a in fresh) > 300


def test_analyze_moves_covers_every_legal_move(engine: ChessEngine) -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    analyses = engine.analyze_moves(fen, depth=3)
    assert {a.move for a in analyses} == {m.uci() for m in chess.Board(fen).legal_moves}
    assert analyses[0].move == "h5f7" and analyses[0].mate == 1  # Scholar's mate
    scores = [a.score for a in analyses]
    assert scores == sorted(scores, reverse=True)
    assert analyses[0].san == "Qxf7#"


def test_bad_input_raises_zermelo_errors(engine: ChessEngine) -> None:
    with pytest.raises(ParseError, match="'rnbqk'"):
        engine.search("rnbqk", depth=1)
    with pytest.raises(IllegalMoveError, match="'e2e5'"):
        engine.search("startpos", moves=["e2e5"], depth=1)
    with pytest.raises(BudgetError, match="depth"):
        engine.search("startpos", depth=0)
    with pytest.raises(BudgetError, match="node"):
        engine.search("startpos", nodes=0)
    with pytest.raises(BudgetError, match="hash"):
        engine.resize(0)


def _random_board(seed: int, plies: int) -> chess.Board:
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over(claim_draw=True):
            break
        board.push(rng.choice(moves))
    return board


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_search_returns_a_legal_move(engine: ChessEngine, seed: int, plies: int) -> None:
    board = _random_board(seed, plies)
    result = engine.search(board, nodes=3_000)
    if board.is_game_over(claim_draw=True):
        assert result.move is None
    else:
        assert chess.Move.from_uci(result.move or "0000") in board.legal_moves
        replay = board.copy()
        for move in result.pv:
            replay.push(chess.Move.from_uci(move))


@pytest.mark.skipif(not compiled_kernel.COMPILED, reason="compares the compiled kernel")
@pytest.mark.parametrize(
    "fen",
    ["startpos", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"],
)
def test_plain_python_kernel_searches_the_same_tree(fen: str) -> None:
    compiled = ChessEngine(hash_mb=1).search(fen, depth=3)
    plain = ChessEngine(hash_mb=1, compiled=False).search(fen, depth=3)
    assert kernel_module(False).COMPILED is False
    assert (plain.move, plain.score, plain.nodes, plain.pv) == (
        compiled.move,
        compiled.score,
        compiled.nodes,
        compiled.pv,
    )


def test_explain_adds_up_to_the_evaluation() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    explanation = explain(fen)
    assert [t.name for t in explanation.terms] == list(TERMS)
    assert int(explanation.total) == explanation.score
    black = explain(fen.replace(" w ", " b "))
    assert black.score == -int(black.total)
    start = explain("startpos")
    assert all(t.value == 0 for t in start.terms) and start.phase == 1.0
    pair = explain("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")
    assert pair.terms[TERMS.index("bishop pair")].value == 1.0


def test_tune_moves_a_weight_towards_the_results() -> None:
    # bishop pair alone decides: White wins with it, loses without (the weight must grow)
    index = TERMS.index("bishop pair")
    samples = []
    for value, result in ((1.0, 1.0), (-1.0, 0.0), (1.0, 1.0), (-1.0, 0.0), (0.0, 0.5)):
        features = [0.0] * len(TERMS)
        features[index] = value
        features[0] = 10.0 * value
        samples.append(Sample(tuple(features), result))
    fitted = tune(samples, iterations=50)
    assert fitted.error_after < fitted.error_before
    assert fitted.weights[index] > 30.0
    assert fitted.weights[0] == 1.0  # fixed
