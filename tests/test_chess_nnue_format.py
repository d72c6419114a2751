"""The NNUE network's file format and its reference evaluation (zermelo.solvers.chess.nnue)."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.solvers.chess import nnue


def _random_network(seed: int, hidden: int = 16) -> nnue.Network:
    rng = np.random.default_rng(seed)
    return nnue.quantise(
        rng.normal(0, 0.1, (nnue.FEATURES, hidden)),
        rng.normal(0, 0.1, hidden),
        rng.normal(0, 0.5, 2 * hidden),
        rng.normal(0, 0.1),
        {"trained": "test"},
    )


def test_a_saved_network_loads_the_same(tmp_path: Path) -> None:
    network = _random_network(1)
    path = tmp_path / "net.npz"
    nnue.save(network, path)
    loaded = nnue.load(path)
    assert loaded.hidden == 16 and loaded.meta == {"trained": "test"}
    assert np.array_equal(loaded.ft_weights, network.ft_weights)
    assert np.array_equal(loaded.out_weights, network.out_weights)
    assert loaded.out_bias == network.out_bias
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    assert nnue.evaluate(loaded, board) == nnue.evaluate(network, board)


def test_the_inputs_of_the_start_are_each_sides_own_view() -> None:
    board = chess.Board()
    white, black = nnue.features(board, 0), nnue.features(board, 1)
    assert white == black  # the start is symmetric: each side sees the same from its own rank
    assert len(white) == 32
    assert nnue.feature(0, 0, chess.KING - 1, chess.E1) == 5 * 64 + 4
    assert nnue.feature(1, 1, chess.KING - 1, chess.E8) == 5 * 64 + 4
    assert nnue.feature(1, 0, chess.PAWN - 1, chess.A2) == 6 * 64 + (chess.A2 ^ 56)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 400), max_size=40))
def test_the_value_is_the_same_for_the_mirrored_position(seed: int, picks: list[int]) -> None:
    board = chess.Board()
    for pick in picks:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[pick % len(moves)])
    network = _random_network(seed % 1000)
    assert nnue.evaluate(network, board) == nnue.evaluate(network, board.mirror())


def test_the_value_is_the_integer_formula() -> None:
    network = _random_network(7, hidden=4)
    board = chess.Board("8/8/4k3/8/8/4K3/4P3/8 b - - 0 1")
    us, them = nnue.features(board, 1), nnue.features(board, 0)
    acc_us = np.clip(
        network.ft_bias.astype(int) + network.ft_weights[us].astype(int).sum(0), 0, 255
    )
    acc_them = np.clip(
        network.ft_bias.astype(int) + network.ft_weights[them].astype(int).sum(0), 0, 255
    )
    total = int(acc_us @ network.out_weights[:4].astype(int))
    total += int(acc_them @ network.out_weights[4:].astype(int)) + network.out_bias
    expected = int(total * 400 / (255 * 64))  # towards zero
    assert nnue.evaluate(network, board) == expected


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such network file"),
        (b"", "not a zermelo chess network"),
        (b"PK\x03\x04 broken", "not a zermelo chess network"),
    ],
)
def test_a_bad_file_is_one_line(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "bad.npz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(nnue.NnueError, match=message) as caught:
        nnue.load(path)
    assert "\n" not in str(caught.value)


def test_a_network_of_another_shape_or_scale_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    good = _random_network(2)
    np.savez(
        path,
        meta=np.frombuffer(
            b'{"format": "zermelo-nnue", "version": 1, "qa": 255, "qb": 64, "scale": 400}',
            dtype=np.uint8,
        ),
        ft_weights=good.ft_weights[:700],
        ft_bias=good.ft_bias,
        out_weights=good.out_weights,
        out_bias=np.array([0], dtype=np.int32),
    )
    with pytest.raises(nnue.NnueError, match=r"ft_weights is int16 \(700, 16\): expected"):
        nnue.load(path)
    nnue.save(good, path)
    with np.load(path) as data:
        arrays = dict(data)
    arrays["meta"] = np.frombuffer(
        b'{"format": "zermelo-nnue", "version": 1, "qa": 127, "qb": 64, "scale": 400}',
        dtype=np.uint8,
    )
    np.savez(path, **arrays)
    with pytest.raises(nnue.NnueError, match="qa is 127, this engine reads 255"):
        nnue.load(path)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=600))
def test_fuzz_random_bytes_never_load(
    tmp_path_factory: pytest.TempPathFactory, blob: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "x.npz"
    path.write_bytes(blob)
    with pytest.raises(nnue.NnueError) as caught:
        nnue.load(path)
    assert "\n" not in str(caught.value)
