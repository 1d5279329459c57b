"""``ppo.update_precision``: the hidden layers' matrix products of the gradient passes in bfloat16.

On a CPU with bfloat16 instructions (AVX512-BF16 or AMX) a float32 matrix product of the update's
size runs 2-3x faster in bfloat16. With ``update_precision: bfloat16`` the policy and value MLPs (the
``policy_net`` / ``value_net`` of the policy's ``mlp_extractor``) run under ``torch.autocast`` whenever
gradients are on — the PPO update and the warm start's fit — and hand their latents back in float32.
What stays float32: the weights, the gradients and Adam's state (autocast casts a copy of each weight
for the product), the heads (logits, log-probabilities and values: the ratio and the value loss need
their precision), and every forward pass without gradients (the rollouts, evaluations, snapshots), so
a checkpoint is the same float32 network it always was and plays the same wherever it is loaded.

The switch changes the class of those two ``nn.Sequential`` modules to :class:`BFloat16Trunk` (same
layers, same ``state_dict``); it is not saved with the model, so a run applies it after building or
loading its model (``training/train.py``).
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

PRECISIONS = ("float32", "bfloat16")
TRUNKS = ("policy_net", "value_net")


class BFloat16Trunk(nn.Sequential):
    """An ``nn.Sequential`` whose gradient passes run under bfloat16 autocast, with a float32 result."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not torch.is_grad_enabled():
            return super().forward(x)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = super().forward(x)
        return out.float()


def trunks(policy: Any) -> list[nn.Sequential]:
    """The MLP trunks of a MaskablePPO policy (plain or with action features): its ``policy_net``/``value_net``."""
    found = [
        module
        for name, module in policy.mlp_extractor.named_modules()
        if name.rsplit(".", 1)[-1] in TRUNKS and isinstance(module, nn.Sequential)
    ]
    if not found:
        raise ValueError(f"{type(policy).__name__} has no policy_net/value_net MLP to set a precision on")
    return found


def set_update_precision(policy: Any, precision: str) -> None:
    """Run ``policy``'s trunks' gradient passes in ``precision`` (one of :data:`PRECISIONS`)."""
    if precision not in PRECISIONS:
        raise ValueError(f"update precision {precision!r} is unknown; allowed: {', '.join(PRECISIONS)}")
    cls = BFloat16Trunk if precision == "bfloat16" else nn.Sequential
    for module in trunks(policy):
        module.__class__ = cls
