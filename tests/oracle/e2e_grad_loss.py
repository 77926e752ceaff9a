"""Gradient cases of softmax and the classification losses: softmax_grad and
log_softmax_grad (last and middle axis), softmax_with_cross_entropy (hard
labels with ignore_index, soft labels, a middle class axis, use_softmax off)
the legacy cross_entropy / cross_entropy2, and the element-wise losses
(sigmoid_cross_entropy_with_logits with pos_weight, ignore_index hits and
normalize; bce_loss; huber_loss's X and Y grads; log_loss; hinge_loss; rank_loss; kldiv_loss with
each reduction; nll_loss 2-D and 4-D, weighted, ignore_index, each
reduction, float64), forward and grad, checked against Paddle's own grad ops
(oracle_case.build_grad_case).

Feeds named label_c<N> are hard labels drawn in [0, N); soft_* are soft
labels (positive floats); prob* probabilities in [0.05, 0.95]; lab* labels
in [0, 1]; ign* labels from {0, 0.5, 1, -1, -100} (the ignore_index values
used); tgt* KL targets in [-0.2, 1) (some <= 0); pw* positive weights; far*
standard normal times 40 (logits far apart: Paddle's softmax functors clip
x - max at -64, so a class 100 below the max weighs exp(-64), its
log_softmax is -64 - log(sum) and its cross-entropy about 64).

    python e2e_grad_loss.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, case = case_registry()


def label(name, shape, dtype="int64"):
    return paddle.static.data(name, shape, dtype)


@case
def softmax_last():
    x = data("x", [-1, 5])
    return ["x"], [F.softmax(x, axis=-1)], [x]


@case
def softmax_axis1():
    x = data("x", [2, 4, 3])
    return ["x"], [F.softmax(x, axis=1)], [x]


@case
def log_softmax_last():
    x = data("x", [-1, 6])
    return ["x"], [F.log_softmax(x, axis=-1)], [x]


@case
def log_softmax_axis1():
    x = data("x", [2, 4, 3])
    return ["x"], [F.log_softmax(x, axis=1)], [x]


@case
def softmax_axis1_f64():
    """float64: the sums and the divisor in double, held to TOL64."""
    x = data("x", [2, 4, 3], "float64")
    return ["x"], [F.softmax(x, axis=1)], [x]


@case
def log_softmax_last_f64():
    x = data("x", [-1, 6], "float64")
    return ["x"], [F.log_softmax(x, axis=-1)], [x]


@case
def swce_hard():
    x, lbl = data("x", [-1, 5]), label("label_c5", [-1, 1])
    return ["x", "label_c5"], [F.softmax_with_cross_entropy(x, lbl)], [x]


@case
def swce_hard_ignore():
    x, lbl = data("x", [8, 5]), label("label_c5", [8, 1])
    return ["x", "label_c5"], [F.softmax_with_cross_entropy(x, lbl, ignore_index=2)], [x]


@case
def swce_hard_axis1_int32():
    x, lbl = data("x", [2, 4, 3]), label("label_c4", [2, 1, 3], "int32")
    return ["x", "label_c4"], [F.softmax_with_cross_entropy(x, lbl, ignore_index=1, axis=1)], [x]


@case
def swce_soft():
    x, lbl = data("x", [-1, 5]), label("soft", [-1, 5], "float32")
    return ["x", "soft"], [F.softmax_with_cross_entropy(x, lbl, soft_label=True)], [x]


@case
def swce_soft_axis0():
    x, lbl = data("x", [4, 3]), label("soft", [4, 3], "float32")
    return ["x", "soft"], [F.softmax_with_cross_entropy(x, lbl, soft_label=True, axis=0)], [x]


@case
def swce_no_softmax_hard():
    """use_softmax off: the input is already a softmax (whose grad follows)."""
    x, lbl = data("x", [6, 5]), label("label_c5", [6, 1])
    loss = F.cross_entropy(F.softmax(x), lbl, use_softmax=False, reduction="none", ignore_index=3)
    return ["x", "label_c5"], [loss], [x]


@case
def swce_no_softmax_soft():
    x, lbl = data("x", [6, 5]), label("soft", [6, 5], "float32")
    loss = F.cross_entropy(F.softmax(x), lbl, soft_label=True, use_softmax=False, reduction="none")
    return ["x", "soft"], [loss], [x]


def legacy_ce(x, lbl, **attrs):
    return op("cross_entropy", {"X": x, "Label": lbl}, {"Y": ["float32"]}, attrs)[0]


@case
def cross_entropy_hard():
    x, lbl = data("x", [6, 5]), label("label_c5", [6, 1])
    return ["x", "label_c5"], [legacy_ce(F.softmax(x), lbl, soft_label=False, ignore_index=4)], [x]


@case
def cross_entropy_soft():
    x, lbl = data("x", [2, 3, 5]), label("soft", [2, 3, 5], "float32")
    return ["x", "soft"], [legacy_ce(F.softmax(x), lbl, soft_label=True)], [x]


@case
def cross_entropy2():
    x, lbl = data("x", [-1, 5]), label("label_c5", [-1, 1])
    y = op("cross_entropy2", {"X": F.softmax(x), "Label": lbl},
           {"Y": ["float32"], "XShape": ["float32"], "MatchX": ["float32"]}, {"ignore_index": 0})[0]
    return ["x", "label_c5"], [y], [x]


def sce(x, lbl, pos_weight=None, **attrs):
    inputs = {"X": x, "Label": lbl}
    if pos_weight is not None:
        inputs["pos_weight"] = pos_weight
    return op("sigmoid_cross_entropy_with_logits", inputs, {"Out": ["float32"]}, attrs)[0]


@case
def sce_plain():
    x, lbl = data("x", [-1, 5]), label("lab", [-1, 5], "float32")
    return ["x", "lab"], [F.binary_cross_entropy_with_logits(x, lbl, reduction="none")], [x]


@case
def sce_pos_weight_mean():
    """pos_weight as F builds it (label * (w - 1) + 1), then the mean."""
    x, lbl, w = data("x", [-1, 4]), label("lab", [-1, 4], "float32"), label("pw", [4], "float32")
    return ["x", "lab", "pw"], [F.binary_cross_entropy_with_logits(x, lbl, pos_weight=w)], [x]


@case
def sce_ignore():
    x, lbl = data("x", [3, 7]), label("ign", [3, 7], "float32")
    return ["x", "ign"], [sce(x, lbl, normalize=False, ignore_index=-1)], [x]


@case
def sce_normalize():
    x, lbl = data("x", [2, 3, 4]), label("ign", [2, 3, 4], "float32")
    return ["x", "ign"], [sce(x, lbl, normalize=True, ignore_index=-100)], [x]


@case
def sce_normalize_pos_weight():
    x, lbl, w = data("x", [4, 5]), label("ign", [4, 5], "float32"), label("pw", [4, 5], "float32")
    return ["x", "ign", "pw"], [sce(x, lbl, w, normalize=True, ignore_index=-1)], [x]


@case
def bce():
    p, lbl = data("prob", [-1, 6]), label("lab", [-1, 6], "float32")
    return ["prob", "lab"], [F.binary_cross_entropy(p, lbl, reduction="none")], [p]


@case
def bce_sigmoid_mean():
    """bce on a sigmoid, reduced: the chain a classifier trains with."""
    x, lbl = data("x", [-1, 3]), label("lab", [-1, 3], "float32")
    return ["x", "lab"], [F.binary_cross_entropy(F.sigmoid(x), lbl)], [x]


@case
def huber():
    x, y = data("x", [-1, 3, 4]), data("y", [-1, 3, 4])
    out = op("huber_loss", {"X": x, "Y": y}, {"Out": ["float32"], "Residual": ["float32"]}, {"delta": 0.7})[0]
    return ["x", "y"], [out], [x, y]


@case
def huber_smooth_l1_mean():
    x, y = data("x", [-1, 5]), data("y", [-1, 5])
    return ["x", "y"], [F.smooth_l1_loss(x, y, delta=1.5)], [x]


@case
def log_loss():
    p, lbl = data("prob", [-1, 1]), label("lab", [-1, 1], "float32")
    return ["prob", "lab"], [F.log_loss(p, lbl, epsilon=1e-3)], [p]


@case
def hinge_loss():
    """fluid's hinge_loss (a raw op: no Python API in 2.6): logits far apart
    (std 40) so that both sides of the hinge are taken, labels in [0, 1]."""
    x, lbl = data("far", [-1, 1]), label("lab", [-1, 1], "float32")
    loss = op("hinge_loss", {"Logits": x, "Labels": lbl}, {"Loss": ["float32"]}, {})[0]
    return ["far", "lab"], [loss], [x]


@case
def rank_loss():
    """fluid's rank_loss (a raw op): RankNet's pairwise loss, both scores'
    gradients; Label [N, 1], Left and Right [N]."""
    lbl, left, right = label("lab", [-1, 1], "float32"), data("x", [-1]), data("y", [-1])
    out = op("rank_loss", {"Label": lbl, "Left": left, "Right": right}, {"Out": ["float32"]}, {})[0]
    return ["lab", "x", "y"], [out], [left, right]


def kldiv(reduction, shape):
    x, t = data("x", shape), label("tgt", shape, "float32")
    loss = op("kldiv_loss", {"X": x, "Target": t}, {"Loss": ["float32"]}, {"reduction": reduction})[0]
    return ["x", "tgt"], [loss], [x]


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
def far_logits_softmax():
    """softmax and log_softmax of logits far apart, on the last axis and on
    a middle one (rt_softmax's row and strided paths)."""
    x = data("far", [5, 24])
    m = data("far_mid", [2, 6, 3])
    return ["far", "far_mid"], [F.softmax(x), F.log_softmax(x), F.softmax(m, axis=1), F.log_softmax(m, axis=1)], [x, m]


@case
def far_logits_swce():
    """softmax_with_cross_entropy where the label is far below the max, and
    the legacy cross_entropy of such a softmax."""
    x, lbl = data("far", [24, 4]), label("label_c4", [24, 1])
    sm = F.softmax(x)
    ce = op("cross_entropy", {"X": sm, "Label": lbl}, {"Y": ["float32"]}, {"soft_label": False})[0]
    return ["far", "label_c4"], [F.softmax_with_cross_entropy(x, lbl), ce], [x]


far_logits_swce.fetch_outs = True
far_logits_softmax.fetch_outs = True


@case
def nll_mean_weight():
    """nll_loss, mean over the class weights, ignore_index 2 hit by some
    labels (no weight, no gradient there)."""
    x, lbl, w = data("x", [8, 5]), label("label_c5", [8]), paddle.static.data("pw_w", [5], "float32")
    return ["x", "label_c5", "pw_w"], [F.nll_loss(x, lbl, weight=w, ignore_index=2)], [x]


@case
def nll_none_4d():
    """nll_loss of a map ([N, C, H, W], labels [N, H, W]), no reduction."""
    x, lbl = data("x", [2, 4, 3, 3]), label("label_c4", [2, 3, 3])
    return ["x", "label_c4"], [F.nll_loss(x, lbl, reduction="none")], [x]


@case
def nll_sum_3d():
    """nll_loss of [N, C, L] (Python reshapes it to [N, C, 1, L]), summed,
    with weights."""
    x, lbl, w = data("x", [2, 5, 7]), label("label_c5", [2, 7]), paddle.static.data("pw_w", [5], "float32")
    return ["x", "label_c5", "pw_w"], [F.nll_loss(x, lbl, weight=w, reduction="sum")], [x]


@case
def nll_mean_f64():
    x, lbl = data("x", [-1, 6], "float64"), label("label_c6", [-1])
    return ["x", "label_c6"], [F.nll_loss(x, lbl)], [x]


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    m = re.fullmatch(r"label_c(\d+)", v.name)
    if m:
        return rng.integers(0, int(m.group(1)), shape).astype(str(v.dtype).replace("paddle.", ""))
    if v.name.startswith("soft") or v.name.startswith("lab"):
        return rng.random(shape).astype("float32")
    if v.name.startswith("prob"):
        return rng.uniform(0.05, 0.95, shape).astype("float32")
    if v.name.startswith("ign"):
        return rng.choice(np.array([0.0, 0.5, 1.0, -1.0, -100.0], "float32"), shape)
    if v.name.startswith("tgt"):
        return rng.uniform(-0.2, 1.0, shape).astype("float32")
    if v.name.startswith("far"):
        return (40 * rng.standard_normal(shape)).astype("float32")
    if v.name.startswith("pw"):
        return rng.uniform(0.2, 3.0, shape).astype("float32")
    return rng.standard_normal(shape).astype("float64" if v.dtype == paddle.float64 else "float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)
