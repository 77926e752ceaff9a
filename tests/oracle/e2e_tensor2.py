#!/usr/bin/env python3
"""Op-level end-to-end cases for scans, diagonals, crops and order
statistics: cummax, cummin, logcumsumexp, diagonal, diag_embed, trace,
crop_tensor, mode, nanmedian and histogram, in float32 and, where Paddle
has them, float64 and int32/int64.

    python e2e_tensor2.py OUTDIR [CASE ...]

Each case is a small static program built with the public API (LayerHelper
for attributes the API hides) covering the op's attributes.  Float inputs
are standard normal; feeds named `ties*` hold small integers (many equal
values), `special*` NaN and infinities, `nan*` NaN in some places and rows
that are all NaN; integer inputs are uniform in the range data() gives.
Batch 2, the batch dim None in every feed.  tests/oracle/oracle_case.py
saves each case with Paddle's reference outputs."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402

BATCH = 2
CASES, case = case_registry()
INT_RANGE = {}  # feed name -> (low, high) for integer feeds


def unclipped_case(fn):
    """A case saved with the ops' extra inputs and outputs kept
    (oracle_case.build_static_case's keep_extra_attrs)."""
    fn.keep_extra_attrs = True
    return case(fn)


def data(name, shape, dtype="float32", low=-5, high=5):
    INT_RANGE[name] = (low, high)
    return paddle.static.data(name, shape, dtype)


# ---------------------------------------------------------------- scans
@case
def cum_maxmin():
    t = data("ties", [None, 7, 5])
    s = data("special", [None, 9])
    i = data("i", [None, 6], "int64", -3, 3)
    j = data("j", [None, 3, 4], "int32", -2, 2)
    d = data("d", [None, 4, 3], "float64")
    outs = []
    for f in (paddle.cummax, paddle.cummin):
        outs += list(f(t, axis=1)) + list(f(t, axis=-1)) + list(f(t, axis=0)) + list(f(t))
        outs += list(f(s, axis=1)) + list(f(i, axis=1, dtype="int32")) + list(f(j, axis=2)) + list(f(d, axis=1))
    return [t, s, i, j, d], outs


@case
def logcumsumexp():
    x = data("x", [None, 3, 4])
    s = data("special", [None, 7])
    d = data("d", [None, 5], "float64")
    outs = [paddle.logcumsumexp(x), paddle.logcumsumexp(x, axis=1), paddle.logcumsumexp(x, axis=0),
            paddle.logcumsumexp(s, axis=-1), paddle.logcumsumexp(d, axis=1)]
    for attrs in ({"axis": 1, "exclusive": True}, {"axis": 2, "reverse": True},
                  {"axis": 1, "exclusive": True, "reverse": True}, {"axis": -1, "flatten": True, "exclusive": True}):
        outs += op("logcumsumexp", {"X": [x]}, {"Out": ["float32"]}, attrs)
    w = paddle.scale(x, 100.0)  # large magnitudes: the max-shifted form must not overflow
    outs.append(paddle.logcumsumexp(w, axis=2))
    return [x, s, d], outs


# ---------------------------------------------------------------- diagonals and crops
@case
def diagonals():
    x = data("x", [None, 4, 5, 3])
    m = data("m", [3, 5])
    i = data("i", [None, 3, 3], "int64")
    # (a diagonal along the batch dim has a length that is not linear in the batch: not compiled)
    outs = [paddle.diagonal(x, 0, 1, 2), paddle.diagonal(x, 1, 1, 2), paddle.diagonal(x, -2, 2, 1),
            paddle.diagonal(x, 2, -1, 1), paddle.diagonal(x, -1, 1, 3), paddle.diagonal(m), paddle.diagonal(m, 3),
            paddle.diagonal(m, -1), paddle.diagonal(m, 7), paddle.diagonal(i, 0, 1, 2),
            paddle.trace(x, 0, 1, 2), paddle.trace(x, 1, 3, 1), paddle.trace(x, -3, -1, -2), paddle.trace(m),
            paddle.trace(m, 2), paddle.trace(m, -1), paddle.trace(m, 9), paddle.trace(i, 0, 1, 2)]
    v = data("v", [None, 4])
    outs += [paddle.nn.functional.diag_embed(v), paddle.nn.functional.diag_embed(v, 1),
             paddle.nn.functional.diag_embed(v, -2, 0, 2), paddle.nn.functional.diag_embed(x, 0, 1, 3),
             paddle.nn.functional.diag_embed(x, 1, -1, 1), paddle.nn.functional.diag_embed(i, -1, 2, 0)]
    return [x, m, i, v], outs


@case
def crops():
    x = data("x", [None, 4, 5, 6])
    i = data("i", [None, 7], "int64")
    outs = [paddle.crop(x, shape=[-1, 2, 3, 4], offsets=[0, 1, 1, 2]), paddle.crop(x, shape=[-1, -1, 3, -1],
                                                                                     offsets=[0, 2, 2, 1]),
            paddle.crop(x, shape=[-1, 4, 5, 6]), paddle.crop(i, shape=[-1, 3], offsets=[0, 4])]
    shape = paddle.assign(np.array([-1, 3, 3, 3], "int32"))  # a Shape tensor, constant at compile time
    offs = paddle.full([4], 1, "int32") * paddle.to_tensor(np.array([0, 1, 1, 1], "int32"))
    outs += [paddle.crop(x, shape=[-1, 3, 3, 3], offsets=offs), paddle.crop(x, shape=shape)]
    return [x, i], outs


# ---------------------------------------------------------------- order statistics
@case
def mode_median():
    t = data("ties", [None, 40, 6])  # 40 > 16: std::sort's introsort decides the order of equal values
    x = data("x", [None, 5, 7])
    i = data("i", [None, 30], "int64", -3, 3)
    s = data("special", [None, 9])
    outs = []
    for axis, keep in ((1, False), (-1, True), (0, False), (2, False)):
        outs += list(paddle.mode(t, axis, keep))
    outs += list(paddle.mode(x, 1)) + list(paddle.mode(i)) + list(paddle.mode(s))
    return [t, x, i, s], outs


@unclipped_case
def nanmedian():
    """Saved without clipping extras: Paddle 2.6's default save drops the
    intermediate MedianIndex, and the reloaded program then crashes in
    Paddle's own NanmedianInferMeta."""
    x = data("x", [None, 5, 7])
    n = data("nan", [None, 4, 6])
    t = data("ties", [None, 3, 8])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 5], "int32", -9, 9)
    outs = [paddle.nanmedian(x), paddle.nanmedian(x, axis=1), paddle.nanmedian(x, axis=[0, 2], keepdim=True),
            paddle.nanmedian(x, axis=-1), paddle.nanmedian(n), paddle.nanmedian(n, axis=2),
            paddle.nanmedian(n, axis=[1, 2], keepdim=True), paddle.nanmedian(t, axis=1), paddle.nanmedian(i, axis=1),
            paddle.nanmedian(j, axis=1), paddle.nanmedian(x, keepdim=True)]
    return [x, n, t, i, j], outs


@case
def histogram():
    x = data("x", [None, 5, 7])
    i = data("i", [None, 30], "int64", -3, 3)
    j = data("j", [None, 8], "int32", -9, 9)
    d = data("d", [None, 6], "float64")
    s = data("special", [None, 9])
    c = paddle.full([3], 2.0, "float32")
    outs = [paddle.histogram(x), paddle.histogram(x, 7, -1, 2), paddle.histogram(x, 4, 0, 0), paddle.histogram(i, 5),
            paddle.histogram(i, 3, -2, 1), paddle.histogram(j, 6), paddle.histogram(d, 9, -1, 1),
            paddle.histogram(s, 5, -2, 2), paddle.histogram(c, 4)]  # all equal: the range widens by 1 each way
    return [x, i, j, d, s], outs


# ---------------------------------------------------------------- driver
def make_input(v, rng):
    shape = [BATCH if d in (None, -1) else d for d in v.shape]
    dt = str(v.dtype)
    if "int" in dt:
        low, high = INT_RANGE[v.name]
        return rng.integers(low, high, size=shape).astype("int64" if "int64" in dt else "int32")
    if v.name.startswith("ties"):
        return rng.integers(0, 4, size=shape).astype("float32")
    x = rng.standard_normal(shape).astype("float64" if "float64" in dt else "float32")
    if v.name.startswith("special"):
        flat = x.reshape(-1)
        flat[::5] = np.nan
        flat[1::7] = np.inf
        flat[3::11] = -np.inf
    if v.name.startswith("nan"):
        flat = x.reshape(-1)
        flat[::4] = np.nan
        x[0, 1, :] = np.nan  # a whole row
    return x


if __name__ == "__main__":
    run_static_cases(CASES, make_input)
