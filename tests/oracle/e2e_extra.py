#!/usr/bin/env python3
"""Op-level end-to-end cases for the less common inference ops: rrelu at
inference, isnan/isinf/isfinite (v2), atan2, i0/i0e/i1/i1e, flip/reverse,
tril_triu, argsort (ties and NaN), meshgrid, unbind, take_along_axis,
put_along_axis (every reduce mode, with and without include_self),
logsumexp, p_norm (every porder kind, asvector, keepdim, normalize), norm
(l2_normalize), roll, eye, diag_v2, kron, cumprod, size, label_smooth,
set_value (paddle.static.setitem) and index_sample, in float32 and, where
Paddle has them, float64 and int64.

    python e2e_extra.py OUTDIR [CASE ...]

Each case is a small static program (public API where one emits the op,
LayerHelper.append_op for legacy ops and attributes the API hides) covering
the op's attributes.  Float inputs are standard normal; feeds named `ties*`
hold small integers (many equal values), `special*` NaN and infinities;
integer inputs are uniform in the range data() gives.  Batch 2.
tests/oracle/oracle_case.py saves each case with Paddle's reference outputs
(unclipped cases keep the ops' extra outputs)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import append_op as op, run_static_cases, case_registry  # noqa: E402

import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

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


# ---------------------------------------------------------------- element-wise
@unclipped_case
def extra_outputs():
    """rrelu at inference with its Noise output (the slope of each element).
    Saved without clipping extras: Paddle 2.6's default save drops Noise, and
    the reloaded program then fails in Paddle's own kernel."""
    x = data("x", [None, 3, 4])
    outs = list(op("rrelu", {"X": [x]}, {"Out": ["float32"], "Noise": ["float32"]},
                   {"lower": 0.05, "upper": 0.4, "is_test": True}))
    outs.append(F.rrelu(x, training=False))
    return [x], outs


@case
def checks_atan2():
    x = data("x", [None, 3, 4])
    s = data("special", [None, 6])
    i = data("i", [None, 6], "int64")
    outs = [paddle.isnan(s), paddle.isinf(s), paddle.isfinite(s), paddle.isnan(i), paddle.isinf(i),
            paddle.isfinite(i)]
    y = data("y", [None, 3, 4])
    j = data("j", [None, 6], "int64")
    outs += [paddle.atan2(x, y), paddle.atan2(i, j)]  # int64 -> float64
    return [x, s, i, y, j], outs


@case
def activation_specials():
    """NaN and infinities through the clamping activations, alone and fused into a
    convolution's epilogue: Paddle's relu gives 0 for -inf and NaN, its relu6, clip,
    hardtanh, hardsigmoid and celu keep a NaN (Eigen's cwiseMax/cwiseMin)."""
    s = data("special", [None, 8])
    outs = [F.relu(s), F.relu6(s), paddle.clip(s, -0.5, 0.75), F.hardtanh(s), F.hardsigmoid(s),
            F.hardswish(s), F.celu(s, 0.5), F.leaky_relu(s, 0.1)]
    img = data("special_img", [None, 1, 4, 6])  # one channel: a 1x1 conv scales it, infinities survive
    conv = nn.Conv2D(1, 3, 1)
    outs += [F.relu(conv(img)), F.relu6(nn.Conv2D(1, 3, 1)(img)), F.hardswish(nn.Conv2D(1, 3, 1)(img))]
    return [s, img], outs


@case
def bessel():
    x = data("x", [None, 4, 8])
    s = data("special", [None, 8])
    wide = paddle.scale(x, 30.0)  # the power series below 30, the asymptotic expansion above, overflow past 88.7
    outs = []
    for f in (paddle.i0, paddle.i0e, paddle.i1, paddle.i1e):
        outs += [f(x), f(wide), f(s)]
    return [x, s], outs


# ---------------------------------------------------------------- data movement
@case
def flip_tril():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    outs = [paddle.flip(x, [0, -1]), paddle.flip(x, 1), paddle.flip(i, [1]),
            op("reverse", {"X": [x]}, {"Out": ["float32"]}, {"axis": [2]})[0],
            op("flip", {"X": [x]}, {"Out": ["float32"]}, {"axis": [1, 2, 1]})[0],  # flips dim 1 once
            paddle.tril(x), paddle.tril(x, 1), paddle.triu(x), paddle.triu(x, -1), paddle.triu(x, 2),
            paddle.tril(paddle.reshape(i, [-1, 1, 5]) + paddle.zeros([1, 4, 1], "int64"), -2)]
    return [x, i], outs


@case
def argsort_ties():
    t = data("ties", [None, 40, 6])  # 40 > 16: std::sort's introsort, not just its insertion sort
    n = data("special", [None, 6])
    i = data("i", [None, 30], "int64", -3, 3)
    s = data("x", [None, 5, 7])
    outs = []
    for axis, desc in [(1, False), (1, True), (-1, False), (2, True), (0, False)]:
        outs += list(op("argsort", {"X": [t]}, {"Out": ["float32"], "Indices": ["int64"]},
                        {"axis": axis, "descending": desc}))
    outs += [paddle.argsort(n), paddle.argsort(n, descending=True), paddle.sort(n)]
    outs += [paddle.argsort(i), paddle.argsort(i, descending=True), paddle.sort(i, descending=True)]
    outs += [paddle.argsort(s, axis=1), paddle.sort(s, axis=-1, descending=True)]
    return [t, n, i, s], outs


@case
def meshgrid_unbind():
    x = data("x", [None, 3, 4])  # first: the standalone driver reads the batch from the first feed
    a = data("a", [3])
    b = data("b", [4])
    c = data("c", [2])
    outs = list(paddle.meshgrid(a, b, c))
    k = data("k", [5], "int64")
    outs += list(paddle.meshgrid(k, k))
    z = data("z", [2, 3], "int64")
    outs += list(paddle.unbind(x, 1)) + list(paddle.unbind(x, -1)) + list(paddle.unbind(z, 0))
    return [x, a, b, c, k, z], outs


@case
def take_put_along_axis():
    x = data("x", [None, 5, 4])
    idx = data("idx", [None, 3, 4], "int64", 0, 5)
    idx1 = data("idx1", [None, 5, 1], "int64", 0, 4)
    i32 = data("i32", [None, 2, 4], "int32", 0, 5)
    v = data("v", [None, 3, 4])
    outs = [paddle.take_along_axis(x, idx, 1), paddle.take_along_axis(x, idx1, -1),
            paddle.take_along_axis(x, i32, 1)]
    for reduce in ("assign", "add", "mul", "multiply", "mean", "amin", "amax"):
        for include_self in (True, False):
            outs.append(paddle.put_along_axis(x, idx, v, 1, reduce=reduce, include_self=include_self))
    outs.append(paddle.put_along_axis(x, idx1, paddle.cast(idx1, "float32") * 0.5, -1, reduce="add"))
    n = data("n", [None, 6], "int64", -9, 9)
    ni = data("ni", [None, 4], "int64", 0, 6)
    nv = data("nv", [None, 4], "int64", -9, 9)
    for reduce in ("add", "mean", "amax"):
        outs.append(paddle.put_along_axis(n, ni, nv, 1, reduce=reduce, include_self=reduce != "add"))
    return [x, idx, idx1, i32, v, n, ni, nv], outs


@case
def roll_shifts():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64")
    outs = [paddle.roll(x, 2), paddle.roll(x, -7), paddle.roll(x, [1, -2], [1, 2]), paddle.roll(x, [1, 3], [2, 2]),
            paddle.roll(x, 1, 0), paddle.roll(i, [4], [-1]), paddle.roll(x, [5], [-2])]
    return [x, i], outs


# ---------------------------------------------------------------- reductions and norms
@case
def logsumexp_norms():
    x = data("x", [None, 3, 4])
    outs = [paddle.logsumexp(x, axis=1), paddle.logsumexp(x, axis=[0, 2], keepdim=True), paddle.logsumexp(x),
            paddle.logsumexp(x, axis=-1, keepdim=True), paddle.logsumexp(x, axis=[0, 1, 2])]
    for p in (0, float("inf"), float("-inf"), 1, 2, 3.5, -1.5):
        outs.append(paddle.linalg.norm(x, p, axis=1))
    outs += [paddle.linalg.norm(x, float("inf")), paddle.linalg.norm(x, 3.0, axis=-1, keepdim=True)]
    outs += op("p_norm", {"X": [x]}, {"Out": ["float32"]},
               {"porder": 2.5, "axis": 0, "epsilon": 1e-6, "keepdim": True, "asvector": True})
    outs += op("p_norm", {"X": [x]}, {"Out": ["float32"]}, {"porder": 0.5, "axis": 0})
    outs += [F.normalize(x, axis=1), F.normalize(x, p=1, axis=-1)]
    # norm (l2_normalize): saving sets is_test, so Norm is never written -- only Out is fetched
    for attrs in ({"axis": 1, "epsilon": 1e-6}, {"axis": -1}, {"axis": 0, "is_test": True}):
        outs += op("norm", {"X": [x]}, {"Out": ["float32"], "Norm": ["float32"]}, attrs)[:1]
    return [x], outs


@case
def cumprod_kron_size():
    x = data("x", [None, 3, 4])
    i = data("i", [None, 5], "int64", -3, 4)
    outs = [paddle.cumprod(x, 1), paddle.cumprod(x, -1), paddle.cumprod(x, 0), paddle.cumprod(i, 1)]
    a = data("a", [2, 3])
    b = data("b", [None, 2, 2])
    m = data("m", [3, 2], "int64")
    outs += [paddle.kron(a, b), paddle.kron(b, a), paddle.kron(m, m)]
    outs += [paddle.numel(x), paddle.numel(a)]
    return [x, i, a, b, m], outs


@case
def float64_paths():
    x = data("x", [None, 3, 4], "float64")
    y = data("y", [None, 3, 4], "float64")
    idx = data("idx", [None, 2, 4], "int32", 0, 3)
    outs = [paddle.logsumexp(x, axis=1), paddle.linalg.norm(x, 2.5, axis=-1), paddle.linalg.norm(x, 0, axis=1),
            paddle.linalg.norm(x, float("inf"), axis=0, keepdim=True), paddle.atan2(x, y),
            F.label_smooth(x, epsilon=0.1), paddle.argsort(x, axis=1, descending=True), paddle.cumprod(y, 2),
            paddle.put_along_axis(x, idx, paddle.cast(idx, "float64"), 1, reduce="mul"),
            paddle.take_along_axis(y, idx, 1)]
    outs += op("norm", {"X": [x]}, {"Out": ["float64"], "Norm": ["float64"]}, {"axis": 2})[:1]
    return [x, y, idx], outs


# ---------------------------------------------------------------- constructions
@case
def eye_diag_label_smooth():
    x = data("x", [None, 4])
    v = data("v", [5])
    m = data("m", [4, 6])
    k = data("k", [3], "int64")
    outs = [paddle.eye(3, 4), paddle.eye(5, dtype="int64"), paddle.eye(2, 2, dtype="float64"),
            paddle.diag(v), paddle.diag(v, offset=1, padding_value=2.5), paddle.diag(v, offset=-2),
            paddle.diag(m), paddle.diag(m, 2), paddle.diag(m, -1), paddle.diag(k, 1, padding_value=-3),
            paddle.diagflat(m, -1)]
    outs += [F.label_smooth(x, epsilon=0.2), F.label_smooth(x)]
    prior = paddle.full([1, 4], 0.25, "float32") + paddle.arange(4, dtype="float32") * 0.01
    outs.append(F.label_smooth(x, prior_dist=prior, epsilon=0.3))
    return [x, v, m, k], outs


@case
def set_value_items():
    x = data("x", [None, 3, 4])
    y = data("y", [None, 4])
    w = data("w", [4])
    setitem = paddle.static.setitem
    outs = [setitem(x, (slice(None), 0), 1.5),                       # decrease axis, scalar value
            setitem(x, (slice(None), 1), y),                         # a tensor value
            setitem(x, (Ellipsis, slice(1, 3)), -2.0),
            setitem(x, (slice(None), slice(None, None, 2), slice(-3, None)), w[1:]),  # broadcast value
            setitem(x, (slice(None), slice(None, None, -2)), 7.0),   # negative step
            setitem(x, (slice(None), slice(2, 0, -1), slice(3, -10, -2)), w[:2]),
            setitem(x, (slice(None), 1, None), paddle.unsqueeze(y, 1)),  # none axis
            setitem(x, (slice(None), slice(1, 100)), 0.0),           # end past the dim
            setitem(x, (slice(None), slice(2, 2)), 9.0)]             # empty slice
    one = paddle.full([1], 1, "int64")  # a start from a tensor (StartsTensorList), constant at compile time
    outs.append(setitem(x, (slice(None), slice(one, 3), slice(None, None, 3)), -1.0))
    i = data("i", [None, 5], "int64")
    outs += [setitem(i, (slice(None), slice(1, 4)), 7), setitem(i, (slice(None), -1), i[:, 0])]
    outs += op("set_value", {"Input": [x]}, {"Out": ["float32"]},
               {"axes": [2], "starts": [1], "ends": [3], "steps": [1], "values": [2.0, -4.0], "shape": [2],
                "dtype": 5})
    return [x, y, w, i], outs


@case
def index_sample_select():
    x = data("x", [None, 6])
    i64 = data("i64", [None, 3], "int64", 0, 6)
    i32 = data("i32", [None, 8], "int32", 0, 6)
    n = data("n", [None, 6], "int64")
    return [x, i64, i32, n], [paddle.index_sample(x, i64), paddle.index_sample(x, i32), paddle.index_sample(n, i64)]


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
    return x


if __name__ == "__main__":
    run_static_cases(CASES, make_input)
