"""The numpy net (agents/az.py) equals the torch net it was exported from, and bad net files get
one line."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.az import AzAgent, Net, NetError, learnable
from zermelo.core.errors import InvalidOptionError
from zermelo.core.state import AnyState
from zermelo.games.registry import get_game
from zermelo.learn.net import PolicyValueNet, export, fused


def positions(game: str, count: int, seed: int) -> list[AnyState]:
    spec = get_game(game)
    rng = random.Random(seed)
    out: list[AnyState] = []
    while len(out) < count:
        state = spec.new()
        while not state.is_terminal() and len(out) < count:
            out.append(state)
            state = state.play(rng.choice(list(state.legal_moves())))
    return out


def random_model(game: str, channels: int, blocks: int, seed: int) -> PolicyValueNet:
    spec = get_game(game)
    encoder = learnable(spec)
    start = spec.new()
    torch.manual_seed(seed)
    model = PolicyValueNet(*encoder.shape(start), encoder.actions(start), channels, blocks)
    generator = torch.Generator().manual_seed(seed)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            assert module.running_mean is not None and module.running_var is not None
            module.running_mean.uniform_(-0.5, 0.5, generator=generator)
            module.running_var.uniform_(0.5, 2.0, generator=generator)
            module.weight.data.uniform_(0.5, 1.5, generator=generator)
            module.bias.data.uniform_(-0.2, 0.2, generator=generator)
    return model.eval()


@pytest.mark.parametrize(("game", "channels", "blocks"), [("connect4", 8, 2), ("tictactoe", 4, 1)])
def test_numpy_and_torch_give_the_same_policy_and_value(
    game: str, channels: int, blocks: int
) -> None:
    model = random_model(game, channels, blocks, seed=3)
    net = export(model, {"game": game, "options": {}, "description": "test"})
    states = positions(game, 40, seed=1)
    planes = net.encoder.planes(states)
    with torch.no_grad():
        logits, values = model(torch.from_numpy(planes))
        fused_logits, fused_values = fused(model)(torch.from_numpy(planes))
    np_logits, np_values = net.forward(planes)
    assert np.allclose(np_logits, logits.numpy(), atol=1e-4)
    assert np.allclose(np_values, values.numpy(), atol=1e-5)
    assert np.allclose(fused_logits.numpy(), logits.numpy(), atol=1e-4)
    assert np.allclose(fused_values.numpy(), values.numpy(), atol=1e-5)
    # evaluate: a softmax over the legal moves only, in their order.
    for state, (priors, _value) in zip(states, net.evaluate(states), strict=True):
        actions = [net.encoder.action(m) for m in state.legal_moves()]
        row = logits.numpy()[states.index(state)][actions]
        expected = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
        assert np.allclose(priors, expected, atol=1e-4)
        assert abs(sum(priors) - 1) < 1e-9


def test_the_planes_are_the_board_from_the_side_to_move() -> None:
    spec = get_game("connect4")
    one = spec.parse("4")  # X in the middle column, O to move
    planes = learnable(spec).planes([spec.new(), one])
    assert planes.shape == (2, 3, 6, 7)
    assert planes[0, :2].sum() == 0 and planes[0, 2].sum() == 42
    # O moves: its own plane is empty, the opponent's has X's stone at the bottom middle.
    assert planes[1, 0].sum() == 0
    assert planes[1, 1, 5, 3] == 1 and planes[1, 1].sum() == 1


def test_a_saved_net_loads_and_plays_the_same(tmp_path: Path) -> None:
    model = random_model("connect4", 8, 1, seed=4)
    net = export(model, {"game": "connect4", "options": {}, "description": "a test net"})
    path = tmp_path / "net.npz"
    net.save(path)
    again = Net.load(path)
    assert again.description == "a test net" and again.game == "connect4"
    states = positions("connect4", 20, seed=2)
    a, b = net.evaluate(states), again.evaluate(states)
    # Saved as float16: the same within its rounding.
    for (pa, va), (pb, vb) in zip(a, b, strict=True):
        assert np.allclose(pa, pb, atol=2e-2) and abs(va - vb) < 2e-2
    state = states[5]
    assert AzAgent(again, sims=30).choose(state) == AzAgent(again, sims=30).choose(state)


def _npz(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_bad_net_files_get_one_line(tmp_path: Path) -> None:
    cases = {
        "missing.npz": None,
        "text.npz": b"not a zip at all",
        "nometa.npz": _npz(x=np.zeros(3)),
        "format.npz": _npz(meta=np.frombuffer(json.dumps({"format": 99}).encode(), np.uint8)),
        "game.npz": _npz(
            meta=np.frombuffer(json.dumps({"format": 1, "game": "nope"}).encode(), np.uint8)
        ),
        "arrays.npz": _npz(
            meta=np.frombuffer(
                json.dumps({"format": 1, "game": "connect4", "blocks": 1}).encode(), np.uint8
            )
        ),
    }
    for name, data in cases.items():
        path = tmp_path / name
        if data is not None:
            path.write_bytes(data)
        with pytest.raises(NetError) as error:
            Net.load(path)
        line = str(error.value)
        assert "\n" not in line and str(path) in line, line


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_a_net_or_one_line(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.npz"
        path.write_bytes(data)
        with pytest.raises(NetError):
            Net.load(path)


def test_games_a_net_cannot_learn_are_refused_in_one_line() -> None:
    for game in ("pig", "kuhn", "nim"):
        try:
            spec = get_game(game)
        except Exception:
            continue
        with pytest.raises(InvalidOptionError) as error:
            learnable(spec)
        assert "\n" not in str(error.value)
