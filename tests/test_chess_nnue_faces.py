"""The learned evaluation in the faces: ``zermelo explain chess --nnue FILE`` shows the named
terms as before plus the network's total, and says which evaluation plays."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest

from conftest import run_cli
from zermelo.solvers.chess import ChessEngine, nnue
from zermelo.solvers.chess.evaluation import explain

FEN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4"


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(31)
    hidden = 16
    network = nnue.quantise(
        rng.normal(0, 0.15, (nnue.FEATURES, hidden)),
        rng.normal(0.3, 0.2, hidden),
        rng.normal(0, 0.5, 2 * hidden),
        0.05,
    )
    path = tmp_path_factory.mktemp("nnue") / "net.npz"
    nnue.save(network, path)
    return path


def test_explanation_keeps_the_terms_and_adds_the_network(network_file: Path) -> None:
    network = nnue.load(network_file)
    builtin = explain(FEN)
    with_network = explain(FEN, engine=ChessEngine(hash_mb=1, network=network))
    assert builtin.network is None
    assert with_network.terms == builtin.terms and with_network.score == builtin.score
    assert with_network.network == nnue.evaluate(network, chess.Board(FEN))
    assert with_network.network != builtin.score


def test_explain_on_the_command_line_shows_the_network_total(network_file: Path) -> None:
    plain = run_cli("explain", "chess", FEN, env={"COLUMNS": "120"})
    done = run_cli("explain", "chess", FEN, "--nnue", str(network_file), env={"COLUMNS": "120"})
    assert plain.returncode == 0 and done.returncode == 0, done.stderr
    value = nnue.evaluate(nnue.load(network_file), chess.Board(FEN))
    total = ChessEngine(hash_mb=1).evaluate(FEN)
    rows = [line for line in done.stdout.splitlines() if line.startswith("│") and "total" in line]
    assert len(rows) == 2
    assert "total f(s)" in rows[0] and f"{total:+.1f} │" in rows[0]
    assert "network total" in rows[1] and f"{value:+.1f} │" in rows[1]
    assert "plays with the network total" in done.stdout
    # without a network, the table is what it was: the terms and their total only
    assert "network" not in plain.stdout
    assert _cells(done.stdout)[:-1] == _cells(plain.stdout)
    assert _cells(done.stdout)[-1] == ["network total", "", "", f"{value:+.1f}"]


def _cells(table: str) -> list[list[str]]:
    """The table's rows, each as its stripped cells (the column widths left out)."""
    rows = [line for line in table.splitlines() if line.startswith("│")]
    return [[cell.strip() for cell in row.strip("│").split("│")] for row in rows]


def test_a_bad_network_or_another_game_gets_one_line(network_file: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("no network here\n")
    done = run_cli("explain", "chess", FEN, "--nnue", str(bad))
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"zermelo: error: {bad}: not a zermelo chess network (ValueError)"
    ]
    other = run_cli("explain", "othello", "--nnue", str(network_file))
    assert other.returncode != 0
    assert other.stderr.strip().splitlines()[-1] == (
        "zermelo: error: explain --nnue works on chess, not on othello"
    )
