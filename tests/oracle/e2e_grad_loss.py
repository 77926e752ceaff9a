"""Gradient cases of softmax and the classification losses: softmax_grad and
log_softmax_grad (last and middle axis), softmax_with_cross_entropy (hard
labels with ignore_index, soft labels, a middle class axis, use_softmax off)
and the legacy cross_entropy / cross_entropy2, forward and grad, checked
against Paddle's own grad ops (oracle_case.build_grad_case).

Feeds named label_c<N> are hard labels drawn in [0, N); soft_* are soft
labels (positive floats).

    python e2e_grad_loss.py OUTDIR [CASE ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, case_registry, grad_input as data, run_grad_cases  # noqa: E402

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


def make_input(v, rng):
    shape = [3 if d < 0 else d for d in v.shape]
    m = re.fullmatch(r"label_c(\d+)", v.name)
    if m:
        return rng.integers(0, int(m.group(1)), shape).astype(str(v.dtype).replace("paddle.", ""))
    if v.name.startswith("soft"):
        return rng.random(shape).astype("float32")
    return rng.standard_normal(shape).astype("float32")


if __name__ == "__main__":
    run_grad_cases(CASES, make_input)
