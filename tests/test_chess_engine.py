"""The chess engine: mates found with the right score, tactics, budgets, draws and the API."""

from __future__ import annotations

import random
import threading
import time

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.chess import ChessAgent
from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.scores import WIN
from zermelo.games.chess import ChessMove, ChessState
from zermelo.search.result import SearchResult
from zermelo.solvers.chess import ChessEngine, kernel_module, mate_in
from zermelo.solvers.chess import kernel as compiled_kernel
from zermelo.solvers.chess.evaluation import TERMS, Sample, explain, tune
from zermelo.solvers.chess.tools import in_pawns

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


def _ends_in_mate(fen: str, pv: tuple[ChessMove, ...]) -> bool:
    board = chess.Board(fen)
    for move in pv:
        board.push(move)
    return board.is_checkmate()


@pytest.mark.parametrize("fen", MATE_IN_2)
def test_mate_in_two(engine: ChessEngine, fen: str) -> None:
    engine.new_game()
    result = engine.search(fen, depth=5)
    assert mate_in(result.value) == 2
    assert result.value == WIN - 3 and result.exact
    assert len(result.pv) == 3 and _ends_in_mate(fen, result.pv)
    assert result.describe() == "win in 2"


# From sunfish's tests/files/mate4.fen: Black can only shuffle, so null moves hide the mate in 4
# (Kd2, Ke3, Kf2, Qg1) from the pruned search, which first sees a mate in 14 at depth 21.
ZUGZWANG_MATE_IN_4 = "8/5p1b/5Pp1/6P1/6PR/3P4/2P1P1pp/2K1Q1nk w - - 0 1"


def test_a_long_mate_found_first_is_verified_down_to_the_short_one() -> None:
    # The verification deepens by odd plies: a verification as deep as the mate in 14 (21 plies,
    # full width) ran out of its nodes and left the mate in 14 as the answer.
    engine = ChessEngine(hash_mb=32)
    result = engine.search(ZUGZWANG_MATE_IN_4, nodes=3_000_000)
    assert mate_in(result.value) == 4 and result.exact
    assert len(result.pv) == 7 and _ends_in_mate(ZUGZWANG_MATE_IN_4, result.pv)
    assert result.stats.nodes < 3_000_000  # proven shortest: it stopped before the budget


@pytest.mark.parametrize("fen", MATE_IN_3)
def test_mate_in_three(engine: ChessEngine, fen: str) -> None:
    engine.new_game()
    result = engine.search(fen, depth=7)
    assert mate_in(result.value) == 3
    assert result.value == WIN - 5
    assert _ends_in_mate(fen, result.pv)


def test_mated_side_sees_the_loss(engine: ChessEngine) -> None:
    # Black's only move is Kb8, and Rh8 mates
    fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
    result = engine.search(fen, depth=4)
    assert mate_in(result.value) == -1
    assert result.value == -(WIN - 2) and result.exact


def test_game_over_positions_have_no_move(engine: ChessEngine) -> None:
    mated = engine.search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert mated.move is None and mated.value == -WIN and mated.exact
    stalemate = engine.search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert stalemate.move is None and stalemate.value == 0 and stalemate.exact
    assert stalemate.describe() == "draw"
    analysis = engine.analyze_moves("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert (analysis.move, analysis.value, analysis.exact, analysis.moves) == (None, -WIN, True, ())


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
    found = engine.search(fen, depth=12)
    assert found.move is not None and found.move.uci() in best


def test_depth_and_node_caps(engine: ChessEngine) -> None:
    iterations: list[SearchResult[ChessMove]] = []
    result = engine.search("startpos", depth=4, progress=iterations.append)
    assert result.depth == 4
    assert [found.depth for found in iterations] == [1, 2, 3, 4]
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    capped = engine.search(kiwipete, nodes=5_000)
    assert capped.stats.nodes <= 5_000
    assert capped.move in set(chess.Board(kiwipete).legal_moves)


def test_progress_reports_every_iteration_as_the_answer_stands(engine: ChessEngine) -> None:
    engine.new_game()
    iterations: list[SearchResult[ChessMove]] = []
    result = engine.search(MATE_IN_2[0], depth=5, progress=iterations.append)
    last = iterations[-1]
    assert (last.move, last.value, last.pv, last.depth, last.exact) == (
        result.move,
        result.value,
        result.pv,
        result.depth,
        result.exact,
    )
    assert (last.stats.nodes, last.stats.seldepth) == (result.stats.nodes, result.stats.seldepth)
    assert last.stats.elapsed <= result.stats.elapsed
    nodes = [found.stats.nodes for found in iterations]
    assert nodes == sorted(nodes) and nodes[0] > 0
    assert all(found.stats.seldepth >= found.depth for found in iterations)
    assert not iterations[0].exact and result.exact  # the mate shows from depth 3


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
    assert result.move in set(chess.Board().legal_moves)


def test_repetition_is_a_draw_inside_the_search(engine: ChessEngine) -> None:
    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    analysis = engine.analyze_moves("startpos", moves=moves, depth=3)
    values = {a.move.uci(): a.value for a in analysis.moves}
    assert values["f6g8"] == 0  # the start position a third time
    assert values["e7e5"] != 0 or values["d7d5"] != 0


def test_fifty_move_rule_inside_the_search(engine: ChessEngine) -> None:
    # a rook up, but the next quiet move ends the game by the fifty-move rule
    analyses = engine.analyze_moves("8/8/8/8/8/5k2/8/R3K3 w - - 99 80", depth=3).moves
    assert analyses and all(a.value == 0 and not a.exact for a in analyses)
    fresh = engine.analyze_moves("8/8/8/8/8/5k2/8/R3K3 w - - 0 80", depth=3).moves
    assert max(a.value for a in fresh) > 300


def test_analyze_moves_covers_every_legal_move(engine: ChessEngine) -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    analysis = engine.analyze_moves(fen, depth=3)
    analyses = analysis.moves
    assert {a.move for a in analyses} == set(chess.Board(fen).legal_moves)
    assert analyses[0].move.uci() == "h5f7" and mate_in(analyses[0].value) == 1  # Scholar's mate
    assert analyses[0].exact and not any(a.exact for a in analyses[1:])
    scores = [a.value for a in analyses]
    assert scores == sorted(scores, reverse=True)
    assert chess.Board(fen).san(analyses[0].move) == "Qxf7#"
    for entry in analyses:
        board = chess.Board(fen)
        assert entry.pv[0] == entry.move
        for move in entry.pv:
            assert move in board.legal_moves
            board.push(move)
    first = analyses[0]
    assert (analysis.move, analysis.value, analysis.pv, analysis.exact, analysis.depth) == (
        first.move,
        first.value,
        first.pv,
        True,
        3,
    )
    assert analysis.stats.nodes > 0


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
        assert result.move in board.legal_moves and result.pv[0] == result.move
        replay = board.copy()
        for move in result.pv:
            assert move in replay.legal_moves
            replay.push(move)


@pytest.mark.skipif(not compiled_kernel.COMPILED, reason="compares the compiled kernel")
@pytest.mark.parametrize(
    "fen",
    ["startpos", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"],
)
def test_plain_python_kernel_searches_the_same_tree(fen: str) -> None:
    compiled = ChessEngine(hash_mb=1).search(fen, depth=3)
    plain = ChessEngine(hash_mb=1, compiled=False).search(fen, depth=3)
    assert kernel_module(False).COMPILED is False
    assert (plain.move, plain.value, plain.stats.nodes, plain.pv) == (
        compiled.move,
        compiled.value,
        compiled.stats.nodes,
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


def test_front_ends_read_centipawns_as_pawns_and_mates_unchanged(engine: ChessEngine) -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    analysis = engine.analyze_moves(fen, depth=2)
    shown = in_pawns(analysis)
    assert shown.value == analysis.value == WIN - 1 and shown.describe() == "win in 1"
    assert [entry.value for entry in shown.moves] == [
        float(entry.value) if entry.exact else entry.value / 100 for entry in analysis.moves
    ]
    assert [(e.move, e.pv, e.exact) for e in shown.moves] == [
        (e.move, e.pv, e.exact) for e in analysis.moves
    ]
    assert (shown.move, shown.pv, shown.depth, shown.stats) == (
        analysis.move,
        analysis.pv,
        analysis.depth,
        analysis.stats,
    )
    quiet = engine.search("startpos", depth=3)
    assert in_pawns(quiet).value == quiet.value / 100 and not quiet.exact


def test_the_agent_keeps_the_search_behind_its_move() -> None:
    state = ChessState.initial()
    hard = ChessAgent(depth=3, hash_mb=1)
    move = hard.choose(state)
    assert hard.last is not None and hard.last.move == move and hard.last.depth == 3
    noisy = ChessAgent(depth=2, noise=30.0, seed=1, hash_mb=1)
    assert noisy.choose(state) in set(state.board.legal_moves)
    assert noisy.last is None  # its move is not the one the values rank first


def test_the_agent_refuses_another_games_state_in_one_line() -> None:
    from zermelo.games.connect4 import Connect4State

    with pytest.raises(
        InvalidPositionError, match=r"^the chess levels play chess only, not Connect4State$"
    ):
        ChessAgent(depth=1, hash_mb=1).choose(Connect4State.initial())
