"""The draughts move generator against the published perft tables, the FMJD rulebook's examples
and hand-made positions for each rule of both games (international draughts and Turkish dama).

No __init__.py in this folder: a package named ``draughts`` here would hide pydraughts (``import
draughts``) from the oracle tests."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from draughts_positions import (
    DAMA_COUNTS,
    DAMA_START,
    INTERNATIONAL_COUNTS,
    INTERNATIONAL_START,
    PUBLISHED,
    fen,
    squares,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import english_env
from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidPositionError
from zermelo.core.jit import kernel_variant
from zermelo.games.draughts import kernel
from zermelo.games.draughts.kernel import KMove, count, legal, paths, play
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL, Rules, _build

needs_numba = pytest.mark.skipif(not kernel.COMPILED, reason="the compiled kernel needs numba")

INTL = INTERNATIONAL


def plain() -> object:
    return kernel_variant(kernel, False, "draughts kernel")


def notation(rules: Rules, moves: tuple[KMove, ...]) -> list[str]:
    """Moves as printed: ``32-28``, ``28x19x8``; ``d3-d4``, ``d4xd6xf6``."""
    return [
        ("x" if move.captured else "-").join(rules.square_name(sq) for sq in move.path)
        for move in moves
    ]


def ends(rules: Rules, moves: tuple[KMove, ...]) -> list[str]:
    """Moves as origin and destination only (``41x43``), the rulebook's short notation."""
    return sorted(
        rules.square_name(m.path[0]) + ("x" if m.captured else "-") + rules.square_name(m.path[-1])
        for m in moves
    )


# --- perft -----------------------------------------------------------------------------------


@needs_numba
@pytest.mark.parametrize(
    ("rules", "start", "counts", "depth"),
    [(INTL, INTERNATIONAL_START, INTERNATIONAL_COUNTS, 8), (DAMA, DAMA_START, DAMA_COUNTS, 7)],
    ids=["international", "dama"],
)
def test_perft_start_compiled(
    rules: Rules, start: str, counts: tuple[int, ...], depth: int
) -> None:
    position = fen(rules, start)
    assert [count(rules, *position, d) for d in range(1, depth + 1)] == list(counts[:depth])


@pytest.mark.parametrize(
    ("rules", "start", "counts"),
    [(INTL, INTERNATIONAL_START, INTERNATIONAL_COUNTS), (DAMA, DAMA_START, DAMA_COUNTS)],
    ids=["international", "dama"],
)
def test_perft_start_plain_copy(rules: Rules, start: str, counts: tuple[int, ...]) -> None:
    copy = plain()
    assert not copy.COMPILED  # type: ignore[attr-defined]
    position = fen(rules, start)
    got = [copy.count(rules, *position, d) for d in (1, 2, 3)]  # type: ignore[attr-defined]
    assert got == list(counts[:3])


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize(
    ("rules", "start", "counts"),
    [(INTL, INTERNATIONAL_START, INTERNATIONAL_COUNTS), (DAMA, DAMA_START, DAMA_COUNTS)],
    ids=["international", "dama"],
)
def test_perft_start_deepest(rules: Rules, start: str, counts: tuple[int, ...]) -> None:
    assert count(rules, *fen(rules, start), len(counts)) == counts[-1]


QUICK = {"random178": 6, "woldouby": 11, "all-kings": 6, "almost-promotion": 6}


@needs_numba
@pytest.mark.parametrize("name", list(PUBLISHED))
def test_perft_published_positions(name: str) -> None:
    text, counts = PUBLISHED[name]
    position = fen(INTL, text)
    depth = QUICK[name]
    assert [count(INTL, *position, d) for d in range(1, depth + 1)] == list(counts[:depth])


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("name", list(PUBLISHED))
def test_perft_published_positions_deeper(name: str) -> None:
    text, counts = PUBLISHED[name]
    depth = {"random178": 7, "woldouby": 13, "all-kings": 8, "almost-promotion": 7}[name]
    assert count(INTL, *fen(INTL, text), depth) == counts[depth - 1]


def test_dama_perft_counts_capture_paths_and_moves_count_once() -> None:
    """The counting convention: dama's published perft counts every capture path; the move list
    (and international perft) each (from, to, captured) once. The king on h8 can go round the
    four men either way and come back to h8: two paths, one move."""
    white = squares(DAMA, "h8")
    black = squares(DAMA, "d2", "h3", "c5", "g8")
    moves = legal(DAMA, white, black, white, 0)
    assert notation(DAMA, moves) == [
        "h8xh2xc2xc8xh8",
        "h8xc8xc2xh2xh4",
        "h8xc8xc2xh2xh5",
        "h8xc8xc2xh2xh6",
        "h8xc8xc2xh2xh7",
    ]
    h8 = DAMA.square_of("h8")
    assert h8 is not None
    assert len(paths(DAMA, white, black, white, 0, h8, h8, black)) == 2
    assert count(DAMA, white, black, white, 0, 1) == 6
    # and the move that ends where it began leaves the king where it was
    assert play(DAMA, white, black, white, 0, moves[0]) == (white, 0, white)


# --- the FMJD rulebook's examples (the French and Italian federations' texts, as collected
# in rhalbersma/dctl test/src/actions/rulebook/international.cpp) ------------------------------

RULEBOOK = [
    ("W:W28", ["28-22", "28-23"]),  # art. 3.4: men step forward
    ("B:B13", ["13-18", "13-19"]),
    (
        "W:WK28",
        [
            "28-" + s
            for s in [
                "22",
                "17",
                "11",
                "6",
                "23",
                "19",
                "14",
                "10",
                "5",
                "32",
                "37",
                "41",
                "46",
                "33",
                "39",
                "44",
                "50",
            ]
        ],
    ),
    (
        "B:BK1",
        ["1-" + s for s in ["6", "7", "12", "18", "23", "29", "34", "40", "45"]],
    ),  # art. 3.9: kings fly
    ("W:W28,32:B23", ["28x19"]),  # art. 4.2
    ("W:WK46:B23", ["46x19", "46x14", "46x10", "46x5"]),  # art. 4.3: land anywhere beyond
    ("W:W15:B8,19,20", ["15x2"]),  # art. 4.5
    ("W:WK47:B9,12,33", ["47x17", "47x21", "47x26"]),  # art. 4.6
    ("W:WK41,49:B9,10,12,19,38", ["41x43"]),  # art. 4.8
    ("W:W48:B24,K31,34,K42,43", ["48x19"]),  # art. 4.13: the most pieces
    (
        "W:WK23",
        [
            "23-" + s
            for s in [
                "18",
                "12",
                "7",
                "1",
                "19",
                "14",
                "10",
                "5",
                "28",
                "32",
                "37",
                "41",
                "46",
                "29",
                "34",
                "40",
                "45",
            ]
        ],
    ),
    ("W:W35:B30,K40", ["35x24", "35x44"]),  # men capture backward
    ("W:WK41:B23", ["41x19", "41x14", "41x10", "41x5"]),
    ("W:W47:B13,14,22,24,31,34,K41,44", ["47x49"]),
    ("W:WK1:B7,9,17,19,20,30,31,33,43,44", ["1x15"]),
    ("B:W27,28,38,39,42:BK25", ["25x33"]),  # art. 4.8: taken pieces stay until the end
    ("W:WK48:B7,8,31,34,K42,44", ["48x50"]),  # art. 4.13
    ("W:W26:B12,K21,31,32", ["26x8", "26x28"]),  # art. 4.14: kings count as men
    ("W:W15:B9,10", ["15x13"]),  # art. 4.15: passing the crowning row
]


@pytest.mark.parametrize(("text", "expected"), RULEBOOK, ids=[t for t, _ in RULEBOOK])
def test_fmjd_rulebook_examples(text: str, expected: list[str]) -> None:
    assert ends(INTL, legal(INTL, *fen(INTL, text))) == sorted(expected)


# --- hand-made positions ---------------------------------------------------------------------


def test_international_maximum_capture_is_compulsory() -> None:
    # 45 can take 40 (one piece); 33 can take 28 and then 17 (two): only the longer one is legal
    assert notation(INTL, legal(INTL, *fen(INTL, "W:W45:B40"))) == ["45x34"]
    assert notation(INTL, legal(INTL, *fen(INTL, "W:W33,45:B28,17,40"))) == ["33x22x11"]


def test_international_king_cannot_jump_one_piece_twice() -> None:
    # 46x28x17x8x19 takes 32, 22, 12 and 13 and ends on 19, on the long diagonal again: 28 is
    # free and 37, beyond the taken 32, too. Jumping 32 a second time (46x28x17x8x19x37) would
    # take five; it is not allowed, so every maximum capture takes these four
    white, black, kings, side = fen(INTL, "W:WK46:B12,13,22,32")
    moves = legal(INTL, white, black, kings, side)
    assert all(m.captured == black for m in moves)
    assert "46x28x17x8x19" in notation(INTL, moves)
    assert not (white | black) & squares(INTL, "28", "37")
    assert ends(INTL, moves) == sorted(
        "46x" + s for s in ["19", "24", "28", "30", "33", "35", "39", "44", "50"]
    )


def test_international_taken_pieces_block_until_the_capture_ends() -> None:
    # the rulebook's art. 4.8 position: with taken pieces removed at once, the king would take
    # a fifth piece; the rule that they stay on the board until the end leaves four
    white, black, kings, side = fen(INTL, "B:W27,28,38,39,42:BK25")
    (move,) = legal(INTL, white, black, kings, side)
    assert bin(move.captured).count("1") == 4
    removing = _build(
        "international",
        50,
        10,
        INTL.directions,
        man_steps=((0, 1), (2, 3)),
        man_captures=((0, 1, 2, 3), (0, 1, 2, 3)),
        flags=1,  # F_IMMEDIATE
        flying=True,
    )
    assert max(bin(m.captured).count("1") for m in legal(removing, white, black, kings, side)) == 5


def test_international_man_passing_the_crowning_row_is_not_crowned() -> None:
    white, black, kings, side = fen(INTL, "W:W15:B9,10")
    (move,) = legal(INTL, white, black, kings, side)
    assert notation(INTL, (move,)) == ["15x4x13"]
    new_white, new_black, new_kings = play(INTL, white, black, kings, side, move)
    assert new_white == squares(INTL, "13") and new_black == 0 and new_kings == 0


def test_international_man_ending_on_the_crowning_row_is_crowned() -> None:
    white, black, kings, side = fen(INTL, "W:W15:B10")
    (move,) = legal(INTL, white, black, kings, side)
    assert notation(INTL, (move,)) == ["15x4"]
    assert play(INTL, white, black, kings, side, move) == (
        squares(INTL, "4"),
        0,
        squares(INTL, "4"),
    )


def test_dama_taken_pieces_leave_at_once() -> None:
    # the king takes c3 going up, and on its fourth leg crosses c3 again along rank 3
    white = squares(DAMA, "c1")
    black = squares(DAMA, "c3", "e5", "f4", "b3")
    (move,) = legal(DAMA, white, black, white, 0)
    assert notation(DAMA, (move,)) == ["c1xc5xf5xf3xa3"]
    assert move.captured == black


def test_dama_no_half_turn_inside_a_capture() -> None:
    # after taking f1 (or b1) the king could take the other one only by turning back
    white = squares(DAMA, "d1")
    black = squares(DAMA, "b1", "f1")
    assert notation(DAMA, legal(DAMA, white, black, white, 0)) == ["d1xa1", "d1xg1", "d1xh1"]


def test_dama_man_reaching_the_last_row_goes_on_as_a_man_and_is_crowned_at_the_end() -> None:
    # d6xd8 reaches rank 8, then takes e8 sideways as a man; a king would go on (x f5)
    white = squares(DAMA, "d6")
    black = squares(DAMA, "d7", "e8", "f5")
    (move,) = legal(DAMA, white, black, 0, 0)
    assert notation(DAMA, (move,)) == ["d6xd8xf8"]
    assert play(DAMA, white, black, 0, 0, move) == (
        squares(DAMA, "f8"),
        squares(DAMA, "f5"),
        squares(DAMA, "f8"),
    )


def test_dama_men_step_forward_and_sideways_never_back() -> None:
    white = squares(DAMA, "d4")
    assert notation(DAMA, legal(DAMA, white, squares(DAMA, "h8"), 0, 0)) == [
        "d4-c4",
        "d4-e4",
        "d4-d5",
    ]
    black = squares(DAMA, "d5")
    assert notation(DAMA, legal(DAMA, squares(DAMA, "a1"), black, 0, 1)) == [
        "d5-d4",
        "d5-c5",
        "d5-e5",
    ]


def test_dama_king_moves_orthogonally_at_any_distance() -> None:
    white = squares(DAMA, "d4")
    assert len(legal(DAMA, white, squares(DAMA, "h8"), white, 0)) == 14


def test_dama_men_capture_forward_and_sideways_not_backward() -> None:
    white = squares(DAMA, "d4")
    black = squares(DAMA, "d3", "c4", "d5")
    assert notation(DAMA, legal(DAMA, white, black, 0, 0)) == ["d4xb4", "d4xd6"]


def test_dama_maximum_capture_is_compulsory() -> None:
    white = squares(DAMA, "a4", "h4")
    black = squares(DAMA, "a5", "h5", "g6")
    assert notation(DAMA, legal(DAMA, white, black, 0, 0)) == ["h4xh6xf6"]


# --- the Python front ------------------------------------------------------------------------


def test_legal_is_sorted_and_play_matches_the_kernel_arithmetic() -> None:
    position = fen(INTL, INTERNATIONAL_START)
    moves = legal(INTL, *position)
    assert list(moves) == sorted(moves)
    assert notation(INTL, moves)[0] == "31-26"
    assert play(INTL, *position, moves[0]) == (
        position[0] ^ squares(INTL, "31", "26"),
        position[1],
        0,
    )


def test_paths_lists_every_landing_path_of_a_capture() -> None:
    # the king takes 28, lands on 19 (the only square from which it can go on) and takes 13,
    # landing on 8 or 2; and in the rulebook's art. 4.6 position, where it may turn on either
    # of two squares, both paths are listed
    white, black, kings, side = fen(INTL, "W:WK46:B28,13")
    assert notation(INTL, legal(INTL, white, black, kings, side)) == ["46x19x2", "46x19x8"]
    for move in legal(INTL, white, black, kings, side):
        every = paths(INTL, white, black, kings, side, move.path[0], move.path[-1], move.captured)
        assert move.path in every and list(every) == sorted(set(every))
        for path in every:
            assert path[0] == move.path[0] and path[-1] == move.path[-1]
    assert paths(INTL, white, black, kings, side, 45, 44, 0) == ()


def test_play_refuses_an_illegal_or_shorter_capture() -> None:
    white, black, kings, side = fen(INTL, "W:W33,45:B28,17,40")
    with pytest.raises(IllegalMoveError):
        play(
            INTL, white, black, kings, side, KMove((44, 33), squares(INTL, "40"))
        )  # not the maximum
    with pytest.raises(IllegalMoveError):
        play(INTL, white, black, kings, side, KMove((44, 39), 0))  # a step while a capture is due
    with pytest.raises(IllegalMoveError):
        play(INTL, white, black, kings, side, KMove((32, 10), squares(INTL, "28")))  # a wrong path
    with pytest.raises(IllegalMoveError):
        play(INTL, white, black, kings, side, KMove((32,), 0))


@pytest.mark.parametrize(
    ("white", "black", "kings", "side"),
    [(1, 1, 0, 0), (1, 2, 4, 0), (1 << 50, 2, 0, 0), (-1, 0, 0, 0), (1, 2, 0, 2)],
)
def test_bad_positions_get_one_clear_error(white: int, black: int, kings: int, side: int) -> None:
    with pytest.raises(InvalidPositionError):
        legal(INTL, white, black, kings, side)
    with pytest.raises(InvalidPositionError):
        count(INTL, white, black, kings, side, 1)


@pytest.mark.parametrize("depth", [-1, 21, 10_000, 2.0, True])
def test_bad_perft_depth(depth: object) -> None:
    with pytest.raises(BudgetError, match="perft depth"):
        count(INTL, *fen(INTL, INTERNATIONAL_START), depth)  # type: ignore[arg-type]


def test_perft_depth_zero_is_one() -> None:
    assert count(INTL, *fen(INTL, INTERNATIONAL_START), 0) == 1


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.one_of(
        st.builds(
            KMove,
            st.tuples(*[st.integers(-2, 52)] * 2) | st.lists(st.integers(0, 49)).map(tuple),
            st.integers(-1, 1 << 50),
        ),
        st.integers(),
        st.tuples(st.text(), st.integers()),
        st.none(),
    )
)
def test_fuzz_play_refuses_every_illegal_move(move: object) -> None:
    position = fen(INTL, "W:W33,45:B28,17,40")
    (legal_move,) = legal(INTL, *position)
    if move == legal_move:
        return
    with pytest.raises(IllegalMoveError):
        play(INTL, *position, move)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.sampled_from([INTL, DAMA]),
    st.integers(min_value=-(1 << 65), max_value=1 << 65),
    st.integers(min_value=-(1 << 65), max_value=1 << 65),
    st.integers(min_value=-(1 << 65), max_value=1 << 65),
    st.integers(min_value=-2, max_value=3),
)
def test_fuzz_the_python_front(rules: Rules, white: int, black: int, kings: int, side: int) -> None:
    try:
        moves = legal(rules, white, black, kings, side)
    except InvalidPositionError:
        return
    assert count(rules, white, black, kings, side, 1) >= len(moves) and all(
        play(rules, white, black, kings, side, m) is not None for m in moves
    )


def test_importing_the_kernel_compiles_nothing() -> None:
    code = (
        "import zermelo.games.draughts.kernel as k\n"
        "print(k.COMPILED, not k.COMPILED or len(k.gen_moves.signatures) == 0)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=english_env(),
    ).stdout.split()
    assert out[1] == "True"


@needs_numba
@pytest.mark.parametrize("rules", [INTL, DAMA], ids=["international", "dama"])
def test_plain_copy_gives_the_compiled_moves(rules: Rules) -> None:
    copy = plain()
    start = fen(rules, INTERNATIONAL_START if rules is INTL else DAMA_START)
    for text, _ in [*RULEBOOK, *PUBLISHED.values()] if rules is INTL else [(None, None)]:
        position = fen(INTL, text) if text else start
        assert copy.legal(rules, *position) == legal(rules, *position)  # type: ignore[attr-defined]
    rng = random.Random(7)
    white, black, kings, side = start
    for _ in range(150):
        moves = legal(rules, white, black, kings, side)
        assert copy.legal(rules, white, black, kings, side) == moves  # type: ignore[attr-defined]
        assert copy.count(rules, white, black, kings, side, 2) == count(  # type: ignore[attr-defined]
            rules, white, black, kings, side, 2
        )
        if not moves:
            break
        white, black, kings = play(rules, white, black, kings, side, rng.choice(moves))
        side = 1 - side


@pytest.mark.xdist_group("cores")
@pytest.mark.slow
@needs_numba
def test_compiling_in_any_order_leaves_a_cache_that_loads(tmp_path: Path) -> None:
    """Regression: capture search was recursive, and numba caches a recursive function safely
    only when it is compiled from its declared signature first. A process whose first call was
    play() compiled it by inference instead, and the next process to load that cache crashed
    (a segmentation fault in legal()). The search now runs on an explicit stack."""
    environment = english_env({"NUMBA_CACHE_DIR": str(tmp_path)})
    setup = (
        "from zermelo.games.draughts import kernel as k\n"
        "from zermelo.games.draughts.rules import INTERNATIONAL as r\n"
        "w = sum(1 << s for s in range(30, 50)); b = (1 << 20) - 1\n"
    )
    first = (
        setup + "print(k.play(r, w, b, 0, 0, k.KMove((30, 25), 0))[0] == w ^ (1 << 30) ^ (1 << 25))"
    )
    second = setup + "print(len(k.legal(r, w, b, 0, 0)), k.count(r, w, b, 0, 0, 4))"
    for code, expected in ((first, "True"), (second, "9 4265")):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=600,
            env=environment,
            check=False,
        )
        assert (done.returncode, done.stdout.strip()) == (0, expected), done.stderr[-2000:]


@pytest.mark.parametrize("rules", [INTL, DAMA], ids=["international", "dama"])
def test_the_in_kernel_api_as_an_engine_calls_it(rules: Rules) -> None:
    """gen_moves, gen_moves_with, has_capture and make_move on the kernel's own words (signed
    when compiled: dama's h8 is the sign bit), against the Python front."""
    table = kernel.table_array(rules)
    out = kernel._array([0] * (3 * kernel.MAX_MOVES))
    other = kernel._array([0] * (3 * kernel.MAX_MOVES))
    stack = kernel.new_stack()
    word, back = kernel.to_word, kernel.from_word
    rng = random.Random(11)
    white, black, kings, side = fen(rules, INTERNATIONAL_START if rules is INTL else DAMA_START)
    seen_h8 = False
    for _ in range(200):
        args = (table, word(white), word(black), word(kings), side)
        n = kernel.gen_moves(*args, out, 0)
        triples = sorted(
            (int(out[3 * i]), int(out[3 * i + 1]), back(out[3 * i + 2])) for i in range(n)
        )
        moves = legal(rules, white, black, kings, side)
        assert triples == sorted((m.path[0], m.path[-1], m.captured) for m in moves)
        assert kernel.gen_moves_with(*args, other, 0, True, stack) == n
        assert kernel.has_capture(*args) == bool(moves and moves[0].captured)
        if not moves:
            break
        move = rng.choice(moves)
        after = kernel.make_move(*args, move.path[0], move.path[-1], word(move.captured))
        assert tuple(back(x) for x in after) == play(rules, white, black, kings, side, move)
        white, black, kings = (back(x) for x in after)
        side = 1 - side
        seen_h8 |= rules is DAMA and bool((white | black) >> 63)
    assert rules is INTL or seen_h8
