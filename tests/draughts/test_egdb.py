"""The endgame database of international draughts against exhaustive search and known results.

The oracles here share only the move generator with the database (through the kernel's Python
front, ``legal`` and ``play``): no slices, no indexing, no colour flip, no packed bits.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import InvalidPositionError, ZermeloError
from zermelo.core.jit import kernel_variant
from zermelo.games.draughts import kernel
from zermelo.games.draughts.rules import INTERNATIONAL
from zermelo.solvers.draughts import egdb

Position = tuple[int, int, int, int]
"""white, black, kings, side to move."""


def sq(*numbers: int) -> int:
    """The mask of 1-based squares."""
    return sum(1 << (n - 1) for n in numbers)


KERNEL = kernel_variant(kernel, None, "draughts kernel")
TABLE = np.asarray(INTERNATIONAL.table, np.int64)
OUT = np.zeros(3 * kernel.MAX_MOVES, np.int64)


def children(position: Position) -> list[Position]:
    """The positions after each legal move (the kernel's generator, moves made here)."""
    white, black, kings, side = position
    count = KERNEL.gen_moves(TABLE, white, black, kings, side, OUT, 0)
    out = []
    for i in range(count):
        origin, target, taken = (int(x) for x in OUT[3 * i : 3 * i + 3])
        w, b, k = KERNEL.make_move(TABLE, white, black, kings, side, origin, target, taken)
        out.append((int(w), int(b), int(k), 1 - side))
    return out


@cache
def moves_of(position: Position) -> tuple[Position, ...]:
    return tuple(children(position))


def solve_closed(roots: list[Position]) -> dict[Position, int]:
    """Every position reachable from ``roots``, solved to the end: the whole graph, then a
    fixpoint (a position with a lost child is won, one whose children are all won is lost, what
    never settles is a draw)."""
    graph: dict[Position, tuple[Position, ...]] = {}
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node in graph:
            continue
        graph[node] = moves_of(node)
        stack.extend(c for c in graph[node] if c not in graph)
    value: dict[Position, int] = {}
    changed = True
    while changed:
        changed = False
        for node, kids in graph.items():
            if node in value:
                continue
            if any(value.get(c) == -1 for c in kids):
                value[node] = 1
            elif all(value.get(c) == 1 for c in kids):
                value[node] = -1
            else:
                continue
            changed = True
    return {node: value.get(node, 0) for node in graph}


def bounded(position: Position, depth: int, memo: dict[tuple[Position, int], int]) -> int:
    """1 or -1 when the side to move wins or loses within ``depth`` plies, else 0 (not proven)."""
    key = (position, depth)
    if key in memo:
        return memo[key]
    kids = moves_of(position)
    if not kids:
        result = -1
    elif depth == 0:
        result = 0
    else:
        result = -1
        for child in kids:
            value = -bounded(child, depth - 1, memo)
            if value == 1:
                result = 1
                break
            if value == 0:
                result = 0
    memo[key] = result
    return result


@pytest.fixture(scope="module")
def db() -> egdb.Database:
    database = egdb.default()
    if database.max_pieces < 3:
        pytest.fail(
            "the shipped database lacks its 2- and 3-piece slices: run scripts/build_egdb.py"
        )
    return database


def positions_of(material: egdb.Material, side: int) -> list[Position]:
    """Every position of a slice, with ``side`` to move (Black: the colour-swapped positions)."""
    out = []
    for white, black, kings in egdb.iter_positions(material):
        if side == 0:
            out.append((white, black, kings, 0))
        else:
            out.append((egdb.flip(black), egdb.flip(white), egdb.flip(kings), 1))
    return out


def sample(rng: random.Random, material: egdb.Material, count: int) -> list[Position]:
    binom = egdb.binomials()
    out: list[Position] = []
    while len(out) < count:
        white, black, kings = egdb.position_at(binom, *material, rng.randrange(material.size))
        if white >= 0:
            out.append((white, black, kings, rng.randrange(2)))
    return [p if p[3] == 0 else (egdb.flip(p[1]), egdb.flip(p[0]), egdb.flip(p[2]), 1) for p in out]


def test_index_is_a_bijection_on_every_slice() -> None:
    binom = egdb.binomials()
    rng = random.Random(24)
    for material in egdb.materials(4):
        for _ in range(40):
            index = rng.randrange(material.size)
            white, black, kings = egdb.position_at(binom, *material, index)
            if white < 0:
                continue
            assert egdb.material_key(white, black, kings) == material.key
            assert egdb.position_index(binom, white, black, kings) == index
            assert not white & ~kings & sq(1, 2, 3, 4, 5)
            assert not black & ~kings & sq(46, 47, 48, 49, 50)
    # the sizes: a king on 50 squares against a man on 45
    assert egdb.Material(0, 1, 1, 0).size == 45 * 49
    assert egdb.Material(1, 1, 1, 1).size == 45 * 45 * 48 * 47


def test_every_two_piece_position_equals_the_solved_game(db: egdb.Database) -> None:
    """All 2-piece positions, both sides to move, against one closed solve of their graph."""
    roots = [p for m in egdb.materials(2) for side in (0, 1) for p in positions_of(m, side)]
    assert len(roots) == 2 * sum(1 for m in egdb.materials(2) for _ in egdb.iter_positions(m))
    truth = solve_closed(roots)
    wrong = [p for p in roots if db.probe(*p) != truth[p]]
    assert not wrong, f"{len(wrong)} of {len(roots)} differ, e.g. {wrong[:3]}"
    assert {truth[p] for p in roots} == {-1, 0, 1}


def test_three_piece_positions_equal_a_search_to_the_end(db: egdb.Database) -> None:
    """Sampled 3-piece positions (and 4-piece ones once built; seeded): every value a 4-ply search proves is the database's,
    a drawn entry is never proven won or lost, and the entry is its children's best."""
    rng = random.Random(2024)
    memo: dict[tuple[Position, int], int] = {}
    proven = 0
    decided = 0
    chosen = [(m, 5) for m in egdb.materials(3) if m.pieces == 3]
    if db.max_pieces == 4:
        chosen += [(m, 2) for m in egdb.materials(4) if m.pieces == 4]
    for material, count in chosen:
        for position in sample(rng, material, count):
            value = db.probe(*position)
            assert value is not None
            kids = moves_of(position)
            best = max((-db.probe(*c) for c in kids), default=-1)  # type: ignore[operator]
            assert value == best, position
            found = bounded(position, 4, memo)
            if found:
                proven += 1
                assert found == value, position
            if value:
                decided += 1
    assert proven >= decided // 2 > 0


def test_a_lone_king_against_a_lone_king(db: egdb.Database) -> None:
    """King against king: a draw, unless a capture decides it at once."""
    # a king with no capture and a safe move: drawn, whoever moves
    assert db.probe(sq(28), sq(3), sq(28, 3), 0) == 0
    assert db.probe(sq(28), sq(3), sq(28, 3), 1) == 0
    # 28 takes 22 (37 beyond is empty)
    assert db.probe(sq(28), sq(22), sq(28, 22), 0) == 1
    # the two corners of the long diagonal: whoever moves lands on it and is taken
    assert db.probe(sq(46), sq(5), sq(46, 5), 0) == -1
    assert db.probe(sq(46), sq(5), sq(46, 5), 1) == -1


def kings_to_move_without_capture(material: egdb.Material, db: egdb.Database) -> dict[int, int]:
    """The values of up to 30,000 positions of ``material`` (seeded) with its White side to move
    and no capture for it at once."""
    results = {1: 0, 0: 0, -1: 0}
    positions = positions_of(material, 0)
    for position in random.Random(5).sample(positions, min(len(positions), 30_000)):
        if KERNEL.has_capture(TABLE, *position):
            continue
        value = db.probe(*position)
        assert value is not None
        results[value] += 1
    return results


def test_two_kings_against_one_king_is_a_draw_as_a_rule(db: egdb.Database) -> None:
    """Two kings cannot catch a lone king in general: with the two kings to move and nothing to
    take, nine positions in ten are draws; the rest are tricks (the lone king in a corner)."""
    results = kings_to_move_without_capture(egdb.Material(0, 2, 0, 1), db)
    assert results[-1] == 0
    assert results[0] > 9 * results[1] > 0
    # the lone king in the corner 46 must step to 41 (37 cannot be taken: 32 is behind it)
    # and 37 takes it
    assert db.probe(sq(37, 32), sq(46), sq(37, 32, 46), 1) == -1
    assert db.probe(sq(37, 32), sq(46), sq(37, 32, 46), 0) == 1


def test_three_kings_against_one_king(db: egdb.Database) -> None:
    """Three kings against one "usually is a draw", with exceptions (the FMJD's endgame course,
    chapter 3): with the three to move and nothing to take, most positions are draws, some are
    wins, none is lost; a lone king on the long diagonal (46-5) away from the others holds."""
    if db.max_pieces < 4 and egdb.Material(0, 3, 0, 1) not in db.slices:
        pytest.fail("the 4-piece slice 0m3k-0m1k is not built")
    results = kings_to_move_without_capture(egdb.Material(0, 3, 0, 1), db)
    assert results[-1] == 0
    assert results[0] > 2 * results[1] > 0
    # White kings 1, 16, 40 off the long diagonal; Black's king on 28, on it
    assert db.probe(sq(1, 16, 40), sq(28), sq(1, 16, 40, 28), 0) == 0
    assert db.probe(sq(1, 16, 40), sq(28), sq(1, 16, 40, 28), 1) == 0


def test_probe_answers_none_beyond_the_database_and_rejects_bad_positions(
    db: egdb.Database,
) -> None:
    five = sq(31, 32, 33)
    assert db.probe(five, sq(1, 2), sq(1, 2), 0) is None
    for args, words in (
        ((sq(1), sq(1), 0, 0), "share"),
        ((sq(10), sq(20), sq(30), 0), "king on a square"),
        ((sq(3), sq(20), 0, 0), "squares 1-5"),
        ((sq(10), sq(47), 0, 1), "46-50"),
        ((1 << 50, sq(20), 0, 0), "white mask"),
        ((sq(10), sq(20), 0, 2), "side"),
        ((-1, sq(20), 0, 0), "white mask"),
    ):
        with pytest.raises(InvalidPositionError, match=words):
            db.probe(*args)


def test_the_kernel_probe_agrees_with_the_python_one(db: egdb.Database) -> None:
    rng = random.Random(7)
    for material in egdb.materials(3):
        for position in sample(rng, material, 5):
            value = egdb.probe_kernel(db.binom, db.data, db.offsets, *position)
            assert value == db.probe(*position)
    five = (sq(31, 32, 33), sq(1, 2), sq(31, 32, 33, 1, 2), 0)  # no 5-piece slices
    assert egdb.probe_kernel(db.binom, db.data, db.offsets, *five) == egdb.NOT_COVERED


def test_a_damaged_or_foreign_slice_file_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    material = egdb.Material(0, 1, 0, 1)
    path = egdb.slice_path(tmp_path, material)
    path.write_bytes(b"not a slice")
    with pytest.raises(ZermeloError, match="not an endgame database slice"):
        egdb.load(tmp_path)
    egdb.write_slice(path, material, bytes(egdb.packed_size(material)))
    other = egdb.Material(1, 0, 0, 1)
    egdb.slice_path(tmp_path, other).write_bytes(path.read_bytes())
    with pytest.raises(ZermeloError, match="another slice"):
        egdb.load(tmp_path)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=-2, max_value=(1 << 51)),
    st.integers(min_value=-2, max_value=(1 << 51)),
    st.integers(min_value=-2, max_value=(1 << 51)),
    st.integers(min_value=-1, max_value=2),
    st.integers(min_value=0, max_value=4),
)
def test_probe_takes_any_ints(white: int, black: int, kings: int, side: int, pieces: int) -> None:
    """Whatever masks it is given, probe answers a value or None, or refuses them with one
    InvalidPositionError: small positions are made likely by keeping ``pieces`` low bits."""
    database = egdb.default()

    def thin(mask: int) -> int:
        if mask < 0:
            return mask
        kept = 0
        for s in range(51):
            if mask >> s & 1 and kept.bit_count() < pieces:
                kept |= 1 << s
        return kept

    try:
        value = database.probe(thin(white), thin(black), thin(kings), side)
    except InvalidPositionError as error:
        assert str(error)
        return
    assert value in (-1, 0, 1, None)


def test_the_build_script_resumes_and_skips_finished_slices(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = Path(__file__).resolve().parents[2] / "scripts" / "build_egdb.py"

    def build() -> str:
        done = subprocess.run(
            [sys.executable, str(script), "--pieces", "2", "--directory", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        return " ".join(done.stderr.split())  # rich wraps its lines at the console's width

    first = build()
    assert "4 slices of up to 2 pieces" in first and "4 to build" in first
    files = {p.name: p.read_bytes() for p in tmp_path.glob("*.bin")}
    assert sorted(files) == sorted(f"{m.name}.bin" for m in egdb.materials(2))
    for name, raw in files.items():  # the same bits as the shipped slices
        assert raw == (egdb.default_directory() / name).read_bytes(), name
    (tmp_path / "1m0k-0m1k.bin").unlink()
    again = build()
    assert "2 to build" in again  # that slice and its twin, nothing else
    assert (tmp_path / "1m0k-0m1k.bin").read_bytes() == files["1m0k-0m1k.bin"]
    assert "0 to build" in build()
    bad = subprocess.run(
        [sys.executable, str(script), "--pieces", "7"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == ["--pieces 7: expected 2 to 4"]


def test_the_plain_copy_probes_the_same_values(db: egdb.Database) -> None:
    """Without numba (ZERMELO_NO_NUMBA=1) the same source probes the same files."""
    rng = random.Random(11)
    positions = [p for m in egdb.materials(3) for p in sample(rng, m, 3)]
    code = (
        "import sys, json\n"
        "from zermelo.solvers.draughts import egdb\n"
        "assert not egdb.COMPILED\n"
        "print(json.dumps([egdb.probe(*p) for p in json.loads(sys.argv[1])]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(positions)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "ZERMELO_NO_NUMBA": "1"},
    )
    assert json.loads(done.stdout) == [db.probe(*p) for p in positions]
