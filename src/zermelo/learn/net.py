"""The policy-value network in PyTorch, and its export to the numpy net of :mod:`zermelo.agents.az`.

The layers are those :class:`zermelo.agents.az.Net` evaluates (see there): a 3x3 convolution,
residual blocks, a policy head and a value head, each convolution followed by a batch norm.
:func:`export` folds every batch norm into its convolution, so that the numpy forward pass is
convolutions, ReLUs and two small linear layers; a test checks that both give the same outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import nn

from zermelo.agents.az import FORMAT, Net

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["PolicyValueNet", "export", "fused", "load_state"]

HIDDEN = 64
"""The width of the value head's hidden layer."""


class _Block(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)


class PolicyValueNet(nn.Module):
    """AlphaZero's net, small: ``planes x rows x columns`` in, ``actions`` logits and a value out."""

    def __init__(
        self, planes: int, rows: int, columns: int, actions: int, channels: int, blocks: int
    ) -> None:
        super().__init__()
        self.shape = (planes, rows, columns)
        self.actions = actions
        self.channels = channels
        self.stem = nn.Conv2d(planes, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(_Block(channels) for _ in range(blocks))
        self.policy_conv = nn.Conv2d(channels, 2, 1, bias=False)
        self.policy_bn = nn.BatchNorm2d(2)
        self.policy_fc = nn.Linear(2 * rows * columns, actions)
        self.value_conv = nn.Conv2d(channels, 1, 1, bias=False)
        self.value_bn = nn.BatchNorm2d(1)
        self.value_fc1 = nn.Linear(rows * columns, HIDDEN)
        self.value_fc2 = nn.Linear(HIDDEN, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.relu(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            x = block(x)
        p = torch.relu(self.policy_bn(self.policy_conv(x))).flatten(1)
        v = torch.relu(self.value_bn(self.value_conv(x))).flatten(1)
        v = torch.tanh(self.value_fc2(torch.relu(self.value_fc1(v))))
        return self.policy_fc(p), v.squeeze(1)


def _fold(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The convolution followed by the batch norm (in evaluation mode) as one convolution:
    its weight as (k * k * in, out) for the NHWC columns of zermelo.agents.az, and its bias."""
    assert bn.running_var is not None and bn.running_mean is not None
    scale = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach()
    weight = conv.weight.detach() * scale[:, None, None, None]
    bias = (bn.bias - bn.running_mean * scale).detach()
    out, inp, kh, kw = weight.shape
    columns = weight.permute(2, 3, 1, 0).reshape(kh * kw * inp, out)
    return columns.numpy().astype(np.float32), bias.numpy().astype(np.float32)


def export(model: PolicyValueNet, meta: Mapping[str, object]) -> Net:
    """The numpy :class:`Net` of ``model`` (whose ``meta`` names the game and its options)."""
    arrays: dict[str, NDArray[np.float32]] = {}
    arrays["stem.w"], arrays["stem.b"] = _fold(model.stem, model.stem_bn)
    for i, block in enumerate(model.blocks):
        assert isinstance(block, _Block)
        arrays[f"block{i}.1.w"], arrays[f"block{i}.1.b"] = _fold(block.conv1, block.bn1)
        arrays[f"block{i}.2.w"], arrays[f"block{i}.2.b"] = _fold(block.conv2, block.bn2)
    arrays["policy.conv.w"], arrays["policy.conv.b"] = _fold(model.policy_conv, model.policy_bn)
    arrays["value.conv.w"], arrays["value.conv.b"] = _fold(model.value_conv, model.value_bn)

    def linear(layer: nn.Linear) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        return (
            layer.weight.detach().numpy().T.astype(np.float32).copy(),
            layer.bias.detach().numpy().astype(np.float32),
        )

    arrays["policy.fc.w"], arrays["policy.fc.b"] = linear(model.policy_fc)
    arrays["value.fc1.w"], arrays["value.fc1.b"] = linear(model.value_fc1)
    arrays["value.fc2.w"], arrays["value.fc2.b"] = linear(model.value_fc2)
    full = dict(meta)
    full.update(
        format=FORMAT,
        shape=list(model.shape),
        actions=model.actions,
        channels=model.channels,
        blocks=len(model.blocks),
    )
    return Net(arrays, full)


def fused(model: PolicyValueNet) -> PolicyValueNet:
    """A copy of ``model`` for inference, each batch norm folded into its convolution."""
    from copy import deepcopy

    from torch.nn.utils.fusion import fuse_conv_bn_eval

    copy = deepcopy(model).eval()
    pairs = [("stem", "stem_bn"), ("policy_conv", "policy_bn"), ("value_conv", "value_bn")]
    for conv, bn in pairs:
        setattr(copy, conv, fuse_conv_bn_eval(getattr(copy, conv), getattr(copy, bn)))
        setattr(copy, bn, nn.Identity())
    for block in copy.blocks:
        assert isinstance(block, _Block)
        block.conv1 = fuse_conv_bn_eval(block.conv1, block.bn1)
        block.conv2 = fuse_conv_bn_eval(block.conv2, block.bn2)
        block.bn1 = nn.Identity()  # type: ignore[assignment]
        block.bn2 = nn.Identity()  # type: ignore[assignment]
    return copy


def load_state(model: PolicyValueNet, state: Mapping[str, torch.Tensor]) -> None:
    """Load a checkpoint's weights into ``model``."""
    model.load_state_dict(dict(state))
