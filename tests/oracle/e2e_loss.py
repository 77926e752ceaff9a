#!/usr/bin/env python3
"""Op-level end-to-end cases of the element-wise losses, forward only (their
grads are in e2e_grad_loss.py): sigmoid_cross_entropy_with_logits (plain,
pos_weight, ignore_index hits with normalize off and on), bce_loss (with
probabilities of exactly 0 and 1, where Paddle clips the log at -100),
huber_loss (both sides of delta; Residual fetched), log_loss, and
kldiv_loss with every reduction (targets <= 0 included), nll_loss.

Feeds: `prob*` are probabilities in [0, 1] (a few exactly 0 and 1), `lab*`
labels in [0, 1], `ign*` labels drawn from {0, 0.5, 1, -1, -100} (the
ignore_index values the cases use), `tgt*` KL targets in [-0.2, 1) (some
<= 0), `pw*` positive weights, `cls<N>` hard labels in [0, N); anything
else is standard normal.

    python e2e_loss.py OUTDIR [CASE ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, run_static_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def data(name, shape):
    return paddle.static.data(name, shape, "float32")


def sce(x, label, pos_weight=None, **attrs):
    inputs = {"X": x, "Label": label}
    if pos_weight is not None:
        inputs["pos_weight"] = pos_weight
    return op("sigmoid_cross_entropy_with_logits", inputs, {"Out": ["float32"]}, attrs)[0]


@case
def sce_plain():
    x, y = data("x", [-1, 5]), data("lab", [-1, 5])
    return [x, y], [F.binary_cross_entropy_with_logits(x, y, reduction="none")]


@case
def sce_pos_weight():
    """pos_weight as F builds it: label * (w - 1) + 1, broadcast over rows."""
    x, y, w = data("x", [-1, 4]), data("lab", [-1, 4]), data("pw", [4])
    return [x, y, w], [F.binary_cross_entropy_with_logits(x, y, reduction="none", pos_weight=w)]


@case
def sce_ignore():
    """ignore_index -1 hit (and -100 labels that are not ignored)."""
    x, y = data("x", [3, 7]), data("ign", [3, 7])
    return [x, y], [sce(x, y, normalize=False, ignore_index=-1)]


@case
def sce_normalize():
    x, y = data("x", [2, 3, 4]), data("ign", [2, 3, 4])
    return [x, y], [sce(x, y, normalize=True, ignore_index=-100)]


@case
def sce_normalize_pos_weight():
    x, y, w = data("x", [4, 5]), data("ign", [4, 5]), data("pw", [4, 5])
    return [x, y, w], [sce(x, y, w, normalize=True, ignore_index=-1)]


@case
def bce():
    p, y = data("prob", [-1, 6]), data("lab", [-1, 6])
    return [p, y], [F.binary_cross_entropy(p, y, reduction="none")]


@case
def huber():
    x, y = data("x", [-1, 3, 4]), data("y", [-1, 3, 4])
    out, res = op("huber_loss", {"X": x, "Y": y}, {"Out": ["float32"], "Residual": ["float32"]}, {"delta": 0.7})
    return [x, y], [out, res]


@case
def huber_smooth_l1():
    """F.smooth_l1_loss is huber_loss (delta 1.5) then a mean."""
    x, y = data("x", [-1, 5]), data("y", [-1, 5])
    return [x, y], [F.smooth_l1_loss(x, y, reduction="none", delta=1.5)]


@case
def log_loss():
    p, y = data("prob", [-1, 1]), data("lab", [-1, 1])
    return [p, y], [F.log_loss(p, y, epsilon=1e-3)]


def kldiv(reduction, shape):
    x, t = data("x", shape), data("tgt", shape)
    return [x, t], op("kldiv_loss", {"X": x, "Target": t}, {"Loss": ["float32"]}, {"reduction": reduction})


@case
def kldiv_none():
    return kldiv("none", [-1, 6])


@case
def kldiv_mean():
    return kldiv("mean", [-1, 3, 4])


@case
def kldiv_sum():
    return kldiv("sum", [5, 7])


@case
def kldiv_batchmean():
    return kldiv("batchmean", [-1, 2, 5])


@case
def kl_div_functional():
    x, t = data("x", [-1, 8]), data("tgt", [-1, 8])
    return [x, t], [F.kl_div(x, t, reduction="batchmean")]


@case
def nll_loss():
    """nll_loss forward (its grads: e2e_grad_loss.py), every reduction,
    with and without class weights, ignore_index hit, [N, C] and a map
    [N, C, H, W], float64; Total_weight fetched."""
    x, x4 = data("x", [-1, 5]), data("xmap", [2, 4, 3, 3])
    cls, cls4 = paddle.static.data("cls5", [-1], "int64"), paddle.static.data("cls4", [2, 3, 3], "int64")
    w = data("pw_w", [5])
    d = paddle.static.data("d", [-1, 5], "float64")
    outs = [F.nll_loss(x, cls), F.nll_loss(x, cls, weight=w, ignore_index=1),
            F.nll_loss(x, cls, weight=w, reduction="sum"), F.nll_loss(x, cls, reduction="none", ignore_index=3),
            F.nll_loss(x4, cls4), F.nll_loss(x4, cls4, reduction="none"), F.nll_loss(d, cls, reduction="sum")]
    outs += op("nll_loss", {"X": [x], "Label": [cls], "Weight": [w]}, {"Out": ["float32"], "Total_weight": ["float32"]},
               {"ignore_index": 0, "reduction": "mean"})
    return [x, x4, cls, cls4, w, d], outs


def make_input(v, rng):
    """Feed values by name (the module docstring); batch 3."""
    name = v.name
    shape = [3 if d < 0 else d for d in v.shape]
    if name.startswith("cls"):  # hard labels in [0, N) for cls<N>
        return rng.integers(0, int(name[3:]), shape).astype("int64")
    if v.dtype == paddle.float64:
        return rng.standard_normal(shape)
    if name.startswith("prob"):
        p = rng.uniform(0.02, 0.98, shape)
        flat = p.reshape(-1)
        flat[:2] = [0.0, 1.0] if flat.size >= 2 else flat[:2]
        return p.astype("float32")
    if name.startswith("lab"):
        return rng.random(shape).astype("float32")
    if name.startswith("ign"):
        return rng.choice(np.array([0.0, 0.5, 1.0, -1.0, -100.0], "float32"), shape)
    if name.startswith("tgt"):
        return rng.uniform(-0.2, 1.0, shape).astype("float32")
    if name.startswith("pw"):
        return rng.uniform(0.2, 3.0, shape).astype("float32")
    return (rng.standard_normal(shape) * 2).astype("float32")


if __name__ == "__main__":
    run_static_cases(CASES, make_input)
