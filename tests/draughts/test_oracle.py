"""The draughts kernel's legal moves against an independent implementation: pydraughts
(``import draughts``, GPL, test-only), variants ``standard`` (international) and ``turkish``.

Positions are reached by seeded random play from the start (hypothesis draws the seed and the
number of plies). pydraughts lists every capture path and squares 1-based (dama: a1 = 1, b1 = 2,
..., h8 = 64, i.e. our index + 1; international: our bit + 1); its moves are compared as sets of
(from, to, captured) with ours, and its paths with our :func:`paths`.

pydraughts 0.6.7's ``turkish`` variant lets a king *step* through any piece on its line (``W:WKd1,d3``
gives ``d1-d4``; its captures are right): its dama king steps are kept only where the squares
between are empty, so that our king steps are still checked against every step it finds. It takes seconds on a
position where kings have hundreds of capture paths, so such positions (more than
``MAX_PATHS`` paths by our count) are not sent to it: the published perft positions cover them."""

from __future__ import annotations

import random

import pytest
from draughts_positions import (
    DAMA_COUNTS,
    DAMA_START,
    INTERNATIONAL_COUNTS,
    INTERNATIONAL_START,
    fen,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from zermelo.games.draughts.kernel import count, legal, paths, play
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL, Rules

VARIANT = {INTERNATIONAL.name: "standard", DAMA.name: "turkish"}
MAX_PATHS = 40

Position = tuple[int, int, int, int]


def oracle_fen(rules: Rules, position: Position) -> str:
    white, black, kings, side = position
    parts = []
    for colour, mask in (("W", white), ("B", black)):
        names = [
            ("K" if kings >> sq & 1 else "") + rules.square_name(sq)
            for sq in range(rules.squares)
            if mask >> sq & 1
        ]
        parts.append(colour + ",".join(names))
    return ("W" if side == 0 else "B") + ":" + ":".join(parts)


def oracle_moves(rules: Rules, position: Position) -> set[tuple[tuple[int, ...], int]]:
    """pydraughts' legal moves: (path, captured mask) in our 0-based squares."""
    board = draughts.Board(variant=VARIANT[rules.name], fen=oracle_fen(rules, position))
    found = set()
    for move in board.legal_moves():
        captured = 0
        for sq in move.captures or ():
            captured |= 1 << (sq - 1)
        found.add((tuple(sq - 1 for sq in move.steps_move), captured))
    return found


def reached(rules: Rules, start: str, seed: int, plies: int, capture: bool = False) -> Position:
    """The position after ``plies`` random moves (fewer if the game ends) from ``start``; with
    ``capture``, play on (up to 100 more plies) to the next position where a capture is due."""
    rng = random.Random(seed)
    white, black, kings, side = fen(rules, start)
    for ply in range(plies + (100 if capture else 0)):
        moves = legal(rules, white, black, kings, side)
        if not moves or (ply >= plies and moves[0].captured):
            break
        white, black, kings = play(rules, white, black, kings, side, rng.choice(moves))
        side = 1 - side
    return white, black, kings, side


def clear(rules: Rules, position: Position, path: tuple[int, ...]) -> bool:
    """Whether the squares strictly between a straight step's two ends are empty."""
    (r0, c0), (r1, c1) = rules.coords(path[0]), rules.coords(path[-1])
    dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
    occupied = position[0] | position[1]
    r, c = r0 + dr, c0 + dc
    while (r, c) != (r1, c1):
        sq = rules.at(r, c)
        if sq is None or occupied >> sq & 1:
            return False
        r, c = r + dr, c + dc
    return True


def check(rules: Rules, position: Position) -> None:
    ours = legal(rules, *position)
    every = {
        (path, move.captured)
        for move in ours
        for path in paths(rules, *position, move.path[0], move.path[-1], move.captured)
    }
    if len(every) > MAX_PATHS:
        return
    theirs = oracle_moves(rules, position)
    if rules is DAMA:
        kings = position[2]
        theirs = {
            (p, c) for p, c in theirs if c or not kings >> p[0] & 1 or clear(rules, position, p)
        }
    assert {(p[0], p[-1], c) for p, c in theirs} == {
        (m.path[0], m.path[-1], m.captured) for m in ours
    }, oracle_fen(rules, position)
    assert theirs == every, oracle_fen(rules, position)


SAMPLES = (st.integers(min_value=0, max_value=2**32), st.integers(0, 120), st.booleans())


@settings(max_examples=100, deadline=None, derandomize=True)
@given(*SAMPLES)
def test_international_legal_moves_equal_pydraughts(seed: int, plies: int, capture: bool) -> None:
    check(INTERNATIONAL, reached(INTERNATIONAL, INTERNATIONAL_START, seed, plies, capture))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(*SAMPLES)
def test_dama_legal_moves_equal_pydraughts(seed: int, plies: int, capture: bool) -> None:
    check(DAMA, reached(DAMA, DAMA_START, seed, plies, capture))


def test_random_play_reaches_kings_and_captures() -> None:
    """The sampling above is worth something only if it meets kings and captures."""
    for rules, start in ((INTERNATIONAL, INTERNATIONAL_START), (DAMA, DAMA_START)):
        kings = captures = multiple = 0
        for seed in range(20):
            position = reached(rules, start, seed, 30 if seed % 2 else 60, capture=True)
            moves = legal(rules, *position)
            kings += reached(rules, start, seed, 100)[2] != 0
            captures += any(m.captured for m in moves)
            multiple += any(len(m.path) > 2 for m in moves)
        assert kings >= 5 and captures >= 15 and multiple >= 5, (rules.name, kings, captures)


def oracle_perft(board: draughts.Board, depth: int) -> int:
    """pydraughts' perft, each (from, to, captured) once (as the international table counts)."""
    moves = {}
    for move in board.legal_moves():
        moves.setdefault(
            (move.steps_move[0], move.steps_move[-1], frozenset(move.captures or ())), move
        )
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves.values():
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(
    ("rules", "start", "counts"),
    [(INTERNATIONAL, INTERNATIONAL_START, INTERNATIONAL_COUNTS), (DAMA, DAMA_START, DAMA_COUNTS)],
    ids=["international", "dama"],
)
def test_pydraughts_agrees_with_the_perft_table(
    rules: Rules, start: str, counts: tuple[int, ...]
) -> None:
    board = draughts.Board(variant=VARIANT[rules.name])
    assert oracle_fen(rules, fen(rules, start)).split(":")[0] == "W"
    assert [oracle_perft(board, d) for d in (1, 2)] == list(counts[:2])
    assert [count(rules, *fen(rules, start), d) for d in (1, 2)] == list(counts[:2])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "counts"),
    [(INTERNATIONAL, INTERNATIONAL_COUNTS), (DAMA, DAMA_COUNTS)],
    ids=["international", "dama"],
)
def test_pydraughts_agrees_with_the_perft_table_at_depth_3(
    rules: Rules, counts: tuple[int, ...]
) -> None:
    assert oracle_perft(draughts.Board(variant=VARIANT[rules.name]), 3) == counts[2]
