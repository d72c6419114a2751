"""The chess search's switches: all on is the search as it was, and each one off changes it."""

from __future__ import annotations

import chess
import pytest

from zermelo.core.errors import InvalidOptionError
from zermelo.solvers.chess import SWITCHES, ChessEngine
from zermelo.solvers.chess import kernel as compiled_kernel

START = "startpos"
ITALIAN = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 b - - 0 6"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SICILIAN = "r1b1kb1r/1pqp1ppp/p1n1pn2/8/3NP3/2N1B3/PPP1BPPP/R2QK2R w KQkq - 4 8"
ENDGAME = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"

# Searches of a fresh engine with an 8 MiB table before the switches existed (main at ced2e34):
# position, depth, best move, score, nodes, principal variation.
COMPILED_PINS = (
    (
        START,
        10,
        "d2d4",
        10,
        130_949,
        "d2d4 d7d5 c1f4 g8f6 e2e3 b8c6 b1c3 c8f5 f1d3 e7e6",
    ),
    (ITALIAN, 9, "c5b6", -16, 96_078, "c5b6 a2a4 d7d6 b2b4 a7a5 b4b5 c6e7 c1e3 b6e3"),
    (KIWIPETE, 8, "d5e6", 29, 46_755, "d5e6 a6e2 e6f7 e8d8 c3e2 e7e5 d2b4 f6e4 e1c1"),
    (SICILIAN, 9, "d4c6", 54, 58_349, "d4c6 b7c6 e1g1 d7d5 e4d5 c6d5 d1d4 c8b7 a1d1"),
    (
        ENDGAME,
        14,
        "b4f4",
        53,
        166_223,
        "b4f4 h4g3 f4c4 h5h7 a5a6 g3g2 a6b7 h7h5 b7c7 h5b5 c7d6 b5b2 c4e4 b2d2 d6c6 g2g3",
    ),
)
PLAIN_PINS = (
    (START, 4, "e2e4", 6, 1_127, "e2e4 d7d5 b1c3 e7e6"),
    (ITALIAN, 4, "d7d5", 18, 1_381, "d7d5 e4d5 f6d5 d3d4"),
    (KIWIPETE, 4, "e2a6", 111, 1_915, "e2a6 b4c3 d2c3 h3g2"),
    (SICILIAN, 4, "e1g1", 45, 3_162, "e1g1 f8d6 d4c6 d6h2 g1h1"),
    (ENDGAME, 4, "b4f4", 64, 1_152, "b4f4 h4g3 f4f7 h5c5 f7g7 g3f2"),
)


def _uci(move: chess.Move | None) -> str | None:
    return None if move is None else move.uci()


def _line(pv: tuple[chess.Move, ...]) -> str:
    return " ".join(move.uci() for move in pv)


@pytest.mark.parametrize(("fen", "depth", "move", "score", "nodes", "pv"), COMPILED_PINS)
def test_all_switches_on_search_the_tree_they_searched_before(
    fen: str, depth: int, move: str, score: int, nodes: int, pv: str
) -> None:
    result = ChessEngine(hash_mb=8, compiled=True).search(fen, depth=depth)
    assert (_uci(result.move), result.value, result.stats.nodes, _line(result.pv)) == (
        move,
        score,
        nodes,
        pv,
    )


@pytest.mark.parametrize(("fen", "depth", "move", "score", "nodes", "pv"), PLAIN_PINS)
def test_plain_kernel_searches_the_pinned_tree_too(
    fen: str, depth: int, move: str, score: int, nodes: int, pv: str
) -> None:
    result = ChessEngine(hash_mb=8, compiled=False).search(fen, depth=depth)
    assert (_uci(result.move), result.value, result.stats.nodes, _line(result.pv)) == (
        move,
        score,
        nodes,
        pv,
    )


def test_the_switches_are_distinct_bits_and_all_on_by_default() -> None:
    bits = list(SWITCHES.values())
    assert all(bit > 0 and bit & (bit - 1) == 0 for bit in bits)
    assert len(set(bits)) == len(bits)
    total = 0
    for bit in bits:
        total |= bit
    assert total == compiled_kernel.SW_ALL
    assert ChessEngine(hash_mb=1).switches == compiled_kernel.SW_ALL


def _nodes(fen: str, depth: int, switches: int = compiled_kernel.SW_ALL) -> int:
    engine = ChessEngine(hash_mb=8, compiled=True, switches=switches)
    return engine.search(fen, depth=depth).stats.nodes


DEFAULT_NODES = {KIWIPETE: 46_755, SICILIAN: 58_349}


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_each_switch_off_changes_the_search(name: str) -> None:
    without = compiled_kernel.SW_ALL & ~SWITCHES[name]
    assert _nodes(KIWIPETE, 8, without) != DEFAULT_NODES[KIWIPETE]
    assert _nodes(SICILIAN, 9, without) != DEFAULT_NODES[SICILIAN]


@pytest.mark.parametrize("name", ["late-move-reductions", "futility", "late-move-pruning"])
def test_pruning_and_reductions_save_nodes(name: str) -> None:
    without = compiled_kernel.SW_ALL & ~SWITCHES[name]
    for fen, depth in ((KIWIPETE, 8), (SICILIAN, 9)):
        assert _nodes(fen, depth, without) > DEFAULT_NODES[fen]


def test_the_check_extension_costs_nodes() -> None:
    without = compiled_kernel.SW_ALL & ~SWITCHES["check-extension"]
    for fen, depth in ((KIWIPETE, 8), (SICILIAN, 9)):
        assert _nodes(fen, depth, without) < DEFAULT_NODES[fen]


@pytest.mark.parametrize(
    ("name", "start", "stop"),
    [
        ("killers", compiled_kernel.KILLER_BASE, compiled_kernel.HISTORY_BASE),
        ("history", compiled_kernel.HISTORY_BASE, compiled_kernel.PV_LENGTH_BASE),
    ],
)
def test_killers_and_history_stay_empty_when_off(name: str, start: int, stop: int) -> None:
    on = ChessEngine(hash_mb=8)
    on.search(SICILIAN, depth=7)
    assert any(on._work[start:stop])
    off = ChessEngine(hash_mb=8, switches=compiled_kernel.SW_ALL & ~SWITCHES[name])
    off.search(SICILIAN, depth=7)
    assert not any(off._work[start:stop])


def test_switches_survive_a_new_game() -> None:
    without = compiled_kernel.SW_ALL & ~SWITCHES["late-move-reductions"]
    engine = ChessEngine(hash_mb=8, compiled=True, switches=without)
    first = engine.search(KIWIPETE, depth=8).stats.nodes
    engine.new_game()
    assert engine.search(KIWIPETE, depth=8).stats.nodes == first != DEFAULT_NODES[KIWIPETE]


@pytest.mark.parametrize("switches", [-1, compiled_kernel.SW_ALL + 1, True, 1.5, "all", None])
def test_bad_switches_are_refused_in_one_line(switches: object) -> None:
    with pytest.raises(InvalidOptionError, match="invalid search switches") as raised:
        ChessEngine(hash_mb=1, switches=switches)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value)
    assert str(compiled_kernel.SW_ALL) in str(raised.value)
