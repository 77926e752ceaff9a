"""float64 cases of the classification and element-wise losses, forward and
grad, as Paddle 2.6's CPU kernels register them for double:
softmax_with_cross_entropy (hard int64 / int32 labels with ignore_index,
soft labels, a class axis other than the last, use_softmax off, logits far
apart, where the softmax clips x - max at -64, as softmax and log_softmax
do), the legacy cross_entropy / cross_entropy2,
sigmoid_cross_entropy_with_logits (pos_weight, ignore_index hits,
normalize), bce_loss, huber_loss (and F.smooth_l1_loss on it) and
kldiv_loss with each reduction.  Every case fetches its forward outputs too
(`fetch_outs`); float64 outputs are held to TOL64 (tests/test_e2e.py).
log_loss has only a float kernel in Paddle 2.6 and smooth_l1_loss none at
all: both stay float32 in paddlec.

Feeds as in e2e_grad_loss.py: label_c<N> hard labels in [0, N); soft_*
soft labels; prob* probabilities in [0.05, 0.95]; lab* labels in [0, 1];
ign* labels from {0, 0.5, 1, -1, -100}; tgt* KL targets in [-0.2, 1);
pw* positive weights; far* standard normal times 40; the rest standard
normal.

    python e2e_grad_loss64.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input, run_grad_cases  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

CASES, registered = case_registry()
F64 = "float64"


def case(fn):
    """A grad case that also fetches its forward outputs."""
    fn.fetch_outs = True
    return registered(fn)


def data(name, shape):
    return grad_input(name, shape, F64)


def label(name, shape, dtype=F64):
    return paddle.static.data(name, shape, dtype)


# ---- softmax_with_cross_entropy ----

@case
def swce_hard():
    x, lbl = data("x", [-1, 5]), label("label_c5", [-1, 1], "int64")
    return ["x", "label_c5"], [F.softmax_with_cross_entropy(x, lbl)], [x]


@case
def swce_hard_ignore():
    x, lbl = data("x", [8, 5]), label("label_c5", [8, 1], "int64")
    return ["x", "label_c5"], [F.softmax_with_cross_entropy(x, lbl, ignore_index=2)], [x]


@case
def swce_hard_axis1_int32():
    x, lbl = data("x", [2, 4, 3]), label("label_c4", [2, 1, 3], "int32")
    return ["x", "label_c4"], [F.softmax_with_cross_entropy(x, lbl, ignore_index=1, axis=1)], [x]


@case
def swce_far_logits():
    """Logits 40 sigma apart: exp(x - max) clipped at exp(-64), as Paddle's
    SoftmaxFunctor does (a loss of about 64 where the label is far below)."""
    x, lbl = data("far", [6, 4]), label("label_c4", [6, 1], "int64")
    return ["far", "label_c4"], [F.softmax_with_cross_entropy(x, lbl)], [x]


@case
def softmax_far_logits():
    """softmax and log_softmax (softmax.c's float64) of logits far apart:
    Paddle's SoftmaxFunctor / LogSoftmaxFunctor clip x - max at -64 too
    (log_softmax -64 - log(sum), not -100)."""
    x = data("far", [5, 4])
    return ["far"], [F.softmax(x), F.log_softmax(x)], [x]


@case
def cross_entropy_far():
    """The legacy cross_entropy on such a softmax: -log(exp(-64) / sum)."""
    x, lbl = data("far", [6, 4]), label("label_c4", [6, 1], "int64")
    return ["far", "label_c4"], [legacy_ce(F.softmax(x), lbl, soft_label=False)], [x]


@case
def swce_soft():
    x, lbl = data("x", [-1, 5]), label("soft", [-1, 5])
    return ["x", "soft"], [F.softmax_with_cross_entropy(x, lbl, soft_label=True)], [x]


@case
def swce_soft_axis0():
    x, lbl = data("x", [4, 3]), label("soft", [4, 3])
    return ["x", "soft"], [F.softmax_with_cross_entropy(x, lbl, soft_label=True, axis=0)], [x]


@case
def swce_no_softmax_hard():
    x, lbl = data("x", [6, 5]), label("label_c5", [6, 1], "int64")
    loss = F.cross_entropy(F.softmax(x), lbl, use_softmax=False, reduction="none", ignore_index=3)
    return ["x", "label_c5"], [loss], [x]


@case
def swce_no_softmax_soft():
    x, lbl = data("x", [6, 5]), label("soft", [6, 5])
    loss = F.cross_entropy(F.softmax(x), lbl, soft_label=True, use_softmax=False, reduction="none")
    return ["x", "soft"], [loss], [x]


@case
def cross_entropy_mean():
    """F.cross_entropy as a float64 classifier calls it (mean reduction)."""
    x, lbl = data("x", [-1, 7]), label("label_c7", [-1, 1], "int64")
    return ["x", "label_c7"], [F.cross_entropy(x, lbl)], [x]


# ---- cross_entropy, cross_entropy2 ----

def legacy_ce(x, lbl, **attrs):
    return op("cross_entropy", {"X": x, "Label": lbl}, {"Y": [F64]}, attrs)[0]


@case
def cross_entropy_hard():
    x, lbl = data("x", [6, 5]), label("label_c5", [6, 1], "int64")
    return ["x", "label_c5"], [legacy_ce(F.softmax(x), lbl, soft_label=False, ignore_index=4)], [x]


@case
def cross_entropy_soft():
    x, lbl = data("x", [2, 3, 5]), label("soft", [2, 3, 5])
    return ["x", "soft"], [legacy_ce(F.softmax(x), lbl, soft_label=True)], [x]


@case
def cross_entropy2():
    x, lbl = data("x", [-1, 5]), label("label_c5", [-1, 1], "int64")
    y = op("cross_entropy2", {"X": F.softmax(x), "Label": lbl},
           {"Y": [F64], "XShape": [F64], "MatchX": [F64]}, {"ignore_index": 0})[0]
    return ["x", "label_c5"], [y], [x]


# ---- sigmoid_cross_entropy_with_logits, bce_loss ----

def sce(x, lbl, pos_weight=None, **attrs):
    inputs = {"X": x, "Label": lbl}
    if pos_weight is not None:
        inputs["pos_weight"] = pos_weight
    return op("sigmoid_cross_entropy_with_logits", inputs, {"Out": [F64]}, attrs)[0]


@case
def sce_plain():
    x, lbl = data("x", [-1, 5]), label("lab", [-1, 5])
    return ["x", "lab"], [F.binary_cross_entropy_with_logits(x, lbl, reduction="none")], [x]


@case
def sce_pos_weight_mean():
    x, lbl, w = data("x", [-1, 4]), label("lab", [-1, 4]), label("pw", [4])
    return ["x", "lab", "pw"], [F.binary_cross_entropy_with_logits(x, lbl, pos_weight=w)], [x]


@case
def sce_ignore():
    x, lbl = data("x", [3, 7]), label("ign", [3, 7])
    return ["x", "ign"], [sce(x, lbl, normalize=False, ignore_index=-1)], [x]


@case
def sce_normalize_pos_weight():
    x, lbl, w = data("x", [4, 5]), label("ign", [4, 5]), label("pw", [4, 5])
    return ["x", "ign", "pw"], [sce(x, lbl, w, normalize=True, ignore_index=-1)], [x]


@case
def bce():
    p, lbl = data("prob", [-1, 6]), label("lab", [-1, 6])
    return ["prob", "lab"], [F.binary_cross_entropy(p, lbl, reduction="none")], [p]


@case
def bce_sigmoid_mean():
    x, lbl = data("x", [-1, 3]), label("lab", [-1, 3])
    return ["x", "lab"], [F.binary_cross_entropy(F.sigmoid(x), lbl)], [x]


# ---- huber_loss, kldiv_loss ----

@case
def huber():
    x, y = data("x", [-1, 3, 4]), data("y", [-1, 3, 4])
    out = op("huber_loss", {"X": x, "Y": y}, {"Out": [F64], "Residual": [F64]}, {"delta": 0.7})[0]
    return ["x", "y"], [out], [x, y]


@case
def huber_smooth_l1_mean():
    x, y = data("x", [-1, 5]), data("y", [-1, 5])
    return ["x", "y"], [F.smooth_l1_loss(x, y, delta=1.5)], [x]


def kldiv(reduction, shape):
    x, t = data("x", shape), label("tgt", shape)
    loss = op("kldiv_loss", {"X": x, "Target": t}, {"Loss": [F64]}, {"reduction": reduction})[0]
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


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    m = re.fullmatch(r"label_c(\d+)", v.name)
    if m:
        return rng.integers(0, int(m.group(1)), shape).astype(str(v.dtype).replace("paddle.", ""))
    if v.name.startswith("soft") or v.name.startswith("lab"):
        return rng.random(shape)
    if v.name.startswith("prob"):
        return rng.uniform(0.05, 0.95, shape)
    if v.name.startswith("ign"):
        return rng.choice(np.array([0.0, 0.5, 1.0, -1.0, -100.0]), shape)
    if v.name.startswith("tgt"):
        return rng.uniform(-0.2, 1.0, shape)
    if v.name.startswith("pw"):
        return rng.uniform(0.2, 3.0, shape)
    if v.name.startswith("far"):
        return rng.standard_normal(shape) * 40.0
    return rng.standard_normal(shape)


if __name__ == "__main__":
    paddle.set_default_dtype(F64)
    run_grad_cases(CASES, make_input, sys.argv)
