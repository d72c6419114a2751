"""UCI's EvalFile option: a learned network loaded by path, the built-in evaluation by an empty
value, and a bad file answered with one info string while the engine keeps its evaluation."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import english_env, recording_uci
from zermelo.solvers.chess import ChessEngine, nnue
from zermelo.ui.uci import UciSession

CONSTANT = 777
"""The value, for the side to move, of every position under the constant network."""


def _constant_network() -> nnue.Network:
    """A network that values every position at :data:`CONSTANT` centipawns for the side to
    move: a one-ply search of any quiet start then scores ``-CONSTANT`` (each reply is worth
    ``CONSTANT`` to the opponent), whatever its table holds."""
    hidden = 8
    bias = -(-CONSTANT * nnue.QA * nnue.QB // nnue.SCALE)  # rounded up: the division truncates
    return nnue.Network(
        np.zeros((nnue.FEATURES, hidden), dtype=np.int16),
        np.zeros(hidden, dtype=np.int16),
        np.zeros(2 * hidden, dtype=np.int16),
        bias,
        {"test": "constant"},
    )


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nnue") / "constant.npz"
    nnue.save(_constant_network(), path)
    assert nnue.evaluate(nnue.load(path), chess.Board()) == CONSTANT
    return path


@pytest.fixture(scope="module")
def uci_engine() -> Iterator[chess.engine.SimpleEngine]:
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "zermelo.ui.uci"], env=english_env(), timeout=180
    )
    yield engine
    engine.quit()


def _score(engine: chess.engine.SimpleEngine) -> chess.engine.Score:
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=1))
    return info["score"].relative


def test_a_gui_loads_the_network_and_goes_back(
    uci_engine: chess.engine.SimpleEngine, network_file: Path
) -> None:
    option = uci_engine.options["EvalFile"]
    assert option.type == "string"
    builtin = _score(uci_engine)
    assert builtin != chess.engine.Cp(-CONSTANT)
    uci_engine.configure({"EvalFile": str(network_file)})
    assert _score(uci_engine) == chess.engine.Cp(-CONSTANT)
    uci_engine.configure({"EvalFile": ""})
    assert _score(uci_engine) == builtin


def _session() -> tuple[UciSession, list[str], ChessEngine]:
    session, lines = recording_uci()
    engine = session._engine_ready()
    assert engine is not None
    return session, lines, engine


def test_a_bad_file_gets_one_line_and_keeps_the_network(network_file: Path, tmp_path: Path) -> None:
    session, lines, engine = _session()
    session.handle(f"setoption name EvalFile value {network_file}")
    kept = engine.network
    assert kept is not None and kept.meta == {"test": "constant"}
    text = tmp_path / "notes.npz"
    text.write_text("not a network\n")
    for value in (str(text), str(tmp_path), str(tmp_path / "missing.npz"), "/dev/zero"):
        before = len(lines)
        session.handle(f"setoption name EvalFile value {value}")
        said = lines[before:]
        assert len(said) == 1 and said[0].startswith(f"info string {value}: "), said
        assert engine.network is kept
    assert lines[-1] == "info string /dev/zero: not a regular file, so not a network file"
    session.handle("setoption name EvalFile value <empty>")
    assert engine.network is None
    session.close()


@pytest.fixture(scope="module")
def fuzz_session() -> Iterator[tuple[UciSession, list[str], ChessEngine]]:
    session, lines, engine = _session()
    yield session, lines, engine
    session.close()


PATHS = st.sampled_from(["", "<empty>", ".", "/", "/dev/null", "/dev/stdin", "x" * 5000, "a\0b"])


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=st.one_of(PATHS, st.text(max_size=40)), good=st.booleans())
def test_fuzzed_eval_file_values_never_break_the_session(
    fuzz_session: tuple[UciSession, list[str], ChessEngine],
    network_file: Path,
    value: str,
    good: bool,
) -> None:
    session, lines, engine = fuzz_session
    session.handle(f"setoption name EvalFile value {network_file if good else '<empty>'}")
    kept = engine.network
    value = value.replace("\n", " ").replace("\r", " ")
    before = len(lines)
    assert session.handle(f"setoption name EvalFile value {value}") is True
    said = lines[before:]
    assert len(said) <= 1 and all(line.startswith("info string ") for line in said)
    if value.strip() in ("", "<empty>"):
        assert engine.network is None
    elif said and "hidden units" not in said[0]:
        assert engine.network is kept
