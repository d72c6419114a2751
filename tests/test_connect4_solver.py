"""The exact Connect Four solver: benchmark sets, UCI outcomes, small-board oracle, both kernels."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from c4data import SETS, read_set, read_uci
from conftest import english_env
from zermelo.core.errors import BudgetError, InvalidPositionError, ParseError, ZermeloError
from zermelo.core.scores import WIN
from zermelo.core.state import Player
from zermelo.games.connect4 import Connect4State
from zermelo.search import minimax
from zermelo.solvers.connect4 import (
    Connect4Solver,
    analyze,
    benchmark_score,
    choose_move,
    describe_score,
    from_negamax,
    kernel_module,
    plies_to_finish,
    solve,
    solve_lines,
    to_negamax,
)
from zermelo.solvers.connect4.api import HARD_NODE_LIMIT, hard_move
from zermelo.solvers.connect4.book import (
    book_depth,
    canonical,
    load_best,
    load_book,
    read_best,
    read_book,
    write_book,
)
from zermelo.solvers.connect4.builder import (
    back_up_best,
    best_columns,
    best_tasks,
    build_book,
    deepest_tasks,
    positions_at,
)

COMPILED = kernel_module().COMPILED
needs_numba = pytest.mark.skipif(not COMPILED, reason="numba is not installed or is disabled")


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return Connect4Solver(book=False, table_bits=22)


def states(rows: list[tuple[str, int]]) -> list[Connect4State]:
    return [Connect4State.parse(moves) for moves, _ in rows]


# -- benchmark sets -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "limit"),
    [("Test_L3_R1", 400), ("Test_L2_R1", 400), ("Test_L1_R1", 400), ("Test_L2_R2", 150)],
)
def test_exact_scores_on_the_quick_sets(
    solver: Connect4Solver, name: str, limit: int | None
) -> None:
    rows = read_set(name, limit)
    positions = [(s.current, s.mask, s.ply) for s in states(rows)]
    scores, nodes = solver.solve_batch(positions)
    assert scores == [score for _, score in rows]
    assert sum(nodes) > len(rows)  # a win on the spot needs no node; the rest do


@pytest.mark.slow
def test_exact_scores_on_the_shipped_l2_r2(solver: Connect4Solver) -> None:
    rows = read_set("Test_L2_R2", 400)
    scores, _ = solver.solve_batch([(s.current, s.mask, s.ply) for s in states(rows)])
    assert scores == [score for _, score in rows]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), [("Test_L1_R2", 12), ("Test_L1_R3", 3)])
def test_exact_scores_on_the_hard_sets(solver: Connect4Solver, name: str, count: int) -> None:
    rows = read_set(name, count)
    scores, _ = solver.solve_batch([(s.current, s.mask, s.ply) for s in states(rows)])
    assert scores == [score for _, score in rows]


def test_stream_of_lines_matches_the_file(solver: Connect4Solver) -> None:
    rows = read_set("Test_L2_R1", 40)
    lines = [f"{moves} {score}" for moves, score in rows]
    lines.insert(5, "44x5 7")
    lines.insert(9, "")
    outcomes = list(solve_lines(lines, solver=solver, fresh=True))
    assert len(outcomes) == len(rows) + 1
    bad = [o for o in outcomes if not o.ok]
    assert [o.line_number for o in bad] == [6]
    assert isinstance(bad[0].error, ParseError) and "'44x5'" in str(bad[0].error)
    good = [o for o in outcomes if o.ok]
    assert [o.score for o in good] == [score for _, score in rows]
    assert all(o.result is not None and o.result.stats.nodes > 0 for o in good)
    for outcome in good:
        assert outcome.result is not None and outcome.result.exact
        ply = len(outcome.text)
        assert benchmark_score(outcome.result.value, ply) == outcome.score


def test_weak_mode_gives_the_sign(solver: Connect4Solver) -> None:
    rows = read_set("Test_L2_R2", 60)
    positions = [(s.current, s.mask, s.ply) for s in states(rows)]
    weak, _ = solver.solve_batch(positions, weak=True)
    assert weak == [(score > 0) - (score < 0) for _, score in rows]
    assert set(weak) == {-1, 0, 1}


# Rows of the UCI sample, two per outcome, that the solver settles in at most 15 M nodes each
# (under 2 s of CPU in all); the slow test below takes 24 rows at random, some 100 M nodes each.
QUICK_UCI_ROWS = {9: -1, 26: -1, 16: 0, 72: 0, 2: 1, 5: 1}


def test_the_uci_sample_is_whole() -> None:
    rows = read_uci()
    assert len(rows) == 600
    assert sorted(outcome for _, _, outcome in rows) == [-1] * 200 + [0] * 200 + [1] * 200


def test_weak_mode_matches_the_uci_database(solver: Connect4Solver) -> None:
    rows = read_uci()
    for index, expected in QUICK_UCI_ROWS.items():
        current, mask, outcome = rows[index]
        assert outcome == expected
        solver.new_generation()
        assert solver.score_bitboard(current, mask, 8, weak=True) == outcome


@pytest.mark.slow
def test_weak_mode_matches_the_uci_database_more(solver: Connect4Solver) -> None:
    rows = read_uci()
    rng = random.Random(1995)
    sample = [
        row for outcome in (-1, 0, 1) for row in rng.sample([r for r in rows if r[2] == outcome], 8)
    ]
    for current, mask, outcome in sample:
        assert solver.score_bitboard(current, mask, 8, weak=True) == outcome


# -- known facts ----------------------------------------------------------------------------


def test_scores_convert_between_conventions() -> None:
    # Empty board, score 1: the first player wins with his 21st stone, the 41st ply.
    assert plies_to_finish(1, 0) == 41
    assert to_negamax(1, 0) == WIN - 41
    assert describe_score(1, 0) == "win in 21"
    assert describe_score(-1, 37) == "loss in 2"
    assert describe_score(0, 10) == "draw"
    assert plies_to_finish(-18, 7) == 0  # the game is already lost


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 41), st.integers(-21, 21))
def test_score_conversion_round_trips(ply: int, score: int) -> None:
    low, high = -((42 - ply) // 2), (43 - ply) // 2
    assume(low <= score <= high)
    assert from_negamax(to_negamax(score, ply), ply) == score


def test_finished_games_are_reported_not_solved() -> None:
    result = solve("1212121")
    assert result.move is None and result.moves == () and result.pv == ()
    assert result.value == -WIN and result.exact and result.reason == ""  # lost already
    assert benchmark_score(result.value, 7) == -18  # the winner connected with its 4th stone
    assert benchmark_score(solve("1212121", weak=True).value, 7, weak=True) == -1
    drawn = Connect4Solver(2, 2, book=False).solve("1212")
    assert drawn.move is None and drawn.value == 0 and drawn.exact


def test_result_carries_moves_and_converts(solver: Connect4Solver) -> None:
    result = solver.solve("2252576253462244111563365343671351441")
    assert result.move == 5 and result.value == -(WIN - 4) and result.exact
    assert [(m.move, m.value, m.exact) for m in result.moves] == [(5, -(WIN - 4), True)]
    assert result.pv == (5,) and result.reason == "search" and result.stats.nodes > 0
    assert result.depth == 42 - 37
    assert benchmark_score(result.value, 37) == -1
    assert result.describe() == "loss in 2"
    weak = solver.solve("2252576253462244111563365343671351441", weak=True)
    assert weak.reason == "weak" and weak.exact and weak.value < 0
    assert abs(weak.value) <= abs(result.value)  # the slowest loss there is: a bound
    assert benchmark_score(weak.value, 37, weak=True) == -1
    assert [m.move for m in weak.moves] == [5, 6]  # a weak loss: every column keeps it


def test_analysis_lists_every_column(solver: Connect4Solver) -> None:
    analysis = analyze("2252576253462244111563365343671351441", solver=solver)
    scores = [(m.move, benchmark_score(m.value, 37)) for m in analysis.moves]
    assert scores == [(5, -1), (6, -2)]  # best first; columns 1 to 5 are full
    assert analysis.move == 5 and analysis.value == analysis.moves[0].value
    assert analysis.pv[0] == 5 and len(analysis.pv) == 42 - 37 - 1
    assert analysis.moves[0].pv == analysis.pv and analysis.moves[1].pv == (6,)
    final = Connect4State.parse("2252576253462244111563365343671351441")
    for move in analysis.pv:
        final = final.play(move)
    assert final.winner is Player.FIRST  # the second player is to move at ply 37 and loses


def test_principal_variation_is_the_chain_of_best_moves(solver: Connect4Solver) -> None:
    # The line solves its position once and then only checks that each move keeps the score;
    # it must be the line of repeated best_move calls (the first keeper in centre order), and
    # end the game as the score says: the winner connects with the stone the score counts.
    for moves, expected in read_set("Test_L2_R1")[:12]:
        state = Connect4State.parse(moves)
        line = solver.principal_variation(state)
        assert line == solver.principal_variation(state, score=expected)
        chain, walk = [], state
        while walk.winner is None and not walk.is_full():
            chain.append(solver.best_move(walk)[0])
            walk = walk.play(chain[-1])
        assert tuple(chain) == line, moves
        if expected == 0:
            assert walk.winner is None
        else:
            winner_stones = (walk.ply + 1) // 2
            assert 22 - winner_stones == abs(expected), moves
            assert (walk.winner == state.to_move) == (expected > 0), moves


def test_empty_board_from_the_book() -> None:
    book_solver = Connect4Solver(table_bits=16)
    result = book_solver.solve("")
    assert result.reason == "book" and result.stats.nodes == 0
    assert benchmark_score(result.value, 0) == 1  # the first player wins with his 21st stone
    assert [m.move for m in result.moves] == [3]  # only the centre column wins
    assert result.describe() == "win in 21"
    weak = book_solver.solve("", weak=True)
    assert weak.reason == "weak" and weak.exact and benchmark_score(weak.value, 0) == 1
    assert benchmark_score(weak.value, 0, weak=True) == 1
    # The column scores of the empty board: -2 -1 0 1 0 -1 -2.
    assert book_solver.analyze("") == [-2, -1, 0, 1, 0, -1, -2]


def test_book_is_consistent_with_negamax() -> None:
    book = load_book()
    assert book is not None
    depth = book_depth()
    plain = Connect4Solver(book=False, table_bits=16)
    booked = Connect4Solver(table_bits=16)
    for ply in range(depth):
        for state in positions_at(ply):
            children = [-booked.score(state.play(column)) for column in state.legal_moves()]
            assert booked.score(state) == max(children)
            assert booked.book_score(state.current, state.mask) is not None
    assert all(booked.book_score(s.current, s.mask) is not None for s in positions_at(depth))
    late = "2252576253462244111563365343671351441"
    assert booked.solve(late).reason == "search"
    assert plain.score(late) == booked.score(late) == -1


@pytest.mark.slow
def test_positions_just_past_the_book_score_as_a_direct_solve() -> None:
    # One ply past the book the solver starts from a lower bound its parents give, and confirms
    # it with one null-window search when the last move was a best one. After a best move and
    # after a worse one, the score must be the one a solver without a book finds.
    rng = random.Random(7)
    booked = Connect4Solver(table_bits=20)
    plain = Connect4Solver(book=False, table_bits=20)
    for parent in rng.sample(positions_at(book_depth()), 2):
        score = booked.score(parent)
        keepers, _ = booked._best_moves(parent, score, False)
        best = parent.play(keepers[0])
        assert booked._floor_from_book(best.current, best.mask) == -score
        assert booked.score(best) == plain.score(best) == -score
        worse = [c for c in parent.legal_moves() if c not in keepers]
        worse = [c for c in worse if not parent.play(c).is_terminal()]
        if worse:
            child = parent.play(worse[0])
            floor = booked._floor_from_book(child.current, child.mask)
            assert floor is not None and floor <= plain.score(child)
            assert booked.score(child) == plain.score(child) > -score


def test_two_plies_past_the_book_the_best_columns_give_a_lower_bound() -> None:
    # 4444466 is in the book (-1) and 6 is its only best column, so 44444666 scores exactly 1
    # and every reply scores at least -1 (another parent may bound it higher).
    booked = Connect4Solver(table_bits=12)
    parent = Connect4State.parse("4444466")
    assert booked.score(parent) == -1 and booked.keepers(parent, -1) == (5,)
    for reply in "1234567":
        child = Connect4State.parse("44444666" + reply)
        floor = booked._floor_from_book(child.current, child.mask)
        assert floor is not None and floor >= -1, reply
    assert booked._floor_from_book(*_bitboards("444446666")) == -1


def _bitboards(moves: str) -> tuple[int, int]:
    state = Connect4State.parse(moves)
    return state.current, state.mask


@pytest.mark.slow
def test_two_plies_past_the_book_the_score_is_a_direct_solves() -> None:
    # Each reply to a best move at the book's deepest ply: the score from the bound the best
    # columns give equals a solver's without a book, and the bound holds.
    booked = Connect4Solver()
    plain = Connect4Solver(book=False)
    for reply in "1234567":
        child = Connect4State.parse("44444666" + reply)
        floor = booked._floor_from_book(child.current, child.mask)
        assert floor is not None and floor <= plain.score(child) == booked.score(child), reply


@needs_numba
def test_early_roots_search_with_the_early_shallow_limit() -> None:
    from zermelo.solvers.connect4.solver import COMPILED_SHALLOW, EARLY_EMPTY, EARLY_SHALLOW

    solver = Connect4Solver(book=False, table_bits=16)
    w_shallow = solver.kernel.W_SHALLOW
    early = Connect4State.parse("21212135577")  # 42 - EARLY_EMPTY stones; O wins at once
    late = Connect4State.parse("212121355776")  # one more; X wins at once
    assert early.ply == 42 - EARLY_EMPTY
    for state, limit in [(early, EARLY_SHALLOW), (late, COMPILED_SHALLOW)]:
        solver.score(state)
        assert solver._mem[w_shallow] == limit, state.notation()
    solver.score(early)
    solver.solve_batch([(late.current, late.mask, late.ply)])
    assert solver._mem[w_shallow] == COMPILED_SHALLOW  # a batch keeps the later default
    chosen = Connect4Solver(book=False, table_bits=16, shallow=6)
    chosen.score(early)
    assert chosen._mem[w_shallow] == 6  # a limit the caller chose holds everywhere


def test_book_agrees_with_the_public_test_sets() -> None:
    # An independent check of the book's deepest, solved ply: the sets' early positions (81 with
    # at most three stones) were scored by another solver.
    booked = Connect4Solver(table_bits=12)
    depth = book_depth()
    early = [
        (moves, score)
        for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
        for moves, score in read_set(name)
        if len(moves) <= depth
    ]
    assert len(early) >= (81 if depth >= 3 else 11)
    for moves, score in early:
        state = Connect4State.parse(moves)
        assert booked.book_score(state.current, state.mask) == score, moves


@pytest.mark.slow
def test_book_agrees_with_direct_solves_of_a_sample() -> None:
    # The deepest ply is what the builder solved; every shallower entry is backed up from it (the
    # consistency test above). Solve a seeded sample of it again here, from scratch, without the
    # book: a fresh solver and table for each, so nothing of the build is reused.
    depth = book_depth()
    deepest = positions_at(depth)
    sample = random.Random(2026).sample(deepest, 4)
    booked = Connect4Solver(table_bits=12)
    for state in sample:
        direct = Connect4Solver(compiled=True, book=False, table_bits=22).score(state)
        assert booked.book_score(state.current, state.mask) == direct, state.notation()


def test_the_book_agrees_with_the_direct_solves_of_a_shallower_build() -> None:
    # The shipped book's shallower plies are backed up from its deepest one; a shallower build's
    # progress file holds the same positions solved directly, one search each, by other runs.
    # Two independent computations of the same scores.
    import json

    data = Path(__file__).resolve().parents[1] / "data" / "connect4"
    depth = book_depth()
    book = load_book()
    assert book is not None
    files = [
        path for d in range(depth) if (path := data / f"book_7x6_d{d}.progress.jsonl").exists()
    ]
    assert files, f"no progress file of a build shallower than {depth} in {data}"
    for path in files:
        lines = path.read_text().splitlines()
        solved = {int(entry["key"]): entry["value"] for entry in map(json.loads, lines[1:])}
        ply = json.loads(lines[0])["meta"]["depth"]
        assert len(solved) == len(positions_at(ply)), path.name  # complete
        assert {key: book[key] for key in solved} == solved, path.name


def test_the_books_best_columns_agree_with_its_scores() -> None:
    # Above the deepest ply an entry's best columns are the children whose book score equals its
    # own; the deepest ply's were searched by the build, and every position has at least one.
    book, best, depth = load_book(), load_best(), book_depth()
    assert book is not None and best is not None
    assert best.keys() == book.keys()
    deepest = {key: best[key] for key in map(canonical, positions_at(depth))}
    assert all(mask and mask < 1 << 7 for mask in deepest.values())
    assert back_up_best(depth, book, deepest) == best


@pytest.mark.slow
def test_the_books_best_columns_of_the_deepest_ply_agree_with_exact_child_scores() -> None:
    # An independent check of the build's second stage: every child's exact score, from a
    # solver without the book, and the book's best columns read without search.
    depth = book_depth()
    booked = Connect4Solver(table_bits=12)
    for state in random.Random(2027).sample(positions_at(depth), 2):
        scores = Connect4Solver(book=False, table_bits=22).analyze(state)
        top = max(score for score in scores if score is not None)
        assert booked.score(state) == top, state.notation()
        before = booked.nodes
        assert booked.keepers(state, top) == tuple(
            column for column, score in enumerate(scores) if score == top
        ), state.notation()
        assert booked.nodes == before


def test_hard_reads_its_move_at_the_books_deepest_ply_without_search() -> None:
    # 4444466 was hard's slowest move (seven null-window searches past the book) before the book
    # held best columns. The rule is unchanged: the first column of the shuffled order that keeps
    # the score, so a seed gives the same move as before, and every best move can come.
    solver = Connect4Solver(table_bits=12)
    state = Connect4State.parse("4444466")
    score = solver.score(state)
    keepers = solver.keepers(state, score)
    chosen = set()
    for seed in range(40):
        before = solver.nodes
        column, kept = solver.best_move(state, rng=random.Random(seed))
        assert solver.nodes == before and kept == score
        order = state.legal_moves()
        random.Random(seed).shuffle(order)
        assert column == next(c for c in order if c in keepers)
        chosen.add(column)
    assert chosen == set(keepers)
    mirrored = Connect4State.parse("4444422")
    assert solver.keepers(mirrored, score) == tuple(sorted(6 - c for c in keepers))


@pytest.mark.parametrize("width", [5, 9])
def test_books_are_written_and_read_back(tmp_path: Path, width: int) -> None:
    # Masks of one byte, two on boards wider than 8; codes as differences, compressed. A file of
    # another format is refused with one line, not misread.
    rng = random.Random(width)
    book = {rng.getrandbits(63): rng.randint(-18, 18) for _ in range(50)}
    best = {code: rng.randint(1, (1 << width) - 1) for code in book}
    path = tmp_path / "book.bin"
    write_book(book, best, path, width, 4, 3)
    assert read_book(path) == (width, 4, 3, book) and read_best(path) == best
    data = path.read_bytes()
    for damaged, why in [(b"ZC4B" + data[4:], "expected the ZC4D format"), (data[:-9], "damaged")]:
        path.write_bytes(damaged)
        with pytest.raises(ZermeloError, match=f"is not a zermelo Connect Four book.*{why}"):
            read_book(path)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_damaged_books_give_one_error(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    # Any damage to a book file (bytes changed, cut or added) reads as the same book or fails
    # with ZermeloError, never with another exception and never with unbounded memory.
    rng = random.Random(1)
    book = {rng.getrandbits(40): rng.randint(-18, 18) for _ in range(30)}
    best = {code: rng.randint(1, 127) for code in book}
    path = tmp_path_factory.mktemp("fuzz") / "book.bin"
    write_book(book, best, path, 7, 6, 3)
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(raw)))
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip" and where < len(raw):
            raw[where] ^= data.draw(st.integers(1, 255))
        elif action == "cut":
            del raw[where:]
        else:
            raw[where:where] = data.draw(st.binary(min_size=1, max_size=8))
    path.write_bytes(bytes(raw))
    try:
        read_book(path)
    except ZermeloError as error:
        assert "is not a zermelo Connect Four book" in str(error) and "\n" not in str(error)


def test_the_builders_best_columns_are_every_columns_exact_best_on_a_small_board() -> None:
    # Against every child's exact score from a solver without a book, for each position up to
    # the build's depth and its mirror image (the masks are stored for the canonical one).
    width, height, depth = 5, 4, 4
    book = build_book(depth, width, height, table_bits=14)
    tasks = deepest_tasks(depth, width, height)
    found = {int(key): best_columns(*arguments) for key, arguments in best_tasks(tasks, book).items()}  # fmt: skip
    best = back_up_best(depth, book, found, width, height)
    plain = Connect4Solver(width, height, book=False, table_bits=14)
    checked = 0
    for ply in range(depth + 1):
        for state in positions_at(ply, width, height):
            mirror = "".join(str(width + 1 - int(c)) for c in state.notation())
            for position in (state, Connect4State.parse(mirror, width, height)):
                scores = plain.analyze(position)
                top = max(score for score in scores if score is not None)
                key = canonical(position)
                flip = position.current + position.mask != key
                mask = best[key]
                assert book[key] == top and [
                    bool(mask >> (width - 1 - c if flip else c) & 1) for c in range(width)
                ] == [score == top for score in scores], position.notation()
                checked += 1
    assert checked > 400


# -- small boards against the reference algorithm ---------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=9, max_size=14))
def test_solver_matches_minimax_on_4x4(draws: list[int]) -> None:
    state = Connect4State.initial(4, 4)
    for draw in draws:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[draw % len(moves)])
    oracle = minimax(state)
    small = Connect4Solver(4, 4, book=False, table_bits=12)
    result = small.solve(state)
    assert result.value == oracle.value and result.exact
    if not state.is_terminal():
        assert oracle.move in [m.move for m in result.moves]


@pytest.mark.parametrize(("width", "height"), [(5, 4), (4, 5), (6, 4)])
def test_solver_matches_minimax_on_small_boards(width: int, height: int) -> None:
    rng = random.Random(width * 10 + height)
    small = Connect4Solver(width, height, book=False, table_bits=14)
    checked = 0
    while checked < 6:
        state = Connect4State.initial(width, height)
        while state.ply < width * height - 7 and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        oracle = minimax(state)
        assert small.score(state) == from_negamax(oracle.value, state.ply, width, height)
        assert small.score(state, weak=True) == (oracle.value > 0) - (oracle.value < 0)
        checked += 1


# -- properties -----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=22, max_size=30))
def test_mirror_positions_have_equal_scores(draws: list[int]) -> None:
    state = Connect4State.initial()
    for draw in draws:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[draw % len(moves)])
    image = Connect4State.parse("".join(str(8 - int(c)) for c in state.notation()))
    plain = Connect4Solver(book=False, table_bits=16, symmetry=0)
    result = plain.solve(state)
    mirrored = plain.solve(image)
    assert result.value == mirrored.value
    assert sorted(6 - m.move for m in result.moves) == sorted(m.move for m in mirrored.moves)


# -- both kernels ---------------------------------------------------------------------------


@needs_numba
@pytest.mark.parametrize(("name", "limit"), [("Test_L3_R1", 60), ("Test_L2_R1", 12)])
def test_pure_python_kernel_matches_the_compiled_one(name: str, limit: int) -> None:
    rows = read_set(name, limit)
    positions = [(s.current, s.mask, s.ply) for s in states(rows)]
    # the same shallow depth in both (their defaults differ), so that the trees are the same
    fast = Connect4Solver(compiled=True, book=False, table_bits=14, shallow=8)
    pure = Connect4Solver(compiled=False, book=False, table_bits=14, shallow=8)
    assert not pure.compiled and fast.compiled
    fast_scores, fast_nodes = fast.solve_batch(positions)
    pure_scores, pure_nodes = pure.solve_batch(positions)
    assert pure_scores == fast_scores == [score for _, score in rows]
    assert pure_nodes == fast_nodes  # same algorithm, same table: the same tree


@pytest.mark.parametrize(
    ("shallow", "name"),
    # Without any table (42) the middle-game positions of L2_R2 take minutes: end games then.
    [(0, "Test_L2_R2"), (4, "Test_L2_R2"), (12, "Test_L2_R2"), (42, "Test_L3_R1")],
)
def test_searching_without_the_table_near_the_end_changes_no_score(shallow: int, name: str) -> None:
    rows = read_set(name, 40)
    positions = [(s.current, s.mask, s.ply) for s in states(rows)]
    solver = Connect4Solver(book=False, table_bits=16, shallow=shallow)
    scores, nodes = solver.solve_batch(positions)
    assert scores == [score for _, score in rows]
    if shallow == 0:
        return
    # fewer empty cells than the shallow depth: no table entry is written below it
    baseline = Connect4Solver(book=False, table_bits=16, shallow=0).solve_batch(positions)[1]
    assert nodes != baseline


@pytest.mark.slow  # compiles the whole kernel afresh: a minute of CPU
@pytest.mark.skipif(not COMPILED, reason="numba is not installed")
def test_the_compiled_kernel_loads_back_from_numbas_cache(tmp_path: Path) -> None:
    # The second process loads what the first compiled; a call numba specialises on a constant
    # once made that load abort the interpreter.
    code = (
        "from zermelo.solvers.connect4 import Connect4Solver as S;"
        "s = S(table_bits=12);"
        "print(s.compiled, s.score('2252576253462244111563365343671351441'), s.solve('4453').value)"
    )
    env = english_env(
        {"NUMBA_CACHE_DIR": str(tmp_path), "ZERMELO_NO_NUMBA": "", "ZERMELO_NO_AOT": "1"}
    )  # numba's own kernel, not the ahead-of-time copy built from it
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert run.stdout.split() == ["True", "-1", f"{-(WIN - 36)}.0"]  # score -2 at ply 4
    assert any(tmp_path.rglob("*.nbi"))


def test_environment_variable_forces_the_pure_path() -> None:
    code = (
        "from zermelo.solvers.connect4 import Connect4Solver as S;"
        "s = S(book=False, table_bits=12);"
        "print(s.compiled, s.score('2252576253462244111563365343671351441'))"
    )
    env = english_env({"ZERMELO_NO_NUMBA": "1"})
    output = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert output == ["False", "-1"]


# -- play levels ----------------------------------------------------------------------------


def test_hard_level_plays_a_best_move(solver: Connect4Solver) -> None:
    state = Connect4State.parse("2252576253462244111563365343671351441")
    assert choose_move(state, "hard", solver=solver, hard_node_limit=1000) == 5
    assert solver.node_limit is None  # the budget was for that move only
    assert choose_move(Connect4State.parse("121212"), "hard", solver=solver) == 0


def test_best_move_is_the_first_best_move_or_a_uniform_draw_among_them(
    solver: Connect4Solver,
) -> None:
    several = 0
    for moves, score in read_set("Test_L2_R1", 40):
        result = solver.solve(moves)
        best = [m.move for m in result.moves]
        assert benchmark_score(result.value, len(moves)) == score
        assert solver.best_move(moves) == (best[0], score)
        picks = {solver.best_move(moves, rng=random.Random(seed))[0] for seed in range(40)}
        assert picks == set(best)  # never another move, and every best one
        several += len(best) > 1
    assert several >= 5  # the draw was tested where there is a choice


def test_weak_best_move_keeps_the_outcome(solver: Connect4Solver) -> None:
    for moves, score in read_set("Test_L2_R2", 40):
        state = Connect4State.parse(moves)
        column, outcome = solver.best_move(state, weak=True)
        assert outcome == (score > 0) - (score < 0)
        child = state.play(column)
        if outcome >= 0:  # a win stays a win, a draw a draw
            if child.winner is not None:
                after = -1  # the mover has just won: the child is lost for its side to move
            elif child.is_full():
                after = 0
            else:
                after = solver.score(child)
            assert (after < 0) - (after > 0) == outcome, moves


def test_hard_move_says_how_it_found_the_move() -> None:
    from zermelo.search import alphabeta

    moves, score = read_set("Test_L2_R2", 1)[0]
    state = Connect4State.parse(moves)
    solver = Connect4Solver(book=False, table_bits=16)
    column, kind = hard_move(state, solver=solver)
    assert kind == "exact" and solver.best_move(state) == (column, score)
    solver.new_generation()
    column, kind = hard_move(state, solver=solver, node_limit=1)
    assert kind == "heuristic"
    assert column == alphabeta(state, depth=6).move
    assert solver.node_limit is None


def test_a_move_budget_caps_all_the_searches_of_one_best_move() -> None:
    moves, score = read_set("Test_L1_R2", 1)[0]
    solver = Connect4Solver(book=False, table_bits=18)
    solver.best_move(moves)
    needed = solver.nodes  # a score search and one or more null-window checks
    for budget in (needed // 3, needed - 1):
        solver.new_generation()
        before = solver.nodes
        with pytest.raises(BudgetError):
            solver.best_move(moves, node_budget=budget)
        assert solver.nodes - before <= budget + 1  # the kernel stops one node past its limit
    solver.new_generation()
    assert solver.best_move(moves, node_budget=needed)[1] == score
    solver.new_generation()
    assert solver.best_move(moves)[1] == score  # the budget was for that call only


def test_best_move_refuses_a_finished_game(solver: Connect4Solver) -> None:
    with pytest.raises(InvalidPositionError, match="the game is over"):
        solver.best_move("4455667")


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="numba is not installed: minutes per position")
@pytest.mark.parametrize("opening", ["444", "436", "1714", "2265"])
def test_hard_level_is_perfect_from_the_book_to_the_end(opening: str) -> None:
    # Past the book the solver answers within the hard budget: hard against itself keeps the
    # score at every move, and the game ends as the score said, with the winner's stone count.
    solver = Connect4Solver()
    state = Connect4State.parse(opening)
    mover = state.to_move
    initial = expected = solver.score(state)
    while not state.is_terminal():
        state = state.play(
            choose_move(state, "hard", solver=solver, hard_node_limit=HARD_NODE_LIMIT)
        )
        expected = -expected
        if not state.is_terminal():
            assert solver.score(state) == expected, state.notation()
    if initial == 0:
        assert state.winner is None and state.is_full()
        return
    assert state.winner == (mover if initial > 0 else mover.opponent)
    winner_stones = (state.ply + 1) // 2 if state.winner is Player.FIRST else state.ply // 2
    assert 22 - winner_stones == abs(initial)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_lower_levels_are_legal_and_reproducible(level: str) -> None:
    state = Connect4State.parse("44536")
    picks = {choose_move(state, level, rng=random.Random(seed)) for seed in range(12)}
    again = {choose_move(state, level, rng=random.Random(seed)) for seed in range(12)}
    assert picks == again and picks <= set(state.legal_moves())


def test_medium_takes_wins_and_blocks_threats() -> None:
    for seed in range(10):
        assert choose_move(Connect4State.parse("121212"), "medium", rng=random.Random(seed)) == 0
        # The first player threatens to complete column 1; the second player must block it.
        assert choose_move(Connect4State.parse("12121"), "medium", rng=random.Random(seed)) == 0


def test_unknown_level_is_an_error() -> None:
    with pytest.raises(ParseError, match="'expert'"):
        choose_move(Connect4State.initial(), "expert")


def test_sets_are_all_known() -> None:
    assert len(SETS) == 6


def test_node_budget_stops_a_long_solve_without_spoiling_the_table() -> None:
    budgeted = Connect4Solver(book=False, table_bits=16)
    budgeted.node_limit = 500
    with pytest.raises(BudgetError, match="500 nodes"):
        budgeted.score("4453")
    budgeted.node_limit = None
    # The aborted search stored nothing wrong: later answers are exact.
    for moves, score in read_set("Test_L2_R1", 30):
        assert budgeted.score(moves) == score


def test_connect4_agents_are_registered() -> None:
    from zermelo.agents import make_agent

    state = Connect4State.parse("2252576253462244111563365343671351441")
    assert make_agent("connect4", "hard").choose(state) == 5
    for level in ("easy", "medium"):
        assert make_agent("connect4", level, seed=1).choose(state) in state.legal_moves()
