"""The draughts engine probes the endgame database: below the root, a position of at most four
pieces takes the database's value (international draughts only), and the engine then converts
where the evaluation alone would take the draw."""

from __future__ import annotations

import pytest

from zermelo.games.draughts import kernel
from zermelo.games.draughts.dama import DamaState
from zermelo.games.draughts.international import InternationalState
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL
from zermelo.solvers.draughts import egdb, search
from zermelo.solvers.draughts.engine import MATE_BOUND, DraughtsEngine

NO_DATABASE = search.SW_ALL & ~search.SW_EGDB

# White kings 12, 22, 29 against a man on 27 and a king on 38, White to move: both captures take
# one piece. 22x31 (or 22x36) takes the man: three kings against a king, a draw. 29x42 (or 29x47)
# takes the king: three kings against a man, a win (Black's 27x18 takes a king back, but two
# kings still beat a man). By material the man is the better catch for White's evaluation here.
CHOICE = InternationalState.parse("W:WK12,K22,K29:B27,K38")
TAKE_THE_MAN = (21, 30, 1 << 26)  # 22x31
TAKE_THE_KING = (28, 41, 1 << 37)  # 29x42


def _after(move: tuple[int, int, int]) -> tuple[int, int, int]:
    for m in kernel.legal(INTERNATIONAL, CHOICE.white, CHOICE.black, CHOICE.kings, 0):
        if (m.path[0], m.path[-1], m.captured) == move:
            return kernel.play(INTERNATIONAL, CHOICE.white, CHOICE.black, CHOICE.kings, 0, m)
    raise AssertionError(f"{move} is not legal")


def test_the_database_knows_the_two_captures_apart() -> None:
    # Black to move after each capture
    assert egdb.probe(*_after(TAKE_THE_MAN), 1) == 0
    assert egdb.probe(*_after(TAKE_THE_KING), 1) == -1


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_engine_converts_through_the_database(depth: int) -> None:
    position = (CHOICE.white, CHOICE.black, CHOICE.kings, 0)
    found = DraughtsEngine(INTERNATIONAL, hash_mb=1).search(*position, depth=depth)
    assert found.move == TAKE_THE_KING
    assert found.score == search.DB_WIN - 1  # the win is known one ply down
    assert not found.decided  # a database win has no distance: no "win in N"
    # the evaluation alone prefers the drawn capture at these depths
    blind = DraughtsEngine(INTERNATIONAL, hash_mb=1, switches=NO_DATABASE)
    without = blind.search(*position, depth=depth)
    assert without.move == TAKE_THE_MAN
    assert 0 < without.score < search.EVAL_CAP
    # every root move valued: the two drawing captures at 0, the winning ones at DB_WIN - 1
    analysis = DraughtsEngine(INTERNATIONAL, hash_mb=1).analyze_moves(*position, depth=depth)
    scores = {entry.move: entry.score for entry in analysis.moves}
    assert scores[TAKE_THE_KING] == scores[(28, 46, 1 << 37)] == search.DB_WIN - 1
    assert scores[TAKE_THE_MAN] == scores[(21, 35, 1 << 26)] == 0


def test_compiled_and_plain_probe_alike() -> None:
    if not search.COMPILED:
        pytest.skip("numba is not installed: there is no compiled kernel to compare")
    position = (CHOICE.white, CHOICE.black, CHOICE.kings, 0)
    compiled = DraughtsEngine(INTERNATIONAL, hash_mb=1, compiled=True).search(*position, depth=3)
    plain = DraughtsEngine(INTERNATIONAL, hash_mb=1, compiled=False).search(*position, depth=3)
    assert (plain.move, plain.score, plain.pv, plain.nodes) == (
        compiled.move,
        compiled.score,
        compiled.pv,
        compiled.nodes,
    )
    assert plain.move == TAKE_THE_KING


def test_a_root_in_the_database_is_searched_not_probed() -> None:
    """From four pieces the evaluation leads (a database value has no distance: every winning
    move would score the same); the engine still tells the root's value."""
    white, black, kings = _after(TAKE_THE_KING)
    engine = DraughtsEngine(INTERNATIONAL, hash_mb=1)
    found = engine.search(white, black, kings, 1, depth=3)
    assert abs(found.score) < search.DB_BOUND or abs(found.score) > MATE_BOUND
    blind = DraughtsEngine(INTERNATIONAL, hash_mb=1, switches=NO_DATABASE)
    same = blind.search(white, black, kings, 1, depth=3)
    assert (same.move, same.score, same.nodes) == (found.move, found.score, found.nodes)
    assert engine.endgame_value(white, black, kings, 1) == -1
    assert engine.endgame_value(CHOICE.white, CHOICE.black, CHOICE.kings, 0) is None


def test_dama_has_no_database() -> None:
    engine = DraughtsEngine(DAMA, hash_mb=1)
    assert not engine.probes
    start = DamaState.initial()
    assert engine.endgame_value(start.white, start.black, start.kings, 0) is None
    assert DraughtsEngine(INTERNATIONAL, hash_mb=1).probes
